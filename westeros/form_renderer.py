"""The forms' renderer (settings.FORM_RENDERER, issue 27): Django's widget and form templates rendered
by Jinja2 (Django ships a Jinja2 copy of each), half the CPU of the template language for the same HTML;
a template with no Jinja2 copy (the admin's widget wrappers) by Django's template language as before."""
from __future__ import annotations

from functools import cached_property

from django.forms.renderers import BaseRenderer, DjangoTemplates, Jinja2
from django.template.exceptions import TemplateDoesNotExist


class SiteFormRenderer(BaseRenderer):
    @cached_property
    def jinja2(self) -> Jinja2:
        return Jinja2()

    @cached_property
    def django(self) -> DjangoTemplates:
        return DjangoTemplates()

    def get_template(self, template_name: str):
        try:
            return self.jinja2.get_template(template_name)
        except TemplateDoesNotExist:
            return self.django.get_template(template_name)
