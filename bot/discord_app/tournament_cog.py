"""``/tournament``, ``/leaderboard`` and ``/profile``: community events on Discord.

Commands parse options and call :class:`~bot.tournament.runner.TournamentService`; every refusal
is a private sentence. :class:`TournamentDiscord` follows the runner: each table's game gets its
own thread under the event's channel (its seats pinged there), and the event's status message
(round progress and the standings with every tie-break column) is edited after every change.
An event belongs to the server it was created in. Replies are in the reader's language; the
tables' threads and the status message, which everyone reads, in the server's (``/ttr language``,
else its preferred locale, else English).
"""

from __future__ import annotations

import asyncio
import io
import json
import logging
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord_app.choices import GAME_CHOICES
from bot.discord_app.settings import GuildSettings
from bot.discord_app.store import SPACE_PREFIX, player_ref, space_ref, user_id_of
from bot.discord_app.ui import MAX_CONTENT, GameUI, is_admin, who
from bot.present import board_words, seat_name_words, title_words
from bot.service import TIMEOUT_POLICIES, ServiceError
from bot.tournament.model import Format, TournamentError
from bot.tournament.ratings import leaderboard, player_history, shared_leaderboard
from bot.tournament.records import PlayerRecord, player_record
from bot.tournament.runner import CHECKIN_OPEN, START_FAILED, START_SOON, TournamentService, checkin_opens
from bot.tournament.sheets import pairings_csv, standings_csv
from bot.tournament.standings import Row
from bot.tournament.store import FINISHED, EventRow, TableRow
from bot.web.links import page_line, public_id
from lang import SOURCE_LANGUAGE, M, Msg, _, _n, _p, normalise, text_of, using
from lang.numbers import decimal, number
from render.standings import table_png
from rules.games import DEFAULT_GAME, find_game

if TYPE_CHECKING:
    from bot.discord_app.client import ConductorBot

log = logging.getLogger("conductor.discord")

FORMAT_CHOICES = [app_commands.Choice(name=f.value, value=f.value) for f in Format]
POLICY_CHOICES = [app_commands.Choice(name=p, value=p) for p in TIMEOUT_POLICIES]
SCOPE_CHOICES = [
    app_commands.Choice(name="this server", value="here"),
    app_commands.Choice(name="every server (players who chose to be shown)", value="everywhere"),
]
EVENT_DESC = "Event number (default: this server's running event)"
LATE_CHOICES = [
    app_commands.Choice(name="zero", value="zero"),
    app_commands.Choice(name="the player's average", value="average"),
    app_commands.Choice(name="fixed points", value="fixed"),
]
PAIRING_CHOICES = [
    app_commands.Choice(name="automatic", value="automatic"),
    app_commands.Choice(name="after review", value="review"),
]
CREATOR_CHOICES = [
    app_commands.Choice(name="anyone", value="anyone"),
    app_commands.Choice(name="holders of a role", value="role"),
    app_commands.Choice(name="admins and game managers", value="admins"),
]


def parse_points(text: str) -> dict[int, tuple[int, ...]]:
    """``"6,5,3,1"`` (one scale, sized by its length) or several joined by ``;``."""
    out: dict[int, tuple[int, ...]] = {}
    for part in text.split(";"):
        if not part.strip():
            continue
        try:
            scale = tuple(int(v) for v in part.replace(" ", "").split(","))
        except ValueError:
            raise TournamentError(
                "bad_config",
                _(
                    "Points are whole numbers separated by commas, like 6,5,3,1; not {text}.",
                    text=repr(part.strip()),
                ),
            ) from None
        out[len(scale)] = scale
    return out


def parse_ranks(text: str) -> list[int]:
    try:
        return [int(v) for v in text.replace(" ", "").split(",") if v]
    except ValueError:
        raise TournamentError(
            "bad_result", _("Ranks are whole numbers in seat order separated by commas, like 2,1,3,4.")
        ) from None


def _hours(seconds: float) -> str:
    """A waiting time in whole hours (minutes under an hour), with the reader's unit."""
    hours = seconds / 3600
    if hours >= 1:
        return _p("duration", "{n} h", n=decimal(hours, 0))
    return _p("duration", "{n} min", n=decimal(seconds / 60, 0))


def table_state_words(value: str) -> str:
    """A table game's state in the status message (``broken``, ``aborted``…) in the reader's language."""
    words = {
        "not created": _p("table state", "not created"),
        "broken": _p("table state", "broken"),
        "aborted": _p("table state", "aborted"),
        "lobby": _p("table state", "waiting for players"),
        "active": _p("table state", "being played"),
        "over": _p("table state", "over"),
    }
    return words.get(value, value)


def fixed_table(columns: Sequence[tuple[str, int, str]], rows: Sequence[Sequence[str]]) -> list[str]:
    """A fixed-width table: each column ``(head, width, align)`` as wide as its head in the reader's
    language needs (``align`` is ``<`` or ``>``); cells longer than a text column are cut."""
    widths = [max(width, len(head)) for head, width, _align in columns]

    def line(cells: Sequence[str]) -> str:
        out = []
        for (_head, _width, align), width, cell in zip(columns, widths, cells, strict=True):
            cell = cell[:width] if align == "<" else cell
            out.append(f"{cell:{align}{width}}")
        return " ".join(out).rstrip()

    return [line([head for head, _w, _a in columns]), *(line(r) for r in rows)]


def board_name(game_name: str, board_id: str) -> str:
    """A board of an event (its id, ``switzerland``) as its readers name it (``Svizzera``); a game
    without boards, or a board no longer on offer, keeps its id."""
    try:
        names = {b.id: b.name for b in find_game(game_name).boards()}
    except (KeyError, ValueError):
        return board_id
    return board_words(game_name, names[board_id]) if board_id in names else board_id


def game_name_words(game_name: str) -> str:
    """A game (``ttr``) by the title of its edition in the reader's language (``Zug um Zug``)."""
    try:
        return title_words(game_name)
    except (KeyError, ValueError):
        return game_name


def format_words(value: str) -> str:
    """An event format (``swiss``…) as the reader's language names it."""
    words = {
        "swiss": _p("event format", "Swiss"),
        "swiss_final": _p("event format", "Swiss with a final"),
        "groups_final": _p("event format", "groups with a final"),
        "swiss_cut": _p("event format", "Swiss with a top cut"),
    }
    return words.get(value, value)


def cut_words(event: EventRow, round_number: int | None = None) -> str:
    """What a top cut is (the event's line), or what its knockout round ``round_number`` is: the
    winners of a cut round go on, the final decides the podium; "" for any other round."""
    config = event.config
    if config.format is not Format.SWISS_CUT:
        return ""
    if round_number is None:
        return _(
            "Top cut: the best {cut} after round {rounds} play at tables of {size}; each table's winner"
            " goes on, down to one final table.",
            cut=config.cut_size,
            rounds=config.rounds,
            size=config.final_size,
        )
    if round_number <= config.rounds:
        return ""
    if round_number == config.total_rounds:
        return _("This is the final table: its order is the podium.")
    return _(
        "Top cut, round {n} of {total}: each table's winner goes on to round {next}.",
        n=round_number - config.rounds,
        total=config.cut_rounds,
        next=round_number + 1,
    )


def start_words(event: EventRow) -> list[str]:
    """An event's start time and check-in window as its status message says them (Discord shows
    each time in its reader's own time zone)."""
    starts = event.settings.get("starts_at")
    if starts is None:
        return []
    failed = event.settings.get(START_FAILED)
    if failed:
        return [
            _(
                "It could not start by itself at its start time ({reason}); an organiser starts it"
                " with `/tournament start`.",
                reason=failed,
            )
        ]
    when = int(float(starts))
    lines = [_("It starts by itself {when} ({relative}).", when=f"<t:{when}:F>", relative=f"<t:{when}:R>")]
    opens = checkin_opens(event)
    if opens is not None:
        lines.append(
            _(
                "Check-in (`/tournament checkin`) opens {when}; whoever has not checked in by the start is"
                " not seated.",
                when=f"<t:{int(opens)}:F>",
            )
        )
    return lines


def parse_start(text: str, now: float) -> float:
    """A start time as an organiser types it: hours from now ("48", "1.5"), or a date and time
    ("2026-12-05 18:00", with an offset such as "+01:00" or "Z"; UTC without one)."""
    try:
        return now + float(text.strip()) * 3600
    except ValueError:
        pass
    try:
        moment = datetime.fromisoformat(text.strip())
    except ValueError:
        raise TournamentError(
            "bad_option",
            M(
                "Give the start as hours from now (e.g. 48) or a date and time such as 2026-12-05 18:00+01:00"
                " (UTC without an offset), not {text}.",
                text=repr(text),
            ),
        ) from None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.timestamp()


def status_words(value: str) -> str:
    """An event's state (``running``…) in the reader's language."""
    words = {
        "registration": _p("event status", "registration open"),
        "running": _p("event status", "running"),
        "paused": _p("event status", "paused"),
        "finished": _p("event status", "finished"),
    }
    return words.get(value, value)


STANDINGS_PAGE = 20
"""Standings rows per page of ``/tournament standings`` (a page stays well inside a message)."""
PAIRINGS_PAGE = 10


def standings_fitting(rows: Sequence[Row], names: dict[str, str], budget: int) -> str:
    """The standings' first rows, as many as fit in ``budget`` characters, saying how many of how
    many are shown when not all fit (the full table: ``/tournament standings``, CSV attached)."""
    text = standings_table(rows, names)
    if len(text) <= budget:
        return text
    low, high = 0, len(rows)
    note = ""
    while low < high:  # the most rows whose block and note fit
        mid = (low + high + 1) // 2
        candidate = standings_table(rows[:mid], names) + "\n" + _standings_note(mid, len(rows))
        if len(candidate) <= budget:
            low = mid
        else:
            high = mid - 1
    note = _standings_note(low, len(rows))
    return standings_table(rows[:low], names) + "\n" + note


def _standings_note(shown: int, total: int) -> str:
    return _(
        "The first {shown} of {total} players; the whole table, page by page with a CSV file:"
        " `/tournament standings`.",
        shown=shown,
        total=total,
    )


def standings_table(rows: Sequence[Row], names: dict[str, str]) -> str:
    """The standings with every tie-break column, as a fixed-width block."""
    columns = [
        ("#", 3, ">"),
        (_p("standings column", "Player"), 16, "<"),
        (_p("standings column", "G"), 2, ">"),
        (_p("standings column", "Pts"), 5, ">"),
        (_p("standings column", "W"), 2, ">"),
        (_p("standings column", "WBC"), 6, ">"),
        (_p("standings column", "Score"), 5, ">"),
        (_p("standings column", "Tix"), 3, ">"),
        (_p("standings column", "H2H"), 3, ">"),
        (_p("standings column", "Adj"), 3, ">"),
        (_p("standings column", "AI"), 2, ">"),
        (_p("standings column", "Cor"), 3, ">"),
    ]
    cells = []
    for r in rows:
        name = names.get(r.player, r.player)[:16] + (" " + _("(out)") if r.dropped else "")
        cells.append(
            [
                str(r.position),
                name[:16],
                str(r.games),
                number(r.place_points),
                str(r.wins),
                decimal(r.wbc_ratio, 3),
                str(r.total_score),
                str(r.tickets_completed),
                str(r.head_to_head),
                str(r.adjudicated_games),
                str(r.ai_takeovers),
                str(r.corrected_games),
            ]
        )
    legend = _(
        "G games · Pts place points · W wins · WBC sum of score ÷ best opponent's score · Score total score · "
        "Tix tickets completed · H2H head to head · Adj adjudicated games · AI games an AI finished · Cor corrected results"
    )
    return "```\n" + "\n".join(fixed_table(columns, cells)) + "\n```\n" + legend


def profile_extras(record: PlayerRecord) -> str:
    """The profile's Ticket to Ride line: tickets completed and the longest trail, "—" where the
    game (First Class) or the stored results have none."""
    if record.tickets_completed is None:
        tickets = "—"
    else:
        tickets = _(
            "{n} ({average} a game)",
            n=record.tickets_completed,
            average=decimal(record.tickets_completed / record.tickets_games),
        )
    trail = "—" if record.longest_trail is None else _n("{n} car", "{n} cars", record.longest_trail)
    return _("Tickets completed: {tickets} · longest trail taken: {trail}", tickets=tickets, trail=trail)


def standings_picture(
    event: EventRow, rows: Sequence[Row], shown: Sequence[Row], names: dict[str, str], page: int
) -> bytes:
    """One page of the standings drawn in the current language: place, player, games, place points,
    wins and total score (every other column is in the CSV); the podium marked once it is final."""
    pages = max(1, -(-len(rows) // STANDINGS_PAGE))
    subtitle = _(
        "{status} · round {round} of {rounds} · {players}",
        status=status_words(event.status),
        round=event.round,
        rounds=event.config.total_rounds,
        players=_n("{n} player", "{n} players", len(rows)),
    )
    if pages > 1:
        subtitle += " · " + _("page {page} of {pages}", page=page, pages=pages)
    heads = [
        "#",
        _p("standings column", "Player"),
        _p("standings column", "G"),
        _p("standings column", "Pts"),
        _p("standings column", "W"),
        _p("standings column", "Score"),
    ]
    cells = [
        [
            str(r.position),
            # a long name is cut here so that "(out)" still shows
            names.get(r.player, r.player)[: 18 if r.dropped else 40]
            + (" " + _("(out)") if r.dropped else ""),
            str(r.games),
            number(r.place_points),
            str(r.wins),
            str(r.total_score),
        ]
        for r in shown
    ]
    medals = {i: r.position for i, r in enumerate(shown) if event.status == FINISHED and r.position <= 3}
    return table_png(
        event.name,
        subtitle,
        heads,
        cells,
        align="><>>>>",
        weights=(0.8, 3.9, 0.8, 1.1, 0.8, 1.6),
        medals=medals,
    )


async def game_number(bot: ConductorBot, game_id: int | str | None) -> str:
    """A tournament game as its players read it: its number in its server ("game #3")."""
    if game_id is None or not str(game_id).isdigit():
        return "?" if game_id is None else str(game_id)
    return str(await bot.ui.number(int(game_id)))


class TournamentDiscord:
    """The runner's Discord listener: table threads and the event's edited status message."""

    def __init__(self, bot: ConductorBot) -> None:
        self.bot = bot

    @property
    def runner(self) -> TournamentService:
        return self.bot.tournaments

    async def language(self, guild_id: int | None) -> str:
        """The language of an event's public posts: the server's choice, else its preferred locale
        when Conductor speaks it, else English."""
        chosen = await GuildSettings(self.bot.storage).language(guild_id)
        if chosen:
            return normalise(chosen)
        guild = self.bot.get_guild(guild_id) if guild_id is not None else None
        return normalise(getattr(guild, "preferred_locale", None) or SOURCE_LANGUAGE)

    async def names(self, event_id: int) -> dict[str, str]:
        return {e.player: e.name for e in await self.runner.store.entries(event_id)}

    async def table_opening(self, event: EventRow, table: TableRow, game_id: int) -> None:
        """Before the table's game starts: its own thread under the event's channel, seats pinged."""
        guild_id, channel_id, _message = await self.bot.storage.discord.event_route(event.id)
        await self.bot.ui.store.set_route(game_id, guild_id, channel_id)
        if channel_id is None:
            return
        channel = self.bot.get_channel(channel_id)
        if not isinstance(channel, discord.TextChannel):
            return
        language = await self.language(guild_id)
        with using(language):
            thread_name = _(
                "{event} · round {round} · table {table}",
                event=event.name,
                round=table.round,
                table=table.number,
            )
        try:
            thread = await channel.create_thread(
                name=thread_name[:100], type=discord.ChannelType.public_thread, auto_archive_duration=10080
            )
        except discord.HTTPException:
            log.warning("event=%s game=%s: no thread; the table plays in the channel", event.id, game_id)
            return
        await self.bot.ui.store.set_thread(game_id, thread.id)
        users = [u for p in table.seats if (u := user_id_of(p)) is not None]
        seats = ", ".join(f"<@{u}>" for u in users)
        number = await self.bot.ui.number(game_id)
        with using(language):
            opening = _(
                "**{event}**, round {round}, table {table} (game #{game}, board {board}). Seat order: {seats}.",
                event=event.name,
                round=table.round,
                table=table.number,
                game=number,
                board=board_name(event.game_name, table.board),
                seats=seats,
            )
        try:
            await thread.send(
                opening, allowed_mentions=discord.AllowedMentions(users=[discord.Object(id=u) for u in users])
            )
        except discord.HTTPException:
            log.warning("event=%s game=%s: the seating could not be posted", event.id, game_id)

    async def registration_notice(
        self, event: EventRow, kind: str, players: Sequence[str], reason: Msg | str | None
    ) -> None:
        """A notice before an event's start time, in its channel: the check-in window is open, the
        start is near (both ping the players they are for: those not checked in yet, or every
        entrant without check-in), or the start failed (no one pinged; the organiser is told why)."""
        guild_id, channel = await self._channel(event)
        if channel is None:
            return
        starts = int(float(event.settings["starts_at"]))
        users = [u for p in players if (u := user_id_of(p)) is not None] if kind != START_FAILED else []
        with using(await self.event_language(event, guild_id)):
            if kind == CHECKIN_OPEN:
                text = _(
                    "**{event}** (event #{number}): check-in is open until the start, {when}. Check in"
                    " with `/tournament checkin`; whoever has not by then is not seated.",
                    event=event.name,
                    number=event.number,
                    when=f"<t:{starts}:F>",
                )
            elif kind == START_SOON:
                text = _(
                    "**{event}** (event #{number}) starts {when}.",
                    event=event.name,
                    number=event.number,
                    when=f"<t:{starts}:R>",
                )
                if event.settings.get("checkin") and users:
                    text += " " + _("Not checked in yet: `/tournament checkin`, or you are not seated.")
            else:
                text = _(
                    "**{event}** (event #{number}) could not start at its start time: {reason} An"
                    " organiser starts it with `/tournament start`.",
                    event=event.name,
                    number=event.number,
                    reason=text_of(reason or ""),
                )
        pings = [f"<@{u}>" for u in users]
        chunks: list[list[str]] = [[]]
        for ping in pings:  # as many messages as the pings need, each within Discord's limit
            if len(text) + sum(len(p) + 1 for p in chunks[-1]) + len(ping) + 1 > MAX_CONTENT:
                chunks.append([])
            chunks[-1].append(ping)
        try:
            for index, chunk in enumerate(chunks):
                body = text if index == 0 else ""
                await channel.send(
                    "\n".join(x for x in (body, " ".join(chunk)) if x),
                    allowed_mentions=discord.AllowedMentions(
                        users=[discord.Object(id=int(p[2:-1])) for p in chunk]
                    ),
                )
        except discord.HTTPException:
            log.warning("event=%s: the %s notice could not be posted", event.id, kind)

    async def event_language(self, event: EventRow, guild_id: int | None) -> str:
        """The event's public words: the language it was created with, else the server's."""
        chosen = event.settings.get("language")
        return normalise(str(chosen)) if chosen else await self.language(guild_id)

    async def _channel(self, event: EventRow) -> tuple[int | None, discord.TextChannel | None]:
        guild_id, channel_id, _message = await self.bot.storage.discord.event_route(event.id)
        channel = self.bot.get_channel(channel_id) if channel_id is not None else None
        return guild_id, channel if isinstance(channel, discord.TextChannel) else None

    async def _announce(
        self, event: EventRow, channel: discord.TextChannel, text: str, files: list[discord.File]
    ) -> None:
        """A quiet post in the event's channel: no one is pinged, no notification sound."""
        try:
            await channel.send(
                text, files=files, allowed_mentions=discord.AllowedMentions.none(), silent=True
            )
        except discord.HTTPException:
            log.warning("event=%s: the announcement could not be posted", event.id)

    async def pairings_csv(self, event: EventRow, tables: Sequence[TableRow]) -> discord.File:
        names = await self.names(event.id)
        results = await self.runner.store.results(event.id)
        numbers = {t.game_id: await self.bot.ui.number(t.game_id) for t in tables if t.game_id is not None}
        text = pairings_csv(tables, names, results, numbers)
        round_no = tables[0].round if tables else 0
        return discord.File(io.BytesIO(text.encode()), filename=f"event-{event.number}-round-{round_no}.csv")

    async def standings_files(
        self, event: EventRow, rows: Sequence[Row], page: int = 1
    ) -> list[discord.File]:
        """The standings as a picture (one page of rows, in the current language) and as CSV."""
        names = await self.names(event.id)
        csv_file = discord.File(
            io.BytesIO(standings_csv(rows, names).encode()), filename=f"event-{event.number}-standings.csv"
        )
        first = (page - 1) * STANDINGS_PAGE
        shown = rows[first : first + STANDINGS_PAGE]
        if not shown:
            return [csv_file]
        png = await asyncio.to_thread(standings_picture, event, rows, shown, names, page)
        picture = discord.File(io.BytesIO(png), filename=f"event-{event.number}-standings-{page}.png")
        return [picture, csv_file]

    async def tables_created(self, event: EventRow, tables: Sequence[TableRow]) -> None:
        """One quiet post per round in the event's channel: the round is paired, each table with its
        board, seats and thread; the whole pairing as CSV. (Each table's thread, where its players
        are pinged, was opened with its game.)"""
        guild_id, channel = await self._channel(event)
        if channel is None or not tables:
            return
        names = await self.names(event.id)
        with using(await self.event_language(event, guild_id)):
            head = _(
                "**{event}** (event #{number}): round {round} is paired, {tables}.",
                event=event.name,
                number=event.number,
                round=tables[0].round,
                tables=_n("{n} table", "{n} tables", len(tables)),
            )
            if cut_words(event, tables[0].round):
                head += " " + cut_words(event, tables[0].round)
            lines = []
            for t in tables:
                thread = (
                    (await self.bot.ui.store.route(t.game_id)).thread_id if t.game_id is not None else None
                )
                lines.append(
                    _(
                        "Table {table} ({board}): {seats}",
                        table=t.number,
                        board=board_name(event.game_name, t.board),
                        seats=", ".join(seat_name_words(names.get(p, p)) for p in t.seats),
                    )
                    + (f" · <#{thread}>" if thread else "")
                )
            text = head + "\n" + "\n".join(lines)
            if len(text) > MAX_CONTENT:
                kept: list[str] = []
                more = _("… every table is in the attached file and in `/tournament pairings`.")
                for line in lines:
                    if len(head) + len(more) + sum(len(x) + 1 for x in kept) + len(line) + 3 > MAX_CONTENT:
                        break
                    kept.append(line)
                text = "\n".join([head, *kept, more])
            files = [await self.pairings_csv(event, tables)]
        await self._announce(event, channel, text, files)

    async def event_finished(self, event: EventRow) -> None:
        """One quiet post at the end: the podium, a link to the status message with the standings,
        the standings as a picture and CSV."""
        guild_id, channel = await self._channel(event)
        if channel is None:
            return
        _guild, channel_id, message_id = await self.bot.storage.discord.event_route(event.id)
        names = await self.names(event.id)
        rows = await self.runner.standings(event.id, event.space)
        with using(await self.event_language(event, guild_id)):
            medals = ("🥇", "🥈", "🥉")
            podium = [
                medals[r.position - 1]
                + " "
                + _(
                    "{player}: {points} place points",
                    player=seat_name_words(names.get(r.player, r.player)),
                    points=number(r.place_points),
                )
                for r in rows
                if r.position <= 3
            ]
            lines = [
                _("**{event}** (event #{number}) is over.", event=event.name, number=event.number),
                *podium,
            ]
            if message_id is not None and guild_id is not None:
                lines.append(
                    _(
                        "Standings: {link}",
                        link=f"https://discord.com/channels/{guild_id}/{channel_id}/{message_id}",
                    )
                )
            files = await self.standings_files(event, rows)
        await self._announce(event, channel, "\n".join(lines), files)

    async def status_text(self, event: EventRow, *, with_standings: bool = True) -> str:
        """The event's progress and standings, in the current language (the caller chooses it)."""
        names = await self.names(event.id)
        config = event.config
        parts = [
            _(
                "**{event}** (event #{number}) · {format}, {rounds}, tables of {size}, {boards} · {status}",
                event=event.name,
                number=event.number,
                format=format_words(config.format.value),
                rounds=_n("{n} round", "{n} rounds", config.total_rounds),
                size=config.table_size,
                boards=", ".join(board_name(event.game_name, b) for b in config.boards),
                status=status_words(event.status),
            )
        ]
        if cut_words(event):
            parts.append(cut_words(event))
        if event.status == "paused" and event.settings.get("paused_because"):
            parts.append(
                _(
                    "The next round could not be started; an organiser's `/tournament start` tries again"
                    " and says why."
                )
            )
        if await self.runner.awaiting_review(event):
            parts.append(
                _(
                    "Round {round} is complete and waits for the organiser's review: check the results,"
                    " `/tournament correct` what needs it, then `/tournament confirm` pairs round {next}.",
                    round=event.round,
                    next=event.round + 1,
                )
            )
        if event.round:
            progress = await self.runner.progress(event)
            results = {
                r.table: r for r in await self.runner.store.results(event.id) if r.round == event.round
            }
            finished = sum(p.table.number in results for p in progress)
            parts.append(
                _(
                    "Round {round}: {finished}/{tables} tables finished.",
                    round=event.round,
                    finished=finished,
                    tables=len(progress),
                )
                + (" " + cut_words(event, event.round) if cut_words(event, event.round) else "")
            )
            now = self.runner.clock()
            for p in progress:
                result = results.get(p.table.number)
                if result is not None and result.void:
                    parts.append(
                        _(
                            "Table {table}: void ({reason}).",
                            table=p.table.number,
                            reason=result.correction_reason,
                        )
                    )
                elif p.status == "active" and p.waiting_for:
                    game = await game_number(self.bot, p.table.game_id)
                    waiting_on = ", ".join(seat_name_words(name) for name in p.waiting_for)
                    parts.append(
                        _(
                            "Table {table} (game #{game}) waits on {players} for {time}.",
                            table=p.table.number,
                            game=game,
                            players=waiting_on,
                            time=_hours(now - p.since),
                        )
                        if p.since is not None
                        else _(
                            "Table {table} (game #{game}) waits on {players}.",
                            table=p.table.number,
                            game=game,
                            players=waiting_on,
                        )
                    )
                elif result is None and p.status not in ("over", "active"):
                    parts.append(
                        _(
                            "Table {table}: game is {status}; an organiser can `/tournament replay` or"
                            " `/tournament void` it.",
                            table=p.table.number,
                            status=table_state_words(p.status),
                        )
                    )
            if with_standings:
                rows = await self.runner.standings(event.id, event.space)
                budget = MAX_CONTENT - len("\n".join(parts)) - 1
                parts.append(standings_fitting(rows, names, budget))
        else:
            entries = await self.runner.store.entries(event.id)
            entered = [e for e in entries if e.state == "entered"]
            waiting = [e for e in entries if e.state == "waiting"]
            counts = [_("Registered: {n}", n=len(entered))]
            if waiting:
                counts.append(_("waiting list: {n}", n=len(waiting)))
            if event.settings.get("checkin"):
                counts.append(_("checked in: {n}", n=sum(e.checked_in for e in entered)))
            parts.append(", ".join(counts) + ". " + _("Join with `/tournament join`."))
            parts += start_words(event)
        link = page_line(await self.bot.app.links.event(event.id, event.space))
        text = "\n".join(parts)
        if len(text) + len(link) > MAX_CONTENT:  # the link stays: the page has what was cut
            text = text[: MAX_CONTENT - 20 - len(link)] + "\n… (" + _("cut") + ")```"
        return text + link

    async def event_changed(self, event: EventRow) -> None:
        """Edit the event's status message in place (post it again only if it was deleted)."""
        guild_id, channel_id, message_id = await self.bot.storage.discord.event_route(event.id)
        if channel_id is None:
            return
        channel = self.bot.get_channel(channel_id)
        if not isinstance(channel, discord.TextChannel):
            return
        with using(await self.language(guild_id)):  # the status message is public: the server's words
            text = await self.status_text(event)
        if message_id is not None:
            try:
                await channel.get_partial_message(message_id).edit(
                    content=text, allowed_mentions=discord.AllowedMentions.none()
                )
                return
            except discord.NotFound:
                pass
            except discord.HTTPException:
                log.warning("event=%s: the status message could not be edited", event.id)
                return
        try:
            msg = await channel.send(text, allowed_mentions=discord.AllowedMentions.none())
        except discord.HTTPException:
            log.warning("event=%s: the status message could not be posted", event.id)
            return
        await self.bot.storage.discord.set_event_route(event.id, guild_id, channel_id, msg.id)


class TournamentCog(commands.Cog):
    """``/tournament`` (events), ``/leaderboard`` and ``/profile`` (ratings and records)."""

    tournament = app_commands.Group(
        name="tournament", description="Community events: register, run, standings"
    )

    def __init__(self, bot: ConductorBot) -> None:
        self.bot = bot

    @property
    def ui(self) -> GameUI:
        return self.bot.ui

    @property
    def runner(self) -> TournamentService:
        return self.bot.tournaments

    async def _event_ref(self, interaction: discord.Interaction, event: int | None) -> tuple[int, int]:
        """The event meant, as ``(id, number in this server)``: the option (the server's own event
        number), else this channel's newest unfinished event, else the server's only unfinished one,
        else this channel's newest event (to read a finished one's standings)."""
        space = space_ref(interaction.guild_id)
        if event is not None:
            found = await self.runner.store.event_numbered(space, event) if space else None
            if found is None:  # the same answer for another server's event as for one never made
                raise TournamentError("not_found", _("There is no event #{number} here.", number=event))
            return found, event
        chosen = await self._event_id(interaction, space)
        row = await self.runner.store.event(chosen)
        assert row is not None
        return chosen, row.number

    async def _event_id(self, interaction: discord.Interaction, space: str | None) -> int:
        every = await self.runner.store.events(space) if space else []
        here = [
            e
            for e in every
            if (await self.bot.storage.discord.event_route(e.id))[1] == interaction.channel_id
        ]
        candidates = [e for e in every if e.status != FINISHED]
        for e in here:
            if e.status != FINISHED:
                return e.id
        if len(candidates) == 1:
            return candidates[0].id
        if not candidates and here:
            return here[0].id
        if not candidates:
            raise TournamentError("no_event", _("There is no event in this server; pass event:<number>."))
        raise TournamentError("ambiguous", _("This server runs several events; pass event:<number>."))

    async def _run(self, interaction: discord.Interaction, work: Any) -> None:
        """Defer privately, run ``work()`` and answer its sentence; any refusal is a private sentence."""
        await self.ui.defer(interaction)
        try:
            text = await work()
        except TournamentError as exc:
            await self.ui.error(interaction, exc.said)
            return
        except ServiceError as exc:
            await self.ui.error(interaction, exc)
            return
        if isinstance(text, tuple) and isinstance(text[1], list):
            await self.ui.reply(interaction, text[0], files=text[1])
        elif isinstance(text, tuple):
            await self.ui.reply(interaction, text[0], file=text[1])
        else:
            await self.ui.reply(interaction, text)

    async def _admin(self, interaction: discord.Interaction) -> bool:
        """Server admins and holders of the server's game manager role organise any of its events."""
        return is_admin(
            interaction,
            interaction.guild_id,
            await GuildSettings(self.bot.storage).manager_role(interaction.guild_id),
        )

    async def _may_create(self, interaction: discord.Interaction) -> None:
        """Refuses a member the server's setting (``/tournament creators``) does not let create
        events; server admins and game managers always may."""
        setting = await GuildSettings(self.bot.storage).event_creators(interaction.guild_id)
        if setting == "anyone" or await self._admin(interaction):
            return
        if setting.startswith("role:"):
            role_id = int(setting.removeprefix("role:"))
            user = interaction.user
            if isinstance(user, discord.Member) and user.get_role(role_id) is not None:
                return
            raise TournamentError(
                "forbidden",
                _(
                    "In this server, events are created by holders of the role <@&{role}>, the server"
                    " admins and game managers.",
                    role=role_id,
                ),
            )
        raise TournamentError(
            "forbidden", _("In this server, only the server admins and game managers create events.")
        )

    @tournament.command(
        name="creators",
        description="Who may create events in this server: anyone, a role, or admins (server admins)",
    )
    @app_commands.describe(
        who="anyone, holders of a role, or only admins and game managers", role="The role (with who:role)"
    )
    @app_commands.choices(who=CREATOR_CHOICES)
    async def creators(
        self, interaction: discord.Interaction, who: str, role: discord.Role | None = None
    ) -> None:
        async def work() -> str:
            if interaction.guild_id is None:
                raise TournamentError("no_space", _("Events are run in a server's text channel."))
            perms = interaction.permissions
            if not (perms.manage_guild or perms.administrator):
                raise TournamentError(
                    "forbidden", _("Only a server admin (Manage Server) can choose who creates events.")
                )
            if who == "role":
                if role is None or role.is_default():
                    raise TournamentError(
                        "bad_option", _("Name the role whose holders may create events (not @everyone).")
                    )
                await GuildSettings(self.bot.storage).set_event_creators(
                    interaction.guild_id, f"role:{role.id}"
                )
                return _(
                    "Events in this server are now created by holders of <@&{role}>, the server admins"
                    " and game managers.",
                    role=role.id,
                )
            if who not in ("anyone", "admins"):
                raise TournamentError(
                    "bad_option", _("Choose anyone, role or admins, not {who}.", who=repr(who))
                )
            await GuildSettings(self.bot.storage).set_event_creators(interaction.guild_id, who)
            if who == "anyone":
                return _("Any member of this server can now create events.")
            return _("Only the server admins and game managers can now create events in this server.")

        await self._run(interaction, work)

    @tournament.command(name="create", description="Create an event in this channel")
    @app_commands.describe(
        name="The event's name",
        game="Which game",
        boards="Board, or boards separated by commas",
        table_size="Players per table",
        format="swiss, swiss_final, groups_final or swiss_cut",
        rounds="Swiss rounds",
        timer_hours="Hours per turn (0: no timer)",
        timeout="What happens when the turn timer runs out",
        deadline_hours="Hours per round before unfinished games are played out by AIs (0: none)",
        points="Points per place, e.g. 6,5,3,1 (several scales separated by ;)",
        rated="Change ratings",
        cap="Most players (0: no cap; later entries wait)",
        checkin="Only checked-in players are seated",
        final_size="Players at the final table (swiss_cut: at every table of the cut)",
        groups="Groups (groups_final)",
        cut="Players in the top cut (swiss_cut), e.g. 16: four tables of 4, their winners at the final",
        count_ai_seats="Rate a seat the AI played for a player (dropped, adjudicated) like any other",
        tiebreaks="Ranking order, e.g. place_points,wins,wbc_ratio,total_score,tickets_completed,head_to_head",
        seed_by_rating="Seed round one (or the groups) by this server's ratings instead of a draw",
        pairing="automatic: pair each round when the last table ends; review: you confirm the results first",
        late_entry="What a late entry gets for each round it missed: zero, its average, or fixed points",
        late_points="The fixed points per missed round (late_entry:fixed)",
        start="When it starts by itself: hours from now (48) or a date, 2026-12-05 18:00+01:00 (UTC by default)",
        checkin_hours="Check-in window: hours before the start (with start); who has not checked in is not seated",
        take_backs="Players may take back a move that showed nothing hidden (off: every move stands)",
    )
    @app_commands.choices(
        game=GAME_CHOICES,
        format=FORMAT_CHOICES,
        timeout=POLICY_CHOICES,
        pairing=PAIRING_CHOICES,
        late_entry=LATE_CHOICES,
    )
    async def create(
        self,
        interaction: discord.Interaction,
        name: str,
        game: str = DEFAULT_GAME,
        boards: str | None = None,
        table_size: app_commands.Range[int, 2, 6] = 4,
        format: str = "swiss",
        rounds: app_commands.Range[int, 1, 30] = 3,
        timer_hours: float = 24.0,
        timeout: str = "ai",
        deadline_hours: float = 0.0,
        points: str = "",
        rated: bool = True,
        cap: app_commands.Range[int, 0, 512] = 0,
        checkin: bool = False,
        final_size: app_commands.Range[int, 0, 6] = 0,
        groups: app_commands.Range[int, 0, 16] = 0,
        cut: app_commands.Range[int, 0, 512] = 0,
        count_ai_seats: bool = False,
        tiebreaks: str = "",
        seed_by_rating: bool = False,
        pairing: str = "automatic",
        late_entry: str = "zero",
        late_points: app_commands.Range[float, 0, 1000] = 0.0,
        start: str | None = None,
        checkin_hours: app_commands.Range[float, 0, 336] = 0.0,
        take_backs: bool = True,
    ) -> None:
        async def work() -> str:
            if interaction.guild_id is None or not isinstance(interaction.channel, discord.TextChannel):
                raise TournamentError("no_space", _("Events are run in a server's text channel."))
            await self._may_create(interaction)
            player, where = who(interaction)
            board_list = None if boards is None else tuple(b.strip() for b in boards.split(",") if b.strip())
            event = await self.runner.create_event(
                space=where,
                creator=player,
                name=name,
                game_name=game,
                boards=board_list,
                table_size=table_size,
                format=format,
                rounds=rounds,
                turn_hours=timer_hours,
                timeout_policy=timeout,
                deadline_hours=deadline_hours,
                points=parse_points(points),
                rated=rated,
                cap=cap,
                checkin=checkin,
                final_size=final_size,
                groups=groups,
                cut_size=cut,
                count_ai_takeovers=count_ai_seats,
                ranking=[c.strip() for c in tiebreaks.split(",") if c.strip()],
                seed_round_one_by_rating=seed_by_rating,
                # the tables' games speak the server's language, as a /ttr new game would
                language=await self.bot.tournament_discord.language(interaction.guild_id),
                pairing=pairing,
                late_entry=late_entry,
                late_points=late_points,
                starts_at=None if start is None else parse_start(start, self.runner.clock()),
                checkin_hours=checkin_hours,
                take_backs=take_backs,
            )
            await self.bot.storage.discord.set_event_route(
                event.id, interaction.guild_id, interaction.channel_id, None
            )
            await self.bot.tournament_discord.event_changed(event)
            if "starts_at" in event.settings:
                return _(
                    "Created event #{number} **{event}**. Players join with `/tournament join`; it starts"
                    " by itself {when}.",
                    number=event.number,
                    event=event.name,
                    when=f"<t:{int(event.settings['starts_at'])}:F>",
                )
            return _(
                "Created event #{number} **{event}**. Players join with `/tournament join`; start it"
                " with `/tournament start`.",
                number=event.number,
                event=event.name,
            )

        await self._run(interaction, work)

    @tournament.command(name="join", description="Register for an event (past the cap: the waiting list)")
    @app_commands.describe(event=EVENT_DESC)
    async def join(self, interaction: discord.Interaction, event: int | None = None) -> None:
        async def work() -> str:
            player, where = who(interaction)
            eid, num = await self._event_ref(interaction, event)
            state = await self.runner.join(eid, where, player, interaction.user.display_name)
            return (
                _("You are registered for event #{number}.", number=num)
                if state == "entered"
                else _("Event #{number} is full; you are on its waiting list.", number=num)
            )

        await self._run(interaction, work)

    @tournament.command(name="leave", description="Leave an event before it starts")
    @app_commands.describe(event=EVENT_DESC)
    async def leave(self, interaction: discord.Interaction, event: int | None = None) -> None:
        async def work() -> str:
            player, where = who(interaction)
            eid, num = await self._event_ref(interaction, event)
            promoted = await self.runner.leave(eid, where, player)
            moved = (
                " " + _("{player} moves up from the waiting list.", player=f"<@{user_id_of(promoted)}>")
                if promoted
                else ""
            )
            return _("You left event #{number}.", number=num) + moved

        await self._run(interaction, work)

    @tournament.command(name="checkin", description="Confirm you will play when the event starts")
    @app_commands.describe(event=EVENT_DESC)
    async def checkin(self, interaction: discord.Interaction, event: int | None = None) -> None:
        async def work() -> str:
            player, where = who(interaction)
            eid, num = await self._event_ref(interaction, event)
            await self.runner.checkin(eid, where, player)
            return _("You are checked in for event #{number}.", number=num)

        await self._run(interaction, work)

    @tournament.command(name="start", description="Start the event, or go on after a pause (organisers)")
    @app_commands.describe(event=EVENT_DESC)
    async def start(self, interaction: discord.Interaction, event: int | None = None) -> None:
        async def work() -> str:
            player, where = who(interaction)
            eid, num = await self._event_ref(interaction, event)
            row = await self.runner.start(eid, where, player, is_admin=await self._admin(interaction))
            return _(
                "Event #{number} is running: round {round} is being played.", number=num, round=row.round
            )

        await self._run(interaction, work)

    @tournament.command(
        name="confirm", description="Confirm the round's results and pair the next round (organisers)"
    )
    @app_commands.describe(event=EVENT_DESC)
    async def confirm(self, interaction: discord.Interaction, event: int | None = None) -> None:
        async def work() -> str:
            player, where = who(interaction)
            eid, num = await self._event_ref(interaction, event)
            row = await self.runner.confirm(eid, where, player, is_admin=await self._admin(interaction))
            return _(
                "Results confirmed: round {round} of event #{number} is paired.", round=row.round, number=num
            )

        await self._run(interaction, work)

    @tournament.command(name="pause", description="Pair no new round until started again (organisers)")
    @app_commands.describe(event=EVENT_DESC)
    async def pause(self, interaction: discord.Interaction, event: int | None = None) -> None:
        async def work() -> str:
            player, where = who(interaction)
            eid, num = await self._event_ref(interaction, event)
            await self.runner.pause(eid, where, player, is_admin=await self._admin(interaction))
            return _(
                "Event #{number} is paused: the current games go on; `/tournament start` pairs the next round.",
                number=num,
            )

        await self._run(interaction, work)

    @tournament.command(name="drop", description="Leave a running event (organisers: drop a player)")
    @app_commands.describe(user="Who drops (default: you)", event=EVENT_DESC)
    async def drop(
        self, interaction: discord.Interaction, user: discord.User | None = None, event: int | None = None
    ) -> None:
        async def work() -> str:
            player, where = who(interaction)
            eid, num = await self._event_ref(interaction, event)
            target = player_ref(user.id) if user is not None else player
            game_id = await self.runner.drop(
                eid, where, player, target, is_admin=await self._admin(interaction)
            )
            seat = (
                " " + _("An AI plays out the seat in game #{game}.", game=await self.ui.number(game_id))
                if game_id is not None
                else ""
            )
            if target == player:
                return _("You have dropped out of event #{number}.", number=num) + seat
            return (
                _(
                    "{player} has dropped out of event #{number}.",
                    player=user.display_name if user else "",
                    number=num,
                )
                + seat
            )

        await self._run(interaction, work)

    @tournament.command(name="add", description="Enter a player yourself (organisers)")
    @app_commands.describe(user="Who to enter", event=EVENT_DESC)
    async def add(
        self, interaction: discord.Interaction, user: discord.User, event: int | None = None
    ) -> None:
        async def work() -> str:
            player, where = who(interaction)
            eid, num = await self._event_ref(interaction, event)
            await self.runner.add(
                eid,
                where,
                player,
                player_ref(user.id),
                user.display_name,
                is_admin=await self._admin(interaction),
            )
            return _("{player} is entered in event #{number}.", player=user.display_name, number=num)

        await self._run(interaction, work)

    @tournament.command(name="correct", description="Correct a table's ranks, with a reason (organisers)")
    @app_commands.describe(
        round="Round number",
        table="Table number",
        ranks="Ranks in seat order, e.g. 2,1,3,4",
        reason="Why (kept with the result)",
        event=EVENT_DESC,
    )
    async def correct(
        self,
        interaction: discord.Interaction,
        round: int,
        table: int,
        ranks: str,
        reason: str,
        event: int | None = None,
    ) -> None:
        async def work() -> str:
            player, where = who(interaction)
            eid, num = await self._event_ref(interaction, event)
            result = await self.runner.correct(
                eid,
                where,
                player,
                round,
                table,
                parse_ranks(ranks),
                reason,
                is_admin=await self._admin(interaction),
            )
            return _(
                "Round {round} table {table} of event #{number} corrected ({reason}).",
                round=round,
                table=table,
                number=num,
                reason=result.correction_reason,
            )

        await self._run(interaction, work)

    @tournament.command(
        name="void", description="Void a table that cannot finish: no points, reason kept (organisers)"
    )
    @app_commands.describe(
        round="Round number", table="Table number", reason="Why (kept with the result)", event=EVENT_DESC
    )
    async def void(
        self, interaction: discord.Interaction, round: int, table: int, reason: str, event: int | None = None
    ) -> None:
        async def work() -> str:
            player, where = who(interaction)
            eid, num = await self._event_ref(interaction, event)
            await self.runner.void_table(
                eid, where, player, round, table, reason, is_admin=await self._admin(interaction)
            )
            return _(
                "Round {round} table {table} of event #{number} is void: no points for anyone ({reason}).",
                round=round,
                table=table,
                number=num,
                reason=reason.strip(),
            )

        await self._run(interaction, work)

    @tournament.command(
        name="replay", description="Play a table of this round again as a new game (organisers)"
    )
    @app_commands.describe(table="Table number", reason="Why (kept in the event's record)", event=EVENT_DESC)
    async def replay(
        self, interaction: discord.Interaction, table: int, reason: str, event: int | None = None
    ) -> None:
        async def work() -> str:
            player, where = who(interaction)
            eid, num = await self._event_ref(interaction, event)
            row = await self.runner.event(eid, where)
            game_id = await self.runner.replay_table(
                eid, where, player, row.round, table, reason, is_admin=await self._admin(interaction)
            )
            return _(
                "Table {table} of round {round} is replayed as game #{game} (same seats, new deal).",
                table=table,
                round=row.round,
                game=await self.ui.number(game_id),
            )

        await self._run(interaction, work)

    @tournament.command(name="standings", description="The standings with every tie-break column")
    @app_commands.describe(event=EVENT_DESC, page="Page of the table (20 players a page)")
    async def standings(
        self,
        interaction: discord.Interaction,
        event: int | None = None,
        page: app_commands.Range[int, 1, 100] = 1,
    ) -> None:
        async def work() -> tuple[str, list[discord.File]]:
            _who, where = who(interaction)
            eid, num = await self._event_ref(interaction, event)
            row = await self.runner.event(eid, where)
            rows = await self.runner.standings(eid, where)
            names = await self.bot.tournament_discord.names(eid)
            pages = max(1, -(-len(rows) // STANDINGS_PAGE))
            if page > pages:
                raise TournamentError(
                    "no_page",
                    _n("The standings have {n} page.", "The standings have {n} pages.", pages),
                )
            shown = rows[(page - 1) * STANDINGS_PAGE : page * STANDINGS_PAGE]
            head = _(
                "**{event}** (event #{number}) · {status} · page {page} of {pages}, players {first}–{last} of {total}",
                event=row.name,
                number=num,
                status=status_words(row.status),
                page=page,
                pages=pages,
                first=(page - 1) * STANDINGS_PAGE + 1 if shown else 0,
                last=(page - 1) * STANDINGS_PAGE + len(shown),
                total=len(rows),
            )
            files = await self.bot.tournament_discord.standings_files(row, rows, page)
            text = head + "\n" + standings_table(shown, names)
            # the round's progress (who holds up which table) first, when it fits beside the page
            progress = await self.bot.tournament_discord.status_text(row, with_standings=False)
            if len(progress) + 1 + len(text) <= MAX_CONTENT:
                text = progress + "\n" + text
            return text, files

        await self._run(interaction, work)

    @tournament.command(name="pairings", description="The tables of a round")
    @app_commands.describe(
        round="Round number (default: the current one)", event=EVENT_DESC, page="Page (10 tables a page)"
    )
    async def pairings(
        self,
        interaction: discord.Interaction,
        round: int | None = None,
        event: int | None = None,
        page: app_commands.Range[int, 1, 100] = 1,
    ) -> None:
        async def work() -> tuple[str, list[discord.File]]:
            _who, where = who(interaction)
            eid, num = await self._event_ref(interaction, event)
            row = await self.runner.event(eid, where)
            number = round or row.round
            tables = await self.runner.store.tables(eid, number)
            if not tables:
                raise TournamentError(
                    "no_round", _("Event #{number} has no round {round}.", number=num, round=number)
                )
            names = await self.bot.tournament_discord.names(eid)
            results = {r.table: r for r in await self.runner.store.results(eid) if r.round == number}
            pages = max(1, -(-len(tables) // PAIRINGS_PAGE))
            if page > pages:
                raise TournamentError(
                    "no_page", _n("The pairings have {n} page.", "The pairings have {n} pages.", pages)
                )
            files = [await self.bot.tournament_discord.pairings_csv(row, tables)]
            lines = [_("**{event}**, round {round}:", event=row.name, round=number)]
            if pages > 1:
                lines[0] += " " + _("page {page} of {pages}", page=page, pages=pages)
            if cut_words(row, number):
                lines[0] += " " + cut_words(row, number)
            for t in tables[(page - 1) * PAIRINGS_PAGE : page * PAIRINGS_PAGE]:
                seats = ", ".join(seat_name_words(names.get(p, p)) for p in t.seats)
                result = results.get(t.number)
                done = (
                    ""
                    if result is None
                    else " · "
                    + (
                        _("void ({reason})", reason=result.correction_reason)
                        if result.void
                        else _("finished (adjudicated)")
                        if t.adjudicated
                        else _("finished")
                    )
                )
                lines.append(
                    _(
                        "Table {table} ({board}, game #{game}): {seats}",
                        table=t.number,
                        board=board_name(row.game_name, t.board),
                        game=await game_number(self.bot, t.game_id),
                        seats=seats,
                    )
                    + done
                )
            return "\n".join(lines), files

        await self._run(interaction, work)

    @tournament.command(name="export", description="Every game (config, seed, log) and a digest of the event")
    @app_commands.describe(event=EVENT_DESC)
    async def export(self, interaction: discord.Interaction, event: int | None = None) -> None:
        async def work() -> tuple[str, discord.File]:
            _who, where = who(interaction)
            eid, num = await self._event_ref(interaction, event)
            data = await self.runner.export(eid, where)
            raw = json.dumps(data, indent=1, sort_keys=True, default=str).encode()
            return (
                _n(
                    "Event #{number}: {n} game. Digest (SHA-256): `{digest}`",
                    "Event #{number}: {n} games. Digest (SHA-256): `{digest}`",
                    len(data["games"]),
                    number=num,
                    digest=data["digest"],
                ),
                discord.File(io.BytesIO(raw), filename=f"event-{num}.json"),
            )

        await self._run(interaction, work)

    @tournament.command(name="listed", description="Whether the event's web page is listed (organisers)")
    @app_commands.describe(listed="Off: only people with its link see the page", event=EVENT_DESC)
    async def listed(self, interaction: discord.Interaction, listed: bool, event: int | None = None) -> None:
        async def work() -> str:
            player, where = who(interaction)
            eid, num = await self._event_ref(interaction, event)
            row = await self.runner.organised(eid, where, player, is_admin=await self._admin(interaction))
            await public_id(self.bot.storage.web, "event", eid)
            await self.bot.storage.web.set_unlisted("event", str(eid), not listed)
            url = await self.bot.app.links.event(eid, row.space)
            said = (
                _("The web page of event #{number} is listed.", number=num)
                if listed
                else _(
                    "The web page of event #{number} is unlisted: only people with its link see it.",
                    number=num,
                )
            )
            return "✓ " + said + page_line(url)

        await self._run(interaction, work)

    @app_commands.command(
        name="leaderboard", description="This server's ratings, or every server's for players who allow it"
    )
    @app_commands.describe(
        game="Which game",
        board="One board's ratings (default: the whole game)",
        min_games="Only players with at least this many rated games",
        scope="here: this server; everywhere: every server, only players who chose to be shown",
    )
    @app_commands.choices(game=GAME_CHOICES, scope=SCOPE_CHOICES)
    async def leaderboard(
        self,
        interaction: discord.Interaction,
        game: str = DEFAULT_GAME,
        board: str | None = None,
        min_games: app_commands.Range[int, 0, 1000] = 0,
        scope: str = "here",
    ) -> None:
        async def work() -> str:
            if scope == "everywhere":
                return await self._leaderboard_everywhere(game, board, min_games)
            if scope != "here":
                raise TournamentError(
                    "bad_scope", _("The scope is here or everywhere, not {scope}.", scope=repr(scope))
                )
            _who, where = who(interaction)
            if where is None:
                raise TournamentError("no_space", _("Leaderboards belong to a server; ask in one."))
            book = await self.runner.store.rating_book(where)
            rows = leaderboard(book, game, board, min_games)
            if not rows:
                return _("No rated games here yet.")
            names = await self._names(where)
            columns = [
                ("#", 3, ">"),
                (_p("leaderboard column", "Player"), 18, "<"),
                (_p("leaderboard column", "Rating"), 6, ">"),
                (_p("leaderboard column", "Mean"), 6, ">"),
                ("±", 5, ">"),
                (_p("leaderboard column", "Games"), 5, ">"),
            ]
            lines = fixed_table(
                columns,
                [
                    [
                        str(i),
                        names.get(r.player, r.player),
                        decimal(r.ordinal),
                        decimal(r.mu),
                        decimal(r.sigma),
                        str(r.games),
                    ]
                    for i, r in enumerate(rows[:25], 1)
                ],
            )
            return (
                _(
                    "Ratings ({which}): mean − 3 × uncertainty",
                    which=game_name_words(game) + (", " + board_name(game, board) if board else ""),
                )
                + "\n```\n"
                + "\n".join(lines)
                + "\n```"
            )

        await self._run(interaction, work)

    async def _leaderboard_everywhere(self, game: str, board: str | None, min_games: int) -> str:
        """Every server's ratings of the players who chose to be shown (``/profile share:``): one
        row per player and server, each server's rating its own."""
        store = self.runner.store
        rows = shared_leaderboard(
            await store.shared_books(), await store.shared_players(), game, board, min_games
        )
        if not rows:
            return _("No player who chose to appear in every server's leaderboards has a rated game yet.")
        names: dict[str, dict[str, str]] = {}
        cells = []
        for i, (space, r) in enumerate(rows[:25], 1):
            if space not in names:
                names[space] = await self._names(space)
            cells.append(
                [
                    str(i),
                    names[space].get(r.player, r.player),
                    self._server_name(space),
                    decimal(r.ordinal),
                    decimal(r.mu),
                    decimal(r.sigma),
                    str(r.games),
                ]
            )
        columns = [
            ("#", 3, ">"),
            (_p("leaderboard column", "Player"), 18, "<"),
            (_p("leaderboard column", "Server"), 18, "<"),
            (_p("leaderboard column", "Rating"), 6, ">"),
            (_p("leaderboard column", "Mean"), 6, ">"),
            ("±", 5, ">"),
            (_p("leaderboard column", "Games"), 5, ">"),
        ]
        return (
            _(
                "Ratings everywhere ({which}), players who chose to be shown; each server's rating is its own:"
                " mean − 3 × uncertainty",
                which=game_name_words(game) + (", " + board_name(game, board) if board else ""),
            )
            + "\n```\n"
            + "\n".join(fixed_table(columns, cells))
            + "\n```"
        )

    def _server_name(self, space: str) -> str:
        guild_id = space.removeprefix(SPACE_PREFIX)
        guild = self.bot.get_guild(int(guild_id)) if guild_id.isdigit() else None
        return guild.name if guild is not None else _("another server")

    async def _names(self, space: str) -> dict[str, str]:
        names: dict[str, str] = {}
        for event in await self.runner.store.events(space):
            for e in await self.runner.store.entries(event.id):
                names.setdefault(e.player, e.name)
        return names

    @app_commands.command(name="profile", description="Event games, wins, average score and rating history")
    @app_commands.describe(
        user="Whose profile (default: yours)",
        game="Which game",
        share="Appear in every server's leaderboards (/leaderboard scope:everywhere)",
        page="Have a public web page of your recent games (yours only; False removes it)",
    )
    @app_commands.choices(game=GAME_CHOICES)
    async def profile(
        self,
        interaction: discord.Interaction,
        user: discord.User | None = None,
        game: str = DEFAULT_GAME,
        share: bool | None = None,
        page: bool | None = None,
    ) -> None:
        async def work() -> str:
            me, where = who(interaction)
            if page is not None:
                if user is not None and user.id != interaction.user.id:
                    raise TournamentError(
                        "not_yours", _("Only each player chooses whether they have a web page.")
                    )
                url = await self.bot.app.links.set_player_page(me, page)
                if not page:
                    return _("You have no web page now; its old link finds nothing.")
                if url is None:
                    return _("Your web page is on, but this bot serves no web pages.")
                return _("Your web page, with your recent games: {url}", url=url)
            if share is not None:
                if user is not None and user.id != interaction.user.id:
                    raise TournamentError(
                        "not_yours",
                        _("Only each player chooses whether they appear in other servers' leaderboards."),
                    )
                await self.runner.store.set_sharing(me, share)
                if share:
                    return _(
                        "You now appear in every server's leaderboards (/leaderboard scope:everywhere), "
                        "with each server's rating and the server's name. /profile share:False undoes it."
                    )
                return _(
                    "You no longer appear in other servers' leaderboards; each server still shows its own."
                )
            if where is None:
                raise TournamentError("no_space", _("Profiles belong to a server; ask in one."))
            target = user or interaction.user
            player = player_ref(target.id)
            results = [
                result
                for event in await self.runner.store.events(where)
                if event.game_name == game
                for result in await self.runner.store.results(event.id)
            ]
            record = player_record(player, results)
            if not record.games:
                return _(
                    "{player} has no finished event game of {game} here.",
                    player=target.display_name,
                    game=game_name_words(game),
                )
            lines = [
                "**"
                + target.display_name
                + "** · "
                + game_name_words(game)
                + ": "
                + ", ".join(
                    [
                        _n("{n} game", "{n} games", record.games),
                        _n("{n} win", "{n} wins", record.wins),
                        _("average score {score}", score=decimal(record.average_score)),
                    ]
                )
            ]
            for (board, size), (played, won) in sorted(record.by_board.items()):
                lines.append(
                    _(
                        "{board}, {size} players: {won}/{played} won",
                        board=board_name(game, board),
                        size=size,
                        won=won,
                        played=played,
                    )
                )
            lines.append(profile_extras(record))
            book = await self.runner.store.rating_book(where)
            history = player_history(book, player, game)
            if history:
                rating = book.rating(player, game)
                lines.append(
                    _n(
                        "Rating {rating} (mean {mean} ± {sigma}, {n} rated game). History:",
                        "Rating {rating} (mean {mean} ± {sigma}, {n} rated games). History:",
                        rating.games,
                        rating=decimal(rating.ordinal),
                        mean=decimal(rating.mu),
                        sigma=decimal(rating.sigma),
                    )
                )
                for change in history[-10:]:
                    note = "" if change.counted else " " + _("(AI played the seat: not rated)")
                    lines.append(
                        _(
                            "game #{game}: place {rank}, {before} → {after}",
                            game=await game_number(self.bot, change.game_id),
                            rank=change.rank,
                            before=decimal(change.before.ordinal),
                            after=decimal(change.after.ordinal),
                        )
                        + note
                    )
            return "\n".join(lines)

        await self._run(interaction, work)


async def setup(bot: ConductorBot) -> None:
    await bot.add_cog(TournamentCog(bot))
