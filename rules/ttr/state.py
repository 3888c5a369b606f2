"""Everything that changes during a game of Ticket to Ride, as one typed record.

The JSON form is the record's fields in declaration order (after the game's header of name,
config, players and seed), with the same keys and values that games stored since the first release
use, so old snapshots load unchanged; serialisation, restoring and copying are all driven by the
field list, so a new field cannot be forgotten by one of them.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any

from rules.ttr.board import N_CARD_TYPES, Board


def _copy(value: Any) -> Any:
    """A deep copy of a JSON-shaped value (lists, dicts, scalars)."""
    if isinstance(value, list):
        return [_copy(v) for v in value]
    if isinstance(value, dict):
        return {k: _copy(v) for k, v in value.items()}
    return value


@dataclass(slots=True, eq=True)
class TTRState:
    """The mutable state of one game. Cards are card-type indexes (see ``rules.ttr.board``)."""

    deck: list[int]
    """Train deck, top card last."""
    discard: list[int]
    face_up: list[int]
    """The five face-up slots; -1 for a slot that could not be filled."""
    hands: list[list[int]]
    """Per seat, a count per card type."""
    shuffles: int
    """How many times the discard pile became the deck (seeds each reshuffle)."""
    ticket_decks: dict[str, list[str]]
    """"short" and "long" ticket piles, top last."""
    tickets_out: list[str]
    """Tickets removed from the game."""
    tickets: list[list[str]]
    """Per seat, the tickets kept."""
    offers: list[list[str] | None]
    """Per seat, the tickets drawn and not yet chosen among."""
    setup_done: list[bool]
    """Per seat, whether the opening tickets were chosen."""
    owner: list[int]
    """Per track index, the seat holding it or -1."""
    trains: list[int]
    route_score: list[int]
    stations_left: list[int]
    station_at: dict[str, int]
    """City -> seat whose station stands there."""
    passengers_left: list[int]
    passenger_at: dict[str, int]
    """City -> seat whose passenger stands there (Märklin)."""
    merchandise: dict[str, list[int]]
    """City -> merchandise tokens left, top first (Märklin)."""
    merch_taken: list[list[int]]
    phase: str
    """"setup", "play" or "over"."""
    current: int
    pending: str | None
    """Sub-step of the current turn: None, "draw_second", "tickets", "tunnel" or "passenger"."""
    tunnel: dict[str, Any] | None
    """The tunnel claim waiting for its surcharge: seat, track, payment, revealed, surcharge,
    colour, passenger."""
    final_turns_left: int | None
    turn: int
    passes_in_a_row: int
    last_action: dict[str, Any] | None
    journey: dict[str, Any] | None = None
    """Märklin: the passenger journey under way (pending "passenger"): seat, start city, the city
    it is in now, the track indexes travelled, the cities entered, the cities that gave a token,
    the tokens and the fares paid so far. Public. Absent from games stored before journeys were
    played route by route (it is None between turns, so they load unchanged)."""

    @classmethod
    def initial(cls, board: Board, players: int) -> TTRState:
        """The state before anything is dealt."""
        spec = board.spec
        return cls(
            deck=[],
            discard=[],
            face_up=[-1] * 5,
            hands=[[0] * N_CARD_TYPES for _ in range(players)],
            shuffles=0,
            ticket_decks={"short": [], "long": []},
            tickets_out=[],
            tickets=[[] for _ in range(players)],
            offers=[None] * players,
            setup_done=[False] * players,
            owner=[-1] * len(board.tracks),
            trains=[spec.trains] * players,
            route_score=[0] * players,
            stations_left=[spec.stations] * players,
            station_at={},
            passengers_left=[spec.passengers] * players,
            passenger_at={},
            merchandise={c: list(v[0]) for c, v in board.merchandise.items()},
            merch_taken=[[] for _ in range(players)],
            phase="setup",
            current=0,
            pending=None,
            tunnel=None,
            final_turns_left=None,
            turn=0,
            passes_in_a_row=0,
            last_action=None,
        )

    def to_json(self) -> dict[str, Any]:
        """The fields as a fresh JSON-serialisable dict, in declaration order (an optional field only
        when it is set, so a game between turns is stored exactly as before it existed)."""
        out = {}
        for name in FIELD_NAMES:
            value = getattr(self, name)
            if value is not None or name not in OPTIONAL_FIELDS:
                out[name] = _copy(value)
        return out

    @classmethod
    def from_json(cls, obj: dict[str, Any]) -> TTRState:
        """Restore from :meth:`to_json` output (or a whole game's JSON; extra keys are ignored; an
        optional field missing from an older snapshot takes its default)."""
        return cls(
            **{name: _copy(obj[name]) for name in FIELD_NAMES if name in obj or name not in OPTIONAL_FIELDS}
        )

    def copy(self) -> TTRState:
        """An independent deep copy.

        Written out field by field (the search AI copies states thousands of times a move): every
        field is a keyword of the constructor, so a new field cannot be left out without an error."""
        return TTRState(
            deck=self.deck[:],
            discard=self.discard[:],
            face_up=self.face_up[:],
            hands=[h[:] for h in self.hands],
            shuffles=self.shuffles,
            ticket_decks={k: v[:] for k, v in self.ticket_decks.items()},
            tickets_out=self.tickets_out[:],
            tickets=[t[:] for t in self.tickets],
            offers=[None if o is None else o[:] for o in self.offers],
            setup_done=self.setup_done[:],
            owner=self.owner[:],
            trains=self.trains[:],
            route_score=self.route_score[:],
            stations_left=self.stations_left[:],
            station_at=dict(self.station_at),
            passengers_left=self.passengers_left[:],
            passenger_at=dict(self.passenger_at),
            merchandise={k: v[:] for k, v in self.merchandise.items()},
            merch_taken=[m[:] for m in self.merch_taken],
            phase=self.phase,
            current=self.current,
            pending=self.pending,
            tunnel=None if self.tunnel is None else _copy(self.tunnel),
            final_turns_left=self.final_turns_left,
            turn=self.turn,
            passes_in_a_row=self.passes_in_a_row,
            last_action=None if self.last_action is None else _copy(self.last_action),
            journey=None if self.journey is None else _copy(self.journey),
        )


FIELD_NAMES: tuple[str, ...] = tuple(f.name for f in fields(TTRState))
# Fields added after the first release, with a default for snapshots stored without them.
OPTIONAL_FIELDS: frozenset[str] = frozenset(("journey",))
