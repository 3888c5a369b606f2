"""Helpers for the First Class rules tests: start games, place cards, run actions."""

from __future__ import annotations

from typing import Any

from rules.firstclass.cards import ActionCard
from rules.firstclass.game import FirstClassGame
from rules.firstclass.ops import settle
from rules.firstclass.state import PlayerState


def started(players: int = 2, seed: int = 1, **config: Any) -> FirstClassGame:
    """A new game with the setup draft done (everyone keeps the first card offered)."""
    g = FirstClassGame.new(dict(config), players, seed)
    while g.s["phase"] == "draft":
        seat = g.seats_to_act()[0]
        g.apply(seat, g.legal_actions(seat)[0])
    return g


def add_card(
    g: FirstClassGame,
    cid: str,
    kind: str = "railcar",
    effects: str = "",
    *,
    row: int = 0,
    col: int = 0,
    set_: str = "X",
    requirement: str = "",
    bonus: str = "",
    stations: str = "",
    game_end_type: str | None = None,
) -> str:
    """Put a test card (added to this game's card data) into the display at row/col."""
    get = (
        game_end_type
        if game_end_type is not None
        else (kind if kind in ("railcar", "conductor", "locomotive") and set_ == "X" else "")
    )
    g.deck.cards[cid] = ActionCard(cid, set_, 1, kind, get, effects, requirement, bonus, stations, "test")
    g.s["rows"][row][col] = cid
    g.s["slots"][row][col] = "available"
    return cid


def assert_legal_train(cars: list[int]) -> None:
    """A train a test builds by hand must follow the rules: no car worth more than the car to its left
    (a mail car, -1, is skipped: the car right of it compares with the car left of it)."""
    values = [v for v in cars if v != -1]
    assert all(a >= b for a, b in zip(values, values[1:], strict=False)), (
        f"illegal train {cars}: a car beats the one to its left"
    )


def set_board_route(g: FirstClassGame, stations: str) -> None:
    """Replace the 3 stations printed on the player board (the deck is frozen card data)."""
    object.__setattr__(g.deck, "board_route", stations)
    g.deck._route_cache.clear()


def act(g: FirstClassGame, seat: int, *texts: str) -> list[dict[str, Any]]:
    events: list[dict[str, Any]] = []
    for t in texts:
        events += g.apply(seat, g.parse_action(t))
    return events


def texts(g: FirstClassGame, seat: int) -> set[str]:
    return {a.to_text() for a in g.legal_actions(seat)}


def player(g: FirstClassGame, seat: int) -> PlayerState:
    pl = g.s.players[seat]
    return pl


def give(g: FirstClassGame, seat: int, effects: str) -> list[dict[str, Any]]:
    """Queue effects for ``seat`` as if from a card it just took, and settle automatic symbols."""
    player(g, seat)["pending"] += g.expand(effects, "test")
    g.s["taken"] = True
    return settle(g, seat)


def run_to_end(g: FirstClassGame, chooser: Any) -> None:
    while not g.is_over():
        seat = g.seats_to_act()[0]
        g.apply(seat, chooser(g, seat))
