"""Ticket to Ride board geometry and the cached static layer (land, routes, cities, labels).

The static layer depends only on the board and the output size, so it is drawn once per
(board, width) — supersampled for smooth edges — and cached with :func:`functools.lru_cache`.
Snapshots copy it and paste the dynamic layer on top (see :mod:`render.ttr`).
"""

from __future__ import annotations

import math
import statistics
from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageDraw, ImageFilter

from render.common import (
    LAND,
    LAND_EDGE,
    RGB,
    ROUTE_COLOURS,
    ROUTE_GLYPHS,
    SEA,
    TEXT,
    dashed_outline,
    font,
    mix,
    rounded_rect_points,
    route_glyphs,
)
from rules.ttr.board import Board, Track, load_board

#: Static-layer supersampling (the layer is cached, so the extra cost is paid once).
STATIC_SS = 2


#: Short codes printed where a border route leaves the map.
COUNTRY_CODES = {
    "Deutschland": "DE",
    "France": "FR",
    "Frankreich": "FR",
    "Österreich": "AT",
    "Italia": "IT",
    "Niederlande": "NL",
    "Dänemark": "DK",
    "Schweiz": "CH",
}


@dataclass(frozen=True)
class Label:
    """A placed city label: anchor point, Pillow anchor code and its pixel box."""

    x: float
    y: float
    anchor: str
    box: tuple[float, float, float, float]
    dx: float  # unit direction from the city to the label, so tokens can go the other way
    dy: float


@dataclass(frozen=True)
class Layout:
    """Where everything on one board lands in output pixels for one map width."""

    board: Board
    width: int
    height: int
    scale: float  # output px per board-image px
    ox: float  # board-image px at output x = 0
    oy: float
    aspect: tuple[int, int]
    car_len: float
    car_w: float
    city_r: float
    label_size: int
    labels: dict[str, Label]
    min_height: int = 0  # the minimum height asked for (layouts are cached by it)

    def pt(self, x: float, y: float) -> tuple[float, float]:
        """Normalised board coordinates (0..1) to output pixels."""
        return ((x * self.aspect[0] - self.ox) * self.scale, (y * self.aspect[1] - self.oy) * self.scale)

    def city_xy(self, name: str) -> tuple[float, float]:
        c = self.board.cities[name]
        return self.pt(c.x, c.y)

    def space_xy(self, track: Track) -> list[tuple[float, float, float]]:
        """(x, y, angle) of each space of ``track`` in output pixels."""
        return [(*self.pt(s.x, s.y), s.angle) for s in track.spaces]


def board_aspect(board: Board) -> tuple[int, int]:
    aw, ah = board.rules.get("aspect", (1000, 1000))
    return int(aw), int(ah)


def median_spacing(board: Board) -> float:
    """Median distance between neighbouring space centres, in board-image pixels."""
    aw, ah = board_aspect(board)
    gaps: list[float] = []
    for t in board.tracks:
        for a, b in zip(t.spaces, t.spaces[1:], strict=False):
            gaps.append(math.hypot((a.x - b.x) * aw, (a.y - b.y) * ah))
    return statistics.median(gaps) if gaps else 0.035 * max(aw, ah)


def is_portrait(board_id: str) -> bool:
    aw, ah = board_aspect(load_board(board_id))
    return ah > aw


@lru_cache(maxsize=32)
def layout(board_id: str, width: int, min_height: int = 0) -> Layout:
    """Fit the board's content (cities, spaces, border endpoints) into ``width`` output pixels,
    centred vertically in at least ``min_height`` pixels (so a side panel never overhangs it)."""
    board = load_board(board_id)
    aw, ah = board_aspect(board)
    xs: list[float] = []
    ys: list[float] = []
    for c in board.cities.values():
        xs.append(c.x * aw)
        ys.append(c.y * ah)
    for t in board.tracks:
        for s in t.spaces:
            xs.append(s.x * aw)
            ys.append(s.y * ah)
    for _, x, y, _ in board.country_endpoints:
        xs.append(x * aw)
        ys.append(y * ah)
    gap = median_spacing(board)
    # Room for a car sticking out of its centre on the edges, and for labels beyond edge cities.
    pad = gap * 1.1
    x0, x1 = min(xs) - pad * 1.6, max(xs) + pad * 1.6
    y0, y1 = min(ys) - pad, max(ys) + pad
    scale = width / (x1 - x0)
    height = int(round((y1 - y0) * scale))
    if height < min_height:
        y0 -= (min_height - height) / 2 / scale
        height = min_height
    car_len = gap * scale * 0.86
    car_w = car_len * 0.36
    city_r = car_w * 0.62
    label_size = max(10, int(round(car_len * 0.52)))
    base = Layout(
        board, width, height, scale, x0, y0, (aw, ah), car_len, car_w, city_r, label_size, {}, min_height
    )
    return Layout(
        board,
        width,
        height,
        scale,
        x0,
        y0,
        (aw, ah),
        car_len,
        car_w,
        city_r,
        label_size,
        place_labels(base),
        min_height,
    )


def _overlap(a: tuple[float, float, float, float], b: tuple[float, float, float, float]) -> float:
    w = min(a[2], b[2]) - max(a[0], b[0])
    h = min(a[3], b[3]) - max(a[1], b[1])
    return w * h if w > 0 and h > 0 else 0.0


#: Candidate label positions: (dx, dy, anchor, preference penalty). Right of the dot reads best.
_CANDIDATES = (
    (1, 0, "lm", 0.0),
    (-1, 0, "rm", 0.3),
    (0, -1, "mb", 0.2),
    (0, 1, "mt", 0.25),
    (0.8, -0.8, "lb", 0.4),
    (-0.8, -0.8, "rb", 0.5),
    (0.8, 0.8, "lt", 0.5),
    (-0.8, 0.8, "rt", 0.6),
)


def place_labels(lay: Layout) -> dict[str, Label]:
    """Greedy label placement that avoids route spaces, city dots, other labels and the edges."""
    board = lay.board
    fnt = font(lay.label_size, "condensed")
    obstacles: list[tuple[float, float, float, float]] = []
    hw = lay.car_w * 0.55
    for t in board.tracks:
        for x, y, ang in lay.space_xy(t):
            ca, sa = math.cos(math.radians(ang)), math.sin(math.radians(ang))
            for f in (-0.35, 0.0, 0.35):
                px, py = x + ca * lay.car_len * f, y + sa * lay.car_len * f
                obstacles.append((px - hw, py - hw, px + hw, py + hw))
    dots = {n: lay.city_xy(n) for n in board.cities}
    r = lay.city_r * 1.2
    dot_boxes = {n: (x - r, y - r, x + r, y + r) for n, (x, y) in dots.items()}
    placed: dict[str, Label] = {}
    degree = {n: len(board.tracks_at(n)) for n in board.cities}
    order = sorted((n for n in board.cities if not board.cities[n].is_country), key=lambda n: -degree[n])
    for name in order:
        cx, cy = dots[name]
        best: tuple[float, Label] | None = None
        for dx, dy, anchor, pref in _CANDIDATES:
            dist = lay.city_r + lay.label_size * 0.22
            ax, ay = cx + dx * dist, cy + dy * dist
            box = fnt.getbbox(name, anchor=anchor, stroke_width=2)
            rect = (ax + box[0], ay + box[1], ax + box[2], ay + box[3])
            area = (rect[2] - rect[0]) * (rect[3] - rect[1])
            cost = pref * area * 0.08
            for ob in obstacles:
                cost += _overlap(rect, ob)
            for other, ob in dot_boxes.items():
                if other != name:
                    cost += 4 * _overlap(rect, ob)
            for lab in placed.values():
                cost += 12 * _overlap(rect, lab.box)
            # A label nearer another city's dot than its own reads as that city's name.
            lx, ly = (rect[0] + rect[2]) / 2, (rect[1] + rect[3]) / 2
            own = math.hypot(lx - cx, ly - cy)
            for other, (ox_, oy_) in dots.items():
                if other != name and math.hypot(lx - ox_, ly - oy_) < own * 0.8:
                    cost += area * 0.5
            outside = area - _overlap(rect, (0, 0, lay.width, lay.height))
            cost += 20 * outside
            norm = math.hypot(dx, dy)
            cand = Label(ax, ay, anchor, rect, dx / norm, dy / norm)
            if best is None or cost < best[0]:
                best = (cost, cand)
        assert best is not None
        placed[name] = best[1]
    return placed


def _land_mask(lay: Layout, ss: int) -> Image.Image:
    """A soft land shape grown around the network (drawn from the data, no scanned art)."""
    small = 4  # work at 1/4 size: blurs are cheap there and the shape is smooth anyway
    w, h = max(1, lay.width // small), max(1, lay.height // small)
    mask = Image.new("L", (w, h), 0)
    d = ImageDraw.Draw(mask)
    k = 1 / small
    rc = lay.car_len * 1.7 * k
    for n in lay.board.cities:
        x, y = lay.city_xy(n)
        d.ellipse((x * k - rc, y * k - rc, x * k + rc, y * k + rc), fill=255)
    rs = lay.car_len * 1.05 * k
    for t in lay.board.tracks:
        for x, y, _ in lay.space_xy(t):
            d.ellipse((x * k - rs, y * k - rs, x * k + rs, y * k + rs), fill=255)
    mask = mask.filter(ImageFilter.GaussianBlur(lay.car_len * 0.9 * k))
    # Fill inland "lakes": flood the sea from the border, and everything not reached is land.
    solid = mask.point(lambda v: 255 if v > 110 else 0)
    for seed in (
        (0, 0),
        (w - 1, 0),
        (0, h - 1),
        (w - 1, h - 1),
        (w // 2, 0),
        (w // 2, h - 1),
        (0, h // 2),
        (w - 1, h // 2),
    ):
        if solid.getpixel(seed) == 0:
            ImageDraw.floodfill(solid, seed, 128)
    holes = solid.point(lambda v: 255 if v == 0 else 0).filter(ImageFilter.MaxFilter(5))
    mask.paste(255, (0, 0), holes)
    # Threshold only after upscaling the smooth field, so the coast is a smooth curve, not steps.
    mask = mask.resize((lay.width * ss, lay.height * ss), Image.Resampling.BICUBIC)
    return mask.point(lambda v: 255 if v > 110 else 0)


#: Share of a free space's width taken by its coloured band on each side.
FREE_BAND = 0.22


def free_centre(fill: RGB) -> RGB:
    """The pale centre of a free space of colour ``fill``."""
    return mix(fill, (255, 255, 255), 0.62)


def draw_space(
    d: ImageDraw.ImageDraw,
    x: float,
    y: float,
    ang: float,
    length: float,
    width: float,
    colour: str,
    tunnel: bool,
    ferry: bool,
    ss: int,
    glyph: str | None = None,
) -> None:
    """One unclaimed train-car space (coordinates already multiplied by ``ss``): *hollow*, a band
    of the route colour round a pale centre, so that even at phone-preview size a free route reads
    lighter and thinner than any claimed one (claims are solid bars with a dark outline)."""
    fill = ROUTE_COLOURS[colour]
    edge = mix(fill, (0, 0, 0), 0.55)
    pts = rounded_rect_points(x, y, length, width, ang, width * 0.28)
    d.polygon(pts, fill=fill)
    band = width * FREE_BAND
    inner = width - 2 * band
    d.polygon(rounded_rect_points(x, y, length - 2 * band, inner, ang, inner * 0.28), fill=free_centre(fill))
    if tunnel:
        # Tunnels: a heavy black dashed frame, as on the printed boards.
        d.line([*pts, pts[0]], fill=mix(fill, (0, 0, 0), 0.3), width=max(1, ss))
        dashed_outline(d, pts, (15, 15, 15), max(2, int(ss * 2.2)), dash=width * 0.5, gap=width * 0.32)
    else:
        d.line([*pts, pts[0]], fill=edge, width=max(1, int(ss * 1.2)))
    if ferry:
        # Ferry locomotive symbol: a white badge with a dark "L" (needs a locomotive card).
        r = width * 0.42
        d.ellipse((x - r, y - r, x + r, y + r), fill=(255, 255, 255), outline=(20, 20, 20), width=max(1, ss))
        d.text((x, y), "L", font=font(int(width * 0.6), "bold"), fill=(20, 20, 20), anchor="mm")
    else:
        glyph = ROUTE_GLYPHS[colour] if glyph is None else glyph
        ink = mix(fill, (0, 0, 0), 0.45)  # the route's own colour, darkened, on the pale centre
        # two letters (Italian "Bl", German "Ge") a little smaller, so they stay inside the space
        size = 0.72 if len(glyph) < 2 else 0.56
        d.text((x, y), glyph, font=font(int(width * size), "bold"), fill=ink, anchor="mm")


def _draw_country(d: ImageDraw.ImageDraw, lay: Layout, name: str, ss: int) -> None:
    """A neighbouring country: a banner with its name (it is one destination node)."""
    x, y = lay.city_xy(name)
    x, y = x * ss, y * ss
    fnt = font(int(lay.label_size * ss * 0.95), "condensed")
    text = name.upper()
    box = fnt.getbbox(text, anchor="mm")
    pad = lay.label_size * ss * 0.35
    rect = (x + box[0] - pad, y + box[1] - pad, x + box[2] + pad, y + box[3] + pad)
    # Keep the banner inside the map.
    shift_x = max(0.0, -rect[0] + ss * 4) - max(0.0, rect[2] - (lay.width * ss - ss * 4))
    shift_y = max(0.0, -rect[1] + ss * 4) - max(0.0, rect[3] - (lay.height * ss - ss * 4))
    rect = (rect[0] + shift_x, rect[1] + shift_y, rect[2] + shift_x, rect[3] + shift_y)
    d.rounded_rectangle(rect, radius=pad, fill=(92, 84, 70), outline=(40, 36, 30), width=ss * 2)
    d.text((x + shift_x, y + shift_y), text, font=fnt, fill=(255, 250, 235), anchor="mm")


@lru_cache(maxsize=16)
def static_layers(
    board_id: str, width: int, min_height: int = 0, language: str = "en"
) -> tuple[Image.Image, Image.Image]:
    """The board without any game state, as (RGB base with land and every route's spaces, their
    colour letters in ``language``; RGBA overlay with cities, country banners and labels)."""
    glyphs = route_glyphs(language)
    lay = layout(board_id, width, min_height)
    ss = STATIC_SS
    big = (lay.width * ss, lay.height * ss)
    mask = _land_mask(lay, ss)
    img = Image.new("RGB", big, SEA)
    land = Image.new("RGB", big, LAND)
    img.paste(land, (0, 0), mask)
    # Coastline: a thin darker rim just inside the land.
    rim = mask.filter(ImageFilter.MaxFilter(3)).point(lambda v: 255 - v)
    rim = rim.filter(ImageFilter.MaxFilter(2 * ss + 1))
    coast = Image.new("RGB", big, LAND_EDGE)
    inner = Image.composite(rim, Image.new("L", big, 0), mask)
    img.paste(coast, (0, 0), inner)
    d = ImageDraw.Draw(img)
    board = lay.board

    # Border endpoints of country routes: a small tag with the country's code where the track
    # leaves the map (every endpoint of a country is the same destination node).
    tag_font = font(int(lay.label_size * ss * 0.62), "condensed")
    for country, ex, ey, _ in board.country_endpoints:
        px, py = lay.pt(ex, ey)
        code = COUNTRY_CODES.get(country, country[:2].upper())
        box = tag_font.getbbox(code, anchor="mm")
        m = ss * 3
        d.rounded_rectangle(
            (px * ss + box[0] - m, py * ss + box[1] - m, px * ss + box[2] + m, py * ss + box[3] + m),
            radius=m,
            fill=(92, 84, 70),
        )
        d.text((px * ss, py * ss), code, font=tag_font, fill=(255, 250, 235), anchor="mm")

    for t in board.tracks:
        for i, (x, y, ang) in enumerate(lay.space_xy(t)):
            draw_space(
                d,
                x * ss,
                y * ss,
                ang,
                lay.car_len * ss,
                lay.car_w * ss,
                t.colour_name,
                t.tunnel,
                i < t.ferry_locos,
                ss,
                glyphs[t.colour_name],
            )

    base = img.resize((lay.width, lay.height), Image.Resampling.LANCZOS)

    # Cities and labels go on a separate transparent overlay that snapshots paste *after* the
    # claimed cars, so a claim never hides a city name.
    over = Image.new("RGBA", big, (0, 0, 0, 0))
    od = ImageDraw.Draw(over)
    for name, c in board.cities.items():
        if c.is_country:
            _draw_country(od, lay, name, ss)
            continue
        x, y = lay.city_xy(name)
        r = lay.city_r * ss
        od.ellipse(
            (x * ss - r, y * ss - r, x * ss + r, y * ss + r),
            fill=(255, 255, 255),
            outline=TEXT,
            width=int(ss * 2.2),
        )
        r2 = r * 0.38
        od.ellipse((x * ss - r2, y * ss - r2, x * ss + r2, y * ss + r2), fill=(180, 40, 40))

    fnt = font(lay.label_size * ss, "condensed")
    for name, lab in lay.labels.items():
        od.text(
            (lab.x * ss, lab.y * ss),
            name,
            font=fnt,
            fill=TEXT,
            anchor=lab.anchor,
            stroke_width=int(ss * 2.6),
            stroke_fill=(255, 252, 240),
        )
    return base, over.resize((lay.width, lay.height), Image.Resampling.LANCZOS)


#: Side of the squares the city overlay is cut into: per paste, Pillow's call costs about as much as
#: 1,500 blended pixels, so 64 px (136 pieces, 16% of the Europe map's area) pasted fastest.
OVERLAY_PIECE = 64


@lru_cache(maxsize=16)
def overlay_pieces(
    board_id: str, width: int, min_height: int = 0
) -> tuple[tuple[Image.Image, Image.Image, tuple[int, int]], ...]:
    """The city overlay of :func:`static_layers` as (RGB piece, its "L" coverage, top-left): only
    its non-empty squares, each cut to its visible pixels. Pasting them all is pixel-identical to
    pasting the whole overlay, at a sixth of the cost (most of the map has no city or label)."""
    _, over = static_layers(board_id, width, min_height)
    alpha = over.getchannel("A")
    colour = over.convert("RGB")
    pieces: list[tuple[Image.Image, Image.Image, tuple[int, int]]] = []
    for y in range(0, over.height, OVERLAY_PIECE):
        for x in range(0, over.width, OVERLAY_PIECE):
            box = alpha.crop(
                (x, y, min(x + OVERLAY_PIECE, over.width), min(y + OVERLAY_PIECE, over.height))
            ).getbbox()
            if box:
                left, top = x + box[0], y + box[1]
                cut = (left, top, x + box[2], y + box[3])
                pieces.append((colour.crop(cut), alpha.crop(cut), (left, top)))
    return tuple(pieces)


def static_layer(board_id: str, width: int, min_height: int = 0) -> Image.Image:
    """The empty board (base with the city overlay applied), for previews and tests."""
    base, over = static_layers(board_id, width, min_height)
    out = base.copy()
    out.paste(over, (0, 0), over)
    return out


def track_colour(track: Track) -> RGB:
    return ROUTE_COLOURS[track.colour_name]
