"""Helpers shared by the bot tests."""

from __future__ import annotations

from typing import Any

from bot.service import GameService


class FakeClock:
    """A settable clock (seconds since the epoch)."""

    def __init__(self, start: float = 1_800_000_000.0) -> None:
        self.now = start

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


ALICE, BOB, CAROL = "discord:11", "discord:22", "discord:33"


async def two_humans(service: GameService, board: str = "usa", **kwargs: Any) -> int:
    """A started 2-player game (alice, bob) in join order; returns its id."""
    row = await service.create_game(
        game_name="ttr",
        config={"board": board},
        creator=ALICE,
        creator_name="alice",
        seat_order="join",
        seed=7,
        **kwargs,
    )
    await service.join(row.id, BOB, "bob")
    await service.start(row.id, ALICE)
    return row.id
