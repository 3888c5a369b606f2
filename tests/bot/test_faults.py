"""A write that fails leaves the game exactly as the log says, and a stalled game resumes by itself.

Trust issue findings reproduced here: a failed commit during AI moves used to leave the cached game
mutated, so the next commit stored a snapshot holding two moves while the log held one (the export
no longer replayed); the game then stalled until a restart.
"""

from __future__ import annotations

import sqlite3
from typing import Any

import pytest
from bot_helpers import ALICE, FakeClock

from bot.scheduler import Scheduler
from bot.service import STALL_BACKOFF, GameService, ServiceError
from bot.store.sqlite import SqliteStore
from rules.games import find_game
from rules.registry import GameSpec


class _FullDisk:
    """Makes ``commit_action`` fail like a full disk for the moves of AI seats while ``full``."""

    def __init__(self, storage: SqliteStore, *, for_player: str | None | object = None) -> None:
        self.full = False
        self.failures = 0
        self._commit = storage.commit_action
        self._for = for_player

    async def __call__(
        self, game_id: int, expected_seq: int, seat: int, player: str | None, *args: Any, **kwargs: Any
    ) -> int:
        if self.full and (self._for is _ANY or player == self._for):
            self.failures += 1
            raise sqlite3.OperationalError("database or disk is full")
        return await self._commit(game_id, expected_seq, seat, player, *args, **kwargs)


_ANY = object()


async def _replays_to_snapshot(storage: SqliteStore, game_id: int) -> bool:
    export = await storage.export_game(game_id)
    spec = find_game(export["game"])
    game = spec.new(export["config"], export["players"], export["seed"])
    for seat, text in export["actions"]:
        game.apply(seat, spec.parse_action(text))
    return game.to_json() == (await storage.get_game(game_id)).snapshot


async def _against_an_ai(service: GameService) -> int:
    row = await service.create_game(
        game_name="ttr",
        config={"board": "usa"},
        creator=ALICE,
        creator_name="alice",
        seed=5,
        seat_order="join",
    )
    await service.add_ai(row.id, ALICE)
    await service.start(row.id, ALICE)
    return row.id


async def test_a_failed_ai_write_commits_nothing_and_the_game_resumes_when_the_disk_clears(
    service: GameService, storage: SqliteStore, clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    gid = await _against_an_ai(service)
    disk = _FullDisk(storage)
    monkeypatch.setattr(storage, "commit_action", disk)
    out = await service.act(gid, ALICE, (await service.legal_actions(gid, ALICE))[0])  # opening tickets
    disk.full = True
    while True:  # play until the AI must answer a committed human move
        legal = await service.legal_actions(gid, ALICE)
        out = await service.act(gid, ALICE, legal[0])
        if disk.failures:
            break
    assert out.seq == (await storage.get_game(gid)).seq  # the human move is committed and reported
    assert gid in service.stalled and list(out.to_act) == [1]  # the AI seat could not move
    assert await _replays_to_snapshot(storage, gid), "the snapshot holds exactly the logged moves"
    sched = Scheduler(service, clock=clock)
    await sched.tick()  # still full: nothing changes, the game stays stalled
    assert gid in service.stalled and await _replays_to_snapshot(storage, gid)
    disk.full = False
    clock.advance(STALL_BACKOFF * 4)
    await sched.tick()
    assert gid not in service.stalled
    assert (await service.load(gid)).game.seats_to_act() == [0]  # type: ignore[union-attr]
    assert await _replays_to_snapshot(storage, gid)


async def test_a_failed_write_of_a_human_move_changes_nothing(
    service: GameService, storage: SqliteStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    gid = await _against_an_ai(service)
    before = (await storage.get_game(gid)).seq
    disk = _FullDisk(storage, for_player=_ANY)
    disk.full = True
    monkeypatch.setattr(storage, "commit_action", disk)
    with pytest.raises(ServiceError) as err:
        await service.act(gid, ALICE, (await service.legal_actions(gid, ALICE))[0])
    assert err.value.code == "write_failed" and "nothing was changed" in err.value.message
    assert (await service.game_row(gid)).seq == before
    loaded = await service.load(gid)
    assert loaded.game is not None and loaded.game.to_json() == (await storage.get_game(gid)).snapshot
    disk.full = False
    out = await service.act(gid, ALICE, (await service.legal_actions(gid, ALICE))[0])
    assert out.seq > before and await _replays_to_snapshot(storage, gid)


async def test_ai_seats_think_off_the_event_loop(
    service: GameService, monkeypatch: pytest.MonkeyPatch
) -> None:
    """AI thinking never blocks interactions: every AI choice runs outside the event loop's thread,
    on a copy of the game (the live game is never handed to another thread)."""
    import threading

    loop_thread = threading.get_ident()
    seen: list[tuple[int, bool]] = []
    spec = find_game("ttr")
    real = spec.ais["heuristic"]

    class Watched:
        def __init__(self, seed: int) -> None:
            self.inner = real(seed)

        def choose(self, game: Any, seat: int) -> Any:
            live = service._cache[gid].game  # noqa: SLF001 - the live object, to compare identities
            seen.append((threading.get_ident(), game is live))
            return self.inner.choose(game, seat)

    monkeypatch.setattr(GameSpec, "make_ai", lambda self, kind, seed: Watched(seed))
    gid = 0
    row = await service.create_game(
        game_name="ttr",
        config={"board": "usa"},
        creator=ALICE,
        creator_name="alice",
        seed=5,
        seat_order="join",
    )
    gid = row.id
    await service.add_ai(row.id, ALICE)
    await service.start(row.id, ALICE)
    for _ in range(4):
        await service.act(gid, ALICE, (await service.legal_actions(gid, ALICE))[0])
    assert seen and all(thread != loop_thread and not live for thread, live in seen)
