"""A turn a phone player gets right, end to end through Discord: seats handed from an AI back to
a person and from one person to another mid-game, a resigned player approved back in, the move
log in words with names, the timer said where players look, and /play outside a thread finding
the game where it is your turn (or asking which, privately)."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from fakediscord import FakeDiscord
from test_bot_support import Table, make_bot

from bot.app import prewarm_renderers
from bot.discord_app.store import player_ref


@pytest.fixture(scope="module", autouse=True)
def _warm_renderers() -> None:
    """Build the renderers' cached layers before the clients start (on a loaded machine the first
    start would otherwise spend its ready time drawing)."""
    asyncio.run(prewarm_renderers())


async def _play_until(table: Table, user: Any, *, max_moves: int = 40) -> None:
    """Play the moves of every person until it is ``user``'s turn."""
    for _ in range(max_moves):
        to_act = await table.to_act()
        row = await table.bot.service.game_row(table.gid)
        if any(row.seats[s].player == player_ref(user.id) for s in to_act):
            return
        seat = to_act[0]
        mover = next(
            u
            for u in (table.fake.alice, table.fake.bob, table.fake.carol, *table.fake.users.values())
            if player_ref(u.id) == row.seats[seat].player
        )
        await table.play_one(mover)
    raise AssertionError(f"{user.name}'s turn never came")


async def test_a_seat_goes_from_an_ai_back_to_a_person_and_from_one_person_to_another(
    fake_discord: FakeDiscord, run_bot: Any, tmp_path: Path
) -> None:
    fake = fake_discord
    dan = fake.add_user("__dan__")
    bot = await run_bot(lambda: make_bot(tmp_path / "c.db"))
    table = Table(fake, bot)
    await table.create(fake.alice, board="usa", seat_order="join", timer_hours=0.0)
    await table.slash("ttr join", fake.bob)
    msg = await table.slash("ttr start", fake.bob)
    assert msg.text().startswith("✗") and "creator" in msg.text()  # only the creator starts
    await table.slash("ttr start", fake.alice)
    for user in (fake.alice, fake.bob):
        await table.play_one(user)  # opening tickets
    bob_tickets = (await bot.service.private_view(table.gid, player_ref(fake.bob.id)))["you"]["tickets"]

    # bob resigns; an AI plays his seat; he asks for it back and the creator approves
    msg = await table.slash("play resign", fake.bob)
    assert "resigned" in msg.text()
    await _play_until(table, fake.alice)
    msg = await table.slash("ttr reclaim", fake.bob)
    assert msg.text().startswith("Asked"), msg.text()
    msg = await table.slash("ttr approve", fake.bob, seat=2)
    assert msg.text().startswith("✗")  # not the creator
    msg = await table.slash("ttr approve", fake.alice, seat=2)
    assert msg.text().startswith("✓") and "bob plays seat 2 again" in msg.text()
    assert await table.seat_of(fake.bob) == 1
    assert (await bot.service.private_view(table.gid, player_ref(fake.bob.id)))["you"][
        "tickets"
    ] == bob_tickets

    # the creator hands the seat from bob to dan: same seat, same tickets; bob can no longer play it
    msg = await table.slash("ttr replace", fake.alice, seat=2, user=dan)
    assert msg.text().startswith("✓") and "\\_\\_dan\\_\\_" in msg.text(), (
        msg.text()
    )  # the name shown as typed
    assert await table.seat_of(dan) == 1
    assert (await bot.service.private_view(table.gid, player_ref(dan.id)))["you"]["tickets"] == bob_tickets
    await _play_until(table, dan)
    msg = await table.slash("play draw", fake.bob)
    assert msg.text().startswith("✗") and "not playing" in msg.text()
    await table.play_one(dan)

    # an AI seat back to a person: the creator gives the seat to an AI, then to carol
    await table.slash("ttr replace", fake.alice, seat=2)
    assert (await bot.service.game_row(table.gid)).seats[1].is_ai
    while not any(a.player is None for a in await bot.service.storage.actions(table.gid)):
        await table.play_one(fake.alice)  # until the AI has played the seat
    msg = await table.slash("ttr replace", fake.alice, seat=2, user=fake.carol)
    assert msg.text().startswith("✓")
    await _play_until(table, fake.carol)
    await table.play_one(fake.carol)

    log = (await table.slash("view log", fake.alice, count=40)).text()
    for name in ("alice", "bob", "dan", "carol", "(AI)"):
        assert name in log, (name, log)
    assert "draw face" not in log and "draw deck" not in log  # moves in words, not engine text
    public = fake.public_text()  # JSON payloads: a backslash reads as two
    assert "\\\\_\\\\_dan\\\\_\\\\_" in public
    table.assert_no_leaks()


async def test_the_timer_is_shown_and_play_outside_a_thread_finds_your_game(
    fake_discord: FakeDiscord, run_bot: Any, tmp_path: Path
) -> None:
    fake = fake_discord
    bot = await run_bot(lambda: make_bot(tmp_path / "c.db"))
    bad = await fake.slash("ttr new", user=fake.alice, board="usa", timer_hours=0.0001)
    refusal = await bad.wait_message()
    assert refusal.text().startswith("✗") and "1 hour" in refusal.text() and "14 days" in refusal.text()
    tables = []
    for _ in range(2):
        table = Table(fake, bot)
        await table.create(fake.alice, board="usa", seat_order="join", timer_hours=36.0)
        intro = fake.messages_in(table.thread, ephemeral=False)[0].text()
        assert "Turn timer: 36 hours" in intro
        await table.slash("ttr addai", fake.alice)
        await table.slash("ttr start", fake.alice)
        tables.append(table)
    board = tables[0].latest_board()
    assert board is not None and "time runs out <t:" in board.text()  # the ping line carries the deadline
    games = await (await fake.slash("games", user=fake.alice)).wait_message()
    assert "timer 36 hours" in games.text() and "waiting" in games.text()

    # in the parent channel, with two games waiting for alice, /play asks which (privately)
    handle = await fake.slash("play action", user=fake.alice, text="draw deck")
    menu = await handle.wait_message()
    assert menu.ephemeral and "which one" in menu.text()
    select_id = next(c for c in menu.custom_ids())
    gid = tables[1].gid
    seq, other = await tables[1].seq(), await tables[0].seq()
    answer = await (await fake.select(menu, select_id, [str(gid)], user=fake.alice)).wait_message()
    assert answer.ephemeral
    await tables[1].settle()
    assert await tables[1].seq() > seq or "✗" in answer.text()  # the move went to the chosen game
    assert await tables[0].seq() == other  # and only there

    # /ttr new inside a game's thread opens the new game in the parent channel
    handle = fake._interaction_base(
        2,
        fake.build_command_data("ttr new", {"board": "usa"}, channel=tables[0].thread),
        fake.alice,
        tables[0].thread,
        None,
    )
    reply = await (await fake.inject(handle)).wait_message()
    assert "Created game" in reply.text()
    new_gid = int(reply.text().split("#")[1].split()[0])
    route = await bot.ui.store.route(new_gid)
    assert route.channel_id == fake.general.id


class _Clock:
    def __init__(self) -> None:
        self.now = 1_800_000_000.0

    def __call__(self) -> float:
        return self.now


async def test_a_reminder_by_direct_message_comes_before_the_shortest_timer_runs_out(
    fake_discord: FakeDiscord, run_bot: Any, tmp_path: Path
) -> None:
    """``remind_by: dm``: the player to act gets the reminder privately, before the 1-hour timer
    runs out, even when the scheduler wakes up only after the deadline."""
    fake = fake_discord
    clock = _Clock()
    bot = await run_bot(lambda: make_bot(tmp_path / "c.db", clock=clock))
    table = Table(fake, bot)
    await table.create(
        fake.alice, board="usa", seat_order="join", timer_hours=1.0, remind_by="dm", reminder_hours=0.5
    )
    await table.slash("ttr addai", fake.alice)
    await table.slash("ttr start", fake.alice)
    seq = await table.seq()
    clock.now += 2 * 3600  # the bot was busy: reminder and timeout are both due
    await bot.scheduler.tick()
    await table.settle()
    dms = fake.messages_in(fake.dm_channel(fake.alice))
    assert any("Your turn in game" in m.text() for m in dms), [m.text() for m in dms]
    assert await table.seq() > seq  # then the timeout played the turn
    assert not any("⏰" in m.text() for m in fake.messages_in(table.thread, ephemeral=False))
