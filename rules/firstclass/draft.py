"""Setting a game up and playing its rounds: the shuffled piles, the Game End draft, the rows of
Action cards dealt each round, taking a card (or forgoing it, or the Start Player tile), and ending
turns and rounds. Scoring phases are :mod:`rules.firstclass.scoring`'s."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from rules.errors import IllegalAction
from rules.firstclass.board import CATEGORIES, Position, head, player
from rules.firstclass.deck import Deck
from rules.firstclass.effects import describe_effects, describe_requirement
from rules.firstclass.events import Event, ev, seat_name
from rules.firstclass.ops import expand
from rules.firstclass.settings import take_hook
from rules.firstclass.state import DraftState, GameState, PlayerState, ScoringState, Symbol


def new_player(conductor_start: int) -> PlayerState:
    return PlayerState(
        trains={"upper": [0], "lower": [0]},
        tiles={"upper": None, "lower": None},
        cond={"upper": conductor_start, "lower": conductor_start},
        loco=0,
        route_cards=[],
        coins=[1, 0, 0],
        mails_left=[1, 2, 3, 4],
        mails_used={"upper": None, "lower": None},
        contracts=[],
        completed=[],
        ge_cards=[],
        points={c: 0 for c in CATEGORIES},
        pending=[],
        bonus=[],
    )


def new_state(cfg: dict[str, Any], players: int, seed: int, deck: Deck) -> GameState:
    """The position before the Game End draft (the first round's rows are dealt by :func:`deal_round`)."""
    piles: dict[str, list[str]] = {}
    for pile in (1, 2, 3):
        ids = sorted(c.id for c in deck.cards.values() if c.pile == pile)
        random.Random(f"{seed}:pile{pile}").shuffle(ids)
        piles[str(pile)] = ids
    ge_pile = sorted(deck.game_end)
    random.Random(f"{seed}:game-end").shuffle(ge_pile)
    pidx = players - 2
    tiles = [t.order for t in deck.tiles if t.upgrades[pidx] > 0]
    sp = cfg["start_player"]
    hand_size = players + 1
    return GameState(
        phase="draft",
        round=1,
        start_player=sp,
        active=sp,
        turns_done=0,
        taken=False,
        rows=[],
        slots=[],
        row_removed=[0, 0, 0],
        row_cleared=[False, False, False],
        sp_taken_by=None,
        piles=piles,
        out_of_game=[],
        ge_pile=ge_pile[hand_size:],
        ge_display=[],
        draft=DraftState([(sp - 1 - i) % players for i in range(players)], 0, ge_pile[:hand_size]),
        constantinople=[],
        tiles_left=tiles,
        scoring=None,
        players=[new_player(cfg["conductor_start"]) for _ in range(players)],
        final=None,
        history=[],
    )


# --- setup draft --------------------------------------------------------------------------------


def do_draft(g: Position, seat: int, pos: int) -> list[Event]:
    d = g.s.draft
    if not 1 <= pos <= len(d.hand):
        raise IllegalAction(
            "not_in_hand",
            f"You were passed {len(d.hand)} Game End cards; keep one of them by its position (rule: setup step 9).",
        )
    gid = d.hand.pop(pos - 1)
    player(g, seat).ge_cards.append(gid)
    d.index += 1
    events = [ev("draft", f"{seat_name(seat)} keeps a Game End card face down.", seat=seat)]
    if d.index >= g.players:
        pile = g.s.ge_pile
        rng = random.Random(f"{g.seed}:game-end-return")
        for card in d.hand:
            pile.insert(rng.randrange(len(pile) + 1), card)
        d.hand = []
        g.s.ge_display = pile[:4]
        g.s.ge_pile = pile[4:]
        g.s.phase = "play"
        g.s.active = g.s.start_player
        events.append(
            ev(
                "setup",
                "The leftover Game End card is shuffled back and 4 Game End cards are laid "
                f"face up. Playing with {g.deck.label}.",
                deck=g.deck.label,
                sources=[[list(sets), path] for sets, path in g.deck.sources],
            )
        )
        events.append(
            ev(
                "first_round",
                f"{seat_name(g.s.start_player)} starts: Round 1 begins.",
                seat=g.s.start_player,
                round=1,
            )
        )
    return events


# --- rounds and the display ---------------------------------------------------------------------


def deal_round(g: Position) -> None:
    s = g.s
    pile = str((s.round + 1) // 2)
    cards = s.piles[pile][:18]
    s.piles[pile] = s.piles[pile][18:]
    if s.round % 2 == 0:
        s.out_of_game += s.piles[pile]  # the 4 left-over cards leave the game
        s.piles[pile] = []
    s.rows = [list[str | None](cards[i * 6 : (i + 1) * 6]) for i in range(3)]
    s.slots = [["available"] * 6 for _ in range(3)]
    s.row_removed = [0, 0, 0]
    s.row_cleared = [False, False, False]
    s.sp_taken_by = None
    s.turns_done = 0
    s.taken = False


def remove_from_row(g: Position, r: int, c: int, status: str) -> list[Event]:
    s = g.s
    s.rows[r][c] = None
    s.slots[r][c] = status
    s.row_removed[r] += 1
    if s.row_removed[r] >= g.players and not s.row_cleared[r]:
        s.row_cleared[r] = True
        gone = [cid for cid in s.rows[r] if cid is not None]
        for i, cid in enumerate(s.rows[r]):
            if cid is not None:
                s.slots[r][i] = "cleared"
                s.rows[r][i] = None
        s.out_of_game += gone
        return [
            ev(
                "row_cleared",
                f"Row {r + 1} is cleared: {g.players} cards were taken or removed from it"
                + (f", so {', '.join(gone)} leave the game." if gone else "."),
                row=r + 1,
                removed=g.players,
                cards=gone,
            )
        ]
    return []


def find(g: Position, cid: str) -> tuple[int, int] | None:
    for r, row in enumerate(g.s.rows):
        for c, x in enumerate(row):
            if x == cid:
                return r, c
    return None


def place_contract(g: Position, seat: int, cid: str) -> list[Event]:
    """Module A: a taken contract lies face up next to the board until it is fulfilled."""
    card = g.deck.cards[cid]
    player(g, seat).contracts.append(cid)
    return [
        ev(
            "contract",
            f"{seat_name(seat)} takes contract {cid}: {describe_requirement(card.requirement)}"
            f" -> {describe_effects(card.bonus)}.",
            seat=seat,
            card=cid,
            requirement=card.requirement,
            bonus=card.bonus,
        )
    ]


# Module rule hooks by name (see rules.firstclass.settings.Module.take_hooks).
TAKE_HOOKS: dict[str, Callable[[Position, int, str], list[Event]]] = {"place_contract": place_contract}


def do_take(g: Position, seat: int, cid: str, forgo: bool) -> list[Event]:
    where = find(g, cid)
    if where is None:
        raise IllegalAction(
            "card_unavailable",
            f"{cid} is not among the available Action cards (it was taken, "
            "removed, or its row was cleared: rule 'Clearing a Row').",
        )
    card = g.deck.cards[cid]
    pl = player(g, seat)
    g.s.taken = True
    events: list[Event] = []
    if forgo:
        pl.completed.append(cid)
        pl.pending.append(Symbol("upone", f"forgoing {cid}"))
        events.append(
            ev(
                "forgo",
                f"{seat_name(seat)} takes {cid} and forgoes its actions for one upgrade.",
                seat=seat,
                card=cid,
            )
        )
    elif card.kind == "route":
        pl.route_cards.append(cid)
        events.append(
            ev(
                "route",
                f"{seat_name(seat)} adds route card {cid} ({card.route_stations}) to the left end of the route.",
                seat=seat,
                card=cid,
                stations=card.route_stations,
            )
        )
    elif (hook := take_hook(g.config["modules"], card.kind)) is not None:
        events += TAKE_HOOKS[hook](g, seat, cid)
    else:
        pl.completed.append(cid)
        pl.pending += expand(card.effects, cid)
        events.append(
            ev(
                "take",
                f"{seat_name(seat)} takes {cid}: {describe_effects(card.effects)}.",
                seat=seat,
                card=cid,
                effects=card.effects,
            )
        )
    r, c = where
    return events + remove_from_row(g, r, c, f"taken:{seat}")


def do_start(g: Position, seat: int) -> list[Event]:
    s = g.s
    if s.sp_taken_by is not None:
        raise IllegalAction("tile_taken", "The Start Player tile was already taken this round.")
    s.sp_taken_by = seat
    s.taken = True
    events = [
        ev(
            "start_tile",
            f"{seat_name(seat)} takes the Start Player tile and will start next round.",
            seat=seat,
        )
    ]
    # Compensations, counted clockwise from the taker and cut off at the player count (setting Q3).
    comps = ["coin(2)", "", "car(1)", "choice(car(1)|up(0>1))"]
    for rel in range(g.players):
        if comps[rel]:
            target = (seat + rel) % g.players
            player(g, target).pending += expand(comps[rel], "Start Player tile")
            events.append(
                ev(
                    "compensation",
                    f"{seat_name(target)} receives {describe_effects(comps[rel])} from the Start Player tile.",
                    seat=target,
                    effects=comps[rel],
                )
            )
    for r in range(3):
        if not s.row_cleared[r]:
            c = next((i for i, x in enumerate(s.rows[r]) if x is not None), None)
            if c is not None:
                cid = str(s.rows[r][c])
                s.out_of_game.append(cid)
                events.append(
                    ev(
                        "removed",
                        f"The leftmost card of the top row, {cid}, is removed from the game.",
                        card=cid,
                    )
                )
                events += remove_from_row(g, r, c, "removed")
            break
    return events


def do_end(g: Position, seat: int) -> list[Event]:
    s = g.s
    if any(head(g, x) is not None for x in range(g.players)):
        raise IllegalAction("pending", "Finish or skip the waiting symbols before ending the turn.")
    events = refill_display(g)
    s.turns_done += 1
    s.taken = False
    if s.turns_done < 3 * g.players:
        s.active = (s.active + 1) % g.players
        return events
    return events + end_round(g)


def refill_display(g: Position) -> list[Event]:
    s = g.s
    added = []
    while len(s.ge_display) < 4 and s.ge_pile:
        gid = s.ge_pile.pop(0)
        s.ge_display.append(gid)
        added.append(gid)
    if not added:
        return []
    return [ev("game_end_refill", f"Game End cards {', '.join(added)} are laid face up.", cards=added)]


def end_round(g: Position) -> list[Event]:
    s = g.s
    events: list[Event] = []
    if s.sp_taken_by is not None:
        s.start_player = s.sp_taken_by
        events.append(
            ev(
                "start_player",
                f"{seat_name(s.start_player)} took the Start Player tile and is the new start player.",
                seat=s.start_player,
                taken=True,
            )
        )
    else:
        events.append(
            ev(
                "start_player",
                f"{seat_name(s.start_player)} stays start player: nobody took the Start Player tile.",
                seat=s.start_player,
                taken=False,
            )
        )
    events.append(ev("round_end", f"Round {s.round} is over.", round=s.round))
    if s.round % 2 == 0:
        order = [(s.start_player + i) % g.players for i in range(g.players)]
        s.scoring = ScoringState(order, 0, [])
        s.phase = "scoring"
        events.append(
            ev(
                "scoring_start",
                f"{seat_name(order[0])} scores first: pile {s.round // 2} is exhausted, scoring phase.",
                seat=order[0],
                pile=s.round // 2,
            )
        )
        return events
    s.round += 1
    deal_round(g)
    s.active = s.start_player
    events.append(
        ev(
            "round_start",
            f"Round {s.round}: 18 new Action cards from pile {(s.round + 1) // 2}.",
            round=s.round,
            pile=(s.round + 1) // 2,
        )
    )
    return events
