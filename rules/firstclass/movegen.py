"""Who acts in a First Class position, and every action they may take."""

from __future__ import annotations

from rules.firstclass import actions as A
from rules.firstclass.actions import Action
from rules.firstclass.board import Position, free_time, head, player, route, scoring_state
from rules.firstclass.ops import OPS, coin_blocked, group_options, skippable
from rules.firstclass.spend import buy_options, fulfil_options, spend_options


def is_over(g: Position) -> bool:
    return bool(g.s.phase == "over")


def seats_to_act(g: Position) -> list[int]:
    s = g.s
    if s.phase == "over":
        return []
    if s.phase == "draft":
        return [s.draft.order[s.draft.index]]
    active = s.active if s.phase == "play" else scoring_state(g).order[scoring_state(g).index]
    if head(g, active) is not None:
        return [active]
    for i in range(1, g.players):
        other = (active + i) % g.players
        if head(g, other) is not None:
            return [other]
    return [active]


def legal_actions(g: Position, seat: int) -> list[Action]:
    if seat not in seats_to_act(g):
        return []
    s = g.s
    if s.phase == "draft":
        # by position in the hand: the action log must not reveal which card was kept
        return [A.make("draft", i) for i in range(1, len(s.draft.hand) + 1)]
    h = head(g, seat)
    out: list[Action] = []
    if h is not None:
        out += group_options(g, seat)
        skipped = skippable(g, seat)
        if skipped is not None and not OPS[skipped.op].forced:
            out.append(A.make("skip"))
        if coin_blocked(g, seat) and free_time(g, seat):
            out += spend_options(g, seat)
            if s.phase == "play" or g.config["buy_game_end_in_scoring"]:
                out += buy_options(g, seat)
        return out
    if s.phase == "play":
        if not s.taken:
            for row in s.rows:
                for cid in row:
                    if cid is not None:
                        out.append(A.make("take", cid))
                        out.append(A.make("forgo", cid))
            if s.sp_taken_by is None:
                out.append(A.make("start"))
        else:
            out.append(A.make("end"))
        out += spend_options(g, seat) + buy_options(g, seat) + fulfil_options(g, seat)
        return out
    # scoring phase
    claimed = set(scoring_state(g).claimed)
    pl = player(g, seat)
    for i, st in enumerate(route(g, seat), start=1):
        if i <= pl.loco and st.kind == "B" and i not in claimed:
            out.append(A.make("bonus", i))
    bonuses_waiting = bool(out)
    out += spend_options(g, seat) + fulfil_options(g, seat)
    if g.config["buy_game_end_in_scoring"]:
        out += buy_options(g, seat)
    if not bonuses_waiting:
        # "You score points only after every bonus has been received": a bonus is declined
        # symbol by symbol (skip), never by scoring first.
        out.append(A.make("done"))
    return out
