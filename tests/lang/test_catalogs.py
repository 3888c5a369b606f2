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

import babel
import pytest
from babel.messages.catalog import Catalog
from babel.messages.plurals import get_plural
from babel.messages.pofile import read_po

import lang
from bot.games.catalog import BUILTIN_GAMES  # noqa: F401 - registers every game's refusals
from lang.extract import committed_template
from lang.refusals import SENTENCES

ROOT = Path(__file__).resolve().parents[2]
TRANSLATED = [code for code in lang.languages() if code != lang.SOURCE_LANGUAGE]
PLACEHOLDER = re.compile(r"\{(\w+)\}")
LOCKED_BABEL = next(
    line.split("==")[1].split()[0]
    for line in (ROOT / "requirements.lock").read_text().splitlines()
    if line.lower().startswith("babel==")
)


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
def test_each_catalog_declares_the_plural_rule_of_the_locked_babels_cldr(code: str) -> None:
    """Each catalog's ``Plural-Forms`` is the one Babel derives from its CLDR data for the
    language (``get_plural``): the run time chooses forms with the catalog's own rule, so this is
    where a CLDR release that counts differently (French and Italian gained "many" for exact
    millions) shows up, checked against the Babel ``requirements.lock`` pins."""
    rule = get_plural(code)
    for domain in lang.DOMAINS:
        catalog = _catalog(code, domain)
        assert (catalog.num_plurals, catalog.plural_expr) == (rule.num_plurals, rule.plural_expr), (
            f"{code}/{domain} declares nplurals={catalog.num_plurals}; plural={catalog.plural_expr}, but Babel "
            f"{babel.__version__}'s CLDR gives '{rule.plural_forms}' (requirements.lock pins Babel {LOCKED_BABEL}). "
            f"Install the lock; or, moving the lock to this Babel, give the catalogs this Plural-Forms and write "
            f"each plural entry's forms in the order Babel numbers CLDR's categories (zero, one, two, few, many, other)."
        )


@pytest.mark.parametrize("code", TRANSLATED)
def test_every_plural_entry_has_the_forms_its_catalog_declares(code: str) -> None:
    """Every plural entry has as many forms as its catalog's ``Plural-Forms`` says, and Babel's
    own checkers (placeholders of ``python-format`` entries, number of forms) find nothing wrong."""
    for domain in lang.DOMAINS:
        catalog = _catalog(code, domain)
        short = [
            m.id for m in catalog if isinstance(m.id, tuple) and len(_forms(m.string)) != catalog.num_plurals
        ]
        assert not short, f"{code}/{domain}: not {catalog.num_plurals} forms: {short[:5]}"
        errors = [(m.id, [str(e) for e in errs]) for m, errs in catalog.check()]
        assert not errors, errors[:5]


@pytest.mark.parametrize(
    ("code", "counts"),
    [
        (
            "fr",
            {
                0: "0 carte",
                1: "1 carte",
                2: "2 cartes",
                5: "5 cartes",
                1000: "1000 cartes",
                1_000_000: "1000000 de cartes",
                1_000_001: "1000001 cartes",
                3_000_000: "3000000 de cartes",
            },
        ),
        (
            "it",
            {
                0: "0 carte",
                1: "1 carta",
                2: "2 carte",
                5: "5 carte",
                1000: "1000 carte",
                1_000_000: "1000000 di carte",
                1_000_001: "1000001 carte",
                3_000_000: "3000000 di carte",
            },
        ),
        (
            "de",
            {
                0: "0 Karten",
                1: "1 Karte",
                2: "2 Karten",
                5: "5 Karten",
                1000: "1000 Karten",
                1_000_000: "1000000 Karten",
                1_000_001: "1000001 Karten",
                3_000_000: "3000000 Karten",
            },
        ),
        ("en", {0: "0 cards", 1: "1 card", 2: "2 cards", 1_000_000: "1000000 cards"}),
    ],
)
def test_a_count_reads_in_its_languages_plural_form(code: str, counts: dict[int, str]) -> None:
    """French says "0 carte" (0 and 1 are singular), Italian and German "0 carte"/"0 Karten";
    French and Italian put "de"/"di" between an exact number of millions and its noun ("1000000
    de cartes", CLDR's "many"), German does not. Both run-time paths choose the same form: a
    sentence worded now (``ngettext``) and one kept for later (``Mn``)."""
    for n, said in counts.items():
        assert lang.translator(code).ngettext("{n} card", "{n} cards", n) == said
        assert lang.Mn("{n} card", "{n} cards", n).text(code) == said


COUNT = re.compile(r"(?:N|%s)(?:\*\*)? ")
NO_NOUN_AFTER_THE_COUNT = {
    "and returned {n}.",  # "et en a rendu 1000000.", "e ne ha restituite 1000000."
    "This game needs {low} to {high} players; {n} have joined (add AI seats with /ttr addai?).",
    "conflicting option strings: %s",  # argparse: the count is not written
}
"""Plural sentences (their English plural) whose translations do not follow the count with the
noun it counts, so their exact-millions form is their ordinary plural."""


@pytest.mark.parametrize("code", TRANSLATED)
def test_exact_millions_put_de_or_di_before_the_noun_in_every_plural_sentence(code: str) -> None:
    """In every plural sentence, the form the run time chooses for 1000000 is the one for 1000001
    with "de"/"d'" (French) or "di" (Italian) between the count and the noun it counts ("1000000
    de points", "1000000 di punti"; CLDR's "many"); the same only where no noun follows the count
    (``NO_NOUN_AFTER_THE_COUNT``), and always the same in German, which has no such form."""
    preps = {"fr": ("de ", "d'"), "it": ("di ",)}.get(code, ())
    tr = lang.translator(code)
    wrong = []
    for message in committed_template("conductor"):
        if not isinstance(message.id, tuple):
            continue
        singular, plural = message.id[0], message.id[1]
        keep = {name: "{" + name + "}" for name in PLACEHOLDER.findall(plural) if name != "n"}
        if message.context is None:
            millions, other = (tr.ngettext(singular, plural, n, **keep) for n in (1_000_000, 1_000_001))
        else:
            millions, other = (
                tr.npgettext(message.context, singular, plural, n, **keep) for n in (1_000_000, 1_000_001)
            )
        millions, other = millions.replace("1000000", "N"), other.replace("1000001", "N")
        if not preps or plural in NO_NOUN_AFTER_THE_COUNT:
            expected = {other}
        else:
            expected = {
                other[: m.end()] + prep + other[m.end() :] for m in COUNT.finditer(other) for prep in preps
            }
        if millions not in expected:
            wrong.append((plural, millions, other))
    assert not wrong, (
        f"{code}: {len(wrong)} plural sentences whose form for exact millions is not their plural "
        f"with {' or '.join(map(repr, preps)) or 'nothing'} after the count, e.g. "
        f"(English, form for 1000000, form for 1000001): {wrong[:5]}"
    )


@pytest.mark.parametrize(
    ("tag", "code"),
    [
        ("it", "it"),
        ("fr", "fr"),
        ("de", "de"),
        ("en-US", "en"),
        ("en-GB", "en"),
        ("it_IT.UTF-8", "it"),
        ("de_DE@euro", "de"),
        ("fr-CA", "fr"),
        ("pt-BR", "en"),
        ("C", "en"),
        ("", "en"),
        (None, "en"),
    ],
)
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
            if (
                isinstance(node, ast.Call)
                and getattr(node.func, "id", None) == "IllegalAction"
                and node.args
                and isinstance(node.args[0], ast.Constant)
                and isinstance(node.args[0].value, str)
            ):
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
