"""The generic restart-safe buttons and select menus (``discord.ui.DynamicItem``).

Custom ids carry everything needed (game id and the turn's ``seq``) so they work after a restart
and a click from an earlier turn is recognised (``seq`` mismatch → "from an earlier turn").
Templates are deliberately permissive (``c:…`` / ``s:…``) so that a garbled id still reaches us
and gets a clear answer instead of an "interaction failed". No game logic lives here: the ids
every game shares are answered here, every other kind is handed to the game's Discord UI that
declared it (:mod:`bot.discord_app.game_ui`).

Ids answered here: ``c:{game}:hand`` (the private state), ``c:{game}:undo`` (take back one's last move),
``c:{game}:plan`` and ``c:{game}:plan:clear`` with the menu ``s:{game}:0:plan`` (one's planned
turn, see :mod:`bot.discord_app.plans`), ``c:{game}:dm:on|off`` (the hand kept
in a direct message, see :mod:`bot.discord_app.dm_hands`) and ``c:{game}:m{moves}:do:{action}``
(confirm a move from a private prompt). Every other id is ``c:{game}:{seq}:{kind}…``,
``c:{game}:m{moves}:{kind}…`` or ``s:{game}:{seq or m<moves>}:{kind}``, ``kind`` naming the game
UI that answers it, where ``moves`` counts the seat's own actions: a private menu is stale only
when its owner has moved since (another player's move never invalidates it).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

import discord

from bot.discord_app.game_ui import button_owner, select_owner
from lang import M, _

if TYPE_CHECKING:
    from bot.discord_app.client import ConductorBot
    from bot.discord_app.ui import GameUI


def _ui(interaction: discord.Interaction) -> GameUI:
    bot: ConductorBot = interaction.client  # type: ignore[assignment]
    return bot.ui


class GameButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"c:(?P<rest>.{0,98})"):
    """Every board button. ``rest`` is parsed in the callback so garbage gets an answer."""

    def __init__(
        self,
        rest: str,
        *,
        label: str = "?",
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
        emoji: str | None = None,
        row: int | None = None,
        disabled: bool = False,
    ) -> None:
        super().__init__(
            discord.ui.Button(
                label=label, style=style, custom_id=f"c:{rest}", emoji=emoji, row=row, disabled=disabled
            )
        )
        self.rest = rest

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> GameButton:
        return cls(match["rest"])

    async def callback(self, interaction: discord.Interaction) -> None:
        ui = _ui(interaction)
        parts = self.rest.split(":")
        try:
            gid = int(parts[0])
            if parts[1:] == ["hand"]:
                await ui.show_hand(interaction, gid)
                return
            if parts[1:] == ["undo"]:
                await ui.take_back(interaction, gid)
                return
            if parts[1:] == ["plan"]:
                await ui.plans.show(interaction, gid)
                return
            if parts[1:] == ["plan", "clear"]:
                await ui.plans.clear(interaction, gid)
                return
            if parts[1] == "dm" and len(parts) == 3 and parts[2] in ("on", "off"):
                await ui.dm.toggle(interaction, gid, parts[2] == "on")
                return
            if parts[1].startswith("m") and parts[2] == "do" and len(parts) >= 4:
                # a private prompt's button: confirm a move
                moves = int(parts[1][1:])
                await ui.act(interaction, gid, ":".join(parts[3:]), expected_moves=moves)
                return
            if not parts[1].startswith("m"):
                int(parts[1])
            owner = button_owner(parts[2])
            if owner is None:
                raise ValueError(parts[2])
            await owner.on_button(ui, interaction, gid, parts[1:])
        except (ValueError, IndexError):
            await ui.error(interaction, M("That button is garbled; use the buttons on the latest board."))


class GameSelect(discord.ui.DynamicItem[discord.ui.Select[Any]], template=r"s:(?P<rest>.{0,98})"):
    """Private choices, answered by the game's Discord UI."""

    def __init__(self, rest: str, select: discord.ui.Select[Any] | None = None) -> None:
        super().__init__(
            select or discord.ui.Select(custom_id=f"s:{rest}", options=[discord.SelectOption(label="?")])
        )
        self.rest = rest

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> GameSelect:
        return cls(match["rest"], item if isinstance(item, discord.ui.Select) else None)

    async def callback(self, interaction: discord.Interaction) -> None:
        ui = _ui(interaction)
        data: dict[str, Any] = dict(interaction.data or {})
        values = [str(v) for v in data.get("values", [])]
        parts = self.rest.split(":")
        try:
            gid, token, what = int(parts[0]), parts[1], parts[2]
            int(token[1:]) if token.startswith("m") else int(token)
            if what == "plan" and len(parts) == 3:
                await ui.plans.add(interaction, gid, values)
                return
            owner = select_owner(what)
            if owner is None:
                raise ValueError(what)
            await owner.on_select(ui, interaction, gid, parts[1:], values)
        except (ValueError, IndexError):
            await ui.error(interaction, M("That menu is garbled; open your hand again with /view hand."))


def generic_turn_view(gid: int) -> discord.ui.View:
    """For a game with no Discord UI of its own: moves through /play action; private state here."""
    ui = discord.ui.View(timeout=None)
    ui.add_item(GameButton(f"{gid}:hand", label=_("My board and moves"), style=discord.ButtonStyle.success))
    return ui


def take_back_button(gid: int) -> GameButton:
    """*Take back*, under the private answer to one's own move."""
    return GameButton(f"{gid}:undo", label=_("Take back"), emoji="↩️")
