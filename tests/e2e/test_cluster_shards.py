"""Several bot processes on one PostgreSQL database, each running its own Discord shards (issue 29,
"the outcome stream across processes"; docs/operations.md, "PostgreSQL"), played through the fake
Discord: a move is posted by the process whose shards own the game's server, whichever process
committed it, once. (Two clients in one test process here, each with its own pool and process
name; tests/e2e/test_cluster_processes.py runs real processes.)"""

from __future__ import annotations

import asyncio
import re
from collections.abc import AsyncIterator, Awaitable, Callable
from itertools import count
from typing import Any

import pytest
from fakediscord import BotRunner, FakeDiscord, FakeMessage
from test_bot_support import PATIENCE, Table

from bot.discord_app.client import ShardedConductorBot
from bot.discord_app.shards import ShardSettingError, parse_shards, posts_for, shard_of
from bot.store.pg_cluster import shared_cluster
from bot.store.pg_outbox import PgOutbox

_numbers = count()


def sharded(url: str, process: str, shard: int, **kwargs: Any) -> ShardedConductorBot:
    """One process of a two-shard bot, running ``shard``."""
    bot = ShardedConductorBot.for_database(
        url,
        process=process,
        shard_ids=[shard],
        shard_count=2,
        start_scheduler=False,
        prewarm=False,
        guild_ready_timeout=0.05,
        **kwargs,
    )
    assert isinstance(bot, ShardedConductorBot)
    return bot


def test_the_shards_option_names_ranges_below_the_shard_count_or_says_why_not() -> None:
    """``conductor run --shards 0-3 --shard-count 8``: numbers and ranges; a shard the count does
    not have, or a range written backwards, is refused with a sentence (nothing starts)."""
    assert parse_shards("0-3", 8) == [0, 1, 2, 3]
    assert parse_shards("0,2,5-6", 8) == [0, 2, 5, 6]
    for bad, shard_count in (("4", 4), ("3-1", 8), ("x", 2), ("1", 0)):
        with pytest.raises(ShardSettingError) as refused:
            parse_shards(bad, shard_count)
        assert str(refused.value).startswith("--shard"), refused.value


async def until(check: Callable[[], Awaitable[bool]], what: str) -> None:
    """Wait until ``check()`` holds (the other process acts on its own time), at most PATIENCE s."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + PATIENCE
    while not await check():
        if loop.time() > deadline:
            raise AssertionError(f"waited {PATIENCE} s for {what}")
        await asyncio.sleep(0.01)


def test_a_servers_shard_is_its_id_shifted_22_bits_modulo_the_shard_count() -> None:
    """Discord's rule: ``shard_id = (guild_id >> 22) % num_shards``; direct messages: shard 0."""
    assert shard_of(81384788765712384, 2) == (81384788765712384 >> 22) % 2
    assert shard_of(None, 8) == 0 and shard_of(5 << 22, 1) == 0
    assert posts_for(5 << 22, [1], 2) and not posts_for(5 << 22, [0], 2)
    assert posts_for(5 << 22, None, None)  # one process, every shard


class TwoShards:
    """Processes A (shard 0: direct messages) and B (shard 1) of one bot on one database, and a
    game of a server of shard 1 whose player alice keeps her hand in a direct message."""

    def __init__(self, fake: FakeDiscord) -> None:
        self.fake = fake
        self.url = shared_cluster().create_database(f"shards_{next(_numbers)}")
        self.runners = (BotRunner(fake), BotRunner(fake))
        self.gid = 0

    async def start(self) -> None:
        fake = self.fake
        far = fake.add_guild("Far", owner=fake.alice, shard=(1, 2))
        games = fake.add_channel(far, "games")
        self.dm_shard = await self.runners[0].start(lambda: sharded(self.url, "A", 0))
        self.owner = await self.runners[1].start(lambda: sharded(self.url, "B", 1))
        await self.owner.outbox.caught_up()
        await self.dm_shard.outbox.caught_up()
        made = await (
            await fake.slash("ttr new", user=fake.alice, channel=games, board="usa", seat_order="join")
        ).wait_message()
        gid = self.gid = int(re.search(r"game #(\d+)", made.text())[1])  # type: ignore[index]
        table = self.table = Table(fake, self.owner)
        table.gid = gid
        table.thread = next(t for t in fake.threads if f"#{gid}" in t.name)
        await table.slash("ttr addai", fake.alice)
        await table.slash("ttr start", fake.alice)
        await table.press(fake.alice, f"c:{gid}:hand")
        on = await table.press(fake.alice, f"c:{gid}:dm:on")
        assert "direct message" in on.text()
        await table.play_one(fake.alice)  # her opening tickets, in the thread (shard 1)

    async def close(self) -> None:
        for runner in self.runners:
            await runner.close()

    async def dm_hand_with_deck(self) -> FakeMessage:
        dm = self.fake.dm_channel(self.fake.alice)

        def deck_in_dm() -> FakeMessage | None:
            hand = next(m for m in self.fake.messages_in(dm) if m.interaction is None)
            return hand if any(c.endswith(":deck") for c in hand.custom_ids()) else None

        return await self.fake.wait_until(deck_in_dm, PATIENCE, "her turn in the DM hand")

    async def seq(self) -> int:
        return (await self.owner.storage.get_game(self.gid)).seq

    async def posted_by_owner(self, before: int) -> None:
        owner = self.owner

        async def posted() -> bool:
            return owner.ui.from_outbox.posted > before and not await owner.storage.outbox.unposted(self.gid)

        await until(posted, "shard 1's process to post the board")


@pytest.fixture
async def shards(fake_discord: FakeDiscord) -> AsyncIterator[TwoShards]:
    both = TwoShards(fake_discord)
    try:
        await both.start()
        yield both
    finally:
        await both.close()


async def test_a_click_in_a_direct_message_is_applied_by_shard_0_and_posted_by_the_servers_shard(
    shards: TwoShards,
) -> None:
    """Done-when 7: a click in a direct message arrives on shard 0 (process A) for a game of a
    server of shard 1 (process B). A applies it and answers the click; B, told by the outbox's
    notice, posts the board in the game's thread (her turn's first card waits for its end, as
    one process does), each move once; A posts nothing in the thread."""
    fake, owner, gid = shards.fake, shards.owner, shards.gid
    hand = await shards.dm_hand_with_deck()
    seq = await shards.seq()
    assert f"c:{gid}:{seq}:deck" in hand.custom_ids()
    posted_before = owner.ui.from_outbox.posted
    first_card = await fake.click(hand, f"c:{gid}:{seq}:deck", user=fake.alice)
    answer = await first_card.wait_message(timeout=PATIENCE)
    assert answer.ephemeral and answer.text().startswith("✓"), answer.text()
    assert first_card.payload.get("guild_id") is None  # a direct message: shard 0's
    second_card = await fake.click(answer, f"c:{gid}:{seq + 1}:deck", user=fake.alice)
    assert (await second_card.wait_message(timeout=PATIENCE)).text().startswith("✓")
    await shards.posted_by_owner(posted_before)
    # her turn's first card waited for its end (one message per turn); the AI's answer, committed
    # by A just after, may come as a message of its own
    assert posted_before + 1 <= owner.ui.from_outbox.posted <= posted_before + 2
    now = await shards.seq()
    assert now >= seq + 2
    latest = await owner.storage.discord.latest_message(gid)
    assert latest is not None and latest[0] == now  # the board as it stands
    assert gid not in shards.dm_shard.ui.posted_seq  # A applied the move and posted nothing in the thread
    assert owner.ui.posted_seq[gid] == now
    board = shards.table.latest_board()
    assert board is not None and board.text().count("alice") >= 2, board.text()
    assert fake.nonce_repeats == 0


async def test_after_postgresql_restarts_both_processes_reconnect_listen_again_and_catch_up(
    shards: TwoShards,
) -> None:
    """Done-when 6: PostgreSQL restarts under the two processes (pools and listeners connected).
    Both listeners connect again (and drop their pools' dead connections), then a turn is played
    by direct-message clicks on A without an error to the player, and B hears it (or reads it in
    its catch-up) and posts the turn: every acknowledged move is in the log and on the board."""
    fake, owner, gid = shards.fake, shards.owner, shards.gid
    hand = await shards.dm_hand_with_deck()
    seq = await shards.seq()
    posted_before = owner.ui.from_outbox.posted
    assert isinstance(owner.storage.outbox, PgOutbox)
    cluster = shared_cluster()
    cluster.stop("fast")
    cluster.start()

    async def listening_again() -> bool:
        return all(
            isinstance(b.storage.outbox, PgOutbox) and b.storage.outbox.reconnects >= 1
            for b in (owner, shards.dm_shard)
        )

    await until(listening_again, "both processes to listen again")
    first = await (await fake.click(hand, f"c:{gid}:{seq}:deck", user=fake.alice)).wait_message(
        timeout=PATIENCE
    )
    assert first.text().startswith("✓"), first.text()
    second = await (await fake.click(first, f"c:{gid}:{seq + 1}:deck", user=fake.alice)).wait_message(
        timeout=PATIENCE
    )
    assert second.text().startswith("✓"), second.text()
    await shards.posted_by_owner(posted_before)
    moves = await owner.storage.actions(gid, since_seq=seq)
    assert [m.action_json["kind"] for m in moves[:2]] == ["draw_deck", "draw_deck"]
    assert owner.ui.posted_seq[gid] == await shards.seq()
    said = "\n".join(m.text() for m in fake.messages_in(shards.table.thread, ephemeral=False))
    assert said.count("**alice** drew a card from the deck") == 2, said
    assert fake.nonce_repeats == 0
