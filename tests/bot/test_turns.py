"""Turns a phone player gets right: seats handed between people and AIs, honest timers with a
reminder before every timeout, a "skip" that gains nothing, and moves logged in words with names."""

from __future__ import annotations

from typing import Any

import pytest
from bot_helpers import ALICE, BOB, CAROL, FakeClock, two_humans

from bot.scheduler import Scheduler
from bot.service import GameService, ServiceError, hours_text, plural
from rules.games import find_game, new_game
from rules.ttr import actions as A

DAN = "discord:44"


async def _err(coro: object) -> ServiceError:
    with pytest.raises(ServiceError) as err:
        await coro  # type: ignore[misc]
    return err.value


async def _opening_done(service: GameService, gid: int) -> None:
    for user in (ALICE, BOB):
        await service.act(gid, user, (await service.legal_actions(gid, user))[0])


# ---- people replace people ---------------------------------------------------------------------


async def test_a_forfeited_seat_goes_back_to_its_player_with_the_same_hand(service: GameService) -> None:
    """A person who resigned asks for the seat back; only the creator or an admin approves; the seat
    keeps its cards, tickets and score."""
    gid = await two_humans(service)
    await _opening_done(service, gid)
    bob_before = (await service.private_view(gid, BOB))["you"]
    await service.resign(gid, BOB)
    assert (await service.game_row(gid)).seats[1].is_ai
    assert (await _err(service.request_seat(gid, CAROL))).code == "not_your_game"  # never sat there
    out = await service.request_seat(gid, BOB)
    assert "asks to play seat 2 again" in out.plain_lines()[0]
    assert (await _err(service.request_seat(gid, BOB))).code == "already_asked"
    assert (await _err(service.approve_seat(gid, BOB, 2))).code == "forbidden"
    assert (await _err(service.approve_seat(gid, ALICE, 1))).code == "bad_option"  # nobody asked for seat 1
    out = await service.approve_seat(gid, ALICE, 2)
    assert "bob plays seat 2 again" in out.plain_lines()[0]
    row = await service.game_row(gid)
    assert row.seat_of(BOB) == 1 and not row.seats[1].is_ai and row.seats[1].name == "bob"
    after = (await service.private_view(gid, BOB))["you"]
    assert after["tickets"] == bob_before["tickets"]  # same seat, same tickets (AI moves may add cards)


async def test_the_creator_hands_a_seat_from_an_ai_to_a_person_and_between_people(
    service: GameService,
) -> None:
    """``hand_over``: an AI seat or a person's seat goes to another member, mid-game, with its hand;
    the new holder may act at once, the old one no longer can; one person plays one seat."""
    gid = await two_humans(service)
    await _opening_done(service, gid)
    await service.replace_with_ai(gid, ALICE, 2)  # bob's seat to an AI
    assert (await service.game_row(gid)).seats[1].is_ai
    while not any(a.player is None for a in await service.storage.actions(gid)):  # the AI plays a turn
        await service.act(gid, ALICE, (await service.legal_actions(gid, ALICE))[0])
    hand = (await service.public_view(gid))["scores"]
    assert (await _err(service.hand_over(gid, BOB, 2, CAROL, "carol"))).code == "forbidden"
    assert (await _err(service.hand_over(gid, ALICE, 3, CAROL, "carol"))).code == "bad_option"
    assert (
        await _err(service.hand_over(gid, ALICE, 2, ALICE, "alice"))
    ).code == "bad_option"  # alice has seat 1
    out = await service.hand_over(gid, ALICE, 2, CAROL, "carol")
    assert "is now played by carol" in out.plain_lines()[0]
    row = await service.game_row(gid)
    assert row.seat_of(CAROL) == 1 and (await service.public_view(gid))["scores"] == hand
    carol_view = await service.private_view(gid, CAROL)
    out = await service.hand_over(gid, ALICE, 2, DAN, "dan", is_admin=False)
    assert (await service.game_row(gid)).seat_of(CAROL) is None
    assert (await _err(service.act(gid, CAROL, "draw deck"))).code == "not_your_game"
    assert (await service.private_view(gid, DAN))["you"] == carol_view["you"]
    # whoever is to act can play; moves are logged under the name of who made them
    for _ in range(4):
        row = await service.game_row(gid)
        mover = row.seats[(await service.public_view(gid))["to_act"][0]].player
        assert mover in (ALICE, DAN)
        await service.act(gid, mover, (await service.legal_actions(gid, mover))[0])
    log = "\n".join(await service.log_lines(gid, 40))
    assert "dan " in log and "alice " in log and "(AI)" in log  # the AI's moves are marked


async def test_the_log_reads_in_words(service: GameService) -> None:
    """``/view log``: each move is a sentence with the player's name, never an engine key."""
    gid = await two_humans(service)
    await _opening_done(service, gid)
    row = await service.game_row(gid)
    mover = row.seats[(await service.public_view(gid))["to_act"][0]].player
    assert mover is not None
    await service.act(gid, mover, "draw face 0")
    last = (await service.log_lines(gid, 1))[0]
    name = "alice" if mover == ALICE else "bob"
    assert last.startswith(f"3. {name} took a face-up ") and "draw face" not in last


# ---- honest timers ------------------------------------------------------------------------------


@pytest.mark.parametrize("hours", [-1, 0.0001, 0.5, 337, 100000, float("nan")])
async def test_timers_outside_one_hour_to_fourteen_days_are_refused(
    service: GameService, hours: float
) -> None:
    """A timer is 1 hour to 14 days (or none); anything else is refused with the range, and no
    game is created."""
    e = await _err(
        service.create_game(game_name="ttr", config={"board": "usa"}, creator=ALICE, turn_hours=hours)
    )
    assert e.code == "bad_option" and "1 hour" in e.message and "14 days" in e.message
    assert await service.storage.game_ids() == []


async def test_timer_bounds_and_reminder_options(service: GameService) -> None:
    for hours in (0, None):
        assert (
            await service.create_game(
                game_name="ttr", config={"board": "usa"}, creator=ALICE, turn_hours=hours
            )
        ).turn_hours is None
    assert (
        await service.create_game(game_name="ttr", config={"board": "usa"}, creator=ALICE, turn_hours=1)
    ).turn_hours == 1
    assert (
        await service.create_game(game_name="ttr", config={"board": "usa"}, creator=ALICE, turn_hours=336)
    ).turn_hours == 336
    e = await _err(
        service.create_game(
            game_name="ttr", config={"board": "usa"}, creator=ALICE, turn_hours=2, reminder_hours=3
        )
    )
    assert e.code == "bad_option" and "reminder" in e.message
    e = await _err(
        service.create_game(
            game_name="ttr", config={"board": "usa"}, creator=ALICE, turn_hours=2, remind_by="pigeon"
        )
    )
    assert e.code == "bad_option"
    row = await service.create_game(
        game_name="ttr",
        config={"board": "usa"},
        creator=ALICE,
        turn_hours=48,
        reminder_hours=2,
        remind_by="dm",
    )
    assert row.reminder_hours == 2 and row.remind_by == "dm"


async def test_the_timer_is_said_at_the_start_and_in_the_view(service: GameService) -> None:
    row = await service.create_game(
        game_name="ttr",
        config={"board": "usa"},
        creator=ALICE,
        creator_name="alice",
        seat_order="join",
        seed=7,
        turn_hours=36,
        timeout_policy="skip",
    )
    await service.join(row.id, BOB, "bob")
    out = await service.start(row.id, ALICE)
    assert (
        "Turn timer: 36 hours, then the turn passes; a reminder comes 9 hours before" in out.plain_lines()[0]
    )
    timer = (await service.public_view(row.id))["timer"]
    assert timer["hours"] == 36 and timer["deadline"] == pytest.approx(service.clock() + 36 * 3600)


@pytest.mark.parametrize("jump", [0.0, 10 * 86400.0])
async def test_a_reminder_comes_before_every_timeout_even_with_the_shortest_timer(
    service: GameService, clock: FakeClock, jump: float
) -> None:
    """With a 1-hour timer and a reminder asked 59 minutes before, each timeout is preceded by a
    reminder for the same turn, whether the scheduler ticks every 30 s or wakes up days late."""
    row = await service.create_game(
        game_name="ttr",
        config={"board": "usa"},
        creator=ALICE,
        creator_name="alice",
        seat_order="join",
        seed=7,
        turn_hours=1,
        reminder_hours=59 / 60,
        timeout_policy="ai",
    )
    await service.join(row.id, BOB, "bob")
    await service.start(row.id, ALICE)
    gid = row.id
    events: list[tuple[str, int]] = []

    async def on_reminder(g: int, players: list[str], deadline: float | None) -> None:
        assert deadline is not None and deadline > clock() - jump - 1
        events.append(("reminder", (await service.game_row(g)).seq))

    sched = Scheduler(service, clock=clock, on_reminder=on_reminder)
    timeouts = 0
    for _ in range(4):  # four turns run out in a row
        seq = (await service.game_row(gid)).seq
        schedule = await service.storage.schedule_of(gid)
        assert schedule["reminder"][0] >= clock() - 1e-6, "a reminder is never armed in the past"
        assert schedule["reminder"][0] <= schedule["timeout"][0]
        if jump:
            clock.advance(jump)
            await sched.tick()
        else:
            while (await service.game_row(gid)).seq == seq:
                clock.advance(30)
                await sched.tick()
        assert (await service.game_row(gid)).seq > seq
        timeouts += 1
        assert ("reminder", seq) in events, f"the turn at seq {seq} timed out without a reminder"
    assert timeouts == 4


async def test_skip_gains_nothing_where_the_rules_allow_it_and_names_the_rule_where_they_force_a_move() -> (
    None
):
    """Ticket to Ride's ``skip_turn``: a pending tunnel is withdrawn (no card drawn, the hand
    unchanged); the opening tickets must be kept (the minimum, rule named); a second card must be
    drawn (rule named); at the start of a turn the timer-only ``skip turn`` passes it with no effect."""
    spec = find_game("ttr")
    assert spec.skip_turn is not None
    g: Any = new_game("ttr", {"board": "europe"}, 2, 1)
    plan = spec.skip_turn(g, 0)
    assert (
        plan is not None
        and isinstance(plan.action, A.KeepTickets)
        and plan.forced
        and "keep at least" in plan.forced
    )
    for seat in (0, 1):
        g.apply(seat, spec.skip_turn(g, seat).action)  # type: ignore[union-attr]
    assert g.phase == "play"
    start = g.current
    plan = spec.skip_turn(g, start)
    assert plan is not None and plan.forced is None and isinstance(plan.action, A.SkipTurn)
    before = (list(g.hands[start]), list(g.deck), list(g.tickets[start]), list(g.owner))
    g.apply(start, plan.action)
    assert (
        list(g.hands[start]),
        list(g.deck),
        list(g.tickets[start]),
        list(g.owner),
    ) == before  # nothing gained
    assert g.current != start and A.SkipTurn() not in g.legal_actions(g.current)  # never a player's move
    seat = g.current
    tunnel = next(t for t in g.board.tracks if t.tunnel and t.colour_name == "red" and not t.siblings)
    g.hands[seat] = [0] * len(g.hands[seat])
    g.hands[seat][A.CARD_INDEX["red"]] = 8
    g.apply(seat, A.ClaimRoute(tunnel.id, (("red", tunnel.length),)))
    if g.pending == "tunnel":
        hand = list(g.hands[seat])
        plan = spec.skip_turn(g, seat)
        assert plan is not None and plan.forced is None and isinstance(plan.action, A.WithdrawTunnel)
        g.apply(seat, plan.action)
        assert g.hands[seat] == hand and g.current != seat  # nothing drawn, the turn passed
    g2: Any = new_game("ttr", {"board": "usa"}, 2, 1)
    for s in (0, 1):
        g2.apply(s, spec.skip_turn(g2, s).action)  # type: ignore[union-attr]
    g2.apply(g2.current, A.DrawDeck())
    plan = spec.skip_turn(g2, g2.current)
    assert plan is not None and isinstance(plan.action, A.DrawDeck) and "second" in (plan.forced or "")


async def test_the_skip_policy_really_skips_and_players_cannot_send_a_skip(
    service: GameService, clock: FakeClock
) -> None:
    """ "skip" draws nothing at the start of a turn: the seat's hand is unchanged, the log and the
    thread say the turn passed, the next player is to act; a person typing "skip turn" is refused."""
    gid = await two_humans(service, turn_hours=24.0, timeout_policy="skip")
    await _opening_done(service, gid)
    sched = Scheduler(service, clock=clock)
    clock.advance(24 * 3600 + 1)
    outcomes: list[Any] = []

    class Follower:
        async def deliver(self, outcome: Any) -> None:
            outcomes.append(outcome)

    service.stream.subscribe(Follower())
    late = (await service.public_view(gid))["detail"]["current"]
    late_player = (await service.game_row(gid)).seats[late].player
    assert late_player is not None
    hand = dict((await service.private_view(gid, late_player))["you"]["hand"])
    await sched.tick()
    await service.stream.drain()
    text = "\n".join(line for o in outcomes for line in o.plain_lines())
    assert "ran out of time; the turn passes" in text and "drew" not in text
    assert dict((await service.private_view(gid, late_player))["you"]["hand"]) == hand
    assert (await service.public_view(gid))["detail"]["current"] != late
    other = (await service.game_row(gid)).seats[1 - late].player
    assert other is not None
    assert (await _err(service.act(gid, other, "skip turn"))).code == "timer_only"


# ---- the right game -----------------------------------------------------------------------------


async def test_only_the_creator_or_an_admin_starts_and_a_full_lobby_starts_itself(
    service: GameService,
) -> None:
    row = await service.create_game(
        game_name="ttr", config={"board": "switzerland"}, creator=ALICE, creator_name="alice"
    )
    await service.join(row.id, BOB, "bob")
    assert (await _err(service.start(row.id, BOB))).code == "forbidden"
    after = await service.join(row.id, CAROL, "carol")  # Switzerland seats three
    assert after.status == "active"


def test_words_helpers() -> None:
    assert plural(1, "card") == "1 card" and plural(2, "card") == "2 cards"
    assert hours_text(1) == "1 hour" and hours_text(336) == "14 days" and hours_text(0.25) == "15 minutes"


def test_final_scores_read_in_the_games_words() -> None:
    """Score breakdowns show each game's own labels (its registry ``score_labels``), never keys."""
    from bot.present import final_text

    scores = [{"seat": 0, "rank": 1, "total": 35, "breakdown": {"tickets_won": 25, "longest_path": 10}}]
    text = final_text(scores, ["alice"], "ttr")
    assert "Tickets completed 25" in text and "Longest path bonus 10" in text and "tickets_won" not in text
    fc = final_text(
        [{"seat": 0, "rank": 1, "total": 4, "breakdown": {"coins_left": 4}}], ["bob"], "first-class"
    )
    assert "Coins left 4" in fc
