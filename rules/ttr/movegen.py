"""Legal-move generation for Ticket to Ride: every action a seat may take in a state.

Reads the board's static tables (:class:`~rules.ttr.tables.MoveTables`) and the state; changes
nothing but its own derived cache (:class:`OpenTracks`). Claim and station payments are
enumerated in full. A Märklin passenger moves one route at a time: the turn's first step names
the passenger (:class:`~rules.ttr.actions.StartJourney`), then each legal action is one next route
or the end of the journey, so the list stays short however dense the claimed network is. The
whole journeys a passenger could make (exponentially many) are searched only by
:func:`passenger_journeys`, for an AI that plans its route before playing it step by step.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import combinations
from typing import Any

from rules.ttr import actions as A
from rules.ttr.board import CARD_NAMES, COLOURS, GRAY, LOCO, N_CARD_TYPES, PASSENGER, PLUS4, Board, Track
from rules.ttr.spec import BoardRules, TicketDealing
from rules.ttr.state import TTRState
from rules.ttr.tables import MoveTables, ShapeEntry, colour_payments, wild_payments

N_COLOURS = len(COLOURS)
# Bounds of the whole-journey search an AI makes (passenger_journeys; their number is exponential).
MAX_PASSENGER_JOURNEYS = 5000
PASSENGER_SEARCH_STEPS = 200_000
# Claim-action tables kept per board before the cache starts afresh (each is a few kB).
CLAIM_CACHE_LIMIT = 20_000

# Per colour group: open masks, packed counts and the claim actions listed for them (OpenTracks).
ClaimMemo = tuple[list[int], list[int], list[tuple[Any, ...]]]

# Actions are immutable, so move generation hands out shared instances instead of rebuilding them.
_DRAW_FACE = tuple(A.DrawFaceUp(i) for i in range(5))
_DRAW_DECK = A.DrawDeck()
_DRAW_TICKETS = A.DrawTickets()
_WITHDRAW = A.WithdrawTunnel()
_EVERY_COLOUR = tuple(range(N_COLOURS))
_END_JOURNEY = A.EndJourney()


class OpenTracks:
    """Per seat, the tracks it may still claim (not owned, not closed by the double-route rules):
    per shape a bit mask of the positions (within the shape) still open, and per colour group a
    bit mask of all its tracks (the key of the group's cached claim actions). Derived from
    ``owner`` alone, never serialised: updated by each claim and rebuilt whenever ``owner`` was
    changed any other way."""

    __slots__ = (
        "board",
        "tables",
        "spec",
        "players",
        "shape_masks",
        "group_masks",
        "seen_owner",
        "adjacency",
        "claim_memo",
    )

    def __init__(self, board: Board, players: int) -> None:
        self.board = board
        # The board's parts read on every move, held here (a compiled build reads them natively).
        self.tables: MoveTables = board.tables
        self.spec: BoardRules = board.spec
        self.players = players
        self.shape_masks: list[list[int]] = []
        self.group_masks: list[list[int]] = []
        self.seen_owner: list[int] = []
        self.adjacency: dict[str, list[Track]] | None = None
        # Per seat, per colour group: the open mask and packed counts of the group's claims last
        # listed for the seat, and those claims. Between two turns of a seat most groups are
        # unchanged (a turn draws one or two colours), so they are reused without a cache lookup.
        self.claim_memo: list[ClaimMemo] = []

    def memo_for(self, seat: int) -> ClaimMemo:
        """The seat's claim memo (see ``claim_memo``), made on first use."""
        if not self.claim_memo:
            groups = len(self.tables.group_bounds)
            self.claim_memo = [([0] * groups, [-1] * groups, [()] * groups) for _ in range(self.players)]
        return self.claim_memo[seat]

    def copy(self) -> OpenTracks:
        """An independent cache in the same state (for a copied game)."""
        other = OpenTracks(self.board, self.players)
        other.shape_masks = [m[:] for m in self.shape_masks]
        other.group_masks = [m[:] for m in self.group_masks]
        other.seen_owner = self.seen_owner[:]
        other.adjacency = self.adjacency  # never changed in place: replaced after each claim
        return other

    def claimed_adjacency(self, owner: list[int]) -> dict[str, list[Track]]:
        """City -> the claimed tracks at it, in board order (Märklin passengers travel on them)."""
        if self.seen_owner != owner:
            self._rebuild(owner)
        if self.adjacency is None:
            self.adjacency = _claimed_adjacency(self.board, owner)
        return self.adjacency

    def for_seat(self, owner: list[int], seat: int) -> list[int]:
        """For ``seat``: shape id -> bit mask of the positions (within the shape) it may claim."""
        if self.seen_owner != owner:
            self._rebuild(owner)
        return self.shape_masks[seat]

    def _rebuild(self, owner: list[int]) -> None:
        tables = self.tables
        if all(o == -1 for o in owner):
            self.shape_masks = [list(tables.shape_full_masks) for _ in range(self.players)]
            self.group_masks = [list(tables.group_full_masks) for _ in range(self.players)]
        else:
            closes = self.players < self.spec.double_routes_min_players
            self.shape_masks, self.group_masks = [], []
            for s in range(self.players):
                shape_masks = [0] * len(tables.shape_sizes)
                group_masks = [0] * len(tables.shapes_by_colour)
                for group, (_, shapes) in enumerate(tables.shapes_by_colour):
                    for _, shape_id, tracks in shapes:
                        mask = 0
                        for i, t in enumerate(tracks):
                            if _claimable_ignoring_trains(owner, s, t, closes):
                                mask |= 1 << i
                        shape_masks[shape_id] = mask
                        group_masks[group] |= mask << tables.shape_offsets[shape_id]
                self.shape_masks.append(shape_masks)
                self.group_masks.append(group_masks)
        self.seen_owner = list(owner)
        self.adjacency = None

    def note_claim(self, seat: int, track: Track) -> None:
        """Keep the cache in step with ``seat`` claiming ``track`` (call before owner changes)."""
        if not self.shape_masks or self.seen_owner[track.index] != -1:
            return
        tables = self.tables
        where = tables.shape_of_track
        offsets = tables.shape_offsets
        group_of = tables.shape_group
        closes_siblings = self.players < self.spec.double_routes_min_players
        for s in range(self.players):
            shape_masks, group_masks = self.shape_masks[s], self.group_masks[s]
            shape_id, pos = where[track.index]
            shape_masks[shape_id] &= ~(1 << pos)
            group_masks[group_of[shape_id]] &= ~(1 << (pos + offsets[shape_id]))
            if s == seat or closes_siblings:
                for index in track.siblings:
                    shape_id, pos = where[index]
                    shape_masks[shape_id] &= ~(1 << pos)
                    group_masks[group_of[shape_id]] &= ~(1 << (pos + offsets[shape_id]))
        self.seen_owner[track.index] = seat
        self.adjacency = None


def _claimable_ignoring_trains(owner: list[int], seat: int, track: Track, closes_siblings: bool) -> bool:
    if owner[track.index] != -1:
        return False
    for sib in track.siblings:
        holder = owner[sib]
        if holder == seat or (holder != -1 and closes_siblings):
            return False
    return True


def seats_to_act(state: TTRState, players: int) -> list[int]:
    """Seats that may act now: everyone still choosing opening tickets, else the current seat."""
    if state.phase == "setup":
        return [s for s in range(players) if not state.setup_done[s]]
    if state.phase == "play":
        return [state.current]
    return []


def dealing(board: Board, state: TTRState) -> TicketDealing:
    """The ticket rules in force: the opening deal during setup, the in-play draw after."""
    return board.spec.initial_tickets if state.phase == "setup" else board.spec.draw_tickets


def ticket_keep_bounds(board: Board, state: TTRState, seat: int) -> tuple[int, int]:
    """Fewest and most tickets ``seat`` may keep of its current offer."""
    offer = state.offers[seat] or []
    spec = dealing(board, state)
    keep_min = min(spec.keep_min, len(offer))
    keep_max = min(len(offer) if spec.keep_max is None else spec.keep_max, len(offer))
    return keep_min, keep_max


def can_draw_second(board: Board, state: TTRState) -> bool:
    """Whether a second card can be drawn (deck, discard, or a face-up card allowed second)."""
    if state.deck or state.discard:
        return True
    counts_two = board.spec.face_up_locomotive_counts_two
    return any(c >= 0 and not (c == LOCO and counts_two) for c in state.face_up)


def legal_actions(
    board: Board, state: TTRState, players: int, seat: int, open_tracks: OpenTracks
) -> list[A.Action]:
    """Every legal action for ``seat``. Claim and station payments are enumerated in full."""
    phase = state.phase
    if phase == "play":
        if seat != state.current:
            return []
    elif phase != "setup" or seat not in seats_to_act(state, players):
        return []
    spec = board.spec
    if phase == "setup":
        init = spec.initial_tickets
        if state.offers[seat] is None and init.announce is not None:
            return announce_actions(state, init.announce)
        return keep_actions(board, state, seat)
    pending = state.pending
    if pending is not None:
        if pending == "tickets":
            return keep_actions(board, state, seat)
        if pending == "tunnel":
            tunnel: list[A.Action] = [A.PayTunnel(p) for p in tunnel_payments(board, state, seat)]
            return tunnel + [_WITHDRAW]
        if pending == "passenger":
            return journey_actions(board, state, seat, open_tracks)
        if pending == "draw_second":
            counts_two = spec.face_up_locomotive_counts_two
            out: list[Any] = [
                _DRAW_FACE[i]
                for i, c in enumerate(state.face_up)
                if c >= 0 and not (c == LOCO and counts_two)
            ]
            if state.deck or state.discard:
                out.append(_DRAW_DECK)
            return out
    out = [_DRAW_FACE[i] for i, c in enumerate(state.face_up) if c >= 0]
    if state.deck or state.discard:
        out.append(_DRAW_DECK)
    claim_actions(board, state, seat, open_tracks, out)
    draw = spec.draw_tickets
    if draw.announce is not None:
        out += announce_actions(state, draw.announce)
    else:
        decks = state.ticket_decks
        for kind, _ in draw.deal:
            if decks[kind]:
                out.append(_DRAW_TICKETS)
                break
    if spec.station_costs:
        out += station_actions(board, state, seat)
    if spec.passengers > 0:
        out += passenger_actions(board, state, seat, open_tracks)
    if not out:
        out.append(A.Pass())
    return out


def announce_actions(state: TTRState, announce: int) -> list[Any]:
    """Märklin ticket announcements: every short/long mix that draws at least one ticket."""
    n_short, n_long = len(state.ticket_decks["short"]), len(state.ticket_decks["long"])
    return [
        A.DrawTickets(s, announce - s)
        for s in range(announce + 1)
        if min(s, n_short) + min(announce - s, n_long) > 0
    ]


def keep_actions(board: Board, state: TTRState, seat: int) -> list[Any]:
    """Every allowed choice of tickets to keep from the seat's offer."""
    offer = state.offers[seat] or []
    lo, hi = ticket_keep_bounds(board, state, seat)
    return [A.KeepTickets(combo) for k in range(lo, hi + 1) for combo in combinations(offer, k)]


def claim_payments(board: Board, hand: list[int], track: Track) -> list[A.Cards]:
    """Every card combination ``hand`` could pay for ``track`` (ignoring whose turn it is)."""
    spec = board.spec
    length = track.length
    wild_ok = not (spec.locomotives_tunnels_only and not track.tunnel)
    locos = hand[LOCO] if wild_ok else 0
    p4 = hand[PLUS4] if wild_ok and length >= spec.plus4_min_length else 0
    ferry = track.ferry_locos
    # Capping the counts at the length keeps the cache small: more cards change nothing.
    locos, p4 = min(locos, length), min(p4, length)
    if track.colour == GRAY:
        out: list[A.Cards] = []
        for c in range(N_COLOURS):
            if hand[c]:
                out += colour_payments(c, min(hand[c], length), locos, p4, length, ferry)
    else:
        n = hand[track.colour]
        out = list(colour_payments(track.colour, min(n, length), locos, p4, length, ferry)) if n else []
    if locos + p4 >= length:
        out += wild_payments(locos, p4, length, ferry)
    return out


def claim_actions(
    board: Board, state: TTRState, seat: int, open_tracks: OpenTracks, out: list[Any] | None = None
) -> list[Any]:
    """Every claim ``seat`` can pay for now, with every payment (and passenger placement).

    The claims of one colour group depend on the hand only through a few counts capped at the
    group's longest track, on the trains left (capped likewise) and on which of the group's tracks
    are open; they are cached per board on exactly that, so a turn that changed one colour of the
    hand rebuilds only what that colour (and gray) can pay for. With ``out``, the claims are
    appended to it (and it is returned)."""
    if out is None:
        out = []
    if open_tracks.spec.passengers > 0 and state.passengers_left[seat] > 0:
        out += _claim_actions_with_passengers(board, state, seat, open_tracks)
        return out
    hand = state.hands[seat]
    locos_held = hand[LOCO]
    p4_held = hand[PLUS4]
    wild_any = locos_held + p4_held
    trains = state.trains[seat]
    tables = open_tracks.tables
    shape_masks = open_tracks.for_seat(state.owner, seat)
    group_masks = open_tracks.group_masks[seat]
    memo_masks, memo_counts, memo_actions = open_tracks.memo_for(seat)
    cache = tables.group_cache
    for group, (colour, max_length, min_length) in enumerate(tables.group_bounds):
        mask = group_masks[group]
        if not mask:
            continue
        if colour == GRAY:
            held = hand[:N_COLOURS]
            best = max(held)
        else:
            best = hand[colour]
        reach = best + wild_any
        if reach > trains:
            reach = trains
        if reach < min_length:
            continue
        if reach > max_length:
            reach = max_length
        locos = locos_held if locos_held < max_length else max_length
        p4 = p4_held if p4_held < max_length else max_length
        # What the group's claims depend on besides its open tracks, packed into one small int
        # (built and hashed far faster than a tuple of counts): counts capped at the group's
        # longest track take 5 bits each (tables refuse longer tracks).
        counts = (reach << 5 | locos) << 5 | p4
        if colour == GRAY:
            for n in held:
                counts = counts << 5 | (n if n < max_length else max_length)
        else:
            counts = counts << 5 | (best if best < max_length else max_length)
        if memo_counts[group] == counts and memo_masks[group] == mask:
            out += memo_actions[group]
            continue
        key = (mask << 4 | group, counts)
        actions = cache.get(key)
        if actions is None:
            actions = _group_claims(tables, group, hand, reach, shape_masks)
            if len(cache) >= CLAIM_CACHE_LIMIT:
                cache.clear()  # bounded memory: a long-running process meets ever new hands
            cache[key] = actions
        memo_masks[group] = mask
        memo_counts[group] = counts
        memo_actions[group] = actions
        out += actions
    return out


def _group_claims(
    tables: MoveTables, group: int, hand: list[int], reach: int, shape_masks: list[int]
) -> tuple[Any, ...]:
    """The claim actions of one colour group: its shapes in order (shortest first), their open
    tracks in order, each track's payments colour by colour then the all-locomotive ones."""
    colour, shapes = tables.claim_groups[group]
    locos_held = hand[LOCO]
    p4_held = hand[PLUS4]
    cache = tables.claim_cache
    full = tables.shape_full_masks
    out: list[Any] = []
    for length, shape_id, wild_ok, p4_ok, _ in shapes:
        if length > reach:
            break
        mask = shape_masks[shape_id]
        if not mask:
            continue
        if wild_ok:
            locos = locos_held if locos_held < length else length
            p4 = (p4_held if p4_held < length else length) if p4_ok else 0
        else:
            locos = p4 = 0
        wild = locos + p4
        # The payments depend on the hand only through these counts, capped at the length,
        # packed into one int: the shape, the wild cards, then 5 bits per colour the shape takes
        # (all eight for gray), 0 for a colour that cannot make up the length even with every
        # wild card (it pays nothing).
        key = (shape_id << 5 | locos) << 5 | p4
        paying = False
        if colour == GRAY:
            for n in hand[:N_COLOURS]:
                if n and n + wild >= length:
                    key = key << 5 | (n if n < length else length)
                    paying = True
                else:
                    key <<= 5
        else:
            n = hand[colour]
            if n and n + wild >= length:
                key = key << 5 | (n if n < length else length)
                paying = True
            else:
                key <<= 5
        if not paying and wild < length:
            continue
        entry = cache.get(key)
        if entry is None:
            entry = _shape_entry(tables, key, shape_id, hand, locos, p4)
        per_track, every_track = entry
        if mask == full[shape_id]:
            out += every_track
        else:
            i = 0
            while mask:
                if mask & 1:
                    out += per_track[i]
                mask >>= 1
                i += 1
    return tuple(out)


def _shape_entry(
    tables: MoveTables, key: int, shape_id: int, hand: list[int], locos: int, p4: int
) -> ShapeEntry:
    """Pick and cache the claim actions of one shape for one payment key (see _group_claims):
    per track, the prebuilt claims whose payment the hand holds (``locos`` and ``p4`` are the
    wild cards the shape takes), and all of them in a row."""
    every = tables.shape_track_claims[shape_id]
    held = _held_payments(tables, shape_id, hand, locos, p4)
    per_track = every if held is None else tuple([tuple([claims[i] for i in held]) for claims in every])
    entry = (per_track, tuple([claim for claims in per_track for claim in claims]))
    cache = tables.claim_cache
    if len(cache) >= CLAIM_CACHE_LIMIT:
        cache.clear()  # bounded memory: a long-running process meets ever new hands
    cache[key] = entry
    return entry


def _held_payments(
    tables: MoveTables, shape_id: int, hand: list[int], locos: int, p4: int
) -> list[int] | None:
    """Positions of the shape's payments (``shape_pay_rows``) the hand can make with at most
    ``locos`` locomotives and ``p4`` "+4"s, in order; None when it can make all of them."""
    held: list[int] = []
    rows = tables.shape_pay_rows[shape_id]
    for card, first, end, most_locos, most_p4 in tables.shape_pay_blocks[shape_id]:
        n = hand[card]
        start = first[n if n < len(first) else len(first) - 1]
        if start == end:
            continue
        if locos >= most_locos and p4 >= most_p4:
            held += range(start, end)
        else:
            held += [i for i in range(start, end) if rows[i][2] <= locos and rows[i][3] <= p4]
    return None if len(held) == len(rows) else held


def _claim_actions_with_passengers(
    board: Board, state: TTRState, seat: int, open_tracks: OpenTracks
) -> list[Any]:
    """Märklin claims while the seat has passengers: each payment with each placement (none,
    then each end of the track that is not a country and holds no passenger)."""
    hand = state.hands[seat]
    locos_held = hand[LOCO]
    p4_held = hand[PLUS4]
    wild_any = locos_held + p4_held
    best_colour = max(hand[:N_COLOURS])
    trains = state.trains[seat]
    out: list[Any] = []
    open_now = open_tracks.for_seat(state.owner, seat)
    tables = open_tracks.tables
    placements = tables.placement_claims
    passenger_at = state.passenger_at
    cities = board.cities
    for (colour, shapes), (_, claim_shapes) in zip(tables.shapes_by_colour, tables.claim_groups, strict=True):
        reach = min((best_colour if colour == GRAY else hand[colour]) + wild_any, trains)
        for (length, shape_id, tracks), (_, _, wild_ok, p4_ok, _) in zip(shapes, claim_shapes, strict=True):
            if length > reach:
                break
            mask = open_now[shape_id]
            if not mask:
                continue
            locos = locos_held if wild_ok else 0
            p4 = p4_held if wild_ok and p4_ok else 0
            held = _held_payments(tables, shape_id, hand, locos, p4)
            if held is not None and not held:
                continue
            # Positions within a track's placement list, per number of placements (1 to 3).
            spread: list[list[int] | None] = [None, None, None, None]
            for i, track in enumerate(tracks):
                if not mask >> i & 1:
                    continue
                a, b = track.a, track.b
                a_ok = a not in passenger_at and not cities[a].is_country
                b_ok = b not in passenger_at and not cities[b].is_country
                claims = placements[track.index][a_ok << 1 | b_ok]
                if held is None:
                    out += claims
                    continue
                per_pay = 1 + a_ok + b_ok
                picks = spread[per_pay]
                if picks is None:
                    picks = spread[per_pay] = [p * per_pay + j for p in held for j in range(per_pay)]
                out += [claims[p] for p in picks]
    return out


def station_cost(board: Board, state: TTRState, seat: int) -> int:
    """Cards the seat's next station costs (only meaningful while it has stations left)."""
    costs = board.spec.station_costs
    return costs[len(costs) - state.stations_left[seat]]


def station_actions(board: Board, state: TTRState, seat: int) -> list[Any]:
    """Every station ``seat`` can build now, in every city, with every payment."""
    if not board.spec.station_costs or state.stations_left[seat] <= 0:
        return []
    rows, by_city = board.tables.station_tables[station_cost(board, state, seat)]
    hand = state.hands[seat]
    locos = hand[LOCO]
    held = [i for i, (c, k, lo) in enumerate(rows) if k <= hand[c] and lo <= locos]
    if not held:
        return []
    every = len(held) == len(rows)
    taken = state.station_at
    out: list[Any] = []
    for city, actions in by_city:
        if city in taken:
            continue
        if every:
            out += actions
        else:
            out += [actions[i] for i in held]
    return out


def tunnel_payments(board: Board, state: TTRState, seat: int) -> list[A.Cards]:
    """Every way ``seat`` can pay the pending tunnel's surcharge."""
    tun = state.tunnel
    if tun is None or tun["seat"] != seat:
        return []
    hand = [h - p for h, p in zip(state.hands[seat], tun["payment"], strict=True)]
    need = tun["surcharge"]
    colour = tun["colour"]
    track = board.tracks[tun["track"]]
    p4 = hand[PLUS4] if track.length >= board.spec.plus4_min_length else 0
    out: list[A.Cards] = []
    n_colour = hand[colour] if colour is not None else 0
    for c in range(min(n_colour, need), -1, -1):
        for lo in range(min(hand[LOCO], need - c), -1, -1):
            rest = need - c - lo
            if rest <= p4:
                vec = [0] * N_CARD_TYPES
                if c:
                    vec[colour] = c
                vec[LOCO] = lo
                vec[PLUS4] = rest
                out.append(vector_cards(vec))
    return out


def passenger_actions(
    board: Board, state: TTRState, seat: int, open_tracks: OpenTracks | None = None
) -> list[Any]:
    """Märklin, at the start of a turn: set off with each passenger of ``seat`` that can travel at
    least one route now (rule 21: the move travels; rules 22–23: fares and countries)."""
    if board.spec.passengers <= 0:
        return []
    starts = [city for city, s in state.passenger_at.items() if s == seat]
    if not starts:
        return []
    adj = (
        _claimed_adjacency(board, state.owner)
        if open_tracks is None
        else open_tracks.claimed_adjacency(state.owner)
    )
    fares = state.hands[seat][PASSENGER]
    out: list[Any] = []
    for city in starts:
        for track in adj.get(city, ()):
            if _leg_open(board, state, seat, city, track, (), fares):
                out.append(A.StartJourney(city))
                break
    return out


def journey_actions(
    board: Board, state: TTRState, seat: int, open_tracks: OpenTracks | None = None
) -> list[Any]:
    """Märklin, a journey under way: each route the passenger may take next, then (once it has
    travelled one) ending the journey where it is."""
    journey = state.journey
    if journey is None or journey["seat"] != seat:
        return []
    out: list[Any] = [A.TravelRoute(t.id) for t in journey_routes(board, state, seat, open_tracks)]
    if journey["tracks"]:
        out.append(_END_JOURNEY)
    return out


def journey_routes(
    board: Board, state: TTRState, seat: int, open_tracks: OpenTracks | None = None
) -> list[Track]:
    """The routes the travelling passenger of ``seat`` may take next, in board order: claimed,
    from the city it is in, not yet used on this journey, not into a country, and (an opponent's)
    paid for with a passenger card still in hand."""
    journey = state.journey
    if journey is None or journey["seat"] != seat:
        return []
    adj = (
        _claimed_adjacency(board, state.owner)
        if open_tracks is None
        else open_tracks.claimed_adjacency(state.owner)
    )
    here = journey["at"]
    used = journey["tracks"]
    fares = state.hands[seat][PASSENGER]
    return [t for t in adj.get(here, ()) if _leg_open(board, state, seat, here, t, used, fares)]


def _leg_open(
    board: Board, state: TTRState, seat: int, here: str, track: Track, used: Any, fares: int
) -> bool:
    """Whether a passenger in ``here`` may travel ``track`` (claimed, at ``here``) now."""
    if track.index in used:
        return False
    if board.cities[track.b if here == track.a else track.a].is_country:
        return False
    return fares > 0 or state.owner[track.index] == seat


def _claimed_adjacency(board: Board, owner: list[int]) -> dict[str, list[Track]]:
    """City -> the claimed tracks at it, in board order."""
    adj: dict[str, list[Track]] = {}
    for t in board.tracks:
        if owner[t.index] != -1:
            at_a = adj.get(t.a)
            if at_a is None:
                adj[t.a] = [t]
            else:
                at_a.append(t)
            at_b = adj.get(t.b)
            if at_b is None:
                adj[t.b] = [t]
            else:
                at_b.append(t)
    return adj


def passenger_journeys(
    board: Board, state: TTRState, seat: int, start: str | None = None
) -> list[tuple[str, ...]]:
    """One journey (as track ids) for each distinct outcome a passenger of ``seat`` in ``start``
    can reach now; with no ``start``, each way the journey under way can go on from where the
    passenger is (the routes still to travel). Journeys that visit the same set of cities for the
    same number of fares take the same merchandise and cost the same (rules 21–25), so one of them
    stands for all.

    The number of trails grows exponentially with a large claimed network and many passenger
    cards, so the search stops after MAX_PASSENGER_JOURNEYS outcomes or PASSENGER_SEARCH_STEPS
    steps. It is an AI's planning tool: players (and AIs) play a journey route by route."""
    adj = _claimed_adjacency(board, state.owner)
    if start is not None:
        return _journeys(board, state, seat, start, adj)
    journey = state.journey
    if journey is None or journey["seat"] != seat:
        return []
    bits = board.tables.city_bits
    seen = 0
    for city in journey["collected"]:
        seen |= bits[city]
    return _journeys(board, state, seat, journey["start"], adj, journey["at"], set(journey["tracks"]), seen)


def _journeys(
    board: Board,
    state: TTRState,
    seat: int,
    start: str,
    adj: dict[str, list[Track]],
    at: str | None = None,
    used: set[int] | None = None,
    seen: int = 0,
) -> list[tuple[str, ...]]:
    """passenger_journeys over a prepared adjacency: a depth-first search in adjacency order, each
    outcome (cities visited other than the start, as a bit mask, and fares) kept the first time.
    A journey under way goes on from ``at`` with its ``used`` tracks and ``seen`` cities."""
    fares_left = state.hands[seat][PASSENGER]
    owner = state.owner
    cities = board.cities
    bits = board.tables.city_bits
    journeys: list[tuple[str, ...]] = []
    outcomes: set[tuple[int, int]] = set()
    if used is None:
        used = set()
    path: list[str] = []
    # Frames of the search: (city, fares so far, cities visited, track taken to get here, tracks to try).
    no_tracks: list[Track] = []
    here = start if at is None else at
    stack: list[tuple[str, int, int, int, Iterator[Track]]] = [
        (here, 0, seen, -1, iter(adj.get(here, no_tracks)))
    ]
    steps = 0
    while stack:
        city, fares, visited, _, tracks = stack[-1]
        for t in tracks:
            if t.index in used:
                continue
            nxt = t.b if city == t.a else t.a
            if cities[nxt].is_country:
                continue
            cost = fares + (owner[t.index] != seat)
            if cost > fares_left:
                continue
            steps += 1
            if len(journeys) >= MAX_PASSENGER_JOURNEYS or steps > PASSENGER_SEARCH_STEPS:
                return journeys
            used.add(t.index)
            path.append(t.id)
            seen = visited if nxt == start else visited | bits[nxt]
            outcome = (seen, cost)
            if outcome not in outcomes:
                outcomes.add(outcome)
                journeys.append(tuple(path))
            stack.append((nxt, cost, seen, t.index, iter(adj.get(nxt, no_tracks))))
            break
        else:
            came_by = stack.pop()[3]
            if came_by >= 0:
                used.discard(came_by)
                path.pop()
    return journeys


def vector_cards(vec: list[int]) -> A.Cards:
    """A count vector as the (card name, count) tuple actions use."""
    return tuple((CARD_NAMES[i], c) for i, c in enumerate(vec) if c)
