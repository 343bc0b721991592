"""Translations of the games' own words (issue 29): the Spanish glossary of each ruleset, built from the
Spanish rulebooks (the seeds) and read by games.i18n.glossary."""
