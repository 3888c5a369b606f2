"""The web pages served by the bot's process (bot/web), fetched over HTTP as a browser would.

Each test names the promise of issue 33 it checks: pages show only what a spectator may see,
are reached only by unguessable public ids, escape what users wrote, send a strict CSP, follow
a server's switch and a page's unlisting, and read in the reader's language.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import AsyncIterator
from pathlib import Path

import aiohttp
import pytest
from web_helpers import ORGANISER, SPACE, ai_game, people_game

from bot.app import App, AppSettings
from bot.present import in_language, render_board_png
from bot.store.rows import ACTIVE
from bot.web.pages import EVENT, GAME, PLAYER, replay_to, replay_views, spectator_view
from bot.web.server import CSP, WebServer
from lang import using
from rules.games import find_game
from rules.takeback import TakeBack


class Site:
    def __init__(self, app: App, server: WebServer, session: aiohttp.ClientSession) -> None:
        self.app, self.server, self.session = app, server, session
        self.pages = server.pages.pages

    async def get(self, path: str, **headers: str) -> tuple[int, str, aiohttp.typedefs.LooseHeaders]:
        async with self.session.get(self.server.url + path, headers=headers) as r:
            return r.status, await r.text(), r.headers

    async def get_bytes(self, path: str) -> tuple[int, bytes, str]:
        async with self.session.get(self.server.url + path) as r:
            return r.status, await r.read(), r.headers.get("Content-Type", "")

    async def game_path(self, game_id: int) -> str:
        return f"/g/{await self.pages.public_id(GAME, game_id)}/"


@pytest.fixture
async def site(tmp_path: Path) -> AsyncIterator[Site]:
    async with App.open(AppSettings(str(tmp_path / "web.db"), web_url="http://pages.test")) as app:
        server = await WebServer(app, "127.0.0.1", 0, "http://pages.test").start()
        try:
            async with aiohttp.ClientSession() as session:
                yield Site(app, server, session)
        finally:
            await server.stop()


def _text(html: str) -> str:
    """The page's text as a reader sees it (tags dropped, entities kept)."""
    return re.sub(r"<[^>]+>", " ", html)


async def test_a_finished_games_page_shows_its_board_final_scores_and_whole_log(site: Site) -> None:
    game_id = await ai_game(site.app)
    row = await site.app.service.game_row(game_id)
    status, html, headers = await site.get(await site.game_path(game_id))
    assert status == 200 and headers["Content-Type"].startswith("text/html")
    assert f'src="board/{row.seq}.png"' in html
    assert 'id="final"' in html and "Final scores" in html
    view = await site.pages.view_at(row, row.seq)
    for f in view["final"]:
        assert f">{f['total']}<" in html
    # every move of the log, numbered, linked to its board
    assert html.count('<li data-move="') == row.seq
    assert f'href="?move={row.seq}"' in html
    # the preview of a pasted link: the board and the scores, at the public address
    assert '<meta property="og:image" content="http://pages.test/g/' in html
    assert '<meta property="og:description" content="1. ' in html


async def test_the_board_picture_of_a_move_is_the_spectators_board_after_that_move(site: Site) -> None:
    """Replay stepper: ``?move=N`` shows the board of move N, drawn from the spectator view of the
    game replayed to N (compared with an independent replay)."""
    game_id = await ai_game(site.app)
    row = await site.app.service.game_row(game_id)
    path = await site.game_path(game_id)
    status, html, _h = await site.get(path + "?move=7")
    assert status == 200 and 'src="board/7.png"' in html and "Move 7 of" in html
    status, png, kind = await site.get_bytes(path + "board/7.png")
    assert status == 200 and kind == "image/png"
    spec = find_game(row.game_name)
    moves = [(a.seat, a.action_json) for a in (await site.app.storage.actions(game_id))[:7]]
    expected_view = spectator_view(replay_to(spec, row, moves), row, 7)
    assert expected_view["you"] is None
    with using("en"):
        assert png == render_board_png(in_language(expected_view))
    # another move: another board; the same move again: the same bytes, from the cache
    assert (await site.get_bytes(path + "board/8.png"))[1] != png
    hits = site.pages.boards.hits
    assert (await site.get_bytes(path + "board/7.png"))[1] == png and site.pages.boards.hits == hits + 1
    # the address without its closing slash leads to the page, the move kept
    async with site.session.get(site.server.url + path.rstrip("/") + "?move=7") as r:
        assert r.status == 200 and r.url.path == path and r.url.query_string == "move=7"
        assert "Move 7 of" in await r.text()
    # a move past the end shows the last board; a move that is not a number is the latest page
    assert (await site.get(path + "?move=abc"))[0] == 200
    assert (await site.get_bytes(path + f"board/{row.seq + 50}.png"))[1] == (
        await site.get_bytes(path + f"board/{row.seq}.png")
    )[1]


async def test_the_views_of_every_move_from_one_replay_equal_each_moves_own_replay(site: Site) -> None:
    """The static site's stepper draws every move from one replay: each view must be the one a
    replay to that move gives, take-back entries included (a take-back cancels the move before it,
    so the log's next entry replays from the state before that move)."""
    game_id = await ai_game(site.app)
    row = await site.app.service.game_row(game_id)
    spec = find_game(row.game_name)
    played = [(a.seat, a.action_json) for a in (await site.app.storage.actions(game_id))[:12]]
    take_back = (played[8][0], dict(TakeBack().to_json()))
    moves = [*played[:9], take_back, played[8], *played[9:]]  # move 9 taken back, then played again
    views = replay_views(spec, row, moves)
    assert len(views) == len(moves) + 1
    for move in range(len(moves) + 1):
        assert views[move] == spectator_view(replay_to(spec, row, moves[:move]), row, move), move
    assert views[10]["detail"] == views[8]["detail"] and views[11]["detail"] == views[9]["detail"]


async def test_names_people_chose_are_shown_as_text_never_as_markup(site: Site) -> None:
    game_id = await people_game(site.app, ["<b>x</b>", "Ann & <script>alert(1)</script>"])
    status, html, _h = await site.get(await site.game_path(game_id))
    assert status == 200
    assert "<b>x</b>" not in html and "<script>alert" not in html
    assert "&lt;b&gt;x&lt;/b&gt;" in html and "Ann &amp; &lt;script&gt;alert(1)&lt;/script&gt;" in html


async def test_every_response_sends_a_strict_content_security_policy(site: Site) -> None:
    game_id = await ai_game(site.app)
    path = await site.game_path(game_id)
    for p in ("/", path, path + "board/1.png", "/static/site.css", "/static/replay.js", "/g/nothing/", "/x"):
        async with site.session.get(site.server.url + p) as r:
            assert r.headers["Content-Security-Policy"] == CSP, p
            assert r.headers["X-Content-Type-Options"] == "nosniff", p
    assert "'unsafe-inline'" not in CSP and "default-src 'none'" in CSP
    _s, html, _h = await site.get(path)
    # nothing inline for the policy to refuse: no inline script or style, no handler attribute
    assert "<script>" not in html and "<style" not in html
    assert not re.search(r"<[^>]*\s(on[a-z]+|style)=", html)


async def test_pages_are_reached_by_unguessable_ids_only(site: Site) -> None:
    """A server's game number or the database id finds nothing; the id is 22 random characters."""
    game_id = await ai_game(site.app)
    row = await site.app.service.game_row(game_id)
    pid = await site.pages.public_id(GAME, game_id)
    assert len(pid) >= 22 and str(row.number) != pid and str(game_id) != pid
    missing = await site.get(f"/g/{row.number}/")
    assert missing[0] == 404 and "There is no page here." in missing[1]
    assert (await site.get(f"/g/{game_id}/board/1.png"))[0] == 404
    # an event's id does not open a game page, nor a game's an event page
    event_pid = await site.pages.public_id(EVENT, 1)
    assert (await site.get(f"/g/{event_pid}/"))[0] == 404
    assert (await site.get(f"/e/{pid}/"))[0] == 404
    # the same id every time: a shared address stays valid
    assert await site.pages.public_id(GAME, game_id) == pid


async def test_a_server_that_turns_pages_off_has_none(site: Site) -> None:
    game_id = await ai_game(site.app)
    path = await site.game_path(game_id)
    assert (await site.get(path))[0] == 200
    await site.app.storage.web.set_pages_off(SPACE, True)
    assert (await site.get(path))[0] == 404
    assert (await site.get_bytes(path + "board/1.png"))[0] == 404
    assert await site.app.links.game(game_id, SPACE) is None
    await site.app.storage.web.set_pages_off(SPACE, False)
    assert (await site.get(path))[0] == 200
    assert await site.app.links.game(game_id, SPACE) == "http://pages.test" + path


async def test_an_unlisted_game_is_served_by_its_address_but_never_linked_or_indexed(site: Site) -> None:
    game_id = await ai_game(site.app)
    path = await site.game_path(game_id)
    await site.app.storage.web.set_unlisted(GAME, str(game_id), True)
    status, html, _h = await site.get(path)
    assert status == 200 and '<meta name="robots" content="noindex">' in html and "unlisted" in html


async def test_the_move_log_reads_in_the_readers_language(site: Site) -> None:
    game_id = await ai_game(site.app)
    path = await site.game_path(game_id)
    _s, english, _h = await site.get(path)
    _s, italian, headers = await site.get(path + "?lang=it")
    assert headers["Content-Language"] == "it" and '<html lang="it">' in italian
    assert "Punteggi finali" in italian and "Final scores" in english
    assert "kept 2 tickets" in english and "kept 2 tickets" not in italian
    # without ?lang, the browser's language
    _s, german, headers = await site.get(path, **{"Accept-Language": "de-DE,de;q=0.9,en;q=0.5"})
    assert headers["Content-Language"] == "de" and '<html lang="de">' in german


async def test_a_game_in_progress_shows_who_is_to_play_and_no_final_scores(site: Site) -> None:
    game_id = await people_game(site.app, ["Ann", "Bob"], moves=4)
    status, html, _h = await site.get(await site.game_path(game_id))
    assert status == 200 and 'id="scores"' in html and 'id="final"' not in html
    assert 'class="act"' in html and "to play" in html
    # a lobby has no board yet, only its seats
    lobby = await site.app.service.create_game(
        game_name="ttr", creator="discord:9", creator_name="Cleo", space=SPACE
    )
    status, html, _h = await site.get(await site.game_path(lobby.id))
    assert status == 200 and "has not started yet" in html and "Cleo" in html and "<img" not in html


async def test_an_events_page_lists_every_player_its_pairings_and_a_csv(site: Site) -> None:
    """The 64-player event page shows every row; each table links its game; the CSV has them all."""
    runner = site.app.tournaments
    event = await runner.create_event(
        game_name="ttr", space=SPACE, creator=ORGANISER, name="Winter <Cup>", rounds=2, seed=5
    )
    players = [f"discord:{1000 + i}" for i in range(64)]
    for i, p in enumerate(players):
        await runner.join(event.id, SPACE, p, f"Player {i:02d}")
    await runner.start(event.id, SPACE, ORGANISER)
    pid = await site.pages.public_id(EVENT, event.id)
    status, html, _h = await site.get(f"/e/{pid}/")
    assert status == 200
    standings = html.split('id="standings"')[1].split("</table>")[0]
    assert standings.count("<tr>") == 64 + 1  # the heading and one row per player
    for i in range(64):
        assert f"Player {i:02d}" in standings
    assert "Winter &lt;Cup&gt;" in html
    tables = await runner.store.tables(event.id, 1)
    assert len(tables) == 16 and html.count('href="../../g/') == 16
    status, text, headers = await site.get(f"/e/{pid}/standings.csv")
    assert status == 200 and headers["Content-Type"].startswith("text/csv")
    rows = list(csv.reader(io.StringIO(text)))
    assert rows[0][:2] == ["position", "name"] and len(rows) == 65
    # the record: games still being played are listed without their seeds and logs
    status, body, _h = await site.get(f"/e/{pid}/export.json")
    assert status == 200 and '"withheld"' in body
    # a table's game page links back to its event
    first = tables[0]
    assert first.game_id is not None
    _s, game_html, _h = await site.get(await site.game_path(first.game_id))
    assert f'href="../../e/{pid}/"' in game_html


async def test_an_events_page_names_the_rounds_of_its_top_cut(site: Site) -> None:
    """Issue 33: an event page shows "the final tables or cut": a knockout round is headed with
    its stage, in the reader's language; Swiss rounds are not."""
    runner = site.app.tournaments
    event = await runner.create_event(
        game_name="ttr", space=SPACE, creator=ORGANISER, name="Knockout", seed=4,
        format="swiss_cut", rounds=1, final_size=4, cut_size=16,
    )  # fmt: skip
    for i in range(16):
        await runner.join(event.id, SPACE, f"discord:{3000 + i}", f"Player {i:02d}")
    await runner.start(event.id, SPACE, ORGANISER)
    for table in await runner.store.tables(event.id, 1):  # the Swiss round, played out by AIs
        assert table.game_id is not None
        for seat in (await site.app.service.game_row(table.game_id)).seats:
            if (await site.app.service.game_row(table.game_id)).status == ACTIVE:
                await site.app.service.replace_with_ai(
                    table.game_id, None, seat.seat + 1, is_admin=True, kind="random", where=SPACE
                )
    await site.app.service.stream.drain()
    assert len(await runner.store.tables(event.id, 2)) == 4  # the cut is paired
    pid = await site.pages.public_id(EVENT, event.id)
    _s, html, _h = await site.get(f"/e/{pid}/")
    headings = re.findall(r"<h2>(Round [^<]*)</h2>", html)
    assert headings == ["Round 2 · top cut", "Round 1"]
    _s, german, _h = await site.get(f"/e/{pid}/?lang=de")
    assert "Runde 2 · " in german and "Runde 2 · top cut" not in german


async def test_a_player_page_exists_only_for_a_player_who_opted_in(site: Site) -> None:
    game_id = await people_game(site.app, ["Ann", "Bob"], moves=10_000)
    row = await site.app.service.game_row(game_id)
    assert row.status == "over"
    assert await site.app.storage.web.existing_public_id(PLAYER, "discord:1") is None
    pid = await site.pages.set_profile("discord:1", True)
    assert pid is not None
    status, html, _h = await site.get(f"/p/{pid}/")
    assert status == 200 and "Ann" in html and html.count('href="../../g/') == 1
    await site.pages.set_profile("discord:1", False)
    assert (await site.get(f"/p/{pid}/"))[0] == 404


async def test_the_static_site_holds_every_listed_page_and_no_unlisted_one(
    site: Site, tmp_path: Path
) -> None:
    from bot.web.export import export_site

    listed = await ai_game(site.app)
    hidden = await ai_game(site.app)
    await site.pages.public_id(GAME, hidden)
    await site.app.storage.web.set_unlisted(GAME, str(hidden), True)
    out = tmp_path / "site"
    written = await export_site(site.app, out)
    assert written.games == 1
    listed_pid = await site.pages.public_id(GAME, listed)
    hidden_pid = await site.pages.public_id(GAME, hidden)
    page = (out / "g" / listed_pid / "index.html").read_text(encoding="utf-8")
    row = await site.app.service.game_row(listed)
    assert (out / "g" / listed_pid / "board" / f"{row.seq}.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert 'href="../../static/site.css"' in page and (out / "static" / "site.css").is_file()
    # the replay stepper without a server: the board after every move, the script that swaps them,
    # and each move of the log linked to its picture for a reader without the script
    boards = out / "g" / listed_pid / "board"
    assert sorted(int(p.stem) for p in boards.iterdir()) == list(range(row.seq + 1))
    assert written.files == row.seq + 1 + 1 + 1  # the boards, the game page, the index
    for move in (0, 7, row.seq):
        assert (boards / f"{move}.png").read_bytes() == await site.pages.board_png(listed_pid, move, "en")
    assert 'src="../../static/replay.js"' in page and (out / "static" / "replay.js").is_file()
    assert '<div id="stepper" class="stepper" hidden data-hash="1"' in page
    assert '<a href="board/7.png" data-move="7">7.</a>' in page
    assert "?move=" not in page  # no address that needs the server
    assert not (out / "g" / hidden_pid).exists() and hidden_pid not in (out / "index.html").read_text()
    assert f'href="g/{listed_pid}/index.html"' in (out / "index.html").read_text()


async def test_a_static_site_of_latest_boards_only_writes_one_picture_a_game(
    site: Site, tmp_path: Path
) -> None:
    """``conductor site --boards latest``: a quick copy, the latest board only and no stepper."""
    from bot.web.export import LATEST, export_site

    game_id = await ai_game(site.app)
    row = await site.app.service.game_row(game_id)
    written = await export_site(site.app, tmp_path / "site", boards=LATEST)
    pid = await site.pages.public_id(GAME, game_id)
    assert [p.name for p in (tmp_path / "site" / "g" / pid / "board").iterdir()] == [f"{row.seq}.png"]
    page = (tmp_path / "site" / "g" / pid / "index.html").read_text(encoding="utf-8")
    assert written.files == 3 and "replay.js" not in page and 'id="stepper"' not in page


def test_conductor_site_writes_the_pages_of_a_database(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import asyncio

    from bot.cli import main

    db = tmp_path / "c.db"

    async def make() -> None:
        async with App.open(AppSettings(str(db))) as app:
            await ai_game(app)

    asyncio.run(make())
    assert main(["site", "--out", str(tmp_path / "out"), "--db", str(db)]) == 0
    assert "wrote 1 game page and 0 event pages" in capsys.readouterr().out
    assert len(list((tmp_path / "out" / "g").iterdir())) == 1
    assert main(["site", "--out", str(tmp_path / "out"), "--db", str(tmp_path / "none.db")]) == 1


async def test_a_player_page_shows_the_rating_history_of_event_games(site: Site) -> None:
    """A player page: recent games and rating history (rated event games), only once opted in."""
    from rules.registry import RandomLegalAI

    runner = site.app.tournaments
    event = await runner.create_event(
        game_name="ttr",
        space=SPACE,
        creator=ORGANISER,
        name="Rated",
        rounds=1,
        table_size=2,
        boards=["usa"],
        seed=4,
    )
    players = [f"discord:{300 + i}" for i in range(4)]
    for i, p in enumerate(players):
        await runner.join(event.id, SPACE, p, f"R{i}")
    await runner.start(event.id, SPACE, ORGANISER)
    ai = RandomLegalAI(1)
    for table in await runner.store.tables(event.id, 1):
        assert table.game_id is not None
        while True:
            loaded = await site.app.service.load(table.game_id)
            if loaded.row.status != "active" or loaded.game is None:
                break
            seat = loaded.game.seats_to_act()[0]
            player = loaded.row.seats[seat].player
            assert player is not None
            await site.app.service.act(table.game_id, player, ai.choose(loaded.game, seat), where=SPACE)
    await site.app.service.stream.drain()
    pid = await site.app.links.set_player_page(players[0], True)
    assert pid is not None and pid.startswith("http://pages.test/p/")
    status, html, _h = await site.get(pid.removeprefix("http://pages.test"))
    assert status == 200 and "R0" in html and 'id="ratings"' in html and "Ticket to Ride" in html
    assert html.count('href="../../g/') == 1
