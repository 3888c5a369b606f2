"""End-to-end: boards reposted after a restart are paced so they never crowd out interactions
(issue 11: "stale-board reposts paced so they never crowd out interactions")."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from fakediscord import FakeDiscord
from test_bot_support import PATIENCE, make_bot

from bot.discord_app.store import DiscordStore, player_ref, space_ref
from bot.service import GameService
from bot.store.sqlite import SqliteStore

IT_COMMAND = 2
STALE_GAMES = 7


async def _games_whose_boards_were_never_posted(db: Path, fake: FakeDiscord) -> list[int]:
    """Active games committed by a bot that died before posting any board (a service with no
    Discord subscriber on the same database)."""
    alice, where = player_ref(fake.alice.id), space_ref(fake.guild.id)
    ids = []
    async with SqliteStore(str(db)) as storage:
        service, store = GameService(storage), DiscordStore(storage)
        for _ in range(STALE_GAMES):
            row = await service.create_game(
                game_name="ttr",
                creator=alice,
                creator_name="alice",
                space=where,
                seat_order="join",
                turn_hours=None,
            )
            await store.set_route(row.id, fake.guild.id, fake.general.id)
            await service.add_ai(row.id, alice, "random", where=where)
            await service.start(row.id, alice, where=where)
            ids.append(row.id)
    return ids


def _board_posts(fake: FakeDiscord, channel_id: int) -> list[Any]:
    return [r for r in fake.requests if r.method == "POST" and r.path == f"/channels/{channel_id}/messages"]


async def test_after_a_restart_no_board_is_reposted_while_an_interaction_is_being_served(
    fake_discord: FakeDiscord, run_bot: Any, tmp_path: Path
) -> None:
    """With many boards to repost after a restart, a command that arrives is served first: while it
    is in flight no further repost starts, it is answered before the reposts are done, and then
    every stale board is posted."""
    fake = fake_discord
    db = tmp_path / "c.db"
    games = await _games_whose_boards_were_never_posted(db, fake)
    first_repost = fake.hold_next("POST", f"/channels/{fake.general.id}/messages")
    bot = await run_bot(lambda: make_bot(db))
    await asyncio.wait_for(first_repost.reached.wait(), PATIENCE)  # the queue is posting its first board
    command = fake.build_interaction(
        IT_COMMAND, fake.build_command_data("games", {}, channel=fake.general), fake.alice, fake.general
    )
    answer = fake.hold_next("POST", f"/webhooks/*/{command.token}")  # the command stays in flight
    await fake.inject(command)
    await command.wait_ack(timeout=PATIENCE)  # the command is being served
    first_repost.release()
    # the queue finishes the board it had started, then waits for the command instead of going on
    await fake.wait_until(lambda: bot.ui.reposts.held_back or None, PATIENCE, "the reposts to wait")
    assert len(_board_posts(fake, fake.general.id)) == 1
    answer.release()
    reply = await command.wait_message(timeout=PATIENCE)
    assert reply.ephemeral and "your turn" in reply.text(), reply.text()
    await asyncio.wait_for(bot.ui.reposts.idle(), PATIENCE)
    posts = _board_posts(fake, fake.general.id)
    assert len(posts) == STALE_GAMES
    assert (
        answer.request is not None and answer.request.seq < posts[-1].seq
    )  # answered before the last repost
    for gid in games:
        latest = await bot.ui.store.latest_message(gid)
        assert latest is not None and latest[0] == (await bot.service.game_row(gid)).seq
    await fake.settle()
