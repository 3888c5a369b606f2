"""End-to-end: a Swiss event with a single-elimination top cut at multiplayer final tables
(issue 32), created, followed and finished through the fake Discord.

Promises: a cut that cannot fill its tables is refused at creation with a sentence; the status
message says what the cut is; the cut's rounds are announced as such (each table's winner goes
on, then the final table); the event survives a restart between the cut's rounds; the final
table's order is the podium, the standings (shown, CSV, export) put the cut's players first,
and they equal the standings recomputed from the export's games.
"""

from __future__ import annotations

import csv
import io
import json
import random
from pathlib import Path
from typing import Any

import pytest
from fakediscord import BotRunner, FakeDiscord
from test_bot_support import make_bot
from test_tournament_support import Clock, EventTables, ask, event_id_of, recompute, same_standings

from bot.discord_app.client import ConductorBot
from bot.discord_app.store import space_ref


@pytest.mark.slow
async def test_sixteen_players_one_swiss_round_then_a_top_cut_of_sixteen_to_a_final_table(
    fake_discord: FakeDiscord, run_bot: Any, bot_runner: BotRunner, tmp_path: Path
) -> None:
    fake = fake_discord
    clock = Clock()
    db = tmp_path / "cut.db"
    bot: ConductorBot = await run_bot(lambda: make_bot(db, clock=clock))
    bot.tournaments.seeds = random.Random(16)
    players = [fake.alice, fake.bob] + [fake.add_user(f"racer{i}") for i in range(3, 17)]
    organiser = fake.alice
    refused = await ask(
        fake, "tournament create", organiser, name="Knockout", format="swiss_cut", final_size=4, cut=12
    )
    assert refused.text() == (
        "✗ A top cut at tables of 4 takes 4, 16, 64, 256 players (each table's winner goes on until"
        " one final table is left), not 12."
    ), refused.text()
    event_id = event_id_of(
        await ask(
            fake,
            "tournament create",
            organiser,
            name="Knockout",
            format="swiss_cut",
            rounds=1,
            final_size=4,
            cut=16,
        )
    )
    for user in players:
        await ask(fake, "tournament join", user)
    await ask(fake, "tournament start", organiser)
    event = EventTables(fake, bot, event_id, players)
    (status,) = [m for m in fake.messages_in(ephemeral=False) if f"(event #{event_id}) ·" in m.text()]
    assert "Swiss with a top cut, 3 rounds" in status.text(), status.text()
    assert (
        "Top cut: the best 16 after round 1 play at tables of 4; each table's winner goes on, down to"
        " one final table." in fake.message(status.id).text()
    )
    await event.finish_round(1)

    assert await event.round() == 2
    cut = await event.rows(2)
    assert [(t.stage.value, len(t.seats)) for t in cut] == [("cut", 4)] * 4
    announced = [
        m for m in fake.messages_in(fake.general, ephemeral=False) if "round 2 is paired" in m.text()
    ]
    assert len(announced) == 1 and "Top cut, round 1 of 2: each table's winner goes on to round 3." in (
        announced[0].text()
    )
    shown = await ask(fake, "tournament pairings", fake.bob, round=2)
    assert shown.text().startswith(
        "**Knockout**, round 2: Top cut, round 1 of 2: each table's winner goes on to round 3."
    ), shown.text()
    await event.finish_round(2)
    assert await event.round() == 3

    bot = await bot_runner.restart(lambda: make_bot(db, clock=clock))
    event = EventTables(fake, bot, event_id, players)
    (final,) = await event.rows(3)
    results = await bot.tournaments.store.results(event_id)
    winners = {s.player for r in results if r.round == 2 for s in r.seats if s.rank == 1}
    assert final.stage.value == "final" and set(final.seats) <= winners
    (last,) = [m for m in fake.messages_in(fake.general, ephemeral=False) if "round 3 is paired" in m.text()]
    assert "This is the final table: its order is the podium." in last.text()
    await event.finish_round(3)
    assert await event.status() == "finished"

    data = json.loads((await ask(fake, "tournament export", organiser)).attachments[0].data)
    rows, recomputed = recompute(data)
    same_standings(rows, data["standings"])
    assert rows == await bot.tournaments.standings(event_id, space_ref(fake.guild.id))
    final_result = next(r for r in recomputed if r.round == 3)
    assert {r.player for r in rows[:4]} == set(final.seats)
    assert [r.final_rank for r in rows[:4]] == sorted(s.rank for s in final_result.seats)
    assert [r.cut_round for r in rows] == [3] * 4 + [2] * 12
    shown = await ask(fake, "tournament standings", organiser)
    (sheet,) = [a for a in shown.attachments if a.filename.endswith(".csv")]
    table = list(csv.DictReader(io.StringIO(sheet.data.decode())))
    assert [row["player_id"] for row in table] == [r.player for r in rows]
    assert [row["cut_round"] for row in table] == ["3"] * 4 + ["2"] * 12
    fake.assert_no_failures()
