"""``/ttr new|join|leave|addai|start``: opening a game in a thread, taking seats and starting it."""

from __future__ import annotations

import contextlib
import logging
from typing import Any

import discord
from discord import app_commands

from bot.discord_app.choices import BOARD_CHOICES, GAME_CHOICES, GAME_DESC
from bot.discord_app.cogs.base import TTR, CogBase, esc
from bot.discord_app.cogs.cards import CARDS_DESC, AttachedCards, card_file_words
from bot.discord_app.settings import GuildSettings
from bot.discord_app.ui import who
from bot.present import board_words, title_words
from bot.service import REMIND_BY, TIMEOUT_POLICIES, ServiceError, timer_text
from bot.stream import Outcome
from bot.web.links import page_line
from lang import SOURCE_LANGUAGE, M, Msg, _, language_name, languages, normalise, text_of, using
from lang.refusals import refusal_of
from rules.errors import IllegalAction
from rules.games import DEFAULT_GAME, find_game
from rules.registry import GameSpec

log = logging.getLogger("conductor.discord")

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


class LobbyCommands(CogBase):
    """``/ttr`` commands that open, fill and start a game."""

    @TTR.command(name="new", description="Open a new game in a thread of this channel")
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
                        + page_line(await self.bot.app.links.game(row.id, row.space))
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

    @TTR.command(name="join", description="Join a game that has not started")
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

    @TTR.command(name="leave", description="Leave a game before it starts")
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

    @TTR.command(name="addai", description="Add an AI seat to a game that has not started")
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

    @TTR.command(name="start", description="Deal and start the game")
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

    async def _lobby_note(self, gid: int, text: str | Msg) -> None:
        await self.ui.post_note(gid, text)
