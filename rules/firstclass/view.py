"""What one seat (or a spectator) may see of a First Class game; format in ``docs/first-class-api.md``.

Never another seat's Game End cards or draft hand, nor the order of any pile; which Game End card a
symbol came from is hidden from the others until the game is over.
"""

from __future__ import annotations

from typing import TypedDict

from rules.firstclass import actions as A
from rules.firstclass import cards as C
from rules.firstclass.board import Position, route, score, tile_value
from rules.firstclass.effects import TRAINS, describe_effects, describe_requirement, parse_stations
from rules.firstclass.events import public_src
from rules.firstclass.movegen import is_over, seats_to_act
from rules.firstclass.ops import describe_item
from rules.firstclass.scoring import train_points
from rules.protocol import JSON, JsonObject

GAME_NAME = "first-class"

# The view's shape, as docs/first-class-api.md describes it; the JSON-valued parts are the saved
# forms of cards, symbols and Game End cards, each described there.


class TileView(TypedDict):
    order: int
    value: int


class TrainView(TypedDict):
    cars: list[int]
    conductor: int
    mail_slot: int | None
    tile: TileView | None
    points_now: int


class StationView(TypedDict):
    index: int
    kind: str
    points: int
    bonus: JSON
    text: str


class CardView(TypedDict):
    id: str
    set: str
    pile: JSON
    kind: str
    effects: JSON
    requirement: JSON
    bonus: JSON
    route_stations: JSON
    text: str


class PlayerView(TypedDict):
    seat: int
    score: int
    breakdown: dict[str, int]
    trains: dict[str, TrainView]
    locomotive: int
    route: list[StationView]
    route_cards: list[str]
    coins: list[int]
    contracts: list[CardView]
    completed_count: int
    completed_base: dict[str, int]
    mails_left: list[int]
    game_end_cards: list[JsonObject] | None
    game_end_count: int
    pending: list[JsonObject]


class SlotView(TypedDict):
    status: str
    card: CardView | None


class RowView(TypedDict):
    cleared: bool
    removed: int
    slots: list[SlotView]


class DraftView(TypedDict):
    seat: int
    hand: list[JsonObject] | None
    hand_size: int


class StartTileView(TypedDict):
    taken_by: int | None
    row: int | None


class ScoringView(TypedDict):
    seat: int
    claimed: list[int]


class LastActionView(TypedDict):
    seat: int
    kind: str
    text: str
    card: str | None


class FirstClassView(TypedDict):
    """What :func:`view` returns: one seat's (or a spectator's) view of a First Class game."""

    game_name: str
    players_count: int
    viewer: int | None
    phase: str
    round: int
    pile: int
    start_player: int
    active: int
    seats_to_act: list[int]
    turns_done: int
    turn_taken: bool
    rows: list[RowView]
    start_tile: StartTileView
    pile_sizes: dict[str, int]
    game_end_display: list[JsonObject]
    game_end_pile_size: int
    draft: DraftView | None
    constantinople: list[list[JSON]]
    tiles_left: list[TileView]
    scoring: ScoringView | None
    players: list[PlayerView]
    deck_label: str
    deck_sources: list[list[JSON]]
    provisional: list[str]
    modules: list[str]
    final: list[dict[str, JSON]] | None
    last_action: LastActionView | None
    taken_card: CardView | None


def card_json(g: Position, cid: str) -> CardView:
    c = g.deck.cards[cid]
    if c.kind == "route":
        text = "route: " + " | ".join(
            f"{st.points} pts" if st.kind == "P" else f"bonus: {describe_effects(st.effects)}"
            for st in parse_stations(c.route_stations)
        )
    elif c.kind == "contract":
        text = f"{describe_requirement(c.requirement)} -> {describe_effects(c.bonus)}"
    else:
        text = describe_effects(c.effects)
    return {
        "id": cid,
        "set": c.set,
        "pile": c.pile,
        "kind": c.kind,
        "effects": c.effects,
        "requirement": c.requirement,
        "bonus": c.bonus,
        "route_stations": c.route_stations,
        "text": text,
    }


def view(g: Position, seat: int | None) -> FirstClassView:
    s = g.s
    over = is_over(g)
    players: list[PlayerView] = []
    for i, pl in enumerate(s.players):
        mine = seat == i or over
        stations = route(g, i)
        trains: dict[str, TrainView] = {}
        for t in TRAINS:
            tile = pl.tiles[t]
            trains[t] = {
                "cars": list(pl.trains[t]),
                "conductor": pl.cond[t],
                "mail_slot": pl.mails_used[t],
                "tile": None if tile is None else {"order": tile, "value": tile_value(g, tile)},
                "points_now": train_points(g, i, t),
            }
        players.append(
            {
                "seat": i,
                "score": score(g, i),
                "breakdown": dict(pl.points),
                "trains": trains,
                "locomotive": pl.loco,
                "route": [
                    {
                        "index": k,
                        "kind": st.kind,
                        "points": st.points,
                        "bonus": st.effects,
                        "text": describe_effects(st.effects) if st.kind == "B" else "",
                    }
                    for k, st in enumerate(stations, start=1)
                ],
                "route_cards": list(pl.route_cards),
                "coins": list(pl.coins),
                "contracts": [card_json(g, c) for c in pl.contracts],
                "completed_count": len(pl.completed),
                "completed_base": {
                    t: sum(
                        1
                        for c in pl.completed
                        if g.deck.cards[c].set == "X" and g.deck.cards[c].game_end_type == t
                    )
                    for t in C.GAME_END_TYPES
                },
                "mails_left": list(pl.mails_left),
                "game_end_cards": ([g.deck.game_end[gid].to_json() for gid in pl.ge_cards] if mine else None),
                "game_end_count": len(pl.ge_cards),
                "pending": [
                    {**x.to_json(), "text": describe_item(x)} | ({} if mine else {"src": public_src(x.src)})
                    for x in pl.pending + pl.bonus
                ],
            }
        )
    rows: list[RowView] = []
    for r in range(len(s.rows)):
        row: list[SlotView] = []
        for c in range(6):
            cid = s.rows[r][c]
            row.append({"status": s.slots[r][c], "card": card_json(g, cid) if cid is not None else None})
        rows.append({"cleared": s.row_cleared[r], "removed": s.row_removed[r], "slots": row})
    top = next((r for r in range(3) if not s.row_cleared[r]), None)
    draft: DraftView | None = None
    if s.phase == "draft":
        drafter = s.draft.order[s.draft.index]
        draft = {
            "seat": drafter,
            "hand": ([g.deck.game_end[gid].to_json() for gid in s.draft.hand] if seat == drafter else None),
            "hand_size": len(s.draft.hand),
        }
    last = last_action(g, seat)
    return {
        "game_name": GAME_NAME,
        "players_count": g.players,
        "viewer": seat,
        "phase": s.phase,
        "round": s.round,
        "pile": (s.round + 1) // 2,
        "start_player": s.start_player,
        "active": s.active,
        "seats_to_act": seats_to_act(g),
        "turns_done": s.turns_done,
        "turn_taken": s.phase == "play" and s.taken,
        "rows": rows,
        "start_tile": {"taken_by": s.sp_taken_by, "row": top},
        "pile_sizes": {k: len(v) for k, v in s.piles.items()},
        "game_end_display": [g.deck.game_end[gid].to_json() for gid in s.ge_display],
        "game_end_pile_size": len(s.ge_pile),
        "draft": draft,
        "constantinople": [list(x) for x in s.constantinople],
        "tiles_left": [{"order": o, "value": tile_value(g, o)} for o in s.tiles_left],
        "scoring": (
            None
            if s.scoring is None
            else {"seat": s.scoring.order[s.scoring.index], "claimed": list(s.scoring.claimed)}
        ),
        "players": players,
        "deck_label": g.deck.label,
        "deck_sources": [[list(sets), path] for sets, path in g.deck.sources],
        "provisional": list(g.deck.provisional),
        "modules": list(g.config["modules"]),
        "final": s.final,
        "last_action": last,
        "taken_card": card_json(g, last["card"]) if last is not None and last["card"] else None,
    }


def last_action(g: Position, viewer: int | None = None) -> LastActionView | None:
    """The most recent action other than ``end`` (which only closes a turn), as seen by ``viewer``.

    ``{seat, kind, text, card}``: ``text`` is the action's text form; ``card`` is the Action card
    that ``seat`` took (``take``/``forgo``) in the same turn, so the move to highlight stays known
    while its symbols are answered, else None. Nothing hidden leaks: for a ``draft`` the position
    kept is left out for everyone, and for ``ge``/``buy`` the Game End card (which goes to a
    face-down pile) is left out for other viewers until the game is over; those texts are then
    just the kind. None before the first such action."""
    history = g.s.history
    for i in range(len(history) - 1, -1, -1):
        seat, text = history[i]
        a = A.parse_action(text)
        if a.kind == "end":
            continue
        shown = text
        if a.kind == "draft" or (a.kind in ("ge", "buy") and viewer != seat and not is_over(g)):
            shown = a.kind
        card = None
        for j in range(i, -1, -1):  # back to the start of this turn
            who, earlier = history[j]
            head = earlier.split(" ", 1)[0]
            if head in ("end", "done"):
                break
            if who == seat and head in ("take", "forgo"):
                card = earlier.split()[1]
                break
        return {"seat": seat, "kind": a.kind, "text": shown, "card": card}
    return None
