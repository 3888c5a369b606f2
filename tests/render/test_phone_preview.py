"""A board made for a phone (issue 10): Discord shows a posted board about ``PREVIEW_WIDTH`` =
400 px wide in a phone's chat, and a player should not need to open it to follow the game.

Measured on every board in a late game (5 players; 3 on Switzerland, its maximum), after scaling
the picture down to 400 px wide with a Lanczos filter as a chat client does:

- every text of the score panel (status, last move, names, scores, counts, deck) has capitals at
  least ``MIN_PREVIEW_CAP_PX`` = 7 px tall, computed from the fonts the panel drew with, and its
  glyphs measure at least that tall in the downscaled picture (the legend and data notes are detail
  for the zoomed picture and exempt);
- the last move's magenta mark is at least 2 px wide beside the route, and magenta appears nowhere
  else on the map;
- every route, claimed or free, reads as what it is: sampled on its cars, a claimed route's colour
  is nearest to its owner's colour, a free route's nearest to a free route's look;
- player colours stay well apart from every route colour, for normal and colour-deficient vision.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from typing import Any

import pytest
from PIL import Image, ImageFont
from ttr_render_helpers import CVD_MATRICES, delta_e, delta_e_lab, preview, simulate_cvd

import render.ttr_panel as panel_module
from render import common
from render.common import MIN_PREVIEW_CAP_PX, PREVIEW_WIDTH
from render.ttr import snapshot_image, snapshot_layout, snapshot_panel
from render.ttr_board import FREE_BAND, free_centre
from render.ttr_panel import panel_blocks
from rules.ttr.board import Track, load_board

View = dict[str, Any]
BOARD_PLAYERS = (("usa", 5), ("europe", 5), ("switzerland", 3), ("germany", 5))
NAMES = ["Ada", "Brunel", "Stephenson", "Trevithick", "Zoë"]
#: Width of the last move's magenta band that must show beside the route in the preview.
MIN_MARK_PX = 2
#: How close (RGB distance) a preview pixel must be to the highlight to count as the mark.
MARK_TOLERANCE = 40


def _late_game(board: str, players: int) -> list[View]:
    from bot.commands.render import play_ai_game

    _, views = play_ai_game(board, players, 7, None, collect=True)
    return views


@pytest.fixture(scope="module")
def late_games() -> dict[str, list[View]]:
    return {board: _late_game(board, players) for board, players in BOARD_PLAYERS}


def _last_claim(views: list[View], max_length: int | None = None) -> View:
    """The latest view whose last move claimed a route (of at most ``max_length`` spaces)."""
    for v in reversed(views):
        last = v.get("last_action") or {}
        if last.get("kind") != "claim":
            continue
        track = load_board(v["board"]).track_by_id[last["tracks"][0].lower()]
        if max_length is None or track.length <= max_length:
            return v
    raise AssertionError("no such claim in the game")


# --- Score panel text ----------------------------------------------------------------------------


def _drawn_texts(
    view: View, monkeypatch: pytest.MonkeyPatch
) -> tuple[Image.Image, list[tuple[str, ImageFont.FreeTypeFont, tuple[float, float], str]]]:
    """The snapshot of ``view`` and every text its panel draws (text, font, anchor point in the
    whole picture, anchor), each panel block drawn afresh with the text calls recorded."""
    img = snapshot_image(view, NAMES)
    map_h = snapshot_layout(view["board"]).height
    calls: list[tuple[str, ImageFont.FreeTypeFont, tuple[float, float], str]] = []
    real = panel_module.draw_text
    origin = [0, 0]

    def record(
        img: Image.Image,
        xy: tuple[float, float],
        text: str,
        font: ImageFont.FreeTypeFont,
        fill: common.RGB,
        anchor: str = "la",
    ) -> None:
        calls.append((text, font, (xy[0] + origin[0], xy[1] + origin[1]), anchor))
        real(img, xy, text, font, fill, anchor)

    monkeypatch.setattr(panel_module, "draw_text", record)
    for block in panel_blocks(snapshot_panel(view, NAMES), view):
        x0, y0, x1, y1 = block.box
        origin[:] = [x0, map_h + y0]
        block.draw(Image.new("RGB", (x1 - x0, y1 - y0), common.PANEL_BG))
    return img, calls


def _ink_height(small: Image.Image, box: tuple[float, float, float, float]) -> int:
    """Rows of ``box`` (preview pixels) holding ink: pixels whose contrast with the box's commonest
    colour (the background) is at least half the strongest contrast in the box."""
    crop = small.crop((math.floor(box[0]), math.floor(box[1]), math.ceil(box[2]), math.ceil(box[3])))
    pixels = list(crop.get_flattened_data())
    background = max(set(pixels), key=pixels.count)

    def contrast(p: tuple[int, ...]) -> int:
        return max(abs(a - b) for a, b in zip(p, background, strict=False))

    strongest = max(contrast(p) for p in pixels)
    if strongest < 60:  # the text is gone
        return 0
    rows = {i // crop.width for i, p in enumerate(pixels) if contrast(p) >= strongest / 2}
    return max(rows) - min(rows) + 1


@pytest.mark.parametrize(("board", "players"), BOARD_PLAYERS)
def test_panel_text_is_legible_in_the_phone_preview(
    board: str, players: int, late_games: dict[str, list[View]], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every panel text a player reads at a glance keeps >= 7 px capitals at 400 px wide: by the
    font it was drawn with, and measured on the glyphs in the downscaled picture."""
    view = _last_claim(late_games[board])
    img, calls = _drawn_texts(view, monkeypatch)
    fonts = snapshot_panel(view, NAMES).fonts
    legible = {id(f) for f in fonts.legible()}
    small, scale = preview(img, PREVIEW_WIDTH)
    texts = [c for c in calls if id(c[1]) in legible]
    exempt = [c for c in calls if id(c[1]) not in legible]
    assert all(f is fonts.small for _, f, _, _ in exempt)  # only the legend and notes are exempt
    names_drawn = {t for t, _, _, _ in texts}
    assert any(t == "LAST MOVE" for t in names_drawn) and any(t.endswith(NAMES[0]) for t in names_drawn)
    assert len(texts) >= 6 * players  # a name and five figures per player at least
    for text, fnt, (x, y), anchor in texts:
        box = fnt.getbbox("H")
        cap = (box[3] - box[1]) * scale
        assert cap >= MIN_PREVIEW_CAP_PX, (text, fnt.size, cap)
        left, top, right, bottom = fnt.getbbox(text, anchor=anchor)
        glyphs = (
            (x + left) * scale - 1,
            (y + top) * scale - 1,
            (x + right) * scale + 1,
            (y + bottom) * scale + 1,
        )
        assert _ink_height(small, glyphs) >= MIN_PREVIEW_CAP_PX, (text, glyphs)


def test_text_measure_fails_on_text_too_small() -> None:
    """The glyph measurement itself: a 14 px text on a 1240 px image is 3 px tall in the preview."""
    img = Image.new("RGB", (1240, 200), common.PANEL_BG)
    fnt = common.font(14, "bold")
    common.draw_text(img, (100, 100), "Score 46", fnt, common.TEXT, "lm")
    small, scale = preview(img, PREVIEW_WIDTH)
    left, top, right, bottom = fnt.getbbox("Score 46", anchor="lm")
    box = (
        (100 + left) * scale - 1,
        (100 + top) * scale - 1,
        (100 + right) * scale + 1,
        (100 + bottom) * scale + 1,
    )
    assert 0 < _ink_height(small, box) < MIN_PREVIEW_CAP_PX


def test_legible_size_meets_the_minimum_at_every_width() -> None:
    for width in (400, 620, 800, 1100, 1240, 1620, 2000):
        for weight in ("regular", "bold", "condensed"):
            size = common.legible_size(width, weight)
            assert common.cap_height(size, weight) * PREVIEW_WIDTH / width >= MIN_PREVIEW_CAP_PX
            assert common.cap_height(size - 1, weight) * PREVIEW_WIDTH / width < MIN_PREVIEW_CAP_PX


@pytest.mark.parametrize(("board", "players"), BOARD_PLAYERS)
def test_panel_sits_under_the_map_at_the_map_width(
    board: str, players: int, late_games: dict[str, list[View]]
) -> None:
    """The portrait layout: the picture is as wide as the map (no side panel), so the preview
    scales it down less, and the panel is below the map."""
    view = _last_claim(late_games[board])
    img = snapshot_image(view, NAMES)
    lay = snapshot_layout(board)
    assert img.width == lay.width
    assert img.height == lay.height + snapshot_panel(view, NAMES).height


# --- The last move's mark ------------------------------------------------------------------------


def _is_mark(p: tuple[int, ...]) -> bool:
    return sum((a - b) ** 2 for a, b in zip(p, common.HIGHLIGHT, strict=False)) <= MARK_TOLERANCE**2


def _band_beside(small: Image.Image, x: float, y: float, ang: float, start: float, reach: float) -> int:
    """The longest run of mark pixels walking across the car at (x, y) from ``start`` to ``reach``
    preview pixels from its centre line, on either side."""
    nx, ny = -math.sin(math.radians(ang)), math.cos(math.radians(ang))
    best = 0
    for side in (1, -1):
        run = 0
        d = start
        while d <= reach:
            px, py = round(x + side * nx * d), round(y + side * ny * d)
            if 0 <= px < small.width and 0 <= py < small.height and _is_mark(small.getpixel((px, py))):
                run += 1
                best = max(best, run)
            else:
                run = 0
            d += 1
    return best


def _mark_check(view: View, track_id: str | None = None) -> tuple[list[int], int]:
    """(magenta band width beside each car of the last route, or of ``track_id``, and magenta
    pixels elsewhere on the map)."""
    board = load_board(view["board"])
    track: Track = board.track_by_id[(track_id or view["last_action"]["tracks"][0]).lower()]
    img = snapshot_image(view, NAMES)
    lay = snapshot_layout(board.id)
    small, s = preview(img, PREVIEW_WIDTH)
    bands = [
        _band_beside(small, x * s, y * s, ang, 0, lay.car_w * 2.5 * s) for x, y, ang in lay.space_xy(track)
    ]
    # Anywhere farther from the route than its ring could reach is "elsewhere".
    reach = (lay.car_len * (track.length + 2) / 2 + 12 * lay.width / PREVIEW_WIDTH) * s
    pts = [(x * s, y * s) for x, y, _ in lay.space_xy(track)]
    cx, cy = sum(p[0] for p in pts) / len(pts), sum(p[1] for p in pts) / len(pts)
    map_h = round(lay.height * s)
    stray = sum(
        1
        for yy in range(map_h)
        for xx in range(small.width)
        if math.hypot(xx - cx, yy - cy) > reach and _is_mark(small.getpixel((xx, yy)))
    )
    return bands, stray


@pytest.mark.parametrize(("board", "players"), BOARD_PLAYERS)
@pytest.mark.parametrize("short", [False, True], ids=["latest", "short"])
def test_last_move_mark_shows_in_the_phone_preview(
    board: str, players: int, short: bool, late_games: dict[str, list[View]]
) -> None:
    """The last claim glows magenta at least 2 px wide beside at least two thirds of its cars at
    400 px wide (a neighbouring claim or a city name may cover the rest), also for a one- or
    two-space route, and magenta marks nothing else on the map."""
    view = _last_claim(late_games[board], 2 if short else None)
    bands, stray = _mark_check(view)
    shown = sum(1 for b in bands if b >= MIN_MARK_PX)
    assert shown * 3 >= 2 * len(bands), bands
    assert stray == 0


def test_mark_check_fails_without_a_mark(late_games: dict[str, list[View]]) -> None:
    """The measurement can fail: the same position drawn with no last move shows no band there."""
    view = _last_claim(late_games["europe"])
    track_id = view["last_action"]["tracks"][0]
    quiet = {
        **view,
        "last_action": {"seat": 0, "kind": "draw", "text": "drew 2 cards", "tracks": [], "cities": []},
    }
    bands, _ = _mark_check(quiet, track_id)
    assert max(bands) < MIN_MARK_PX


# --- Claimed and free routes ---------------------------------------------------------------------


def _free_look(colour: common.RGB) -> common.RGB:
    """What a free space of ``colour`` averages to: its coloured band and its pale centre."""
    centre = free_centre(colour)
    return (
        round(colour[0] * 2 * FREE_BAND + centre[0] * (1 - 2 * FREE_BAND)),
        round(colour[1] * 2 * FREE_BAND + centre[1] * (1 - 2 * FREE_BAND)),
        round(colour[2] * 2 * FREE_BAND + centre[2] * (1 - 2 * FREE_BAND)),
    )


def _car_samples(
    small: Image.Image, s: float, car_len: float, track: Track, lay_xy: list[tuple[float, float, float]]
) -> Iterator[tuple[int, ...]]:
    """Preview pixels on each car, two on either side of its middle (the middle carries the letter
    or seat number)."""
    for x, y, ang in lay_xy:
        for f in (-0.38, -0.22, 0.22, 0.38):
            px = x + math.cos(math.radians(ang)) * car_len * f
            py = y + math.sin(math.radians(ang)) * car_len * f
            yield small.getpixel((min(small.width - 1, int(px * s)), min(small.height - 1, int(py * s))))


@pytest.mark.parametrize(("board", "players"), BOARD_PLAYERS)
def test_claimed_routes_never_read_as_free_routes_in_the_preview(
    board: str, players: int, late_games: dict[str, list[View]]
) -> None:
    """At 400 px wide, each route's cars are nearest in colour (CIEDE2000) to what it is: a claimed
    route to its owner's colour, a free one to a free route's look: on at least half the samples
    of every route (a city dot or name covers part of some), and on 95% of all samples."""
    view = _last_claim(late_games[board])
    b = load_board(board)
    lay = snapshot_layout(board)
    small, s = preview(snapshot_image(view, NAMES), PREVIEW_WIDTH)
    refs = [("claimed", seat, colour) for seat, colour in enumerate(common.PLAYER_COLOURS)]
    refs += [("free", -1, _free_look(colour)) for colour in common.ROUTE_COLOURS.values()]
    claims = {tid.lower(): int(seat) for tid, seat in view["claims"].items()}
    right = total = 0
    for track in b.tracks:
        seat = claims.get(track.id.lower())
        want = ("claimed", seat) if seat is not None else ("free", -1)
        votes = [
            min(refs, key=lambda r: delta_e(p, r[2]))[:2]
            for p in _car_samples(small, s, lay.car_len, track, lay.space_xy(track))
        ]
        assert votes.count(want) * 2 >= len(votes), (track.id, want, votes)
        right += votes.count(want)
        total += len(votes)
    assert right >= 0.95 * total
    assert len(claims) >= 40  # a late game: most routes claimed


def test_player_colours_stand_apart_from_route_colours() -> None:
    """Each player colour is at least 20 CIEDE2000 from every route colour and from the marks
    (last move, longest trail); pairwise at least 30; and at least 15 apart for protanopes,
    deuteranopes and tritanopes (the first palette had 5-11 to the route colours)."""
    players = common.PLAYER_COLOURS
    assert len(players) == 5 and len(set(players)) == 5
    marks = [*common.ROUTE_COLOURS.values(), common.HIGHLIGHT, common.TRAIL, common.LAND, common.SEA]
    for p in players:
        assert min(delta_e(p, m) for m in marks) >= 20, p
    for i, a in enumerate(players):
        for b in players[i + 1 :]:
            assert delta_e(a, b) >= 30, (a, b)
            for kind in CVD_MATRICES:
                assert delta_e(simulate_cvd(kind, a), simulate_cvd(kind, b)) >= 15, (kind, a, b)


def test_delta_e_matches_published_values() -> None:
    """CIEDE2000 pairs 1, 4 and 34 of Sharma, Wu and Dalal's test data."""
    assert delta_e_lab((50, 2.6772, -79.7751), (50, 0, -82.7485)) == pytest.approx(2.0425, abs=1e-4)
    assert delta_e_lab((50, -1.3802, -84.2814), (50, 0, -82.7485)) == pytest.approx(1.0000, abs=1e-4)
    assert delta_e_lab((2.0776, 0.0795, -1.1350), (0.9033, -0.0636, -0.5514)) == pytest.approx(
        0.9082, abs=1e-4
    )
