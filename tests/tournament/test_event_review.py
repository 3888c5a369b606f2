"""`pairing: after review` (issue 32, finding 5): round N+1 was paired the moment round N's last
result arrived, so a correction could not change the next pairing unless the organiser had paused
in advance. With review, a complete round waits (across a restart) until the organiser confirms,
and the next round is paired from the results as they then stand, corrections included."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import replace
from pathlib import Path

import pytest
from test_runner import ORGANISER, PLAYERS, SPACE, Clock, Rig, open_rig, play_round

from bot.tournament.model import TournamentError
from bot.tournament.pairing import pair_round


@pytest.fixture
async def rig(tmp_path: Path) -> AsyncIterator[Rig]:
    r = await open_rig(tmp_path / "t.db", Clock())
    yield r
    await r.service.stream.drain()
    await r.storage.close()


async def reviewed_event(rig: Rig) -> int:
    event = await rig.runner.create_event(
        game_name="ttr",
        space=SPACE,
        creator=ORGANISER,
        name="Careful Cup",
        rounds=3,
        seed=11,
        pairing="review",
    )
    for p in PLAYERS:
        await rig.runner.join(event.id, SPACE, p, p)
    await rig.runner.start(event.id, SPACE, ORGANISER)
    return event.id


async def test_a_correction_made_during_review_changes_the_next_pairing(tmp_path: Path) -> None:
    clock = Clock()
    rig = await open_rig(tmp_path / "t.db", clock)
    event_id = await reviewed_event(rig)
    with pytest.raises(TournamentError) as early:
        await rig.runner.confirm(event_id, SPACE, ORGANISER)
    assert early.value.code == "no_review"  # round 1 is still being played
    await play_round(rig, event_id)
    event = await rig.runner.store.event(event_id)
    assert event is not None and event.round == 1 and await rig.runner.awaiting_review(event)
    assert await rig.runner.store.tables(event_id, 2) == [], "nothing is paired before the review"
    # a restart while the round waits keeps it waiting
    await rig.storage.close()
    rig = await open_rig(tmp_path / "t.db", clock)
    await rig.service.resume_all()
    await rig.runner.resume()
    event = await rig.runner.store.event(event_id)
    assert event is not None and event.round == 1 and await rig.runner.awaiting_review(event)
    # the organiser finds the correction (reversing a table's ranks) that moves the next pairing
    results = await rig.runner.store.results(event_id)
    registration = rig.runner.registration(await rig.runner.store.entries(event_id))

    def pairing_with(changed: list[object]) -> list[tuple[str, ...]]:
        tables = pair_round(event.config, registration, changed, 2, event.seed).tables  # type: ignore[arg-type, union-attr]
        return [t.seats for t in tables]

    before = pairing_with(list(results))
    table = results[0]
    # the last finisher first, and so on (ties split): every seat's place changes or stays distinct
    order = sorted(range(len(table.seats)), key=lambda i: (-table.seats[i].rank, i))
    ranks = [order.index(i) + 1 for i in range(len(table.seats))]
    corrected = table.corrected(
        [replace(seat, rank=rank) for seat, rank in zip(table.seats, ranks, strict=True)], "x"
    )
    expected = pairing_with([corrected, *results[1:]])
    assert expected != before, "this correction moves players between tables"
    with pytest.raises(TournamentError) as refused:
        await rig.runner.confirm(event_id, SPACE, PLAYERS[0])
    assert refused.value.code == "forbidden"
    await rig.runner.correct(event_id, SPACE, ORGANISER, 1, table.table, ranks, "scores were swapped")
    event = await rig.runner.confirm(event_id, SPACE, ORGANISER)
    assert event.round == 2
    assert [t.seats for t in await rig.runner.store.tables(event_id, 2)] == expected
    await rig.service.stream.drain()
    await rig.storage.close()


async def test_an_automatic_event_pairs_at_once_and_refuses_a_confirmation(rig: Rig) -> None:
    event = await rig.runner.create_event(
        game_name="ttr", space=SPACE, creator=ORGANISER, name="Quick Cup", rounds=2, seed=3
    )
    for p in PLAYERS:
        await rig.runner.join(event.id, SPACE, p, p)
    await rig.runner.start(event.id, SPACE, ORGANISER)
    await play_round(rig, event.id)
    row = await rig.runner.store.event(event.id)
    assert row is not None and row.round == 2
    with pytest.raises(TournamentError):
        await rig.runner.confirm(event.id, SPACE, ORGANISER)
    with pytest.raises(TournamentError) as bad:
        await rig.runner.create_event(
            game_name="ttr", space=SPACE, creator=ORGANISER, name="Odd", pairing="sometimes"
        )
    assert bad.value.code == "bad_config"
