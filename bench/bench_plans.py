"""Planned turns: how many times a person must act per game, without and with plans (issue 31).

Simulated Ticket to Ride games, every seat played by the heuristic AI standing for a person. Without
plans, a person acts (opens Discord, after a ping) at every turn of theirs. With plans, each person
who has just drawn cards plans their obvious draws for the next turn before leaving: "a face-up
locomotive if one shows, else the face-up colour I hold most of, else two from the deck" (the
rules of ``rules/ttr/plans.py``: a plan is evaluated when the turn comes, the first step whose
condition holds is played, and a route taken or the last round begun drops it). A planned turn
needs no visit; the person comes back at the next ping, plays, and plans again. Both runs play
the same seeds; the opening ticket choice is one visit in both.

Printed per board: turns per game, visits per person per game without and with plans, the share
saved, planned turns and dropped plans per game, and the mean final score without and with plans
(the price of drawing by rule instead of by judgement). The budget: plans save at least 20% of the
visits on every board.

Run: ``python bench/bench_plans.py [--games N] [--smoke]`` (``--smoke``: 1 game a board).
"""

from __future__ import annotations

import argparse
import statistics
from dataclasses import dataclass

from harness import add_smoke, run, smoke_note  # bench/harness.py (a script's folder is on its path)

from rules import plans
from rules.games import find_game, new_game
from rules.plans import Step
from rules.protocol import AI, Action
from rules.ttr.colours import COLOURS
from rules.ttr.game import TTRGame
from rules.ttr.plans import RULES

BOARDS = (("usa", 4), ("europe", 4), ("switzerland", 3), ("germany", 4))
SAVED_BUDGET = 0.20
DRAWS = ("draw_face", "draw_deck")


@dataclass
class Tally:
    turns: int = 0
    visits: int = 0
    planned: int = 0
    dropped: int = 0
    scores: float = 0.0


def obvious_draws(game: TTRGame, seat: int) -> tuple[Step, ...]:
    """A face-up locomotive, else the colour this seat holds most of, else the deck."""
    hand = game.state.hands[seat]
    colour = max(range(len(COLOURS)), key=lambda c: (hand[c], -c))
    return (Step("locomotive"), Step("colour", (COLOURS[colour],)), Step("deck"))


def play(board: str, players: int, seed: int, with_plans: bool) -> Tally:
    game = new_game("ttr", {"board": board}, players, seed)
    assert isinstance(game, TTRGame)
    spec = find_game("ttr")
    ais: list[AI] = [spec.make_ai("heuristic", seed * 31 + s) for s in range(players)]
    armed: dict[int, tuple[Step, ...]] = {}
    tally = Tally()
    last_turn = -1

    def apply(seat: int, action: Action) -> None:
        before = game.copy()
        events = game.apply(seat, action)
        for owner, steps in list(armed.items()):
            if RULES.upset(before, game, seat, action, events, owner, steps) is not None:
                del armed[owner]
                tally.dropped += 1

    while not game.is_over():
        seat = game.seats_to_act()[0]
        st = game.state
        if st.phase == "setup":
            tally.visits += 1  # the opening tickets
            apply(seat, ais[seat].choose(game, seat))
            continue
        if st.turn != last_turn:  # a new turn begins
            last_turn = st.turn
            tally.turns += 1
            steps = armed.pop(seat, None)
            if steps is not None and RULES.ready(game, seat):
                chosen = plans.first_step(RULES, game, seat, steps)
                if chosen is not None:
                    tally.planned += 1
                    n = 0
                    while (action := RULES.next_action(game, seat, steps[chosen], n)) is not None:
                        apply(seat, action)
                        n += 1
                        if game.is_over() or seat not in game.seats_to_act():
                            break
                    if game.is_over() or game.state.current != seat or game.state.pending is None:
                        continue
            tally.visits += 1
        action = ais[seat].choose(game, seat)
        apply(seat, action)
        if with_plans and action.kind in DRAWS and game.state.current != seat and not game.is_over():
            armed[seat] = obvious_draws(game, seat)  # planned before leaving: the next turn's draws
    tally.scores = statistics.fmean(s["total"] for s in game.final_scores())
    return tally


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=12)
    add_smoke(parser)
    args = parser.parse_args()
    games = 1 if args.smoke else args.games
    print(
        f"{'board':<12} {'seats':>5} {'turns':>6} {'visits/person':>13} {'with plans':>10} {'saved':>6} "
        f"{'planned':>7} {'dropped':>7} {'score':>6} {'w/ plans':>8}"
    )
    worst = 1.0
    for board, players in BOARDS:
        base = [play(board, players, seed, False) for seed in range(games)]
        planned = [play(board, players, seed, True) for seed in range(games)]
        before = statistics.fmean(t.visits for t in base) / players
        after = statistics.fmean(t.visits for t in planned) / players
        saved = 1 - after / before
        worst = min(worst, saved)
        print(
            f"{board:<12} {players:>5} {statistics.fmean(t.turns for t in base):>6.1f} {before:>13.1f} "
            f"{after:>10.1f} {saved:>6.0%} {statistics.fmean(t.planned for t in planned):>7.1f} "
            f"{statistics.fmean(t.dropped for t in planned):>7.1f} {statistics.fmean(t.scores for t in base):>6.1f} "
            f"{statistics.fmean(t.scores for t in planned):>8.1f}"
        )
    verdict = "within" if worst >= SAVED_BUDGET else "OVER"
    print(
        f"budget: plans save >= {SAVED_BUDGET:.0%} of a person's visits on every board -> least {worst:.0%} "
        f"({verdict} budget){smoke_note(args.smoke)}"
    )
    return 0


if __name__ == "__main__":
    run(main)
