"""Shorter events through the fake Discord: a 2-player-table event on Switzerland (2–3 players)
with a replayed and a voided table, and a First Class event played in groups then a final table.

As in the Swiss test, people act as users do (buttons, menus, slash commands, `/play resign`),
and the final standings equal those recomputed from the games of `/tournament export`.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from fakediscord import FakeDiscord
from test_bot_firstclass import FCTable
from test_bot_support import make_bot
from test_tournament_support import Clock, EventTables, ask, event_id_of, recompute, same_standings

from bot.discord_app.client import ConductorBot
from bot.discord_app.store import player_ref, space_ref


async def test_switzerland_two_player_tables_with_a_replayed_and_a_voided_table(
    fake_discord: FakeDiscord, run_bot: Any, tmp_path: Path
) -> None:
    """Six players at 2-player tables on Switzerland over 2 rounds. In round 1 a table's game is
    aborted: the organiser replays it with `/tournament replay` (a new game in a new thread, same
    seats, reason kept), which its players then play. In round 2 a table is voided with
    `/tournament void`: no points, its reason shown in the pairings, and the event still ends."""
    fake = fake_discord
    bot: ConductorBot = await run_bot(lambda: make_bot(tmp_path / "alps.db", clock=Clock()))
    bot.tournaments.seeds = random.Random(5)
    players = [fake.alice, fake.bob] + [fake.add_user(f"climber{i}") for i in range(3, 7)]
    organiser = fake.alice
    refused = await ask(fake, "tournament create", organiser, name="Alpine Duel", boards="switzerland")
    assert refused.text().startswith("✗") and "seat 2 to 3" in refused.text()
    refused = await ask(
        fake,
        "tournament create",
        organiser,
        name="Alpine Duel",
        boards="switzerland",
        table_size=2,
        tiebreaks="wins,style",
    )
    assert refused.text().startswith("✗") and "Unknown tie-break 'style'" in refused.text()
    event_id = event_id_of(
        await ask(
            fake,
            "tournament create",
            organiser,
            name="Alpine Duel",
            boards="switzerland",
            table_size=2,
            rounds=2,
            count_ai_seats=True,
            tiebreaks="place_points,total_score,wins",
        )
    )
    config = (await bot.tournaments.store.event(event_id)).config  # type: ignore[union-attr]
    assert [c.value for c in config.ranking] == ["place_points", "total_score", "wins"]
    for user in players:
        await ask(fake, "tournament join", user)
    await ask(fake, "tournament start", organiser)
    event = EventTables(fake, bot, event_id, players)
    round_one = await event.rows(1)
    assert [len(t.seats) for t in round_one] == [2, 2, 2] and {t.board for t in round_one} == {"switzerland"}

    broken = event.table(round_one[2])
    assert await event.click(broken, 2) == 2
    aborted = await broken.slash("ttr abort", organiser)
    assert "aborted" in aborted.text(), aborted.text()
    await event.finish_round(1, skip=frozenset({3}))
    assert await event.round() == 1  # the aborted table holds the round
    (status,) = [m for m in fake.messages_in(ephemeral=False) if f"(event #{event_id}) ·" in m.text()]
    assert (
        "Table 3: game is aborted; an organiser can `/tournament replay` or `/tournament void` it."
        in fake.message(status.id).text()
    )
    nope = await ask(fake, "tournament replay", fake.bob, table=3, reason="please")
    assert nope.text().startswith("✗")
    replayed = await ask(fake, "tournament replay", organiser, table=3, reason="Game aborted by mistake")
    assert "replayed as game #" in replayed.text(), replayed.text()
    again = (await event.rows(1))[2]
    assert again.game_id != round_one[2].game_id and again.seats == round_one[2].seats
    fresh = event.table(again)  # its own new thread, seats pinged
    assert fresh.thread.id != broken.thread.id
    assert await event.click(fresh, 3) == 3
    await event.resign_all(fresh)
    assert await event.round() == 2

    round_two = await event.rows(2)
    void_table = round_two[1]
    voided = await ask(
        fake, "tournament void", organiser, round=2, table=2, reason="Both players disconnected"
    )
    assert "void" in voided.text(), voided.text()
    pairings = (await ask(fake, "tournament pairings", organiser, round=2)).text()
    assert "void (Both players disconnected)" in pairings
    assert "Table 2: void (Both players disconnected)." in fake.message(status.id).text()
    await event.finish_round(2, skip=frozenset({2}))
    assert await event.status() == "finished"

    data = json.loads((await ask(fake, "tournament export", organiser)).attachments[0].data)
    assert [(g["id"], g["replay_reason"]) for g in data["replaced_games"]] == [
        (round_one[2].game_id, "Game aborted by mistake")
    ]
    rows, _ = recompute(data)
    same_standings(rows, data["standings"])
    by_player = {r.player: r for r in rows}
    assert all(by_player[p].games == 1 for p in void_table.seats)
    assert sorted(r.games for r in rows) == [1, 1, 2, 2, 2, 2]
    assert rows == await bot.tournaments.standings(event_id, space_ref(fake.guild.id))
    fake.assert_no_failures()


@pytest.mark.slow
async def test_first_class_groups_then_final_through_discord(
    fake_discord: FakeDiscord, run_bot: Any, tmp_path: Path
) -> None:
    """Eight players, First Class, two groups of four (one group round), then a final table of the
    two best of each group. Moves are made on the card grid and the private panels, the rest by
    `/play resign`; the finalists come first in the final standings, which equal those
    recomputed from the export."""
    fake = fake_discord
    bot: ConductorBot = await run_bot(lambda: make_bot(tmp_path / "fc.db", clock=Clock()))
    bot.tournaments.seeds = random.Random(8)
    players = [fake.alice, fake.bob] + [fake.add_user(f"traveller{i}") for i in range(3, 9)]
    organiser = fake.alice
    event_id = event_id_of(
        await ask(
            fake,
            "tournament create",
            organiser,
            name="Orient Express",
            game="first-class",
            format="groups_final",
            groups=2,
            final_size=4,
            rounds=1,
            table_size=4,
            count_ai_seats=True,
        )
    )
    for user in players:
        await ask(fake, "tournament join", user)
    await ask(fake, "tournament start", organiser)
    event = EventTables(fake, bot, event_id, players, table_class=FCTable, move="play_one")
    groups = await event.rows(1)
    assert [(len(t.seats), t.group) for t in groups] == [(4, 1), (4, 2)]
    assert await event.click(event.table(groups[0]), 4) == 4
    await event.finish_round(1)

    assert await event.round() == 2
    (final,) = await event.rows(2)
    assert final.stage.value == "final"
    for result in await bot.tournaments.store.results(
        event_id
    ):  # two from each group, none behind the others
        finalists = [s.rank for s in result.seats if s.player in final.seats]
        assert len(finalists) == 2 and max(finalists) <= min(
            s.rank for s in result.seats if s.player not in final.seats
        )
    assert await event.click(event.table(final), 2) == 2
    await event.finish_round(2)
    assert await event.status() == "finished"

    data = json.loads((await ask(fake, "tournament export", organiser)).attachments[0].data)
    rows, recomputed = recompute(data)
    same_standings(rows, data["standings"])
    final_result = next(r for r in recomputed if r.round == 2)
    assert [r.final_rank for r in rows[:4]] == sorted(s.rank for s in final_result.seats)
    assert {r.player for r in rows[:4]} == set(final.seats)
    # First Class has no tickets or trails: the profile says so rather than showing zeros
    profile = (await ask(fake, "profile", organiser, game="first-class")).text()
    played = sum(1 for r in recomputed if player_ref(organiser.id) in r.players)
    assert (
        f"{played} games" if played != 1 else "1 game"
    ) in profile and "Tickets completed: — · longest trail taken: —" in profile
    fake.assert_no_failures()
