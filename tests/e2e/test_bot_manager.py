"""End-to-end: the optional per-server "game manager" role (``/ttr manager``).

A server admin names a role; its holders may abort, kick, replace and start that server's games
like admins, and nobody else's. A role is read for the server the *game* belongs to, so holding a
manager role in another server reaches nothing here. Every refusal is a private sentence.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import discord
from fakediscord import HANG_GUARD, FakeDiscord, FakeGuild, FakeUser, Opt
from test_bot_support import Table, make_bot

from bot.discord_app.settings import GuildSettings
from bot.discord_app.store import player_ref

ROLE_OPTION = 8


async def _new_role(fake: FakeDiscord, bot: Any, guild: FakeGuild, name: str) -> int:
    """Create a role in ``guild`` the way Discord announces one (GUILD_ROLE_CREATE); returns its id
    once the bot has it in its cache."""
    role_id = fake.snowflake()
    created = asyncio.ensure_future(bot.wait_for("guild_role_create", check=lambda role: role.id == role_id))
    await fake.dispatch(
        "GUILD_ROLE_CREATE", {"guild_id": str(guild.id), "role": _role_payload(role_id, name)}
    )
    await asyncio.wait_for(created, HANG_GUARD)  # a guard against a hang, never a pause
    return role_id


def _role_payload(role_id: int, name: str) -> dict[str, Any]:
    return {
        "id": str(role_id),
        "name": name,
        "permissions": "0",
        "position": 1,
        "color": 0,
        "hoist": False,
        "managed": False,
        "mentionable": True,
        "flags": 0,
    }


def _command(
    fake: FakeDiscord,
    command: str,
    who: FakeUser,
    channel: Any,
    /,
    *,
    roles: tuple[int, ...] = (),
    admin: bool = False,
    **options: Any,
) -> Any:
    """A slash command from ``who`` as a member holding ``roles`` (and Manage Server if ``admin``)."""
    handle = fake.build_interaction(
        2, fake.build_command_data(command, options, channel=channel), who, channel, None
    )
    member = handle.payload["member"]
    member["roles"] = [str(r) for r in roles]
    if admin:
        perms = discord.Permissions(int(member["permissions"]))
        perms.manage_guild = True
        member["permissions"] = str(perms.value)
    return handle


def _set_manager(
    fake: FakeDiscord, who: FakeUser, channel: Any, role_id: int | None, *, admin: bool = True
) -> Any:
    """``/ttr manager role:@Role`` (or with no role) with the role resolved as Discord sends it."""
    options = {} if role_id is None else {"role": Opt(ROLE_OPTION, str(role_id))}
    handle = _command(fake, "ttr manager", who, channel, admin=admin, **options)
    if role_id is not None:
        handle.payload["data"].setdefault("resolved", {})["roles"] = {
            str(role_id): _role_payload(role_id, "Game managers")
        }
    return handle


async def _answer(fake: FakeDiscord, handle: Any) -> str:
    msg = await (await fake.inject(handle)).wait_message()
    assert msg.ephemeral, msg.text()
    return str(msg.text())


async def _started(fake: FakeDiscord, bot: Any) -> Table:
    table = Table(fake, bot)
    await table.create(fake.alice, board="usa", seat_order="join")
    await table.slash("ttr addai", fake.alice)
    await table.slash("ttr start", fake.alice)
    return table


async def test_a_game_manager_aborts_another_members_game_of_their_server_until_the_role_is_cleared(
    fake_discord: FakeDiscord, run_bot: Any, tmp_path: Path
) -> None:
    fake = fake_discord
    bot = await run_bot(lambda: make_bot(tmp_path / "c.db"))
    first = await _started(fake, bot)
    second = await _started(fake, bot)
    managers = await _new_role(fake, bot, fake.guild, "Game managers")
    text = await _answer(fake, _set_manager(fake, fake.carol, fake.general, managers))
    assert text.startswith("✓") and "abort, kick, replace and start" in text, text
    assert await GuildSettings(bot.storage).manager_role(fake.guild.id) == managers
    # bob neither created the game nor administers the server; he holds the role
    text = await _answer(
        fake, _command(fake, "ttr abort", fake.bob, fake.general, roles=(managers,), game=first.gid)
    )
    assert text.startswith("✓") and "aborted" in text, text
    assert (await bot.service.game_row(first.gid)).status == "aborted"
    # once an admin clears the role, holding it is worth nothing
    text = await _answer(fake, _set_manager(fake, fake.carol, fake.general, None))
    assert text.startswith("✓") and "no game manager role" in text, text
    text = await _answer(
        fake, _command(fake, "ttr abort", fake.bob, fake.general, roles=(managers,), game=second.gid)
    )
    assert text.startswith("✗"), text
    assert (await bot.service.game_row(second.gid)).status == "active"
    await fake.settle()


async def test_a_member_without_the_role_manages_nothing_and_cannot_choose_the_role(
    fake_discord: FakeDiscord, run_bot: Any, tmp_path: Path
) -> None:
    fake = fake_discord
    bot = await run_bot(lambda: make_bot(tmp_path / "c.db"))
    table = await _started(fake, bot)
    managers = await _new_role(fake, bot, fake.guild, "Game managers")
    other = await _new_role(fake, bot, fake.guild, "Regulars")
    assert (await _answer(fake, _set_manager(fake, fake.carol, fake.general, managers))).startswith("✓")
    for command, options in (
        ("ttr abort", {}),
        ("ttr replace", {"seat": 0}),
        ("ttr kick", {"user": fake.alice}),
    ):
        text = await _answer(
            fake, _command(fake, command, fake.bob, fake.general, roles=(other,), game=table.gid, **options)
        )
        assert text.startswith("✗ Only the game's creator or a server admin"), (command, text)
    row = await bot.service.game_row(table.gid)
    assert row.status == "active" and row.seat_of(player_ref(fake.alice.id)) == 0 and not row.seats[0].is_ai
    # choosing the role is for server admins only, and @everyone is refused
    text = await _answer(fake, _set_manager(fake, fake.bob, fake.general, other, admin=False))
    assert text.startswith("✗") and "server admin" in text, text
    text = await _answer(fake, _set_manager(fake, fake.carol, fake.general, fake.guild.id))
    assert text.startswith("✗") and "@everyone" in text, text
    assert await GuildSettings(bot.storage).manager_role(fake.guild.id) == managers
    await fake.settle()


async def test_a_game_manager_of_another_server_cannot_manage_this_servers_games(
    fake_discord: FakeDiscord, run_bot: Any, tmp_path: Path
) -> None:
    fake = fake_discord
    bot = await run_bot(lambda: make_bot(tmp_path / "c.db"))
    table = await _started(fake, bot)
    lobby = Table(fake, bot)
    await lobby.create(fake.alice, board="europe", seat_order="join")
    await lobby.slash("ttr addai", fake.alice)
    other = fake.add_guild("Other Guild", owner=fake.carol)
    elsewhere = fake.add_channel(other, "general")
    their_managers = fake.snowflake()
    await GuildSettings(bot.storage).set_manager_role(other.id, their_managers)  # set by that server's admin
    for command, options, game in (
        ("ttr abort", {}, table.gid),
        ("ttr replace", {"seat": 0}, table.gid),
        ("ttr kick", {"user": fake.alice}, table.gid),
        ("ttr start", {}, lobby.gid),
    ):
        # from their own server the game does not exist ...
        text = await _answer(
            fake,
            _command(fake, command, fake.carol, elsewhere, roles=(their_managers,), game=game, **options),
        )
        assert text.startswith("✗") and "There is no game" in text, (command, text)
        # ... and here their role is not this server's manager role
        text = await _answer(
            fake,
            _command(fake, command, fake.carol, fake.general, roles=(their_managers,), game=game, **options),
        )
        assert text.startswith("✗"), (command, text)
    assert (await bot.service.game_row(table.gid)).status == "active"
    assert (await bot.service.game_row(lobby.gid)).status == "lobby"
    await fake.settle()
