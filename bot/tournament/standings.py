"""Standings recomputed from the finished games: place points, the tie-break chain, final tables.

Nothing here is typed in by hand: :func:`standings` takes the event configuration and the list of
results and returns every row with every tie-break column, so a corrected result simply changes
the list and the standings follow.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field

from bot.tournament.model import Criterion, EventConfig, GameResult, Registration, Stage, TournamentError
from lang import M, Mp

DEGENERATE_RATIO_CAP = 2.0
"""WBC ratio when the best opponent scored 0 or less and the player scored more (see wbc_ratio)."""


STAGE_WORDS = {
    Stage.SWISS: Mp("event stage", "Swiss"),
    Stage.GROUP: Mp("event stage", "group"),
    Stage.CUT: Mp("event stage", "top cut"),
    Stage.FINAL: Mp("event stage", "final"),
}
"""A round's stage as its readers name it."""


@dataclass(frozen=True)
class Row:
    """One line of the standings. ``position`` is shared by players tied on every criterion;
    ``head_to_head`` is the value among the players it was used to separate (0 if never used)."""

    position: int
    player: str
    games: int
    place_points: float
    wins: int
    wbc_ratio: float
    total_score: int
    tickets_completed: int
    head_to_head: int
    adjudicated_games: int
    ai_takeovers: int
    corrected_games: int
    dropped: bool = False
    group: int | None = None
    final_rank: int | None = None
    cut_round: int | None = None
    """The last knockout round (top cut or final table) the player sat in; None: never."""


@dataclass
class _Tally:
    games: int = 0
    place_points: float = 0.0
    wins: int = 0
    wbc_ratio: float = 0.0
    total_score: int = 0
    tickets_completed: int = 0
    adjudicated_games: int = 0
    ai_takeovers: int = 0
    corrected_games: int = 0
    group: int | None = None
    final_rank: int | None = None
    cut_round: int | None = None
    cut_rank: int | None = None  # the rank at the table of ``cut_round``
    head_to_head: int = 0
    games_played: list[GameResult] = field(default_factory=list)


def place_points(config: EventConfig, result: GameResult) -> dict[str, float]:
    """Points per player for one game: the scale for its table size, by the game's own ranks.

    Players sharing a rank cover that many places; they get the average of those places'
    points, or the best of them, as the event says (``tied_places``).
    """
    scale = config.points_for(len(result.seats))
    out: dict[str, float] = {}
    for seat in result.seats:
        tied = sum(1 for s in result.seats if s.rank == seat.rank)
        covered = scale[seat.rank - 1 : seat.rank - 1 + tied]
        out[seat.player] = float(covered[0]) if config.tied_places == "best" else sum(covered) / len(covered)
    return out


def wbc_ratio(score: int, best_opponent: int) -> float:
    """The World Boardgaming Championships ratio: score divided by the best opponent's score.

    Ticket to Ride scores can be 0 or negative, where the ratio means nothing; the sources do
    not say what to do then, so Conductor's own rule is: with a best opponent at 0 or below, a
    player who beat them gets :data:`DEGENERATE_RATIO_CAP`, one who tied gets 1.0, one who lost
    gets 0.0. A negative score over a positive best counts as 0.0 (no negative ratios).
    """
    if best_opponent > 0:
        return max(score, 0) / best_opponent
    if score > best_opponent:
        return DEGENERATE_RATIO_CAP
    return 1.0 if score == best_opponent else 0.0


def check_results(config: EventConfig, results: Sequence[GameResult]) -> None:
    """Refuse a result list that cannot be one event's record (duplicates, unknown boards …)."""
    seen_tables: set[tuple[Stage, int, int]] = set()
    seen_games: set[str] = set()
    seated: set[tuple[int, str]] = set()
    for result in results:
        key = (result.stage, result.round, result.table)
        if key in seen_tables:
            raise TournamentError(
                "duplicate_result",
                M(
                    "Round {round} table {table} has two results; a correction replaces the earlier one.",
                    round=result.round,
                    table=result.table,
                ),
            )
        if result.game_id in seen_games:
            raise TournamentError(
                "duplicate_result", M("Game {game_id} is listed twice.", game_id=result.game_id)
            )
        seen_tables.add(key)
        seen_games.add(result.game_id)
        if result.board not in config.boards:
            raise TournamentError(
                "bad_result", M("Board {board} is not one of this event's boards.", board=repr(result.board))
            )
        if result.round > config.total_rounds:
            raise TournamentError(
                "bad_result",
                M(
                    "This event has {total_rounds} rounds; a result for round {round} cannot belong to it.",
                    total_rounds=config.total_rounds,
                    round=result.round,
                ),
            )
        if config.stage_of(result.round) is not result.stage:
            raise TournamentError(
                "bad_result",
                M(
                    "Round {round} is a {stage} round, not a {given} round.",
                    round=result.round,
                    stage=STAGE_WORDS[config.stage_of(result.round)],
                    given=STAGE_WORDS[result.stage],
                ),
            )
        config.points_for(len(result.seats))
        for player in result.players:
            if (result.round, player) in seated:
                raise TournamentError(
                    "bad_result",
                    M("{player} has two games in round {round}.", player=player, round=result.round),
                )
            seated.add((result.round, player))


def _tally(config: EventConfig, results: Sequence[GameResult]) -> dict[str, _Tally]:
    tallies: dict[str, _Tally] = defaultdict(_Tally)
    for result in results:
        if result.void:  # a voided table gives nothing to anyone
            continue
        points = place_points(config, result)
        for seat in result.seats:
            t = tallies[seat.player]
            if result.stage is Stage.FINAL:
                t.final_rank = seat.rank
            if result.stage.elimination and (t.cut_round or 0) < result.round:
                t.cut_round, t.cut_rank = result.round, seat.rank
            if result.group is not None:
                t.group = result.group
            t.games += 1
            t.games_played.append(result)
            t.place_points += points[seat.player]
            t.wins += seat.rank == 1
            best_opponent = max(s.score for s in result.seats if s.player != seat.player)
            t.wbc_ratio += wbc_ratio(seat.score, best_opponent)
            t.total_score += seat.score
            t.tickets_completed += seat.tickets_completed or 0
            t.adjudicated_games += result.adjudicated
            t.ai_takeovers += seat.ai_takeover
            t.corrected_games += result.correction_reason is not None
    _late_entries(config, results, tallies)
    return tallies


def _late_entries(config: EventConfig, results: Sequence[GameResult], tallies: dict[str, _Tally]) -> None:
    """Place points for the rounds a late entry missed (the rounds played before their first,
    outside the final), as the event's policy says; the games count stays the games played."""
    if config.late_entry == "zero":
        return
    played = {r.round for r in results if not r.stage.elimination}
    first: dict[str, int] = {}
    for result in results:  # a voided table still seated its players in that round
        if not result.stage.elimination:
            for player in result.players:
                first[player] = min(first.get(player, result.round), result.round)
    for player, start in first.items():
        missed = sum(1 for r in played if r < start)
        t = tallies[player]
        if not missed:
            continue
        if config.late_entry == "fixed":
            t.place_points += missed * config.late_points
        elif t.games:
            t.place_points += missed * t.place_points / t.games


def _head_to_head(player: str, block: Sequence[str], tally: _Tally) -> int:
    rivals = set(block) - {player}
    net = 0
    for result in tally.games_played:
        mine = next(s.rank for s in result.seats if s.player == player)
        for seat in result.seats:
            if seat.player in rivals:
                net += (mine < seat.rank) - (mine > seat.rank)
    return net


def _value(criterion: Criterion, player: str, block: Sequence[str], tallies: dict[str, _Tally]) -> float:
    t = tallies[player]
    if criterion is Criterion.HEAD_TO_HEAD:
        t.head_to_head = _head_to_head(player, block, t)
        return t.head_to_head
    # Rounded so float sums of the same ratios in a different order still tie.
    return round(float(getattr(t, criterion.value)), 9)


def _order(
    players: Sequence[str], criteria: Sequence[Criterion], tallies: dict[str, _Tally]
) -> list[list[str]]:
    """Blocks of players in standings order; players in one block are tied on every criterion."""
    if len(players) <= 1 or not criteria:
        return [sorted(players)] if players else []
    values = {p: _value(criteria[0], p, players, tallies) for p in players}
    blocks: list[list[str]] = []
    for value in sorted(set(values.values()), reverse=True):
        tied = [p for p in players if values[p] == value]
        blocks.extend(_order(tied, criteria[1:], tallies))
    return blocks


def standings(
    config: EventConfig,
    results: Sequence[GameResult],
    registration: Registration | None = None,
    group: int | None = None,
) -> list[Row]:
    """The standings of an event from its finished games, best first.

    With a final table, its players come first in the order of the final game (ties there keep
    the order of the earlier rounds); with a top cut, then the players out in each earlier
    knockout round, latest round first, by their place at their table and then their order from
    the Swiss rounds; then everyone else by the ranking criteria. Registered
    players without a game yet are listed last. ``group`` restricts the rows to one group's
    players (their group-stage games decide the order).
    """
    check_results(config, results)
    tallies = _tally(config, results)
    players = list(tallies)
    if registration is not None:
        unknown = sorted(set(players) - set(registration.players))
        if unknown:
            raise TournamentError(
                "bad_result", M("{unknown} has a result but is not registered.", unknown=unknown[0])
            )
        players += [p for p in registration.players if p not in tallies]
    if group is not None:
        players = [p for p in players if tallies[p].group == group]
    played = [p for p in players if tallies[p].games]
    waiting = [p for p in players if not tallies[p].games]
    prelim = _order(played, config.ranking, tallies) + ([waiting] if waiting else [])
    finalists = [p for p in players if tallies[p].cut_round is not None]
    blocks: list[list[str]] = []
    if finalists:
        # The Swiss order here is that of the rounds before the knockout only, so a cut game's
        # points never reorder the players it eliminated.
        before = [r for r in results if not r.stage.elimination]
        swiss = _tally(config, before)
        for player in finalists:
            swiss[player].group = tallies[player].group
        swiss_played = [p for p in players if swiss[p].games]
        order = _order(swiss_played, config.ranking, swiss) + [[p for p in players if not swiss[p].games]]
        prelim_index = {p: i for i, b in enumerate(order) for p in b}

        def key(p: str) -> tuple[int, int, int]:
            return (-(tallies[p].cut_round or 0), tallies[p].cut_rank or 0, prelim_index[p])

        for player in sorted(finalists, key=lambda p: (key(p), p)):
            if blocks and key(blocks[-1][0]) == key(player):
                blocks[-1].append(player)
            else:
                blocks.append([player])
        prelim = [[p for p in b if p not in set(finalists)] for b in prelim]
        prelim = [b for b in prelim if b]
    blocks += prelim
    dropped = registration.dropped if registration is not None else frozenset()
    rows: list[Row] = []
    position = 1
    for block in blocks:
        for player in block:
            t = tallies[player]
            rows.append(
                Row(
                    position=position,
                    player=player,
                    games=t.games,
                    place_points=t.place_points,
                    wins=t.wins,
                    wbc_ratio=round(t.wbc_ratio, 6),
                    total_score=t.total_score,
                    tickets_completed=t.tickets_completed,
                    head_to_head=t.head_to_head,
                    adjudicated_games=t.adjudicated_games,
                    ai_takeovers=t.ai_takeovers,
                    corrected_games=t.corrected_games,
                    dropped=player in dropped,
                    group=t.group,
                    final_rank=t.final_rank,
                    cut_round=t.cut_round,
                )
            )
        position += len(block)
    return rows
