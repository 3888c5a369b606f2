"""The one protocol every game in Conductor follows, as types.

A game is ``config + seed + actions``. A :class:`Game` object holds the full, hidden state; it is
created by its spec's ``new(config, players, seed)`` (see :mod:`rules.registry`), mutated only by
:meth:`Game.apply` (which validates completely first and raises
:class:`~rules.errors.IllegalAction` without changing anything), and serialised with
:meth:`Game.to_json` and the spec's ``from_json``.

Actions are small frozen values with a stable text form (``action.to_text()`` and the spec's
``parse_action(text)``), a JSON form (``action.to_json()`` and ``action_from_json(obj)``) and a
public reading (``action.public_text()``): what everyone may read about the move (a kept ticket's
id or a hidden Game End card is not in it). Seats are ``0 .. players-1``.

Events returned by :meth:`Game.apply` are dicts with a ``type``, usually a ``seat`` and a ``text``
(the sentence without the actor's name, e.g. ``"drew a card from the deck."``), and may carry
``visible_to``: ``None`` or absent for a public event, else the list of seats that may see it.
Front ends show an event to a reader only when :func:`visible_to` allows it.

Nothing here is ``Any``: saved forms, action JSON and events are :data:`JSON` (what
:func:`json.loads` returns), a view is a :data:`View` (a mapping generic code passes on and reads
only through the game's spec) and final scores are :class:`FinalScore` rows.

The functional helper :func:`apply` gives the pure ``apply(state, action) -> (state, events)``
shape from DESIGN.md on top of the in-place API, for callers that prefer immutability.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import NotRequired, Protocol, Self, TypedDict, TypeVar, runtime_checkable

JSON = str | int | float | bool | None | list["JSON"] | dict[str, "JSON"]
"""A value :func:`json.loads` returns (and :func:`json.dumps` writes)."""
JsonObject = dict[str, JSON]
"""A decoded JSON object: a game's saved form, an action's JSON form, a config."""
Event = dict[str, JSON]
"""What :meth:`Game.apply` returns for each thing that happened (see the module's docstring)."""
View = Mapping[str, object]
"""A game's view as generic code sees it: a JSON-able mapping whose keys are the game's own (each
engine's ``view`` says its exact shape; generic code reads it only through the game's spec)."""


class FinalScore(TypedDict):
    """One seat's final score, the part every game gives and generic code reads (tournaments,
    ratings, the search AI); a game may add its own keys (Ticket to Ride's tickets and trails)."""

    seat: int
    total: int
    breakdown: dict[str, int]
    rank: int
    winner: NotRequired[bool]


@runtime_checkable
class Action(Protocol):
    """An immutable game move. ``kind`` names its type (``"draw_card"``, ``"claim"`` …)."""

    @property
    def kind(self) -> str: ...

    def to_text(self) -> str: ...

    def to_json(self) -> JsonObject: ...

    def public_text(self) -> str:
        """The move as everyone may read it (no hidden card or ticket named)."""
        ...


class Game(Protocol):
    """What every game implements (TTR boards, First Class)."""

    game_name: str
    players: int
    seed: int

    def seats_to_act(self) -> list[int]:
        """Seats that may act now (several during simultaneous setup choices; empty when over)."""
        ...

    def legal_actions(self, seat: int) -> Sequence[Action]:
        """Every legal action for ``seat`` now (empty if the seat may not act)."""
        ...

    def apply(self, seat: int, action: Action) -> list[Event]:
        """Validate and apply ``action`` by ``seat``; return the events. Raises IllegalAction."""
        ...

    def view(self, seat: int | None) -> View:
        """What ``seat`` may see (``None``: a spectator). Never contains another seat's secrets."""
        ...

    def is_over(self) -> bool: ...

    def final_scores(self) -> list[FinalScore]:
        """Per seat: ``{"seat", "total", "breakdown": {...}, "rank"}``; total == sum(breakdown)."""
        ...

    def copy(self) -> Self: ...

    def to_json(self) -> JsonObject: ...


@dataclass(frozen=True, slots=True)
class BoardChoice:
    """A board a player can pick for a game that has several (Ticket to Ride's maps)."""

    id: str
    name: str
    min_players: int
    max_players: int
    variants: tuple[str, ...] = ()


class AI(Protocol):
    """An AI player: returns one of ``game.legal_actions(seat)``."""

    def choose(self, game: Game, seat: int) -> Action: ...


G = TypeVar("G", bound=Game)


def apply(game: G, seat: int, action: Action) -> tuple[G, list[Event]]:
    """Pure form of :meth:`Game.apply`: returns a new game and the events; ``game`` is untouched."""
    new: G = game.copy()
    events = new.apply(seat, action)
    return new, events


def visible_to(event: Mapping[str, JSON], seat: int | None) -> bool:
    """Whether ``seat`` (``None``: everyone, a spectator or a public channel) may see ``event``."""
    allowed = event.get("visible_to")
    if allowed is None:
        return event.get("public") is not False
    return seat is not None and isinstance(allowed, list) and seat in allowed
