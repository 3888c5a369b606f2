"""End-to-end: game numbers are counted per server (issue 11), so "game 1" typed in a server is that
server's game 1, and a number reveals nothing about other servers."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from fakediscord import FakeDiscord
from test_bot_support import PATIENCE, make_bot

from bot.discord_app.store import player_ref


async def _create(fake: FakeDiscord, user: Any, channel: Any) -> tuple[int, str]:
    msg = await (await fake.slash("ttr new", user=user, channel=channel, board="usa")).wait_message(
        timeout=PATIENCE
    )
    assert msg.ephemeral, msg.text()
    m = re.search(r"Created game #(\d+)", msg.text())
    assert m, msg.text()
    return int(m[1]), msg.text()


async def test_two_servers_each_have_their_game_1_and_a_typed_number_stays_in_its_server(
    fake_discord: FakeDiscord, run_bot: Any, tmp_path: Path
) -> None:
    fake = fake_discord
    other = fake.add_guild("Other Guild", owner=fake.carol)  # known to the bot when it connects
    elsewhere = fake.add_channel(other, "general")
    bot = await run_bot(lambda: make_bot(tmp_path / "c.db"))
    number_a, _ = await _create(fake, fake.alice, fake.general)
    number_b, _ = await _create(fake, fake.carol, elsewhere)
    assert number_a == number_b == 1
    # each server's thread is named by its own number; the games are two different games
    threads = {t.guild_id: t for t in fake.threads}
    assert threads[fake.guild.id].name.endswith("#1") and threads[other.id].name.endswith("#1")
    ids = {
        guild: gid
        for guild, gid in (
            (fake.guild.id, (await bot.ui.store.games_in_channel(fake.general.id))[0]),
            (other.id, (await bot.ui.store.games_in_channel(elsewhere.id))[0]),
        )
    }
    assert ids[fake.guild.id] != ids[other.id]
    # bob, in server B, types game 1: he joins server B's game and only that one
    msg = await (await fake.slash("ttr join", user=fake.bob, channel=elsewhere, game=1)).wait_message(
        timeout=PATIENCE
    )
    assert msg.text().startswith("You joined game #1"), msg.text()
    bob = player_ref(fake.bob.id)
    assert (await bot.service.game_row(ids[other.id])).seat_of(bob) is not None
    assert (await bot.service.game_row(ids[fake.guild.id])).seat_of(bob) is None
    # a number server B has not reached yet says the same as for any unused number
    msg = await (await fake.slash("ttr join", user=fake.bob, channel=elsewhere, game=2)).wait_message(
        timeout=PATIENCE
    )
    assert msg.text() == "✗ There is no game #2 here."
    await _create(fake, fake.alice, fake.general)  # server A's game 2 changes nothing in server B
    msg = await (await fake.slash("ttr join", user=fake.bob, channel=elsewhere, game=2)).wait_message(
        timeout=PATIENCE
    )
    assert msg.text() == "✗ There is no game #2 here."
    # a button's custom id carries the internal id; forged in server B for server A's game, it
    # reaches nothing, and says no more than for an id never used
    in_b = fake.messages_in(threads[other.id], ephemeral=False)[0]
    for forged_id in (ids[fake.guild.id], 10_000):
        h = await fake.forge_component(in_b, f"c:{forged_id}:hand", user=fake.carol)
        assert (await h.wait_message(timeout=PATIENCE)).text() == "✗ There is no such game here."
    # /games lists bob's game by its number in its server
    msg = await (await fake.slash("games", user=fake.bob, channel=elsewhere)).wait_message(timeout=PATIENCE)
    assert msg.text().startswith("#1 usa · lobby"), msg.text()
    await fake.settle()
