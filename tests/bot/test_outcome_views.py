"""An outcome carries what its subscribers need: each seat's own view and legal actions of the
state it reports, equal to what the service answers for that state, and unchanged by later moves;
the Ticket to Ride menus read them (the seat's view and the board's data) exactly as they read the
live game before."""

from __future__ import annotations

import random
from typing import Any

from bot_helpers import ALICE, BOB, two_humans

from bot.games.ttr.discord_menus import table_of, ticket_path_tracks, tunnel_text
from bot.service import GameService
from bot.stream import Outcome
from lang import using
from rules.ttr.ai import shortest_path
from rules.ttr.board import CARD_NAMES


async def _views_now(service: GameService, gid: int) -> dict[str, tuple[object, object]]:
    return {
        player: (await service.private_view(gid, player), await service.legal_actions(gid, player))
        for player in (ALICE, BOB)
    }


def _carried(outcome: Outcome) -> dict[str, tuple[object, object]]:
    assert outcome.private is not None
    out: dict[str, tuple[object, object]] = {}
    for player in (ALICE, BOB):
        seat = outcome.seat_of(player)
        assert seat is not None
        out[player] = (outcome.private.view(seat), list(outcome.private.legal(seat)))
    return out


async def test_an_outcome_carries_each_seats_view_legal_actions_deadline_and_seats(
    service: GameService,
) -> None:
    gid = await two_humans(service, board="europe", turn_hours=24)
    rng = random.Random(5)
    outcomes: list[tuple[Outcome, dict[str, tuple[object, object]]]] = []
    for _ in range(40):
        loaded = await service.load(gid)
        assert loaded.game is not None
        seat = loaded.game.seats_to_act()[0]
        player = loaded.row.seats[seat].player
        assert player is not None
        action = rng.choice(list(loaded.game.legal_actions(seat)))
        outcome = await service.act(gid, player, action)
        now = await _views_now(service, gid)
        for language in ("en", "fr"):
            with using(language):
                assert _carried(outcome) == await _views_now(service, gid), language
        assert outcome.deadline == service.deadline(await service.load(gid)) is not None
        assert outcome.language == "en" and outcome.number == (await service.game_row(gid)).number
        assert [(s.player, s.name, s.is_ai) for s in outcome.seats] == [
            (ALICE, "alice", False),
            (BOB, "bob", False),
        ]
        outcomes.append((outcome, now))
    # a later move never changes what an earlier outcome carries
    for outcome, then in outcomes:
        assert _carried(outcome) == then


async def test_the_ttr_menus_read_the_view_as_they_read_the_game(service: GameService) -> None:
    """The ticket paths (the ⭐ routes) and the tunnel text computed from the seat's view equal
    those computed from the live game, position after position on a board with tunnels."""
    gid = await two_humans(service, board="switzerland")
    rng = random.Random(11)
    tunnels = 0
    for _ in range(160):
        loaded = await service.load(gid)
        game = loaded.game
        if game is None or loaded.row.status != "active":
            break
        outcome = await service.current_outcome(gid)
        for seat in range(2):
            table = table_of(outcome, seat)
            assert ticket_path_tracks(table) == _engine_ticket_paths(game, seat)
            tun = game.state.tunnel
            if tun is not None and tun["seat"] == seat:
                tunnels += 1
                assert table.tunnel_payment == {
                    name: n for name, n in zip(CARD_NAMES, tun["payment"], strict=True) if n
                }
                assert tunnel_text(table)
        seat = game.seats_to_act()[0]
        player = loaded.row.seats[seat].player
        assert player is not None
        await service.act(gid, player, rng.choice(list(game.legal_actions(seat))))
    assert tunnels, "the walk met no pending tunnel: choose another seed"


def _engine_ticket_paths(game: Any, seat: int) -> set[str]:
    """The ⭐ tracks as ttr_menus computed them from the live game before it read views."""
    out: set[str] = set()
    for info in game.ticket_status(seat):
        if info.get("completed"):
            continue
        card = game.board.tickets[info["id"]]
        best = None
        for dest, _pts in card.destinations:
            found = shortest_path(game, seat, card.origin, {dest})
            if found is not None and (best is None or found[0] < best[0]):
                best = found
        if best is not None:
            out.update(t.id for t in best[1] if game.state.owner[t.index] == -1)
    return out
