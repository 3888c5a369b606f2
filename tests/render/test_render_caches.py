"""The speed-ups of the renderer keep the picture: the fixed palette keeps flat colours exact and
stays close to the drawn image, and every cache (text masks, trimmed car stamps, the cut city
overlay, fitted text) produces the same pixels as drawing afresh."""

from __future__ import annotations

import random

import pytest
from PIL import Image, ImageChops, ImageDraw
from ttr_render_helpers import decode, mean_abs_diff, synthetic_view

from render import common
from render.ttr import EXACT_COLOURS, image_palette, render_board, snapshot_image
from render.ttr_board import overlay_pieces, static_layers


def _large_error_share(a: Image.Image, b: Image.Image, threshold: int = 24) -> float:
    hist = ImageChops.difference(a, b).convert("L").histogram()
    return sum(hist[threshold:]) / sum(hist)


def _through(palette: common.FixedPalette, colours: list[common.RGB]) -> list[tuple[int, ...]]:
    swatch = Image.new("RGB", (len(colours), 1))
    swatch.putdata(colours)
    raw = palette.apply(swatch).convert("RGB").tobytes()
    return [tuple(raw[i : i + 3]) for i in range(0, len(raw), 3)]


def test_fixed_palette_keeps_flat_colours_exact() -> None:
    """Land, sea, panel, player and route colours come out unchanged (Pillow's own palette lookup
    would move them to a neighbouring entry); two kept colours closer than 4 levels share one."""
    palette = image_palette("board", "europe", 620)
    flat = [common.LAND, common.SEA, common.PANEL_BG, common.TEXT, *common.PLAYER_COLOURS, *common.ROUTE_COLOURS.values()]
    assert _through(palette, flat) == [tuple(c) for c in flat]
    for want, got in zip(EXACT_COLOURS, _through(palette, list(EXACT_COLOURS)), strict=True):
        assert max(abs(a - b) for a, b in zip(want, got, strict=True)) <= 3, (want, got)


@pytest.mark.parametrize("board", ["usa", "germany"])
def test_encoded_board_stays_close_to_the_drawn_board(board: str) -> None:
    """The 256-colour PNG differs from the full-colour drawing by well under one level on average,
    and few pixels (anti-aliased edges only) differ visibly."""
    view = synthetic_view(board, 5)
    drawn = snapshot_image(view, width=620)
    encoded = decode(render_board(view, width=620))
    assert mean_abs_diff(drawn, encoded) < 1.2
    assert _large_error_share(drawn, encoded) < 0.005


def test_board_palette_is_built_once_per_board_and_size() -> None:
    image_palette("board", "usa", 620)
    before = image_palette.cache_info()
    render_board(synthetic_view("usa", 3), width=620)
    after = image_palette.cache_info()
    assert after.hits == before.hits + 1 and after.misses == before.misses


def test_cached_text_is_pixel_identical_to_imagedraw() -> None:
    rng = random.Random(5)
    texts = ["Player 1", "▶ Ada", "45 trains · 3 cards · 2 tickets", "Zürich – Genève", "×3", "+12"]
    for _ in range(60):
        fnt = common.font(rng.choice([13, 16, 22, 30]), rng.choice(["regular", "bold", "condensed"]))
        text = rng.choice(texts)
        anchor = rng.choice(["la", "lm", "mm", "rm", "ra", "ma"])
        xy = (rng.uniform(60, 200), rng.uniform(40, 160))
        fill = (rng.randrange(256), rng.randrange(256), rng.randrange(256))
        want = Image.new("RGB", (320, 200), common.PANEL_BG)
        ImageDraw.Draw(want).text(xy, text, font=fnt, fill=fill, anchor=anchor)
        got = Image.new("RGB", (320, 200), common.PANEL_BG)
        common.draw_text(got, xy, text, fnt, fill, anchor)
        assert got.tobytes() == want.tobytes(), (text, anchor, xy)


def test_trimmed_car_tile_pastes_like_the_whole_stamp() -> None:
    for angle in (0, 30, 45, 90, 135):
        args = (38, 17, angle, common.PLAYER_COLOURS[1], (20, 20, 20), 1.5, "2", (20, 20, 20), (255, 255, 255))
        want = Image.new("RGB", (80, 80), common.LAND)
        common.paste_centred(want, common.car_stamp(*args), 40.4, 39.6)
        got = Image.new("RGB", (80, 80), common.LAND)
        common.paste_tile(got, common.car_tile(*args), 40.4, 39.6)
        assert got.tobytes() == want.tobytes(), angle
        assert common.car_tile(*args).image.width * common.car_tile(*args).image.height < 80 * 80


def test_city_overlay_pieces_paste_like_the_whole_overlay() -> None:
    base, over = static_layers("switzerland", 620)
    want = base.copy()
    want.paste(over, (0, 0), over)
    got = base.copy()
    pieces = overlay_pieces("switzerland", 620)
    for piece, coverage, corner in pieces:
        got.paste(piece, corner, coverage)
    assert got.tobytes() == want.tobytes()
    assert sum(p.width * p.height for p, _, _ in pieces) < over.width * over.height / 2


def test_long_notes_are_fitted_once() -> None:
    """Shortening a note measures it once per character removed; the next turn reuses the result."""
    note = "Note: " + "a long caveat about the stand-in ticket deck " * 6
    fnt = common.font(13)
    first = common.fit_text(note, fnt, 300)
    hits = common.fit_text.cache_info().hits
    assert common.fit_text(note, fnt, 300) == first and first.endswith("…")
    assert common.fit_text.cache_info().hits == hits + 1
