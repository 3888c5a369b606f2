"""The First Class engine's facade (base game + Module A contracts), data-driven.

>>> from rules.firstclass.game import FirstClassGame
>>> g = FirstClassGame.new({}, players=2, seed=1)
>>> g.s.phase, g.seats_to_act()
('draft', [1])

The engine is split like Ticket to Ride's: the immutable card data (:mod:`rules.firstclass.deck`),
the typed state (:mod:`rules.firstclass.state`), a seat's board and its queue of symbols
(:mod:`rules.firstclass.board`), setting up and playing rounds (:mod:`rules.firstclass.draft`), the
one table of effect ops (:mod:`rules.firstclass.ops`), coins, Game End cards and contracts
(:mod:`rules.firstclass.spend`), scoring (:mod:`rules.firstclass.scoring`), who acts and the legal
actions (:mod:`rules.firstclass.movegen`) and what a seat sees (:mod:`rules.firstclass.view`). This
module keeps creation, saving, ``apply`` (validate, dispatch, settle) and the public API.

A turn is a short series of small actions: take a card (or forgo it, or take the Start Player
tile), then resolve its symbols one by one from a per-seat queue (``pending`` for the card's own
symbols, ``bonus`` for bonuses they trigger - the rulebook says you decide on the card's actions
before receiving bonuses), spend coins, and ``end`` the turn. Symbols with no decision are carried
out automatically; symbols that need one can always be skipped (carrying out a card partly is
allowed).
"""

from __future__ import annotations

from typing import Any

from rules.errors import IllegalAction
from rules.firstclass import actions as A
from rules.firstclass import board as _board
from rules.firstclass import movegen as _movegen
from rules.firstclass import ops as _ops
from rules.firstclass import scoring as _scoring
from rules.firstclass import view as _view
from rules.firstclass.actions import Action
from rules.firstclass.board import CATEGORIES, MAIL, EngineLoopError, free_time, head
from rules.firstclass.deck import Deck, build_deck
from rules.firstclass.draft import deal_round, do_draft, do_end, do_start, do_take, new_state
from rules.firstclass.effects import Station
from rules.firstclass.events import Event, seat_name
from rules.firstclass.ops import answer, coin_blocked, describe_item, settle
from rules.firstclass.scoring import do_bonus, do_done
from rules.firstclass.settings import resolve_config
from rules.firstclass.spend import do_buy, do_fulfil, do_spend
from rules.firstclass.state import GameState, Symbol
from rules.firstclass.view import GAME_NAME
from rules.protocol import Action as GameAction
from rules.protocol import FinalScore

__all__ = [
    "CATEGORIES",
    "GAME_CLASS",
    "MAIL",
    "STEP_ACTION_LIMIT",
    "Deck",
    "EngineLoopError",
    "FirstClassGame",
    "build_deck",
    "describe_item",
]

# Actions one turn or one scoring step may take. Random and heuristic playouts need at most ~15; a
# turn is one card, its symbols, and spending at most the 12 coins a board holds plus those gained.
STEP_ACTION_LIMIT = 200
STEP_ENDS = ("end", "done", "draft")


class FirstClassGame:
    """A game of First Class (base rules, Module A contracts and our open module O)."""

    game_name = GAME_NAME

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
        new card data never changes how an old game replays. Its edition of the open deck is the
        snapshot's (no key: the first), so the replayed config is the one it was saved with."""
        stored = snapshot.get("config")
        edition = stored.get("open_deck", 1) if isinstance(stored, dict) else 1
        return cls.new({**config, "open_deck": edition}, players, seed, deck=Deck.from_json(snapshot["deck"]))

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
        state = new_state(cfg, players, seed, deck)
        game = cls(players, seed, cfg, deck, state)
        deal_round(game)
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

    # --- queries (the engine's modules answer them) ------------------------------------------

    def score(self, seat: int) -> int:
        return _board.score(self, seat)

    def route(self, seat: int) -> tuple[Station, ...]:
        return _board.route(self, seat)

    def positions(self, seat: int, train: str) -> int:
        return _board.positions(self, seat, train)

    def can_lengthen(self, seat: int, train: str) -> bool:
        return _board.can_lengthen(self, seat, train)

    def upgrade_error(self, seat: int, train: str, pos: int) -> str | None:
        """Why the car at ``pos`` (1-based) cannot be upgraded one step, or None if it can."""
        return _board.upgrade_error(self, seat, train, pos)

    def legal_upgrades(self, seat: int, value: int | None = None) -> list[tuple[str, int]]:
        return _board.legal_upgrades(self, seat, value)

    def coins(self, seat: int) -> int:
        return _board.coins(self, seat)

    def coin_room(self, seat: int) -> int:
        return _board.coin_room(self, seat)

    def head(self, seat: int) -> Symbol | None:
        return _board.head(self, seat)

    def group(self, seat: int) -> list[Symbol]:
        """The symbols ``seat`` answers now, in any order (see :func:`rules.firstclass.board.group`)."""
        return _board.group(self, seat)

    @staticmethod
    def expand(text: str, src: str) -> list[Symbol]:
        """Turn an effect sequence into queued symbols, one per decision."""
        return _ops.expand(text, src)

    def requirement_met(self, seat: int, card_id: str) -> bool:
        return _board.requirement_met(self, seat, card_id)

    def train_points(self, seat: int, train: str) -> int:
        """Points a train scores now: cars up to the conductor, and the tile if the conductor is on it."""
        return _scoring.train_points(self, seat, train)

    def unclaimed_bonus_stations(self, seat: int) -> list[int]:
        return _scoring.unclaimed_bonus_stations(self, seat)

    def game_end_points(self, seat: int) -> int:
        return _scoring.game_end_points(self, seat)

    def final_scores(self) -> list[FinalScore]:
        return _scoring.ranking(self)

    # --- who acts and what they may do ---------------------------------------------------------

    def is_over(self) -> bool:
        return _movegen.is_over(self)

    def seats_to_act(self) -> list[int]:
        return _movegen.seats_to_act(self)

    def legal_actions(self, seat: int) -> list[Action]:
        return _movegen.legal_actions(self, seat)

    # --- views ---------------------------------------------------------------------------------

    def card_json(self, cid: str) -> _view.CardView:
        return _view.card_json(self, cid)

    def view(self, seat: int | None) -> _view.FirstClassView:
        return _view.view(self, seat)

    def last_action(self, viewer: int | None = None) -> _view.LastActionView | None:
        """The most recent action other than ``end``, as ``viewer`` may see it (see
        :func:`rules.firstclass.view.last_action`)."""
        return _view.last_action(self, viewer)

    # --- apply ---------------------------------------------------------------------------------

    def apply(self, seat: int, action: GameAction | str) -> list[Event]:
        """Validate and carry out ``action`` by ``seat``; the events. Raises IllegalAction, changing nothing."""
        # Callers are typed, but a front end may still hand over the text a player typed, or anything.
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
            who = ", ".join(seat_name(x) for x in self.seats_to_act())
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
                events += settle(self, other)
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

    def _dispatch(self, seat: int, a: Action) -> list[Event]:
        s = self.s
        if s.phase == "draft":
            if a.kind != "draft":
                raise IllegalAction(
                    "wrong_phase", "First keep one Game End card from the draft (rule: setup step 9)."
                )
            return do_draft(self, seat, a.int_arg(0))
        h = head(self, seat)
        if h is not None:
            if coin_blocked(self, seat) and free_time(self, seat):
                # making room for coins: any way of spending coins is allowed
                if a.kind.startswith("spend_"):
                    return do_spend(self, seat, a)
                if a.kind == "buy" and (s.phase == "play" or self.config["buy_game_end_in_scoring"]):
                    return do_buy(self, seat, a)
            return answer(self, seat, h, a)
        if a.kind in ("car", "up", "cond", "choose", "mail", "ge", "skip"):
            raise IllegalAction("nothing_pending", f"There is no symbol waiting for {a.kind!r}.")
        if a.kind.startswith("spend_"):
            return do_spend(self, seat, a)
        if a.kind == "buy":
            if s.phase == "scoring" and not self.config["buy_game_end_in_scoring"]:
                raise IllegalAction(
                    "wrong_phase",
                    "Game End cards are bought on your own turn, not in a scoring phase "
                    "(setting buy_game_end_in_scoring).",
                )
            return do_buy(self, seat, a)
        if a.kind == "fulfil":
            return do_fulfil(self, seat, a.args[0])
        if s.phase == "play":
            if a.kind in ("take", "forgo", "start"):
                if s.taken:
                    raise IllegalAction(
                        "already_taken",
                        "You already took an Action card this turn (rule: during your turn choose 1 Action card).",
                    )
                if a.kind == "start":
                    return do_start(self, seat)
                return do_take(self, seat, a.args[0], forgo=a.kind == "forgo")
            if a.kind == "end":
                if not s.taken:
                    raise IllegalAction(
                        "must_take",
                        "You must choose 1 Action card or the Start Player tile before ending your turn.",
                    )
                return do_end(self, seat)
            raise IllegalAction("wrong_phase", f"{a.kind!r} is only possible in a scoring phase.")
        if a.kind == "bonus":
            return do_bonus(self, seat, a.int_arg(0))
        if a.kind == "done":
            return do_done(self, seat)
        raise IllegalAction("wrong_phase", f"{a.kind!r} is not possible during a scoring phase.")


GAME_CLASS = FirstClassGame
