"""OpenSkill Plackett–Luce ratings per game family: winners rise, ties, the AI-takeover rule,
per-board views, history, leaderboard order and determinism."""

from __future__ import annotations

import pytest

from bot.tournament.model import EventConfig, GameResult, SeatResult, TournamentError
from bot.tournament.ratings import (
    INITIAL_MU,
    RatingBook,
    View,
    leaderboard,
    ordinals,
    player_history,
    rate_event_game,
    rate_game,
)


def _result(
    game_id: str, *seats: tuple[str, int], board: str = "usa", ai: tuple[str, ...] = ()
) -> GameResult:
    return GameResult(
        game_id=game_id,
        round=1,
        table=1,
        board=board,
        seats=tuple(SeatResult(p, r, 100 - 10 * r, ai_takeover=p in ai) for p, r in seats),
    )


FOUR = _result("g1", ("a", 1), ("b", 2), ("c", 3), ("d", 4))


def test_the_winner_rises_and_the_last_player_falls() -> None:
    book = rate_game(RatingBook(), "ttr", FOUR, count_ai_takeovers=False)
    mus = [book.rating(p, "ttr").mu for p in "abcd"]
    assert mus[0] > INITIAL_MU > mus[3]
    assert mus == sorted(mus, reverse=True)
    assert all(book.rating(p, "ttr").sigma < book.rating("nobody", "ttr").sigma for p in "abcd")
    assert [r.player for r in leaderboard(book, "ttr")] == ["a", "b", "c", "d"]


def test_players_sharing_a_rank_move_alike() -> None:
    book = rate_game(
        RatingBook(), "ttr", _result("g", ("a", 1), ("b", 1), ("c", 3)), count_ai_takeovers=False
    )
    a, b, c = (book.rating(p, "ttr") for p in "abc")
    assert a.mu == pytest.approx(b.mu) and a.sigma == pytest.approx(b.sigma)
    assert a.mu > INITIAL_MU > c.mu


def test_seats_the_ai_took_over_are_left_out_unless_the_event_counts_them() -> None:
    result = _result("g", ("a", 1), ("b", 2), ("c", 3), ai=("a",))
    left_out = rate_game(RatingBook(), "ttr", result, count_ai_takeovers=False)
    assert left_out.rating("a", "ttr").games == 0
    assert left_out.rating("a", "ttr").mu == INITIAL_MU
    assert left_out.rating("b", "ttr").mu > INITIAL_MU  # b is now the best of the rated seats
    change = player_history(left_out, "a", "ttr")[0]
    assert change.ai_takeover and not change.counted and change.before == change.after
    counted = rate_game(RatingBook(), "ttr", result, count_ai_takeovers=True)
    assert counted.rating("a", "ttr").games == 1 and counted.rating("a", "ttr").mu > INITIAL_MU
    assert counted.rating("b", "ttr").mu < left_out.rating("b", "ttr").mu


def test_a_game_with_fewer_than_two_rated_seats_changes_nobody() -> None:
    result = _result("g", ("a", 1), ("b", 2), ("c", 3), ai=("a", "b"))
    book = rate_game(RatingBook(), "ttr", result, count_ai_takeovers=False)
    assert all(book.rating(p, "ttr").games == 0 for p in "abc")
    assert "g" in book.rated_games


def test_families_are_rated_apart_and_boards_have_their_own_view() -> None:
    book = rate_game(RatingBook(), "ttr", FOUR, count_ai_takeovers=False)
    book = rate_game(book, "ttr", _result("g2", ("d", 1), ("a", 2), board="europe"), count_ai_takeovers=False)
    assert book.rating("a", "first-class").games == 0
    assert book.rating("a", "ttr").games == 2
    assert book.rating("a", "ttr", "usa").games == 1
    assert book.rating("d", "ttr", "europe").mu > INITIAL_MU
    assert set(book.views) == {View("ttr"), View("ttr", "usa"), View("ttr", "europe")}
    assert len(player_history(book, "a", "ttr")) == 2


def test_history_records_each_change_in_order() -> None:
    book = RatingBook()
    for n in range(3):
        book = rate_game(book, "first-class", _result(f"g{n}", ("a", 1), ("b", 2)), count_ai_takeovers=False)
    changes = player_history(book, "a", "first-class")
    assert [c.game_id for c in changes] == ["g0", "g1", "g2"]
    assert all(c.after.mu > c.before.mu for c in changes)
    assert all(later.before == earlier.after for earlier, later in zip(changes, changes[1:], strict=False))


def test_ratings_are_deterministic() -> None:
    def replay() -> dict[str, float]:
        book = RatingBook()
        for n, order in enumerate(("abcd", "dcba", "bdac")):
            book = rate_game(
                book,
                "ttr",
                _result(f"g{n}", *((p, i + 1) for i, p in enumerate(order))),
                count_ai_takeovers=False,
            )
        return ordinals(book, "ttr")

    assert replay() == replay()


def test_leaderboard_sorts_by_ordinal_so_one_lucky_win_is_not_enough() -> None:
    """A player with one win ranks below one who won five of five against the same field."""
    book = RatingBook()
    for n in range(5):
        book = rate_game(
            book, "ttr", _result(f"s{n}", ("steady", 1), ("x", 2), ("y", 3)), count_ai_takeovers=False
        )
    book = rate_game(book, "ttr", _result("lucky", ("lucky", 1), ("z", 2)), count_ai_takeovers=False)
    names = [r.player for r in leaderboard(book, "ttr")]
    assert names.index("steady") < names.index("lucky")
    assert [r.player for r in leaderboard(book, "ttr", min_games=2)] == ["steady", "x", "y"]


def test_a_game_is_rated_once_and_unrated_events_change_nothing() -> None:
    book = rate_game(RatingBook(), "ttr", FOUR, count_ai_takeovers=False)
    with pytest.raises(TournamentError) as err:
        rate_game(book, "ttr", FOUR, count_ai_takeovers=False)
    assert err.value.code == "already_rated"
    with pytest.raises(TournamentError):
        rate_game(book, "chess", _result("g9", ("a", 1), ("b", 2)), count_ai_takeovers=False)
    unrated = EventConfig(family="ttr", boards=("usa",), name="Friendly", rated=False)
    assert rate_event_game(book, unrated, _result("g9", ("a", 1), ("b", 2))) is book
