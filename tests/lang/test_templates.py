"""The committed templates (``lang/locales/*.pot``) hold exactly the sentences the code marks.

The catalogs are checked against the committed templates (``test_catalogs.py``), so these tests
keep the templates honest: a fresh extraction with the installed Babel gives the same entries,
and so does Python's own parser reading the calls of the translation keywords (independent of
how a Babel release tokenises the source). Two guards name the two ways the code has fooled
Babel: a variable named like a translation keyword and subscripted (Babel 2.19 reads
``t["origin"]`` as a call of ``t``), and a marked label written inside an f-string (visible to
Babel only where Python 3.12+ tokenises f-strings).
"""

from __future__ import annotations

import ast
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import Any

import babel
import pytest
from babel.messages.catalog import Catalog

import lang
from lang.extract import committed_template, python_sources, template

ROOT = Path(__file__).resolve().parents[2]
Key = tuple[str | None, str | tuple[str, ...]]
REGENERATE = (
    "regenerate the template with `python -m lang.extract`, then bring the catalogs up to date "
    "(`pybabel update`, see the README's Languages section) and translate what test_catalogs lists"
)


def _entries(catalog: Catalog) -> dict[Key, frozenset[str]]:
    """Each entry's (context, id) and flags (``python-brace-format`` tells translators' tools to
    check the placeholders), without the header and the source line numbers."""
    return {_key(m.context, m.id): frozenset(m.flags) for m in catalog if m.id}


def _key(context: str | None, message_id: str | tuple[str, ...] | list[str]) -> Key:
    return context, message_id if isinstance(message_id, str) else tuple(message_id)


@cache
def _sources(domain: str) -> tuple[tuple[str, Mapping[str, Any], ast.Module], ...]:
    return tuple(
        (path, keywords, ast.parse((ROOT / path).read_text(encoding="utf-8"), path))
        for path, keywords in python_sources(domain)
    )


def _name(node: ast.expr) -> str | None:
    """``t`` of ``t``, ``self.t``: the name Babel's tokenizer sees before ``(`` or ``[``."""
    return node.id if isinstance(node, ast.Name) else node.attr if isinstance(node, ast.Attribute) else None


def _literal(node: ast.expr) -> str | None:
    """A string written in the call: a literal, or literals joined with ``+``."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        left, right = _literal(node.left), _literal(node.right)
        return None if left is None or right is None else left + right
    return None


def _marked(call: ast.Call, keywords: Mapping[str, Any]) -> Key | None:
    """The (context, id) a call of a translation keyword marks, read with the keyword's spec
    (``_n:1,2``: arguments 1 and 2 are the singular and the plural; ``_p:1c,2``: 1 is the context),
    or None when it is no keyword call or its text is not written in it."""
    name = _name(call.func)
    if name is None or name not in keywords:
        return None
    spec = keywords[name]
    if isinstance(spec, dict):
        spec = spec.get(len(call.args), spec.get(None))
    args = [_literal(a) for a in call.args]
    context: str | None = None
    texts: list[str] = []
    for index in spec or (1,):
        position = index[0] if isinstance(index, tuple) else index
        if position > len(args) or args[position - 1] is None:
            return None
        if isinstance(index, tuple):
            context = args[position - 1]
        else:
            texts.append(str(args[position - 1]))
    if not texts[0]:
        return None
    return context, texts[0] if len(texts) == 1 else tuple(texts)


def _marked_in_source(domain: str) -> dict[Key, list[str]]:
    """Every sentence the code marks for ``domain``, read by Python's parser: where it is marked."""
    found: dict[Key, list[str]] = {}
    for path, keywords, tree in _sources(domain):
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and (key := _marked(node, keywords)) is not None:
                found.setdefault(key, []).append(f"{path}:{node.lineno}")
    return found


@pytest.mark.parametrize("domain", lang.DOMAINS)
def test_the_committed_template_is_what_extraction_gives_now(domain: str) -> None:
    """Extracting the source again (``lang.extract.template``, Babel with ``lang/babel-*.cfg``)
    gives the committed template's entries and flags: a sentence added, removed or re-marked in
    the code, or an extraction that reads the code differently, shows up here as a template to
    regenerate, not as a translation that silently stops being checked."""
    committed, fresh = _entries(committed_template(domain)), _entries(template(domain))
    new = sorted((k for k in fresh if k not in committed), key=str)
    gone = sorted((k for k in committed if k not in fresh), key=str)
    flagged = sorted((k for k in fresh if k in committed and fresh[k] != committed[k]), key=str)
    assert not (new or gone or flagged), (
        f"lang/locales/{domain}.pot is not what Babel {babel.__version__} extracts from the source now: "
        f"{len(new)} entries missing from it (e.g. {new[:3]}), {len(gone)} no longer extracted "
        f"(e.g. {gone[:3]}), {len(flagged)} with other flags (e.g. {flagged[:3]}). If the code changed, "
        f"{REGENERATE}. If only Babel changed, test_the_template_holds_exactly_the_sentences_the_code_marks "
        f"and the guards below tell whether the new extraction reads the code right."
    )


@pytest.mark.parametrize("domain", lang.DOMAINS)
def test_the_template_holds_exactly_the_sentences_the_code_marks(domain: str) -> None:
    """The committed template's entries that come from Python files are exactly the literal
    sentences passed to the translation keywords (``lang/babel-<domain>.cfg`` and Babel's
    defaults), as Python's parser reads the calls: no entry that no call marks (a collision with a
    keyword's name) and no marked sentence the template lacks (one Babel did not see)."""
    marked = _marked_in_source(domain)
    python_files = {path for path, _keywords, _tree in _sources(domain)}
    listed = {
        _key(m.context, m.id)
        for m in committed_template(domain)
        if m.id and any(filename in python_files for filename, _line in m.locations)
    }
    unmarked = sorted((k for k in listed if k not in marked), key=str)
    unlisted = sorted(((k, marked[k][0]) for k in marked if k not in listed), key=str)
    assert not unmarked, (
        f"lang/locales/{domain}.pot lists {len(unmarked)} entries that no call of a translation keyword "
        f"marks, e.g. {unmarked[:3]}: a name that is also a translation keyword was taken for a call "
        f"(see test_no_translation_keyword_is_subscripted), or the sentence left the code; fix the code, "
        f"then {REGENERATE}."
    )
    assert not unlisted, (
        f"{len(unlisted)} sentences marked in the code are not in lang/locales/{domain}.pot, e.g. "
        f"{unlisted[:3]}: Babel did not extract them (see test_no_sentence_is_marked_inside_an_f_string) "
        f"or the template is stale; {REGENERATE}."
    )


@pytest.mark.parametrize("domain", lang.DOMAINS)
def test_no_translation_keyword_is_subscripted(domain: str) -> None:
    """A translation keyword never names data that is indexed: Babel 2.19 reads ``t["origin"]``
    (a ticket called ``t`` in ``render/``, where ``t`` translates pictures' labels) as a call of
    ``t`` and extracts "origin" as a sentence to translate."""
    subscripted = sorted(
        {
            f"{path}:{node.lineno}: {_name(node.value)}[...]"
            for path, keywords, tree in _sources(domain)
            for node in ast.walk(tree)
            if isinstance(node, ast.Subscript) and _name(node.value) in keywords
        }
    )
    assert not subscripted, (
        f"{domain}: a variable is named like a translation keyword and subscripted, which Babel "
        f"extracts as a call of the keyword: rename it (e.g. `ticket`, not `t`): {subscripted}"
    )


@pytest.mark.parametrize("domain", lang.DOMAINS)
def test_no_sentence_is_marked_inside_an_f_string(domain: str) -> None:
    """A label is marked outside f-strings: before Python 3.12 an f-string is one token and
    Babel never sees ``{t('and')}`` in it, so the label would be drawn in English; from 3.12 it
    would be extracted, so the template would depend on the Python that runs the extraction."""
    inside = sorted(
        {
            f"{path}:{node.lineno}: {_name(node.func)}(...)"
            for path, keywords, tree in _sources(domain)
            for fstring in ast.walk(tree)
            if isinstance(fstring, ast.JoinedStr)
            for node in ast.walk(fstring)
            if isinstance(node, ast.Call) and _marked(node, keywords)
        }
    )
    assert not inside, (
        f"{domain}: a sentence is marked inside an f-string; mark it outside the f-string: {inside}"
    )
