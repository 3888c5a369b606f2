"""The pages served by the bot's own process: an aiohttp server over the App (read-only).

Every response carries a strict Content-Security-Policy (only the site's own stylesheet, script
and pictures; no inline code, no frames, no other origin), ``nosniff`` and no referrer. The
address, port and public address are :class:`~bot.web.settings.WebSettings`; ``conductor run``
starts the server when they say so (``CONDUCTOR_WEB=on`` or ``--web``).
"""

from __future__ import annotations

import json
import logging
from collections.abc import Awaitable, Callable

from aiohttp import web

from bot.app import App
from bot.web.html import STATIC_TYPES, render, static_file
from bot.web.pages import GamePage, Pages, reader_language
from bot.web.words import page_words
from lang import using

log = logging.getLogger("conductor.web")

CSP = (
    "default-src 'none'; img-src 'self'; style-src 'self'; script-src 'self'; "
    "base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
)
SECURITY_HEADERS = {
    "Content-Security-Policy": CSP,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
}
HTML = "text/html"

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


def _move(request: web.Request) -> int | None:
    text = request.query.get("move", "")
    return int(text) if text.isdigit() and len(text) < 9 else None


def game_description(page: GamePage) -> str:
    """A pasted link's preview text: the scores (final, else current), best first when final."""
    if page.final:
        return " · ".join(f"{f.rank}. {f.name} {f.total}" for f in page.final)
    return " · ".join(f"{s.name} {s.score}" for s in page.scores)


class WebPages:
    """The aiohttp application of the pages (see the module docstring)."""

    def __init__(self, app: App, public_url: str) -> None:
        self.app = app
        self.public_url = public_url.rstrip("/")
        self.pages = Pages(app)
        self.web = web.Application(middlewares=[self.security_headers])
        self.web.add_routes(
            [
                web.get("/", self.home),
                web.get("/static/{name}", self.static),
                web.get("/g/{pid}", self.slash),
                web.get("/g/{pid}/", self.game),
                web.get("/g/{pid}/board/{move:\\d{1,8}}.png", self.board),
                web.get("/e/{pid}", self.slash),
                web.get("/e/{pid}/", self.event),
                web.get("/e/{pid}/standings.csv", self.event_csv),
                web.get("/e/{pid}/export.json", self.event_export),
                web.get("/p/{pid}", self.slash),
                web.get("/p/{pid}/", self.player),
            ]
        )

    @web.middleware
    async def security_headers(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        """Every answer, an error's too, with the security headers; an unknown path gets the
        same page as an unknown id."""
        try:
            response = await handler(request)
        except web.HTTPNotFound:
            response = self.not_found(self._language(request)[0])
        except web.HTTPException as exc:
            for key, value in SECURITY_HEADERS.items():
                exc.headers[key] = value
            raise
        for key, value in SECURITY_HEADERS.items():
            response.headers[key] = value
        return response

    # ---- helpers ------------------------------------------------------------------------------
    def _language(self, request: web.Request, default: str | None = None) -> tuple[str, bool]:
        asked = request.query.get("lang")
        language = reader_language(asked, request.headers.get("Accept-Language"), default)
        return language, bool(asked) and asked == language

    def _html(self, text: str, status: int = 200, language: str = "en") -> web.Response:
        response = web.Response(text=text, status=status, content_type=HTML, charset="utf-8")
        response.headers["Content-Language"] = language
        response.headers["Cache-Control"] = "no-cache"
        return response

    def not_found(self, language: str) -> web.Response:
        with using(language):
            text = render("message.html", message=page_words()["not_found"], root="/", noindex=True)
        return self._html(text, 404, language)

    # ---- routes ---------------------------------------------------------------------------------
    async def home(self, request: web.Request) -> web.StreamResponse:
        language, _asked = self._language(request)
        with using(language):
            return self._html(
                render("message.html", message=page_words()["home"], root="/"), language=language
            )

    async def static(self, request: web.Request) -> web.StreamResponse:
        name = request.match_info["name"]
        data = static_file(name)
        if data is None:
            return self.not_found(self._language(request)[0])
        response = web.Response(body=data, content_type=STATIC_TYPES[name], charset="utf-8")
        response.headers["Cache-Control"] = "public, max-age=3600"
        return response

    async def slash(self, request: web.Request) -> web.StreamResponse:
        # the page's folder, with its query (``?move=``, ``?lang=``): relative links resolve in it
        query = f"?{request.query_string}" if request.query_string else ""
        raise web.HTTPFound(f"{request.path}/{query}")

    async def game(self, request: web.Request) -> web.StreamResponse:
        pid = request.match_info["pid"]
        found = await self.pages.game_row(pid)
        language, asked = self._language(
            request, str(found[0].config.get("language") or "") if found is not None else None
        )
        if found is None:
            return self.not_found(language)
        row, ref = found
        move = _move(request)
        at = row.seq if move is None else max(0, min(move, row.seq))
        # the same state, move, language and listing: the same page (a change of seq is a new key)
        key = (row.id, row.seq, row.status, at, language, asked, ref.unlisted)
        with using(language):
            text = await self.pages.html.get(key, lambda: self._game_html(pid, at, language, asked))
        if text is None:
            return self.not_found(language)
        return self._html(text, language=language)

    async def _game_html(self, pid: str, move: int, language: str, asked: bool) -> str | None:
        page = await self.pages.game(pid, move)
        if page is None:
            return None
        lang_query = f"&lang={language}" if asked else ""
        og = {
            "title": f"{page_words()['game'].format(number=page.number)} · {page.title}",
            "description": game_description(page) or page.status_words,
            "url": f"{self.public_url}/g/{pid}/",
            "image": f"{self.public_url}/g/{pid}/board/{page.last}.png" if page.has_board else None,
        }
        text = render(
            "game.html",
            page=page,
            og=og,
            lang_query=lang_query,
            lang_asked=asked,
            move_query=f"&move={page.move}" if page.move != page.last else "",
            unlisted=page.unlisted,
            noindex=page.unlisted,
        )
        return text

    async def board(self, request: web.Request) -> web.StreamResponse:
        pid = request.match_info["pid"]
        found = await self.pages.game_row(pid)
        language, _asked = self._language(
            request, str(found[0].config.get("language") or "") if found is not None else None
        )
        data = await self.pages.board_png(pid, int(request.match_info["move"]), language)
        if data is None:
            return self.not_found(language)
        response = web.Response(body=data, content_type="image/png")
        response.headers["Cache-Control"] = "public, max-age=300"
        return response

    async def event(self, request: web.Request) -> web.StreamResponse:
        pid = request.match_info["pid"]
        language, asked = self._language(request)
        with using(language):
            page = await self.pages.event(pid)
            if page is None:
                return self.not_found(language)
            og = {
                "title": f"{page.name} · {page.title}",
                "description": " · ".join(f"{s.position}. {s.name}" for s in page.standings[:8])
                or page.status_words,
                "url": f"{self.public_url}/e/{pid}/",
                "image": None,
            }
            text = render(
                "event.html",
                page=page,
                og=og,
                unlisted=page.unlisted,
                noindex=page.unlisted,
                lang_query=f"&lang={language}" if asked else "",
            )
        return self._html(text, language=language)

    async def event_csv(self, request: web.Request) -> web.StreamResponse:
        pid = request.match_info["pid"]
        language, _asked = self._language(request)
        with using(language):
            data = await self.pages.event_csv(pid)
        if data is None:
            return self.not_found(language)
        response = web.Response(text=data, content_type="text/csv", charset="utf-8")
        response.headers["Content-Disposition"] = 'attachment; filename="standings.csv"'
        return response

    async def event_export(self, request: web.Request) -> web.StreamResponse:
        pid = request.match_info["pid"]
        found = await self.pages.event_row(pid)
        if found is None:
            return self.not_found(self._language(request)[0])
        event = found[0]
        # the organisers' own export: a game still being played is listed without its seed and log
        body = await self.app.tournaments.export(event.id, event.space)
        response = web.Response(
            text=json.dumps(body, indent=1, sort_keys=True, default=str), content_type="application/json"
        )
        response.headers["Content-Disposition"] = 'attachment; filename="event.json"'
        return response

    async def player(self, request: web.Request) -> web.StreamResponse:
        pid = request.match_info["pid"]
        language, _asked = self._language(request)
        with using(language):
            page = await self.pages.player(pid)
            if page is None:
                return self.not_found(language)
            text = render(
                "player.html",
                page=page,
                og={
                    "title": page.name,
                    "description": page.name,
                    "url": f"{self.public_url}/p/{pid}/",
                    "image": None,
                },
            )
        return self._html(text, language=language)


class WebServer:
    """The pages on ``host``:``port`` beside the bot, in its event loop (``port`` 0: any free
    port; :attr:`port` then says which)."""

    def __init__(self, app: App, host: str, port: int, public_url: str | None = None) -> None:
        self.host = host
        self.port = port
        self.pages = WebPages(app, public_url or f"http://{host}:{port}")
        self._runner: web.AppRunner | None = None

    async def start(self) -> WebServer:
        runner = web.AppRunner(self.pages.web, access_log=None)
        await runner.setup()
        site = web.TCPSite(runner, self.host, self.port)
        await site.start()
        self._runner = runner
        for address in runner.addresses:
            if isinstance(address, tuple) and len(address) >= 2:
                self.port = int(address[1])
                break
        if self.pages.public_url.endswith(":0"):
            self.pages.public_url = f"http://{self.host}:{self.port}"
        log.info("web pages on http://%s:%d (public address %s)", self.host, self.port, self.pages.public_url)
        return self

    @property
    def url(self) -> str:
        return f"http://{self.host}:{self.port}"

    async def stop(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None
