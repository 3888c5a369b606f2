"""Which AI takes a person's seat over: the game's ``takeover_ai`` setting, else the server's,
else the game's default; a kind the game does not offer is ignored."""

from __future__ import annotations

from bot_helpers import BOB, two_humans

from bot.service import GameService


async def test_the_games_setting_wins_over_the_servers_and_the_servers_over_the_default(
    service: GameService,
) -> None:
    """takeover_kind: game config first, then the server, then GameSpec.takeover_ai (heuristic)."""
    gid = await two_humans(service)
    row = await service.game_row(gid)
    assert service.takeover_kind(row) == "heuristic"
    service.takeover_ai = "search"
    assert service.takeover_kind(row) == "search"
    row.config["takeover_ai"] = "heuristic"
    assert service.takeover_kind(row) == "heuristic"
    row.config["takeover_ai"] = "grandmaster"  # not a kind the game offers: the server's choice
    assert service.takeover_kind(row) == "search"
    service.takeover_ai = "grandmaster"
    assert service.takeover_kind(row) == "heuristic"


async def test_a_resigned_seat_goes_to_the_servers_takeover_ai(service: GameService) -> None:
    """With the server's takeover AI set to search, a resignation seats the search AI."""
    service.takeover_ai = "search"
    gid = await two_humans(service)
    await service.resign(gid, BOB)
    seat = (await service.game_row(gid)).seats[1]
    assert seat.is_ai and seat.ai_kind == "search"
