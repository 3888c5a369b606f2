"""Helpers for the TTR render tests: hand-built views (independent of the engine, so goldens only
change when the drawing changes), image comparison and golden-file handling."""

from __future__ import annotations

import io
import math
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
    stations = (
        {cities[(7 * i + 3) % len(cities)]: i % players for i in range(players)} if has_stations else {}
    )
    passengers = (
        {cities[(5 * i + 2) % len(cities)]: i % players for i in range(players)} if has_passengers else {}
    )
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
        else {
            "seat": 1 % players,
            "track": tunnel_track.id,
            "revealed": ["red", "locomotive", "blue"],
            "surcharge": 2,
            "colour": "red",
        },
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
    assert diff <= tolerance, (
        f"{name}: mean pixel difference {diff:.2f} > {tolerance} (CONDUCTOR_UPDATE_GOLDEN=1 to accept)"
    )


# --- Colour science for the phone-preview tests ---------------------------------------------------

RGB = tuple[int, int, int]

#: Colour-vision-deficiency simulation matrices (Machado et al. 2009, severity 1, linear RGB).
CVD_MATRICES = {
    "protanopia": (
        (0.152286, 1.052583, -0.204868),
        (0.114503, 0.786281, 0.099216),
        (-0.003882, -0.048116, 1.051998),
    ),
    "deuteranopia": (
        (0.367322, 0.860646, -0.227968),
        (0.280085, 0.672501, 0.047413),
        (-0.011820, 0.042940, 0.968881),
    ),
    "tritanopia": (
        (1.255528, -0.076749, -0.178779),
        (-0.078411, 0.930809, 0.147602),
        (0.004733, 0.691367, 0.303900),
    ),
}


def _linear(v: float) -> float:
    x = v / 255
    return x / 12.92 if x <= 0.04045 else float(((x + 0.055) / 1.055) ** 2.4)


def _encode(x: float) -> int:
    x = min(1.0, max(0.0, x))
    return round(255 * (12.92 * x if x <= 0.0031308 else 1.055 * x ** (1 / 2.4) - 0.055))


def simulate_cvd(kind: str, c: tuple[float, ...]) -> RGB:
    """How ``c`` looks with the colour-vision deficiency ``kind`` (an sRGB colour again)."""
    m = CVD_MATRICES[kind]
    rgb = [_linear(v) for v in c[:3]]
    out = [sum(m[i][j] * rgb[j] for j in range(3)) for i in range(3)]
    return (_encode(out[0]), _encode(out[1]), _encode(out[2]))


def lab(c: tuple[float, ...]) -> tuple[float, float, float]:
    """CIELAB (D65) of an sRGB colour."""
    r, g, b = (_linear(v) for v in c[:3])
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883

    def f(t: float) -> float:
        return float(t ** (1 / 3)) if t > 216 / 24389 else (24389 / 27 * t + 16) / 116

    return (116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z)))


def delta_e(c1: tuple[float, ...], c2: tuple[float, ...]) -> float:
    """CIEDE2000 colour difference of two sRGB colours (about 2: just noticeable side by side;
    over 20: clearly different colours)."""
    return delta_e_lab(lab(c1), lab(c2))


def delta_e_lab(lab1: tuple[float, float, float], lab2: tuple[float, float, float]) -> float:
    """CIEDE2000 (Sharma, Wu and Dalal 2005) of two CIELAB colours."""
    l1, a1, b1 = lab1
    l2, a2, b2 = lab2
    cb = (math.hypot(a1, b1) + math.hypot(a2, b2)) / 2
    g = 0.5 * (1 - math.sqrt(cb**7 / (cb**7 + 25**7)))
    a1p, a2p = (1 + g) * a1, (1 + g) * a2
    c1p, c2p = math.hypot(a1p, b1), math.hypot(a2p, b2)
    h1p = math.degrees(math.atan2(b1, a1p)) % 360
    h2p = math.degrees(math.atan2(b2, a2p)) % 360
    dl, dc = l2 - l1, c2p - c1p
    dh = h2p - h1p
    if c1p * c2p == 0:
        dh = 0
    elif dh > 180:
        dh -= 360
    elif dh < -180:
        dh += 360
    dhp = 2 * math.sqrt(c1p * c2p) * math.sin(math.radians(dh / 2))
    lbp, cbp = (l1 + l2) / 2, (c1p + c2p) / 2
    if c1p * c2p == 0:
        hbp = h1p + h2p
    elif abs(h1p - h2p) <= 180:
        hbp = (h1p + h2p) / 2
    elif h1p + h2p < 360:
        hbp = (h1p + h2p + 360) / 2
    else:
        hbp = (h1p + h2p - 360) / 2
    t = (
        1
        - 0.17 * math.cos(math.radians(hbp - 30))
        + 0.24 * math.cos(math.radians(2 * hbp))
        + 0.32 * math.cos(math.radians(3 * hbp + 6))
        - 0.20 * math.cos(math.radians(4 * hbp - 63))
    )
    dth = 30 * math.exp(-(((hbp - 275) / 25) ** 2))
    rc = 2 * math.sqrt(cbp**7 / (cbp**7 + 25**7))
    sl = 1 + 0.015 * (lbp - 50) ** 2 / math.sqrt(20 + (lbp - 50) ** 2)
    sc = 1 + 0.045 * cbp
    sh = 1 + 0.015 * cbp * t
    rt = -math.sin(math.radians(2 * dth)) * rc
    return math.sqrt((dl / sl) ** 2 + (dc / sc) ** 2 + (dhp / sh) ** 2 + rt * (dc / sc) * (dhp / sh))


def preview(img: Image.Image, width: int) -> tuple[Image.Image, float]:
    """``img`` scaled down to ``width`` pixels wide as a chat client would (Lanczos), and the scale."""
    scale = width / img.width
    return img.resize((width, max(1, round(img.height * scale))), Image.Resampling.LANCZOS), scale
