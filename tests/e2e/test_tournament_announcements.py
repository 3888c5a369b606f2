"""End-to-end: what an event posts in its channel, and its standings for any size (issue 32,
findings 3, 4 and 6).

Promises: one quiet post per round (no one pinged, no notification: each table with its board,
seats and thread, the whole pairing as CSV) and one at the end (the podium, a link to the status
message, the standings as a picture and as CSV); `/tournament standings` answers a page of the
table with the picture of that page and the whole table as CSV; `/tournament pairings` attaches
the round as CSV. The CSV's standings are the ones the bot shows.
"""

from __future__ import annotations

import csv
import io
import random
from dataclasses import replace
from pathlib import Path
from typing import Any

from fakediscord import SUPPRESS_NOTIFICATIONS, FakeDiscord, FakeMessage
from PIL import Image
from test_bot_support import make_bot
from test_tournament_support import Clock, EventTables, ask, event_id_of

from bot.discord_app.client import ConductorBot
from bot.discord_app.store import player_ref, space_ref
from bot.tournament.pairing import pair_round


def _csv(message: FakeMessage, suffix: str) -> list[dict[str, str]]:
    (attachment,) = [a for a in message.attachments if a.filename.endswith(suffix)]
    return list(csv.DictReader(io.StringIO(attachment.data.decode())))


async def test_one_quiet_post_per_round_and_at_the_end_with_csv_and_a_standings_picture(
    fake_discord: FakeDiscord, run_bot: Any, tmp_path: Path
) -> None:
    fake = fake_discord
    bot: ConductorBot = await run_bot(lambda: make_bot(tmp_path / "a.db", clock=Clock()))
    bot.tournaments.seeds = random.Random(3)
    users = [fake.alice, fake.bob] + [fake.add_user(f"rider{i}") for i in range(3, 9)]
    event_id = event_id_of(await ask(fake, "tournament create", fake.alice, name="Night Train", rounds=2))
    for user in users:
        await ask(fake, "tournament join", user)
    await ask(fake, "tournament start", fake.alice)
    await fake.settle()
    tables = EventTables(fake, bot, event_id, users)

    def posts() -> list[FakeMessage]:
        return [
            m
            for m in fake.messages_in(fake.general, ephemeral=False)
            if "is paired" in m.text() or "is over" in m.text()
        ]

    (first,) = posts()
    assert first.text().startswith("**Night Train** (event #1): round 1 is paired, 2 tables."), first.text()
    assert first.flags & SUPPRESS_NOTIFICATIONS, "quiet: no notification"
    assert "<@" not in first.text(), "no one is pinged in the announcement (the threads ping the seats)"
    rows = await tables.rows(1)
    for row in rows:
        thread = (await bot.ui.store.route(row.game_id)).thread_id  # type: ignore[arg-type]
        assert f"<#{thread}>" in first.text()
    pairing = _csv(first, ".csv")
    assert [(int(r["table"]), int(r["seat"]), r["player_id"]) for r in pairing] == [
        (row.number, seat, player) for row in rows for seat, player in enumerate(row.seats, 1)
    ]
    await tables.finish_round(1)
    await fake.settle()
    assert len(posts()) == 2 and "round 2 is paired" in posts()[1].text()
    await tables.finish_round(2)
    await fake.settle()
    announced = posts()
    assert len(announced) == 3, [m.text()[:60] for m in announced]
    end = announced[2]
    assert end.text().startswith("**Night Train** (event #1) is over."), end.text()
    assert "🥇" in end.text() and "https://discord.com/channels/" in end.text()
    assert end.flags & SUPPRESS_NOTIFICATIONS
    (picture,) = [a for a in end.attachments if a.filename.endswith(".png")]
    assert Image.open(io.BytesIO(picture.data)).size[0] == 800
    shown = await bot.tournaments.standings(event_id, space_ref(fake.guild.id))
    sheet = _csv(end, "standings.csv")
    assert [(int(r["position"]), r["player_id"], float(r["place_points"])) for r in sheet] == [
        (r.position, r.player, r.place_points) for r in shown
    ]
    assert {r["player_id"] for r in sheet} == {player_ref(u.id) for u in users}

    # /tournament standings: a page, its picture and the whole table as CSV
    answer = await ask(fake, "tournament standings", fake.bob, event=1)
    assert "page 1 of 1, players 1–8 of 8" in answer.text(), answer.text()
    assert [a.filename for a in answer.attachments] == ["event-1-standings-1.png", "event-1-standings.csv"]
    refused = await ask(fake, "tournament standings", fake.bob, event=1, page=2)
    assert refused.text() == "✗ The standings have 1 page.", refused.text()
    answer = await ask(fake, "tournament pairings", fake.bob, event=1, round=2)
    assert len(_csv(answer, ".csv")) == 8 and all(r["result"] == "played" for r in _csv(answer, ".csv"))


async def test_after_review_the_organiser_corrects_then_confirms_and_the_correction_moves_the_pairing(
    fake_discord: FakeDiscord, run_bot: Any, tmp_path: Path
) -> None:
    """`pairing:review`: a complete round waits for the organiser; a correction made then is in
    the next pairing, which `/tournament confirm` makes."""
    fake = fake_discord
    bot: ConductorBot = await run_bot(lambda: make_bot(tmp_path / "r.db", clock=Clock()))
    bot.tournaments.seeds = random.Random(11)
    users = [fake.alice, fake.bob] + [fake.add_user(f"rider{i}") for i in range(3, 9)]
    event_id = event_id_of(
        await ask(fake, "tournament create", fake.alice, name="Careful Cup", rounds=2, pairing="review")
    )
    for user in users:
        await ask(fake, "tournament join", user)
    await ask(fake, "tournament start", fake.alice)
    tables = EventTables(fake, bot, event_id, users)
    early = await ask(fake, "tournament confirm", fake.alice)
    assert early.text().startswith("✗ Event #1 has no round waiting for review"), early.text()
    await tables.finish_round(1)
    await fake.settle()
    assert await tables.round() == 1 and await tables.rows(2) == []
    status = next(m for m in fake.messages_in(fake.general, ephemeral=False) if "(event #1) ·" in m.text())
    assert "Round 1 is complete and waits for the organiser's review" in status.text(), status.text()
    event = await bot.tournaments.store.event(event_id)
    assert event is not None
    results = await bot.tournaments.store.results(event_id)
    registration = bot.tournaments.registration(await bot.tournaments.store.entries(event_id))
    before = [t.seats for t in pair_round(event.config, registration, results, 2, event.seed).tables]
    table = results[0]
    order = sorted(range(len(table.seats)), key=lambda i: (-table.seats[i].rank, i))
    ranks = [order.index(i) + 1 for i in range(len(table.seats))]
    corrected = table.corrected(
        [replace(seat, rank=rank) for seat, rank in zip(table.seats, ranks, strict=True)], "swapped"
    )
    expected = [
        t.seats
        for t in pair_round(event.config, registration, [corrected, *results[1:]], 2, event.seed).tables
    ]
    assert expected != before
    answer = await ask(
        fake,
        "tournament correct",
        fake.alice,
        round=1,
        table=table.table,
        ranks=",".join(map(str, ranks)),
        reason="scores were swapped",
    )
    assert "corrected" in answer.text(), answer.text()
    answer = await ask(fake, "tournament confirm", fake.alice)
    assert answer.text() == "Results confirmed: round 2 of event #1 is paired.", answer.text()
    assert [t.seats for t in await tables.rows(2)] == expected
    await fake.settle()
