"""Leak scan: the pages of many games, in progress and finished, on every board and in First
Class, and of an event whose games are being played, carry no hidden information (issue 33:
"only what a spectator may see, ever"); and planned turns and take-backs leave no trace anyone
but their player can see (issue 31).

What is hidden is computed from the rules, not listed by hand: every identifier (a ticket, a
Game End card, an offered ticket later returned) that some seat's private part held at some
move and that the spectator never saw by the last move, where the game's end reveals what it
reveals. No page, in any language, at any move of the replay, nor the event's CSV or record,
may contain one. And no page is ever built from a seat's view: every view the pages build is a
spectator's.
"""

from __future__ import annotations

import html
import json
import random
import re
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from web_helpers import ORGANISER, SPACE, ai_game, people_game

import bot.web.pages as pages_module
from bot.app import App, AppSettings
from bot.service import ServiceError
from bot.store.rows import ACTIVE, GameRow
from bot.web.pages import EVENT, GAME, replay_to
from bot.web.server import WebServer
from rules import takeback
from rules.games import find_game
from rules.protocol import Game
from rules.registry import envelope

GAMES: list[tuple[str, dict[str, Any], int]] = [
    ("ttr", {"board": "usa"}, 3),
    ("ttr", {"board": "europe"}, 4),
    ("ttr", {"board": "switzerland"}, 3),
    ("ttr", {"board": "germany"}, 4),
    ("first-class", {}, 3),
]


def ids_in(data: object) -> Iterator[str]:
    """Every identifier (the value of an ``id`` key) anywhere in ``data``."""
    if isinstance(data, dict):
        for key, value in data.items():
            if key == "id" and isinstance(value, str):
                yield value
            else:
                yield from ids_in(value)
    elif isinstance(data, list | tuple):
        for value in data:
            yield from ids_in(value)


def hidden_ids(row: GameRow, moves: list[tuple[int, dict[str, Any]]]) -> set[str]:
    """Identifiers some seat held in private at some move that the spectator never sees."""
    spec = find_game(row.game_name)
    private: set[str] = set()
    game: Game | None = None
    for upto in sorted({*range(0, len(moves) + 1, 3), len(moves)}):
        game = replay_to(spec, row, moves[:upto])
        for seat in range(row.players):
            private |= set(ids_in(spec.private_part(game.view(seat))))
    assert game is not None
    seen = set(ids_in(envelope(game, None)))
    return {token for token in private - seen if re.search(r"[A-Za-z]", token)}


class Scan:
    def __init__(self, app: App, server: WebServer, session: aiohttp.ClientSession) -> None:
        self.app, self.server, self.session = app, server, session
        self.pages = server.pages.pages

    async def fetch(self, path: str) -> str:
        async with self.session.get(self.server.url + path) as r:
            assert r.status == 200, path
            return await r.text()


@pytest.fixture
async def scan(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[Scan]:
    built: list[int | None] = []

    def spectator_only(game: Game, seat: int | None) -> dict[str, Any]:
        built.append(seat)
        return envelope(game, seat)

    monkeypatch.setattr(pages_module, "envelope", spectator_only)
    async with App.open(AppSettings(str(tmp_path / "leaks.db"))) as app:
        server = await WebServer(app, "127.0.0.1", 0).start()
        try:
            async with aiohttp.ClientSession() as session:
                yield Scan(app, server, session)
        finally:
            await server.stop()
    assert set(built) <= {None}, "a page was built from a seat's view"


def assert_clean(text: str, hidden: set[str], where: str) -> None:
    found = sorted(token for token in hidden if re.search(rf"(?<![\w-]){re.escape(token)}(?![\w-])", text))
    assert not found, f"{where} shows hidden {found}"


@pytest.mark.slow
async def test_no_page_of_any_game_shows_hidden_information(scan: Scan) -> None:
    app = scan.app
    game_ids: list[int] = []
    for name, config, seats in GAMES:
        game_ids.append(await ai_game(app, game=name, config=config, seats=seats))  # finished
        names = [f"P{i}" for i in range(seats)]
        for moves in (seats, 5 * seats):  # at the opening choices, and well into the game
            game_ids.append(await people_game(app, names, game=name, config=config, moves=moves))
    checked = 0
    secrets_found = 0
    for game_id in game_ids:
        row = await app.service.game_row(game_id)
        moves = [(a.seat, a.action_json) for a in await app.storage.actions(game_id)]
        hidden = hidden_ids(row, moves)
        secrets_found += bool(hidden)
        if hidden:  # the scan would see a secret on a page
            with pytest.raises(AssertionError):
                assert_clean(f"<td>{min(hidden)}</td>", hidden, "a page with a secret")
        pid = await scan.pages.public_id(GAME, game_id)
        for query in ("", "?lang=it", "?lang=de", *(f"?move={m}" for m in range(0, row.seq + 1, 4))):
            assert_clean(await scan.fetch(f"/g/{pid}/{query}"), hidden, f"game {game_id} {query}")
            checked += 1
    assert checked > 100 and secrets_found >= len(GAMES) * 2


@pytest.mark.slow
async def test_an_events_pages_show_no_hidden_information_of_its_games_in_progress(scan: Scan) -> None:
    app, runner = scan.app, scan.app.tournaments
    event = await runner.create_event(
        game_name="ttr", space=SPACE, creator=ORGANISER, name="Leak Cup", rounds=2, seed=3
    )
    players = [f"discord:{500 + i}" for i in range(8)]
    for i, p in enumerate(players):
        await runner.join(event.id, SPACE, p, f"E{i}")
    await runner.start(event.id, SPACE, ORGANISER)
    tables = await runner.store.tables(event.id, 1)
    hidden: set[str] = set()
    for table in tables:
        assert table.game_id is not None
        row = await app.service.game_row(table.game_id)
        # the seats choose their opening tickets: secrets dealt, none revealed
        loaded = await app.service.load(table.game_id)
        assert loaded.game is not None
        for seat in list(loaded.game.seats_to_act()):
            player = row.seats[seat].player
            assert player is not None
            legal = (await app.service.load(table.game_id)).game
            assert legal is not None
            await app.service.act(table.game_id, player, legal.legal_actions(seat)[0], where=SPACE)
        row = await app.service.game_row(table.game_id)
        moves = [(a.seat, a.action_json) for a in await app.storage.actions(table.game_id)]
        hidden |= hidden_ids(row, moves)
    assert hidden
    pid = await scan.pages.public_id(EVENT, event.id)
    for path in (f"/e/{pid}/", f"/e/{pid}/standings.csv", f"/e/{pid}/export.json", f"/e/{pid}/?lang=fr"):
        assert_clean(await scan.fetch(path), hidden, path)
    record = json.loads(await scan.fetch(f"/e/{pid}/export.json"))
    assert all("withheld" in g and "seed" not in g for g in record["games"])


# What only a plan's own player may read (the panel, the notes); never anywhere else.
PLAN_MARKERS = re.compile(
    r"📝|\bplan\b|\bplans\b|planned|played step|was dropped|is free and I can pay", re.I
)


@pytest.mark.slow
async def test_plans_and_take_backs_show_nowhere_but_to_their_player(
    scan: Scan, caplog: pytest.LogCaptureFixture
) -> None:
    """Issue 31's leak scan: over many games where every seat plans its next turns and takes moves
    back, no other seat's view, spectator view, public line, stored public text, log line in
    words, log record or web page says that a plan exists or what it holds; each private note
    goes to its own player; and a take-back leaves every other seat's and the spectator's view
    exactly as before the move, with no page showing the cancelled move."""
    app = scan.app
    service = app.service
    outcomes: list[Any] = []

    class Collect:
        async def deliver(self, outcome: Any) -> None:
            outcomes.append(outcome)

    service.stream.subscribe(Collect())
    caplog.set_level("DEBUG")
    rng = random.Random(31)
    planned = played = dropped = taken = 0
    games: list[int] = []
    for board, seats, seed in (("usa", 3, 1), ("europe", 4, 2), ("germany", 3, 3), ("switzerland", 3, 4)):
        players = [f"discord:{700 + i}" for i in range(seats)]
        row = await service.create_game(
            game_name="ttr",
            creator=players[0],
            creator_name="P0",
            join=True,
            space=SPACE,
            config={"board": board},
            seed=seed,
        )
        for i, player in enumerate(players[1:], 1):
            await service.join(row.id, player, f"P{i}", where=SPACE)
        if (await service.game_row(row.id)).status != ACTIVE:
            await service.start(row.id, players[0], where=SPACE)
        games.append(row.id)
        spec = find_game("ttr")
        ai = spec.make_ai("heuristic", seed)
        for _ in range(60):
            loaded = await service.load(row.id)
            if loaded.row.status != ACTIVE or loaded.game is None:
                break
            game = loaded.game
            seat = game.seats_to_act()[0]
            holders = [s.player for s in loaded.row.seats]
            player = holders[seat]
            assert player is not None
            for other, holder in enumerate(holders):  # every other seat plans its next turn
                if other != seat and holder is not None and rng.random() < 0.7:
                    choices = await service.plan_choices(row.id, holder, where=SPACE)
                    steps = rng.sample(choices, k=min(3, len(choices)))
                    await service.set_plan(row.id, holder, steps, where=SPACE)
                    planned += 1
            reversible = [
                a
                for a in game.legal_actions(seat)
                if a.kind in ("claim", "station") and takeback.classify(spec.take_back, game, seat, a) is None
            ]
            if reversible and rng.random() < 0.5:
                move = rng.choice(reversible)
                others = [v for v in range(seats) if v != seat]
                before = {v: envelope(game, v) for v in others} | {None: envelope(game, None)}
                await service.act(row.id, player, move, where=SPACE)
                try:
                    await service.take_back(row.id, player, where=SPACE)
                except ServiceError as exc:
                    # the next seat's plan answered at once: the move stands, as after any answer
                    assert exc.code == "other_seat_moved", exc.code
                    continue
                taken += 1
                back = (await service.load(row.id)).game
                assert back is not None
                for viewer, seen in before.items():
                    assert envelope(back, viewer) == seen, f"a take-back left a trace for {viewer}"
                continue
            out = await service.act(row.id, player, ai.choose(game, seat), where=SPACE)
            played += sum("played step" in str(n.said) for n in out.notes)
            dropped += sum("was dropped" in str(n.said) for n in out.notes)
    await service.stream.drain()
    assert planned > 100 and played > 20 and dropped > 0 and taken > 10, (planned, played, dropped, taken)
    for outcome in outcomes:
        row = await service.game_row(outcome.game_id)
        for note in outcome.notes:
            assert row.seats[note.seat].player == note.player, "a note addressed to another seat"
        for line in outcome.lines:
            for code in ("en", "it", "fr", "de"):
                text = line.said.text(code) if line.said is not None else line.text
                assert not PLAN_MARKERS.search(text), text
        if outcome.view is not None:
            assert not PLAN_MARKERS.search(json.dumps(outcome.view, ensure_ascii=False))
        if outcome.private is not None:
            for seat in range(len(outcome.seats)):
                assert not PLAN_MARKERS.search(json.dumps(outcome.private.view(seat), ensure_ascii=False))
    for game_id in games:
        stored = await app.storage.actions(game_id)
        for entry in stored:
            assert not PLAN_MARKERS.search(entry.public or ""), entry.public
        words = "\n".join(await service.log_lines(game_id, 500, where=SPACE))
        assert not PLAN_MARKERS.search(words), "the log in words speaks of a plan"
        cancelled = [
            stored[i] for i in takeback.cancelled(stored, lambda m: takeback.is_take_back(m.action_json))
        ]
        standing = {
            m.public for m in takeback.effective(stored, lambda m: takeback.is_take_back(m.action_json))
        }
        pid = await scan.pages.public_id(GAME, game_id)
        row = await service.game_row(game_id)
        for query in ("", "?lang=it", *(f"?move={m}" for m in range(0, row.seq + 1, 7))):
            page = await scan.fetch(f"/g/{pid}/{query}")
            assert not PLAN_MARKERS.search(re.sub(r"<[^>]+>", " ", page)), f"game {game_id} {query}"
            for move in cancelled:
                if move.public and move.public not in standing:
                    assert html.escape(move.public) not in page, (query, move.public)
    # the project's own log lines (a library's debug lines name its functions, not a plan)
    said = [r.getMessage() for r in caplog.records if r.name.startswith("conductor")]
    assert said and not [m for m in said if PLAN_MARKERS.search(m)]
