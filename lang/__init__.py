"""Conductor's languages: gettext catalogs (managed with Babel) read at run time, no build step.

English is the source language: every sentence is written in English in the code, marked for
extraction, and looked up in ``lang/locales/<code>/LC_MESSAGES/<domain>.po`` for the reader's
language. A language is a folder there; nothing else names it, so adding a catalog adds a
language. Two domains: ``conductor`` (what the bot and the terminal say) and ``pictures`` (the
labels drawn in images).

Markers (the keywords ``pybabel extract`` looks for, see ``lang/babel-*.cfg``):

* ``_("Game #{game} is over.", game=7)``: the sentence in the *current* language (a context
  variable, set per interaction or per public post with :func:`using`);
* ``_n("{n} card", "{n} cards", n)``: the plural form the catalog's ``Plural-Forms`` chooses for
  ``n`` (its language's CLDR rule, as the locked Babel gives it: French "0 carte", and French and
  Italian have a form for exact millions, "1000000 de cartes", "1000000 di carte");
* ``_p("context", "text")``: the same English text meaning different things in two places;
* ``_np("context", "{n} red card", "{n} red cards", n)``: both (a count whose noun and adjective
  agree in each language: "2 carte rosse", "2 rote Karten", "2 cartes rouges");
* ``M(...)``/``Mn(...)``: the same, kept as a :class:`Msg` and translated later, by whoever
  presents it to its reader (a service line, a refusal);
* ``t(...)`` in :mod:`render` (domain ``pictures``): see :func:`pictures`.

Placeholders are named, ``{name}`` style (``str.format``), so a translation may reorder them.
"""

from __future__ import annotations

import contextlib
import functools
import os
from collections.abc import Callable, Iterator, Mapping
from contextvars import ContextVar
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from babel import Locale
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.support import NullTranslations, Translations

LOCALES_DIR = Path(__file__).resolve().parent / "locales"
SOURCE_LANGUAGE = "en"
DOMAINS = ("conductor", "pictures")


@functools.cache
def languages() -> tuple[str, ...]:
    """Every language Conductor speaks: English (the source) and each catalog folder, sorted."""
    found = (
        sorted(p.name for p in LOCALES_DIR.iterdir() if (p / "LC_MESSAGES" / "conductor.po").is_file())
        if LOCALES_DIR.is_dir()
        else []
    )
    return (SOURCE_LANGUAGE, *(code for code in found if code != SOURCE_LANGUAGE))


def normalise(tag: object) -> str:
    """One of :func:`languages` for a Discord locale (``"it"``, ``"en-US"``, a ``discord.Locale``)
    or a POSIX locale (``"it_IT.UTF-8"``, ``"de_DE@euro"``); anything else is English."""
    text = str(getattr(tag, "value", tag) or "").strip()
    text = text.split(".", 1)[0].split("@", 1)[0].replace("-", "_")
    primary = text.split("_", 1)[0].lower()
    return primary if primary in languages() else SOURCE_LANGUAGE


def language_name(code: str) -> str:
    """The language's own name for itself (CLDR): ``"italiano"``, ``"Deutsch"``."""
    return str(Locale.parse(code).get_display_name(code) or code)


def _format(text: str, params: Mapping[str, Any]) -> str:
    """``text`` with its ``{name}`` placeholders filled. A translation naming a placeholder the
    caller did not give falls back to leaving the braces as written, never to an exception."""
    if not params and "{" not in text:
        return text
    try:
        return text.format_map(params)
    except (KeyError, IndexError, ValueError):
        return text


def _numbers(params: Mapping[str, Any], code: str) -> Mapping[str, Any]:
    """``params`` with every float written as ``code``'s locale writes it (Babel: "1,5" in
    Italian, French and German), so a number given as a fact, not a string, reads right in every
    language; whole numbers (counts) are left as they are."""
    if not any(isinstance(v, float) for v in params.values()):
        return params
    from babel.numbers import format_decimal

    return {
        k: str(format_decimal(v, format="#,##0.###", locale=code)) if isinstance(v, float) else v
        for k, v in params.items()
    }


class Translator:
    """One language's texts of one domain: ``gettext``, ``ngettext`` (CLDR plural rules) and
    ``pgettext``, each filling named placeholders from keyword arguments (a float is written
    with the language's decimal sign)."""

    def __init__(self, code: str, domain: str, translations: NullTranslations) -> None:
        self.code = code
        self.domain = domain
        self._t = translations

    def gettext(self, message: str, /, **params: Any) -> str:
        """``message`` in this language, placeholders filled."""
        return _format(str(self._t.gettext(message)), _numbers(params, self.code))

    def ngettext(self, singular: str, plural: str, n: int, /, **params: Any) -> str:
        """The form of ``singular``/``plural`` this language uses for ``n``; ``{n}`` is filled too."""
        return _format(str(self._t.ngettext(singular, plural, n)), {"n": n, **_numbers(params, self.code)})

    def pgettext(self, context: str, message: str, /, **params: Any) -> str:
        """``message`` as meant in ``context`` (the same English for two meanings)."""
        return _format(str(self._t.pgettext(context, message)), _numbers(params, self.code))

    def npgettext(self, context: str, singular: str, plural: str, n: int, /, **params: Any) -> str:
        return _format(
            str(self._t.npgettext(context, singular, plural, n)), {"n": n, **_numbers(params, self.code)}
        )

    def has(self, message: str, context: str | None = None) -> bool:
        """Whether the catalog translates ``message`` (English always "has" its own text)."""
        if self.code == SOURCE_LANGUAGE:
            return True
        key = message if context is None else f"{context}\x04{message}"
        return key in getattr(self._t, "_catalog", {})

    __call__ = gettext


def catalog_path(code: str, domain: str) -> Path:
    return LOCALES_DIR / code / "LC_MESSAGES" / f"{domain}.po"


@functools.cache
def translator(code: str, domain: str = "conductor") -> Translator:
    """The cached translator for a language (any tag :func:`normalise` reads) and domain. The
    ``.po`` file is compiled in memory with Babel on first use: no build step."""
    code = normalise(code)
    path = catalog_path(code, domain)
    if code == SOURCE_LANGUAGE or not path.is_file():
        return Translator(code, domain, NullTranslations())
    with path.open("rb") as f:
        catalog = read_po(f, locale=code, domain=domain)
    import io

    buffer = io.BytesIO()
    write_mo(buffer, catalog, use_fuzzy=False)
    buffer.seek(0)
    return Translator(code, domain, Translations(buffer, domain=domain))


# ---- the current reader's language ---------------------------------------------------------
_current: ContextVar[str] = ContextVar("conductor_language", default=SOURCE_LANGUAGE)


def current() -> str:
    """The language texts are written in now (set by :func:`using`, English by default)."""
    return _current.get()


@contextlib.contextmanager
def using(code: object) -> Iterator[str]:
    """Write in ``code``'s language inside the block (an asyncio task keeps its own setting)."""
    token = _current.set(normalise(code))
    try:
        yield _current.get()
    finally:
        _current.reset(token)


def set_language(code: object) -> str:
    """Write in ``code``'s language from now on in this task (an interaction's handler)."""
    _current.set(normalise(code))
    return _current.get()


def _(message: str, /, **params: Any) -> str:
    """``message`` in the current language."""
    return translator(current()).gettext(message, **params)


def _n(singular: str, plural: str, n: int, /, **params: Any) -> str:
    """The plural form of the current language for ``n`` (``{n}`` is filled)."""
    return translator(current()).ngettext(singular, plural, n, **params)


def _p(context: str, message: str, /, **params: Any) -> str:
    """``message`` as meant in ``context``, in the current language."""
    return translator(current()).pgettext(context, message, **params)


def _np(context: str, singular: str, plural: str, n: int, /, **params: Any) -> str:
    """The plural form for ``n`` of a sentence meant in ``context``, in the current language."""
    return translator(current()).npgettext(context, singular, plural, n, **params)


@dataclass(frozen=True)
class Msg:
    """A sentence kept for later: its English source, plural and context, and its parameters.
    Whoever shows it translates it for its reader (:meth:`text`); ``str()`` is the English."""

    id: str
    params: Mapping[str, Any] = field(default_factory=dict)
    plural: str | None = None
    n: int | None = None
    context: str | None = None

    def text(self, code: object | None = None) -> str:
        """The sentence in ``code``'s language (default: the current one). Parameters that are
        themselves messages are translated into the same language."""
        tr = translator(current() if code is None else normalise(code))
        params = {k: (v.text(tr.code) if isinstance(v, Msg) else v) for k, v in self.params.items()}
        if self.plural is not None:
            n = int(self.n or 0)
            if self.context is not None:
                return tr.npgettext(self.context, self.id, self.plural, n, **params)
            return tr.ngettext(self.id, self.plural, n, **params)
        if self.context is not None:
            return tr.pgettext(self.context, self.id, **params)
        return tr.gettext(self.id, **params)

    def __str__(self) -> str:
        return self.text(SOURCE_LANGUAGE)


@dataclass(frozen=True)
class Joined(Msg):
    """Messages (or plain strings) written one after the other, ``id`` between them."""

    parts: tuple[Any, ...] = ()

    def text(self, code: object | None = None) -> str:
        return self.id.join(text_of(p, code) for p in self.parts)


def M(message: str, /, **params: Any) -> Msg:
    """A sentence to translate later (see :class:`Msg`)."""
    return Msg(message, params)


def Mn(singular: str, plural: str, n: int, /, **params: Any) -> Msg:
    """A plural sentence to translate later."""
    return Msg(singular, params, plural=plural, n=n)


def Mp(context: str, message: str, /, **params: Any) -> Msg:
    """A sentence with a context, to translate later."""
    return Msg(message, params, context=context)


def text_of(value: str | Msg, code: object | None = None) -> str:
    """A plain string as it is, a :class:`Msg` in ``code``'s (or the current) language."""
    return value.text(code) if isinstance(value, Msg) else value


class CatalogError(Exception):
    """An error whose sentence a person reads: ``code`` is machine-readable; ``message`` (and
    ``str()``) the English sentence, for logs; ``said`` the same sentence kept with its facts (a
    :class:`Msg`; a plain string is shown as it is), which whoever shows it words in the reader's
    language; ``params`` those facts. The service's, the tournament runner's, storage's and the
    worker pool's refusals are all of this shape."""

    def __init__(self, code: str, said: str | Msg) -> None:
        super().__init__(str(said))
        self.code = code
        self.message = str(said)
        self.said: str | Msg = said
        self.params: Mapping[str, Any] = said.params if isinstance(said, Msg) else {}

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.code!r}, {self.message!r})"


def error_text(exc: BaseException, code: object | None = None) -> str:
    """An error as a person reads it: the sentence it carries with its facts (``said``, as the
    project's errors do) in ``code``'s (or the current) language, else its own (English) text."""
    said = getattr(exc, "said", None)
    return text_of(said, code) if isinstance(said, str | Msg) else str(exc)


# ---- pictures ------------------------------------------------------------------------------
def N_(message: str) -> str:
    """Marks a label for extraction where it is written (a table of labels); it is translated
    where it is drawn, with the view's ``t``."""
    return message


def Np_(context: str, message: str) -> str:
    """Marks a label with a context for extraction where it is written (a table of labels: the
    letter of each colour); it is translated where it is drawn (``translator(code, "pictures")``
    ``.pgettext``)."""
    return message


def pictures(code: object | None) -> Callable[..., str]:
    """The ``pictures`` domain's ``t(label, **params)`` for a view's language (``None``: English)."""
    return translator(normalise(code) if code else SOURCE_LANGUAGE, "pictures").gettext


def environment_language(env: Mapping[str, str] | None = None) -> str:
    """The terminal's language from the POSIX variables, in their order of precedence
    (LC_ALL, LC_MESSAGES, LANG); unset, "C" or "POSIX" is English."""
    env = os.environ if env is None else env
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(name)
        if value:
            return normalise(value)
    return SOURCE_LANGUAGE
