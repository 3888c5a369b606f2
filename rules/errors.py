"""Typed errors raised by every game in :mod:`rules`."""

from __future__ import annotations


class IllegalAction(Exception):
    """An action that the rules do not allow in the current state.

    ``code`` is a short machine-readable identifier (``"not_your_turn"``, ``"unknown_route"``,
    ``"not_enough_cards"`` …); ``message`` is a sentence a player understands and, where a
    numbered rule applies, names it. Raising it never leaves a state half-changed: every game
    validates an action completely before mutating anything.

    ``params`` are the facts the sentence names (a route, a count), as plain values: a front end
    writes the refusal in its reader's language from ``code`` and ``params`` (``lang.refusals``),
    ``message`` staying the English original.
    """

    def __init__(self, code: str, message: str, **params: str | int) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.params: dict[str, str | int] = dict(params)

    def __repr__(self) -> str:
        return f"IllegalAction({self.code!r}, {self.message!r})"
