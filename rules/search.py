"""Information-set Monte Carlo tree search over determinised hidden information, for any game.

The search never looks at a real game: every iteration asks ``determinize(rng)`` for a playable
copy consistent with what the searching seat sees (a game's ``observation_copy``), and plays in
that copy only. One tree is shared by all determinisations (single-observer ISMCTS, Cowling,
Powley & Whitehouse 2012): a node's children are moves, a child counts how often it was
*available* as well as how often it was tried, and UCB uses the availability count, so a move that
only exists in some deals (another seat's claim paid from a hand we guessed) is judged fairly.

Games with long move lists (Ticket to Ride offers every payment for every route) are searched over
a pruned, ordered candidate list supplied by the game (``candidates``): a node may only consider its
first ``ceil(widen_c * visits ** widen_alpha)`` candidates (progressive widening), so the best-rated
moves are tried first and more open up as the node is visited more. After the tree, a rollout plays
``rollout_plies`` moves with a game-supplied policy (a heuristic AI) and then scores the position
with ``estimate`` (expected final score per seat); a finished game is scored by its real result.
Rewards are in [0, 1] for the seat that moved: half for winning outright, half for the score
margin over the best other seat, squashed by ``margin_scale``.

With ``paired`` set, the search is flat instead: each deal is played after every root candidate
with the same rollout seed (common random numbers), and the first candidate (the game's own best
guess) is kept unless another scores better on the same deals by ``prior_margin`` and by
``prior_z`` standard errors. With the few dozen rollouts a
second buys, pairing the deals measured better than UCB over noisy single ones. Deals are spent
where they matter by sequential halving: after 4, 8, 16... deals the worse half of the candidates
(never the first) stops being played, so the close contenders get most of the budget.

The budget is CPU time of the thinking thread (``time.thread_time``), so a busy machine slows a
move down instead of making it shallower, and a bot's other threads do not eat into it. The search is deterministic for a given seed and iteration
count when ``budget_seconds`` is None; with a budget it stops at whichever limit comes first.
"""

from __future__ import annotations

import math
import random
import statistics
import time
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, replace
from typing import Any, ClassVar

from rules.errors import IllegalAction
from rules.protocol import Action, Game

# A game is duck-typed here (copy/apply/legal_actions/seats_to_act/is_over/final_scores), so the
# search works for any engine that follows rules.protocol.Game.
GameT = Any
ActionT = Any


@dataclass(frozen=True)
class SearchSettings:
    """The knobs of one search; the defaults suit a one-second move."""

    budget_seconds: float | None = 1.0
    iterations: int = 400
    rollout_plies: int = 16
    exploration: float = 0.7
    widen_c: float = 2.0
    widen_alpha: float = 0.5
    margin_scale: float = 10.0
    max_candidates: int = 6
    # Paired mode: after this many deals, and after every doubling of it, the worse half of the
    # candidates (never the first) is dropped (sequential halving). 0: never drop.
    halve_after: int = 4
    # Moves deep the tree grows (1: only the searching seat's next move is a node, every later
    # move is played by the rollout policy). With the few dozen iterations a second allows, deeper
    # nodes mostly spend rollouts on replies the heuristic would not make.
    max_depth: int = 1
    # Paired mode: every deal is played once after *each* root candidate with the same rollout
    # seed (common random numbers), so candidates are compared on the same hidden cards and the
    # luck of the deal cancels out; ``iterations`` then counts deals. Much less noisy than UCB
    # when a second buys only a few dozen rollouts.
    paired: bool = False
    # In paired mode another move replaces the first candidate only when its mean reward is higher
    # by this much (rewards are in [0, 1]) and by ``prior_z`` standard errors of the paired gains.
    prior_margin: float = 0.01
    prior_z: float = 1.0
    # The first candidate is the game's own best guess (the heuristic's move): to replace it, another
    # move needs this share of the iterations more visits, so that a handful of noisy deals does
    # not overturn a sound plan.
    prior_share: float = 0.15


@dataclass
class SearchGame:
    """What the search needs to know about one game, beyond the engine protocol.

    ``candidates(game, seat)``: the moves worth searching, best first (a subset of the legal ones).
    ``rollout(game, seat)``: the move a quick policy plays in a rollout.
    ``estimate(game)``: the expected final score of every seat from a position not yet over.
    ``key(action)``: a hashable identity for a move, the same for equal moves in every deal.
    """

    candidates: Callable[[GameT, int], Sequence[ActionT]]
    rollout: Callable[[GameT, int], ActionT]
    estimate: Callable[[GameT], Sequence[float]]
    key: Callable[[ActionT], Hashable]
    reseed: Callable[[int], None] | None = None
    """Optional: reset the rollout policy's own random choices, so paired rollouts match."""
    segment: Callable[[GameT], Hashable] | None = None
    """Optional: a rollout stops (and is scored by ``estimate``) as soon as this changes, so it
    can end at a natural boundary of the game (First Class: the end of a round) however many
    moves that takes, ``rollout_plies`` staying the cap."""


class _Node:
    __slots__ = ("visits", "reward", "available", "children", "action")

    def __init__(self, action: ActionT = None) -> None:
        self.action = action
        self.visits = 0
        self.reward = 0.0  # summed reward of the seat that played ``action``
        self.available = 0
        self.children: dict[Hashable, _Node] = {}


@dataclass
class SearchResult:
    """The chosen move and what the search saw (for benchmarks and tests)."""

    action: ActionT
    iterations: int
    visits: dict[Hashable, int]


def _squashed_margins(values: Sequence[float], scale: float) -> list[float]:
    """Per seat, its lead over the best other seat squashed into (0, 1) (0.5: level)."""
    out = []
    for seat, value in enumerate(values):
        best_other = max(v for s, v in enumerate(values) if s != seat)
        margin = max(-30.0, min(30.0, (value - best_other) / scale))
        out.append(1.0 / (1.0 + math.exp(-margin)))
    return out


def _terminal_rewards(game: GameT, scale: float) -> list[float]:
    """Half for winning (shared between tied winners), half for the squashed score margin."""
    rows = sorted(game.final_scores(), key=lambda r: r["seat"])
    winners = [r["rank"] == 1 for r in rows]
    share = 1.0 / (sum(winners) or 1)
    margins = _squashed_margins([float(r["total"]) for r in rows], scale)
    return [0.5 * share * float(w) + 0.5 * m for w, m in zip(winners, margins, strict=True)]


def _estimated_rewards(game: GameT, spec: SearchGame, scale: float) -> list[float]:
    """An unfinished game has no winner yet: the squashed estimated margin stands for both halves."""
    return _squashed_margins(list(spec.estimate(game)), scale)


def search(
    determinize: Callable[[random.Random], GameT],
    seat: int,
    spec: SearchGame,
    settings: SearchSettings,
    rng: random.Random,
) -> SearchResult:
    """Choose a move for ``seat``: ISMCTS over the deals ``determinize`` hands out."""
    start = time.thread_time()
    root = _Node()
    first = determinize(rng)
    root_moves = list(spec.candidates(first, seat))[: settings.max_candidates]
    if not root_moves:
        legal = list(first.legal_actions(seat))
        if not legal:
            raise ValueError(f"seat {seat} has no move to search")
        root_moves = legal[:1]
    root_keys = {spec.key(a): a for a in root_moves}
    if len(root_keys) == 1:
        return SearchResult(root_moves[0], 0, {})
    if settings.paired:
        return _paired(first, determinize, seat, spec, settings, rng, root_keys, start)
    done = 0
    while done < settings.iterations:
        if (
            settings.budget_seconds is not None
            and done > 0
            and time.thread_time() - start >= settings.budget_seconds
        ):
            break
        game = first if done == 0 else determinize(rng)
        _iterate(game, root, spec, settings, rng)
        done += 1
    visits = {k: child.visits for k, child in root.children.items() if k in root_keys}
    if not visits:
        return SearchResult(root_moves[0], done, {})
    order = {k: i for i, k in enumerate(root_keys)}
    bonus = settings.prior_share * done

    def merit(k: Hashable) -> tuple[float, float, int]:
        return (
            visits[k] + (bonus if order[k] == 0 else 0.0),
            root.children[k].reward / max(1, visits[k]),
            -order[k],
        )

    best = max(visits, key=merit)
    return SearchResult(root_keys[best], done, visits)


def _paired(
    first: GameT,
    determinize: Callable[[random.Random], GameT],
    seat: int,
    spec: SearchGame,
    settings: SearchSettings,
    rng: random.Random,
    root_keys: dict[Hashable, ActionT],
    start: float,
) -> SearchResult:
    """Flat Monte Carlo with common random numbers: each deal scores every live root candidate;
    sequential halving narrows the live candidates as the deals accumulate."""
    totals = dict.fromkeys(root_keys, 0.0)
    counts = dict.fromkeys(root_keys, 0)
    # Per deal, each candidate's reward minus the first candidate's (common random numbers).
    gains: dict[Hashable, list[float]] = {k: [] for k in root_keys}
    order = list(root_keys)
    prior = order[0]
    live = list(order)
    next_halving = settings.halve_after
    done = 0

    def mean(k: Hashable) -> float:
        return totals[k] / counts[k] if counts[k] else -1.0

    last_deal = 0.0
    while done < settings.iterations and len(live) > 1:
        # A deal plays every live candidate to the end, so stop before one would overrun the budget.
        now = time.thread_time()
        if (
            settings.budget_seconds is not None
            and done > 0
            and now - start + last_deal > settings.budget_seconds
        ):
            break
        deal = first if done == 0 else determinize(rng)
        legal = {spec.key(a): a for a in deal.legal_actions(seat)}
        rollout_seed = rng.randrange(2**31)
        scored: dict[Hashable, float] = {}
        for key in live:
            action = legal.get(key, root_keys[key])
            game = deal.copy()
            try:
                game.apply(seat, action)
            except IllegalAction:  # a move this deal does not allow is simply not scored in it
                continue
            if spec.reseed is not None:
                spec.reseed(rollout_seed)
            scored[key] = _rollout_rewards(game, spec, settings)[seat]
            totals[key] += scored[key]
            counts[key] += 1
        if prior in scored:
            for key, reward in scored.items():
                gains[key].append(reward - scored[prior])
        done += 1
        last_deal = time.thread_time() - now
        if settings.halve_after and done == next_halving:
            next_halving *= 2
            # The first candidate always stays; of the rest, the better half does.
            rest = sorted((k for k in live if k != prior), key=lambda k: (-mean(k), order.index(k)))
            live = [prior, *rest[: max(1, len(rest) // 2)]] if len(live) > 2 else live
    means = {k: totals[k] / counts[k] for k in order if counts[k]}
    if not means:
        return SearchResult(root_keys[prior], done, {})
    # A dropped candidate is judged on fewer deals: only the live ones compete at the end, and one
    # replaces the first candidate only if it gained on the same deals by more than the margin and
    # by more than ``prior_z`` standard errors of its paired gains (a few lucky deals are not enough).
    contenders = [k for k in live if k in means and k != prior and _convincing(gains[k], settings)]
    if prior not in means or not contenders:
        best = prior if prior in means else max(means, key=lambda k: (means[k], -order.index(k)))
    else:
        best = max(contenders, key=lambda k: (statistics.fmean(gains[k]), -order.index(k)))
    return SearchResult(root_keys[best], done, dict(counts))


def _convincing(gains: list[float], settings: SearchSettings) -> bool:
    """Whether paired gains over the first candidate are clearly positive."""
    if len(gains) < 2:
        return False
    mean = statistics.fmean(gains)
    error = statistics.stdev(gains) / math.sqrt(len(gains))
    return mean > settings.prior_margin and mean > settings.prior_z * error


def _rollout_rewards(game: GameT, spec: SearchGame, settings: SearchSettings) -> list[float]:
    """Play ``rollout_plies`` moves with the rollout policy (or until the game's segment
    changes), then score the position."""
    start = spec.segment(game) if spec.segment is not None else None
    for _ in range(settings.rollout_plies):
        if game.is_over() or (spec.segment is not None and spec.segment(game) != start):
            break
        to_act = game.seats_to_act()
        if not to_act:
            break
        game.apply(to_act[0], spec.rollout(game, to_act[0]))
    if game.is_over():
        return _terminal_rewards(game, settings.margin_scale)
    return _estimated_rewards(game, spec, settings.margin_scale)


def _allowed(node: _Node, settings: SearchSettings) -> int:
    """How many of a node's best candidates it may consider after its visits so far."""
    return max(1, int(math.ceil(settings.widen_c * max(1, node.visits) ** settings.widen_alpha)))


def _ucb(child: _Node, exploration: float) -> float:
    """UCB1 with the availability count in place of the parent's visits (ISMCTS)."""
    return child.reward / child.visits + exploration * math.sqrt(
        math.log(max(1, child.available)) / child.visits
    )


def _iterate(
    game: GameT, root: _Node, spec: SearchGame, settings: SearchSettings, rng: random.Random
) -> None:
    path: list[tuple[_Node, int]] = []  # (node entered, seat that moved into it)
    node = root
    expanded = False
    while not game.is_over() and not expanded and len(path) < settings.max_depth:
        to_act = game.seats_to_act()
        if not to_act:
            break
        mover = to_act[0]
        moves = list(spec.candidates(game, mover))[: min(settings.max_candidates, _allowed(node, settings))]
        if not moves:
            break
        keyed = [(spec.key(a), a) for a in moves]
        for key, _ in keyed:
            child = node.children.get(key)
            if child is not None:
                child.available += 1
        fresh = next(((k, a) for k, a in keyed if k not in node.children), None)
        if fresh is not None:
            key, action = fresh
            child = _Node(action)
            child.available = 1
            node.children[key] = child
            expanded = True
        else:
            children = node.children
            key, action = max(keyed, key=lambda item: _ucb(children[item[0]], settings.exploration))
            child = node.children[key]
        game.apply(mover, action)
        path.append((child, mover))
        node = child
    rewards = _rollout_rewards(game, spec, settings)
    root.visits += 1
    for child, mover in path:
        child.visits += 1
        child.reward += rewards[mover]


# The game config key that sets a searching AI's thinking budget per move, in CPU milliseconds.
THINK_SETTING = "ai_think_ms"
# The thinking budget when neither the AI nor the game chooses one: about a second on a 2-core
# machine shared with the bot, enough for the plan decisions to be searched meaningfully.
DEFAULT_THINK_SECONDS = 1.0


@dataclass(frozen=True)
class SearchHooks:
    """What a game plugs into :class:`PlannedSearchAI`.

    ``planner(seed)``: an object with ``candidates``, ``rollout``, ``estimate``, ``reseed`` (and
    optionally ``forget``, called around each search); ``action_key(action)``: a move's identity in
    every deal; ``canonical_view(game, seat)``: a copy whose hidden parts depend only on the seat's
    view; ``observation_copy(game, seat, rng)``: a copy with everything the seat cannot see dealt
    again at random."""

    planner: Callable[[int], Any]
    action_key: Callable[[Any], Hashable]
    canonical_view: Callable[[Any, int], Any]
    observation_copy: Callable[[Any, int, random.Random], Any]


class PlannedSearchAI:
    """An AI seat that searches over observation copies of its own seat's view.

    A game supplies, in a subclass, its :class:`SearchHooks` as the class attribute ``HOOKS``,
    plus its rollout length and reward scale. The thinking budget per move is ``budget_seconds``
    of CPU time; left at ``GAME_BUDGET`` it is the game's own setting (``config[THINK_SETTING]``,
    milliseconds) or :data:`DEFAULT_THINK_SECONDS`. ``budget_seconds=None`` makes the iteration
    count the only limit (deterministic for a seed).
    """

    HOOKS: ClassVar[SearchHooks]
    ROLLOUT_PLIES = 8
    MARGIN_SCALE = 10.0
    PRIOR_MARGIN = 0.04
    MAX_CANDIDATES = 6
    GAME_BUDGET = -1.0

    def __init__(
        self,
        seed: int = 0,
        budget_seconds: float | None = GAME_BUDGET,
        iterations: int = 400,
        rollout_plies: int | None = None,
        paired: bool = True,
    ) -> None:
        hooks = self.HOOKS
        self.rng = random.Random(f"search-ai:{seed}")
        self.planner = hooks.planner(seed)
        self.budget_seconds = budget_seconds
        self.settings = SearchSettings(
            budget_seconds=budget_seconds,
            iterations=iterations,
            rollout_plies=self.ROLLOUT_PLIES if rollout_plies is None else rollout_plies,
            paired=paired,
            margin_scale=self.MARGIN_SCALE,
            prior_margin=self.PRIOR_MARGIN,
            max_candidates=self.MAX_CANDIDATES,
        )
        self.spec = SearchGame(
            candidates=self.planner.candidates,
            rollout=self.planner.rollout,
            estimate=self.planner.estimate,
            key=hooks.action_key,
            reseed=self.planner.reseed,
        )
        self.last: SearchResult | None = None

    def budget_for(self, game: Any) -> float | None:
        """CPU seconds to think about a move in ``game``: the AI's own budget if it was given one,
        else the game's setting, else the default."""
        if self.budget_seconds is None or self.budget_seconds >= 0:
            return self.budget_seconds
        config = getattr(game, "config", None) or {}
        try:
            millis = float(config.get(THINK_SETTING, DEFAULT_THINK_SECONDS * 1000))
        except (TypeError, ValueError):
            millis = DEFAULT_THINK_SECONDS * 1000
        return max(0.0, millis) / 1000

    def choose(self, game: Game, seat: int) -> Action:
        """The move the search rates best for ``seat``, from what ``seat`` can see."""
        hooks = self.HOOKS
        base = hooks.canonical_view(game, seat)
        settings = replace(self.settings, budget_seconds=self.budget_for(game))
        clear = getattr(self.planner, "forget", None)
        if clear is not None:
            clear()  # what a planner remembers serves one search: memory stays bounded
        try:
            self.last = search(
                lambda rng: hooks.observation_copy(base, seat, rng), seat, self.spec, settings, self.rng
            )
        finally:
            if clear is not None:
                # and is dropped after it: an AI that thought in a worker process travels back to
                # the bot pickled, and megabytes of plans would be unpickled under the event
                # loop's interpreter lock (a 0.4 s stall, measured by tests/e2e/test_loop_stall.py)
                clear()
        chosen: Action = self.last.action  # one of the game's legal actions, as the search keeps them
        return chosen
