"""First Class images: golden comparison (decoded pixels, small tolerance), seeded states, speed."""

from __future__ import annotations

import io
import os
from pathlib import Path
from typing import Any

import pytest
from PIL import Image, ImageChops, ImageStat

from render.firstclass import BG, render_player_board, render_table
from rules.firstclass.ai import HeuristicAI, RandomAI
from rules.firstclass.game import FirstClassGame

GOLDEN = Path(__file__).parent / "golden"
# The service adds the seat names to every view it hands a renderer.
NAMES = ["Ada", "Bartholomew Longname", "AI 3 (heuristic)", "Dee"]


def _named(view: dict[str, Any], players: int) -> dict[str, Any]:
    return {**view, "names": NAMES[:players]}


def _state(seed: int, players: int, steps: int, heuristic: bool = True) -> FirstClassGame:
    g = FirstClassGame.new({}, players, seed)
    ais = [HeuristicAI(seed + i) if heuristic else RandomAI(seed + i) for i in range(players)]
    n = 0
    while not g.is_over() and n < steps:
        seat = g.seats_to_act()[0]
        g.apply(seat, ais[seat].choose(g, seat))
        n += 1
    return g


def _decode(data: bytes) -> Image.Image:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    return Image.open(io.BytesIO(data)).convert("RGB")


def _compare(name: str, data: bytes) -> None:
    path = GOLDEN / name
    if os.environ.get("UPDATE_GOLDEN"):
        path.write_bytes(data)
    assert path.exists(), f"missing golden image {path}; run with UPDATE_GOLDEN=1 once and look at it"
    got, want = _decode(data), Image.open(path).convert("RGB")
    assert got.size == want.size
    diff = ImageStat.Stat(ImageChops.difference(got, want)).mean
    assert sum(diff) / 3 < 2.0, f"{name} differs from its golden image (mean {diff})"


def test_golden_player_board() -> None:
    g = _state(7, 4, 150, heuristic=False)
    _compare("firstclass_board.png", render_player_board(_named(g.view(0), 4), 0))


def test_golden_table() -> None:
    g = _state(7, 4, 150, heuristic=False)
    _compare("firstclass_table.png", render_table(_named(g.view(None), 4)))


@pytest.mark.parametrize(("seed", "players", "steps"), [(1, 2, 0), (2, 3, 60), (3, 4, 400), (4, 2, 10_000)])
def test_render_works_for_seeded_states(seed: int, players: int, steps: int) -> None:
    g = _state(seed, players, steps, heuristic=False)
    view = g.view(None)
    table = _decode(render_table(view))
    assert 800 <= table.width <= 1200
    assert table.getpixel((5, table.height - 3)) == BG  # the canvas was tall enough (no black band)
    for seat in range(players):
        board = _decode(render_player_board(g.view(seat), seat))
        assert 800 <= board.width <= 1200 and board.height > 400


def test_board_shows_state_changes() -> None:
    g = _state(5, 2, 0)
    before = _decode(render_player_board(g.view(0), 0))
    g.s["players"][0]["trains"]["upper"] = [12, 7, 4]
    after = _decode(render_player_board(g.view(0), 0))
    assert sum(ImageStat.Stat(ImageChops.difference(before, after)).mean) > 0.5


def test_table_marks_the_card_just_taken() -> None:
    """Issue 30: the table is posted once per turn, so it must show which card that turn took (the
    card has left its row): its face, framed in the taker's colour, beside the Game End cards."""
    g = _state(5, 2, 0)
    while g.view(None)["phase"] == "draft":
        seat = g.seats_to_act()[0]
        g.apply(seat, g.legal_actions(seat)[0])
    before = _decode(render_table(_named(g.view(None), 2)))
    seat = g.seats_to_act()[0]
    card = next(a for a in g.legal_actions(seat) if a.kind == "take").args[0]
    g.apply(seat, g.parse_action(f"take {card}"))
    view = _named(g.view(None), 2)
    assert view["taken_card"]["id"] == card
    after = _decode(render_table(view))
    w = after.width
    corner = (w - 170, after.height - 330, w, after.height - 120)  # right of the Game End cards
    assert sum(ImageStat.Stat(ImageChops.difference(before.crop(corner), after.crop(corner))).mean) > 5
    unmarked = _decode(render_table({**view, "taken_card": None}))
    assert sum(ImageStat.Stat(ImageChops.difference(unmarked.crop(corner), after.crop(corner))).mean) > 5


@pytest.mark.parametrize("language", ["en", "de", "fr", "it"])
def test_the_just_taken_label_fits_for_a_long_name(language: str) -> None:
    """Issue 30: "Just taken by <name>" ran off the table's right edge for a long name in German
    (1000 px): the label is no wider than its room (the card and the free line to its left),
    shortened with "…" when it must be, and stays readable (at least 11 px)."""
    from render.common import pictures
    from render.firstclass import TAKEN_LABEL_ROOM, WIDTH, _font, _text_width, taken_label

    g = _state(5, 2, 0)
    while g.view(None)["phase"] == "draft":
        seat = g.seats_to_act()[0]
        g.apply(seat, g.legal_actions(seat)[0])
    seat = g.seats_to_act()[0]
    card = next(a for a in g.legal_actions(seat) if a.kind == "take").args[0]
    g.apply(seat, g.parse_action(f"take {card}"))
    names = ["Maximiliane Schwarzenberger", "Bartholomäus Oberhuber-Kleinschmidt"]
    view = {**g.view(None), "names": names, "language": language}
    width = 136 + TAKEN_LABEL_ROOM  # the taken card is 136 px wide
    label, size = taken_label(view, seat, width, pictures(language))
    assert _text_width(label, _font(size, True)) <= width and size >= 11, (label, size)
    assert names[seat][:6] in label  # the name is shortened, not dropped
    image = _decode(render_table(view))  # drawn whole: the taker's colour stays off the right edge
    assert image.width == WIDTH
