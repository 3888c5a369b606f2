"""The First Class search AI: which moves it searches, how far a play-out goes, and that what it
chooses depends only on what its seat sees. Every search here is limited by its deal count,
never by the clock."""

from __future__ import annotations

import pickle
import random

import pytest

from rules.firstclass.ai import HeuristicAI
from rules.firstclass.determinize import observation_copy
from rules.firstclass.game import FirstClassGame
from rules.firstclass.search_ai import CARD_KINDS, TURN_CANDIDATES, SearchAI, segment
from rules.search import _rollout_rewards


def _played(players: int, seed: int, until: int) -> FirstClassGame:
    """A game played by heuristic seats until the ``until``-th start of a turn (no card taken yet,
    nothing pending), so the seat to act chooses its card next."""
    game = FirstClassGame.new({}, players, seed)
    ais = [HeuristicAI(seed + s) for s in range(players)]
    starts = 0
    while True:
        seat = game.seats_to_act()[0]
        if game.s.phase == "play" and not game.s.taken and game.head(seat) is None:
            starts += 1
            if starts >= until:
                return game
        game.apply(seat, ais[seat].choose(game, seat))


def _search(seed: int, deals: int = 3) -> SearchAI:
    return SearchAI(seed, budget_seconds=None, iterations=deals)


def test_turn_start_searches_the_heuristics_move_and_its_best_rated_cards() -> None:
    """Candidates at the start of a turn: the heuristic's own move first, then only ways of taking
    a card (take, forgo, Start Player tile), at most TURN_CANDIDATES in all, all legal."""
    game = _played(2, 3, until=4)
    seat = game.seats_to_act()[0]
    ai = _search(1)
    options = ai.planner.candidates(game, seat)
    assert options[0] == HeuristicAI(1).choose(game, seat)
    assert 2 <= len(options) <= TURN_CANDIDATES
    assert all(a.kind in CARD_KINDS for a in options[1:])
    assert set(options) <= set(game.legal_actions(seat))


def test_symbol_answers_are_the_heuristics_and_take_no_search() -> None:
    """After the card is taken, answering its symbols is the heuristic's move: one candidate, no
    deal played."""
    game = FirstClassGame.new({}, 2, 5)
    ais = [HeuristicAI(5), HeuristicAI(6)]
    seat = game.seats_to_act()[0]
    while not (game.s.phase == "play" and game.head(seat) is not None and len(game.legal_actions(seat)) > 1):
        game.apply(seat, ais[seat].choose(game, seat))
        seat = game.seats_to_act()[0]
    ai = _search(2)
    assert len(ai.planner.candidates(game, seat)) == 1
    assert ai.choose(game, seat) == HeuristicAI(2).choose(game, seat)
    assert ai.last is not None and ai.last.iterations == 0


def test_a_play_out_stops_when_the_round_is_over() -> None:
    """Play-outs end at the end of the round (after its scoring phase, if one follows): the next
    round has just been dealt and nobody has moved in it yet."""
    for until, players in ((2, 2), (8, 3)):
        game = _played(players, 9, until=until)
        start_round = game.s.round
        ai = _search(3)
        _rollout_rewards(game, ai.spec, ai.settings)
        assert game.s.round == start_round + 1
        assert game.s.phase == "play" and game.s.turns_done == 0 and not game.s.taken
        assert segment(game) != start_round


def test_choice_depends_only_on_what_the_seat_sees() -> None:
    """Hidden information: two 3-player games that differ only in what the seat cannot see (the
    face-down piles, the Game End pile, the other seats' Game End cards, the seed) lead to the
    same searched move and the same deal counts."""
    real = _played(3, 14, until=5)
    seat = real.seats_to_act()[0]
    other = observation_copy(real, seat, random.Random(41))
    other.seed = real.seed + 999
    assert other.view(seat) == real.view(seat)
    others = [s for s in range(3) if s != seat]
    assert (other.s.piles, other.s.ge_pile, [other.s.players[s].ge_cards for s in others]) != (
        real.s.piles,
        real.s.ge_pile,
        [real.s.players[s].ge_cards for s in others],
    )
    first, second = _search(6), _search(6)
    assert first.choose(real, seat) == second.choose(other, seat)
    assert first.last is not None and second.last is not None
    assert first.last.iterations > 0
    assert first.last.visits == second.last.visits


@pytest.mark.slow
def test_search_plays_whole_games_at_three_and_four_players() -> None:
    """Whole games: the search AI (one deal a move) plays 3- and 4-player games to the end, every
    move legal."""
    for players in (3, 4):
        game = FirstClassGame.new({}, players, 60 + players)
        ais: list[HeuristicAI | SearchAI] = [HeuristicAI(s) for s in range(players)]
        ais[1] = _search(4, deals=1)
        while not game.is_over():
            seat = game.seats_to_act()[0]
            action = ais[seat].choose(game, seat)
            assert action in game.legal_actions(seat)
            game.apply(seat, action)
        assert len(game.final_scores()) == players


def test_a_search_ai_that_has_thought_travels_back_light() -> None:
    """An AI seat thinks in a worker process and travels back to the bot pickled: after a searched
    move the First Class search AI still pickles to a few kilobytes and plays on from there."""
    game = _played(2, 17, until=2)
    seat = game.seats_to_act()[0]
    ai = _search(8, deals=2)
    ai.choose(game, seat)
    assert ai.last is not None and ai.last.iterations > 0
    blob = pickle.dumps(ai)
    assert len(blob) < 100_000
    assert pickle.loads(blob).choose(game, seat) in game.legal_actions(seat)
