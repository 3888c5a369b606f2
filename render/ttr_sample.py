"""A colour sample of one board: a view with half the tracks claimed, every kind of token, a tunnel,
a hand and final scores, drawn once per (board, size) to choose that image kind's fixed palette.

It is never shown to anyone; it only has to contain every colour (and every anti-aliased blend of
colours) a real position of that board can produce.
"""

from __future__ import annotations

from typing import Any

from rules.ttr.board import CARD_NAMES, load_board

View = dict[str, Any]

#: Seats in the sample: all five player colours, whatever the board's player count.
SAMPLE_SEATS = 5


def sample_view(board_id: str, *, seat: int | None = None, final: bool = False) -> View:
    """A view in the docs/ttr-api.md format of a board where every other track is claimed (seats
    in turn), with stations, passengers, merchandise, a tunnel and a last-move highlight; with
    ``seat`` it carries that seat's hand (every card kind) and tickets, with ``final`` the final
    scores (every breakdown kind, a longest trail)."""
    board = load_board(board_id)
    tracks = list(board.tracks)
    # Every other track: each seat's cars at every kind of angle and next to every route colour,
    # at half the cold cost of drawing all of them (each new car angle is a supersampled stamp).
    claims = {t.id: (i // 2) % SAMPLE_SEATS for i, t in enumerate(tracks) if i % 2 == 0}
    cities = [c for c in board.city_names if not board.cities[c].is_country]
    has_stations = int(board.rules.get("stations", 0) or 0) > 0
    has_passengers = int(board.rules.get("passengers", 0) or 0) > 0
    stations = {c: i % SAMPLE_SEATS for i, c in enumerate(cities[::4])} if has_stations else {}
    passengers = {c: i % SAMPLE_SEATS for i, c in enumerate(cities[1::4])} if has_passengers else {}
    tunnel = next((t for t in tracks if t.tunnel), None)
    tickets = list(board.tickets.values())
    seats: list[dict[str, Any]] = [
        {
            "seat": s,
            "score": 100 + s,
            "trains": 10 + s,
            "cards": 5 + s,
            "tickets": 3 + s,
            "stations": s % 4,
            "passengers": s % 4,
            "merchandise": [],
            "tickets_completed": None,
        }
        for s in range(SAMPLE_SEATS)
    ]
    you: dict[str, Any] | None = None
    if seat is not None:
        you = {
            "hand": {name: 1 + i for i, name in enumerate(CARD_NAMES)},
            "tickets": [
                {
                    "id": t.id,
                    "origin": t.origin,
                    "destinations": [list(d) for d in t.destinations],
                    "kind": t.kind,
                    "points": t.points,
                    "completed": i % 2 == 0,
                    "value": t.points if i % 2 == 0 else -t.points,
                }
                for i, t in enumerate(tickets[:4])
            ],
            "offer": [
                {
                    "id": t.id,
                    "origin": t.origin,
                    "destinations": [list(d) for d in t.destinations],
                    "kind": t.kind,
                    "points": t.points,
                }
                for t in tickets[4:6]
            ],
            "keep_min": 1,
            "keep_max": 2,
        }
    final_rows: list[dict[str, Any]] | None = None
    if final:
        kinds = (
            "routes",
            "tickets_won",
            "tickets_lost",
            "longest",
            "stations",
            "merchandise",
            "most_tickets",
        )
        final_rows = [
            {
                "seat": s,
                "rank": s + 1,
                "total": 150 - 10 * s,
                "breakdown": {k: (-12 if k == "tickets_lost" else 20 + s) for k in kinds},
                "longest_trail": 12 if s == 0 else 5,
                "longest_trail_tracks": [t.id for t in tracks[: len(tracks) // 4]] if s == 0 else [],
            }
            for s in range(SAMPLE_SEATS)
        ]
    return {
        "game": "ttr",
        "board": board.id,
        "board_name": board.name,
        "variant": None,
        "players": SAMPLE_SEATS,
        "seat": seat,
        "phase": "over" if final else "play",
        "turn": 100,
        "current": 1,
        "to_act": [1],
        "pending": "tunnel" if tunnel else None,
        "final_round": True,
        "final_turns_left": 3,
        "face_up": ["red", "locomotive", "white", "pink", "green"],
        "deck_size": 40,
        "discard_size": 20,
        "ticket_deck_sizes": {"short": 20, "long": 5},
        "claims": claims,
        "stations": stations,
        "passengers": passengers,
        "merchandise": {c: list(vals) for c, (vals, _, _) in board.merchandise.items()},
        "tunnel": None
        if tunnel is None
        else {
            "seat": 1,
            "track": tunnel.id,
            "revealed": ["red", "locomotive", "blue"],
            "surcharge": 2,
            "colour": "red",
        },
        "last_action": {
            "seat": 0,
            "kind": "claim",
            "text": "claimed",
            "tracks": [tracks[0].id],
            "cities": cities[:1],
        },
        "seats": seats,
        "you": you,
        "final": final_rows,
        "notes": ["Sample note."],
    }
