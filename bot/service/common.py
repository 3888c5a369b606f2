"""What the service's parts share: its refusals, the lines of a request, a loaded game, the
timer's settings and the words for durations and timers."""

from __future__ import annotations

import logging
import re
from collections.abc import Iterable
from dataclasses import dataclass, field

from bot.store.rows import (
    GameRow,
)
from bot.stream import GameView, Line, Note
from lang import CatalogError, Joined, M, Mn, Msg
from rules.plans import Step
from rules.protocol import Game


def plural(n: int, word: str, many: str | None = None) -> str:
    """``"1 card"``, ``"2 cards"`` (``many`` for irregular plurals). English only: for a reader's
    language write the sentence with ``lang._n``."""
    return f"{n} {word if n == 1 else (many or word + 's')}"


def hours_msg(hours: float) -> Msg:
    """A duration in words, in any reader's language: ``"90 minutes"``, ``"1 day 6 hours"``."""
    minutes = round(hours * 60)
    if minutes < 60:
        return Mn("{n} minute", "{n} minutes", minutes)
    whole, rest = divmod(minutes, 60)
    if whole < 48:
        return Joined(
            " ",
            parts=(
                Mn("{n} hour", "{n} hours", whole),
                *([Mn("{n} minute", "{n} minutes", rest)] if rest else []),
            ),
        )
    days, whole = divmod(whole, 24)
    return Joined(
        " ", parts=(Mn("{n} day", "{n} days", days), *([Mn("{n} hour", "{n} hours", whole)] if whole else []))
    )


def hours_text(hours: float) -> str:
    """A duration in words in the current language: ``"90 minutes"``, ``"24 hours"``, ``"3 days"``."""
    return hours_msg(hours).text()


def timer_msg(row: GameRow) -> Msg:
    """The game's turn timer in one sentence (lobby, start, /games), for any reader."""
    if not row.turn_hours:
        return M("No turn timer.")
    lead = reminder_lead(row)
    how = M("by direct message") if row.remind_by == "dm" else M("in the game's thread")
    return M(
        "Turn timer: {hours}, then {policy}; a reminder comes {lead} before, {how}.",
        hours=hours_msg(row.turn_hours),
        policy=POLICY_WORDS.get(row.timeout_policy, M(row.timeout_policy)),
        lead=hours_msg(lead),
        how=how,
    )


def timer_text(row: GameRow) -> str:
    """:func:`timer_msg` in the current language."""
    return timer_msg(row).text()


def say(seat: int | None, message: Msg) -> Line:
    """A public line that each reader reads in their language (its ``text`` is the English)."""
    return Line(seat, str(message), said=message)


def reminder_lead(row: GameRow) -> float:
    """Hours between the reminder and the deadline."""
    assert row.turn_hours
    return row.reminder_hours if row.reminder_hours else row.turn_hours * REMINDER_FRACTION


log = logging.getLogger("conductor.service")

TIMEOUT_POLICIES = ("skip", "ai", "forfeit")
# The game config key naming the AI kind that takes a person's seat over (a timed-out turn, a
# forfeit, a resignation, a seat handed to an AI); unset, the server's choice, else the game's.
TAKEOVER_SETTING = "takeover_ai"
SEAT_ORDERS = ("shuffle", "join")
REMIND_BY = ("thread", "dm")
MAX_AI_STEPS = 5000
REMINDER_FRACTION = 0.25
MIN_TURN_HOURS, MAX_TURN_HOURS = 1.0, 14 * 24.0  # a timer plays the game by itself below an hour
MIN_REMINDER_HOURS = 0.25
POLICY_WORDS = {
    "ai": M("an AI plays the turn"),
    "skip": M("the turn passes"),
    "forfeit": M("an AI takes the seat over"),
}
STALL_BACKOFF, STALL_BACKOFF_MAX = 5.0, 300.0  # seconds before retrying a game whose write failed
SEAT_REF = re.compile(r"\bSeat (\d{1,2})\b")
# A request made from no community (a direct message, the terminal): see GameService._visible.
NO_SPACE: str | None = None
# The answer for a game reached by its internal id (a button's custom id) that this request may not
# reach or that never existed: the same words either way, so an id reveals nothing.
NO_SUCH_GAME = M("There is no such game here.")


class ServiceError(CatalogError):
    """A request the service refuses (see :class:`lang.CatalogError`); ``message`` is meant for the
    player (English), ``said`` the same for any reader's language, ``code`` for tests."""


class Lines(list[Line]):
    """The public lines of one request; ``published`` counts those already sent as steps.
    ``notes`` are the request's private sentences for single players (``notes_published`` of
    them already sent)."""

    published = 0
    notes_published = 0

    def __init__(self, lines: Iterable[Line] = ()) -> None:
        super().__init__(lines)
        self.notes: list[Note] = []


@dataclass
class Loaded:
    """A game in memory: its row (seats, settings) and the live rules object (None in the lobby).

    ``moves`` counts each seat's actions (read once, then kept current by every commit: private
    menus compare against it on every click). ``scheduled`` holds the timers the last commit wrote
    with the move, so the reschedule that follows writes them again only if they changed."""

    row: GameRow
    game: Game | None
    moves: dict[int, int] | None = None
    scheduled: dict[str, tuple[float, int]] | None = None
    # views built for the state described by ``views_of`` (see GameService._view), by seat
    views: dict[int | None, GameView] = field(default_factory=dict)
    views_of: tuple[object, ...] = ()
    # each seat's planned turn (its steps and the seq it was made at), read once, then kept
    # current by every change (see bot.service.plans)
    plans: dict[int, tuple[tuple[Step, ...], int]] | None = None
    # the latest entry of the log (its seq and seat): a plan plays once another seat has moved
    last_move: tuple[int, int] | None = None


def _with_names(text: str, names: list[str]) -> str:
    """``"Seat 1 takes …"`` with the seat's player name (engines that name seats ``Seat <index>``,
    counted from 0, in their texts): players read names, never an index."""
    return SEAT_REF.sub(lambda m: names[int(m[1])] if int(m[1]) < len(names) else m[0], text)
