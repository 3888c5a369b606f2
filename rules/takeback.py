"""Take-backs: a player takes back their own last move(s) while no hidden information came out.

The rule is the one the Terraforming Mars maintainers keep ("only as far as having discovered new
information"): a move can be taken back when it revealed nothing that was hidden (a blind draw, the
card that replaces a face-up card, a tunnel's revealed cards, drawn tickets are final) and no other
seat has acted since. Each game says, in its own package, which of its moves reveal something
(``GameSpec.take_back``: the reason code of a final move, None for one that can be taken back);
this module holds what every game shares: the take-back entry of the log, how a log with take-backs
replays, the reason codes and the setting that turns take-backs off.

The game stays ``config + seed + actions``: a take-back is an entry of the action log (text
``take back``) that cancels the latest move not yet cancelled. Replaying a log means replaying its
remaining moves (:func:`effective`), which gives back exactly the state before the cancelled ones,
the random generator's included, so replay and export stay exact.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TypeVar

from rules.protocol import Action, Event, Game, JsonObject
from rules.settings import SettingSpec

TAKE_BACK_KIND = "take_back"
TAKE_BACK_TEXT = "take back"
SETTING = "take_backs"

# Why a move is final (a game's classifier returns one of these, or None).
BLIND_DRAW = "blind_draw"
"""A card was drawn face down: its owner has seen it."""
FACE_UP_REPLACED = "face_up_replaced"
"""A face-up card was taken and the card that replaced it has been seen."""
TUNNEL = "tunnel"
"""A tunnel's extra cards were revealed."""
TICKETS = "tickets"
"""Tickets were drawn (or chosen from a draw): their owner has seen them."""
HIDDEN_CARD = "hidden_card"
"""A card came from a face-down pile (First Class's Action and Game End piles)."""
DRAFT = "draft"
"""A card was kept from a hand passed in secret (First Class's opening draft)."""
NO_TAKE_BACKS = "no_take_backs"
"""The game declares no move that can be taken back."""
REASONS = (NO_TAKE_BACKS, BLIND_DRAW, FACE_UP_REPLACED, TUNNEL, TICKETS, HIDDEN_CARD, DRAFT)

TakeBackRule = Callable[[Game, Game, int, Action, list[Event]], str | None]
"""``(before, after, seat, action, events)`` -> the reason code that makes the move final, or None
when it can be taken back."""


@dataclass(frozen=True)
class TakeBack:
    """The log entry of a take-back: it cancels the latest move not yet cancelled."""

    @property
    def kind(self) -> str:
        return TAKE_BACK_KIND

    def to_text(self) -> str:
        return TAKE_BACK_TEXT

    def to_json(self) -> JsonObject:
        return {"kind": TAKE_BACK_KIND, "text": TAKE_BACK_TEXT}

    def public_text(self) -> str:
        return "took back their last move."


def is_take_back(action_json: object) -> bool:
    """Whether a log entry's action JSON (or text form) is a take-back."""
    if isinstance(action_json, str):
        return action_json.strip().lower() == TAKE_BACK_TEXT
    return isinstance(action_json, dict) and action_json.get("kind") == TAKE_BACK_KIND


T = TypeVar("T")


def effective(moves: Sequence[T], take_back: Callable[[T], bool]) -> list[T]:
    """The moves a log with take-backs replays: each take-back entry removes the latest move that
    is still there (and is itself no move)."""
    kept: list[T] = []
    for move in moves:
        if take_back(move):
            if kept:
                kept.pop()
        else:
            kept.append(move)
    return kept


def cancelled(moves: Sequence[T], take_back: Callable[[T], bool]) -> list[int]:
    """The positions in ``moves`` of the moves a later take-back cancelled."""
    kept: list[int] = []
    gone: list[int] = []
    for i, move in enumerate(moves):
        if take_back(move):
            if kept:
                gone.append(kept.pop())
        else:
            kept.append(i)
    return sorted(gone)


def enabled(config: object) -> bool:
    """Whether a game's config allows take-backs (they are on unless turned off)."""
    return not (isinstance(config, dict) and config.get(SETTING) is False)


def classify(rule: TakeBackRule | None, before: Game, seat: int, action: Action) -> str | None:
    """Why ``action`` by ``seat`` from ``before`` would be final (a reason code), or None when it
    can be taken back. A game with no rule takes nothing back."""
    if rule is None:
        return NO_TAKE_BACKS
    after = before.copy()
    events = after.apply(seat, action)
    return rule(before, after, seat, action, events)


def setting_specs() -> tuple[SettingSpec, ...]:
    """The setting every game that takes moves back offers (a tournament sets it for its games)."""
    return (
        SettingSpec(
            SETTING,
            "Take-backs",
            "bool",
            True,
            (),
            "whether a player may take back their own last move while it revealed nothing hidden",
        ),
    )
