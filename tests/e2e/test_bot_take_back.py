"""Take-backs through the fake Discord (issue 31): a mis-tapped claim and a station taken back with
the *Take back* button before the next player acts; refused, with the rule named, after a blind
draw and once the next player has moved; the record still replays and exports exactly."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from fakediscord import FakeDiscord, FakeMessage, FakeUser
from test_bot_support import Table, make_bot
from test_tournament_support import ask, event_id_of

from bot.app import prewarm_renderers
from bot.commands.export import replay_export
from bot.discord_app.store import player_ref
from bot.integrity import explain_game
from bot.service import ServiceError
from rules import takeback
from rules.games import find_game


@pytest.fixture(scope="module", autouse=True)
def _warm_renderers() -> None:
    asyncio.run(prewarm_renderers())


def _undo(table: Table) -> str:
    return f"c:{table.gid}:undo"


async def _take_back(table: Table, user: FakeUser, message: FakeMessage) -> FakeMessage:
    """Press *Take back* on ``user``'s private answer ``message``."""
    assert _undo(table) in message.custom_ids(), (message.text(), message.custom_ids())
    return await table._answer(user, await table.fake.click(message, _undo(table), user=user))


async def _reversible(table: Table, user: FakeUser, kind: str) -> Any:
    """A legal ``kind`` move of ``user``'s that the rules let them take back (None: none now)."""
    loaded = await table.bot.service.load(table.gid)
    seat = await table.seat_of(user)
    spec = find_game("ttr")
    for action in loaded.game.legal_actions(seat):  # type: ignore[union-attr]
        if action.kind == kind and takeback.classify(spec.take_back, loaded.game, seat, action) is None:  # type: ignore[arg-type]
            return action
    return None


async def test_a_claim_and_a_station_are_taken_back_and_a_blind_draw_or_an_answered_move_stand(
    fake_discord: FakeDiscord, run_bot: Any, tmp_path: Path
) -> None:
    fake = fake_discord
    alice, bob = fake.alice, fake.bob
    bot = await run_bot(lambda: make_bot(tmp_path / "c.db"))
    table = Table(fake, bot)
    await table.create(alice, board="europe", seat_order="join", timer_hours=0.0)
    await table.slash("ttr join", bob)
    await table.slash("ttr start", alice)
    for user in (alice, bob):
        await table.play_one(user)  # opening tickets
    alice_ref = player_ref(alice.id)
    claimed = stationed = refused_blind = refused_answered = False
    for _ in range(120):
        if claimed and stationed and refused_blind and refused_answered:
            break
        if (await bot.service.game_row(table.gid)).status != "active":
            break
        to_act = await table.to_act()
        if to_act != [await table.seat_of(alice)]:
            await table.play_one(bob)
            continue
        if (await bot.service.load(table.gid)).game.state.pending is not None:  # type: ignore[union-attr]
            await table.play_one(alice)  # the rest of a turn begun by the heuristic
            continue
        before_view = await bot.service.private_view(table.gid, alice_ref)
        seq = await table.seq()
        claim = None if claimed else await _reversible(table, alice, "claim")
        station = None if stationed or claim else await _reversible(table, alice, "station")
        if claim is not None:
            # a mis-tapped claim, paid from a known hand: taken back before bob acts
            payment = ",".join(f"{c}={n}" for c, n in claim.cards)
            msg = await table.slash("play claim", alice, route=claim.track, payment=payment)
            assert msg.text().startswith("✓"), msg.text()
            back = await _take_back(table, alice, msg)
            claimed = True
        elif station is not None:
            payment = ",".join(f"{c}={n}" for c, n in station.cards)
            msg = await table.slash("play station", alice, city=station.city, payment=payment)
            assert msg.text().startswith("✓"), msg.text()
            back = await _take_back(table, alice, msg)
            stationed = True
        else:
            # a blind draw is final: the rule is named and nothing changes
            msg = await table.press(alice, f"c:{table.gid}:{seq}:deck")
            assert msg.text().startswith("✓"), msg.text()
            after_draw = await table.seq()
            no = await _take_back(table, alice, msg)
            assert no.text().startswith("✗") and "drew a card from the deck" in no.text(), no.text()
            assert await table.seq() == after_draw
            refused_blind = True
            # the second card, from the buttons under the first card's private answer
            deck = next(c for c in msg.custom_ids() if c.endswith(":deck"))
            second = await table._answer(alice, await fake.click(msg, deck, user=alice))
            assert second.text().startswith("✓"), second.text()
            if not refused_answered and await table.to_act() == [await table.seat_of(bob)]:
                await table.play_one(bob)
                # bob has answered: alice's last move stands, whatever it was
                late = await _take_back(table, alice, second)
                assert late.text().startswith("✗") and "has moved since" in late.text(), late.text()
                refused_answered = True
            continue
        # taken back: alice's turn again, her hand as before, the thread told
        assert back.text().startswith("✓") and "took back" in back.text(), back.text()
        assert await table.to_act() == [await table.seat_of(alice)]
        after_view = await bot.service.private_view(table.gid, alice_ref)
        assert after_view["you"] == before_view["you"]
        for key in ("claims", "stations", "face_up", "deck_size"):
            assert after_view["detail"][key] == before_view["detail"][key], key
        assert "took back their last move" in fake.public_text()
        await table.play_one(alice)
    assert claimed and stationed and refused_blind and refused_answered
    # the record replays exactly (take-back entries honoured) and exports to the same game
    assert await explain_game(bot.service.storage, table.gid) is None
    data = await bot.service.storage.export_game(table.gid)
    assert any(takeback.is_take_back(text) for _, text in data["actions"])
    loaded = await bot.service.load(table.gid)
    assert replay_export(dict(data)).to_json() == loaded.game.to_json()  # type: ignore[union-attr]
    log = (await table.slash("view log", alice, count=60)).text()
    assert "took back their last move" in log
    table.assert_no_leaks()


async def test_an_event_created_without_take_backs_opens_games_where_every_move_stands(
    fake_discord: FakeDiscord, run_bot: Any, tmp_path: Path
) -> None:
    """Setting: /tournament create take_backs:False reaches every game of the event: no Take back
    button under a move, and the service refuses with that sentence."""
    fake = fake_discord
    bot = await run_bot(lambda: make_bot(tmp_path / "c.db"))
    created = await ask(
        fake, "tournament create", fake.alice, name="Strict", table_size=2, rounds=1, take_backs=False
    )
    event_id = event_id_of(created)
    assert (await bot.tournaments.store.event(event_id)).settings[takeback.SETTING] is False  # type: ignore[union-attr]
    for user in (fake.alice, fake.bob):
        await ask(fake, "tournament join", user, event=event_id)
    await ask(fake, "tournament start", fake.alice, event=event_id)
    (row,) = await bot.tournaments.store.tables(event_id, 1)
    assert row.game_id is not None
    assert (await bot.service.game_row(row.game_id)).config[takeback.SETTING] is False
    table = Table(fake, bot)
    table.gid, table.thread = row.game_id, fake.threads[-1]
    await table.settle()
    answer = await table.play_one(fake.alice)  # the opening tickets, answered privately
    assert answer.text().startswith("✓") and _undo(table) not in answer.custom_ids(), answer.custom_ids()
    with pytest.raises(ServiceError) as refused:
        await bot.service.take_back(row.game_id, player_ref(fake.alice.id))
    assert refused.value.code == "take_backs_off"
