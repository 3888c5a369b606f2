"""What a player may do on their own turn or scoring step besides the card: spend coins, buy a
Game End card, fulfil a contract - the options and carrying them out."""

from __future__ import annotations

from itertools import combinations_with_replacement

from rules.errors import IllegalAction
from rules.firstclass import actions as A
from rules.firstclass.actions import Action
from rules.firstclass.board import (
    Position,
    add_points,
    can_lengthen,
    coins,
    free_time,
    legal_upgrades,
    player,
    positions,
    requirement_met,
    route,
    upgrade_error,
)
from rules.firstclass.effects import TRAINS, describe_effects, describe_requirement
from rules.firstclass.events import Event, ev, seat_name
from rules.firstclass.ops import add_car, expand, move_conductor, move_loco, take_ge, upgrade


def spend_options(g: Position, seat: int) -> list[Action]:
    pl = player(g, seat)
    c1, c2, c3 = pl.coins
    out: list[Action] = []
    if c1:
        out += [A.make("spend_car", t) for t in TRAINS if can_lengthen(g, seat, t)]
    if c2:
        out += [A.make("spend_move", t) for t in TRAINS if pl.cond[t] < positions(g, seat, t)]
        if pl.loco < len(route(g, seat)):
            out.append(A.make("spend_move", "loco"))
    if c3:
        out += [A.make("spend_up", t, p) for t, p in legal_upgrades(g, seat)]
    out += [A.make("spend_point", i + 1) for i in range(3) if pl.coins[i]]
    return out


def buy_options(g: Position, seat: int) -> list[Action]:
    if coins(g, seat) < 4 or not g.s.ge_display:
        return []
    pl = player(g, seat)
    combos = [
        c
        for c in combinations_with_replacement((1, 2, 3), 4)
        if all(c.count(col) <= pl.coins[col - 1] for col in (1, 2, 3))
    ]
    return [A.make("buy", gid, *c) for gid in g.s.ge_display for c in combos]


def fulfil_options(g: Position, seat: int) -> list[Action]:
    return [A.make("fulfil", cid) for cid in player(g, seat).contracts if requirement_met(g, seat, cid)]


def do_spend(g: Position, seat: int, a: Action) -> list[Event]:
    if not free_time(g, seat):
        raise IllegalAction(
            "not_your_turn", "Coins are spent only on your own turn or in your scoring phase."
        )
    pl = player(g, seat)
    board = pl.coins
    col = {"spend_car": 0, "spend_move": 1, "spend_up": 2}.get(a.kind)
    if a.kind == "spend_point":
        c = a.int_arg(0)
        if not 1 <= c <= 3 or board[c - 1] == 0:
            raise IllegalAction("no_coin", f"You have no coin in column {c} to pay for 1 point.")
        board[c - 1] -= 1
        add_points(g, seat, 1, "coin_points")
        return [ev("spend", f"{seat_name(seat)} pays a coin for 1 point.", seat=seat)]
    assert col is not None
    if board[col] == 0:
        what = ["take a 0-value car", "move a conductor or the locomotive", "upgrade a car"][col]
        raise IllegalAction(
            "no_coin",
            f"To {what} you pay a coin from column {col + 1}, and it is empty (rule: how do you spend coins).",
        )
    if a.kind == "spend_car":
        t = a.args[0]
        if not can_lengthen(g, seat, t):
            raise IllegalAction(
                "train_complete", f"The {t} train cannot be lengthened after its Locomotive tile."
            )
        board[0] -= 1
        return add_car(g, seat, t, "coin")
    if a.kind == "spend_move":
        t = a.args[0]
        if t == "loco":
            if pl.loco >= len(route(g, seat)):
                raise IllegalAction("route_end", "Your locomotive is at the end of your route.")
            board[1] -= 1
            return move_loco(g, seat, 1)
        if pl.cond[t] >= positions(g, seat, t):
            raise IllegalAction("train_end", f"Your {t} conductor already stands on the last car.")
        board[1] -= 1
        return move_conductor(g, seat, t, 1)
    t, pos = a.args[0], a.int_arg(1)
    err = upgrade_error(g, seat, t, pos)
    if err:
        raise IllegalAction("bad_upgrade", f"You cannot upgrade that car: {err}.")
    board[2] -= 1
    return upgrade(g, seat, t, pos, "coin")


def do_buy(g: Position, seat: int, a: Action) -> list[Event]:
    if not free_time(g, seat):
        raise IllegalAction("not_your_turn", "Game End cards are bought on your own turn.")
    gid = a.args[0]
    if gid not in g.s.ge_display:
        raise IllegalAction("not_on_offer", f"{gid} is not among the face-up Game End cards.")
    cols = [a.int_arg(i) for i in range(1, 5)]
    board = player(g, seat).coins
    for c in (1, 2, 3):
        if cols.count(c) > (board[c - 1] if 1 <= c <= 3 else 0):
            raise IllegalAction(
                "no_coin",
                f"You do not have {cols.count(c)} coin(s) in column {c}; a Game End "
                "card costs 4 coins from any columns.",
            )
    if any(not 1 <= c <= 3 for c in cols):
        raise IllegalAction("malformed_action", "Coin columns are 1, 2 and 3.")
    for c in cols:
        board[c - 1] -= 1
    return take_ge(g, seat, gid, bought=True)


def do_fulfil(g: Position, seat: int, cid: str) -> list[Event]:
    if not free_time(g, seat):
        raise IllegalAction("not_your_turn", "Contracts are fulfilled on your turn or in your scoring phase.")
    pl = player(g, seat)
    if cid not in pl.contracts:
        raise IllegalAction("no_contract", f"{cid} is not one of your open contracts.")
    card = g.deck.cards[cid]
    if not requirement_met(g, seat, cid):
        raise IllegalAction(
            "contract_not_met",
            f"Contract {cid} needs {describe_requirement(card.requirement)}; "
            "you do not meet it yet (rule: The Contracts).",
        )
    pl.contracts.remove(cid)
    pl.completed.append(cid)
    pl.bonus += expand(card.bonus, f"contract {cid}")
    return [
        ev(
            "fulfil",
            f"{seat_name(seat)} fulfils contract {cid} and gets {describe_effects(card.bonus)}.",
            seat=seat,
            card=cid,
            effects=card.bonus,
        )
    ]
