"""A static copy of the pages (``conductor site --out DIR``), for organisers who run no server.

The same templates and the same spectator-only content as the served pages, laid out as the
server's paths (``g/<public id>/index.html`` with its boards, ``e/<public id>/index.html`` with
its standings CSV) and linked relatively, so the folder can be put on any static host or opened
from disk. Unlisted games and events, and those of spaces that turned pages off, are left out.

A game's page carries the board after every move (``board/<move>.png``) and the same replay
stepper as the served page, driven by the little script that swaps the picture (no server to
ask): without the script, every move of the log links to its picture. ``boards=LATEST`` writes
only the latest board, for a quick copy of many long games (a picture costs about a tenth of a
second to draw).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from bot.app import App
from bot.store.rows import ACTIVE, OVER
from bot.web.html import STATIC_TYPES, render, static_file
from bot.web.pages import EVENT, GAME, Pages
from bot.web.words import page_words
from lang import _, current


@dataclass
class Written:
    games: int = 0
    events: int = 0
    files: int = 0


def _write(path: Path, data: bytes | str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(data, str):
        path.write_text(data, encoding="utf-8")
    else:
        path.write_bytes(data)


EVERY_MOVE, LATEST = "every-move", "latest"
BOARDS = (EVERY_MOVE, LATEST)


async def export_site(app: App, out: Path, *, space: str | None = None, boards: str = EVERY_MOVE) -> Written:
    """Write every listed page of ``space`` (None: every space) under ``out``, in the current
    language, with the board after every move (``boards=EVERY_MOVE``) or only the latest
    (``LATEST``); returns what was written."""
    if boards not in BOARDS:
        raise ValueError(f"boards must be one of {BOARDS}, not {boards!r}")
    pages = Pages(app)
    written = Written()
    static = {"root": "../../", "static": True, "stepper": False, "index": "index.html", "languages": ()}
    listing_games: list[tuple[str, str]] = []
    listing_events: list[tuple[str, str]] = []
    for status in await app.storage.game_statuses():
        if status.status not in (ACTIVE, OVER):
            continue
        row = await app.service.game_row(status.id)
        if space is not None and row.space != space:
            continue
        pid = await pages.public_id(GAME, row.id)
        page = await pages.game(pid)
        if page is None or page.unlisted:
            continue
        folder = out / "g" / pid
        replay = boards == EVERY_MOVE and page.has_board
        _write(folder / "index.html", render("game.html", page=page, **static, static_stepper=replay))
        if replay:
            async for move, board in pages.every_board(pid, current()):
                if board is not None:
                    _write(folder / "board" / f"{move}.png", board)
                    written.files += 1
        else:
            board = await pages.board_png(pid, page.last, current())
            if board is not None:
                _write(folder / "board" / f"{page.last}.png", board)
                written.files += 1
        written.games += 1
        written.files += 1
        listing_games.append(
            (f"g/{pid}/index.html", f"{page_words()['game'].format(number=page.number)} · {page.title}")
        )
    for event in await app.tournaments.store.events(space):
        pid = await pages.public_id(EVENT, event.id)
        event_page = await pages.event(pid)
        if event_page is None or event_page.unlisted:
            continue
        folder = out / "e" / pid
        _write(folder / "index.html", render("event.html", page=event_page, **static))
        csv_text = await pages.event_csv(pid)
        if csv_text is not None:
            _write(folder / "standings.csv", csv_text)
            written.files += 1
        written.events += 1
        written.files += 1
        listing_events.append((f"e/{pid}/index.html", event_page.name))
    for name in STATIC_TYPES:
        data = static_file(name)
        if data is not None:
            _write(out / "static" / name, data)
    listing = [(_("Events"), listing_events), (_("Games"), listing_games)]
    _write(
        out / "index.html",
        render("index.html", listing=[(k, v) for k, v in listing if v], **{**static, "root": ""}),
    )
    written.files += 1
    return written
