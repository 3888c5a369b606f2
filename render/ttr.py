"""Ticket to Ride images from a game *view* (see docs/ttr-api.md): board snapshots, a player's
private hand, the end-of-game summary and an animated replay.

Every public function takes views, never a game object, so an image can only ever show what the
view's seat (or a spectator) may see. The static board is cached per (board, width) in
:mod:`render.ttr_board`; a position adds placed stamps to it (claims, glows, the city overlay,
tokens) and the score panel (:mod:`render.ttr_panel`) goes under the map. ``render_board`` keeps
recent maps (:mod:`render.compose`) and compressed PNG rows (:mod:`render.png`), so a turn
redraws, maps to the palette and compresses only what changed; its pixels are always those of
``snapshot_image`` on the board's palette.
"""

from __future__ import annotations

import io
import math
import threading
from collections import OrderedDict
from collections.abc import Hashable, Sequence
from functools import lru_cache
from typing import Any

from PIL import Image, ImageChops, ImageDraw

from lang import N_, SOURCE_LANGUAGE, normalise, pictures
from render.common import (
    CARD_COLOURS,
    HIGHLIGHT,
    LAND,
    LAND_EDGE,
    MUTED,
    PANEL_BG,
    PANEL_LINE,
    PLAYER_COLOURS,
    PREVIEW_WIDTH,
    RGB,
    ROUTE_COLOURS,
    SEA,
    SS,
    TEXT,
    TRAIL,
    FixedPalette,
    Tile,
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
    player_colour,
    player_glyph,
    ring_stamp,
    text_length,
    trim,
)
from render.compose import ComposeCache, Placed, draw_all
from render.png import BandEncoder
from render.ttr_board import (
    Layout,
    free_centre,
    is_portrait,
    layout,
    overlay_pieces,
    static_layer,
    static_layers,
)
from render.ttr_panel import (
    FINAL_ROUND_RED,
    Block,
    PanelPlan,
    block_image,
    card_tile,
    draw_panel,
    final_rows,
    panel_blocks,
    plan_panel,
    wrap,
)
from render.ttr_sample import sample_view
from rules.ttr.board import CARD_NAMES, Board, Track, available_boards, load_board

View = dict[str, Any]

#: Map width in pixels at the default size, which is also the snapshot's width (the panel sits
#: under the map).
LANDSCAPE_MAP_WIDTH = 1240
PORTRAIT_MAP_WIDTH = 1100
HAND_WIDTH = 1240

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
    d.rounded_rectangle(
        (o + s * 0.12, o + s * 0.36, o + s * 0.88, o + s), radius=s * 0.22, fill=fill, outline=edge, width=lw
    )
    r = s * 0.2
    d.ellipse(
        (o + s / 2 - r, o + s * 0.02, o + s / 2 + r, o + s * 0.02 + 2 * r), fill=fill, outline=edge, width=lw
    )
    d.text((o + s / 2, o + s * 0.7), glyph, font=font(int(s * 0.42), "bold"), fill=ink_for(fill), anchor="mm")
    return img.resize((size + 4, size + 4), Image.Resampling.LANCZOS)


# --- Dynamic board layer -------------------------------------------------------------------------


#: How wide, in preview pixels, the last move's glow shows on each side of a claimed route (and
#: how thick its rings are): at 3 px the magenta band stays visible in Discord's preview.
HALO_PREVIEW_PX = 3.0
#: Claimed cars are this much wider than a free space, so they cover it whole, outline included.
CLAIM_WIDTH = 1.5
CLAIM_EDGE: RGB = (20, 20, 20)


def halo_pad(lay: Layout) -> float:
    """The last move's glow beyond a claimed car, in map pixels: :data:`HALO_PREVIEW_PX` once the
    map is shown :data:`PREVIEW_WIDTH` wide, never thinner than a fraction of a car."""
    return max(lay.car_w * 0.45, HALO_PREVIEW_PX * lay.width / PREVIEW_WIDTH)


def _claim_car_length(lay: Layout, track: Track) -> int:
    """Claimed cars run into each other: each is as long as the step to the next space plus a
    little, so a claimed route reads as one solid bar (the overlap shows as a dark divider)."""
    pts = lay.space_xy(track)
    steps = [math.hypot(b[0] - a[0], b[1] - a[1]) for a, b in zip(pts, pts[1:], strict=False)]
    step = min(steps) if steps else lay.car_len / 0.86
    return int(round(max(lay.car_len * 1.02, min(step, lay.car_len * 1.3) + lay.car_w * 0.3)))


def _placed(key: Hashable, tile: Tile, x: float, y: float) -> Placed:
    """``tile`` where :func:`paste_tile` (or :func:`paste_centred`, for the whole stamp) would put
    it for a stamp centred on (x, y)."""
    left = int(round(x - tile.half_w)) + tile.dx
    top = int(round(y - tile.half_h)) + tile.dy
    return Placed(key, tile.image, tile.mask, left, top)


@lru_cache(maxsize=512)
def _tile_of(kind: str, *args: Any) -> Tile:
    """A token stamp (``house``, ``pawn``, ``ring``, ``merch``) cut to its visible pixels."""
    makers: dict[str, Any] = {
        "house": house_stamp,
        "pawn": pawn_stamp,
        "ring": ring_stamp,
        "merch": merch_stamp,
    }
    return trim(makers[kind](*args))


#: Claimed cars are drawn at angles rounded to this many degrees: a car then turns its ends by at
#: most a third of a pixel, and half as many car stamps need drawing.
CAR_ANGLE_STEP = 2


def _car_angle(angle: float) -> int:
    return int(round(angle / CAR_ANGLE_STEP)) * CAR_ANGLE_STEP % 180


@lru_cache(maxsize=4096)
def _halo_stamps(
    board_id: str, width: int, min_height: int, track_id: str, colour: RGB
) -> tuple[Placed, ...]:
    """A glow :func:`halo_pad` wide round where ``track``'s claimed cars go."""
    lay = layout(board_id, width, min_height)
    track = lay.board.track_by_id[track_id.lower()]
    length = _claim_car_length(lay, track)
    car_w = int(round(lay.car_w * CLAIM_WIDTH))
    pad = int(round(halo_pad(lay)))
    return tuple(
        _placed(
            ("halo", track.index, i, colour),
            car_tile(length + 2 * pad, car_w + 2 * pad, _car_angle(ang), colour, colour, 0.0),
            x,
            y,
        )
        for i, (x, y, ang) in enumerate(lay.space_xy(track))
    )


@lru_cache(maxsize=4096)
def _claim_stamps(board_id: str, width: int, min_height: int, track_id: str, seat: int) -> tuple[Placed, ...]:
    """A claimed route as one solid bar of cars in the player's colour with a dark outline and
    the seat number on every car."""
    lay = layout(board_id, width, min_height)
    track = lay.board.track_by_id[track_id.lower()]
    length = _claim_car_length(lay, track)
    car_w = int(round(lay.car_w * CLAIM_WIDTH))
    edge_w = max(1.5, lay.car_w * 0.14)
    fill, glyph = player_colour(seat), player_glyph(seat)
    return tuple(
        _placed(
            ("car", track.index, i),
            car_tile(length, car_w, _car_angle(ang), fill, CLAIM_EDGE, edge_w, glyph, ink_for(fill)),
            x,
            y,
        )
        for i, (x, y, ang) in enumerate(lay.space_xy(track))
    )


@lru_cache(maxsize=16)
def _overlay_stamps(board_id: str, width: int, min_height: int) -> tuple[Placed, ...]:
    """The city overlay (dots, names, country banners) as stamps, above the cars."""
    return tuple(
        Placed(("city", i), piece, coverage, left, top)
        for i, (piece, coverage, (left, top)) in enumerate(overlay_pieces(board_id, width, min_height))
    )


#: Routes this short (in spaces) are small in the preview: the last move also rings them.
SHORT_ROUTE = 2


def _short_route_ring(lay: Layout, track: Track) -> Placed:
    """A magenta ring round a short route's middle, at least 9 preview pixels in radius."""
    pts = lay.space_xy(track)
    xs, ys = [p[0] for p in pts], [p[1] for p in pts]
    cx, cy = (min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2
    reach = max(math.hypot(x - cx, y - cy) for x, y in zip(xs, ys, strict=True)) + lay.car_len / 2
    radius = max(reach + halo_pad(lay) * 2, 9 * lay.width / PREVIEW_WIDTH)
    return _placed(
        ("route ring", track.index),
        _tile_of("ring", float(round(radius)), HIGHLIGHT, halo_pad(lay) * 0.8),
        cx,
        cy,
    )


@lru_cache(maxsize=64)
def merch_stamp(radius: float, fill: RGB, stack: int, value: str) -> Image.Image:
    """A Märklin merchandise stack: ``stack`` discs offset downwards, the top one showing its
    value."""
    disc_low = disc_stamp(radius, fill, (30, 30, 30), 1.2)
    disc_top = disc_stamp(radius, fill, (30, 30, 30), 1.4)
    size = max(disc_low.width, disc_top.width)
    img = Image.new("RGBA", (size, size + int(math.ceil(2.5 * (stack - 1))) + 1), (0, 0, 0, 0))
    c = size / 2
    for i in range(stack - 1, 0, -1):  # the stack below, offset downwards
        layer = Image.new("RGBA", img.size, (0, 0, 0, 0))
        paste_centred(layer, disc_low, c, c + i * 2.5)
        img = Image.alpha_composite(img, layer)
    layer = Image.new("RGBA", img.size, (0, 0, 0, 0))
    paste_centred(layer, disc_top, c, c)
    img = Image.alpha_composite(img, layer)
    ImageDraw.Draw(img).text(
        (c, c), value, font=font(int(radius * 1.25), "bold"), fill=ink_for(fill), anchor="mm"
    )
    return img


def map_stamps(
    view: View, lay: Layout, *, highlight_last: bool = True, trail_tracks: Sequence[str] = ()
) -> list[Placed]:
    """Everything a position adds to the static map, in drawing order: glows, claimed cars,
    rings, the city overlay, stations, passengers, merchandise, city rings.

    The last move (``highlight_last``) glows magenta under its cars (glows go under every claim,
    so a glow never hides a double route's twin), and short routes and cities get a magenta ring
    too; ``trail_tracks`` glow yellow. Claims are drawn in board order, so the picture depends only
    on which routes are claimed, never on the order the view lists them in."""
    board = lay.board
    key = (board.id, lay.width, lay.min_height)
    last = view.get("last_action") or {}
    last_tracks = {str(t).lower() for t in last.get("tracks") or []} if highlight_last else set()
    trail = {str(t).lower() for t in trail_tracks}
    claims = sorted(
        (
            (track, int(seat))
            for track, seat in (
                (_track(board, str(tid)), seat) for tid, seat in (view.get("claims") or {}).items()
            )
            if track is not None
        ),
        key=lambda ts: ts[0].index,
    )
    out: list[Placed] = []
    for track, _ in claims:
        tid = track.id.lower()
        if tid in last_tracks:
            out += _halo_stamps(*key, track.id, HIGHLIGHT)
        elif tid in trail:
            out += _halo_stamps(*key, track.id, TRAIL)
    for track, seat in claims:
        out += _claim_stamps(*key, track.id, seat)
    claimed_ids = {track.id.lower() for track, _ in claims}
    ring_w = halo_pad(lay) * 0.8
    for tid in sorted(last_tracks):
        last_track = _track(board, tid)
        if last_track is None:
            continue
        if tid not in claimed_ids:  # a tunnel being tried, or withdrawn: ring each space
            tile = _tile_of("ring", lay.car_len * 0.5, HIGHLIGHT, ring_w)
            out += [
                _placed(("tunnel ring", last_track.index, i), tile, x, y)
                for i, (x, y, _) in enumerate(lay.space_xy(last_track))
            ]
        elif last_track.length <= SHORT_ROUTE:
            out.append(_short_route_ring(lay, last_track))
    out += _overlay_stamps(*key)  # cities and names above the cars, tokens above the names

    size = int(lay.city_r * 3.0)
    for city, seat in sorted((view.get("stations") or {}).items()):
        if city in board.cities:
            x, y = lay.city_xy(city)
            tile = _tile_of("house", size, player_colour(int(seat)), player_glyph(int(seat)))
            out.append(_placed(("station", city), tile, x, y - size * 0.15))
    for city, seat in sorted((view.get("passengers") or {}).items()):
        if city in board.cities:
            x, y = lay.city_xy(city)
            tile = _tile_of("pawn", int(size * 1.2), player_colour(int(seat)), player_glyph(int(seat)))
            out.append(_placed(("passenger", city), tile, x, y - size * 0.25))
    merch_r = lay.city_r * 1.25
    for city, values in sorted((view.get("merchandise") or {}).items()):
        if not values or city not in board.cities:
            continue
        x, y = lay.city_xy(city)
        lab = lay.labels.get(city)
        dx, dy = (-lab.dx, -lab.dy) if lab else (0.0, -1.0)
        dist = lay.city_r + merch_r + 2
        fill = MERCH_COLOURS.get(board.merchandise.get(city, ((), "white", ""))[1], (250, 250, 245))
        stack = min(len(values), 4)
        tile = _tile_of("merch", merch_r, fill, stack, str(values[0]))
        # The stamp's first disc is centred on its top square, as the stack hangs downwards.
        extra = (tile.half_h * 2 - tile.half_w * 2) / 2
        out.append(
            _placed(("merchandise", city, stack, str(values[0])), tile, x + dx * dist, y + dy * dist + extra)
        )
    for city in sorted(set(last.get("cities") or [])) if highlight_last else []:  # a journey may repeat one
        if city in board.cities:
            x, y = lay.city_xy(city)
            radius = max(lay.city_r * 2.4, 9 * lay.width / PREVIEW_WIDTH)  # as short routes' rings
            out.append(
                _placed(("city ring", city), _tile_of("ring", float(round(radius)), HIGHLIGHT, ring_w), x, y)
            )
    return out


def board_map(
    view: View,
    width: int | None = None,
    *,
    min_height: int = 0,
    trail_tracks: Sequence[str] = (),
    highlight_last: bool = True,
) -> Image.Image:
    """The map alone (no panel) for ``view`` at map ``width``, as an RGB image."""
    board = _board(view)
    w = width or default_map_width(board.id)
    base, _ = static_layers(board.id, w, min_height, _language(view))
    img = base.copy()
    draw_all(
        img,
        map_stamps(
            view, layout(board.id, w, min_height), highlight_last=highlight_last, trail_tracks=trail_tracks
        ),
    )
    return img


def _language(view: View) -> str:
    """The language a picture of ``view`` is drawn in (its route letters), as a cache key."""
    return normalise(view.get("language") or SOURCE_LANGUAGE)


def prewarm(board_ids: Sequence[str] | None = None) -> None:
    """Build the cached static layers and palette a snapshot uses (about 1 s per board), e.g. at bot start,
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
    CLAIM_EDGE,
    *(mix(c, (255, 255, 255), 0.75) for c in PLAYER_COLOURS),  # the acting player's row
    mix(HIGHLIGHT, (255, 255, 255), 0.86),  # behind the last move in the panel
    *ROUTE_COLOURS.values(),
    *(free_centre(c) for c in ROUTE_COLOURS.values()),  # free spaces' pale centres
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


def _snapshot_min_height(board_id: str, map_width: int) -> int:
    """The map's minimum height in a snapshot: none, since the panel sits under the map (a phone
    preview is narrow, so the full width goes to the map and then to the panel's large text)."""
    return 0


def snapshot_layout(board_id: str, width: int | None = None) -> Layout:
    """The map layout a snapshot of ``board_id`` uses (pixel positions of cities and spaces)."""
    w = width or default_map_width(board_id)
    return layout(board_id, w, _snapshot_min_height(board_id, w))


def snapshot_panel(view: View, names: list[str] | None = None, width: int | None = None) -> PanelPlan:
    """The measured score panel a snapshot of ``view`` draws under its map (fonts, texts, rows)."""
    board = _board(view)
    mw = width or default_map_width(board.id)
    all_names = default_names(
        int(view.get("players") or len(view.get("seats") or [])), names, view.get("language")
    )
    return plan_panel(view, board, all_names, mw)


#: Recently composed maps, per process: the next position repaints only what changed.
MAP_CACHE = ComposeCache()
#: The board PNG writer, per process: the next position compresses only the rows that changed.
BOARD_ENCODER = BandEncoder()


def clear_board_caches() -> None:
    """Forget recent boards (composed maps and compressed rows), e.g. to measure a cold render."""
    MAP_CACHE.clear()
    BOARD_ENCODER.clear()


def snapshot_image(view: View, names: list[str] | None = None, width: int | None = None) -> Image.Image:
    """The full snapshot as a Pillow RGB image: the map, and under it the score panel, both as
    wide as the map so that Discord's narrow phone preview keeps the panel's text readable."""
    board = _board(view)
    mw = width or default_map_width(board.id)
    lay = layout(board.id, mw, _snapshot_min_height(board.id, mw))
    plan = snapshot_panel(view, names, mw)
    base, _ = static_layers(board.id, mw, lay.min_height, _language(view))
    out = Image.new("RGB", (mw, lay.height + plan.height), PANEL_BG)
    out.paste(base, (0, 0))
    draw_all(out, map_stamps(view, lay))
    # The panel covers whatever the map's edge cars spilled below the map.
    out.paste(_panel_image(plan, view), (0, lay.height))
    return out


def _panel_image(plan: PanelPlan, view: View) -> Image.Image:
    panel = Image.new("RGB", (plan.width, plan.height), PANEL_BG)
    draw_panel(panel, plan, view, 0)
    return panel


def render_board(view: View, names: list[str] | None = None, width: int | None = None) -> bytes:
    """PNG of the public board for ``view`` (any seat's view or a spectator's; no hands are drawn).

    The same pixels as :func:`snapshot_image` on the board's fixed palette, made faster: the map
    comes from :data:`MAP_CACHE` (only what changed since a recent position is redrawn and mapped
    to the palette), and the panel is drawn and mapped on its own."""
    board = _board(view)
    mw = width or default_map_width(board.id)
    lay = layout(board.id, mw, _snapshot_min_height(board.id, mw))
    plan = snapshot_panel(view, names, mw)
    palette = image_palette("board", board.id, mw)
    base, _ = static_layers(board.id, mw, lay.min_height, _language(view))
    map_rows = MAP_CACHE.compose(
        (board.id, mw, lay.min_height, _language(view)), base, map_stamps(view, lay), palette
    )
    # The panel as PNG rows: a column of zeros (the rows' filter bytes), then the blocks.
    panel = Image.new("P", (mw + 1, plan.height), _background_index(palette))
    panel.paste(0, (0, 0, 1, plan.height))
    for block in panel_blocks(plan, view):
        panel.paste(_palette_block(block, (board.id, mw), palette), (1 + block.box[0], block.box[1]))
    return BOARD_ENCODER.encode_rows(
        mw, lay.height + plan.height, map_rows + panel.tobytes(), palette.colours, lay.height
    )


_P_BLOCKS: OrderedDict[tuple[Any, ...], Image.Image] = OrderedDict()
_P_BLOCKS_LOCK = threading.Lock()  # renders may run in threads


def _palette_block(block: Block, palette_key: tuple[Any, ...], palette: FixedPalette) -> Image.Image:
    """A panel block mapped onto the board's palette (kept for the blocks of recent panels)."""
    key = (palette_key, block.key)
    with _P_BLOCKS_LOCK:
        img = _P_BLOCKS.get(key)
        if img is not None:
            _P_BLOCKS.move_to_end(key)
            return img
    img = palette.apply(block_image(block))
    with _P_BLOCKS_LOCK:
        _P_BLOCKS[key] = img
        if len(_P_BLOCKS) > 256:
            _P_BLOCKS.popitem(last=False)
    return img


def _background_index(palette: FixedPalette) -> int:
    """The palette index of the panel background."""
    index = palette.apply(Image.new("RGB", (1, 1), PANEL_BG)).getpixel((0, 0))
    assert isinstance(index, int)
    return index


# --- Private hand --------------------------------------------------------------------------------


def _ticket_text(ticket: dict[str, Any]) -> str:
    dests = ticket.get("destinations") or []
    if len(dests) == 1:
        return f"{ticket['origin']} – {dests[0][0]}"
    return f"{ticket['origin']} → " + ", ".join(f"{d} {p}" for d, p in dests)


def hand_image(view: View, names: list[str] | None = None) -> Image.Image:
    """The private image for the view's own seat: cards by colour, tickets, and a small map."""
    you = view.get("you")
    seat = view.get("seat")
    if you is None or not isinstance(seat, int):
        raise ValueError("render_hand needs a seated player's view (view['you'] is None: spectator view)")
    board = _board(view)
    all_names = default_names(int(view.get("players") or 0), names, view.get("language"))
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
    for ticket, offered in [(ticket, False) for ticket in tickets] + [(ticket, True) for ticket in offer]:
        done = bool(ticket.get("completed"))
        line_col: RGB = (30, 150, 60) if done else ((120, 120, 120) if offered else HIGHLIGHT)
        if ticket.get("origin") not in board.cities:
            continue
        ox, oy = lay.city_xy(ticket["origin"])
        dests = ticket.get("destinations") or []
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
    draw_text(
        img,
        (pad + 46, 34),
        fit_text(tr("{player} — your hand", player=name), font(28, "bold"), left_w - 60),
        font=font(28, "bold"),
        fill=TEXT,
        anchor="lm",
    )
    img.paste(mini, (left_w + pad, 60))
    draw_text(
        img,
        (left_w + pad, 34),
        tr("Your tickets on the map (green = done, magenta = open)"),
        font=font(16),
        fill=MUTED,
        anchor="lm",
    )

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
        tile = card_tile(cname, cw, ch, _language(view))
        img.paste(tile, (x, yy), tile)
        draw_text(
            img, (x + cw / 2, yy + ch + 4), f"×{hand[cname]}", font=font(22, "bold"), fill=TEXT, anchor="ma"
        )
    if order:
        y += ((len(order) - 1) // per_row + 1) * (ch + 34) + 10

    done_n = sum(1 for t in tickets if t.get("completed"))
    heading = (
        tr("TICKETS ({done}/{n} completed)", done=done_n, n=len(tickets))
        if tickets
        else tr("TICKETS (none kept yet)")
    )
    draw_text(img, (pad, y), heading, font=font(17, "bold"), fill=MUTED)
    y += 30
    tf = font(19)
    for t in tickets:
        done = bool(t.get("completed"))
        mark = "✓" if done else "○"
        colour: RGB = (30, 130, 55) if done else TEXT
        pts = int(t.get("value", t.get("points", 0)) or 0)
        draw_text(img, (pad, y), mark, font=font(22, "bold"), fill=colour)
        draw_text(
            img,
            (left_w - 10, y + 2),
            f"{pts:+d}",
            font=font(19, "bold"),
            fill=colour if done else (170, 40, 40),
            anchor="ra",
        )
        for line in wrap(_ticket_text(t), tf, left_w - pad - 100):
            draw_text(img, (pad + 30, y + 2), line, font=tf, fill=colour)
            y += 26
        y += 4
    if offer:
        y += 8
        lo, hi = you.get("keep_min"), you.get("keep_max")
        if lo is not None and hi is not None and lo == hi:
            rule = tr("keep exactly {n}", n=lo)
        elif lo is not None:
            rule = (
                tr("keep at least {low}, at most {high}", low=lo, high=hi)
                if hi is not None
                else tr("keep at least {n}", n=lo)
            )
        else:
            rule = tr("choose which to keep")
        draw_text(img, (pad, y), tr("OFFERED ({rule})", rule=rule), font=font(17, "bold"), fill=MUTED)
        y += 28
        for t in offer:
            draw_text(
                img,
                (pad + 30, y),
                fit_text(f"{_ticket_text(t)} ({t.get('points', '')})", tf, left_w - pad - 40),
                font=tf,
                fill=TEXT,
            )
            y += 28
    open_pts = sum(
        -min(0, int(t.get("value", -int(t.get("points", 0) or 0)) or 0))
        for t in tickets
        if not t.get("completed")
    )
    if tickets:
        y += 8
        msg = (
            tr("Open tickets would cost {n} if the game ended now.", n=open_pts)
            if open_pts
            else tr("Every ticket is complete.")
        )
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
    all_names = default_names(int(view.get("players") or len(rows)), names, view.get("language"))
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
    neg_max = max(
        (sum(-min(0, int(v)) for v in (r.get("breakdown") or {}).values()) for r in rows), default=0
    )
    pos_max = max(pos_max, 1)
    chart_h = 90 + row_h * len(rows) + 70
    out = Image.new("RGB", (mw, m.height + chart_h), PANEL_BG)
    out.paste(m, (0, 0))
    d = ImageDraw.Draw(out)
    y = m.height + 16
    t = pictures(view.get("language"))
    draw_text(out, (pad, y), t("Final scores"), font=font(30, "bold"), fill=TEXT)
    if int(board.rules.get("longest_path_bonus", 0) or 0):
        note = t(
            "Glowing yellow: longest trail ({bonus})",
            bonus=t(str(board.rules.get("longest_path_name") or "Longest path")),
        )
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
        draw_text(
            out,
            (pad + 16, y + bar_h / 2),
            player_glyph(seat),
            font=font(18, "bold"),
            fill=ink_for(col),
            anchor="mm",
        )
        rank = r.get("rank")
        nm = all_names[seat] if seat < len(all_names) else t("Player {n}", n=seat + 1)
        title = f"{rank}. {nm}" if rank else nm
        draw_text(
            out,
            (pad + 42, y + bar_h / 2),
            fit_text(title, font(22, "bold"), name_w - 120),
            font=font(22, "bold"),
            fill=TEXT,
            anchor="lm",
        )
        draw_text(
            out,
            (area_x0 - 14, y + bar_h / 2),
            str(r.get("total", 0)),
            font=font(28, "bold"),
            fill=TEXT,
            anchor="rm",
        )
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
                draw_text(
                    out, ((box[0] + box[2]) / 2, y + bar_h / 2), txt, font=f, fill=ink_for(c), anchor="mm"
                )
        d.line((zero_x, y - 4, zero_x, y + bar_h + 4), fill=TEXT, width=2)
        draw_text(
            out,
            (area_x0, y + bar_h + 8),
            fit_text(" · ".join(parts), font(15), mw - area_x0 - pad),
            font=font(15),
            fill=MUTED,
        )
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
    return encode_png(
        summary_image(view, names), image_palette("summary", board.id, default_map_width(board.id))
    )


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
    base_q = frames[-1].quantize(
        colors=255 - len(exact), method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE
    )
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
    "clear_board_caches",
    "default_map_width",
    "map_stamps",
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
    "snapshot_panel",
    "summary_image",
]


# ---- entry points of the game's drawing (``bot/games/<game>/front.py``) ----------------------------
def board_png(view: View) -> bytes:
    """The public board for a service view (seat names under ``"names"``)."""
    return render_board(view, view.get("names"))


#: What a hand picture reads of a seat's view besides its own routes and stations.
_HAND_KEYS = ("game", "board", "variant", "players", "seat", "names", "language", "you")


def hand_view(view: View) -> View:
    """The part of a seat's view its hand picture shows: its cards, tickets and offer, and on the
    small map its own routes and stations only. Other seats' claims (on the public board) would
    change the picture on every turn; without them the picture changes only when this seat's own
    state does, so it is drawn (and uploaded) once per hand state and reused until then."""
    seat = view.get("seat")
    out = {key: view[key] for key in _HAND_KEYS if key in view}
    for key in ("claims", "stations"):
        out[key] = {str(k): s for k, s in (view.get(key) or {}).items() if s == seat}
    return out


def hand_png(view: View) -> bytes | None:
    """The viewing seat's private image (of its :func:`hand_view`), or None for a spectator view."""
    return render_hand(hand_view(view), view.get("names")) if view.get("seat") is not None else None


def summary_png(view: View) -> bytes | None:
    """The end-of-game summary, or None before the end."""
    return render_summary(view, view.get("names")) if view.get("final") else None
