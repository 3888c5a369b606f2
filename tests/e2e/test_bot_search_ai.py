"""End-to-end: the search AI at a Discord table, chosen with ``/ttr addai kind:search`` and as the
player that takes a timed-out seat over; it thinks in the bot's worker process and comes back small."""

from __future__ import annotations

import pickle
from pathlib import Path
from typing import Any

from fakediscord import FakeDiscord
from test_bot_support import Table, make_bot

from rules.ttr.search_ai import SearchAI

# A search AI that travels back from its worker carries its last result, not its plans: a move
# costs the event loop one small unpickling (tests/e2e/test_loop_stall.py measures why it matters).
SMALL_AFTER_A_MOVE = 64_000


class _Clock:
    def __init__(self) -> None:
        self.now = 1_800_000_000.0

    def __call__(self) -> float:
        return self.now


def _search_ai_of(bot: Any, gid: int, seat: int) -> SearchAI:
    found = [
        ai for (game, s, kind), ai in bot.service._ais.items() if (game, s, kind) == (gid, seat, "search")
    ]
    assert len(found) == 1, bot.service._ais
    assert isinstance(found[0], SearchAI)
    return found[0]


async def test_a_search_ai_seat_added_with_addai_plays_its_moves_in_a_worker(
    fake_discord: FakeDiscord, run_bot: Any, tmp_path: Path
) -> None:
    """/ttr addai kind:search seats the search AI; once the game starts it moves (thinking in a
    worker process, from its seat's view) and the AI the bot keeps afterwards pickles small."""
    fake = fake_discord
    bot = await run_bot(lambda: make_bot(tmp_path / "s.db", workers=1))
    table = Table(fake, bot)
    await table.create(fake.alice, board="usa", seat_order="join")
    msg = await table.slash("ttr addai", fake.alice, kind="search")
    assert "Added an AI seat" in msg.text() and msg.ephemeral
    row = await bot.service.game_row(table.gid)
    assert [s.ai_kind for s in row.seats] == [None, "search"]
    await table.slash("ttr start", fake.alice)
    while await table.moves(1) == 0:
        assert await table.to_act(), "the game ended before the search AI moved"
        await table.play_one(fake.alice)
    ai = _search_ai_of(bot, table.gid, 1)
    assert ai.last is not None  # the worker's search came back into the bot's copy
    assert bot.workers.done["think"] >= 1 and not bot.workers.in_threads["think"]
    assert len(pickle.dumps(ai)) < SMALL_AFTER_A_MOVE
    table.assert_no_leaks()


async def test_a_seat_that_runs_out_of_time_is_taken_over_by_the_search_ai(
    fake_discord: FakeDiscord, run_bot: Any, tmp_path: Path
) -> None:
    """With the server's takeover AI set to search, a seat that forfeits on time is played by the
    search AI from then on: the seat says so and the search AI makes its next move."""
    fake = fake_discord
    clock = _Clock()
    bot = await run_bot(lambda: make_bot(tmp_path / "t.db", clock=clock, workers=1))
    bot.service.takeover_ai = "search"
    table = Table(fake, bot)
    await table.create(fake.alice, board="usa", seat_order="join", timer_hours=2.0, timeout="forfeit")
    await table.slash("ttr join", fake.bob)
    await table.slash("ttr start", fake.alice)
    await table.play_one(fake.alice)
    await table.play_one(fake.bob)
    waiting = await table.to_act()
    assert len(waiting) == 1
    seat = waiting[0]
    before = await table.moves(seat)
    clock.now += 2.1 * 3600
    await bot.scheduler.tick()
    await table.settle()
    row = await bot.service.game_row(table.gid)
    assert row.seats[seat].ai_kind == "search" and row.seats[seat].player is None
    assert await table.moves(seat) > before
    assert _search_ai_of(bot, table.gid, seat).last is not None
    posted = [m for m in fake.messages_in(table.thread, ephemeral=False) if "ran out of time" in m.text()]
    assert posted
    table.assert_no_leaks()
