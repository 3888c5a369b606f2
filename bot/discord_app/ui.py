"""The Discord presenter: turns service outcomes into messages, and interactions into service calls.

Cogs and components only parse input and call :class:`GameUI`; GameUI calls
:class:`~bot.service.GameService` and presents the result. Conventions that keep secrets safe:

* every interaction is answered **ephemerally** (``defer(ephemeral=True, thinking=True)`` first,
  then ``followup.send(ephemeral=True)``), so a reply can carry the player's hand;
* everything public (board, events, pings) is posted with the bot's own channel messages from
  the *spectator* view only, never through an interaction token: GameUI subscribes to the
  service's outcome stream (:meth:`GameUI.deliver`), which hands it every committed change of
  every game in order, whichever front end or timer caused it.

The service knows players and servers as references (``discord:<user id>``,
``discord:guild:<guild id>``); every request passes the server it comes from (``where``), so a
game is reachable only from its own server (and, from direct messages, by its own players).
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib
import io
import logging
from typing import TYPE_CHECKING, Any

import discord

from bot.discord_app.settings import GuildSettings
from bot.discord_app.store import DiscordStore, player_ref, space_ref, user_id_of
from bot.present import (
    action_hints,
    board_text,
    final_text,
    fold,
    game_view,
    hand_text,
    render_board_png,
    render_hand_png,
    render_summary_png,
)
from bot.service import GameService, ServiceError
from bot.stream import Line, Outcome
from rules.registry import find_game

if TYPE_CHECKING:
    from bot.discord_app.client import ConductorBot

log = logging.getLogger("conductor.discord")

MAX_CONTENT = 1900
MAX_FILE = 8 * 1024 * 1024  # under Discord's default 10 MiB upload limit
CARD_STYLE = {
    "red": discord.ButtonStyle.danger, "green": discord.ButtonStyle.success, "blue": discord.ButtonStyle.primary,
}


def is_admin(interaction: discord.Interaction, game_guild_id: int | None, manager_role_id: int | None = None) -> bool:
    """Server admins (Manage Server), and holders of the server's game manager role
    (``manager_role_id``, set with ``/ttr manager``), may abort and manage any game *of their
    server* (the interaction's permissions and roles are those of the server it comes from, not of
    the game's)."""
    if interaction.guild_id is None or interaction.guild_id != game_guild_id:
        return False
    perms = getattr(interaction, "permissions", None)
    if perms and (perms.manage_guild or perms.administrator):
        return True
    user = interaction.user
    return (manager_role_id is not None and isinstance(user, discord.Member)
            and user.get_role(manager_role_id) is not None)


def _trim(text: str, limit: int = MAX_CONTENT) -> str:
    if len(text) <= limit:
        return text
    return "…\n" + text[-(limit - 2):]


def who(interaction: discord.Interaction) -> tuple[str, str | None]:
    """``(player, where)``: the service's references for the user and the server they write from."""
    return player_ref(interaction.user.id), space_ref(interaction.guild_id)


def line_text(line: Line, names: tuple[str, ...] | list[str]) -> str:
    """A public line with the actor's name in bold (names escaped: ``__dan__`` stays as typed)."""
    if line.seat is None or not 0 <= line.seat < len(names):
        return line.text
    return f"**{discord.utils.escape_markdown(names[line.seat])}** {line.text}"


class GameUI:
    """Presenter shared by slash commands, buttons and select menus, and the outcome subscriber."""

    def __init__(self, bot: ConductorBot) -> None:
        self.bot = bot
        self.store = DiscordStore(bot.storage)
        self.unposted: set[int] = set()  # games whose last board post failed (retried by the scheduler)

    @property
    def service(self) -> GameService:
        return self.bot.service

    # ---- responding ------------------------------------------------------------------------
    async def defer(self, interaction: discord.Interaction) -> None:
        """Acknowledge within 3 s, privately (the follow-up may hold a hand)."""
        if not interaction.response.is_done():
            await interaction.response.defer(ephemeral=True, thinking=True)

    async def reply(self, interaction: discord.Interaction, content: str, **kwargs: Any) -> None:
        """A private answer (after :meth:`defer`, or as the first response)."""
        content = _trim(content)
        try:
            if interaction.response.is_done():
                await interaction.followup.send(content, ephemeral=True, **kwargs)
            else:
                await interaction.response.send_message(content, ephemeral=True, **kwargs)
        except discord.HTTPException as exc:
            # An expired token or a Discord error must not stop what follows (a committed move's
            # public board): log without the content, which may hold a hand.
            log.warning("could not answer interaction %s: %s %s", interaction.id, exc.status, exc.code)

    async def error(self, interaction: discord.Interaction, exc: ServiceError | str) -> None:
        message = exc.message if isinstance(exc, ServiceError) else exc
        await self.reply(interaction, f"✗ {message}")

    def start_hint(self, game_name: str) -> str:
        """What a player does first, from the game's Discord UI module (its ``START_HINT``)."""
        return str(getattr(self._front_module(game_name), "START_HINT", "Make your move with /play action."))

    # ---- resolving the game ----------------------------------------------------------------
    async def game_for_channel(self, channel_id: int, player: str | None = None) -> int | None:
        """The game played in this thread/channel (preferring one the player sits in)."""
        ids = await self.store.games_in_channel(channel_id)
        if player is not None:
            for gid in ids:
                try:
                    if (await self.service.game_row(gid)).seat_of(player) is not None:
                        return gid
                except ServiceError:
                    continue
        return ids[0] if ids else None

    async def resolve_game(self, interaction: discord.Interaction, game: int | None) -> int:
        """The game the user means: the explicit option, the game in this thread, or their only game
        (of this server; in a direct message, of any server). The game must be reachable from here."""
        player, where = who(interaction)
        if game is not None:
            await self.service.check_reach(int(game), player, where)
            return int(game)
        if interaction.channel_id is not None:
            gid = await self.game_for_channel(interaction.channel_id, player)
            if gid is not None:
                await self.service.check_reach(gid, player, where)
                return gid
        mine = await self.service.my_turns(player, where=where, everywhere=where is None)
        if len(mine) == 1:
            return mine[0][0].id
        if not mine:
            raise ServiceError("no_game", "There is no game here; start one with /ttr new or pass the game number.")
        raise ServiceError("ambiguous", "You are in several games; run this in the game's thread or pass game:<number>.")

    async def admin_of(self, interaction: discord.Interaction, gid: int) -> bool:
        """Whether the user is an admin or game manager of the server game ``gid`` belongs to."""
        guild_id = (await self.store.route(gid)).guild_id
        return is_admin(interaction, guild_id, await GuildSettings(self.bot.storage).manager_role(guild_id))

    # ---- acting ----------------------------------------------------------------------------
    async def act(
        self, interaction: discord.Interaction, game: int | None, action: Any, *, expected_seq: int | None = None,
        expected_moves: int | None = None,
    ) -> None:
        """Defer privately, play ``action`` through the service, answer privately, announce publicly."""
        await self.defer(interaction)
        player, where = who(interaction)
        try:
            gid = await self.resolve_game(interaction, game)
            outcome = await self.service.act(gid, player, action, expected_seq=expected_seq,
                                             expected_moves=expected_moves, where=where)
        except ServiceError as exc:
            await self.error(interaction, exc)
            return
        await self.reply(interaction, "✓ " + await self._private_after(gid, player, outcome),
                         view=await self.private_controls(gid, player))

    async def _private_after(self, gid: int, player: str, outcome: Outcome) -> str:
        lines = [line_text(line, outcome.names) for line in outcome.lines[:3]]
        try:
            view = await self.service.private_view(gid, player)
            lines.append(hand_text(view))
        except ServiceError:
            pass
        seat = None
        with contextlib.suppress(ServiceError):
            seat = (await self.service.game_row(gid)).seat_of(player)
        if seat is not None and seat in outcome.to_act:
            lines.append("It is still your turn.")
        return "\n".join(lines)

    async def private_controls(self, gid: int, player: str) -> Any:
        """Select menus for a pending private choice (tickets to keep, tunnel payment), if any."""
        from bot.discord_app.components import keep_select, tunnel_select

        try:
            view = await self.service.private_view(gid, player)
            legal = await self.service.legal_actions(gid, player)
        except ServiceError:
            return discord.utils.MISSING
        you = view.get("you") or {}
        ui = discord.ui.View(timeout=None)
        if you.get("offer") and any(a.kind == "keep_tickets" for a in legal):
            ui.add_item(keep_select(gid, int(view["moves"]), you["offer"], you.get("keep_min") or 1,
                                    you.get("keep_max") or len(you["offer"])))
        tunnel = [a for a in legal if a.kind in ("tunnel_pay", "tunnel_withdraw")]
        if tunnel:
            ui.add_item(tunnel_select(gid, int(view["moves"]), [a.to_text() for a in tunnel]))
        return ui if ui.children else discord.utils.MISSING

    async def draw_tickets(self, interaction: discord.Interaction, gid: int, seq: int) -> None:
        """The Tickets button: draw at once, or (Märklin) ask privately for the short/long mix."""
        from bot.discord_app.components import ticket_mix_select

        await self.defer(interaction)
        player, where = who(interaction)
        try:
            row = await self.service.check_reach(gid, player, where)
            if row.seat_of(player) is None:
                raise ServiceError("not_your_game", f"You are not playing in game #{gid}.")
            if row.seq != seq:
                raise ServiceError("stale", "This button is from an earlier turn; use the latest board.")
            legal = [a for a in await self.service.legal_actions(gid, player) if a.kind == "draw_tickets"]
        except ServiceError as exc:
            await self.error(interaction, exc)
            return
        if len(legal) <= 1:
            await self.act(interaction, gid, legal[0] if legal else "tickets draw", expected_seq=seq)
            return
        ui = discord.ui.View(timeout=None)
        moves = int((await self.service.private_view(gid, player))["moves"])
        ui.add_item(ticket_mix_select(gid, moves, [a.to_text() for a in legal]))
        await self.reply(interaction, "How many short and long tickets do you want to draw?", view=ui)

    def _front_module(self, game_name: str) -> Any | None:
        """The game's Discord UI module, named by its registry entry (None: the generic controls)."""
        name = find_game(game_name).discord_ui
        return importlib.import_module(name) if name else None

    async def show_hand(self, interaction: discord.Interaction, game: int | None) -> None:
        """*My hand* / ``/view hand``: the player's private state, privately (the game's own panel
        when its Discord UI module has one)."""
        await self.defer(interaction)
        player, where = who(interaction)
        try:
            gid = await self.resolve_game(interaction, game)
            view = await self.service.private_view(gid, player, where=where)
        except ServiceError as exc:
            await self.error(interaction, exc)
            return
        module = self._front_module(str(view["game"]))
        if module is not None and hasattr(module, "show_private"):
            await module.show_private(interaction, gid)
            return
        png = await asyncio.to_thread(render_hand_png, view)
        kwargs: dict[str, Any] = {"view": await self.private_controls(gid, player)}
        if png is not None and len(png) < interaction.filesize_limit:
            kwargs["file"] = discord.File(io.BytesIO(png), filename="hand.png")
        text = f"Game #{gid}\n" + hand_text(view)
        if module is None:
            legal = await self.service.legal_actions(gid, player)
            text += "\n" + (action_hints(legal) if legal else "Nothing to do right now.")
        await self.reply(interaction, text, **kwargs)

    def turn_view(self, outcome: Outcome) -> discord.ui.View:
        """The buttons under a board, from the game's Discord UI module."""
        from bot.discord_app.components import generic_turn_view

        module = self._front_module(outcome.game_name)
        if module is None or outcome.view is None:
            return generic_turn_view(outcome.game_id)
        view: discord.ui.View = module.turn_view(outcome.game_id, outcome.seq, game_view(outcome.view))
        return view

    # ---- public announcements --------------------------------------------------------------
    async def game_channel(self, gid: int) -> discord.abc.Messageable | None:
        """The game's thread, else (no thread, or it was deleted) the channel it was created in."""
        route = await self.store.route(gid)
        if route.thread_id is not None:
            channel = await self._channel(gid, route.thread_id)
            if channel is not None:
                return channel
        return await self._channel(gid, route.channel_id) if route.channel_id is not None else None

    async def _channel(self, gid: int, cid: int) -> discord.abc.Messageable | None:
        channel = self.bot.get_channel(cid)
        if channel is None:
            try:
                channel = await self.bot.fetch_channel(cid)
            except discord.NotFound:
                log.warning("game=%s channel %s is gone", gid, cid)
                await self._thread_gone(gid, cid)
                return None
            except discord.HTTPException:
                log.warning("game=%s channel %s cannot be fetched", gid, cid)
                return None
        return channel if isinstance(channel, discord.abc.Messageable) else None

    async def _thread_gone(self, gid: int, cid: int) -> None:
        """The game's thread was deleted: play on in the channel it was created in."""
        if (await self.store.route(gid)).thread_id == cid:
            log.warning("game=%s thread %s was deleted; the game moves to its channel", gid, cid)
            await self.store.set_thread(gid, None)

    async def post_note(self, gid: int, text: str) -> None:
        """A plain public line in the game's thread (or its channel), pinging nobody; failures are logged."""
        try:
            channel = await self.game_channel(gid)
        except ServiceError:
            return
        if channel is not None:
            await self._send(gid, channel, text, lambda _target: {"allowed_mentions": discord.AllowedMentions.none()})

    async def _send(self, gid: int, channel: discord.abc.Messageable, content: str,
                    make_kwargs: Any) -> discord.Message | None:
        """Post in the game's channel; if its thread was deleted (or refuses us), in the parent channel."""
        try:
            return await channel.send(content, **make_kwargs(channel))
        except (discord.NotFound, discord.Forbidden) as exc:
            cid = getattr(channel, "id", None)
            route = await self.store.route(gid)
            if cid is None or cid != route.thread_id or route.channel_id is None:
                log.warning("game=%s posting in %s failed: %s %s", gid, cid, exc.status, exc.code)
                return None
            if isinstance(exc, discord.NotFound):
                await self._thread_gone(gid, cid)
            parent = await self._channel(gid, route.channel_id)
            if parent is None:
                return None
            try:
                return await parent.send(content, **make_kwargs(parent))
            except discord.HTTPException as exc2:
                log.warning("game=%s posting in %s failed: %s %s", gid, route.channel_id, exc2.status, exc2.code)
                return None
        except discord.HTTPException:
            log.exception("game=%s posting failed", gid)
            return None

    async def deliver(self, outcome: Outcome) -> None:
        """Outcome-stream subscriber: post every committed change in the game's thread."""
        if outcome.view is None:  # a lobby or an aborted game: its lines only
            text = "\n".join(line_text(line, outcome.names) for line in outcome.lines)
            if text:
                await self.post_note(outcome.game_id, text)
            return
        await self.announce(outcome)

    async def announce(self, outcome: Outcome, *, extra: str = "") -> discord.Message | None:
        """Post events, the board (image or text) and a ping for whoever acts next, in the game's thread."""
        gid = outcome.game_id
        view = outcome.view
        if view is None:
            return None
        channel = await self.game_channel(gid)
        if channel is None:
            return None
        png = await asyncio.to_thread(render_board_png, view) if outcome.board_changed else None
        parts: list[str] = []
        if extra:
            parts.append(extra)
        lines = [line_text(line, outcome.names) for line in outcome.lines]
        # keep the first line (e.g. "ran out of time") when a long AI run is cut
        body = "\n".join(lines if len(lines) <= 12 else [lines[0], "…", *lines[-10:]])
        if body:
            parts.append(body)
        if png is None or len(png) > MAX_FILE:
            parts.append(board_text(view))
        if outcome.over:
            final = outcome.scores or view.get("final") or []
            parts.append(final_text(final, view["names"]))
        users = [u for p in outcome.ping if (u := user_id_of(p)) is not None]
        mentions = [discord.Object(id=u) for u in users]
        if users and not outcome.over:
            names = " ".join(f"<@{u}>" for u in users)
            parts.append(f"{names}: your turn in game #{gid}.")
        content = _trim("\n\n".join(parts))
        summary = await asyncio.to_thread(render_summary_png, view) if outcome.over else None

        def make_kwargs(target: Any) -> dict[str, Any]:
            # fresh File objects for every attempt: discord.py closes them after a send
            limit = min(MAX_FILE, getattr(getattr(target, "guild", None), "filesize_limit", MAX_FILE) or MAX_FILE)
            kwargs: dict[str, Any] = {
                "allowed_mentions": discord.AllowedMentions(users=mentions, roles=False, everyone=False),
            }
            files = [discord.File(io.BytesIO(data), filename=name)
                     for data, name in ((png, "board.png"), (summary, "summary.png"))
                     if data is not None and len(data) <= limit]
            if files:
                kwargs["files"] = files
            if not outcome.over:
                kwargs["view"] = self.turn_view(outcome)
            return kwargs

        msg = await self._send(gid, channel, content, make_kwargs)
        if msg is None:
            log.error("game=%s seq=%s: the board could not be posted; retrying later", gid, outcome.seq)
            self.unposted.add(gid)
            return None
        self.unposted.discard(gid)
        await self.store.record_message(gid, outcome.seq, msg.channel.id, msg.id)
        return msg

    async def retry_unposted(self) -> int:
        """Scheduler hook: post the current board of games whose last board post failed."""
        pending = sorted(self.unposted)
        self.unposted.difference_update(pending)
        if not pending:
            return 0
        return await self.repost_stale_boards(pending, extra="The current board:", include_over=True)

    async def repost_stale_boards(self, game_ids: list[int], *, extra: str = "The board after a restart:",
                                  include_over: bool = False) -> int:
        """After a restart: post a fresh board for every active game whose last posted board is older
        than its state (a crash between commit and post, or AI moves made while resuming).
        ``include_over`` also posts the final scores of a finished game whose last post failed."""
        count = 0
        for gid in game_ids:
            try:
                row = await self.service.game_row(gid)
                over = row.status == "over" and include_over
                if row.status != "active" and not over:
                    continue
                latest = await self.store.latest_message(gid)
                if latest is not None and latest[0] == row.seq:
                    continue
                outcome = await self.service.current_outcome(gid)
                if await self.announce(outcome, extra=extra) is not None:
                    count += 1
            except Exception:  # noqa: BLE001 - one game must not stop the others
                log.exception("game=%s could not repost its board", gid)
        return count

    async def report_broken(self, gid: int) -> None:
        """Tell a game's thread that its saved state could not be restored (other games go on)."""
        route = await self.store.route(gid)
        cid = route.thread_id or route.channel_id
        if cid is None:
            return
        try:
            channel = self.bot.get_channel(cid) or await self.bot.fetch_channel(cid)
            if isinstance(channel, discord.abc.Messageable):
                await channel.send(
                    f"⚠ Game #{gid} could not be restored after a restart and is paused; the bot's admins have"
                    " the details in the log. Other games are not affected.",
                    allowed_mentions=discord.AllowedMentions.none(),
                )
        except discord.HTTPException:
            log.warning("game=%s: could not report the broken game", gid)

    async def remind(self, gid: int, players: list[str], deadline: float | None) -> None:
        """Scheduler hook: a reminder in the game's thread pinging only the players to act."""
        users = [u for p in players if (u := user_id_of(p)) is not None]
        if not users:
            return
        try:
            channel = await self.game_channel(gid)
        except ServiceError:
            return
        if channel is None:
            return
        when = f" <t:{int(deadline)}:R>" if deadline else ""
        names = " ".join(f"<@{u}>" for u in users)
        mentions = discord.AllowedMentions(users=[discord.Object(id=u) for u in users])
        if await self._send(gid, channel, f"⏰ {names}: your turn in game #{gid} runs out{when}.",
                            lambda _target: {"allowed_mentions": mentions}) is None:
            log.warning("game=%s reminder failed", gid)

    # ---- autocomplete helpers (in memory, fast) --------------------------------------------
    async def game_for_autocomplete(self, interaction: discord.Interaction) -> Any | None:
        game_opt = getattr(interaction.namespace, "game", None)
        try:
            gid = await self.resolve_game(interaction, game_opt)
            return await self.service.load(gid)
        except ServiceError:
            return None


def match(query: str, *texts: str) -> bool:
    """Accent/case-insensitive substring match of ``query`` against any of ``texts``."""
    q = fold(query.strip())
    return not q or any(q in fold(t) for t in texts)
