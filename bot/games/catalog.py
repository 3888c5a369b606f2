"""The one list of built-in front ends (each game's words, pictures and terminal menu), registered
on import. A new game adds its line here beside its line in :data:`rules.games.BUILTIN_GAMES`;
generic code finds a game's parts with :func:`front_end`."""

from __future__ import annotations

from bot.games.api import FrontEnd, find_front_end, register_front_end
from bot.games.firstclass import front as first_class
from bot.games.ttr import front as ttr

BUILTIN_FRONT_ENDS: tuple[FrontEnd, ...] = (ttr.FRONT_END, first_class.FRONT_END)

for _front in BUILTIN_FRONT_ENDS:
    register_front_end(_front)

front_end = find_front_end
