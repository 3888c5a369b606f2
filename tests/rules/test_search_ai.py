"""The search AI (ISMCTS over observation copies): legal, blind to hidden cards, finishes games,
bounded. Every search here is limited by its iteration count, never by the clock."""

from __future__ import annotations

import itertools
import pickle
import random
from typing import Any

import pytest

from rules.firstclass.determinize import observation_copy as fc_observation_copy
from rules.firstclass.game import FirstClassGame
from rules.firstclass.search_ai import SearchAI as FCSearchAI
from rules.games import find_game, new_game
from rules.search import DEFAULT_THINK_SECONDS, THINK_SETTING, SearchSettings, _convincing
from rules.ttr import actions as A
from rules.ttr.ai import HeuristicAI
from rules.ttr.determinize import observation_copy as ttr_observation_copy
from rules.ttr.game import TTRGame
from rules.ttr.search_ai import ENDGAME_TRAINS, KEEPS_SEARCHED, CarefulClaims, PlanCache
from rules.ttr.search_ai import SearchAI as TTRSearchAI

BOARDS = ["usa", "europe", "switzerland", "germany"]


def _canon(action: Any) -> Any:
    """Kept tickets are a set: their order does not matter."""
    if isinstance(action, A.KeepTickets):
        return ("keep", frozenset(action.ids))
    return action.to_text()


def _ttr_midgame(board: str, seed: int, moves: int = 40) -> TTRGame:
    game: TTRGame = new_game("ttr", {"board": board}, 2, seed)
    ais = [HeuristicAI(seed), HeuristicAI(seed + 1)]
    for _ in range(moves):
        seat = game.seats_to_act()[0]
        game.apply(seat, ais[seat].choose(game, seat))
    return game


def _fc_midgame(seed: int, moves: int = 40) -> FirstClassGame:
    game: FirstClassGame = new_game("first-class", {}, 2, seed)
    ais = [find_game("first-class").make_ai("heuristic", seed + s) for s in range(2)]
    for _ in range(moves):
        seat = game.seats_to_act()[0]
        game.apply(seat, ais[seat].choose(game, seat))
    return game


def _ttr_search(seed: int, iterations: int = 10) -> TTRSearchAI:
    return TTRSearchAI(seed, budget_seconds=None, iterations=iterations, rollout_plies=4)


def _fc_search(seed: int, iterations: int = 8) -> FCSearchAI:
    return FCSearchAI(seed, budget_seconds=None, iterations=iterations, rollout_plies=4)


def _ttr_setup(board: str, seed: int, players: int = 2) -> TTRGame:
    """A new game at its opening ticket choice (Märklin: after announcing the mix)."""
    game: TTRGame = new_game("ttr", {"board": board}, players, seed)
    seat = game.seats_to_act()[0]
    if game.state.offers[seat] is None:
        game.apply(seat, HeuristicAI(seed).choose(game, seat))
    return game


@pytest.mark.parametrize("board", BOARDS)
def test_ttr_search_weighs_ways_of_keeping_the_opening_tickets(board: str) -> None:
    """Plan search: at the opening ticket choice the search AI's own keep and up to KEEPS_SEARCHED
    other legal ways of keeping are candidates, the search spends its whole iteration cap, and
    the kept tickets are a legal choice."""
    game = _ttr_setup(board, 11)
    seat = game.seats_to_act()[0]
    ai = _ttr_search(1, iterations=6)
    action = ai.choose(game, seat)
    keeps = {_canon(a) for a in game.legal_actions(seat) if isinstance(a, A.KeepTickets)}
    assert _canon(action) in keeps
    assert ai.last is not None and ai.last.iterations == 6
    searched = set(ai.last.visits)
    assert searched <= keeps
    assert _canon(CarefulClaims(1).choose(game, seat)) in searched
    assert min(len(keeps), KEEPS_SEARCHED) <= len(searched) <= KEEPS_SEARCHED + 1


@pytest.mark.parametrize("board", BOARDS)
def test_ttr_search_returns_a_legal_action_mid_game(board: str) -> None:
    """Search AI: the move it chooses mid-game is one of the seat's legal actions."""
    game = _ttr_midgame(board, 11)
    seat = game.seats_to_act()[0]
    action = _ttr_search(1).choose(game, seat)
    assert _canon(action) in {_canon(a) for a in game.legal_actions(seat)}


def test_ttr_search_plays_the_heuristics_move_outside_plan_decisions() -> None:
    """Plan search: a second card draw is no plan decision, so the move is the heuristic's own and
    nothing is searched."""
    game = _ttr_midgame("usa", 13)
    for _ in range(200):
        if game.state.pending == "draw_second":
            break
        seat = game.seats_to_act()[0]
        game.apply(seat, HeuristicAI(3).choose(game, seat))
    assert game.state.pending == "draw_second"
    seat = game.seats_to_act()[0]
    ai = _ttr_search(2)
    assert _canon(ai.choose(game, seat)) == _canon(HeuristicAI(2).choose(game, seat))
    assert ai.last is not None and ai.last.iterations == 0


@pytest.mark.parametrize("board", BOARDS)
def test_plan_cache_plays_exactly_like_the_heuristic(board: str) -> None:
    """The rollout policy's remembered ticket plans change no move: with the same seeds a whole
    game of PlanCache seats is the same game as one of HeuristicAI seats."""
    moves: list[list[Any]] = []
    for policy in (HeuristicAI, PlanCache):
        game: TTRGame = new_game("ttr", {"board": board}, 3 if board != "switzerland" else 2, 71)
        ais = [policy(70 + s) for s in range(game.players)]
        played = []
        while not game.is_over():
            seat = game.seats_to_act()[0]
            action = ais[seat].choose(game, seat)
            played.append(_canon(action))
            game.apply(seat, action)
        moves.append(played)
    assert moves[0] == moves[1]


def test_fc_search_returns_a_legal_action_mid_game() -> None:
    """Search AI (First Class): the move it chooses is one of the seat's legal actions."""
    game = _fc_midgame(12)
    seat = game.seats_to_act()[0]
    action = _fc_search(1).choose(game, seat)
    assert action.to_text() in {a.to_text() for a in game.legal_actions(seat)}


def test_ttr_choice_depends_only_on_the_seats_view() -> None:
    """Hidden information: two games that differ only in what the seat cannot see (deck order,
    the other hand, other tickets, the seed that orders reshuffles) but give the same view lead
    to the same move for the same seed and iteration count."""
    real = _ttr_setup("usa", 21)
    seat = real.seats_to_act()[0]
    other = ttr_observation_copy(real, seat, random.Random(99))
    other.seed = real.seed + 12345
    assert other.view(seat) == real.view(seat)
    assert (other.state.deck, other.state.hands[1 - seat], other.state.tickets[1 - seat]) != (
        real.state.deck,
        real.state.hands[1 - seat],
        real.state.tickets[1 - seat],
    )
    first = _ttr_search(5, iterations=16)
    second = _ttr_search(5, iterations=16)
    assert _canon(first.choose(real, seat)) == _canon(second.choose(other, seat))
    assert first.last is not None and second.last is not None
    assert first.last.visits == second.last.visits


def test_fc_choice_depends_only_on_the_seats_view() -> None:
    """Hidden information (First Class): games differing only in face-down piles, the Game End
    pile, the other seat's Game End cards and the seed give the same search and the same move."""
    real = _fc_midgame(22)
    seat = real.seats_to_act()[0]
    other = fc_observation_copy(real, seat, random.Random(98))
    other.seed = real.seed + 12345
    assert other.view(seat) == real.view(seat)
    assert (other.s.piles, other.s.ge_pile) != (real.s.piles, real.s.ge_pile)
    first = _fc_search(6, iterations=12)
    second = _fc_search(6, iterations=12)
    assert first.choose(real, seat).to_text() == second.choose(other, seat).to_text()
    assert first.last is not None and second.last is not None
    assert first.last.visits == second.last.visits


def test_search_is_deterministic_for_a_seed_and_iteration_count() -> None:
    """Determinism: the same seed and iteration count give the same move and the same visits."""
    game = _ttr_setup("europe", 31)
    seat = game.seats_to_act()[0]
    a, b = _ttr_search(7, iterations=12), _ttr_search(7, iterations=12)
    assert _canon(a.choose(game, seat)) == _canon(b.choose(game, seat))
    assert a.last is not None and b.last is not None and a.last.visits == b.last.visits


@pytest.mark.parametrize("paired", [True, False])
def test_both_search_modes_return_legal_deterministic_moves(paired: bool) -> None:
    """Both modes (paired flat rollouts, ISMCTS tree): a legal move, the same for the same seed."""
    game = _ttr_setup("switzerland", 61)
    seat = game.seats_to_act()[0]
    moves = [
        TTRSearchAI(8, budget_seconds=None, iterations=8, rollout_plies=3, paired=paired).choose(game, seat)
        for _ in range(2)
    ]
    assert _canon(moves[0]) == _canon(moves[1])
    assert _canon(moves[0]) in {_canon(a) for a in game.legal_actions(seat)}


def test_search_is_bounded_by_its_iteration_cap_and_its_budget() -> None:
    """Bounded: never more iterations than the cap; a spent time budget stops after one iteration."""
    game = _ttr_setup("usa", 41)
    seat = game.seats_to_act()[0]
    capped = _ttr_search(1, iterations=5)
    capped.choose(game, seat)
    assert capped.last is not None and capped.last.iterations <= 5
    spent = TTRSearchAI(1, budget_seconds=0.0, iterations=10_000, rollout_plies=4)
    spent.choose(game, seat)
    assert spent.last is not None and spent.last.iterations <= 1


def _play_out(game: Any, ais: list[Any]) -> int:
    steps = 0
    while not game.is_over():
        seat = game.seats_to_act()[0]
        action = ais[seat].choose(game, seat)
        assert _canon(action) in {_canon(a) for a in game.legal_actions(seat)}
        game.apply(seat, action)
        steps += 1
        assert steps < 3000, "the game did not end"
    return steps


@pytest.mark.parametrize("board", BOARDS)
def test_ttr_search_plays_a_whole_game_on_every_board(board: str) -> None:
    """Whole games: the search AI (few iterations) plays a 2-player game to the end on each board."""
    game: TTRGame = new_game("ttr", {"board": board}, 2, 51)
    _play_out(game, [TTRSearchAI(3, budget_seconds=None, iterations=3, rollout_plies=2), HeuristicAI(4)])
    assert len(game.final_scores()) == 2


def test_fc_search_plays_a_whole_game() -> None:
    """Whole games (First Class): the search AI plays a 2-player game to the end."""
    game: FirstClassGame = new_game("first-class", {}, 2, 52)
    _play_out(
        game,
        [
            find_game("first-class").make_ai("heuristic", 5),
            FCSearchAI(3, budget_seconds=None, iterations=3, rollout_plies=2),
        ],
    )
    assert len(game.final_scores()) == 2


@pytest.mark.parametrize("name", ["ttr", "first-class"])
def test_search_is_registered_as_an_ai_kind(name: str) -> None:
    """Registry: both games offer the AI kind "search"."""
    spec = find_game(name)
    assert "search" in spec.ai_kinds
    assert hasattr(spec.make_ai("search", 1), "choose")


def test_sequential_halving_spends_later_deals_on_the_better_half() -> None:
    """Paired search: after 4 deals the worse half of the other candidates stops being played, so
    the heuristic's own plan (always kept) is scored on every deal and the dropped ones on 4."""
    game = _ttr_setup("europe", 33)
    seat = game.seats_to_act()[0]
    ai = _ttr_search(9, iterations=8)
    ai.choose(game, seat)
    assert ai.last is not None
    counts = ai.last.visits
    assert len(counts) >= 3
    prior = _canon(ai.planner.candidates(game, seat)[0])
    assert counts[prior] == 8
    assert sorted(set(counts.values())) == [4, 8]
    assert sum(1 for c in counts.values() if c == 8) == 1 + (len(counts) - 1) // 2


def test_thinking_budget_comes_from_the_game_unless_the_ai_was_given_one() -> None:
    """Budget: a search AI made without a budget thinks for the game's ``ai_think_ms`` setting (CPU
    milliseconds), or DEFAULT_THINK_SECONDS when the game sets none; an AI given a budget keeps it."""
    plain: TTRGame = new_game("ttr", {"board": "usa"}, 2, 3)
    slow: TTRGame = new_game("ttr", {"board": "usa", THINK_SETTING: 2500}, 2, 3)
    assert TTRSearchAI(1).budget_for(plain) == DEFAULT_THINK_SECONDS
    assert TTRSearchAI(1).budget_for(slow) == 2.5
    assert TTRSearchAI(1, budget_seconds=0.25).budget_for(slow) == 0.25
    assert TTRSearchAI(1, budget_seconds=None).budget_for(slow) is None


def test_ttr_search_claims_instead_of_drawing_when_the_game_is_about_to_end() -> None:
    """End of game: with another seat down to ENDGAME_TRAINS trains, cards in hand will score
    nothing, so where the heuristic would draw a card the search AI claims a route."""
    for seed in range(40):
        game = _ttr_midgame("usa", 100 + seed, moves=30)
        seat = game.seats_to_act()[0]
        legal = game.legal_actions(seat)
        if game.state.pending is not None or not any(isinstance(a, A.ClaimRoute) for a in legal):
            continue
        if isinstance(HeuristicAI(seed).choose(game, seat), A.ClaimRoute):
            continue
        game.state.trains[1 - seat] = ENDGAME_TRAINS
        assert isinstance(_ttr_search(seed).choose(game, seat), A.ClaimRoute)
        return
    pytest.fail("no position where the heuristic draws while it could claim")


def test_another_plan_replaces_the_heuristics_only_on_clear_paired_gains() -> None:
    """Paired search: a candidate replaces the first one only when its gains on the same deals are
    above the margin and clearly positive (more than prior_z standard errors), not on one lucky deal."""
    settings = SearchSettings(prior_margin=0.02, prior_z=1.0)
    assert _convincing([0.10, 0.12, 0.08], settings)
    assert not _convincing([0.9, -0.8, 0.1], settings)  # mean 0.07 but within noise
    assert not _convincing([0.3], settings)  # one deal proves nothing
    assert not _convincing([0.01, 0.01, 0.01], settings)  # below the margin


@pytest.mark.parametrize("name", ["ttr", "first-class"])
def test_takeover_ai_is_a_kind_the_game_offers(name: str) -> None:
    """Registry: the AI that takes over a person's seat is one of the game's own AI kinds."""
    spec = find_game(name)
    assert spec.takeover_ai in spec.ai_kinds


def test_a_search_ai_that_has_thought_travels_back_light() -> None:
    """Every core used, never the loop: an AI seat thinks in a worker process and comes back to the
    bot pickled, where it is unpickled under the event loop's interpreter lock. What its planner
    remembered serves one search only, so after a searched decision (the opening keep) the AI
    pickles to a few kilobytes, not the megabytes of plans it built while thinking."""
    spec = find_game("ttr")
    game = spec.new({"board": "europe"}, 2, 3)
    ai = spec.ais["search"](seed=1, budget_seconds=None, iterations=8)
    seat = game.seats_to_act()[0]
    ai.choose(spec.observation_copy(game, seat, random.Random(1)), seat)
    assert len(pickle.dumps(ai)) < 100_000


def _plans_cost(game: TTRGame, seat: int) -> float:
    """What the seat's open tickets cost on the board as it is (30 for one no path reaches)."""
    from rules.ttr.ai import cheapest_paths, plan_graph

    graph = plan_graph(game, seat)
    total = 0.0
    for info in game.ticket_status(seat):
        if info["completed"]:
            continue
        card = game.board.tickets[info["id"]]
        found = cheapest_paths(game, card.origin, {dest for dest, _ in card.destinations}, graph)
        total += min((cost for cost, _ in found.values()), default=30.0)
    return total


def _cost_if_taken(game: TTRGame, seat: int, track_id: str) -> float:
    taken = game.copy()
    taken.state.owner[game.board.track_by_id[track_id.lower()].index] = (seat + 1) % game.players
    return _plans_cost(taken, seat)


@pytest.mark.slow
@pytest.mark.parametrize("board", ["usa", "europe"])
def test_careful_claims_take_first_the_plan_route_another_seat_would_hurt_most_by_taking(board: str) -> None:
    """Search AI's own claims: where the heuristic would claim the longest of several plan routes,
    the search AI claims the one whose loss to another seat would make its plans dearest (judged
    here by handing each route to another seat on a copy of the board); off its plans it prefers a
    route that extends its own network when one is as long as the longest."""
    differed = extended = 0
    for seed in range(30):
        game: TTRGame = new_game("ttr", {"board": board}, 2, 300 + seed)
        ais = [HeuristicAI(seed), HeuristicAI(seed + 50)]
        while not game.is_over():
            seat = game.seats_to_act()[0]
            plain = PlanCache(seed).choose(game, seat)
            careful = CarefulClaims(seed).choose(game, seat)
            if (
                isinstance(plain, A.ClaimRoute)
                and isinstance(careful, A.ClaimRoute)
                and plain.track != careful.track
            ):
                targets = {t.id for t in PlanCache(seed)._targets(game, seat)}
                if plain.track in targets:
                    assert careful.track in targets
                    assert _cost_if_taken(game, seat, careful.track) > _cost_if_taken(game, seat, plain.track)
                    differed += 1
                else:
                    owner = game.state.owner
                    reached = {c for t in game.board.tracks if owner[t.index] == seat for c in (t.a, t.b)}
                    track = game.board.track_by_id[careful.track.lower()]
                    assert track.a in reached or track.b in reached
                    assert track.length == game.board.track_by_id[plain.track.lower()].length
                    extended += 1
            game.apply(seat, ais[seat].choose(game, seat))
    assert differed >= 5 and extended >= 1, (differed, extended)


def test_careful_passengers_wait_for_a_journey_worth_the_threshold() -> None:
    """Märklin, search AI's own moves: where the heuristic sets a passenger off for a journey worth
    less than CarefulClaims.PASSENGER_MIN_VALUE merchandise points, and the game is not near its
    end, the search AI keeps the passenger for a longer network."""
    waited = 0
    for seed in range(20):
        game: TTRGame = new_game("ttr", {"board": "germany"}, 2, 400 + seed)
        ais = [HeuristicAI(seed), HeuristicAI(seed + 50)]
        while not game.is_over() and waited < 5:
            seat = game.seats_to_act()[0]
            plain = PlanCache(seed).choose(game, seat)
            late = game.state.final_turns_left is not None or game.state.trains[seat] <= 8
            if isinstance(plain, A.StartJourney) and not late:
                best = max(
                    PlanCache._journey_value(game, seat, journey, plain.city, plain.city, set())
                    for journey in game.passenger_journeys(seat, plain.city)
                )
                careful = CarefulClaims(seed).choose(game, seat)
                if best < CarefulClaims.PASSENGER_MIN_VALUE:
                    assert not isinstance(careful, A.StartJourney)
                    waited += 1
                else:
                    assert isinstance(careful, A.StartJourney)
            game.apply(seat, ais[seat].choose(game, seat))
    assert waited >= 5


def _keep_trains(game: TTRGame, seat: int, kept: tuple[str, ...]) -> tuple[float, int] | None:
    """Trains the kept tickets' plans need when laid out one after another on the seat's plan
    graph (the open tickets' planned tracks and each earlier plan's tracks free), and their points."""
    from rules.ttr.ai import cheapest_paths, plan_graph

    free = {t.index for t in PlanCache(0)._targets(game, seat)}
    base = plan_graph(game, seat)
    trains, points = 0.0, 0
    for tid in kept:
        graph = {c: [(t, 0.0 if t.index in free else cost) for t, cost in edges] for c, edges in base.items()}
        card = game.board.tickets[tid]
        found = cheapest_paths(game, card.origin, {d for d, _ in card.destinations}, graph)
        options = [
            (cost - (pts * 0.3 if card.is_multi else 0), cost, path, pts)
            for d, pts in card.destinations
            if d in found
            for cost, path in [found[d]]
        ]
        if not options:
            return None
        _, cost, path, pts = min(options, key=lambda o: o[0])
        trains += cost
        points += pts
        free |= {t.index for t in path}
    return trains, points


def _keep_value(game: TTRGame, seat: int, kept: tuple[str, ...]) -> float | None:
    """What the search AI's own ticket choice should maximise at the opening: the kept tickets'
    points less KEEP_TRAIN_COST a train of their plans; None where they do not fit the trains with
    KEEP_SPARE_TRAINS to spare."""
    plan = _keep_trains(game, seat, kept)
    if plan is None or plan[0] > game.state.trains[seat] - CarefulClaims.KEEP_SPARE_TRAINS:
        return None
    return plan[1] - CarefulClaims.KEEP_TRAIN_COST * plan[0]


@pytest.mark.parametrize("board", BOARDS)
def test_careful_keeps_score_the_plans_of_the_tickets_together(board: str) -> None:
    """Search AI's own ticket choice: of every legal way of keeping the opening offer whose plans,
    laid one after another so that tickets sharing a way pay for it once, fit the trains with
    CarefulClaims.KEEP_SPARE_TRAINS to spare, it keeps one scoring most points less
    KEEP_TRAIN_COST a train; and on some openings the tickets it keeps share a way (their plans
    together need fewer trains than apart)."""
    shared = 0
    for seed in range(12):
        game = _ttr_setup(board, 500 + seed)
        seat = game.seats_to_act()[0]
        offer = list(game.state.offers[seat] or [])
        lo, hi = game._ticket_keep_bounds(seat)
        careful = CarefulClaims(seed)
        chosen = careful.choose(game, seat)
        assert isinstance(chosen, A.KeepTickets)
        values = [
            v
            for n in range(lo, hi + 1)
            for kept in itertools.combinations(offer, n)
            if (v := _keep_value(game, seat, kept)) is not None
        ]
        kept_value = _keep_value(game, seat, tuple(t for t in offer if t in chosen.ids))
        assert values and kept_value is not None and kept_value >= max(values) - 1e-9
        together = _keep_trains(game, seat, chosen.ids)
        alone = [_keep_trains(game, seat, (tid,)) for tid in chosen.ids]
        assert together is not None and all(a is not None for a in alone)
        if together[0] < sum(a[0] for a in alone if a is not None) - 1e-9:
            shared += 1
    assert shared >= 2, shared


def _hand_without_plan_colours(game: TTRGame, seat: int, size: int) -> list[int] | None:
    """A hand of ``size`` cards in colours none of the seat's planned routes is painted in (no
    locomotives), or None when the plans include a grey route (any colour would pay for it) or
    every colour."""
    from rules.ttr.board import COLOURS, GRAY

    planned = {t.colour for t in PlanCache(0)._targets(game, seat)}
    others = [c for c in range(len(COLOURS)) if c not in planned]
    if not planned or GRAY in planned or not others:
        return None
    hand = [0] * len(game.state.hands[seat])
    for i in range(size):
        hand[others[i % len(others)]] += 1
    return hand


def test_careful_claims_stop_drawing_at_the_hand_limit() -> None:
    """Switzerland, search AI's own moves: where the plans wait on colours the hand lacks, the
    heuristic draws another card however many it holds; with CarefulClaims.HAND_LIMIT cards the
    search AI claims a route instead, and with one card fewer it draws like the heuristic."""
    limit = CarefulClaims.HAND_LIMIT
    checked = 0
    for seed, moves in itertools.product(range(30), (20, 40)):
        game = _ttr_midgame("switzerland", 600 + seed, moves)
        seat = game.seats_to_act()[0]
        hand = _hand_without_plan_colours(game, seat, limit)
        if game.state.pending is not None or hand is None:
            continue
        game.state.hands[seat] = hand
        plain = PlanCache(seed).choose(game, seat)
        if not isinstance(plain, A.DrawDeck | A.DrawFaceUp):
            continue
        careful = CarefulClaims(seed).choose(game, seat)
        assert isinstance(careful, A.ClaimRoute) and careful in game.legal_actions(seat)
        game.state.hands[seat] = _hand_without_plan_colours(game, seat, limit - 1) or hand
        assert isinstance(CarefulClaims(seed).choose(game, seat), A.DrawDeck | A.DrawFaceUp)
        checked += 1
        if checked == 5:
            return
    pytest.fail(f"only {checked} positions where the plans wait on colours the hand lacks")
