"""The forms' renderer (westeros/form_renderer.py, issue 27): Django's widget templates rendered by
Jinja2, the same fields and values as Django's template language gives; templates without a Jinja2
copy (the admin's) still rendered."""
from __future__ import annotations

import re

from django import forms
from django.forms.renderers import DjangoTemplates
from django.template.backends.django import Template as DjangoTemplate
from django.template.backends.jinja2 import Template as Jinja2Template

from westeros.form_renderer import SiteFormRenderer


class Sample(forms.Form):
    name = forms.CharField(max_length=20, initial="Robb's <host>", help_text="who leads")
    house = forms.ChoiceField(choices=[("stark", "Stark"), ("lannister", "Lannister's")], initial="lannister")
    ranked = forms.BooleanField(required=False, initial=True)


def shape(html: str) -> str:
    """The HTML without the whitespace between tags, apostrophes escaped one way."""
    return re.sub(r">\s+<", "><", html.replace("&#x27;", "&#39;")).strip()


def test_widgets_are_rendered_by_jinja2_the_admins_own_by_django_templates():
    renderer = SiteFormRenderer()
    assert isinstance(renderer.get_template("django/forms/widgets/select.html"), Jinja2Template)
    assert isinstance(renderer.get_template("admin/widgets/related_widget_wrapper.html"), DjangoTemplate)


def test_a_form_reads_the_same_as_with_djangos_template_language():
    ours = Sample(renderer=SiteFormRenderer())
    theirs = Sample(renderer=DjangoTemplates())
    for name in ("name", "house", "ranked"):
        assert shape(str(ours[name])) == shape(str(theirs[name]))
    html = str(ours["house"])
    assert '<option value="lannister" selected>Lannister&#39;s</option>' in html.replace("&#x27;", "&#39;")
    assert 'value="Robb&#39;s &lt;host&gt;"' in str(ours["name"]).replace("&#x27;", "&#39;")  # escaped
    bound = Sample({"name": "", "house": "tully"}, renderer=SiteFormRenderer())
    assert not bound.is_valid()
    assert "Select a valid choice" in str(bound["house"].errors) and "required" in str(bound["name"].errors)


def test_a_selects_options_tag_marks_the_chosen_value_and_escapes_the_labels():
    """{% options %} (westeros/templatetags/select_options.py): the lobby and challenge forms' option lists,
    written as their loops wrote them. The value posted comes back as text, so 600 marks the option 600; an
    empty value marks the default."""
    from django.template import engines
    from django.utils.translation import gettext_lazy, override

    page = engines["django"].from_string("{% load select_options %}{% options choices data.time %}|"
                                         "{% options choices data.missing 600 %}|{% options choices '' %}")
    choices = [(120, "2 <minutes>"), (600, gettext_lazy("Password"))]
    with override("es"):
        html = page.render({"choices": choices, "data": {"time": "120"}})
    first, defaulted, none = html.split("|")
    assert first == '<option value="120" selected>2 &lt;minutes&gt;</option><option value="600" >Contraseña</option>'
    assert defaulted == '<option value="120" >2 &lt;minutes&gt;</option><option value="600" selected>Contraseña</option>'
    assert "selected" not in none
