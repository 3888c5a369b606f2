"""Pictures composed from placed stamps over a fixed background, repainting only what changed.

A map snapshot is a background (the cached static layer) with an ordered list of :class:`Placed`
stamps on it: claimed cars, glows, the city overlay pieces, tokens. From one turn to the next only a
few stamps change, so :class:`ComposeCache` keeps the last few composed pictures with the stamps
they hold, starts from the one that differs least, and repaints only the rectangles where stamps
were added or removed: each such rectangle is redrawn from the background with every stamp that
touches it, in order, and mapped to the palette. Pasting and palette mapping are per-pixel
operations, so the result is exactly the picture drawn from scratch, whatever the cache holds; the
tests check that.

The pictures are kept as the bytes a PNG encoder needs (palette indices, each row prefixed by the
filter byte 0, see :mod:`render.png`): reading a whole picture's bytes out of Pillow costs more than
the repainting, and patching a few rows of bytes costs almost nothing.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field

from PIL import Image

from render.common import FixedPalette

Box = tuple[int, int, int, int]
#: Backgrounds (board and size) whose pictures are kept: every board at its snapshot size.
MAX_BACKGROUNDS = 8


@dataclass(frozen=True)
class Placed:
    """One stamp at its place: ``image`` (RGB) pasted through ``mask`` (L) with its top-left corner
    at (``left``, ``top``). ``key`` names it completely (what and where), so two stamps with the
    same key draw the same pixels."""

    key: Hashable
    image: Image.Image
    mask: Image.Image
    left: int
    top: int
    box: Box = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(
            self, "box", (self.left, self.top, self.left + self.mask.width, self.top + self.mask.height)
        )

    def paste_into(self, img: Image.Image, ox: int = 0, oy: int = 0) -> None:
        """Paste into ``img`` whose top-left corner is (``ox``, ``oy``) of the whole picture."""
        img.paste(self.image, (self.left - ox, self.top - oy), self.mask)


def draw_all(img: Image.Image, stamps: Sequence[Placed]) -> None:
    """Paste every stamp, in order (the picture from scratch)."""
    for s in stamps:
        s.paste_into(img)


def _touches(a: Box, b: Box) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def merge_boxes(boxes: Sequence[Box], slack: int = 8) -> list[Box]:
    """Union boxes that overlap or lie within ``slack`` pixels of each other, so a route's cars
    and glow are repainted as one rectangle rather than several overlapping ones."""
    out: list[Box] = []
    for b in boxes:
        cur = b
        merged = True
        while merged:
            merged = False
            for i, o in enumerate(out):
                grown = (o[0] - slack, o[1] - slack, o[2] + slack, o[3] + slack)
                if _touches(cur, grown):
                    cur = (min(cur[0], o[0]), min(cur[1], o[1]), max(cur[2], o[2]), max(cur[3], o[3]))
                    del out[i]
                    merged = True
                    break
        out.append(cur)
    return out


@dataclass
class _Entry:
    boxes: dict[Hashable, Box]  # every stamp the picture holds, and where
    raw: bytes  # the picture as PNG rows: a 0 byte, then a palette index per pixel


def png_rows(picture: Image.Image) -> bytes:
    """A palette image's bytes as PNG rows (each prefixed with the filter byte 0, "none")."""
    w, h = picture.size
    framed = Image.new("P", (w + 1, h), 0)
    framed.paste(picture, (1, 0))
    return framed.tobytes()


class ComposeCache:
    """The last ``size`` composed palette pictures of each background (a board at one size)."""

    def __init__(self, size: int = 6, full_share: float = 0.45) -> None:
        self.size = size
        #: Above this share of the picture to repaint, drawing from scratch is cheaper.
        self.full_share = full_share
        self._entries: OrderedDict[Hashable, list[_Entry]] = OrderedDict()
        # Renders may run in threads: the bookkeeping is locked, the drawing is not.
        self._lock = threading.Lock()
        self.stats = {"full": 0, "partial": 0, "repainted_px": 0}

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()

    def _plan(self, entry: _Entry, boxes: dict[Hashable, Box], w: int, h: int) -> tuple[int, list[Box]]:
        """(pixels to repaint, rectangles) to turn ``entry`` into the picture of ``boxes``."""
        changed = [boxes[k] for k in boxes.keys() - entry.boxes.keys()]
        changed += [entry.boxes[k] for k in entry.boxes.keys() - boxes.keys()]
        rects = [c for c in (_clip(b, w, h) for b in merge_boxes(changed)) if c is not None]
        return sum((r[2] - r[0]) * (r[3] - r[1]) for r in rects), rects

    def compose(
        self,
        background_key: Hashable,
        background: Image.Image,
        stamps: Sequence[Placed],
        palette: FixedPalette,
    ) -> bytes:
        """``background`` with ``stamps`` pasted in order, mapped onto ``palette``, as PNG rows
        (:func:`png_rows`). Exactly the rows of the picture drawn from scratch, whatever the cache
        holds."""
        boxes = {s.key: s.box for s in stamps}
        if len(boxes) != len(stamps):
            raise ValueError("stamp keys must be unique")
        with self._lock:
            entries = list(self._entries.get(background_key, ()))
        w, h = background.size
        best: tuple[int, _Entry, list[Box]] | None = None
        for entry in entries:
            area, rects = self._plan(entry, boxes, w, h)
            if best is None or area < best[0]:
                best = (area, entry, rects)
        if best is None or best[0] > self.full_share * w * h:
            rgb = background.copy()
            draw_all(rgb, stamps)
            raw = png_rows(palette.apply(rgb))
            stat = ("full", 0)
        else:
            area, entry, rects = best
            data = bytearray(entry.raw)
            stride = w + 1
            for r in rects:
                patch = background.crop(r)
                for s in stamps:
                    if _touches(s.box, r):
                        s.paste_into(patch, r[0], r[1])
                indices = palette.apply(patch).tobytes()
                pw = r[2] - r[0]
                for row in range(r[3] - r[1]):
                    at = (r[1] + row) * stride + 1 + r[0]
                    data[at : at + pw] = indices[row * pw : (row + 1) * pw]
            raw = bytes(data)
            stat = ("partial", area)
        with self._lock:
            self.stats[stat[0]] += 1
            self.stats["repainted_px"] += stat[1]
            kept = self._entries.setdefault(background_key, [])
            self._entries.move_to_end(background_key)
            kept.insert(0, _Entry(boxes, raw))
            del kept[self.size :]
            while len(self._entries) > MAX_BACKGROUNDS:  # backgrounds not drawn for a long time
                self._entries.popitem(last=False)
        return raw


def _clip(b: Box, w: int, h: int) -> Box | None:
    c = (max(0, b[0]), max(0, b[1]), min(w, b[2]), min(h, b[3]))
    return c if c[0] < c[2] and c[1] < c[3] else None
