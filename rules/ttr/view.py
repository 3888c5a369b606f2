"""What one seat (or a spectator) may see of a Ticket to Ride game; format in ``docs/ttr-api.md``.

Never another seat's hand, tickets or ticket offer, nor the order of any deck.
"""

from __future__ import annotations

from typing import Any, NotRequired, TypedDict

from rules.protocol import JsonObject
from rules.ttr.board import CARD_NAMES, COLOURS, Board
from rules.ttr.movegen import seats_to_act, ticket_keep_bounds
from rules.ttr.scoring import final_scores, public_score, ticket_json, ticket_status
from rules.ttr.state import TTRState

# The view's shape, as docs/ttr-api.md describes it; tickets and final scores keep the JSON forms
# scoring gives them (described there).


class SeatView(TypedDict):
    seat: int
    score: int
    trains: int
    cards: int
    tickets: int
    stations: int
    passengers: int
    merchandise: list[int]
    tickets_completed: int | None
    choosing_tickets: bool


class YouView(TypedDict):
    hand: dict[str, int]
    tickets: list[JsonObject]
    offer: list[JsonObject] | None
    keep_min: int | None
    keep_max: int | None


class TunnelView(TypedDict):
    seat: int
    track: str
    revealed: list[str]
    surcharge: int
    colour: str | None


class JourneyView(TypedDict):
    seat: int
    start: str
    at: str
    tracks: list[str]
    cities: list[str]
    tokens: list[int]
    fares: int


class TTRView(TypedDict):
    """What :func:`view` returns: one seat's (or a spectator's) view of a Ticket to Ride game."""

    game: str
    board: str
    board_name: str
    variant: str | None
    players: int
    seat: int | None
    phase: str
    turn: int
    current: int | None
    to_act: list[int]
    pending: str | None
    final_round: bool
    final_turns_left: int | None
    face_up: list[str | None]
    deck_size: int
    discard_size: int
    ticket_deck_sizes: dict[str, int]
    claims: dict[str, int]
    stations: dict[str, int]
    passengers: dict[str, int]
    merchandise: dict[str, list[int]]
    tunnel: TunnelView | None
    last_action: JsonObject | None
    seats: list[SeatView]
    you: YouView | None
    final: list[dict[str, Any]] | None
    notes: list[str]
    journey: NotRequired[JourneyView | None]  # only on boards with passengers


def face_up_names(state: TTRState) -> list[str | None]:
    """The face-up row as card names (None for an empty slot)."""
    return [CARD_NAMES[c] if c >= 0 else None for c in state.face_up]


def board_notes(board: Board) -> list[str]:
    """Honest labels for data that is not the published game's (shown with every board)."""
    spec = board.spec
    notes: list[str] = []
    if spec.ticket_deck_is_standin or spec.ticket_deck_label.startswith("Custom"):
        notes.append(spec.ticket_deck_label)
    provisional = sorted(c for c, (_, _, status) in board.merchandise.items() if status == "provisional")
    if provisional:
        notes.append(
            "Merchandise: Berlin is verified, the six red stacks are inferred, and the yellow/white stacks "
            "of these cities are provisional (assignment unknown): " + ", ".join(provisional) + "."
        )
    if board.variant:
        notes.append(f"Variant {board.variant}: {spec.variant_description}")
    return notes


def view(
    board: Board, state: TTRState, players: int, seat: int | None, final: list[dict[str, Any]] | None = None
) -> TTRView:
    """What ``seat`` may see (``None`` for a spectator). ``final``: the finished game's scores when
    the caller already has them (they are computed here otherwise)."""
    over = state.phase == "over"
    if not over:
        final = None
    elif final is None:
        final = final_scores(board, state, players)
    seats: list[SeatView] = []
    for s in range(players):
        seats.append(
            {
                "seat": s,
                "score": final[s]["total"] if final else public_score(state, s),
                "trains": state.trains[s],
                "cards": sum(state.hands[s]),
                "tickets": len(state.tickets[s]),
                "stations": state.stations_left[s],
                "passengers": state.passengers_left[s],
                "merchandise": list(state.merch_taken[s]),
                "tickets_completed": final[s]["tickets_completed"] if final else None,
                "choosing_tickets": state.offers[s] is not None,
            }
        )
    you: YouView | None = None
    if seat is not None:
        lo = hi = None
        offer = state.offers[seat]
        if offer is not None:
            lo, hi = ticket_keep_bounds(board, state, seat)
        you = {
            "hand": {CARD_NAMES[i]: n for i, n in enumerate(state.hands[seat]) if n},
            "tickets": ticket_status(board, state, seat),
            "offer": None if offer is None else [ticket_json(board, t) for t in offer],
            "keep_min": lo,
            "keep_max": hi,
        }
    tunnel: TunnelView | None = None
    if state.tunnel:
        tun = state.tunnel
        tunnel = {
            "seat": tun["seat"],
            "track": board.tracks[tun["track"]].id,
            "revealed": [CARD_NAMES[c] for c in tun["revealed"]],
            "surcharge": tun["surcharge"],
            "colour": None if tun["colour"] is None else COLOURS[tun["colour"]],
        }
    journey: JourneyView | None = None
    if state.journey is not None:
        jr = state.journey
        journey = {
            "seat": jr["seat"],
            "start": jr["start"],
            "at": jr["at"],
            "tracks": [board.tracks[i].id for i in jr["tracks"]],
            "cities": list(jr["cities"]),
            "tokens": list(jr["tokens"]),
            "fares": jr["fares"],
        }
    out: TTRView = {
        "game": "ttr",
        "board": board.id,
        "board_name": board.name,
        "variant": board.variant,
        "players": players,
        "seat": seat,
        "phase": state.phase,
        "turn": state.turn,
        "current": state.current if state.phase == "play" else None,
        "to_act": seats_to_act(state, players),
        "pending": state.pending,
        "final_round": state.final_turns_left is not None,
        "final_turns_left": state.final_turns_left,
        "face_up": face_up_names(state),
        "deck_size": len(state.deck),
        "discard_size": len(state.discard),
        "ticket_deck_sizes": {k: len(v) for k, v in state.ticket_decks.items()},
        "claims": {board.tracks[i].id: o for i, o in enumerate(state.owner) if o != -1},
        "stations": dict(state.station_at),
        "passengers": dict(state.passenger_at),
        "merchandise": {k: list(v) for k, v in state.merchandise.items()},
        "tunnel": tunnel,
        "last_action": None if state.last_action is None else dict(state.last_action),
        "seats": seats,
        "you": you,
        "final": final,
        "notes": board_notes(board),
    }
    if board.spec.passengers > 0:
        # Only boards with passengers have journeys (the other boards' views are as they always were).
        out["journey"] = journey
    return out
