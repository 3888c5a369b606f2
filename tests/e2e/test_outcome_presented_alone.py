"""End-to-end: presenting a click's outcome asks nothing of the game service.

The promise (issue 28): an :class:`~bot.stream.Outcome` carries what its subscribers need (the
game's language, the turn's deadline, each seat's player and name, the public view and each seat's
own view and legal actions), so the Discord front end posts the board, pings whoever acts next,
edits the opted-in players' DM hands and answers the clicking player privately without one call
back into the service. A service double that records every access stands in for the real one
while the outcome is presented; it must see none.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from fakediscord import FakeDiscord, FakeUser
from test_bot_support import Table, make_bot

from bot.discord_app.store import player_ref
from bot.service import GameService
from bot.stream import Outcome


class ServiceThatMustNotBeAsked:
    """Stands in for the game service while an outcome is presented: records every attribute
    asked of it (and then answers like the real service, so a failure shows every call, not only
    the first)."""

    def __init__(self, real: GameService) -> None:
        self._real = real
        self.asked: list[str] = []

    def __getattr__(self, name: str) -> Any:
        self.asked.append(name)
        return getattr(self._real, name)


async def _table(fake: FakeDiscord, bot: Any, users: list[FakeUser]) -> Table:
    table = Table(fake, bot)
    await table.create(users[0], board="europe", seat_order="join")
    for user in users[1:]:
        await table.slash("ttr join", user)
    await table.slash("ttr start", users[0])
    return table


async def _to_a_turn_that_ends_with_one_action(table: Table, users: dict[int, FakeUser]) -> tuple[int, Any]:
    """Play on (by buttons) until the seat to act has an action that ends its turn; return it."""
    bot = table.bot
    for _ in range(60):
        loaded = await bot.service.load(table.gid)
        game = loaded.game
        to_act = list(game.seats_to_act())
        if len(to_act) == 1 and loaded.row.status == "active":
            seat = to_act[0]
            for action in game.legal_actions(seat):
                if action.kind not in ("claim", "draw_tickets"):
                    continue
                probe = game.copy()
                probe.apply(seat, action)
                if list(probe.seats_to_act()) != [seat] and not probe.is_over():
                    return seat, action
        for seat in to_act:
            await table.play_buttons(users[seat])
    raise AssertionError("no turn-ending action came up")


async def test_a_clicks_outcome_is_presented_without_calling_the_service(
    fake_discord: FakeDiscord, run_bot: Any, tmp_path: Path
) -> None:
    fake = fake_discord
    bot = await run_bot(lambda: make_bot(tmp_path / "c.db"))
    table = await _table(fake, bot, [fake.alice, fake.bob])
    users = {await table.seat_of(u): u for u in (fake.alice, fake.bob)}
    # both players keep their hand in a DM, so presenting edits DM hands too
    for user in users.values():
        await table.press(user, f"c:{table.gid}:hand")
        assert "direct message" in (await table.press(user, f"c:{table.gid}:dm:on")).text()
    seat, action = await _to_a_turn_that_ends_with_one_action(table, users)
    await table.settle()
    actor = users[seat]
    other = users[1 - seat]
    player = player_ref(actor.id)
    boards_before = len(fake.messages_in(table.thread, ephemeral=False))
    dm_edits_before = sum(m.edits for m in fake.messages_in(fake.dm_channel(other)))

    real = bot.app.service
    outcome: Outcome = await real.act(table.gid, player, action)
    # From here on the outcome is only presented: the stream delivers it to the Discord front
    # end, which must ask the service nothing (and the clicking player's private answer too).
    double = ServiceThatMustNotBeAsked(real)
    bot.app.service = double
    try:
        hint, _controls = await bot.ui.private_panel(outcome, player)
        answer = bot.ui._private_after(outcome, player, hint)
        await real.stream.drain()
    finally:
        bot.app.service = real
    assert double.asked == [], f"presenting called back into the service: {double.asked}"

    # ... and it was presented: the board posted, the next player pinged, the DM hands edited,
    # the private answer written from the actor's own view
    boards = fake.messages_in(table.thread, ephemeral=False)
    assert len(boards) > boards_before
    assert re.search(rf"<@{other.id}>: your turn in game #\d+", boards[-1].text()), boards[-1].text()
    assert sum(m.edits for m in fake.messages_in(fake.dm_channel(other))) > dm_edits_before
    assert answer and "Your cards" in answer, answer
    assert outcome.seats[seat].player == player and outcome.language == "en"
    table.assert_no_leaks()
