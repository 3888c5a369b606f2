"""Slash commands, grouped so the command list stays short.

``/ttr new|join|leave|addai|start|abort|kick|replace|reclaim|approve|manager|rules|vacation|sync``,
``/play draw|claim|tickets|keep|station|tunnel|passenger|action|resign``,
``/view hand|board|scores|log`` and ``/games``. Commands only parse options and call
:class:`~bot.discord_app.ui.GameUI` / :class:`~bot.service.GameService`; autocomplete is served
from memory and every final value is validated again by the rules.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import io
import logging
import os
import re
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import discord
from discord import app_commands
from discord.ext import commands

from bot.commands.rules import file_setting_for, settings_lines
from bot.discord_app import choices
from bot.discord_app.choices import BOARD_CHOICES, GAME_CHOICES, GAME_DESC
from bot.discord_app.game_uis import registered_game_uis
from bot.discord_app.settings import GuildSettings
from bot.discord_app.store import player_ref
from bot.discord_app.ui import MAX_CONTENT, GameUI, line_text, match, messages_of, who
from bot.games.catalog import front_end
from bot.present import (
    board_text,
    board_words,
    in_language,
    render_board_png,
    scores_text,
    title_words,
)
from bot.present_rules import rules_in_words
from bot.service import REMIND_BY, TIMEOUT_POLICIES, Loaded, ServiceError, hours_text, timer_text
from bot.stream import Outcome
from lang import SOURCE_LANGUAGE, M, Msg, _, _n, language_name, languages, normalise, text_of, using
from lang.refusals import refusal_of
from rules.errors import IllegalAction
from rules.games import DEFAULT_GAME, GAMES, find_game
from rules.registry import GameSpec

if TYPE_CHECKING:
    from bot.discord_app.client import ConductorBot

log = logging.getLogger("conductor.discord")
T = TypeVar("T")

# Built from the registry: a new game or board folder appears here with no edit.
POLICY_CHOICES = [
    app_commands.Choice(
        name={
            "ai": "an AI plays the turn",
            "skip": "the turn passes",
            "forfeit": "an AI takes the seat over",
        }.get(p, p),
        value=p,
    )
    for p in TIMEOUT_POLICIES
]
REMIND_CHOICES = [
    app_commands.Choice(name={"thread": "in the game's thread", "dm": "by direct message"}[r], value=r)
    for r in REMIND_BY
]
# Each language by its own name (CLDR), from the catalog folders: a new catalog is a new choice.
LANGUAGE_CHOICES = [app_commands.Choice(name=language_name(code), value=code) for code in languages()][:25]
PICK_TIMEOUT = 300.0  # seconds a "which game?" menu stays usable
CARDS_DESC = "First Class: a card file of your group's own (CSV in the template format)"
MAX_CARD_FILE = 256 * 1024  # bytes; a whole printed card list in the template format is a few dozen kB


def esc(name: str) -> str:
    """A person's name as Discord shows it literally (``__dan__`` is not underlined)."""
    return discord.utils.escape_markdown(name)


class _GamePicker(discord.ui.View):
    """A private "which game?" menu: the player's games where it is their turn; picking one runs
    the command on it."""

    def __init__(
        self, choices: list[tuple[int, str]], then: Callable[[discord.Interaction, int], Awaitable[None]]
    ) -> None:
        super().__init__(timeout=PICK_TIMEOUT)
        select: discord.ui.Select[_GamePicker] = discord.ui.Select(
            placeholder=_("Which game?"),
            options=[discord.SelectOption(label=label[:100], value=str(gid)) for gid, label in choices[:25]],
        )

        async def chosen(interaction: discord.Interaction) -> None:
            self.stop()
            await then(interaction, int(select.values[0]))

        select.callback = chosen  # type: ignore[method-assign]
        self.add_item(select)


def card_file_words(spec: GameSpec, key: str) -> str:
    """A card-file setting's name in the reader's language (the game's words; its label else)."""
    return front_end(spec.name).words.card_file_words(key) or spec.setting(key).label


def board_owner(board: str | None) -> tuple[GameSpec, dict[str, Any]]:
    """The game a board belongs to and the config that picks it; no board (or one no game has):
    the default game, on its first board when none is named."""
    if board is not None:
        for spec in GAMES.values():
            if any(b.id == board for b in spec.boards()):
                return spec, spec.config_for(board=board)
    spec = find_game(DEFAULT_GAME)
    boards = spec.boards()
    return spec, spec.config_for(board=board or (boards[0].id if boards else None))


class AttachedCards:
    """A group's own card files attached to ``/ttr new`` (First Class), saved where the game reads
    them: ``<database folder>/card-files/<content hash>/<file name>``, so the lobby can deal from
    them at its start, also after a restart (a started game keeps the dealt cards in its snapshot).
    Each file is told apart by its header, as ``conductor play --cards`` does; every refusal is the
    loader's sentence with the attachment's own name in it, and nothing is kept after a refusal.
    A file Discord will not give, too large, not text or given twice is refused with a
    :class:`ServiceError` saying so in the reader's language."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.names: dict[str, str] = {}  # saved path -> the attachment's name
        self.created: list[Path] = []

    async def config(self, spec: GameSpec, attachments: list[discord.Attachment]) -> dict[str, str]:
        """The ``file`` settings the attachments fill (``{"deck": path, ...}``); ServiceError for a
        file too large, not text or given twice, IllegalAction (the loader's) for one that is not one
        of the game's card templates."""
        config: dict[str, str] = {}
        for attachment in attachments:
            name = attachment.filename
            self._check_size(name, attachment.size)
            try:
                data = await attachment.read()
            except discord.HTTPException:
                raise ServiceError(
                    "bad_setting",
                    M("{name} could not be downloaded from Discord; attach it again.", name=name),
                ) from None
            self._check_size(name, len(data))  # the size Discord announced is not trusted alone
            try:
                text = data.decode("utf-8-sig")
            except UnicodeDecodeError:
                raise ServiceError(
                    "bad_setting",
                    M(
                        "{name} is not a text file in UTF-8; save it as CSV (UTF-8) and attach it again.",
                        name=name,
                    ),
                ) from None
            path = await asyncio.to_thread(self._save, name, text)
            try:
                key = file_setting_for(spec, path)
            except IllegalAction as exc:  # kept whole (its code and facts), the files named as attached
                exc.message = self.words(exc.message)
                raise
            if key in config:
                raise ServiceError(
                    "bad_setting",
                    M(
                        "Two files for {setting}: {first} and {second}.",
                        setting=card_file_words(spec, key),
                        first=self.names[config[key]],
                        second=name,
                    ),
                )
            config[key] = path
        return config

    @staticmethod
    def _check_size(name: str, size: int) -> None:
        if size > MAX_CARD_FILE:
            raise ServiceError(
                "bad_setting",
                M(
                    "{name} is {size} bytes; a card file may be at most {limit} kB.",
                    name=name,
                    size=f"{size:,}",
                    limit=MAX_CARD_FILE // 1024,
                ),
            )

    def _save(self, name: str, text: str) -> str:
        data = text.encode("utf-8")
        safe = re.sub(r"[^A-Za-z0-9._-]", "_", name)[-80:].lstrip(".") or "cards.csv"
        target = self.folder / hashlib.sha256(data).hexdigest()[:16] / safe
        if not target.exists():
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(data)
            self.created.append(target)
        # Relative to where the bot runs when inside it: the deck label quotes the path to players.
        relative = os.path.relpath(target)
        path = str(target) if relative.startswith("..") else relative
        self.names[path] = name
        return path

    def words(self, message: str) -> str:
        """``message`` with each saved file's path replaced by the name it was attached with."""
        for path, name in sorted(self.names.items(), key=lambda item: -len(item[0])):
            message = message.replace(path, name)
        return message

    def discard(self) -> None:
        """Remove the files this upload saved (the game they were for was not created)."""
        for path in self.created:
            with contextlib.suppress(OSError):
                path.unlink()
                path.parent.rmdir()
        self.created.clear()


class _Base(commands.Cog):
    def __init__(self, bot: ConductorBot) -> None:
        self.bot = bot

    @property
    def ui(self) -> GameUI:
        return self.bot.ui

    async def _open(
        self,
        interaction: discord.Interaction,
        game: int | None,
        fetch: Callable[[int], Awaitable[T]],
        *,
        lobby: bool = False,
        by_number: bool = True,
    ) -> tuple[int, T] | None:
        """Defer privately, find the game (``lobby``: this channel's newest game first) and ``fetch(gid)``.
        ``game`` is the number the user typed (counted per server), or with ``by_number=False`` a
        game id the bot itself chose. A refusal (ServiceError) is answered privately and gives None:
        the command stops there."""
        await self.ui.defer(interaction)
        try:
            if by_number:
                game = await self.ui.game_numbered(interaction, game)
            gid = await (
                self._lobby_game(interaction, game) if lobby else self.ui.resolve_game(interaction, game)
            )
            return gid, await fetch(gid)
        except ServiceError as exc:
            await self.ui.error(interaction, exc)
            return None

    async def _lobby_game(self, interaction: discord.Interaction, game: int | None) -> int:
        if game is not None:
            return game
        if interaction.channel_id is not None:
            ids = await self.ui.store.games_in_channel(interaction.channel_id)
            if ids:
                return ids[0]
        return await self.ui.resolve_game(interaction, None)

    async def _in_game_thread(self, interaction: discord.Interaction) -> bool:
        """Whether the interaction comes from a game's own thread."""
        cid = interaction.channel_id
        if cid is None:
            return False
        for gid in await self.ui.store.games_in_channel(cid):
            if (await self.ui.store.route(gid)).thread_id == cid:
                return True
        return False

    async def _on_my_game(
        self,
        interaction: discord.Interaction,
        game: int | None,
        then: Callable[[discord.Interaction, int | None], Awaitable[None]],
    ) -> None:
        """Run a move on the game the player means. A number or a game's thread says it; elsewhere
        (a parent channel, a direct message) the game where it is their turn, or, when several
        are, a private menu asks which. ``then`` receives a game id (or None: the usual answer)."""
        if game is not None:
            try:
                gid = await self.ui.game_numbered(interaction, game)
            except ServiceError as exc:
                await self.ui.defer(interaction)
                await self.ui.error(interaction, exc)
                return
            await then(interaction, gid)
            return
        if await self._in_game_thread(interaction):
            await then(interaction, None)
            return
        player, where = who(interaction)
        waiting = [
            row
            for row, mine in await self.bot.service.my_turns(player, where=where, everywhere=where is None)
            if mine
        ]
        if len(waiting) == 1:
            await then(interaction, waiting[0].id)
            return
        if not waiting:
            await then(interaction, None)  # the usual answer: the only game, or which to name
            return
        await self.ui.defer(interaction)
        choices = [
            (
                row.id,
                f"#{row.number} {find_game(row.game_name).title}"
                f"{' · ' + str(row.config.get('board')) if row.config.get('board') else ''}"
                f"{await self._server_of(row.id) if where is None else ''}",
            )
            for row in waiting
        ]
        await self.ui.reply(
            interaction,
            _n(
                "It is your turn in {n} game; which one is this for?",
                "It is your turn in {n} games; which one is this for?",
                len(waiting),
            ),
            view=_GamePicker(choices, then),
        )

    async def _server_of(self, gid: int) -> str:
        """`` · <server name>`` for a game listed in a direct message, where numbers of different
        servers meet (empty when the server is not known)."""
        guild = self.bot.get_guild((await self.ui.store.route(gid)).guild_id or 0)
        return f" · {guild.name}" if guild is not None else ""

    async def game_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[int]]:
        """The user's games (number, board, whose turn), valued by their number in this server."""
        out = []
        player, where = who(interaction)
        for row, mine in await self.bot.service.my_turns(player, where=where, everywhere=where is None):
            label = (
                f"#{row.number} {row.config.get('board', row.game_name)} · {row.status}"
                + (" · " + _("your turn") if mine else "")
                + (await self._server_of(row.id) if where is None else "")
            )
            if match(current, label):
                out.append(app_commands.Choice(name=label[:100], value=row.number))
        return out[:25]


class LobbyCog(_Base):
    """``/ttr``: creating, joining and managing games."""

    ttr = app_commands.Group(name="ttr", description="Ticket to Ride games: create, join, start, manage")

    @ttr.command(name="new", description="Open a new game in a thread of this channel")
    @app_commands.describe(
        board="Which map",
        timer_hours="Hours per turn, 1 to 336 (14 days); 0: no timer",
        timeout="What happens when the timer runs out",
        variant="Board variant (e.g. digital)",
        seat_order="Shuffle seats at the start or keep the join order",
        game="Ticket to Ride (default) or First Class",
        reminder_hours="Hours before the deadline the reminder comes (default: a quarter)",
        remind_by="Where the reminder comes",
        settings="Game settings as key=value, separated by commas (see /ttr rules)",
        cards1=CARDS_DESC,
        cards2=CARDS_DESC,
        cards3=CARDS_DESC,
        cards4=CARDS_DESC,
        cards5=CARDS_DESC,
        language="Language of the game's public messages and pictures (default: the server's)",
    )
    @app_commands.choices(
        game=GAME_CHOICES,
        board=BOARD_CHOICES,
        timeout=POLICY_CHOICES,
        remind_by=REMIND_CHOICES,
        language=LANGUAGE_CHOICES,
        seat_order=[
            app_commands.Choice(name="shuffle", value="shuffle"),
            app_commands.Choice(name="join order", value="join"),
        ],
    )
    async def new(
        self,
        interaction: discord.Interaction,
        board: str | None = None,
        timer_hours: float = 24.0,
        timeout: str = "ai",
        variant: str | None = None,
        seat_order: str = "shuffle",
        game: str = DEFAULT_GAME,
        reminder_hours: float | None = None,
        remind_by: str = "thread",
        settings: str | None = None,
        cards1: discord.Attachment | None = None,
        cards2: discord.Attachment | None = None,
        cards3: discord.Attachment | None = None,
        cards4: discord.Attachment | None = None,
        cards5: discord.Attachment | None = None,
        language: str | None = None,
    ) -> None:
        await self.ui.defer(interaction)
        if interaction.guild_id is None or interaction.channel is None:
            await self.ui.error(interaction, M("Games are played in a server channel."))
            return
        player, where = who(interaction)
        attached = [a for a in (cards1, cards2, cards3, cards4, cards5) if a is not None]
        cards = AttachedCards(self.bot.card_dir)
        try:
            spec = find_game(game)
            # Only the game's own settings, each validated with its own sentence. A card *file* is a
            # path on the bot's machine, so a server's users attach their files instead (cards1 …).
            assignments = [a.strip() for a in (settings or "").split(",") if a.strip()]
            if any(spec.setting(a.partition("=")[0]).kind == "file" for a in assignments if "=" in a):
                raise ServiceError(
                    "bad_setting",
                    M("Card files are attached to the command (cards1, cards2 …), not named in settings."),
                )
            extra = spec.parse_settings(assignments)
            extra.update(await cards.config(spec, attached))
            boards = spec.boards()  # no board named: the game's first (USA for Ticket to Ride)
            chosen = board or (boards[0].id if boards else None)
            config = spec.config_for(board=chosen, variant=variant, extra=extra)
            # The game's language (public messages, images): no rule reads it; pinned with the config.
            config["language"] = normalise(language) if language else await self._server_language(interaction)
            row = await self.bot.service.create_game(
                game_name=spec.name,
                config=config,
                creator=player,
                creator_name=interaction.user.display_name,
                space=where,
                turn_hours=timer_hours,
                timeout_policy=timeout,
                seat_order=seat_order,
                reminder_hours=reminder_hours,
                remind_by=remind_by,
            )
        except ServiceError as exc:
            cards.discard()
            # the service may quote a saved copy's path: the person knows the file by its attached name
            await self.ui.error(interaction, cards.words(text_of(exc.said)) if attached else exc.said)
            return
        except IllegalAction as exc:
            cards.discard()
            said = refusal_of(exc)
            # the loader names a saved copy's path; the person knows the file by the name they attached
            await self.ui.error(interaction, cards.words(said) if isinstance(said, str) else said)
            return
        # Inside a thread (another game's), the new game opens in the channel the thread belongs to,
        # where everyone can see and join it.
        channel: Any = interaction.channel
        if isinstance(channel, discord.Thread):
            parent = channel.parent or self.bot.get_channel(channel.parent_id)
            if parent is None:
                with contextlib.suppress(discord.HTTPException):
                    parent = await self.bot.fetch_channel(channel.parent_id)
            channel = parent if parent is not None else channel
        await self.ui.store.set_route(
            row.id, interaction.guild_id, getattr(channel, "id", interaction.channel_id)
        )
        thread_id = None
        board_name = next((b.name for b in spec.boards() if b.id == config.get(spec.board_key or "")), None)
        game_language = str(config["language"])
        with using(game_language):  # the thread's name and first post are public: the game's words
            label = (
                f"{title_words(spec.name)} · {board_words(spec.name, board_name)}"
                if board_name
                else title_words(spec.name)
            )

        def timer_words() -> str:
            """The timer (and the attached card files) in the current language: the thread's post is
            in the game's, the reply in the creator's."""
            timer = timer_text(row)
            return f"{self._card_sources(spec, config, cards)}\n{timer}" if attached else timer

        if isinstance(channel, discord.TextChannel):
            try:
                thread = await channel.create_thread(
                    name=f"{label} #{row.number}"[:100],
                    type=discord.ChannelType.public_thread,
                    auto_archive_duration=10080,
                )
                thread_id = thread.id
                await self.ui.store.set_thread(row.id, thread.id)
                with using(game_language):  # the thread is public: the game's language
                    opening = (
                        _(
                            "Game #{game} ({label}) by {creator}: {seats} seats. {timer}",
                            game=row.number,
                            label=label,
                            creator=interaction.user.mention,
                            seats=row.max_players,
                            timer=timer_words(),
                        )
                        + "\n"
                        + _(
                            "Join with `/ttr join`; add AI seats with `/ttr addai`; the creator starts with `/ttr start`"
                            " (the game also starts by itself when every seat is taken)."
                        )
                    )
                await thread.send(
                    opening,
                    allowed_mentions=discord.AllowedMentions.none(),
                )
            except discord.HTTPException:
                log.warning("game=%s: could not create a thread; playing in the channel", row.id)
        place = (
            f" <#{thread_id}>"
            if thread_id
            else (f" <#{channel.id}>" if channel is not interaction.channel else "")
        )
        await self.ui.reply(
            interaction,
            _(
                "Created game #{game} ({label}){place}. You are seated. {timer}",
                game=row.number,
                label=label,
                place=place,
                timer=timer_words(),
            )
            + "\n"
            + _(
                "Others join with `/ttr join`; add AIs with `/ttr addai`; then `/ttr start` (only you or an admin can"
                " start it)."
            )
            + "\n"
            + _("The game's public messages are in {language}.", language=language_name(game_language)),
        )

    async def _server_language(self, interaction: discord.Interaction) -> str:
        """A new game's default language: the server's own choice (``/ttr language``), else the
        server's preferred locale when Conductor speaks it, else English."""
        chosen = await GuildSettings(self.bot.storage).language(interaction.guild_id)
        if chosen:
            return normalise(chosen)
        return normalise(getattr(interaction, "guild_locale", None) or SOURCE_LANGUAGE)

    @staticmethod
    def _card_sources(spec: GameSpec, config: dict[str, Any], cards: AttachedCards) -> str:
        """Where the game's cards come from, naming each attached file as it was attached: the
        deck's own label (which names every source of the Action cards) and every other file."""
        try:
            lines = spec.rules_summary(config)
        except IllegalAction:
            lines = []
        deck = next((line.removeprefix("⚠ Deck: ") for line in lines if line.startswith("⚠ Deck: ")), None)
        # The deck's label is the engine's (English) data text; the words around it are the reader's.
        parts = [_("Cards: {deck}.", deck=cards.words(deck))] if deck is not None else []
        parts += [
            _("{setting}: {file}.", setting=card_file_words(spec, key), file=cards.names[path])
            for key, path in config.items()
            if key != "deck" and isinstance(path, str) and path in cards.names
        ]
        return " ".join(parts)

    @ttr.command(name="join", description="Join a game that has not started")
    @app_commands.describe(game=GAME_DESC)
    async def join(self, interaction: discord.Interaction, game: int | None = None) -> None:
        player, where = who(interaction)
        opened = await self._open(
            interaction,
            game,
            lambda gid: self.bot.service.join(gid, player, interaction.user.display_name, where=where),
            lobby=True,
        )
        if opened is None:
            return
        gid, row = opened
        if row.status == "active":
            await self.ui.reply(
                interaction,
                _("You joined game #{game}; every seat is taken, so it has started.", game=row.number),
            )
            return
        await self.ui.reply(
            interaction,
            _(
                "You joined game #{game} ({taken}/{seats} seats taken).",
                game=row.number,
                taken=len(row.seats),
                seats=row.max_players,
            )
            + " "
            + timer_text(row),
        )
        await self._lobby_note(
            gid,
            M(
                "{name} joined ({taken}/{seats} seats taken).",
                name=esc(interaction.user.display_name),
                taken=len(row.seats),
                seats=row.max_players,
            ),
        )

    @ttr.command(name="leave", description="Leave a game before it starts")
    @app_commands.describe(game=GAME_DESC)
    async def leave(self, interaction: discord.Interaction, game: int | None = None) -> None:
        player, where = who(interaction)
        opened = await self._open(
            interaction, game, lambda gid: self.bot.service.leave(gid, player, where=where), lobby=True
        )
        if opened is None:
            return
        _gid, row = opened
        await self.ui.reply(interaction, _("You left game #{game}.", game=row.number))

    @ttr.command(name="addai", description="Add an AI seat to a game that has not started")
    @app_commands.describe(
        kind="search (thinks about a second a move), heuristic (quick) or random", game=GAME_DESC
    )
    @app_commands.choices(
        kind=[
            app_commands.Choice(name="search", value="search"),
            app_commands.Choice(name="heuristic", value="heuristic"),
            app_commands.Choice(name="random", value="random"),
        ]
    )
    async def addai(
        self, interaction: discord.Interaction, kind: str = "heuristic", game: int | None = None
    ) -> None:
        async def add(gid: int) -> Any:
            player, where = who(interaction)
            return await self.bot.service.add_ai(
                gid, player, kind, is_admin=await self.ui.admin_of(interaction, gid), where=where
            )

        opened = await self._open(interaction, game, add, lobby=True)
        if opened is None:
            return
        gid, row = opened
        await self.ui.reply(
            interaction,
            _(
                "Added an AI seat to game #{game} ({taken}/{seats} seats taken).",
                game=row.number,
                taken=len(row.seats),
                seats=row.max_players,
            ),
        )

    @ttr.command(name="start", description="Deal and start the game")
    @app_commands.describe(game=GAME_DESC)
    async def start(self, interaction: discord.Interaction, game: int | None = None) -> None:
        async def deal(gid: int) -> Outcome:
            player, where = who(interaction)
            return await self.bot.service.start(
                gid, player, is_admin=await self.ui.admin_of(interaction, gid), where=where
            )

        opened = await self._open(interaction, game, deal, lobby=True)
        if opened is None:
            return
        gid, outcome = opened
        await self.ui.reply(
            interaction,
            _("Game #{game} started.", game=await self.ui.number(gid))
            + " "
            + self.ui.start_hint(outcome.game_name),
        )

    @ttr.command(name="abort", description="Abort a game (its creator or a server admin)")
    @app_commands.describe(game=GAME_DESC)
    async def abort(self, interaction: discord.Interaction, game: int | None = None) -> None:
        player, where = who(interaction)
        await self._manage(
            interaction,
            game,
            lambda gid, admin: self.bot.service.abort(gid, player, is_admin=admin, where=where),
        )

    @ttr.command(
        name="kick", description="Remove a player (lobby) or hand their seat to an AI (creator/admin)"
    )
    @app_commands.describe(user="The player", game=GAME_DESC)
    async def kick(
        self, interaction: discord.Interaction, user: discord.User, game: int | None = None
    ) -> None:
        player, where = who(interaction)
        await self._manage(
            interaction,
            game,
            lambda gid, admin: self.bot.service.kick(
                gid, player, player_ref(user.id), is_admin=admin, where=where
            ),
        )

    @ttr.command(name="replace", description="Hand a seat to a member, or to an AI (creator/admin)")
    @app_commands.describe(
        seat="Seat number (1 is the first player)",
        user="Who plays the seat now (none: an AI)",
        game=GAME_DESC,
    )
    async def replace(
        self,
        interaction: discord.Interaction,
        seat: app_commands.Range[int, 1, 10],
        user: discord.User | None = None,
        game: int | None = None,
    ) -> None:
        player, where = who(interaction)
        if user is not None and user.bot:
            await self.ui.defer(interaction)
            await self.ui.error(
                interaction, M("A bot cannot take a seat; leave user empty to hand the seat to an AI.")
            )
            return
        if user is None:
            await self._manage(
                interaction,
                game,
                lambda gid, admin: self.bot.service.replace_with_ai(
                    gid, player, seat, is_admin=admin, where=where
                ),
            )
            return
        member = user
        await self._manage(
            interaction,
            game,
            lambda gid, admin: self.bot.service.hand_over(
                gid, player, seat, player_ref(member.id), member.display_name, is_admin=admin, where=where
            ),
        )

    @ttr.command(name="reclaim", description="Ask to play your seat again after a forfeit or resignation")
    @app_commands.describe(game=GAME_DESC)
    async def reclaim(self, interaction: discord.Interaction, game: int | None = None) -> None:
        player, where = who(interaction)
        opened = await self._open(
            interaction, game, lambda gid: self.bot.service.request_seat(gid, player, where=where), lobby=True
        )
        if opened is None:
            return
        gid, _asked = opened
        await self.ui.reply(
            interaction,
            _(
                "Asked to play your seat of game #{game} again; the creator or an admin"
                " approves with `/ttr approve`.",
                game=await self.ui.number(gid),
            ),
        )

    @ttr.command(
        name="approve", description="Give a seat back to the player who asked for it (creator/admin)"
    )
    @app_commands.describe(seat="Seat number (1 is the first player)", game=GAME_DESC)
    async def approve(
        self, interaction: discord.Interaction, seat: app_commands.Range[int, 1, 10], game: int | None = None
    ) -> None:
        player, where = who(interaction)
        await self._manage(
            interaction,
            game,
            lambda gid, admin: self.bot.service.approve_seat(gid, player, seat, is_admin=admin, where=where),
        )

    async def _server_admin(self, interaction: discord.Interaction, in_dm: Msg, not_admin: Msg) -> int | None:
        """The server's id if the user may change its settings (Manage Server); else says why, None."""
        perms = interaction.permissions
        if interaction.guild_id is None:
            await self.ui.error(interaction, in_dm)
            return None
        if not (perms.manage_guild or perms.administrator):
            await self.ui.error(interaction, not_admin)
            return None
        return interaction.guild_id

    @ttr.command(
        name="manager",
        description="Let a role abort, kick, replace and start this server's games"
        " (server admins; no role: clear)",
    )
    @app_commands.describe(role="The game manager role (leave empty to have none)")
    async def manager(self, interaction: discord.Interaction, role: discord.Role | None = None) -> None:
        await self.ui.defer(interaction)
        guild_id = await self._server_admin(
            interaction,
            M("The game manager role is chosen in a server, not in a direct message."),
            M("Only a server admin (Manage Server) can choose the game manager role."),
        )
        if guild_id is None:
            return
        if role is not None and role.is_default():
            await self.ui.error(
                interaction,
                M(
                    "@everyone cannot be the game manager role: every member would manage"
                    " every game. Pick or create a narrower role."
                ),
            )
            return
        await GuildSettings(self.bot.storage).set_manager_role(guild_id, None if role is None else role.id)
        if role is None:
            await self.ui.reply(
                interaction,
                "✓ "
                + _(
                    "This server has no game manager role now: a game's creator and"
                    " the server admins manage games."
                ),
            )
        else:
            await self.ui.reply(
                interaction,
                "✓ "
                + _(
                    "Members with {role} may now abort, kick, replace and start any game of this server.",
                    role=role.mention,
                ),
                allowed_mentions=discord.AllowedMentions.none(),
            )

    @ttr.command(name="language", description="The language of this server's new games (server admins)")
    @app_commands.describe(language="Language of new games' public messages and pictures")
    @app_commands.choices(language=LANGUAGE_CHOICES)
    async def language(self, interaction: discord.Interaction, language: str) -> None:
        await self.ui.defer(interaction)
        guild_id = await self._server_admin(
            interaction,
            M("A server's language is chosen in the server, not in a direct message."),
            M("Only a server admin (Manage Server) can choose the server's language."),
        )
        if guild_id is None:
            return
        if language not in languages():
            await self.ui.error(interaction, M("Conductor does not speak that language."))
            return
        await GuildSettings(self.bot.storage).set_language(guild_id, language)
        await self.ui.reply(
            interaction,
            "✓ "
            + _(
                "New games of this server speak {language} (each game can choose"
                " another with /ttr new language).",
                language=language_name(language),
            ),
        )

    @ttr.command(name="rules", description="Rules summary of a board: flags and provisional data")
    @app_commands.describe(board="Which map (default: this game's)", game=GAME_DESC)
    @app_commands.choices(board=BOARD_CHOICES)
    async def rules(
        self, interaction: discord.Interaction, board: str | None = None, game: int | None = None
    ) -> None:
        await self.ui.defer(interaction)
        player, where = who(interaction)
        try:
            owner, board_config = board_owner(board)
            config_seen: dict[str, Any] | None = board_config
            game_seen = owner.name
            if board is None:
                gid = await self.ui.resolve_game(interaction, await self.ui.game_numbered(interaction, game))
                lines = await self.bot.service.rules_summary(gid, player=player, where=where)
                row = await self.bot.service.game_row(gid)
                config_seen, game_seen = row.config, row.game_name
            else:
                lines = await self.bot.service.rules_summary(game_name=owner.name, config=board_config)
        except ServiceError as exc:
            if board is None and game is None and exc.code in ("no_game", "ambiguous"):
                lines = await self.bot.service.rules_summary(game_name=owner.name, config=board_config)
            else:
                await self.ui.error(interaction, exc)
                return
        lines = rules_in_words(game_seen, config_seen, lines)
        await self.ui.reply(interaction, "\n".join([f"**{lines[0]}**", *lines[1:]]))
        spec = find_game(game_seen)
        if spec.settings:
            # The settings a table chooses at /ttr new, with the values in force for this game.
            listed = [
                _(
                    "Settings (choose them at /ttr new as settings: key=value, separated by commas; card "
                    "files are attached as cards1 …):"
                ),
                *settings_lines(spec, config_seen or {}),
            ]
            for message in messages_of(listed, MAX_CONTENT):
                await self.ui.reply(interaction, message)

    @ttr.command(name="vacation", description="Pause your turn timers for some days (0 ends the pause)")
    @app_commands.describe(days="Days away")
    async def vacation(
        self, interaction: discord.Interaction, days: app_commands.Range[float, 0, 60]
    ) -> None:
        await self.ui.defer(interaction)
        until = self.bot.service.clock() + days * 86400 if days > 0 else None
        touched = await self.bot.service.set_vacation(player_ref(interaction.user.id), until)
        if until:
            await self.ui.reply(
                interaction,
                _n(
                    "Your timers are paused until {when} in {n} game.",
                    "Your timers are paused until {when} in {n} games.",
                    len(touched),
                    when=f"<t:{int(until)}:f>",
                ),
            )
        else:
            await self.ui.reply(
                interaction,
                _n(
                    "Welcome back: timers resume in {n} game.",
                    "Welcome back: timers resume in {n} games.",
                    len(touched),
                ),
            )

    @ttr.command(name="sync", description="Re-register the slash commands with Discord (bot owner)")
    async def sync(self, interaction: discord.Interaction) -> None:
        await self.ui.defer(interaction)
        try:
            owner = await self.bot.is_owner(interaction.user)
        except Exception:  # noqa: BLE001
            owner = False
        if not owner:
            await self.ui.error(interaction, M("Only the bot's owner can sync commands."))
            return
        count = await self.bot.sync_commands(force=True)
        await self.ui.reply(interaction, _("Synced {n} commands.", n=count))

    # -- helpers
    async def _lobby_note(self, gid: int, text: str | Msg) -> None:
        await self.ui.post_note(gid, text)

    async def _manage(
        self,
        interaction: discord.Interaction,
        game: int | None,
        op: Callable[[int, bool], Awaitable[Outcome]],
    ) -> None:
        async def run(gid: int) -> Outcome:
            return await op(gid, await self.ui.admin_of(interaction, gid))

        opened = await self._open(interaction, game, run, lobby=True)
        if opened is None:
            return
        _gid, outcome = opened
        await self.ui.reply(
            interaction, "✓ " + " ".join(line_text(line, outcome.names) for line in outcome.lines)
        )


class PlayCog(_Base):
    """``/play``: the moves."""

    play = app_commands.Group(name="play", description="Play your turn")

    def __init__(self, bot: ConductorBot) -> None:
        super().__init__(bot)
        # Each game's own subcommands come first, then the generic ones every game answers.
        generic = [c for c in self.play.commands if isinstance(c, app_commands.Command)]
        for command in generic:
            self.play.remove_command(command.name)
        for game_ui in registered_game_uis():
            for command in game_ui.play_commands(self):
                self.play.add_command(command)
        for command in generic:
            self.play.add_command(command)

    async def act(self, interaction: discord.Interaction, game: int | None, text: str) -> None:
        await self._act(interaction, game, text)

    async def on_my_game(
        self,
        interaction: discord.Interaction,
        game: int | None,
        then: Callable[[discord.Interaction, int | None], Awaitable[None]],
    ) -> None:
        await self._on_my_game(interaction, game, then)

    async def open_loaded(
        self, interaction: discord.Interaction, game: int | None
    ) -> tuple[int, Loaded] | None:
        return await self._open(interaction, game, self.bot.service.load, by_number=False)

    async def _act(self, interaction: discord.Interaction, game: int | None, text: str) -> None:
        """Play ``text`` on the game the player means (see :meth:`_on_my_game`)."""

        async def run(target: discord.Interaction, gid: int | None) -> None:
            await self.ui.act(target, gid, text)

        await self._on_my_game(interaction, game, run)

    @play.command(name="action", description="Any move in its text form, e.g. 'claim EU034 red=3'")
    @app_commands.describe(text="The move", game=GAME_DESC)
    async def action(self, interaction: discord.Interaction, text: str, game: int | None = None) -> None:
        await self._act(interaction, game, text[:200])

    @action.autocomplete("text")
    async def action_ac(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        """Your legal moves in text form (any game), filtered by what you typed."""
        loaded = await self.ui.game_for_autocomplete(interaction)
        if loaded is None:
            return []
        out: list[app_commands.Choice[str]] = []
        for a in await self.bot.service.legal_actions(loaded.row.id, player_ref(interaction.user.id)):
            text = a.to_text()
            if len(text) <= 100 and match(current, text):
                out.append(app_commands.Choice(name=text, value=text))
                if len(out) >= 25:
                    break
        return out

    @play.command(name="resign", description="Resign: an AI plays your seat from now on")
    @app_commands.describe(game=GAME_DESC)
    async def resign(self, interaction: discord.Interaction, game: int | None = None) -> None:
        player, where = who(interaction)
        opened = await self._open(
            interaction, game, lambda gid: self.bot.service.resign(gid, player, where=where)
        )
        if opened is None:
            return
        gid, _resigned = opened
        await self.ui.reply(interaction, _("You resigned from game #{game}.", game=await self.ui.number(gid)))


class ViewCog(_Base):
    """``/view`` and ``/games``: looking, never changing."""

    view = app_commands.Group(name="view", description="Look at a game")

    @view.command(name="hand", description="Your cards and tickets (only you see this)")
    @app_commands.describe(game=GAME_DESC)
    async def hand(self, interaction: discord.Interaction, game: int | None = None) -> None:
        try:
            gid = await self.ui.game_numbered(interaction, game)
        except ServiceError as exc:
            await self.ui.defer(interaction)
            await self.ui.error(interaction, exc)
            return
        await self.ui.show_hand(interaction, gid)

    @view.command(name="board", description="The current board (only you see this reply)")
    @app_commands.describe(game=GAME_DESC)
    async def board(self, interaction: discord.Interaction, game: int | None = None) -> None:
        player, where = who(interaction)
        opened = await self._open(
            interaction, game, lambda gid: self.bot.service.public_view(gid, player=player, where=where)
        )
        if opened is None:
            return
        _, view = opened
        png = await self.bot.workers.render(render_board_png, in_language(view))
        kwargs: dict[str, Any] = {}
        if png is not None and len(png) < interaction.filesize_limit:
            kwargs["file"] = discord.File(io.BytesIO(png), filename="board.png")
        await self.ui.reply(interaction, board_text(view), **kwargs)

    @view.command(name="scores", description="Scores so far (final breakdown when over)")
    @app_commands.describe(game=GAME_DESC)
    async def scores(self, interaction: discord.Interaction, game: int | None = None) -> None:
        player, where = who(interaction)
        opened = await self._open(
            interaction, game, lambda gid: self.bot.service.public_view(gid, player=player, where=where)
        )
        if opened is None:
            return
        _, view = opened
        await self.ui.reply(interaction, scores_text(view))

    @view.command(name="log", description="The last moves")
    @app_commands.describe(game=GAME_DESC, count="How many moves")
    async def log(
        self,
        interaction: discord.Interaction,
        game: int | None = None,
        count: app_commands.Range[int, 1, 40] = 15,
    ) -> None:
        player, where = who(interaction)
        opened = await self._open(
            interaction, game, lambda gid: self.bot.service.log_lines(gid, count, player=player, where=where)
        )
        if opened is None:
            return
        lines = opened[1]
        await self.ui.reply(interaction, "\n".join(esc(line) for line in lines) or _("No moves yet."))

    @app_commands.command(name="games", description="Your games across servers, and where it is your turn")
    async def games(self, interaction: discord.Interaction) -> None:
        await self.ui.defer(interaction)
        rows = await self.bot.service.my_turns(player_ref(interaction.user.id))
        if not rows:
            await self.ui.reply(interaction, _("You are not in any game. Start one with /ttr new."))
            return
        lines = []
        now = self.bot.service.clock()
        for row, mine in sorted(rows, key=lambda r: (not r[1], r[0].id)):
            route = await self.ui.store.route(row.id)
            where = (
                f"<#{route.thread_id or route.channel_id}>" if (route.thread_id or route.channel_id) else ""
            )
            flag = (
                "**" + _("your turn") + "**"
                if mine
                else {"active": _("active"), "lobby": _("lobby")}.get(row.status, row.status)
            )
            timer = _("timer {hours}", hours=hours_text(row.turn_hours)) if row.turn_hours else _("no timer")
            waited = ""
            if row.status == "active" and row.turn_started_at:
                waited = " · " + _(
                    "waiting {hours}", hours=hours_text(max(0.0, now - row.turn_started_at) / 3600)
                )
            what = row.config.get("board") or find_game(row.game_name).title
            lines.append(f"#{row.number} {what} · {flag} · {timer}{waited} {where}")
        shown: list[str] = []  # keep the head (games waiting for you come first) under the length limit
        for i, line in enumerate(lines):
            if sum(len(x) + 1 for x in shown) + len(line) > MAX_CONTENT - 40:
                shown.append("… " + _("and {n} more", n=len(lines) - i))
                break
            shown.append(line)
        await self.ui.reply(interaction, "\n".join(shown))


async def setup(bot: ConductorBot) -> None:
    choices.refresh()
    await bot.add_cog(LobbyCog(bot))
    await bot.add_cog(PlayCog(bot))
    await bot.add_cog(ViewCog(bot))
