"""legal_actions agrees with apply: every listed action applies cleanly, and candidate actions
that are not listed are refused without changing the game (checked on sampled positions)."""

from __future__ import annotations

import json

import pytest
from ttr_helpers import BOARDS, state

from rules.errors import IllegalAction
from rules.games import new_game
from rules.ttr import actions as A
from rules.ttr.ai import HeuristicAI, RandomAI
from rules.ttr.board import CARD_NAMES
from rules.ttr.game import TTRGame


def _canon(a: object) -> object:
    if isinstance(a, A.KeepTickets):
        return ("keep", frozenset(a.ids))
    if isinstance(a, A.ClaimRoute):
        return ("claim", a.track.lower(), A.normalize_cards(a.cards), a.passenger)
    if isinstance(a, A.PayTunnel | A.BuildStation):
        return (type(a).__name__, getattr(a, "city", None), A.normalize_cards(a.cards))
    return a


def _candidates(g: TTRGame, seat: int) -> list[object]:
    hand = g.hands[seat]
    out: list[object] = [A.DrawDeck(), A.Pass(), A.DrawTickets(), A.WithdrawTunnel()]
    out += [A.DrawFaceUp(i) for i in range(5)]
    out += [A.DrawTickets(s, 4 - s) for s in range(5)]
    names = [CARD_NAMES[i] for i, n in enumerate(hand) if n]
    for t in g.board.tracks:
        for name in names + ["red"]:
            out.append(A.ClaimRoute(t.id, ((name, t.length),)))
            if t.length > 1 and hand[8]:
                out.append(A.ClaimRoute(t.id, ((name, t.length - 1), ("locomotive", 1))))
    for name in names:
        for k in (1, 2, 3):
            out.append(A.PayTunnel(((name, k),)))
    if g.board.spec.station_costs:
        for name in names:
            for k in (1, 2, 3):
                out.append(A.BuildStation("Berlin", ((name, k),)))
    offer = g.offers[seat] or []
    for k in range(len(offer) + 1):
        out.append(A.KeepTickets(tuple(offer[:k])))
    # Märklin passengers move route by route: set off (any passenger, own or not), then each
    # route at the city the journey is in (and a few elsewhere), then stop.
    for city in g.passenger_at:
        out.append(A.StartJourney(city))
    journey = g.state.journey
    if journey is not None:
        out += [A.TravelRoute(t.id) for t in g.board.tracks_at(journey["at"])]
        out += [A.TravelRoute(t.id) for t in g.board.tracks[:10]]
    out.append(A.EndJourney())
    return out


def _check_position(g: TTRGame) -> None:
    seat = g.seats_to_act()[0]
    legal = g.legal_actions(seat)
    legal_set = {_canon(a) for a in legal}
    assert len(legal_set) == len(legal), "legal_actions lists an action twice"
    for a in legal:
        c = g.copy()
        c.apply(seat, a)
    for a in _candidates(g, seat):
        c = g.copy()
        before = state(c)
        try:
            c.apply(seat, a)
        except IllegalAction as err:
            assert state(c) == before, f"{a} was refused but changed the game"
            assert err.message and err.code
            assert _canon(a) not in legal_set, f"listed action {a} was refused: {err.message}"
            continue
        assert _canon(a) in legal_set, f"{a} applies but is not in legal_actions"


@pytest.mark.slow
@pytest.mark.parametrize("board", BOARDS)
def test_legal_actions_match_apply(board: str) -> None:
    """Rule 2 / every rule: the listed actions are exactly the ones the rules accept."""
    for seed in range(2):
        players = 2 + seed % 2
        g: TTRGame = new_game("ttr", {"board": board}, players, 4000 + seed)
        ais = [HeuristicAI(seed) if s == 0 else RandomAI(seed + s) for s in range(players)]
        n = 0
        while not g.is_over():
            if n % 17 == 0:
                _check_position(g)
            seat = g.seats_to_act()[0]
            events = g.apply(seat, ais[seat].choose(g, seat))
            text = json.dumps(events, ensure_ascii=False)
            # Events are public: no ticket ids, and a blind draw never names the card drawn.
            assert not any(f'"{t}"' in text for t in g.board.tickets)
            assert all("card" not in e for e in events if e["type"] == "draw_deck")
            n += 1
