"""Move tables precomputed once per board, so move generation only looks things up.

Claim payments depend on a track's *shape* (colour, length, tunnel, ferry locomotives), not on the
track itself; tracks are grouped by colour and shape, shortest first, so generation can stop at the
first shape longer than the hand can pay, and the claim actions of one shape and payment are built
once and shared (actions are immutable).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from rules.ttr import actions as A
from rules.ttr.board import COLOURS, Track

# Card counts and lengths in the packed claim-cache keys take 5 bits (see movegen.claim_actions).
MAX_PACKED_LENGTH = 32

# (length, shape id, tracks of that shape) — the tracks of one colour, shortest shape first.
Shape = tuple[int, int, tuple[Track, ...]]
ClaimTable = tuple[tuple[A.ClaimRoute, ...], ...]
# (length, shape id, wild cards allowed, "+4" allowed, ferry locomotives) — what move generation
# needs of one shape, precomputed from the board's rule flags.
ClaimShape = tuple[int, int, bool, bool, int]
# A shape's claim actions for one payment key: per track (by position), and all tracks in a row.
ShapeEntry = tuple[tuple[tuple[A.ClaimRoute, ...], ...], tuple[A.ClaimRoute, ...]]


@dataclass(frozen=True, slots=True)
class MoveTables:
    """A board's precomputed move-generation tables (owned by its :class:`~rules.ttr.board.Board`)."""

    shapes_by_colour: tuple[tuple[int, tuple[Shape, ...]], ...]
    """Colour (or GRAY) -> its shapes, shortest first."""
    shape_of_track: tuple[tuple[int, int], ...]
    """Track index -> (shape id, position of the track within its shape)."""
    shape_sizes: tuple[int, ...]
    """Shape id -> number of tracks of that shape."""
    shape_claims: Callable[..., ClaimTable] = field(repr=False)
    """(shape id, colour or -1 for all-wild, colour cards, locomotives, +4s, length, ferry) ->
    for each track of the shape, its claim actions for those payments (cached)."""
    station_actions: dict[str, dict[A.Cards, A.BuildStation]] = field(repr=False)
    """City -> payment -> the shared BuildStation action (filled as payments are met)."""
    claim_groups: tuple[tuple[int, tuple[ClaimShape, ...]], ...] = ()
    """Colour (or GRAY) -> its shapes, shortest first, with the payment flags of each."""
    claim_cache: dict[int, ShapeEntry] = field(default_factory=dict, repr=False)
    """(shape id, locomotives, +4s, then the cards of each colour the shape takes) packed into one
    int -> the shape's claim actions (see ``movegen._group_claims``; filled as hands are met)."""
    passenger_claim_cache: dict[tuple[Any, ...], tuple[A.ClaimRoute, ...]] = field(default_factory=dict, repr=False)
    """(track index, hand capped at the track's length, passenger places) -> its claim actions
    with every placement (Märklin; filled by move generation)."""
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
    claim_texts: dict[tuple[int, tuple[int, ...]], tuple[A.Cards, str, str]] = field(default_factory=dict, repr=False)
    """(track index, payment vector) -> the claim's cards, event text and short text (built once:
    a board has a bounded number of them)."""

    @classmethod
    def build(cls, tracks: Iterable[Track], locomotives_tunnels_only: bool = False,
              plus4_min_length: int = 99) -> MoveTables:
        all_tracks = list(tracks)
        if any(t.length >= MAX_PACKED_LENGTH for t in all_tracks):
            raise ValueError(f"tracks of {MAX_PACKED_LENGTH} spaces or more do not fit the packed claim-cache keys")
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

        @cache
        def shape_claims(shape_id: int, colour: int, n: int, locos: int, p4: int, length: int,
                         ferry: int) -> ClaimTable:
            pays = (wild_payments(locos, p4, length, ferry) if colour < 0
                    else colour_payments(colour, n, locos, p4, length, ferry))
            return tuple(tuple(A.ClaimRoute(tid, pay) for pay in pays) for tid in ids[shape_id])

        claim_groups = tuple(
            (colour, tuple((length, shape_id, not (locomotives_tunnels_only and not shape_tracks[0].tunnel),
                            length >= plus4_min_length, shape_tracks[0].ferry_locos)
                           for length, shape_id, shape_tracks in shapes))
            for colour, shapes in groups)
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
            shape_claims=shape_claims,
            station_actions={},
            claim_groups=claim_groups,
        )


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
