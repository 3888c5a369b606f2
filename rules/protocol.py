"""The one protocol every game in Conductor follows.

A game is ``config + seed + actions``. A :class:`Game` object holds the full, hidden state; it is
created by ``GameClass.new(config, players, seed)``, mutated only by :meth:`Game.apply` (which
validates completely first and raises :class:`~rules.errors.IllegalAction` without changing
anything), and serialised with :meth:`Game.to_json` / ``GameClass.from_json``.

Actions are small frozen dataclasses with a stable text form (``action.to_text()`` and
``GameClass.parse_action(text)``) and a JSON form (``action.to_json()`` and
``GameClass.action_from_json(obj)``). Seats are ``0 .. players-1``.

The functional helpers below (``apply``) give the pure ``apply(state, action) -> (state, events)``
shape from DESIGN.md on top of the in-place API, for callers that prefer immutability.
"""

from __future__ import annotations

from typing import Any, Protocol, TypeVar, runtime_checkable

JSON = Any


@runtime_checkable
class Action(Protocol):
    """An immutable game move. ``kind`` names its type (``"draw_card"``, ``"claim"`` …)."""

    kind: str

    def to_text(self) -> str: ...

    def to_json(self) -> dict[str, JSON]: ...


class Game(Protocol):
    """What every game implements (TTR boards, First Class)."""

    game_name: str
    players: int
    seed: int

    def seats_to_act(self) -> list[int]:
        """Seats that may act now (several during simultaneous setup choices; empty when over)."""
        ...

    def legal_actions(self, seat: int) -> list[Any]:
        """Every legal action for ``seat`` now (empty if the seat may not act)."""
        ...

    def apply(self, seat: int, action: Any) -> list[dict[str, JSON]]:
        """Validate and apply ``action`` by ``seat``; return public events. Raises IllegalAction."""
        ...

    def view(self, seat: int | None) -> dict[str, JSON]:
        """What ``seat`` may see (``None``: a spectator). Never contains another seat's secrets."""
        ...

    def is_over(self) -> bool: ...

    def final_scores(self) -> list[dict[str, JSON]]:
        """Per seat: ``{"seat", "total", "breakdown": {...}, "rank"}``; total == sum(breakdown)."""
        ...

    def copy(self) -> Game: ...

    def to_json(self) -> dict[str, JSON]: ...


G = TypeVar("G", bound=Game)


def apply(game: G, seat: int, action: Any) -> tuple[G, list[dict[str, JSON]]]:
    """Pure form of :meth:`Game.apply`: returns a new game and the events; ``game`` is untouched."""
    new = game.copy()
    events = new.apply(seat, action)
    return new, events  # type: ignore[return-value]
