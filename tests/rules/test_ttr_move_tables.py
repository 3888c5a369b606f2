"""Move generation from the board's prebuilt move tables lists exactly what the rules allow, in the
engine's listing order: every claim (each open track the seat has the trains for, with each payment
its hand can make, and on Märklin each passenger placement) and every station, compared on many
seeded random positions of every board against a reference that enumerates them one by one and
against a brute force over all card counts (tunnels, ferries, Switzerland's locomotives-on-tunnels
rule and Märklin's "+4" locomotives and passengers included)."""

from __future__ import annotations

import random
from typing import Any

import pytest
from ttr_helpers import BOARDS, PLAYER_COUNTS

from rules.games import new_game
from rules.ttr import actions as A
from rules.ttr.board import COLOURS, GRAY, LOCO, PLUS4, Board, Track
from rules.ttr.game import TTRGame
from rules.ttr.movegen import claim_payments
from rules.ttr.tables import wild_cards

POSITIONS_PER_BOARD = 40


def _brute_payments(board: Board, hand: list[int], track: Track) -> set[A.Cards]:
    """Every (coloured cards, locomotives, "+4"s) split of the track's length the hand holds and
    the rules accept: coloured cards of the track's colour (any one colour for gray), locomotives
    covering a ferry's locomotive spaces, wild cards only where the board allows them
    (Switzerland: tunnels only) and "+4"s only on tracks long enough (Märklin)."""
    spec = board.spec
    length = track.length
    wild_ok = not (spec.locomotives_tunnels_only and not track.tunnel)
    colours = range(len(COLOURS)) if track.colour == GRAY else (track.colour,)
    out: set[A.Cards] = set()
    for k in range(length + 1):
        for lo in range(length - k + 1):
            plus4 = length - k - lo
            if lo > hand[LOCO] or plus4 > hand[PLUS4] or lo < track.ferry_locos:
                continue
            if (lo or plus4) and not wild_ok:
                continue
            if plus4 and length < spec.plus4_min_length:
                continue
            if k == 0:
                out.add(wild_cards(lo, plus4))
                continue
            out.update(((COLOURS[c], k),) + wild_cards(lo, plus4) for c in colours if hand[c] >= k)
    return out


def _claimable(g: TTRGame, seat: int, track: Track) -> bool:
    """Double routes: a track is open unless taken, or its twin is the seat's own, or (with fewer
    players than the board's threshold) its twin is anyone's."""
    owner = g.state.owner
    if owner[track.index] != -1 or track.length > g.state.trains[seat]:
        return False
    closes = g.players < g.board.spec.double_routes_min_players
    return all(owner[s] == -1 or (owner[s] != seat and not closes) for s in track.siblings)


def _reference_claims(g: TTRGame, seat: int) -> list[A.ClaimRoute]:
    """The claims one by one, in the engine's order (colour groups, shortest shape first, tracks
    of a shape in board order; each track's payments in claim_payments' order, then each
    placement), each track's payments checked against the brute force."""
    board, st = g.board, g.state
    hand = st.hands[seat]
    placing = board.spec.passengers > 0 and st.passengers_left[seat] > 0
    out: list[A.ClaimRoute] = []
    for _, shapes in board.tables.shapes_by_colour:
        for _, _, tracks in shapes:
            for t in tracks:
                if not _claimable(g, seat, t):
                    continue
                pays = claim_payments(board, hand, t)
                assert len(set(pays)) == len(pays) and set(pays) == _brute_payments(board, hand, t), t.id
                places: list[str | None] = [None]
                if placing:
                    places += [
                        c for c in (t.a, t.b) if c not in st.passenger_at and not board.cities[c].is_country
                    ]
                out += [A.ClaimRoute(t.id, pay, place) for pay in pays for place in places]
    return out


def _reference_stations(g: TTRGame, seat: int) -> list[A.BuildStation]:
    """Every station, city by city in board order, each payment colour by colour (most coloured
    cards first, the rest locomotives), then locomotives only."""
    board, st = g.board, g.state
    costs = board.spec.station_costs
    if not costs or st.stations_left[seat] <= 0:
        return []
    cost = costs[len(costs) - st.stations_left[seat]]
    hand = st.hands[seat]
    pays = [
        ((COLOURS[c], k),) + wild_cards(cost - k, 0)
        for c in range(len(COLOURS))
        for k in range(min(hand[c], cost), 0, -1)
        if cost - k <= hand[LOCO]
    ]
    if hand[LOCO] >= cost:
        pays.append(wild_cards(cost, 0))
    return [
        A.BuildStation(name, pay)
        for name, city in board.cities.items()
        if not city.is_country and name not in st.station_at
        for pay in pays
    ]


def _random_positions(board_id: str, rng: random.Random) -> list[TTRGame]:
    """Random games stopped at random points, the seat to play given a random hand (small, large or
    lopsided), trains, stations left and, on Märklin, passengers on the board and in hand."""
    out: list[TTRGame] = []
    for n in range(POSITIONS_PER_BOARD):
        players = rng.choice(PLAYER_COUNTS[board_id])
        g: TTRGame = new_game("ttr", {"board": board_id}, players, 7100 + n)
        play = random.Random(n)
        stop = rng.randrange(0, 300) if n else 0
        while not g.is_over() and g.state.turn < stop:
            seat = g.seats_to_act()[0]
            g.apply(seat, play.choice(g.legal_actions(seat)))
        st, spec = g.state, g.board.spec
        st.phase, st.pending, st.tunnel, st.final_turns_left = "play", None, None, None
        seat = st.current
        size = rng.choice((3, 8, 40))
        st.hands[seat] = [min(d, rng.randint(0, size)) if rng.random() < 0.8 else 0 for d in spec.deck]
        st.trains[seat] = rng.randint(1, spec.trains)
        if spec.station_costs:
            st.stations_left[seat] = rng.randint(0, len(spec.station_costs))
        if spec.passengers:
            cities = [c for c, city in g.board.cities.items() if not city.is_country]
            st.passenger_at = {c: rng.randrange(players) for c in rng.sample(cities, rng.randint(0, 6))}
            st.passengers_left[seat] = rng.randint(0, spec.passengers)
        out.append(g)
    return out


@pytest.mark.parametrize("board", BOARDS)
def test_prebuilt_move_tables_list_what_the_rules_allow(board: str) -> None:
    """Rules on claiming (payments, double routes, trains left, tunnels, ferries, locomotive
    limits, "+4"s, passenger placement) and on stations: legal_actions lists exactly the reference
    claims and stations in the same order, with the per-hand caches empty and again warm."""
    rng = random.Random(board)
    positions = _random_positions(board, rng)
    for g in positions:
        seat = g.state.current
        expected_claims = _reference_claims(g, seat)
        expected_stations = _reference_stations(g, seat)
        for _ in range(2):  # first call fills the per-hand caches, the second reads them
            legal: list[Any] = g.legal_actions(seat)
            assert [a for a in legal if isinstance(a, A.ClaimRoute)] == expected_claims
            assert [a for a in legal if isinstance(a, A.BuildStation)] == expected_stations
    # The positions must reach what the comparison is about, or it proves nothing.
    spec = positions[0].board.spec
    claims = sum(len(_reference_claims(g, g.state.current)) for g in positions)
    assert claims > 1000
    if spec.station_costs:
        assert any(_reference_stations(g, g.state.current) for g in positions)
    if spec.passengers:
        assert any(a.passenger for g in positions for a in _reference_claims(g, g.state.current))
