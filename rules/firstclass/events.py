"""The events a First Class action returns, and the public reading of a symbol's source."""

from __future__ import annotations

import re
from typing import Any

# An event: ``type``, ``text`` (English), its facts, and ``visible_to`` (see rules.protocol).
Event = dict[str, Any]


def seat_name(seat: int) -> str:
    return f"Seat {seat}"


def ev(kind: str, text: str, visible_to: list[int] | None = None, **extra: Any) -> Event:
    """An event: ``visible_to`` None is public, else the seats that may read it (``public`` False then,
    for front ends that only know that flag)."""
    if {"type", "text", "public"} & extra.keys():
        raise ValueError(f"an event's facts may not be named type, text or public: {sorted(extra)}")
    event = {"type": kind, "text": text, **extra, "visible_to": visible_to}
    if visible_to is not None:
        event["public"] = False
    return event


_GAME_END_SOURCE = re.compile(r"Game End card \S+")


def public_src(src: str) -> str:
    """A symbol's source as everyone may read it: which Game End card gave a bonus stays hidden."""
    return _GAME_END_SOURCE.sub("a Game End card", src)
