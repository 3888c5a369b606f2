"""Forced moves: the move a front end may play for a human seat because nothing else can matter.

:func:`forced_action` is the one policy. It answers with a move only when

- it is the seat's single legal move, or
- the seat is in its scoring step and every way of finishing that step ends in the *same* game
  state: the engine plays every line of the step (bonus stations in each order, the symbols they
  bring, every coin spend, contract and purchase) on throw-away copies up to ``done`` and compares
  the states that result. One outcome means no alternative changes anything; two or more mean the
  player has a real choice and is asked.

Nothing is guessed: if the step has more lines than :data:`SEARCH_BUDGET` positions, the answer
is None (ask the player), never a move that might lose points.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

from rules.firstclass.actions import Action

if TYPE_CHECKING:
    from rules.firstclass.game import FirstClassGame

# Positions of one scoring step the search may visit before it gives up and asks the player.
SEARCH_BUDGET = 400


class _TooManyLines(Exception):
    """The step has more positions than the search budget: the player is asked."""


def _outcome_key(game: FirstClassGame) -> str:
    """The whole game state (without the action log, which records the path, not the result)."""
    state = game.to_json()["state"]
    state.pop("history", None)
    return json.dumps(state, sort_keys=True)


def _step_outcomes(
    game: FirstClassGame, seat: int, index: int, found: set[str], seen: set[str], budget: list[int]
) -> None:
    """Add to ``found`` the state at the end of ``seat``'s scoring step for every line from here.

    Stops early once two different outcomes are known (that already makes a real choice)."""
    if len(found) > 1:
        return
    key = _outcome_key(game)
    if key in seen:
        return
    seen.add(key)
    budget[0] -= 1
    if budget[0] < 0:
        raise _TooManyLines
    scoring = game.view(None)["scoring"]
    if (
        game.is_over()
        or scoring is None
        or scoring["seat"] != seat
        or game.s.scoring is None
        or game.s.scoring.index != index
    ):
        found.add(key)
        return
    to_act = game.seats_to_act()
    actor = to_act[0]
    # `done` first: it ends the step at once, so two outcomes (if there are two) show up early.
    for action in sorted(game.legal_actions(actor), key=lambda a: a.kind != "done"):
        nxt = game.copy()
        nxt.apply(actor, action)
        _step_outcomes(nxt, seat, index, found, seen, budget)
        if len(found) > 1:
            return


def forced_action(game: FirstClassGame, seat: int) -> Action | None:
    """The move to play for ``seat`` when it has no real choice, else None (ask the player).

    A single legal move is returned as it is. In the seat's scoring step, a move is returned when
    every line of the step ends in the same game state (compared in full, see the module docstring):
    then the first bonus station still to receive, else ``done``. Anything else - a coin that could
    move a conductor, upgrade a car or add one, a contract, a Game End card, an order of bonuses that
    matters, or a step too large to search - is the player's to choose."""
    legal = game.legal_actions(seat)
    if not legal:
        return None
    if len(legal) == 1:
        return legal[0]
    scoring = game.view(None)["scoring"]
    if game.is_over() or scoring is None or scoring["seat"] != seat:
        return None
    found: set[str] = set()
    try:
        _step_outcomes(
            game.copy(), seat, game.s.scoring.index if game.s.scoring else 0, found, set(), [SEARCH_BUDGET]
        )
    except _TooManyLines:
        return None
    if len(found) != 1:
        return None
    for kind in ("bonus", "done"):
        for action in legal:
            if action.kind == kind:
                return action
    return legal[0]


__all__ = ["SEARCH_BUDGET", "forced_action"]
