"""A single-elimination top cut at multiplayer tables (issue 32): the best ``cut_size`` players
after the Swiss rounds at tables of ``final_size``, each table's winner going on to the next
knockout round, down to one final table; its settings, pairing, standings and stored form, and
an event run with real games through a restart between the cut's rounds."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from test_runner import ORGANISER, SPACE, Clock, hand_round_to_ais, new_event, open_rig, recomputed_standings

from bot.tournament.model import (
    EventConfig,
    Format,
    GameResult,
    Registration,
    SeatResult,
    Stage,
    TournamentError,
)
from bot.tournament.pairing import pair_round
from bot.tournament.standings import standings
from bot.tournament.store import FINISHED, config_from_json, config_to_json


def cut_config(**options: object) -> EventConfig:
    values: dict[str, object] = {"format": "swiss_cut", "rounds": 3, "final_size": 4, "cut_size": 16}
    values.update(options)
    return EventConfig("Cut Cup", family="ttr", boards=("usa", "europe"), **values)  # type: ignore[arg-type]


def play(
    config: EventConfig,
    table_seats: tuple[str, ...],
    round_number: int,
    number: int,
    board: str,
    ranks: list[int],
) -> GameResult:
    return GameResult(
        game_id=f"{round_number}-{number}",
        round=round_number,
        table=number,
        board=board,
        stage=config.stage_of(round_number),
        seats=tuple(SeatResult(p, r, 100 - 10 * r) for p, r in zip(table_seats, ranks, strict=True)),
    )


def run_swiss(config: EventConfig, registration: Registration, seed: int = 4) -> list[GameResult]:
    rng = random.Random(seed)
    results: list[GameResult] = []
    for number in range(1, config.rounds + 1):
        for t in pair_round(config, registration, results, number, seed).tables:
            ranks = list(range(1, len(t.seats) + 1))
            rng.shuffle(ranks)
            results.append(play(config, t.seats, number, t.number, t.board, ranks))
    return results


def test_the_cut_is_a_power_of_the_table_size_and_only_in_a_swiss_cut_event() -> None:
    """Rule: a top cut seats every knockout round fully (each table's winner goes on until one
    final table is left), so its size is the table size to a power; anything else is refused
    with a sentence naming the sizes that work, as is a cut in another format."""
    config = cut_config()
    assert config.cut_rounds == 2 and config.total_rounds == 5
    assert [config.stage_of(r) for r in range(1, 6)] == [Stage.SWISS] * 3 + [Stage.CUT, Stage.FINAL]
    assert cut_config(cut_size=4).total_rounds == 4 and cut_config(cut_size=64).cut_rounds == 3
    with pytest.raises(TournamentError) as bad:
        cut_config(cut_size=12)
    assert "takes 4, 16, 64, 256 players" in bad.value.message and "not 12" in bad.value.message
    with pytest.raises(TournamentError):
        cut_config(cut_size=0)
    with pytest.raises(TournamentError) as other:
        EventConfig("x", family="ttr", boards=("usa",), format=Format.SWISS_FINAL, final_size=4, cut_size=16)
    assert "top cut" in other.value.message
    assert config_from_json(config_to_json(config)) == config
    old = {
        k: v
        for k, v in config_to_json(cut_config(format="swiss_final", cut_size=0)).items()
        if k != "cut_size"
    }
    assert config_from_json(old).cut_size == 0  # events stored before the cut


def test_the_cut_seats_the_best_sixteen_in_a_snake_and_sends_each_tables_winner_on() -> None:
    """Rule: the cut's first round takes the 16 best by the Swiss standings (a dropped player
    never), dealt in a snake so seeds 1-4 sit at four different tables; the final takes each
    table's winner, a tie for first going to the better Swiss standing and a winner who dropped
    out giving way to the next at the table."""
    players = tuple(f"discord:{i}" for i in range(1, 41))
    config = cut_config()
    registration = Registration(players)
    results = run_swiss(config, registration)
    swiss = standings(config, results, registration)
    leaver = swiss[2].player  # third after the Swiss: drops out before the cut
    registration = registration.drop(leaver)
    cut = pair_round(config, registration, results, 4, 4)
    assert cut.stage is Stage.CUT and [len(t.seats) for t in cut.tables] == [4, 4, 4, 4]
    expected = [r.player for r in swiss if r.player != leaver][:16]
    assert sorted(p for t in cut.tables for p in t.seats) == sorted(expected)
    seeds = {p: i for i, p in enumerate(expected)}
    assert sorted(min(seeds[p] for p in t.seats) for t in cut.tables) == [0, 1, 2, 3]
    assert {t.board for t in cut.tables} == {"usa", "europe"}  # boards balanced in the cut too

    # table 1: a tie for first (the better seed goes on); table 2: its winner drops out
    cut_results = []
    for t in cut.tables:
        ranks = [1, 2, 3, 4]
        if t.number == 1:
            ranks = [1, 1, 3, 4]
        cut_results.append(play(config, t.seats, 4, t.number, t.board, ranks))
    tied = cut.tables[0].seats[:2]
    gone = cut.tables[1].seats[0]
    registration = registration.drop(gone)
    (final,) = pair_round(config, registration, results + cut_results, 5, 4).tables
    assert final.stage is Stage.FINAL and len(final.seats) == 4
    assert (
        min(tied, key=seeds.__getitem__) in final.seats
        and max(tied, key=seeds.__getitem__) not in final.seats
    )
    assert gone not in final.seats and cut.tables[1].seats[1] in final.seats
    assert cut.tables[2].seats[0] in final.seats and cut.tables[3].seats[0] in final.seats


def test_the_standings_of_a_cut_follow_the_knockout_then_the_swiss() -> None:
    """Rule: the final table's order is the podium; players out in the cut follow (their place at
    their cut table first, then their Swiss order, which the cut's points never change); then
    everyone else by the Swiss standings."""
    players = tuple(f"discord:{i}" for i in range(1, 25))
    config = cut_config(rounds=2)
    registration = Registration(players)
    results = run_swiss(config, registration, seed=9)
    swiss = standings(config, results, registration)
    cut = pair_round(config, registration, results, 3, 9)
    # the lowest seed wins every cut table, so the cut's points alone would reorder everyone
    cut_results = [
        play(
            config,
            t.seats,
            3,
            t.number,
            t.board,
            [4 - sorted(t.seats, key=[r.player for r in swiss].index).index(p) for p in t.seats],
        )
        for t in cut.tables
    ]
    (final,) = pair_round(config, registration, results + cut_results, 4, 9).tables
    final_result = play(config, final.seats, 4, 1, final.board, [2, 1, 4, 3])
    rows = standings(config, results + cut_results + [final_result], registration)
    assert [r.player for r in rows[:4]] == [final.seats[1], final.seats[0], final.seats[3], final.seats[2]]
    assert [r.final_rank for r in rows[:4]] == [1, 2, 3, 4] and {r.cut_round for r in rows[:4]} == {4}
    swiss_order = [r.player for r in swiss]
    by_place: dict[int, list[str]] = {}
    for result in cut_results:
        for seat in result.seats:
            if seat.player not in final.seats:
                by_place.setdefault(seat.rank, []).append(seat.player)
    expected = [p for rank in sorted(by_place) for p in sorted(by_place[rank], key=swiss_order.index)]
    assert [r.player for r in rows[4:16]] == expected
    assert all(r.cut_round == 3 for r in rows[4:16]) and all(r.cut_round is None for r in rows[16:])
    assert [r.player for r in rows[16:]] == [
        p for p in swiss_order if p not in set(expected) | set(final.seats)
    ]
    positions = [r.position for r in rows]  # players tied on every count share a place
    assert positions[:5] == [1, 2, 3, 4, 5] and positions == sorted(positions)


@pytest.mark.slow
async def test_a_cut_event_runs_with_real_games_through_a_restart(tmp_path: Path) -> None:
    """Promise: a top-cut event runs to its end with real games, stored and resumed across a
    restart between the cut's rounds, and its standings are those recomputed from its games."""
    clock = Clock()
    rig = await open_rig(tmp_path / "cut.db", clock)
    field = [f"discord:{i}" for i in range(1, 17)]
    refused = await new_event(
        rig,
        players=field[:15],
        format="swiss_cut",
        rounds=1,
        final_size=4,
        cut_size=16,
        count_ai_takeovers=True,
    )
    with pytest.raises(TournamentError) as few:
        await rig.runner.start(refused, SPACE, ORGANISER)
    assert few.value.code == "too_few" and "top cut alone needs 16" in few.value.message
    rig.runner.seeds = random.Random(3)
    event_id = await rig.runner.create_event(
        space=SPACE,
        creator=ORGANISER,
        name="Knockout",
        game_name="ttr",
        format="swiss_cut",
        rounds=1,
        final_size=4,
        cut_size=16,
        count_ai_takeovers=True,
    )
    for p in field:
        await rig.runner.join(event_id.id, SPACE, p, p)
    await rig.runner.start(event_id.id, SPACE, ORGANISER)
    await hand_round_to_ais(rig, event_id.id)  # the Swiss round
    cut = await rig.runner.store.tables(event_id.id, 2)
    assert [t.stage for t in cut] == [Stage.CUT] * 4
    await hand_round_to_ais(rig, event_id.id)
    await rig.service.stream.drain()
    await rig.storage.close()

    rig = await open_rig(tmp_path / "cut.db", clock)
    assert await rig.runner.resume() == []
    (final,) = await rig.runner.store.tables(event_id.id, 3)
    winners = {
        next(s.player for s in r.seats if s.rank == 1)
        for r in await rig.runner.store.results(event_id.id)
        if r.round == 2
    }
    assert final.stage is Stage.FINAL and len(final.seats) == 4 and set(final.seats) <= winners
    await hand_round_to_ais(rig, event_id.id)
    event = await rig.runner.store.event(event_id.id)
    assert event is not None and event.status == FINISHED
    rows = await rig.runner.standings(event_id.id, SPACE)
    assert {r.player for r in rows[:4]} == set(final.seats) and [r.final_rank for r in rows[:4]] == [
        1,
        2,
        3,
        4,
    ]
    assert [(r.player, r.place_points, r.position) for r in rows] == await recomputed_standings(
        rig, event_id.id
    )
    await rig.service.stream.drain()
    await rig.storage.close()
