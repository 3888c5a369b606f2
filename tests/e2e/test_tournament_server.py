"""End-to-end: events belong to their server (issue 32, findings 8 and 9).

Promises: each server numbers its own events from 1 (a second server's first event is its #1, and
`event:1` typed there reaches that server's event only); a server admin chooses who may create
events (`/tournament creators`: anyone, holders of a role, or only admins and game managers) and a
member the setting leaves out is refused privately, nothing created.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from fakediscord import FakeDiscord, Opt
from test_bot_manager import ROLE_OPTION, _command, _new_role, _role_payload
from test_bot_support import make_bot
from test_tournament_support import Clock, ask

from bot.discord_app.client import ConductorBot
from bot.discord_app.store import player_ref, space_ref


async def test_each_server_numbers_its_events_from_one(
    fake_discord: FakeDiscord, run_bot: Any, tmp_path: Path
) -> None:
    fake = fake_discord
    other = fake.add_guild("Other Guild", owner=fake.carol)
    elsewhere = fake.add_channel(other, "general")
    bot: ConductorBot = await run_bot(lambda: make_bot(tmp_path / "n.db", clock=Clock()))
    assert "event #1 " in (await ask(fake, "tournament create", fake.alice, name="Cup A")).text()
    assert "event #2 " in (await ask(fake, "tournament create", fake.alice, name="Cup A2")).text()
    handle = await fake.slash("tournament create", user=fake.carol, channel=elsewhere, name="Cup B")
    created = await handle.wait_message(timeout=60)
    assert "Created event #1 **Cup B**" in created.text(), created.text()  # not #3
    # the status message posted in server B names its own number
    status = [m.text() for m in fake.messages_in(elsewhere, ephemeral=False)]
    assert any("(event #1)" in text for text in status), status
    # bob types event 1 in server B: he joins server B's event, not server A's
    joined = await (
        await fake.slash("tournament join", user=fake.bob, channel=elsewhere, event=1)
    ).wait_message(timeout=60)
    assert "You are registered for event #1." in joined.text(), joined.text()
    (b_event,) = await bot.tournaments.store.events(space_ref(other.id))
    assert [e.player for e in await bot.tournaments.store.entries(b_event.id)] == [player_ref(fake.bob.id)]
    for a_event in await bot.tournaments.store.events(space_ref(fake.guild.id)):
        assert await bot.tournaments.store.entries(a_event.id) == []
    refused = await (
        await fake.slash("tournament join", user=fake.bob, channel=elsewhere, event=2)
    ).wait_message(timeout=60)
    assert refused.text() == "✗ There is no event #2 here.", refused.text()


async def test_a_server_admin_chooses_who_creates_events(
    fake_discord: FakeDiscord, run_bot: Any, tmp_path: Path
) -> None:
    fake = fake_discord
    bot: ConductorBot = await run_bot(lambda: make_bot(tmp_path / "c.db", clock=Clock()))
    organisers = await _new_role(fake, bot, fake.guild, "Organisers")

    async def as_member(
        command: str, roles: tuple[int, ...] = (), admin: bool = False, **options: Any
    ) -> str:
        handle = _command(fake, command, fake.bob, fake.general, roles=roles, admin=admin, **options)
        if "role" in options:
            handle.payload["data"].setdefault("resolved", {})["roles"] = {
                str(organisers): _role_payload(organisers, "Organisers")
            }
        msg = await (await fake.inject(handle)).wait_message(timeout=60)
        assert msg.ephemeral
        return str(msg.text())

    refused = await as_member("tournament creators", who="admins")
    assert refused == "✗ Only a server admin (Manage Server) can choose who creates events.", refused
    assert "Created event #1" in await as_member("tournament create", name="Open Night")  # default: anyone
    assert "Only the server admins" in await as_member("tournament creators", admin=True, who="admins")
    refused = await as_member("tournament create", name="Closed Night")
    assert refused == "✗ In this server, only the server admins and game managers create events.", refused
    assert "Created event #2" in await as_member("tournament create", admin=True, name="Admin Night")
    answer = await as_member(
        "tournament creators", admin=True, who="role", role=Opt(ROLE_OPTION, str(organisers))
    )
    assert f"<@&{organisers}>" in answer, answer
    refused = await as_member("tournament create", name="Closed Night")
    assert refused.startswith("✗ In this server, events are created by holders of the role"), refused
    assert "Created event #3" in await as_member("tournament create", (organisers,), name="Role Night")
    names = [e.name for e in await bot.tournaments.store.events(space_ref(fake.guild.id))]
    assert sorted(names) == ["Admin Night", "Open Night", "Role Night"]
