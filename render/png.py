"""A palette-PNG writer that compresses only the rows that changed since the last pictures.

Successive board pictures of a game differ in a few places (the new claim, the last-move glow,
the panel's figures), yet a PNG encoder compresses every row every time, and that was a third of
a board's CPU. The image data of a PNG is one zlib stream of its rows (each prefixed with a filter
byte, 0 here). This writer cuts the rows into bands, compresses each band on its own as raw
deflate ending on a full flush (so a band's bytes do not depend on the bands before it), and keeps
each band's compressed bytes keyed by position with the raw bytes they came from. A band whose raw
bytes are exactly those of a kept one (compared byte for byte) is not compressed again. The
stream is the bands' compressed bytes in order, a final empty block, and the Adler-32 of all the
raw bytes, combined from the bands' own checksums.

Pillow decodes the result; the tests check it pixel for pixel against the same picture saved by
Pillow, and that reused and fresh bands give the same file.
"""

from __future__ import annotations

import struct
import threading
import zlib
from collections import OrderedDict
from collections.abc import Sequence

from PIL import Image

#: Rows per band: small enough that a change repaints little, large enough to compress well.
BAND_ROWS = 32
#: zlib level of bands that usually stay the same from one picture to the next (a board's map):
#: they are compressed once and reused, so they can afford a slower level whose files are smaller.
#: On a late Europe board, map bands at level 4 and panel bands at 1 give 216 KB in 11 ms when no
#: band is reused; level 6 gives 212 KB in 15 ms, level 3 225 KB in 9.5 ms.
LEVEL = 4
#: zlib level of bands that change with every picture (a board's panel of figures): mostly flat
#: background, where level 1 is 5% larger and twice as fast.
FAST_LEVEL = 1
#: Kept band variants per (width, first row, level): a few recent positions of a few games (each
#: variant keeps its raw rows to compare, about 40 KB; some 20 MB for all the boards).
KEEP = 4
#: Band positions kept (width, first row, level): the bands of a few board sizes.
MAX_POSITIONS = 256
_ADLER_BASE = 65521
_FINAL_EMPTY_BLOCK = b"\x03\x00"  # a final, empty, fixed-Huffman deflate block


def adler32_combine(adler1: int, adler2: int, len2: int) -> int:
    """The Adler-32 of A + B from those of A and B and B's length (as zlib's adler32_combine)."""
    rem = len2 % _ADLER_BASE
    sum1 = adler1 & 0xFFFF
    sum2 = (rem * sum1) % _ADLER_BASE
    sum1 += (adler2 & 0xFFFF) + _ADLER_BASE - 1
    sum2 += ((adler1 >> 16) & 0xFFFF) + ((adler2 >> 16) & 0xFFFF) + _ADLER_BASE - rem
    sum1 %= _ADLER_BASE
    sum2 %= _ADLER_BASE
    return sum1 | (sum2 << 16)


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(data, zlib.crc32(kind)))


class BandEncoder:
    """Encodes palette images as PNG, reusing the compressed bands of recent ones."""

    def __init__(
        self, band_rows: int = BAND_ROWS, level: int = LEVEL, fast_level: int = FAST_LEVEL, keep: int = KEEP
    ) -> None:
        self.band_rows = band_rows
        self.level = level
        self.fast_level = fast_level
        self.keep = keep
        self._bands: OrderedDict[tuple[int, int, int], list[tuple[bytes, bytes, int]]] = OrderedDict()
        # Renders may run in threads: the bookkeeping is locked, the compressing is not.
        self._lock = threading.Lock()
        self.stats = {"bands": 0, "reused": 0}

    def clear(self) -> None:
        with self._lock:
            self._bands.clear()

    def _band(self, width: int, top: int, raw: bytes, level: int) -> tuple[bytes, int]:
        """(compressed bytes, Adler-32) of one band's raw rows. The level is part of the key, so
        the same rows always give the same bytes: the file depends only on the picture."""
        key = (width, top, level)
        with self._lock:
            self.stats["bands"] += 1
            kept = self._bands.get(key)
            if kept is not None:
                for i, (old_raw, packed, adler) in enumerate(kept):
                    if old_raw == raw:
                        kept.insert(0, kept.pop(i))
                        self._bands.move_to_end(key)
                        self.stats["reused"] += 1
                        return packed, adler
        comp = zlib.compressobj(level, zlib.DEFLATED, -15, 9, zlib.Z_DEFAULT_STRATEGY)
        packed = comp.compress(raw) + comp.flush(zlib.Z_FULL_FLUSH)
        adler = zlib.adler32(raw)
        with self._lock:
            variants = self._bands.setdefault(key, [])
            self._bands.move_to_end(key)
            variants.insert(0, (raw, packed, adler))
            del variants[self.keep :]
            # Long-unused positions (another width, another layout) are dropped first.
            while len(self._bands) > MAX_POSITIONS:
                self._bands.popitem(last=False)
        return packed, adler

    def encode(self, img: Image.Image) -> bytes:
        """``img`` (mode "P", at most 256 colours) as PNG bytes."""
        if img.mode != "P":
            raise ValueError(f"BandEncoder encodes palette images, not {img.mode!r}")
        # One extra column of zeros on the left: each row then starts with PNG's filter byte 0
        # (no filter), and the image's bytes are the PNG's raw stream as they are.
        w, h = img.size
        framed = Image.new("P", (w + 1, h), 0)
        framed.paste(img, (1, 0))
        return self.encode_rows(w, h, framed.tobytes(), img.getpalette() or [])

    def encode_rows(
        self, width: int, height: int, raw: bytes, palette: Sequence[int], changing_from: int | None = None
    ) -> bytes:
        """A palette PNG from its rows (each a filter byte 0 and ``width`` palette indices) and its
        palette (flat R, G, B values, at most 256 colours). Bands from row ``changing_from`` down
        are expected to change with every picture and are compressed at :data:`FAST_LEVEL`."""
        stride = width + 1
        if len(raw) != stride * height:
            raise ValueError(f"expected {stride * height} bytes of rows, got {len(raw)}")
        parts: list[bytes] = [b"\x78\x9c"]
        adler = 1
        for top in range(0, height, self.band_rows):
            rows = raw[top * stride : min(height, top + self.band_rows) * stride]
            fast = changing_from is not None and top >= changing_from
            packed, band_adler = self._band(width, top, rows, self.fast_level if fast else self.level)
            parts.append(packed)
            adler = adler32_combine(adler, band_adler, len(rows))
        parts.append(_FINAL_EMPTY_BLOCK)
        parts.append(struct.pack(">I", adler))
        colours = list(palette[: 3 * 256])
        colours += [0] * (3 * 256 - len(colours))  # every index a valid entry
        return b"".join(
            (
                b"\x89PNG\r\n\x1a\n",
                _chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 3, 0, 0, 0)),
                _chunk(b"PLTE", bytes(colours)),
                _chunk(b"IDAT", b"".join(parts)),
                _chunk(b"IEND", b""),
            )
        )
