"""TournamentService against the real GameService and SQLite, with a fake clock.

People's moves are chosen by the heuristic AI and played through ``GameService.act``, as a person
would; nothing waits on time: the fake clock is moved and the stream is drained.
"""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from bot.service import GameService
from bot.store.sqlite import SqliteStore
from bot.tournament.model import TournamentError, result_from_final_scores
from bot.tournament.runner import TournamentService
from bot.tournament.standings import standings
from bot.tournament.store import DROPPED, FINISHED, NO_SHOW, PAUSED, RUNNING, WAITING
from rules.games import find_game
from rules.registry import ai_view_of

SPACE = "discord:guild:1"
ORGANISER = "discord:100"
PLAYERS = [f"discord:{i}" for i in range(1, 9)]


class Clock:
    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


@dataclass
class Rig:
    storage: SqliteStore
    service: GameService
    runner: TournamentService
    clock: Clock


async def open_rig(path: Path, clock: Clock) -> Rig:
    storage = await SqliteStore(path, clock=clock).open()
    service = GameService(storage, clock=clock, rng=random.Random(3))
    runner = TournamentService(service)
    service.stream.subscribe(runner)
    return Rig(storage, service, runner, clock)


@pytest.fixture
async def rig(tmp_path: Path) -> AsyncIterator[Rig]:
    r = await open_rig(tmp_path / "t.db", Clock())
    yield r
    await r.service.stream.drain()
    await r.storage.close()


async def new_event(rig: Rig, players: list[str] = PLAYERS, **options: object) -> int:
    options.setdefault("game_name", "ttr")
    options.setdefault("rounds", 2)
    options.setdefault("seed", 11)
    event = await rig.runner.create_event(space=SPACE, creator=ORGANISER, name="Spring Cup", **options)  # type: ignore[arg-type]
    for p in players:
        await rig.runner.join(event.id, SPACE, p, f"P{p.split(':')[1]}")
    return event.id


async def play_round(
    rig: Rig, event_id: int, moves: int = 100_000, skip: frozenset[int] = frozenset()
) -> None:
    """People play their turns (chosen by the heuristic) in every table of the current round."""
    event = await rig.runner.store.event(event_id)
    assert event is not None
    tables = await rig.runner.store.tables(event_id, event.round)
    ais = {}
    for _ in range(moves):
        moved = False
        for table in tables:
            assert table.game_id is not None
            if table.number in skip:
                continue
            loaded = await rig.service.load(table.game_id)
            if loaded.row.status != "active" or loaded.game is None:
                continue
            for seat in loaded.game.seats_to_act():
                player = loaded.row.seats[seat].player
                if player is None:
                    continue
                ai = ais.setdefault((table.game_id, seat), find_game("ttr").make_ai("heuristic", seat))
                view = ai_view_of(loaded.game, seat, random.Random(loaded.row.seq))
                await rig.service.act(table.game_id, player, ai.choose(view, seat), where=SPACE)
                moved = True
                break
        if not moved:
            break
    await rig.service.stream.drain()


async def recomputed_standings(rig: Rig, event_id: int) -> list[tuple[str, float, int]]:
    """Standings recomputed from the games themselves (and the kept corrections)."""
    event = await rig.runner.store.event(event_id)
    assert event is not None
    results = []
    corrections = {
        (r.round, r.table): r.result
        for r in await rig.runner.store.result_history(event_id)
        if r.correction_reason
    }
    for table in await rig.runner.store.tables(event_id):
        assert table.game_id is not None
        loaded = await rig.service.load(table.game_id)
        assert loaded.game is not None and loaded.row.status == "over"
        result = result_from_final_scores(
            table.table(),
            str(table.game_id),
            loaded.game.final_scores(),
            [s.seat for s in loaded.row.seats if s.is_ai],
            table.adjudicated,
        )
        results.append(corrections.get((table.round, table.number), result))
    entries = await rig.runner.store.entries(event_id)
    rows = standings(event.config, results, rig.runner.registration(entries))
    return [(r.player, r.place_points, r.position) for r in rows]


async def test_swiss_event_pairs_each_round_from_finished_games_and_ends_with_the_games_standings(
    rig: Rig,
) -> None:
    """Round 1 is created as games seated in the pairing's order; when every table finishes the
    next round is paired; after the last round the event is finished and its standings are those
    recomputed from the games' final scores."""
    event_id = await new_event(rig)
    await rig.runner.start(event_id, SPACE, ORGANISER)
    tables = await rig.runner.store.tables(event_id, 1)
    assert len(tables) == 2 and sorted(p for t in tables for p in t.seats) == sorted(PLAYERS)
    for t in tables:
        assert t.game_id is not None
        row = await rig.service.game_row(t.game_id)
        assert [s.player for s in row.seats] == list(t.seats) and row.status == "active"
    await play_round(rig, event_id)
    event = await rig.runner.store.event(event_id)
    assert event is not None and event.round == 2 and event.status == RUNNING
    await play_round(rig, event_id)
    event = await rig.runner.store.event(event_id)
    assert event is not None and event.status == FINISHED
    rows = await rig.runner.standings(event_id, SPACE)
    assert [(r.player, r.place_points, r.position) for r in rows] == await recomputed_standings(rig, event_id)
    assert all(r.games == 2 and r.adjudicated_games == 0 for r in rows)
    book = await rig.runner.store.rating_book(SPACE)
    assert len(book.rated_games) == 4 and book.rating(PLAYERS[0], "ttr").games == 2


async def test_deadline_adjudicates_unfinished_tables_by_ai_seats(rig: Rig) -> None:
    """At the round deadline every unfinished game is played out by AI seats and marked
    adjudicated; the round then completes and the next is paired."""
    event_id = await new_event(rig, deadline_hours=48)
    await rig.runner.start(event_id, SPACE, ORGANISER)
    await play_round(rig, event_id, skip=frozenset({2}))
    assert await rig.runner.tick() == []  # not due yet
    rig.clock.now += 48 * 3600 + 1
    handed = await rig.runner.tick()
    assert len(handed) == 1
    await rig.service.stream.drain()
    results = await rig.runner.store.results(event_id)
    assert [(r.table, r.adjudicated) for r in results] == [(1, False), (2, True)]
    assert all(s.ai_takeover for s in results[1].seats)
    event = await rig.runner.store.event(event_id)
    assert event is not None and event.round == 2
    rows = {r.player: r for r in await rig.runner.standings(event_id, SPACE)}
    assert sum(r.adjudicated_games for r in rows.values()) == 4


async def test_a_dropped_player_is_played_out_by_an_ai_and_left_out_of_later_rounds(rig: Rig) -> None:
    """Dropping hands the player's current seat to an AI; later rounds pair the others only."""
    event_id = await new_event(rig, players=PLAYERS + ["discord:9"], rounds=2)
    await rig.runner.start(event_id, SPACE, ORGANISER)
    leaver = PLAYERS[0]
    with pytest.raises(TournamentError) as refused:
        await rig.runner.drop(event_id, SPACE, PLAYERS[1], leaver)
    assert refused.value.code == "forbidden"
    game_id = await rig.runner.drop(event_id, SPACE, leaver, leaver)
    assert game_id is not None
    row = await rig.service.game_row(game_id)
    assert leaver not in [s.player for s in row.seats]
    await play_round(rig, event_id)
    round_two = await rig.runner.store.tables(event_id, 2)
    assert leaver not in [p for t in round_two for p in t.seats]
    assert sorted(len(t.seats) for t in round_two) == [4, 4]
    rows = {r.player: r for r in await rig.runner.standings(event_id, SPACE)}
    assert rows[leaver].dropped and rows[leaver].ai_takeovers == 1
    assert (await rig.runner.store.entries(event_id))[0].state == DROPPED


async def test_restart_resumes_from_sqlite_and_records_games_that_ended_meanwhile(tmp_path: Path) -> None:
    """A new process on the same database finds the event, records the games that finished while
    no runner listened, and pairs the next round."""
    clock = Clock()
    rig = await open_rig(tmp_path / "t.db", clock)
    event_id = await new_event(rig)
    await rig.runner.start(event_id, SPACE, ORGANISER)
    rig.service.stream._subscribers.clear()  # the runner is gone; the games go on
    await play_round(rig, event_id)
    assert await rig.runner.store.results(event_id) == []
    await rig.storage.close()
    rig = await open_rig(tmp_path / "t.db", clock)
    await rig.service.resume_all()
    await rig.runner.resume()
    await rig.service.stream.drain()
    assert len(await rig.runner.store.results(event_id)) == 2
    event = await rig.runner.store.event(event_id)
    assert event is not None and event.round == 2 and len(await rig.runner.store.tables(event_id, 2)) == 2
    await rig.storage.close()


async def test_a_table_left_unstarted_by_a_crash_is_seated_and_started_on_resume(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """If the bot stops between creating a table's game and starting it, resuming seats the
    table's players in the pairing's order and starts the game."""
    clock = Clock()
    rig = await open_rig(tmp_path / "t.db", clock)
    event_id = await new_event(rig)
    real_start = rig.service.start
    calls = 0

    async def start_then_crash(*args: object, **kwargs: object) -> object:
        nonlocal calls
        calls += 1
        if calls == 2:
            raise RuntimeError("the process stopped here")
        return await real_start(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(rig.service, "start", start_then_crash)
    with pytest.raises(RuntimeError):
        await rig.runner.start(event_id, SPACE, ORGANISER)
    await rig.service.stream.drain()
    await rig.storage.close()
    monkeypatch.undo()
    rig = await open_rig(tmp_path / "t.db", clock)
    await rig.service.resume_all()
    await rig.runner.resume()
    tables = await rig.runner.store.tables(event_id, 1)
    assert len(tables) == 2
    for table in tables:
        assert table.game_id is not None
        row = await rig.service.game_row(table.game_id)
        assert row.status == "active" and [s.player for s in row.seats] == list(table.seats)
    await rig.service.stream.drain()
    await rig.storage.close()


async def test_a_correction_replaces_the_result_keeps_its_reason_and_the_standings_follow(rig: Rig) -> None:
    """A correction changes the ranks, keeps the engine's scores and the reason, and is counted."""
    event_id = await new_event(rig, rounds=1)
    await rig.runner.start(event_id, SPACE, ORGANISER)
    await play_round(rig, event_id)
    before = (await rig.runner.store.results(event_id))[0]
    n = len(before.seats)
    reversed_ranks = (
        list(range(n, 0, -1))
        if [s.rank for s in before.seats] != list(range(n, 0, -1))
        else list(range(1, n + 1))
    )
    with pytest.raises(TournamentError):
        await rig.runner.correct(event_id, SPACE, ORGANISER, 1, 1, reversed_ranks, "  ")
    with pytest.raises(TournamentError) as refused:
        await rig.runner.correct(event_id, SPACE, PLAYERS[0], 1, 1, reversed_ranks, "typo")
    assert refused.value.code == "forbidden"
    await rig.runner.correct(event_id, SPACE, ORGANISER, 1, 1, reversed_ranks, "Seat order was misread")
    after = (await rig.runner.store.results(event_id))[0]
    assert [s.rank for s in after.seats] == reversed_ranks
    assert [s.score for s in after.seats] == [s.score for s in before.seats]
    history = await rig.runner.store.result_history(event_id)
    assert [h.correction_reason for h in history if h.table == 1] == [None, "Seat order was misread"]
    rows = {r.player: r for r in await rig.runner.standings(event_id, SPACE)}
    assert all(rows[p].corrected_games == 1 for p in before.players)
    assert [
        (r.player, r.place_points, r.position) for r in await rig.runner.standings(event_id, SPACE)
    ] == await recomputed_standings(rig, event_id)


async def test_pause_stops_pairing_until_the_event_is_started_again(rig: Rig) -> None:
    """A paused event lets its games finish but pairs no new round until /tournament start."""
    event_id = await new_event(rig)
    await rig.runner.start(event_id, SPACE, ORGANISER)
    await rig.runner.pause(event_id, SPACE, ORGANISER)
    await play_round(rig, event_id)
    event = await rig.runner.store.event(event_id)
    assert event is not None and event.status == PAUSED and event.round == 1
    await rig.runner.start(event_id, SPACE, ORGANISER)
    event = await rig.runner.store.event(event_id)
    assert event is not None and event.status == RUNNING and event.round == 2


async def test_registration_cap_waiting_list_checkin_and_server_boundary(rig: Rig) -> None:
    """Past the cap players wait; a leaver's place goes to the first waiting; with check-in only
    checked-in players are seated; another server sees no event at all."""
    event = await rig.runner.create_event(
        game_name="ttr", space=SPACE, creator=ORGANISER, name="Capped", cap=4, checkin=True, rounds=1, seed=5
    )
    states = [await rig.runner.join(event.id, SPACE, p, p) for p in PLAYERS[:6]]
    assert states == ["entered"] * 4 + [WAITING] * 2
    with pytest.raises(TournamentError) as twice:
        await rig.runner.join(event.id, SPACE, PLAYERS[0], "again")
    assert twice.value.code == "already_registered"
    assert await rig.runner.leave(event.id, SPACE, PLAYERS[0]) == PLAYERS[4]
    with pytest.raises(TournamentError) as elsewhere:
        await rig.runner.join(event.id, "discord:guild:2", PLAYERS[7], "x")
    assert elsewhere.value.message == f"There is no event #{event.id} here."
    for p in PLAYERS[1:4] + [PLAYERS[5]]:
        await rig.runner.checkin(event.id, SPACE, p)
    await rig.runner.start(event.id, SPACE, ORGANISER)
    seated = [p for t in await rig.runner.store.tables(event.id, 1) for p in t.seats]
    assert sorted(seated) == sorted(PLAYERS[1:4] + [PLAYERS[5]])
    states_now = {e.player: e.state for e in await rig.runner.store.entries(event.id)}
    assert states_now[PLAYERS[4]] == NO_SHOW


async def test_bad_settings_are_refused_with_a_sentence_and_create_nothing(rig: Rig) -> None:
    """Switzerland seats 2–3: a 4-player-table event on it is refused; so is a duplicate name.
    First Class seats 2–4: its 4-player tables never fall back to tables of 5."""
    with pytest.raises(TournamentError) as bad:
        await rig.runner.create_event(
            game_name="ttr", space=SPACE, creator=ORGANISER, name="Alps", boards=("switzerland",)
        )
    assert "seat 2 to 3" in bad.value.message
    assert await rig.runner.store.events(SPACE) == []
    await rig.runner.create_event(
        game_name="ttr", space=SPACE, creator=ORGANISER, name="Alps", boards=("switzerland",), table_size=2
    )
    with pytest.raises(TournamentError) as dup:
        await rig.runner.create_event(
            game_name="ttr",
            space=SPACE,
            creator=ORGANISER,
            name="alps",
            boards=("switzerland",),
            table_size=2,
        )
    assert dup.value.code == "duplicate"
    fc = await rig.runner.create_event(space=SPACE, creator=ORGANISER, name="FC", game_name="first-class")
    assert fc.config.table_sizes == (3, 4) and fc.config.boards == ("first-class",)


async def hand_round_to_ais(rig: Rig, event_id: int) -> None:
    """Every person's seat in the current round handed to an AI, which plays each game out."""
    event = await rig.runner.store.event(event_id)
    assert event is not None
    for table in await rig.runner.store.tables(event_id, event.round):
        assert table.game_id is not None
        row = await rig.service.game_row(table.game_id)
        for seat in row.seats:
            if not seat.is_ai and (await rig.service.game_row(table.game_id)).status == "active":
                await rig.service.replace_with_ai(
                    table.game_id, None, seat.seat + 1, is_admin=True, where=SPACE
                )
    await rig.service.stream.drain()


@pytest.mark.slow
@pytest.mark.parametrize(
    ("game", "boards", "size", "players", "rounds"),
    [
        ("ttr", ("usa",), 4, 16, 3),
        ("ttr", ("switzerland",), 2, 6, 3),
        ("first-class", (), 4, 8, 2),
    ],
)
async def test_events_of_every_shape_run_to_their_final_standings(
    rig: Rig, game: str, boards: tuple[str, ...], size: int, players: int, rounds: int
) -> None:
    """16 players over 3 rounds at 4-player tables, a 2-player Switzerland event and a First Class
    event each run to the end: every round seats everyone once, with no repeat meeting where the
    field allows it, and the final standings are those recomputed from the games."""
    field = [f"discord:{i}" for i in range(1, players + 1)]
    options: dict[str, object] = {"game_name": game, "table_size": size, "rounds": rounds}
    if boards:
        options["boards"] = boards
    event_id = await new_event(rig, players=field, count_ai_takeovers=True, **options)
    await rig.runner.start(event_id, SPACE, ORGANISER)
    for number in range(1, rounds + 1):
        tables = await rig.runner.store.tables(event_id, number)
        assert sorted(p for t in tables for p in t.seats) == sorted(field)
        assert all(len(t.seats) == size for t in tables)
        await hand_round_to_ais(rig, event_id)
    event = await rig.runner.store.event(event_id)
    assert event is not None and event.status == FINISHED
    met = [
        frozenset((a, b))
        for t in await rig.runner.store.tables(event_id)
        for a in t.seats
        for b in t.seats
        if a < b
    ]
    if game == "ttr" and size == 4:
        assert len(met) == len(set(met))  # 16 players, 3 rounds of 4: nobody meets twice
    rows = await rig.runner.standings(event_id, SPACE)
    assert [(r.player, r.place_points, r.position) for r in rows] == await recomputed_standings(rig, event_id)
    book = await rig.runner.store.rating_book(SPACE)
    assert book.rating(field[0], game).games == rounds


@pytest.mark.parametrize(
    ("format", "players", "extra"),
    [
        ("swiss_final", 12, {"final_size": 4}),
        ("groups_final", 16, {"final_size": 4, "groups": 2}),
    ],
)
async def test_events_with_a_final_table_seat_the_best_and_finish_in_the_finals_order(
    rig: Rig, format: str, players: int, extra: dict[str, int]
) -> None:
    """Swiss-then-final and groups-then-final events run with real games: after the Swiss (or
    group) rounds one final table seats the best players (with groups, the same number from each
    group, every earlier table inside one group); the final standings put the finalists first in
    the final game's order, and are those recomputed from the games."""
    field = [f"discord:{i}" for i in range(1, players + 1)]
    event_id = await new_event(rig, players=field, format=format, rounds=2, count_ai_takeovers=True, **extra)
    await rig.runner.start(event_id, SPACE, ORGANISER)
    await play_round(rig, event_id)  # people's moves in round 1, AI seats after
    await hand_round_to_ais(rig, event_id)
    event = await rig.runner.store.event(event_id)
    assert event is not None and event.round == 3 and event.status == RUNNING
    groups: dict[str, int] = event.settings["groups"]
    for table in await rig.runner.store.tables(event_id):
        if table.round <= 2 and format == "groups_final":
            assert len({groups[p] for p in table.seats}) == 1 and table.group == groups[table.seats[0]]
    (final,) = await rig.runner.store.tables(event_id, 3)
    assert final.stage.value == "final" and len(final.seats) == 4
    before = standings(
        event.config,
        await rig.runner.store.results(event_id),
        rig.runner.registration(await rig.runner.store.entries(event_id)),
    )
    if format == "groups_final":
        expected = [r.player for g in (1, 2) for r in [row for row in before if row.group == g][:2]]
    else:
        expected = [r.player for r in before[:4]]
    assert sorted(final.seats) == sorted(expected)

    await hand_round_to_ais(rig, event_id)
    event = await rig.runner.store.event(event_id)
    assert event is not None and event.status == FINISHED
    final_result = next(r for r in await rig.runner.store.results(event_id) if r.round == 3)
    rows = await rig.runner.standings(event_id, SPACE)
    by_final = sorted(final_result.seats, key=lambda s: s.rank)
    assert [r.final_rank for r in rows[:4]] == [s.rank for s in by_final]
    assert {r.player for r in rows[:4]} == set(final.seats)
    assert [(r.player, r.place_points, r.position) for r in rows] == await recomputed_standings(rig, event_id)


async def test_the_ranking_chain_and_seeding_by_rating_are_the_organisers_choice(rig: Rig) -> None:
    """An organiser sets the tie-break chain (its first criterion ranks, the rest break ties) and
    seeding by rating; an unknown criterion or one listed twice is refused with a sentence and
    no event is made."""
    event = await rig.runner.create_event(
        game_name="ttr",
        space=SPACE,
        creator=ORGANISER,
        name="Wins Cup",
        ranking=["wins", "total_score"],
        seed_round_one_by_rating=True,
    )
    assert [c.value for c in event.config.ranking] == ["wins", "total_score"]
    assert event.config.seed_round_one_by_rating
    for bad, words in ((["wins", "luck"], "Unknown tie-break 'luck'"), (["wins", "wins"], "listed twice")):
        with pytest.raises(TournamentError) as refused:
            await rig.runner.create_event(
                game_name="ttr", space=SPACE, creator=ORGANISER, name="Bad Cup", ranking=bad
            )
        assert words in refused.value.message
    assert [e.name for e in await rig.runner.store.events(SPACE)] == ["Wins Cup"]
