"""End-to-end: the outcome stream keeps a thread's boards in order, whoever moves and however fast.

The promise (game registry and outcome stream issue): after a burst of quick moves the thread's
boards are in seq order, no board older than one already posted follows it, and the last message
pings exactly the player who is really to act. A move made through another front end (the
service directly, as the terminal does) reaches the Discord thread too.
"""

from __future__ import annotations

import asyncio
import re
from pathlib import Path
from typing import Any

from fakediscord import FakeDiscord, FakeMessage, FakeUser
from test_bot_support import Table, make_bot

from bot.discord_app.store import player_ref
from bot.stream import Line, Outcome, OutcomeStream


def _boards(fake: FakeDiscord, table: Table) -> list[tuple[int, FakeMessage]]:
    """``(seq, message)`` of every public board posted in the game's thread, oldest first (read
    from the buttons it was posted with: a board loses them when the next is posted)."""
    out = []
    for m in fake.messages_in(table.thread, ephemeral=False):
        for c in m.posted_custom_ids():
            found = re.fullmatch(rf"c:{table.gid}:(\d+):\w+(?::\d+)?", c)
            if found:
                out.append((int(found[1]), m))
                break
    return out


async def _assert_ordered_and_pinging_the_right_player(
    fake: FakeDiscord, table: Table, users: list[FakeUser]
) -> None:
    await table.settle()
    seqs = [seq for seq, _ in _boards(fake, table)]
    assert seqs == sorted(seqs) and len(set(seqs)) == len(seqs), f"boards out of order: {seqs}"
    assert seqs[-1] == await table.seq(), "the newest board is the current one"
    last = fake.messages_in(table.thread, ephemeral=False)[-1]
    to_act = await table.to_act()
    pinged = {u.id for u in users if f"<@{u.id}>" in last.text()}
    expected = {u.id for u in users if await table.seat_of(u) in to_act}
    assert pinged == expected, (last.text(), to_act)


async def _three_people(fake: FakeDiscord, bot: Any) -> Table:
    table = Table(fake, bot)
    await table.create(fake.alice, board="usa", seat_order="join")
    await table.slash("ttr join", fake.bob)
    await table.slash("ttr join", fake.carol)
    await table.slash("ttr start", fake.alice)
    return table


async def test_openings_kept_at_the_same_moment_are_all_accepted_and_boards_stay_in_order(
    fake_discord: FakeDiscord, run_bot: Any, tmp_path: Path
) -> None:
    fake = fake_discord
    bot = await run_bot(lambda: make_bot(tmp_path / "c.db"))
    table = await _three_people(fake, bot)
    users = [fake.alice, fake.bob, fake.carol]
    board = table.latest_board()
    assert board is not None
    menus = []
    for user in users:  # everyone opens their hand first …
        hand = await table.reply(await fake.click(board, f"c:{table.gid}:hand", user=user))
        select_id = table.private_id(hand, "keep")
        options = [o["value"] for o in hand.find_component(select_id)["options"]]
        menus.append((user, hand, select_id, options[:2]))
    # … then all three submit at once: no menu may go stale because another player chose first
    handles = await asyncio.gather(
        *(fake.select(hand, select_id, keep, user=user) for user, hand, select_id, keep in menus)
    )
    replies = [await h.wait_message() for h in handles]
    assert all(r.text().startswith("✓") for r in replies), [r.text() for r in replies]
    await _assert_ordered_and_pinging_the_right_player(fake, table, users)
    table.assert_no_leaks()


async def test_a_quick_double_draw_leaves_one_current_board_that_pings_the_next_player(
    fake_discord: FakeDiscord, run_bot: Any, tmp_path: Path
) -> None:
    fake = fake_discord
    bot = await run_bot(lambda: make_bot(tmp_path / "c.db"))
    table = await _three_people(fake, bot)
    users = [fake.alice, fake.bob, fake.carol]
    for user in users:
        await table.play_one(user)  # opening tickets
    for _ in range(3):  # three turns of two blind draws, the second sent before any board is posted
        (seat,) = await table.to_act()
        user = users[seat]  # join order
        seq = await table.seq()
        board = table.latest_board()
        assert board is not None
        first = await fake.click(board, f"c:{table.gid}:{seq}:deck", user=user)
        second = await fake.slash("play draw", user=user, channel=table.thread, card="deck")
        assert (await first.wait_message()).text().startswith("✓")
        assert (await second.wait_message()).text().startswith("✓")
        await _assert_ordered_and_pinging_the_right_player(fake, table, users)
    table.assert_no_leaks()


async def test_a_move_made_outside_discord_reaches_the_thread(
    fake_discord: FakeDiscord, run_bot: Any, tmp_path: Path
) -> None:
    fake = fake_discord
    bot = await run_bot(lambda: make_bot(tmp_path / "c.db"))
    table = await _three_people(fake, bot)
    before = len(_boards(fake, table))
    player = player_ref(fake.alice.id)
    # another front end (the terminal, a web page) calls the service directly
    await bot.service.act(table.gid, player, (await bot.service.legal_actions(table.gid, player))[0])
    await table.settle()
    assert len(_boards(fake, table)) == before + 1
    assert "**alice** kept" in fake.messages_in(table.thread, ephemeral=False)[-1].text()


class _SlowFollower:
    """A subscriber whose first delivery blocks until released (a slow Discord post)."""

    def __init__(self) -> None:
        self.entered = asyncio.Event()
        self.release = asyncio.Event()
        self.seen: list[tuple[int, tuple[str, ...]]] = []

    async def deliver(self, outcome: Outcome) -> None:
        if not self.seen:
            self.entered.set()
            await self.release.wait()
        self.seen.append((outcome.seq, tuple(line.text for line in outcome.lines)))


def _outcome(seq: int, text: str, *, settled: bool = True) -> Outcome:
    return Outcome(
        game_id=1, seq=seq, game_name="ttr", status="active", lines=(Line(0, text),), settled=settled
    )


async def test_the_stream_merges_what_waited_and_never_delivers_an_older_board() -> None:
    stream = OutcomeStream()
    follower = _SlowFollower()
    stream.subscribe(follower)
    stream.publish(_outcome(1, "a"))
    await follower.entered.wait()  # the worker took outcome 1 and blocks in deliver
    stream.publish(_outcome(3, "b"))
    stream.publish(_outcome(2, "late"))  # older than one queued before it
    stream.publish(_outcome(4, "c", settled=False))
    stream.publish(_outcome(5, "d"))
    follower.release.set()
    await stream.drain()
    assert follower.seen == [(1, ("a",)), (5, ("b", "late", "c", "d"))]


async def test_unsettled_steps_reach_a_step_follower_one_by_one() -> None:
    class Steps:
        every_step = True

        def __init__(self) -> None:
            self.seqs: list[int] = []

        async def deliver(self, outcome: Outcome) -> None:
            self.seqs.append(outcome.seq)

    stream = OutcomeStream()
    steps = Steps()
    stream.subscribe(steps)
    for seq in (1, 2, 3):
        stream.publish(_outcome(seq, "x", settled=seq == 3))
    await stream.drain()
    assert steps.seqs == [1, 2, 3]


async def test_first_class_moves_in_a_burst_leave_the_table_boards_in_order(
    fake_discord: FakeDiscord, run_bot: Any, tmp_path: Path
) -> None:
    """First Class, take-then-answer-then-end sent as fast as the player can type: each move is
    answered, and the thread's table boards end in seq order with the last one pinging whoever
    is really to act."""
    from rules.ai import make_ai

    fake = fake_discord
    bot = await run_bot(lambda: make_bot(tmp_path / "c.db"))
    table = Table(fake, bot)
    await table.create(fake.alice, game="first-class", seat_order="join")
    await table.slash("ttr join", fake.bob)
    await table.slash("ttr start", fake.alice)
    users = [fake.alice, fake.bob]
    ai = make_ai("first-class", "heuristic", 3)
    # At least 12 moves, stopping only where a turn ends: a step inside a turn posts no board (it
    # waits for the turn's end), so stopping there would leave the last board one turn behind.
    for moves in range(1, 60):
        loaded = await bot.service.load(table.gid)
        if loaded.game is None or loaded.game.is_over():
            break
        seat = loaded.game.seats_to_act()[0]
        text = ai.choose(loaded.game, seat).to_text()
        handle = await fake.slash("play action", user=users[seat], channel=table.thread, text=text)
        assert (await handle.wait_message()).text().startswith("✓")
        after = (await bot.service.load(table.gid)).game
        if moves >= 12 and (after is None or after.is_over() or seat not in after.seats_to_act()):
            break
    await bot.service.stream.drain()
    seqs = []
    for m in fake.messages_in(table.thread, ephemeral=False):
        found = next(
            (
                re.match(rf"f:{table.gid}:(\d+):", c)
                for c in m.posted_custom_ids()
                if re.match(rf"f:{table.gid}:(\d+):", c)
            ),
            None,
        )
        if found:
            seqs.append(int(found[1]))
    assert seqs and seqs == sorted(seqs) and seqs[-1] == await table.seq(), seqs
    last = fake.messages_in(table.thread, ephemeral=False)[-1]
    to_act = await table.to_act()
    assert {u.id for u in users if f"<@{u.id}>" in last.text()} == {users[s].id for s in to_act}
