"""AI players: the heuristic player beats the random player, and both only play legal moves."""

from __future__ import annotations

import pytest

from rules.games import new_game
from rules.ttr import actions as A
from rules.ttr.ai import HeuristicAI, RandomAI
from rules.ttr.game import TTRGame

GAMES = 20


def _canon(action: object) -> object:
    """Kept tickets are a set: their order does not matter."""
    if isinstance(action, A.KeepTickets):
        return ("keep", frozenset(action.ids))
    return action


def _play(board: str, seed: int, heuristic_seat: int) -> tuple[int, int]:
    g: TTRGame = new_game("ttr", {"board": board}, 2, seed)
    ais = [RandomAI(seed), RandomAI(seed)]
    ais[heuristic_seat] = HeuristicAI(seed)  # type: ignore[call-overload]
    steps = 0
    while not g.is_over():
        seat = g.seats_to_act()[0]
        action = ais[seat].choose(g, seat)
        assert _canon(action) in {_canon(a) for a in g.legal_actions(seat)}
        g.apply(seat, action)
        steps += 1
        assert steps < 3000
    rows = g.final_scores()
    return rows[heuristic_seat]["total"], rows[1 - heuristic_seat]["total"]


@pytest.mark.parametrize("board", ["usa", "europe", "switzerland", "germany"])
def test_heuristic_beats_random_in_90_percent_of_two_player_games(board: str) -> None:
    """AI: HeuristicAI wins at least 90% of seeded 2-player games against RandomAI, seats alternating."""
    wins = 0
    for seed in range(GAMES):
        mine, theirs = _play(board, 500 + seed, seed % 2)
        wins += mine > theirs
    assert wins >= 0.9 * GAMES, f"{board}: heuristic won {wins}/{GAMES}"


def test_ai_is_deterministic_for_a_seed() -> None:
    """AI: the same seeds give the same game."""
    assert _play("europe", 9, 0) == _play("europe", 9, 0)


@pytest.mark.parametrize("board", ["usa", "europe", "switzerland", "germany"])
def test_one_dijkstra_run_gives_every_destination_the_path_of_its_own_search(board: str) -> None:
    """AI plans: cheapest_paths settles all of a ticket's destinations in one run, and each is the
    plan shortest_path finds for that destination alone (same cost, same tracks), in openings and
    late positions where owned and closed tracks shape the graph."""
    import random

    from rules.ttr.ai import cheapest_paths, plan_graph, shortest_path

    rng = random.Random(f"paths:{board}")
    checked = 0
    for seed in range(3):
        g: TTRGame = new_game("ttr", {"board": board}, 2, seed)
        ais = [HeuristicAI(seed), HeuristicAI(seed + 1)]
        while not g.is_over():
            seat = g.seats_to_act()[0]
            if rng.random() < 0.1:
                graph = plan_graph(g, seat)
                for card in rng.sample(list(g.board.tickets.values()), 4):
                    goals = {dest for dest, _ in card.destinations}
                    together = cheapest_paths(g, card.origin, goals, graph)
                    for dest in goals:
                        alone = shortest_path(g, seat, card.origin, {dest}, graph=graph)
                        assert together.get(dest) == alone, (board, card.id, dest)
                        checked += 1
            g.apply(seat, ais[seat].choose(g, seat))
    assert checked > 100
