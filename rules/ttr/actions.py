"""Ticket to Ride actions: small frozen dataclasses with a stable text and JSON form.

Text forms (case-insensitive, whitespace-separated)::

    draw face 3                     draw deck
    claim EU034 red=3,locomotive=1  claim DE012 blue=4 passenger=Köln
    tunnel pay red=1                tunnel withdraw
    tickets draw                    tickets draw short=2 long=2
    tickets keep EU-T01,EU-T07      station Berlin red=2
    passenger start Berlin          passenger travel DE010
    passenger stop                  pass
    passenger Berlin DE010,DE020b   (a whole journey at once: still applied, for old games)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from rules.errors import IllegalAction
from rules.text import MAX_NUMBER_DIGITS, invisible_character, is_number, shown
from rules.ttr.colours import CARD_INDEX, CARD_NAMES

Cards = tuple[tuple[str, int], ...]


def normalize_cards(cards: dict[str, int] | Cards) -> Cards:
    """Canonical card tuple: known names, positive counts, sorted by card index."""
    items = cards.items() if isinstance(cards, dict) else cards
    merged: dict[str, int] = {}
    for name, count in items:
        key = name.strip().lower()
        key = {"loco": "locomotive", "locomotives": "locomotive", "purple": "pink", "+4": "plus4"}.get(
            key, key
        )
        if key not in CARD_INDEX:
            raise IllegalAction(
                "malformed_action", f"{shown(name)} is not a train card; cards are {', '.join(CARD_NAMES)}."
            )
        if not isinstance(count, int) or count < 0:
            raise IllegalAction("malformed_action", f"Card counts must be whole numbers, not {count!r}.")
        if count:
            merged[key] = merged.get(key, 0) + count
    return tuple(sorted(merged.items(), key=lambda kv: CARD_INDEX[kv[0]]))


def cards_text(cards: Cards) -> str:
    return ",".join(f"{n}={c}" for n, c in cards) or "none"


def describe_cards(cards: Cards) -> str:
    return ", ".join(f"{c} {n}" for n, c in cards) or "no cards"


# Bounds of the text form: no real action comes near them, and they keep a pasted wall of text
# (or a number too long for int()) a plain refusal instead of an error.
MAX_ACTION_CHARS = 2000


def parse_number(text: str, what: str) -> int:
    """A whole number written with the ASCII digits 0-9 (at most MAX_NUMBER_DIGITS of them).

    ``str.isdigit`` also accepts "²", "①" or Arabic-Indic digits, which ``int`` then refuses or
    reads as another number; only what a player can type as a plain number is accepted.
    """
    if not is_number(text):
        raise IllegalAction("malformed_action", f"{shown(text)} is not {what}: write it with the digits 0-9.")
    if len(text) > MAX_NUMBER_DIGITS:
        raise IllegalAction(
            "malformed_action", f"{shown(text)} is too long for {what} (at most {MAX_NUMBER_DIGITS} digits)."
        )
    return int(text)


def _check_characters(text: str) -> None:
    """Refuse texts no action can be: too long, or holding control, format or surrogate characters."""
    if len(text) > MAX_ACTION_CHARS:
        raise IllegalAction(
            "malformed_action",
            f"That action is {len(text)} characters long; an action is at most {MAX_ACTION_CHARS}.",
        )
    ch = invisible_character(text)
    if ch is not None:
        raise IllegalAction(
            "malformed_action",
            f"Could not read {shown(text)}: it contains the invisible character U+{ord(ch):04X}.",
        )


def parse_cards(text: str) -> Cards:
    """Cards written like ``red=3,locomotive=1`` (or ``none``)."""
    if text.lower() == "none":
        return ()
    out: dict[str, int] = {}
    for part in text.split(","):
        if "=" not in part:
            raise IllegalAction(
                "malformed_action", f"Cards are written like red=3,locomotive=1, not {shown(part)}."
            )
        name, _, num = part.partition("=")
        out[name] = out.get(name, 0) + parse_number(num.strip(), "a card count")
    return normalize_cards(out)


class ActionBase:
    """Shared behaviour of every action: the JSON form is the kind plus the text form."""

    __slots__ = ()
    kind: ClassVar[str]

    def to_text(self) -> str:
        raise NotImplementedError

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "text": self.to_text()}

    def public_text(self) -> str:
        """The move as every player may read it (the text form unless it names a secret)."""
        return self.to_text()

    def __str__(self) -> str:
        return self.to_text()


@dataclass(frozen=True, slots=True)
class DrawFaceUp(ActionBase):
    slot: int
    kind: ClassVar[str] = "draw_face"

    def to_text(self) -> str:
        return f"draw face {self.slot}"

    def public_text(self) -> str:
        return f"took face-up card {self.slot + 1}"


@dataclass(frozen=True, slots=True)
class DrawDeck(ActionBase):
    kind: ClassVar[str] = "draw_deck"

    def to_text(self) -> str:
        return "draw deck"

    def public_text(self) -> str:
        return "drew a card from the deck"


@dataclass(frozen=True, slots=True)
class ClaimRoute(ActionBase):
    track: str
    cards: Cards
    passenger: str | None = None
    kind: ClassVar[str] = "claim"

    def to_text(self) -> str:
        text = f"claim {self.track} {cards_text(self.cards)}"
        return text + (f" passenger={self.passenger}" if self.passenger else "")

    def public_text(self) -> str:
        text = f"claimed route {self.track} with {describe_cards(self.cards)}"
        return text + (f" and placed a passenger in {self.passenger}" if self.passenger else "")


@dataclass(frozen=True, slots=True)
class PayTunnel(ActionBase):
    cards: Cards
    kind: ClassVar[str] = "tunnel_pay"

    def to_text(self) -> str:
        return f"tunnel pay {cards_text(self.cards)}"

    def public_text(self) -> str:
        return f"paid the tunnel's extra cards ({describe_cards(self.cards)})"


@dataclass(frozen=True, slots=True)
class WithdrawTunnel(ActionBase):
    kind: ClassVar[str] = "tunnel_withdraw"

    def to_text(self) -> str:
        return "tunnel withdraw"

    def public_text(self) -> str:
        return "withdrew from the tunnel and took the cards back"


@dataclass(frozen=True, slots=True)
class DrawTickets(ActionBase):
    short: int = 0
    long: int = 0
    kind: ClassVar[str] = "draw_tickets"

    def to_text(self) -> str:
        if self.short == 0 and self.long == 0:
            return "tickets draw"
        return f"tickets draw short={self.short} long={self.long}"

    def public_text(self) -> str:
        if self.short == 0 and self.long == 0:
            return "drew destination tickets"
        return f"drew {self.short} short and {self.long} long destination tickets"


@dataclass(frozen=True, slots=True)
class KeepTickets(ActionBase):
    ids: tuple[str, ...]
    kind: ClassVar[str] = "keep_tickets"

    def to_text(self) -> str:
        return "tickets keep " + ",".join(self.ids)

    def public_text(self) -> str:
        """Which tickets were kept is secret until the end: only how many."""
        n = len(self.ids)
        return f"kept {n} ticket{'s' if n != 1 else ''}"


@dataclass(frozen=True, slots=True)
class BuildStation(ActionBase):
    city: str
    cards: Cards
    kind: ClassVar[str] = "station"

    def to_text(self) -> str:
        return f"station {self.city.replace(' ', '_')} {cards_text(self.cards)}"

    def public_text(self) -> str:
        return f"built a station in {self.city} with {describe_cards(self.cards)}"


@dataclass(frozen=True, slots=True)
class MovePassenger(ActionBase):
    start: str
    tracks: tuple[str, ...]
    kind: ClassVar[str] = "passenger"

    def to_text(self) -> str:
        return f"passenger {self.start.replace(' ', '_')} " + ",".join(self.tracks)

    def public_text(self) -> str:
        n = len(self.tracks)
        return f"moved a passenger from {self.start} along {n} route{'s' if n != 1 else ''}"


@dataclass(frozen=True, slots=True)
class StartJourney(ActionBase):
    """Märklin, the first step of a passenger move: which passenger (the one in ``city``) travels.
    Its routes are then chosen one at a time (:class:`TravelRoute`) until :class:`EndJourney`."""

    city: str
    kind: ClassVar[str] = "journey_start"

    def to_text(self) -> str:
        return f"passenger start {self.city.replace(' ', '_')}"

    def public_text(self) -> str:
        return f"set off with the passenger in {self.city}"


@dataclass(frozen=True, slots=True)
class TravelRoute(ActionBase):
    """Märklin: the travelling passenger takes one more route, from the city it is in."""

    track: str
    kind: ClassVar[str] = "journey_route"

    def to_text(self) -> str:
        return f"passenger travel {self.track}"

    def public_text(self) -> str:
        return f"moved the passenger along route {self.track}"


@dataclass(frozen=True, slots=True)
class EndJourney(ActionBase):
    """Märklin: the passenger's journey ends where it is; the passenger leaves the game (rule 27)."""

    kind: ClassVar[str] = "journey_end"

    def to_text(self) -> str:
        return "passenger stop"

    def public_text(self) -> str:
        return "ended the passenger's journey"


@dataclass(frozen=True, slots=True)
class Pass(ActionBase):
    kind: ClassVar[str] = "pass"

    def to_text(self) -> str:
        return "pass"

    def public_text(self) -> str:
        return "could not act and passed"


@dataclass(frozen=True, slots=True)
class SkipTurn(ActionBase):
    """The turn timer ran out under the "skip" policy: the turn passes with no effect. Never a
    legal action of a player (the service refuses it from people); only the timer plays it."""

    kind: ClassVar[str] = "skip_turn"

    def to_text(self) -> str:
        return "skip turn"

    def public_text(self) -> str:
        return "ran out of time; the turn passes"


Action = (
    DrawFaceUp
    | DrawDeck
    | ClaimRoute
    | PayTunnel
    | WithdrawTunnel
    | DrawTickets
    | KeepTickets
    | BuildStation
    | MovePassenger
    | StartJourney
    | TravelRoute
    | EndJourney
    | Pass
    | SkipTurn
)


# The second word of the step-by-step passenger moves (no city on the board has these names).
_JOURNEY_WORDS = ("start", "travel", "stop")


def _bad(text: str, hint: str) -> IllegalAction:
    return IllegalAction("malformed_action", f"Could not read {shown(text)}: {hint}")


def parse_action(text: str) -> Action:
    """Parse the text form of an action. Raises IllegalAction('malformed_action') with a hint.

    Any text at all either parses (and its ``to_text`` parses back to the same action) or is
    refused this way; tests/rules/test_parsers_property.py holds it to that.
    """
    if not isinstance(text, str):
        raise IllegalAction("malformed_action", "An action is a line of text.")
    _check_characters(text)
    words = text.strip().split()
    if not words:
        raise _bad(text, "the action is empty.")
    head = words[0].lower()
    try:
        if head == "draw" and len(words) >= 2:
            if words[1].lower() == "deck" and len(words) == 2:
                return DrawDeck()
            if words[1].lower() == "face" and len(words) == 3:
                return DrawFaceUp(parse_number(words[2], "a face-up slot (0 to 4)"))
            raise _bad(text, "write 'draw deck' or 'draw face N' (N from 0 to 4).")
        if head == "claim" and len(words) in (3, 4):
            passenger = None
            if len(words) == 4:
                key, _, value = words[3].partition("=")
                if key.lower() != "passenger" or not value:
                    raise _bad(text, "the last part must be passenger=CITY.")
                if "_" in value:
                    # ClaimRoute.to_text writes the city as it is, so a city with a space could
                    # not be read back; no city where passengers are placed has one.
                    raise _bad(text, "passenger=CITY takes a city name without spaces or underscores.")
                passenger = value
            return ClaimRoute(words[1], parse_cards(words[2]), passenger)
        if head == "tunnel" and len(words) >= 2:
            if words[1].lower() == "withdraw" and len(words) == 2:
                return WithdrawTunnel()
            if words[1].lower() == "pay" and len(words) == 3:
                return PayTunnel(parse_cards(words[2]))
            raise _bad(text, "write 'tunnel pay red=1' or 'tunnel withdraw'.")
        if head == "tickets" and len(words) >= 2:
            if words[1].lower() == "draw":
                counts = {"short": 0, "long": 0}
                for part in words[2:]:
                    key, _, value = part.partition("=")
                    if key.lower() not in counts:
                        raise _bad(text, "write 'tickets draw' or 'tickets draw short=2 long=2'.")
                    counts[key.lower()] = parse_number(value, f"a number of {key.lower()} tickets")
                return DrawTickets(counts["short"], counts["long"])
            if words[1].lower() == "keep" and len(words) == 3:
                ids = tuple(i for i in words[2].split(",") if i)
                if not ids:
                    raise _bad(text, "name the tickets to keep, like 'tickets keep EU-T01,EU-T07'.")
                return KeepTickets(ids)
            raise _bad(text, "write 'tickets draw' or 'tickets keep ID,ID'.")
        if head == "station" and len(words) == 3:
            return BuildStation(words[1].replace("_", " "), parse_cards(words[2]))
        if head == "passenger" and len(words) >= 2 and words[1].lower() in _JOURNEY_WORDS:
            step = words[1].lower()
            if step == "start" and len(words) == 3:
                return StartJourney(words[2].replace("_", " "))
            if step == "travel" and len(words) == 3:
                return TravelRoute(words[2])
            if step == "stop" and len(words) == 2:
                return EndJourney()
            raise _bad(text, "write 'passenger start CITY', 'passenger travel ROUTE' or 'passenger stop'.")
        if head == "passenger" and len(words) == 3:
            tracks = tuple(t for t in words[2].split(",") if t)
            if not tracks:
                raise _bad(
                    text, "name the tracks the passenger travels, like 'passenger Berlin DE010,DE020b'."
                )
            return MovePassenger(words[1].replace("_", " "), tracks)
        if head == "pass" and len(words) == 1:
            return Pass()
        if head == "skip" and len(words) == 2 and words[1].lower() == "turn":
            return SkipTurn()
    except IllegalAction:
        raise
    raise _bad(text, "actions are draw, claim, tunnel, tickets, station, passenger or pass.")


_KINDS: dict[str, type[Any]] = {
    cls.kind: cls
    for cls in (
        DrawFaceUp,
        DrawDeck,
        ClaimRoute,
        PayTunnel,
        WithdrawTunnel,
        DrawTickets,
        KeepTickets,
        BuildStation,
        MovePassenger,
        StartJourney,
        TravelRoute,
        EndJourney,
        Pass,
        SkipTurn,
    )
}


def action_from_json(obj: dict[str, Any]) -> Action:
    if not isinstance(obj, dict) or "text" not in obj:
        raise IllegalAction("malformed_action", "An action in JSON form needs a 'text' field.")
    action = parse_action(str(obj["text"]))
    if obj.get("kind") not in (None, action.kind):
        raise IllegalAction(
            "malformed_action", f"Action kind {shown(str(obj.get('kind')))} does not match its text."
        )
    return action
