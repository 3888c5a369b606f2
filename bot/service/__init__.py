"""GameService: the only path from any front end to a change of game state.

Slash commands, buttons, select menus, the terminal ``conductor play`` and the scheduler all call
this class. It loads a game, checks who may act, lets :mod:`rules` validate and apply the action,
persists the action and the new snapshot in one transaction (:meth:`~bot.store.api.GameStore.commit_action`), lets
AI seats play until a human must act, re-arms the turn timer, and returns an :class:`Outcome` that
the front end presents. Front ends never touch a game object themselves.

It is generic over :mod:`rules.games`: nothing here knows Ticket to Ride except the optional
board-flag summary in :meth:`GameService.rules_summary`.
"""

from __future__ import annotations

from bot.service.admin import ServiceAdmin
from bot.service.common import (
    MAX_AI_STEPS,
    MAX_TURN_HOURS,
    MIN_REMINDER_HOURS,
    MIN_TURN_HOURS,
    NO_SPACE,
    NO_SUCH_GAME,
    POLICY_WORDS,
    REMIND_BY,
    REMINDER_FRACTION,
    SEAT_ORDERS,
    SEAT_REF,
    STALL_BACKOFF,
    STALL_BACKOFF_MAX,
    TAKEOVER_SETTING,
    TIMEOUT_POLICIES,
    Lines,
    Loaded,
    ServiceError,
    hours_msg,
    hours_text,
    plural,
    reminder_lead,
    say,
    timer_msg,
    timer_text,
)
from bot.service.views import CommittedViews, build_view


class GameService(ServiceAdmin):
    """Create, join, start and play games; the single writer of game state.

    One object assembled from one class per concern (each extends the one before):
    :mod:`~bot.service.core` (state, loading, reach, deadlines) < :mod:`~bot.service.views`
    < :mod:`~bot.service.turns` < :mod:`~bot.service.timers` < :mod:`~bot.service.lobby`
    < :mod:`~bot.service.admin`."""


__all__ = [
    "CommittedViews",
    "GameService",
    "Lines",
    "Loaded",
    "MAX_AI_STEPS",
    "MAX_TURN_HOURS",
    "MIN_REMINDER_HOURS",
    "MIN_TURN_HOURS",
    "NO_SPACE",
    "NO_SUCH_GAME",
    "POLICY_WORDS",
    "REMINDER_FRACTION",
    "REMIND_BY",
    "SEAT_ORDERS",
    "SEAT_REF",
    "STALL_BACKOFF",
    "STALL_BACKOFF_MAX",
    "ServiceError",
    "TAKEOVER_SETTING",
    "TIMEOUT_POLICIES",
    "build_view",
    "hours_msg",
    "hours_text",
    "plural",
    "reminder_lead",
    "say",
    "timer_msg",
    "timer_text",
]
