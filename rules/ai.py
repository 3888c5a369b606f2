"""AI seats for every game, by name: ``make_ai(game_name, kind, seed)``.

Kinds: ``"random"`` (uniform over legal actions) and ``"heuristic"``. Every AI has
``choose(game, seat) -> action`` and only ever returns one of ``game.legal_actions(seat)``.
"""

from __future__ import annotations

import importlib
from typing import Any, Protocol

from rules.errors import IllegalAction

AI_KINDS = ("heuristic", "random")
_AI_MODULES = {"ttr": "rules.ttr.ai", "first-class": "rules.firstclass.ai"}


class AI(Protocol):
    def choose(self, game: Any, seat: int) -> Any: ...


def make_ai(game_name: str, kind: str, seed: int) -> AI:
    """An AI player of ``kind`` for ``game_name``; deterministic for a given seed."""
    if kind not in AI_KINDS:
        raise IllegalAction("unknown_ai", f"There is no AI called {kind!r}; choose one of {', '.join(AI_KINDS)}.")
    try:
        module = importlib.import_module(_AI_MODULES[game_name])
    except KeyError:
        raise IllegalAction("unknown_game", f"There is no game called {game_name!r}.") from None
    cls = module.HeuristicAI if kind == "heuristic" else module.RandomAI
    ai: AI = cls(seed)
    return ai


def play_out(game: Any, ais: list[AI], max_steps: int = 100_000) -> int:
    """Let ``ais`` (one per seat) play ``game`` to the end; returns the number of decisions."""
    steps = 0
    while not game.is_over():
        seat = game.seats_to_act()[0]
        game.apply(seat, ais[seat].choose(game, seat))
        steps += 1
        if steps > max_steps:
            raise RuntimeError(f"game did not finish in {max_steps} decisions")
    return steps
