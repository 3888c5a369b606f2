"""GameService: permissions, turn checks, stale and concurrent actions, AI loop, timers."""

from __future__ import annotations

import asyncio

import pytest
from bot_helpers import ALICE, BOB, CAROL, FakeClock, two_humans

from bot.scheduler import Scheduler
from bot.service import GameService, ServiceError
from bot.store.rows import ABORTED
from bot.store.sqlite import SqliteStore
from bot.stream import Outcome
from rules.registry import GameSpec


async def _err(coro: object) -> ServiceError:
    with pytest.raises(ServiceError) as err:
        await coro  # type: ignore[misc]
    return err.value


async def test_lobby_rules(service: GameService) -> None:
    row = await service.create_game(
        game_name="ttr", config={"board": "usa"}, creator=ALICE, creator_name="alice"
    )
    assert (await _err(service.join(row.id, ALICE, "alice"))).code == "already_joined"
    assert (await _err(service.start(row.id, ALICE))).code == "player_count"
    assert (await _err(service.act(row.id, ALICE, "draw deck"))).code == "not_started"
    assert (await _err(service.add_ai(row.id, CAROL))).code == "forbidden"
    await service.join(row.id, BOB, "bob")
    await service.leave(row.id, BOB)
    for _ in range(4):
        await service.add_ai(row.id, ALICE)
    assert (await _err(service.join(row.id, BOB, "bob"))).code == "full"
    assert (
        await _err(service.create_game(game_name="ttr", config={"board": "narnia"}, creator=ALICE))
    ).code == "bad_option"
    assert (
        await _err(
            service.create_game(game_name="ttr", config={"board": "usa"}, creator=ALICE, timeout_policy="x")
        )
    ).code == "bad_option"


async def test_turn_checks(service: GameService) -> None:
    gid = await two_humans(service)
    assert (await _err(service.act(gid, CAROL, "draw deck"))).code == "not_your_game"
    e = await _err(service.act(gid, ALICE, "draw deck"))  # opening tickets come first
    assert e.message and (await service.game_row(gid)).seq == 0
    # opening tickets: both choose
    for user in (ALICE, BOB):
        await service.act(gid, user, (await service.legal_actions(gid, user))[0])
    view = await service.public_view(gid)
    current = view["detail"]["current"]
    other = BOB if current == 0 else ALICE
    assert (await _err(service.act(gid, other, "draw deck"))).code == "not_your_turn"
    mover = ALICE if current == 0 else BOB
    e = await _err(service.act(gid, mover, "fly to the moon"))
    assert e.code == "malformed_action" and "Could not read" in e.message
    e = await _err(service.act(gid, mover, "claim US999 red=1"))
    assert e.message  # a sentence from the rules
    seq = (await service.game_row(gid)).seq
    assert (await _err(service.act(gid, mover, "draw deck", expected_seq=seq - 1))).code == "stale"
    assert (await service.game_row(gid)).seq == seq  # nothing changed
    out = await service.act(gid, mover, "draw deck", expected_seq=seq)
    assert out.seq == seq + 1 and list(out.to_act) == [current]  # second card still to draw


async def test_double_click_and_simultaneous_presses(service: GameService) -> None:
    gid = await two_humans(service)
    for user in (ALICE, BOB):
        await service.act(gid, user, (await service.legal_actions(gid, user))[0])
    row = await service.game_row(gid)
    current = (await service.public_view(gid))["detail"]["current"]
    mover = row.seats[current].player
    seq = row.seq
    results = await asyncio.gather(
        service.act(gid, mover, "tickets draw", expected_seq=seq),
        service.act(gid, mover, "tickets draw", expected_seq=seq),
        service.act(gid, ALICE if mover == BOB else BOB, "draw deck", expected_seq=seq),
        return_exceptions=True,
    )
    ok = [r for r in results if not isinstance(r, Exception)]
    errors = [r for r in results if isinstance(r, ServiceError)]
    assert len(ok) == 1 and len(errors) == 2
    # the double click is told its move already counted (issue 30: its first answer may have been
    # lost), the other player's press that it is not their turn or the button is old
    assert {e.code for e in errors} <= {"already_played", "stale", "not_your_turn"}
    assert "already_played" in {e.code for e in errors}
    assert len(await service.storage.actions(gid)) == seq + 1


async def test_a_press_again_is_already_played_only_for_the_same_standing_move(service: GameService) -> None:
    """Issue 30: a stale click is "already played" only when it repeats the very move its seat made
    right after the button's seq (or, from a private menu, its own last move), and that move still
    stands; any other stale click stays "from an earlier turn"."""
    gid = await two_humans(service)
    for user in (ALICE, BOB):
        await service.act(gid, user, (await service.legal_actions(gid, user))[0])
    row = await service.game_row(gid)
    current = (await service.public_view(gid))["detail"]["current"]
    mover = row.seats[current].player
    assert mover is not None
    seq = row.seq
    await service.act(gid, mover, "draw deck", expected_seq=seq)
    assert (await _err(service.act(gid, mover, "draw deck", expected_seq=seq))).code == "already_played"
    assert (await _err(service.act(gid, mover, "draw face 0", expected_seq=seq))).code == "stale"
    assert (await _err(service.act(gid, mover, "draw deck", expected_seq=seq - 1))).code == "stale"
    moves = await service.seat_moves(gid, mover)
    assert (
        await _err(service.act(gid, mover, "draw deck", expected_moves=moves - 1))
    ).code == "already_played"
    assert (await service.game_row(gid)).seq == seq + 1  # nothing changed


async def test_ai_loop_runs_until_a_human_must_act(service: GameService) -> None:
    row = await service.create_game(
        game_name="ttr", config={"board": "europe"}, creator=ALICE, creator_name="alice", seed=3
    )
    await service.add_ai(row.id, ALICE)
    await service.add_ai(row.id, ALICE, "random")
    out = await service.start(row.id, ALICE)
    human_seat = (await service.game_row(row.id)).seat_of(ALICE)
    assert list(out.to_act) == [human_seat] and list(out.ping) == [ALICE]
    out = await service.act(row.id, ALICE, (await service.legal_actions(row.id, ALICE))[0])
    assert out.over or human_seat in out.to_act
    actions = await service.storage.actions(row.id)
    assert any(a.player is None for a in actions)  # AI actions persisted like a human's
    assert all(a.player in (None, ALICE) for a in actions)


async def test_manage_permissions(service: GameService) -> None:
    gid = await two_humans(service)
    assert (await _err(service.abort(gid, BOB))).code == "forbidden"
    assert (await _err(service.replace_with_ai(gid, BOB, 1))).code == "forbidden"
    assert (await _err(service.kick(gid, CAROL, BOB))).code == "forbidden"
    out = await service.kick(gid, ALICE, BOB)
    assert (await service.game_row(gid)).seats[1].is_ai and "AI" in out.plain_lines()[0]
    out = await service.abort(gid, CAROL, is_admin=True)
    assert (await service.game_row(gid)).status == ABORTED
    assert (await _err(service.act(gid, ALICE, "draw deck"))).code == "game_over"


async def test_resign_hands_seat_to_ai(service: GameService) -> None:
    gid = await two_humans(service)
    out = await service.resign(gid, BOB)
    assert "resigned" in out.plain_lines()[0]
    row = await service.game_row(gid)
    assert row.seat_of(BOB) is None and row.seats[1].is_ai
    assert (await _err(service.act(gid, BOB, "draw deck"))).code == "not_your_game"


async def test_log_and_views_hide_tickets(service: GameService) -> None:
    gid = await two_humans(service)
    await service.act(gid, ALICE, (await service.legal_actions(gid, ALICE))[0])
    log = "\n".join(await service.log_lines(gid))
    assert "US-T" not in log and "kept" in log
    public = await service.public_view(gid)
    assert public["you"] is None
    mine = await service.private_view(gid, ALICE)
    assert mine["you"]["tickets"]
    assert (await _err(service.private_view(gid, CAROL))).code == "not_your_game"


async def test_my_turns_and_rules_summary(service: GameService) -> None:
    gid = await two_humans(service)
    turns = {row.id: mine for row, mine in await service.my_turns(ALICE)}
    assert turns[gid] is True  # opening tickets
    text = "\n".join(await service.rules_summary(game_name="ttr", config={"board": "germany"}))
    assert "Stand-in deck" in text and "Provisional merchandise" in text
    assert (await service.rules_summary(game_name="ttr", config={"board": "switzerland"}))[0].startswith(
        "Switzerland"
    )


# ---- timers ---------------------------------------------------------------------------------


async def _timed_game(service: GameService, policy: str) -> int:
    gid = await two_humans(service, turn_hours=24.0, timeout_policy=policy)
    for user in (ALICE, BOB):
        await service.act(gid, user, (await service.legal_actions(gid, user))[0])
    return gid


@pytest.mark.parametrize("policy", ["ai", "skip", "forfeit"])
async def test_timeout_policies(service: GameService, clock: FakeClock, policy: str) -> None:
    gid = await _timed_game(service, policy)
    reminders: list[tuple[int, list[str]]] = []
    outcomes: list[Outcome] = []

    async def on_reminder(g: int, players: list[str], deadline: float | None) -> None:
        reminders.append((g, players))

    class Follower:
        async def deliver(self, outcome: Outcome) -> None:
            outcomes.append(outcome)

    service.stream.subscribe(Follower())
    sched = Scheduler(service, clock=clock, on_reminder=on_reminder)
    row = await service.game_row(gid)
    current = (await service.public_view(gid))["detail"]["current"]
    late_user = row.seats[current].player
    assert await sched.tick() == 0
    clock.advance(19 * 3600)
    await sched.tick()
    assert reminders == [(gid, [late_user])]
    clock.advance(5 * 3600 + 1)
    seq = row.seq
    await sched.tick()
    await service.stream.drain()
    assert len(outcomes) == 1 and "ran out of time" in outcomes[0].plain_lines()[0]  # one settled outcome
    row = await service.game_row(gid)
    assert row.seq > seq
    view = await service.public_view(gid)
    assert view["detail"]["current"] != current  # the late seat's turn was played or skipped
    if policy == "forfeit":
        assert row.seats[current].is_ai
    else:
        assert row.seats[current].player == late_user
    if policy == "skip":
        texts = [a.action for a in await service.storage.actions(gid, since_seq=seq)]
        assert texts[0] in ("skip turn", "pass")  # "skip" really skips: nothing drawn
    # the next player's timer is armed
    assert "timeout" in await service.storage.schedule_of(gid)


async def test_timers_survive_restart_and_vacation_pauses(db_path: str, clock: FakeClock) -> None:
    async with SqliteStore(db_path, clock=clock) as st:
        svc = GameService(st, clock=clock)
        gid = await _timed_game(svc, "ai")
        row = await svc.game_row(gid)
        current = (await svc.public_view(gid))["detail"]["current"]
        late = row.seats[current].player
        assert late is not None
        await svc.set_vacation(late, clock() + 3 * 86400)
        due, _ = (await st.schedule_of(gid))["timeout"]
        assert due >= clock() + 3 * 86400 + 24 * 3600 - 1
    clock.advance(2 * 86400)
    async with SqliteStore(db_path, clock=clock) as st:  # restart
        svc = GameService(st, clock=clock)
        await svc.resume_all()
        sched = Scheduler(svc, clock=clock)
        await sched.tick()
        assert (await svc.game_row(gid)).seq == row.seq  # on vacation: nothing happens
        clock.advance(2 * 86400 + 1)
        await sched.tick()
        assert (await svc.game_row(gid)).seq > row.seq


class _BadAI:
    """An AI that proposes an illegal move, then crashes."""

    def __init__(self) -> None:
        self.calls = 0

    def choose(self, game: object, seat: int) -> object:
        self.calls += 1
        if self.calls % 2:
            from rules.ttr.actions import DrawFaceUp

            return DrawFaceUp(7)
        raise RuntimeError("AI bug")


async def test_a_failing_ai_never_undoes_the_human_move(
    service: GameService, monkeypatch: pytest.MonkeyPatch
) -> None:
    bad = _BadAI()
    monkeypatch.setattr(GameSpec, "make_ai", lambda *a, **k: bad)
    row = await service.create_game(
        game_name="ttr",
        config={"board": "usa"},
        creator=ALICE,
        creator_name="alice",
        seed=4,
        seat_order="join",
    )
    await service.add_ai(row.id, ALICE)
    out = await service.start(row.id, ALICE)  # the AI's opening choice falls back to a random legal one
    assert bad.calls == 1
    out = await service.act(row.id, ALICE, (await service.legal_actions(row.id, ALICE))[0])
    for _ in range(6):
        if out.over:
            break
        assert list(out.to_act) == [0]
        out = await service.act(
            row.id, ALICE, (await service.legal_actions(row.id, ALICE))[0], expected_seq=out.seq
        )
    assert bad.calls >= 3  # illegal proposals and crashes, each replaced by a random legal move
    actions = await service.storage.actions(row.id)
    assert sum(a.player is None for a in actions) >= 3


class _ShortAI:
    """An AI that tries to claim the longest route with cards it does not have."""

    def choose(self, game: object, seat: int) -> object:
        from rules import games as rules_games

        legal = game.legal_actions(seat)  # type: ignore[attr-defined]
        if any(a.kind == "keep_tickets" for a in legal):
            return legal[0]
        track = max(game.board.tracks, key=lambda t: t.length)  # type: ignore[attr-defined]
        colour = track.colour_name if track.colour_name != "gray" else "red"
        return rules_games.parse_action("ttr", f"claim {track.id} {colour}={track.length}")


async def test_ai_failures_are_logged_without_the_hand(
    service: GameService, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setattr(GameSpec, "make_ai", lambda *a, **k: _ShortAI())
    row = await service.create_game(
        game_name="ttr",
        config={"board": "usa"},
        creator=ALICE,
        creator_name="alice",
        seed=4,
        seat_order="join",
    )
    await service.add_ai(row.id, ALICE)
    out = await service.start(row.id, ALICE)
    caplog.set_level("DEBUG")
    for _ in range(3):
        out = await service.act(
            row.id, ALICE, (await service.legal_actions(row.id, ALICE))[0], expected_seq=out.seq
        )
    assert "AI move failed" in caplog.text
    assert "but have" not in caplog.text  # the engine's message describes the AI's hand
