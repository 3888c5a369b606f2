"""End-to-end: one live control surface per game (issue 30). At any moment exactly one message of a
running game carries enabled game buttons: a new board takes them over, earlier boards lose theirs,
across restarts too. (Whole games checked after every move: ``test_bot_turn_ui.py`` on every board,
``test_bot_firstclass.py`` for First Class.)"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from fakediscord import BotRunner, FakeDiscord, FakeUser
from test_bot_support import PATIENCE, Table, make_bot

from bot.discord_app.store import player_ref, space_ref
from bot.service import GameService
from bot.store.sqlite import SqliteStore
from rules.ai import make_ai


async def _two_people(fake: FakeDiscord, bot: Any) -> tuple[Table, dict[int, FakeUser]]:
    table = Table(fake, bot)
    await table.create(fake.alice, board="usa", seat_order="join")
    assert "joined" in (await table.slash("ttr join", fake.bob)).text()
    await table.slash("ttr start", fake.alice)
    return table, {await table.seat_of(u): u for u in (fake.alice, fake.bob)}


async def _moves(table: Table, users: dict[int, FakeUser], count: int) -> None:
    for _ in range(count):
        for seat in await table.to_act():
            await table.play_buttons(users[seat])
        table.assert_one_live_surface()


async def test_a_restart_keeps_the_live_board_and_a_repost_takes_its_buttons_over(
    fake_discord: FakeDiscord, bot_runner: BotRunner, tmp_path: Path
) -> None:
    """After a restart the live board keeps working buttons (restart-safe ids) and is still the only
    one; a move committed while no board could be posted (the process died first) makes the next
    start repost the board, which takes the buttons over from the old one; play goes on from it."""
    fake = fake_discord
    db = tmp_path / "c.db"
    bot = await bot_runner.start(lambda: make_bot(db))
    table, users = await _two_people(fake, bot)
    await _moves(table, users, 4)
    live = table.live_surfaces()
    table.bot = bot = await bot_runner.restart(lambda: make_bot(db))
    assert table.live_surfaces() == live, "a plain restart changes no board"
    await _moves(table, users, 2)  # the live board's buttons work after the restart
    await bot_runner.close()
    async with SqliteStore(str(db)) as storage:  # a move whose board was never posted
        service = GameService(storage)
        loaded = await service.load(table.gid)
        seat = loaded.game.seats_to_act()[0]  # type: ignore[union-attr]
        action = make_ai("ttr", "heuristic", 3).choose(loaded.game, seat)
        await service.act(table.gid, player_ref(users[seat].id), action, where=space_ref(fake.guild.id))
    old = table.latest_board()
    table.bot = bot = await bot_runner.start(lambda: make_bot(db))
    await asyncio.wait_for(bot.ui.reposts.idle(), PATIENCE)
    await table.settle()
    board = table.latest_board()
    assert board is not None and board is not old and "after a restart" in board.text()
    assert table.live_surfaces() == [board]
    assert old is not None and not old.custom_ids(), "the old board lost its buttons"
    await _moves(table, users, 2)


async def test_an_aborted_game_keeps_no_buttons(
    fake_discord: FakeDiscord, run_bot: Any, tmp_path: Path
) -> None:
    """An aborted game has nothing left to press: its last board loses its buttons."""
    fake = fake_discord
    bot = await run_bot(lambda: make_bot(tmp_path / "c.db"))
    table, users = await _two_people(fake, bot)
    await _moves(table, users, 2)
    reply = await table.slash("ttr abort", fake.alice)
    assert reply.ephemeral, reply.text()
    await bot.service.stream.drain()
    assert (await bot.service.game_row(table.gid)).status == "aborted"
    assert not table.live_surfaces()
