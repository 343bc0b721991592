"""Card-game decks a person builds (issue 30): save, rename, copy, delete, import and export ThronesDB's plain
text, and judge them. The rules are the engine's (games/engine/lcg/decks.py); this module stores decks and answers
in the API's shape. A deck may be saved while it is not legal yet (a builder saves work in progress); only a legal
deck whose every card the engine plays can be brought to a game (`game_deck`)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from games.engine.lcg import data as lcg_data
from games.engine.lcg import decks as rules
from games.errors import GameError
from games.models import Deck

# what the lobbies' deck fields hold for a saved deck: "deck:<id>" (the ready-made decks are their data key)
SAVED_PREFIX = "deck:"
MAX_PLOTS = 20
MAX_DRAW = 200
MAX_TEXT = 20000


def invalid(field: str, message: str) -> GameError:
    return GameError("invalid", message, fields={field: [message]})


@dataclass(frozen=True)
class DeckInput:
    name: str | None = None
    faction: str | None = None
    agenda: str | None = None
    plots: list[str] | None = None
    draw: list[str] | None = None


def ready_made() -> dict[str, dict[str, Any]]:
    """The ready-made decks offered to everyone: the data's constructed decks (legal), then the learn-to-play
    ones (played as they are)."""
    every = lcg_data.all_decks()
    legal = {k: d for k, d in every.items() if rules.is_legal(d)}
    return {**legal, **{k: d for k, d in every.items() if k not in legal}}


def report(deck: dict[str, Any]) -> dict[str, Any]:
    """What the builder shows of a deck: legal or why not, whether the site plays it, the counts."""
    problems = rules.problems(deck)
    missing = rules.unplayable(deck)
    return {
        "legal": not problems,
        "problems": [{"rule": p.rule, "text": p.text} for p in problems],
        "playable": not missing,
        "unplayable": [rules.name(c) for c in missing],
        "unplayable_text": rules.unplayable_sentence(missing) if missing else "",
        "counts": rules.counts(deck),
    }


def _checked(faction: Any, agenda: Any, plots: Any, draw: Any) -> dict[str, Any]:
    """The deck's shape and its card ids checked (400 in words otherwise); its legality is `report`'s."""
    try:
        deck = rules.normalise({"faction": faction, "agenda": agenda, "plots": plots, "draw": draw})
    except rules.DeckFormatError as error:
        raise invalid("deck", error.reason) from None
    if len(deck["plots"]) > MAX_PLOTS:
        raise invalid("plots", gettext("A plot deck of more than %(most)d cards cannot be saved.") % {"most": MAX_PLOTS})
    if len(deck["draw"]) > MAX_DRAW:
        raise invalid("draw", gettext("A draw deck of more than %(most)d cards cannot be saved.") % {"most": MAX_DRAW})
    if deck["faction"] not in lcg_data.FACTIONS:
        raise invalid("faction", gettext("Choose the deck's faction: one of the eight Houses."))
    cards = lcg_data.cards()
    for field in ("plots", "draw"):
        unknown = [c for c in dict.fromkeys(deck[field]) if c not in cards or cards[c].get("synthetic")]
        if unknown:
            raise invalid(field, gettext("Unknown cards: %(cards)s.") % {"cards": ", ".join(unknown[:10])})
    if deck["agenda"] and (deck["agenda"] not in cards or cards[deck["agenda"]]["type"] != "agenda"):
        raise invalid("agenda", gettext("The agenda must be one of the agenda cards, or none."))
    return deck


def _name(raw: Any) -> str:
    name = raw.strip() if isinstance(raw, str) else ""
    if not name:
        raise invalid("name", gettext("Give the deck a name."))
    if len(name) > 80:
        raise invalid("name", gettext("A deck's name has at most 80 characters."))
    return name


def own(deck_id: int, user) -> Deck:
    deck = Deck.objects.filter(pk=deck_id, owner=user).first() if user.is_authenticated else None
    if deck is None:
        raise GameError("not_found", gettext("No such deck, or you may not see it."), status_code=404)
    return deck


def _room(user) -> None:
    if Deck.objects.filter(owner=user).count() >= Deck.MAX_PER_OWNER:
        raise GameError("too_many", gettext("You have %(count)d decks, the most one may keep: delete one first.")
                        % {"count": Deck.MAX_PER_OWNER}, status_code=409)


@transaction.atomic
def do_create_deck(user, given: DeckInput) -> Deck:
    _room(user)
    deck = _checked(given.faction, given.agenda, given.plots or [], given.draw or [])
    return Deck.objects.create(owner=user, name=_name(given.name), faction=deck["faction"],
                               agenda=deck["agenda"] or "", plots=deck["plots"], draw=deck["draw"])


@transaction.atomic
def do_update_deck(deck_id: int, user, given: DeckInput) -> Deck:
    """Rename and/or change the cards; what is not given stays."""
    deck = Deck.objects.select_for_update().filter(pk=own(deck_id, user).pk).get()
    if given.name is not None:
        deck.name = _name(given.name)
    if any(v is not None for v in (given.faction, given.agenda, given.plots, given.draw)):
        checked = _checked(given.faction if given.faction is not None else deck.faction,
                           given.agenda if given.agenda is not None else deck.agenda,
                           given.plots if given.plots is not None else deck.plots,
                           given.draw if given.draw is not None else deck.draw)
        deck.faction, deck.agenda = checked["faction"], checked["agenda"] or ""
        deck.plots, deck.draw = checked["plots"], checked["draw"]
    deck.updated_at = timezone.now()
    deck.save()
    return deck


def do_delete_deck(deck_id: int, user) -> None:
    own(deck_id, user).delete()


def copy_name(name: str) -> str:
    return (gettext("Copy of %(name)s") % {"name": name})[:80]


@transaction.atomic
def do_copy_deck(user, *, deck_id: int | None = None, ready: str | None = None) -> Deck:
    """A copy of one of your decks, or of a ready-made deck, saved as yours."""
    _room(user)
    if ready is not None:
        source = ready_made().get(ready)
        if source is None:
            raise GameError("not_found", gettext("No such ready-made deck."), status_code=404)
        name, cards = source["name"], {k: source[k] for k in ("faction", "agenda", "plots", "draw")}
    else:
        mine = own(int(deck_id or 0), user)
        name, cards = copy_name(mine.name), mine.cards()
    return Deck.objects.create(owner=user, name=name, faction=cards["faction"], agenda=cards["agenda"] or "",
                               plots=list(cards["plots"]), draw=list(cards["draw"]))


def parse(text: Any) -> tuple[dict[str, Any], list[str]]:
    """A deck read from ThronesDB's plain text (400 in words when nothing of a deck is in it)."""
    if not isinstance(text, str) or not text.strip():
        raise invalid("text", gettext("Paste a deck list: its faction, agenda, plots and cards, as ThronesDB exports it."))
    if len(text) > MAX_TEXT:
        raise invalid("text", gettext("A deck list has at most %(most)d characters.") % {"most": MAX_TEXT})
    deck, unread = rules.parse_text(text)
    if deck["faction"] is None:
        raise invalid("text", gettext("The list does not say its faction: add a line such as “House Targaryen”."))
    if not deck["plots"] and not deck["draw"]:
        raise invalid("text", gettext("No card of the Core Set was found in the list."))
    return deck, unread


@transaction.atomic
def do_import_deck(user, text: Any, name: str | None = None) -> tuple[Deck, list[str]]:
    deck, unread = parse(text)
    _room(user)
    checked = _checked(deck["faction"], deck["agenda"], deck["plots"], deck["draw"])
    saved = Deck.objects.create(owner=user, name=_name(name or deck["name"] or gettext("Imported deck")),
                                faction=checked["faction"], agenda=checked["agenda"] or "",
                                plots=checked["plots"], draw=checked["draw"])
    return saved, unread


def validate(faction: Any, agenda: Any, plots: Any, draw: Any) -> dict[str, Any]:
    return report(_checked(faction, agenda, plots or [], draw or []))


def export_text(deck: Deck | dict[str, Any], name: str = "") -> str:
    if isinstance(deck, Deck):
        return rules.format_text(deck.cards(), deck.name)
    return rules.format_text(deck, name or deck.get("name", ""))


# ------------------------------------------------------------------ bringing a deck to a game


def saved_ref(deck: Deck) -> str:
    return f"{SAVED_PREFIX}{deck.pk}"


def saved_id(ref: Any) -> int | None:
    if isinstance(ref, str) and ref.startswith(SAVED_PREFIX) and ref[len(SAVED_PREFIX):].isdigit():
        return int(ref[len(SAVED_PREFIX):])
    return None


def usable(ref: str, user) -> Deck:
    """The saved deck `ref` names, if it is `user`'s, legal and played by the engine; else 400 in words."""
    deck_id = saved_id(ref)
    deck = Deck.objects.filter(pk=deck_id, owner=user).first() if deck_id and user is not None else None
    if deck is None:
        raise invalid("deck", gettext("That deck is not one of your saved decks."))
    why = refusal(deck.cards())
    if why:
        raise invalid("deck", gettext("%(deck)s cannot be played: %(why)s") % {"deck": deck.name, "why": why})
    return deck


def refusal(cards: dict[str, Any]) -> str:
    """Why a deck cannot be brought to a game, in words ('' if it can)."""
    problems = rules.problems(cards)
    if problems:
        return " ".join(p.text for p in problems)
    missing = rules.unplayable(cards)
    return rules.unplayable_sentence(missing) if missing else ""


def game_deck(ref: str, user) -> Any:
    """What a game's options get for a seat: a ready-made deck's key as it is, a saved deck copied (its name and
    cards), so that the game keeps it as it was when the game started."""
    if saved_id(ref) is None:
        return ref
    deck = usable(ref, user)
    return {"name": deck.name, "ref": ref, **deck.cards()}  # ref: a rematch brings the same saved deck


def my_usable_decks(user) -> dict[str, str]:
    """{ref: name} of the user's saved decks a game may take (legal, every card played). The decks are
    read afresh (the query compiled once per process: westeros/compiled.py); each one's judgement is
    kept (is_usable). Every form that offers decks asks it (issue 27)."""
    if user is None or not user.is_authenticated:
        return {}
    from westeros import compiled

    return {saved_ref(d): d.name for d in compiled.models("decks:of", _decks_of_query, user_id=user.pk) if is_usable(d)}


def _decks_of_query(user_id: int):
    return Deck.objects.filter(owner_id=user_id)


_JUDGED: dict[tuple, bool] = {}
JUDGED_KEPT = 4096  # judgements kept per process (all forgotten at once past that)


def _rules_identity() -> tuple:
    """What a judgement depends on besides the deck: the card data and the cards the engine plays (each
    loaded once per process) and the judging functions."""
    from games.engine.lcg import cards as engine_cards

    abilities = engine_cards.ABILITIES
    return id(lcg_data.cards()), id(abilities), len(abilities), id(rules.problems), id(rules.unplayable)


def is_usable(deck: Deck) -> bool:
    """Whether a game may take the saved deck (refusal says nothing), judged once per process under the
    deck's id, its updated_at, its cards and the rules' identity: an edited deck (every change renews
    updated_at, and its cards are in the key too) or other rules is a new key at once, never stale."""
    key = (deck.pk, deck.updated_at, deck.faction, deck.agenda, tuple(deck.plots), tuple(deck.draw),
           _rules_identity())
    judged = _JUDGED.get(key)
    if judged is None:
        judged = not refusal(deck.cards())
        if len(_JUDGED) >= JUDGED_KEPT:
            _JUDGED.clear()
        _JUDGED[key] = judged
    return judged


def public_options(options: Any) -> Any:
    """A game's options as anyone may see them: a saved deck copied into them shows its faction and agenda only
    (its name and lists are its owner's; the engine's view keeps the same, setup.public_deck)."""
    decks = (options or {}).get("decks") if isinstance(options, dict) else None
    if not decks or not any(isinstance(d, dict) for d in (decks.values() if isinstance(decks, dict) else decks)):
        return options
    from games.engine.lcg.setup import public_deck

    shown = ({k: public_deck(v) for k, v in decks.items()} if isinstance(decks, dict)
             else [public_deck(d) for d in decks])
    return {**options, "decks": shown}


def lobby_deck_words(ref: str, viewer) -> str:
    """A member's saved deck on a lobby's page: its name to its owner, its House and agenda to everyone else (what
    the rules reveal); '' for anything else."""
    deck_id = saved_id(ref)
    deck = Deck.objects.filter(pk=deck_id).first() if deck_id is not None else None
    if deck is None:
        return ""
    if viewer is not None and viewer.is_authenticated and deck.owner_id == viewer.pk:
        return gettext("%(name)s (your deck)") % {"name": deck.name}
    agenda = lcg_data.cards().get(deck.agenda) if deck.agenda else None
    if agenda:
        return gettext("a deck of %(house)s with %(agenda)s") % {"house": rules.house(deck.faction),
                                                                   "agenda": agenda["name"]}
    return gettext("a deck of %(house)s") % {"house": rules.house(deck.faction)}
