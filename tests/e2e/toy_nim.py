"""A toy game written outside the bot to prove a new game needs no edit of the core: Nim for two
players (take one or two stones from a pile; whoever takes the last stone wins), with its rules,
its registry entry and its front-end parts (words, a Discord UI of its own, no pictures), registered
by :func:`registered` and removed again after the test.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import discord
from discord.ext import commands

from bot.discord_app import game_ui as discord_registry
from bot.discord_app.items import GameButton
from bot.discord_app.ui import GameUI
from bot.games import api as front_registry
from bot.games.plugin import GamePlugin, register_game, unregister_game
from bot.stream import Outcome
from lang import M, Msg
from rules import registry
from rules.errors import IllegalAction

NAME = "nim"
PILE = 7


@dataclass(frozen=True)
class Take:
    n: int
    kind: str = "take"

    def to_text(self) -> str:
        return f"take {self.n}"

    def to_json(self) -> dict[str, Any]:
        return {"kind": "take", "n": self.n}

    def public_text(self) -> str:
        return f"took {self.n}."


def parse_action(text: str) -> Take:
    words = text.split()
    if len(words) != 2 or words[0] != "take" or words[1] not in ("1", "2"):
        raise IllegalAction("malformed_action", f"Write a move as take 1 or take 2, not {text!r}.")
    return Take(int(words[1]))


class Nim:
    game_name = NAME

    def __init__(self, players: int, seed: int, pile: int = PILE, turn: int = 0, last: Any = None) -> None:
        self.players, self.seed, self.pile, self.turn, self.last = players, seed, pile, turn, last

    def seats_to_act(self) -> list[int]:
        return [] if self.is_over() else [self.turn % 2]

    def legal_actions(self, seat: int) -> Sequence[Take]:
        return [Take(n) for n in (1, 2) if n <= self.pile] if seat in self.seats_to_act() else []

    def apply(self, seat: int, action: Any) -> list[dict[str, Any]]:
        if seat not in self.seats_to_act():
            raise IllegalAction("not_your_turn", "It is not your turn.")
        if action not in self.legal_actions(seat):
            raise IllegalAction("bad_take", f"You may take 1 or 2 of the {self.pile} stones left.")
        self.pile -= action.n
        self.turn += 1
        self.last = {"seat": seat, "text": action.public_text()}
        events = [{"type": "take", "seat": seat, "n": action.n, "text": action.public_text()}]
        if self.is_over():
            events.append({"type": "game_over", "text": f"Seat {seat} took the last stone and wins."})
        return events

    def view(self, seat: int | None) -> dict[str, Any]:
        return {"phase": "over" if self.is_over() else "play", "pile": self.pile, "last_action": self.last}

    def is_over(self) -> bool:
        return self.pile == 0

    def final_scores(self) -> list[dict[str, Any]]:
        winner = (self.turn - 1) % 2
        return [
            {
                "seat": s,
                "total": int(s == winner),
                "breakdown": {"won": int(s == winner)},
                "rank": 1 + (s != winner),
            }
            for s in range(self.players)
        ]

    def copy(self) -> Nim:
        return Nim(self.players, self.seed, self.pile, self.turn, self.last)

    def to_json(self) -> dict[str, Any]:
        return {"game_name": NAME, "players": self.players, "seed": self.seed, "pile": self.pile,
                "turn": self.turn, "last": self.last}  # fmt: skip

    @classmethod
    def from_json(cls, obj: dict[str, Any]) -> Nim:
        return cls(obj["players"], obj["seed"], obj["pile"], obj["turn"], obj["last"])


class TakeTwoAI:
    """Leaves the opponent a multiple of three when it can (the winning move), else takes one."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def choose(self, game: Any, seat: int) -> Take:
        legal = list(game.legal_actions(seat))
        return next((a for a in legal if (game.pile - a.n) % 3 == 0), legal[0])


SPEC = registry.GameSpec(
    name=NAME,
    title="Nim",
    new=lambda config, players, seed: Nim(players, seed),
    from_json=Nim.from_json,
    parse_action=parse_action,
    action_from_json=lambda obj: Take(int(obj["n"])),
    player_range=lambda config: (2, 2),
    ais={"heuristic": TakeTwoAI, "random": registry.RandomLegalAI},
    rules_summary=lambda config: ["Nim", f"Take 1 or 2 of {PILE} stones; the last stone wins."],
    public_scores=lambda detail: [0, 0],
    private_part=lambda detail: {},
    secret_tokens=lambda detail: set(),
    score_labels={"won": "Won"},
    score_bounds=lambda config, players: (0, 1),  # the winner scores 1, the other 0
)


class NimWords(front_registry.GameWords):
    def board_text(self, view: front_registry.View, *, title: str | None = None) -> str | None:
        return f"**Nim** · {view['pile']} stones left"

    def event_words(self, event: Mapping[str, object]) -> str | None:
        return f"takes {event['n']} stones." if event.get("type") == "take" else None


class NimDiscordUI:
    """Two buttons under the pile (``c:{game}:{seq}:nim:{n}``), answered through the generic items."""

    game = NAME
    start_hint: Msg = M("Take one or two stones with the buttons under the pile.")
    button_kinds = frozenset({"nim"})
    select_kinds: frozenset[str] = frozenset()
    dynamic_items: Sequence[discord_registry.DynamicItemType] = ()

    def turn_view(self, gid: int, seq: int, view: front_registry.View) -> discord.ui.View:
        ui = discord.ui.View(timeout=None)
        for n in (1, 2):
            ui.add_item(
                GameButton(f"{gid}:{seq}:nim:{n}", label=f"Take {n}", disabled=n > int(str(view["pile"])))
            )
        ui.add_item(GameButton(f"{gid}:hand", label="My moves"))
        return ui

    def mid_turn(self, view: front_registry.View, seat: int) -> bool:
        return False

    async def private_panel(
        self, ui: GameUI, outcome: Outcome, player: str
    ) -> tuple[str, discord.ui.View | None]:
        return "Take one or two stones.", None

    async def show_private(self, ui: GameUI, interaction: discord.Interaction, gid: int) -> bool:
        return False

    async def on_button(
        self, ui: GameUI, interaction: discord.Interaction, gid: int, parts: Sequence[str]
    ) -> None:
        await ui.act(interaction, gid, Take(int(parts[2])), expected_seq=int(parts[0]))

    async def on_select(
        self, ui: GameUI, interaction: discord.Interaction, gid: int, parts: Sequence[str], values: list[str]
    ) -> None:
        raise ValueError(parts)

    def play_commands(self, ctx: discord_registry.PlayContext) -> Sequence[discord_registry.SlashCommand]:
        return ()

    def cogs(self, bot: commands.Bot) -> Sequence[commands.Cog]:
        return ()


PLUGIN = GamePlugin(SPEC, front_registry.FrontEnd(NAME, words=NimWords()), NimDiscordUI())
"""Nim, whole: what its line in the list of games (:data:`bot.games.catalog.BUILTIN_GAMES`) would
name; the test registers it the way the list registers each of its games."""


@contextmanager
def registered() -> Iterator[None]:
    """Nim registered (its rules, its front-end parts, its Discord UI) for the duration only."""
    register_game(PLUGIN)
    try:
        yield
    finally:
        unregister_game(NAME)
