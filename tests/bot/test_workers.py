"""The worker pool (``bot.workers``): pictures and AI moves made in other processes are the ones made
at home, a dead worker costs no task, a pool that cannot start leaves the work to threads, and
closing the pool leaves no process behind."""

from __future__ import annotations

import multiprocessing
import os
import random
import signal
from collections.abc import AsyncIterator
from typing import Any

import pytest

import bot.workers as workers_module
from bot.present import render_board_png
from bot.workers import SIZE_VARIABLE, Workers, configured_size
from rules.games import find_game
from rules.registry import ai_view_of, envelope
from rules.ttr.search_ai import SearchAI


@pytest.fixture
async def pool() -> AsyncIterator[Workers]:
    """Two cold worker processes (no prewarm: the tests need correctness, not speed)."""
    workers = Workers(2, prewarm=False)
    await workers.start()
    assert workers.pooled and len(workers.pids) == 2
    try:
        yield workers
    finally:
        await workers.close()


def _played(game_name: str, config: dict[str, Any], players: int, moves: int, seed: int) -> Any:
    spec = find_game(game_name)
    game = spec.new(config, players, seed)
    mover = spec.make_ai("random", seed)
    rng = random.Random(seed)
    for _ in range(moves):
        if game.is_over():
            break
        seat = game.seats_to_act()[0]
        game.apply(seat, mover.choose(ai_view_of(game, seat, rng), seat))
    return game


@pytest.mark.parametrize(
    ("game_name", "config", "players", "kind"),
    [
        ("ttr", {"board": "europe"}, 5, "heuristic"),
        ("ttr", {"board": "usa"}, 4, "random"),
        ("ttr", {"board": "germany"}, 3, "heuristic"),
        ("ttr", {"board": "europe"}, 3, "search"),
        ("firstclass", {}, 4, "heuristic"),
        ("firstclass", {}, 2, "random"),
    ],
)
async def test_an_ai_thinking_in_a_worker_process_plays_the_move_it_would_play_at_home(
    pool: Workers, game_name: str, config: dict[str, Any], players: int, kind: str
) -> None:
    """A game plays the same moves whether its AI thinks in a worker process or at home: the
    observation copy crosses as JSON, the move comes back as JSON, and the AI's own state (its
    random stream) comes back advanced, move after move."""
    spec = find_game(game_name)
    game = _played(game_name, config, players, 25, seed=11)

    def make() -> Any:
        if kind == "search":  # a fixed number of iterations: deterministic for a seed
            return SearchAI(5, budget_seconds=None, iterations=12)
        return spec.make_ai(kind, 5)

    away, home = make(), make()
    rng_away, rng_home = random.Random(3), random.Random(3)
    for _ in range(6):
        if game.is_over():
            break
        seat = game.seats_to_act()[0]
        thought = await pool.choose(away, ai_view_of(game, seat, rng_away), seat)
        expected = home.choose(ai_view_of(game, seat, rng_home), seat)
        assert thought == expected
        game.apply(seat, thought)
    assert pool.done["think"] >= 1 and pool.in_threads["think"] == 0


async def test_a_picture_drawn_in_a_worker_process_is_the_picture_drawn_at_home(pool: Workers) -> None:
    """The board image from a worker is byte for byte the one the bot's own process draws."""
    game = _played("ttr", {"board": "europe"}, 4, 80, seed=2)
    view = envelope(game, None)
    view["names"] = ["ann", "bea", "cy", "dee"]
    away = await pool.render(render_board_png, view)
    assert away is not None and away.startswith(b"\x89PNG")
    assert away == render_board_png(view)
    assert pool.done["render"] == 1 and pool.in_threads["render"] == 0


async def test_closing_the_pool_leaves_no_worker_process_behind() -> None:
    """close() stops and reaps every worker: none is alive or a child of this process afterwards."""
    workers = Workers(2, prewarm=False)
    await workers.start()
    pids = workers.pids
    assert len(pids) == 2 and all(pid != os.getpid() for pid in pids)
    await workers.close()
    assert not workers.pooled
    assert not {p.pid for p in multiprocessing.active_children()} & set(pids)
    for pid in pids:
        with pytest.raises(ProcessLookupError):
            os.kill(pid, 0)


async def test_a_worker_that_dies_costs_no_task_and_is_replaced(pool: Workers) -> None:
    """A worker killed from outside (out of memory, an operator): the picture asked for next is
    still drawn (in a thread), and a fresh pool takes over."""
    game = _played("ttr", {"board": "usa"}, 2, 10, seed=4)
    view = envelope(game, None)
    view["names"] = ["ann", "bea"]
    os.kill(pool.pids[0], signal.SIGKILL)
    picture = None
    while pool.in_threads["render"] == 0:  # until the pool has noticed its dead worker
        picture = await pool.render(render_board_png, view)
        assert picture == render_board_png(view)
    assert pool._restarting is not None  # noqa: SLF001 - the replacement under way
    await pool._restarting  # noqa: SLF001
    assert pool.pooled and len(pool.pids) == 2
    assert await pool.render(render_board_png, view) == picture


async def test_a_pool_that_cannot_start_leaves_the_work_to_threads(monkeypatch: pytest.MonkeyPatch) -> None:
    """Where processes cannot be started, the bot still draws and thinks (in threads)."""

    def refuse(*args: Any, **kwargs: Any) -> Any:
        raise OSError("no semaphores here")

    monkeypatch.setattr(workers_module, "ProcessPoolExecutor", refuse)
    workers = Workers(2, prewarm=False)
    await workers.start()
    try:
        assert not workers.pooled
        game = _played("ttr", {"board": "usa"}, 2, 4, seed=6)
        seat = game.seats_to_act()[0]
        ai = find_game("ttr").make_ai("heuristic", 1)
        assert await workers.choose(ai, ai_view_of(game, seat, random.Random(1)), seat) in game.legal_actions(
            seat
        )
        assert workers.in_threads["think"] == 1 and workers.done["think"] == 0
    finally:
        await workers.close()


async def test_an_ai_that_cannot_cross_to_a_process_thinks_in_a_thread(pool: Workers) -> None:
    """An AI holding something unpicklable (a test double, a lambda) is not refused: it thinks in a
    thread."""
    inner = find_game("ttr").make_ai("random", 2)

    class Local:
        pick = staticmethod(lambda game, seat: inner.choose(game, seat))

        def choose(self, game: Any, seat: int) -> Any:
            return self.pick(game, seat)

    game = _played("ttr", {"board": "usa"}, 2, 4, seed=8)
    seat = game.seats_to_act()[0]
    assert await pool.choose(Local(), ai_view_of(game, seat, random.Random(2)), seat) in game.legal_actions(
        seat
    )
    assert pool.in_threads["think"] == 1


def test_the_pool_size_comes_from_the_option_else_the_environment_else_the_cores(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """--workers wins, then CONDUCTOR_WORKERS, then one worker per core; a bad value is a sentence."""
    monkeypatch.delenv(SIZE_VARIABLE, raising=False)
    assert configured_size() == (os.cpu_count() or 1)
    monkeypatch.setenv(SIZE_VARIABLE, "3")
    assert configured_size() == 3
    assert configured_size(0) == 0
    for bad in ("many", "-1", "²"):
        monkeypatch.setenv(SIZE_VARIABLE, bad)
        with pytest.raises(ValueError, match=SIZE_VARIABLE):
            configured_size()
    with pytest.raises(ValueError, match="0 or more"):
        configured_size(-2)
