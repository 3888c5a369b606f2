"""The Ticket to Ride engine's facade: one class for every board, driven by the board's typed rules.

>>> from rules.games import new_game
>>> g = new_game("ttr", {"board": "usa"}, players=2, seed=1)
>>> g.phase, g.seats_to_act()
('setup', [0, 1])

The game is split OpenSpiel-style: the static board (:class:`~rules.ttr.board.Board` with its typed
rule flags ``spec`` and precomputed move tables), the mutable :class:`~rules.ttr.state.TTRState`,
move generation (:mod:`rules.ttr.movegen`), scoring (:mod:`rules.ttr.scoring`) and what a seat
sees (:mod:`rules.ttr.view`). This module keeps the transitions (validate, then apply) and the
public API.

Cards are small integers internally (0–7 colours, 8 locomotive, 9 "+4" locomotive, 10 passenger);
hands are count vectors. Every public method that changes the game validates the whole action
before touching any field, so an :class:`~rules.errors.IllegalAction` leaves the game unchanged.
"""

from __future__ import annotations

import random
import unicodedata
from typing import Any, Final, cast

from rules.errors import IllegalAction
from rules.protocol import Action as GameAction
from rules.protocol import FinalScore
from rules.ttr import actions as A
from rules.ttr import movegen, view
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
from rules.ttr.movegen import MAX_PASSENGER_JOURNEYS, PASSENGER_SEARCH_STEPS, OpenTracks, vector_cards
from rules.ttr.scoring import final_scores, own_tracks, public_score, ticket_status
from rules.ttr.state import FIELD_NAMES, TTRState
from rules.ttr.view import board_notes

__all__ = ["GAME_CLASS", "MAX_PASSENGER_JOURNEYS", "PASSENGER_SEARCH_STEPS", "TTRGame", "board_notes"]

Event = dict[str, Any]
N_COLOURS = len(COLOURS)
# Safety bound on consecutive face-up refreshes; the feasibility check below already stops the
# impossible cases, this only guards against astronomically unlucky shuffles.
_MAX_REFRESHES = 50


# Card tuples already met -> their count vector (the same few hundred payments recur all game).
_VECTORS: dict[A.Cards, tuple[int, ...]] = {}
_VECTORS_LIMIT = 10_000


def _cards_vector(cards: A.Cards | dict[str, int]) -> list[int]:
    """The count vector of a payment, validated (see :func:`rules.ttr.actions.normalize_cards`)."""
    if isinstance(cards, tuple):
        known = _VECTORS.get(cards)
        if known is not None:
            return list(known)
    vec = [0] * N_CARD_TYPES
    for name, count in A.normalize_cards(cards):
        vec[CARD_INDEX[name]] += count
    if isinstance(cards, tuple):
        if len(_VECTORS) >= _VECTORS_LIMIT:
            _VECTORS.clear()
        _VECTORS[cards] = tuple(vec)
    return vec


_SCALARS = frozenset((str, int, bool, float, type(None)))


def shuffle(rng: random.Random, items: list[Any]) -> None:
    """``rng.shuffle(items)``, step for step (the Fisher-Yates walk of ``random.Random.shuffle``
    drawing with ``getrandbits``), so seeded games deal exactly as they always have; written out
    here because a compiled build then runs it natively (a game's set-up is mostly shuffling)."""
    getrandbits = rng.getrandbits
    for i in range(len(items) - 1, 0, -1):
        n = i + 1
        k = n.bit_length()
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        items[i], items[j] = items[j], items[i]


def _json_copy(value: Any) -> Any:
    """A deep copy of a JSON-shaped value, so a caller that edits scores or a view edits its own."""
    kind = type(value)
    if kind is list:
        return [v if type(v) in _SCALARS else _json_copy(v) for v in value]
    if kind is dict:
        return {k: v if type(v) in _SCALARS else _json_copy(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_json_copy(v) for v in value]
    if isinstance(value, dict):
        return {k: _json_copy(v) for k, v in value.items()}
    return value


def _load(config: dict[str, Any]) -> Board:
    try:
        return load_board(config.get("board", "usa"), config.get("variant"), config.get("ticket_deck"))
    except BoardDataError as exc:
        raise IllegalAction("bad_config", str(exc)) from None


class TTRGame:
    """A game of Ticket to Ride on one board. See ``docs/ttr-api.md`` for the view format.

    The state's fields (``hands``, ``owner``, ``phase``...) are also readable and writable as
    attributes of the game, for tests and tools; the engine itself works on ``self.state``."""

    game_name = "ttr"

    # ------------------------------------------------------------------ creation and serialisation
    def __init__(
        self, board: Board, config: dict[str, Any], players: int, seed: int, state: TTRState | None = None
    ) -> None:
        self.board = board
        self.spec = board.spec
        self._tables = board.tables
        self.config = dict(config)
        self.players = players
        self.seed = seed
        self.state = TTRState.initial(board, players) if state is None else state
        # Move-generation cache, derived from ``state.owner`` alone and never serialised.
        self._open = OpenTracks(board, players)
        # A finished game's scores with the fingerprint of what they were computed from.
        self._final: tuple[tuple[Any, ...], list[dict[str, Any]]] | None = None

    @classmethod
    def new(cls, config: dict[str, Any], players: int, seed: int) -> TTRGame:
        """Set up a game: shuffle, deal 4 cards each and 5 face up, deal the opening tickets."""
        board = _load(config)
        spec = board.spec
        lo, hi = spec.min_players, spec.max_players
        if not isinstance(players, int) or not lo <= players <= hi:
            raise IllegalAction(
                "bad_config", f"{board.name} is played by {lo} to {hi} players, not {players}."
            )
        g = cls(board, {**config, "board": board.id}, players, int(seed))
        st = g.state
        deck = [card for card, count in enumerate(spec.deck) for _ in range(count)]
        shuffle(random.Random(f"{seed}:deck"), deck)
        st.deck = deck
        for seat in range(players):
            for _ in range(4):
                st.hands[seat][st.deck.pop()] += 1
        for slot in range(5):
            st.face_up[slot] = g._pop_card()
        g._refresh_face_up([])
        rng = random.Random(f"{seed}:tickets")
        for tid, t in board.tickets.items():
            st.ticket_decks["long" if t.kind == "long" else "short"].append(tid)
        for pile in st.ticket_decks.values():
            shuffle(rng, pile)
        init = spec.initial_tickets
        if init.deal:
            for seat in range(players):
                offer: list[str] = []
                for kind, n in init.deal:
                    offer += g._take_tickets(kind, n)
                st.offers[seat] = offer
            if spec.undealt_long_tickets_out:
                st.tickets_out += st.ticket_decks["long"]
                st.ticket_decks["long"] = []
        return g

    def copy(self) -> TTRGame:
        """An independent game in the same state (the static board is shared)."""
        other = TTRGame(self.board, self.config, self.players, self.seed, self.state.copy())
        other._open = self._open.copy()
        return other

    def to_json(self) -> dict[str, Any]:
        """The whole game as JSON: a header (name, config, players, seed), then the state fields."""
        return {
            "game_name": self.game_name,
            "config": dict(self.config),
            "players": self.players,
            "seed": self.seed,
            **self.state.to_json(),
        }

    @classmethod
    def from_json(cls, obj: dict[str, Any], board: Board | None = None) -> TTRGame:
        """Restore a game from :meth:`to_json` output (including games stored by older versions)."""
        config = obj["config"]
        if board is None:
            board = _load(config)
        return cls(board, config, int(obj["players"]), int(obj["seed"]), TTRState.from_json(obj))

    @staticmethod
    def parse_action(text: str) -> A.Action:
        return A.parse_action(text)

    @staticmethod
    def action_from_json(obj: dict[str, Any]) -> A.Action:
        return A.action_from_json(obj)

    # ------------------------------------------------------------------ queries (delegated)
    def legal_actions(self, seat: int) -> list[A.Action]:
        """Every legal action for ``seat``. Claim and station payments are enumerated in full."""
        return movegen.legal_actions(self.board, self.state, self.players, seat, self._open)

    def claim_payments(self, seat: int, track: Track) -> list[A.Cards]:
        """Every card combination ``seat`` could pay for ``track`` now (ignoring whose turn it is)."""
        return movegen.claim_payments(self.board, self.state.hands[seat], track)

    def tunnel_payments(self, seat: int) -> list[A.Cards]:
        """Every way ``seat`` can pay the pending tunnel's surcharge."""
        return movegen.tunnel_payments(self.board, self.state, seat)

    def passenger_journeys(self, seat: int, start: str | None = None) -> list[tuple[str, ...]]:
        """One journey per distinct outcome for a passenger of ``seat`` in ``start`` (Märklin); with
        no ``start``, the ways the journey under way can go on. For planning: moves are played step
        by step (StartJourney, TravelRoute, EndJourney)."""
        return movegen.passenger_journeys(self.board, self.state, seat, start)

    def seats_to_act(self) -> list[int]:
        return movegen.seats_to_act(self.state, self.players)

    def is_over(self) -> bool:
        return self.state.phase == "over"

    def _ticket_keep_bounds(self, seat: int) -> tuple[int, int]:
        return movegen.ticket_keep_bounds(self.board, self.state, seat)

    def _can_draw_second(self) -> bool:
        return movegen.can_draw_second(self.board, self.state)

    def _has_non_pass_action(self, seat: int) -> bool:
        return any(not isinstance(a, A.Pass) for a in self.legal_actions(seat))

    def own_tracks(self, seat: int) -> list[int]:
        return own_tracks(self.state, seat)

    def ticket_status(self, seat: int) -> list[dict[str, Any]]:
        """The seat's tickets with their current value against its own routes (no stations)."""
        return ticket_status(self.board, self.state, seat)

    def final_scores(self) -> list[FinalScore]:
        """Scores with a breakdown per seat (total == sum of the breakdown), ranks and winners.

        Callable at any time; before the end it shows what the score would be if the game ended now.
        A finished game is scored once: later calls (and views) get a copy of the same result.
        Each row has the keys of :class:`FinalScore` (and Ticket to Ride's own, see
        docs/ttr-api.md); scoring builds them as plain dicts, the one place they are declared so."""
        if self.state.phase != "over":
            return cast(list[FinalScore], final_scores(self.board, self.state, self.players))
        scores: list[FinalScore] = _json_copy(self._finished_scores())
        return scores

    def _finished_scores(self) -> list[dict[str, Any]]:
        """The finished game's scores, computed once (again only if the state was edited since)."""
        st = self.state
        # Everything final scoring reads; cheap to build next to scoring itself.
        key = (
            tuple(st.owner),
            tuple(st.station_at.items()),
            tuple(map(tuple, st.tickets)),
            tuple(st.route_score),
            tuple(st.stations_left),
            tuple(map(tuple, st.merch_taken)),
        )
        cached = self._final
        if cached is None or cached[0] != key:
            cached = self._final = (key, final_scores(self.board, st, self.players))
        return cached[1]

    def public_score(self, seat: int) -> int:
        return public_score(self.state, seat)

    def face_up_names(self) -> list[str | None]:
        return view.face_up_names(self.state)

    def view(self, seat: int | None) -> view.TTRView:
        """What ``seat`` may see (``None`` for a spectator): never another seat's hand, tickets or
        ticket offer, nor the order of any deck."""
        final = _json_copy(self._finished_scores()) if self.state.phase == "over" else None
        return view.view(self.board, self.state, self.players, seat, final)

    # ------------------------------------------------------------------ cards
    def _pop_card(self) -> int:
        """Top card of the deck, reshuffling the discard pile into a new deck when it runs out; -1 if
        both are empty."""
        st = self.state
        if not st.deck:
            if not st.discard:
                return -1
            st.shuffles += 1
            st.deck = st.discard
            st.discard = []
            shuffle(random.Random(f"{self.seed}:reshuffle:{st.shuffles}"), st.deck)
        return st.deck.pop()

    def _face_up_needs_refresh(self) -> bool:
        face_up = self.state.face_up
        for kind in self.spec.refresh_on_three:  # noqa: SIM110 - no generator per call on a hot path
            if face_up.count(kind) >= 3:
                return True
        return False

    def _refresh_could_help(self) -> bool:
        """Whether dealing again can ever give a row without three of a refresh kind."""
        st = self.state
        if not st.deck and not st.discard:
            return False
        counts = [0] * N_CARD_TYPES
        for pile in (st.deck, st.discard, st.face_up):
            for c in pile:
                if c >= 0:
                    counts[c] += 1
        refresh_kinds = self.spec.refresh_on_three
        capacity = 0
        for kind in range(N_CARD_TYPES):
            n = counts[kind]
            capacity += min(n, 2) if kind in refresh_kinds else n
        return capacity >= min(5, sum(counts))

    def _refresh_face_up(self, events: list[Event]) -> None:
        """Three face-up locomotives (Märklin: or three passenger cards) discard all five and deal
        five new ones, again if it happens again — unless the deck and discard cannot change it."""
        st = self.state
        refreshes = 0
        while self._face_up_needs_refresh() and refreshes < _MAX_REFRESHES:
            if not self._refresh_could_help():
                events.append(
                    {
                        "type": "refresh_stopped",
                        "text": "The face-up cards cannot be refreshed: "
                        "the deck and discard pile cannot supply a different row.",
                    }
                )
                break
            refreshes += 1
            st.discard += [c for c in st.face_up if c >= 0]
            st.face_up = [-1] * 5
            for slot in range(5):
                st.face_up[slot] = self._pop_card()
            events.append(
                {
                    "type": "refresh",
                    "text": "Three face-up cards of a kind: the row was discarded and five new cards dealt.",
                    "face_up": self.face_up_names(),
                }
            )

    def _take_tickets(self, kind: str, n: int) -> list[str]:
        pile = self.state.ticket_decks[kind]
        taken = [pile.pop() for _ in range(min(n, len(pile)))]
        return taken

    def _end_turn(self, events: list[Event]) -> None:
        st = self.state
        seat = st.current
        st.pending = None
        st.tunnel = None
        st.journey = None
        st.turn += 1
        # Face-up slots emptied while deck and discard were exhausted are refilled as soon as
        # discarded cards can supply them (the row is always five cards when possible).
        face_up = st.face_up
        if -1 in face_up and (st.deck or st.discard):
            for slot in range(5):
                if face_up[slot] < 0:
                    face_up[slot] = self._pop_card()
            self._refresh_face_up(events)
        elif self._face_up_needs_refresh() and self._refresh_could_help():
            # A refresh that had to wait (only locomotives left) happens once discards allow it.
            self._refresh_face_up(events)
        if st.final_turns_left is not None:
            st.final_turns_left -= 1
        elif st.trains[seat] <= 2:
            st.final_turns_left = self.players
            events.append(
                {
                    "type": "final_round",
                    "seat": seat,
                    "text": f"has {st.trains[seat]} trains left: "
                    "every player, this one included, gets one more turn.",
                }
            )
        if st.final_turns_left == 0 or st.passes_in_a_row >= self.players:
            st.phase = "over"
            reason = "the final round is over" if st.final_turns_left == 0 else "no player can act any more"
            events.append({"type": "game_over", "text": f"The game is over: {reason}."})
            return
        st.current = (seat + 1) % self.players

    # ------------------------------------------------------------------ validation helpers
    def _check_turn(self, seat: int) -> None:
        st = self.state
        if not isinstance(seat, int) or not 0 <= seat < self.players:
            raise IllegalAction("not_a_seat", f"Seat {seat!r} is not in this game.")
        if st.phase == "over":
            raise IllegalAction("game_over", "The game is over; no more actions can be taken.")
        if st.phase == "setup":
            if st.setup_done[seat]:
                raise IllegalAction(
                    "not_your_turn",
                    "You have already chosen your opening tickets; the game starts when everyone has.",
                )
            return
        if seat != st.current:
            raise IllegalAction("not_your_turn", f"It is not your turn; seat {st.current + 1} is to play.")

    def _track(self, track_id: str) -> Track:
        track = self._tables.track_by_exact_id.get(track_id)
        if track is None:
            track = self.board.track_by_id.get(track_id.strip().lower())
        if track is None:
            base = track_id.strip().lower()
            siblings = [t for t in self.board.tracks if t.pair_id.lower() == base]
            if siblings:
                ids = " or ".join(t.id for t in siblings)
                raise IllegalAction(
                    "ambiguous_route",
                    f"{siblings[0].label} is a double route: say which track, {ids}.",
                    route=siblings[0].label,
                    tracks=ids,
                )
            raise IllegalAction(
                "unknown_route",
                f"There is no route {track_id!r} on the {self.board.name} board.",
                route=track_id.strip()[:40],
            )
        return track

    def _hand_has(self, seat: int, need: list[int]) -> bool:
        hand = self.state.hands[seat]
        if len(hand) != len(need):
            raise ValueError(f"a payment counts {len(need)} card types, a hand {len(hand)}")
        # By index, not zip(strict=True): a compiled build runs this loop natively.
        for i in range(len(need)):  # noqa: SIM110 - no generator per call on a hot path
            if hand[i] < need[i]:
                return False
        return True

    def _describe_hand_shortfall(self, seat: int, need: list[int]) -> str:
        hand = self.state.hands[seat]
        parts = [
            f"{need[i]} {CARD_NAMES[i]} but have {hand[i]}" for i in range(N_CARD_TYPES) if need[i] > hand[i]
        ]
        return "you need " + "; ".join(parts)

    def _payment_colour(self, vec: list[int], what: str | Track) -> int | None:
        """The one colour used in a payment (None when it is all locomotives). ``what`` is paid
        for: a track, or words naming it."""
        colour = None
        for c in range(N_COLOURS):
            if vec[c]:
                if colour is not None:
                    colour = -1
                    break
                colour = c
        if vec[PASSENGER] or colour == -1:
            if isinstance(what, Track):
                what = f"the route {what.label}"
            if vec[PASSENGER]:
                raise IllegalAction(
                    "wrong_cards",
                    f"Passenger cards cannot pay for {what}; they pay for passenger "
                    "moves on opponents' routes (rule 22).",
                )
            colours = [c for c in range(N_COLOURS) if vec[c]]
            raise IllegalAction(
                "mixed_colours",
                f"{what.capitalize()} must be paid with cards of one colour "
                f"(plus locomotives), not {', '.join(COLOURS[c] for c in colours)}.",
            )
        return colour

    def _validate_claim_payment(self, seat: int, track: Track, vec: list[int]) -> int | None:
        total = sum(vec)
        if total != track.length:
            raise IllegalAction(
                "wrong_card_count",
                f"{track.label} is {track.length} long and needs exactly "
                f"{track.length} cards; you offered {total}.",
            )
        colour = self._payment_colour(vec, track)
        if colour is not None and track.colour != GRAY and colour != track.colour:
            raise IllegalAction(
                "wrong_colour",
                f"{track.label} is {track.colour_name}: pay with {track.colour_name} "
                f"cards and locomotives, not {COLOURS[colour]}.",
            )
        wild = vec[LOCO] + vec[PLUS4]
        if wild and self.spec.locomotives_tunnels_only and not track.tunnel:
            raise IllegalAction(
                "locomotive_not_allowed",
                f"On the {self.board.name} board locomotives may only be "
                f"used on tunnels, and {track.label} is not a tunnel.",
                route=track.label,
            )
        if vec[PLUS4] and track.length < self.spec.plus4_min_length:
            raise IllegalAction(
                "plus4_too_short",
                f'"+4" locomotives may only be played on routes of 4 or more '
                f"spaces (rule 12); {track.label} has {track.length}.",
            )
        if track.ferry_locos and vec[LOCO] < track.ferry_locos:
            raise IllegalAction(
                "ferry_needs_locomotives",
                f"{track.label} is a ferry with {track.ferry_locos} "
                f"locomotive symbol(s): pay at least {track.ferry_locos} locomotive(s).",
                route=track.label,
                n=track.ferry_locos,
            )
        if not self._hand_has(seat, vec):
            raise IllegalAction(
                "not_enough_cards",
                f"You cannot pay that for {track.label}: {self._describe_hand_shortfall(seat, vec)}.",
            )
        return colour

    def _claim_blocker(self, seat: int, track: Track) -> IllegalAction | None:
        st = self.state
        if st.owner[track.index] != -1:
            return IllegalAction(
                "route_taken", f"{track.label} ({track.id}) is already claimed.", route=track.label
            )
        for sib in track.siblings:
            holder = st.owner[sib]
            if holder == seat:
                return IllegalAction(
                    "double_route_own",
                    f"You already hold the other track of {track.label}; "
                    "no player may claim two tracks of one double or triple route.",
                    route=track.label,
                )
            if holder != -1 and self.players < self.spec.double_routes_min_players:
                return IllegalAction(
                    "double_route_closed",
                    f"With {self.players} players only one track of a "
                    f"double or triple route may be claimed, and {track.label} is taken.",
                    route=track.label,
                    players=self.players,
                )
        if st.trains[seat] < track.length:
            return IllegalAction(
                "not_enough_trains",
                f"{track.label} needs {track.length} trains and you have {st.trains[seat]} left.",
                route=track.label,
                length=track.length,
                trains=st.trains[seat],
            )
        return None

    # ------------------------------------------------------------------ apply
    def apply(self, seat: int, action: GameAction | str) -> list[Event]:
        """Validate and apply one action by ``seat``; return public events (no hidden information).

        Raises IllegalAction, leaving the game unchanged, when the action is not allowed."""
        st = self.state
        if st.phase != "play" or seat != st.current or type(seat) is not int:
            self._check_turn(seat)
        if isinstance(action, str):
            action = A.parse_action(action)
        if not isinstance(action, A.ActionBase):
            raise IllegalAction("malformed_action", "That is not a Ticket to Ride action.")
        events: list[Event] = []
        if st.phase == "setup":
            self._apply_setup(seat, action, events)
            return events
        pending = st.pending
        kind = type(action)
        if pending is not None:
            if pending == "draw_second" and kind not in _DRAWS:
                raise IllegalAction(
                    "finish_drawing",
                    "You drew one card this turn: draw your second card "
                    "(a face-up card that is not a locomotive, or from the deck).",
                )
            if pending == "tickets" and kind is not A.KeepTickets:
                raise IllegalAction("choose_tickets", "Choose which of the drawn tickets to keep first.")
            if pending == "tunnel" and kind not in _TUNNEL_ANSWERS:
                raise IllegalAction("tunnel_pending", "Pay the tunnel's extra cards or withdraw first.")
            if pending == "passenger" and kind not in _JOURNEY_STEPS and not self._journey_skippable(kind):
                raise IllegalAction(
                    "journey_underway",
                    "Your passenger is travelling: choose its next route "
                    "or end its journey ('passenger travel ROUTE' or 'passenger stop').",
                )
        if kind in _TUNNEL_ANSWERS and pending != "tunnel":
            raise IllegalAction("no_tunnel", "There is no tunnel waiting for payment.")
        if kind in _JOURNEY_STEPS and pending != "passenger":
            raise IllegalAction(
                "no_journey", "No passenger is travelling: start with 'passenger start CITY'."
            )
        if kind is _Pass:
            if self._has_non_pass_action(seat):
                raise IllegalAction(
                    "must_act",
                    "You must take an action: passing is only allowed when no draw, "
                    "claim, ticket draw or other action is possible (rule 2).",
                )
            st.passes_in_a_row += 1
            events.append({"type": "pass", "seat": seat, "text": "could not act and passed."})
            st.last_action = {"seat": seat, "kind": "pass", "text": "pass", "tracks": [], "cities": []}
            self._end_turn(events)
            return events
        if kind is _SkipTurn:
            if pending is not None and not self._journey_skippable(kind):
                raise IllegalAction(
                    "turn_underway", "This turn is already under way; it cannot be skipped now."
                )
            # A timed-out turn passes with no effect; it is not a pass of rule 2, so it never counts
            # toward the end of a game in which nobody can act.
            events.append({"type": "skip", "seat": seat, "text": "ran out of time; the turn passes."})
            st.last_action = {
                "seat": seat,
                "kind": "skip_turn",
                "text": "turn skipped",
                "tracks": [],
                "cities": [],
            }
            self._end_turn(events)
            return events
        # The common actions called directly (a compiled build calls them natively), the rest by table.
        if kind is _DrawFaceUp:
            self._do_draw_face(seat, cast(A.DrawFaceUp, action), events)
        elif kind is _ClaimRoute:
            self._do_claim(seat, cast(A.ClaimRoute, action), events)
        elif kind is _DrawDeck:
            self._do_draw_deck(seat, cast(A.DrawDeck, action), events)
        else:
            handler = _HANDLERS.get(kind)
            if handler is None:
                raise IllegalAction("malformed_action", f"{action!r} is not a Ticket to Ride action.")
            handler(self, seat, action, events)
        st.passes_in_a_row = 0
        return events

    def _journey_skippable(self, kind: type) -> bool:
        """A timed-out turn may be skipped while a journey has chosen its passenger but travelled no
        route yet: the passenger stays where it stood, as if it had never set off."""
        journey = self.state.journey
        return kind is _SkipTurn and journey is not None and not journey["tracks"]

    def _apply_setup(self, seat: int, action: Any, events: list[Event]) -> None:
        st = self.state
        announce = self.spec.initial_tickets.announce
        if isinstance(action, A.DrawTickets) and announce is not None and st.offers[seat] is None:
            self._draw_announced(seat, action, announce, events)
            return
        if not isinstance(action, A.KeepTickets) or (announce is not None and st.offers[seat] is None):
            if announce is not None and st.offers[seat] is None:
                raise IllegalAction(
                    "choose_tickets",
                    f"Start by announcing {announce} tickets as a mix of "
                    "short and long, e.g. 'tickets draw short=2 long=2' (rule 18).",
                )
            raise IllegalAction(
                "choose_tickets", "Before the first turn, every player chooses which opening tickets to keep."
            )
        kept = self._validate_keep(seat, action)
        self._finish_keep(seat, kept, events)
        st.setup_done[seat] = True
        if all(st.setup_done):
            st.phase = "play"
            st.current = 0
            events.append({"type": "start", "text": "Everyone has chosen tickets: the game begins."})

    def _validate_keep(self, seat: int, action: A.KeepTickets) -> list[str]:
        offer = self.state.offers[seat]
        if offer is None:
            raise IllegalAction("no_offer", "You have no drawn tickets to keep.")
        by_lower = {t.lower(): t for t in offer}
        kept: list[str] = []
        for tid in action.ids:
            real = by_lower.get(tid.lower())
            if real is None:
                raise IllegalAction(
                    "unknown_ticket",
                    f"Ticket {tid!r} is not among the ones you drew ({', '.join(offer)}).",
                    ticket=str(tid)[:40],
                )
            if real in kept:
                raise IllegalAction("duplicate_ticket", f"Ticket {real} is listed twice.", ticket=real)
            kept.append(real)
        lo, hi = self._ticket_keep_bounds(seat)
        if not lo <= len(kept) <= hi:
            span = f"exactly {lo}" if lo == hi else f"{lo} to {hi}"
            raise IllegalAction(
                "wrong_ticket_count",
                f"Keep {span} of the {len(offer)} tickets, not {len(kept)}.",
                low=lo,
                high=hi,
                offered=len(offer),
                kept=len(kept),
            )
        return kept

    def _finish_keep(self, seat: int, kept: list[str], events: list[Event]) -> None:
        st = self.state
        offer = st.offers[seat] or []
        to_bottom = movegen.dealing(self.board, self.state).returned_to_bottom
        returned = [t for t in offer if t not in kept]
        for tid in returned:
            if to_bottom:
                kind = "long" if self.board.tickets[tid].kind == "long" else "short"
                st.ticket_decks[kind].insert(0, tid)
            else:
                st.tickets_out.append(tid)
        st.tickets[seat] += kept
        st.offers[seat] = None
        where = "to the bottom of the deck" if to_bottom else "out of the game"
        events.append(
            {
                "type": "keep_tickets",
                "seat": seat,
                "kept": len(kept),
                "returned": len(returned),
                "text": f"kept {len(kept)} ticket(s) and returned {len(returned)} {where}.",
            }
        )

    def _draw_announced(self, seat: int, action: A.DrawTickets, announce: int, events: list[Event]) -> None:
        st = self.state
        if action.short < 0 or action.long < 0 or action.short + action.long != announce:
            raise IllegalAction(
                "announce_tickets",
                f"Announce exactly {announce} tickets as a mix of short and long, "
                f"e.g. 'tickets draw short=2 long=2' (rule 18).",
            )
        short = min(action.short, len(st.ticket_decks["short"]))
        long_ = min(action.long, len(st.ticket_decks["long"]))
        if short + long_ == 0:
            raise IllegalAction(
                "no_tickets", "There are no tickets left in the decks you announced (rule 20)."
            )
        st.offers[seat] = self._take_tickets("short", short) + self._take_tickets("long", long_)
        st.pending = "tickets" if st.phase == "play" else None
        events.append(
            {
                "type": "draw_tickets",
                "seat": seat,
                "short": short,
                "long": long_,
                "text": f"drew {short} short and {long_} long ticket(s).",
            }
        )

    # --- drawing train cards
    def _do_draw_face(self, seat: int, action: A.DrawFaceUp, events: list[Event]) -> None:
        st = self.state
        slot: Any = action.slot
        if not isinstance(slot, int) or not 0 <= slot < 5:
            raise IllegalAction("bad_slot", f"Face-up slots are numbered 0 to 4, not {slot!r}.")
        card = st.face_up[slot]
        if card < 0:
            raise IllegalAction("empty_slot", f"Face-up slot {slot} is empty.", slot=slot)
        whole_turn = card == LOCO and self.spec.face_up_locomotive_counts_two
        if whole_turn and st.pending == "draw_second":
            raise IllegalAction(
                "locomotive_second",
                "A face-up locomotive cannot be your second card; take another "
                "face-up card or draw from the deck.",
            )
        st.hands[seat][card] += 1
        st.face_up[slot] = self._pop_card()
        events.append(
            {
                "type": "draw_face",
                "seat": seat,
                "card": CARD_NAMES[card],
                "slot": slot,
                "text": _FACE_UP_TEXT[card],
            }
        )
        if self._face_up_needs_refresh():
            self._refresh_face_up(events)
        self._after_card_drawn(seat, whole_turn, events, _FACE_UP_ACTION_TEXT[card])

    def _do_draw_deck(self, seat: int, action: A.DrawDeck, events: list[Event]) -> None:
        st = self.state
        if not st.deck and not st.discard:
            raise IllegalAction(
                "deck_empty",
                "The train deck and discard pile are empty: take a face-up card or choose another action.",
            )
        card = self._pop_card()
        st.hands[seat][card] += 1
        events.append({"type": "draw_deck", "seat": seat, "text": "drew a card from the deck."})
        self._after_card_drawn(seat, False, events, "drew from the deck")

    def _after_card_drawn(self, seat: int, whole_turn: bool, events: list[Event], text: str) -> None:
        st = self.state
        second = st.pending == "draw_second"
        last = st.last_action
        if second and last and last.get("seat") == seat and last["kind"] == "draw":
            last["text"] += ", then " + text
        else:
            st.last_action = {"seat": seat, "kind": "draw", "text": text, "tracks": [], "cities": []}
        if second or whole_turn:
            self._end_turn(events)
        elif not (st.deck or st.discard or self._can_draw_second()):
            events.append({"type": "no_second_card", "seat": seat, "text": "no second card can be drawn."})
            self._end_turn(events)
        else:
            st.pending = "draw_second"

    # --- claiming
    def _do_claim(self, seat: int, action: A.ClaimRoute, events: list[Event]) -> None:
        st = self.state
        track = self._track(action.track)
        blocker = self._claim_blocker(seat, track)
        if blocker:
            raise blocker
        vec = _cards_vector(action.cards)
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
            events.append(
                {
                    "type": "tunnel_reveal",
                    "seat": seat,
                    "track": track.id,
                    "revealed": names,
                    "surcharge": surcharge,
                    "text": f"tried the tunnel {track.label}: revealed "
                    f"{', '.join(names) or 'nothing (no cards left)'}; {surcharge} extra card(s) needed.",
                }
            )
            if surcharge:
                st.tunnel = {
                    "seat": seat,
                    "track": track.index,
                    "payment": vec,
                    "revealed": revealed,
                    "surcharge": surcharge,
                    "colour": colour,
                    "passenger": action.passenger,
                }
                st.pending = "tunnel"
                st.last_action = {
                    "seat": seat,
                    "kind": "tunnel",
                    "text": f"tunnel {track.label}",
                    "tracks": [track.id],
                    "cities": [],
                }
                if self.spec.tunnel_auto_withdraw and not self.tunnel_payments(seat):
                    # Seed 004's digital edition: an unpayable surcharge passes the turn at once.
                    self._do_withdraw_tunnel(seat, A.WithdrawTunnel(), events)
                return
            st.discard += revealed
        self._complete_claim(seat, track, vec, action.passenger, events)

    def _complete_claim(
        self, seat: int, track: Track, vec: list[int], passenger: str | None, events: list[Event]
    ) -> None:
        st = self.state
        hand = st.hands[seat]
        discard = st.discard
        for i, n in enumerate(vec):
            if n:
                hand[i] -= n
                discard += [i] * n
        self._open.note_claim(seat, track)
        st.owner[track.index] = seat
        st.trains[seat] -= track.length
        points = self.spec.route_points[track.length]
        st.route_score[seat] += points
        texts = self._tables.claim_texts
        key = (track.index, tuple(vec))
        known = texts.get(key)
        if known is None:
            cards = vector_cards(vec)
            known = texts[key] = (
                cards,
                f"claimed {track.label} ({track.length}, {track.colour_name}) for {points} "
                f"point(s) with {A.describe_cards(cards)}.",
                f"claimed {track.label}",
            )
        events.append(
            {
                "type": "claim",
                "seat": seat,
                "track": track.id,
                "points": points,
                "cards": dict(known[0]),
                "text": known[1],
            }
        )
        cities: list[str] = []
        if passenger is not None:
            city = self._city_name(passenger)
            st.passenger_at[city] = seat
            st.passengers_left[seat] -= 1
            cities.append(city)
            events.append(
                {
                    "type": "passenger_placed",
                    "seat": seat,
                    "city": city,
                    "text": f"placed a passenger in {city}.",
                }
            )
        st.last_action = {
            "seat": seat,
            "kind": "claim",
            "text": known[2],
            "tracks": [track.id],
            "cities": cities,
        }
        self._end_turn(events)

    def _do_pay_tunnel(self, seat: int, action: A.PayTunnel, events: list[Event]) -> None:
        tun = self.state.tunnel
        assert tun is not None
        track = self.board.tracks[tun["track"]]
        extra = _cards_vector(action.cards)
        if sum(extra) != tun["surcharge"]:
            raise IllegalAction(
                "wrong_card_count",
                f"The tunnel needs exactly {tun['surcharge']} extra card(s); you offered {sum(extra)}.",
            )
        colour = tun["colour"]
        allowed = {LOCO, PLUS4} if colour is None else {colour, LOCO, PLUS4}
        bad = [CARD_NAMES[i] for i in range(N_CARD_TYPES) if extra[i] and i not in allowed]
        if bad:
            need = "locomotives" if colour is None else f"{COLOURS[colour]} cards or locomotives"
            raise IllegalAction(
                "wrong_colour", f"The tunnel's extra cards must be {need}, not {', '.join(bad)}."
            )
        if extra[PLUS4] and track.length < self.spec.plus4_min_length:
            raise IllegalAction(
                "plus4_too_short", '"+4" locomotives only pay for routes of 4 or more spaces.'
            )
        total = [a + b for a, b in zip(tun["payment"], extra, strict=True)]
        if not self._hand_has(seat, total):
            raise IllegalAction(
                "not_enough_cards",
                f"You cannot pay the tunnel: {self._describe_hand_shortfall(seat, total)}.",
            )
        self.state.discard += tun["revealed"]
        self._complete_claim(seat, track, total, tun.get("passenger"), events)

    def _do_withdraw_tunnel(self, seat: int, action: A.WithdrawTunnel, events: list[Event]) -> None:
        st = self.state
        tun = st.tunnel
        assert tun is not None
        track = self.board.tracks[tun["track"]]
        st.discard += tun["revealed"]
        events.append(
            {
                "type": "tunnel_withdraw",
                "seat": seat,
                "track": track.id,
                "text": f"withdrew from the tunnel {track.label} and took the cards back.",
            }
        )
        st.last_action = {
            "seat": seat,
            "kind": "tunnel_withdraw",
            "text": f"withdrew from {track.label}",
            "tracks": [track.id],
            "cities": [],
        }
        self._end_turn(events)

    # --- stations
    def _do_station(self, seat: int, action: A.BuildStation, events: list[Event]) -> None:
        st = self.state
        if not self.spec.station_costs:
            raise IllegalAction("no_stations", f"There are no stations on the {self.board.name} board.")
        city = self._city_name(action.city)
        if self.board.cities[city].is_country:
            raise IllegalAction(
                "station_on_country", f"{city} is a country; stations go in cities.", city=city
            )
        if st.stations_left[seat] <= 0:
            raise IllegalAction("no_stations_left", "You have built all your stations.")
        if city in st.station_at:
            raise IllegalAction(
                "station_taken", f"{city} already has a station; each city holds only one.", city=city
            )
        cost = self.spec.station_costs[len(self.spec.station_costs) - st.stations_left[seat]]
        vec = _cards_vector(action.cards)
        if sum(vec) != cost:
            raise IllegalAction(
                "wrong_card_count",
                f"Your next station costs {cost} card(s) of one colour "
                f"(locomotives may replace them); you offered {sum(vec)}.",
            )
        self._payment_colour(vec, "a station")
        if vec[PLUS4]:
            raise IllegalAction("wrong_cards", '"+4" locomotives cannot pay for stations.')
        if not self._hand_has(seat, vec):
            raise IllegalAction(
                "not_enough_cards",
                f"You cannot pay for the station: {self._describe_hand_shortfall(seat, vec)}.",
            )
        for i, n in enumerate(vec):
            st.hands[seat][i] -= n
            st.discard += [i] * n
        st.stations_left[seat] -= 1
        st.station_at[city] = seat
        events.append(
            {
                "type": "station",
                "seat": seat,
                "city": city,
                "text": f"built a station in {city} with {A.describe_cards(vector_cards(vec))}.",
            }
        )
        st.last_action = {
            "seat": seat,
            "kind": "station",
            "text": f"station in {city}",
            "tracks": [],
            "cities": [city],
        }
        self._end_turn(events)

    def _city_name(self, name: str) -> str:
        found = self.board.cities.get(name)
        if found is None:
            key = _fold(name)
            for c in self.board.cities:
                if _fold(c) == key:
                    return c
            raise IllegalAction(
                "unknown_city",
                f"There is no city {name!r} on the {self.board.name} board.",
                name=name.strip()[:40],
            )
        return found.name

    # --- tickets in play
    def _do_draw_tickets(self, seat: int, action: A.DrawTickets, events: list[Event]) -> None:
        st = self.state
        spec = self.spec.draw_tickets
        if spec.announce is not None:
            self._draw_announced(seat, action, spec.announce, events)
        else:
            if action.long or action.short not in (0, spec.dealt):
                raise IllegalAction(
                    "malformed_action",
                    f"On the {self.board.name} board you draw {spec.dealt} tickets: write 'tickets draw'.",
                )
            if not any(st.ticket_decks[k] for k, _ in spec.deal):
                raise IllegalAction("no_tickets", "The ticket deck is empty.")
            offer: list[str] = []
            for kind, n in spec.deal:
                offer += self._take_tickets(kind, n)
            st.offers[seat] = offer
            st.pending = "tickets"
            events.append(
                {
                    "type": "draw_tickets",
                    "seat": seat,
                    "short": len(offer),
                    "long": 0,
                    "text": f"drew {len(offer)} ticket(s).",
                }
            )
        st.last_action = {"seat": seat, "kind": "tickets", "text": "drew tickets", "tracks": [], "cities": []}

    def _do_keep(self, seat: int, action: A.KeepTickets, events: list[Event]) -> None:
        if self.state.pending != "tickets":
            raise IllegalAction("no_offer", "You have no drawn tickets to keep; draw tickets first.")
        kept = self._validate_keep(seat, action)
        self._finish_keep(seat, kept, events)
        self._end_turn(events)

    # --- Märklin passengers
    def _validate_passenger_placement(self, seat: int, track: Track, city_name: str) -> None:
        if not self.spec.has_passengers:
            raise IllegalAction("no_passengers", f"There are no passengers on the {self.board.name} board.")
        city = self._city_name(city_name)
        if city not in (track.a, track.b):
            raise IllegalAction(
                "passenger_not_on_route",
                f"A passenger is placed in one of the two cities of the "
                f"route just claimed ({track.a} or {track.b}), not {city} (rule 17).",
            )
        if self.board.cities[city].is_country:
            raise IllegalAction(
                "passenger_country", f"Passengers may not be placed in {city}, outside Germany (rule 17)."
            )
        if city in self.state.passenger_at:
            raise IllegalAction(
                "passenger_city_taken", f"A passenger already stands in {city} (rule 17).", city=city
            )
        if self.state.passengers_left[seat] <= 0:
            raise IllegalAction("no_passengers_left", "You have no passengers left to place.")

    def _passenger_leg(self, seat: int, here: str, track: Track, used: Any) -> tuple[str, bool]:
        """Check one route of a passenger journey from ``here`` (rules 21-23): the city it leads
        to and whether it is an opponent's (a fare). Raises IllegalAction, changing nothing."""
        if track.index in used:
            raise IllegalAction(
                "route_reused",
                f"The passenger may use each route at most once per move "
                f"(rule 21); {track.label} appears twice.",
            )
        if here not in (track.a, track.b):
            raise IllegalAction(
                "not_connected",
                f"{track.label} does not leave {here}; the routes must form one connected journey (rule 21).",
            )
        holder = self.state.owner[track.index]
        if holder == -1:
            raise IllegalAction(
                "unclaimed_route",
                f"{track.label} is unclaimed; passengers travel only on claimed routes (rules 21-22).",
            )
        there = track.b if here == track.a else track.a
        if self.board.cities[there].is_country:
            raise IllegalAction(
                "passenger_country",
                f"Passengers may not travel to {there}, outside Germany, even passing through (rule 23).",
            )
        return there, holder != seat

    def _passenger_start(self, seat: int, city_name: str) -> str:
        """The city of ``seat``'s passenger named by a move (refused when there is none)."""
        if not self.spec.has_passengers:
            raise IllegalAction("no_passengers", f"There are no passengers on the {self.board.name} board.")
        start = self._city_name(city_name)
        if self.state.passenger_at.get(start) != seat:
            raise IllegalAction("no_passenger_there", f"You have no passenger in {start}.", city=start)
        return start

    def _do_move_passenger(self, seat: int, action: A.MovePassenger, events: list[Event]) -> None:
        """A whole journey in one action: the move's first shape, no longer listed by legal_actions
        but still applied (games stored with it replay; it is the same move as its steps)."""
        st = self.state
        start = self._passenger_start(seat, action.start)
        if not action.tracks:
            raise IllegalAction("empty_move", "Name at least one route for the passenger to travel along.")
        here = start
        used: set[int] = set()
        visited: list[str] = []
        fares = 0
        for tid in action.tracks:
            track = self._track(tid)
            here, fare = self._passenger_leg(seat, here, track, used)
            fares += fare
            used.add(track.index)
            visited.append(here)
        if st.hands[seat][PASSENGER] < fares:
            raise IllegalAction(
                "not_enough_passenger_cards",
                f"That journey uses {fares} opponent route(s) and "
                f"costs {fares} passenger card(s); you have {st.hands[seat][PASSENGER]} (rule 22).",
            )
        st.hands[seat][PASSENGER] -= fares
        st.discard += [PASSENGER] * fares
        gained: list[int] = []
        collected: set[str] = set()
        for city in visited:
            if city == start or city in collected:
                continue
            collected.add(city)
            stack = st.merchandise.get(city)
            if stack:
                gained.append(stack.pop(0))
        st.merch_taken[seat] += gained
        del st.passenger_at[start]
        events.append(self._journey_event(seat, start, visited, gained, fares))
        st.last_action = {
            "seat": seat,
            "kind": "passenger",
            "text": f"passenger from {start}",
            "tracks": [self._track(t).id for t in action.tracks],
            "cities": [start, *visited],
        }
        self._end_turn(events)

    @staticmethod
    def _journey_event(seat: int, start: str, visited: list[str], gained: list[int], fares: int) -> Event:
        return {
            "type": "passenger_move",
            "seat": seat,
            "start": start,
            "path": visited,
            "tokens": gained,
            "fares": fares,
            "text": f"moved a passenger from {start} through {', '.join(visited)}, "
            f"collecting {sum(gained)} point(s) of merchandise{f' and paying {fares} fare(s)' if fares else ''}; "
            "the passenger leaves the game.",
        }

    def _do_start_journey(self, seat: int, action: A.StartJourney, events: list[Event]) -> None:
        """Rule 21, step by step: the passenger that travels this turn. The turn then goes on (pending
        "passenger") with its routes one at a time; there is no going back to another action."""
        st = self.state
        start = self._passenger_start(seat, action.city)
        st.journey = {
            "seat": seat,
            "start": start,
            "at": start,
            "tracks": [],
            "cities": [],
            "collected": [],
            "tokens": [],
            "fares": 0,
        }
        if not movegen.journey_routes(self.board, st, seat, self._open):
            st.journey = None
            raise IllegalAction(
                "passenger_stuck",
                f"The passenger in {start} cannot travel now: none of the claimed "
                "routes from there is open to it (rules 21-23: your own routes, an opponent's for "
                "a passenger card, never into a country).",
                city=start,
            )
        st.pending = "passenger"
        events.append(
            {
                "type": "journey_start",
                "seat": seat,
                "city": start,
                "text": f"sets off with the passenger in {start}.",
            }
        )
        st.last_action = {
            "seat": seat,
            "kind": "passenger",
            "text": f"passenger from {start}",
            "tracks": [],
            "cities": [start],
        }

    def _do_travel_route(self, seat: int, action: A.TravelRoute, events: list[Event]) -> None:
        """One route of the journey under way (rules 21-23), its fare paid (rule 22) and the top
        token of the city reached taken, once per city per journey and never at the start (24-25)."""
        st = self.state
        journey = st.journey
        assert journey is not None
        track = self._track(action.track)
        here, fare = self._passenger_leg(seat, journey["at"], track, journey["tracks"])
        hand = st.hands[seat]
        if fare and hand[PASSENGER] < 1:
            raise IllegalAction(
                "not_enough_passenger_cards",
                f"{track.label} is an opponent's route and costs "
                "1 passenger card; you have none left (rule 22).",
            )
        if fare:
            hand[PASSENGER] -= 1
            st.discard.append(PASSENGER)
            journey["fares"] += 1
        token = None
        if here != journey["start"] and here not in journey["collected"]:
            journey["collected"].append(here)
            stack = st.merchandise.get(here)
            if stack:
                token = stack.pop(0)
                journey["tokens"].append(token)
                st.merch_taken[seat].append(token)
        journey["at"] = here
        journey["tracks"].append(track.index)
        journey["cities"].append(here)
        events.append(
            {
                "type": "journey_route",
                "seat": seat,
                "track": track.id,
                "city": here,
                "token": token,
                "fare": fare,
                "text": f"took the passenger to {here} along {track.label}"
                f"{f', collecting {token} point(s) of merchandise' if token else ''}"
                f"{' for 1 passenger card' if fare else ''}.",
            }
        )
        last = st.last_action
        if last is not None:
            last["tracks"] = [*last["tracks"], track.id]
            last["cities"] = [*last["cities"], here]

    def _do_end_journey(self, seat: int, action: A.EndJourney, events: list[Event]) -> None:
        """The journey ends where the passenger is, and the passenger leaves the game (rule 27)."""
        st = self.state
        journey = st.journey
        assert journey is not None
        if not journey["tracks"]:
            raise IllegalAction(
                "journey_not_begun",
                "Move the passenger along at least one route before its journey ends (rule 21).",
            )
        del st.passenger_at[journey["start"]]
        events.append(
            self._journey_event(
                seat, journey["start"], list(journey["cities"]), list(journey["tokens"]), journey["fares"]
            )
        )
        self._end_turn(events)

    # ------------------------------------------------------------------ legal actions


def _fold(text: str) -> str:
    decomposed = unicodedata.normalize("NFKD", text.casefold().replace("ß", "ss"))
    return "".join(ch for ch in decomposed if ch.isalnum())


_DRAWS = (A.DrawFaceUp, A.DrawDeck)
# Final: a compiled build holds these as constants instead of looking them up per action.
_DrawFaceUp: Final = A.DrawFaceUp
_DrawDeck: Final = A.DrawDeck
_ClaimRoute: Final = A.ClaimRoute
_Pass: Final = A.Pass
_SkipTurn: Final = A.SkipTurn
# Texts of drawing a face-up card, by card type (built once, not per draw).
_FACE_UP_ACTION_TEXT = tuple(f"took a face-up {name}" for name in CARD_NAMES)
_FACE_UP_TEXT = tuple(text + "." for text in _FACE_UP_ACTION_TEXT)
_TUNNEL_ANSWERS = (A.PayTunnel, A.WithdrawTunnel)
_JOURNEY_STEPS = (A.TravelRoute, A.EndJourney)

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
    A.StartJourney: TTRGame._do_start_journey,
    A.TravelRoute: TTRGame._do_travel_route,
    A.EndJourney: TTRGame._do_end_journey,
}


def _state_attribute(name: str) -> property:
    def get(game: TTRGame) -> Any:
        return getattr(game.state, name)

    def set_(game: TTRGame, value: Any) -> None:
        setattr(game.state, name, value)

    return property(get, set_, doc=f"``state.{name}``")


# ``game.hands`` and friends read and write the state, as they did when the fields lived on the game.
for _name in FIELD_NAMES:
    setattr(TTRGame, _name, _state_attribute(_name))

GAME_CLASS = TTRGame
