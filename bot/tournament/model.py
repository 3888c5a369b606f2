"""Typed, immutable data of a community tournament: its configuration, entrants, tables and results.

Everything here is plain data validated on construction: a bad configuration or a malformed
result raises :class:`TournamentError` with a sentence an organiser understands, and nothing is
created. Players are opaque string ids (``"discord:1234"``); the tournament core never looks
inside them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum
from types import MappingProxyType
from typing import Any, Literal

from lang import CatalogError, M, Mp, Msg
from rules.games import GAMES


def families() -> tuple[str, ...]:
    """Game families that are rated separately: every registered game (its ``rules.games`` name)."""
    return tuple(GAMES)


class TournamentError(CatalogError):
    """A refused tournament input (see :class:`lang.CatalogError`): ``code`` machine-readable,
    ``message`` the English sentence (logs, tests), ``said`` the sentence with its facts for the
    front end to word in the reader's language."""


class Format(StrEnum):
    """How the rounds of an event are organised."""

    SWISS = "swiss"
    """Swiss over ``rounds`` rounds; the standings after the last round are final."""
    SWISS_FINAL = "swiss_final"
    """Swiss over ``rounds`` rounds, then one final table of the ``final_size`` best players."""
    GROUPS_FINAL = "groups_final"
    """``groups`` separate Swiss groups over ``rounds`` rounds, then a final table of their best."""
    SWISS_CUT = "swiss_cut"
    """Swiss over ``rounds`` rounds, then a single-elimination top cut: the ``cut_size`` best
    players at tables of ``final_size``, each table's winner going on, down to one final table."""


class Stage(StrEnum):
    SWISS = "swiss"
    GROUP = "group"
    CUT = "cut"
    """An elimination round of a top cut before its final table: each table's winner goes on."""
    FINAL = "final"

    @property
    def elimination(self) -> bool:
        """A round of the knockout stage (a top cut's or the final table): not Swiss or group play."""
        return self in (Stage.CUT, Stage.FINAL)


class Criterion(StrEnum):
    """One step of the standings order (the tie-break chain); higher is better for every one."""

    PLACE_POINTS = "place_points"
    """Sum of the points for finishing places (``points_per_place``)."""
    WINS = "wins"
    """Games finished in first place (a shared first place counts as a win)."""
    WBC_RATIO = "wbc_ratio"
    """Sum over games of the player's score divided by the best opponent's score (WBC)."""
    TOTAL_SCORE = "total_score"
    """Sum of the game scores."""
    TICKETS_COMPLETED = "tickets_completed"
    """Sum of destination tickets completed (Ticket to Ride; 0 for games without tickets)."""
    HEAD_TO_HEAD = "head_to_head"
    """Among the players still tied: places won minus places lost in the games they shared."""


DEFAULT_POINTS: Mapping[int, tuple[int, ...]] = MappingProxyType(
    {
        2: (6, 1),
        3: (6, 3, 1),
        4: (6, 5, 3, 1),
        5: (6, 5, 3, 2, 1),
    }
)
"""Points per finishing place by table size. The 4-player scale (6/5/3/1) is the organisers'
example; the 2-, 3- and 5-player scales are Conductor's own choice (first 6, last 1), not taken
from a published rule: organisers are expected to set their own."""

DEFAULT_TIE_BREAKS: tuple[Criterion, ...] = (
    Criterion.PLACE_POINTS,
    Criterion.WINS,
    Criterion.WBC_RATIO,
    Criterion.TOTAL_SCORE,
    Criterion.TICKETS_COMPLETED,
    Criterion.HEAD_TO_HEAD,
)

DEFAULT_TABLE_SIZES: Mapping[int, tuple[int, ...]] = MappingProxyType(
    {
        2: (2, 3),
        3: (2, 3, 4),
        4: (3, 4, 5),
        5: (3, 4, 5),
    }
)
"""Table sizes allowed next to the chosen one when the field does not divide evenly."""

MIN_TABLE, MAX_TABLE = 2, 6


@dataclass(frozen=True)
class EventConfig:
    """The organiser's settings for one event; validated on construction.

    ``ranking`` is the whole standings order: its first criterion is the main score and the
    rest break ties in turn. ``tied_places`` says what players who share a place in one game
    get: the average of the points of the places they cover, or the points of the best one.
    """

    name: str
    family: str = field(kw_only=True)
    """The game every table plays (a registered game's name): named by the organiser, never assumed."""
    format: Format = Format.SWISS
    rounds: int = 4
    table_size: int = 4
    table_sizes: tuple[int, ...] = ()
    boards: tuple[str, ...] = field(kw_only=True)
    points_per_place: Mapping[int, tuple[int, ...]] = field(default_factory=lambda: dict(DEFAULT_POINTS))
    ranking: tuple[Criterion, ...] = DEFAULT_TIE_BREAKS
    tied_places: Literal["average", "best"] = "average"
    final_size: int = 0
    groups: int = 0
    cut_size: int = 0
    """With ``swiss_cut``: how many of the best players enter the top cut (``final_size`` to a
    power: 16 at tables of 4 is four tables of 4, then their winners at the final table)."""
    seed_round_one_by_rating: bool = False
    rated: bool = True
    count_ai_takeovers: bool = False
    late_entry: Literal["zero", "average", "fixed"] = "zero"
    """What a player who entered late gets for each earlier round (Board Game Arena's "points for
    skipped players"): nothing, the average of their own rounds' place points, or ``late_points``."""
    late_points: float = 0.0

    def __post_init__(self) -> None:
        if not self.name.strip():
            raise TournamentError("bad_config", M("The event needs a name."))
        if self.late_entry not in ("zero", "average", "fixed"):
            raise TournamentError(
                "bad_config",
                M(
                    "A late entry gets zero, average or fixed points, not {value}.",
                    value=repr(self.late_entry),
                ),
            )
        if not 0 <= self.late_points <= 1000 or (self.late_points and self.late_entry != "fixed"):
            raise TournamentError(
                "bad_config",
                M(
                    "Fixed points for a late entry's missed rounds are between 0 and 1000, with late_entry:fixed."
                ),
            )
        if self.family not in families():
            raise TournamentError(
                "bad_config",
                M(
                    "The game family must be one of {choices}, not {family}.",
                    choices=", ".join(families()),
                    family=repr(self.family),
                ),
            )
        object.__setattr__(self, "format", _enum(Format, self.format, Mp("tournament setting", "format")))
        tie_break = Mp("tournament setting", "tie-break")
        object.__setattr__(self, "ranking", tuple(_enum(Criterion, c, tie_break) for c in self.ranking))
        if not 1 <= self.rounds <= 30:
            raise TournamentError(
                "bad_config", M("An event has between 1 and 30 rounds, not {rounds}.", rounds=self.rounds)
            )
        if not MIN_TABLE <= self.table_size <= MAX_TABLE:
            raise TournamentError(
                "bad_config",
                M(
                    "Tables seat between {low} and {high} players, not {table_size}.",
                    low=MIN_TABLE,
                    high=MAX_TABLE,
                    table_size=self.table_size,
                ),
            )
        sizes = (
            tuple(sorted(set(self.table_sizes)))
            if self.table_sizes
            else DEFAULT_TABLE_SIZES.get(self.table_size, (self.table_size,))
        )
        if self.table_size not in sizes:
            raise TournamentError(
                "bad_config",
                M(
                    "The allowed table sizes {sizes} must include the chosen size {table_size}.",
                    sizes=list(sizes),
                    table_size=self.table_size,
                ),
            )
        if any(not MIN_TABLE <= s <= MAX_TABLE for s in sizes):
            raise TournamentError(
                "bad_config",
                M(
                    "Every allowed table size must be between {low} and {high}; got {sizes}.",
                    low=MIN_TABLE,
                    high=MAX_TABLE,
                    sizes=list(sizes),
                ),
            )
        object.__setattr__(self, "table_sizes", sizes)
        if not self.boards or any(not b.strip() for b in self.boards):
            raise TournamentError("bad_config", M("The event needs at least one board, each with a name."))
        if len(set(self.boards)) != len(self.boards):
            raise TournamentError("bad_config", M("A board is listed twice; list each board once."))
        points = {int(k): tuple(v) for k, v in self.points_per_place.items()}
        for size in sizes + ((self.final_size,) if self.final_size else ()):
            scale = points.get(size)
            if scale is None:
                raise TournamentError(
                    "bad_config",
                    M(
                        "There is no points scale for {size}-player tables; give one with {size} values.",
                        size=size,
                    ),
                )
            if len(scale) != size:
                raise TournamentError(
                    "bad_config",
                    M(
                        "The points scale for {size}-player tables has "
                        "{scale_count} values; it needs exactly {size}.",
                        size=size,
                        scale_count=len(scale),
                    ),
                )
            if any(a < b for a, b in zip(scale, scale[1:], strict=False)):
                raise TournamentError(
                    "bad_config",
                    M(
                        "The points scale for {size}-player tables must not "
                        "give a later place more points than an earlier one.",
                        size=size,
                    ),
                )
        object.__setattr__(self, "points_per_place", MappingProxyType(points))
        if not self.ranking:
            raise TournamentError("bad_config", M("The standings need at least one ranking criterion."))
        if len(set(self.ranking)) != len(self.ranking):
            raise TournamentError("bad_config", M("A tie-break is listed twice; list each one once."))
        if self.tied_places not in ("average", "best"):
            raise TournamentError(
                "bad_config", M("Shared places get either the 'average' or the 'best' points.")
            )
        self._check_format()

    def _check_format(self) -> None:
        if self.format is not Format.SWISS_CUT and self.cut_size:
            raise TournamentError("bad_config", M("Only a Swiss event with a top cut (swiss_cut) has a cut."))
        if self.format is Format.SWISS:
            if self.final_size or self.groups:
                raise TournamentError(
                    "bad_config", M("A plain Swiss event has no final table and no groups.")
                )
            return
        if not MIN_TABLE <= self.final_size <= MAX_TABLE:
            raise TournamentError(
                "bad_config",
                M(
                    "The final table seats between {low} and {high} players, not {final_size}.",
                    low=MIN_TABLE,
                    high=MAX_TABLE,
                    final_size=self.final_size,
                ),
            )
        if self.format is Format.SWISS_FINAL:
            if self.groups:
                raise TournamentError("bad_config", M("A Swiss event with a final has no groups."))
            return
        if self.format is Format.SWISS_CUT:
            if self.groups:
                raise TournamentError("bad_config", M("A Swiss event with a top cut has no groups."))
            if self.cut_rounds == 0:
                sizes = [self.final_size**k for k in range(1, 5) if self.final_size**k <= 512]
                raise TournamentError(
                    "bad_config",
                    M(
                        "A top cut at tables of {final_size} takes {choices} players (each table's winner"
                        " goes on until one final table is left), not {cut_size}.",
                        final_size=self.final_size,
                        choices=", ".join(str(n) for n in sizes),
                        cut_size=self.cut_size,
                    ),
                )
            return
        if self.groups < 2:
            raise TournamentError("bad_config", M("An event with groups needs at least 2 groups."))
        if self.final_size % self.groups:
            raise TournamentError(
                "bad_config",
                M(
                    "The final table of {final_size} cannot take the same "
                    "number of players from each of {groups} groups.",
                    final_size=self.final_size,
                    groups=self.groups,
                ),
            )

    @property
    def has_final(self) -> bool:
        return self.format is not Format.SWISS

    @property
    def cut_rounds(self) -> int:
        """Knockout rounds of a top cut, the final included (``cut_size`` = ``final_size`` to this
        power); 0 when the event has no cut or the numbers make none."""
        if self.format is not Format.SWISS_CUT or self.final_size < 2:
            return 0
        size, rounds = self.cut_size, 0
        while size > 1 and size % self.final_size == 0:
            size //= self.final_size
            rounds += 1
        return rounds if size == 1 else 0

    @property
    def total_rounds(self) -> int:
        """Rounds including the top cut or the final table, if there is one."""
        if self.format is Format.SWISS_CUT:
            return self.rounds + self.cut_rounds
        return self.rounds + (1 if self.has_final else 0)

    def stage_of(self, round_number: int) -> Stage:
        """The stage a round belongs to (rounds are numbered from 1)."""
        if not 1 <= round_number <= self.total_rounds:
            raise TournamentError(
                "bad_round",
                M(
                    "This event has rounds 1 to {total_rounds}, not {round_number}.",
                    total_rounds=self.total_rounds,
                    round_number=round_number,
                ),
            )
        if round_number == self.total_rounds and self.has_final:
            return Stage.FINAL
        if round_number > self.rounds:
            return Stage.CUT
        return Stage.GROUP if self.format is Format.GROUPS_FINAL else Stage.SWISS

    def points_for(self, table_size: int) -> tuple[int, ...]:
        try:
            return self.points_per_place[table_size]
        except KeyError:
            raise TournamentError(
                "bad_result",
                M("This event has no points scale for {table_size}-player tables.", table_size=table_size),
            ) from None


def _enum(kind: Any, value: Any, what: Msg) -> Any:
    try:
        return kind(value)
    except ValueError:
        names = ", ".join(m.value for m in kind)
        raise TournamentError(
            "bad_config",
            M("Unknown {what} {value}; choose from {names}.", what=what, value=repr(value), names=names),
        ) from None


@dataclass(frozen=True)
class Registration:
    """Who entered, in registration order, and who has dropped out (kept in the standings)."""

    players: tuple[str, ...]
    dropped: frozenset[str] = frozenset()

    def __post_init__(self) -> None:
        if any(not p.strip() for p in self.players):
            raise TournamentError("bad_registration", M("Every player needs a non-empty id."))
        if len(set(self.players)) != len(self.players):
            raise TournamentError("bad_registration", M("A player is registered twice."))
        unknown = self.dropped - set(self.players)
        if unknown:
            raise TournamentError(
                "bad_registration", M("{unknown} dropped but never registered.", unknown=sorted(unknown)[0])
            )

    @property
    def active(self) -> tuple[str, ...]:
        """Players still taking part, in registration order."""
        return tuple(p for p in self.players if p not in self.dropped)

    def join(self, player: str) -> Registration:
        if player in self.players:
            raise TournamentError("already_registered", M("{player} is already registered.", player=player))
        return replace(self, players=self.players + (player,))

    def drop(self, player: str) -> Registration:
        """The registration with ``player`` left out of later pairings."""
        if player not in self.players:
            raise TournamentError(
                "not_registered", M("{player} is not registered in this event.", player=player)
            )
        if player in self.dropped:
            raise TournamentError("already_dropped", M("{player} has already dropped out.", player=player))
        return replace(self, dropped=self.dropped | {player})


@dataclass(frozen=True)
class Table:
    """One table of a round: ``seats[0]`` plays first."""

    round: int
    number: int
    board: str
    seats: tuple[str, ...]
    stage: Stage = Stage.SWISS
    group: int | None = None


@dataclass(frozen=True)
class Round:
    number: int
    stage: Stage
    tables: tuple[Table, ...]

    @property
    def players(self) -> tuple[str, ...]:
        return tuple(p for t in self.tables for p in t.seats)


@dataclass(frozen=True)
class SeatResult:
    """How one seat finished. ``rank`` is the game's own final ranking (1 is best; equal ranks
    are a tie the game's tie-breaks could not split); ``ai_takeover`` marks a seat the AI played
    for the player (timeout, abandonment or adjudication). ``tickets_completed`` and
    ``longest_trail`` (cars in the seat's longest continuous trail) are Ticket to Ride's and
    ``None`` where the game has no such thing (First Class) or the record predates them."""

    player: str
    rank: int
    score: int
    tickets_completed: int | None = None
    ai_takeover: bool = False
    longest_trail: int | None = None


@dataclass(frozen=True)
class GameResult:
    """A finished game of the event. ``seats`` is in seat order (first player first).

    ``adjudicated`` marks a game finished by AI seats at a deadline; ``correction_reason`` is
    set when an organiser replaced an earlier result, and says why. A ``void`` result (a broken
    or aborted table an organiser voided, its reason in ``correction_reason``) closes the table
    but gives no points, counts in no tie-break and is never rated.
    """

    game_id: str
    round: int
    table: int
    board: str
    seats: tuple[SeatResult, ...]
    stage: Stage = Stage.SWISS
    group: int | None = None
    adjudicated: bool = False
    correction_reason: str | None = None
    void: bool = False

    def __post_init__(self) -> None:
        object.__setattr__(self, "stage", _result_enum(Stage, self.stage))
        if not MIN_TABLE <= len(self.seats) <= MAX_TABLE:
            raise TournamentError(
                "bad_result",
                M(
                    "A game has {low} to {high} seats, not {seats_count}.",
                    low=MIN_TABLE,
                    high=MAX_TABLE,
                    seats_count=len(self.seats),
                ),
            )
        players = [s.player for s in self.seats]
        if len(set(players)) != len(players):
            raise TournamentError("bad_result", M("A player holds two seats in one game."))
        ranks = sorted(s.rank for s in self.seats)
        # Competition ranking: a tie for place k is followed by place k + (number tied).
        expected = [1 + sum(1 for r in ranks if r < rank) for rank in ranks]
        if ranks != expected:
            raise TournamentError(
                "bad_result",
                M(
                    "The ranks {ranks} are not a finishing order (1 first; "
                    "tied seats share a rank and skip the next).",
                    ranks=ranks,
                ),
            )
        if self.round < 1 or self.table < 1:
            raise TournamentError("bad_result", M("Rounds and tables are numbered from 1."))
        if self.correction_reason is not None and not self.correction_reason.strip():
            raise TournamentError("bad_result", M("A corrected result must say why it was corrected."))
        if self.void and self.correction_reason is None:
            raise TournamentError("bad_result", M("A voided table must say why it was voided."))

    @property
    def players(self) -> tuple[str, ...]:
        return tuple(s.player for s in self.seats)

    def corrected(self, seats: Sequence[SeatResult], reason: str) -> GameResult:
        """This result replaced by ``seats`` (same players), keeping ``reason`` for the record."""
        if not reason.strip():
            raise TournamentError("bad_result", M("A corrected result must say why it was corrected."))
        if sorted(s.player for s in seats) != sorted(self.players):
            raise TournamentError("bad_result", M("A correction must keep the same players at the table."))
        return replace(self, seats=tuple(seats), correction_reason=reason.strip())


def void_result(table: Table, game_id: str, reason: str, earlier: GameResult | None = None) -> GameResult:
    """The record of a voided table: no points for anyone, ``reason`` kept. An earlier result of
    the table keeps its seats (so the record still shows what was voided); without one every
    seat shares the only place with no score."""
    if not reason.strip():
        raise TournamentError(
            "bad_result", M("Say why the table is voided; the reason is kept with the result.")
        )
    seats = (
        earlier.seats
        if earlier is not None
        else tuple(SeatResult(player=p, rank=1, score=0) for p in table.seats)
    )
    return GameResult(
        game_id=game_id,
        round=table.round,
        table=table.number,
        board=table.board,
        seats=seats,
        stage=table.stage,
        group=table.group,
        adjudicated=False,
        correction_reason=reason.strip(),
        void=True,
    )


def _result_enum(kind: Any, value: Any) -> Any:
    try:
        return kind(value)
    except ValueError:
        raise TournamentError("bad_result", M("Unknown stage {value}.", value=repr(value))) from None


def result_from_final_scores(
    table: Table,
    game_id: str,
    final_scores: Sequence[Mapping[str, Any]],
    ai_seats: Sequence[int] = (),
    adjudicated: bool = False,
) -> GameResult:
    """A :class:`GameResult` from an engine's ``final_scores()`` for the game played at ``table``.

    Ranks, totals and (Ticket to Ride) tickets completed and longest trails are taken as the
    engine gives them, so
    ties inside a game follow the game's own tie-breaks. ``ai_seats`` lists seat indexes the AI
    played for a player.
    """
    if len(final_scores) != len(table.seats):
        raise TournamentError(
            "bad_result",
            M(
                "The game has {final_scores_count} seats but table {number} seats {seats_count} players.",
                final_scores_count=len(final_scores),
                number=table.number,
                seats_count=len(table.seats),
            ),
        )
    by_seat = {int(row["seat"]): row for row in final_scores}
    if sorted(by_seat) != list(range(len(table.seats))):
        raise TournamentError("bad_result", M("The final scores must list every seat once."))
    if any(not 0 <= s < len(table.seats) for s in ai_seats):
        raise TournamentError("bad_result", M("An AI-played seat is not a seat of this table."))
    seats = []
    for index, player in enumerate(table.seats):
        row = by_seat[index]
        done = row.get("tickets_completed")
        trail = row.get("longest_trail")
        seats.append(
            SeatResult(
                player=player,
                rank=int(row["rank"]),
                score=int(row["total"]),
                tickets_completed=None if done is None else int(done),
                ai_takeover=index in ai_seats,
                longest_trail=None if trail is None else int(trail),
            )
        )
    return GameResult(
        game_id=game_id,
        round=table.round,
        table=table.number,
        board=table.board,
        seats=tuple(seats),
        stage=table.stage,
        group=table.group,
        adjudicated=adjudicated,
    )
