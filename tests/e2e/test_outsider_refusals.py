"""End-to-end: a member who is not in the game is refused clearly and privately by the moves that
look a payment up for them (issue 30: ``/play station`` and ``/play claim`` without a payment
answered "Something went wrong")."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from fakediscord import FakeDiscord
from test_bot_support import Table, make_bot


@pytest.mark.parametrize(
    ("command", "options"),
    [("play station", {"city": "Berlin"}), ("play claim", {"route": "EU001"})],
)
async def test_a_member_not_in_the_game_is_refused_clearly(
    fake_discord: FakeDiscord, run_bot: Any, tmp_path: Path, command: str, options: dict[str, Any]
) -> None:
    """carol, in the game's thread but not in the game, gets one private sentence saying she is
    not playing, and nothing changes (no public post, the same move number)."""
    fake = fake_discord
    bot = await run_bot(lambda: make_bot(tmp_path / "c.db"))
    table = Table(fake, bot)
    await table.create(fake.alice, board="europe", seat_order="join")
    await table.slash("ttr join", fake.bob)
    await table.slash("ttr start", fake.alice)
    for user in (fake.alice, fake.bob):
        await table.play_one(user)
    seq = await table.seq()
    public = len(fake.messages_in(table.thread, ephemeral=False))
    answer = await table.slash(command, fake.carol, **options)
    assert answer.ephemeral and answer.text().startswith("✗"), answer.text()
    assert "not playing in game #1" in answer.text(), answer.text()
    assert "went wrong" not in answer.text()
    await table.settle()
    assert await table.seq() == seq
    assert len(fake.messages_in(table.thread, ephemeral=False)) == public
