"""Every catalog is complete and consistent with the English source.

The catalogs are checked against the committed templates (``lang/locales/*.pot``), which
``test_templates.py`` keeps equal to what the code marks: a sentence added to the code fails
there until the template is regenerated, then here until every language translates it; what is
asked of a translation never depends on the installed Babel's extraction.
Scope: the ``conductor`` domain (``bot/``, ``lang/``: what the bot and the terminal say, the
refusals, the slash commands of ``bot/discord_app/cogs.py``) and the ``pictures`` domain
(labels drawn by ``render/``).
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.plurals import get_plural
from babel.messages.pofile import read_po

import lang
from lang.extract import committed_template
from lang.refusals import SENTENCES

ROOT = Path(__file__).resolve().parents[2]
TRANSLATED = [code for code in lang.languages() if code != lang.SOURCE_LANGUAGE]
PLACEHOLDER = re.compile(r"\{(\w+)\}")


def _catalog(code: str, domain: str) -> Catalog:
    with lang.catalog_path(code, domain).open("rb") as f:
        return read_po(f, locale=code, domain=domain)


def _forms(value: object) -> list[str]:
    return list(value) if isinstance(value, (tuple, list)) else [str(value or "")]


@pytest.fixture(scope="module", params=lang.DOMAINS)
def source(request: pytest.FixtureRequest) -> tuple[str, Catalog]:
    return request.param, committed_template(request.param)


def test_italian_french_and_german_are_found_from_the_catalog_folders() -> None:
    """A language is a catalog folder: the three translations and the English source."""
    assert {"en", "it", "fr", "de"} <= set(lang.languages())


@pytest.mark.parametrize("code", TRANSLATED)
def test_every_source_sentence_is_translated(source: tuple[str, Catalog], code: str) -> None:
    """No entry of the committed template is missing, empty or fuzzy in any language."""
    domain, tpl = source
    catalog = _catalog(code, domain)
    missing = []
    for message in tpl:
        if not message.id:
            continue
        found = catalog.get(message.id, context=message.context)
        if found is None or found.fuzzy or not all(form.strip() for form in _forms(found.string)):
            missing.append((message.context, message.id))
    assert not missing, f"{code}/{domain}: {len(missing)} untranslated, e.g. {missing[:5]}"


@pytest.mark.parametrize("code", TRANSLATED)
def test_translations_keep_the_sources_placeholders(source: tuple[str, Catalog], code: str) -> None:
    """Each form names exactly the source's ``{placeholders}``; only a singular form may leave out
    its count ``{n}`` (Italian "l'unico percorso", French "la route")."""
    domain, tpl = source
    catalog = _catalog(code, domain)
    wrong = []
    for message in tpl:
        found = catalog.get(message.id, context=message.context) if message.id else None
        if found is None:
            continue
        expected = set().union(*(PLACEHOLDER.findall(f) for f in _forms(message.id)))
        for index, form in enumerate(_forms(found.string)):
            got = set(PLACEHOLDER.findall(form))
            allowed_missing = {"n"} if index == 0 and isinstance(message.id, tuple) else set()
            if got - expected or expected - got - allowed_missing:
                wrong.append((message.id, form))
    assert not wrong, f"{code}/{domain}: {wrong[:5]}"


@pytest.mark.parametrize("code", TRANSLATED)
def test_plural_forms_follow_the_languages_cldr_rule(code: str) -> None:
    """The catalog declares Babel's (CLDR) plural rule for its language, every plural entry has
    that many forms, and Babel's own checkers find nothing wrong."""
    for domain in lang.DOMAINS:
        catalog = _catalog(code, domain)
        rule = get_plural(code)
        assert catalog.num_plurals == rule.num_plurals
        assert catalog.plural_expr == rule.plural_expr
        for message in catalog:
            if isinstance(message.id, tuple):
                assert len(message.string) == rule.num_plurals, message.id
        errors = [(m.id, [str(e) for e in errs]) for m, errs in catalog.check()]
        assert not errors, errors[:5]


def test_plural_choice_at_run_time_is_the_languages() -> None:
    """French says "0 carte" (0 is singular), Italian and German "0 carte"/"0 Karten" (plural)."""
    assert lang.translator("fr").ngettext("{n} card", "{n} cards", 0) == "0 carte"
    assert lang.translator("it").ngettext("{n} card", "{n} cards", 0) == "0 carte"
    assert lang.translator("it").ngettext("{n} card", "{n} cards", 1) == "1 carta"
    assert lang.translator("de").ngettext("{n} card", "{n} cards", 0) == "0 Karten"
    assert lang.translator("en").ngettext("{n} card", "{n} cards", 1) == "1 card"


@pytest.mark.parametrize(("tag", "code"), [
    ("it", "it"), ("fr", "fr"), ("de", "de"), ("en-US", "en"), ("en-GB", "en"), ("it_IT.UTF-8", "it"),
    ("de_DE@euro", "de"), ("fr-CA", "fr"), ("pt-BR", "en"), ("C", "en"), ("", "en"), (None, "en"),
])
def test_normalise_reads_discord_and_posix_locales(tag: str | None, code: str) -> None:
    assert lang.normalise(tag) == code


def test_environment_language_follows_posix_precedence() -> None:
    """LC_ALL beats LC_MESSAGES beats LANG; nothing set is English."""
    assert lang.environment_language({"LANG": "de_DE.UTF-8", "LC_ALL": "it_IT.UTF-8"}) == "it"
    assert lang.environment_language({"LANG": "fr_FR.UTF-8", "LC_MESSAGES": "de_DE"}) == "de"
    assert lang.environment_language({"LANG": "fr_FR.UTF-8"}) == "fr"
    assert lang.environment_language({}) == "en"


def _raise_sites() -> dict[str, list[set[str]]]:
    """Every ``IllegalAction(code, …, **params)`` in ``rules/``: the param names of each site."""
    sites: dict[str, list[set[str]]] = {}
    for path in (ROOT / "rules").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (isinstance(node, ast.Call) and getattr(node.func, "id", None) == "IllegalAction" and node.args
                    and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)):
                sites.setdefault(node.args[0].value, []).append({k.arg for k in node.keywords if k.arg})
    return sites


def test_every_refusal_code_has_a_sentence_whose_facts_every_raise_site_gives() -> None:
    """A refusal is worded from its code: each code the rules raise has a catalog sentence, and the
    sentence names only facts (``params``) that every raise site of that code passes."""
    sites = _raise_sites()
    assert sites, "no raise sites found"
    missing = sorted(code for code in sites if code not in SENTENCES)
    assert not missing
    for code, kwargs in sites.items():
        needed = set(PLACEHOLDER.findall(SENTENCES[code].id))
        for given in kwargs:
            assert needed <= given, (code, needed - given)


def test_a_refusal_reads_in_the_readers_language_and_keeps_the_engine_english() -> None:
    from lang.refusals import refusal

    said = refusal("route_taken", "Bern–Zürich (CH012) is already claimed.", {"route": "Bern–Zürich"})
    assert said.text("en") == "Bern–Zürich (CH012) is already claimed."  # type: ignore[union-attr]
    assert said.text("it") == "Bern–Zürich è già stata costruita."  # type: ignore[union-attr]
    assert said.text("de") == "Bern–Zürich ist schon gebaut."  # type: ignore[union-attr]
