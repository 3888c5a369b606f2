"""Helpers to stage exact Ticket to Ride positions and to check the engine's invariants.

A game is created with ``new_game`` and its plain list/dict fields are then overwritten to set up
the situation a rule test needs (hands, face-up row, deck order, route owners). ``fresh`` clears
any derived caches the engine keeps so the staged fields are what it sees.
"""

from __future__ import annotations

import json
import re
from collections import Counter, deque
from typing import Any

import pytest

from rules.errors import IllegalAction
from rules.games import new_game
from rules.ttr import actions as A
from rules.ttr.board import CARD_INDEX, CARD_NAMES, N_CARD_TYPES, Track
from rules.ttr.game import TTRGame

_TICKET_ID = re.compile(r'"([A-Za-z0-9]+-T\d+)"')
BOARDS = ("usa", "europe", "switzerland", "germany")
PLAYER_COUNTS = {"usa": (2, 3, 4, 5), "europe": (2, 3, 4, 5), "switzerland": (2, 3), "germany": (2, 3, 4, 5)}


def fresh(g: TTRGame) -> TTRGame:
    """Forget any cache derived from the fields a test overwrote (the open-track cache also
    notices a changed ``owner`` by itself; this makes the rebuild explicit)."""
    g._open.seen_owner = []
    return g


def finish_setup(g: TTRGame, keep: str = "min") -> TTRGame:
    """Everyone keeps tickets (the first ``keep_min`` offered, or all) so the game is in play."""
    for seat in range(g.players):
        if g.offers[seat] is None:  # Märklin: announce first
            g.apply(seat, A.DrawTickets(2, 2))
        lo, hi = g._ticket_keep_bounds(seat)
        offer = g.offers[seat] or []
        n = lo if keep == "min" else hi
        g.apply(seat, A.KeepTickets(tuple(offer[:n])))
    assert g.phase == "play"
    return g


def game(
    board: str = "usa", players: int = 2, seed: int = 1, *, setup: bool = True, **config: Any
) -> TTRGame:
    g: TTRGame = new_game("ttr", {"board": board, **config}, players, seed)
    if setup:
        finish_setup(g)
    return g


def vec(**cards: int) -> list[int]:
    out = [0] * N_CARD_TYPES
    for name, n in cards.items():
        out[CARD_INDEX[name]] = n
    return out


def cards_of(names: list[str]) -> list[int]:
    return [CARD_INDEX[n] for n in names]


def set_hand(g: TTRGame, seat: int, **cards: int) -> None:
    """Give ``seat`` exactly these cards. The cards come from / go back to the deck and discard
    (which become one sorted deck), so the deck's make-up stays intact."""
    new = vec(**cards)
    pool = Counter(g.deck + g.discard)
    for i in range(N_CARD_TYPES):
        pool[i] += g.hands[seat][i] - new[i]
    assert all(v >= 0 for v in pool.values()), "cannot stage that hand"
    g.hands[seat] = new
    g.deck = [c for c in range(N_CARD_TYPES) for _ in range(pool[c])]
    g.discard = []
    fresh(g)


def layout(
    g: TTRGame,
    hands: dict[int, dict[str, int]],
    face_up: list[str | None] | None = None,
    deck_top: list[str] = (),
    rest_to: str = "deck",
) -> None:  # type: ignore[assignment]
    """Place every train card explicitly: the given hands (other seats empty), the face-up row
    (unchanged when None), ``deck_top`` (first name drawn first) and all remaining cards of the
    deck's make-up at the bottom of the deck (sorted) or in the discard pile."""
    pool = Counter({i: n for i, n in enumerate(deck_makeup(g))})
    for seat in range(g.players):
        g.hands[seat] = vec(**hands.get(seat, {}))
        pool.subtract(Counter({i: n for i, n in enumerate(g.hands[seat])}))
    if face_up is not None:
        g.face_up = [CARD_INDEX[n] if n is not None else -1 for n in face_up]
    pool.subtract(Counter(c for c in g.face_up if c >= 0))
    top = [CARD_INDEX[n] for n in deck_top]
    pool.subtract(Counter(top))
    assert all(v >= 0 for v in pool.values()), f"cannot stage that layout: {pool}"
    rest = [c for c in range(N_CARD_TYPES) for _ in range(pool[c])]
    if rest_to == "deck":
        g.deck, g.discard = rest + list(reversed(top)), []
    else:
        g.deck, g.discard = list(reversed(top)), rest
    g.tunnel = None
    fresh(g)


ALL_COLOURS = {c: 12 for c in ("red", "orange", "yellow", "green", "blue", "pink", "black", "white")}


def empty_hands(g: TTRGame) -> None:
    for seat in range(g.players):
        set_hand(g, seat)


def set_row(g: TTRGame, names: list[str | None], deck_top: list[str] | None = None) -> None:
    """Set the face-up row and (optionally) the next cards of the deck (first name is drawn first).
    Cards are swapped with the rest of the deck/discard so the totals stay conserved."""
    pool = g.deck + g.discard + [c for c in g.face_up if c >= 0]
    want = [CARD_INDEX[n] for n in names if n is not None]
    top = [CARD_INDEX[n] for n in (deck_top or [])]
    for c in want + top:
        pool.remove(c)
    g.face_up = [CARD_INDEX[n] if n is not None else -1 for n in names]
    # Keep remaining pool in a stable order; deck.pop() takes from the end.
    g.deck = sorted(pool) + list(reversed(top))
    g.discard = []
    fresh(g)


def set_deck(g: TTRGame, deck_top: list[str], rest: str = "keep") -> None:
    """Put these cards on top of the deck (first name drawn first), keeping every card conserved."""
    pool = g.deck + g.discard
    top = [CARD_INDEX[n] for n in deck_top]
    for c in top:
        pool.remove(c)
    g.deck = sorted(pool) + list(reversed(top))
    g.discard = []
    fresh(g)


def hand_names(g: TTRGame, seat: int) -> dict[str, int]:
    return {CARD_NAMES[i]: n for i, n in enumerate(g.hands[seat]) if n}


def track(g: TTRGame, tid: str) -> Track:
    return g.board.track_by_id[tid.lower()]


def tracks_between(g: TTRGame, a: str, b: str) -> list[Track]:
    return [t for t in g.board.tracks if {t.a, t.b} == {a, b}]


def find_track(g: TTRGame, **want: Any) -> Track:
    """The first track matching every attribute given (length, colour_name, tunnel, ferry_locos, ...).
    ``n_siblings`` matches the number of parallel tracks; ``country`` whether an end is a country."""
    for t in g.board.tracks:
        ok = True
        for key, value in want.items():
            if key == "n_siblings":
                ok = ok and len(t.siblings) == value
            elif key == "country":
                ok = ok and (g.board.cities[t.a].is_country or g.board.cities[t.b].is_country) == value
            else:
                ok = ok and getattr(t, key) == value
        if ok:
            return t
    raise LookupError(f"no track with {want}")


def give_route(g: TTRGame, seat: int, tid: str) -> None:
    """Mark a track as claimed by ``seat`` (trains and route points adjusted, no cards moved)."""
    t = track(g, tid)
    g.owner[t.index] = seat
    g.trains[seat] -= t.length
    g.route_score[seat] += g.board.spec.route_points[t.length]
    fresh(g)


def path_tracks(g: TTRGame, cities: list[str]) -> list[Track]:
    """One track between each consecutive pair of cities (the first of a double)."""
    out = []
    for a, b in zip(cities, cities[1:], strict=False):
        ts = tracks_between(g, a, b)
        assert ts, f"no track {a}-{b}"
        out.append(ts[0])
    return out


def bfs_path(g: TTRGame, a: str, b: str, through_countries: bool = False) -> list[Track]:
    """Fewest-tracks path between two nodes over the whole board (first track of doubles)."""
    prev: dict[str, tuple[str, Track] | None] = {a: None}
    queue = deque([a])
    while queue:
        city = queue.popleft()
        if city == b:
            break
        if city != a and g.board.cities[city].is_country and not through_countries:
            continue
        for t in g.board.tracks_at(city):
            other = t.b if t.a == city else t.a
            if other not in prev:
                prev[other] = (city, t)
                queue.append(other)
    out: list[Track] = []
    node = b
    while (step := prev[node]) is not None:
        node, t = step
        out.append(t)
    return out[::-1]


def state(g: TTRGame) -> str:
    return json.dumps(g.to_json(), sort_keys=True, ensure_ascii=False)


def assert_illegal(
    g: TTRGame, seat: int, action: Any, code: str | None = None, words: tuple[str, ...] = ()
) -> str:
    """The action raises IllegalAction (with ``code`` and the ``words`` in its message, which must be
    a sentence) and leaves the game exactly as it was."""
    before = state(g)
    with pytest.raises(IllegalAction) as info:
        g.apply(seat, action)
    err = info.value
    assert state(g) == before, "an illegal action changed the game"
    if code is not None:
        assert err.code == code, f"expected {code}, got {err.code}: {err.message}"
    msg = err.message
    starts_well = msg[0].isupper() or msg[0].isdigit() or msg[0] in "\"'"
    assert len(msg) > 15 and starts_well and msg.rstrip().endswith((".", ")")), msg
    for w in words:
        assert w.lower() in msg.lower(), f"{w!r} not in {msg!r}"
    return msg


# --------------------------------------------------------------------------- invariants
def deck_makeup(g: TTRGame) -> list[int]:
    """The board's train-card deck make-up: count per card type."""
    return list(g.board.spec.deck)


def all_cards(g: TTRGame) -> list[int]:
    counts = [0] * N_CARD_TYPES
    for c in g.deck + g.discard:
        counts[c] += 1
    for c in g.face_up:
        if c >= 0:
            counts[c] += 1
    for h in g.hands:
        for i, n in enumerate(h):
            counts[i] += n
    if g.tunnel is not None:
        for c in g.tunnel["revealed"]:
            counts[c] += 1
    return counts


def check_invariants(g: TTRGame, start_trains: int) -> None:
    b = g.board
    # train cards
    counts = all_cards(g)
    assert counts == deck_makeup(g), (counts, deck_makeup(g))
    # The published decks: 110 cards, Märklin 118; other boards declare theirs in board.toml.
    published = {"usa": 110, "europe": 110, "switzerland": 110, "germany": 118}
    assert sum(counts) == published.get(b.id, sum(b.spec.deck))
    assert all(n >= 0 for h in g.hands for n in h)
    # trains
    for seat in range(g.players):
        used = sum(t.length for t in b.tracks if g.owner[t.index] == seat)
        assert g.trains[seat] + used == start_trains
        assert g.trains[seat] >= 0
    # double routes: nobody on two tracks of one route; 2-3 players only one track
    for t in b.tracks:
        if g.owner[t.index] == -1:
            continue
        for s in t.siblings:
            assert g.owner[s] != g.owner[t.index]
            if g.players < g.board.spec.double_routes_min_players:
                assert g.owner[s] == -1
    # tickets
    seen: list[str] = list(g.tickets_out)
    for pile in g.ticket_decks.values():
        seen += pile
    for seat in range(g.players):
        seen += g.tickets[seat]
        seen += g.offers[seat] or []
    assert sorted(seen) == sorted(b.tickets), "tickets not conserved"
    # merchandise
    if b.merchandise:
        on_board = Counter(v for stack in g.merchandise.values() for v in stack)
        taken = Counter(v for m in g.merch_taken for v in m)
        initial = Counter(v for vals, _, _ in b.merchandise.values() for v in vals)
        assert on_board + taken == initial
        for city, stack in g.merchandise.items():
            full = list(b.merchandise[city][0])
            assert full[len(full) - len(stack) :] == stack, "tokens are taken from the top only"
    # passengers
    for city in g.passenger_at:
        assert not b.cities[city].is_country
    for seat in range(g.players):
        placed = sum(1 for s in g.passenger_at.values() if s == seat)
        assert placed + g.passengers_left[seat] <= b.spec.passengers
    # stations
    for seat in range(g.players):
        built = sum(1 for s in g.station_at.values() if s == seat)
        assert built + g.stations_left[seat] == b.spec.stations
    # scores
    for row in g.final_scores():
        assert row["total"] == sum(row["breakdown"].values())
    # face-up row never keeps 3 of a refresh kind when a refresh could help
    if g._face_up_needs_refresh():
        assert not g._refresh_could_help()


def check_views(g: TTRGame) -> None:
    over = g.is_over()
    views = [g.view(s) for s in range(g.players)] + [g.view(None)]
    for viewer, v in zip([*range(g.players), None], views, strict=True):
        text = json.dumps(v, ensure_ascii=False)
        json.loads(text)
        assert "deck" not in v and "discard" not in v and "hands" not in v
        assert set(v["seats"][0]) >= {"seat", "score", "trains", "cards", "tickets"}
        shown = set(_TICKET_ID.findall(text))
        mine = set() if viewer is None else set(g.tickets[viewer] + (g.offers[viewer] or []))
        assert mine <= shown or viewer is None, "a seat's own tickets and offer appear in its view"
        if not over:
            for s in range(g.players):
                if s != viewer:
                    hidden = (set(g.tickets[s]) | set(g.offers[s] or [])) - mine
                    assert not shown & hidden, f"seat {viewer} sees seat {s}'s tickets {shown & hidden}"
        if viewer is None:
            assert v["you"] is None
        else:
            assert v["you"]["hand"] == hand_names(g, viewer)
            assert [t["id"] for t in v["you"]["tickets"]] == g.tickets[viewer]
        for seat_row, hand in zip(v["seats"], g.hands, strict=True):
            assert seat_row["cards"] == sum(hand)
            assert "hand" not in seat_row
