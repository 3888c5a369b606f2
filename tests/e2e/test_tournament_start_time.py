"""End-to-end: an event with a start time and a check-in window (issue 32), through the fake
Discord, across a restart.

Promises: the start time and the window are set at creation (hours from now or a date with
its offset; a bad one is refused with a sentence) and shown in the status message as Discord
timestamps; check-in before the window opens is refused with a sentence; the window's opening
and the near start are announced once each in the event's channel, pinging the players who have
not checked in; a restart repeats no notice and loses no timer; at the start time the event
starts itself (the tournaments' timer, no organiser), seating only checked-in players; an event
that cannot start (too few ready) says why once and waits for an organiser.
"""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from fakediscord import BotRunner, FakeDiscord, FakeMessage
from test_bot_support import make_bot
from test_tournament_support import Clock, ask, event_id_of

from bot.discord_app.client import ConductorBot
from bot.discord_app.store import player_ref


def _posts(fake: FakeDiscord, words: str) -> list[FakeMessage]:
    return [m for m in fake.messages_in(fake.general, ephemeral=False) if words in m.text()]


async def test_an_event_starts_itself_at_its_start_time_after_a_check_in_window_across_a_restart(
    fake_discord: FakeDiscord, run_bot: Any, bot_runner: BotRunner, tmp_path: Path
) -> None:
    fake = fake_discord
    clock = Clock()
    db = tmp_path / "start.db"
    bot: ConductorBot = await run_bot(lambda: make_bot(db, clock=clock))
    players = [fake.alice, fake.bob] + [fake.add_user(f"early{i}") for i in range(3, 7)]
    organiser = fake.alice

    bad = await ask(fake, "tournament create", organiser, name="Dawn Cup", start="next friday")
    assert bad.text().startswith("✗ Give the start as hours from now"), bad.text()
    past = await ask(fake, "tournament create", organiser, name="Dawn Cup", start="-1")
    assert past.text() == "✗ The start time must be in the future, at most 60 days ahead.", past.text()
    lonely = await ask(fake, "tournament create", organiser, name="Dawn Cup", checkin_hours=2)
    assert "give the start time too" in lonely.text() and lonely.text().startswith("✗")
    wide = await ask(fake, "tournament create", organiser, name="Dawn Cup", start="1", checkin_hours=2)
    assert "would open before now" in wide.text() and wide.text().startswith("✗")

    starts = int(clock.now + 3 * 3600)
    iso = datetime.fromtimestamp(starts, UTC).astimezone().isoformat()  # a date with its offset
    created = await ask(fake, "tournament create", organiser, name="Dawn Cup", start=iso, checkin_hours=2)
    assert f"it starts by itself <t:{starts}:F>" in created.text(), created.text()
    event_id = event_id_of(created)
    (status,) = _posts(fake, f"(event #{event_id}) ·")
    for user in players:
        await ask(fake, "tournament join", user)
    text = fake.message(status.id).text()
    assert f"It starts by itself <t:{starts}:F> (<t:{starts}:R>)." in text, text
    assert f"Check-in (`/tournament checkin`) opens <t:{starts - 2 * 3600}:F>" in text

    early = await ask(fake, "tournament checkin", fake.bob)
    assert early.text() == f"✗ Check-in for event #{event_id} opens <t:{starts - 2 * 3600}:R>.", early.text()
    assert not await bot.tournaments.tick() and not _posts(fake, "check-in is open")

    clock.now = starts - 2 * 3600 + 5  # the window opens
    await bot.tournaments.tick()
    await bot.tournaments.tick()  # a second pass sends nothing again
    (opened,) = _posts(fake, "check-in is open")
    assert all(f"<@{u.id}>" in opened.text() for u in players), opened.text()
    for user in players[:5]:
        assert "checked in" in (await ask(fake, "tournament checkin", user)).text()

    bot = await bot_runner.restart(lambda: make_bot(db, clock=clock))
    clock.now = starts - 20 * 60  # the start is near: the one not checked in is reminded
    await bot.tournaments.tick()
    (soon,) = _posts(fake, f"(event #{event_id}) starts <t:{starts}:R>")
    late = players[5]
    assert f"<@{late.id}>" in soon.text() and "Not checked in yet" in soon.text()
    assert all(f"<@{u.id}>" not in soon.text() for u in players[:5]), soon.text()
    assert len(_posts(fake, "check-in is open")) == 1

    bot = await bot_runner.restart(lambda: make_bot(db, clock=clock))
    clock.now = starts + 1  # the bot was down at the start time: its first pass starts the event
    await bot.tournaments.tick()
    event = await bot.tournaments.store.event(event_id)
    assert event is not None and event.status == "running" and event.round == 1
    (table,) = await bot.tournaments.store.tables(event_id, 1)
    assert sorted(table.seats) == sorted(player_ref(u.id) for u in players[:5])
    states = {e.player: e.state for e in await bot.tournaments.store.entries(event_id)}
    assert states[player_ref(late.id)] == "no_show"
    assert len(_posts(fake, "round 1 is paired")) == 1
    await bot.tournaments.tick()
    assert (
        len(_posts(fake, f"(event #{event_id}) starts <t:")) == 1
        and len(_posts(fake, "round 1 is paired")) == 1
    )

    # an event too small to start when its time comes says why once and waits for an organiser
    small = event_id_of(await ask(fake, "tournament create", organiser, name="Dusk Cup", start="1"))
    await ask(fake, "tournament join", fake.bob, event=2)
    clock.now += 3601
    await bot.tournaments.tick()
    await bot.tournaments.tick()
    (failed,) = _posts(fake, "could not start at its start time")
    assert "has 1 players ready; it needs at least 3" in failed.text(), failed.text()
    row = await bot.tournaments.store.event(small)
    assert row is not None and row.status == "registration"
    (small_status,) = _posts(fake, f"(event #{small}) ·")
    assert "could not start by itself" in fake.message(small_status.id).text()
    fake.assert_no_failures()
