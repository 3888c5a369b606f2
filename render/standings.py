"""An event's standings (or any ranked table) as a picture readable in a phone's chat preview.

Discord shows an attached image about :data:`~render.common.PREVIEW_WIDTH` (400) pixels wide; the
picture is drawn 800 wide with type sized so that its capitals stay legible at that preview
(:func:`~render.common.legible_size`, with margin), one page of rows at a time (the caller pages a
large field; the CSV beside it has every row). Words arrive already in the reader's language:
nothing here translates or knows about tournaments.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from PIL import Image, ImageDraw, ImageFont

from render.common import encode_png, font, legible_size

WIDTH = 800
MARGIN = 24
BACKGROUND = (250, 248, 242)
INK = (33, 33, 33)
MUTED = (110, 110, 110)
STRIPE = (236, 232, 222)
HEAD_FILL = (52, 73, 94)
HEAD_INK = (255, 255, 255)
PODIUM = ((212, 175, 55), (168, 169, 173), (176, 120, 72))  # gold, silver, bronze


def table_png(
    title: str,
    subtitle: str,
    heads: Sequence[str],
    rows: Sequence[Sequence[str]],
    *,
    align: Sequence[str],
    weights: Sequence[float],
    medals: Mapping[int, int] | None = None,
) -> bytes:
    """A titled table as PNG bytes. ``align`` per column (``<`` left, ``>`` right); ``weights`` the
    share of the width each column gets; ``medals``: row index (0-based) → place 1, 2 or 3, whose
    first cell is marked gold, silver or bronze (players tied for a place share its colour). A cell wider than its column is cut with "…"."""
    size = max(26, legible_size(WIDTH, "bold", 11.0))  # 11 px caps at the preview: clear on a phone
    body = font(size)
    bold = font(size, "bold")
    title_font = font(int(size * 1.25), "bold")
    small = font(int(size * 0.8))
    row_h = int(size * 1.55)
    title_h = int(size * 1.25 * 1.4) + int(size * 0.8 * 1.4) + 12
    height = MARGIN * 2 + title_h + row_h * (len(rows) + 1)
    img = Image.new("RGB", (WIDTH, height), BACKGROUND)
    draw = ImageDraw.Draw(img)
    draw.text((MARGIN, MARGIN), _fit(draw, title, title_font, WIDTH - 2 * MARGIN), font=title_font, fill=INK)
    draw.text(
        (MARGIN, MARGIN + int(size * 1.25 * 1.4)),
        _fit(draw, subtitle, small, WIDTH - 2 * MARGIN),
        font=small,
        fill=MUTED,
    )
    total = sum(weights)
    inner = WIDTH - 2 * MARGIN
    edges = [MARGIN]
    for w in weights:
        edges.append(edges[-1] + int(inner * w / total))
    edges[-1] = WIDTH - MARGIN
    top = MARGIN + title_h
    draw.rectangle((MARGIN, top, WIDTH - MARGIN, top + row_h), fill=HEAD_FILL)
    _row(draw, heads, edges, top, row_h, bold, HEAD_INK, align)
    for i, cells in enumerate(rows):
        y = top + row_h * (i + 1)
        if i % 2:
            draw.rectangle((MARGIN, y, WIDTH - MARGIN, y + row_h), fill=STRIPE)
        place = (medals or {}).get(i)
        if place is not None and 1 <= place <= len(PODIUM):
            draw.rectangle((MARGIN, y, edges[1], y + row_h), fill=PODIUM[place - 1])
        _row(draw, cells, edges, y, row_h, bold if place else body, INK, align)
    return encode_png(img)


def _row(
    draw: ImageDraw.ImageDraw,
    cells: Sequence[str],
    edges: Sequence[int],
    y: int,
    row_h: int,
    face: ImageFont.FreeTypeFont,
    ink: tuple[int, int, int],
    align: Sequence[str],
) -> None:
    pad = 8
    for cell, left, right, how in zip(cells, edges, edges[1:], align, strict=False):
        text = _fit(draw, cell, face, right - left - 2 * pad)
        width = draw.textlength(text, font=face)
        x = left + pad if how == "<" else right - pad - width
        draw.text((x, y + row_h / 2), text, font=face, fill=ink, anchor="lm")


def _fit(draw: ImageDraw.ImageDraw, text: str, face: ImageFont.FreeTypeFont, width: float) -> str:
    """``text`` cut with "…" to fit ``width`` pixels."""
    if draw.textlength(text, font=face) <= width:
        return text
    while text and draw.textlength(text + "…", font=face) > width:
        text = text[:-1]
    return text + "…"
