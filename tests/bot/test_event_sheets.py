"""Standings and pairings for any field size (issue 32, finding 3): the status message shows as
many standings rows as fit in a Discord message and says how many of how many; the CSV has
every row and column; the standings picture is readable in a phone's chat preview."""

from __future__ import annotations

import csv
import io

from PIL import Image

from bot.discord_app.tournament_cog import standings_fitting, standings_picture, standings_table
from bot.discord_app.ui import MAX_CONTENT
from bot.tournament.model import EventConfig, GameResult, SeatResult, Stage
from bot.tournament.sheets import STANDINGS_COLUMNS, pairings_csv, standings_csv
from bot.tournament.standings import Row
from bot.tournament.store import EventRow, TableRow
from lang import using
from render.common import MIN_PREVIEW_CAP_PX, PREVIEW_WIDTH, cap_height, legible_size


def _rows(n: int) -> list[Row]:
    return [
        Row(
            position=i + 1,
            player=f"discord:{i}",
            games=5,
            place_points=30 - i * 0.5,
            wins=2,
            wbc_ratio=3.14159,
            total_score=500 - i,
            tickets_completed=20,
            head_to_head=0,
            adjudicated_games=0,
            ai_takeovers=1,
            corrected_games=0,
            dropped=i == 7,
        )
        for i in range(n)
    ]


NAMES = {f"discord:{i}": f"Player number {i}" for i in range(600)}


def test_the_status_standings_of_64_players_fit_a_message_and_say_what_is_left_out() -> None:
    """Before: the status message was cut at 2,000 characters, about 25 players, mid-table."""
    rows = _rows(64)
    assert len(standings_table(rows, NAMES)) > MAX_CONTENT
    text = standings_fitting(rows, NAMES, MAX_CONTENT - 300)
    assert len(text) <= MAX_CONTENT - 300
    shown = int(text.rsplit("The first ", 1)[1].split(" ", 1)[0])
    assert 10 <= shown < 64 and f"The first {shown} of 64 players" in text
    assert text.count("Player number") == shown
    assert standings_fitting(rows[:8], NAMES, MAX_CONTENT) == standings_table(rows[:8], NAMES)


def test_the_standings_csv_has_every_row_and_column() -> None:
    rows = _rows(512)
    sheet = list(csv.reader(io.StringIO(standings_csv(rows, NAMES))))
    assert tuple(sheet[0]) == STANDINGS_COLUMNS and len(sheet) == 513
    assert sheet[8][:2] == ["8", "Player number 7"] and sheet[8][STANDINGS_COLUMNS.index("dropped")] == "1"
    assert sheet[1][STANDINGS_COLUMNS.index("wbc_ratio")] == "3.1416"


def test_the_pairings_csv_lists_each_seat_with_its_result() -> None:
    tables = [
        TableRow(1, 2, 1, "usa", ("discord:1", "discord:2"), Stage.SWISS, None, 10, False),
        TableRow(1, 2, 2, "europe", ("discord:3", "discord:4"), Stage.SWISS, None, None, False),
    ]
    result = GameResult(
        game_id="10",
        round=2,
        table=1,
        board="usa",
        seats=(SeatResult("discord:1", 2, 80), SeatResult("discord:2", 1, 95)),
        correction_reason="wrong count",
    )
    sheet = list(csv.DictReader(io.StringIO(pairings_csv(tables, NAMES, [result], {10: 3}))))
    assert [(r["table"], r["seat"], r["player"], r["game"], r["rank"], r["result"]) for r in sheet] == [
        ("1", "1", "Player number 1", "3", "2", "corrected"),
        ("1", "2", "Player number 2", "3", "1", "corrected"),
        ("2", "1", "Player number 3", "", "", ""),
        ("2", "2", "Player number 4", "", "", ""),
    ]


def test_the_standings_picture_is_read_at_a_phones_preview_width_in_the_events_language() -> None:
    event = EventRow(
        id=9,
        space="discord:guild:1",
        name="Herbstpokal",
        creator="discord:1",
        game_name="ttr",
        config=EventConfig(family="ttr", boards=("usa",), name="Herbstpokal", rounds=5, table_size=4),
        settings={"language": "de"},
        seed=1,
        status="finished",
        round=5,
        created_at=0.0,
        number=1,
    )
    rows = _rows(64)
    with using("de"):
        png = standings_picture(event, rows, rows[:20], NAMES, 1)
    with using("de"):
        again = standings_picture(event, rows, rows[:20], NAMES, 1)
    assert png == again, "the same standings give the same picture"
    with using("en"):
        assert standings_picture(event, rows, rows[:20], NAMES, 1) != png, "its words are the reader's"
    image = Image.open(io.BytesIO(png))
    assert image.size[0] == 800 and image.size[1] < 1400
    # the type is chosen so that its capitals stay legible once scaled to the preview width
    size = max(26, legible_size(800, "bold", 11.0))
    assert cap_height(size) * PREVIEW_WIDTH / 800 >= MIN_PREVIEW_CAP_PX
