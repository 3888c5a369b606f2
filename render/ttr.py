"""Ticket to Ride images from a game *view* (see docs/ttr-api.md): board snapshots, a player's
private hand, the end-of-game summary and an animated replay.

Every public function takes views, never a game object, so an image can only ever show what the
view's seat (or a spectator) may see. The static board is cached per (board, width) in
:mod:`render.ttr_board`; a snapshot copies it and draws only claims, tokens, highlights and the
panel, then encodes.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from PIL import Image, ImageChops, ImageDraw

from lang import N_, pictures
from render.common import (
    CARD_COLOURS,
    CARD_GLYPHS,
    HIGHLIGHT,
    LAND,
    LAND_EDGE,
    MUTED,
    PANEL_BG,
    PANEL_LINE,
    PLAYER_COLOURS,
    RAINBOW,
    RGB,
    ROUTE_COLOURS,
    SEA,
    SS,
    TEXT,
    TRAIL,
    FixedPalette,
    build_palette,
    car_tile,
    default_names,
    disc_stamp,
    draw_text,
    encode_png,
    fit_text,
    font,
    ink_for,
    mix,
    paste_centred,
    paste_tile,
    player_colour,
    player_glyph,
    ring_stamp,
    text_length,
)
from render.ttr_board import Layout, is_portrait, layout, overlay_pieces, static_layer, static_layers
from render.ttr_sample import sample_view
from rules.ttr.board import CARD_NAMES, Board, Track, available_boards, load_board

View = dict[str, Any]

#: Map width in pixels at the default size; the panel adds ~380 px beside landscape boards.
LANDSCAPE_MAP_WIDTH = 1240
PORTRAIT_MAP_WIDTH = 1100
PANEL_WIDTH = 380
LANDSCAPE_MIN_RATIO = 0.70
HAND_WIDTH = 1240

FINAL_ROUND_RED: RGB = (190, 30, 45)

MERCH_COLOURS: dict[str, RGB] = {
    "black": (40, 40, 40),
    "red": (200, 45, 45),
    "yellow": (240, 205, 60),
    "white": (250, 250, 245),
}


def default_map_width(board_id: str) -> int:
    return PORTRAIT_MAP_WIDTH if is_portrait(board_id) else LANDSCAPE_MAP_WIDTH


def _board(view: View) -> Board:
    if view.get("game") not in (None, "ttr"):
        raise ValueError(f"not a Ticket to Ride view: game={view.get('game')!r}")
    return load_board(str(view["board"]))


def _track(board: Board, track_id: str) -> Track | None:
    return board.track_by_id.get(track_id.lower())


# --- Tokens --------------------------------------------------------------------------------------


@lru_cache(maxsize=64)
def house_stamp(size: int, fill: RGB, glyph: str) -> Image.Image:
    """A station: a little house in the owner's colour with the seat number."""
    big = (size + 4) * SS
    img = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    s = size * SS
    o = 2 * SS
    pts = [(o, o + s * 0.42), (o + s / 2, o), (o + s, o + s * 0.42), (o + s, o + s), (o, o + s)]
    d.polygon(pts, fill=fill, outline=(20, 20, 20), width=max(1, int(SS * 1.6)))
    d.text((o + s / 2, o + s * 0.68), glyph, font=font(int(s * 0.5), "bold"), fill=ink_for(fill), anchor="mm")
    return img.resize((size + 4, size + 4), Image.Resampling.LANCZOS)


@lru_cache(maxsize=64)
def pawn_stamp(size: int, fill: RGB, glyph: str) -> Image.Image:
    """A Märklin passenger: a pawn in the owner's colour with the seat number on its body."""
    big = (size + 4) * SS
    img = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    s = size * SS
    o = 2 * SS
    edge = (20, 20, 20)
    lw = max(1, int(SS * 1.5))
    d.rounded_rectangle((o + s * 0.12, o + s * 0.36, o + s * 0.88, o + s), radius=s * 0.22, fill=fill, outline=edge, width=lw)
    r = s * 0.2
    d.ellipse((o + s / 2 - r, o + s * 0.02, o + s / 2 + r, o + s * 0.02 + 2 * r), fill=fill, outline=edge, width=lw)
    d.text((o + s / 2, o + s * 0.7), glyph, font=font(int(s * 0.42), "bold"), fill=ink_for(fill), anchor="mm")
    return img.resize((size + 4, size + 4), Image.Resampling.LANCZOS)


@lru_cache(maxsize=256)
def card_tile(name: str, w: int, h: int) -> Image.Image:
    """A train card face: its colour (rainbow stripes for locomotives) and its letter."""
    big_w, big_h = w * SS, h * SS
    face = Image.new("RGBA", (big_w, big_h), (0, 0, 0, 0))
    d = ImageDraw.Draw(face)
    fill = CARD_COLOURS.get(name, (200, 200, 200))
    rad = min(big_w, big_h) * 0.14
    if name in ("locomotive", "plus4"):
        stripes = Image.new("RGBA", (big_w, big_h), (0, 0, 0, 0))
        sd = ImageDraw.Draw(stripes)
        n = len(RAINBOW)
        for i, c in enumerate(RAINBOW):
            sd.rectangle((0, big_h * i / n, big_w, big_h * (i + 1) / n + 1), fill=c)
        mask = Image.new("L", (big_w, big_h), 0)
        ImageDraw.Draw(mask).rounded_rectangle((0, 0, big_w - 1, big_h - 1), radius=rad, fill=255)
        face.paste(stripes, (0, 0), mask)
        d.rounded_rectangle((0, 0, big_w - 1, big_h - 1), radius=rad, outline=(30, 30, 30), width=2 * SS)
        ink: RGB = (255, 255, 255)
    else:
        d.rounded_rectangle((0, 0, big_w - 1, big_h - 1), radius=rad, fill=fill, outline=(30, 30, 30), width=2 * SS)
        ink = ink_for(fill)
    glyph = CARD_GLYPHS.get(name, "?")
    fsize = min(big_w, big_h) * {1: 0.5, 2: 0.36}.get(len(glyph), 0.27)
    fnt = font(int(fsize), "bold")
    if name in ("locomotive", "plus4"):
        # A dark plate behind the letters so they read on the stripes.
        box = fnt.getbbox(glyph, anchor="mm")
        m = fsize * 0.28
        plate = (big_w / 2 + box[0] - m, big_h / 2 + box[1] - m, big_w / 2 + box[2] + m, big_h / 2 + box[3] + m)
        d.rounded_rectangle(plate, radius=(plate[3] - plate[1]) / 2, fill=(30, 30, 30))
    d.text((big_w / 2, big_h / 2), glyph, font=fnt, fill=ink, anchor="mm")
    return face.resize((w, h), Image.Resampling.LANCZOS)


# --- Dynamic board layer -------------------------------------------------------------------------


def _paste_track(
    img: Image.Image, lay: Layout, track: Track, fill: RGB, glyph: str, halo: RGB | None, scale: float = 1.0
) -> None:
    """Cars over every space of ``track`` in a player's colour, with an optional halo beneath."""
    length = int(round(lay.car_len * 1.02 * scale))
    width = int(round(lay.car_w * 1.32 * scale))
    edge = mix(fill, (0, 0, 0), 0.6)
    for x, y, ang in lay.space_xy(track):
        a = int(round(ang)) % 180
        if halo is not None:
            pad = max(3, int(lay.car_w * 0.42))
            paste_tile(img, car_tile(length + 2 * pad, width + 2 * pad, a, halo, (20, 20, 20), 1.2), x, y)
        paste_tile(
            img,
            car_tile(length, width, a, fill, edge, max(1.0, lay.car_w * 0.1), glyph, (20, 20, 20), (255, 255, 255)),
            x,
            y,
        )


def draw_dynamic(
    img: Image.Image,
    lay: Layout,
    view: View,
    overlay: Image.Image | None = None,
    *,
    highlight_last: bool = True,
    trail_tracks: Sequence[str] = (),
    overlay_parts: Sequence[tuple[Image.Image, Image.Image, tuple[int, int]]] = (),
) -> None:
    """Claims, stations, passengers, merchandise and highlights on a copy of the static layer.

    The city overlay (``overlay``, or the same cut into ``overlay_parts``) goes above the cars."""
    board = lay.board
    last = view.get("last_action") or {}
    last_tracks = {t.lower() for t in last.get("tracks") or []} if highlight_last else set()
    trail = {t.lower() for t in trail_tracks}
    claims: dict[str, int] = view.get("claims") or {}
    # Draw haloed tracks last so their glow is not covered by neighbouring claims.
    ordered = sorted(claims.items(), key=lambda kv: (kv[0].lower() in last_tracks or kv[0].lower() in trail))
    for tid, seat in ordered:
        track = _track(board, tid)
        if track is None:
            continue
        halo: RGB | None = None
        if tid.lower() in trail:
            halo = TRAIL
        if tid.lower() in last_tracks:
            halo = HIGHLIGHT
        _paste_track(img, lay, track, player_colour(int(seat)), player_glyph(int(seat)), halo)
    # A last-action track that is not claimed (a withdrawn tunnel) still gets an outline of halo.
    for tid in last_tracks - {t.lower() for t in claims}:
        track = _track(board, tid)
        if track is not None:
            for x, y, _ in lay.space_xy(track):
                paste_centred(img, ring_stamp(lay.car_len * 0.45, HIGHLIGHT, max(2.0, lay.car_w * 0.25)), x, y)

    if overlay is not None:  # cities and names above the cars, tokens above the names
        img.paste(overlay, (0, 0), overlay)
    for part, coverage, corner in overlay_parts:
        img.paste(part, corner, coverage)

    size = int(lay.city_r * 3.0)
    for city, seat in (view.get("stations") or {}).items():
        if city in board.cities:
            x, y = lay.city_xy(city)
            paste_centred(img, house_stamp(size, player_colour(int(seat)), player_glyph(int(seat))), x, y - size * 0.15)
    for city, seat in (view.get("passengers") or {}).items():
        if city in board.cities:
            x, y = lay.city_xy(city)
            paste_centred(img, pawn_stamp(int(size * 1.2), player_colour(int(seat)), player_glyph(int(seat))), x, y - size * 0.25)

    tr = lay.city_r * 1.25
    tfont = font(int(tr * 1.25), "bold")
    for city, values in (view.get("merchandise") or {}).items():
        if not values or city not in board.cities:
            continue
        x, y = lay.city_xy(city)
        lab = lay.labels.get(city)
        dx, dy = (-lab.dx, -lab.dy) if lab else (0.0, -1.0)
        dist = lay.city_r + tr + 2
        mx, my = x + dx * dist, y + dy * dist
        colour_name = board.merchandise.get(city, ((), "white", ""))[1]
        fill = MERCH_COLOURS.get(colour_name, (250, 250, 245))
        for i in range(min(len(values), 4) - 1, 0, -1):  # the stack below, offset downwards
            paste_centred(img, disc_stamp(tr, fill, (30, 30, 30), 1.2), mx, my + i * 2.5)
        paste_centred(img, disc_stamp(tr, fill, (30, 30, 30), 1.4), mx, my)
        draw_text(img, (mx, my), str(values[0]), font=tfont, fill=ink_for(fill), anchor="mm")

    for city in (last.get("cities") or []) if highlight_last else []:
        if city in board.cities:
            x, y = lay.city_xy(city)
            paste_centred(img, ring_stamp(lay.city_r * 2.1, HIGHLIGHT, max(2.5, lay.car_w * 0.3)), x, y)


def board_map(
    view: View,
    width: int | None = None,
    *,
    min_height: int = 0,
    trail_tracks: Sequence[str] = (),
    highlight_last: bool = True,
) -> Image.Image:
    """The map alone (no panel) for ``view`` at map ``width``."""
    board = _board(view)
    w = width or default_map_width(board.id)
    base, _ = static_layers(board.id, w, min_height)
    img = base.copy()
    _draw_map_on(img, view, w, min_height, trail_tracks=trail_tracks, highlight_last=highlight_last, with_base=False)
    return img


def _draw_map_on(
    img: Image.Image,
    view: View,
    width: int,
    min_height: int,
    *,
    trail_tracks: Sequence[str] = (),
    highlight_last: bool = True,
    with_base: bool = True,
) -> Layout:
    """Draw the map for ``view`` into the top-left corner of ``img``: the static layer (unless
    ``img`` already is a copy of it), then the position. Cars and tokens on the map's edge may
    spill past it: a caller drawing into a larger canvas paints over the rest. Returns the layout."""
    board = _board(view)
    if with_base:
        base, _ = static_layers(board.id, width, min_height)
        img.paste(base, (0, 0))
    lay = layout(board.id, width, min_height)
    draw_dynamic(
        img,
        lay,
        view,
        highlight_last=highlight_last,
        trail_tracks=trail_tracks,
        overlay_parts=overlay_pieces(board.id, width, min_height),
    )
    return lay


def prewarm(board_ids: Sequence[str] | None = None) -> None:
    """Build the cached static layers and palette a snapshot uses (about 0.6 s per board), e.g. at bot start,
    so the first board posted in a game is as fast as the rest. Default: every available board."""
    for board_id in available_boards() if board_ids is None else board_ids:
        b = load_board(board_id)
        w = default_map_width(b.id)
        static_layers(b.id, w, _snapshot_min_height(b.id, w))
        image_palette("board", b.id, w)


# --- Palettes ------------------------------------------------------------------------------------

#: Colours every image keeps exactly (flat fills and text), whatever the octree makes of the rest.
EXACT_COLOURS: tuple[RGB, ...] = (
    PANEL_BG,
    PANEL_LINE,
    TEXT,
    MUTED,
    LAND,
    LAND_EDGE,
    SEA,
    (255, 255, 255),
    (20, 20, 20),
    HIGHLIGHT,
    TRAIL,
    FINAL_ROUND_RED,
    *PLAYER_COLOURS,
    *(mix(c, (0, 0, 0), 0.6) for c in PLAYER_COLOURS),  # car edges
    *(mix(c, (255, 255, 255), 0.78) for c in PLAYER_COLOURS),  # the acting player's row
    *ROUTE_COLOURS.values(),
    *CARD_COLOURS.values(),
    *MERCH_COLOURS.values(),
)


@lru_cache(maxsize=32)
def image_palette(kind: str, board_id: str, width: int) -> FixedPalette:
    """The fixed palette of one kind of image (``board``, ``hand`` or ``summary``) of one board at
    one map width, chosen from a sample position holding every colour it can show (about 0.1 s,
    once; :func:`prewarm` builds the board's ahead)."""
    if kind == "board":
        samples = [
            snapshot_image(sample_view(board_id), width=width),
            static_layer(board_id, width, _snapshot_min_height(board_id, width)),
        ]
    elif kind == "hand":
        samples = [hand_image(sample_view(board_id, seat=0))]
    elif kind == "summary":
        samples = [summary_image(sample_view(board_id, final=True))]
    else:
        raise ValueError(f"unknown image kind {kind!r}")
    return build_palette(samples, EXACT_COLOURS)


# --- Panel ---------------------------------------------------------------------------------------


def _action_sentence(view: View, names: list[str]) -> str | None:
    """A short human description of the last action."""
    last = view.get("last_action")
    if not last:
        return None
    board = _board(view)
    seat = last.get("seat")
    t = pictures(view.get("language"))
    who = names[seat] if isinstance(seat, int) and 0 <= seat < len(names) else t("Someone")
    kind = str(last.get("kind") or "")
    tracks = [t for t in (_track(board, tid) for tid in last.get("tracks") or []) if t is not None]
    cities = list(last.get("cities") or [])
    # The engine's own text is already a phrase ("claimed A–B", "drew tickets"); a few kinds read
    # better with the route length or a fuller verb.
    if kind == "claim" and tracks:
        return t("{player} claimed {route} ({length})", player=who, route=tracks[0].label, length=tracks[0].length)
    if kind == "tunnel" and tracks:
        return t("{player} is trying the tunnel {route}", player=who, route=tracks[0].label)
    if kind == "station" and cities:
        return t("{player} built a station in {city}", player=who, city=cities[0])
    if kind == "passenger" and cities:
        return t("{player} moved a passenger from {city}", player=who, city=cities[0])
    phrases = {"tickets": t("drew tickets"), "draw": t("drew cards"), "pass": t("passed"),
               "skip_turn": t("turn skipped"), "tunnel_withdraw": t("withdrew from a tunnel")}
    text = phrases.get(kind) or str(last.get("text") or kind)
    return f"{who} {text}"


def _tall(w: int, h: int = 2400) -> tuple[Image.Image, ImageDraw.ImageDraw]:
    img = Image.new("RGB", (w, h), PANEL_BG)
    return img, ImageDraw.Draw(img)


def _stats_line(s: dict[str, Any], has_stations: bool, has_passengers: bool, t: Any = None,
                compact: bool = False) -> str:
    """A seat's counts in the view's language; ``compact``: the short words (a narrow panel)."""
    t = t or pictures(None)
    tickets = t("{n} tix", n=s.get("tickets", 0)) if compact else t("{n} tickets", n=s.get("tickets", 0))
    if s.get("tickets_completed") is not None:  # revealed at the end
        tickets = (t("{done}/{n} tix done", done=s["tickets_completed"], n=s.get("tickets", 0)) if compact else
                   t("{done}/{n} tickets done", done=s["tickets_completed"], n=s.get("tickets", 0)))
    stats = [t("{n} trains", n=s.get("trains", 0)), t("{n} cards", n=s.get("cards", 0)), tickets]
    if has_stations:
        stats.append(t("{n} stn", n=s.get("stations", 0)) if compact else t("{n} stations", n=s.get("stations", 0)))
    if has_passengers:
        stats.append(t("{n} pax", n=s.get("passengers", 0)) if compact else t("{n} passengers", n=s.get("passengers", 0)))
    return " · ".join(stats)


def _players_block(view: View, names: list[str], w: int, k: float) -> Image.Image:
    img, d = _tall(w)
    board = _board(view)
    pad = int(14 * k)
    y = int(8 * k)
    current = view.get("current")
    to_act = set(view.get("to_act") or [])
    setup = view.get("phase") == "setup"
    has_stations = int(board.rules.get("stations", 0) or 0) > 0
    has_passengers = int(board.rules.get("passengers", 0) or 0) > 0
    row_h = int(68 * k)
    name_f = font(int(22 * k), "bold")
    score_f = font(int(30 * k), "bold")
    stat_f = font(int(15 * k))
    t = pictures(view.get("language"))
    # One wording for every row: abbreviate all rows if the longest would not fit.
    stat_room = w - (pad + int(38 * k) + int(14 * k) + pad)
    compact = any(text_length(_stats_line(s, has_stations, has_passengers, t), stat_f) > stat_room
                  for s in view.get("seats") or [])
    for s in view.get("seats") or []:
        seat = int(s["seat"])
        col = player_colour(seat)
        acting = seat == current or (setup and seat in to_act)
        if acting:
            d.rounded_rectangle((pad // 2, y, w - pad // 2, y + row_h - int(4 * k)), radius=int(10 * k), fill=mix(col, (255, 255, 255), 0.78))
            d.rectangle((pad // 2, y, pad // 2 + int(6 * k), y + row_h - int(4 * k)), fill=col)
        r = int(17 * k)
        cx, cy = pad + r + int(4 * k), y + int(24 * k)
        paste_centred(img, disc_stamp(r, col, (20, 20, 20), max(1.0, 1.5 * k)), cx, cy)
        draw_text(img, (cx, cy), player_glyph(seat), font=font(int(20 * k), "bold"), fill=ink_for(col), anchor="mm")
        score = str(s.get("score", 0))
        sw = text_length(score, score_f)
        nx = cx + r + int(10 * k)
        name = names[seat] if seat < len(names) else t("Player {n}", n=seat + 1)
        if acting:
            name = ("▶ " if not setup else "") + name
        draw_text(img, (nx, cy), fit_text(name, name_f, w - nx - sw - 2 * pad), font=name_f, fill=TEXT, anchor="lm")
        draw_text(img, (w - pad, cy), score, font=score_f, fill=TEXT, anchor="rm")
        line = _stats_line(s, has_stations, has_passengers, t, compact)
        draw_text(img, (nx, y + int(49 * k)), fit_text(line, stat_f, w - nx - pad), font=stat_f, fill=MUTED, anchor="lm")
        y += row_h
    return img.crop((0, 0, w, y + int(4 * k)))


def _card_row(img: Image.Image, names: Sequence[str | None], x: int, y: int, cw: int, ch: int, gap: int) -> None:
    d = ImageDraw.Draw(img)
    for i, name in enumerate(names):
        cx = x + i * (cw + gap)
        if name is None:
            d.rounded_rectangle((cx, y, cx + cw, y + ch), radius=int(cw * 0.14), outline=PANEL_LINE, width=2)
            continue
        tile = card_tile(name, cw, ch)
        img.paste(tile, (cx, y), tile)


def _market_block(view: View, names: list[str], w: int, k: float) -> Image.Image:
    img, d = _tall(w)
    board = _board(view)
    pad = int(14 * k)
    y = int(6 * k)
    head_f = font(int(16 * k), "bold")
    body_f = font(int(16 * k))
    t = pictures(view.get("language"))
    draw_text(img, (pad, y), t("FACE-UP CARDS"), font=head_f, fill=MUTED)
    y += int(24 * k)
    gap = int(8 * k)
    cw = int((w - 2 * pad - 4 * gap) / 5)
    ch = int(cw * 1.25)
    _card_row(img, list(view.get("face_up") or [None] * 5), pad, y, cw, ch, gap)
    y += ch + int(10 * k)
    sizes = view.get("ticket_deck_sizes") or {}
    kinds = {"short": t("short"), "long": t("long")}
    tickets = " + ".join(f"{v} {kinds.get(key, key)}" for key, v in sizes.items() if v or key == "short") if len(sizes) > 1 else str(sum(sizes.values()))
    draw_text(img, (pad, y), t("Deck {deck} · Discard {discard} · Tickets {tickets}", deck=view.get("deck_size", 0),
                               discard=view.get("discard_size", 0), tickets=tickets), font=body_f, fill=TEXT)
    y += int(28 * k)

    if view.get("final_round") and view.get("phase") != "over":
        left = view.get("final_turns_left")
        msg = t("FINAL ROUND") + (" · " + (t("1 turn left") if left == 1 else t("{n} turns left", n=left))
                                  if left is not None else "")
        d.rounded_rectangle((pad, y, w - pad, y + int(34 * k)), radius=int(8 * k), fill=FINAL_ROUND_RED)
        draw_text(img, (w / 2, y + int(17 * k)), msg, font=font(int(18 * k), "bold"), fill=(255, 255, 255), anchor="mm")
        y += int(44 * k)

    tunnel = view.get("tunnel")
    if tunnel:
        track = _track(board, str(tunnel.get("track", "")))
        label = track.label if track else str(tunnel.get("track"))
        draw_text(img, (pad, y), fit_text(t("TUNNEL {route}", route=label), head_f, w - 2 * pad), font=head_f, fill=TEXT)
        y += int(24 * k)
        revealed = list(tunnel.get("revealed") or [])
        tw, th = int(cw * 0.7), int(cw * 0.7 * 1.35)
        _card_row(img, revealed, pad, y, tw, th, gap)
        sur = int(tunnel.get("surcharge") or 0)
        tx = pad + len(revealed) * (tw + gap) + gap
        owed = (t("+1 card to pay") if sur == 1 else t("+{n} cards to pay", n=sur)) if sur else t("no extra cost")
        draw_text(img, (tx, y + th / 2), owed, font=font(int(18 * k), "bold"), fill=HIGHLIGHT if sur else TEXT, anchor="lm")
        y += th + int(12 * k)

    sentence = _action_sentence(view, names)
    if sentence:
        draw_text(img, (pad, y), t("LAST MOVE"), font=head_f, fill=HIGHLIGHT)
        y += int(22 * k)
        for line in _wrap(sentence, body_f, w - 2 * pad):
            draw_text(img, (pad, y), line, font=body_f, fill=TEXT)
            y += int(21 * k)
        y += int(5 * k)
    return img.crop((0, 0, w, y))


def _header_block(view: View, names: list[str], w: int, k: float) -> Image.Image:
    img, d = _tall(w, int(70 * k))
    pad = int(14 * k)
    phase = view.get("phase")
    title = pictures(view.get("language"))(str(view.get("board_name") or view.get("board")))
    if view.get("variant"):
        title += f" ({view['variant']})"
    draw_text(img, (pad, int(10 * k)), title, font=font(int(26 * k), "bold"), fill=TEXT)
    cur = view.get("current")
    t = pictures(view.get("language"))
    if phase == "over":
        status = t("Game over")
        try:
            winners = [int(r["seat"]) for r in final_rows(view) if int(r.get("rank", 0) or 0) == 1]
        except (ValueError, KeyError, TypeError):
            winners = []
        if winners:
            joiner = " " + t("and") + " "
            who = joiner.join(names[w] if w < len(names) else t("Player {n}", n=w + 1) for w in winners)
            status += " · " + (t("{players} wins", players=who) if len(winners) == 1 else t("{players} win", players=who))
    elif phase == "setup":
        status = t("Choosing first tickets")
    elif isinstance(cur, int):
        pend = {"draw_second": " " + t("(second card)"), "tickets": " " + t("(choosing tickets)"),
                "tunnel": " " + t("(tunnel)")}.get(str(view.get("pending")), "")
        status = t("Turn {turn} · {player} to play", turn=int(view.get("turn", 0)) + 1,
                   player=names[cur] if cur < len(names) else cur) + pend
    else:
        status = t("Turn {turn}", turn=view.get("turn", 0))
    draw_text(img, (pad, int(44 * k)), fit_text(status, font(int(17 * k)), w - 2 * pad), font=font(int(17 * k)), fill=MUTED)
    return img


def _legend_block(view: View, w: int, k: float) -> Image.Image:
    pad = int(14 * k)
    f = font(int(13 * k))
    t = pictures(view.get("language"))
    lines = [
        t("R O Y G B P(urple) K(black) W · = gray"),
        t("Dashed = tunnel · L = ferry loco · 1-5 = player"),
    ]
    # Data caveats from the engine (stand-in ticket deck, provisional merchandise): one line each.
    lines += [t("Note: {note}", note=note) for note in view.get("notes") or []]
    step = int(20 * k)
    img, d = _tall(w, int(8 * k) + step * len(lines) + int(12 * k))
    for i, line in enumerate(lines):
        draw_text(img, (pad, int(8 * k) + i * step), fit_text(line, f, w - 2 * pad), font=f, fill=MUTED)
    return img


def _stack(blocks: Sequence[Image.Image], w: int, line: bool = True) -> Image.Image:
    h = sum(b.height for b in blocks) + 2 * len(blocks)
    img = Image.new("RGB", (w, h), PANEL_BG)
    d = ImageDraw.Draw(img)
    y = 0
    for i, b in enumerate(blocks):
        img.paste(b, (0, y))
        y += b.height
        if line and i < len(blocks) - 1:
            d.line((10, y, w - 10, y), fill=PANEL_LINE, width=1)
        y += 2
    return img


def _snapshot_min_height(board_id: str, map_width: int) -> int:
    # Landscape maps get a fixed minimum height that the tallest panel (5 players, a tunnel and
    # the final round) fits beside, so the canvas never shows a bare strip under the map.
    return 0 if is_portrait(board_id) else int(map_width * LANDSCAPE_MIN_RATIO)


def snapshot_layout(board_id: str, width: int | None = None) -> Layout:
    """The map layout a snapshot of ``board_id`` uses (pixel positions of cities and spaces)."""
    w = width or default_map_width(board_id)
    return layout(board_id, w, _snapshot_min_height(board_id, w))


def snapshot_image(view: View, names: list[str] | None = None, width: int | None = None) -> Image.Image:
    """The full snapshot (map plus panel) as a Pillow image."""
    board = _board(view)
    portrait = is_portrait(board.id)
    mw = width or default_map_width(board.id)
    k = mw / (PORTRAIT_MAP_WIDTH if portrait else LANDSCAPE_MAP_WIDTH)
    all_names = default_names(int(view.get("players") or len(view.get("seats") or [])), names)
    min_height = _snapshot_min_height(board.id, mw)
    # The map is drawn straight into the final canvas (no copy of a map-sized image); whatever the
    # map's edge cars spill beyond it is painted over with the panel's background below.
    map_h = layout(board.id, mw, min_height).height
    if portrait:
        half = mw // 2
        players = _players_block(view, all_names, half, k)
        market = _market_block(view, all_names, half, k)
        cols_h = max(players.height, market.height)
        head = _header_block(view, all_names, mw, k)
        legend = _legend_block(view, mw, k)
        ph = head.height + cols_h + legend.height + 4
        out = Image.new("RGB", (mw, map_h + ph), PANEL_BG)
        _draw_map_on(out, view, mw, min_height)
        out.paste(PANEL_BG, (0, map_h, mw, out.height))
        y = map_h
        ImageDraw.Draw(out).line((0, y, mw, y), fill=PANEL_LINE, width=2)
        out.paste(head, (0, y + 2))
        y += head.height + 2
        out.paste(players, (0, y))
        out.paste(market, (half, y))
        ImageDraw.Draw(out).line((half, y + 6, half, y + cols_h - 6), fill=PANEL_LINE, width=1)
        out.paste(legend, (0, y + cols_h + 2))
        return out
    pw = int(PANEL_WIDTH * k)
    panel = _stack(
        [
            _header_block(view, all_names, pw, k),
            _players_block(view, all_names, pw, k),
            _market_block(view, all_names, pw, k),
        ],
        pw,
    )
    legend = _legend_block(view, pw, k)
    h = max(map_h, panel.height + legend.height)
    out = Image.new("RGB", (mw + pw, h), PANEL_BG)
    _draw_map_on(out, view, mw, min_height)
    out.paste(PANEL_BG, (mw, 0, mw + pw, h))
    if h > map_h:
        out.paste(PANEL_BG, (0, map_h, mw, h))
    out.paste(panel, (mw, 0))
    out.paste(legend, (mw, h - legend.height))
    ImageDraw.Draw(out).line((mw, 0, mw, h), fill=PANEL_LINE, width=2)
    return out


def render_board(view: View, names: list[str] | None = None, width: int | None = None) -> bytes:
    """PNG of the public board for ``view`` (any seat's view or a spectator's; no hands are drawn)."""
    board = _board(view)
    mw = width or default_map_width(board.id)
    return encode_png(snapshot_image(view, names, mw), image_palette("board", board.id, mw))


# --- Private hand --------------------------------------------------------------------------------


def _ticket_text(t: dict[str, Any]) -> str:
    dests = t.get("destinations") or []
    if len(dests) == 1:
        return f"{t['origin']} – {dests[0][0]}"
    return f"{t['origin']} → " + ", ".join(f"{d} {p}" for d, p in dests)


def _wrap(text: str, fnt: Any, max_w: float) -> list[str]:
    """Greedy word wrap to ``max_w`` pixels (a single over-long word is shortened)."""
    lines: list[str] = []
    line = ""
    for word in text.split():
        trial = f"{line} {word}".strip()
        if line and text_length(trial, fnt) > max_w:
            lines.append(line)
            line = word
        else:
            line = trial
    if line:
        lines.append(line)
    return [fit_text(x, fnt, max_w) for x in lines] or [""]


def hand_image(view: View, names: list[str] | None = None) -> Image.Image:
    """The private image for the view's own seat: cards by colour, tickets, and a small map."""
    you = view.get("you")
    seat = view.get("seat")
    if you is None or not isinstance(seat, int):
        raise ValueError("render_hand needs a seated player's view (view['you'] is None: spectator view)")
    board = _board(view)
    all_names = default_names(int(view.get("players") or 0), names)
    col = player_colour(seat)
    W = HAND_WIDTH
    left_w = 600
    pad = 20
    mini_w = W - left_w - pad
    # Mini map with this player's tickets drawn as lines between their cities.
    mini = board_map(view, mini_w, highlight_last=False)
    lay = layout(board.id, mini_w)
    md = ImageDraw.Draw(mini)
    tickets = list(you.get("tickets") or [])
    offer = list(you.get("offer") or [])
    for t, offered in [(t, False) for t in tickets] + [(t, True) for t in offer]:
        done = bool(t.get("completed"))
        line_col: RGB = (30, 150, 60) if done else ((120, 120, 120) if offered else HIGHLIGHT)
        if t.get("origin") not in board.cities:
            continue
        ox, oy = lay.city_xy(t["origin"])
        dests = t.get("destinations") or []
        # Several destinations (Swiss country tickets): thinner lines, as any one of them counts.
        line_w = 2 if offered or len(dests) > 1 else 4
        for dest, _ in dests:
            if dest not in board.cities:
                continue
            dx, dy = lay.city_xy(dest)
            md.line((ox, oy, dx, dy), fill=line_col, width=line_w)
            for cx, cy in ((ox, oy), (dx, dy)):
                paste_centred(mini, ring_stamp(lay.city_r * 1.8, line_col, 3.0), cx, cy)

    img = Image.new("RGB", (W, max(mini.height + 70, 900)), PANEL_BG)
    tr = pictures(view.get("language"))
    name = all_names[seat] if seat < len(all_names) else tr("Player {n}", n=seat + 1)
    paste_centred(img, disc_stamp(18, col, (20, 20, 20), 1.5), pad + 18, 34)
    draw_text(img, (pad + 18, 34), player_glyph(seat), font=font(20, "bold"), fill=ink_for(col), anchor="mm")
    draw_text(img, (pad + 46, 34), fit_text(tr("{player} — your hand", player=name), font(28, "bold"), left_w - 60), font=font(28, "bold"), fill=TEXT, anchor="lm")
    img.paste(mini, (left_w + pad, 60))
    draw_text(img, (left_w + pad, 34), tr("Your tickets on the map (green = done, magenta = open)"), font=font(16), fill=MUTED, anchor="lm")

    y = 72
    hand: dict[str, int] = {k_: int(v) for k_, v in (you.get("hand") or {}).items() if int(v) > 0}
    draw_text(img, (pad, y), tr("TRAIN CARDS ({n})", n=sum(hand.values())), font=font(17, "bold"), fill=MUTED)
    y += 28
    cw, ch, gap = 62, 86, 10
    per_row = (left_w - pad) // (cw + gap)
    order = [c for c in CARD_NAMES if c in hand] + [c for c in hand if c not in CARD_NAMES]
    if not order:
        draw_text(img, (pad, y), tr("No cards"), font=font(18), fill=MUTED)
        y += 30
    for i, cname in enumerate(order):
        r_, c_ = divmod(i, per_row)
        x = pad + c_ * (cw + gap)
        yy = y + r_ * (ch + 34)
        tile = card_tile(cname, cw, ch)
        img.paste(tile, (x, yy), tile)
        draw_text(img, (x + cw / 2, yy + ch + 4), f"×{hand[cname]}", font=font(22, "bold"), fill=TEXT, anchor="ma")
    if order:
        y += ((len(order) - 1) // per_row + 1) * (ch + 34) + 10

    done_n = sum(1 for t in tickets if t.get("completed"))
    heading = (tr("TICKETS ({done}/{n} completed)", done=done_n, n=len(tickets)) if tickets
               else tr("TICKETS (none kept yet)"))
    draw_text(img, (pad, y), heading, font=font(17, "bold"), fill=MUTED)
    y += 30
    tf = font(19)
    for t in tickets:
        done = bool(t.get("completed"))
        mark = "✓" if done else "○"
        colour: RGB = (30, 130, 55) if done else TEXT
        pts = int(t.get("value", t.get("points", 0)) or 0)
        draw_text(img, (pad, y), mark, font=font(22, "bold"), fill=colour)
        draw_text(img, (left_w - 10, y + 2), f"{pts:+d}", font=font(19, "bold"), fill=colour if done else (170, 40, 40), anchor="ra")
        for line in _wrap(_ticket_text(t), tf, left_w - pad - 100):
            draw_text(img, (pad + 30, y + 2), line, font=tf, fill=colour)
            y += 26
        y += 4
    if offer:
        y += 8
        lo, hi = you.get("keep_min"), you.get("keep_max")
        if lo is not None and hi is not None and lo == hi:
            rule = tr("keep exactly {n}", n=lo)
        elif lo is not None:
            rule = (tr("keep at least {low}, at most {high}", low=lo, high=hi) if hi is not None
                    else tr("keep at least {n}", n=lo))
        else:
            rule = tr("choose which to keep")
        draw_text(img, (pad, y), tr("OFFERED ({rule})", rule=rule), font=font(17, "bold"), fill=MUTED)
        y += 28
        for t in offer:
            draw_text(img, (pad + 30, y), fit_text(f"{_ticket_text(t)} ({t.get('points', '')})", tf, left_w - pad - 40), font=tf, fill=TEXT)
            y += 28
    open_pts = sum(-min(0, int(t.get("value", -int(t.get("points", 0) or 0)) or 0)) for t in tickets if not t.get("completed"))
    if tickets:
        y += 8
        msg = (tr("Open tickets would cost {n} if the game ended now.", n=open_pts) if open_pts
               else tr("Every ticket is complete."))
        draw_text(img, (pad, y), msg, font=font(16), fill=MUTED)
        y += 30
    h = max(y + pad, mini.height + 60 + pad)
    return img.crop((0, 0, W, h))


def render_hand(view: View, names: list[str] | None = None) -> bytes:
    """PNG of the viewing seat's hand and tickets. Raises ValueError for a spectator view."""
    board = _board(view)
    return encode_png(hand_image(view, names), image_palette("hand", board.id, HAND_WIDTH))


# --- End-of-game summary -------------------------------------------------------------------------

#: Breakdown keys in stacking order, with a label and a colour (unknown keys are appended).
BREAKDOWN_STYLE: dict[str, tuple[str, RGB]] = {
    "routes": (N_("Routes"), (70, 110, 170)),
    "tickets": (N_("Tickets"), (60, 160, 90)),
    "tickets_won": (N_("Tickets won"), (60, 160, 90)),
    "tickets_completed": (N_("Tickets won"), (60, 160, 90)),
    "tickets_lost": (N_("Tickets lost"), (200, 60, 60)),
    "tickets_failed": (N_("Tickets lost"), (200, 60, 60)),
    "longest": (N_("Longest path"), (235, 180, 30)),
    "longest_path": (N_("Longest path"), (235, 180, 30)),
    "longest_trail": (N_("Longest path"), (235, 180, 30)),
    "european_express": (N_("European Express"), (235, 180, 30)),
    "stations": (N_("Stations"), (150, 100, 60)),
    "merchandise": (N_("Merchandise"), (120, 80, 160)),
    "passengers": (N_("Merchandise"), (120, 80, 160)),
    "most_tickets": (N_("Most tickets"), (40, 160, 170)),
    "globetrotter": (N_("Most tickets"), (40, 160, 170)),
}
_EXTRA_COLOURS: tuple[RGB, ...] = ((150, 150, 150), (110, 70, 50), (90, 140, 40), (170, 90, 130))


def final_rows(view: View) -> list[dict[str, Any]]:
    """The per-seat final scores, whether ``final`` is a list or a dict holding one."""
    final = view.get("final")
    if final is None:
        raise ValueError("render_summary needs a finished game's view (view['final'] is None)")
    if isinstance(final, dict):
        for key in ("seats", "players", "scores"):
            if isinstance(final.get(key), list):
                return list(final[key])
        return [v for v in final.values() if isinstance(v, dict)]
    return list(final)


# The boards' names of the longest-path bonus (``longest_path_name``), translated where drawn.
BONUS_NAMES = (N_("Longest continuous path"), N_("Longest path"), N_("European Express"))
# The boards' names (``board.toml`` ``name``), translated where drawn; a new board keeps its own.
BOARD_NAMES = (N_("USA"), N_("Europe"), N_("Switzerland"), N_("Märklin"))


def _style(key: str, extra: dict[str, RGB]) -> tuple[str, RGB]:
    if key in BREAKDOWN_STYLE:
        return BREAKDOWN_STYLE[key]
    if key not in extra:
        extra[key] = _EXTRA_COLOURS[len(extra) % len(_EXTRA_COLOURS)]
    return key.replace("_", " ").capitalize(), extra[key]


def _trail_tracks(rows: list[dict[str, Any]]) -> list[str]:
    """The longest trail(s) to highlight: those of the bonus winners, else the longest ones."""

    def length(r: dict[str, Any]) -> int:
        v = r.get("longest_trail")
        if isinstance(v, int | float):
            return int(v)
        return len(r.get("longest_trail_tracks") or [])

    best = max((length(r) for r in rows), default=0)
    out: list[str] = []
    for r in rows:
        if best > 0 and length(r) == best:
            out.extend(str(t) for t in r.get("longest_trail_tracks") or [])
    return out


def summary_image(view: View, names: list[str] | None = None) -> Image.Image:
    """Final board with the longest trail glowing, and a stacked score bar per player below."""
    board = _board(view)
    rows = final_rows(view)
    all_names = default_names(int(view.get("players") or len(rows)), names)
    mw = default_map_width(board.id)
    m = board_map(view, mw, trail_tracks=_trail_tracks(rows), highlight_last=False)
    # Chart geometry.
    pad = 24
    name_w = 300
    bar_h = 34
    row_h = 86
    extra: dict[str, RGB] = {}
    keys: list[str] = []
    for r in rows:
        for key, value in (r.get("breakdown") or {}).items():
            if key not in keys and int(value) != 0:  # no legend entry for a category nobody scored
                keys.append(key)
    order = {k_: i for i, k_ in enumerate(BREAKDOWN_STYLE)}
    keys.sort(key=lambda k_: order.get(k_, len(order)))
    pos_max = max((sum(max(0, int(v)) for v in (r.get("breakdown") or {}).values()) for r in rows), default=1)
    neg_max = max((sum(-min(0, int(v)) for v in (r.get("breakdown") or {}).values()) for r in rows), default=0)
    pos_max = max(pos_max, 1)
    chart_h = 90 + row_h * len(rows) + 70
    out = Image.new("RGB", (mw, m.height + chart_h), PANEL_BG)
    out.paste(m, (0, 0))
    d = ImageDraw.Draw(out)
    y = m.height + 16
    t = pictures(view.get("language"))
    draw_text(out, (pad, y), t("Final scores"), font=font(30, "bold"), fill=TEXT)
    if int(board.rules.get("longest_path_bonus", 0) or 0):
        note = t("Glowing yellow: longest trail ({bonus})", bonus=t(str(board.rules.get("longest_path_name") or "Longest path")))
    else:
        note = t("Glowing yellow: longest trail (no bonus on this board)")
    draw_text(out, (mw - pad, y + 8), note, font=font(16), fill=MUTED, anchor="ra")
    y += 56
    area_x0 = pad + name_w
    area_w = mw - area_x0 - pad - 60
    unit = area_w / (pos_max + neg_max)
    zero_x = area_x0 + neg_max * unit
    ranked = sorted(rows, key=lambda r: (int(r.get("rank", 0) or 0), -int(r.get("total", 0) or 0)))
    for r in ranked:
        seat = int(r.get("seat", 0))
        col = player_colour(seat)
        paste_centred(out, disc_stamp(16, col, (20, 20, 20), 1.5), pad + 16, y + bar_h / 2)
        draw_text(out, (pad + 16, y + bar_h / 2), player_glyph(seat), font=font(18, "bold"), fill=ink_for(col), anchor="mm")
        rank = r.get("rank")
        nm = all_names[seat] if seat < len(all_names) else t("Player {n}", n=seat + 1)
        title = f"{rank}. {nm}" if rank else nm
        draw_text(out, (pad + 42, y + bar_h / 2), fit_text(title, font(22, "bold"), name_w - 120), font=font(22, "bold"), fill=TEXT, anchor="lm")
        draw_text(out, (area_x0 - 14, y + bar_h / 2), str(r.get("total", 0)), font=font(28, "bold"), fill=TEXT, anchor="rm")
        bd: dict[str, int] = {k_: int(v) for k_, v in (r.get("breakdown") or {}).items()}
        px, nx = zero_x, zero_x
        parts: list[str] = []
        for key in keys:
            v = bd.get(key, 0)
            if v == 0:
                continue
            lab, c = _style(key, extra)
            parts.append(f"{t(lab)} {v:+d}")
            seg = abs(v) * unit
            if v > 0:
                box = (px, y, px + seg, y + bar_h)
                px += seg
            else:
                box = (nx - seg, y, nx, y + bar_h)
                nx -= seg
            d.rectangle(box, fill=c, outline=(255, 255, 255), width=1)
            txt = str(v)
            f = font(16, "bold")
            if text_length(txt, f) + 6 < seg:
                draw_text(out, ((box[0] + box[2]) / 2, y + bar_h / 2), txt, font=f, fill=ink_for(c), anchor="mm")
        d.line((zero_x, y - 4, zero_x, y + bar_h + 4), fill=TEXT, width=2)
        draw_text(out, (area_x0, y + bar_h + 8), fit_text(" · ".join(parts), font(15), mw - area_x0 - pad), font=font(15), fill=MUTED)
        y += row_h
    # Legend (order = stacking order left to right).
    x = pad
    lf = font(16)
    for key in keys:
        lab, c = _style(key, extra)
        lab = t(lab)
        d.rectangle((x, y + 4, x + 18, y + 22), fill=c, outline=(40, 40, 40))
        draw_text(out, (x + 24, y + 13), lab, font=lf, fill=TEXT, anchor="lm")
        x += 24 + int(text_length(lab, lf)) + 22
    return out


def render_summary(view: View, names: list[str] | None = None) -> bytes:
    """PNG of the end-of-game summary. Raises ValueError if the view has no final scores."""
    board = _board(view)
    return encode_png(summary_image(view, names), image_palette("summary", board.id, default_map_width(board.id)))


# --- Replay --------------------------------------------------------------------------------------


def _board_key(view: View) -> tuple[Any, ...]:
    return (
        tuple(sorted((view.get("claims") or {}).items())),
        tuple(sorted((view.get("stations") or {}).items())),
        tuple(sorted((view.get("passengers") or {}).items())),
    )


def render_replay(
    views: Sequence[View], names: list[str] | None = None, width: int = 720, frame_ms: int = 500
) -> bytes:
    """Animated GIF: one frame per view that changed the board (each claim), ending on the last view.

    Frames share one palette taken from the final frame (it holds every colour used), so colours
    do not flicker and the GIF encoder can store only the changed rectangle of each frame.
    """
    if not views:
        raise ValueError("render_replay needs at least one view")
    picked: list[View] = []
    prev: tuple[Any, ...] | None = None
    for v in views:
        key = _board_key(v)
        if key != prev:
            picked.append(v)
            prev = key
    if picked[-1] is not views[-1]:
        picked.append(views[-1])
    frames = [snapshot_image(v, names, width) for v in picked]
    size = frames[-1].size
    frames = [f if f.size == size else f.resize(size) for f in frames]
    # One palette for all frames: the final frame's main colours plus, exactly, the colours that
    # may be rare in it (last-move highlight, trail, players, routes). 255 entries in all, so
    # index 255 is free to mean "unchanged since the previous frame".
    exact: list[RGB] = [HIGHLIGHT, TRAIL, *PLAYER_COLOURS, *ROUTE_COLOURS.values()]
    base_q = frames[-1].quantize(colors=255 - len(exact), method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    entries = list((base_q.getpalette() or [])[: 3 * (255 - len(exact))])
    entries += [0] * (3 * (255 - len(exact)) - len(entries))
    for c in exact:
        entries += list(c)
    entries += [0, 0, 0]  # index 255: transparent
    palette = Image.new("P", (1, 1))
    palette.putpalette(entries)
    pal_frames = [f.quantize(palette=palette, dither=Image.Dither.NONE) for f in frames]
    out = [pal_frames[0]]
    for prev_f, cur in zip(pal_frames, pal_frames[1:], strict=False):
        # Compare palette indices (reinterpreted as L; point() on a P image would map the palette).
        a = Image.frombytes("L", prev_f.size, prev_f.tobytes())
        b = Image.frombytes("L", cur.size, cur.tobytes())
        same = ImageChops.difference(a, b).point(lambda v: 255 if v == 0 else 0)
        delta = cur.copy()
        delta.paste(255, (0, 0), same)  # long transparent runs compress to almost nothing
        out.append(delta)
    durations = [frame_ms] * len(out)
    durations[-1] = max(frame_ms, 4000)  # linger on the final position
    buf = io.BytesIO()
    out[0].save(
        buf,
        format="GIF",
        save_all=True,
        append_images=out[1:],
        duration=durations,
        loop=0,
        optimize=False,
        transparency=255,
        disposal=1,  # keep the previous frame underneath the transparent pixels
    )
    return buf.getvalue()


def replay_frame_count(data: bytes) -> int:
    """Number of frames in an encoded replay (for tests and the CLI's report)."""
    with Image.open(io.BytesIO(data)) as im:
        return int(getattr(im, "n_frames", 1))


__all__ = [
    "board_map",
    "default_map_width",
    "draw_dynamic",
    "final_rows",
    "hand_image",
    "prewarm",
    "render_board",
    "render_hand",
    "render_replay",
    "render_summary",
    "replay_frame_count",
    "snapshot_image",
    "snapshot_layout",
    "summary_image",
]


# ---- entry points named by the game registry (``GameSpec.renderer``) ---------------------------
def board_png(view: View) -> bytes:
    """The public board for a service view (seat names under ``"names"``)."""
    return render_board(view, view.get("names"))


def hand_png(view: View) -> bytes | None:
    """The viewing seat's private image, or None for a spectator view."""
    return render_hand(view, view.get("names")) if view.get("seat") is not None else None


def summary_png(view: View) -> bytes | None:
    """The end-of-game summary, or None before the end."""
    return render_summary(view, view.get("names")) if view.get("final") else None
