"""Seeded random playouts on every board and player count, checking the conservation rules, hidden
information, JSON round trips and deterministic replay after every single action."""

from __future__ import annotations

import pytest
from ttr_helpers import BOARDS, PLAYER_COUNTS, check_invariants, check_views, state

from rules.games import game_from_json, new_game
from rules.ttr.ai import HeuristicAI, RandomAI
from rules.ttr.game import TTRGame

CASES = [(b, n) for b in BOARDS for n in PLAYER_COUNTS[b]]
RANDOM_GAMES = 20
MAX_ACTIONS = 3000


def play(
    board: str, players: int, seed: int, ais: list, check_every: int = 1, config: dict | None = None
) -> tuple[TTRGame, list]:
    cfg = {"board": board, **(config or {})}
    g: TTRGame = new_game("ttr", cfg, players, seed)
    start_trains = g.trains[0]
    log = []
    check_invariants(g, start_trains)
    n = 0
    while not g.is_over():
        assert n < MAX_ACTIONS, "the game does not end"
        seat = g.seats_to_act()[0]
        legal = g.legal_actions(seat)
        assert legal, "a seat to act always has a legal action (rule 2: another action or pass)"
        action = ais[seat].choose(g, seat)
        g.apply(seat, action)
        log.append((seat, action.to_text()))
        n += 1
        if n % check_every == 0 or g.is_over():
            check_invariants(g, start_trains)
            check_views(g)
            dumped = g.to_json()
            assert TTRGame.from_json(dumped).to_json() == dumped
            assert game_from_json(dumped).to_json() == dumped
    # Replaying the action log (as text) from the seed gives the identical game.
    again: TTRGame = new_game("ttr", cfg, players, seed)
    for seat, text in log:
        again.apply(seat, text)
    assert state(again) == state(g)
    return g, log


@pytest.mark.slow
@pytest.mark.parametrize(("board", "players"), CASES)
def test_random_playouts_conserve_cards_trains_tickets_tokens(board: str, players: int) -> None:
    """Conservation after every action: 110 (Märklin 118) train cards by type, trains, tickets,
    merchandise tokens; passengers never on countries; score == breakdown; views hide hands,
    tickets, offers and deck order; JSON round trip; replay from the seed is identical."""
    for seed in range(RANDOM_GAMES):
        ais = [RandomAI(seed * 7 + s) for s in range(players)]
        g, log = play(
            board, players, 1000 + seed, ais, check_every=1 if seed == 0 else 4 if seed == 1 else 15
        )
        assert g.is_over()
        rows = g.final_scores()
        assert sorted(r["rank"] for r in rows)[0] == 1


@pytest.mark.parametrize(("board", "players"), CASES)
def test_heuristic_playouts_conserve_everything(board: str, players: int) -> None:
    """The same invariants with heuristic players, whose games run to the end-of-game trigger
    (a player at 2 trains or fewer, then one more turn for everyone)."""
    for seed in range(2):
        ais = [HeuristicAI(seed * 7 + s) for s in range(players)]
        g, log = play(board, players, 2000 + seed, ais, check_every=3)
        assert g.is_over()
        assert min(g.trains) <= 2, "the heuristic games end through the train trigger"


def test_swiss_digital_variant_playouts() -> None:
    """Seed 004's digital edition plays to the end with all invariants."""
    for seed in range(6):
        ais = [RandomAI(seed), HeuristicAI(seed)]
        g, _ = play("switzerland", 2, 3000 + seed, ais, config={"variant": "digital"})
        assert g.is_over()
