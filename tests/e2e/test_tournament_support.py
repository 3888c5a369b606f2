"""Support for the tournament end-to-end tests (no tests here): people acting through the fake
Discord in an event, and the export's games replayed to recompute the standings."""

from __future__ import annotations

import json
import re
from dataclasses import asdict
from typing import Any

from fakediscord import IT_COMMAND, FakeDiscord, FakeMessage, FakeUser
from test_bot_support import Table

from bot.discord_app.client import ConductorBot
from bot.discord_app.store import player_ref
from bot.tournament.model import GameResult, Registration, result_from_final_scores
from bot.tournament.model import Table as EventTable
from bot.tournament.standings import Row, standings
from bot.tournament.store import TableRow, config_from_json, result_from_json
from rules.games import find_game


class Clock:
    """The bot's clock, moved by the test (a round deadline passes when the test says so)."""

    def __init__(self) -> None:
        self.now = 2_000_000.0

    def __call__(self) -> float:
        return self.now


async def ask(fake: FakeDiscord, command: str, user: FakeUser, **options: Any) -> FakeMessage:
    """Run a slash command in #general as ``user`` and return the bot's private answer."""
    handle = await fake.slash(command, user=user, **options)
    msg = await handle.wait_message(timeout=60)
    assert msg.ephemeral, msg.text()
    return msg


async def ask_options(
    fake: FakeDiscord, command: str, actor: FakeUser, options: dict[str, Any]
) -> FakeMessage:
    """As :func:`ask`, for a command with an option named ``user`` (``/tournament add user:``)."""
    data = fake.build_command_data(command, options, channel=fake.general)
    handle = await fake.inject(fake.build_interaction(IT_COMMAND, data, actor, fake.general, None))
    msg = await handle.wait_message(timeout=60)
    assert msg.ephemeral, msg.text()
    return msg


def event_id_of(answer: FakeMessage) -> int:
    match = re.search(r"event #(\d+)", answer.text())
    assert match, answer.text()
    return int(match[1])


class EventTables:
    """The tables of an event's rounds as the fake Discord shows them: each game in its own
    thread, played by the test's users with buttons, menus and slash commands."""

    def __init__(
        self,
        fake: FakeDiscord,
        bot: ConductorBot,
        event_id: int,
        users: list[FakeUser],
        table_class: type[Table] = Table,
        move: str = "play_buttons",
    ) -> None:
        """``table_class`` drives one game's thread; its method ``move`` makes one move as a user
        would (Ticket to Ride: the board's buttons and the private menus)."""
        self.fake = fake
        self.bot = bot
        self.event_id = event_id
        self.users = {player_ref(u.id): u for u in users}
        self.table_class = table_class
        self.move = move

    async def rows(self, round_number: int) -> list[TableRow]:
        return await self.bot.tournaments.store.tables(self.event_id, round_number)

    async def round(self) -> int:
        event = await self.bot.tournaments.store.event(self.event_id)
        assert event is not None
        return event.round

    async def status(self) -> str:
        event = await self.bot.tournaments.store.event(self.event_id)
        assert event is not None
        return event.status

    def table(self, row: TableRow) -> Table:
        """The game of ``row`` in its thread: the thread whose seating message names the game and
        pings every seat of the table."""
        assert row.game_id is not None
        table = self.table_class(self.fake, self.bot)
        table.gid = row.game_id
        for thread in self.fake.threads:
            first = self.fake.messages_in(thread, ephemeral=False)
            if first and f"(game #{row.game_id}," in first[0].text():
                table.thread = thread
                for player in row.seats:
                    assert f"<@{player.split(':')[1]}>" in first[0].text()
                return table
        raise AssertionError(f"no thread for game #{row.game_id}")

    async def humans(self, table: Table) -> list[FakeUser]:
        """The users still playing their own seats, in seat order."""
        row = await self.bot.service.game_row(table.gid)
        return [self.users[s.player] for s in row.seats if not s.is_ai and s.player in self.users]

    async def click(self, table: Table, moves: int) -> int:
        """Up to ``moves`` moves made by the seats' own users with the board's buttons and the
        private menus (the heuristic chooses what a person would). Returns the moves made."""
        made = 0
        await table.settle()  # the table's first board is posted once its game has started
        while made < moves:
            loaded = await self.bot.service.load(table.gid)
            if loaded.row.status != "active" or loaded.game is None:
                break
            acting = [loaded.row.seats[s] for s in loaded.game.seats_to_act()]
            person = next((s for s in acting if not s.is_ai and s.player in self.users), None)
            if person is None:
                break
            seq = loaded.row.seq
            await getattr(table, self.move)(self.users[person.player])
            if await table.seq() > seq:
                made += 1
        return made

    async def resign_all(self, table: Table) -> None:
        """Every person still seated hands the seat to an AI with ``/play resign``, in the table's
        thread; the AIs play the game to its end."""
        for user in await self.humans(table):
            if (await self.bot.service.game_row(table.gid)).status != "active":
                break
            answer = await table.slash("play resign", user)
            assert "resigned" in answer.text(), answer.text()
        await self.bot.service.stream.drain()

    async def finish_round(self, round_number: int, *, skip: frozenset[int] = frozenset()) -> None:
        """Every table of the round (but ``skip``) played out by its players' resignations."""
        for row in await self.rows(round_number):
            if row.number not in skip:
                await self.resign_all(self.table(row))
        await self.bot.service.stream.drain()


def replayed(game: dict[str, Any]) -> list[dict[str, Any]]:
    """An exported game re-simulated from its config, seed and log: its final scores."""
    spec = find_game(game["game"])
    state = spec.new(game["config"], len(game["seats"]), game["seed"])
    for seat, text in game["actions"]:
        state.apply(seat, spec.parse_action(text))
    assert state.is_over(), f"game #{game['id']} does not end from its log"
    return list(state.final_scores())


def recompute(data: dict[str, Any]) -> tuple[list[Row], list[GameResult]]:
    """The standings recomputed from ``/tournament export``: every game replayed from its
    config, seed and log; the organisers' corrections and voids taken from the result record
    (a correction keeps the replayed scores and changes only ranks)."""
    config = config_from_json(data["event"]["config"])
    latest: dict[tuple[int, int], dict[str, Any]] = {}
    for stored in data["results"]:
        latest[(stored["round"], stored["table"])] = stored
    results: list[GameResult] = []
    for game in data["games"]:
        key = (game["event_round"], game["event_table"])
        stored = latest[key]
        if stored["void"]:  # voided by an organiser: it counts for nothing, whatever its log says
            continue
        table = EventTable(
            round=key[0],
            number=key[1],
            board=stored["board"],
            seats=tuple(game["event_seats"]),
            stage=stored["stage"],
            group=stored["group"],
        )
        ai = [s["seat"] for s in game["seats"] if s["ai"]]
        from_game = result_from_final_scores(table, str(game["id"]), replayed(game), ai, game["adjudicated"])
        if stored["correction_reason"]:
            kept = result_from_json(stored)
            assert [(s.player, s.score) for s in kept.seats] == [(s.player, s.score) for s in from_game.seats]
            results.append(kept)
        else:
            assert stored["seats"] == [
                {
                    "player": s.player,
                    "rank": s.rank,
                    "score": s.score,
                    "tickets_completed": s.tickets_completed,
                    "ai_takeover": s.ai_takeover,
                    "longest_trail": s.longest_trail,
                }
                for s in from_game.seats
            ], f"game #{game['id']} replays differently"
            results.append(from_game)
    results += [result_from_json(s) for s in latest.values() if s["void"]]
    registration = Registration(
        tuple(r["player"] for r in data["registrations"] if r["state"] in ("entered", "dropped")),
        frozenset(r["player"] for r in data["registrations"] if r["state"] == "dropped"),
    )
    results.sort(key=lambda r: (r.round, r.table))
    return standings(config, results, registration), results


def same_standings(rows: list[Row], exported: list[dict[str, Any]]) -> None:
    """Every column of the recomputed standings equals the exported (shown) standings."""
    assert [json.loads(json.dumps(asdict(r))) for r in rows] == exported
