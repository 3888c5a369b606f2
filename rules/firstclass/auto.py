"""The moves the bot may play for a person who has no real choice in First Class."""

from __future__ import annotations

from typing import Any


def forced_action(game: Any, seat: int) -> Any | None:
    """The move the bot plays for a *human* seat when it has no real choice, else None.

    Only in a scoring phase: with at most one bonus station to receive and no contract to fulfil
    or Game End card to buy, the single bonus is taken and then ``done`` scores the trains. The
    order of two or more bonuses (or a contract) is the player's to choose.
    """
    if game.view(None).get("phase") != "scoring":
        return None
    legal = list(game.legal_actions(seat))
    kinds = [getattr(a, "kind", "") for a in legal]
    if "done" not in kinds or kinds.count("bonus") > 1 or "fulfil" in kinds or "buy" in kinds:
        return None
    for a in legal:
        if a.kind == "bonus":
            return a
    return next(a for a in legal if a.kind == "done")
