"""End-to-end: a move whose first reply Discord refused still tells the player it counted (issue 30).

When the bot's first answer to a move misses Discord's 3-second deadline or meets a rate limit,
the move is committed and its board posted, but the player's client shows "This interaction
failed", which invites a second try. The confirmation then goes by direct message, and a second
press of the same button is answered that the move already counted, changing nothing."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from fakediscord import FakeDiscord, FakeMessage, FakeUser
from test_bot_firstclass import FCTable
from test_bot_support import PATIENCE, Table, make_bot


async def _confirmation_by_dm(fake: FakeDiscord, user: FakeUser, handle: Any) -> FakeMessage:
    dm = fake.dm_channel(user)
    msg = await fake.wait_for_message(lambda m: "counted" in m.text(), PATIENCE, channel=dm, new_only=False)
    assert not [m for m in handle.messages if not m.loading], "Discord refused the first reply"
    return msg


@pytest.mark.parametrize("how", ["late", "rate_limited"])
async def test_a_move_whose_first_reply_failed_is_confirmed_by_direct_message(
    fake_discord: FakeDiscord, run_bot: Any, tmp_path: Path, how: str
) -> None:
    fake = fake_discord
    bot = await run_bot(lambda: make_bot(tmp_path / "c.db"))
    table = Table(fake, bot)
    await table.create(fake.alice, board="usa", seat_order="join")
    assert "joined" in (await table.slash("ttr join", fake.bob)).text()
    await table.slash("ttr start", fake.alice)
    users = {await table.seat_of(u): u for u in (fake.alice, fake.bob)}
    for seat in await table.to_act():  # the opening tickets
        await table.play_buttons(users[seat])
    user = users[(await table.to_act())[0]]
    seq, board = await table.seq(), table.latest_board()
    assert board is not None
    fake.fail_next_first_reply(how)
    handle = await fake.click(board, f"c:{table.gid}:{seq}:deck", user=user)
    dm = await _confirmation_by_dm(fake, user, handle)
    text = dm.text()
    assert "game #1 counted" in text and "✓" in text and "drew a card" in text, text
    assert await table.seq() == seq + 1  # the first card counted, once
    # pressing the same button again: it already counted, nothing changes
    again = await table.reply(await fake.click(board, f"c:{table.gid}:{seq}:deck", user=user))
    assert again.ephemeral and "already counted" in again.text(), again.text()
    assert await table.seq() == seq + 1
    # the second card from the direct message's buttons, then a press again on them
    second = f"c:{table.gid}:{seq + 1}:deck"
    reply = await table.reply(await fake.click(dm, second, user=user))
    assert reply.text().startswith("✓"), reply.text()
    after = await table.seq()
    assert after > seq + 1
    again = await table.reply(await fake.click(dm, second, user=user))
    assert "already counted" in again.text(), again.text()
    assert await table.seq() == after
    table.assert_one_live_surface()
    table.assert_no_leaks()


async def test_a_first_class_move_whose_first_reply_failed_is_confirmed_by_direct_message(
    fake_discord: FakeDiscord, run_bot: Any, tmp_path: Path
) -> None:
    """First Class answers a move by deferring first: when that first reply fails, the move still
    counts and is confirmed by direct message; pressing again is answered that it already counted."""
    fake = fake_discord
    bot = await run_bot(lambda: make_bot(tmp_path / "c.db"))
    table = FCTable(fake, bot)
    await table.create(fake.alice, game="first-class", seat_order="join")
    await table.slash("ttr addai", fake.alice)
    await table.slash("ttr start", fake.alice)
    await table.play_one(fake.alice)  # the draft
    seq, board = await table.seq(), table.latest_board()
    assert board is not None
    take = next(c for c in board.custom_ids() if c.startswith(f"f:{table.gid}:{seq}:take_"))
    fake.fail_next_first_reply("late")
    handle = await fake.click(board, take, user=fake.alice)
    dm = await _confirmation_by_dm(fake, fake.alice, handle)
    assert "✓" in dm.text(), dm.text()
    moved = await table.seq()
    assert moved > seq
    again = await table.reply(await fake.click(board, take, user=fake.alice))
    assert again.ephemeral and "already counted" in again.text(), again.text()
    assert await table.seq() == moved
