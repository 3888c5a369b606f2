"""Two bot processes on one PostgreSQL database, each a whole App (its own store, pool, service,
cache and scheduler): what the issue asks of a cluster, checked through the core as a front end
drives it (docs/operations.md, "PostgreSQL")."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable
from itertools import count

import pytest
from bot_helpers import FakeClock

from bot.app import App, AppSettings
from bot.service import ServiceError
from bot.store.pg_cluster import shared_cluster
from bot.stream import Outcome

ALICE, BOB = "terminal:alice", "terminal:bob"
_numbers = count()


class Followed:
    """Every outcome one App published."""

    def __init__(self) -> None:
        self.outcomes: list[Outcome] = []

    async def deliver(self, outcome: Outcome) -> None:
        self.outcomes.append(outcome)


@pytest.fixture
async def cluster_apps() -> AsyncIterator[tuple[App, App, FakeClock]]:
    url = shared_cluster().create_database(f"apps_{next(_numbers)}")
    clock = FakeClock()
    a = App(AppSettings(url, clock=clock, process="A"))
    b = App(AppSettings(url, clock=clock, process="B"))
    await a.start()
    await b.start()
    try:
        yield a, b, clock
    finally:
        await a.close()
        await b.close()


def _meet_at_commit(first: App, then: App) -> Callable[[], None]:
    """Hold both Apps' next commits until both reached them, both for the same seq; then
    ``first``'s goes to the database and ``then``'s right after it returned. Returns the undo."""
    arrived = 0
    together, first_done = asyncio.Event(), asyncio.Event()
    originals = {app: app.storage.commit_action for app in (first, then)}

    def gate(app: App) -> Callable[..., Awaitable[int]]:
        async def gated(*args: object, **kw: object) -> int:
            nonlocal arrived
            arrived += 1
            if arrived == 2:
                together.set()
            await together.wait()
            if app is then:
                await first_done.wait()
            try:
                return await originals[app](*args, **kw)
            finally:
                if app is first:
                    first_done.set()

        return gated

    for app in (first, then):
        app.storage.commit_action = gate(app)  # type: ignore[method-assign]

    def undo() -> None:
        for app, commit in originals.items():
            app.storage.commit_action = commit  # type: ignore[method-assign]

    return undo


async def test_a_click_on_one_process_and_a_timer_on_the_other_commit_the_same_seq_once(
    cluster_apps: tuple[App, App, FakeClock],
) -> None:
    """Done when 3: a click reaching process A and the turn timer firing on process B at the same
    moment, both for the same seq: exactly one is applied; a losing click is answered "already
    played", a losing timer publishes nothing (the turn did not run out)."""
    a, b, clock = cluster_apps
    seen_a, seen_b = Followed(), Followed()
    a.service.stream.subscribe(seen_a)
    b.service.stream.subscribe(seen_b)
    winners = []
    for _ in range(4):
        row = await a.service.create_game(
            game_name="ttr",
            config={"board": "usa"},
            creator=ALICE,
            creator_name="alice",
            seat_order="join",
            seed=3,
            turn_hours=1,
        )
        await a.service.join(row.id, BOB, "bob")
        await a.service.start(row.id, ALICE)
        loaded = await a.service.load(row.id)
        assert loaded.game is not None
        seq = loaded.row.seq
        seat = loaded.game.seats_to_act()[0]
        player = loaded.row.seats[seat].player
        assert player is not None
        action = loaded.game.legal_actions(seat)[0]
        clock.advance(2 * 3600)  # the turn ran out
        before_b = len(seen_b.outcomes)
        undo = _meet_at_commit(a, b) if len(winners) % 2 == 0 else _meet_at_commit(b, a)
        click, _ticked = await asyncio.gather(
            a.service.act(row.id, player, action, expected_seq=seq),
            b.scheduler.tick(),
            return_exceptions=True,
        )
        undo()
        await a.storage.clear_schedule(row.id)  # the next round's tick fires that round's game only
        log = await a.storage.actions(row.id, since_seq=seq, limit=1)
        first = (await a.storage.actions(row.id, since_seq=seq))[0]
        assert log and first.seq == seq + 1
        timed_out = [o for o in seen_b.outcomes[before_b:] if o.game_id == row.id]
        if isinstance(click, ServiceError):
            assert click.code == "conflict" and "already played" in click.message
            assert first.player is None, "the timer's AI move won"
            assert timed_out, "the timer's winner published its outcome"
            winners.append("timer")
        else:
            assert not isinstance(click, BaseException), click
            assert first.player == player, "the click won"
            assert timed_out == [], "a timer that lost says nothing"
            winners.append("click")
    assert winners == ["click", "timer", "click", "timer"]
