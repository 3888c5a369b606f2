"""The typed seam a game's Discord UI plugs into, and the registry that holds the registered ones.

A game's Discord UI (in its own package, ``bot/games/<game>/discord_ui.py``) is an object that
implements :class:`DiscordGameUI`: the buttons under its board, the private panel of what a player
can do next, which steps of a turn are answered privately, its own restart-safe items and slash
commands, and the ``c:``/``s:`` custom-id kinds it answers (the generic items of
:mod:`bot.discord_app.items` hand those clicks over). A game without one is played with the generic
controls (``/play action`` and a *My board and moves* button).

A game's Discord UI is registered with the rest of the game (:mod:`bot.games.plugin`, listed in
:mod:`bot.games.catalog`); this module imports no game, so the generic Discord code can look a
game's UI up without an import cycle.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from typing import TYPE_CHECKING, Any, Protocol

import discord
from discord import app_commands
from discord.ext import commands

from lang import Msg

if TYPE_CHECKING:
    from bot.discord_app.ui import GameUI
    from bot.games.api import View
    from bot.service import Loaded
    from bot.stream import Outcome

DynamicItemType = type[discord.ui.DynamicItem[Any]]
SlashCommand = app_commands.Command[Any, ..., None]
"""A slash command as discord.py types it (its binding is left open: a game's commands are unbound)."""


class PlayContext(Protocol):
    """What the generic ``/play`` group lends a game's own ``/play`` subcommands."""

    @property
    def ui(self) -> GameUI: ...

    async def act(self, interaction: discord.Interaction, game: int | None, text: str) -> None:
        """Play the move ``text`` on the game the player means (a number, this thread, or asked)."""

    async def on_my_game(
        self,
        interaction: discord.Interaction,
        game: int | None,
        then: Callable[[discord.Interaction, int | None], Awaitable[None]],
    ) -> None:
        """Run ``then`` on the game the player means (a game id, or None: this thread's game)."""

    async def open_loaded(
        self, interaction: discord.Interaction, game: int | None
    ) -> tuple[int, Loaded] | None:
        """Defer privately and load the game ``game`` (an id, or None: this thread's); a refusal
        is answered privately and gives None."""


class DiscordGameUI(Protocol):
    """One game's Discord UI. ``game`` is its registry name."""

    @property
    def game(self) -> str: ...

    @property
    def start_hint(self) -> Msg:
        """What a player does first, said when the game starts."""

    @property
    def button_kinds(self) -> frozenset[str]:
        """The kinds of ``c:{game}:{seq or m<moves>}:{kind}…`` button ids it answers."""

    @property
    def select_kinds(self) -> frozenset[str]:
        """The kinds of ``s:{game}:{seq or m<moves>}:{kind}`` select ids it answers."""

    @property
    def dynamic_items(self) -> Sequence[DynamicItemType]:
        """Its own restart-safe items (custom-id templates of its own), added to the client."""

    def turn_view(self, gid: int, seq: int, view: View) -> discord.ui.View:
        """The buttons under a board."""

    def mid_turn(self, view: View, seat: int) -> bool:
        """Whether ``seat``'s turn goes on privately (the public message waits for its end)."""

    async def private_panel(
        self, ui: GameUI, outcome: Outcome, player: str
    ) -> tuple[str, discord.ui.View | None]:
        """What the player can do next in ``outcome``'s state, in words, and the private controls
        for it (read from the outcome alone)."""

    async def show_private(self, ui: GameUI, interaction: discord.Interaction, gid: int) -> bool:
        """*My hand* / ``/view hand`` answered the game's own way (the interaction is deferred and
        the game reachable); False: the generic answer (hand text, image and private panel)."""

    async def on_button(
        self, ui: GameUI, interaction: discord.Interaction, gid: int, parts: Sequence[str]
    ) -> None:
        """A click on one of its ``c:`` buttons; ``parts`` are the id's fields after the game id.
        Raises ValueError or IndexError for an id it cannot read (the player is told it is garbled)."""

    async def on_select(
        self, ui: GameUI, interaction: discord.Interaction, gid: int, parts: Sequence[str], values: list[str]
    ) -> None:
        """A choice in one of its ``s:`` menus (ValueError or IndexError: garbled)."""

    def play_commands(self, ctx: PlayContext) -> Sequence[SlashCommand]:
        """Its own ``/play`` subcommands (listed before the generic ``action`` and ``resign``)."""

    def cogs(self, bot: commands.Bot) -> Sequence[commands.Cog]:
        """Its own slash commands outside ``/play``."""


GAME_UIS: dict[str, DiscordGameUI] = {}
_BUTTON_KINDS: dict[str, DiscordGameUI] = {}
_SELECT_KINDS: dict[str, DiscordGameUI] = {}


def register_game_ui(game_ui: DiscordGameUI) -> DiscordGameUI:
    """Add a game's Discord UI (one per game; no two games may answer the same id kind)."""
    if game_ui.game in GAME_UIS:
        raise ValueError(f"the Discord UI of {game_ui.game!r} is already registered")
    for kinds, table in ((game_ui.button_kinds, _BUTTON_KINDS), (game_ui.select_kinds, _SELECT_KINDS)):
        taken = kinds & set(table)
        if taken:
            raise ValueError(f"custom id kinds {sorted(taken)} are already answered by another game")
    GAME_UIS[game_ui.game] = game_ui
    _BUTTON_KINDS.update(dict.fromkeys(game_ui.button_kinds, game_ui))
    _SELECT_KINDS.update(dict.fromkeys(game_ui.select_kinds, game_ui))
    return game_ui


def game_ui_of(game: str) -> DiscordGameUI | None:
    """The Discord UI of the game called ``game`` (its registry name); None: the generic controls."""
    return GAME_UIS.get(game)


def button_owner(kind: str) -> DiscordGameUI | None:
    return _BUTTON_KINDS.get(kind)


def select_owner(kind: str) -> DiscordGameUI | None:
    return _SELECT_KINDS.get(kind)


def registered_game_uis() -> tuple[DiscordGameUI, ...]:
    """Every registered Discord UI, in the order the games were registered."""
    return tuple(GAME_UIS.values())


def unregister_game_ui(game: str) -> None:
    """Remove a game's Discord UI (a test's toy game, once the test is over)."""
    game_ui = GAME_UIS.pop(game)
    for kind in game_ui.button_kinds:
        _BUTTON_KINDS.pop(kind, None)
    for kind in game_ui.select_kinds:
        _SELECT_KINDS.pop(kind, None)
