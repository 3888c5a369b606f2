"""Standings from finished games: place points (shared places), the tie-break chain, the WBC
ratio, head-to-head, final tables, corrections and adjudications, and results from the engines."""

from __future__ import annotations

import pytest

from bot.tournament.model import (
    Criterion,
    EventConfig,
    Format,
    GameResult,
    Registration,
    SeatResult,
    Stage,
    Table,
    TournamentError,
    result_from_final_scores,
)
from bot.tournament.standings import place_points, standings, wbc_ratio
from rules.ai import make_ai, play_out
from rules.games import new_game

CONFIG = EventConfig(family="ttr", boards=("usa",), name="Cup", rounds=3, table_size=4)


def _game(
    game_id: str, round_number: int, table: int, *seats: tuple[str, int, int, int], **extra: object
) -> GameResult:
    """seats: (player, rank, score, tickets completed) in seat order."""
    return GameResult(
        game_id=game_id,
        round=round_number,
        table=table,
        board="usa",
        seats=tuple(SeatResult(p, r, s, t) for p, r, s, t in seats),
        **extra,
    )  # type: ignore[arg-type]


# Hand-computed example (points 6/5/3/1 for four, 6/3/1 for three):
#   R1 T1: A 1st 100, B 2nd 90, C 3rd 80, D 4th 50      -> A 6, B 5, C 3, D 1
#   R1 T2: E 1st 60, F 2nd 60 (game tie-break), G 3rd 30 -> E 6, F 3, G 1
#   R2 T1: E 1st 110, A 2nd 100, G 3rd 70, C 4th 40     -> E 6, A 5, G 3, C 1
#   R2 T2: B and D share 1st with 80, F 3rd 20           -> B, D (6+3)/2 = 4.5 each, F 1
RESULTS = [
    _game("g1", 1, 1, ("A", 1, 100, 5), ("B", 2, 90, 4), ("C", 3, 80, 3), ("D", 4, 50, 2)),
    _game("g2", 1, 2, ("E", 1, 60, 3), ("F", 2, 60, 2), ("G", 3, 30, 1)),
    _game("g3", 2, 1, ("E", 1, 110, 6), ("A", 2, 100, 4), ("G", 3, 70, 2), ("C", 4, 40, 0)),
    _game("g4", 2, 2, ("B", 1, 80, 3), ("D", 1, 80, 1), ("F", 3, 20, 0)),
]


def test_standings_follow_place_points_then_wins_then_the_wbc_ratio() -> None:
    """E 12, A 11, B 9.5, D 5.5; C, F and G tie on 4 points and 0 wins, and the WBC ratio
    sum orders them F 1.25, C 1.1636, G 1.1364."""
    rows = standings(CONFIG, RESULTS)
    assert [r.player for r in rows] == ["E", "A", "B", "D", "F", "C", "G"]
    assert [r.position for r in rows] == [1, 2, 3, 4, 5, 6, 7]
    by = {r.player: r for r in rows}
    assert [by[p].place_points for p in "ABCDEFG"] == [11, 9.5, 4, 5.5, 12, 4, 4]
    assert [by[p].wins for p in "ABCDEFG"] == [1, 1, 0, 1, 2, 0, 0]
    assert by["A"].wbc_ratio == pytest.approx(100 / 90 + 100 / 110, abs=1e-6)
    assert by["C"].wbc_ratio == pytest.approx(0.8 + 40 / 110, abs=1e-6)
    assert by["F"].wbc_ratio == pytest.approx(1.0 + 0.25, abs=1e-6)
    assert by["G"].wbc_ratio == pytest.approx(0.5 + 70 / 110, abs=1e-6)
    assert [by[p].total_score for p in "AE"] == [200, 170]
    assert [by[p].tickets_completed for p in "AE"] == [9, 9]
    assert all(r.games == 2 for r in rows)


def test_shared_places_get_the_best_points_when_the_event_says_so() -> None:
    config = EventConfig(
        family="ttr", boards=("usa",), name="Cup", rounds=3, table_size=4, tied_places="best"
    )
    assert place_points(config, RESULTS[3]) == {"B": 6.0, "D": 6.0, "F": 1.0}
    assert place_points(CONFIG, RESULTS[3]) == {"B": 4.5, "D": 4.5, "F": 1.0}


def test_the_tie_break_chain_is_the_organisers_order() -> None:
    """With total score before the WBC ratio, C (120) and G (100) swap places with F (80)."""
    config = EventConfig(
        family="ttr",
        boards=("usa",),
        name="Cup",
        rounds=3,
        table_size=4,
        ranking=(Criterion.PLACE_POINTS, Criterion.TOTAL_SCORE, Criterion.WBC_RATIO),
    )
    assert [r.player for r in standings(config, RESULTS)][4:] == ["C", "G", "F"]


def test_head_to_head_separates_players_tied_on_everything_before_it() -> None:
    """X and Y both have 11 points; X finished ahead of Y in the game they shared."""
    config = EventConfig(
        family="ttr",
        boards=("usa",),
        name="Cup",
        rounds=3,
        table_size=4,
        ranking=(Criterion.PLACE_POINTS, Criterion.HEAD_TO_HEAD),
    )
    results = [
        _game("a", 1, 1, ("X", 1, 50, 0), ("Y", 2, 40, 0), ("P", 3, 30, 0), ("Q", 4, 20, 0)),
        _game("b", 2, 1, ("Y", 1, 50, 0), ("P", 2, 40, 0), ("R", 3, 30, 0), ("S", 4, 20, 0)),
        _game("c", 2, 2, ("Q", 1, 50, 0), ("X", 2, 40, 0), ("T", 3, 30, 0), ("U", 4, 20, 0)),
    ]
    rows = standings(config, results)
    assert [r.player for r in rows[:2]] == ["X", "Y"]
    assert (rows[0].head_to_head, rows[1].head_to_head) == (1, -1)
    assert rows[1].position == 2


def test_players_tied_on_every_criterion_share_a_position() -> None:
    config = EventConfig(
        family="ttr", boards=("usa",), name="Cup", rounds=3, table_size=4, ranking=(Criterion.PLACE_POINTS,)
    )
    rows = standings(config, [RESULTS[3]])
    assert [(r.player, r.position) for r in rows] == [("B", 1), ("D", 1), ("F", 3)]


def test_wbc_ratio_has_a_stated_rule_when_the_best_opponent_scored_nothing() -> None:
    assert wbc_ratio(50, 100) == 0.5
    assert wbc_ratio(-10, 100) == 0.0
    assert wbc_ratio(30, 0) == 2.0
    assert wbc_ratio(0, 0) == 1.0
    assert wbc_ratio(-8, -3) == 0.0


def test_a_corrected_result_changes_the_standings_and_keeps_its_reason() -> None:
    original = RESULTS[3]
    fixed = original.corrected(
        [SeatResult("B", 1, 81, 3), SeatResult("D", 2, 80, 1), SeatResult("F", 3, 20, 0)],
        "Scoring error: B's longest route was missed.",
    )
    assert fixed.correction_reason == "Scoring error: B's longest route was missed."
    rows = {r.player: r for r in standings(CONFIG, RESULTS[:3] + [fixed])}
    assert rows["B"].place_points == 11 and rows["D"].place_points == 4
    assert rows["B"].corrected_games == 1
    with pytest.raises(TournamentError):
        original.corrected(list(original.seats), "  ")


def test_adjudicated_games_and_ai_takeovers_are_counted_in_the_rows() -> None:
    result = GameResult(
        game_id="z",
        round=1,
        table=1,
        board="usa",
        adjudicated=True,
        seats=(SeatResult("A", 1, 10), SeatResult("B", 2, 5, ai_takeover=True)),
    )
    config = EventConfig(family="ttr", boards=("usa",), name="Cup", rounds=1, table_size=2)
    rows = {r.player: r for r in standings(config, [result])}
    assert rows["A"].adjudicated_games == 1 and rows["A"].ai_takeovers == 0
    assert rows["B"].ai_takeovers == 1


def test_dropped_and_waiting_players_are_listed() -> None:
    registration = Registration(tuple("ABCDEFGH")).drop("D")
    rows = standings(CONFIG, RESULTS, registration)
    assert next(r for r in rows if r.player == "D").dropped
    assert rows[-1].player == "H" and rows[-1].games == 0


def test_the_final_table_decides_the_top_places() -> None:
    """G was last before the final but wins it; the other finalists follow in final order."""
    config = EventConfig(
        family="ttr",
        boards=("usa",),
        name="Cup",
        format=Format.SWISS_FINAL,
        rounds=2,
        table_size=4,
        final_size=3,
    )
    final = GameResult(
        game_id="f",
        round=3,
        table=1,
        board="usa",
        stage=Stage.FINAL,
        seats=(SeatResult("E", 3, 10), SeatResult("A", 2, 20), SeatResult("G", 1, 30)),
    )
    rows = standings(config, RESULTS + [final])
    assert [r.player for r in rows] == ["G", "A", "E", "B", "D", "F", "C"]
    assert rows[0].final_rank == 1


def test_results_that_cannot_belong_to_the_event_are_refused() -> None:
    with pytest.raises(TournamentError) as err:
        standings(CONFIG, RESULTS + [_game("g5", 2, 2, ("H", 1, 1, 0), ("I", 2, 0, 0))])
    assert err.value.code == "duplicate_result"
    with pytest.raises(TournamentError):
        standings(
            CONFIG,
            [_game("g9", 3, 1, ("A", 1, 1, 0), ("H", 2, 0, 0))]
            + RESULTS[2:3]
            + [_game("g8", 3, 2, ("A", 1, 1, 0), ("I", 2, 0, 0))],
        )
    with pytest.raises(TournamentError, match="finishing order"):
        _game("bad", 1, 1, ("A", 1, 1, 0), ("B", 3, 0, 0))


@pytest.mark.parametrize(("family", "config"), [("ttr", {"board": "usa"}), ("first-class", {})])
def test_results_come_from_the_engines_final_scores(family: str, config: dict[str, object]) -> None:
    """A game played to the end by AIs gives a result whose ranks, scores and (Ticket to Ride)
    tickets are the engine's, and standings accept it."""
    table = Table(round=1, number=1, board="usa", seats=("discord:1", "discord:2", "discord:3"))
    game = new_game(family, config, 3, seed=11)
    play_out(game, [make_ai(family, "random", s) for s in range(3)])
    final = game.final_scores()
    result = result_from_final_scores(table, "game-11", final, ai_seats=[2], adjudicated=True)
    assert [s.rank for s in result.seats] == [row["rank"] for row in sorted(final, key=lambda r: r["seat"])]
    assert [s.score for s in result.seats] == [row["total"] for row in sorted(final, key=lambda r: r["seat"])]
    assert result.seats[2].ai_takeover and result.adjudicated
    assert (result.seats[0].tickets_completed is None) == (family == "first-class")
    by_seat = sorted(final, key=lambda r: r["seat"])
    assert [s.longest_trail for s in result.seats] == [row.get("longest_trail") for row in by_seat]
    assert (result.seats[0].longest_trail is None) == (family == "first-class")
    rows = standings(
        EventConfig(boards=("usa",), name="Cup", family=family, rounds=1, table_size=3), [result]
    )
    assert {r.player for r in rows} == set(table.seats)
