"""End-to-end: Discord failures around a committed move (reliability rules of DESIGN.md)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from fakediscord import FakeDiscord
from test_bot_support import Table, make_bot

from bot.discord_app.store import player_ref, space_ref

# How long a wait may last before the test fails. Each wait ends on its event (a message, a board
# for the current seq); the bound only has to outlast a busy machine rendering a board.
PATIENCE = 60.0


async def _started(fake: FakeDiscord, bot: Any) -> Table:
    """A started 2-seat game (alice and an AI) whose first board is posted."""
    h = await fake.slash("ttr new", user=fake.alice, board="usa", seat_order="join")
    msg = await h.wait_message(timeout=PATIENCE)
    table = Table(fake, bot)
    table.gid = int(re.search(r"game #(\d+)", msg.text())[1])  # type: ignore[index]
    table.thread = await fake.wait_until(
        lambda: next((t for t in fake.threads if f"#{table.gid}" in t.name), None),
        PATIENCE,
        "the game's thread",
    )
    for command in ("ttr addai", "ttr start"):
        handle = fake.build_interaction(
            2, fake.build_command_data(command, {}, channel=table.thread), fake.alice, table.thread, None
        )
        await (await fake.inject(handle)).wait_message(timeout=PATIENCE)
    await table.settle(timeout=PATIENCE)
    return table


async def _action_text(table: Table, user: Any) -> str:
    loaded = await table.bot.service.load(table.gid)
    legal = loaded.game.legal_actions(await table.seat_of(user))
    return str(next((a for a in legal if a.kind == "keep_tickets"), legal[0]).to_text())


def _boards(fake: FakeDiscord, channel: Any, gid: int) -> list[Any]:
    return [
        m
        for m in fake.messages_in(channel, ephemeral=False)
        if any(c.startswith(f"c:{gid}:") for c in m.custom_ids())
    ]


async def test_no_thread_permission_plays_in_the_channel(
    fake_discord: FakeDiscord, run_bot: Any, tmp_path: Path
) -> None:
    fake = fake_discord
    bot = await run_bot(lambda: make_bot(tmp_path / "c.db"))
    fake.fail_next("POST", "/channels/*/threads", status=403)
    h = await fake.slash("ttr new", user=fake.alice, board="usa", seat_order="join")
    msg = await h.wait_message()
    assert msg.ephemeral and "Created game" in msg.text()
    gid = int(re.search(r"game #(\d+)", msg.text())[1])  # type: ignore[index]
    assert not fake.threads
    for cmd in ("ttr addai", "ttr start"):
        await (await fake.slash(cmd, user=fake.alice)).wait_message()
    await fake.wait_until(lambda: _boards(fake, fake.general, gid) or None, 5)
    table = Table(fake, bot)
    table.gid = gid
    await table.settle()
    assert (await bot.service.game_row(gid)).status == "active"


async def test_a_deleted_thread_moves_the_game_to_its_channel(
    fake_discord: FakeDiscord, run_bot: Any, tmp_path: Path
) -> None:
    fake = fake_discord
    bot = await run_bot(lambda: make_bot(tmp_path / "c.db"))
    table = await _started(fake, bot)
    seq = await table.seq()
    table.thread.deleted = True  # deleted by a moderator (the bot still has it cached)
    h = await fake.slash(
        "play action", user=fake.alice, text=await _action_text(table, fake.alice), game=table.gid
    )
    reply = await h.wait_message()
    assert reply.ephemeral and reply.text().startswith("✓"), reply.text()
    assert await table.seq() > seq
    await fake.wait_until(lambda: _boards(fake, fake.general, table.gid) or None, 5)
    await table.settle()
    fake.take_failures("not_found")
    # later posts go straight to the channel
    assert (await bot.ui.store.route(table.gid)).thread_id is None
    table.assert_no_leaks()


async def test_a_failed_private_reply_still_posts_the_board(
    fake_discord: FakeDiscord, run_bot: Any, tmp_path: Path
) -> None:
    """The move is committed before the follow-up: a dead token must not swallow the public board."""
    fake = fake_discord
    bot = await run_bot(lambda: make_bot(tmp_path / "c.db"))
    table = await _started(fake, bot)
    seq = await table.seq()
    fake.fail_next("POST", "/webhooks/*", status=403)
    h = await fake.slash(
        "play action", user=fake.alice, text=await _action_text(table, fake.alice), game=table.gid
    )
    await h.wait_ack()
    await table.settle()  # the board for the new seq is posted
    assert await table.seq() > seq
    table.assert_no_leaks()


async def test_a_board_that_could_not_be_posted_is_posted_on_the_next_tick(
    fake_discord: FakeDiscord, run_bot: Any, tmp_path: Path
) -> None:
    """A board post refused by Discord (thread and channel) is retried by the scheduler's next tick.

    The private ✓ comes before the public post, which renders a PNG first: the test waits for the
    bot to have given up on the post (the game is marked for a retry), not for a quiet spell, which
    on a busy machine could end before the post was even tried, so the tick found nothing to retry.
    """
    fake = fake_discord
    bot = await run_bot(lambda: make_bot(tmp_path / "c.db"))
    table = await _started(fake, bot)
    fake.fail_next("POST", "/channels/*/messages", status=403, count=2)  # the thread, then its channel
    h = await fake.slash(
        "play action", user=fake.alice, text=await _action_text(table, fake.alice), game=table.gid
    )
    assert (await h.wait_message(timeout=PATIENCE)).text().startswith("✓")
    await bot.service.stream.drain()  # the outcome stream tried to post, and was refused
    assert table.gid in bot.ui.unposted, "the refused board is queued for a retry"
    latest = await bot.ui.store.latest_message(table.gid)
    assert latest is None or latest[0] != await table.seq()  # the post failed
    await bot.scheduler.tick()
    await table.settle(timeout=PATIENCE)
    table.assert_no_leaks()


def _as_admin(fake: FakeDiscord, command: str, who: Any, channel: Any, /, **options: Any) -> Any:
    """A command from ``who`` holding Manage Server in ``channel``'s guild."""
    import discord

    handle = fake.build_interaction(
        2, fake.build_command_data(command, options, channel=channel), who, channel, None
    )
    perms = discord.Permissions(int(handle.payload["member"]["permissions"]))
    perms.manage_guild = True
    handle.payload["member"]["permissions"] = str(perms.value)
    return handle


async def test_an_admin_manages_only_games_of_their_own_server(
    fake_discord: FakeDiscord, run_bot: Any, tmp_path: Path
) -> None:
    fake = fake_discord
    bot = await run_bot(lambda: make_bot(tmp_path / "c.db"))
    table = await _started(fake, bot)
    other = fake.add_guild("Other Guild", owner=fake.carol)
    elsewhere = fake.add_channel(other, "general")
    for command, options in (
        ("ttr abort", {}),
        ("ttr replace", {"seat": 0}),
        ("ttr kick", {"user": fake.alice}),
    ):
        h = await fake.inject(_as_admin(fake, command, fake.carol, elsewhere, game=table.gid, **options))
        msg = await h.wait_message()
        assert msg.ephemeral and msg.text().startswith("✗") and "no game" in msg.text(), (command, msg.text())
    row = await bot.service.game_row(table.gid)
    assert row.status == "active" and row.seat_of(player_ref(fake.alice.id)) is not None
    # an admin of the game's own server may
    h = await fake.inject(_as_admin(fake, "ttr abort", fake.carol, fake.general, game=table.gid))
    assert (await h.wait_message()).text().startswith("✓")
    assert (await bot.service.game_row(table.gid)).status == "aborted"
    await fake.settle()


async def test_a_final_summary_that_could_not_be_posted_is_posted_on_the_next_tick(
    fake_discord: FakeDiscord, run_bot: Any, tmp_path: Path
) -> None:
    fake = fake_discord
    bot = await run_bot(lambda: make_bot(tmp_path / "c.db"))
    service = bot.service
    row = await service.create_game(
        game_name="ttr",
        creator=None,
        space=space_ref(fake.guild.id),
        seat_order="join",
        join=False,
        turn_hours=None,
    )
    await bot.ui.store.set_route(row.id, fake.guild.id, fake.general.id)
    for _ in range(2):
        await service.add_ai(row.id, None, "random", is_admin=True, where=space_ref(fake.guild.id))
    fake.fail_next("POST", "/channels/*/messages", status=403)
    outcome = await service.start(
        row.id, None, where=space_ref(fake.guild.id)
    )  # AIs only: the game ends at once
    assert outcome.over
    await service.stream.drain()  # the outcome stream's post was refused
    assert row.id in bot.ui.unposted
    await bot.scheduler.tick()
    final = await fake.wait_for_message(
        lambda m: "Final scores" in m.text(), channel=fake.general, new_only=False
    )
    assert not final.ephemeral and "summary.png" in [a.filename for a in final.attachments]
    await fake.settle()


async def test_games_keeps_the_games_waiting_for_you_when_the_list_is_long(
    fake_discord: FakeDiscord, run_bot: Any, tmp_path: Path
) -> None:
    fake = fake_discord
    bot = await run_bot(lambda: make_bot(tmp_path / "c.db"))
    table = await _started(fake, bot)
    for _ in range(60):
        await bot.service.create_game(
            game_name="ttr",
            creator=player_ref(fake.alice.id),
            creator_name="alice",
            space=space_ref(fake.guild.id),
        )
    msg = await (await fake.slash("games", user=fake.alice)).wait_message()
    assert msg.ephemeral and len(msg.text()) <= 2000
    assert f"#{table.gid} usa · **your turn**" in msg.text(), msg.text()[:300]


async def test_lobby_notes_follow_the_game_when_its_thread_is_deleted(
    fake_discord: FakeDiscord, run_bot: Any, tmp_path: Path
) -> None:
    fake = fake_discord
    bot = await run_bot(lambda: make_bot(tmp_path / "c.db"))
    table = Table(fake, bot)
    await table.create(fake.alice, board="usa", seat_order="join")
    table.thread.deleted = True
    h = await fake.slash("ttr join", user=fake.bob, game=table.gid)
    assert "You joined" in (await h.wait_message()).text()
    await fake.wait_for_message(
        lambda m: "joined" in m.text() and not m.ephemeral, channel=fake.general, new_only=False
    )
    await fake.settle()
    fake.take_failures("not_found")


async def test_another_servers_games_do_not_exist_from_here(
    fake_discord: FakeDiscord, run_bot: Any, tmp_path: Path
) -> None:
    """Servers are walls: from another server, or a direct message by a non-player, a game's
    number reaches nothing (no join, start, view or move) and the answer says no more than for a
    number never used."""
    fake = fake_discord
    bot = await run_bot(lambda: make_bot(tmp_path / "c.db"))
    lobby = Table(fake, bot)
    await lobby.create(fake.alice, board="usa", seat_order="join")
    table = await _started(fake, bot)
    other = fake.add_guild("Other Guild", owner=fake.carol)
    elsewhere = fake.add_channel(other, "general")
    before = {gid: (await bot.service.game_row(gid)).seq for gid in (lobby.gid, table.gid)}
    attempts = [
        ("ttr join", {"game": lobby.gid}),
        ("ttr addai", {"game": lobby.gid}),
        ("ttr start", {"game": lobby.gid}),
        ("view board", {"game": table.gid}),
        ("view log", {"game": table.gid}),
        ("view scores", {"game": table.gid}),
        ("view hand", {"game": table.gid}),
        ("play action", {"game": table.gid, "text": "draw deck"}),
        ("play resign", {"game": table.gid}),
        ("ttr rules", {"game": table.gid}),
    ]
    for channel in (elsewhere, fake.dm_channel(fake.carol)):
        for command, options in attempts:
            h = await fake.slash(command, user=fake.carol, channel=channel, **options)
            msg = await h.wait_message()
            assert msg.ephemeral and "There is no game" in msg.text(), (command, channel, msg.text())
    never_used = await (
        await fake.slash("view board", user=fake.carol, channel=elsewhere, game=999)
    ).wait_message()
    assert "There is no game #999" in never_used.text()
    assert [s.player for s in (await bot.service.game_row(lobby.gid)).seats] == [player_ref(fake.alice.id)]
    assert {gid: (await bot.service.game_row(gid)).seq for gid in before} == before
    public = fake.public_text()
    assert "alice" not in "".join(m.text() for m in fake.messages_in(elsewhere))
    # the game's own player may still reach it from a direct message
    h = await fake.slash("view hand", user=fake.alice, channel=fake.dm_channel(fake.alice), game=table.gid)
    assert "Your cards" in (await h.wait_message()).text()
    assert public == fake.public_text()


async def test_renderers_are_prewarmed_off_the_loop_before_the_bot_is_ready(
    fake_discord: FakeDiscord, run_bot: Any, tmp_path: Path, monkeypatch: Any
) -> None:
    """Start-up does its heavy work before connecting: every renderer's cached layers are built in
    a worker thread during setup_hook, so the first board after a restart is fast."""
    import threading

    import render.ttr

    calls: list[int] = []
    monkeypatch.setattr(render.ttr, "prewarm", lambda: calls.append(threading.get_ident()))
    bot = await run_bot(lambda: make_bot(tmp_path / "c.db", prewarm=True))
    assert bot.is_ready() and calls and all(t != threading.get_ident() for t in calls)
