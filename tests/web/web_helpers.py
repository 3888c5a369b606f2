"""Games and events for the web page tests, made through the App as the bot makes them."""

from __future__ import annotations

from typing import Any

from bot.app import App
from bot.store.rows import ACTIVE
from rules.registry import RandomLegalAI

SPACE = "discord:guild:77"
ORGANISER = "discord:100"


async def ai_game(
    app: App, *, game: str = "ttr", config: dict[str, Any] | None = None, seats: int = 2
) -> int:
    """A game of AI seats, played to its end."""
    row = await app.service.create_game(
        game_name=game, creator=None, creator_name="-", join=False, space=SPACE, config=config or {}
    )
    for _ in range(seats):
        await app.service.add_ai(row.id, None, "random", is_admin=True, where=SPACE)
    await app.service.start(row.id, None, is_admin=True, where=SPACE)
    return row.id


async def people_game(
    app: App,
    names: list[str],
    *,
    game: str = "ttr",
    config: dict[str, Any] | None = None,
    moves: int = 6,
    seed: int = 1,
) -> int:
    """A game of people (``discord:1``, ``discord:2`` …) who made ``moves`` moves between them,
    chosen at random: a game in progress whose hands and tickets are secret."""
    players = [f"discord:{i + 1}" for i in range(len(names))]
    row = await app.service.create_game(
        game_name=game,
        creator=players[0],
        creator_name=names[0],
        join=True,
        space=SPACE,
        config=config or {},
    )
    for player, name in zip(players[1:], names[1:], strict=True):
        await app.service.join(row.id, player, name, where=SPACE)
    if (await app.service.game_row(row.id)).status != ACTIVE:  # a full lobby starts by itself
        await app.service.start(row.id, players[0], where=SPACE)
    ai = RandomLegalAI(seed)
    for _ in range(moves):
        loaded = await app.service.load(row.id)
        if loaded.row.status != ACTIVE or loaded.game is None:
            break
        seat = loaded.game.seats_to_act()[0]
        action = ai.choose(loaded.game, seat)
        player = loaded.row.seats[seat].player
        assert player is not None
        await app.service.act(row.id, player, action, where=SPACE)
    return row.id
