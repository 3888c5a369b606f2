"""Cross-server leaderboards list only players who chose to be shown: one row per player and
server, each server's rating its own; the choice is stored per player (none stored: not shown)."""

from __future__ import annotations

from pathlib import Path

from bot.store.sqlite import SqliteStore
from bot.tournament.model import EventConfig, GameResult, SeatResult
from bot.tournament.ratings import RatingBook, leaderboard, rate_event_game, shared_leaderboard
from bot.tournament.store import RatingWrite

CONFIG = EventConfig(family="ttr", boards=("usa",), name="Cup", rounds=1, table_size=2)


def _result(game_id: str, *players: str) -> GameResult:
    """``players`` in finishing order."""
    return GameResult(
        game_id=game_id,
        round=1,
        table=1,
        board="usa",
        seats=tuple(SeatResult(p, i, 100 - i) for i, p in enumerate(players, 1)),
    )


BOOKS = {
    "north": rate_event_game(RatingBook(), CONFIG, _result("1", "ann", "bob")),
    "south": rate_event_game(RatingBook(), CONFIG, _result("2", "bob", "cy")),
}


def test_only_players_who_chose_to_be_shown_appear_once_per_server() -> None:
    """Bob opted in: one row per server he is rated in, each with that server's rating; Ann and
    Cy did not, and never appear, whatever their rating."""
    rows = shared_leaderboard(BOOKS, {"bob"}, "ttr")
    assert sorted(rows, key=lambda r: r[0]) == [
        ("north", BOOKS["north"].rating("bob", "ttr")),
        ("south", BOOKS["south"].rating("bob", "ttr")),
    ]
    assert rows[0][1].ordinal >= rows[1][1].ordinal  # best first: his win in the south
    assert rows[0][0] == "south"
    assert shared_leaderboard(BOOKS, set(), "ttr") == []
    assert {p.player for p in leaderboard(BOOKS["north"], "ttr")} == {"ann", "bob"}  # the server's own: all


def test_min_games_and_board_views_apply_across_servers_too() -> None:
    assert shared_leaderboard(BOOKS, {"bob"}, "ttr", min_games=2) == []
    assert [s for s, _ in shared_leaderboard(BOOKS, {"bob", "cy"}, "ttr", board="usa")] == [
        "south",
        "north",
        "south",
    ]
    assert shared_leaderboard(BOOKS, {"bob"}, "ttr", board="europe") == []


async def test_the_choice_is_stored_and_only_spaces_with_a_shown_player_are_read(tmp_path: Path) -> None:
    storage = await SqliteStore(tmp_path / "s.db", clock=lambda: 1_000.0).open()
    try:
        store = storage.tournaments
        for space, book in BOOKS.items():
            event_id = await store.create_event(
                space=space, creator="ann", game_name="ttr", config=CONFIG, settings={}, seed=1
            )
            (result,) = [
                r
                for r in (_result("1", "ann", "bob"), _result("2", "bob", "cy"))
                if r.game_id in book.rated_games
            ]
            await store.add_result(
                event_id,
                result,
                int(result.game_id),
                rated=RatingWrite(space, {result.game_id: event_id}, book.history),
            )
        assert not await store.sharing("ann") and await store.shared_players() == frozenset()
        assert await store.shared_books() == {}
        await store.set_sharing("cy", True)
        assert await store.sharing("cy") and await store.shared_players() == {"cy"}
        books = await store.shared_books()
        assert list(books) == ["south"]  # the north has no player who chose to be shown
        assert [(s, r.player) for s, r in shared_leaderboard(books, await store.shared_players(), "ttr")] == [
            ("south", "cy")
        ]
        await store.set_sharing("cy", False)
        assert not await store.sharing("cy") and await store.shared_books() == {}
    finally:
        await storage.close()
