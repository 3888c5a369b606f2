"""Planned turns through the fake Discord (issue 31): a three-step plan made on the private panel
(*Plan my next turn*, its menu) and with ``/play plan``, played at the start of the turn down each
branch (a claim, a face-up locomotive, two cards from the deck) as the player's own moves, the
player told by direct message; a plan dropped when its route is taken, the player told why and
pinged as usual; a plan kept across a restart of the bot. No shared message says a plan exists."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from fakediscord import BotRunner, FakeDiscord, FakeMessage, FakeUser
from test_bot_support import Table, make_bot

from bot.app import prewarm_renderers
from bot.discord_app.store import player_ref
from rules.plans import Step
from rules.ttr.actions import parse_cards
from rules.ttr.colours import CARD_NAMES, LOCO
from rules.ttr.game import TTRGame
from rules.ttr.plans import RULES


@pytest.fixture(scope="module", autouse=True)
def _warm_renderers() -> None:
    asyncio.run(prewarm_renderers())


async def _game(table: Table) -> TTRGame:
    game = (await table.bot.service.load(table.gid)).game
    assert isinstance(game, TTRGame)
    return game


async def _started(fake: FakeDiscord, table: Table) -> None:
    await table.create(fake.alice, board="usa", seat_order="join", timer_hours=0.0)
    await table.slash("ttr join", fake.bob)
    await table.slash("ttr start", fake.alice)
    for user in (fake.alice, fake.bob):
        await table.play_one(user)  # opening tickets
    assert await table.to_act() == [0]


async def _panel(table: Table, user: FakeUser) -> FakeMessage:
    """*My hand*, then *Plan my next turn* on it: the private plan panel."""
    hand = await table.click(user, f"c:{table.gid}:hand")
    assert f"c:{table.gid}:plan" in hand.custom_ids(), hand.custom_ids()
    panel = await table.reply(await table.fake.click(hand, f"c:{table.gid}:plan", user=user))
    assert panel.ephemeral and panel.visible_to == user.id
    return panel


async def _add(table: Table, user: FakeUser, panel: FakeMessage, value: str) -> FakeMessage:
    menu = f"s:{table.gid}:0:plan"
    return await table.reply(await table.fake.select(panel, menu, [value], user=user))


def _dms(fake: FakeDiscord, user: FakeUser) -> list[str]:
    return [m.text() for m in fake.messages_in(fake.dm_channel(user))]


async def _alice_draws(table: Table) -> None:
    """Alice's turn by the board's buttons: two cards from the deck."""
    seq = await table.seq()
    first = await table.press(table.fake.alice, f"c:{table.gid}:{seq}:deck")
    assert first.text().startswith("✓"), first.text()
    await table.press(table.fake.alice, f"c:{table.gid}:{seq + 1}:deck")


def _expected(game: TTRGame, steps: tuple[Step, ...]) -> int:
    """Which step (from 1) of bob's plan holds in ``game`` (read while alice is still to act)."""
    for i, step in enumerate(steps, 1):
        if step.kind == "claim":
            track = game._track(step.args[0])
            paid = parse_cards(step.args[1])
            if game._claim_blocker(1, track) is None and paid in game.claim_payments(1, track):
                return i
        elif step.kind == "locomotive" and LOCO in game.state.face_up or step.kind == "deck":
            return i
    raise AssertionError("no step holds")


# What a plan says to its player alone; never in a message others can read.
PLAN_MARKERS = ("📝", "your plan", "plan my next turn", "was dropped", "played step")


async def test_a_three_step_plan_is_played_at_turn_start_down_each_branch(
    fake_discord: FakeDiscord, run_bot: Any, tmp_path: Path
) -> None:
    fake = fake_discord
    alice, bob = fake.alice, fake.bob
    bot = await run_bot(lambda: make_bot(tmp_path / "c.db"))
    table = Table(fake, bot)
    await _started(fake, table)
    bob_ref = player_ref(bob.id)
    seen: set[int] = set()
    for _ in range(16):
        if seen == {1, 2, 3}:
            break
        assert await table.to_act() == [0]
        game = await _game(table)
        if 1 not in seen:
            # made with the panel's menu: a route bob can pay now, then the draws
            panel = await _panel(table, bob)
            assert "No plan" in panel.text(), panel.text()
            claim = next(s for s in RULES.choices(game, 1) if s.kind == "claim")
            for value in (claim.to_text(), "locomotive", "deck"):
                panel = await _add(table, bob, panel, value)
            assert "1. if " in panel.text() and "3. draw two cards from the deck" in panel.text(), (
                panel.text()
            )
        else:
            # typed with /play plan: a claim bob cannot pay, a face-up locomotive, the deck
            track = next(
                t for t in game.board.tracks if t.colour < LOCO and game.state.hands[1][t.colour] == 0
            )
            typed = f"claim {track.id} {CARD_NAMES[track.colour]}={track.length}; locomotive; deck"
            answer = await table.slash("play plan", bob, steps=typed)
            assert answer.text().startswith("📝") and "3. draw two" in answer.text(), answer.text()
        steps = await bot.service.plan_of(table.gid, bob_ref)
        assert len(steps) == 3
        # alice's first card: a face-up one (not a locomotive) while no locomotive shows, so the
        # row changes; else the deck. Her second comes from the deck, which leaves the row as it is.
        seq = await table.seq()
        face = game.state.face_up
        slot = next((i for i, c in enumerate(face) if 0 <= c < LOCO), None) if LOCO not in face else None
        first = f"c:{table.gid}:{seq}:face:{slot}" if slot is not None else f"c:{table.gid}:{seq}:deck"
        assert (await table.press(alice, first)).text().startswith("✓")
        mid = await _game(table)
        holds = _expected(mid, steps)
        before = list(mid.state.hands[1])
        dms = len(_dms(fake, bob))
        await table.press(alice, f"c:{table.gid}:{seq + 1}:deck")
        # bob's turn came and was played at once, as his own moves; alice is to act again
        assert await table.to_act() == [0]
        log = await bot.service.storage.actions(table.gid)
        assert [a for a in log if a.seat == 1][-1].player == bob_ref
        note = _dms(fake, bob)[dms:]
        assert note and f"played step {holds}" in note[-1], (holds, note)
        after = (await _game(table)).state.hands[1]
        if holds == 1:
            game = await _game(table)
            assert game.state.owner[game._track(steps[0].args[0]).index] == 1
        elif holds == 2:
            assert sum(after) == sum(before) + 1 and after[LOCO] == before[LOCO] + 1
        else:
            assert sum(after) == sum(before) + 2
        seen.add(holds)
    assert seen == {1, 2, 3}, seen
    shared = table.shared_text().lower()
    assert not [m for m in PLAN_MARKERS if m in shared], "a shared message speaks of a plan"
    table.assert_no_leaks()


async def test_a_plan_is_dropped_when_its_route_is_taken_and_the_player_pinged(
    fake_discord: FakeDiscord, run_bot: Any, tmp_path: Path
) -> None:
    fake = fake_discord
    alice, bob = fake.alice, fake.bob
    bot = await run_bot(lambda: make_bot(tmp_path / "c.db"))
    table = Table(fake, bot)
    await _started(fake, table)
    game = await _game(table)
    claim = next(s for s in RULES.choices(game, 0) if s.kind == "claim")  # a route alice can pay
    track = game._track(claim.args[0])
    colour = CARD_NAMES[track.colour] if track.colour < LOCO else "red"
    await table.slash("play plan", bob, steps=f"claim {track.id} {colour}={track.length}; deck")
    msg = await table.slash("play claim", alice, route=track.id, payment=claim.args[1])
    assert msg.text().startswith("✓"), msg.text()
    assert await bot.service.plan_of(table.gid, player_ref(bob.id)) == ()
    assert await table.to_act() == [1]
    dropped = _dms(fake, bob)[-1]
    assert "was dropped" in dropped and track.label in dropped and "alice" in dropped.lower(), dropped
    board = table.latest_board()
    assert board is not None and f"<@{bob.id}>" in board.text(), board.text()  # pinged as usual
    shared = table.shared_text().lower()
    assert not [m for m in PLAN_MARKERS if m in shared], "a shared message speaks of a plan"


async def test_a_plan_survives_a_restart_of_the_bot(
    fake_discord: FakeDiscord, run_bot: Any, bot_runner: BotRunner, tmp_path: Path
) -> None:
    fake = fake_discord
    db = tmp_path / "c.db"
    bot = await run_bot(lambda: make_bot(db))
    table = Table(fake, bot)
    await _started(fake, table)
    panel = await _panel(table, fake.bob)
    await _add(table, fake.bob, panel, "deck")
    hand = sum((await _game(table)).state.hands[1])
    bot = await bot_runner.restart(lambda: make_bot(db))
    table.bot = bot
    panel = await _panel(table, fake.bob)
    assert "1. draw two cards from the deck" in panel.text(), panel.text()
    await _alice_draws(table)
    assert await table.to_act() == [0]
    assert sum((await _game(table)).state.hands[1]) == hand + 2
    assert "played step 1" in _dms(fake, fake.bob)[-1]
