"""A Ticket to Ride planned turn's steps in words (``rules.ttr.plans``), for any reader."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from bot.games.ttr.words import card_name, cards_words
from lang import M, Msg, current, normalise, using
from rules.errors import IllegalAction
from rules.plans import Step
from rules.ttr import plans as ttr_plans
from rules.ttr.actions import parse_cards
from rules.ttr.board import BoardDataError, load_board


@dataclass(frozen=True)
class _Cards(Msg):
    """Cards worded in the reader's language when the sentence is read (not when it is made)."""

    cards: tuple[tuple[str, int], ...] = ()

    def text(self, code: object | None = None) -> str:
        with using(current() if code is None else normalise(code)):
            return cards_words(list(self.cards))


@dataclass(frozen=True)
class _Card(Msg):
    def text(self, code: object | None = None) -> str:
        with using(current() if code is None else normalise(code)):
            return card_name(self.id)


def _route(track_id: str, config: Mapping[str, object]) -> str:
    """The route's cities ("Berlin–Wien"), else its id when the board cannot be read."""
    try:
        board = load_board(
            str(config.get("board", "usa")),
            config.get("variant") if isinstance(config.get("variant"), str) else None,
            config.get("ticket_deck") if isinstance(config.get("ticket_deck"), str) else None,
        )
    except (BoardDataError, IllegalAction, OSError):
        return track_id
    track = board.track_by_id.get(track_id.strip().lower())
    return f"{track.label} ({track.id})" if track is not None else track_id


def plan_step_words(step: Step, config: Mapping[str, object]) -> Msg | None:
    if step.kind == ttr_plans.CLAIM and len(step.args) >= 2:
        return M(
            "if {route} is free and I can pay it, claim it with {cards}",
            route=_route(step.args[0], config),
            cards=_Cards("", cards=parse_cards(step.args[1])),
        )
    if step.kind == ttr_plans.LOCOMOTIVE:
        return M("if a face-up locomotive shows, take it")
    if step.kind == ttr_plans.COLOUR and step.args:
        return M(
            "if a face-up {colour} card shows, take it, then another if one shows, else one from the deck",
            colour=_Card(step.args[0]),
        )
    if step.kind == ttr_plans.DECK:
        return M("draw two cards from the deck")
    return None
