"""First Class on Discord: the card grid under the table, and private panels for every other choice.

What a player sees
    Once per turn, when it ends, the game's thread gets the table image (``render_table``, which
    marks the card just taken) and the turn's moves, with one button per Action
    card that can still be taken (labelled ``row.position`` + the card's text; taken and removed
    cards are absent), and a last row with *Start Player tile*, *Forgo a card…* and *My board &
    choices*. Clicking a card takes it. Everything after that is private (ephemeral): the player's
    board image and a panel built from their legal actions - buttons or a menu for the symbol to
    answer (new car, upgrade, conductor, option, mail car, Game End card, bonus station, draft),
    a *Spend a coin…* menu, *Buy…* and *Fulfil…* menus whenever legal, and Skip / End turn / Done.

Custom ids (restart-safe ``DynamicItem``s, all under 100 characters)
    ``f:{game}:{seq}:{action text with _ for spaces}`` a button that plays that action,
    ``f:{game}:{seq}:forgo`` opens the private forgo menu, ``fs:{game}:{seq}:{group}`` a menu whose
    values are action texts. ``seq`` makes a click from an earlier turn harmless ("earlier turn").

No game logic here: buttons and menus are built from ``legal_actions`` texts (the public grid from
the spectator view), labelled by :mod:`bot.games.firstclass.words`, and every click goes through
:meth:`GameService.act`, which checks the seat, the turn, the ``seq`` and the rules.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import discord
from discord.ext import commands

from bot.discord_app.game_ui import DynamicItemType, PlayContext, SlashCommand
from bot.discord_app.items import GameButton
from bot.discord_app.ui import GameUI, line_text, who
from bot.games.api import View
from bot.games.firstclass.words import (
    CHOICE_KINDS,
    COIN_KINDS,
    FLOW_KINDS,
    action_label,
    available_cards,
    card_emoji,
    card_label,
    prompt,
)
from bot.present import game_view, hand_text, in_language
from bot.service import ServiceError
from bot.stream import GameView, Outcome
from lang import M, Msg, _
from lang.firstclass import kind_words

if TYPE_CHECKING:
    from bot.discord_app.client import ConductorBot

START_HINT = M("Take cards with the buttons under the table; My board & choices shows the rest.")
ACTION_TEXT = re.compile(r"[a-z]+(?: [\w\-]{1,20}){0,5}")
FLOW_STYLE = {
    "end": discord.ButtonStyle.primary,
    "done": discord.ButtonStyle.success,
    "skip": discord.ButtonStyle.secondary,
}
STALE = M("This is from an earlier turn; use the latest board.")


def _ui(interaction: discord.Interaction) -> GameUI:
    bot: ConductorBot = interaction.client  # type: ignore[assignment]
    return bot.ui


def _kind(text: str) -> str:
    w = text.split()
    if not w:
        return ""
    return f"spend_{w[1]}" if w[0] == "spend" and len(w) > 1 else w[0]


class FCButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"f:(?P<rest>.{0,98})"):
    """A First Class button: take a card, answer a symbol, end the turn, or open the forgo menu."""

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
                label=label[:80], style=style, custom_id=f"f:{rest}", emoji=emoji, row=row, disabled=disabled
            )
        )
        self.rest = rest

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> FCButton:
        return cls(match["rest"])

    async def callback(self, interaction: discord.Interaction) -> None:
        parts = self.rest.split(":")
        try:
            gid, seq, token = int(parts[0]), int(parts[1]), parts[2]
            if len(parts) != 3:
                raise ValueError(self.rest)
        except (ValueError, IndexError):
            await _ui(interaction).error(
                interaction, M("That button is garbled; use the buttons on the latest board.")
            )
            return
        if token == "forgo":
            await forgo_menu(interaction, gid, seq)
            return
        text = token.replace("_", " ")
        if not ACTION_TEXT.fullmatch(text):
            await _ui(interaction).error(
                interaction, M("That button is garbled; use the buttons on the latest board.")
            )
            return
        await act(interaction, gid, text, seq)


class FCSelect(discord.ui.DynamicItem[discord.ui.Select[Any]], template=r"fs:(?P<rest>.{0,97})"):
    """A private First Class menu; its values are action texts (checked again by the rules)."""

    def __init__(self, rest: str, select: discord.ui.Select[Any] | None = None) -> None:
        super().__init__(
            select or discord.ui.Select(custom_id=f"fs:{rest}", options=[discord.SelectOption(label="?")])
        )
        self.rest = rest

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> FCSelect:
        return cls(match["rest"], item if isinstance(item, discord.ui.Select) else None)

    async def callback(self, interaction: discord.Interaction) -> None:
        data: dict[str, Any] = dict(interaction.data or {})
        values = [str(v) for v in data.get("values", [])]
        parts = self.rest.split(":")
        try:
            gid, seq = int(parts[0]), int(parts[1])
            if len(parts) != 3 or len(values) != 1 or not ACTION_TEXT.fullmatch(values[0]):
                raise ValueError(self.rest)
        except (ValueError, IndexError):
            await _ui(interaction).error(
                interaction, M("That menu is garbled; open your board again with My board.")
            )
            return
        await act(interaction, gid, values[0], seq)


def _select(
    gid: int,
    seq: int,
    group: str,
    placeholder: str,
    texts: list[str],
    view: dict[str, Any],
    seat: int | None,
    row: int,
) -> FCSelect:
    options = [
        discord.SelectOption(label=action_label(t, view, seat)[:100], value=t[:100]) for t in texts[:25]
    ]
    select: discord.ui.Select[Any] = discord.ui.Select(
        custom_id=f"fs:{gid}:{seq}:{group}",
        placeholder=placeholder[:150],
        options=options,
        row=row,
    )
    return FCSelect(f"{gid}:{seq}:{group}", select)


def _button(
    gid: int,
    seq: int,
    text: str,
    label: str,
    row: int,
    style: discord.ButtonStyle = discord.ButtonStyle.secondary,
) -> FCButton:
    return FCButton(f"{gid}:{seq}:{text.replace(' ', '_')}", label=label, style=style, row=row)


def table_view(gid: int, seq: int, view: dict[str, Any]) -> discord.ui.View:
    """The public buttons under the table (built from the spectator view only: nothing hidden)."""
    ui = discord.ui.View(timeout=None)
    playing = view.get("phase") == "play"
    cards = available_cards(view)
    for i, (r, p, card) in enumerate(cards[:20]):
        ui.add_item(
            FCButton(
                f"{gid}:{seq}:take_{card['id']}",
                label=f"{r + 1}.{p + 1} {card_label(card, 40)}",
                emoji=card_emoji(card),
                row=i // 5,
                disabled=not playing,
                style=discord.ButtonStyle.primary if playing else discord.ButtonStyle.secondary,
            )
        )
    tile = view.get("start_tile") or {}
    if playing and tile.get("taken_by") is None:
        ui.add_item(
            _button(gid, seq, "start", _("Start Player tile (+2 coins)"), 4, discord.ButtonStyle.success)
        )
    if playing and cards:
        ui.add_item(FCButton(f"{gid}:{seq}:forgo", label=_("Forgo a card…"), row=4))
    label = _("Choose a Game End card") if view.get("phase") == "draft" else _("My board & choices")
    ui.add_item(GameButton(f"{gid}:hand", label=label, style=discord.ButtonStyle.success, row=4))
    return ui


def controls(gid: int, seq: int, view: dict[str, Any], texts: list[str]) -> discord.ui.View | None:
    """The private panel for one seat: menus and buttons for its legal actions, grouped by kind.

    Taking a card (``take`` / ``forgo`` / ``start``) stays on the public grid; everything else a
    seat may do now is here: the pending symbol, coins, Game End purchases, contracts, skip/end/done.
    """
    seat = view.get("viewer")
    ui = discord.ui.View(timeout=None)
    choice = [t for t in texts if _kind(t) in CHOICE_KINDS]
    if choice:
        labels = [action_label(t, view, seat) for t in choice]
        if len(choice) <= 5 and all(len(lb) <= 80 for lb in labels):
            for t, lb in zip(choice, labels, strict=True):
                ui.add_item(_button(gid, seq, t, lb, 0, discord.ButtonStyle.primary))
        else:
            ui.add_item(_select(gid, seq, "pick", _("Choose…"), choice, view, seat, 0))
    coins = [t for t in texts if _kind(t) in COIN_KINDS]
    if coins:
        ui.add_item(_select(gid, seq, "coin", _("Spend a coin…"), coins, view, seat, 1))
    buys = [t for t in texts if _kind(t) == "buy"]
    if buys:
        seen: dict[str, str] = {}
        for t in buys:  # one way to pay per card when there are too many
            seen.setdefault(t.split()[1], t)
        ui.add_item(
            _select(
                gid,
                seq,
                "buy",
                _("Buy a Game End card (4 coins)…"),
                buys if len(buys) <= 25 else list(seen.values()),
                view,
                seat,
                2,
            )
        )
    contracts = [t for t in texts if _kind(t) == "fulfil"]
    if contracts:
        ui.add_item(_select(gid, seq, "ful", _("Fulfil a contract…"), contracts, view, seat, 3))
    for t in texts:
        if _kind(t) in FLOW_KINDS:
            ui.add_item(
                _button(
                    gid,
                    seq,
                    t,
                    action_label(t, view, seat),
                    4,
                    FLOW_STYLE.get(t, discord.ButtonStyle.secondary),
                )
            )
    return ui if ui.children else None


def _summary(view: dict[str, Any]) -> str:
    """The seat's own numbers, for the private panel (its Game End cards included: ephemeral only)."""
    seat = view.get("viewer")
    me = next((p for p in view.get("players") or [] if isinstance(p, dict) and p.get("seat") == seat), {})
    if not me:
        return ""
    coins = me.get("coins") or []
    parts = [_("score {n}", n=me.get("score", 0)), _("coins {coins}", coins="/".join(str(c) for c in coins))]
    ge = me.get("game_end_cards")
    if ge:
        parts.append(
            _(
                "Game End cards {cards}",
                cards=", ".join(
                    f"{c.get('id')} ({kind_words(str(c.get('type') or ''))} ×{c.get('points')})" for c in ge
                ),
            )
        )
    if me.get("contracts"):
        parts.append(_("contracts {ids}", ids=", ".join(str(c.get("id")) for c in me["contracts"])))
    return _("You: {summary}", summary=" · ".join(parts))


def panel(outcome: Outcome, player: str) -> tuple[str, discord.ui.View | None, GameView]:
    """Text, controls and the seat's envelope view for ``player`` in ``outcome``'s state, read from
    the outcome alone (raises ServiceError if not a player)."""
    seat = outcome.seat_of(player)
    if seat is None or outcome.private is None:
        raise ServiceError("not_your_game", M("You are not playing in game #{game}.", game=outcome.number))
    envelope = outcome.private.view(seat)
    view = game_view(envelope)
    texts = [a.to_text() for a in outcome.private.legal(seat)]
    kinds = {_kind(t) for t in texts}
    lines = [prompt(view, view.get("viewer"), kinds)]
    summary = _summary(view)
    if summary:
        lines.append(summary)
    return "\n".join(lines), controls(outcome.game_id, int(view["seq"]), view, texts), envelope


async def act(interaction: discord.Interaction, gid: int, text: str, seq: int) -> None:
    """Play one action for the clicking user, answer privately with the next choices, post the table."""
    ui = _ui(interaction)
    await ui.defer(interaction)
    player, where = who(interaction)
    try:
        outcome = await ui.service.act(gid, player, text, expected_seq=seq, where=where)
    except ServiceError as exc:
        await ui.error(interaction, STALE if exc.code == "stale" else exc)
        return
    try:
        content, controls_view, _envelope = panel(outcome, player)
    except ServiceError:
        content, controls_view = "", None
    done = "\n".join(line_text(line, outcome.names) for line in outcome.lines[:4])
    controls = controls_view if controls_view is not None else discord.utils.MISSING
    await ui.confirm(interaction, outcome.number, f"✓ {done}\n{content}".strip(), controls)


async def forgo_menu(interaction: discord.Interaction, gid: int, seq: int) -> None:
    """The Forgo button: a private menu of the cards the player may forgo for one upgrade."""
    ui = _ui(interaction)
    await ui.defer(interaction)
    player, where = who(interaction)
    try:
        row = await ui.service.check_reach(gid, player, where)
        if row.seat_of(player) is None:
            raise ServiceError("not_your_game", M("You are not playing in game #{game}.", game=row.number))
        if row.seq != seq:
            raise ServiceError("stale", STALE)
        legal = [a.to_text() for a in await ui.service.legal_actions(gid, player, where=where)]
        view = game_view(await ui.service.private_view(gid, player, where=where))
    except ServiceError as exc:
        await ui.error(interaction, exc)
        return
    texts = [t for t in legal if _kind(t) == "forgo"]
    if not texts:
        await ui.error(
            interaction, M("You cannot forgo a card now: it is not your turn, or you already took one.")
        )
        return
    on_table = {card["id"]: (r, p, card) for r, p, card in available_cards(view)}
    options = []
    for t in texts[:25]:
        r, p, card = on_table.get(t.split()[1], (-1, -1, {"id": t.split()[1]}))
        label = f"{r + 1}.{p + 1} {card_label(card, 80)}" if r >= 0 else t
        options.append(discord.SelectOption(label=label[:100], value=t))
    select: discord.ui.Select[Any] = discord.ui.Select(
        custom_id=f"fs:{gid}:{seq}:forgo",
        placeholder=_("Forgo which card (for one upgrade)?"),
        options=options,
    )
    controls_view = discord.ui.View(timeout=None)
    controls_view.add_item(FCSelect(f"{gid}:{seq}:forgo", select))
    await ui.reply(
        interaction,
        _("Forgo a card: you take it but give up its actions for one upgrade."),
        view=controls_view,
    )


async def show_private(interaction: discord.Interaction, gid: int) -> None:
    """*My board* / ``/view hand``: the player board image
    and the choice panel. The interaction is deferred and the game reachable from here."""
    ui = _ui(interaction)
    player, _where = who(interaction)
    try:
        outcome = await ui.service.current_outcome(gid)
        content, controls_view, view = panel(outcome, player)
    except ServiceError as exc:
        await ui.error(interaction, exc)
        return
    picture = await ui.hand_pictures.attachment(
        player, gid, in_language(view), filename="my-board.png", limit=interaction.filesize_limit
    )
    await ui.reply_with_picture(
        interaction,
        _("Game #{game}", game=outcome.number) + f"\n{hand_text(view)}\n{content}",
        controls_view,
        picture,
    )


class FirstClassDiscordUI:
    """First Class's :class:`~bot.discord_app.game_ui.DiscordGameUI`: its own restart-safe items
    (``f:``/``fs:``), so it answers no kind of the generic ``c:``/``s:`` ids but *My board*."""

    game = "first-class"
    start_hint: Msg = START_HINT
    button_kinds: frozenset[str] = frozenset()
    select_kinds: frozenset[str] = frozenset()
    dynamic_items: Sequence[DynamicItemType] = (FCButton, FCSelect)

    def turn_view(self, gid: int, seq: int, view: View) -> discord.ui.View:
        return table_view(gid, seq, view)

    def mid_turn(self, view: View, seat: int) -> bool:
        # a turn is a card and its symbols, answered one by one in the player's private panel: the
        # table is posted once, when the turn ends, and marks the card taken (render_table)
        if view.get("phase") == "play":
            return bool(view.get("turn_taken"))
        scoring = view.get("scoring")
        return (
            view.get("phase") == "scoring"
            and isinstance(scoring, dict)
            and scoring.get("seat") == seat
            and bool(scoring.get("claimed"))
        )

    async def private_panel(
        self, ui: GameUI, outcome: Outcome, player: str
    ) -> tuple[str, discord.ui.View | None]:
        return "", None  # the choices are in the panel of *My board & choices*

    async def show_private(self, ui: GameUI, interaction: discord.Interaction, gid: int) -> bool:
        await show_private(interaction, gid)
        return True

    async def on_button(
        self, ui: GameUI, interaction: discord.Interaction, gid: int, parts: Sequence[str]
    ) -> None:
        raise ValueError(parts)

    async def on_select(
        self, ui: GameUI, interaction: discord.Interaction, gid: int, parts: Sequence[str], values: list[str]
    ) -> None:
        raise ValueError(parts)

    def play_commands(self, ctx: PlayContext) -> Sequence[SlashCommand]:
        return ()

    def cogs(self, bot: commands.Bot) -> Sequence[commands.Cog]:
        return ()


DISCORD_UI = FirstClassDiscordUI()
