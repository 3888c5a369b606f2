"""An organiser's repairs, against the real GameService and SQLite: voiding or replaying a table
whose game broke or was aborted, and corrections that re-rate.

A round must never wait forever on a table that cannot finish, and the ratings must always be
those the games give when rated in order, whatever was corrected or voided since.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from test_runner import (
    ORGANISER,
    PLAYERS,
    SPACE,
    Clock,
    Rig,
    hand_round_to_ais,
    new_event,
    open_rig,
    play_round,
    recomputed_standings,
)

from bot.tournament.model import GameResult, TournamentError
from bot.tournament.ratings import RatingBook, rate_event_game, rebuild_ratings
from bot.tournament.store import FINISHED, RUNNING


@pytest.fixture
async def rig(tmp_path: Path) -> AsyncIterator[Rig]:
    r = await open_rig(tmp_path / "t.db", Clock())
    yield r
    await r.service.stream.drain()
    await r.storage.close()


def views(book: RatingBook) -> dict[object, dict[str, object]]:
    return {view: dict(table) for view, table in book.views.items()}


async def rated_in_order(rig: Rig, event_id: int) -> list[GameResult]:
    """The event's standing results in the order their games were first rated."""
    by_game = {int(r.game_id): r for r in await rig.runner.store.results(event_id) if not r.void}
    return [
        by_game[gid]
        for eid, gid in await rig.runner.store.rated_games(SPACE)
        if eid == event_id and gid in by_game
    ]


async def test_an_aborted_table_is_voided_with_its_reason_and_the_round_goes_on(rig: Rig) -> None:
    """An aborted game never finishes, so its round would wait forever: the organiser voids the
    table (a reason is required and kept); its players get no points and no game, nothing is
    rated, and the next round is paired."""
    event_id = await new_event(rig, rounds=2)
    await rig.runner.start(event_id, SPACE, ORGANISER)
    await play_round(rig, event_id, skip=frozenset({2}))
    stuck = (await rig.runner.store.tables(event_id, 1))[1]
    assert stuck.game_id is not None
    await rig.service.abort(stuck.game_id, ORGANISER, where=SPACE)
    await rig.service.stream.drain()
    event = await rig.runner.store.event(event_id)
    assert event is not None and event.round == 1  # blocked: table 2 will never finish by itself

    with pytest.raises(TournamentError) as no_reason:
        await rig.runner.void_table(event_id, SPACE, ORGANISER, 1, 2, "  ")
    assert "reason" in no_reason.value.message
    with pytest.raises(TournamentError) as player:
        await rig.runner.void_table(event_id, SPACE, PLAYERS[0], 1, 2, "game aborted")
    assert player.value.code == "forbidden"
    with pytest.raises(TournamentError) as nowhere:
        await rig.runner.void_table(event_id, SPACE, ORGANISER, 1, 7, "game aborted")
    assert nowhere.value.code == "no_table"
    assert len(await rig.runner.store.results(event_id)) == 1  # refusals changed nothing

    voided = await rig.runner.void_table(event_id, SPACE, ORGANISER, 1, 2, "Game aborted: the server lost it")
    assert voided.void and voided.correction_reason == "Game aborted: the server lost it"
    history = await rig.runner.store.result_history(event_id)
    assert [(h.table, h.correction_reason, h.corrected_by) for h in history if h.table == 2] == [
        (2, "Game aborted: the server lost it", ORGANISER)
    ]
    event = await rig.runner.store.event(event_id)
    assert event is not None and event.round == 2 and event.status == RUNNING
    rows = {r.player: r for r in await rig.runner.standings(event_id, SPACE)}
    assert all(rows[p].games == 0 and rows[p].place_points == 0 for p in stuck.seats)
    book = await rig.runner.store.rating_book(SPACE)
    assert str(stuck.game_id) not in book.rated_games and len(book.rated_games) == 1
    with pytest.raises(TournamentError) as twice:
        await rig.runner.void_table(event_id, SPACE, ORGANISER, 1, 2, "again")
    assert twice.value.code == "void"
    with pytest.raises(TournamentError) as correct_void:
        await rig.runner.correct(event_id, SPACE, ORGANISER, 1, 2, [1, 2, 3, 4], "typo")
    assert correct_void.value.code == "void"


async def test_a_broken_table_is_replayed_as_a_new_game_for_the_same_seats(rig: Rig) -> None:
    """A table whose game broke is played again: a new game with a new deal for the same seats in
    the same order; the old game is kept in the export with the reason; a player who dropped
    meanwhile has an AI in their seat; the new game's result counts."""
    event_id = await new_event(rig, rounds=1)
    await rig.runner.start(event_id, SPACE, ORGANISER)
    first, second = await rig.runner.store.tables(event_id, 1)
    assert first.game_id is not None and second.game_id is not None
    leaver = second.seats[2]
    await rig.runner.drop(event_id, SPACE, leaver, leaver)
    await rig.storage.mark_broken(second.game_id, "test: the stored state is damaged")
    rig.service.evict(second.game_id)
    await play_round(rig, event_id, skip=frozenset({2}))

    with pytest.raises(TournamentError) as finished:
        await rig.runner.replay_table(event_id, SPACE, ORGANISER, 1, 1, "again please")
    assert finished.value.code == "has_result"
    with pytest.raises(TournamentError) as player:
        await rig.runner.replay_table(event_id, SPACE, PLAYERS[0], 1, 2, "again please")
    assert player.value.code == "forbidden"
    with pytest.raises(TournamentError):
        await rig.runner.replay_table(event_id, SPACE, ORGANISER, 1, 2, "")

    new_id = await rig.runner.replay_table(event_id, SPACE, ORGANISER, 1, 2, "Game broke after a crash")
    assert new_id != second.game_id
    table = (await rig.runner.store.tables(event_id, 1))[1]
    assert table.game_id == new_id and table.seats == second.seats
    old_row, new_row = await rig.storage.get_game(second.game_id), await rig.service.game_row(new_id)
    assert new_row.status == "active"
    assert [s.player for s in new_row.seats] == [None if p == leaver else p for p in second.seats]
    assert [s.is_ai for s in new_row.seats] == [p == leaver for p in second.seats]
    assert old_row.seed != new_row.seed and old_row.status == "broken"

    await play_round(rig, event_id)
    event = await rig.runner.store.event(event_id)
    assert event is not None and event.status == FINISHED
    results = await rig.runner.store.results(event_id)
    assert [r.game_id for r in results] == [str(first.game_id), str(new_id)]
    assert [s.ai_takeover for s in results[1].seats] == [p == leaver for p in second.seats]
    exported = await rig.runner.export(event_id, SPACE)
    assert [(g["id"], g["replay_reason"]) for g in exported["replaced_games"]] == [
        (second.game_id, "Game broke after a crash")
    ]
    assert [
        (r.player, r.place_points, r.position) for r in await rig.runner.standings(event_id, SPACE)
    ] == await recomputed_standings(rig, event_id)


async def test_ratings_rebuilt_from_the_games_in_order_equal_the_incremental_ones(rig: Rig) -> None:
    """Game by game rating as results come in gives exactly the book that rating the stored
    games again from scratch, in the order they were rated, gives."""
    event_id = await new_event(rig, rounds=2, count_ai_takeovers=True)
    await rig.runner.start(event_id, SPACE, ORGANISER)
    await hand_round_to_ais(rig, event_id)
    await hand_round_to_ais(rig, event_id)
    event = await rig.runner.store.event(event_id)
    assert event is not None and event.status == FINISHED
    incremental = await rig.runner.store.rating_book(SPACE)
    rebuilt = rebuild_ratings((event.config, r) for r in await rated_in_order(rig, event_id))
    assert len(rebuilt.rated_games) == 4
    assert views(incremental) == views(rebuilt) and incremental.history == rebuilt.history


async def test_a_correction_and_a_void_re_rate_the_players_from_the_games_in_order(rig: Rig) -> None:
    """A corrected result rebuilds the ratings from the games in their order with the correction
    in place: the stored book equals rating the corrected games one by one, the table's players'
    ratings move, and a voided game drops out of everyone's ratings."""
    event_id = await new_event(rig, rounds=2, count_ai_takeovers=True)
    await rig.runner.start(event_id, SPACE, ORGANISER)
    await hand_round_to_ais(rig, event_id)
    await hand_round_to_ais(rig, event_id)
    event = await rig.runner.store.event(event_id)
    assert event is not None
    before = await rig.runner.store.rating_book(SPACE)
    target = next(r for r in await rig.runner.store.results(event_id) if (r.round, r.table) == (1, 1))
    reversed_ranks = [len(target.seats) + 1 - s.rank for s in target.seats]
    assert reversed_ranks != [s.rank for s in target.seats]
    await rig.runner.correct(event_id, SPACE, ORGANISER, 1, 1, reversed_ranks, "Scores were misread")

    after = await rig.runner.store.rating_book(SPACE)
    incremental = RatingBook()
    for result in await rated_in_order(rig, event_id):
        incremental = rate_event_game(incremental, event.config, result)
    assert views(after) == views(incremental) and after.history == incremental.history
    assert any(c.rank != b.rank for c, b in zip(after.history, before.history, strict=True))
    for player in target.players:
        assert after.rating(player, "ttr") != before.rating(player, "ttr")
        assert after.rating(player, "ttr").games == 2

    await rig.runner.void_table(event_id, SPACE, ORGANISER, 2, 1, "A player used a second account")
    voided = await rig.runner.store.rating_book(SPACE)
    gone = next(r for r in await rig.runner.store.results(event_id) if (r.round, r.table) == (2, 1))
    assert gone.void and gone.game_id not in voided.rated_games and len(voided.rated_games) == 3
    rebuilt = rebuild_ratings((event.config, r) for r in await rated_in_order(rig, event_id))
    assert views(voided) == views(rebuilt)
    for player in gone.players:
        assert voided.rating(player, "ttr").games == 1


async def test_a_replay_cut_short_by_a_crash_is_completed_on_resume(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """If the bot stops after a replay was recorded but before its new game exists, the next
    start creates that game: the replay's own new deal, the same seats, the old game kept."""
    clock = Clock()
    rig = await open_rig(tmp_path / "t.db", clock)
    event_id = await new_event(rig, rounds=1)
    await rig.runner.start(event_id, SPACE, ORGANISER)
    old = (await rig.runner.store.tables(event_id, 1))[0]
    assert old.game_id is not None

    async def crash(*args: object, **kwargs: object) -> None:
        raise RuntimeError("the process stopped here")

    monkeypatch.setattr(rig.runner, "_create_game", crash)
    with pytest.raises(RuntimeError):
        await rig.runner.replay_table(event_id, SPACE, ORGANISER, 1, 1, "Seats were swapped by mistake")
    await rig.service.stream.drain()
    await rig.storage.close()
    monkeypatch.undo()

    rig = await open_rig(tmp_path / "t.db", clock)
    await rig.service.resume_all()
    await rig.runner.resume()
    table = (await rig.runner.store.tables(event_id, 1))[0]
    assert table.game_id is not None and table.game_id != old.game_id and table.seats == old.seats
    new_row, old_row = await rig.service.game_row(table.game_id), await rig.service.game_row(old.game_id)
    assert new_row.status == "active" and [s.player for s in new_row.seats] == list(old.seats)
    assert old_row.status == "aborted" and new_row.seed != old_row.seed
    event = await rig.runner.store.event(event_id)
    assert event is not None and [r["reason"] for r in event.settings["replays"]] == [
        "Seats were swapped by mistake"
    ]
    await rig.service.stream.drain()
    await rig.storage.close()
