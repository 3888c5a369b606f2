"""End of game and scoring: the end trigger and final round, ticket points, longest trail (a trail:
cities may repeat, no track reused), bonuses and tie-breaks (RULES-FACTS 'end trigger', 'bonuses',
'tie-break')."""

from __future__ import annotations

from itertools import combinations
from types import SimpleNamespace

import pytest
from ttr_helpers import assert_illegal, bfs_path, game, give_route, layout

from rules.ttr import actions as A
from rules.ttr.board import City, Track
from rules.ttr.game import TTRGame
from rules.ttr.scoring import longest_trail, longest_trail_length


def fake_board(edges: list[tuple[str, str, int]]) -> SimpleNamespace:
    tracks = [Track(i, f"T{i}", f"T{i}", a, b, n, 0, False, 0, (), ()) for i, (a, b, n) in enumerate(edges)]
    cities = {name: City(name, 0.0, 0.0, False) for a, b, _ in edges for name in (a, b)}
    return SimpleNamespace(tracks=tracks, cities=cities)


def test_longest_trail_figure_eight_repeats_a_city() -> None:
    """Longest path rule: a trail may pass through a city twice (figure eight) but never reuse a
    track; its length counts train spaces."""
    b = fake_board([("A", "B", 2), ("B", "C", 3), ("C", "A", 1), ("A", "D", 4), ("D", "E", 1), ("E", "A", 2)])
    length, path = longest_trail(b, list(range(6)))  # type: ignore[arg-type]
    assert length == 13 and sorted(path) == list(range(6))


def test_longest_trail_never_reuses_a_track() -> None:
    """Longest path rule: in a T junction a trail cannot go out and back along the same track."""
    b = fake_board([("A", "B", 5), ("B", "C", 5), ("B", "D", 4)])
    assert longest_trail(b, [0, 1, 2])[0] == 10  # type: ignore[arg-type]


def test_longest_trail_figure_eight_with_a_tail() -> None:
    """Longest path rule: with four odd-degree cities the best trail drops the cheapest dead end."""
    b = fake_board(
        [
            ("X", "A", 1),
            ("A", "B", 2),
            ("B", "C", 2),
            ("C", "A", 2),
            ("A", "D", 2),
            ("D", "E", 2),
            ("E", "A", 2),
            ("E", "F", 6),
        ]
    )
    assert longest_trail(b, list(range(8)))[0] == 18  # F-E-D-A-C-B-A-E; X-A is left out  # type: ignore[arg-type]


def test_longest_trail_on_a_real_board_figure_eight() -> None:
    """Longest path rule on the USA map: two triangles of owned routes meeting in one city are
    one trail using every route."""
    g = game("usa")
    by_pair: dict[frozenset[str], Track] = {}
    for t in g.board.tracks:
        by_pair.setdefault(frozenset((t.a, t.b)), t)
    cities = sorted({c for p in by_pair for c in p})
    triangles = [
        tri for tri in combinations(cities, 3) if all(frozenset(p) in by_pair for p in combinations(tri, 2))
    ]
    eight = next((x, y) for x, y in combinations(triangles, 2) if len(set(x) & set(y)) == 1)
    tracks = [by_pair[frozenset(p)] for tri in eight for p in combinations(tri, 2)]
    g.tickets = [[], []]
    for t in tracks:
        give_route(g, 0, t.id)
    row = g.final_scores()[0]
    assert row["longest_trail"] == sum(t.length for t in tracks)
    assert sorted(row["longest_trail_tracks"]) == sorted(t.id for t in tracks)
    assert row["breakdown"]["longest_path"] == 10


@pytest.mark.parametrize("board", ["usa", "switzerland"])
def test_longest_path_bonus_ten_and_ties_all_score(board: str) -> None:
    """Longest path rule: +10 to the longest continuous path; every tied player scores it."""
    g = game(board, players=3)
    g.tickets = [[], [], []]
    ones = [t for t in g.board.tracks if t.length == 2 and not t.siblings][:2]
    give_route(g, 0, ones[0].id)
    give_route(g, 2, ones[1].id)
    rows = g.final_scores()
    assert [r["breakdown"]["longest_path"] for r in rows] == [10, 0, 10]
    assert all(r["total"] == sum(r["breakdown"].values()) for r in rows)


def test_ticket_points_won_and_lost() -> None:
    """Ticket rule: a completed ticket adds its points, an incomplete one subtracts them."""
    g = game("usa")
    tid = "US-T01"
    card = g.board.tickets[tid]
    other = next(t for t in g.board.tickets if t != tid)
    g.tickets = [[tid, other], []]
    for t in bfs_path(g, card.origin, card.destinations[0][0]):
        give_route(g, 0, t.id)
    row = g.final_scores()[0]
    assert row["breakdown"]["tickets_won"] == card.points
    assert row["breakdown"]["tickets_lost"] == -g.board.tickets[other].points
    assert row["tickets_completed"] == 1


def _trigger(board: str, players: int) -> TTRGame:
    g = game(board, players=players)
    t = next(t for t in g.board.tracks if t.length == 2 and not t.tunnel and not t.ferry_locos)
    layout(g, {0: {"locomotive": 2} if board != "switzerland" else {}})
    if board == "switzerland":
        layout(g, {0: {t.colour_name if t.colour >= 0 else "red": 2}})
    g.trains[0] = 4
    cards = (
        ((t.colour_name if t.colour >= 0 else "red", 2),) if board == "switzerland" else (("locomotive", 2),)
    )
    events = g.apply(0, A.ClaimRoute(t.id, cards))
    assert g.trains[0] == 2
    assert any(e["type"] == "final_round" for e in events)
    return g


@pytest.mark.parametrize(
    ("board", "players"), [("usa", 2), ("europe", 4), ("switzerland", 3), ("germany", 5)]
)
def test_end_trigger_two_trains_then_one_more_turn_for_everyone(board: str, players: int) -> None:
    """End rule: a player ending a turn with 2 or fewer trains triggers the final round: every
    player, the trigger player included, gets exactly one more turn."""
    g = _trigger(board, players)
    assert g.view(None)["final_round"] is True and g.final_turns_left == players
    order = []
    while not g.is_over():
        seat = g.current
        order.append(seat)
        g.apply(seat, A.DrawDeck())
        if not g.is_over() and g.pending == "draw_second":
            g.apply(seat, A.DrawDeck())
    assert order == [*range(1, players), 0]
    assert g.phase == "over" and g.view(None)["phase"] == "over" and g.view(0)["final"] is not None
    assert_illegal(g, 0, A.DrawDeck(), "game_over")


def test_end_trigger_not_before_two_trains() -> None:
    """End rule: 3 trains left does not trigger the final round."""
    g = game("usa")
    t = next(t for t in g.board.tracks if t.length == 1)
    layout(g, {0: {"locomotive": 1}})
    g.trains[0] = 4
    g.apply(0, A.ClaimRoute(t.id, (("locomotive", 1),)))
    assert g.trains[0] == 3 and g.final_turns_left is None


def test_final_round_trigger_player_last_turn_ends_game_even_when_claiming() -> None:
    """End rule: the last turn of the trigger player ends the game; routes claimed then count."""
    g = _trigger("usa", 2)
    g.apply(1, A.DrawDeck())
    g.apply(1, A.DrawDeck())
    assert not g.is_over() and g.current == 0
    t = next(t for t in g.board.tracks if t.length == 1 and g.owner[t.index] == -1)
    layout(g, {0: {"locomotive": 1}})
    before = g.route_score[0]
    g.apply(0, A.ClaimRoute(t.id, (("locomotive", 1),)))
    assert g.is_over() and g.route_score[0] == before + 1


def test_usa_tie_break_tickets_then_longest_path() -> None:
    """USA tie-break: most completed tickets wins a tie; then the longest-path holder."""
    g = game("usa")
    card = g.board.tickets["US-T01"]
    path = bfs_path(g, card.origin, card.destinations[0][0])
    g.tickets = [["US-T01"], []]
    for t in path:
        give_route(g, 0, t.id)
    for t in bfs_path(g, "Boston", "Miami"):
        give_route(g, 1, t.id)
    rows = g.final_scores()
    g.route_score[1] += rows[0]["total"] - rows[1]["total"]
    rows = g.final_scores()
    assert rows[0]["total"] == rows[1]["total"]
    assert rows[1]["breakdown"]["longest_path"] == 10 and rows[0]["breakdown"]["longest_path"] == 0
    assert rows[0]["rank"] == 1 and rows[1]["rank"] == 2, "more tickets completed wins the tie"
    # Equal tickets: the longest path decides.
    g.tickets = [[], []]
    g.route_score[0] = 0
    g.route_score[1] = 0
    rows = g.final_scores()
    g.route_score[0] += rows[1]["total"] - rows[0]["total"]
    rows = g.final_scores()
    assert rows[0]["total"] == rows[1]["total"]
    assert rows[1]["rank"] == 1 and rows[0]["rank"] == 2 and rows[1]["winner"] and not rows[0]["winner"]


def test_full_tie_shares_first_place() -> None:
    """Tie rule: with every tie-break equal, both players share first place."""
    g = game("usa")
    g.tickets = [[], []]
    rows = g.final_scores()
    assert rows[0]["rank"] == rows[1]["rank"] == 1 and rows[0]["winner"] and rows[1]["winner"]


def test_final_scores_revealed_only_at_the_end() -> None:
    """Hidden information: tickets are revealed in 'final' only when the game is over."""
    g = game("usa")
    assert g.view(1)["final"] is None
    assert all(s["tickets_completed"] is None for s in g.view(1)["seats"])


def test_game_ends_when_no_player_can_act() -> None:
    """Rule 2 reading: a player with no possible action passes; when every player in turn can only
    pass, the game ends (instead of looping forever)."""
    g = game("usa")
    for t in g.board.tracks:
        g.owner[t.index] = t.index % 2 if not any(g.owner[s] != -1 for s in t.siblings) else -1
    for t in g.board.tracks:
        if g.owner[t.index] == -1:
            g.owner[t.index] = 1 - g.owner[t.siblings[0]] if g.players >= 4 else -1
    everything = {c: 12 for c in ("red", "orange", "yellow", "green", "blue", "pink", "black", "white")}
    layout(g, {0: everything, 1: {"locomotive": 14}}, face_up=[None] * 5)
    for pile in g.ticket_decks.values():
        g.tickets_out += pile
        pile.clear()
    open_tracks = [
        t for t in g.board.tracks if g._claim_blocker(0, t) is None or g._claim_blocker(1, t) is None
    ]
    assert open_tracks == []
    assert g.legal_actions(0) == [A.Pass()]
    g.apply(0, A.Pass())
    assert g.legal_actions(1) == [A.Pass()]
    events = g.apply(1, A.Pass())
    assert g.is_over() and any(e["type"] == "game_over" for e in events)


def _brute_trail(edges: list[tuple[str, str, int]]) -> int:
    """Reference longest trail: try every trail from every city, no shortcuts."""
    best = 0
    used = [False] * len(edges)

    def walk(node: str, length: int) -> None:
        nonlocal best
        best = max(best, length)
        for k, (a, b, n) in enumerate(edges):
            if not used[k] and node in (a, b):
                used[k] = True
                walk(b if node == a else a, length + n)
                used[k] = False

    for city in {c for a, b, _ in edges for c in (a, b)}:
        walk(city, 0)
    return best


def test_longest_trail_matches_brute_force_on_random_networks() -> None:
    """Longest path rule: the optimised search (chain merging, pruning, odd-degree starts) equals an
    exhaustive search on many random networks, including parallel routes and cycles."""
    import random

    rng = random.Random(12)
    for _ in range(200):
        n_cities = rng.randint(2, 7)
        cities = [chr(65 + i) for i in range(n_cities)]
        edges = []
        for _ in range(rng.randint(1, 8)):
            a, b = rng.sample(cities, 2)
            edges.append((a, b, rng.randint(1, 6)))
        length, path = longest_trail(fake_board(edges), list(range(len(edges))))  # type: ignore[arg-type]
        assert length == _brute_trail(edges), edges
        assert len(set(path)) == len(path) and sum(edges[i][2] for i in path) == length
        # The returned tracks form one trail: consecutive tracks share a city.
        if path:
            ends = {edges[path[0]][0], edges[path[0]][1]}
            here = None
            for start in ends:
                node, ok = start, True
                for i in path:
                    a, b, _ = edges[i]
                    if node == a:
                        node = b
                    elif node == b:
                        node = a
                    else:
                        ok = False
                        break
                if ok:
                    here = node
                    break
            assert here is not None, (edges, path)


def test_a_country_is_a_destination_not_a_junction_on_the_swiss_board() -> None:
    """Swiss rule: a country is reached through any of its border routes, but it is not a junction:
    Genève–France and France–Martigny do not connect Genève and Martigny (the printed board draws
    separate border arrows, and Board Game Arena's implementation keeps one end point per arrow).
    Both cities still reach France, and no trail runs through France."""
    from rules.ttr.board import TicketCard
    from rules.ttr.scoring import longest_trail, network, ticket_value

    g = game("switzerland")
    geneve = next(t for t in g.board.tracks if {t.a, t.b} == {"Genève", "France"})
    martigny = next(t for t in g.board.tracks if {t.a, t.b} == {"Martigny", "France"})
    uf = network(g.board, [geneve.index, martigny.index])
    card = TicketCard("X-T01", "Genève", (("Martigny", 5),), "city-city")
    assert ticket_value(card, uf) == (-5, False)
    assert uf.connected("Genève", "France") and uf.connected("Martigny", "France")
    length, _ = longest_trail(g.board, [geneve.index, martigny.index])
    assert length == max(geneve.length, martigny.length)


@pytest.mark.slow
def test_longest_trail_matches_brute_force_on_dense_random_networks() -> None:
    """Longest path rule: the memoised search equals an exhaustive one on dense random networks
    (many odd cities, parallel routes), where neither the Euler shortcut nor chain merging applies."""
    import random

    rng = random.Random(99)
    for _ in range(150):
        cities = [chr(65 + i) for i in range(rng.randint(3, 6))]
        edges = [(*rng.sample(cities, 2), rng.randint(1, 6)) for _ in range(rng.randint(6, 11))]
        length, path = longest_trail(fake_board(edges), list(range(len(edges))))  # type: ignore[arg-type]
        assert length == _brute_trail(edges), edges
        assert len(set(path)) == len(path) and sum(edges[i][2] for i in path) == length


def _exhaustive_station_choice(board, own, ticket_ids, cities, owner, seat):  # type: ignore[no-untyped-def]
    """Every combination of borrowed tracks, the first best kept (the rule read literally)."""
    from itertools import product

    from rules.ttr.scoring import network, tickets_total

    options = [
        [None] + [t.index for t in board.tracks_at(c) if owner[t.index] not in (-1, seat)] for c in cities
    ]
    best = tickets_total(board, ticket_ids, network(board, own))
    choice = {c: None for c in cities}
    for combo in product(*options):
        borrowed = [i for i in combo if i is not None]
        if not borrowed:
            continue
        result = tickets_total(board, ticket_ids, network(board, [*own, *borrowed]))
        if (result[0] + result[1], result[2]) > (best[0] + best[1], best[2]):
            best, choice = result, dict(zip(cities, combo, strict=True))
    return choice, best


def test_station_choice_equals_the_exhaustive_choice_on_random_positions() -> None:
    """Stations rule (Europe): the pruned search picks exactly the choice (and score) that trying
    every combination of borrowed routes picks, on random positions with three stations."""
    import random

    from rules.ttr.scoring import best_station_choices

    g = game("europe", 4)
    board = g.board
    rng = random.Random(5)
    cities = board.city_names
    tids = list(board.tickets)
    for _ in range(60):
        owner = [rng.choice([-1, -1, 0, 1, 2, 3]) for _ in board.tracks]
        own = [i for i, o in enumerate(owner) if o == 0]
        stations = rng.sample(cities, 3)
        tickets = rng.sample(tids, rng.randint(1, 6))
        got = best_station_choices(board, own, tickets, stations, owner, 0)
        assert got == _exhaustive_station_choice(board, own, tickets, stations, owner, 0)


def test_a_finished_game_is_scored_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """Final scoring runs once for a finished game: later final_scores() calls and every seat's view
    reuse it (each caller still gets its own copy)."""
    import random

    import rules.ttr.game as game_module
    import rules.ttr.view as view_module

    if not (game_module.__file__ or "").endswith(".py"):
        pytest.skip("a compiled engine calls final_scores directly: the count needs the pure one")
    g = game("europe", 3)
    rng = random.Random(1)
    while not g.is_over():
        seat = g.seats_to_act()[0]
        g.apply(seat, rng.choice(g.legal_actions(seat)))
    calls = []
    real = game_module.final_scores
    monkeypatch.setattr(game_module, "final_scores", lambda *a: calls.append(1) or real(*a))
    monkeypatch.setattr(view_module, "final_scores", lambda *a: calls.append(1) or real(*a))
    first = g.final_scores()
    views = [g.view(s) for s in (0, 1, 2, None)]
    assert g.final_scores() == first and all(v["final"] == first for v in views)
    assert len(calls) == 1
    first[0]["total"] = -999
    assert g.final_scores()[0]["total"] != -999


def _assert_one_trail(tracks: list[Track], path: list[int], length: int) -> None:
    """The track indexes form one trail of ``length`` spaces: no track twice, each next track
    leaving the city the previous one reached."""
    by_index = {t.index: t for t in tracks}
    assert len(set(path)) == len(path) and sum(by_index[i].length for i in path) == length
    if not path:
        return
    first = by_index[path[0]]
    walks = []
    for node in (first.a, first.b):
        for i in path:
            t = by_index[i]
            if node not in (t.a, t.b):
                break
            node = t.b if node == t.a else t.a
        else:
            walks.append(node)
    assert walks, path


def _spy_top_down(monkeypatch: pytest.MonkeyPatch) -> list[tuple[int, bool]]:
    """(tries allowed, whether it settled the length) for each top-down search (it may give up)."""
    from rules.ttr import scoring

    calls: list[tuple[int, bool]] = []
    real = scoring._longest_by_removal

    def spy(*args: object) -> object:
        result = real(*args)  # type: ignore[arg-type]
        calls.append((args[-1], isinstance(result, tuple)))  # type: ignore[arg-type]
        return result

    monkeypatch.setattr(scoring, "_longest_by_removal", spy)
    return calls


def _settled(calls: list[tuple[int, bool]]) -> int:
    """How many of the spied top-down searches settled the length."""
    return sum(ok for _, ok in calls)


def _dense_networks(seed: int, count: int) -> list[list[tuple[str, str, int]]]:
    """Random networks with at least six independent cycles and more than two odd cities (so
    neither the Euler shortcut nor chain merging settles them), small enough for the brute force."""
    import random

    rng = random.Random(seed)
    out = []
    while len(out) < count:
        cities = [chr(65 + i) for i in range(rng.randint(4, 5))]
        edges = [(*rng.sample(cities, 2), rng.randint(1, 6)) for _ in range(rng.randint(9, 10))]
        ends = [c for a, b, _ in edges for c in (a, b)]
        odd = [c for c in set(ends) if ends.count(c) % 2]
        if len(edges) - len(set(ends)) + 1 >= 6 and len(odd) > 2:
            out.append(edges)
    return out


def _assert_settled_from_the_top(
    monkeypatch: pytest.MonkeyPatch, networks: list[list[tuple[str, str, int]]]
) -> None:
    """Each network's longest trail equals the exhaustive search's, the tracks returned are one
    trail of that length, and the top-down search settled every one (it did not give up)."""
    calls = _spy_top_down(monkeypatch)
    for edges in networks:
        board = fake_board(edges)
        length, path = longest_trail(board, list(range(len(edges))))  # type: ignore[arg-type]
        assert length == _brute_trail(edges), edges
        _assert_one_trail(board.tracks, path, length)
    assert _settled(calls) == len(networks)


def test_longest_trail_from_the_top_matches_brute_force(monkeypatch: pytest.MonkeyPatch) -> None:
    """Longest path rule: on networks with many cycles the length is found by leaving out the
    cheapest set of tracks whose removal leaves an Euler trail; it equals the exhaustive search,
    and the tracks returned are one trail of that length."""
    _assert_settled_from_the_top(monkeypatch, _dense_networks(314, 40))


def test_longest_trail_from_the_top_keeps_the_trail_in_one_piece(monkeypatch: pytest.MonkeyPatch) -> None:
    """Longest path rule: a trail is one connected run. Two clusters of six-space routes (three
    odd cities each) joined by a one-space bridge: leaving out the bridge and one route would leave
    two odd cities but two pieces; the longest trail leaves out one route on each side (85 - 12)."""
    from rules.ttr import scoring

    calls = _spy_top_down(monkeypatch)
    edges = [("X", "Y", 1)]
    for x, p, q in (("X", "P", "Q"), ("Y", "R", "S")):
        edges += [(x, p, 6), (x, p, 6), (p, q, 6), (p, q, 6), (x, q, 6), (x, q, 6), (p, q, 6)]
    board = fake_board(edges)
    length, path = longest_trail(board, list(range(len(edges))))  # type: ignore[arg-type]
    assert _settled(calls) and length == 73
    _assert_one_trail(board.tracks, path, length)
    monkeypatch.setattr(scoring, "TOP_DOWN_MIN_CYCLES", 10**6)
    assert longest_trail(board, list(range(len(edges))))[0] == 73  # type: ignore[arg-type]


def _sparse_networks(seed: int, count: int) -> list[list[tuple[str, str, int]]]:
    """Random networks with six independent cycles spread over more cities, so an odd city's
    nearest odd city is often several tracks away (neither adjacent nor the cheapest track's end)."""
    import random

    rng = random.Random(seed)
    out = []
    while len(out) < count:
        cities = [chr(65 + i) for i in range(rng.randint(7, 8))]
        ring = [(cities[i], cities[(i + 1) % len(cities)], rng.randint(1, 6)) for i in range(len(cities))]
        chords = [(*rng.sample(cities, 2), rng.randint(1, 6)) for _ in range(5)]
        edges = ring + chords
        ends = [c for a, b, _ in edges for c in (a, b)]
        odd = {c for c in set(ends) if ends.count(c) % 2}
        far = any(
            all(b not in odd for a, b, _ in edges if a == c)
            and all(a not in odd for a, b, _ in edges if b == c)
            for c in odd
        )
        if len(odd) > 2 and far:
            out.append(edges)
    return out


def test_longest_trail_from_the_top_with_odd_cities_far_apart(monkeypatch: pytest.MonkeyPatch) -> None:
    """Longest path rule: the top-down search bounds what a removal set must still cost by the way
    from each odd city to the nearest other one; where that way runs through even cities the
    bound must count the whole way and no more, or the search stops at a shorter trail."""
    _assert_settled_from_the_top(monkeypatch, _sparse_networks(1618, 30))


def test_the_way_to_the_nearest_odd_city_is_the_shortest_one() -> None:
    """Longest path rule, top-down search: the bound on what a removal set must still cost takes,
    for each odd city, the shortest way over the tracks not yet decided to the nearest other odd
    city; it equals the distance all pairs' shortest paths (Floyd-Warshall) give, on random graphs
    whose odd cities are often several tracks apart."""
    import random

    from rules.ttr.scoring import NO_TRACK, _nearest_odd

    rng = random.Random(99)
    for _ in range(200):
        n = rng.randint(3, 9)
        tracks = [(rng.randrange(n), rng.randrange(n), rng.randint(1, 6)) for _ in range(rng.randint(2, 14))]
        tracks = [(a, b, ln) for a, b, ln in tracks if a != b]
        first = rng.randrange(len(tracks) + 1)
        odd = 0
        for city in rng.sample(range(n), rng.randint(1, n)):
            odd |= 1 << city
        incident: list[list[tuple[int, int, int]]] = [[] for _ in range(n)]
        dist = [[0 if a == b else NO_TRACK for b in range(n)] for a in range(n)]
        for j, (a, b, ln) in enumerate(tracks):
            incident[a].append((j, b, ln))
            incident[b].append((j, a, ln))
            if j >= first:
                dist[a][b] = dist[b][a] = min(dist[a][b], ln)
        for k in range(n):
            for a in range(n):
                for b in range(n):
                    dist[a][b] = min(dist[a][b], dist[a][k] + dist[k][b])
        cities = [c for c in range(n) if odd >> c & 1]
        expected = [min([dist[c][o] for o in cities if o != c] + [NO_TRACK]) for c in cities]
        assert _nearest_odd(incident, odd, first) == [min(d, NO_TRACK) for d in expected], (
            tracks,
            first,
            cities,
        )


def test_another_pieces_odd_cities_do_not_stop_the_top_down_search(monkeypatch: pytest.MonkeyPatch) -> None:
    """Longest path rule: a trail lies in one piece of a network, so a piece's trail is bounded by
    its own odd cities only; a separate route elsewhere (two more odd cities) must not keep the
    top-down search from settling the dense piece (it would give up and leave the work to the
    slower memoised search)."""
    _assert_settled_from_the_top(monkeypatch, [[*edges, ("Y", "Z", 2)] for edges in _dense_networks(314, 20)])


def test_longest_trail_falls_back_to_the_memoised_search(monkeypatch: pytest.MonkeyPatch) -> None:
    """Longest path rule: a top-down search that gives up (its step cap reached) hands the
    component to the memoised search, which still finds the exact length."""
    from rules.ttr import scoring

    monkeypatch.setattr(scoring, "TOP_DOWN_MAX_STEPS", 0)
    calls = _spy_top_down(monkeypatch)
    for edges in _dense_networks(2718, 15):
        board = fake_board(edges)
        length, path = longest_trail(board, list(range(len(edges))))  # type: ignore[arg-type]
        assert length == _brute_trail(edges), edges
        _assert_one_trail(board.tracks, path, length)
    assert not _settled(calls)


@pytest.mark.parametrize("board_id", ["usa", "europe", "switzerland", "germany"])
def test_longest_trail_from_the_top_on_real_boards(board_id: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Longest path rule on the printed boards: in dense corners of each map (every track among a
    few neighbouring cities, double routes included) the top-down search finds the same length as
    the memoised search alone, and a trail of that length."""
    import random

    from rules.ttr import scoring

    board = game(board_id).board
    rng = random.Random(board_id)
    calls = _spy_top_down(monkeypatch)
    for _ in range(25):
        start = rng.choice([c for c, city in board.cities.items() if not city.is_country])
        region = [start]
        for city in region:
            for t in board.tracks_at(city):
                for other in (t.a, t.b):
                    if other not in region and not board.cities[other].is_country and len(region) < 7:
                        region.append(other)
        own = [t.index for t in board.tracks if t.a in region and t.b in region]
        length, path = longest_trail(board, own)
        monkeypatch.setattr(scoring, "TOP_DOWN_MIN_CYCLES", 10**6)
        assert length == longest_trail(board, own)[0], (board_id, region)
        monkeypatch.setattr(scoring, "TOP_DOWN_MIN_CYCLES", 6)
        _assert_one_trail([board.tracks[i] for i in own], path, length)
    assert _settled(calls), "no corner of the map was dense enough for the top-down search"


@pytest.mark.parametrize("cities", [5, 7, 9])
def test_an_euler_network_is_one_trail_through_every_track(cities: int) -> None:
    """Longest path rule: when every city of a network has an even number of the player's tracks
    (a complete network on an odd number of cities), the longest trail uses every track; the
    tracks returned are laid out as one trail (Hierholzer's walk, linear in the tracks)."""
    names = [chr(65 + i) for i in range(cities)]
    edges = [(a, b, 1 + (i * 7 + j) % 6) for i, a in enumerate(names) for j, b in enumerate(names) if i < j]
    board = fake_board(edges)
    length, path = longest_trail(board, list(range(len(edges))))  # type: ignore[arg-type]
    assert length == sum(e[2] for e in edges)
    assert sorted(path) == list(range(len(edges)))
    _assert_one_trail(board.tracks, path, length)


# Legal Swiss networks (bench/bench_worst.py found them), six independent cycles once chains are
# merged, each track to a country an end of its own. The first has a long trail (31 of 39 spaces):
# the memoised search alone takes 15-25 ms there, the top-down search a millisecond. The second has
# a short one (27 of 40): the top-down search would take tens of milliseconds, the memoised one two.
SWISS_NETWORK_WITH_A_LONG_TRAIL = [
    13,
    27,
    12,
    0,
    2,
    17,
    48,
    3,
    18,
    24,
    1,
    5,
    15,
    20,
    23,
    9,
    32,
    14,
    65,
    21,
    44,
    77,
    10,
    76,
]
SWISS_NETWORK_WITH_A_SHORT_TRAIL = [
    1,
    2,
    3,
    5,
    7,
    9,
    10,
    12,
    13,
    14,
    15,
    17,
    18,
    20,
    21,
    22,
    42,
    43,
    44,
    45,
    48,
    50,
    51,
    64,
    77,
]


def test_a_long_trail_on_a_real_board_is_found_from_the_top(monkeypatch: pytest.MonkeyPatch) -> None:
    """Budget (longest trail under 5 ms on the worst legal position): on a real board's network
    whose trail leaves out few tracks, the top-down search settles the length within the small
    allowance of a component with six cycles (the odd cities' nearest ways bound it closely), and
    the memoised search alone agrees."""
    from rules.games import new_game
    from rules.ttr import scoring

    board = new_game("ttr", {"board": "switzerland"}, 3, 0).board
    calls = _spy_top_down(monkeypatch)
    length, path = longest_trail(board, SWISS_NETWORK_WITH_A_LONG_TRAIL)
    assert calls == [(scoring.TOP_DOWN_FIRST_STEPS, True)]
    _assert_one_trail(list(board.tracks), path, length)
    monkeypatch.setattr(scoring, "TOP_DOWN_MIN_CYCLES", 10**6)  # the memoised search alone
    assert longest_trail(board, SWISS_NETWORK_WITH_A_LONG_TRAIL)[0] == length == 31


def test_a_short_trail_costs_the_top_down_search_few_tries(monkeypatch: pytest.MonkeyPatch) -> None:
    """Budget (longest trail under 5 ms on the worst legal position): where the trail leaves out
    much of the network, the top-down search gives up after the small allowance of a component
    with six cycles and the memoised search answers, with the length it finds alone."""
    from rules.games import new_game
    from rules.ttr import scoring

    board = new_game("ttr", {"board": "switzerland"}, 3, 0).board
    calls = _spy_top_down(monkeypatch)
    length, path = longest_trail(board, SWISS_NETWORK_WITH_A_SHORT_TRAIL)
    assert calls == [(scoring.TOP_DOWN_FIRST_STEPS, False)]
    _assert_one_trail(list(board.tracks), path, length)
    monkeypatch.setattr(scoring, "TOP_DOWN_MIN_CYCLES", 10**6)
    assert longest_trail(board, SWISS_NETWORK_WITH_A_SHORT_TRAIL)[0] == length == 27


@pytest.mark.parametrize("board_id", ["usa", "europe", "switzerland", "germany"])
def test_longest_trail_length_alone_is_the_length_of_the_laid_out_trail(board_id: str) -> None:
    """Longest path rule: the length scoring asks for without laying out the trail (an Euler piece
    of the network counts whole) is the one longest_trail finds, on random networks of every
    board (Switzerland's tracks to countries each end alone), with several pieces and pieces
    both with and without an Euler trail, and on random graphs against the exhaustive search."""
    import random

    board = game(board_id).board
    rng = random.Random(f"length:{board_id}")
    euler = searched = 0
    for _ in range(80):
        # Grown along shared cities (one connected piece), now and then with a track apart.
        own = [rng.randrange(len(board.tracks))]
        for _ in range(rng.randint(0, 20)):
            cities = {c for i in own for c in (board.tracks[i].a, board.tracks[i].b)}
            near = [t.index for t in board.tracks if t.index not in own and (t.a in cities or t.b in cities)]
            if rng.random() < 0.1 or not near:
                near = [t.index for t in board.tracks if t.index not in own]
            own.append(rng.choice(near))
        length = longest_trail_length(board, own)
        assert length == longest_trail(board, own)[0], (board_id, own)
        if length == sum(board.tracks[i].length for i in own):
            euler += 1
        else:
            searched += 1
    assert euler and searched
    for _ in range(100):
        cities = [chr(65 + i) for i in range(rng.randint(2, 7))]
        edges = [(*rng.sample(cities, 2), rng.randint(1, 6)) for _ in range(rng.randint(1, 8))]
        assert longest_trail_length(fake_board(edges), list(range(len(edges)))) == _brute_trail(edges), edges  # type: ignore[arg-type]


def test_final_scores_lay_out_only_the_highlighted_trails() -> None:
    """Final scoring: every seat gets its longest-trail length, and the seats with the longest
    trail (the ones the final board highlights) get its tracks; shorter trails are not laid out."""
    g = game("usa")
    short, long_ = g.board.tracks[0], [t for t in g.board.tracks if t.length >= 5][:2]
    give_route(g, 1, short.id)
    for t in long_:
        give_route(g, 0, t.id)
    g.tickets = [[], []]
    rows = g.final_scores()
    assert rows[1]["longest_trail"] == short.length and rows[1]["longest_trail_tracks"] == []
    assert rows[0]["longest_trail"] == max(t.length for t in long_)
    assert rows[0]["longest_trail_tracks"] in ([t.id] for t in long_ if t.length == rows[0]["longest_trail"])
