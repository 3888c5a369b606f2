"""A whole community event through the fake Discord, from `/tournament create` to the final standings.

Sixteen people play a Swiss event over 3 rounds of 4-player tables on the USA board. They act as
users do: slash commands in the event's channel, buttons and menus on their tables' boards, and
`/play resign` to hand their seat to an AI that plays the game to its end (an AI-heavy mix keeps
the test short; some moves at some tables in every round are real clicks). One player drops,
one round's deadline passes with a table adjudicated by AI seats, the bot restarts in the middle
of round 2, an organiser corrects a result with a reason. The final standings equal those
recomputed from the `/tournament export` file: every game re-simulated from its config, seed and
log, and the standings computed again from those games.
"""

from __future__ import annotations

import json
import random
import re
from pathlib import Path
from typing import Any

import pytest
from fakediscord import BotRunner, FakeDiscord
from test_bot_support import make_bot
from test_tournament_support import Clock, EventTables, ask, event_id_of, recompute, same_standings

from bot.discord_app.client import ConductorBot
from bot.discord_app.store import player_ref, space_ref
from bot.tournament.ratings import rebuild_ratings


@pytest.mark.slow
async def test_sixteen_player_swiss_from_create_to_the_standings_recomputed_from_the_export(
    fake_discord: FakeDiscord, run_bot: Any, bot_runner: BotRunner, tmp_path: Path
) -> None:
    fake = fake_discord
    clock = Clock()
    db = tmp_path / "event.db"
    bot: ConductorBot = await run_bot(lambda: make_bot(db, clock=clock))
    bot.tournaments.seeds = random.Random(2026)  # the event's seed, hence every deal and every AI move
    players = [fake.alice, fake.bob] + [fake.add_user(f"player{i}") for i in range(3, 17)]
    organiser = fake.alice

    event_id = event_id_of(
        await ask(
            fake,
            "tournament create",
            organiser,
            name="Autumn Cup",
            boards="usa",
            table_size=4,
            rounds=3,
            deadline_hours=48.0,
            timer_hours=24.0,
            count_ai_seats=True,
        )
    )
    assert len([m for m in fake.messages_in(ephemeral=False) if f"(event #{event_id}) ·" in m.text()]) == 1
    for user in players:
        assert "registered" in (await ask(fake, "tournament join", user)).text()
    refused = await ask(fake, "tournament join", players[0])
    assert refused.text().startswith("✗") and "already registered" in refused.text()
    not_yours = await ask(fake, "tournament start", fake.bob)
    assert not_yours.text().startswith("✗") and "creator" in not_yours.text()
    assert "round 1" in (await ask(fake, "tournament start", organiser)).text()

    # ---- round 1: clicks at table 1, a drop at table 2, table 4 still going at the deadline
    event = EventTables(fake, bot, event_id, players)
    round_one = await event.rows(1)
    assert [len(t.seats) for t in round_one] == [4, 4, 4, 4]
    assert sorted(p for t in round_one for p in t.seats) == sorted(player_ref(u.id) for u in players)
    assert await event.click(event.table(round_one[0]), 8) == 8  # tickets kept and first turns, by clicks
    leaver = event.users[round_one[1].seats[0]]
    dropped = await ask(fake, "tournament drop", leaver)
    assert "dropped out" in dropped.text() and f"game #{round_one[1].game_id}" in dropped.text()
    await event.finish_round(1, skip=frozenset({4}))
    assert await event.round() == 1
    clock.now += 48 * 3600 + 60
    assert await bot.tournaments.tick() == [round_one[3].game_id]
    await bot.service.stream.drain()
    results = await bot.tournaments.store.results(event_id)
    assert [(r.table, r.adjudicated) for r in results] == [(1, False), (2, False), (3, False), (4, True)]
    assert [s.ai_takeover for s in results[1].seats][0] and all(s.ai_takeover for s in results[3].seats)

    # ---- round 2: fifteen players; two tables finish, one is mid-game when the bot restarts
    assert await event.round() == 2
    round_two = await event.rows(2)
    assert sorted(len(t.seats) for t in round_two) == [3, 4, 4, 4]
    assert player_ref(leaver.id) not in [p for t in round_two for p in t.seats]
    first = event.table(round_two[0])
    assert await event.click(first, 3) == 3
    await event.resign_all(first)
    await event.resign_all(event.table(round_two[1]))
    assert await event.click(event.table(round_two[2]), 4) == 4
    seq = await event.table(round_two[2]).seq()

    bot = await bot_runner.restart(lambda: make_bot(db, clock=clock))
    event = EventTables(fake, bot, event_id, players)
    mid = event.table(round_two[2])
    assert await event.round() == 2 and await mid.seq() == seq
    assert await event.click(mid, 2) == 2  # the same game goes on, by clicks, after the restart
    await event.finish_round(2)

    # ---- round 3: a correction with its reason while the round is played
    assert await event.round() == 3
    round_three = await event.rows(3)
    met = [
        frozenset((a, b))
        for r in (round_one, round_two, round_three)
        for t in r
        for a in t.seats
        for b in t.seats
        if a < b
    ]
    assert len(met) == len(set(met))  # nobody met anyone twice
    before = results[0]
    reversed_ranks = [len(before.seats) + 1 - s.rank for s in before.seats]
    assert reversed_ranks != [s.rank for s in before.seats]
    not_organiser = await ask(
        fake,
        "tournament correct",
        fake.bob,
        round=1,
        table=1,
        ranks=",".join(map(str, reversed_ranks)),
        reason="I say so",
    )
    assert not_organiser.text().startswith("✗")
    fixed = await ask(
        fake,
        "tournament correct",
        organiser,
        round=1,
        table=1,
        ranks=",".join(map(str, reversed_ranks)),
        reason="Scores misread at the table",
    )
    assert "corrected" in fixed.text(), fixed.text()
    assert await event.click(event.table(round_three[0]), 3) == 3
    # an export while round 3 is played gives no running game's seed or log (deck order, kept tickets)
    early = json.loads((await ask(fake, "tournament export", fake.bob)).attachments[0].data)
    running = [g for g in early["games"] if g["status"] == "active"]
    assert early["event"]["seed"] is None  # every table's seed derives from it
    assert len(running) == 4 and all(
        "seed" not in g and "actions" not in g and "config" not in g for g in running
    )
    assert all("seed" in g and g["actions"] for g in early["games"] if g["status"] == "over")
    await event.finish_round(3)
    assert await event.status() == "finished"

    # ---- the status message was edited in place all along, never posted twice
    status = [m for m in fake.messages_in(ephemeral=False) if f"(event #{event_id}) ·" in m.text()]
    assert len(status) == 1 and status[0].edits > 0 and "finished" in status[0].text()

    # ---- the export replays to the standings the bot shows
    exported = await ask(fake, "tournament export", organiser)
    assert exported.attachments and re.search(r"`[0-9a-f]{64}`", exported.text())
    data = json.loads(exported.attachments[0].data)
    assert len(data["games"]) == 12 and data["event"]["seed"] is not None
    rows, recomputed = recompute(data)
    same_standings(rows, data["standings"])
    space = space_ref(fake.guild.id)
    assert rows == await bot.tournaments.standings(event_id, space)
    assert sum(r.adjudicated_games for r in rows) == 4 and [r.dropped for r in rows].count(True) == 1
    assert sum(r.corrected_games for r in rows) == 4 and all(r.games == 3 for r in rows if not r.dropped)
    assert [r["correction_reason"] for r in data["results"]][-1] is None
    assert [r["correction_reason"] for r in data["results"] if r["correction_reason"]] == [
        "Scores misread at the table"
    ]

    # ---- the correction re-rated: the ratings are those of the games rated again in order
    assert space is not None
    book = await bot.tournaments.store.rating_book(space)
    by_game = {r.game_id: r for r in recomputed}
    config = (await bot.tournaments.store.event(event_id)).config  # type: ignore[union-attr]
    again = rebuild_ratings(
        (config, by_game[str(gid)]) for _, gid in await bot.tournaments.store.rated_games(space)
    )
    assert {v: dict(t) for v, t in book.views.items()} == {v: dict(t) for v, t in again.views.items()}

    # ---- /tournament standings shows every tie-break column; /leaderboard and /profile read the ratings
    shown = (await ask(fake, "tournament standings", organiser, event=event_id)).text()
    assert "WBC" in shown and "H2H" in shown and "Adj" in shown
    board = (await ask(fake, "leaderboard", organiser)).text()
    assert "Rating" in board and len(re.findall(r"^ +\d+ ", board, re.M)) == len(players)
    profile = (await ask(fake, "profile", organiser)).text()
    assert "3 games" in profile and "Rating" in profile
    # ... and the tickets completed and longest trail the engine scored in the organiser's games
    mine = [s for r in recomputed for s in r.seats if s.player == player_ref(organiser.id)]
    tickets, trail = sum(s.tickets_completed or 0 for s in mine), max(s.longest_trail or 0 for s in mine)
    assert (
        f"Tickets completed: {tickets} ({tickets / 3:.1f} a game) · longest trail taken: {trail} cars"
        in profile
    )

    # ---- an event belongs to its server: from another server it does not exist
    other = fake.add_channel(fake.add_guild("Elsewhere", owner=fake.bob), "general")
    handle = await fake.slash("tournament standings", user=fake.bob, channel=other, event=event_id)
    hidden = await handle.wait_message(timeout=30)
    assert hidden.ephemeral and hidden.text() == f"✗ There is no event #{event_id} here."
    fake.assert_no_failures()
