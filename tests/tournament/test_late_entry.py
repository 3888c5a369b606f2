"""Late entries (issue 32, finding 7): a player who entered after round 1 got nothing for the
rounds played before, with no way for the organiser to say otherwise. The event's policy gives
each missed round zero, the player's own average, or a fixed number of place points; the games
count stays the games played, and a stored event from before the policy reads as zero."""

from __future__ import annotations

import pytest

from bot.tournament.model import EventConfig, GameResult, Registration, SeatResult, TournamentError
from bot.tournament.standings import standings
from bot.tournament.store import config_from_json, config_to_json

A, B, C, D, LATE = "a", "b", "c", "d", "late"


def game(round_no: int, table: int, *players: str) -> GameResult:
    return GameResult(
        game_id=f"{round_no}.{table}",
        round=round_no,
        table=table,
        board="usa",
        seats=tuple(SeatResult(p, rank, 100 - rank) for rank, p in enumerate(players, 1)),
    )


# round 1: a 2-player table; the late entry joins for rounds 2 and 3 (tables of 2, scale 6/1)
RESULTS = [game(1, 1, A, B), game(2, 1, LATE, A), game(2, 2, B, C), game(3, 1, LATE, B), game(3, 2, C, A)]
REGISTRATION = Registration((A, B, C, LATE))


def points(**policy: object) -> dict[str, float]:
    config = EventConfig(family="ttr", boards=("usa",), name="Cup", rounds=3, table_size=2, **policy)  # type: ignore[arg-type]
    return {r.player: r.place_points for r in standings(config, RESULTS, REGISTRATION)}


def test_each_policy_for_a_late_entrys_missed_round() -> None:
    zero = points()
    assert zero[LATE] == 12.0  # two wins at 6
    assert points(late_entry="average")[LATE] == 18.0  # + one missed round at their average 6
    assert points(late_entry="fixed", late_points=3.5)[LATE] == 15.5
    # C's first game was in round 2 as well: C entered late too and gets the same treatment
    assert zero[C] == 7.0 and points(late_entry="fixed", late_points=3.5)[C] == 10.5
    # players seated from round 1 get nothing more, and nobody's games count changes
    assert points(late_entry="fixed", late_points=3.5)[A] == zero[A]
    config = EventConfig(
        family="ttr", boards=("usa",), name="Cup", rounds=3, table_size=2, late_entry="fixed", late_points=3.5
    )
    assert {r.player: r.games for r in standings(config, RESULTS, REGISTRATION)}[LATE] == 2


def test_the_policy_is_checked_and_kept_and_an_older_event_reads_as_zero() -> None:
    with pytest.raises(TournamentError):
        EventConfig(family="ttr", boards=("usa",), name="Cup", late_entry="some")  # type: ignore[arg-type]
    with pytest.raises(TournamentError):
        EventConfig(family="ttr", boards=("usa",), name="Cup", late_entry="average", late_points=2)
    config = EventConfig(family="ttr", boards=("usa",), name="Cup", late_entry="fixed", late_points=2.5)
    assert config_from_json(config_to_json(config)) == config
    older = {k: v for k, v in config_to_json(config).items() if k not in ("late_entry", "late_points")}
    assert config_from_json(older).late_entry == "zero"
