"""The issue-32 event through the fake Discord: 64 players, a Swiss of Ticket to Ride over 5
rounds with a top-16 cut to four final tables, then their winners at the final table.

The organiser's steps are all Discord commands (`/tournament create`, `confirm` after each
reviewed round, `correct`, `standings`, `export`) and the 64 players join with `/tournament
join`. The tables' games are played as the issue allows for a field this size: at one table of
every round its people click their moves and hand their seats to an AI with `/play resign`; the
other tables' seats are handed to the fast (random) AI by direct service calls, the way an
organiser's deadline adjudication does. The bot restarts between rounds (while a round waits for
review, between Swiss rounds, and inside the cut). Checked: every round is announced once; the
review's correction changes the next pairing; the cut seats the 16 best and sends each table's
winner on; the standings come as a picture and as CSV; the standings recomputed from the
export's games equal the ones shown.
"""

from __future__ import annotations

import csv
import io
import json
import random
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from fakediscord import BotRunner, FakeDiscord, FakeMessage
from PIL import Image
from test_bot_support import make_bot
from test_tournament_support import Clock, EventTables, ask, event_id_of, recompute, same_standings

from bot.discord_app.client import ConductorBot
from bot.discord_app.store import player_ref, space_ref
from bot.tournament.model import Stage
from bot.tournament.pairing import pair_round
from bot.tournament.standings import standings


async def _play_out(bot: ConductorBot, event_id: int, space: str, skip: frozenset[int] = frozenset()) -> None:
    """Every unfinished table of the current round (but ``skip``) played out by the fast AI:
    each person's seat handed over by a direct service call."""
    event = await bot.tournaments.store.event(event_id)
    assert event is not None
    for table in await bot.tournaments.store.tables(event_id, event.round):
        if table.number in skip or table.game_id is None:
            continue
        for seat in (await bot.service.game_row(table.game_id)).seats:
            if not seat.is_ai and (await bot.service.game_row(table.game_id)).status == "active":
                await bot.service.replace_with_ai(
                    table.game_id, None, seat.seat + 1, is_admin=True, where=space, kind="random"
                )
    await bot.service.stream.drain()


@pytest.mark.slow
async def test_sixty_four_players_five_swiss_rounds_and_a_top_sixteen_cut_to_four_final_tables(
    fake_discord: FakeDiscord, run_bot: Any, bot_runner: BotRunner, tmp_path: Path
) -> None:
    fake = fake_discord
    clock = Clock()
    db = tmp_path / "community.db"
    bot: ConductorBot = await run_bot(lambda: make_bot(db, clock=clock))
    bot.tournaments.seeds = random.Random(64)
    players = [fake.alice, fake.bob] + [fake.add_user(f"member{i:02}") for i in range(3, 65)]
    organiser = fake.alice
    space = space_ref(fake.guild.id)
    assert space is not None
    event_id = event_id_of(
        await ask(
            fake,
            "tournament create",
            organiser,
            name="Community Cup",
            rounds=5,
            table_size=4,
            format="swiss_cut",
            cut=16,
            final_size=4,
            pairing="review",
        )
    )
    for user in players:
        assert "registered" in (await ask(fake, "tournament join", user)).text()
    assert "round 1" in (await ask(fake, "tournament start", organiser)).text()
    event = EventTables(fake, bot, event_id, players)

    def announced(round_number: int) -> list[FakeMessage]:
        words = f"round {round_number} is paired"
        return [m for m in fake.messages_in(fake.general, ephemeral=False) if words in m.text()]

    corrected_round = 2
    for number in range(1, 8):
        assert await event.round() == number
        rows = await event.rows(number)
        assert len(announced(number)) == 1, f"round {number} is announced once"
        if number <= 5:
            assert [len(t.seats) for t in rows] == [4] * 16
            assert sorted(p for t in rows for p in t.seats) == sorted(player_ref(u.id) for u in players)
        # people at one table click a few moves and resign; the fast AI plays every other table
        clicked = event.table(rows[number % len(rows)])
        assert await event.click(clicked, 2) == 2
        await event.resign_all(clicked)
        await _play_out(bot, event_id, space)
        if number == 7:
            break
        assert await event.round() == number  # after review: waits for the organiser
        status = next(
            m for m in fake.messages_in(fake.general, ephemeral=False) if f"(event #{event_id}) ·" in m.text()
        )
        assert (
            f"Round {number} is complete and waits for the organiser's review"
            in fake.message(status.id).text()
        )
        if number in (1, 3, 6):  # the wait for review survives a restart
            bot = await bot_runner.restart(lambda: make_bot(db, clock=clock))
            event = EventTables(fake, bot, event_id, players)
        if number == corrected_round:
            row = await bot.tournaments.store.event(event_id)
            assert row is not None
            results = await bot.tournaments.store.results(event_id)
            registration = bot.tournaments.registration(await bot.tournaments.store.entries(event_id))
            before = [t.seats for t in pair_round(row.config, registration, results, 3, row.seed).tables]
            for table in [r for r in results if r.round == 2]:  # a table whose reversal moves the pairing
                order = sorted(range(len(table.seats)), key=lambda i: (-table.seats[i].rank, i))
                ranks = [order.index(i) + 1 for i in range(len(table.seats))]  # the order reversed
                fixed = table.corrected(
                    [replace(seat, rank=rank) for seat, rank in zip(table.seats, ranks, strict=True)],
                    "reversed",
                )
                others = [r for r in results if r is not table]
                paired = pair_round(row.config, registration, [*others, fixed], 3, row.seed)
                expected = [t.seats for t in paired.tables]
                if expected != before:
                    break
            assert expected != before, "the correction must move the pairing for the test to mean anything"
            answer = await ask(
                fake,
                "tournament correct",
                organiser,
                round=2,
                table=table.table,
                ranks=",".join(map(str, ranks)),
                reason="Scores read in the wrong order",
            )
            assert "corrected" in answer.text(), answer.text()
        confirmed = await ask(fake, "tournament confirm", organiser)
        assert confirmed.text() == f"Results confirmed: round {number + 1} of event #{event_id} is paired."
        if number == corrected_round:
            assert [t.seats for t in await event.rows(3)] == expected

    assert await event.status() == "finished"
    # ---- the cut: the 16 best after five Swiss rounds, each table's winner to the final
    row = await bot.tournaments.store.event(event_id)
    assert row is not None
    results = await bot.tournaments.store.results(event_id)
    registration = bot.tournaments.registration(await bot.tournaments.store.entries(event_id))
    swiss = standings(row.config, [r for r in results if r.round <= 5], registration)
    cut = await event.rows(6)
    assert [(t.stage, len(t.seats)) for t in cut] == [(Stage.CUT, 4)] * 4
    assert sorted(p for t in cut for p in t.seats) == sorted(r.player for r in swiss[:16])
    (final,) = await event.rows(7)
    winners = {s.player for r in results if r.round == 6 for s in r.seats if s.rank == 1}
    assert final.stage is Stage.FINAL and set(final.seats) <= winners and len(final.seats) == 4
    assert "This is the final table" in announced(7)[0].text()

    # ---- the end: one quiet post with the podium, the standings picture and CSV
    ends = [m for m in fake.messages_in(fake.general, ephemeral=False) if "is over." in m.text()]
    assert len(ends) == 1
    (picture,) = [a for a in ends[0].attachments if a.filename.endswith(".png")]
    assert Image.open(io.BytesIO(picture.data)).size[0] == 800
    (sheet,) = [a for a in ends[0].attachments if a.filename.endswith(".csv")]
    table_rows = list(csv.DictReader(io.StringIO(sheet.data.decode())))
    shown = await bot.tournaments.standings(event_id, space)
    assert len(table_rows) == 64
    assert [(int(r["position"]), r["player_id"], float(r["place_points"])) for r in table_rows] == [
        (r.position, r.player, r.place_points) for r in shown
    ]
    assert {r.player for r in shown[:4]} == set(final.seats) and {r.player for r in shown[:16]} == {
        p for t in cut for p in t.seats
    }
    page = await ask(fake, "tournament standings", organiser, page=4)
    assert "page 4 of 4, players 61–64 of 64" in page.text(), page.text()

    # ---- the export replays to the standings shown
    data = json.loads((await ask(fake, "tournament export", organiser)).attachments[0].data)
    assert len(data["games"]) == 16 * 5 + 4 + 1
    recomputed, _ = recompute(data)
    same_standings(recomputed, data["standings"])
    assert recomputed == shown
    assert [r["correction_reason"] for r in data["results"] if r["correction_reason"]] == [
        "Scores read in the wrong order"
    ]
    fake.assert_no_failures()
