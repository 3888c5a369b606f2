"""The First Class rules engine (base game + Module A contracts), data-driven.

State is plain JSON (``self.s``) so that copying, saving and replaying are exact; the card data
lives in an immutable :class:`Deck`. A turn is a short series of small actions: take a card (or
forgo it, or take the Start Player tile), then resolve its symbols one by one from a per-seat queue
(``pending`` for the card's own symbols, ``bonus`` for bonuses they trigger - the rulebook says
you decide on the card's actions before receiving bonuses), spend coins, and ``end`` the turn.

Symbols with no decision (both conductors move, locomotive move, points, coins that fit) are
carried out automatically: declining them never helps, and it keeps turns short. Symbols that need
a decision can always be skipped (``skip``): carrying out a card partly is allowed.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from itertools import combinations_with_replacement
from typing import Any

from rules.errors import IllegalAction
from rules.firstclass import actions as A
from rules.firstclass import cards as C
from rules.firstclass.actions import Action
from rules.firstclass.effects import (
    NEXT_STEP,
    TRAINS,
    Station,
    describe_effects,
    describe_requirement,
    effects_to_text,
    parse_effects,
    parse_requirement,
    parse_stations,
)
from rules.firstclass.settings import resolve_config, take_hook
from rules.firstclass.state import DraftState, GameState, PlayerState, ScoringState, Symbol

MAIL = -1  # a mail car in a train's car list: no value, never upgraded
COIN_COLUMNS = (5, 5, 2)
CONSTANTINOPLE = (20, 10, 5)
SUPPLY_PAIRS = {0: 0, 1: 0, 2: 1, 4: 1, 7: 2, 12: 2}  # double-sided cards 0/1, 2/4, 7/12
SUPPLY_CAPS = (50, 24, 20)
CATEGORIES = (
    "route_stations",
    "trains",
    "constantinople",
    "card_points",
    "coin_points",
    "game_end_cards",
    "coins_left",
)
AUTO_OPS = {"cond2", "loco", "points"}
# Bounds on the engine's own loops: reaching one is an engine error (EngineLoopError), never a hang.
SETTLE_LIMIT = 500
# Actions one turn or one scoring step may take. Random and heuristic playouts need at most ~15; a
# turn is one card, its symbols, and spending at most the 12 coins a board holds plus those gained.
STEP_ACTION_LIMIT = 200
STEP_ENDS = ("end", "done", "draft")


class EngineLoopError(RuntimeError):
    """An engine loop went past its bound: a bug in the rules code or its data, reported, not hung on."""


def _seat_name(seat: int) -> str:
    return f"Seat {seat}"


@dataclass(frozen=True)
class Deck:
    """Immutable card data for one game: Action cards, Game End cards, tiles, mail cars, board route."""

    cards: dict[str, C.ActionCard]
    game_end: dict[str, C.GameEndCard]
    tiles: tuple[C.LocoTile, ...]
    mails: dict[int, C.MailCar]
    board_route: str
    provisional: tuple[str, ...]
    label: str
    # where the Action cards come from, as facts: (sets, file path; "" = the Conductor open deck)
    sources: tuple[tuple[tuple[str, ...], str], ...] = ()
    _route_cache: dict[tuple[str, ...], tuple[Station, ...]] = field(default_factory=dict, compare=False)

    def to_json(self) -> dict[str, Any]:
        return {
            "cards": [c.to_json() for c in self.cards.values()],
            "game_end": [g.to_json() for g in self.game_end.values()],
            "tiles": [t.to_json() for t in self.tiles],
            "mails": [m.to_json() for m in self.mails.values()],
            "board_route": self.board_route,
            "provisional": list(self.provisional),
            "label": self.label,
            # only when known: decks stored before the sources were kept save exactly as they were
            **({"sources": [[list(sets), path] for sets, path in self.sources]} if self.sources else {}),
        }

    @classmethod
    def from_json(cls, obj: dict[str, Any]) -> Deck:
        return cls(
            cards={c["id"]: C.ActionCard(**c) for c in obj["cards"]},
            game_end={g["id"]: C.GameEndCard(**g) for g in obj["game_end"]},
            tiles=tuple(
                C.LocoTile(t["order"], t["value"], tuple(t["upgrades"]), t["provisional"])
                for t in obj["tiles"]
            ),
            mails={m["slot"]: C.MailCar(m["slot"], m["bonus"], m["provisional"]) for m in obj["mails"]},
            board_route=obj["board_route"],
            provisional=tuple(obj["provisional"]),
            label=obj["label"],
            sources=tuple(
                (tuple(str(x) for x in sets), str(path)) for sets, path in obj.get("sources") or ()
            ),
        )

    def route(self, route_cards: list[str]) -> tuple[Station, ...]:
        """The stations in travel order: the 3 pre-printed ones, then each route card's stations."""
        key = tuple(route_cards)
        got = self._route_cache.get(key)
        if got is None:
            stations = list(parse_stations(self.board_route))
            for cid in route_cards:
                stations.extend(parse_stations(self.cards[cid].route_stations))
            got = tuple(stations)
            self._route_cache[key] = got
        return got


def build_deck(cfg: dict[str, Any], players: int) -> Deck:
    """Load and validate the card data the config asks for; raises IllegalAction("invalid_deck")."""
    sets = ["X", *cfg["modules"]]
    try:
        # A group's file supplies every chosen set it holds; our open deck only the sets it lacks,
        # and the label names each source.
        sources = C.assemble_action_cards(cfg["modules"], cfg["deck"])
        cards = sources.cards
        ge = (
            C.game_end_cards_from_rows(C.read_csv_path(cfg["game_end_deck"]), cfg["game_end_deck"])
            if cfg["game_end_deck"]
            else C.open_game_end_cards()
        )
        tiles = (
            C.locomotive_tiles(C.read_csv_path(cfg["tiles_file"]), cfg["tiles_file"])
            if cfg["tiles_file"]
            else C.locomotive_tiles()
        )
        mails = (
            C.mail_cars(C.read_csv_path(cfg["mail_cars_file"]), cfg["mail_cars_file"])
            if cfg["mail_cars_file"]
            else C.mail_cars()
        )
        board, prov_board = (
            C.board_route(C.read_csv_path(cfg["board_route_file"]), cfg["board_route_file"])
            if cfg["board_route_file"]
            else C.board_route()
        )
    except C.CardFileError as exc:
        reading = exc.problem.code in ("card_file_missing", "card_file_unreadable")
        english = (
            f"Cannot read the card file: {exc}."
            if reading
            else f"The card file is not in the documented format: {exc}."
        )
        raise C.InvalidCards(english, [exc.problem]) from None
    except ValueError as exc:  # any other unreadable value: still a refusal, never a crash
        raise C.InvalidCards(
            f"The card file is not in the documented format: {exc}.",
            [C.Problem("card_file_format", str(exc))],
        ) from None
    errors = (
        C.validate_action_cards(cards, sets)
        + C.validate_game_end_cards(ge)
        + C.validate_locomotive_tiles(tiles)
        + C.validate_mail_cars(mails)
        + C.validate_board_route(board)
        + sources.shortfall
    )
    if errors:
        raise C.InvalidCards("The card list is not valid: " + "; ".join(errors) + ".", errors)
    provisional = [f"player board {p}" for p in prov_board]
    provisional += [f"Locomotive tile {t.order} value {t.value}" for t in tiles if t.provisional]
    provisional += [f"mail car {m.slot} bonus {m.bonus}" for m in mails if m.provisional]
    if players == 3 and any(t.provisional for t in tiles):
        provisional.append("3-player Locomotive tiles 1-6 (4 with 2 upgrades, 2 with 1)")
    return Deck(
        cards={c.id: c for c in cards},
        game_end={g.id: g for g in ge},
        tiles=tuple(tiles),
        mails={m.slot: m for m in mails},
        board_route=board,
        provisional=tuple(provisional),
        label=sources.label,
        sources=sources.origins,
    )


def _new_player(conductor_start: int) -> PlayerState:
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


class FirstClassGame:
    """A game of First Class (base rules, Module A contracts and our open module O)."""

    game_name = "first-class"

    def __init__(self, players: int, seed: int, config: dict[str, Any], deck: Deck, state: GameState) -> None:
        self.players = players
        self.seed = seed
        self.config = config
        self.deck = deck
        self.s = state

    # --- creation and serialisation ---------------------------------------------------------

    @classmethod
    def replay_start(
        cls, config: dict[str, Any], players: int, seed: int, snapshot: dict[str, Any]
    ) -> FirstClassGame:
        """The starting position of a stored game, dealt from the cards stored in ``snapshot``:
        new card data never changes how an old game replays."""
        return cls.new(config, players, seed, deck=Deck.from_json(snapshot["deck"]))

    @classmethod
    def new(cls, config: dict[str, Any], players: int, seed: int, deck: Deck | None = None) -> FirstClassGame:
        """A new game. ``deck``: the card data to use instead of loading it (a replay of a stored
        game uses the cards it was dealt with, whatever the data files say today)."""
        if not isinstance(players, int) or not 2 <= players <= 4:
            raise IllegalAction("bad_player_count", "First Class is played by 2 to 4 players.")
        cfg = resolve_config(dict(config or {}))
        if not 0 <= cfg["start_player"] < players:
            raise IllegalAction("bad_config", "Setting start_player must be a seat of this game.")
        if deck is None:
            deck = build_deck(cfg, players)
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
        state = GameState(
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
            players=[_new_player(cfg["conductor_start"]) for _ in range(players)],
            final=None,
            history=[],
        )
        game = cls(players, seed, cfg, deck, state)
        game._deal_round()
        return game

    def to_json(self) -> dict[str, Any]:
        """The saved form (the same JSON the engine has always written, so older saves still load)."""
        return {
            "game_name": self.game_name,
            "players": self.players,
            "seed": self.seed,
            "config": dict(self.config),
            "deck": self.deck.to_json(),
            "state": self.s.to_json(),
        }

    @classmethod
    def from_json(cls, obj: dict[str, Any]) -> FirstClassGame:
        if not isinstance(obj, dict) or obj.get("game_name") != cls.game_name:
            raise IllegalAction("wrong_game", "This saved state is not a First Class game.")
        try:
            return cls(
                int(obj["players"]),
                int(obj["seed"]),
                dict(obj["config"]),
                Deck.from_json(obj["deck"]),
                GameState.from_json(obj["state"]),
            )
        except (KeyError, TypeError, ValueError, IndexError, AttributeError) as exc:
            raise IllegalAction("bad_state", f"This saved First Class game is damaged ({exc!r}).") from None

    def copy(self) -> FirstClassGame:
        """An independent copy (nothing is shared with this game but the immutable card data)."""
        state = self.s.copy(history=[list(h) for h in self.s.history])
        return FirstClassGame(self.players, self.seed, self.config, self.deck, state)

    def scratch_copy(self) -> FirstClassGame:
        """A copy for look-ahead (the AI tries an action on it and throws it away). Same as
        :meth:`copy` except that the history entries are shared (they are never changed in place)."""
        return FirstClassGame(self.players, self.seed, self.config, self.deck, self.s.copy())

    @classmethod
    def parse_action(cls, text: str) -> Action:
        return A.parse_action(text)

    @classmethod
    def action_from_json(cls, obj: dict[str, Any]) -> Action:
        return A.action_from_json(obj)

    # --- small helpers ----------------------------------------------------------------------

    def _scoring(self) -> ScoringState:
        """The scoring phase in progress (only called when the phase is "scoring")."""
        if self.s.scoring is None:
            raise RuntimeError("no scoring phase is in progress")
        return self.s.scoring

    def _p(self, seat: int) -> PlayerState:
        return self.s.players[seat]

    def _score(self, seat: int, n: int, category: str) -> None:
        self._p(seat).points[category] += n

    def score(self, seat: int) -> int:
        return int(sum(self._p(seat).points.values()))

    def route(self, seat: int) -> tuple[Station, ...]:
        return self.deck.route(self._p(seat).route_cards)

    def positions(self, seat: int, train: str) -> int:
        pl = self._p(seat)
        return len(pl.trains[train]) + (1 if pl.tiles[train] is not None else 0)

    def _tile_value(self, order: int) -> int:
        return next(t.value for t in self.deck.tiles if t.order == order)

    def _supply_ok(self, value: int, replacing: int | None) -> bool:
        """Whether the supply has a card for ``value`` (only limited with car_supply=limited)."""
        if self.config["car_supply"] == "unlimited":
            return True
        pair = SUPPLY_PAIRS[value]
        if replacing is not None and SUPPLY_PAIRS[replacing] == pair:
            return True  # the same double-sided card is flipped
        in_use = sum(
            1
            for pl in self.s.players
            for t in TRAINS
            for v in pl.trains[t]
            if v != MAIL and SUPPLY_PAIRS[v] == pair
        )
        return in_use < SUPPLY_CAPS[pair]

    def can_lengthen(self, seat: int, train: str) -> bool:
        pl = self._p(seat)
        return pl.tiles[train] is None and len(pl.trains[train]) < 9 and self._supply_ok(0, None)

    def upgrade_error(self, seat: int, train: str, pos: int) -> str | None:
        """Why the car at ``pos`` (1-based) cannot be upgraded one step, or None if it can."""
        cars = self._p(seat).trains[train]
        if not 1 <= pos <= len(cars):
            return f"the {train} train has no railroad car at position {pos}"
        v = cars[pos - 1]
        if v == MAIL:
            return "mail cars can never be upgraded (rule: Special Cards)"
        if v == 12:
            return "a 12-value car is already at the top step (rule: upgrade a railroad car)"
        left = next((x for x in reversed(cars[: pos - 1]) if x != MAIL), None)
        if left is not None and left <= v:
            return (
                f"car {pos} is worth {v} like the car to its left: a car can never be worth more than the car to "
                "its left, so among equal cars the leftmost is upgraded first (rule: upgrade a railroad car)"
            )
        if not self._supply_ok(NEXT_STEP[v], v):
            return f"the supply has no {NEXT_STEP[v]}-value railroad car left (setting car_supply=limited)"
        return None

    def legal_upgrades(self, seat: int, value: int | None = None) -> list[tuple[str, int]]:
        """The (train, pos) pairs :meth:`upgrade_error` allows, optionally only cars worth ``value``.

        Same test as upgrade_error, in one pass per train (this runs for every legal-action list)."""
        out: list[tuple[str, int]] = []
        limited = self.config["car_supply"] != "unlimited"
        for t in TRAINS:
            left: int | None = None  # the nearest non-mail car to the left
            for pos, v in enumerate(self._p(seat).trains[t], start=1):
                if v == MAIL:
                    continue
                if (
                    (value is None or v == value)
                    and v != 12
                    and (left is None or left > v)
                    and (not limited or self._supply_ok(NEXT_STEP[v], v))
                ):
                    out.append((t, pos))
                left = v
        return out

    def coins(self, seat: int) -> int:
        return int(sum(self._p(seat).coins))

    def coin_room(self, seat: int) -> int:
        return sum(COIN_COLUMNS) - self.coins(seat)

    def head(self, seat: int) -> Symbol | None:
        pl = self._p(seat)
        if pl.pending:
            item: Symbol = pl.pending[0]
            return item
        if pl.bonus:
            item = pl.bonus[0]
            return item
        return None

    def _push_front(self, seat: int, item: Symbol) -> None:
        pl = self._p(seat)
        (pl.pending if pl.pending else pl.bonus).insert(0, item)

    def _queue(self, seat: int) -> list[Symbol]:
        """The queue being answered: the card's own symbols first, then the bonuses they triggered."""
        pl = self._p(seat)
        queue: list[Symbol] = pl.pending if pl.pending else pl.bonus
        return queue

    def group(self, seat: int) -> list[Symbol]:
        """The symbols answered now, in any order the player likes: the leading queue items from one
        source (one card, one bonus station, one mail car, one Game End card, one Locomotive tile...).

        Rulebook: "you can choose the order in which you receive an individual space's bonus", "You
        can also upgrade the same railroad car multiple times, provided you have the right upgrade
        actions to do so"; a card's actions are all decided before any bonus is received, and each
        bonus space in full before the next."""
        queue = self._queue(seat)
        if not queue:
            return []
        src = queue[0].src
        n = 0
        while n < len(queue) and queue[n].src == src:
            n += 1
        return queue[:n]

    def _remove_item(self, seat: int, item: Symbol) -> None:
        queue = self._queue(seat)
        for i, x in enumerate(queue):
            if x is item:
                del queue[i]
                return
        raise EngineLoopError(f"symbol {item!r} is not in the queue of seat {seat}")

    def _group_options(self, seat: int) -> list[Action]:
        """Every answer to a symbol of the current group (each symbol may be answered first)."""
        out: list[Action] = []
        seen_choice = False
        for item in self.group(seat):
            if item.op == "choice":
                if seen_choice:
                    continue  # `choose <n>` answers the first choice symbol of the group
                seen_choice = True
            for a in self._item_options(seat, item):
                if a not in out:
                    out.append(a)
        return out

    def _answering_item(self, seat: int, a: Action) -> Symbol | None:
        """The group symbol an answer is for: the least capable one that allows it, so that the more
        flexible symbols stay (a fixed ``up(a>b)`` before ``upone`` before ``upany``; ``car`` before
        ``upany``). Whatever the order of the answers, the player keeps every option."""
        rank = {"up": 0, "car": 0, "cond1": 0, "choice": 0, "ge": 0, "mail": 0, "upone": 1, "upany": 2}
        candidates = [it for it in self.group(seat) if it.op in rank and a in self._item_options(seat, it)]
        if a.kind == "choose":
            first = next((it for it in self.group(seat) if it.op == "choice"), None)
            return first if first is not None and a in self._item_options(seat, first) else None
        if not candidates:
            return None
        return min(candidates, key=lambda it: rank[it.op])

    @staticmethod
    def expand(text: str, src: str) -> list[Symbol]:
        """Turn an effect sequence into queued symbols, one per decision."""
        items: list[Symbol] = []
        for t in parse_effects(text):
            if t.op in ("car", "upany", "cond1", "ge"):
                items += [Symbol(t.op, src) for _ in range(t.n)]
            elif t.op == "up":
                items.append(Symbol("up", src, a=t.a))
            elif t.op == "choice":
                items.append(Symbol("choice", src, options=tuple(effects_to_text(o) for o in t.options)))
            else:
                items.append(Symbol(t.op, src, n=t.n))
        return items

    # --- who acts ---------------------------------------------------------------------------

    def is_over(self) -> bool:
        return bool(self.s.phase == "over")

    def seats_to_act(self) -> list[int]:
        s = self.s
        if s.phase == "over":
            return []
        if s.phase == "draft":
            return [s.draft.order[s.draft.index]]
        active = s.active if s.phase == "play" else self._scoring().order[self._scoring().index]
        if self.head(active) is not None:
            return [active]
        for i in range(1, self.players):
            other = (active + i) % self.players
            if self.head(other) is not None:
                return [other]
        return [active]

    def _free_time(self, seat: int) -> bool:
        """Whether ``seat`` may spend coins / fulfil contracts now (own turn or own scoring)."""
        s = self.s
        if s.phase == "play":
            return bool(s.active == seat)
        if s.phase == "scoring":
            return bool(self._scoring().order[self._scoring().index] == seat)
        return False

    def _coin_blocked(self, seat: int) -> bool:
        """Whether coins of the current group do not fit (the player may spend coins to make room)."""
        room = self.coin_room(seat)
        return any(it.op == "coin" and it.n > room for it in self.group(seat))

    def _skippable(self, seat: int) -> Symbol | None:
        """The symbol ``skip`` declines: the first of the group that needs a decision (never a mail car)."""
        for it in self.group(seat):
            if it.op not in AUTO_OPS:
                return it
        return None

    # --- legal actions ----------------------------------------------------------------------

    def legal_actions(self, seat: int) -> list[Action]:
        if seat not in self.seats_to_act():
            return []
        s = self.s
        if s.phase == "draft":
            # by position in the hand: the action log must not reveal which card was kept
            return [A.make("draft", i) for i in range(1, len(s.draft.hand) + 1)]
        h = self.head(seat)
        out: list[Action] = []
        if h is not None:
            out += self._group_options(seat)
            skippable = self._skippable(seat)
            if skippable is not None and skippable.op != "mail":
                out.append(A.make("skip"))
            if self._coin_blocked(seat) and self._free_time(seat):
                out += self._spend_options(seat)
                if s.phase == "play" or self.config["buy_game_end_in_scoring"]:
                    out += self._buy_options(seat)
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
            out += self._spend_options(seat) + self._buy_options(seat) + self._fulfil_options(seat)
            return out
        # scoring phase
        claimed = set(self._scoring().claimed)
        pl = self._p(seat)
        for i, st in enumerate(self.route(seat), start=1):
            if i <= pl.loco and st.kind == "B" and i not in claimed:
                out.append(A.make("bonus", i))
        bonuses_waiting = bool(out)
        out += self._spend_options(seat) + self._fulfil_options(seat)
        if self.config["buy_game_end_in_scoring"]:
            out += self._buy_options(seat)
        if not bonuses_waiting:
            # "You score points only after every bonus has been received": a bonus is declined
            # symbol by symbol (skip), never by scoring first.
            out.append(A.make("done"))
        return out

    def _item_options(self, seat: int, item: Symbol) -> list[Action]:
        op = item.op
        pl = self._p(seat)
        if op == "car":
            return [A.make("car", t) for t in TRAINS if self.can_lengthen(seat, t)]
        if op == "up":
            return [A.make("up", t, p) for t, p in self.legal_upgrades(seat, item.a)]
        if op in ("upany", "upone"):
            out = [A.make("up", t, p) for t, p in self.legal_upgrades(seat)]
            if op == "upany":
                out += [A.make("car", t) for t in TRAINS if self.can_lengthen(seat, t)]
            return out
        if op == "cond1":
            return [A.make("cond", t) for t in TRAINS if pl.cond[t] < self.positions(seat, t)]
        if op == "ge":
            return [A.make("ge", g) for g in self.s.ge_display]
        if op == "choice":
            return [A.make("choose", i) for i in range(1, len(item.options) + 1)]
        if op == "mail":
            return [A.make("mail", m) for m in pl.mails_left]
        return []  # a coin item that does not fit: spend first or skip

    def _spend_options(self, seat: int) -> list[Action]:
        pl = self._p(seat)
        c1, c2, c3 = pl.coins
        out: list[Action] = []
        if c1:
            out += [A.make("spend_car", t) for t in TRAINS if self.can_lengthen(seat, t)]
        if c2:
            out += [A.make("spend_move", t) for t in TRAINS if pl.cond[t] < self.positions(seat, t)]
            if pl.loco < len(self.route(seat)):
                out.append(A.make("spend_move", "loco"))
        if c3:
            out += [A.make("spend_up", t, p) for t, p in self.legal_upgrades(seat)]
        out += [A.make("spend_point", i + 1) for i in range(3) if pl.coins[i]]
        return out

    def _buy_options(self, seat: int) -> list[Action]:
        if self.coins(seat) < 4 or not self.s.ge_display:
            return []
        pl = self._p(seat)
        combos = [
            c
            for c in combinations_with_replacement((1, 2, 3), 4)
            if all(c.count(col) <= pl.coins[col - 1] for col in (1, 2, 3))
        ]
        return [A.make("buy", g, *c) for g in self.s.ge_display for c in combos]

    def _fulfil_options(self, seat: int) -> list[Action]:
        return [A.make("fulfil", cid) for cid in self._p(seat).contracts if self.requirement_met(seat, cid)]

    # --- contracts (Module A hook) ----------------------------------------------------------

    def _hook_place_contract(self, seat: int, cid: str) -> list[dict[str, Any]]:
        """Module A: a taken contract lies face up next to the board until it is fulfilled."""
        card = self.deck.cards[cid]
        self._p(seat).contracts.append(cid)
        return [
            _ev(
                "contract",
                f"{_seat_name(seat)} takes contract {cid}: {describe_requirement(card.requirement)}"
                f" -> {describe_effects(card.bonus)}.",
                seat=seat,
                card=cid,
                requirement=card.requirement,
                bonus=card.bonus,
            )
        ]

    def requirement_met(self, seat: int, card_id: str) -> bool:
        pl = self._p(seat)
        for r in parse_requirement(self.deck.cards[card_id].requirement):
            cars = {t: [v for v in pl.trains[t] if v != MAIL] for t in TRAINS}
            if r.op == "count":
                counts = {t: sum(1 for v in cars[t] if v >= r.v) for t in TRAINS}
                ok = _by_train(counts, r.train, combine=True) >= r.n
            elif r.op == "cars":
                counts = {t: len(cars[t]) for t in TRAINS}
                ok = _by_train(counts, r.train, combine=True) >= r.n
            elif r.op == "cond":
                ok = _by_train(dict(pl.cond), r.train, combine=False) >= r.n
            elif r.op == "seq":
                has = {t: int(_has_seq(cars[t], r.values)) for t in TRAINS}
                ok = _by_train(has, r.train, combine=False) >= 1
            elif r.op == "loco":
                ok = pl.loco >= r.n
            elif r.op == "routecards":
                ok = len(pl.route_cards) >= r.n
            else:
                ok = self.coins(seat) >= r.n
            if not ok:
                return False
        return True

    # --- apply ------------------------------------------------------------------------------

    def apply(self, seat: int, action: Any) -> list[dict[str, Any]]:
        if isinstance(action, str):
            action = A.parse_action(action)
        if not isinstance(action, Action):
            raise IllegalAction("malformed_action", "That is not a First Class action.")
        if self.is_over():
            raise IllegalAction(
                "game_over", "The game is over (after the third scoring phase); no more actions."
            )
        if not isinstance(seat, int) or not 0 <= seat < self.players:
            raise IllegalAction("bad_seat", f"There is no seat {seat!r} in this game.")
        if seat not in self.seats_to_act():
            who = ", ".join(_seat_name(x) for x in self.seats_to_act())
            raise IllegalAction(
                "not_your_turn",
                f"It is not your turn: {who} must act now (rule: players play in clockwise order).",
            )
        if action.kind not in STEP_ENDS and self._step_length() >= STEP_ACTION_LIMIT:
            raise EngineLoopError(
                f"Seat {seat}'s turn or scoring step already took {STEP_ACTION_LIMIT} actions without "
                "ending: the engine keeps offering moves that never finish it."
            )
        # A cheap typed copy (the live history list is shared: it is appended to only on success) is
        # put back if the action is refused part-way or the engine fails, so that changes nothing.
        # The live state is the one changed, so references callers hold into it stay valid.
        backup = self.s.copy(history=self.s.history)
        try:
            events = self._dispatch(seat, action)
            for other in range(self.players):
                events += self._settle(other)
        except BaseException:
            self.s = backup
            raise
        self.s.history.append([seat, action.to_text()])
        return events

    def _step_length(self) -> int:
        """Actions since the last one that ended a turn, a scoring step or a draft pick (bounded scan)."""
        history = self.s.history
        n = 0
        for i in range(len(history) - 1, max(-1, len(history) - 1 - STEP_ACTION_LIMIT), -1):
            if history[i][1].split(" ", 1)[0] in STEP_ENDS:
                break
            n += 1
        return n

    def _dispatch(self, seat: int, a: Action) -> list[dict[str, Any]]:
        s = self.s
        if s.phase == "draft":
            if a.kind != "draft":
                raise IllegalAction(
                    "wrong_phase", "First keep one Game End card from the draft (rule: setup step 9)."
                )
            return self._do_draft(seat, a.int_arg(0))
        h = self.head(seat)
        if h is not None:
            if self._coin_blocked(seat) and self._free_time(seat):
                # making room for coins: any way of spending coins is allowed
                if a.kind.startswith("spend_"):
                    return self._do_spend(seat, a)
                if a.kind == "buy" and (s.phase == "play" or self.config["buy_game_end_in_scoring"]):
                    return self._do_buy(seat, a)
            return self._do_item(seat, h, a)
        if a.kind in ("car", "up", "cond", "choose", "mail", "ge", "skip"):
            raise IllegalAction("nothing_pending", f"There is no symbol waiting for {a.kind!r}.")
        if a.kind.startswith("spend_"):
            return self._do_spend(seat, a)
        if a.kind == "buy":
            if s.phase == "scoring" and not self.config["buy_game_end_in_scoring"]:
                raise IllegalAction(
                    "wrong_phase",
                    "Game End cards are bought on your own turn, not in a scoring phase "
                    "(setting buy_game_end_in_scoring).",
                )
            return self._do_buy(seat, a)
        if a.kind == "fulfil":
            return self._do_fulfil(seat, a.args[0])
        if s.phase == "play":
            if a.kind in ("take", "forgo", "start"):
                if s.taken:
                    raise IllegalAction(
                        "already_taken",
                        "You already took an Action card this turn (rule: during your turn choose 1 Action card).",
                    )
                if a.kind == "start":
                    return self._do_start(seat)
                return self._do_take(seat, a.args[0], forgo=a.kind == "forgo")
            if a.kind == "end":
                if not s.taken:
                    raise IllegalAction(
                        "must_take",
                        "You must choose 1 Action card or the Start Player tile before ending your turn.",
                    )
                return self._do_end(seat)
            raise IllegalAction("wrong_phase", f"{a.kind!r} is only possible in a scoring phase.")
        if a.kind == "bonus":
            return self._do_bonus(seat, a.int_arg(0))
        if a.kind == "done":
            return self._do_done(seat)
        raise IllegalAction("wrong_phase", f"{a.kind!r} is not possible during a scoring phase.")

    # --- setup draft ------------------------------------------------------------------------

    def _do_draft(self, seat: int, pos: int) -> list[dict[str, Any]]:
        d = self.s.draft
        if not 1 <= pos <= len(d.hand):
            raise IllegalAction(
                "not_in_hand",
                f"You were passed {len(d.hand)} Game End cards; keep one of them by "
                "its position (rule: setup step 9).",
            )
        gid = d.hand.pop(pos - 1)
        self._p(seat).ge_cards.append(gid)
        d.index += 1
        events = [_ev("draft", f"{_seat_name(seat)} keeps a Game End card face down.", seat=seat)]
        if d.index >= self.players:
            pile = self.s.ge_pile
            rng = random.Random(f"{self.seed}:game-end-return")
            for g in d.hand:
                pile.insert(rng.randrange(len(pile) + 1), g)
            d.hand = []
            self.s.ge_display = pile[:4]
            self.s.ge_pile = pile[4:]
            self.s.phase = "play"
            self.s.active = self.s.start_player
            events.append(
                _ev(
                    "setup",
                    "The leftover Game End card is shuffled back and 4 Game End cards are laid "
                    f"face up. Playing with {self.deck.label}.",
                    deck=self.deck.label,
                    sources=[[list(sets), path] for sets, path in self.deck.sources],
                )
            )
            events.append(
                _ev(
                    "first_round",
                    f"{_seat_name(self.s.start_player)} starts: Round 1 begins.",
                    seat=self.s.start_player,
                    round=1,
                )
            )
        return events

    # --- rounds and the display -------------------------------------------------------------

    def _deal_round(self) -> None:
        s = self.s
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

    def _remove_from_row(self, r: int, c: int, status: str) -> list[dict[str, Any]]:
        s = self.s
        s.rows[r][c] = None
        s.slots[r][c] = status
        s.row_removed[r] += 1
        if s.row_removed[r] >= self.players and not s.row_cleared[r]:
            s.row_cleared[r] = True
            gone = [cid for cid in s.rows[r] if cid is not None]
            for i, cid in enumerate(s.rows[r]):
                if cid is not None:
                    s.slots[r][i] = "cleared"
                    s.rows[r][i] = None
            s.out_of_game += gone
            return [
                _ev(
                    "row_cleared",
                    f"Row {r + 1} is cleared: {self.players} cards were taken or removed from it"
                    + (f", so {', '.join(gone)} leave the game." if gone else "."),
                    row=r + 1,
                    removed=self.players,
                    cards=gone,
                )
            ]
        return []

    def _find(self, cid: str) -> tuple[int, int] | None:
        for r, row in enumerate(self.s.rows):
            for c, x in enumerate(row):
                if x == cid:
                    return r, c
        return None

    def _do_take(self, seat: int, cid: str, forgo: bool) -> list[dict[str, Any]]:
        where = self._find(cid)
        if where is None:
            raise IllegalAction(
                "card_unavailable",
                f"{cid} is not among the available Action cards (it was taken, "
                "removed, or its row was cleared: rule 'Clearing a Row').",
            )
        card = self.deck.cards[cid]
        pl = self._p(seat)
        self.s.taken = True
        events: list[dict[str, Any]] = []
        if forgo:
            pl.completed.append(cid)
            pl.pending.append(Symbol("upone", f"forgoing {cid}"))
            events.append(
                _ev(
                    "forgo",
                    f"{_seat_name(seat)} takes {cid} and forgoes its actions for one upgrade.",
                    seat=seat,
                    card=cid,
                )
            )
        elif card.kind == "route":
            pl.route_cards.append(cid)
            events.append(
                _ev(
                    "route",
                    f"{_seat_name(seat)} adds route card {cid} ({card.route_stations}) to the "
                    "left end of the route.",
                    seat=seat,
                    card=cid,
                    stations=card.route_stations,
                )
            )
        elif (hook := take_hook(self.config["modules"], card.kind)) is not None:
            events += TAKE_HOOKS[hook](self, seat, cid)
        else:
            pl.completed.append(cid)
            pl.pending += self.expand(card.effects, cid)
            events.append(
                _ev(
                    "take",
                    f"{_seat_name(seat)} takes {cid}: {describe_effects(card.effects)}.",
                    seat=seat,
                    card=cid,
                    effects=card.effects,
                )
            )
        r, c = where
        return events + self._remove_from_row(r, c, f"taken:{seat}")

    def _do_start(self, seat: int) -> list[dict[str, Any]]:
        s = self.s
        if s.sp_taken_by is not None:
            raise IllegalAction("tile_taken", "The Start Player tile was already taken this round.")
        s.sp_taken_by = seat
        s.taken = True
        events = [
            _ev(
                "start_tile",
                f"{_seat_name(seat)} takes the Start Player tile and will start next round.",
                seat=seat,
            )
        ]
        # Compensations, counted clockwise from the taker and cut off at the player count (setting Q3).
        comps = ["coin(2)", "", "car(1)", "choice(car(1)|up(0>1))"]
        for rel in range(self.players):
            if comps[rel]:
                target = (seat + rel) % self.players
                self._p(target).pending += self.expand(comps[rel], "Start Player tile")
                events.append(
                    _ev(
                        "compensation",
                        f"{_seat_name(target)} receives {describe_effects(comps[rel])} "
                        "from the Start Player tile.",
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
                        _ev(
                            "removed",
                            f"The leftmost card of the top row, {cid}, is removed from the game.",
                            card=cid,
                        )
                    )
                    events += self._remove_from_row(r, c, "removed")
                break
        return events

    def _do_end(self, seat: int) -> list[dict[str, Any]]:
        s = self.s
        if any(self.head(x) is not None for x in range(self.players)):
            raise IllegalAction("pending", "Finish or skip the waiting symbols before ending the turn.")
        events = self._refill_display()
        s.turns_done += 1
        s.taken = False
        if s.turns_done < 3 * self.players:
            s.active = (s.active + 1) % self.players
            return events
        return events + self._end_round()

    def _refill_display(self) -> list[dict[str, Any]]:
        s = self.s
        added = []
        while len(s.ge_display) < 4 and s.ge_pile:
            g = s.ge_pile.pop(0)
            s.ge_display.append(g)
            added.append(g)
        if not added:
            return []
        return [_ev("game_end_refill", f"Game End cards {', '.join(added)} are laid face up.", cards=added)]

    def _end_round(self) -> list[dict[str, Any]]:
        s = self.s
        events: list[dict[str, Any]] = []
        if s.sp_taken_by is not None:
            s.start_player = s.sp_taken_by
            events.append(
                _ev(
                    "start_player",
                    f"{_seat_name(s.start_player)} took the Start Player tile and is the new start player.",
                    seat=s.start_player,
                    taken=True,
                )
            )
        else:
            events.append(
                _ev(
                    "start_player",
                    f"{_seat_name(s.start_player)} stays start player: nobody took the Start Player tile.",
                    seat=s.start_player,
                    taken=False,
                )
            )
        events.append(_ev("round_end", f"Round {s.round} is over.", round=s.round))
        if s.round % 2 == 0:
            order = [(s.start_player + i) % self.players for i in range(self.players)]
            s.scoring = ScoringState(order, 0, [])
            s.phase = "scoring"
            events.append(
                _ev(
                    "scoring_start",
                    f"{_seat_name(order[0])} scores first: pile {s.round // 2} is exhausted, scoring phase.",
                    seat=order[0],
                    pile=s.round // 2,
                )
            )
            return events
        s.round += 1
        self._deal_round()
        s.active = s.start_player
        events.append(
            _ev(
                "round_start",
                f"Round {s.round}: 18 new Action cards from pile {(s.round + 1) // 2}.",
                round=s.round,
                pile=(s.round + 1) // 2,
            )
        )
        return events

    # --- resolving symbols ------------------------------------------------------------------

    def _do_item(self, seat: int, head: Symbol, a: Action) -> list[dict[str, Any]]:
        if a.kind == "skip":
            skipped = self._skippable(seat)
            if skipped is None or skipped.op == "mail":
                raise IllegalAction(
                    "mail_forced", "A mail car must be added as the 6th car (rule: Special Cards)."
                )
            self._remove_item(seat, skipped)
            return [
                _ev(
                    "skip",
                    f"{_seat_name(seat)} does not carry out one symbol ({_public_src(skipped.src)}).",
                    seat=seat,
                    src=_public_src(skipped.src),
                )
            ]
        item = self._answering_item(seat, a)
        if item is None:
            coin = next((it for it in self.group(seat) if it.op == "coin"), None)
            if coin is not None and not self._group_options(seat):
                raise IllegalAction(
                    "coins_do_not_fit",
                    f"{coin.n} coins do not fit on your coin board ({self.coin_room(seat)} free spaces): coins "
                    "you receive must all be placed at once, so spend coins first to make room, or skip them "
                    "(rule: How to Place Coins).",
                )
            raise IllegalAction("wrong_choice", self._why_not(seat, head, a))
        queue = self._queue(seat)  # the chosen option's symbols join the same group
        self._remove_item(seat, item)
        if a.kind == "car":
            return self._add_car(seat, a.args[0], item.src)
        if a.kind == "up":
            return self._upgrade(seat, a.args[0], a.int_arg(1), item.src)
        if a.kind == "cond":
            return self._move_conductor(seat, a.args[0], 1)
        if a.kind == "choose":
            chosen = item.options[a.int_arg(0) - 1]
            for i, new in enumerate(self.expand(chosen, item.src)):
                queue.insert(i, new)
            return [
                _ev(
                    "choose",
                    f"{_seat_name(seat)} chooses {describe_effects(chosen)}.",
                    seat=seat,
                    effects=chosen,
                )
            ]
        if a.kind == "mail":
            return self._add_mail(seat, item.train, a.int_arg(0))
        if a.kind == "ge":
            return self._take_ge(seat, a.args[0], bought=False)
        raise IllegalAction("wrong_choice", self._why_not(seat, item, a))

    def _why_not(self, seat: int, item: Symbol, a: Action) -> str:
        op = item.op
        wanted = {
            "car": "car upper|lower",
            "up": f"up <train> <pos> for a {item.get('a')}-value car",
            "upany": "up <train> <pos> or car <train>",
            "upone": "up <train> <pos>",
            "cond1": "cond upper|lower",
            "ge": "ge <id> of a face-up Game End card",
            "choice": "choose <n>",
            "mail": "mail <slot>",
            "coin": "spend coins first to make room, or skip",
        }.get(op, "skip")
        if a.kind == "up" and op in ("up", "upany", "upone"):
            err = self.upgrade_error(seat, a.args[0], a.int_arg(1))
            if err:
                return f"You cannot upgrade that car: {err}."
            if op == "up":
                return f"This symbol upgrades a {item.a}-value car to {NEXT_STEP[item.a]}, one step only."
        if a.kind == "car" and op in ("car", "upany"):
            return (
                f"The {a.args[0]} train cannot be lengthened: it ends with a Locomotive tile "
                "(rule: no lengthening after the Locomotive tile)."
            )
        if a.kind == "cond" and op == "cond1":
            return f"The {a.args[0]} conductor already stands on the last car; unused movement is lost."
        if a.kind == "ge":
            return f"{a.args[0]} is not a face-up Game End card."
        if a.kind == "mail":
            return f"Mail car {a.args[0]} is not among your remaining mail cars."
        if a.kind == "choose":
            return f"This choice has {len(item.get('options', []))} options."
        if a.kind.startswith("spend_"):
            return "Coins are spent before or after your card's actions, not in the middle (rule: how do you spend coins)."
        return f"A symbol is waiting ({item.src}): answer with {wanted}."

    def _settle(self, seat: int) -> list[dict[str, Any]]:
        """Carry out the symbols of the current group that need no decision, and drop those that can
        never be carried out.

        Automatic symbols (points, locomotive, coins that fit) give the same result in any order.
        Both conductors moving (``cond2``) is held back while it would lose movement and another
        symbol of the group could still lengthen a train: moving later never reaches less (a train
        only grows within a turn, and no one else moves in between), so this order is never worse.
        A symbol without a target now is kept while another symbol of the group still has a target
        (it may create one: ``[12,4]`` with ``up(7>12); up(4>7)`` ends as ``[12,12]``); it is lost
        only once no symbol of the group can be carried out. Bounded: a loop that does not end is an
        engine error, never a hang."""
        events: list[dict[str, Any]] = []
        for _ in range(SETTLE_LIMIT):
            group = self.group(seat)
            if not group:
                return events
            ran = False
            held = []
            for item in group:
                op = item.op
                if op in ("loco", "points") or (op == "coin" and item.n <= self.coin_room(seat)):
                    self._remove_item(seat, item)
                    events += self._run_auto(seat, item)
                    ran = True
                    break
                if op == "cond2":
                    if self._cond2_loses(seat, item.n) and self._may_lengthen(seat, group):
                        held.append(item)
                        continue
                    self._remove_item(seat, item)
                    events += self._run_auto(seat, item)
                    ran = True
                    break
            if ran:
                continue
            decisions = [it for it in group if it.op not in AUTO_OPS]
            if any(self._item_options(seat, it) for it in decisions) or any(
                it.op == "coin" for it in decisions
            ):
                return events  # the player decides (or makes room for coins, or skips them)
            if held:
                self._remove_item(seat, held[0])
                events += self._run_auto(seat, held[0])
                continue
            for item in decisions:
                self._remove_item(seat, item)
                events.append(
                    _ev(
                        "lost",
                        f"{_seat_name(seat)} cannot carry out a symbol ({_public_src(item.src)}); it is lost.",
                        seat=seat,
                        src=_public_src(item.src),
                    )
                )
        raise EngineLoopError(f"Seat {seat}'s symbols did not settle in {SETTLE_LIMIT} steps.")

    def _run_auto(self, seat: int, item: Symbol) -> list[dict[str, Any]]:
        op = item.op
        if op == "cond2":
            return self._move_conductor(seat, "upper", item.n) + self._move_conductor(seat, "lower", item.n)
        if op == "loco":
            return self._move_loco(seat, item.n)
        if op == "coin":
            return self._gain_coins(seat, item.n, item.src)
        self._score(seat, item.n, "card_points")
        return [
            _ev(
                "points",
                f"{_seat_name(seat)} scores {item.n} points ({_public_src(item.src)}).",
                seat=seat,
                points=item.n,
                src=_public_src(item.src),
            )
        ]

    def _cond2_loses(self, seat: int, n: int) -> bool:
        pl = self._p(seat)
        return any(pl.cond[t] + n > self.positions(seat, t) for t in TRAINS)

    def _may_lengthen(self, seat: int, group: list[Symbol]) -> bool:
        """Whether a symbol of the group could still add a car to a train (a choice may hold one)."""
        if not any(self.can_lengthen(seat, t) for t in TRAINS):
            return False
        return any(it.op in ("car", "upany", "choice") for it in group)

    def _gain_coins(self, seat: int, n: int, src: str) -> list[dict[str, Any]]:
        coins = self._p(seat).coins
        for _ in range(n):
            # lowest, leftmost empty space: fill column 1, then 2, then 3
            col = next(i for i in range(3) if coins[i] < COIN_COLUMNS[i])
            coins[col] += 1
        return [
            _ev(
                "coins",
                f"{_seat_name(seat)} gains {n} coin{'s' if n != 1 else ''} ({_public_src(src)}).",
                seat=seat,
                n=n,
                src=_public_src(src),
            )
        ]

    def _add_car(self, seat: int, train: str, src: str) -> list[dict[str, Any]]:
        pl = self._p(seat)
        cars = pl.trains[train]
        cars.append(0)
        events = [
            _ev(
                "car",
                f"{_seat_name(seat)} adds a 0-value car to the right end of the {train} train "
                f"({_public_src(src)}).",
                seat=seat,
                train=train,
                src=_public_src(src),
            )
        ]
        if len(cars) == 5 and pl.mails_used[train] is None:
            self._push_front(seat, Symbol("mail", f"5th car of the {train} train", train=train))
        elif len(cars) == 9 and pl.tiles[train] is None and self.s.tiles_left:
            order = self.s.tiles_left.pop(0)
            pl.tiles[train] = order
            tile = next(t for t in self.deck.tiles if t.order == order)
            ups = tile.upgrades[self.players - 2]
            pl.bonus += [Symbol("upany", f"Locomotive tile {tile.value}") for _ in range(ups)]
            events.append(
                _ev(
                    "locomotive_tile",
                    f"{_seat_name(seat)} gets Locomotive tile {tile.value} as the 10th card "
                    f"of the {train} train (its 9th car brings it): {ups} upgrade(s) of choice, and the train "
                    "cannot be lengthened any more.",
                    seat=seat,
                    train=train,
                    value=tile.value,
                    upgrades=ups,
                )
            )
        return events

    def _add_mail(self, seat: int, train: str, slot: int) -> list[dict[str, Any]]:
        pl = self._p(seat)
        pl.mails_left.remove(slot)
        pl.mails_used[train] = slot
        pl.trains[train].append(MAIL)
        bonus = self.deck.mails[slot].bonus
        pl.bonus += self.expand(bonus, f"mail car {slot}")
        return [
            _ev(
                "mail",
                f"{_seat_name(seat)} adds mail car {slot} as the 6th car of the {train} train and gets "
                f"its bonus: {describe_effects(bonus)}.",
                seat=seat,
                train=train,
                slot=slot,
                effects=bonus,
            )
        ]

    def _upgrade(self, seat: int, train: str, pos: int, src: str) -> list[dict[str, Any]]:
        cars = self._p(seat).trains[train]
        old = cars[pos - 1]
        cars[pos - 1] = NEXT_STEP[old]
        return [
            _ev(
                "upgrade",
                f"{_seat_name(seat)} upgrades car {pos} of the {train} train from {old} to "
                f"{cars[pos - 1]} ({_public_src(src)}).",
                seat=seat,
                train=train,
                car=pos,
                old=old,
                new=cars[pos - 1],
                src=_public_src(src),
            )
        ]

    def _move_conductor(self, seat: int, train: str, k: int) -> list[dict[str, Any]]:
        pl = self._p(seat)
        end = self.positions(seat, train)
        old = pl.cond[train]
        new = min(old + k, end)
        if new == old:
            return []
        pl.cond[train] = new
        events = [
            _ev(
                "conductor",
                f"{_seat_name(seat)} moves the {train} conductor to space {new}"
                + (f" ({old + k - new} movement lost)." if old + k > new else "."),
                seat=seat,
                train=train,
                space=new,
                lost=old + k - new,
            )
        ]
        if pl.tiles[train] is not None and new == end:
            arrivals = self.s.constantinople
            rank = len(arrivals)
            arrivals.append([seat, train])
            if rank < len(CONSTANTINOPLE):
                pts = CONSTANTINOPLE[rank]
                self._score(seat, pts, "constantinople")
                events.append(
                    _ev(
                        "constantinople",
                        f"{_seat_name(seat)} brings the {train} conductor to the Locomotive "
                        f"tile: Constantinople bonus {pts} points (arrival {rank + 1}).",
                        seat=seat,
                        points=pts,
                        train=train,
                        arrival=rank + 1,
                    )
                )
        return events

    def _move_loco(self, seat: int, k: int) -> list[dict[str, Any]]:
        pl = self._p(seat)
        route = self.route(seat)
        old = pl.loco
        new = min(old + k, len(route))
        if new == old:
            return [
                _ev(
                    "locomotive",
                    f"{_seat_name(seat)} cannot move the locomotive: it is at the end of the route; the "
                    "movement is lost.",
                    seat=seat,
                    station=old,
                    lost=k,
                    moved=False,
                )
            ]
        pl.loco = new
        events = [
            _ev(
                "locomotive",
                f"{_seat_name(seat)} moves the locomotive to station {new}"
                + (f" ({old + k - new} movement lost)." if old + k > new else "."),
                seat=seat,
                station=new,
                lost=old + k - new,
                moved=True,
            )
        ]
        for i in range(old + 1, new + 1):
            st = route[i - 1]
            if st.kind == "P":
                self._score(seat, st.points, "route_stations")
                events.append(
                    _ev(
                        "station_points",
                        f"{_seat_name(seat)} reaches points station {i}: {st.points} points.",
                        seat=seat,
                        points=st.points,
                        station=i,
                    )
                )
            else:
                events.append(
                    _ev(
                        "station_bonus",
                        f"{_seat_name(seat)} reaches bonus station {i} "
                        f"({describe_effects(st.effects)}); it pays out in every later scoring phase.",
                        seat=seat,
                        station=i,
                        effects=st.effects,
                    )
                )
        return events

    def _take_ge(self, seat: int, gid: str, bought: bool) -> list[dict[str, Any]]:
        self.s.ge_display.remove(gid)
        pl = self._p(seat)
        pl.ge_cards.append(gid)
        g = self.deck.game_end[gid]
        pl.bonus += self.expand(g.bonus, f"Game End card {gid}")
        how = "buys" if bought else "takes"
        # Which card it was stays hidden until the end (it goes to the face-down pile): everyone reads
        # that a card was taken; only the player reads which one and its bonus.
        return [
            _ev(
                "game_end_card",
                f"{_seat_name(seat)} {how} a Game End card and gets its one-time bonus.",
                seat=seat,
                bought=bought,
            ),
            _ev(
                "game_end_card",
                f"{_seat_name(seat)} {how} Game End card {gid} ({g.type} x{g.points}) and gets "
                f"its one-time bonus: {describe_effects(g.bonus)}.",
                visible_to=[seat],
                seat=seat,
                card=gid,
                bought=bought,
                ge_type=g.type,
                points=g.points,
                effects=g.bonus,
            ),
        ]

    # --- coins, Game End cards, contracts ---------------------------------------------------

    def _do_spend(self, seat: int, a: Action) -> list[dict[str, Any]]:
        if not self._free_time(seat):
            raise IllegalAction(
                "not_your_turn", "Coins are spent only on your own turn or in your scoring phase."
            )
        pl = self._p(seat)
        coins = pl.coins
        col = {"spend_car": 0, "spend_move": 1, "spend_up": 2}.get(a.kind)
        if a.kind == "spend_point":
            c = a.int_arg(0)
            if not 1 <= c <= 3 or coins[c - 1] == 0:
                raise IllegalAction("no_coin", f"You have no coin in column {c} to pay for 1 point.")
            coins[c - 1] -= 1
            self._score(seat, 1, "coin_points")
            return [_ev("spend", f"{_seat_name(seat)} pays a coin for 1 point.", seat=seat)]
        assert col is not None
        if coins[col] == 0:
            what = ["take a 0-value car", "move a conductor or the locomotive", "upgrade a car"][col]
            raise IllegalAction(
                "no_coin",
                f"To {what} you pay a coin from column {col + 1}, and it is empty "
                "(rule: how do you spend coins).",
            )
        if a.kind == "spend_car":
            t = a.args[0]
            if not self.can_lengthen(seat, t):
                raise IllegalAction(
                    "train_complete", f"The {t} train cannot be lengthened after its Locomotive tile."
                )
            coins[0] -= 1
            return self._add_car(seat, t, "coin")
        if a.kind == "spend_move":
            t = a.args[0]
            if t == "loco":
                if pl.loco >= len(self.route(seat)):
                    raise IllegalAction("route_end", "Your locomotive is at the end of your route.")
                coins[1] -= 1
                return self._move_loco(seat, 1)
            if pl.cond[t] >= self.positions(seat, t):
                raise IllegalAction("train_end", f"Your {t} conductor already stands on the last car.")
            coins[1] -= 1
            return self._move_conductor(seat, t, 1)
        t, pos = a.args[0], a.int_arg(1)
        err = self.upgrade_error(seat, t, pos)
        if err:
            raise IllegalAction("bad_upgrade", f"You cannot upgrade that car: {err}.")
        coins[2] -= 1
        return self._upgrade(seat, t, pos, "coin")

    def _do_buy(self, seat: int, a: Action) -> list[dict[str, Any]]:
        if not self._free_time(seat):
            raise IllegalAction("not_your_turn", "Game End cards are bought on your own turn.")
        gid = a.args[0]
        if gid not in self.s.ge_display:
            raise IllegalAction("not_on_offer", f"{gid} is not among the face-up Game End cards.")
        cols = [a.int_arg(i) for i in range(1, 5)]
        coins = self._p(seat).coins
        for c in (1, 2, 3):
            if cols.count(c) > (coins[c - 1] if 1 <= c <= 3 else 0):
                raise IllegalAction(
                    "no_coin",
                    f"You do not have {cols.count(c)} coin(s) in column {c}; a Game End "
                    "card costs 4 coins from any columns.",
                )
        if any(not 1 <= c <= 3 for c in cols):
            raise IllegalAction("malformed_action", "Coin columns are 1, 2 and 3.")
        for c in cols:
            coins[c - 1] -= 1
        return self._take_ge(seat, gid, bought=True)

    def _do_fulfil(self, seat: int, cid: str) -> list[dict[str, Any]]:
        if not self._free_time(seat):
            raise IllegalAction(
                "not_your_turn", "Contracts are fulfilled on your turn or in your scoring phase."
            )
        pl = self._p(seat)
        if cid not in pl.contracts:
            raise IllegalAction("no_contract", f"{cid} is not one of your open contracts.")
        card = self.deck.cards[cid]
        if not self.requirement_met(seat, cid):
            raise IllegalAction(
                "contract_not_met",
                f"Contract {cid} needs {describe_requirement(card.requirement)}; "
                "you do not meet it yet (rule: The Contracts).",
            )
        pl.contracts.remove(cid)
        pl.completed.append(cid)
        pl.bonus += self.expand(card.bonus, f"contract {cid}")
        return [
            _ev(
                "fulfil",
                f"{_seat_name(seat)} fulfils contract {cid} and gets {describe_effects(card.bonus)}.",
                seat=seat,
                card=cid,
                effects=card.bonus,
            )
        ]

    # --- scoring phases and the end ---------------------------------------------------------

    def _do_bonus(self, seat: int, i: int) -> list[dict[str, Any]]:
        route = self.route(seat)
        pl = self._p(seat)
        if not 1 <= i <= len(route) or route[i - 1].kind != "B":
            raise IllegalAction("no_bonus_station", f"Station {i} of your route is not a bonus station.")
        if i > pl.loco:
            raise IllegalAction("not_reached", f"Your locomotive has not reached station {i} yet.")
        if i in self._scoring().claimed:
            raise IllegalAction(
                "already_claimed",
                f"Station {i} already gave its bonus in this scoring phase "
                "(each bonus station pays once per scoring phase).",
            )
        self._scoring().claimed.append(i)
        pl.bonus += self.expand(route[i - 1].effects, f"bonus station {i}")
        return [
            _ev(
                "bonus",
                f"{_seat_name(seat)} receives bonus station {i}: {describe_effects(route[i - 1].effects)}.",
                seat=seat,
                station=i,
                effects=route[i - 1].effects,
            )
        ]

    def train_points(self, seat: int, train: str) -> int:
        """Points a train scores now: cars up to the conductor, and the tile if the conductor is on it."""
        pl = self._p(seat)
        cond = pl.cond[train]
        cars = pl.trains[train]
        pts = sum(v for v in cars[:cond] if v != MAIL)
        tile = pl.tiles[train]
        if tile is not None and cond == len(cars) + 1:
            pts += self._tile_value(tile)
        return int(pts)

    def unclaimed_bonus_stations(self, seat: int) -> list[int]:
        """Bonus stations the locomotive has reached that have not paid out in this scoring phase."""
        claimed = set(self.s.scoring.claimed) if self.s.scoring else set()
        reached = self._p(seat).loco
        return [
            i
            for i, st in enumerate(self.route(seat), start=1)
            if st.kind == "B" and i <= reached and i not in claimed
        ]

    def _do_done(self, seat: int) -> list[dict[str, Any]]:
        s = self.s
        waiting = self.unclaimed_bonus_stations(seat)
        if waiting:
            raise IllegalAction(
                "bonuses_waiting",
                "Receive your bonus stations first ("
                + ", ".join(f"bonus {i}" for i in waiting)
                + "); skip the symbols you do not want: "
                "you score points only after every bonus has been received (rule: Scoring Phase).",
            )
        up, low = self.train_points(seat, "upper"), self.train_points(seat, "lower")
        self._score(seat, up + low, "trains")
        events = [
            _ev(
                "train_scoring",
                f"{_seat_name(seat)} scores {up} for the upper train and {low} for the lower train.",
                seat=seat,
                points=up + low,
                upper=up,
                lower=low,
            )
        ]
        events += self._refill_display()
        sc = self._scoring()
        sc.index += 1
        sc.claimed = []
        if sc.index < self.players:
            return events
        s.scoring = None
        if s.round == 6:
            return events + self._final_scoring()
        s.round += 1
        s.phase = "play"
        self._deal_round()
        s.active = s.start_player
        events.append(
            _ev(
                "round_start",
                f"Round {s.round}: 18 Action cards from pile {(s.round + 1) // 2}.",
                round=s.round,
                pile=(s.round + 1) // 2,
            )
        )
        return events

    def game_end_points(self, seat: int) -> int:
        """Sum over types: base (X) Action cards of that type chosen x points on your Game End cards of it."""
        pl = self._p(seat)
        total = 0
        for t in C.GAME_END_TYPES:
            mult = sum(self.deck.game_end[g].points for g in pl.ge_cards if self.deck.game_end[g].type == t)
            if not mult:
                continue
            if self.config["game_end_typing"] == "printed":
                n = sum(
                    1
                    for cid in pl.completed
                    if self.deck.cards[cid].set == "X" and self.deck.cards[cid].game_end_type == t
                )
            else:
                n = sum(
                    1
                    for cid in pl.completed
                    if self.deck.cards[cid].set == "X" and self.deck.cards[cid].kind == t
                )
            total += n * mult
        return total

    def _final_scoring(self) -> list[dict[str, Any]]:
        events: list[dict[str, Any]] = []
        for seat in range(self.players):
            pl = self._p(seat)
            pl.contracts = []  # unfulfilled contracts are worth nothing
            coins = self.coins(seat)
            self._score(seat, coins, "coins_left")
            ge = self.game_end_points(seat)
            self._score(seat, ge, "game_end_cards")
            events.append(
                _ev(
                    "final",
                    f"{_seat_name(seat)} scores {coins} for coins and {ge} for Game End cards: "
                    f"{self.score(seat)} in total.",
                    seat=seat,
                    coins=coins,
                    game_end=ge,
                    total=self.score(seat),
                )
            )
        self.s.phase = "over"
        self.s.final = [r for r in self._ranking()]
        winners = [r["seat"] for r in self.s.final if r["winner"]]
        events.append(_ev("game_over", "The game is over.", winners=winners))
        events += [
            _ev("winner", f"{_seat_name(w)} wins with {self.score(w)} points.", seat=w, total=self.score(w))
            for w in winners
        ]
        return events

    def _ranking(self) -> list[dict[str, Any]]:
        totals = [self.score(i) for i in range(self.players)]
        out = []
        for i in range(self.players):
            rank = 1 + sum(1 for t in totals if t > totals[i])
            out.append(
                {
                    "seat": i,
                    "total": totals[i],
                    "rank": rank,
                    "winner": rank == 1,
                    "breakdown": dict(self._p(i).points),
                }
            )
        return out

    def final_scores(self) -> list[dict[str, Any]]:
        return self._ranking()

    # --- views ------------------------------------------------------------------------------

    def card_json(self, cid: str) -> dict[str, Any]:
        c = self.deck.cards[cid]
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

    def view(self, seat: int | None) -> dict[str, Any]:
        s = self.s
        over = self.is_over()
        players = []
        for i, pl in enumerate(s.players):
            mine = seat == i or over
            route = self.route(i)
            trains = {}
            for t in TRAINS:
                tile = pl.tiles[t]
                trains[t] = {
                    "cars": list(pl.trains[t]),
                    "conductor": pl.cond[t],
                    "mail_slot": pl.mails_used[t],
                    "tile": None if tile is None else {"order": tile, "value": self._tile_value(tile)},
                    "points_now": self.train_points(i, t),
                }
            players.append(
                {
                    "seat": i,
                    "score": self.score(i),
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
                        for k, st in enumerate(route, start=1)
                    ],
                    "route_cards": list(pl.route_cards),
                    "coins": list(pl.coins),
                    "contracts": [self.card_json(c) for c in pl.contracts],
                    "completed_count": len(pl.completed),
                    "completed_base": {
                        t: sum(
                            1
                            for c in pl.completed
                            if self.deck.cards[c].set == "X" and self.deck.cards[c].game_end_type == t
                        )
                        for t in C.GAME_END_TYPES
                    },
                    "mails_left": list(pl.mails_left),
                    "game_end_cards": (
                        [self.deck.game_end[g].to_json() for g in pl.ge_cards] if mine else None
                    ),
                    "game_end_count": len(pl.ge_cards),
                    "pending": [
                        {**x.to_json(), "text": describe_item(x)}
                        | ({} if mine else {"src": _public_src(x.src)})
                        for x in pl.pending + pl.bonus
                    ],
                }
            )
        rows = []
        for r in range(len(s.rows)):
            row = []
            for c in range(6):
                cid = s.rows[r][c]
                row.append(
                    {"status": s.slots[r][c], "card": self.card_json(cid) if cid is not None else None}
                )
            rows.append({"cleared": s.row_cleared[r], "removed": s.row_removed[r], "slots": row})
        top = next((r for r in range(3) if not s.row_cleared[r]), None)
        draft = None
        if s.phase == "draft":
            drafter = s.draft.order[s.draft.index]
            draft = {
                "seat": drafter,
                "hand": (
                    [self.deck.game_end[g].to_json() for g in s.draft.hand] if seat == drafter else None
                ),
                "hand_size": len(s.draft.hand),
            }
        return {
            "game_name": self.game_name,
            "players_count": self.players,
            "viewer": seat,
            "phase": s.phase,
            "round": s.round,
            "pile": (s.round + 1) // 2,
            "start_player": s.start_player,
            "active": s.active,
            "seats_to_act": self.seats_to_act(),
            "turns_done": s.turns_done,
            "rows": rows,
            "start_tile": {"taken_by": s.sp_taken_by, "row": top},
            "pile_sizes": {k: len(v) for k, v in s.piles.items()},
            "game_end_display": [self.deck.game_end[g].to_json() for g in s.ge_display],
            "game_end_pile_size": len(s.ge_pile),
            "draft": draft,
            "constantinople": [list(x) for x in s.constantinople],
            "tiles_left": [{"order": o, "value": self._tile_value(o)} for o in s.tiles_left],
            "scoring": (
                None
                if s.scoring is None
                else {"seat": s.scoring.order[s.scoring.index], "claimed": list(s.scoring.claimed)}
            ),
            "players": players,
            "deck_label": self.deck.label,
            "deck_sources": [[list(sets), path] for sets, path in self.deck.sources],
            "provisional": list(self.deck.provisional),
            "modules": list(self.config["modules"]),
            "final": s.final,
            "last_action": self.last_action(seat),
        }

    def last_action(self, viewer: int | None = None) -> dict[str, Any] | None:
        """The most recent action other than ``end`` (which only closes a turn), as seen by ``viewer``.

        ``{seat, kind, text, card}``: ``text`` is the action's text form; ``card`` is the Action card
        that ``seat`` took (``take``/``forgo``) in the same turn, so the move to highlight stays known
        while its symbols are answered, else None. Nothing hidden leaks: for a ``draft`` the position
        kept is left out for everyone, and for ``ge``/``buy`` the Game End card (which goes to a
        face-down pile) is left out for other viewers until the game is over; those texts are then
        just the kind. None before the first such action."""
        history = self.s.history
        for i in range(len(history) - 1, -1, -1):
            seat, text = history[i]
            a = A.parse_action(text)
            if a.kind == "end":
                continue
            shown = text
            if a.kind == "draft" or (a.kind in ("ge", "buy") and viewer != seat and not self.is_over()):
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


def describe_item(item: Symbol) -> str:
    """Plain words for one queued symbol (for the list of symbols still to answer, in any order)."""
    op = item.op
    if op == "up":
        return f"upgrade a {item.a} to {NEXT_STEP[item.a]}"
    if op == "choice":
        return "choose: " + " or ".join(describe_effects(o) for o in item.options)
    if op == "mail":
        return f"a mail car for the {item.train} train"
    if op == "upone":
        return "1 upgrade (forgone card)"
    if op in ("car", "upany", "cond1", "ge"):
        return describe_effects(f"{op}(1)")
    return describe_effects(f"{op}({item.n})")


def _ev(kind: str, text: str, visible_to: list[int] | None = None, **extra: Any) -> dict[str, Any]:
    """An event: ``visible_to`` None is public, else the seats that may read it (``public`` False then,
    for front ends that only know that flag)."""
    if {"type", "text", "public"} & extra.keys():
        raise ValueError(f"an event's facts may not be named type, text or public: {sorted(extra)}")
    event = {"type": kind, "text": text, **extra, "visible_to": visible_to}
    if visible_to is not None:
        event["public"] = False
    return event


_GAME_END_SOURCE = re.compile(r"Game End card \S+")


def _public_src(src: str) -> str:
    """A symbol's source as everyone may read it: which Game End card gave a bonus stays hidden."""
    return _GAME_END_SOURCE.sub("a Game End card", src)


def _by_train(values: dict[str, int], train: str, combine: bool) -> int:
    """Requirement helper: one train's value, or both trains (summed for counts, best for 'any')."""
    if train in TRAINS:
        return values[train]
    if train == "both":
        return min(values.values())
    return sum(values.values()) if combine else max(values.values())


def _has_seq(cars: list[int], wanted: tuple[int, ...]) -> bool:
    """Consecutive cars worth at least the wanted values (a higher car counts as every lower value)."""
    for i in range(len(cars) - len(wanted) + 1):
        if all(cars[i + j] >= w for j, w in enumerate(wanted)):
            return True
    return False


# Module rule hooks by name (see rules.firstclass.settings.Module.take_hooks).
TAKE_HOOKS: dict[str, Callable[[FirstClassGame, int, str], list[dict[str, Any]]]] = {
    "place_contract": FirstClassGame._hook_place_contract,
}

GAME_CLASS = FirstClassGame
