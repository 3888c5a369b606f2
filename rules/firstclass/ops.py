"""The effect ops of First Class: ONE table, an :class:`Op` per symbol kind, that knows how to queue
the symbol from a card's text, list its answers, refuse a wrong answer, carry it out and word it.

Symbols with no decision (``cond2``, ``loco``, ``points``, and coins that fit) are carried out
automatically by :func:`settle`; the others wait for their player's answer (:func:`answer`), and
any of them may be skipped. ``upone`` (a forgone card's upgrade) and ``mail`` (the 5th car's mail
car) are queued by the engine, never printed on a card.

The board changes every op ends in (a car added, a car upgraded, a conductor or the locomotive
moved, coins gained, a Game End card taken) are here too: spending coins makes the same changes.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum

from rules.errors import IllegalAction
from rules.firstclass import actions as A
from rules.firstclass.actions import Action
from rules.firstclass.board import (
    COIN_COLUMNS,
    MAIL,
    EngineLoopError,
    Position,
    add_points,
    can_lengthen,
    coin_room,
    group,
    legal_upgrades,
    player,
    positions,
    push_front,
    queue,
    remove_item,
    route,
    upgrade_error,
)
from rules.firstclass.effects import NEXT_STEP, TRAINS, Term, describe_effects, effects_to_text, parse_effects
from rules.firstclass.events import Event, ev, public_src, seat_name
from rules.firstclass.state import Symbol

CONSTANTINOPLE = (20, 10, 5)
# Bounds on the engine's own loops: reaching one is an engine error (EngineLoopError), never a hang.
SETTLE_LIMIT = 500


# --- board changes ------------------------------------------------------------------------------


def gain_coins(g: Position, seat: int, n: int, src: str) -> list[Event]:
    coins = player(g, seat).coins
    for _ in range(n):
        # lowest, leftmost empty space: fill column 1, then 2, then 3
        col = next(i for i in range(3) if coins[i] < COIN_COLUMNS[i])
        coins[col] += 1
    return [
        ev(
            "coins",
            f"{seat_name(seat)} gains {n} coin{'s' if n != 1 else ''} ({public_src(src)}).",
            seat=seat,
            n=n,
            src=public_src(src),
        )
    ]


def add_car(g: Position, seat: int, train: str, src: str) -> list[Event]:
    pl = player(g, seat)
    cars = pl.trains[train]
    cars.append(0)
    events = [
        ev(
            "car",
            f"{seat_name(seat)} adds a 0-value car to the right end of the {train} train ({public_src(src)}).",
            seat=seat,
            train=train,
            src=public_src(src),
        )
    ]
    if len(cars) == 5 and pl.mails_used[train] is None:
        push_front(g, seat, Symbol("mail", f"5th car of the {train} train", train=train))
    elif len(cars) == 9 and pl.tiles[train] is None and g.s.tiles_left:
        order = g.s.tiles_left.pop(0)
        pl.tiles[train] = order
        tile = next(t for t in g.deck.tiles if t.order == order)
        ups = tile.upgrades[g.players - 2]
        pl.bonus += [Symbol("upany", f"Locomotive tile {tile.value}") for _ in range(ups)]
        events.append(
            ev(
                "locomotive_tile",
                f"{seat_name(seat)} gets Locomotive tile {tile.value} as the 10th card "
                f"of the {train} train (its 9th car brings it): {ups} upgrade(s) of choice, and the train "
                "cannot be lengthened any more.",
                seat=seat,
                train=train,
                value=tile.value,
                upgrades=ups,
            )
        )
    return events


def add_mail(g: Position, seat: int, train: str, slot: int) -> list[Event]:
    pl = player(g, seat)
    pl.mails_left.remove(slot)
    pl.mails_used[train] = slot
    pl.trains[train].append(MAIL)
    bonus = g.deck.mails[slot].bonus
    pl.bonus += expand(bonus, f"mail car {slot}")
    return [
        ev(
            "mail",
            f"{seat_name(seat)} adds mail car {slot} as the 6th car of the {train} train and gets "
            f"its bonus: {describe_effects(bonus)}.",
            seat=seat,
            train=train,
            slot=slot,
            effects=bonus,
        )
    ]


def upgrade(g: Position, seat: int, train: str, pos: int, src: str) -> list[Event]:
    cars = player(g, seat).trains[train]
    old = cars[pos - 1]
    cars[pos - 1] = NEXT_STEP[old]
    return [
        ev(
            "upgrade",
            f"{seat_name(seat)} upgrades car {pos} of the {train} train from {old} to "
            f"{cars[pos - 1]} ({public_src(src)}).",
            seat=seat,
            train=train,
            car=pos,
            old=old,
            new=cars[pos - 1],
            src=public_src(src),
        )
    ]


def move_conductor(g: Position, seat: int, train: str, k: int) -> list[Event]:
    pl = player(g, seat)
    end = positions(g, seat, train)
    old = pl.cond[train]
    new = min(old + k, end)
    if new == old:
        return []
    pl.cond[train] = new
    events = [
        ev(
            "conductor",
            f"{seat_name(seat)} moves the {train} conductor to space {new}"
            + (f" ({old + k - new} movement lost)." if old + k > new else "."),
            seat=seat,
            train=train,
            space=new,
            lost=old + k - new,
        )
    ]
    if pl.tiles[train] is not None and new == end:
        arrivals = g.s.constantinople
        rank = len(arrivals)
        arrivals.append([seat, train])
        if rank < len(CONSTANTINOPLE):
            pts = CONSTANTINOPLE[rank]
            add_points(g, seat, pts, "constantinople")
            events.append(
                ev(
                    "constantinople",
                    f"{seat_name(seat)} brings the {train} conductor to the Locomotive "
                    f"tile: Constantinople bonus {pts} points (arrival {rank + 1}).",
                    seat=seat,
                    points=pts,
                    train=train,
                    arrival=rank + 1,
                )
            )
    return events


def move_loco(g: Position, seat: int, k: int) -> list[Event]:
    pl = player(g, seat)
    stations = route(g, seat)
    old = pl.loco
    new = min(old + k, len(stations))
    if new == old:
        return [
            ev(
                "locomotive",
                f"{seat_name(seat)} cannot move the locomotive: it is at the end of the route; the "
                "movement is lost.",
                seat=seat,
                station=old,
                lost=k,
                moved=False,
            )
        ]
    pl.loco = new
    events = [
        ev(
            "locomotive",
            f"{seat_name(seat)} moves the locomotive to station {new}"
            + (f" ({old + k - new} movement lost)." if old + k > new else "."),
            seat=seat,
            station=new,
            lost=old + k - new,
            moved=True,
        )
    ]
    for i in range(old + 1, new + 1):
        st = stations[i - 1]
        if st.kind == "P":
            add_points(g, seat, st.points, "route_stations")
            events.append(
                ev(
                    "station_points",
                    f"{seat_name(seat)} reaches points station {i}: {st.points} points.",
                    seat=seat,
                    points=st.points,
                    station=i,
                )
            )
        else:
            events.append(
                ev(
                    "station_bonus",
                    f"{seat_name(seat)} reaches bonus station {i} "
                    f"({describe_effects(st.effects)}); it pays out in every later scoring phase.",
                    seat=seat,
                    station=i,
                    effects=st.effects,
                )
            )
    return events


def take_ge(g: Position, seat: int, gid: str, bought: bool) -> list[Event]:
    g.s.ge_display.remove(gid)
    pl = player(g, seat)
    pl.ge_cards.append(gid)
    card = g.deck.game_end[gid]
    pl.bonus += expand(card.bonus, f"Game End card {gid}")
    how = "buys" if bought else "takes"
    # Which card it was stays hidden until the end (it goes to the face-down pile): everyone reads
    # that a card was taken; only the player reads which one and its bonus.
    return [
        ev(
            "game_end_card",
            f"{seat_name(seat)} {how} a Game End card and gets its one-time bonus.",
            seat=seat,
            bought=bought,
        ),
        ev(
            "game_end_card",
            f"{seat_name(seat)} {how} Game End card {gid} ({card.type} x{card.points}) and gets "
            f"its one-time bonus: {describe_effects(card.bonus)}.",
            visible_to=[seat],
            seat=seat,
            card=gid,
            bought=bought,
            ge_type=card.type,
            points=card.points,
            effects=card.bonus,
        ),
    ]


# --- the table ----------------------------------------------------------------------------------


class Timing(Enum):
    """When :func:`settle` carries a symbol out by itself."""

    NOW = "now"  # no decision: carried out at once
    HELD = "held"  # no decision, but held back while carrying it out now could lose something
    DECIDE = "decide"  # its player decides (or, for coins that do not fit, makes room or skips)


Options = Callable[[Position, int, Symbol], list[Action]]
Answer = Callable[[Position, int, Symbol, Action, list[Symbol]], list[Event]]
Run = Callable[[Position, int, Symbol], list[Event]]
Refuse = Callable[[Position, int, Symbol, Action], str | None]
When = Callable[[Position, int, Symbol, list[Symbol]], Timing]
Expand = Callable[[Term, str], list[Symbol]]


@dataclass(frozen=True)
class Op:
    """One symbol kind.

    ``auto``: never needs a decision (carried out by :func:`settle`, never skipped). ``rank``:
    among several symbols of a group that accept the same answer, the least capable (lowest) takes
    it, so the more flexible ones stay; None for symbols no action answers. ``options`` lists the
    answers, ``answer`` carries one out (``queue`` is the queue the symbol was in), ``run`` carries
    an automatic symbol out, ``when`` says whether :func:`settle` runs it now, ``refuse`` explains
    why an action does not answer it (None: no reason of its own), ``wanted`` names the answers it
    takes, ``describe`` words it for the list of waiting symbols, ``expand`` queues it from a card's
    term, and ``may_lengthen`` says whether answering it could add a car to a train. ``forced``: it
    may not be skipped. ``must_fit``: it is carried out only in full (coins must all fit at once), so
    it waits while its player makes room."""

    auto: bool
    rank: int | None
    options: Options
    answer: Answer
    run: Run
    when: When
    refuse: Refuse
    wanted: Callable[[Symbol], str]
    describe: Callable[[Symbol], str]
    expand: Expand
    may_lengthen: bool = False
    forced: bool = False
    must_fit: bool = False


# Options


def _car_options(g: Position, seat: int, item: Symbol) -> list[Action]:
    return [A.make("car", t) for t in TRAINS if can_lengthen(g, seat, t)]


def _fixed_up_options(g: Position, seat: int, item: Symbol) -> list[Action]:
    return [A.make("up", t, p) for t, p in legal_upgrades(g, seat, item.a)]


def _upone_options(g: Position, seat: int, item: Symbol) -> list[Action]:
    return [A.make("up", t, p) for t, p in legal_upgrades(g, seat)]


def _upany_options(g: Position, seat: int, item: Symbol) -> list[Action]:
    return _upone_options(g, seat, item) + _car_options(g, seat, item)


def _cond1_options(g: Position, seat: int, item: Symbol) -> list[Action]:
    pl = player(g, seat)
    return [A.make("cond", t) for t in TRAINS if pl.cond[t] < positions(g, seat, t)]


def _ge_options(g: Position, seat: int, item: Symbol) -> list[Action]:
    return [A.make("ge", gid) for gid in g.s.ge_display]


def _choice_options(g: Position, seat: int, item: Symbol) -> list[Action]:
    return [A.make("choose", i) for i in range(1, len(item.options) + 1)]


def _mail_options(g: Position, seat: int, item: Symbol) -> list[Action]:
    return [A.make("mail", m) for m in player(g, seat).mails_left]


def _no_options(g: Position, seat: int, item: Symbol) -> list[Action]:
    return []  # automatic, or a coin item that does not fit: spend first or skip


# Answers


def _wrong(g: Position, seat: int, item: Symbol, a: Action, queue: list[Symbol]) -> list[Event]:
    raise IllegalAction("wrong_choice", why_not(g, seat, item, a))


def _answer_car(g: Position, seat: int, item: Symbol, a: Action, queue: list[Symbol]) -> list[Event]:
    if a.kind != "car":
        return _wrong(g, seat, item, a, queue)
    return add_car(g, seat, a.args[0], item.src)


def _answer_up(g: Position, seat: int, item: Symbol, a: Action, queue: list[Symbol]) -> list[Event]:
    if a.kind != "up":
        return _wrong(g, seat, item, a, queue)
    return upgrade(g, seat, a.args[0], a.int_arg(1), item.src)


def _answer_upany(g: Position, seat: int, item: Symbol, a: Action, queue: list[Symbol]) -> list[Event]:
    if a.kind == "car":
        return _answer_car(g, seat, item, a, queue)
    return _answer_up(g, seat, item, a, queue)


def _answer_cond1(g: Position, seat: int, item: Symbol, a: Action, queue: list[Symbol]) -> list[Event]:
    if a.kind != "cond":
        return _wrong(g, seat, item, a, queue)
    return move_conductor(g, seat, a.args[0], 1)


def _answer_choice(g: Position, seat: int, item: Symbol, a: Action, queue: list[Symbol]) -> list[Event]:
    if a.kind != "choose":
        return _wrong(g, seat, item, a, queue)
    chosen = item.options[a.int_arg(0) - 1]
    for i, new in enumerate(expand(chosen, item.src)):  # the chosen option's symbols join the group
        queue.insert(i, new)
    return [ev("choose", f"{seat_name(seat)} chooses {describe_effects(chosen)}.", seat=seat, effects=chosen)]


def _answer_mail(g: Position, seat: int, item: Symbol, a: Action, queue: list[Symbol]) -> list[Event]:
    if a.kind != "mail":
        return _wrong(g, seat, item, a, queue)
    return add_mail(g, seat, item.train, a.int_arg(0))


def _answer_ge(g: Position, seat: int, item: Symbol, a: Action, queue: list[Symbol]) -> list[Event]:
    if a.kind != "ge":
        return _wrong(g, seat, item, a, queue)
    return take_ge(g, seat, a.args[0], bought=False)


# Automatic runs


def _run_cond2(g: Position, seat: int, item: Symbol) -> list[Event]:
    return move_conductor(g, seat, "upper", item.n) + move_conductor(g, seat, "lower", item.n)


def _run_loco(g: Position, seat: int, item: Symbol) -> list[Event]:
    return move_loco(g, seat, item.n)


def _run_coin(g: Position, seat: int, item: Symbol) -> list[Event]:
    return gain_coins(g, seat, item.n, item.src)


def _run_points(g: Position, seat: int, item: Symbol) -> list[Event]:
    add_points(g, seat, item.n, "card_points")
    return [
        ev(
            "points",
            f"{seat_name(seat)} scores {item.n} points ({public_src(item.src)}).",
            seat=seat,
            points=item.n,
            src=public_src(item.src),
        )
    ]


def _not_automatic(g: Position, seat: int, item: Symbol) -> list[Event]:
    raise EngineLoopError(f"symbol {item.op!r} needs a decision; it cannot be carried out by itself")


# Timing


def _now(g: Position, seat: int, item: Symbol, group: list[Symbol]) -> Timing:
    return Timing.NOW


def _decide(g: Position, seat: int, item: Symbol, group: list[Symbol]) -> Timing:
    return Timing.DECIDE


def _coin_when(g: Position, seat: int, item: Symbol, group: list[Symbol]) -> Timing:
    return Timing.NOW if item.n <= coin_room(g, seat) else Timing.DECIDE


def _cond2_when(g: Position, seat: int, item: Symbol, group: list[Symbol]) -> Timing:
    """Both conductors moving is held back while it would lose movement and another symbol of the
    group could still lengthen a train: moving later never reaches less (a train only grows within
    a turn, and no one else moves in between), so this order is never worse."""
    pl = player(g, seat)
    loses = any(pl.cond[t] + item.n > positions(g, seat, t) for t in TRAINS)
    return Timing.HELD if loses and _may_lengthen(g, seat, group) else Timing.NOW


def _may_lengthen(g: Position, seat: int, group: list[Symbol]) -> bool:
    """Whether a symbol of the group could still add a car to a train (a choice may hold one)."""
    if not any(can_lengthen(g, seat, t) for t in TRAINS):
        return False
    return any(OPS[it.op].may_lengthen for it in group)


# Refusals


def _refuse_none(g: Position, seat: int, item: Symbol, a: Action) -> str | None:
    return None


def _refuse_upgrade(g: Position, seat: int, item: Symbol, a: Action) -> str | None:
    if a.kind != "up":
        return None
    err = upgrade_error(g, seat, a.args[0], a.int_arg(1))
    if err:
        return f"You cannot upgrade that car: {err}."
    return None


def _refuse_fixed_up(g: Position, seat: int, item: Symbol, a: Action) -> str | None:
    if a.kind != "up":
        return None
    return (
        _refuse_upgrade(g, seat, item, a)
        or f"This symbol upgrades a {item.a}-value car to {NEXT_STEP[item.a]}, one step only."
    )


def _refuse_car(g: Position, seat: int, item: Symbol, a: Action) -> str | None:
    if a.kind != "car":
        return None
    return (
        f"The {a.args[0]} train cannot be lengthened: it ends with a Locomotive tile "
        "(rule: no lengthening after the Locomotive tile)."
    )


def _refuse_upany(g: Position, seat: int, item: Symbol, a: Action) -> str | None:
    return _refuse_upgrade(g, seat, item, a) or _refuse_car(g, seat, item, a)


def _refuse_cond1(g: Position, seat: int, item: Symbol, a: Action) -> str | None:
    if a.kind != "cond":
        return None
    return f"The {a.args[0]} conductor already stands on the last car; unused movement is lost."


def _says(text: str) -> Callable[[Symbol], str]:
    return lambda item: text


# Queueing from a card's term


def _one_each(t: Term, src: str) -> list[Symbol]:
    """One symbol per unit: each is its own decision."""
    return [Symbol(t.op, src) for _ in range(t.n)]


def _counted(t: Term, src: str) -> list[Symbol]:
    return [Symbol(t.op, src, n=t.n)]


def _fixed_up(t: Term, src: str) -> list[Symbol]:
    return [Symbol("up", src, a=t.a)]


def _choice(t: Term, src: str) -> list[Symbol]:
    return [Symbol("choice", src, options=tuple(effects_to_text(o) for o in t.options))]


def _one(item: Symbol) -> str:
    return describe_effects(f"{item.op}(1)")


def _counted_words(item: Symbol) -> str:
    return describe_effects(f"{item.op}({item.n})")


OPS: dict[str, Op] = {
    "car": Op(
        auto=False,
        rank=0,
        options=_car_options,
        answer=_answer_car,
        run=_not_automatic,
        when=_decide,
        refuse=_refuse_car,
        wanted=_says("car upper|lower"),
        describe=_one,
        expand=_one_each,
        may_lengthen=True,
    ),
    "up": Op(
        auto=False,
        rank=0,
        options=_fixed_up_options,
        answer=_answer_up,
        run=_not_automatic,
        when=_decide,
        refuse=_refuse_fixed_up,
        wanted=lambda item: f"up <train> <pos> for a {item.a}-value car",
        describe=lambda item: f"upgrade a {item.a} to {NEXT_STEP[item.a]}",
        expand=_fixed_up,
    ),
    "upone": Op(
        auto=False,
        rank=1,
        options=_upone_options,
        answer=_answer_up,
        run=_not_automatic,
        when=_decide,
        refuse=_refuse_upgrade,
        wanted=_says("up <train> <pos>"),
        describe=_says("1 upgrade (forgone card)"),
        expand=_one_each,
    ),
    "upany": Op(
        auto=False,
        rank=2,
        options=_upany_options,
        answer=_answer_upany,
        run=_not_automatic,
        when=_decide,
        refuse=_refuse_upany,
        wanted=_says("up <train> <pos> or car <train>"),
        describe=_one,
        expand=_one_each,
        may_lengthen=True,
    ),
    "cond1": Op(
        auto=False,
        rank=0,
        options=_cond1_options,
        answer=_answer_cond1,
        run=_not_automatic,
        when=_decide,
        refuse=_refuse_cond1,
        wanted=_says("cond upper|lower"),
        describe=_one,
        expand=_one_each,
    ),
    "cond2": Op(
        auto=True,
        rank=None,
        options=_no_options,
        answer=_wrong,
        run=_run_cond2,
        when=_cond2_when,
        refuse=_refuse_none,
        wanted=_says("skip"),
        describe=_counted_words,
        expand=_counted,
    ),
    "loco": Op(
        auto=True,
        rank=None,
        options=_no_options,
        answer=_wrong,
        run=_run_loco,
        when=_now,
        refuse=_refuse_none,
        wanted=_says("skip"),
        describe=_counted_words,
        expand=_counted,
    ),
    "points": Op(
        auto=True,
        rank=None,
        options=_no_options,
        answer=_wrong,
        run=_run_points,
        when=_now,
        refuse=_refuse_none,
        wanted=_says("skip"),
        describe=_counted_words,
        expand=_counted,
    ),
    "coin": Op(
        auto=False,
        rank=None,
        options=_no_options,
        answer=_wrong,
        run=_run_coin,
        when=_coin_when,
        refuse=_refuse_none,
        wanted=_says("spend coins first to make room, or skip"),
        describe=_counted_words,
        expand=_counted,
        must_fit=True,
    ),
    "ge": Op(
        auto=False,
        rank=0,
        options=_ge_options,
        answer=_answer_ge,
        run=_not_automatic,
        when=_decide,
        refuse=_refuse_none,
        wanted=_says("ge <id> of a face-up Game End card"),
        describe=_one,
        expand=_one_each,
    ),
    "choice": Op(
        auto=False,
        rank=0,
        options=_choice_options,
        answer=_answer_choice,
        run=_not_automatic,
        when=_decide,
        refuse=_refuse_none,
        wanted=_says("choose <n>"),
        describe=lambda item: "choose: " + " or ".join(describe_effects(o) for o in item.options),
        expand=_choice,
        may_lengthen=True,
    ),
    "mail": Op(
        auto=False,
        rank=0,
        options=_mail_options,
        answer=_answer_mail,
        run=_not_automatic,
        when=_decide,
        refuse=_refuse_none,
        wanted=_says("mail <slot>"),
        describe=lambda item: f"a mail car for the {item.train} train",
        expand=_one_each,
        forced=True,
    ),
}


# --- using the table ----------------------------------------------------------------------------


def expand(text: str, src: str) -> list[Symbol]:
    """Turn an effect sequence into queued symbols, one per decision."""
    items: list[Symbol] = []
    for t in parse_effects(text):
        items += OPS[t.op].expand(t, src)
    return items


def describe_item(item: Symbol) -> str:
    """Plain words for one queued symbol (for the list of symbols still to answer, in any order)."""
    return OPS[item.op].describe(item)


def item_options(g: Position, seat: int, item: Symbol) -> list[Action]:
    return OPS[item.op].options(g, seat, item)


def group_options(g: Position, seat: int) -> list[Action]:
    """Every answer to a symbol of the current group (each symbol may be answered first)."""
    out: list[Action] = []
    seen_choice = False
    for item in group(g, seat):
        if item.op == "choice":
            if seen_choice:
                continue  # `choose <n>` answers the first choice symbol of the group
            seen_choice = True
        for a in item_options(g, seat, item):
            if a not in out:
                out.append(a)
    return out


def answering_item(g: Position, seat: int, a: Action) -> Symbol | None:
    """The group symbol an answer is for: the least capable one that allows it, so that the more
    flexible symbols stay (a fixed ``up(a>b)`` before ``upone`` before ``upany``; ``car`` before
    ``upany``). Whatever the order of the answers, the player keeps every option."""
    candidates = [
        it for it in group(g, seat) if OPS[it.op].rank is not None and a in item_options(g, seat, it)
    ]
    if a.kind == "choose":
        first = next((it for it in group(g, seat) if it.op == "choice"), None)
        return first if first is not None and a in item_options(g, seat, first) else None
    if not candidates:
        return None
    return min(candidates, key=lambda it: _rank(it))


def _rank(item: Symbol) -> int:
    rank = OPS[item.op].rank
    return 0 if rank is None else rank


def skippable(g: Position, seat: int) -> Symbol | None:
    """The symbol ``skip`` declines: the first of the group that needs a decision (never a mail car)."""
    for it in group(g, seat):
        if not OPS[it.op].auto:
            return it
    return None


def coin_blocked(g: Position, seat: int) -> bool:
    """Whether coins of the current group do not fit (the player may spend coins to make room)."""
    room = coin_room(g, seat)
    return any(OPS[it.op].must_fit and it.n > room for it in group(g, seat))


def why_not(g: Position, seat: int, item: Symbol, a: Action) -> str:
    """Why ``a`` does not answer ``item``, in a sentence that names the answers it takes."""
    op = OPS[item.op]
    own = op.refuse(g, seat, item, a)
    if own:
        return own
    if a.kind == "ge":
        return f"{a.args[0]} is not a face-up Game End card."
    if a.kind == "mail":
        return f"Mail car {a.args[0]} is not among your remaining mail cars."
    if a.kind == "choose":
        return f"This choice has {len(item.options)} options."
    if a.kind.startswith("spend_"):
        return "Coins are spent before or after your card's actions, not in the middle (rule: how do you spend coins)."
    return f"A symbol is waiting ({item.src}): answer with {op.wanted(item)}."


def answer(g: Position, seat: int, head: Symbol, a: Action) -> list[Event]:
    """Carry out ``a`` as the answer to a symbol of the current group (or ``skip`` one)."""
    if a.kind == "skip":
        skipped = skippable(g, seat)
        if skipped is None or OPS[skipped.op].forced:
            raise IllegalAction(
                "mail_forced", "A mail car must be added as the 6th car (rule: Special Cards)."
            )
        remove_item(g, seat, skipped)
        return [
            ev(
                "skip",
                f"{seat_name(seat)} does not carry out one symbol ({public_src(skipped.src)}).",
                seat=seat,
                src=public_src(skipped.src),
            )
        ]
    item = answering_item(g, seat, a)
    if item is None:
        coin = next((it for it in group(g, seat) if OPS[it.op].must_fit), None)
        if coin is not None and not group_options(g, seat):
            raise IllegalAction(
                "coins_do_not_fit",
                f"{coin.n} coins do not fit on your coin board ({coin_room(g, seat)} free spaces): coins "
                "you receive must all be placed at once, so spend coins first to make room, or skip them "
                "(rule: How to Place Coins).",
            )
        raise IllegalAction("wrong_choice", why_not(g, seat, head, a))
    items = queue(g, seat)  # taken before the symbol leaves it: a choice's symbols join this queue
    remove_item(g, seat, item)
    return OPS[item.op].answer(g, seat, item, a, items)


def settle(g: Position, seat: int) -> list[Event]:
    """Carry out the symbols of the current group that need no decision, and drop those that can
    never be carried out.

    Automatic symbols (points, locomotive, coins that fit) give the same result in any order; an op
    may hold one back (see :class:`Timing`). A symbol without a target now is kept while another
    symbol of the group still has a target (it may create one: ``[12,4]`` with ``up(7>12); up(4>7)``
    ends as ``[12,12]``); it is lost only once no symbol of the group can be carried out. Bounded: a
    loop that does not end is an engine error, never a hang."""
    events: list[Event] = []
    for _ in range(SETTLE_LIMIT):
        current = group(g, seat)
        if not current:
            return events
        ran = False
        held = []
        for item in current:
            timing = OPS[item.op].when(g, seat, item, current)
            if timing is Timing.HELD:
                held.append(item)
                continue
            if timing is Timing.NOW:
                remove_item(g, seat, item)
                events += OPS[item.op].run(g, seat, item)
                ran = True
                break
        if ran:
            continue
        decisions = [it for it in current if not OPS[it.op].auto]
        if any(item_options(g, seat, it) for it in decisions) or any(OPS[it.op].must_fit for it in decisions):
            return events  # the player decides (or makes room for coins, or skips them)
        if held:
            remove_item(g, seat, held[0])
            events += OPS[held[0].op].run(g, seat, held[0])
            continue
        for item in decisions:
            remove_item(g, seat, item)
            events.append(
                ev(
                    "lost",
                    f"{seat_name(seat)} cannot carry out a symbol ({public_src(item.src)}); it is lost.",
                    seat=seat,
                    src=public_src(item.src),
                )
            )
    raise EngineLoopError(f"Seat {seat}'s symbols did not settle in {SETTLE_LIMIT} steps.")
