"""Write real game records (row, seats, action log, snapshot) straight through SqliteStore.

The records are made the way the bot makes them (``start_game`` then one ``commit_action`` per
move) but without the service, so integrity tests depend only on the storage format.
"""

from __future__ import annotations

from typing import Any

from bot.store.rows import ACTIVE, OVER, SeatRow
from bot.store.sqlite import SqliteStore
from rules.ai import make_ai
from rules.games import new_game


async def record_game(
    storage: SqliteStore,
    name: str = "ttr",
    config: dict[str, Any] | None = None,
    players: int = 3,
    seed: int = 1,
    *,
    moves: int | None = None,
    ai: str = "heuristic",
) -> int:
    """Store a game of ``name`` played by AIs: to the end, or for ``moves`` moves. Returns its id."""
    config = dict(config if config is not None else {"board": "europe"} if name == "ttr" else {})
    gid = await storage.create_game(
        game_name=name, config=config, seed=seed, max_players=players, space=None, creator=None
    )
    seats = [SeatRow(i, None, ai, f"AI {i + 1}") for i in range(players)]
    game = new_game(name, config, players, seed)
    await storage.start_game(gid, seats, game.to_json(), 0.0)
    ais = [make_ai(name, ai, seed * 10 + i) for i in range(players)]
    seq = 0
    while not game.is_over() and (moves is None or seq < moves):
        seat = game.seats_to_act()[0]
        action = ais[seat].choose(game, seat)
        game.apply(seat, action)
        seq = await storage.commit_action(
            gid,
            seq,
            seat,
            None,
            action.to_text(),
            action.to_json(),
            game.to_json(),
            status=OVER if game.is_over() else ACTIVE,
        )
    return gid
