"""Shared drawing pieces: bundled fonts, the colour-blind-safe palette, anti-aliased stamps, encoding.

Everything here is pure Pillow. Stamps (train cars, discs, rings) are drawn supersampled once and
cached, so a snapshot only pastes small pre-rendered RGBA tiles: that keeps the dynamic layer both
smooth (Pillow's polygon fill is not anti-aliased) and fast.
"""

from __future__ import annotations

import io
import math
import zlib
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

from lang import SOURCE_LANGUAGE, Np_, normalise, pictures, translator

FONT_DIR = Path(__file__).parent / "fonts"
RGB = tuple[int, int, int]
RGBA = tuple[int, int, int, int]

#: Supersampling factor for stamps and the cached static layer.
SS = 3


@lru_cache(maxsize=128)
def font(size: int, weight: str = "regular") -> ImageFont.FreeTypeFont:
    """A bundled DejaVu font. ``weight``: ``regular``, ``bold`` or ``condensed`` (condensed bold)."""
    files = {
        "regular": "DejaVuSans.ttf",
        "bold": "DejaVuSans-Bold.ttf",
        "condensed": "DejaVuSansCondensed-Bold.ttf",
    }
    return ImageFont.truetype(str(FONT_DIR / files[weight]), max(1, int(size)))


#: Discord shows an attached image about 400 px wide in a phone's chat column (the preview a player
#: sees without opening it), so every board is designed to be read at that width.
PREVIEW_WIDTH = 400
#: The smallest cap height, in preview pixels, of any text a player needs at a glance (names,
#: scores, counts, the last move). 7 px caps are the size of small print on a phone screen.
MIN_PREVIEW_CAP_PX = 7.0


@lru_cache(maxsize=256)
def cap_height(size: int, weight: str = "regular") -> int:
    """Height in pixels of a capital letter ("H") of the bundled font at ``size``."""
    box = font(size, weight).getbbox("H")
    return int(box[3] - box[1])


@lru_cache(maxsize=256)
def legible_size(image_width: int, weight: str = "regular", cap_px: float = MIN_PREVIEW_CAP_PX) -> int:
    """The smallest font size whose capitals stay at least ``cap_px`` tall once an image
    ``image_width`` pixels wide is scaled down to :data:`PREVIEW_WIDTH`."""
    scale = PREVIEW_WIDTH / image_width
    size = 6
    while cap_height(size, weight) * scale < cap_px:
        size += 1
    return size


def hex_rgb(code: str) -> RGB:
    """``"#RRGGBB"`` to an RGB tuple."""
    code = code.lstrip("#")
    return (int(code[0:2], 16), int(code[2:4], 16), int(code[4:6], 16))


def mix(a: RGB, b: RGB, t: float) -> RGB:
    """Linear blend from ``a`` (t=0) to ``b`` (t=1)."""
    return (
        round(a[0] + (b[0] - a[0]) * t),
        round(a[1] + (b[1] - a[1]) * t),
        round(a[2] + (b[2] - a[2]) * t),
    )


def luminance(c: RGB) -> float:
    """Relative luminance (0..1), used to pick black or white text on a fill."""
    return (0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2]) / 255.0


def ink_for(fill: RGB) -> RGB:
    """Readable text colour on ``fill``."""
    return (20, 20, 20) if luminance(fill) > 0.5 else (250, 250, 250)


# --- Palette -------------------------------------------------------------------------------------

#: Route/card colours as printed on the boards (slightly deepened so they read on the land tone).
ROUTE_COLOURS: dict[str, RGB] = {
    "red": hex_rgb("#D7263D"),
    "orange": hex_rgb("#F28C28"),
    "yellow": hex_rgb("#F4D83A"),
    "green": hex_rgb("#3FA34D"),
    "blue": hex_rgb("#2E6FD0"),
    "pink": hex_rgb("#C46BC9"),
    "black": hex_rgb("#2B2B2B"),
    "white": hex_rgb("#F7F7F2"),
    "gray": hex_rgb("#A9A9A4"),
}

#: One letter per colour, printed on every space and card so colours never need to be told apart by
#: hue alone: in English K for black, as in CMYK, because B is blue; P is the purple/pink card.
#: Each language has its own initials (a German reads G as gelb, a French B as blanc), from the
#: ``pictures`` catalog with the context "colour letter: <colour>" (see :func:`route_glyphs`).
ROUTE_LETTERS: dict[str, tuple[str, str]] = {
    "red": ("colour letter: red", Np_("colour letter: red", "R")),
    "orange": ("colour letter: orange", Np_("colour letter: orange", "O")),
    "yellow": ("colour letter: yellow", Np_("colour letter: yellow", "Y")),
    "green": ("colour letter: green", Np_("colour letter: green", "G")),
    "blue": ("colour letter: blue", Np_("colour letter: blue", "B")),
    "pink": ("colour letter: pink", Np_("colour letter: pink", "P")),
    "black": ("colour letter: black", Np_("colour letter: black", "K")),
    "white": ("colour letter: white", Np_("colour letter: white", "W")),
}
#: The English letters (gray routes, which any colour pays, carry a dot in every language).
ROUTE_GLYPHS: dict[str, str] = {**{k: letter for k, (_c, letter) in ROUTE_LETTERS.items()}, "gray": "·"}


@lru_cache(maxsize=16)
def route_glyphs(language: str | None = None) -> dict[str, str]:
    """Each route colour's letter in ``language`` (None or unknown: English)."""
    tr = translator(normalise(language) if language else SOURCE_LANGUAGE, "pictures")
    return {**{k: tr.pgettext(ctx, letter) for k, (ctx, letter) in ROUTE_LETTERS.items()}, "gray": "·"}


@lru_cache(maxsize=16)
def card_glyphs(language: str | None = None) -> dict[str, str]:
    """Each train card's letter in ``language``: the colours' letters, and the same L, L+4 and
    Ps in every language (locomotiva, Lokomotive; passeggero, Passagier, passager)."""
    return {
        **{k: v for k, v in route_glyphs(language).items() if k != "gray"},
        "locomotive": "L",
        "plus4": "L+4",
        "passenger": "Ps",
    }


CARD_COLOURS: dict[str, RGB] = {
    **{k: v for k, v in ROUTE_COLOURS.items() if k != "gray"},
    "locomotive": hex_rgb("#8E8E8E"),
    "plus4": hex_rgb("#5B5B5B"),
    "passenger": hex_rgb("#1F8A8A"),
}
CARD_GLYPHS: dict[str, str] = card_glyphs(None)
#: Rainbow stripes for locomotive cards (they match any colour).
RAINBOW: tuple[RGB, ...] = tuple(
    ROUTE_COLOURS[c] for c in ("red", "orange", "yellow", "green", "blue", "pink")
)

#: Player colours chosen *apart from the route colours*: at Discord's preview size a claimed route
#: must never read as a free route of the same hue (the first palette used the Okabe–Ito blue,
#: orange, green and purple, within 5–11 ΔE2000 of the blue, orange, green, pink and black routes).
#: These five are each at least 21 ΔE2000 from every route colour, the last-move magenta, the
#: trail yellow, land and sea, at least 31 from each other, and at least 15 apart under simulated
#: protanopia, deuteranopia and tritanopia (searched over a 17-step sRGB grid; the tests check the
#: figures). Every claimed car also carries the seat number.
PLAYER_COLOURS: tuple[RGB, ...] = (
    hex_rgb("#00BBBB"),  # cyan
    hex_rgb("#887700"),  # olive
    hex_rgb("#773377"),  # plum
    hex_rgb("#772200"),  # rust
    hex_rgb("#006655"),  # pine
)
PLAYER_COLOUR_NAMES: tuple[str, ...] = ("cyan", "olive", "plum", "rust", "pine")
#: Seat glyphs printed on every claimed car, station and passenger.
PLAYER_GLYPHS: tuple[str, ...] = ("1", "2", "3", "4", "5")

LAND = hex_rgb("#EFE6CF")
LAND_EDGE = hex_rgb("#D9CBA6")
SEA = hex_rgb("#BFD7E3")
PANEL_BG = hex_rgb("#FBF8F0")
PANEL_LINE = hex_rgb("#D8D0BC")
TEXT = hex_rgb("#1E1E1E")
MUTED = hex_rgb("#6B6457")
HIGHLIGHT = hex_rgb("#FF2E88")  # last action: a magenta no route or player uses
TRAIL = hex_rgb("#FFD400")  # longest trail halo on the summary


def player_colour(seat: int) -> RGB:
    return PLAYER_COLOURS[seat % len(PLAYER_COLOURS)]


def player_glyph(seat: int) -> str:
    return PLAYER_GLYPHS[seat % len(PLAYER_GLYPHS)]


def default_names(players: int, names: list[str] | None, language: object = None) -> list[str]:
    """Player names, padded with ``Player N`` (in the picture's ``language``) for seats the caller
    did not name."""
    given = list(names or [])
    t = pictures(language)
    return [given[i] if i < len(given) and given[i] else t("Player {n}", n=i + 1) for i in range(players)]


# --- Geometry helpers ----------------------------------------------------------------------------


def rounded_rect_points(
    cx: float, cy: float, length: float, width: float, angle_deg: float, radius: float, steps: int = 5
) -> list[tuple[float, float]]:
    """Polygon of a rounded rectangle centred on (cx, cy), long axis at ``angle_deg`` clockwise."""
    hl, hw = length / 2, width / 2
    r = max(0.0, min(radius, hl, hw))
    corners = (
        (hl - r, hw - r, 0),
        (-(hl - r), hw - r, 90),
        (-(hl - r), -(hw - r), 180),
        (hl - r, -(hw - r), 270),
    )
    local: list[tuple[float, float]] = []
    for ox, oy, start in corners:
        for i in range(steps + 1):
            a = math.radians(start + 90 * i / steps)
            local.append((ox + r * math.cos(a), oy + r * math.sin(a)))
    ca, sa = math.cos(math.radians(angle_deg)), math.sin(math.radians(angle_deg))
    return [(cx + x * ca - y * sa, cy + x * sa + y * ca) for x, y in local]


def dashed_outline(
    draw: ImageDraw.ImageDraw,
    pts: list[tuple[float, float]],
    fill: RGB | RGBA,
    width: int,
    dash: float,
    gap: float,
) -> None:
    """Stroke a closed polygon with dashes (tunnels are outlined like this)."""
    ring = [*pts, pts[0]]
    period = dash + gap
    pos = 0.0  # distance travelled along the outline, so dashes flow around corners
    for (x0, y0), (x1, y1) in zip(ring, ring[1:], strict=False):
        seg = math.hypot(x1 - x0, y1 - y0)
        if seg < 1e-9:
            continue
        start, end = pos, pos + seg
        k = math.floor(start / period)
        while k * period < end:
            a = max(start, k * period)
            b = min(end, k * period + dash)
            if b > a:
                ta, tb = (a - start) / seg, (b - start) / seg
                draw.line(
                    [(x0 + (x1 - x0) * ta, y0 + (y1 - y0) * ta), (x0 + (x1 - x0) * tb, y0 + (y1 - y0) * tb)],
                    fill=fill,
                    width=width,
                )
            k += 1
        pos = end


# --- Cached anti-aliased stamps ------------------------------------------------------------------


@lru_cache(maxsize=8192)
def car_stamp(
    length: int,
    width: int,
    angle: int,
    fill: RGB,
    outline: RGB,
    outline_w: float,
    glyph: str = "",
    glyph_fill: RGB = (0, 0, 0),
    disc: RGB | None = None,
    dashed: bool = False,
) -> Image.Image:
    """A rotated rounded train car as an RGBA tile, centred. Glyphs stay upright for legibility.

    ``disc`` puts a small round badge behind the glyph (used for player numbers on claimed cars).
    """
    diag = math.hypot(length, width) + 2 * outline_w + 4
    size = int(math.ceil(diag)) | 1
    big = size * SS
    img = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    c = big / 2
    pts = rounded_rect_points(c, c, length * SS, width * SS, angle, width * SS * 0.28)
    if dashed:
        d.polygon(pts, fill=fill)
        d.line([*pts, pts[0]], fill=(*outline, 90), width=max(1, int(outline_w * SS * 0.5)))
        dashed_outline(
            d, pts, outline, max(1, int(outline_w * SS * 1.6)), dash=width * SS * 0.55, gap=width * SS * 0.35
        )
    else:
        d.polygon(pts, fill=fill, outline=None)
        if outline_w > 0:
            d.line([*pts, pts[0]], fill=outline, width=max(1, int(round(outline_w * SS))), joint="curve")
    if glyph:
        fsize = int(width * SS * (0.62 if disc is not None else 0.78))
        if disc is not None:
            r = width * SS * 0.42
            d.ellipse((c - r, c - r, c + r, c + r), fill=disc)
        f = font(fsize, "bold")
        d.text((c, c), glyph, font=f, fill=glyph_fill, anchor="mm")
    return img.resize((size, size), Image.Resampling.LANCZOS)


@lru_cache(maxsize=1024)
def disc_stamp(
    radius: float, fill: RGB | RGBA, outline: RGB | None = None, outline_w: float = 0.0
) -> Image.Image:
    """A filled anti-aliased circle (with optional outline) as an RGBA tile."""
    size = int(math.ceil(2 * radius + 2 * outline_w + 4)) | 1
    big = size * SS
    img = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    c = big / 2
    r = radius * SS
    d.ellipse(
        (c - r, c - r, c + r, c + r), fill=fill, outline=outline, width=max(0, int(round(outline_w * SS)))
    )
    return img.resize((size, size), Image.Resampling.LANCZOS)


@lru_cache(maxsize=256)
def ring_stamp(radius: float, colour: RGB, width: float) -> Image.Image:
    """An anti-aliased ring (highlights around cities)."""
    size = int(math.ceil(2 * radius + width + 4)) | 1
    big = size * SS
    img = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    c = big / 2
    r = radius * SS
    d.ellipse((c - r, c - r, c + r, c + r), outline=colour, width=max(1, int(round(width * SS))))
    return img.resize((size, size), Image.Resampling.LANCZOS)


def paste_centred(base: Image.Image, stamp: Image.Image, x: float, y: float) -> None:
    """Paste an RGBA stamp centred on (x, y), clipped by Pillow at the edges."""
    w, h = stamp.size
    base.paste(stamp, (int(round(x - w / 2)), int(round(y - h / 2))), stamp)


@lru_cache(maxsize=4096)
def text_mask(
    text: str, fnt: ImageFont.FreeTypeFont, anchor: str, fx: float, fy: float
) -> tuple[Image.Image, int, int]:
    """``text`` rendered once as an anti-aliased coverage mask, with the mask's offset from the
    whole-pixel anchor point; ``fx``, ``fy`` are the anchor's fractional parts (FreeType places
    glyphs with sub-pixel precision, so they are part of the key)."""
    box = fnt.getbbox(text, anchor=anchor)
    left, top, right, bottom = math.floor(box[0]), math.floor(box[1]), math.ceil(box[2]), math.ceil(box[3])
    # Draw at a whole, non-negative point plus the same fraction as the caller's, so FreeType
    # places the glyphs exactly as ImageDraw.text would on the real image.
    pad = 2
    px, py = pad + max(0, -left), pad + max(0, -top)
    mask = Image.new("L", (px + max(0, right) + pad, py + max(0, bottom) + pad), 0)
    ImageDraw.Draw(mask).text((px + fx, py + fy), text, font=fnt, fill=255, anchor=anchor)
    return mask, -px, -py


def draw_text(
    img: Image.Image,
    xy: tuple[float, float],
    text: str,
    font: ImageFont.FreeTypeFont,
    fill: RGB,
    anchor: str = "la",
) -> None:
    """Same pixels as ``ImageDraw.text`` (one line, no stroke), from a cached mask: names, labels
    and most numbers are the same from one turn to the next, and FreeType rendering is the cost."""
    x, y = xy
    if x < 0 or y < 0:  # ImageDraw truncates towards zero there; no cache needed off the edge
        ImageDraw.Draw(img).text(xy, text, font=font, fill=fill, anchor=anchor)
        return
    ix, iy = math.floor(x), math.floor(y)
    mask, ox, oy = text_mask(text, font, anchor, x - ix, y - iy)
    img.paste(fill, (ix + ox, iy + oy, ix + ox + mask.width, iy + oy + mask.height), mask)


def text_halo(
    draw: ImageDraw.ImageDraw,
    xy: tuple[float, float],
    text: str,
    fnt: ImageFont.FreeTypeFont,
    fill: RGB,
    halo: RGB = (255, 255, 255),
    halo_w: int = 2,
    anchor: str = "la",
) -> None:
    """Text with a halo, so names stay readable over routes and land."""
    draw.text(xy, text, font=fnt, fill=fill, anchor=anchor, stroke_width=halo_w, stroke_fill=halo)


@lru_cache(maxsize=8192)
def text_length(text: str, fnt: ImageFont.FreeTypeFont) -> float:
    """``fnt.getlength(text)``, cached: layout through HarfBuzz costs ~0.1 ms a string, and the
    panel measures the same names and lines on every turn."""
    return fnt.getlength(text)


@lru_cache(maxsize=4096)
def fit_text(text: str, fnt: ImageFont.FreeTypeFont, max_w: float) -> str:
    """Shorten ``text`` with an ellipsis until it fits ``max_w`` pixels.

    Cached: the same names, legend lines and notes are fitted on every turn, and shortening a
    long note measures it once per character removed."""
    if text_length(text, fnt) <= max_w:
        return text
    while text and fnt.getlength(text + "…") > max_w:
        text = text[:-1]
    return text + "…"


@dataclass(frozen=True)
class Tile:
    """An RGBA stamp cut to its visible pixels, split into colour and coverage (pasting RGB through
    an "L" mask gives the same pixels as pasting RGBA, 30% faster), and where its corner sits
    relative to the spot the whole stamp would be centred on."""

    image: Image.Image  # RGB
    mask: Image.Image  # L
    dx: int  # the cut's left edge within the whole stamp
    dy: int
    half_w: float  # half the whole stamp's size
    half_h: float


def trim(stamp: Image.Image) -> Tile:
    """``stamp`` without its transparent margin: a rotated car fills a third of its square tile,
    and pasting with a mask costs per pixel, transparent or not."""
    alpha = stamp.getchannel("A")
    box = alpha.getbbox() or (0, 0, 1, 1)
    return Tile(
        stamp.crop(box).convert("RGB"), alpha.crop(box), box[0], box[1], stamp.width / 2, stamp.height / 2
    )


@lru_cache(maxsize=8192)
def car_tile(
    length: int,
    width: int,
    angle: int,
    fill: RGB,
    outline: RGB,
    outline_w: float,
    glyph: str = "",
    glyph_fill: RGB = (0, 0, 0),
    disc: RGB | None = None,
) -> Tile:
    """:func:`car_stamp` trimmed, for pasting many times."""
    return trim(car_stamp(length, width, angle, fill, outline, outline_w, glyph, glyph_fill, disc))


def paste_tile(base: Image.Image, tile: Tile, x: float, y: float) -> None:
    """Paste ``tile`` where :func:`paste_centred` would have put its whole stamp."""
    left = int(round(x - tile.half_w)) + tile.dx
    top = int(round(y - tile.half_h)) + tile.dy
    base.paste(tile.image, (left, top), tile.mask)


@dataclass(frozen=True)
class FixedPalette:
    """A 256-colour palette chosen once (per board and size) for every image of that kind.

    Pillow maps a colour to the palette entry nearest to its 6-bit-per-channel cell's corner, not
    to the colour itself, so an exact entry can lose its own flat areas to a neighbour (land would
    come out a shade off). ``lookup`` holds the entries rounded down the same way, so the nearest
    cell wins and an exact entry always maps to itself; the encoded image carries ``colours``, the
    true entries.
    """

    lookup: Image.Image
    colours: tuple[int, ...]

    def apply(self, img: Image.Image) -> Image.Image:
        """``img`` as a palette image, each pixel the nearest entry, no dithering."""
        rgb = img if img.mode == "RGB" else img.convert("RGB")
        out = rgb.quantize(palette=self.lookup, dither=Image.Dither.NONE)
        out.putpalette(self.colours)
        return out


def build_palette(samples: Sequence[Image.Image], exact: Sequence[RGB], top: int = 16) -> FixedPalette:
    """A palette for images that look like ``samples``: ``exact`` colours and the ``top`` most
    common sample colours kept exactly (flat areas never shift), the rest of the 256 entries from
    an octree of the samples (anti-aliased edges, text). Entries that round to the same 6-bit
    cell are dropped after the first, so the order is the priority."""
    width = max(s.width for s in samples)
    sheet = Image.new("RGB", (width, sum(s.height for s in samples)), (0, 0, 0))
    y = 0
    for s in samples:
        sheet.paste(s.convert("RGB"), (0, y))
        y += s.height
    # Every other pixel of every other row: the same colours in the same proportions (no new
    # blends, unlike a filtered resize), at a quarter of the cost to count and cluster.
    sheet = sheet.resize((max(1, sheet.width // 2), max(1, sheet.height // 2)), Image.Resampling.NEAREST)
    counts = sheet.getcolors(sheet.width * sheet.height) or []
    common: list[RGB] = []
    for _, colour in sorted(counts, key=lambda nc: -nc[0])[:top]:
        assert isinstance(colour, tuple)  # an RGB image counts RGB triples
        common.append((int(colour[0]), int(colour[1]), int(colour[2])))
    keep: list[RGB] = list(dict.fromkeys([*exact, *common]))
    octree = sheet.quantize(
        max(1, 256 - len(keep)), method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE
    )
    flat = octree.getpalette() or []
    keep += [(flat[i], flat[i + 1], flat[i + 2]) for i in range(0, len(flat) - 2, 3)]
    entries: list[RGB] = []
    cells: set[RGB] = set()
    for c in keep:
        cell = (c[0] & 0xFC, c[1] & 0xFC, c[2] & 0xFC)
        if cell not in cells and len(entries) < 256:
            cells.add(cell)
            entries.append(c)
    lookup = Image.new("P", (1, 1))
    lookup.putpalette([v for c in entries for v in (c[0] & 0xFC, c[1] & 0xFC, c[2] & 0xFC)])
    return FixedPalette(lookup, tuple(v for c in entries for v in c))


#: zlib settings for the palette PNGs, measured on a late 5-player Europe board (1620×868): level 3
#: took 9.5 ms for 211 KB, level 1 8.1 ms for 222 KB, level 1 with the run-length strategy 6.2 ms
#: for 259 KB (Märklin: 12.9 / 11.0 / 9.5 ms, 274 / 290 / 357 KB). The budget is CPU; 1.5 MB is far.
PNG_LEVEL = 1
PNG_STRATEGY = zlib.Z_RLE


def encode_png(img: Image.Image, palette: FixedPalette | None = None) -> bytes:
    """Encode as a 256-colour PNG, mapped onto ``palette`` (no dithering: the pictures are mostly
    flat colours, and dithering only adds noise) or, without one, onto an octree of ``img``; a
    palette image is encoded as it is."""
    if img.mode == "P":
        pal = img
    elif palette is not None:
        pal = palette.apply(img)
    else:
        pal = img.convert("RGB").quantize(
            colors=256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE
        )
    buf = io.BytesIO()
    pal.save(buf, format="PNG", optimize=False, compress_level=PNG_LEVEL, compress_type=PNG_STRATEGY)
    return buf.getvalue()
