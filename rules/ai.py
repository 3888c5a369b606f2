"""AI seats for every game, by name: ``make_ai(game_name, kind, seed)`` (see :mod:`rules.registry`).

Every AI has ``choose(game, seat) -> action`` and only ever returns one of
``game.legal_actions(seat)``.
"""

from __future__ import annotations

from collections.abc import Sequence

from rules.games import find_game
from rules.protocol import AI, Game


def make_ai(game_name: str, kind: str, seed: int) -> AI:
    """An AI player of ``kind`` for ``game_name``; deterministic for a given seed."""
    return find_game(game_name).make_ai(kind, seed)


def play_out(game: Game, ais: Sequence[AI], max_steps: int = 100_000) -> int:
    """Let ``ais`` (one per seat) play ``game`` to the end; returns the number of decisions."""
    steps = 0
    while not game.is_over():
        seat = game.seats_to_act()[0]
        game.apply(seat, ais[seat].choose(game, seat))
        steps += 1
        if steps > max_steps:
            raise RuntimeError(f"game did not finish in {max_steps} decisions")
    return steps
