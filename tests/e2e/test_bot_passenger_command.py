"""End-to-end: a Märklin passenger moved with the slash command ``/play passenger``, one step at a
time as the rules move it (start in a city, travel route by route, stop), with autocomplete
offering only what the seat may do next."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from fakediscord import FakeDiscord
from test_bot_support import Table, make_bot, stage_berlin_passenger


async def test_play_passenger_moves_step_by_step_with_autocomplete(
    fake_discord: FakeDiscord, run_bot: Any, tmp_path: Path
) -> None:
    """Rules 21-27 by slash command: autocomplete offers the passenger's city for *start* and the
    routes on from where it stands for *travel*; each step is answered privately; a missing place
    is a private sentence that changes nothing; *stop* ends the journey and the turn."""
    fake = fake_discord
    bot = await run_bot(lambda: make_bot(tmp_path / "p.db"))
    table = Table(fake, bot)
    await table.create(fake.alice, board="germany", seat_order="join")
    await table.slash("ttr join", fake.bob)
    await table.slash("ttr start", fake.alice)
    users = {await table.seat_of(u): u for u in (fake.alice, fake.bob)}
    for _ in range(2):  # the opening: draw the mix, then keep, both at once
        await asyncio.gather(*(table.play_buttons(u) for u in users.values()))
    game: Any = (await bot.service.load(table.gid)).game
    seat = game.current
    user = users[seat]
    stage_berlin_passenger(game, seat)

    async def offered(step: str, typed: str = "") -> list[str]:
        handle = await fake.autocomplete(
            "play passenger", focused="where", value=typed, user=user, channel=table.thread, step=step
        )
        return [c["value"] for c in await handle.wait_choices()]

    assert await offered("start") == ["Berlin"]
    assert await offered("travel") == []  # no passenger travels yet
    before = await table.seq()
    missing = await table.slash("play passenger", user, step="start")
    assert missing.ephemeral and missing.text().startswith("✗") and "city" in missing.text()
    assert await table.seq() == before

    started = await table.slash("play passenger", user, step="start", where="Berlin")
    assert started.ephemeral and started.text().startswith("✓")
    assert await offered("travel") == ["DE008"]
    assert await offered("travel", "magde") == ["DE008"] and await offered("travel", "xyz") == []
    travelled = await table.slash("play passenger", user, step="travel", where="DE008")
    assert travelled.text().startswith("✓")
    now: Any = (await bot.service.load(table.gid)).game
    assert now.merch_taken[seat] == [2]  # collected as Magdeburg is reached (rules 24-25)
    assert await offered("travel") == ["DE067"]
    stopped = await table.slash("play passenger", user, step="stop")
    assert stopped.text().startswith("✓")
    now = (await bot.service.load(table.gid)).game
    assert now.passenger_at == {} and now.current != seat
    table.assert_no_leaks()
