"""A whole community event through the fake Discord: `/tournament create` to the final standings.

Eight players at 4-player tables, two Swiss rounds on the USA board. Games are played to the end
by AI seats; one player drops; one round's deadline passes and its unfinished table is
adjudicated; the bot restarts in the middle; an organiser corrects a result. The standings the
bot shows are those recomputed from the exported games (config, seed and log replayed).
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from fakediscord import BotRunner, FakeDiscord, FakeMessage, FakeUser
from test_bot_support import make_bot

from bot.discord_app.client import ConductorBot
from bot.discord_app.store import player_ref
from bot.tournament.model import Registration, result_from_final_scores
from bot.tournament.standings import standings
from bot.tournament.store import config_from_json, result_from_json
from rules.registry import find_game

SPACE_PREFIX = "discord:guild:"


class Clock:
    def __init__(self) -> None:
        self.now = 2_000_000.0

    def __call__(self) -> float:
        return self.now


async def ask(fake: FakeDiscord, command: str, user: FakeUser, **options: Any) -> FakeMessage:
    """Run a slash command in #general and return the bot's (private) answer."""
    handle = await fake.slash(command, user=user, **options)
    msg = await handle.wait_message(timeout=30)
    assert msg.ephemeral, msg.text()
    return msg


async def play_out_with_ais(bot: ConductorBot, game_ids: list[int]) -> None:
    """Every person's seat of these games handed to an AI, which plays the game to its end."""
    for gid in game_ids:
        row = await bot.service.game_row(gid)
        for seat in row.seats:
            if not seat.is_ai and row.status == "active":
                await bot.service.replace_with_ai(gid, None, seat.seat + 1, is_admin=True, where=row.space)
        assert (await bot.service.game_row(gid)).status == "over"
    await bot.service.stream.drain()


def replay_result(game: dict[str, Any], board: str, round_number: int, table: int) -> Any:
    """A game of the export replayed from its config, seed and log, read as a tournament result."""
    spec = find_game(game["game"])
    state = spec.new(game["config"], len(game["seats"]), game["seed"])
    for seat, text in game["actions"]:
        state.apply(seat, spec.parse_action(text))
    assert state.is_over()
    from bot.tournament.model import Table

    seats = Table(round=round_number, number=table, board=board, seats=tuple(game["event_seats"]))
    ai = [s["seat"] for s in game["seats"] if s["ai"]]
    return result_from_final_scores(seats, str(game["id"]), state.final_scores(), ai, game["adjudicated"])


async def test_swiss_event_from_create_to_final_standings(
    fake_discord: FakeDiscord, run_bot: Any, bot_runner: BotRunner, tmp_path: Path
) -> None:
    fake = fake_discord
    clock = Clock()
    db = tmp_path / "event.db"
    bot: ConductorBot = await run_bot(lambda: make_bot(db, clock=clock))
    players = [fake.alice, fake.bob] + [fake.add_user(f"player{i}") for i in range(3, 9)]
    organiser = fake.alice

    msg = await ask(fake, "tournament create", organiser, name="Autumn Cup", boards="usa", table_size=4,
                    rounds=2, deadline_hours=48.0, timer_hours=24.0, count_ai_seats=True)
    match = re.search(r"event #(\d+)", msg.text())
    assert match, msg.text()
    event_id = int(match[1])
    status = [m for m in fake.messages_in(ephemeral=False) if f"event #{event_id}" in m.text()]
    assert len(status) == 1

    for user in players:
        assert "registered" in (await ask(fake, "tournament join", user)).text()
    refused = await ask(fake, "tournament join", players[0])
    assert refused.text().startswith("✗") and "already registered" in refused.text()

    started = await ask(fake, "tournament start", organiser)
    assert "round 1" in started.text(), started.text()
    round_one = await bot.tournaments.store.tables(event_id, 1)
    assert len(round_one) == 2
    for table in round_one:  # each table plays in its own thread, seats pinged there
        thread = next(t for t in fake.threads if f"round 1 · table {table.number}" in t.name)
        seating = fake.messages_in(thread, ephemeral=False)[0]
        for p in table.seats:
            assert f"<@{p.split(':')[1]}>" in seating.text()

    # bob drops during round 1: an AI plays out his seat; he is out of round 2
    dropped = await ask(fake, "tournament drop", fake.bob)
    assert "dropped out" in dropped.text(), dropped.text()
    bob = player_ref(fake.bob.id)

    # table 1 is played to the end; table 2 is still going when the round deadline passes
    first, second = round_one
    assert first.game_id is not None and second.game_id is not None
    await play_out_with_ais(bot, [first.game_id])
    assert (await bot.tournaments.store.event(event_id)).round == 1  # type: ignore[union-attr]
    clock.now += 48 * 3600 + 60
    assert await bot.tournaments.tick() == [second.game_id]
    await bot.service.stream.drain()
    results = await bot.tournaments.store.results(event_id)
    assert [(r.table, r.adjudicated) for r in results] == [(1, False), (2, True)]
    round_two = await bot.tournaments.store.tables(event_id, 2)
    assert sorted(len(t.seats) for t in round_two) == [3, 4]
    assert bob not in [p for t in round_two for p in t.seats]

    # the bot restarts in the middle of round 2 and carries on from SQLite
    bot = await bot_runner.restart(lambda: make_bot(db, clock=clock))
    await play_out_with_ais(bot, [t.game_id for t in round_two if t.game_id is not None])
    event = await bot.tournaments.store.event(event_id)
    assert event is not None and event.status == "finished"

    # an organiser corrects round 1 table 1 (ranks in seat order), with a reason that is kept
    before = next(r for r in results if r.table == 1)
    n = len(before.seats)
    new_ranks = list(range(n, 0, -1)) if [s.rank for s in before.seats] != list(range(n, 0, -1)) else \
        list(range(1, n + 1))
    fixed = await ask(fake, "tournament correct", organiser, round=1, table=1,
                      ranks=",".join(map(str, new_ranks)), reason="Scores misread at the table")
    assert "corrected" in fixed.text(), fixed.text()
    nobody = await ask(fake, "tournament correct", organiser, round=1, table=1, ranks="1,2", reason="x")
    assert nobody.text().startswith("✗")

    # the status message was edited in place, never posted twice
    status = [m for m in fake.messages_in(ephemeral=False) if f"event #{event_id}" in m.text()]
    assert len(status) == 1 and status[0].edits > 0 and "finished" in status[0].text()

    # the export replays to the same standings the bot shows
    exported = await ask(fake, "tournament export", organiser)
    assert exported.attachments and re.search(r"`[0-9a-f]{64}`", exported.text())
    data = json.loads(exported.attachments[0].data)
    config = config_from_json(data["event"]["config"])
    replayed = {(g["event_round"], g["event_table"]): g for g in data["games"]}
    boards = {(r["round"], r["table"]): r["board"] for r in data["results"]}
    recomputed = {k: replay_result(g, boards[k], *k) for k, g in replayed.items()}
    for stored in data["results"]:  # kept corrections replace the engine's result, as in the event
        if stored["correction_reason"]:
            recomputed[(stored["round"], stored["table"])] = result_from_json(stored)
    registration = Registration(tuple(r["player"] for r in data["registrations"] if r["state"] in
                                      ("entered", "dropped")),
                                frozenset(r["player"] for r in data["registrations"] if r["state"] == "dropped"))
    rows = standings(config, [recomputed[k] for k in sorted(recomputed)], registration)
    assert [(r.player, r.place_points, r.position, r.dropped) for r in rows] == \
        [(r["player"], r["place_points"], r["position"], r["dropped"]) for r in data["standings"]]
    assert any(r.adjudicated_games for r in rows) and any(r.dropped for r in rows)
    assert sum(r.corrected_games for r in rows) == n
    assert [r["correction_reason"] for r in data["results"]][-1] == "Scores misread at the table"

    # /tournament standings shows every tie-break column; /leaderboard and /profile read the ratings
    shown = (await ask(fake, "tournament standings", organiser, event=event_id)).text()
    assert "WBC" in shown and "H2H" in shown and "Adj" in shown
    board = (await ask(fake, "leaderboard", organiser)).text()
    assert "Rating" in board and len(re.findall(r"^ +\d+ ", board, re.M)) == len(players)
    profile = (await ask(fake, "profile", organiser)).text()
    assert "games" in profile and "Rating" in profile

    # an event belongs to its server: from another server it does not exist
    other = fake.add_channel(fake.add_guild("Elsewhere", owner=fake.bob), "general")
    handle = await fake.slash("tournament standings", user=fake.bob, channel=other, event=event_id)
    hidden = await handle.wait_message(timeout=30)
    assert hidden.ephemeral and hidden.text() == f"✗ There is no event #{event_id} here."
    fake.assert_no_failures()
