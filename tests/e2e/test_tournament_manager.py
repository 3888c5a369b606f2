"""End-to-end: who organises an event. Its creator, the server's admins and holders of the
server's game manager role (``/ttr manager``) start, pause, void and correct; any other member
is refused with a private sentence and nothing changes."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from fakediscord import FakeDiscord
from test_bot_manager import _command, _new_role
from test_bot_support import make_bot
from test_tournament_support import Clock, ask, event_id_of

from bot.discord_app.settings import GuildSettings


async def test_a_game_manager_organises_an_event_a_plain_member_does_not(
    fake_discord: FakeDiscord, run_bot: Any, tmp_path: Path
) -> None:
    fake = fake_discord
    bot = await run_bot(lambda: make_bot(tmp_path / "m.db", clock=Clock()))
    players = [fake.alice, fake.bob, fake.add_user("p3"), fake.add_user("p4")]
    event_id = event_id_of(await ask(fake, "tournament create", fake.alice, name="Club Night", rounds=1))
    for user in players:
        await ask(fake, "tournament join", user)
    managers = await _new_role(fake, bot, fake.guild, "Game managers")
    await GuildSettings(bot.storage).set_manager_role(fake.guild.id, managers)

    async def as_member(command: str, roles: tuple[int, ...] = (), **options: Any) -> str:
        handle = _command(fake, command, fake.bob, fake.general, roles=roles, event=event_id, **options)
        msg = await (await fake.inject(handle)).wait_message(timeout=60)
        assert msg.ephemeral
        return str(msg.text())

    refused = await as_member("tournament start")
    assert refused == "✗ Only the event's creator, a server admin or a game manager can do that.", refused
    assert (await bot.tournaments.store.event(event_id)).status == "registration"  # type: ignore[union-attr]
    assert "round 1" in await as_member("tournament start", (managers,))
    assert "paused" in await as_member("tournament pause", (managers,))
    refused = await as_member("tournament void", round=1, table=1, reason="no")
    assert refused.startswith("✗ Only"), refused
    voided = await as_member("tournament void", (managers,), round=1, table=1, reason="Club closed early")
    assert "void" in voided, voided
    event = await bot.tournaments.store.event(event_id)
    assert event is not None and event.status == "finished"  # its only round closed by the void
    assert [r.void for r in await bot.tournaments.store.results(event_id)] == [True]
    await fake.settle()
