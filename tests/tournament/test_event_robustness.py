"""An event never gets stuck (issue 32, findings 1 and 10).

Promises: a setting a table's game would refuse is refused when the event is created, with the
game's own sentence; starting a round is all or nothing (its games all exist, or nothing changed
and the organiser is told why); a round paired automatically whose games cannot be created leaves
the event paused, not running with empty tables; start-up survives one damaged row: that game is
marked broken and reported, every other event resumes.
"""

from __future__ import annotations

import sqlite3
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from test_runner import ORGANISER, PLAYERS, SPACE, Clock, Rig, new_event, open_rig, play_round

from bot.service import GameService, ServiceError
from bot.store.rows import ABORTED, BROKEN
from bot.tournament.model import TournamentError
from bot.tournament.store import PAUSED, REGISTRATION, RUNNING
from lang import M


@pytest.fixture
async def rig(tmp_path: Path) -> AsyncIterator[Rig]:
    r = await open_rig(tmp_path / "t.db", Clock())
    yield r
    await r.service.stream.drain()
    await r.storage.close()


async def second_event(rig: Rig, players: list[str]) -> int:
    event = await rig.runner.create_event(
        game_name="ttr", space=SPACE, creator=ORGANISER, name="Summer Cup", rounds=2, seed=12
    )
    for p in players:
        await rig.runner.join(event.id, SPACE, p, p)
    return event.id


async def test_a_turn_timer_games_refuse_is_refused_at_creation_with_the_games_sentence(rig: Rig) -> None:
    """Finding 1: a 0.01-hour timer was accepted, and round 1 then failed to create its games."""
    with pytest.raises(ServiceError) as game_refusal:
        GameService.check_timer(0.01)
    with pytest.raises(TournamentError) as refused:
        await rig.runner.create_event(
            game_name="ttr", space=SPACE, creator=ORGANISER, name="Fast", turn_hours=0.01
        )
    assert refused.value.code == "bad_config"
    assert refused.value.message == game_refusal.value.message  # the same sentence as /ttr new's
    assert await rig.runner.store.events(SPACE) == []


def failing_create_game(rig: Rig, monkeypatch: pytest.MonkeyPatch, fail_at: int) -> list[int]:
    """The service's create_game, failing (as a game's refusal) on its ``fail_at``-th call; the ids
    of the games it did create are listed."""
    real = rig.service.create_game
    made: list[int] = []

    async def create_game(**kwargs: object) -> object:
        if len(made) + 1 == fail_at:
            raise ServiceError("bad_option", M("This board cannot be played today."))
        row = await real(**kwargs)  # type: ignore[arg-type]
        made.append(row.id)
        return row

    monkeypatch.setattr(rig.service, "create_game", create_game)
    return made


async def test_starting_a_round_whose_games_cannot_all_be_created_changes_nothing(
    rig: Rig, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Finding 1: the event stayed "running" with empty tables and no command recovered it."""
    event_id = await new_event(rig)
    made = failing_create_game(rig, monkeypatch, fail_at=2)
    with pytest.raises(TournamentError) as refused:
        await rig.runner.start(event_id, SPACE, ORGANISER)
    assert refused.value.code == "round_not_started"
    assert "This board cannot be played today." in refused.value.message
    event = await rig.runner.store.event(event_id)
    assert event is not None and (event.status, event.round) == (REGISTRATION, 0)
    assert await rig.runner.store.tables(event_id) == [] and await rig.runner.store.rounds(event_id) == []
    assert [(await rig.service.game_row(g)).status for g in made] == [ABORTED]
    monkeypatch.undo()
    started = await rig.runner.start(event_id, SPACE, ORGANISER)  # the organiser can simply try again
    assert (started.status, started.round) == (RUNNING, 1)
    assert all(t.game_id is not None for t in await rig.runner.store.tables(event_id, 1))


async def test_a_next_round_whose_games_cannot_be_created_pauses_the_event_with_round_one_intact(
    rig: Rig, monkeypatch: pytest.MonkeyPatch
) -> None:
    event_id = await new_event(rig)
    await rig.runner.start(event_id, SPACE, ORGANISER)
    made = failing_create_game(rig, monkeypatch, fail_at=1)
    await play_round(rig, event_id)
    event = await rig.runner.store.event(event_id)
    assert event is not None and (event.status, event.round) == (PAUSED, 1)
    assert "could not be started" in event.settings["paused_because"]
    assert await rig.runner.store.tables(event_id, 2) == [] and made == []
    assert len(await rig.runner.store.results(event_id)) == 2
    with pytest.raises(TournamentError) as refused:  # still failing: the organiser is told why
        await rig.runner.start(event_id, SPACE, ORGANISER)
    assert "This board cannot be played today." in refused.value.message
    monkeypatch.undo()
    event = await rig.runner.start(event_id, SPACE, ORGANISER)
    assert (event.status, event.round) == (RUNNING, 2) and "paused_because" not in event.settings


async def test_start_up_survives_a_damaged_seat_row_and_resumes_every_other_event(tmp_path: Path) -> None:
    """Finding 10: one damaged seat row made the start-up hook raise, so no event was resumed."""
    clock = Clock()
    rig = await open_rig(tmp_path / "t.db", clock)
    damaged_event = await new_event(rig, PLAYERS[:4])
    other_event = await second_event(rig, PLAYERS[4:])
    await rig.runner.start(damaged_event, SPACE, ORGANISER)
    await rig.runner.start(other_event, SPACE, ORGANISER)
    rig.service.stream._subscribers.clear()  # the runner is gone; the other event's game ends
    await play_round(rig, other_event)
    (damaged_table,) = await rig.runner.store.tables(damaged_event, 1)
    await rig.storage.close()
    with sqlite3.connect(tmp_path / "t.db") as conn:
        conn.execute("UPDATE seats SET seat='x' WHERE game_id=? AND seat=1", (damaged_table.game_id,))
    conn.close()
    rig = await open_rig(tmp_path / "t.db", clock)
    await rig.service.resume_all()
    assert await rig.runner.resume() == []
    await rig.service.stream.drain()
    assert damaged_table.game_id is not None
    status, _reason = next(
        (s.status, s.broken_reason)
        for s in await rig.storage.game_statuses()
        if s.id == damaged_table.game_id
    )
    assert status == BROKEN
    other = await rig.runner.store.event(other_event)
    assert other is not None and other.round == 2, "the other event recorded its result and paired on"
    progress = await rig.runner.progress(await rig.runner.event(damaged_event, SPACE))
    assert [p.status for p in progress] == [BROKEN], "the status message reports the broken table"
    await rig.storage.close()


async def test_start_up_survives_an_event_whose_own_row_is_damaged(tmp_path: Path) -> None:
    clock = Clock()
    rig = await open_rig(tmp_path / "t.db", clock)
    damaged_event = await new_event(rig, PLAYERS[:4])
    other_event = await second_event(rig, PLAYERS[4:])
    await rig.runner.start(damaged_event, SPACE, ORGANISER)
    await rig.runner.start(other_event, SPACE, ORGANISER)
    rig.service.stream._subscribers.clear()
    await play_round(rig, other_event)
    await rig.storage.close()
    with sqlite3.connect(tmp_path / "t.db") as conn:
        conn.execute("UPDATE tournament_tables SET seats='[' WHERE event_id=?", (damaged_event,))
    conn.close()
    rig = await open_rig(tmp_path / "t.db", clock)
    await rig.service.resume_all()
    assert await rig.runner.resume() == [damaged_event]
    await rig.service.stream.drain()
    other = await rig.runner.store.event(other_event)
    assert other is not None and other.round == 2
    await rig.storage.close()


async def test_a_kill_between_creating_a_tables_game_and_recording_it_leaves_no_orphan_lobby(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Finding 10: a kill after a table's game was created but before the table named it left
    that lobby behind for good, and start-up made the table a second game."""
    clock = Clock()
    rig = await open_rig(tmp_path / "t.db", clock)
    event_id = await new_event(rig)
    real_set_table = rig.runner.store.set_table

    async def killed(*args: object, **kwargs: object) -> None:
        if kwargs.get("game_id") is not None:
            raise RuntimeError("the process stopped here")
        await real_set_table(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(rig.runner.store, "set_table", killed)
    with pytest.raises(RuntimeError):
        await rig.runner.start(event_id, SPACE, ORGANISER)
    (orphan,) = await rig.storage.game_ids(("lobby",))
    await rig.storage.close()
    monkeypatch.undo()
    rig = await open_rig(tmp_path / "t.db", clock)
    await rig.service.resume_all()
    assert await rig.runner.resume() == []
    assert (await rig.service.game_row(orphan)).status == ABORTED
    tables = await rig.runner.store.tables(event_id, 1)
    assert all(t.game_id is not None and t.game_id != orphan for t in tables)
    assert await rig.storage.game_ids(("lobby",)) == []
    assert sorted(await rig.storage.game_ids(("active",))) == sorted(t.game_id for t in tables)
    await rig.service.stream.drain()
    await rig.storage.close()
