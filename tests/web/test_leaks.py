"""Leak scan: the pages of many games, in progress and finished, on every board and in First
Class, and of an event whose games are being played, carry no hidden information (issue 33:
"only what a spectator may see, ever").

What is hidden is computed from the rules, not listed by hand: every identifier (a ticket, a
Game End card, an offered ticket later returned) that some seat's private part held at some
move and that the spectator never saw by the last move, where the game's end reveals what it
reveals. No page, in any language, at any move of the replay, nor the event's CSV or record,
may contain one. And no page is ever built from a seat's view: every view the pages build is a
spectator's.
"""

from __future__ import annotations

import json
import re
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from web_helpers import ORGANISER, SPACE, ai_game, people_game

import bot.web.pages as pages_module
from bot.app import App, AppSettings
from bot.store.rows import GameRow
from bot.web.pages import EVENT, GAME, replay_to
from bot.web.server import WebServer
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
