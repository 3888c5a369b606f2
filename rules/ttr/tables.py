"""Move tables precomputed once per board, so move generation only looks things up.

Claim payments depend on a track's *shape* (colour, length, tunnel, ferry locomotives), not on the
track itself; tracks are grouped by colour and shape, shortest first, so generation can stop at the
first shape longer than the hand can pay. Every claim the board allows (each track with each
payment any hand could make, and on a board with passengers each placement), and every station
(each city with each payment of each station cost), is built once when the board loads and shared
by all its games (actions are immutable): move generation keeps the ones the hand can pay for,
comparing card counts, and creates no action objects.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import TYPE_CHECKING, TypeAlias

from rules.ttr import actions as A
from rules.ttr.colours import COLOURS, GRAY, LOCO

if TYPE_CHECKING:
    from rules.ttr.board import Track

# Card counts and lengths in the packed claim-cache keys take 5 bits (see movegen.claim_actions).
MAX_PACKED_LENGTH = 32

# (length, shape id, tracks of that shape) — the tracks of one colour, shortest shape first.
Shape: TypeAlias = tuple[int, int, tuple["Track", ...]]
ClaimTable = tuple[tuple[A.ClaimRoute, ...], ...]
# (length, shape id, wild cards allowed, "+4" allowed, ferry locomotives) — what move generation
# needs of one shape, precomputed from the board's rule flags.
ClaimShape = tuple[int, int, bool, bool, int]
# A shape's claim actions for one payment key: per track (by position), and all tracks in a row.
ShapeEntry = tuple[tuple[tuple[A.ClaimRoute, ...], ...], tuple[A.ClaimRoute, ...]]
# One payment as card counts: (the card type its coloured cards are, or LOCO for an all-wild
# payment; how many of them; locomotives; "+4" locomotives). A hand can pay it when it holds
# that many of each.
PayRow = tuple[int, int, int, int]
# A run of a shape's payments whose coloured cards are of one type (or the all-wild run): (that
# card type, or LOCO; per count n of that type held (capped at the most the run takes), the
# position of its first payment taking at most n of them (most first, so those that n pays for
# run from there to the end); the position after the run; the most locomotives and "+4"s a
# payment of the run takes).
PayBlock = tuple[int, tuple[int, ...], int, int, int]
# One station payment: (card type of its coloured cards, or LOCO; how many; locomotives).
StationPayRow = tuple[int, int, int]
# Per station cost: its payments in listing order, and per city (board order, no country) the
# city's BuildStation actions aligned with them.
StationTable = tuple[tuple[StationPayRow, ...], tuple[tuple[str, tuple[A.BuildStation, ...]], ...]]


@dataclass(frozen=True, slots=True)
class MoveTables:
    """A board's precomputed move-generation tables (owned by its :class:`~rules.ttr.board.Board`)."""

    shapes_by_colour: tuple[tuple[int, tuple[Shape, ...]], ...]
    """Colour (or GRAY) -> its shapes, shortest first."""
    shape_of_track: tuple[tuple[int, int], ...]
    """Track index -> (shape id, position of the track within its shape)."""
    shape_sizes: tuple[int, ...]
    """Shape id -> number of tracks of that shape."""
    shape_pay_rows: tuple[tuple[PayRow, ...], ...]
    """Shape id -> every payment some hand could make for the shape, in the order moves list
    them: colour by colour (each of the eight for gray), most coloured cards first, fewest
    locomotives first; then the all-locomotive ones."""
    shape_pay_blocks: tuple[tuple[PayBlock, ...], ...]
    """Shape id -> its ``shape_pay_rows`` as runs of one coloured card type each (see PayBlock),
    so a hand's payments are found by count rather than by testing every payment."""
    shape_track_claims: tuple[ClaimTable, ...]
    """Shape id -> per track of the shape (by position) its claim actions, one per payment of
    ``shape_pay_rows`` in the same order (built at board load)."""
    placement_claims: tuple[tuple[tuple[A.ClaimRoute, ...], ...], ...]
    """Boards with passengers: track index -> per placement choice (2 if its first city may take a
    passenger, plus 1 if its second may) the claim actions, each payment of its shape's
    ``shape_pay_rows`` with each placement (none, first city, second city); empty otherwise."""
    station_tables: dict[int, StationTable]
    """Station cost -> its payments and every city's BuildStation actions for them."""
    claim_groups: tuple[tuple[int, tuple[ClaimShape, ...]], ...] = ()
    """Colour (or GRAY) -> its shapes, shortest first, with the payment flags of each."""
    claim_cache: dict[int, ShapeEntry] = field(default_factory=dict, repr=False)
    """(shape id, locomotives, +4s, then the cards of each colour the shape takes) packed into one
    int -> the shape's claim actions (see ``movegen._group_claims``; filled as hands are met)."""
    shape_full_masks: tuple[int, ...] = ()
    """Shape id -> the bit mask with every position of the shape open."""
    shape_offsets: tuple[int, ...] = ()
    """Shape id -> where its positions start in its colour group's bit mask."""
    shape_group: tuple[int, ...] = ()
    """Shape id -> its colour group (index into ``shapes_by_colour``)."""
    group_full_masks: tuple[int, ...] = ()
    """Colour group -> the bit mask with every track of the group open."""
    group_bounds: tuple[tuple[int, int, int], ...] = ()
    """Colour group -> (colour or GRAY, longest track, shortest track)."""
    group_cache: dict[tuple[int, int], tuple[A.ClaimRoute, ...]] = field(default_factory=dict, repr=False)
    """(open mask and group, then reach, locomotives, +4s and colour cards packed into one int) ->
    the group's claim actions (see ``movegen.claim_actions``; filled as hands are met)."""
    track_by_exact_id: dict[str, Track] = field(default_factory=dict, repr=False)
    """Track id exactly as written (the ids legal actions carry) -> track."""
    city_bits: dict[str, int] = field(default_factory=dict, repr=False)
    """City at the end of some track -> its own bit (sets of cities as bit masks)."""
    claim_texts: dict[tuple[int, tuple[int, ...]], tuple[A.Cards, str, str]] = field(
        default_factory=dict, repr=False
    )
    """(track index, payment vector) -> the claim's cards, event text and short text (built once:
    a board has a bounded number of them)."""

    @classmethod
    def build(
        cls,
        tracks: Iterable[Track],
        locomotives_tunnels_only: bool = False,
        plus4_min_length: int = 99,
        station_cities: Sequence[str] = (),
        station_costs: Iterable[int] = (),
        passenger_countries: Collection[str] | None = None,
    ) -> MoveTables:
        """The tables of a board with these tracks and rule flags: ``station_cities`` are the
        cities a station may stand in (board order), ``passenger_countries`` the countries (no
        passenger is placed in one) when the board has passengers, None when it has none."""
        all_tracks = list(tracks)
        if any(t.length >= MAX_PACKED_LENGTH for t in all_tracks):
            raise ValueError(
                f"tracks of {MAX_PACKED_LENGTH} spaces or more do not fit the packed claim-cache keys"
            )
        by_colour: dict[int, list[Track]] = {}
        for t in all_tracks:
            by_colour.setdefault(t.colour, []).append(t)
        shape_track_ids: list[tuple[str, ...]] = []
        groups: list[tuple[int, tuple[Shape, ...]]] = []
        positions: dict[int, tuple[int, int]] = {}
        for colour, colour_tracks in sorted(by_colour.items()):
            ordered = sorted(colour_tracks, key=lambda t: t.length)
            shapes: dict[tuple[int, int, bool, int], list[Track]] = {}
            for t in ordered:
                shapes.setdefault((colour, t.length, t.tunnel, t.ferry_locos), []).append(t)
            entries: list[Shape] = []
            for shape, shape_tracks in sorted(shapes.items(), key=lambda kv: kv[0][1]):
                shape_id = len(shape_track_ids)
                shape_track_ids.append(tuple(t.id for t in shape_tracks))
                entries.append((shape[1], shape_id, tuple(shape_tracks)))
                for pos, t in enumerate(shape_tracks):
                    positions[t.index] = (shape_id, pos)
            groups.append((colour, tuple(entries)))
        ids = tuple(shape_track_ids)
        claim_groups = tuple(
            (
                colour,
                tuple(
                    (
                        length,
                        shape_id,
                        not (locomotives_tunnels_only and not shape_tracks[0].tunnel),
                        length >= plus4_min_length,
                        shape_tracks[0].ferry_locos,
                    )
                    for length, shape_id, shape_tracks in shapes
                ),
            )
            for colour, shapes in groups
        )
        pay_rows: list[tuple[PayRow, ...]] = [()] * len(ids)
        for colour, claim_shapes in claim_groups:
            for length, shape_id, wild_ok, p4_ok, ferry in claim_shapes:
                pay_rows[shape_id] = shape_payments(colour, length, wild_ok, p4_ok, ferry)
        track_claims = tuple(
            tuple(
                tuple(A.ClaimRoute(tid, row_cards(row)) for row in pay_rows[shape_id])
                for tid in ids[shape_id]
            )
            for shape_id in range(len(ids))
        )
        placements: tuple[tuple[tuple[A.ClaimRoute, ...], ...], ...] = ()
        if passenger_countries is not None:
            placements = tuple(
                _placement_claims(
                    t, track_claims[positions[t.index][0]][positions[t.index][1]], passenger_countries
                )
                for t in sorted(all_tracks, key=lambda t: t.index)
            )
        cities = tuple(station_cities)
        stations: dict[int, StationTable] = {}
        for cost in sorted(set(station_costs)):
            rows = station_payments(cost)
            stations[cost] = (
                rows,
                tuple(
                    (city, tuple(A.BuildStation(city, station_cards(row)) for row in rows)) for city in cities
                ),
            )
        offsets: list[int] = [0] * len(ids)
        shape_group: list[int] = [0] * len(ids)
        group_full: list[int] = []
        for group, (_, group_shapes) in enumerate(groups):
            offset = 0
            for _, shape_id, members in group_shapes:
                offsets[shape_id] = offset
                shape_group[shape_id] = group
                offset += len(members)
            group_full.append((1 << offset) - 1)
        city_bits: dict[str, int] = {}
        for t in all_tracks:
            for city in (t.a, t.b):
                city_bits.setdefault(city, 1 << len(city_bits))
        return cls(
            track_by_exact_id={t.id: t for t in all_tracks},
            city_bits=city_bits,
            shape_full_masks=tuple((1 << len(t)) - 1 for t in ids),
            shape_offsets=tuple(offsets),
            shape_group=tuple(shape_group),
            group_full_masks=tuple(group_full),
            group_bounds=tuple((colour, shapes[-1][0], shapes[0][0]) for colour, shapes in groups),
            shapes_by_colour=tuple(groups),
            shape_of_track=tuple(positions[i] for i in range(len(positions))),
            shape_sizes=tuple(len(t) for t in ids),
            shape_pay_rows=tuple(pay_rows),
            shape_pay_blocks=tuple(pay_blocks(rows) for rows in pay_rows),
            shape_track_claims=track_claims,
            placement_claims=placements,
            station_tables=stations,
            claim_groups=claim_groups,
        )


def shape_payments(colour: int, length: int, wild_ok: bool, p4_ok: bool, ferry: int) -> tuple[PayRow, ...]:
    """Every payment some hand could make for a shape, in listing order (see
    ``MoveTables.shape_pay_rows``): the payments of a hand holding every card, by the same
    enumeration that lists a real hand's (:func:`colour_payments`, :func:`wild_payments`)."""
    locos = length if wild_ok else 0
    p4 = length if wild_ok and p4_ok else 0
    rows: list[PayRow] = []
    for c in range(len(COLOURS)) if colour == GRAY else (colour,):
        for cards in colour_payments(c, length, locos, p4, length, ferry):
            k = cards[0][1]
            lo, plus4 = _wild_counts(cards[1:])
            rows.append((c, k, lo, plus4))
    for cards in wild_payments(locos, p4, length, ferry):
        lo, plus4 = _wild_counts(cards)
        rows.append((LOCO, 0, lo, plus4))
    return tuple(rows)


def pay_blocks(rows: Sequence[PayRow]) -> tuple[PayBlock, ...]:
    """A shape's payment rows as runs of one coloured card type (see PayBlock)."""
    out: list[PayBlock] = []
    start = 0
    while start < len(rows):
        card = rows[start][0]
        end = start
        while end < len(rows) and rows[end][0] == card:
            end += 1
        run = rows[start:end]
        most = max(k for _, k, _, _ in run)
        first = tuple(
            next((start + i for i, row in enumerate(run) if row[1] <= n), end) for n in range(most + 1)
        )
        out.append((card, first, end, max(lo for _, _, lo, _ in run), max(p for _, _, _, p in run)))
        start = end
    return tuple(out)


def row_cards(row: PayRow) -> A.Cards:
    """The card tuple of a payment row."""
    c, k, lo, plus4 = row
    return (((COLOURS[c], k),) if k else ()) + wild_cards(lo, plus4)


def station_payments(cost: int) -> tuple[StationPayRow, ...]:
    """Every payment of a station costing ``cost`` cards, in listing order: colour by colour, most
    coloured cards first (the rest locomotives), then locomotives only."""
    rows = [(c, k, cost - k) for c in range(len(COLOURS)) for k in range(cost, 0, -1)]
    rows.append((LOCO, 0, cost))
    return tuple(rows)


def station_cards(row: StationPayRow) -> A.Cards:
    """The card tuple of a station payment row."""
    c, k, lo = row
    return (((COLOURS[c], k),) if k else ()) + wild_cards(lo, 0)


def _wild_counts(cards: A.Cards) -> tuple[int, int]:
    """(locomotives, "+4" locomotives) in a card tuple of wild cards."""
    counts = dict(cards)
    return counts.get("locomotive", 0), counts.get("plus4", 0)


def _placement_claims(
    track: Track, claims: tuple[A.ClaimRoute, ...], countries: Collection[str]
) -> tuple[tuple[A.ClaimRoute, ...], ...]:
    """A track's claims with passenger placements, per placement choice (see
    ``MoveTables.placement_claims``): for each payment, no passenger, then one in the first city,
    then one in the second, as far as the choice allows (never in a country)."""
    on_a = [A.ClaimRoute(c.track, c.cards, track.a) for c in claims] if track.a not in countries else []
    on_b = [A.ClaimRoute(c.track, c.cards, track.b) for c in claims] if track.b not in countries else []
    out: list[tuple[A.ClaimRoute, ...]] = []
    for choice in range(4):
        a_ok = bool(choice & 2) and bool(on_a)
        b_ok = bool(choice & 1) and bool(on_b)
        flat: list[A.ClaimRoute] = []
        for i, claim in enumerate(claims):
            flat.append(claim)
            if a_ok:
                flat.append(on_a[i])
            if b_ok:
                flat.append(on_b[i])
        out.append(tuple(flat))
    return tuple(out)


@cache
def colour_payments(colour: int, n: int, locos: int, p4: int, length: int, ferry: int) -> tuple[A.Cards, ...]:
    """Payments for a route of ``length`` using 1..n cards of ``colour`` plus wild cards."""
    out: list[A.Cards] = []
    for k in range(min(n, length - ferry), 0, -1):
        wild = length - k
        if wild > locos + p4:
            break
        for lo in range(max(ferry, wild - p4), min(locos, wild) + 1):
            out.append(((COLOURS[colour], k),) + wild_cards(lo, wild - lo))
    return tuple(out)


@cache
def wild_payments(locos: int, p4: int, length: int, ferry: int) -> tuple[A.Cards, ...]:
    """All-locomotive payments for a route of ``length``."""
    return tuple(wild_cards(lo, length - lo) for lo in range(max(ferry, length - p4), min(locos, length) + 1))


def wild_cards(locos: int, plus4: int) -> A.Cards:
    """The card tuple for ``locos`` locomotives and ``plus4`` "+4" locomotives."""
    out: list[tuple[str, int]] = []
    if locos:
        out.append(("locomotive", locos))
    if plus4:
        out.append(("plus4", plus4))
    return tuple(out)
