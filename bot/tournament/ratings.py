"""Community ratings: OpenSkill's Plackett–Luce model per game family, with a per-board view.

One finished game updates the ratings of its seats from the game's own ranking (ties allowed).
Seats the AI played for a player are flagged in the result; the event's
``count_ai_takeovers`` rule says whether they are rated like the others or left out (the
remaining seats are then rated among themselves). The rating maths is OpenSkill's; this module
only decides who is rated, in which view, and keeps the history.

A :class:`RatingBook` is immutable: :func:`rate_game` returns a new book, so the ratings can
always be rebuilt by replaying the finished games in order.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from openskill.models import PlackettLuce

from bot.tournament.model import EventConfig, GameResult, TournamentError, families
from lang import M

_MODEL = PlackettLuce()
INITIAL_MU: float = _MODEL.mu
INITIAL_SIGMA: float = _MODEL.sigma


@dataclass(frozen=True)
class View:
    """Which ratings a number belongs to: a game family, optionally narrowed to one board."""

    family: str
    board: str | None = None


@dataclass(frozen=True)
class PlayerRating:
    """A player's skill estimate: ``mu`` (mean) and ``sigma`` (uncertainty)."""

    player: str
    mu: float = INITIAL_MU
    sigma: float = INITIAL_SIGMA
    games: int = 0

    @property
    def ordinal(self) -> float:
        """The conservative estimate ``mu - 3 sigma`` that leaderboards sort by."""
        return self.mu - 3 * self.sigma


@dataclass(frozen=True)
class RatingChange:
    """One seat of one rated game in one view. ``counted`` is false for a seat left out by the
    AI-takeover rule (then ``before == after``)."""

    player: str
    game_id: str
    view: View
    rank: int
    ai_takeover: bool
    counted: bool
    before: PlayerRating
    after: PlayerRating


@dataclass(frozen=True)
class RatingBook:
    """Ratings per view and the history of every change, oldest first."""

    views: Mapping[View, Mapping[str, PlayerRating]] = field(default_factory=lambda: MappingProxyType({}))
    history: tuple[RatingChange, ...] = ()
    rated_games: frozenset[str] = frozenset()

    def rating(self, player: str, family: str, board: str | None = None) -> PlayerRating:
        """The player's rating in a view (the initial rating if they have no rated game there)."""
        return self.views.get(View(family, board), {}).get(player, PlayerRating(player))


def rate_game(
    book: RatingBook, family: str, result: GameResult, *, count_ai_takeovers: bool, per_board: bool = True
) -> RatingBook:
    """``book`` updated with one finished game of ``family`` (in its family view and, with
    ``per_board``, its board's view). Refuses a game already rated."""
    if family not in families():
        raise TournamentError(
            "bad_family",
            M(
                "Ratings are kept for {choices}, not {family}.",
                choices=", ".join(families()),
                family=repr(family),
            ),
        )
    if result.game_id in book.rated_games:
        raise TournamentError(
            "already_rated", M("Game {game_id} has already been rated.", game_id=result.game_id)
        )
    counted = [s for s in result.seats if count_ai_takeovers or not s.ai_takeover]
    views = dict(book.views)
    history = list(book.history)
    for view in (View(family), View(family, result.board)) if per_board else (View(family),):
        table = dict(views.get(view, {}))
        before = {s.player: table.get(s.player, PlayerRating(s.player)) for s in result.seats}
        after = dict(before)
        if len(counted) >= 2:
            teams = [[_MODEL.rating(mu=before[s.player].mu, sigma=before[s.player].sigma)] for s in counted]
            rated = _MODEL.rate(teams, ranks=[float(s.rank) for s in counted])
            for seat, (new,) in zip(counted, rated, strict=True):
                old = before[seat.player]
                after[seat.player] = PlayerRating(seat.player, new.mu, new.sigma, old.games + 1)
                table[seat.player] = after[seat.player]
        for seat in result.seats:
            history.append(
                RatingChange(
                    player=seat.player,
                    game_id=result.game_id,
                    view=view,
                    rank=seat.rank,
                    ai_takeover=seat.ai_takeover,
                    counted=len(counted) >= 2 and seat in counted,
                    before=before[seat.player],
                    after=after[seat.player],
                )
            )
        views[view] = MappingProxyType(table)
    return RatingBook(
        views=MappingProxyType(views), history=tuple(history), rated_games=book.rated_games | {result.game_id}
    )


def rate_event_game(
    book: RatingBook, config: EventConfig, result: GameResult, per_board: bool = True
) -> RatingBook:
    """:func:`rate_game` under an event's rules: unchanged if the event is not rated or the
    result is void."""
    if not config.rated or result.void:
        return book
    return rate_game(
        book, config.family, result, count_ai_takeovers=config.count_ai_takeovers, per_board=per_board
    )


def rebuild_ratings(games: Iterable[tuple[EventConfig, GameResult]], per_board: bool = True) -> RatingBook:
    """Ratings rebuilt from scratch by rating ``games`` (each with its event's rules) in the order
    given: after a correction or a voided table, the same games in their original order give the
    book the incremental updates would have given had the corrected results been the first ones."""
    book = RatingBook()
    for config, result in games:
        book = rate_event_game(book, config, result, per_board)
    return book


def leaderboard(
    book: RatingBook, family: str, board: str | None = None, min_games: int = 0
) -> list[PlayerRating]:
    """Rated players of a view, best first: by ordinal, then mean, then more games, then id."""
    table = book.views.get(View(family, board), {})
    rows = [r for r in table.values() if r.games >= min_games]
    return sorted(rows, key=lambda r: (-r.ordinal, -r.mu, -r.games, r.player))


def shared_leaderboard(
    books: Mapping[str, RatingBook],
    shared: Iterable[str],
    family: str,
    board: str | None = None,
    min_games: int = 0,
) -> list[tuple[str, PlayerRating]]:
    """Across spaces: one row ``(space, rating)`` per player and space where they are rated, for
    players in ``shared`` only (who chose to appear outside their servers); each space's rating
    stays its own (ratings of different communities are not merged). Best first, as
    :func:`leaderboard`, then by space."""
    allowed = frozenset(shared)
    rows = [
        (space, r)
        for space, book in books.items()
        for r in leaderboard(book, family, board, min_games)
        if r.player in allowed
    ]
    return sorted(rows, key=lambda row: (-row[1].ordinal, -row[1].mu, -row[1].games, row[1].player, row[0]))


def ordinals(book: RatingBook, family: str, board: str | None = None) -> dict[str, float]:
    """Ordinal per rated player of a view (e.g. to seed round one of an event)."""
    return {p: r.ordinal for p, r in book.views.get(View(family, board), {}).items()}


def player_history(
    book: RatingBook, player: str, family: str, board: str | None = None
) -> list[RatingChange]:
    """The player's rating changes in a view, oldest first."""
    view = View(family, board)
    return [c for c in book.history if c.player == player and c.view == view]
