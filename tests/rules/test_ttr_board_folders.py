"""Boards are data: discovered from their folders (built-in and ``CONDUCTOR_BOARD_DIRS``), listed in a
catalog for front ends, and playable from board.toml alone, with any deck make-up."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest
from ttr_helpers import all_cards, check_invariants, check_views

from rules.errors import IllegalAction
from rules.games import game_from_json, new_game
from rules.ttr.ai import RandomAI
from rules.ttr.board import (
    BOARD_DIRS_ENV,
    CARD_INDEX,
    BoardDataError,
    available_boards,
    board_catalog,
    clear_board_caches,
    load_board,
)

# Five cities in a ring with a spur; one double route, one gray route, one tunnel.
MINI_CITIES = [
    ("Alpha", 0.1, 0.1),
    ("Bravo", 0.5, 0.1),
    ("Charlie", 0.9, 0.2),
    ("Delta", 0.7, 0.8),
    ("Echo", 0.2, 0.7),
]
MINI_ROUTES = [  # a, b, length, colour, tunnel, pair id
    ("Alpha", "Bravo", 2, "red", 0, "MN01"),
    ("Alpha", "Bravo", 2, "blue", 0, "MN01"),
    ("Bravo", "Charlie", 3, "blue", 0, "MN02"),
    ("Charlie", "Delta", 1, "gray", 0, "MN03"),
    ("Delta", "Echo", 2, "red", 1, "MN04"),
    ("Echo", "Alpha", 3, "gray", 0, "MN05"),
    ("Bravo", "Delta", 2, "blue", 0, "MN06"),
]
MINI_TICKETS = [
    ("MN-T1", "Alpha", "Charlie", 5),
    ("MN-T2", "Bravo", "Echo", 4),
    ("MN-T3", "Alpha", "Delta", 6),
    ("MN-T4", "Charlie", "Echo", 5),
    ("MN-T5", "Bravo", "Delta", 2),
    ("MN-T6", "Alpha", "Echo", 3),
]
MINI_TOML = """\
name = "Mini Line"
edition = "Test board"
aspect = [800, 600]
players = [2, 3]
trains = 7
deck = { red = 5, blue = 7, locomotive = 4 }
face_up_locomotive_counts_two = true
refresh_on_three = ["locomotive"]
locomotives = "anywhere"
double_routes_min_players = 3
route_points = { 1 = 1, 2 = 2, 3 = 4 }
initial_tickets = { deal = { short = 3 }, keep_min = 1, returned = "bottom" }
draw_tickets = { deal = { short = 2 }, keep_min = 1, returned = "bottom" }
longest_path_bonus = 10
tie_breaks = ["tickets_completed", "longest_path"]
[counts]
train_cards = 16
cities = 5
countries = 0
tracks = 7
routes = 6
spaces = 15
tickets = 6
"""


def write_mini_board(root: Path, board_id: str = "mini", toml: str = MINI_TOML) -> Path:
    """Write a complete small board folder under ``root`` and return it."""
    folder = root / board_id
    folder.mkdir(parents=True)
    (folder / "board.toml").write_text(toml, encoding="utf-8")
    (folder / "cities.csv").write_text(
        "name,x,y,kind\n" + "".join(f"{n},{x},{y},city\n" for n, x, y in MINI_CITIES), encoding="utf-8"
    )
    where = {n: (x, y) for n, x, y in MINI_CITIES}
    routes, spaces, seen = (
        ["a,b,length,color,tunnel,ferry_locos,pair_id\n"],
        ["pair_id,color,space,x,y,angle_deg,track\n"],
        Counter[str](),
    )
    for a, b, length, colour, tunnel, pair in MINI_ROUTES:
        routes.append(f"{a},{b},{length},{colour},{tunnel},0,{pair}\n")
        seen[pair] += 1
        (ax, ay), (bx, by) = where[a], where[b]
        for k in range(1, length + 1):
            # Spaces evenly between the two cities; a parallel track sits a little lower.
            f = (k - 0.5) / length
            x, y = ax + (bx - ax) * f, ay + (by - ay) * f + 0.04 * (seen[pair] - 1)
            spaces.append(f"{pair},{colour},{k},{x:.4f},{y:.4f},0.0,{seen[pair]}\n")
    (folder / "routes.csv").write_text("".join(routes), encoding="utf-8")
    (folder / "spaces.csv").write_text("".join(spaces), encoding="utf-8")
    (folder / "tickets.csv").write_text(
        "ticket_id,a,b,points,kind\n" + "".join(f"{t},{a},{b},{p},short\n" for t, a, b, p in MINI_TICKETS),
        encoding="utf-8",
    )
    return folder


@pytest.fixture
def board_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    root = tmp_path / "boards"
    root.mkdir()
    monkeypatch.setenv(BOARD_DIRS_ENV, str(root))
    clear_board_caches()
    yield root
    clear_board_caches()


def test_builtin_boards_are_discovered_from_their_folders() -> None:
    """Every folder of rules/ttr/maps is a board; the catalog gives name, seats and variants."""
    assert available_boards() == ["usa", "europe", "switzerland", "germany"]
    catalog = {info.id: info for info in board_catalog()}
    assert (catalog["germany"].name, catalog["germany"].min_players, catalog["germany"].max_players) == (
        "Märklin",
        2,
        5,
    )
    assert (catalog["switzerland"].min_players, catalog["switzerland"].max_players) == (2, 3)
    assert list(catalog["switzerland"].variants) == ["digital"]
    assert catalog["usa"].variants == {}


def test_a_board_folder_in_the_environment_is_listed_and_plays_a_whole_game(board_dir: Path) -> None:
    """A board written as data only (5 red + 7 blue + 4 locomotives, 7 trains each) is listed
    after the built-in ones and plays to the end with final scores, conserving its own deck."""
    write_mini_board(board_dir)
    assert available_boards() == ["usa", "europe", "switzerland", "germany", "mini"]
    info = board_catalog()[-1]
    assert (info.id, info.name, info.min_players, info.max_players, info.variants) == (
        "mini",
        "Mini Line",
        2,
        3,
        {},
    )
    g = new_game("ttr", {"board": "mini"}, 2, 5)
    expected = [0] * len(all_cards(g))
    expected[CARD_INDEX["red"]], expected[CARD_INDEX["blue"]], expected[CARD_INDEX["locomotive"]] = 5, 7, 4
    assert all_cards(g) == expected
    ais = [RandomAI(1), RandomAI(2)]
    actions = 0
    while not g.is_over():
        assert actions < 500, "the game does not end"
        seat = g.seats_to_act()[0]
        g.apply(seat, ais[seat].choose(g, seat))
        actions += 1
        check_invariants(g, 7)
        check_views(g)
        assert game_from_json(g.to_json()).to_json() == g.to_json()
    scores = g.final_scores()
    assert [row["total"] for row in scores] == [sum(row["breakdown"].values()) for row in scores]
    assert min(row["rank"] for row in scores) == 1
    assert g.view(None)["final"] == scores
    assert any(o != -1 for o in g.owner), "someone claimed a route"


def test_a_board_folder_named_directly_is_a_board(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """CONDUCTOR_BOARD_DIRS may also name a board folder itself; several entries use os.pathsep."""
    one = write_mini_board(tmp_path / "a", "solo")
    write_mini_board(tmp_path / "b", "other")
    monkeypatch.setenv(BOARD_DIRS_ENV, f"{one}{__import__('os').pathsep}{tmp_path / 'b'}")
    clear_board_caches()
    try:
        assert available_boards()[-2:] == ["solo", "other"]
        assert load_board("solo").name == "Mini Line"
    finally:
        clear_board_caches()


def test_a_broken_board_folder_is_listed_but_not_offered(board_dir: Path) -> None:
    """A folder whose board.toml cannot be read is still a board id (loading it explains what is
    wrong) but has no catalog entry for front ends to offer."""
    write_mini_board(board_dir)
    write_mini_board(board_dir, "broken", toml=MINI_TOML.replace("trains = 7", 'trains = "seven"'))
    assert available_boards()[-2:] == ["broken", "mini"]
    assert [info.id for info in board_catalog()][-1] == "mini"
    with pytest.raises(IllegalAction, match="trains must be a whole number"):
        new_game("ttr", {"board": "broken"}, 2, 1)


def test_an_unknown_board_lists_the_discovered_ones(board_dir: Path) -> None:
    """Asking for a board that no folder holds is refused with the list of boards."""
    write_mini_board(board_dir)
    with pytest.raises(IllegalAction, match="mini") as info:
        new_game("ttr", {"board": "atlantis"}, 2, 1)
    assert info.value.code == "bad_config"


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (("train_cards = 16", "train_cards = 17"), "16 train cards, expected 17"),
        (("blue = 7", "blu = 7"), "unknown card 'blu'"),
        (("trains = 7", "trains = 7\ntrian_count = 3"), "unknown flag(s) trian_count"),
        (('locomotives = "anywhere"', 'locomotives = "sometimes"'), "locomotives must be"),
        (("tracks = 7", "tracks = 8"), "7 tracks"),
        (
            ('tie_breaks = ["tickets_completed", "longest_path"]', 'tie_breaks = ["coin_toss"]'),
            "unknown tie break",
        ),
    ],
)
def test_board_data_is_validated_at_load(board_dir: Path, change: tuple[str, str], message: str) -> None:
    """A board.toml whose flags are unknown or mistyped, or whose declared counts (deck size,
    tracks...) the data does not match, is refused at load with a message naming the problem."""
    write_mini_board(board_dir, toml=MINI_TOML.replace(*change))
    with pytest.raises(BoardDataError) as info:
        load_board("mini")
    assert message in str(info.value)


def test_a_replacement_ticket_deck_is_labelled_in_every_view(tmp_path: Path) -> None:
    """The ticket_deck option replaces a board's tickets, and every view says so honestly."""
    deck = tmp_path / "my_tickets.csv"
    deck.write_text(
        "ticket_id,a,b,points,kind\nX-1,Boston,Miami,12,short\nX-2,Denver,El Paso,4,short\n"
        "X-3,Seattle,New York,22,long\n",
        encoding="utf-8",
    )
    g = new_game("ttr", {"board": "usa", "ticket_deck": str(deck)}, 2, 4)
    assert sorted(g.board.tickets) == ["X-1", "X-2", "X-3"]
    assert g.board.spec.ticket_deck_label == "Custom ticket deck loaded from my_tickets.csv"
    assert g.view(None)["notes"] == ["Custom ticket deck loaded from my_tickets.csv"]


async def test_a_data_only_board_reaches_every_front_end_with_no_code_edit(
    board_dir: Path, tmp_path: Path
) -> None:
    """The registry offers the new folder (Discord's board choices are built from it), the game
    service plays a whole game on it, the renderer draws it and the terminal can name it: one
    folder, no code edit anywhere."""
    from bot.present import render_board_png
    from bot.service import GameService
    from bot.store.sqlite import SqliteStore
    from rules.games import find_game

    write_mini_board(board_dir)
    spec = find_game("ttr")
    assert "mini" in [b.id for b in spec.boards()]
    async with SqliteStore(tmp_path / "mini.db") as storage:
        service = GameService(storage)
        row = await service.create_game(
            game_name="ttr", config=spec.config_for(board="mini"), creator=None, join=False, seed=3
        )
        for _ in range(3):
            await service.add_ai(row.id, None, "heuristic", is_admin=True)
        outcome = await service.start(row.id, None, is_admin=True)
        assert outcome.over and outcome.scores is not None and len(outcome.scores) == 3
        png = render_board_png(await service.public_view(row.id))
        assert png is not None and png.startswith(b"\x89PNG")
