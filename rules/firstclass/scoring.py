"""Scoring in First Class: the scoring phases after rounds 2, 4 and 6 (bonus stations, then the
trains), the points of a train and of Game End cards, the final scoring and the ranking."""

from __future__ import annotations

from rules.errors import IllegalAction
from rules.firstclass import cards as C
from rules.firstclass.board import (
    MAIL,
    Position,
    add_points,
    coins,
    player,
    route,
    score,
    scoring_state,
    tile_value,
)
from rules.firstclass.draft import deal_round, refill_display
from rules.firstclass.effects import describe_effects
from rules.firstclass.events import Event, ev, seat_name
from rules.firstclass.ops import expand
from rules.protocol import FinalScore


def train_points(g: Position, seat: int, train: str) -> int:
    """Points a train scores now: cars up to the conductor, and the tile if the conductor is on it."""
    pl = player(g, seat)
    cond = pl.cond[train]
    cars = pl.trains[train]
    pts = sum(v for v in cars[:cond] if v != MAIL)
    tile = pl.tiles[train]
    if tile is not None and cond == len(cars) + 1:
        pts += tile_value(g, tile)
    return int(pts)


def unclaimed_bonus_stations(g: Position, seat: int) -> list[int]:
    """Bonus stations the locomotive has reached that have not paid out in this scoring phase."""
    claimed = set(g.s.scoring.claimed) if g.s.scoring else set()
    reached = player(g, seat).loco
    return [
        i
        for i, st in enumerate(route(g, seat), start=1)
        if st.kind == "B" and i <= reached and i not in claimed
    ]


def game_end_points(g: Position, seat: int) -> int:
    """Sum over types: base (X) Action cards of that type chosen x points on your Game End cards of it."""
    pl = player(g, seat)
    total = 0
    for t in C.GAME_END_TYPES:
        mult = sum(g.deck.game_end[gid].points for gid in pl.ge_cards if g.deck.game_end[gid].type == t)
        if not mult:
            continue
        if g.config["game_end_typing"] == "printed":
            n = sum(
                1
                for cid in pl.completed
                if g.deck.cards[cid].set == "X" and g.deck.cards[cid].game_end_type == t
            )
        else:
            n = sum(1 for cid in pl.completed if g.deck.cards[cid].set == "X" and g.deck.cards[cid].kind == t)
        total += n * mult
    return total


def do_bonus(g: Position, seat: int, i: int) -> list[Event]:
    stations = route(g, seat)
    pl = player(g, seat)
    if not 1 <= i <= len(stations) or stations[i - 1].kind != "B":
        raise IllegalAction("no_bonus_station", f"Station {i} of your route is not a bonus station.")
    if i > pl.loco:
        raise IllegalAction("not_reached", f"Your locomotive has not reached station {i} yet.")
    if i in scoring_state(g).claimed:
        raise IllegalAction(
            "already_claimed",
            f"Station {i} already gave its bonus in this scoring phase "
            "(each bonus station pays once per scoring phase).",
        )
    scoring_state(g).claimed.append(i)
    pl.bonus += expand(stations[i - 1].effects, f"bonus station {i}")
    return [
        ev(
            "bonus",
            f"{seat_name(seat)} receives bonus station {i}: {describe_effects(stations[i - 1].effects)}.",
            seat=seat,
            station=i,
            effects=stations[i - 1].effects,
        )
    ]


def do_done(g: Position, seat: int) -> list[Event]:
    """A seat's scoring step ends: its trains score, and the next seat (or round, or the end) follows."""
    s = g.s
    waiting = unclaimed_bonus_stations(g, seat)
    if waiting:
        raise IllegalAction(
            "bonuses_waiting",
            "Receive your bonus stations first ("
            + ", ".join(f"bonus {i}" for i in waiting)
            + "); skip the symbols you do not want: "
            "you score points only after every bonus has been received (rule: Scoring Phase).",
        )
    up, low = train_points(g, seat, "upper"), train_points(g, seat, "lower")
    add_points(g, seat, up + low, "trains")
    events = [
        ev(
            "train_scoring",
            f"{seat_name(seat)} scores {up} for the upper train and {low} for the lower train.",
            seat=seat,
            points=up + low,
            upper=up,
            lower=low,
        )
    ]
    events += refill_display(g)
    sc = scoring_state(g)
    sc.index += 1
    sc.claimed = []
    if sc.index < g.players:
        return events
    s.scoring = None
    if s.round == 6:
        return events + final_scoring(g)
    s.round += 1
    s.phase = "play"
    deal_round(g)
    s.active = s.start_player
    events.append(
        ev(
            "round_start",
            f"Round {s.round}: 18 Action cards from pile {(s.round + 1) // 2}.",
            round=s.round,
            pile=(s.round + 1) // 2,
        )
    )
    return events


def final_scoring(g: Position) -> list[Event]:
    events: list[Event] = []
    for seat in range(g.players):
        pl = player(g, seat)
        pl.contracts = []  # unfulfilled contracts are worth nothing
        left = coins(g, seat)
        add_points(g, seat, left, "coins_left")
        ge = game_end_points(g, seat)
        add_points(g, seat, ge, "game_end_cards")
        events.append(
            ev(
                "final",
                f"{seat_name(seat)} scores {left} for coins and {ge} for Game End cards: "
                f"{score(g, seat)} in total.",
                seat=seat,
                coins=left,
                game_end=ge,
                total=score(g, seat),
            )
        )
    g.s.phase = "over"
    final = ranking(g)
    g.s.final = [dict(r) for r in final]
    winners = [r["seat"] for r in final if r.get("winner")]
    events.append(ev("game_over", "The game is over.", winners=winners))
    events += [
        ev("winner", f"{seat_name(w)} wins with {score(g, w)} points.", seat=w, total=score(g, w))
        for w in winners
    ]
    return events


def ranking(g: Position) -> list[FinalScore]:
    """Per seat: total, rank (ties share it), winner, and the points by category."""
    totals = [score(g, i) for i in range(g.players)]
    out: list[FinalScore] = []
    for i in range(g.players):
        rank = 1 + sum(1 for t in totals if t > totals[i])
        out.append(
            {
                "seat": i,
                "total": totals[i],
                "rank": rank,
                "winner": rank == 1,
                "breakdown": dict(player(g, i).points),
            }
        )
    return out
