"""Helpers for the TTR render tests: hand-built views (independent of the engine, so goldens only
change when the drawing changes), image comparison and golden-file handling."""

from __future__ import annotations

import io
import os
from pathlib import Path
from typing import Any

from PIL import Image, ImageChops, ImageStat

from rules.ttr.board import load_board

GOLDEN_DIR = Path(__file__).parent / "golden"
UPDATE = os.environ.get("CONDUCTOR_UPDATE_GOLDEN") == "1"


def synthetic_view(board_id: str, players: int, fill: float = 0.5, seat: int | None = None) -> dict[str, Any]:
    """A view in the docs/ttr-api.md format with a deterministic spread of claims and tokens.

    ``fill`` is the share of routes claimed (one track per route, round-robin over seats).
    """
    board = load_board(board_id)
    claims: dict[str, int] = {}
    seen_pairs: set[str] = set()
    n = 0
    step = max(1, round(1 / max(fill, 0.01)))
    for i, t in enumerate(board.tracks):
        if t.pair_id in seen_pairs or i % step:
            continue
        seen_pairs.add(t.pair_id)
        claims[t.id] = n % players
        n += 1
    cities = board.city_names
    has_stations = int(board.rules.get("stations", 0) or 0) > 0
    has_passengers = int(board.rules.get("passengers", 0) or 0) > 0
    stations = {cities[(7 * i + 3) % len(cities)]: i % players for i in range(players)} if has_stations else {}
    passengers = {cities[(5 * i + 2) % len(cities)]: i % players for i in range(players)} if has_passengers else {}
    merchandise = {c: list(vals) for c, (vals, _, _) in board.merchandise.items()}
    last_track = next(iter(claims))
    tunnel_track = next((t for t in board.tracks if t.tunnel and t.id not in claims), None)
    seats: list[dict[str, Any]] = [
        {
            "seat": s,
            "score": 10 + 7 * s,
            "trains": int(board.rules["trains"]) - 5 * s,
            "cards": 4 + s,
            "tickets": 2 + s % 2,
            "stations": int(board.rules.get("stations", 0) or 0),
            "passengers": int(board.rules.get("passengers", 0) or 0),
            "merchandise": [],
            "tickets_completed": None,
        }
        for s in range(players)
    ]
    you = None
    if seat is not None:
        tickets = list(board.tickets.values())[:3]
        you = {
            "hand": {"red": 2, "blue": 3, "locomotive": 1, "white": seat + 1},
            "tickets": [
                {
                    "id": t.id,
                    "origin": t.origin,
                    "destinations": [list(d) for d in t.destinations],
                    "kind": t.kind,
                    "points": t.points,
                    "completed": i == 0,
                    "value": t.points if i == 0 else -t.points,
                }
                for i, t in enumerate(tickets)
            ],
            "offer": None,
            "keep_min": None,
            "keep_max": None,
        }
    return {
        "game": "ttr",
        "board": board.id,
        "board_name": board.name,
        "variant": None,
        "players": players,
        "seat": seat,
        "phase": "play",
        "turn": 42,
        "current": 1 % players,
        "to_act": [1 % players],
        "pending": "tunnel" if tunnel_track else None,
        "final_round": True,
        "final_turns_left": 3,
        "face_up": ["red", "locomotive", "white", None, "green"],
        "deck_size": 37,
        "discard_size": 12,
        "ticket_deck_sizes": {"short": 20, "long": 3} if board.id == "germany" else {"short": 20},
        "claims": claims,
        "stations": stations,
        "passengers": passengers,
        "merchandise": merchandise,
        "tunnel": None
        if tunnel_track is None
        else {"seat": 1 % players, "track": tunnel_track.id, "revealed": ["red", "locomotive", "blue"], "surcharge": 2, "colour": "red"},
        "last_action": {"seat": 0, "kind": "claim", "text": "claimed", "tracks": [last_track], "cities": []},
        "seats": seats,
        "you": you,
        "final": None,
        "notes": [],
    }


def decode(data: bytes) -> Image.Image:
    with Image.open(io.BytesIO(data)) as im:
        im.load()
        return im.convert("RGB")


def mean_abs_diff(a: Image.Image, b: Image.Image) -> float:
    """Mean absolute per-channel difference (0..255); images of different sizes are infinitely far."""
    if a.size != b.size:
        return float("inf")
    stat = ImageStat.Stat(ImageChops.difference(a.convert("RGB"), b.convert("RGB")))
    return sum(stat.mean) / 3


def check_golden(name: str, data: bytes, tolerance: float = 0.75) -> None:
    """Compare ``data`` with ``golden/<name>.png``; rewrite it when CONDUCTOR_UPDATE_GOLDEN=1."""
    path = GOLDEN_DIR / f"{name}.png"
    if UPDATE or not path.exists():
        if not UPDATE:
            raise AssertionError(f"missing golden {path}; run with CONDUCTOR_UPDATE_GOLDEN=1 to create it")
        GOLDEN_DIR.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
        return
    diff = mean_abs_diff(decode(data), decode(path.read_bytes()))
    assert diff <= tolerance, f"{name}: mean pixel difference {diff:.2f} > {tolerance} (CONDUCTOR_UPDATE_GOLDEN=1 to accept)"
