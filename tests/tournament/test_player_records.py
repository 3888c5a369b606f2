"""``/profile``'s record: games, wins by board and table size, average score, tickets completed
and the longest trail taken, counted from the stored results (void tables left out), and kept
through the store's JSON (older records without a trail read back as unknown)."""

from __future__ import annotations

from bot.discord_app.tournament_cog import profile_extras
from bot.tournament.model import GameResult, SeatResult
from bot.tournament.records import player_record
from bot.tournament.store import result_from_json, result_to_json


def _result(game_id: str, board: str, *seats: SeatResult, void: bool = False) -> GameResult:
    return GameResult(
        game_id=game_id,
        round=1,
        table=int(game_id),
        board=board,
        seats=seats,
        void=void,
        correction_reason="broken table" if void else None,
    )


def _seat(
    player: str, rank: int, score: int, tickets: int | None = None, trail: int | None = None
) -> SeatResult:
    return SeatResult(player=player, rank=rank, score=score, tickets_completed=tickets, longest_trail=trail)


GAMES = [
    _result("1", "usa", _seat("ann", 1, 120, 5, 31), _seat("bob", 2, 90, 3, 40)),
    _result("2", "usa", _seat("bob", 1, 100, 4, 22), _seat("ann", 2, 80, 2, 17), _seat("cy", 3, 60, 1, 9)),
    _result("3", "europe", _seat("ann", 1, 110, 6, 25), _seat("cy", 2, 70, 2, 12)),
    _result("4", "europe", _seat("ann", 1, 999, 99, 99), _seat("cy", 2, 0, 0, 0), void=True),
]


def test_record_counts_games_wins_by_board_and_size_scores_tickets_and_the_longest_trail() -> None:
    """Ann: three games (the void one counts for nothing), two wins, tickets summed, the longest
    trail is her best over the games, not the table's best."""
    ann = player_record("ann", GAMES)
    assert (ann.games, ann.wins, ann.total_score) == (3, 2, 310)
    assert ann.by_board == {("usa", 2): [1, 1], ("usa", 3): [1, 0], ("europe", 2): [1, 1]}
    assert ann.tickets_completed == 13 and ann.tickets_games == 3
    assert ann.longest_trail == 31
    assert profile_extras(ann) == "Tickets completed: 13 (4.3 a game) · longest trail taken: 31 cars"


def test_a_game_without_tickets_or_trails_shows_a_dash_not_a_zero() -> None:
    """First Class results carry neither; the profile says "—" rather than inventing zeros."""
    games = [_result("1", "first-class", _seat("ann", 1, 40), _seat("bob", 2, 30))]
    ann = player_record("ann", games)
    assert ann.games == 1 and ann.tickets_completed is None and ann.longest_trail is None
    assert profile_extras(ann) == "Tickets completed: — · longest trail taken: —"


def test_a_player_who_never_sat_has_an_empty_record() -> None:
    dan = player_record("dan", GAMES)
    assert dan.games == 0 and dan.average_score == 0.0 and dan.by_board == {}


def test_the_longest_trail_survives_the_store_and_older_records_read_it_as_unknown() -> None:
    """The trail is kept in the stored result JSON; a record written before it existed has no
    key and reads back as ``None`` (no migration needed)."""
    stored = result_to_json(GAMES[0])
    assert result_from_json(stored) == GAMES[0]
    for seat in stored["seats"]:
        del seat["longest_trail"]
    assert [s.longest_trail for s in result_from_json(stored).seats] == [None, None]
