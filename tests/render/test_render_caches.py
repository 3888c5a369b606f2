"""The speed-ups of the renderer keep the picture: the fixed palette keeps flat colours exact and
stays close to the drawn image, and every cache (text masks, trimmed car stamps, the cut city
overlay, fitted text, composed maps, compressed rows) produces the same pixels as drawing afresh."""

from __future__ import annotations

import io
import math
import random
import zlib
from typing import Any

import pytest
from PIL import Image, ImageChops, ImageDraw
from ttr_render_helpers import decode, mean_abs_diff, synthetic_view

from render import common
from render.compose import ComposeCache, Placed, draw_all, png_rows
from render.png import BandEncoder, adler32_combine
from render.ttr import (
    BOARD_ENCODER,
    EXACT_COLOURS,
    MAP_CACHE,
    clear_board_caches,
    default_map_width,
    image_palette,
    render_board,
    snapshot_image,
    snapshot_layout,
)
from render.ttr_board import free_centre, overlay_pieces, static_layers


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
    flat = [
        common.LAND,
        common.SEA,
        common.PANEL_BG,
        common.TEXT,
        *common.PLAYER_COLOURS,
        *common.ROUTE_COLOURS.values(),
    ]
    flat += [free_centre(c) for c in common.ROUTE_COLOURS.values()]  # free spaces' large pale centres
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
        args = (
            38,
            17,
            angle,
            common.PLAYER_COLOURS[1],
            (20, 20, 20),
            1.5,
            "2",
            (20, 20, 20),
            (255, 255, 255),
        )
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


# --- Drawing only what changed, compressing only what changed -------------------------------------


def _game_views(board: str, players: int, seed: int) -> list[dict[str, Any]]:
    from bot.commands.render import play_ai_game

    _, views = play_ai_game(board, players, seed, None, collect=True)
    return views


def _on_palette(view: dict[str, Any]) -> bytes:
    """The snapshot drawn from scratch, mapped to the board's palette, as RGB bytes."""
    palette = image_palette("board", view["board"], default_map_width(view["board"]))
    return palette.apply(snapshot_image(view)).convert("RGB").tobytes()


@pytest.mark.slow
def test_board_png_is_the_snapshot_drawn_from_scratch_whatever_the_caches_hold() -> None:
    """render_board repaints only what changed since a recent board and compresses only changed
    rows; in game order, backwards, and with two games interleaved, every PNG holds exactly the
    palette-mapped snapshot drawn from scratch, and the same bytes as a render with empty caches."""
    europe = _game_views("europe", 4, 3)[::9]
    usa = _game_views("usa", 3, 4)[::11]
    interleaved = [v for pair in zip(europe, usa, strict=False) for v in pair]
    clear_board_caches()
    for views in (europe, europe[::-1], interleaved):
        for view in views:
            data = render_board(view)
            assert decode(data).tobytes() == _on_palette(view)
            clear_board_caches()
            assert render_board(view) == data  # the file depends only on the view
            render_board(views[0])  # leave the caches holding another position
    assert MAP_CACHE.stats["partial"] > 0 and BOARD_ENCODER.stats["reused"] > 0


def test_consecutive_positions_repaint_a_small_part_of_the_map() -> None:
    views = _game_views("europe", 5, 7)
    clear_board_caches()
    render_board(views[-41])
    before = dict(MAP_CACHE.stats)
    for view in views[-40:]:
        render_board(view)
    w = default_map_width("europe")
    map_px = w * snapshot_layout("europe").height
    assert MAP_CACHE.stats["full"] == before["full"]  # never redrawn whole
    assert MAP_CACHE.stats["repainted_px"] - before["repainted_px"] < 0.05 * 40 * map_px


def test_claims_are_drawn_in_board_order_whatever_the_view_lists() -> None:
    view = synthetic_view("usa", 4)
    shuffled = dict(reversed(list(view["claims"].items())))
    assert render_board({**view, "claims": shuffled}) == render_board(view)


def _stamp(key: int, x: int, y: int, colour: tuple[int, int, int], size: int) -> Placed:
    mask = Image.new("L", (size, size), 0)
    ImageDraw.Draw(mask).ellipse((0, 0, size - 1, size - 1), fill=200)
    return Placed(key, Image.new("RGB", (size, size), colour), mask, x, y)


def test_compose_cache_matches_drawing_from_scratch() -> None:
    """Random sets of overlapping stamps, each composed from whatever the cache holds: always the
    same rows as the background with every stamp pasted in order."""
    rng = random.Random(11)
    background = Image.new("RGB", (160, 90), (200, 190, 170))
    ImageDraw.Draw(background).line((0, 0, 160, 90), fill=(30, 60, 200), width=5)
    palette = common.build_palette([background], [(200, 190, 170), (30, 60, 200), (255, 0, 0), (0, 128, 0)])
    pool = [
        _stamp(
            k,
            rng.randrange(-10, 150),
            rng.randrange(-10, 80),
            rng.choice([(255, 0, 0), (0, 128, 0)]),
            rng.randrange(6, 30),
        )
        for k in range(40)
    ]
    cache = ComposeCache(size=3)
    for _ in range(60):
        stamps = sorted(rng.sample(pool, rng.randrange(0, 25)), key=lambda s: s.key)
        want = background.copy()
        draw_all(want, stamps)
        assert cache.compose("bg", background, stamps, palette) == png_rows(palette.apply(want))
    assert cache.stats["partial"] > 0


def test_compose_cache_refuses_duplicate_keys() -> None:
    s = _stamp(1, 0, 0, (255, 0, 0), 5)
    with pytest.raises(ValueError):
        ComposeCache().compose(
            "bg", Image.new("RGB", (10, 10)), [s, s], common.build_palette([Image.new("RGB", (4, 4))], [])
        )


def test_band_encoder_writes_the_pixels_pillow_would() -> None:
    """The PNG decodes to the image's own palette indices and colours; encoding the same picture
    again reuses every band and gives the same bytes as a fresh encoder."""
    rng = random.Random(3)
    img = Image.new("P", (97, 131))
    img.putdata([rng.randrange(7) if (i // 97) % 20 < 10 else 3 for i in range(97 * 131)])
    img.putpalette([v for i in range(7) for v in (i * 30, 255 - i * 30, (i * 70) % 256)])
    encoder = BandEncoder(band_rows=16)
    data = encoder.encode(img)
    back = Image.open(io.BytesIO(data))
    back.load()
    assert back.mode == "P" and back.size == img.size
    assert back.tobytes() == img.tobytes()
    assert back.convert("RGB").tobytes() == img.convert("RGB").tobytes()
    reused = encoder.stats["reused"]
    assert encoder.encode(img) == data == BandEncoder(band_rows=16).encode(img)
    assert encoder.stats["reused"] - reused == math.ceil(131 / 16)
    changed = img.copy()
    changed.putpixel((50, 70), 6)
    again = encoder.encode(changed)
    assert decode_p(again) == changed.tobytes()
    assert encoder.stats["reused"] - reused == 2 * math.ceil(131 / 16) - 1  # only row band 4 redone


def decode_p(data: bytes) -> bytes:
    with Image.open(io.BytesIO(data)) as im:
        im.load()
        return im.tobytes()


def test_adler32_combine_matches_zlib() -> None:
    rng = random.Random(9)
    for _ in range(50):
        a = rng.randbytes(rng.randrange(0, 5000))
        b = rng.randbytes(rng.randrange(0, 90000))
        assert adler32_combine(zlib.adler32(a), zlib.adler32(b), len(b)) == zlib.adler32(a + b)


def test_band_encoder_refuses_other_modes_and_short_rows() -> None:
    with pytest.raises(ValueError):
        BandEncoder().encode(Image.new("RGB", (4, 4)))
    with pytest.raises(ValueError):
        BandEncoder().encode_rows(4, 4, b"\0" * 10, [0, 0, 0])


def test_a_last_move_naming_a_city_twice_is_drawn() -> None:
    """A Märklin passenger journey can pass a city twice; its last-move ring is drawn once."""
    view = synthetic_view("germany", 3)
    city = next(iter(view["passengers"]))
    view["last_action"] = {
        "seat": 0,
        "kind": "passenger",
        "text": "passenger",
        "tracks": [],
        "cities": [city, "Kassel", city],
    }
    assert decode(render_board(view)).tobytes() == _on_palette(view)
