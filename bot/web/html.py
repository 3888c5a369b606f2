"""The pages as HTML: Jinja2 templates (``bot/web/templates``) with autoescape on for every
template, so a player named ``<b>x</b>`` is shown as those characters. The templates hold no
words of their own (:mod:`bot.web.words`)."""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any

import jinja2

from bot.web.words import page_words
from lang import current, language_name, languages

HERE = Path(__file__).resolve().parent


@functools.cache
def environment() -> jinja2.Environment:
    return jinja2.Environment(
        loader=jinja2.FileSystemLoader(HERE / "templates"),
        autoescape=True,  # every template, whatever its name ends with
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )


@functools.cache
def _language_names() -> tuple[tuple[str, str], ...]:
    return tuple((code, language_name(code)) for code in languages())


def render(template: str, **context: Any) -> str:
    """``template`` filled in the current language (``w``: its words)."""
    base: dict[str, Any] = {
        "w": page_words(),
        "lang": current(),
        "languages": _language_names(),
        "root": "../../",
        "static": False,
        "stepper": True,
        "static_stepper": False,  # the static site's stepper (export.py): boards from disk
        "noindex": False,
        "unlisted": False,
        "og": None,
        "lang_query": "",
        "lang_asked": False,
        "move_query": "",
        "index": "",  # a static site links folders' index.html: a file:// browser serves no folder
        "listing": [],
    }
    base.update(context)
    return environment().get_template(template).render(**base)


def static_file(name: str) -> bytes | None:
    """One of the pages' own files (``site.css``, ``replay.js``); None for any other name."""
    if name not in STATIC_TYPES:
        return None
    return (HERE / "static" / name).read_bytes()


STATIC_TYPES = {"site.css": "text/css", "replay.js": "text/javascript"}
