"""What an English leak looks like: the catalog's own English sentences, for tests that scan what a
non-English reader was shown."""

from __future__ import annotations

import functools
import re

from babel.messages.catalog import Catalog


def english_sentences(catalog: Catalog) -> list[str]:
    """English source sentences long enough to be unmistakable, as written (no placeholder)."""
    out = []
    for message in catalog:
        for text in [message.id] if isinstance(message.id, str) else list(message.id or ()):
            if text and "{" not in text and len(text) >= 16 and not message.context:
                out.append(text)
    return out


# ---- single English words (issue 34): "end" printed after every First Class turn was no sentence
WORD = re.compile(r"[^\W\d_]{3,}")

#: Words a reader of every language may see as they are: the typed text forms of moves and
#: settings, names, and the English words the reviewed lists of ``tests/lang/test_native_review``
#: allow (they are in the language's catalog already, so they are not listed here).
ANY_LANGUAGE = {
    "conductor",
    "first",
    "class",
    "ticket",
    "ride",
    "usa",
    "märklin",
    "ttr",
    "heuristic",
    "random",
}


PLACEHOLDER = re.compile(r"\{[^}]*\}")
#: Typed as shown, in every language: identifiers, settings (``car_supply=unlimited``), options and paths.
TYPED = re.compile(r"\S*[_=/`]\S*|--\S+")


def _plain(text: str) -> str:
    return TYPED.sub(" ", PLACEHOLDER.sub(" ", text))


def _words(texts: list[str]) -> set[str]:
    return {w.lower() for text in texts for w in WORD.findall(_plain(text))}


@functools.cache
def _vocabulary(code: str) -> tuple[frozenset[str], frozenset[str]]:
    """(the English catalog's words, the words ``code``'s catalogs write) over both domains."""
    from babel.messages.pofile import read_po

    import lang
    from lang.extract import committed_template

    english: list[str] = []
    own: list[str] = []
    for domain in lang.DOMAINS:
        for message in committed_template(domain):
            english += [message.id] if isinstance(message.id, str) else list(message.id or ())
        with lang.catalog_path(code, domain).open("rb") as f:
            for message in read_po(f):
                own += [message.string] if isinstance(message.string, str) else list(message.string or ())
    return frozenset(_words(english)), frozenset(_words(own))


def english_words(text: str, code: str, *, allowed: set[str] | frozenset[str] = frozenset()) -> list[str]:
    """The words of ``text`` that only English writes: in the English catalog, in none of
    ``code``'s translations (which hold its reviewed loanwords and names), nor ``allowed`` (the
    names of a game's players, its cities...)."""
    english, own = _vocabulary(code)
    skip = own | ANY_LANGUAGE | {a.lower() for a in allowed}
    return sorted({w for w in WORD.findall(_plain(text)) if w.lower() in english and w.lower() not in skip})
