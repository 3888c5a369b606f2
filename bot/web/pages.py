"""What each web page shows, built from the core through the App and nothing else.

Only a spectator's view ever reaches a page: the board, the scores and the move log of a game at
any move are built from ``envelope(game, None)`` of the game replayed to that move and from the
log's public lines (the engine's events visible to everyone), never from a seat's view. An event
page shows its standings, its rounds' pairings and links to its tables' games; a player page only
exists for a player who opted in.

Pages are reached by unguessable public ids (:meth:`Pages.public_id`, kept through the storage
port), never by the server's game or event numbers. A space (server) that turned pages off, and
anything that is not a finished, running or waiting game or event, is not found, with the same
answer as an id that was never given. Work per request is bounded: views, pictures and logs are
cached by (game, move number, language), and a game is replayed at most once per state asked.
"""

from __future__ import annotations

import asyncio
import csv
import io
from collections import OrderedDict
from collections.abc import AsyncIterator, Awaitable, Callable, Hashable, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from bot.app import App
from bot.names import names_words
from bot.present import board_words, breakdown_text, in_language, render_board_png, title_words
from bot.service import ServiceError
from bot.store.rows import ABORTED, ACTIVE, LOBBY, OVER, GameRow, PublicRef, StorageError
from bot.tournament.ratings import player_history
from bot.tournament.standings import STAGE_WORDS
from bot.tournament.store import FINISHED, PAUSED, REGISTRATION, RUNNING, EventRow, TableRow
from bot.web.links import public_id
from lang import _, current, normalise, text_of, using
from rules import takeback
from rules.games import find_game
from rules.protocol import Game
from rules.registry import GameSpec, envelope

GAME, EVENT, PLAYER = "game", "event", "player"

SHOWN_GAME_STATUSES = (LOBBY, ACTIVE, OVER)

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class Lru(Generic[K, V]):
    """A bounded cache: the ``size`` most recently used entries."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._items: OrderedDict[K, V] = OrderedDict()
        self.hits = 0
        self.misses = 0

    async def get(self, key: K, make: Callable[[], Awaitable[V]]) -> V:
        if key in self._items:
            self.hits += 1
            self._items.move_to_end(key)
            return self._items[key]
        self.misses += 1
        value = await make()
        self._items[key] = value
        while len(self._items) > self.size:
            self._items.popitem(last=False)
        return value

    def clear(self) -> None:
        self._items.clear()


@dataclass(frozen=True)
class ScoreLine:
    name: str
    score: int
    to_act: bool = False


@dataclass(frozen=True)
class FinalLine:
    rank: int
    name: str
    total: int
    breakdown: str


@dataclass(frozen=True)
class LogEntry:
    move: int
    text: str


@dataclass(frozen=True)
class GamePage:
    """A game page at move ``move`` (``last``: the number of moves made so far)."""

    public_id: str
    title: str
    number: int
    status: str
    status_words: str
    names: list[str]
    scores: list[ScoreLine]
    final: list[FinalLine]
    log: list[LogEntry]
    move: int
    last: int
    has_board: bool
    unlisted: bool
    event: EventLink | None = None


@dataclass(frozen=True)
class EventLink:
    public_id: str
    name: str


@dataclass(frozen=True)
class TableLine:
    number: int
    names: list[str]
    game: str | None  # the game's public id (None: no page for it)
    status_words: str


@dataclass(frozen=True)
class RoundBlock:
    number: int
    tables: list[TableLine]
    stage_words: str = ""
    """The knockout stage the round belongs to ("top cut", "final"), "" for Swiss or group play."""


@dataclass(frozen=True)
class StandingLine:
    position: int
    name: str
    games: int
    points: float
    wins: int
    score: int
    dropped: bool


@dataclass(frozen=True)
class EventPage:
    public_id: str
    name: str
    title: str
    status_words: str
    standings: list[StandingLine]
    rounds: list[RoundBlock]
    unlisted: bool


@dataclass(frozen=True)
class GameLine:
    public_id: str
    title: str
    status_words: str
    score: int | None
    rank: int | None


@dataclass(frozen=True)
class RatingLine:
    """A player's rating in one game family of one server: now, rated games, and its history
    (the rating after each of the last rated games, oldest first)."""

    title: str
    rating: float
    games: int
    history: list[float]


@dataclass(frozen=True)
class PlayerPage:
    public_id: str
    name: str
    games: list[GameLine]
    ratings: list[RatingLine] = field(default_factory=list)


def game_title(row: GameRow) -> str:
    """The game's title and board in the reader's language."""
    title = title_words(row.game_name)
    board = row.config.get("board")
    if isinstance(board, str):
        names = {b.id: b.name for b in find_game(row.game_name).boards()}
        return f"{title} · {board_words(row.game_name, names.get(board, board))}"
    return title


def status_words(status: str) -> str:
    return {
        LOBBY: _("waiting for players"),
        ACTIVE: _("in progress"),
        OVER: _("finished"),
    }.get(status, _("not available"))


def event_status_words(status: str) -> str:
    return {
        REGISTRATION: _("open for registration"),
        RUNNING: _("in progress"),
        PAUSED: _("paused"),
        FINISHED: _("finished"),
    }.get(status, _("not available"))


def replay_to(spec: GameSpec, row: GameRow, moves: Sequence[tuple[int, dict[str, Any]]]) -> Game:
    """The game from its config and seed with ``moves`` (seat, action JSON) applied: CPU work, for a
    thread. Starts as the game's own replay does (a game whose start needs its stored state)."""
    game = (
        spec.replay_start(row.config, row.players, row.seed, row.snapshot)
        if spec.replay_start is not None and row.snapshot
        else spec.new(row.config, row.players, row.seed)
    )
    if spec.replay_copy is not None:
        game = spec.replay_copy(game)
    for seat, action_json in takeback.effective(moves, lambda m: takeback.is_take_back(m[1])):
        game.apply(seat, spec.action_from_json(action_json))
    return game


def replay_views(
    spec: GameSpec, row: GameRow, moves: Sequence[tuple[int, dict[str, Any]]]
) -> list[dict[str, Any]]:
    """The spectator view after every move, 0 to ``len(moves)``, from one replay: CPU work, for a
    thread. Each view equals ``view_at`` of its move: a move is applied to the game of the move
    before, and where a take-back entry cancels moves the game is replayed again from its start,
    as ``replay_to`` does for that prefix (take-backs are few; replaying every prefix would make
    the pictures of a whole game cost the square of its length)."""
    game = replay_to(spec, row, [])
    views = [spectator_view(game, row, 0)]
    for number, (seat, action_json) in enumerate(moves, start=1):
        if takeback.is_take_back(action_json):
            game = replay_to(spec, row, moves[:number])
        else:
            game.apply(seat, spec.action_from_json(action_json))
        views.append(spectator_view(game, row, number))
    return views


def spectator_view(game: Game, row: GameRow, move: int) -> dict[str, Any]:
    """The spectator envelope (no seat's secrets) with the seat names, number and move: what the
    board pictures and the scores of a page are drawn from."""
    view: dict[str, Any] = dict(envelope(game, None))  # the page adds its own keys to a copy
    view["names"] = [s.name for s in row.seats]
    view["game_id"] = row.number
    view["seq"] = move
    return view


class Pages:
    """Builds every page's content from an :class:`~bot.app.App` (see the module docstring)."""

    def __init__(self, app: App, *, cache_size: int = 256) -> None:
        self.app = app
        self.web = app.storage.web
        self.views: Lru[tuple[int, int], dict[str, Any]] = Lru(cache_size)
        self.boards: Lru[tuple[int, int, str], bytes | None] = Lru(cache_size)
        self.logs: Lru[tuple[int, int, str], list[LogEntry]] = Lru(cache_size)
        # a game page's HTML by (game, seq, status, move, language, ?lang= asked, unlisted)
        self.html: Lru[tuple[int, int, str, int, str, bool, bool], str | None] = Lru(cache_size)

    # ---- public ids --------------------------------------------------------------------------
    async def public_id(self, kind: str, ref: object) -> str:
        """The public id of a game, event or player, given now if it has none."""
        return await public_id(self.web, kind, ref)

    async def find(self, public_id: str, kind: str) -> PublicRef | None:
        if not public_id or len(public_id) > 64:
            return None
        found = await self.web.public_ref(public_id)
        return found if found is not None and found.kind == kind else None

    async def game_row(self, public_id: str) -> tuple[GameRow, PublicRef] | None:
        """The game a public id names, if its page may be shown (its space has pages on)."""
        found = await self.find(public_id, GAME)
        if found is None:
            return None
        try:
            row = await self.app.service.game_row(int(found.ref))
        except (ServiceError, StorageError, ValueError):
            return None
        if row.status not in SHOWN_GAME_STATUSES or await self.pages_off(row.space):
            return None
        return row, found

    async def pages_off(self, space: str | None) -> bool:
        return space is not None and await self.web.pages_off(space)

    # ---- a game --------------------------------------------------------------------------------
    async def view_at(self, row: GameRow, move: int) -> dict[str, Any]:
        """The spectator view after ``move`` moves (cached by game and move)."""

        async def make() -> dict[str, Any]:
            moves = (await self.app.storage.actions(row.id))[:move]  # the log's first ``move`` moves
            spec = find_game(row.game_name)
            game = await asyncio.to_thread(replay_to, spec, row, [(a.seat, a.action_json) for a in moves])
            return spectator_view(game, row, move)

        return await self.views.get((row.id, move), make)

    async def board_png(self, public_id: str, move: int | None, language: str) -> bytes | None:
        """The board picture of the game at ``move`` (None: the last), in ``language``."""
        found = await self.game_row(public_id)
        if found is None:
            return None
        row = found[0]
        if row.status == LOBBY:
            return None
        at = row.seq if move is None else max(0, min(move, row.seq))

        async def draw() -> bytes | None:
            view = await self.view_at(row, at)
            with using(language):
                return await self.app.workers.render(render_board_png, in_language(view))

        return await self.boards.get((row.id, at, language), draw)

    async def every_board(self, public_id: str, language: str) -> AsyncIterator[tuple[int, bytes | None]]:
        """The board picture after every move of a game, in ``language`` (the static site's replay
        stepper): one replay for them all, each picture drawn by the workers."""
        found = await self.game_row(public_id)
        if found is None or found[0].status == LOBBY:
            return
        row = found[0]
        moves = (await self.app.storage.actions(row.id))[: row.seq]
        spec = find_game(row.game_name)
        views = await asyncio.to_thread(replay_views, spec, row, [(a.seat, a.action_json) for a in moves])
        with using(language):
            for move, view in enumerate(views):
                yield move, await self.app.workers.render(render_board_png, in_language(view))

    async def log(self, row: GameRow) -> list[LogEntry]:
        """The whole move log in the current language, as everyone may read it."""

        async def make() -> list[LogEntry]:
            lines = await self.app.service.log_lines(row.id, limit=row.seq or 1, where=row.space)
            out = []
            for line in lines:
                number, _dot, text = line.partition(". ")
                out.append(LogEntry(int(number) if number.isdigit() else 0, text))
            return out

        return await self.logs.get((row.id, row.seq, current()), make)

    async def game(self, public_id: str, move: int | None = None) -> GamePage | None:
        """The game page in the current language, at ``move`` (None: now)."""
        found = await self.game_row(public_id)
        if found is None:
            return None
        row, ref = found
        names = names_words([s.name for s in row.seats])
        scores: list[ScoreLine] = []
        final: list[FinalLine] = []
        at = row.seq if move is None else max(0, min(move, row.seq))
        log: list[LogEntry] = []
        if row.status != LOBBY:
            view = await self.view_at(row, at)
            to_act = set(view.get("to_act") or []) if at == row.seq and row.status == ACTIVE else set()
            scores = [
                ScoreLine(names[seat] if seat < len(names) else str(seat + 1), int(score), seat in to_act)
                for seat, score in enumerate(view.get("scores") or [])
            ]
            for f in sorted(view.get("final") or [], key=lambda f: int(f.get("rank", 0))):
                seat = int(f["seat"])
                final.append(
                    FinalLine(
                        int(f.get("rank", 0)),
                        names[seat] if seat < len(names) else str(seat + 1),
                        int(f["total"]),
                        breakdown_text(row.game_name, dict(f.get("breakdown") or {})),
                    )
                )
            log = await self.log(row)
        event = None
        table = await self.app.tournaments.store.table_of_game(row.id)
        if table is not None:
            event_row = await self.app.tournaments.store.event(table.event_id)
            if event_row is not None:
                event = EventLink(await self.public_id(EVENT, event_row.id), event_row.name)
        return GamePage(
            public_id=public_id,
            title=game_title(row),
            number=row.number,
            status=row.status,
            status_words=status_words(row.status),
            names=names,
            scores=scores,
            final=final,
            log=log,
            move=at,
            last=row.seq,
            has_board=row.status != LOBBY,
            unlisted=ref.unlisted,
            event=event,
        )

    # ---- an event -----------------------------------------------------------------------------
    async def event_row(self, public_id: str) -> tuple[EventRow, PublicRef] | None:
        found = await self.find(public_id, EVENT)
        if found is None or not found.ref.isdigit():
            return None
        event = await self.app.tournaments.store.event(int(found.ref))
        if event is None or await self.pages_off(event.space):
            return None
        return event, found

    async def _table_line(self, table: TableRow, names: dict[str, str]) -> TableLine:
        game_id: str | None = None
        status = LOBBY
        if table.game_id is not None:
            try:
                row = await self.app.service.game_row(table.game_id)
            except (ServiceError, StorageError):
                row = None
            if row is not None:
                status = row.status
                ref = await self.public_id(GAME, table.game_id)
                found = await self.web.public_ref(ref)
                # an unlisted game is reached by its address alone, never by a link
                game_id = ref if found is not None and not found.unlisted else None
        return TableLine(
            table.number,
            names_words([names.get(p, p) for p in table.seats]),
            game_id,
            status_words(status) if status in SHOWN_GAME_STATUSES else status_words(ABORTED),
        )

    async def event(self, public_id: str) -> EventPage | None:
        found = await self.event_row(public_id)
        if found is None:
            return None
        event, ref = found
        store = self.app.tournaments.store
        entries = await store.entries(event.id)
        names = {e.player: e.name for e in entries}
        standings = [
            StandingLine(
                r.position,
                names_words([names.get(r.player, r.player)])[0],
                r.games,
                r.place_points,
                r.wins,
                r.total_score,
                r.dropped,
            )
            for r in await self.app.tournaments.standings(event.id, event.space)
        ]
        tables = await store.tables(event.id)
        rounds: list[RoundBlock] = []
        for number in sorted({t.round for t in tables}):
            in_round = [t for t in tables if t.round == number]
            stage = in_round[0].stage
            rounds.append(
                RoundBlock(
                    number,
                    [await self._table_line(t, names) for t in in_round],
                    text_of(STAGE_WORDS[stage]) if stage.elimination else "",
                )
            )
        return EventPage(
            public_id=public_id,
            name=event.name,
            title=title_words(event.game_name),
            status_words=event_status_words(event.status),
            standings=standings,
            rounds=rounds,
            unlisted=ref.unlisted,
        )

    async def event_csv(self, public_id: str) -> str | None:
        """The standings as CSV (one row per player; names as they entered)."""
        page = await self.event(public_id)
        if page is None:
            return None
        out = io.StringIO()
        writer = csv.writer(out)
        writer.writerow(["position", "name", "games", "place_points", "wins", "total_score", "dropped"])
        for s in page.standings:
            writer.writerow([s.position, s.name, s.games, s.points, s.wins, s.score, int(s.dropped)])
        return out.getvalue()

    # ---- a player ------------------------------------------------------------------------------
    async def set_profile(self, player: str, public: bool) -> str | None:
        """Opt ``player`` in to a public page (its public id) or out (the page is gone)."""
        if not public:
            await self.web.forget_public(PLAYER, player)
            return None
        return await self.public_id(PLAYER, player)

    async def player(self, public_id: str) -> PlayerPage | None:
        """An opted-in player's recent finished games (listed, in spaces with pages on)."""
        found = await self.find(public_id, PLAYER)
        if found is None:
            return None
        player = found.ref
        storage = self.app.storage
        name = player
        games: list[GameLine] = []
        spaces: list[str] = []
        for game_id in sorted(await storage.games_of_player(player, (OVER,)), reverse=True)[:20]:
            try:
                row = await self.app.service.game_row(game_id)
            except (ServiceError, StorageError):
                continue
            if await self.pages_off(row.space):
                continue
            if row.space is not None and row.space not in spaces:
                spaces.append(row.space)
            seat = row.seat_of(player)
            if seat is None:
                continue
            name = row.seats[seat].name
            game_ref = await self.public_id(GAME, game_id)
            known = await self.web.public_ref(game_ref)
            if known is None or known.unlisted:
                continue
            view = await self.view_at(row, row.seq)
            mine = next((f for f in view.get("final") or [] if int(f["seat"]) == seat), None)
            games.append(
                GameLine(
                    game_ref,
                    game_title(row),
                    status_words(row.status),
                    int(mine["total"]) if mine else None,
                    int(mine["rank"]) if mine else None,
                )
            )
        ratings: list[RatingLine] = []
        for space in spaces:
            book = await self.app.tournaments.store.rating_book(space)
            for rated in book.views:
                if rated.board is not None or player not in book.views[rated]:
                    continue
                rating = book.rating(player, rated.family)
                history = [c.after.ordinal for c in player_history(book, player, rated.family) if c.counted]
                title = title_words(rated.family) + (
                    f" · {spaces.index(space) + 1}" if len(spaces) > 1 else ""
                )
                ratings.append(RatingLine(title, rating.ordinal, rating.games, history[-10:]))
        return PlayerPage(public_id, names_words([name])[0], games, ratings)


def reader_language(asked: str | None, accept: str | None, default: str | None) -> str:
    """The page's language: ``?lang=``, else the browser's first language we speak, else the
    game's, else English."""
    from lang import languages

    if (
        asked
        and normalise(asked) == asked.split("-")[0].lower()
        and asked.split("-")[0].lower() in languages()
    ):
        return normalise(asked)
    for part in (accept or "").split(","):
        tag = part.split(";")[0].strip()
        if tag and tag != "*" and tag.split("-")[0].lower() in languages():
            return normalise(tag)
    return normalise(default) if default else "en"
