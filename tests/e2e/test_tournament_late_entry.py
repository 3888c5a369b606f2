"""End-to-end: the late-entry policy (issue 32, finding 7) through the fake Discord.

Promise: a player an organiser enters between rounds (`/tournament add user:`) is paired from
the next round on and gets, for each round missed, what the event's `late_entry` says (here a
fixed 2 place points); the games count stays the games played; only organisers may add; the
standings shown (message and CSV) equal those recomputed from the export's games, and the late
entry's points are exactly the zero policy's plus 2.
"""

from __future__ import annotations

import csv
import io
import json
import random
from dataclasses import replace
from pathlib import Path
from typing import Any

from fakediscord import FakeDiscord
from test_bot_support import make_bot
from test_tournament_support import (
    Clock,
    EventTables,
    ask,
    ask_options,
    event_id_of,
    recompute,
    same_standings,
)

from bot.discord_app.client import ConductorBot
from bot.discord_app.store import player_ref
from bot.tournament.standings import standings
from bot.tournament.store import config_from_json


async def test_a_player_added_after_round_one_gets_the_fixed_points_for_the_missed_round(
    fake_discord: FakeDiscord, run_bot: Any, tmp_path: Path
) -> None:
    fake = fake_discord
    bot: ConductorBot = await run_bot(lambda: make_bot(tmp_path / "late.db", clock=Clock()))
    bot.tournaments.seeds = random.Random(21)
    players = [fake.alice, fake.bob] + [fake.add_user(f"punctual{i}") for i in range(3, 9)]
    late = fake.add_user("latecomer")
    organiser = fake.alice
    refused = await ask(
        fake, "tournament create", organiser, name="Late Cup", late_entry="average", late_points=2
    )
    assert refused.text().startswith("✗ Fixed points for a late entry"), refused.text()
    event_id = event_id_of(
        await ask(
            fake, "tournament create", organiser, name="Late Cup", rounds=2, late_entry="fixed", late_points=2
        )
    )
    for user in players:
        await ask(fake, "tournament join", user)
    await ask(fake, "tournament start", organiser)
    event = EventTables(fake, bot, event_id, [*players, late])
    assert await event.click(event.table((await event.rows(1))[0]), 2) == 2
    await event.finish_round(1, skip=frozenset({2}))

    nope = await ask_options(fake, "tournament add", fake.bob, {"user": late})
    assert nope.text().startswith("✗") and "creator" in nope.text(), nope.text()
    added = await ask_options(fake, "tournament add", organiser, {"user": late})
    assert not added.text().startswith("✗"), added.text()
    await event.finish_round(1)
    assert await event.round() == 2
    seated = [p for t in await event.rows(2) for p in t.seats]
    assert player_ref(late.id) in seated and len(seated) == 9
    await event.finish_round(2)
    assert await event.status() == "finished"

    data = json.loads((await ask(fake, "tournament export", organiser)).attachments[0].data)
    rows, results = recompute(data)
    same_standings(rows, data["standings"])
    config = config_from_json(data["event"]["config"])
    zero = {r.player: r for r in standings(replace(config, late_entry="zero", late_points=0.0), results)}
    mine = next(r for r in rows if r.player == player_ref(late.id))
    assert mine.games == 1 and mine.place_points == zero[mine.player].place_points + 2
    assert all(r.place_points == zero[r.player].place_points for r in rows if r.player != mine.player)
    shown = await ask(fake, "tournament standings", organiser)
    (sheet,) = [a for a in shown.attachments if a.filename.endswith(".csv")]
    table = {row["player_id"]: row for row in csv.DictReader(io.StringIO(sheet.data.decode()))}
    assert (
        float(table[mine.player]["place_points"]) == mine.place_points and table[mine.player]["games"] == "1"
    )
    fake.assert_no_failures()
