"""The ``commands.Bot`` subclass over an App: cogs, persistent components, command sync, and the
subscriptions through which Discord follows the core."""

from __future__ import annotations

import hashlib
import json
import logging
import time
from collections.abc import Callable
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.app import App, AppSettings
from bot.discord_app.game_ui import registered_game_uis
from bot.discord_app.items import GameButton, GameSelect
from bot.discord_app.markdown import literal
from bot.discord_app.tournament_cog import TournamentDiscord
from bot.discord_app.translator import catalog_fingerprint
from bot.discord_app.ui import GameUI
from bot.names import names_written
from bot.outbox import OutboxFollower
from bot.scheduler import Scheduler
from bot.service import GameService
from bot.store.api import Store
from bot.tournament.runner import TournamentService
from bot.workers import Workers
from lang import _, set_language

log = logging.getLogger("conductor.discord")

COMMAND_HASH_KEY = "command_hash"


class ConductorTree(app_commands.CommandTree):
    """The command tree: before any command or autocomplete runs, its task is set to write in the
    person's Discord language; and it tells the presenter's :class:`~bot.discord_app.ui.Traffic`
    when a slash command starts being served (it ends in ``on_app_command_completion`` or the
    tree's error handler), so queued background posts wait for it."""

    async def interaction_check(self, interaction: discord.Interaction, /) -> bool:
        set_language(interaction.locale)
        if interaction.type is discord.InteractionType.application_command and isinstance(
            self.client, ConductorBot
        ):
            self.client.ui.traffic.arrived(interaction)
        return True


class ConductorBot(commands.Bot):
    """Conductor on Discord, a front end over an :class:`~bot.app.App` (the core, assembled there).

    ``setup_hook`` starts the App (storage, workers), registers the cogs and the restart-safe
    components, resumes every game, syncs commands only when needed and starts the timers;
    ``on_ready`` lets the tournaments pair what is due. The client follows the core only through
    subscriptions: the outcome stream and the scheduler's reminders and ticks (:class:`GameUI`),
    and the tournament runner's listeners (:class:`TournamentDiscord`). ``close`` closes the App."""

    def __init__(
        self,
        app: App,
        *,
        dev_guild_id: int | None = None,
        sync: bool = False,
        **kwargs: Any,
    ) -> None:
        intents = discord.Intents.default()
        intents.message_content = False
        # Every command is a slash command, button or menu: the bot reads no messages, so Discord
        # need not send it one event per message (its own boards included), nor need it cache them.
        intents.messages = False
        kwargs.setdefault("max_messages", None)
        kwargs.setdefault("guild_ready_timeout", 2.0)
        kwargs.setdefault("tree_cls", ConductorTree)
        super().__init__(command_prefix=commands.when_mentioned, intents=intents, **kwargs)
        self.app = app
        self.db_path = app.settings.db_path
        # Card files a group attaches to /ttr new are kept beside the database (see cogs.cards.AttachedCards).
        self.card_dir = app.data_dir / "card-files"
        self.dev_guild_id = dev_guild_id
        self.sync_requested = sync
        self.ui = GameUI(self)
        # moves other processes committed for our servers, and what a crash left unposted
        self.outbox = OutboxFollower(
            app.storage.outbox,
            self.ui.from_outbox.post,
            app.clock,
            left_behind=lambda games: self.ui.repost_stale_boards(games),
        )
        self._unsubscribe = [
            self.service.stream.subscribe(self.ui),
            self.scheduler.subscribe_reminders(self.ui.remind),
            self.scheduler.subscribe_ticks(self.ui.retry_unposted),
        ]
        # Each table of an event gets a thread and each event a status message kept current.
        self.tournament_discord = TournamentDiscord(self)
        self.tournaments.listeners.append(self.tournament_discord)
        self.synced: int | None = None
        self._resumed: list[int] = []
        self._broken: list[int] = []
        self._reposted = False

    @classmethod
    def for_database(
        cls,
        db_path: str,
        *,
        clock: Callable[[], float] = time.time,
        scheduler_interval: float = 30.0,
        start_scheduler: bool = True,
        prewarm: bool = True,
        workers: int = 0,
        takeover_ai: str | None = None,
        web_url: str | None = None,
        process: str | None = None,
        **kwargs: Any,
    ) -> ConductorBot:
        """A client over a new App for the database ``db_path`` (the App's settings by name)."""
        settings = AppSettings(
            db_path,
            clock=clock,
            workers=workers,
            prewarm=prewarm,
            timers=start_scheduler,
            timer_interval=scheduler_interval,
            takeover_ai=takeover_ai,
            web_url=web_url,
            process=process,
        )
        return cls(App(settings), **kwargs)

    @property
    def posting_shards(self) -> list[int] | None:
        """The shards this process runs (None: every shard, one process for every server)."""
        ids = getattr(self, "shard_ids", None)
        if ids is not None:
            return list(ids)
        return None if self.shard_id is None else [self.shard_id]

    # the core's parts, as the cogs and the presenter reach them
    @property
    def storage(self) -> Store:
        return self.app.storage

    @property
    def service(self) -> GameService:
        return self.app.service

    @property
    def workers(self) -> Workers:
        return self.app.workers

    @property
    def scheduler(self) -> Scheduler:
        return self.app.scheduler

    @property
    def tournaments(self) -> TournamentService:
        return self.app.tournaments

    @property
    def clock(self) -> Callable[[], float]:
        return self.app.clock

    async def on_ready(self) -> None:
        """Once connected (first READY only): repost boards that fell behind while we were down, in
        the background and paced, interactions first (:class:`~bot.discord_app.ui.BoardReposts`)."""
        if not self._reposted:
            self._reposted = True
            queued = self.ui.repost_stale_boards(self._resumed)
            if queued:
                log.info("checking %d games for boards that fell behind during the restart", queued)
            for gid in self._broken:
                await self.ui.report_broken(gid)
            self.outbox.start()  # after READY: the channels to post in are known
            # after READY, so that a round paired now can open its threads
            await self.app.start_tournaments()

    async def setup_hook(self) -> None:
        # Runs after login and before the gateway connects: heavy start-up work happens here, off
        # the event loop, so the first interactions after a restart meet a warm renderer.
        # every name put in the client's text is shown as typed (markdown escaped): set here, in
        # the task every event, command and timer of the client descends from
        names_written(literal)
        await self.app.start()
        from bot.discord_app import cogs
        from bot.discord_app.translator import CatalogTranslator

        await self.tree.set_translator(CatalogTranslator())  # command texts in each person's language
        await cogs.setup(self)
        from bot.discord_app import tournament_cog

        await tournament_cog.setup(self)
        for game_ui in registered_game_uis():  # each game's own slash commands
            for cog in game_ui.cogs(self):
                await self.add_cog(cog)
        self.add_dynamic_items(
            GameButton,
            GameSelect,
            *(item for game_ui in registered_game_uis() for item in game_ui.dynamic_items),
        )
        self.tree.on_error = self._on_app_command_error  # type: ignore[method-assign]
        ok, broken = await self.app.resume()
        log.info("ready to serve %d games (%d broken)", len(ok), len(broken))
        self._resumed = ok
        self._broken = broken
        await self.sync_commands(force=self.sync_requested)
        self.app.start_timers()

    def command_hash(self) -> str:
        """A hash of the command set as Discord would see it (name, options, descriptions)."""
        payload: list[Any] = [c.to_dict(self.tree) for c in self.tree.get_commands()]
        payload.append(catalog_fingerprint())  # the localisations: a changed catalog syncs again
        raw = json.dumps(payload, sort_keys=True, default=str)
        return hashlib.sha256(raw.encode()).hexdigest()

    async def sync_commands(self, *, force: bool = False) -> int | None:
        """Sync the slash commands if forced or if the command set changed since the last sync.

        With ``dev_guild_id`` the commands are copied to that guild (instant updates); otherwise
        they are synced globally. Returns how many commands were synced, or None if skipped.
        """
        target = f"guild:{self.dev_guild_id}" if self.dev_guild_id else "global"
        digest = f"{target}:{self.command_hash()}"
        stored = await self.storage.get_meta(COMMAND_HASH_KEY)
        if not force and stored == digest:
            log.info("commands unchanged; not syncing")
            return None
        if self.dev_guild_id:
            guild = discord.Object(id=self.dev_guild_id)
            self.tree.copy_global_to(guild=guild)
            synced = await self.tree.sync(guild=guild)
        else:
            synced = await self.tree.sync()
        await self.storage.set_meta(COMMAND_HASH_KEY, digest)
        self.synced = len(synced)
        log.info("synced %d commands (%s)", len(synced), target)
        return len(synced)

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        """A button, menu or form is being served until its first answer (slash commands are
        counted by :class:`ConductorTree`)."""
        if interaction.type in (discord.InteractionType.component, discord.InteractionType.modal_submit):
            self.ui.traffic.arrived(interaction, until_answered=True)

    async def on_app_command_completion(self, interaction: discord.Interaction, command: Any) -> None:
        self.ui.traffic.finished(interaction)

    async def _on_app_command_error(
        self, interaction: discord.Interaction, error: discord.app_commands.AppCommandError
    ) -> None:
        log.error("command failed: %s", error, exc_info=error)
        set_language(interaction.locale)
        message = "✗ " + _("Something went wrong; nothing was changed. Try again, or see /view board.")
        if isinstance(
            error, discord.app_commands.TransformerError | discord.app_commands.CommandSignatureMismatch
        ):
            message = "✗ " + _("I could not read one of the options; please pick from the list.")
        try:
            if interaction.response.is_done():
                await interaction.followup.send(message, ephemeral=True)
            else:
                await interaction.response.send_message(message, ephemeral=True)
        except discord.HTTPException:
            pass
        finally:
            self.ui.traffic.finished(interaction)

    async def on_error(self, event_method: str, /, *args: Any, **kwargs: Any) -> None:
        log.exception("error in %s", event_method)

    async def close(self) -> None:
        await self.app.stop_timers()
        await self.ui.reposts.stop()
        await self.outbox.stop()
        await self.service.stream.drain()  # boards already committed are posted before we go
        await self.workers.close()
        await super().close()
        for unsubscribe in self._unsubscribe:
            unsubscribe()
        if self.tournament_discord in self.tournaments.listeners:
            self.tournaments.listeners.remove(self.tournament_discord)
        await self.app.close()


class ShardedConductorBot(ConductorBot, commands.AutoShardedBot):
    """Conductor running some of the bot's shards (``conductor run --shards 0-3 --shard-count 8``,
    discord.py's ``AutoShardedClient`` with ``shard_ids``): Discord sends it the events of the
    servers those shards own (and, with shard 0, direct messages), and it posts the outcomes of
    those servers' games, whichever process committed them (:mod:`bot.outbox`)."""
