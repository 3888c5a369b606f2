"""Ticket to Ride renderer: goldens per board, colour-blind glyphs, privacy of the hand image,
summary and replay output, determinism and the CLI subcommands."""

from __future__ import annotations

import inspect
import io
import json
from pathlib import Path
from typing import Any

import pytest
from PIL import Image
from ttr_render_helpers import check_golden, decode, mean_abs_diff, synthetic_view

from render import common
from render.ttr import (
    hand_image,
    render_board,
    render_hand,
    render_replay,
    render_summary,
    replay_frame_count,
    snapshot_image,
    snapshot_layout,
)
from render.ttr_board import layout, static_layer
from rules.ttr.board import BOARD_IDS, CARD_NAMES, COLOURS, load_board

BOARDS = list(BOARD_IDS)
GOLDEN_WIDTH = 620  # small goldens keep the repository light; the drawing code is the same


def _players(board: str) -> int:
    return 3 if board == "switzerland" else 5


# --- Goldens -------------------------------------------------------------------------------------


@pytest.mark.parametrize("board", BOARDS)
def test_board_golden(board: str) -> None:
    data = render_board(synthetic_view(board, _players(board)), ["Ada", "Brunel"], width=GOLDEN_WIDTH)
    check_golden(f"ttr_{board}", data)


@pytest.mark.parametrize("board", BOARDS)
def test_hand_golden(board: str) -> None:
    check_golden(f"ttr_{board}_hand", render_hand(synthetic_view(board, 2, seat=1)))


def test_golden_comparison_notices_a_change() -> None:
    a = decode(render_board(synthetic_view("usa", 2, fill=0.2), width=GOLDEN_WIDTH))
    b = decode(render_board(synthetic_view("usa", 2, fill=0.6), width=GOLDEN_WIDTH))
    assert mean_abs_diff(a, a) == 0
    assert mean_abs_diff(a, b) > 0.5


# --- Colour-blind glyphs -------------------------------------------------------------------------


def test_every_route_colour_has_a_distinct_glyph() -> None:
    route_colours = [*COLOURS, "gray"]
    assert len(route_colours) == 9
    glyphs = [common.ROUTE_GLYPHS[c] for c in route_colours]
    assert all(glyphs) and len(set(glyphs)) == 9
    assert set(common.ROUTE_COLOURS) == set(route_colours)


def test_every_card_has_a_colour_and_glyph() -> None:
    for name in CARD_NAMES:
        assert name in common.CARD_COLOURS and common.CARD_GLYPHS[name]
    assert len({common.CARD_GLYPHS[c] for c in CARD_NAMES}) == len(CARD_NAMES)


def test_player_colours_and_glyphs_are_distinct() -> None:
    """Five seats, five colours, five glyphs; no player colour is a route colour (how far apart
    they are, also for colour-deficient vision, is measured in test_phone_preview)."""
    assert len(common.PLAYER_COLOURS) == 5 and len(set(common.PLAYER_COLOURS)) == 5
    assert len(set(common.PLAYER_GLYPHS)) == 5
    assert not set(common.PLAYER_COLOURS) & set(common.ROUTE_COLOURS.values())


def test_route_glyph_is_drawn_on_each_colour() -> None:
    """Each colour's space really carries its letter: the glyph pixels differ from a blank car."""
    for colour, fill in common.ROUTE_COLOURS.items():
        glyph = common.ROUTE_GLYPHS[colour]
        with_glyph = common.car_stamp(40, 16, 0, fill, (0, 0, 0), 1.0, glyph, common.ink_for(fill))
        blank = common.car_stamp(40, 16, 0, fill, (0, 0, 0), 1.0)
        assert mean_abs_diff(with_glyph, blank) > 0.3, colour


# --- Board snapshot ------------------------------------------------------------------------------


@pytest.mark.parametrize("board", BOARDS)
def test_static_layer_and_layout(board: str) -> None:
    lay = layout(board, 800)
    img = static_layer(board, 800)
    assert img.size == (lay.width, lay.height)
    b = load_board(board)
    assert set(lay.labels) == set(b.city_names)
    for lab in lay.labels.values():  # labels stay (almost) inside the map
        assert lab.box[0] > -5 and lab.box[2] < lay.width + 5


@pytest.mark.parametrize("board", BOARDS)
def test_snapshot_size_and_orientation(board: str) -> None:
    """Every board is as wide as its map with the panel below it: portrait or nearly square, which
    a phone's narrow preview shows larger than the old map-plus-side-panel landscape."""
    img = snapshot_image(synthetic_view(board, _players(board)))
    lay = snapshot_layout(board)
    assert img.width == lay.width and img.height > lay.height
    assert img.width in (1100, 1240)
    if board == "germany":
        assert img.height > 1.8 * img.width  # the tall Märklin map
    else:
        assert 0.9 * img.width <= img.height <= 1.25 * img.width


def test_render_is_deterministic() -> None:
    v = synthetic_view("europe", 4)
    assert render_board(v, width=500) == render_board(v, width=500)


def test_claims_change_the_picture_where_the_track_is() -> None:
    v = synthetic_view("europe", 2, fill=0.1)
    before = snapshot_image(v, width=600)
    board = load_board("europe")
    free = next(t for t in board.tracks if t.id not in v["claims"])
    after = snapshot_image({**v, "claims": {**v["claims"], free.id: 1}}, width=600)
    lay = snapshot_layout("europe", 600)
    x, y, _ = lay.space_xy(free)[0]
    box = (int(x) - 4, int(y) - 4, int(x) + 4, int(y) + 4)
    assert mean_abs_diff(before.crop(box), after.crop(box)) > 10


def test_names_default_and_custom() -> None:
    v = synthetic_view("usa", 3)
    a = snapshot_image(v, None, width=500)
    b = snapshot_image(v, ["Player 1", "Player 2", "Player 3"], width=500)
    c = snapshot_image(v, ["Zed", "Quinn", "Xavier"], width=500)
    assert mean_abs_diff(a, b) == 0
    assert mean_abs_diff(a, c) > 0


def test_spectator_view_with_empty_board() -> None:
    v = synthetic_view("switzerland", 2, fill=0.01)
    v.update(
        claims={},
        last_action=None,
        tunnel=None,
        pending=None,
        final_round=False,
        phase="setup",
        current=None,
        to_act=[0, 1],
    )
    assert decode(render_board(v)).size[0] > 1000


def test_non_ttr_view_is_rejected() -> None:
    with pytest.raises(ValueError):
        render_board({**synthetic_view("usa", 2), "game": "first-class"})


# --- Private hand --------------------------------------------------------------------------------


def test_hand_refuses_spectator_view() -> None:
    with pytest.raises(ValueError):
        render_hand(synthetic_view("europe", 3))


def test_hand_api_takes_only_a_view() -> None:
    """There is no seat argument: a hand can only come from that seat's own view."""
    params = list(inspect.signature(render_hand).parameters)
    assert params == ["view", "names"]


def test_hand_refuses_you_without_seat() -> None:
    v = synthetic_view("europe", 3, seat=1)
    v["seat"] = None
    with pytest.raises(ValueError):
        render_hand(v)


def _real_game(board: str, players: int, seed: int, turns: int | None) -> Any:
    from bot.commands.render import play_ai_game

    game, _ = play_ai_game(board, players, seed, turns)
    return game


def test_hand_from_real_views_shows_only_that_seat() -> None:
    game = _real_game("europe", 3, 11, 40)
    with pytest.raises(ValueError):
        render_hand(game.view(None))
    imgs = [hand_image(game.view(s)) for s in range(3)]
    for s in range(3):
        v = game.view(s)
        assert v["you"] is not None and v["seat"] == s
    # Different seats hold different hands and tickets, so their images differ.
    assert mean_abs_diff(imgs[0], imgs[1]) > 0 and mean_abs_diff(imgs[1], imgs[2]) > 0


def test_board_image_is_the_same_for_every_seat_and_spectators() -> None:
    """The public snapshot never draws anything from view["you"]."""
    game = _real_game("usa", 3, 5, 30)
    spectator = render_board(game.view(None))
    for s in range(3):
        assert render_board(game.view(s)) == spectator


# --- Real engine views on every board ------------------------------------------------------------


@pytest.mark.parametrize(
    ("board", "players"), [("usa", 2), ("europe", 5), ("switzerland", 3), ("germany", 4)]
)
def test_real_game_images(board: str, players: int) -> None:
    game = _real_game(board, players, 3, None)
    assert game.is_over()
    view = game.view(None)
    for data in (render_board(view), render_summary(view), render_hand(game.view(0))):
        img = decode(data)
        assert img.width > 500 and len(data) < 1_500_000


# --- Summary -------------------------------------------------------------------------------------


def test_summary_needs_a_finished_game() -> None:
    with pytest.raises(ValueError):
        render_summary(synthetic_view("usa", 2))


def test_summary_draws_breakdown_and_trail() -> None:
    v = synthetic_view("europe", 3)
    trail = list(v["claims"])[:4]
    v["phase"] = "over"
    v["final"] = [
        {
            "seat": 0,
            "total": 50,
            "rank": 2,
            "breakdown": {"routes": 40, "tickets_won": 20, "tickets_lost": -10},
            "longest_trail": 4,
            "longest_trail_tracks": trail,
        },
        {
            "seat": 1,
            "total": 61,
            "rank": 1,
            "breakdown": {"routes": 45, "tickets_won": 10, "longest_path": 10, "stations": 4, "mystery": -8},
            "longest_trail": 2,
            "longest_trail_tracks": [],
        },
        {"seat": 2, "total": 0, "rank": 3, "breakdown": {}, "longest_trail": 0, "longest_trail_tracks": []},
    ]
    img = decode(render_summary(v, ["Ann", "Bo", "Cy"]))
    assert img.width >= 1000 and img.height > 900


# --- Replay --------------------------------------------------------------------------------------


def test_replay_one_frame_per_claim() -> None:
    base = synthetic_view("usa", 2, fill=0.05)
    tracks = [t.id for t in load_board("usa").tracks if t.id not in base["claims"]][:3]
    views = [base]
    claims = dict(base["claims"])
    for i, tid in enumerate(tracks):
        views.append({**base, "claims": claims, "deck_size": 30 - i})  # a draw: no new frame
        claims = {**claims, tid: i % 2}
        views.append({**base, "claims": claims})
    data = render_replay(views, width=400)
    assert data[:6] in (b"GIF89a", b"GIF87a")
    assert replay_frame_count(data) == 1 + len(tracks)
    with Image.open(io.BytesIO(data)) as im:
        assert im.size[0] == 400  # the map's width: the panel sits under the map
        # Frames are stored as deltas over the previous one; the decoded frames must still be whole.
        first, last = snapshot_image(base, None, 400), snapshot_image(views[-1], None, 400)
        im.seek(0)
        assert mean_abs_diff(im.convert("RGB"), first) < 4.0  # palette quantisation only
        im.seek(im.n_frames - 1)
        frame = im.convert("RGB")
        assert mean_abs_diff(frame, last) < 4.0
        assert mean_abs_diff(frame, last) < mean_abs_diff(frame, first)


def test_replay_rejects_no_views() -> None:
    with pytest.raises(ValueError):
        render_replay([])


# --- CLI -----------------------------------------------------------------------------------------


def test_cli_render_is_deterministic(tmp_path: Path) -> None:
    from bot.cli import main

    a, b = tmp_path / "a.png", tmp_path / "b.png"
    args = ["render", "--map", "europe", "--players", "5", "--seed", "7", "--turns", "60"]
    assert main([*args, "--out", str(a)]) == 0
    assert main([*args, "--out", str(b)]) == 0
    assert a.read_bytes() == b.read_bytes()
    assert main([*args, "--seat", "2", "--out", str(tmp_path / "h.png")]) == 0
    assert (
        main(["render", "--map", "usa", "--players", "2", "--summary", "--out", str(tmp_path / "s.png")]) == 0
    )
    for p in ("h.png", "s.png"):
        assert decode((tmp_path / p).read_bytes()).width > 500


def test_cli_replay_from_ai_game_and_export(tmp_path: Path) -> None:
    from bot.cli import main
    from bot.commands.render import play_ai_game

    out = tmp_path / "g.gif"
    assert (
        main(
            [
                "replay",
                "--map",
                "switzerland",
                "--players",
                "2",
                "--seed",
                "5",
                "--width",
                "360",
                "--out",
                str(out),
            ]
        )
        == 0
    )
    assert replay_frame_count(out.read_bytes()) > 5

    # An export: replay the actions of a short AI game through parse_action.
    from rules.games import new_game
    from rules.ttr.ai import RandomAI

    game = new_game("ttr", {"board": "usa"}, 2, 9)
    bots = [RandomAI(1), RandomAI(2)]
    actions: list[list[Any]] = []
    while not game.is_over() and len(actions) < 120:
        seat = game.seats_to_act()[0]
        action = bots[seat].choose(game, seat)
        actions.append([seat, action.to_text()])
        game.apply(seat, action)
    export = {"game": "ttr", "config": {"board": "usa"}, "players": 2, "seed": 9, "actions": actions}
    src = tmp_path / "export.json"
    src.write_text(json.dumps(export))
    out2 = tmp_path / "e.gif"
    assert main(["replay", "--from", str(src), "--width", "360", "--out", str(out2)]) == 0
    assert replay_frame_count(out2.read_bytes()) >= 2
    _ = play_ai_game  # imported to check the helper is public


def test_cli_replay_rejects_bad_export(tmp_path: Path) -> None:
    from bot.cli import main

    src = tmp_path / "bad.json"
    src.write_text(
        json.dumps(
            {
                "game": "ttr",
                "config": {"board": "usa"},
                "players": 2,
                "seed": 1,
                "actions": [[0, "claim NOPE red=1"]],
            }
        )
    )
    assert main(["replay", "--from", str(src), "--out", str(tmp_path / "x.gif")]) == 2


def test_prewarm_fills_the_static_cache() -> None:
    from render.ttr import prewarm
    from render.ttr_board import static_layers

    prewarm(["usa"])
    before = static_layers.cache_info().hits
    render_board(synthetic_view("usa", 2))
    assert static_layers.cache_info().hits > before


def test_notes_are_shown() -> None:
    v = synthetic_view("germany", 2)
    with_notes = snapshot_image({**v, "notes": ["Stand-in deck: a long caveat about the tickets."]})
    assert with_notes.height > snapshot_image(v).height
