"""The Ticket to Ride engine: one class for every board, driven by the board's rule flags.

>>> from rules.games import new_game
>>> g = new_game("ttr", {"board": "usa"}, players=2, seed=1)
>>> g.phase, g.seats_to_act()
('setup', [0, 1])

Cards are small integers internally (0–7 colours, 8 locomotive, 9 "+4" locomotive, 10 passenger);
hands are count vectors. Every public method that changes the game validates the whole action
before touching any field, so an :class:`~rules.errors.IllegalAction` leaves the game unchanged.
"""

from __future__ import annotations

import random
import unicodedata
from functools import cache
from itertools import combinations
from typing import Any

from rules.errors import IllegalAction
from rules.ttr import actions as A
from rules.ttr.board import (
    CARD_INDEX,
    CARD_NAMES,
    COLOURS,
    GRAY,
    LOCO,
    N_CARD_TYPES,
    PASSENGER,
    PLUS4,
    Board,
    BoardDataError,
    Track,
    load_board,
)
from rules.ttr.scoring import best_station_choices, longest_trail, network, ticket_value, tickets_total

Event = dict[str, Any]
N_COLOURS = len(COLOURS)
_REFRESH_TYPES = {"locomotive": LOCO, "passenger": PASSENGER}
# Safety bound on consecutive face-up refreshes; the feasibility check below already stops the
# impossible cases, this only guards against astronomically unlucky shuffles.
_MAX_REFRESHES = 50
# Märklin passenger journeys listed per passenger by legal_actions (their number is exponential).
MAX_PASSENGER_JOURNEYS = 5000
PASSENGER_SEARCH_STEPS = 200_000


def _cards_vector(cards: A.Cards) -> list[int]:
    vec = [0] * N_CARD_TYPES
    for name, count in cards:
        vec[CARD_INDEX[name]] += count
    return vec


def _vector_cards(vec: list[int]) -> A.Cards:
    return tuple((CARD_NAMES[i], c) for i, c in enumerate(vec) if c)


class TTRGame:
    """A game of Ticket to Ride on one board. See ``docs/ttr-api.md`` for the view format."""

    game_name = "ttr"

    # ------------------------------------------------------------------ creation and serialisation
    def __init__(self, board: Board, config: dict[str, Any], players: int, seed: int) -> None:
        self.board = board
        self.config = dict(config)
        self.players = players
        self.seed = seed
        r = board.rules
        self.route_points = {int(k): int(v) for k, v in r["route_points"].items()}
        self.loco_counts_two: bool = bool(r["face_up_locomotive_counts_two"])
        self.refresh_types = tuple(_REFRESH_TYPES[t] for t in r["refresh_on_three"])
        self.locos_tunnels_only = r["locomotives"] == "tunnels-only"
        self.plus4_min = int(r.get("plus4_min_length", 99))
        self.double_min_players = int(r["double_routes_min_players"])
        self.has_passengers = int(r.get("passengers", 0)) > 0
        self.station_costs: list[int] = list(r.get("station_costs", []))
        # Mutable state (everything below is serialised by to_json).
        self.deck: list[int] = []
        self.discard: list[int] = []
        self.face_up: list[int] = [-1] * 5
        self.hands: list[list[int]] = [[0] * N_CARD_TYPES for _ in range(players)]
        self.shuffles = 0
        self.ticket_decks: dict[str, list[str]] = {"short": [], "long": []}
        self.tickets_out: list[str] = []
        self.tickets: list[list[str]] = [[] for _ in range(players)]
        self.offers: list[list[str] | None] = [None] * players
        self.setup_done: list[bool] = [False] * players
        self.owner: list[int] = [-1] * len(board.tracks)
        self.trains: list[int] = [int(r["trains"])] * players
        self.route_score: list[int] = [0] * players
        self.stations_left: list[int] = [int(r.get("stations", 0))] * players
        self.station_at: dict[str, int] = {}
        self.passengers_left: list[int] = [int(r.get("passengers", 0))] * players
        self.passenger_at: dict[str, int] = {}
        self.merchandise: dict[str, list[int]] = {c: list(v[0]) for c, v in board.merchandise.items()}
        self.merch_taken: list[list[int]] = [[] for _ in range(players)]
        self.phase = "setup"
        self.current = 0
        self.pending: str | None = None
        self.tunnel: dict[str, Any] | None = None
        self.final_turns_left: int | None = None
        self.turn = 0
        self.passes_in_a_row = 0
        self.last_action: dict[str, Any] | None = None
        # Move-generation cache: per seat, the tracks it may still claim (not owned, not closed by
        # the double-route rules), by shape. Derived from ``owner`` alone, never serialised, updated
        # by each claim and rebuilt whenever ``owner`` was changed any other way.
        self._open: list[dict[int, list[int]]] = []
        self._blocked_owner: list[int] = []

    @classmethod
    def new(cls, config: dict[str, Any], players: int, seed: int) -> TTRGame:
        """Set up a game: shuffle, deal 4 cards each and 5 face up, deal the opening tickets."""
        try:
            board = load_board(config.get("board", "usa"), config.get("variant"), config.get("ticket_deck"))
        except BoardDataError as exc:
            raise IllegalAction("bad_config", str(exc)) from None
        lo, hi = board.rules["players"]
        if not isinstance(players, int) or not lo <= players <= hi:
            raise IllegalAction("bad_config", f"{board.name} is played by {lo} to {hi} players, not {players}.")
        g = cls(board, {**config, "board": board.id}, players, int(seed))
        d = board.rules["deck"]
        deck = [c for c in range(N_COLOURS) for _ in range(d["colour_cards"])]
        deck += [LOCO] * d["locomotives"] + [PLUS4] * d["plus4_locomotives"] + [PASSENGER] * d["passenger_cards"]
        random.Random(f"{seed}:deck").shuffle(deck)
        g.deck = deck
        for seat in range(players):
            for _ in range(4):
                g.hands[seat][g.deck.pop()] += 1
        for slot in range(5):
            g.face_up[slot] = g._pop_card()
        g._refresh_face_up([])
        rng = random.Random(f"{seed}:tickets")
        for tid, t in board.tickets.items():
            g.ticket_decks["long" if t.kind == "long" else "short"].append(tid)
        for pile in g.ticket_decks.values():
            rng.shuffle(pile)
        init = board.rules["initial_tickets"]
        if "deal" in init:
            for seat in range(players):
                offer: list[str] = []
                for kind, n in init["deal"].items():
                    offer += g._take_tickets(kind, n)
                g.offers[seat] = offer
            if board.rules.get("undealt_long_tickets") == "out":
                g.tickets_out += g.ticket_decks["long"]
                g.ticket_decks["long"] = []
        return g

    def copy(self) -> TTRGame:
        return TTRGame.from_json(self.to_json(), board=self.board)

    def to_json(self) -> dict[str, Any]:
        return {
            "game_name": self.game_name,
            "config": self.config,
            "players": self.players,
            "seed": self.seed,
            "deck": list(self.deck),
            "discard": list(self.discard),
            "face_up": list(self.face_up),
            "hands": [list(h) for h in self.hands],
            "shuffles": self.shuffles,
            "ticket_decks": {k: list(v) for k, v in self.ticket_decks.items()},
            "tickets_out": list(self.tickets_out),
            "tickets": [list(t) for t in self.tickets],
            "offers": [None if o is None else list(o) for o in self.offers],
            "setup_done": list(self.setup_done),
            "owner": list(self.owner),
            "trains": list(self.trains),
            "route_score": list(self.route_score),
            "stations_left": list(self.stations_left),
            "station_at": dict(self.station_at),
            "passengers_left": list(self.passengers_left),
            "passenger_at": dict(self.passenger_at),
            "merchandise": {k: list(v) for k, v in self.merchandise.items()},
            "merch_taken": [list(m) for m in self.merch_taken],
            "phase": self.phase,
            "current": self.current,
            "pending": self.pending,
            "tunnel": None if self.tunnel is None else {**self.tunnel, "payment": list(self.tunnel["payment"]),
                                                         "revealed": list(self.tunnel["revealed"])},
            "final_turns_left": self.final_turns_left,
            "turn": self.turn,
            "passes_in_a_row": self.passes_in_a_row,
            "last_action": None if self.last_action is None else dict(self.last_action),
        }

    @classmethod
    def from_json(cls, obj: dict[str, Any], board: Board | None = None) -> TTRGame:
        config = obj["config"]
        if board is None:
            try:
                board = load_board(config.get("board", "usa"), config.get("variant"), config.get("ticket_deck"))
            except BoardDataError as exc:
                raise IllegalAction("bad_config", str(exc)) from None
        g = cls(board, config, int(obj["players"]), int(obj["seed"]))
        for key in ("deck", "discard", "face_up", "shuffles", "tickets_out", "setup_done", "owner", "trains",
                    "route_score", "stations_left", "station_at", "passengers_left", "passenger_at", "phase",
                    "current", "pending", "final_turns_left", "turn", "passes_in_a_row"):
            value = obj[key]
            setattr(g, key, list(value) if isinstance(value, list) else dict(value) if isinstance(value, dict) else value)
        g.hands = [list(h) for h in obj["hands"]]
        g.ticket_decks = {k: list(v) for k, v in obj["ticket_decks"].items()}
        g.tickets = [list(t) for t in obj["tickets"]]
        g.offers = [None if o is None else list(o) for o in obj["offers"]]
        g.merchandise = {k: list(v) for k, v in obj["merchandise"].items()}
        g.merch_taken = [list(m) for m in obj["merch_taken"]]
        t = obj["tunnel"]
        g.tunnel = None if t is None else {**t, "payment": list(t["payment"]), "revealed": list(t["revealed"])}
        g.last_action = None if obj["last_action"] is None else dict(obj["last_action"])
        return g

    @staticmethod
    def parse_action(text: str) -> A.Action:
        return A.parse_action(text)

    @staticmethod
    def action_from_json(obj: dict[str, Any]) -> A.Action:
        return A.action_from_json(obj)

    # ------------------------------------------------------------------ cards
    def _pop_card(self) -> int:
        """Top card of the deck, reshuffling the discard pile into a new deck when it runs out; -1 if
        both are empty."""
        if not self.deck:
            if not self.discard:
                return -1
            self.shuffles += 1
            self.deck = self.discard
            self.discard = []
            random.Random(f"{self.seed}:reshuffle:{self.shuffles}").shuffle(self.deck)
        return self.deck.pop()

    def _face_up_needs_refresh(self) -> bool:
        face_up = self.face_up
        return any(face_up.count(kind) >= 3 for kind in self.refresh_types)

    def _refresh_could_help(self) -> bool:
        """Whether dealing again can ever give a row without three of a refresh kind."""
        if not self.deck and not self.discard:
            return False
        pool = self.deck + self.discard + [c for c in self.face_up if c >= 0]
        capacity = 0
        for kind in range(N_CARD_TYPES):
            n = pool.count(kind)
            capacity += min(n, 2) if kind in self.refresh_types else n
        return capacity >= min(5, len(pool))

    def _refresh_face_up(self, events: list[Event]) -> None:
        """Three face-up locomotives (Märklin: or three passenger cards) discard all five and deal
        five new ones, again if it happens again — unless the deck and discard cannot change it."""
        refreshes = 0
        while self._face_up_needs_refresh() and refreshes < _MAX_REFRESHES:
            if not self._refresh_could_help():
                events.append({"type": "refresh_stopped", "text": "The face-up cards cannot be refreshed: "
                               "the deck and discard pile cannot supply a different row."})
                break
            refreshes += 1
            self.discard += [c for c in self.face_up if c >= 0]
            self.face_up = [-1] * 5
            for slot in range(5):
                self.face_up[slot] = self._pop_card()
            events.append({"type": "refresh", "text": "Three face-up cards of a kind: the row was discarded and "
                           "five new cards dealt.", "face_up": self.face_up_names()})

    def face_up_names(self) -> list[str | None]:
        return [CARD_NAMES[c] if c >= 0 else None for c in self.face_up]

    def _cards_available(self) -> bool:
        return bool(self.deck or self.discard or any(c >= 0 for c in self.face_up))

    def _can_draw_second(self) -> bool:
        if self.deck or self.discard:
            return True
        return any(c >= 0 and not (c == LOCO and self.loco_counts_two) for c in self.face_up)

    # ------------------------------------------------------------------ tickets
    def _take_tickets(self, kind: str, n: int) -> list[str]:
        pile = self.ticket_decks[kind]
        taken = [pile.pop() for _ in range(min(n, len(pile)))]
        return taken

    def _ticket_keep_bounds(self, seat: int) -> tuple[int, int]:
        offer = self.offers[seat] or []
        spec = self.board.rules["initial_tickets" if self.phase == "setup" else "draw_tickets"]
        keep_min = min(int(spec["keep_min"]), len(offer))
        keep_max = min(int(spec.get("keep_max", len(offer))), len(offer))
        return keep_min, keep_max

    # ------------------------------------------------------------------ turn structure
    def seats_to_act(self) -> list[int]:
        if self.phase == "setup":
            return [s for s in range(self.players) if not self.setup_done[s]]
        if self.phase == "play":
            return [self.current]
        return []

    def is_over(self) -> bool:
        return self.phase == "over"

    def _end_turn(self, events: list[Event]) -> None:
        seat = self.current
        self.pending = None
        self.tunnel = None
        self.turn += 1
        # Face-up slots emptied while deck and discard were exhausted are refilled as soon as
        # discarded cards can supply them (the row is always five cards when possible).
        if -1 in self.face_up and (self.deck or self.discard):
            for slot in range(5):
                if self.face_up[slot] < 0:
                    self.face_up[slot] = self._pop_card()
            self._refresh_face_up(events)
        elif self._face_up_needs_refresh() and self._refresh_could_help():
            # A refresh that had to wait (only locomotives left) happens once discards allow it.
            self._refresh_face_up(events)
        if self.final_turns_left is not None:
            self.final_turns_left -= 1
        elif self.trains[seat] <= 2:
            self.final_turns_left = self.players
            events.append({"type": "final_round", "seat": seat, "text": f"has {self.trains[seat]} trains left: "
                           "every player, this one included, gets one more turn."})
        if self.final_turns_left == 0 or self.passes_in_a_row >= self.players:
            self.phase = "over"
            reason = "the final round is over" if self.final_turns_left == 0 else "no player can act any more"
            events.append({"type": "game_over", "text": f"The game is over: {reason}."})
            return
        self.current = (seat + 1) % self.players

    # ------------------------------------------------------------------ validation helpers
    def _check_turn(self, seat: int) -> None:
        if not isinstance(seat, int) or not 0 <= seat < self.players:
            raise IllegalAction("not_a_seat", f"Seat {seat!r} is not in this game.")
        if self.phase == "over":
            raise IllegalAction("game_over", "The game is over; no more actions can be taken.")
        if self.phase == "setup":
            if self.setup_done[seat]:
                raise IllegalAction("not_your_turn", "You have already chosen your opening tickets; "
                                    "the game starts when everyone has.")
            return
        if seat != self.current:
            raise IllegalAction("not_your_turn", f"It is not your turn; seat {self.current + 1} is to play.")

    def _track(self, track_id: str) -> Track:
        track = self.board.track_by_id.get(track_id.strip().lower())
        if track is None:
            base = track_id.strip().lower()
            siblings = [t for t in self.board.tracks if t.pair_id.lower() == base]
            if siblings:
                ids = " or ".join(t.id for t in siblings)
                raise IllegalAction("ambiguous_route", f"{siblings[0].label} is a double route: say which track, {ids}.")
            raise IllegalAction("unknown_route", f"There is no route {track_id!r} on the {self.board.name} board.")
        return track

    def _hand_has(self, seat: int, need: list[int]) -> bool:
        hand = self.hands[seat]
        return all(hand[i] >= n for i, n in enumerate(need))

    def _describe_hand_shortfall(self, seat: int, need: list[int]) -> str:
        hand = self.hands[seat]
        parts = [f"{need[i]} {CARD_NAMES[i]} but have {hand[i]}" for i in range(N_CARD_TYPES) if need[i] > hand[i]]
        return "you need " + "; ".join(parts)

    def _payment_colour(self, vec: list[int], what: str) -> int | None:
        """The one colour used in a payment (None when it is all locomotives)."""
        if vec[PASSENGER]:
            raise IllegalAction("wrong_cards", f"Passenger cards cannot pay for {what}; they pay for passenger "
                                "moves on opponents' routes (rule 22).")
        colours = [c for c in range(N_COLOURS) if vec[c]]
        if len(colours) > 1:
            raise IllegalAction("mixed_colours", f"{what.capitalize()} must be paid with cards of one colour "
                                f"(plus locomotives), not {', '.join(COLOURS[c] for c in colours)}.")
        return colours[0] if colours else None

    def _validate_claim_payment(self, seat: int, track: Track, vec: list[int]) -> int | None:
        total = sum(vec)
        what = f"the route {track.label}"
        if total != track.length:
            raise IllegalAction("wrong_card_count", f"{track.label} is {track.length} long and needs exactly "
                                f"{track.length} cards; you offered {total}.")
        colour = self._payment_colour(vec, what)
        if colour is not None and track.colour != GRAY and colour != track.colour:
            raise IllegalAction("wrong_colour", f"{track.label} is {track.colour_name}: pay with {track.colour_name} "
                                f"cards and locomotives, not {COLOURS[colour]}.")
        wild = vec[LOCO] + vec[PLUS4]
        if wild and self.locos_tunnels_only and not track.tunnel:
            raise IllegalAction("locomotive_not_allowed", f"On the {self.board.name} board locomotives may only be "
                                f"used on tunnels, and {track.label} is not a tunnel.")
        if vec[PLUS4] and track.length < self.plus4_min:
            raise IllegalAction("plus4_too_short", f"\"+4\" locomotives may only be played on routes of 4 or more "
                                f"spaces (rule 12); {track.label} has {track.length}.")
        if track.ferry_locos and vec[LOCO] < track.ferry_locos:
            raise IllegalAction("ferry_needs_locomotives", f"{track.label} is a ferry with {track.ferry_locos} "
                                f"locomotive symbol(s): pay at least {track.ferry_locos} locomotive(s).")
        if not self._hand_has(seat, vec):
            raise IllegalAction("not_enough_cards", f"You cannot pay that for {track.label}: "
                                f"{self._describe_hand_shortfall(seat, vec)}.")
        return colour

    def _claim_blocker(self, seat: int, track: Track) -> IllegalAction | None:
        if self.owner[track.index] != -1:
            return IllegalAction("route_taken", f"{track.label} ({track.id}) is already claimed.")
        for sib in track.siblings:
            holder = self.owner[sib]
            if holder == seat:
                return IllegalAction("double_route_own", f"You already hold the other track of {track.label}; "
                                     "no player may claim two tracks of one double or triple route.")
            if holder != -1 and self.players < self.double_min_players:
                return IllegalAction("double_route_closed", f"With {self.players} players only one track of a "
                                     f"double or triple route may be claimed, and {track.label} is taken.")
        if self.trains[seat] < track.length:
            return IllegalAction("not_enough_trains", f"{track.label} needs {track.length} trains and you have "
                                 f"{self.trains[seat]} left.")
        return None

    # ------------------------------------------------------------------ apply
    def apply(self, seat: int, action: Any) -> list[Event]:
        """Validate and apply one action by ``seat``; return public events (no hidden information).

        Raises IllegalAction, leaving the game unchanged, when the action is not allowed."""
        self._check_turn(seat)
        if isinstance(action, str):
            action = A.parse_action(action)
        events: list[Event] = []
        if self.phase == "setup":
            self._apply_setup(seat, action, events)
            return events
        pending = self.pending
        kind = type(action)
        if pending == "draw_second" and kind not in _DRAWS:
            raise IllegalAction("finish_drawing", "You drew one card this turn: draw your second card "
                                "(a face-up card that is not a locomotive, or from the deck).")
        if pending == "tickets" and kind is not A.KeepTickets:
            raise IllegalAction("choose_tickets", "Choose which of the drawn tickets to keep first.")
        if pending == "tunnel" and kind not in _TUNNEL_ANSWERS:
            raise IllegalAction("tunnel_pending", "Pay the tunnel's extra cards or withdraw first.")
        if kind in _TUNNEL_ANSWERS and pending != "tunnel":
            raise IllegalAction("no_tunnel", "There is no tunnel waiting for payment.")
        if kind is A.Pass:
            if self._has_non_pass_action(seat):
                raise IllegalAction("must_act", "You must take an action: passing is only allowed when no draw, "
                                    "claim, ticket draw or other action is possible (rule 2).")
            self.passes_in_a_row += 1
            events.append({"type": "pass", "seat": seat, "text": "could not act and passed."})
            self.last_action = {"seat": seat, "kind": "pass", "text": "pass", "tracks": [], "cities": []}
            self._end_turn(events)
            return events
        handler = _HANDLERS.get(kind)
        if handler is None:
            raise IllegalAction("malformed_action", f"{action!r} is not a Ticket to Ride action.")
        handler(self, seat, action, events)
        self.passes_in_a_row = 0
        return events

    def _apply_setup(self, seat: int, action: Any, events: list[Event]) -> None:
        init = self.board.rules["initial_tickets"]
        if isinstance(action, A.DrawTickets) and "announce" in init and self.offers[seat] is None:
            self._draw_announced(seat, action, int(init["announce"]), events)
            return
        if not isinstance(action, A.KeepTickets) or ("announce" in init and self.offers[seat] is None):
            if "announce" in init and self.offers[seat] is None:
                raise IllegalAction("choose_tickets", f"Start by announcing {init['announce']} tickets as a mix of "
                                    "short and long, e.g. 'tickets draw short=2 long=2' (rule 18).")
            raise IllegalAction("choose_tickets", "Before the first turn, every player chooses which opening "
                                "tickets to keep.")
        kept = self._validate_keep(seat, action)
        self._finish_keep(seat, kept, events)
        self.setup_done[seat] = True
        if all(self.setup_done):
            self.phase = "play"
            self.current = 0
            events.append({"type": "start", "text": "Everyone has chosen tickets: the game begins."})

    def _validate_keep(self, seat: int, action: A.KeepTickets) -> list[str]:
        offer = self.offers[seat]
        if offer is None:
            raise IllegalAction("no_offer", "You have no drawn tickets to keep.")
        by_lower = {t.lower(): t for t in offer}
        kept: list[str] = []
        for tid in action.ids:
            real = by_lower.get(tid.lower())
            if real is None:
                raise IllegalAction("unknown_ticket", f"Ticket {tid!r} is not among the ones you drew "
                                    f"({', '.join(offer)}).")
            if real in kept:
                raise IllegalAction("duplicate_ticket", f"Ticket {real} is listed twice.")
            kept.append(real)
        lo, hi = self._ticket_keep_bounds(seat)
        if not lo <= len(kept) <= hi:
            span = f"exactly {lo}" if lo == hi else f"{lo} to {hi}"
            raise IllegalAction("wrong_ticket_count", f"Keep {span} of the {len(offer)} tickets, not {len(kept)}.")
        return kept

    def _finish_keep(self, seat: int, kept: list[str], events: list[Event]) -> None:
        offer = self.offers[seat] or []
        spec = self.board.rules["initial_tickets" if self.phase == "setup" else "draw_tickets"]
        returned = [t for t in offer if t not in kept]
        for tid in returned:
            if spec["returned"] == "bottom":
                kind = "long" if self.board.tickets[tid].kind == "long" else "short"
                self.ticket_decks[kind].insert(0, tid)
            else:
                self.tickets_out.append(tid)
        self.tickets[seat] += kept
        self.offers[seat] = None
        where = "to the bottom of the deck" if spec["returned"] == "bottom" else "out of the game"
        events.append({"type": "keep_tickets", "seat": seat, "kept": len(kept), "returned": len(returned),
                       "text": f"kept {len(kept)} ticket(s) and returned {len(returned)} {where}."})

    def _draw_announced(self, seat: int, action: A.DrawTickets, announce: int, events: list[Event]) -> None:
        if action.short < 0 or action.long < 0 or action.short + action.long != announce:
            raise IllegalAction("announce_tickets", f"Announce exactly {announce} tickets as a mix of short and long, "
                                f"e.g. 'tickets draw short=2 long=2' (rule 18).")
        short = min(action.short, len(self.ticket_decks["short"]))
        long_ = min(action.long, len(self.ticket_decks["long"]))
        if short + long_ == 0:
            raise IllegalAction("no_tickets", "There are no tickets left in the decks you announced (rule 20).")
        self.offers[seat] = self._take_tickets("short", short) + self._take_tickets("long", long_)
        self.pending = "tickets" if self.phase == "play" else None
        events.append({"type": "draw_tickets", "seat": seat, "short": short, "long": long_,
                       "text": f"drew {short} short and {long_} long ticket(s)."})

    # --- drawing train cards
    def _do_draw_face(self, seat: int, action: A.DrawFaceUp, events: list[Event]) -> None:
        if not isinstance(action.slot, int) or not 0 <= action.slot < 5:
            raise IllegalAction("bad_slot", f"Face-up slots are numbered 0 to 4, not {action.slot!r}.")
        card = self.face_up[action.slot]
        if card < 0:
            raise IllegalAction("empty_slot", f"Face-up slot {action.slot} is empty.")
        whole_turn = card == LOCO and self.loco_counts_two
        if whole_turn and self.pending == "draw_second":
            raise IllegalAction("locomotive_second", "A face-up locomotive cannot be your second card; take another "
                                "face-up card or draw from the deck.")
        self.hands[seat][card] += 1
        self.face_up[action.slot] = self._pop_card()
        events.append({"type": "draw_face", "seat": seat, "card": CARD_NAMES[card], "slot": action.slot,
                       "text": f"took a face-up {CARD_NAMES[card]}."})
        self._refresh_face_up(events)
        self._after_card_drawn(seat, whole_turn, events, f"took a face-up {CARD_NAMES[card]}")

    def _do_draw_deck(self, seat: int, action: A.DrawDeck, events: list[Event]) -> None:
        if not self.deck and not self.discard:
            raise IllegalAction("deck_empty", "The train deck and discard pile are empty: take a face-up card or "
                                "choose another action.")
        card = self._pop_card()
        self.hands[seat][card] += 1
        events.append({"type": "draw_deck", "seat": seat, "text": "drew a card from the deck."})
        self._after_card_drawn(seat, False, events, "drew from the deck")

    def _after_card_drawn(self, seat: int, whole_turn: bool, events: list[Event], text: str) -> None:
        second = self.pending == "draw_second"
        if self.last_action and second and self.last_action.get("seat") == seat and self.last_action["kind"] == "draw":
            self.last_action["text"] += f", then {text}"
        else:
            self.last_action = {"seat": seat, "kind": "draw", "text": text, "tracks": [], "cities": []}
        if second or whole_turn:
            self._end_turn(events)
        elif not self._can_draw_second():
            events.append({"type": "no_second_card", "seat": seat, "text": "no second card can be drawn."})
            self._end_turn(events)
        else:
            self.pending = "draw_second"

    # --- claiming
    def _do_claim(self, seat: int, action: A.ClaimRoute, events: list[Event]) -> None:
        track = self._track(action.track)
        blocker = self._claim_blocker(seat, track)
        if blocker:
            raise blocker
        vec = _cards_vector(A.normalize_cards(action.cards))
        colour = self._validate_claim_payment(seat, track, vec)
        if action.passenger is not None:
            self._validate_passenger_placement(seat, track, action.passenger)
        if track.tunnel:
            revealed = [c for c in (self._pop_card() for _ in range(3)) if c >= 0]
            if colour is None:
                surcharge = sum(1 for c in revealed if c == LOCO)
            else:
                surcharge = sum(1 for c in revealed if c in (colour, LOCO))
            names = [CARD_NAMES[c] for c in revealed]
            events.append({"type": "tunnel_reveal", "seat": seat, "track": track.id, "revealed": names,
                           "surcharge": surcharge, "text": f"tried the tunnel {track.label}: revealed "
                           f"{', '.join(names) or 'nothing (no cards left)'}; {surcharge} extra card(s) needed."})
            if surcharge:
                self.tunnel = {"seat": seat, "track": track.index, "payment": vec, "revealed": revealed,
                               "surcharge": surcharge, "colour": colour, "passenger": action.passenger}
                self.pending = "tunnel"
                self.last_action = {"seat": seat, "kind": "tunnel", "text": f"tunnel {track.label}",
                                    "tracks": [track.id], "cities": []}
                if self.board.rules.get("tunnel_auto_withdraw") and not self.tunnel_payments(seat):
                    # Seed 004's digital edition: an unpayable surcharge passes the turn at once.
                    self._do_withdraw_tunnel(seat, A.WithdrawTunnel(), events)
                return
            self.discard += revealed
        self._complete_claim(seat, track, vec, action.passenger, events)

    def _complete_claim(self, seat: int, track: Track, vec: list[int], passenger: str | None,
                        events: list[Event]) -> None:
        hand = self.hands[seat]
        for i, n in enumerate(vec):
            if n:
                hand[i] -= n
                self.discard += [i] * n
        self._note_claim_in_cache(seat, track)
        self.owner[track.index] = seat
        self.trains[seat] -= track.length
        points = self.route_points[track.length]
        self.route_score[seat] += points
        events.append({"type": "claim", "seat": seat, "track": track.id, "points": points,
                       "cards": dict(_vector_cards(vec)),
                       "text": f"claimed {track.label} ({track.length}, {track.colour_name}) for {points} point(s) "
                               f"with {A.describe_cards(_vector_cards(vec))}."})
        cities: list[str] = []
        if passenger is not None:
            city = self._city_name(passenger)
            self.passenger_at[city] = seat
            self.passengers_left[seat] -= 1
            cities.append(city)
            events.append({"type": "passenger_placed", "seat": seat, "city": city,
                           "text": f"placed a passenger in {city}."})
        self.last_action = {"seat": seat, "kind": "claim", "text": f"claimed {track.label}", "tracks": [track.id],
                            "cities": cities}
        self._end_turn(events)

    def _do_pay_tunnel(self, seat: int, action: A.PayTunnel, events: list[Event]) -> None:
        tun = self.tunnel
        assert tun is not None
        track = self.board.tracks[tun["track"]]
        extra = _cards_vector(A.normalize_cards(action.cards))
        if sum(extra) != tun["surcharge"]:
            raise IllegalAction("wrong_card_count", f"The tunnel needs exactly {tun['surcharge']} extra card(s); "
                                f"you offered {sum(extra)}.")
        colour = tun["colour"]
        allowed = {LOCO, PLUS4} if colour is None else {colour, LOCO, PLUS4}
        bad = [CARD_NAMES[i] for i in range(N_CARD_TYPES) if extra[i] and i not in allowed]
        if bad:
            need = "locomotives" if colour is None else f"{COLOURS[colour]} cards or locomotives"
            raise IllegalAction("wrong_colour", f"The tunnel's extra cards must be {need}, not {', '.join(bad)}.")
        if extra[PLUS4] and track.length < self.plus4_min:
            raise IllegalAction("plus4_too_short", "\"+4\" locomotives only pay for routes of 4 or more spaces.")
        total = [a + b for a, b in zip(tun["payment"], extra, strict=True)]
        if not self._hand_has(seat, total):
            raise IllegalAction("not_enough_cards", f"You cannot pay the tunnel: {self._describe_hand_shortfall(seat, total)}.")
        self.discard += tun["revealed"]
        self._complete_claim(seat, track, total, tun.get("passenger"), events)

    def _do_withdraw_tunnel(self, seat: int, action: A.WithdrawTunnel, events: list[Event]) -> None:
        tun = self.tunnel
        assert tun is not None
        track = self.board.tracks[tun["track"]]
        self.discard += tun["revealed"]
        events.append({"type": "tunnel_withdraw", "seat": seat, "track": track.id,
                       "text": f"withdrew from the tunnel {track.label} and took the cards back."})
        self.last_action = {"seat": seat, "kind": "tunnel_withdraw", "text": f"withdrew from {track.label}",
                            "tracks": [track.id], "cities": []}
        self._end_turn(events)

    def tunnel_payments(self, seat: int) -> list[A.Cards]:
        """Every way ``seat`` can pay the pending tunnel's surcharge."""
        tun = self.tunnel
        if tun is None or tun["seat"] != seat:
            return []
        hand = [h - p for h, p in zip(self.hands[seat], tun["payment"], strict=True)]
        need = tun["surcharge"]
        colour = tun["colour"]
        track = self.board.tracks[tun["track"]]
        p4 = hand[PLUS4] if track.length >= self.plus4_min else 0
        out: list[A.Cards] = []
        n_colour = hand[colour] if colour is not None else 0
        for c in range(min(n_colour, need), -1, -1):
            for lo in range(min(hand[LOCO], need - c), -1, -1):
                rest = need - c - lo
                if rest <= p4:
                    vec = [0] * N_CARD_TYPES
                    if c:
                        vec[colour] = c  # type: ignore[index]
                    vec[LOCO] = lo
                    vec[PLUS4] = rest
                    out.append(_vector_cards(vec))
        return out

    # --- stations
    def _do_station(self, seat: int, action: A.BuildStation, events: list[Event]) -> None:
        if not self.station_costs:
            raise IllegalAction("no_stations", f"There are no stations on the {self.board.name} board.")
        city = self._city_name(action.city)
        if self.board.cities[city].is_country:
            raise IllegalAction("station_on_country", f"{city} is a country; stations go in cities.")
        if self.stations_left[seat] <= 0:
            raise IllegalAction("no_stations_left", "You have built all your stations.")
        if city in self.station_at:
            raise IllegalAction("station_taken", f"{city} already has a station; each city holds only one.")
        cost = self.station_costs[len(self.station_costs) - self.stations_left[seat]]
        vec = _cards_vector(A.normalize_cards(action.cards))
        if sum(vec) != cost:
            raise IllegalAction("wrong_card_count", f"Your next station costs {cost} card(s) of one colour "
                                f"(locomotives may replace them); you offered {sum(vec)}.")
        self._payment_colour(vec, "a station")
        if vec[PLUS4]:
            raise IllegalAction("wrong_cards", "\"+4\" locomotives cannot pay for stations.")
        if not self._hand_has(seat, vec):
            raise IllegalAction("not_enough_cards", f"You cannot pay for the station: "
                                f"{self._describe_hand_shortfall(seat, vec)}.")
        for i, n in enumerate(vec):
            self.hands[seat][i] -= n
            self.discard += [i] * n
        self.stations_left[seat] -= 1
        self.station_at[city] = seat
        events.append({"type": "station", "seat": seat, "city": city,
                       "text": f"built a station in {city} with {A.describe_cards(_vector_cards(vec))}."})
        self.last_action = {"seat": seat, "kind": "station", "text": f"station in {city}", "tracks": [],
                            "cities": [city]}
        self._end_turn(events)

    def _city_name(self, name: str) -> str:
        found = self.board.cities.get(name)
        if found is None:
            key = _fold(name)
            for c in self.board.cities:
                if _fold(c) == key:
                    return c
            raise IllegalAction("unknown_city", f"There is no city {name!r} on the {self.board.name} board.")
        return found.name

    # --- tickets in play
    def _do_draw_tickets(self, seat: int, action: A.DrawTickets, events: list[Event]) -> None:
        spec = self.board.rules["draw_tickets"]
        if "announce" in spec:
            self._draw_announced(seat, action, int(spec["announce"]), events)
        else:
            if action.long or action.short not in (0, sum(spec["deal"].values())):
                raise IllegalAction("malformed_action", f"On the {self.board.name} board you draw "
                                    f"{sum(spec['deal'].values())} tickets: write 'tickets draw'.")
            if not any(self.ticket_decks[k] for k in spec["deal"]):
                raise IllegalAction("no_tickets", "The ticket deck is empty.")
            offer: list[str] = []
            for kind, n in spec["deal"].items():
                offer += self._take_tickets(kind, n)
            self.offers[seat] = offer
            self.pending = "tickets"
            events.append({"type": "draw_tickets", "seat": seat, "short": len(offer), "long": 0,
                           "text": f"drew {len(offer)} ticket(s)."})
        self.last_action = {"seat": seat, "kind": "tickets", "text": "drew tickets", "tracks": [], "cities": []}

    def _do_keep(self, seat: int, action: A.KeepTickets, events: list[Event]) -> None:
        if self.pending != "tickets":
            raise IllegalAction("no_offer", "You have no drawn tickets to keep; draw tickets first.")
        kept = self._validate_keep(seat, action)
        self._finish_keep(seat, kept, events)
        self._end_turn(events)

    # --- Märklin passengers
    def _validate_passenger_placement(self, seat: int, track: Track, city_name: str) -> None:
        if not self.has_passengers:
            raise IllegalAction("no_passengers", f"There are no passengers on the {self.board.name} board.")
        city = self._city_name(city_name)
        if city not in (track.a, track.b):
            raise IllegalAction("passenger_not_on_route", f"A passenger is placed in one of the two cities of the "
                                f"route just claimed ({track.a} or {track.b}), not {city} (rule 17).")
        if self.board.cities[city].is_country:
            raise IllegalAction("passenger_country", f"Passengers may not be placed in {city}, outside Germany "
                                "(rule 17).")
        if city in self.passenger_at:
            raise IllegalAction("passenger_city_taken", f"A passenger already stands in {city} (rule 17).")
        if self.passengers_left[seat] <= 0:
            raise IllegalAction("no_passengers_left", "You have no passengers left to place.")

    def _do_move_passenger(self, seat: int, action: A.MovePassenger, events: list[Event]) -> None:
        if not self.has_passengers:
            raise IllegalAction("no_passengers", f"There are no passengers on the {self.board.name} board.")
        start = self._city_name(action.start)
        if self.passenger_at.get(start) != seat:
            raise IllegalAction("no_passenger_there", f"You have no passenger in {start}.")
        if not action.tracks:
            raise IllegalAction("empty_move", "Name at least one route for the passenger to travel along.")
        here = start
        used: set[int] = set()
        visited: list[str] = []
        fares = 0
        for tid in action.tracks:
            track = self._track(tid)
            if track.index in used:
                raise IllegalAction("route_reused", f"The passenger may use each route at most once per move "
                                    f"(rule 21); {track.label} appears twice.")
            if here not in (track.a, track.b):
                raise IllegalAction("not_connected", f"{track.label} does not leave {here}; the routes must form "
                                    "one connected journey (rule 21).")
            holder = self.owner[track.index]
            if holder == -1:
                raise IllegalAction("unclaimed_route", f"{track.label} is unclaimed; passengers travel only on "
                                    "claimed routes (rules 21-22).")
            if holder != seat:
                fares += 1
            here = track.b if here == track.a else track.a
            if self.board.cities[here].is_country:
                raise IllegalAction("passenger_country", f"Passengers may not travel to {here}, outside Germany, "
                                    "even passing through (rule 23).")
            used.add(track.index)
            visited.append(here)
        if self.hands[seat][PASSENGER] < fares:
            raise IllegalAction("not_enough_passenger_cards", f"That journey uses {fares} opponent route(s) and "
                                f"costs {fares} passenger card(s); you have {self.hands[seat][PASSENGER]} (rule 22).")
        self.hands[seat][PASSENGER] -= fares
        self.discard += [PASSENGER] * fares
        gained: list[int] = []
        collected: set[str] = set()
        for city in visited:
            if city == start or city in collected:
                continue
            collected.add(city)
            stack = self.merchandise.get(city)
            if stack:
                gained.append(stack.pop(0))
        self.merch_taken[seat] += gained
        del self.passenger_at[start]
        events.append({"type": "passenger_move", "seat": seat, "start": start, "path": visited, "tokens": gained,
                       "fares": fares, "text": f"moved a passenger from {start} through {', '.join(visited)}, "
                       f"collecting {sum(gained)} point(s) of merchandise{f' and paying {fares} fare(s)' if fares else ''}; "
                       "the passenger leaves the game."})
        self.last_action = {"seat": seat, "kind": "passenger", "text": f"passenger from {start}",
                            "tracks": [self._track(t).id for t in action.tracks], "cities": [start, *visited]}
        self._end_turn(events)

    # ------------------------------------------------------------------ legal actions
    def legal_actions(self, seat: int) -> list[Any]:
        """Every legal action for ``seat``. Claim and station payments are enumerated in full."""
        if seat not in self.seats_to_act():
            return []
        if self.phase == "setup":
            init = self.board.rules["initial_tickets"]
            if self.offers[seat] is None and "announce" in init:
                return self._announce_actions(int(init["announce"]))
            return self._keep_actions(seat)
        if self.pending == "tickets":
            return self._keep_actions(seat)
        if self.pending == "tunnel":
            return [A.PayTunnel(p) for p in self.tunnel_payments(seat)] + [A.WithdrawTunnel()]
        if self.pending == "draw_second":
            out: list[Any] = [_DRAW_FACE[i] for i, c in enumerate(self.face_up)
                              if c >= 0 and not (c == LOCO and self.loco_counts_two)]
            if self.deck or self.discard:
                out.append(_DRAW_DECK)
            return out
        out = []
        out += [_DRAW_FACE[i] for i, c in enumerate(self.face_up) if c >= 0]
        if self.deck or self.discard:
            out.append(_DRAW_DECK)
        out += self._claim_actions(seat)
        spec = self.board.rules["draw_tickets"]
        if "announce" in spec:
            out += self._announce_actions(int(spec["announce"]))
        elif any(self.ticket_decks[k] for k in spec["deal"]):
            out.append(_DRAW_TICKETS)
        out += self._station_actions(seat)
        out += self._passenger_actions(seat)
        if not out:
            out.append(A.Pass())
        return out

    def _has_non_pass_action(self, seat: int) -> bool:
        return any(not isinstance(a, A.Pass) for a in self.legal_actions(seat))

    def _announce_actions(self, announce: int) -> list[Any]:
        n_short, n_long = len(self.ticket_decks["short"]), len(self.ticket_decks["long"])
        return [A.DrawTickets(s, announce - s) for s in range(announce + 1)
                if min(s, n_short) + min(announce - s, n_long) > 0]

    def _keep_actions(self, seat: int) -> list[Any]:
        offer = self.offers[seat] or []
        lo, hi = self._ticket_keep_bounds(seat)
        return [A.KeepTickets(combo) for k in range(lo, hi + 1) for combo in combinations(offer, k)]

    def claim_payments(self, seat: int, track: Track) -> list[A.Cards]:
        """Every card combination ``seat`` could pay for ``track`` now (ignoring whose turn it is)."""
        hand = self.hands[seat]
        length = track.length
        wild_ok = not (self.locos_tunnels_only and not track.tunnel)
        locos = hand[LOCO] if wild_ok else 0
        p4 = hand[PLUS4] if wild_ok and length >= self.plus4_min else 0
        ferry = track.ferry_locos
        # Capping the counts at the length keeps the cache small: more cards change nothing.
        locos, p4 = min(locos, length), min(p4, length)
        if track.colour == GRAY:
            out: list[A.Cards] = []
            for c in range(N_COLOURS):
                if hand[c]:
                    out += _colour_payments(c, min(hand[c], length), locos, p4, length, ferry)
        else:
            n = hand[track.colour]
            out = list(_colour_payments(track.colour, min(n, length), locos, p4, length, ferry)) if n else []
        if locos + p4 >= length:
            out += _wild_payments(locos, p4, length, ferry)
        return out

    def _open_for(self, seat: int) -> dict[int, list[int]]:
        """For ``seat``: shape id -> positions (within the shape) of the tracks it may still claim."""
        if self._blocked_owner != self.owner:
            self._open = []
            if all(o == -1 for o in self.owner):
                fresh = {shape_id: list(range(len(tracks)))
                         for _, shapes in _shapes_by_colour(self.board) for _, shape_id, tracks in shapes}
                self._open = [{k: list(v) for k, v in fresh.items()} for _ in range(self.players)]
                self._blocked_owner = list(self.owner)
                return self._open[seat]
            for s in range(self.players):
                open_tracks: dict[int, list[int]] = {}
                for _, shapes in _shapes_by_colour(self.board):
                    for _, shape_id, tracks in shapes:
                        open_tracks[shape_id] = [i for i, t in enumerate(tracks)
                                                 if self._claimable_ignoring_trains(s, t)]
                self._open.append(open_tracks)
            self._blocked_owner = list(self.owner)
        return self._open[seat]

    def _note_claim_in_cache(self, seat: int, track: Track) -> None:
        if not self._open or self._blocked_owner[track.index] != -1:
            return
        where = _track_shape_positions(self.board)
        closes_siblings = self.players < self.double_min_players
        for s, open_tracks in enumerate(self._open):
            closed = [track.index]
            if s == seat or closes_siblings:
                closed += track.siblings
            for index in closed:
                shape_id, pos = where[index]
                positions = open_tracks[shape_id]
                if pos in positions:
                    positions.remove(pos)
        self._blocked_owner[track.index] = seat

    def _claimable_ignoring_trains(self, seat: int, track: Track) -> bool:
        owner = self.owner
        if owner[track.index] != -1:
            return False
        for sib in track.siblings:
            holder = owner[sib]
            if holder == seat or (holder != -1 and self.players < self.double_min_players):
                return False
        return True

    def _claim_actions(self, seat: int) -> list[Any]:
        hand = self.hands[seat]
        wild_any = hand[LOCO] + hand[PLUS4]
        best_colour = max(hand[:N_COLOURS])
        trains = self.trains[seat]
        out: list[Any] = []
        passengers = self.has_passengers and self.passengers_left[seat] > 0
        open_tracks = self._open_for(seat)
        for colour, shapes in _shapes_by_colour(self.board):
            reach = min((best_colour if colour == GRAY else hand[colour]) + wild_any, trains)
            for length, shape_id, tracks in shapes:
                if length > reach:
                    break
                per_part: list[tuple[tuple[A.ClaimRoute, ...], ...]] | None = None
                for i in open_tracks[shape_id]:
                    track = tracks[i]
                    if not passengers:
                        # Every track of one shape shares its payments; only the id differs, so the
                        # actions come from one cached table per shape and payment key.
                        if per_part is None:
                            per_part = [_shape_claims(shape_id, *part) for part in self._payment_parts(hand, track)]
                        for table in per_part:
                            out += table[i]
                        continue
                    pays = self.claim_payments(seat, track)
                    places: list[str | None] = [None] + [
                        c for c in (track.a, track.b)
                        if c not in self.passenger_at and not self.board.cities[c].is_country
                    ]
                    out += [A.ClaimRoute(track.id, pay, place) for pay in pays for place in places]
        return out

    def _payment_parts(self, hand: list[int], track: Track) -> list[tuple[int, int, int, int, int, int]]:
        """Keys of :func:`_shape_claims` for ``hand`` on a track of this shape: one per colour held
        (the route's colour, or every colour on gray) and one for all-locomotive payments."""
        length = track.length
        wild_ok = not (self.locos_tunnels_only and not track.tunnel)
        locos = min(hand[LOCO], length) if wild_ok else 0
        p4 = min(hand[PLUS4], length) if wild_ok and length >= self.plus4_min else 0
        ferry = track.ferry_locos
        colours = range(N_COLOURS) if track.colour == GRAY else (track.colour,)
        parts = [(c, min(hand[c], length), locos, p4, length, ferry) for c in colours if hand[c]]
        if locos + p4 >= length:
            parts.append((-1, 0, locos, p4, length, ferry))
        return parts

    def _station_actions(self, seat: int) -> list[Any]:
        if not self.station_costs or self.stations_left[seat] <= 0:
            return []
        cost = self.station_costs[len(self.station_costs) - self.stations_left[seat]]
        hand = self.hands[seat]
        pays: list[A.Cards] = []
        for c in range(N_COLOURS):
            for k in range(min(hand[c], cost), 0, -1):
                if cost - k <= hand[LOCO]:
                    pays.append(((COLOURS[c], k),) + _wild_cards(cost - k, 0))
        if hand[LOCO] >= cost:
            pays.append(_wild_cards(cost, 0))
        if not pays:
            return []
        out: list[Any] = []
        for city in self.board.cities.values():
            if city.is_country or city.name in self.station_at:
                continue
            by_pay = _STATION_CACHE.setdefault(city.name, {})
            for pay in pays:
                action = by_pay.get(pay)
                if action is None:
                    action = by_pay[pay] = A.BuildStation(city.name, pay)
                out.append(action)
        return out

    def passenger_journeys(self, seat: int, start: str) -> list[tuple[str, ...]]:
        """One journey (as track ids) for each distinct outcome a passenger of ``seat`` in ``start``
        can reach now. Journeys that visit the same set of cities for the same number of fares
        take the same merchandise and cost the same (rules 21–25), so one of them stands for all.

        The number of trails grows exponentially with a large claimed network and many passenger
        cards, so the search stops after MAX_PASSENGER_JOURNEYS outcomes or PASSENGER_SEARCH_STEPS
        steps; apply() still accepts any legal journey."""
        fares_left = self.hands[seat][PASSENGER]
        adj: dict[str, list[Track]] = {}
        for t in self.board.tracks:
            if self.owner[t.index] != -1:
                adj.setdefault(t.a, []).append(t)
                adj.setdefault(t.b, []).append(t)
        journeys: list[tuple[str, ...]] = []
        outcomes: set[tuple[frozenset[str], int]] = set()
        used: set[int] = set()
        path: list[str] = []
        visited: list[str] = []
        steps = 0

        def walk(city: str, fares: int) -> None:
            nonlocal steps
            for t in adj.get(city, ()):
                if t.index in used:
                    continue
                nxt = t.b if city == t.a else t.a
                if self.board.cities[nxt].is_country:
                    continue
                cost = fares + (self.owner[t.index] != seat)
                if cost > fares_left:
                    continue
                steps += 1
                if len(journeys) >= MAX_PASSENGER_JOURNEYS or steps > PASSENGER_SEARCH_STEPS:
                    return
                used.add(t.index)
                path.append(t.id)
                visited.append(nxt)
                outcome = (frozenset(visited) - {start}, cost)
                if outcome not in outcomes:
                    outcomes.add(outcome)
                    journeys.append(tuple(path))
                walk(nxt, cost)
                visited.pop()
                path.pop()
                used.discard(t.index)

        walk(start, 0)
        return journeys

    def _passenger_actions(self, seat: int) -> list[Any]:
        if not self.has_passengers:
            return []
        return [A.MovePassenger(city, journey) for city, s in self.passenger_at.items() if s == seat
                for journey in self.passenger_journeys(seat, city)]

    # ------------------------------------------------------------------ scoring
    def own_tracks(self, seat: int) -> list[int]:
        return [i for i, o in enumerate(self.owner) if o == seat]

    def ticket_status(self, seat: int) -> list[dict[str, Any]]:
        """The seat's tickets with their current value against its own routes (no stations)."""
        uf = network(self.board, self.own_tracks(seat))
        out = []
        for tid in self.tickets[seat]:
            value, done = ticket_value(self.board.tickets[tid], uf)
            out.append({**_ticket_json(self.board, tid), "completed": done, "value": value})
        return out

    def final_scores(self) -> list[dict[str, Any]]:
        """Scores with a breakdown per seat (total == sum of the breakdown), ranks and winners.

        Callable at any time; before the end it shows what the score would be if the game ended now."""
        r = self.board.rules
        rows: list[dict[str, Any]] = []
        trails: list[tuple[int, list[int]]] = []
        for seat in range(self.players):
            own = self.own_tracks(seat)
            my_stations = [c for c, s in self.station_at.items() if s == seat]
            if my_stations:
                choice, (won, lost, completed) = best_station_choices(self.board, own, self.tickets[seat],
                                                                      my_stations, self.owner, seat)
                borrowed = [self.board.tracks[i].id for i in choice.values() if i is not None]
                uf = network(self.board, own + [i for i in choice.values() if i is not None])
            else:
                won, lost, completed = tickets_total(self.board, self.tickets[seat], network(self.board, own))
                borrowed = []
                uf = network(self.board, own)
            tickets = []
            for tid in self.tickets[seat]:
                value, done = ticket_value(self.board.tickets[tid], uf)
                tickets.append({**_ticket_json(self.board, tid), "completed": done, "value": value})
            trails.append(longest_trail(self.board, own))
            breakdown = {"routes": self.route_score[seat], "tickets_won": won, "tickets_lost": lost}
            if r.get("unused_station_points"):
                breakdown["stations"] = int(r["unused_station_points"]) * self.stations_left[seat]
            if self.has_passengers:
                breakdown["merchandise"] = sum(self.merch_taken[seat])
            rows.append({"seat": seat, "breakdown": breakdown, "tickets": tickets, "tickets_completed": completed,
                         "borrowed_routes": borrowed, "stations_used": len(my_stations)})
        best_trail = max(t[0] for t in trails)
        bonus = int(r.get("longest_path_bonus", 0))
        most = int(r.get("most_tickets_bonus", 0))
        most_done = max(row["tickets_completed"] for row in rows)
        for seat, row in enumerate(rows):
            row["longest_trail"] = trails[seat][0]
            row["longest_trail_tracks"] = [self.board.tracks[i].id for i in trails[seat][1]]
            if bonus:
                row["breakdown"]["longest_path"] = bonus if trails[seat][0] == best_trail and best_trail > 0 else 0
            if most:
                row["breakdown"]["most_tickets"] = most if row["tickets_completed"] == most_done and most_done > 0 else 0
            row["total"] = sum(row["breakdown"].values())
        def key(row: dict[str, Any]) -> tuple[int, ...]:
            parts = [row["total"]]
            for tb in r["tie_breaks"]:
                if tb == "tickets_completed":
                    parts.append(row["tickets_completed"])
                elif tb == "fewest_stations_used":
                    parts.append(-row["stations_used"])
                elif tb == "longest_path":
                    parts.append(int(row["longest_trail"] == best_trail))
            return tuple(parts)
        keys = [key(row) for row in rows]
        for row, k in zip(rows, keys, strict=True):
            row["rank"] = 1 + sum(1 for other in keys if other > k)
            row["winner"] = row["rank"] == 1
        return rows

    # ------------------------------------------------------------------ views
    def public_score(self, seat: int) -> int:
        return self.route_score[seat] + sum(self.merch_taken[seat])

    def view(self, seat: int | None) -> dict[str, Any]:
        """What ``seat`` may see (``None`` for a spectator): never another seat's hand, tickets or
        ticket offer, nor the order of any deck."""
        over = self.phase == "over"
        final = self.final_scores() if over else None
        seats = []
        for s in range(self.players):
            seats.append({
                "seat": s,
                "score": final[s]["total"] if final else self.public_score(s),
                "trains": self.trains[s],
                "cards": sum(self.hands[s]),
                "tickets": len(self.tickets[s]),
                "stations": self.stations_left[s],
                "passengers": self.passengers_left[s],
                "merchandise": list(self.merch_taken[s]),
                "tickets_completed": final[s]["tickets_completed"] if final else None,
                "choosing_tickets": self.offers[s] is not None,
            })
        you = None
        if seat is not None:
            lo = hi = None
            if self.offers[seat] is not None:
                lo, hi = self._ticket_keep_bounds(seat)
            you = {
                "hand": {CARD_NAMES[i]: n for i, n in enumerate(self.hands[seat]) if n},
                "tickets": self.ticket_status(seat),
                "offer": None if self.offers[seat] is None else [_ticket_json(self.board, t) for t in self.offers[seat] or []],
                "keep_min": lo,
                "keep_max": hi,
            }
        tunnel = None
        if self.tunnel:
            tunnel = {"seat": self.tunnel["seat"], "track": self.board.tracks[self.tunnel["track"]].id,
                      "revealed": [CARD_NAMES[c] for c in self.tunnel["revealed"]],
                      "surcharge": self.tunnel["surcharge"],
                      "colour": None if self.tunnel["colour"] is None else COLOURS[self.tunnel["colour"]]}
        return {
            "game": "ttr",
            "board": self.board.id,
            "board_name": self.board.name,
            "variant": self.board.variant,
            "players": self.players,
            "seat": seat,
            "phase": self.phase,
            "turn": self.turn,
            "current": self.current if self.phase == "play" else None,
            "to_act": self.seats_to_act(),
            "pending": self.pending,
            "final_round": self.final_turns_left is not None,
            "final_turns_left": self.final_turns_left,
            "face_up": self.face_up_names(),
            "deck_size": len(self.deck),
            "discard_size": len(self.discard),
            "ticket_deck_sizes": {k: len(v) for k, v in self.ticket_decks.items()},
            "claims": {self.board.tracks[i].id: o for i, o in enumerate(self.owner) if o != -1},
            "stations": dict(self.station_at),
            "passengers": dict(self.passenger_at),
            "merchandise": {k: list(v) for k, v in self.merchandise.items()},
            "tunnel": tunnel,
            "last_action": None if self.last_action is None else dict(self.last_action),
            "seats": seats,
            "you": you,
            "final": final,
            "notes": board_notes(self.board),
        }


_BY_COLOUR: dict[int, list[tuple[int, list[Track]]]] = {}
# Actions are immutable, so move generation hands out shared instances instead of rebuilding them.
_DRAW_FACE = tuple(A.DrawFaceUp(i) for i in range(5))
_DRAW_DECK = A.DrawDeck()
_DRAW_TICKETS = A.DrawTickets()
_STATION_CACHE: dict[str, dict[A.Cards, A.BuildStation]] = {}


def _tracks_by_colour(board: Board) -> list[tuple[int, list[Track]]]:
    """The board's tracks grouped by colour, shortest first, so move generation can stop at the
    first track longer than the cards in hand could pay."""
    key = id(board)
    groups = _BY_COLOUR.get(key)
    if groups is None:
        by: dict[int, list[Track]] = {}
        for t in board.tracks:
            by.setdefault(t.colour, []).append(t)
        groups = [(c, sorted(ts, key=lambda t: t.length)) for c, ts in sorted(by.items())]
        _BY_COLOUR[key] = groups
    return groups


_SHAPES: dict[int, list[tuple[int, list[tuple[int, int, list[Track]]]]]] = {}
# Track ids of every shape registered by _shapes_by_colour, indexed by shape id.
_SHAPE_TRACK_IDS: list[tuple[str, ...]] = []
_SHAPE_POSITIONS: dict[int, dict[int, tuple[int, int]]] = {}


def _track_shape_positions(board: Board) -> dict[int, tuple[int, int]]:
    """Track index -> (shape id, position within the shape) for :func:`_shapes_by_colour`."""
    key = id(board)
    found = _SHAPE_POSITIONS.get(key)
    if found is None:
        found = {t.index: (shape_id, i) for _, shapes in _shapes_by_colour(board)
                 for _, shape_id, tracks in shapes for i, t in enumerate(tracks)}
        _SHAPE_POSITIONS[key] = found
    return found


def _shapes_by_colour(board: Board) -> list[tuple[int, list[tuple[int, int, list[Track]]]]]:
    """Tracks grouped by colour, then by shape (length, tunnel, ferry), shortest first: payments
    depend only on the shape, and generation stops at the first shape longer than the hand reaches."""
    key = id(board)
    groups = _SHAPES.get(key)
    if groups is None:
        groups = []
        for colour, tracks in _tracks_by_colour(board):
            shapes: dict[tuple[int, int, bool, int], list[Track]] = {}
            for t in tracks:
                shapes.setdefault((colour, t.length, t.tunnel, t.ferry_locos), []).append(t)
            entries = []
            for shape, ts in sorted(shapes.items(), key=lambda kv: kv[0][1]):
                _SHAPE_TRACK_IDS.append(tuple(t.id for t in ts))
                entries.append((shape[1], len(_SHAPE_TRACK_IDS) - 1, ts))
            groups.append((colour, entries))
        _SHAPES[key] = groups
    return groups


@cache
def _shape_claims(shape_id: int, colour: int, n: int, locos: int, p4: int, length: int,
                  ferry: int) -> tuple[tuple[A.ClaimRoute, ...], ...]:
    """Shared, immutable claim actions for every track of one shape paid with one colour (-1:
    locomotives only), indexed like the shape's tracks."""
    pays = _wild_payments(locos, p4, length, ferry) if colour < 0 else _colour_payments(colour, n, locos, p4, length, ferry)
    return tuple(tuple(A.ClaimRoute(tid, pay) for pay in pays) for tid in _SHAPE_TRACK_IDS[shape_id])


@cache
def _colour_payments(colour: int, n: int, locos: int, p4: int, length: int, ferry: int) -> tuple[A.Cards, ...]:
    """Payments for a route of ``length`` using 1..n cards of ``colour`` plus wild cards."""
    out: list[A.Cards] = []
    for k in range(min(n, length - ferry), 0, -1):
        wild = length - k
        if wild > locos + p4:
            break
        for lo in range(max(ferry, wild - p4), min(locos, wild) + 1):
            out.append(((COLOURS[colour], k),) + _wild_cards(lo, wild - lo))
    return tuple(out)


@cache
def _wild_payments(locos: int, p4: int, length: int, ferry: int) -> tuple[A.Cards, ...]:
    """All-locomotive payments for a route of ``length``."""
    return tuple(_wild_cards(lo, length - lo) for lo in range(max(ferry, length - p4), min(locos, length) + 1))


def _wild_cards(locos: int, plus4: int) -> A.Cards:
    out: list[tuple[str, int]] = []
    if locos:
        out.append(("locomotive", locos))
    if plus4:
        out.append(("plus4", plus4))
    return tuple(out)


def _fold(text: str) -> str:
    decomposed = unicodedata.normalize("NFKD", text.casefold().replace("ß", "ss"))
    return "".join(ch for ch in decomposed if ch.isalnum())


def _ticket_json(board: Board, tid: str) -> dict[str, Any]:
    t = board.tickets[tid]
    return {"id": t.id, "origin": t.origin, "destinations": [list(d) for d in t.destinations], "kind": t.kind,
            "points": t.points, "text": t.describe()}


def board_notes(board: Board) -> list[str]:
    """Honest labels for data that is not the published game's (shown with every board)."""
    notes: list[str] = []
    if board.rules.get("ticket_deck_is_standin") or str(board.rules.get("ticket_deck_label", "")).startswith("Custom"):
        notes.append(str(board.rules["ticket_deck_label"]))
    provisional = sorted(c for c, (_, _, status) in board.merchandise.items() if status == "provisional")
    if provisional:
        notes.append("Merchandise: Berlin is verified, the six red stacks are inferred, and the yellow/white stacks "
                     "of these cities are provisional (assignment unknown): " + ", ".join(provisional) + ".")
    if board.variant:
        notes.append(f"Variant {board.variant}: {board.rules.get('variant_description', '')}")
    return notes


_DRAWS = (A.DrawFaceUp, A.DrawDeck)
_TUNNEL_ANSWERS = (A.PayTunnel, A.WithdrawTunnel)

_HANDLERS: dict[type, Any] = {
    A.DrawFaceUp: TTRGame._do_draw_face,
    A.DrawDeck: TTRGame._do_draw_deck,
    A.ClaimRoute: TTRGame._do_claim,
    A.PayTunnel: TTRGame._do_pay_tunnel,
    A.WithdrawTunnel: TTRGame._do_withdraw_tunnel,
    A.DrawTickets: TTRGame._do_draw_tickets,
    A.KeepTickets: TTRGame._do_keep,
    A.BuildStation: TTRGame._do_station,
    A.MovePassenger: TTRGame._do_move_passenger,
}

GAME_CLASS = TTRGame
