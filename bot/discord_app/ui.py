"""The Discord presenter: turns service outcomes into messages, and interactions into service calls.

Cogs and components only parse input and call :class:`GameUI`; GameUI calls
:class:`~bot.service.GameService` and presents the result. Conventions that keep secrets safe:

* every interaction is answered **ephemerally** (``defer(ephemeral=True, thinking=True)`` first,
  then ``followup.send(ephemeral=True)``), so a reply can carry the player's hand; a move
  (:meth:`GameUI.act`) is answered in one private response when its answer is ready within
  ``DEFER_AFTER`` seconds, and deferred privately at that moment otherwise (one request to Discord
  instead of two for a move, well inside Discord's three seconds either way);
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
import io
import logging
import time
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

import discord

from bot.discord_app.dm_hands import DMHands, toggle_button
from bot.discord_app.game_ui import game_ui_of
from bot.discord_app.hand_pictures import HandAttachment, HandPictures, with_picture
from bot.discord_app.interaction import who as who
from bot.discord_app.items import generic_turn_view, take_back_button
from bot.discord_app.markdown import literal, literal_text
from bot.discord_app.outbox_posts import OutboxPosts
from bot.discord_app.plans import PlanPanel, offers_plans, plan_button
from bot.discord_app.settings import GuildSettings
from bot.discord_app.shards import posts_for
from bot.discord_app.store import DiscordStore, user_id_of
from bot.names import names_written
from bot.present import (
    action_hints,
    board_text,
    final_text,
    fold,
    game_view,
    hand_text,
    in_language,
    line_words,
    map_key,
    plain_names,
    render_board_png,
    render_summary_png,
    said_words,
    seat_name_words,
)
from bot.service import GameService, ServiceError
from bot.stream import Line, Outcome
from lang import M, Msg, _, normalise, set_language, text_of, using

if TYPE_CHECKING:
    from bot.discord_app.client import ConductorBot

log = logging.getLogger("conductor.discord")

MAX_CONTENT = 1900
MAX_FILE = 8 * 1024 * 1024  # under Discord's default 10 MiB upload limit
AFTER_RESTART = M("The board after a restart:")
# A move's answer ready within this many seconds is the interaction's first (and only) response;
# later, the interaction is deferred then and answered with a follow-up (Discord allows 3 s).
DEFER_AFTER = 1.0
CARD_STYLE = {
    "red": discord.ButtonStyle.danger,
    "green": discord.ButtonStyle.success,
    "blue": discord.ButtonStyle.primary,
}


def is_admin(
    interaction: discord.Interaction, game_guild_id: int | None, manager_role_id: int | None = None
) -> bool:
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
    return (
        manager_role_id is not None
        and isinstance(user, discord.Member)
        and user.get_role(manager_role_id) is not None
    )


def messages_of(lines: list[str], limit: int) -> list[str]:
    """``lines`` gathered into as few messages of at most ``limit`` characters as they fit in,
    breaking only between lines (a line longer than ``limit`` is cut, saying so)."""
    messages: list[str] = []
    current: list[str] = []
    for line in lines:
        if current and len("\n".join([*current, line])) > limit:
            messages.append("\n".join(current))
            current = []
        current.append(line)
    if current:
        messages.append("\n".join(current))
    return [_trim(m, limit) for m in messages]


def _trim(text: str, limit: int = MAX_CONTENT) -> str:
    """``text`` cut to ``limit`` characters, keeping its head and saying that the rest was cut.

    The head is what matters: a reply starts with the ✓ line and the move itself. The cut falls on
    a line break where one is near, closes a code block it would leave open, and keeps a final
    line holding a mention (a public post ends with "@player: your turn"), which pings only if it
    is in the message.
    """
    if len(text) <= limit:
        return text
    rest, _, last = text.rpartition("\n")
    tail = "\n" + last if rest and "<@" in last and len(last) <= limit // 4 else ""
    # room for the note, whose only variable part (the count) has at most len(str(len(text))) digits
    note_room = len(_cut_note(len(text))) + len("\n```")
    head = text[: max(0, limit - note_room - len(tail))]
    line_break = head.rfind("\n")
    if line_break >= len(head) // 2:
        head = head[:line_break]
    note = _cut_note(len(text) - len(head) - len(tail))
    fence = "\n```" if head.count("```") % 2 else ""
    return head + fence + note + tail


def _cut_note(cut: int) -> str:
    return "\n… " + _("({n} more characters cut: a Discord message holds at most 2000)", n=cut)


def _told(lines: tuple[Line, ...]) -> tuple[Line, ...]:
    """The lines one post tells: an action with no public facts of its own (First Class's end of
    turn) is left out when the same player's moves are in the post, which already read as a turn."""
    moved = {line.seat for line in lines if not _bare_action(line)}
    return tuple(line for line in lines if not (_bare_action(line) and line.seat in moved))


def _bare_action(line: Line) -> bool:
    return isinstance(line.event, dict) and line.event.get("type") == "action"


def line_text(line: Line, names: tuple[str, ...] | list[str]) -> str:
    """A public line with the actor's name in bold (names escaped: ``__dan__`` stays as typed)."""
    with plain_names():  # worded with names as they are, then escaped whole, names with it
        text = literal_text(line_words(line))
        if line.seat is None or not 0 <= line.seat < len(names):
            return text
        actor = seat_name_words(names[line.seat])
    return f"**{literal(actor)}** {text}"


class Traffic:
    """The interactions being served right now, so that background work (board reposts) waits
    until none is: a person's command is answered first, whatever the bot has queued.

    A slash command counts from the moment the command tree takes it until it has completed or
    failed (:meth:`arrived`, :meth:`finished`); a button or menu counts until its first answer
    (``response.is_done()``), since its handler may live in any module. Nothing counts longer than
    ``patience`` seconds, so an interaction whose end was never seen cannot stop background work."""

    def __init__(self, patience: float = 10.0, clock: Callable[[], float] = time.monotonic) -> None:
        self.patience = patience
        self.clock = clock
        self._serving: dict[int, tuple[discord.Interaction, float, bool]] = {}
        self._changed = asyncio.Event()

    def arrived(self, interaction: discord.Interaction, *, until_answered: bool = False) -> None:
        """An interaction is being served (``until_answered``: until its first response)."""
        self._serving.setdefault(interaction.id, (interaction, self.clock(), until_answered))

    def finished(self, interaction: discord.Interaction) -> None:
        """The interaction's handler is done."""
        self._serving.pop(interaction.id, None)
        self._changed.set()

    def poke(self) -> None:
        """Something was answered: waiting background work looks again."""
        self._changed.set()

    def busy(self) -> bool:
        """Whether an interaction is being served now."""
        now = self.clock()
        for key, (interaction, since, until_answered) in list(self._serving.items()):
            if now - since > self.patience or (until_answered and interaction.response.is_done()):
                del self._serving[key]
        return bool(self._serving)

    async def quiet(self) -> None:
        """Return once no interaction is being served. Woken by every end and answer; it looks
        again at least every half second for a button answered without :class:`GameUI`."""
        while self.busy():
            self._changed.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._changed.wait(), timeout=0.5)


class BoardReposts:
    """Boards to post again (after a restart, or after Discord refused a post), posted in the
    background one at a time: before each post the queue waits until no interaction is being served
    (:class:`Traffic`) and yields to the event loop, and it posts at most ``per_round`` boards before
    a ``pause``, so a restart with many stale boards never crowds out the people using the bot."""

    def __init__(
        self,
        post: Callable[[int, str | Msg, bool], Awaitable[bool]],
        traffic: Traffic,
        *,
        per_round: int = 5,
        pause: float = 1.0,
    ) -> None:
        """``post(game_id, extra, include_over)`` posts one game's current board; True if posted."""
        self.post = post
        self.traffic = traffic
        self.per_round = per_round
        self.pause = pause
        self.pending: dict[
            int, tuple[str | Msg, bool]
        ] = {}  # game id -> (extra line, include_over), in order
        self.posted = 0
        self.held_back = 0  # how many times a post waited for interactions to be served
        self._task: asyncio.Task[None] | None = None
        self._idle = asyncio.Event()
        self._idle.set()

    def add(self, game_ids: list[int], *, extra: str | Msg, include_over: bool = False) -> int:
        """Queue ``game_ids`` (a game already queued stays once); returns how many are queued now."""
        for gid in game_ids:
            _, over = self.pending.get(gid, (extra, False))
            self.pending[gid] = (extra, over or include_over)
        if self.pending and (self._task is None or self._task.done()):
            self._idle.clear()
            self._task = asyncio.create_task(self._run(), name="conductor-board-reposts")
        return len(self.pending)

    async def _run(self) -> None:
        try:
            while self.pending:
                for _ in range(self.per_round):
                    if not self.pending:
                        break
                    if self.traffic.busy():
                        self.held_back += 1
                        await self.traffic.quiet()
                    gid = next(iter(self.pending))
                    extra, include_over = self.pending.pop(gid)
                    try:
                        if await self.post(gid, extra, include_over):
                            self.posted += 1
                    except Exception:  # noqa: BLE001 - one game must not stop the others
                        log.exception("game=%s could not repost its board", gid)
                    await asyncio.sleep(0)  # whatever else is ready runs before the next post
                if self.pending:
                    await asyncio.sleep(self.pause)
        finally:
            self._idle.set()

    async def idle(self) -> None:
        """Wait until every queued board has been tried."""
        await self._idle.wait()

    async def stop(self) -> None:
        """Cancel the queue (the bot is closing; the boards are reposted after the next start)."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None


class KeptDMHands(DMHands):
    """:class:`DMHands` with each player's opt-in read from the database once and then kept: every
    committed change of a game asks it for every seated player, and only :meth:`set_enabled` (this
    process) changes it."""

    def __init__(self, ui: GameUI) -> None:
        super().__init__(ui)
        self._enabled: dict[str, bool] = {}
        self._writes = 0  # a read that a write overtook is not kept

    async def enabled(self, player: str) -> bool:
        known = self._enabled.get(player)
        if known is None:
            writes = self._writes
            known = await super().enabled(player)
            if writes == self._writes:
                self._enabled[player] = known
        return known

    async def set_enabled(self, player: str, on: bool) -> None:
        self._writes += 1
        self._enabled.pop(player, None)
        await super().set_enabled(player, on)
        self._enabled[player] = on


class GameUI:
    """Presenter shared by slash commands, buttons and select menus, and the outcome subscriber."""

    def __init__(self, bot: ConductorBot) -> None:
        self.bot = bot
        self.store = DiscordStore(bot.storage)
        self.unposted: set[int] = set()  # games whose last board post failed (retried by the scheduler)
        # One public message per turn (for games whose Discord UI asks for it): a step that
        # leaves its actor still to act is held back, its lines posted with the turn's end.
        self.held_lines: dict[int, tuple[Line, ...]] = {}
        self.held_seq: dict[int, int] = {}  # the seq a game is quiet at, mid-turn (tests wait on it)
        self.last_map: dict[int, Any] = {}  # the map (presenter's ``map_key``) of the last posted image
        # who the last public message asked to act: (seat, player) pairs, so that a seat handed to
        # another person on its turn pings its new player
        self.last_to_act: dict[int, frozenset[tuple[int, str | None]]] = {}
        self._numbers: dict[int, int] = {}  # game id -> its number in its server (fixed once given)
        self.dm: DMHands = KeptDMHands(self)
        self.plans = PlanPanel(self)
        # interactions whose deferral waits for DEFER_AFTER (a timer) or is on its way (a task)
        self._deferrals: dict[int, asyncio.TimerHandle | asyncio.Task[None]] = {}
        self.traffic = Traffic()
        self._refused: set[int] = set()  # interactions whose deferral Discord refused (reply: none)
        # The one live control surface of each game: (channel id, message id) of the board that
        # carries its buttons (None: none does), read from the posted messages once per game.
        self._live: dict[int, tuple[int, int] | None] = {}
        self._posting: dict[int, asyncio.Lock] = {}  # one board post at a time per game
        self.reposts = BoardReposts(self._repost_one, self.traffic)
        # the seq of each game's last posted board: an outcome behind it (posted meanwhile from
        # the outbox, see bot.discord_app.outbox_posts) is not posted again
        self.posted_seq: dict[int, int] = {}
        self._post_locks: dict[int, asyncio.Lock] = {}
        self.from_outbox = OutboxPosts(self)
        self.hand_pictures = HandPictures(lambda draw, view: self.bot.workers.render(draw, view))

    def post_lock(self, gid: int) -> asyncio.Lock:
        """Serialises a game's public posts, whether they come from this process's outcome stream
        or from the outbox (another process's commit, or one a crash left unposted)."""
        lock = self._post_locks.get(gid)
        if lock is None:
            lock = self._post_locks[gid] = asyncio.Lock()
        return lock

    async def posts_for(self, gid: int) -> bool:
        """Whether this process posts the game's outcomes: its shards own the game's server."""
        guild_id = (await self.store.route(gid)).guild_id
        return posts_for(guild_id, self.bot.posting_shards, self.bot.shard_count)

    @property
    def service(self) -> GameService:
        return self.bot.service

    # ---- responding ------------------------------------------------------------------------
    async def defer(self, interaction: discord.Interaction) -> None:
        """Acknowledge within 3 s, privately (the follow-up may hold a hand). From here on this
        interaction's task writes in the person's Discord language."""
        set_language(interaction.locale)
        if not interaction.response.is_done():
            try:
                await interaction.response.defer(ephemeral=True, thinking=True)
            except discord.HTTPException as exc:
                # too late or rate limited: the work goes on, and a move's answer goes by direct
                # message (:meth:`confirm`)
                log.warning("could not defer interaction %s: %s %s", interaction.id, exc.status, exc.code)
                self._refused.add(interaction.id)
            self.traffic.poke()

    def defer_later(self, interaction: discord.Interaction) -> None:
        """Defer ``interaction`` (privately) in ``DEFER_AFTER`` seconds unless it is answered first
        (:meth:`reply` settles it); its task writes in the person's Discord language from now on."""
        set_language(interaction.locale)
        if interaction.response.is_done() or interaction.id in self._deferrals:
            return

        def start() -> None:
            self._deferrals[interaction.id] = asyncio.get_running_loop().create_task(self.defer(interaction))

        self._deferrals[interaction.id] = asyncio.get_running_loop().call_later(DEFER_AFTER, start)

    async def _settle_deferral(self, interaction: discord.Interaction) -> None:
        """Before an answer: a deferral still waiting is dropped, one on its way is waited for (so
        the answer is never a second first response)."""
        pending = self._deferrals.pop(interaction.id, None)
        if isinstance(pending, asyncio.TimerHandle):
            pending.cancel()
        elif pending is not None:
            with contextlib.suppress(discord.HTTPException):
                await pending

    async def reply(self, interaction: discord.Interaction, content: str, **kwargs: Any) -> bool:
        """A private answer (after :meth:`defer`, or as the first response); False if Discord
        refused it."""
        ok, _sent = await self._reply(interaction, content, **kwargs)
        return ok

    async def _reply(
        self, interaction: discord.Interaction, content: str, **kwargs: Any
    ) -> tuple[bool, discord.Message | None]:
        """:meth:`reply`, with the message sent when it is a follow-up sent with ``wait=True``
        (an uploaded hand picture's URL is read from it). With a layout view
        (``view=LayoutView``) the text is the view's own (such a message has no content)."""
        await self._settle_deferral(interaction)
        if interaction.id in self._refused:  # Discord refused its first reply: no other can follow
            self._refused.discard(interaction.id)
            return False, None
        content = _trim(content)
        if isinstance(kwargs.get("view"), discord.ui.LayoutView):
            content = discord.utils.MISSING
        try:
            if interaction.response.is_done():
                sent = await interaction.followup.send(content, ephemeral=True, **kwargs)
                return True, sent if isinstance(sent, discord.Message) else None
            kwargs.pop("wait", None)
            await interaction.response.send_message(content, ephemeral=True, **kwargs)
            self.traffic.poke()
        except discord.HTTPException as exc:
            # An expired token or a Discord error must not stop what follows (a committed move's
            # public board): log without the content, which may hold a hand.
            log.warning("could not answer interaction %s: %s %s", interaction.id, exc.status, exc.code)
            self.traffic.poke()
            return False, None
        return True, None

    async def confirm(
        self, interaction: discord.Interaction, number: int, content: str, view: Any = discord.utils.MISSING
    ) -> None:
        """The private answer to a move that counted. When Discord refuses it (the first reply
        missed the 3-second deadline, or met a rate limit), the player saw "This interaction
        failed", which invites a second try: the answer then goes by direct message, saying the
        move counted (a second press is answered "already counted" by the service)."""
        if await self.reply(interaction, content, view=view):
            return
        note = _(
            "Your move in game #{game} counted; Discord did not pass on the bot's answer in time:",
            game=number,
        )
        try:
            await interaction.user.send(_trim(f"{note}\n{content}"), view=view)
        except discord.HTTPException as exc:
            log.warning(
                "game #%s: the confirmation by direct message failed too: %s %s", number, exc.status, exc.code
            )

    async def error(self, interaction: discord.Interaction, exc: ServiceError | str | Msg) -> None:
        message = exc.said if isinstance(exc, ServiceError) else exc
        await self.reply(interaction, f"✗ {said_words(message, interaction.locale)}")

    async def game_language(self, gid: int) -> str:
        """The language a game's public messages and images are written in (its config's
        ``language``, chosen at /ttr new; English for a game without one)."""
        try:
            return normalise((await self.service.game_row(gid)).config.get("language"))
        except ServiceError:
            return normalise(None)

    def start_hint(self, game_name: str) -> str:
        """What a player does first, from the game's Discord UI (its ``start_hint``)."""
        game_ui = game_ui_of(game_name)
        return text_of(game_ui.start_hint if game_ui is not None else M("Make your move with /play action."))

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
            raise ServiceError(
                "no_game", M("There is no game here; start one with /ttr new or pass the game number.")
            )
        raise ServiceError(
            "ambiguous", M("You are in several games; run this in the game's thread or pass game:<number>.")
        )

    async def game_numbered(self, interaction: discord.Interaction, number: int | None) -> int | None:
        """The id of the game the user means by the number they typed (None: they typed none). Numbers
        count per server (see :meth:`GameService.game_numbered`); raises ``not_found`` otherwise."""
        if number is None:
            return None
        player, where = who(interaction)
        return await self.service.game_numbered(int(number), player, where)

    async def number(self, gid: int) -> int:
        """Game ``gid``'s number as its players read it ("game #3", counted per server). A number
        never changes once given, so it is read from the database once per game, not per message."""
        number = self._numbers.get(gid)
        if number is None:
            number = await self.bot.storage.game_number(gid)
            if number is None:
                return gid
            self._numbers[gid] = number
        return number

    async def admin_of(self, interaction: discord.Interaction, gid: int) -> bool:
        """Whether the user is an admin or game manager of the server game ``gid`` belongs to."""
        guild_id = (await self.store.route(gid)).guild_id
        return is_admin(interaction, guild_id, await GuildSettings(self.bot.storage).manager_role(guild_id))

    # ---- acting ----------------------------------------------------------------------------
    async def act(
        self,
        interaction: discord.Interaction,
        game: int | None,
        action: Any,
        *,
        expected_seq: int | None = None,
        expected_moves: int | None = None,
    ) -> None:
        """Play ``action`` through the service and answer privately (deferred only if that takes
        ``DEFER_AFTER`` seconds); the public board follows from the outcome stream."""
        self.defer_later(interaction)
        try:
            player, where = who(interaction)
            try:
                gid = await self.resolve_game(interaction, game)
                outcome = await self.service.act(
                    gid, player, action, expected_seq=expected_seq, expected_moves=expected_moves, where=where
                )
            except ServiceError as exc:
                await self.error(interaction, exc)
                return
            # presented from the outcome alone: nothing more is asked of the service
            hint, controls = await self.private_panel(outcome, player)
            await self.confirm(
                interaction, outcome.number, "✓ " + self._private_after(outcome, player, hint), controls
            )
        finally:
            await self._settle_deferral(interaction)  # an unexpected error: no deferral left behind

    def _private_after(self, outcome: Outcome, player: str, hint: str = "") -> str:
        lines = [line_text(line, outcome.names) for line in outcome.lines[:3]]
        seat = outcome.seat_of(player)
        if seat is not None and outcome.private is not None:
            lines.append(hand_text(outcome.private.view(seat)))
        if hint:
            lines.append(hint)
        elif seat is not None and seat in outcome.to_act:
            lines.append(_("It is still your turn."))
        return "\n".join(lines)

    async def private_panel(self, outcome: Outcome, player: str) -> tuple[str, Any]:
        """What the player can do next in ``outcome``'s state, in words, and the private controls
        for it (the game's Discord UI's ``private_panel``; without one: no hint, no controls).
        Read from the outcome alone."""
        game_ui = game_ui_of(outcome.game_name)
        if game_ui is None:
            return "", discord.utils.MISSING
        hint, ui = await game_ui.private_panel(self, outcome, player)
        if not outcome.over and outcome.seat_of(player) is not None and offers_plans(outcome.game_name):
            ui = ui if ui is not None else discord.ui.View(timeout=None)
            with contextlib.suppress(ValueError):  # a panel with no room left keeps its own controls
                ui.add_item(plan_button(outcome.game_id))
        if outcome.take_backs and outcome.actor == player and not outcome.over:
            # the answer to one's own move (or take-back) offers to take it back; the rule is
            # applied on the click, which names it when the move stands
            ui = ui if ui is not None else discord.ui.View(timeout=None)
            with contextlib.suppress(ValueError):  # a panel with no room left keeps its own controls
                ui.add_item(take_back_button(outcome.game_id))
        return str(hint), (ui if ui is not None and ui.children else discord.utils.MISSING)

    async def take_back(self, interaction: discord.Interaction, game: int) -> None:
        """*Take back*: the player's last move is taken back when the rules allow it (else the
        rule that keeps it is said), answered privately like a move."""
        self.defer_later(interaction)
        try:
            player, where = who(interaction)
            try:
                outcome = await self.service.take_back(game, player, where=where)
            except ServiceError as exc:
                await self.error(interaction, exc)
                return
            hint, controls = await self.private_panel(outcome, player)
            await self.confirm(
                interaction, outcome.number, "✓ " + self._private_after(outcome, player, hint), controls
            )
        finally:
            await self._settle_deferral(interaction)

    async def show_hand(self, interaction: discord.Interaction, game: int | None) -> None:
        """*My hand* / ``/view hand``: the player's private state, privately (the game's own panel
        when its Discord UI has one)."""
        await self.defer(interaction)
        player, where = who(interaction)
        try:
            gid = await self.resolve_game(interaction, game)
            view = await self.service.private_view(gid, player, where=where)
        except ServiceError as exc:
            await self.error(interaction, exc)
            return
        game_ui = game_ui_of(str(view["game"]))
        if game_ui is not None and await game_ui.show_private(self, interaction, gid):
            return
        picture = await self.hand_pictures.attachment(
            player, gid, in_language(view), filename="hand.png", limit=interaction.filesize_limit
        )
        try:
            now = await self.service.current_outcome(gid)
        except ServiceError as exc:
            await self.error(interaction, exc)
            return
        hint, controls = await self.private_panel(now, player)
        if not isinstance(controls, discord.ui.View):
            controls = discord.ui.View(timeout=None)
        controls.add_item(toggle_button(gid, await self.dm.enabled(player)))
        text = _("Game #{game}", game=await self.number(gid)) + "\n" + hand_text(view)
        if game_ui is None:
            seat = now.seat_of(player)
            legal = list(now.private.legal(seat)) if now.private is not None and seat is not None else []
            text += "\n" + (action_hints(legal) if legal else _("Nothing to do right now."))
        elif hint:
            text += "\n" + hint
        await self.reply_with_picture(interaction, text, controls, picture)

    async def reply_with_picture(
        self,
        interaction: discord.Interaction,
        text: str,
        controls: discord.ui.View | None,
        picture: HandAttachment | None,
    ) -> None:
        """A private answer with a hand picture: uploaded (and remembered) the first time in a
        state, shown again by its URL after that (:mod:`bot.discord_app.hand_pictures`)."""
        if picture is not None and picture.url is not None:
            await self.reply(interaction, "", view=with_picture(_trim(text), controls, picture.url))
            return
        kwargs: dict[str, Any] = {"view": controls} if controls is not None else {}
        if picture is not None and picture.file is not None:
            kwargs.update(file=picture.file, wait=True)
        _ok, picture_sent = await self._reply(interaction, text, **kwargs)
        if picture is not None:
            picture.remember(picture_sent)

    def turn_view(self, outcome: Outcome) -> discord.ui.View:
        """The buttons under a board, from the game's Discord UI."""
        game_ui = game_ui_of(outcome.game_name)
        if game_ui is None or outcome.view is None:
            return generic_turn_view(outcome.game_id)
        return game_ui.turn_view(outcome.game_id, outcome.seq, game_view(outcome.view))

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

    async def post_note(self, gid: int, text: str | Msg) -> None:
        """A plain public line in the game's thread (or its channel), pinging nobody; failures are logged."""
        try:
            channel = await self.game_channel(gid)
        except ServiceError:
            return
        if channel is not None:
            with using(await self.game_language(gid)):
                content = text_of(text)
            await self._send(
                gid, channel, content, lambda _target: {"allowed_mentions": discord.AllowedMentions.none()}
            )

    async def _send(
        self, gid: int, channel: discord.abc.Messageable, content: str, make_kwargs: Any
    ) -> discord.Message | None:
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
                log.warning(
                    "game=%s posting in %s failed: %s %s", gid, route.channel_id, exc2.status, exc2.code
                )
                return None
        except discord.HTTPException:
            log.exception("game=%s posting failed", gid)
            return None

    async def deliver(self, outcome: Outcome) -> None:
        """Outcome-stream subscriber: post every committed change in the game's thread (a step
        that leaves its actor still to act waits for the end of the turn, see :meth:`mid_turn`)."""
        names_written(literal)  # this delivery's text (the client's own tasks have it already)
        self._numbers.setdefault(outcome.game_id, outcome.number)
        if not await self.posts_for(outcome.game_id):
            if outcome.notes:
                await self.plans.notify(outcome)  # private notes: to their players alone
            return  # another process's shards own the game's server: it posts from the outbox
        async with self.post_lock(outcome.game_id):
            if outcome.view is None:  # a lobby or an aborted game: its lines only
                with using(outcome.language):
                    text = "\n".join(line_text(line, outcome.names) for line in outcome.lines)
                if text:
                    await self.post_note(outcome.game_id, text)
                return
            if outcome.seq < self.posted_seq.get(outcome.game_id, -1):
                return  # a newer board, with these lines, was posted from the outbox meanwhile
            if self.mid_turn(outcome):
                self.held_lines[outcome.game_id] = self.held_lines.get(outcome.game_id, ()) + outcome.lines
                self.held_seq[outcome.game_id] = outcome.seq
            else:
                await self.announce(outcome, nonce=True)
            with using(outcome.language):  # a DM hand: the game's language
                await self.dm.refresh(outcome)  # hands kept in direct messages (opt-in), edited
            if outcome.notes:
                await self.plans.notify(outcome)  # private notes: to their players alone

    def mid_turn(self, outcome: Outcome) -> bool:
        """Whether ``outcome`` is a step inside one player's turn (a first card, a ticket draw, a
        tunnel reveal) that the game's Discord UI answers privately, from its ``mid_turn`` hook:
        the public message then waits for the end of the turn."""
        game_ui = game_ui_of(outcome.game_name)
        if game_ui is None or outcome.over or outcome.view is None or outcome.actor_seat is None:
            return False
        return outcome.actor_seat in outcome.to_act and bool(
            game_ui.mid_turn(game_view(outcome.view), outcome.actor_seat)
        )

    def _pings(self, outcome: Outcome, held: tuple[Line, ...] = ()) -> list[int]:
        """Discord users to ping: each player to act once per turn (not again when another seat's
        simultaneous choice leaves them still choosing). ``held``: the lines of steps held back
        for this post; a seat that acted in them has had a turn since the last board, so it is
        pinged again (a turn's end merged with the next player's first step is held whole), unless
        its turn is still going on (a Märklin opening's ticket draw while another seat keeps: the
        seat was pinged for this turn already)."""
        before = self.last_to_act.get(outcome.game_id)
        own = {line.seat for line in (*held, *outcome.lines)}
        game_ui = game_ui_of(outcome.game_name)
        view = game_view(outcome.view) if outcome.view is not None else None
        seats = outcome.seats
        users: list[int] = []
        for seat in outcome.to_act:
            ref = seats[seat].player if seat < len(seats) else None
            if before is not None and (seat, ref) in before:  # asked before, and the same player
                if seat not in own:
                    continue
                if game_ui is not None and view is not None and game_ui.mid_turn(view, seat):
                    continue
            if ref is not None and ref in outcome.ping and (u := user_id_of(ref)) is not None:
                users.append(u)
        return users

    async def announce(
        self, outcome: Outcome, *, extra: str | Msg = "", nonce: bool = False
    ) -> discord.Message | None:
        """Post events, the board (text, and an image when the map changed) and one ping for
        whoever acts next, in the game's thread, in the game's language. ``nonce``: the post is a
        new move's board, sent with a nonce of the game and seq, so Discord keeps one message for
        it however many times it is sent (a process killed after posting and before marking it
        posted, then posting it again from the outbox)."""
        self._numbers.setdefault(outcome.game_id, outcome.number)
        with using(outcome.language):
            async with self._posting_lock(outcome.game_id):  # a repost never races a turn's board
                return await self._announce(outcome, extra=text_of(extra), nonce=nonce)

    def _posting_lock(self, gid: int) -> asyncio.Lock:
        lock = self._posting.get(gid)
        if lock is None:
            lock = self._posting[gid] = asyncio.Lock()
        return lock

    async def _live_board(self, gid: int) -> tuple[int, int] | None:
        """The game's board that carries its buttons now (channel id, message id), if any. Only
        this process posts the game's boards, so the newest recorded one is read once and then kept."""
        if gid not in self._live:
            latest = await self.store.latest_message(gid)
            self._live[gid] = None if latest is None else (latest[1], latest[2])
        return self._live[gid]

    async def _retire_live(self, gid: int, keep: int | None = None) -> None:
        """Take the buttons off the game's live board (not message ``keep``, the one just posted),
        so that one message of a game carries its buttons: an old board scrolled back to on a phone
        shows none to press. A failed edit is logged: that board's buttons still answer that they
        are from an earlier turn."""
        live = await self._live_board(gid)
        if live is None or live[1] == keep:
            return
        self._live[gid] = None
        channel_id, message_id = live
        try:
            await self.bot.get_partial_messageable(channel_id).get_partial_message(message_id).edit(view=None)
        except discord.HTTPException as exc:
            log.warning("game=%s: the buttons of board %s stay: %s %s", gid, message_id, exc.status, exc.code)

    async def _announce(
        self, outcome: Outcome, *, extra: str = "", nonce: bool = False
    ) -> discord.Message | None:
        gid = outcome.game_id
        # a second post at the same seq (a seat handed over) is a message of its own
        nonce_of = f"{gid}.{outcome.seq}" if nonce and outcome.seq > self.posted_seq.get(gid, -1) else None
        if outcome.view is None:
            return None
        channel = await self.game_channel(gid)
        if channel is None:
            return None
        view = outcome.view.copy()
        deadline = None if outcome.over else outcome.deadline
        if deadline is not None:
            view["deadline"] = deadline
        held = self.held_lines.pop(gid, ())
        self.held_seq.pop(gid, None)
        all_lines = _told(held + outcome.lines)
        drawn = map_key(view)
        fresh_map = drawn is None or outcome.over or bool(extra) or self.last_map.get(gid) != drawn
        png = (
            await self.bot.workers.render(render_board_png, in_language(view))
            if outcome.board_changed and fresh_map
            else None
        )
        parts: list[str] = []
        if extra:
            parts.append(extra)
        lines = [line_text(line, outcome.names) for line in all_lines]
        # keep the first line (e.g. "ran out of time") when a long AI run is cut
        body = "\n".join(lines if len(lines) <= 12 else [lines[0], "…", *lines[-10:]])
        if body:
            parts.append(body)
        parts.append(board_text(view))
        if outcome.over:
            final = outcome.scores or view.get("final") or []
            parts.append(final_text(final, view["names"], outcome.game_name))
        users = [] if outcome.over else self._pings(outcome, held)
        mentions = [discord.Object(id=u) for u in users]
        if users:
            names = " ".join(f"<@{u}>" for u in users)
            deadline = (view.get("timer") or {}).get("deadline")
            when = " " + _("(time runs out {when})", when=f"<t:{int(deadline)}:R>") if deadline else ""
            parts.append(
                _(
                    "{players}: your turn in game #{game}{when}.",
                    players=names,
                    game=outcome.number,
                    when=when,
                )
            )
        content = _trim("\n\n".join(parts))
        summary = (
            await self.bot.workers.render(render_summary_png, in_language(view)) if outcome.over else None
        )
        playing = outcome.status == "active" and not outcome.over  # over or aborted: nothing to press

        def make_kwargs(target: Any) -> dict[str, Any]:
            # fresh File objects for every attempt: discord.py closes them after a send
            limit = min(
                MAX_FILE, getattr(getattr(target, "guild", None), "filesize_limit", MAX_FILE) or MAX_FILE
            )
            kwargs: dict[str, Any] = {
                "allowed_mentions": discord.AllowedMentions(users=mentions, roles=False, everyone=False),
            }
            files = [
                discord.File(io.BytesIO(data), filename=name)
                for data, name in ((png, "board.png"), (summary, "summary.png"))
                if data is not None and len(data) <= limit
            ]
            if files:
                kwargs["files"] = files
            if playing:
                kwargs["view"] = self.turn_view(outcome)
            if nonce_of is not None:
                kwargs["nonce"] = nonce_of
            return kwargs

        msg = await self._send(gid, channel, content, make_kwargs)
        if msg is None:
            log.error("game=%s seq=%s: the board could not be posted; retrying later", gid, outcome.seq)
            self.unposted.add(gid)
            return None
        self.unposted.discard(gid)
        if png is not None:
            self.last_map[gid] = drawn
        self.last_to_act[gid] = frozenset(
            (seat, outcome.seats[seat].player if seat < len(outcome.seats) else None)
            for seat in outcome.to_act
        )
        self.posted_seq[gid] = max(self.posted_seq.get(gid, -1), outcome.seq)
        await self._retire_live(gid, keep=msg.id)  # before recording: a recorded board is the live one
        await self.store.record_message(gid, outcome.seq, msg.channel.id, msg.id)
        self._live[gid] = (msg.channel.id, msg.id) if playing else None
        await self.bot.storage.outbox.mark_posted(gid, outcome.seq)
        return msg

    async def retry_unposted(self) -> int:
        """Scheduler hook: queue the current board of games whose last board post failed (posted by
        :class:`BoardReposts`, interactions first). Returns how many boards are queued."""
        pending = sorted(self.unposted)
        self.unposted.difference_update(pending)
        if not pending:
            return 0
        return self.repost_stale_boards(pending, extra=M("The current board:"), include_over=True)

    def repost_stale_boards(
        self, game_ids: list[int], *, extra: str | Msg = AFTER_RESTART, include_over: bool = False
    ) -> int:
        """After a restart: queue a fresh board for every active game whose last posted board is older
        than its state (a crash between commit and post, or AI moves made while resuming).
        ``include_over`` also posts the final scores of a finished game whose last post failed.
        The boards are posted in the background, paced (:class:`BoardReposts`); returns how many
        are queued."""
        return self.reposts.add(game_ids, extra=extra, include_over=include_over)

    async def _repost_one(self, gid: int, extra: str | Msg, include_over: bool) -> bool:
        """Post game ``gid``'s current board if the last one posted is behind; True if posted."""
        if not await self.posts_for(gid):
            return False  # another process's shards own the game's server
        async with self.post_lock(gid):
            if await self.bot.storage.outbox.unposted(gid):  # moves whose lines were never posted
                return await self.from_outbox.post_locked(gid, extra=extra)
            outcome = await self.service.current_outcome(gid)
            over = outcome.status == "over" and include_over
            if outcome.status != "active" and not over:
                return False
            latest = await self.store.latest_message(gid)
            if latest is not None and latest[0] == outcome.seq:
                return False
            return await self.announce(outcome, extra=extra) is not None

    async def report_broken(self, gid: int) -> None:
        """Tell a game's thread that its saved state could not be restored (other games go on)."""
        route = await self.store.route(gid)
        cid = route.thread_id or route.channel_id
        if cid is None:
            return
        try:
            channel = self.bot.get_channel(cid) or await self.bot.fetch_channel(cid)
            if isinstance(channel, discord.abc.Messageable):
                with using(await self.game_language(gid)):
                    note = _(
                        "Game #{game} could not be restored after a restart and is paused; the bot's admins"
                        " have the details in the log. Other games are not affected.",
                        game=await self.number(gid),
                    )
                await channel.send(
                    f"⚠ {note}",
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
        set_language(await self.game_language(gid))  # the scheduler's task: the game's words
        with contextlib.suppress(ServiceError):
            if (await self.service.game_row(gid)).remind_by == "dm":
                await self._remind_directly(gid, users, when)
                return
        names = " ".join(f"<@{u}>" for u in users)
        mentions = discord.AllowedMentions(users=[discord.Object(id=u) for u in users])
        number = await self.number(gid)
        if (
            await self._send(
                gid,
                channel,
                "⏰ "
                + _(
                    "{players}: your turn in game #{game} runs out{when}.",
                    players=names,
                    game=number,
                    when=when,
                ),
                lambda _target: {"allowed_mentions": mentions},
            )
            is None
        ):
            log.warning("game=%s reminder failed", gid)

    async def _remind_directly(self, gid: int, users: list[int], when: str) -> None:
        """The reminder by direct message (the game chose it); a closed inbox gets it in the thread."""
        number = await self.number(gid)
        for uid in users:
            try:
                user = self.bot.get_user(uid) or await self.bot.fetch_user(uid)
                await user.send(
                    "⏰ " + _("Your turn in game #{game} runs out{when}.", game=number, when=when)
                )
            except discord.HTTPException:
                log.warning("game=%s reminder by direct message failed; posting it in the thread", gid)
                channel = await self.game_channel(gid)
                if channel is not None:
                    await self._send(
                        gid,
                        channel,
                        "⏰ "
                        + _(
                            "{players}: your turn in game #{game} runs out{when}.",
                            players=f"<@{uid}>",
                            game=number,
                            when=when,
                        ),
                        lambda _t, u=uid: {
                            "allowed_mentions": discord.AllowedMentions(users=[discord.Object(id=u)])
                        },
                    )

    # ---- autocomplete helpers (in memory, fast) --------------------------------------------
    async def game_for_autocomplete(self, interaction: discord.Interaction) -> Any | None:
        game_opt = getattr(interaction.namespace, "game", None)
        try:
            typed = await self.game_numbered(interaction, game_opt if isinstance(game_opt, int) else None)
            gid = await self.resolve_game(interaction, typed)
            return await self.service.load(gid)
        except ServiceError:
            return None


def match(query: str, *texts: str) -> bool:
    """Accent/case-insensitive substring match of ``query`` against any of ``texts``."""
    q = fold(query.strip())
    return not q or any(q in fold(t) for t in texts)
