"""End-to-end: a seat handed to a person on its turn pings its new player (issue 30: after
``/ttr replace seat:2 user:ivy`` the post had no mention, and ivy learnt nothing until a reminder)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from fakediscord import FakeDiscord
from test_bot_support import Table, make_bot


@pytest.mark.parametrize(("game", "opening"), [("ttr", True), ("first-class", False)])
async def test_seat_handed_over_on_its_turn_pings_its_new_player(
    fake_discord: FakeDiscord, run_bot: Any, tmp_path: Path, game: str, opening: bool
) -> None:
    """The creator hands the seat to act to ivy: the public post names ivy with "your turn" and
    pings ivy only (not the player who had the seat, not the other player)."""
    fake = fake_discord
    ivy = fake.add_user("ivy")
    bot = await run_bot(lambda: make_bot(tmp_path / "c.db"))
    table = Table(fake, bot)
    options: dict[str, Any] = {"board": "usa"} if game == "ttr" else {"game": "first-class"}
    await table.create(fake.alice, seat_order="join", **options)
    await table.slash("ttr join", fake.bob)
    await table.slash("ttr start", fake.alice)
    if opening:  # Ticket to Ride's opening tickets, chosen by both at once: then one seat acts
        for user in (fake.alice, fake.bob):
            await table.play_one(user)
    to_act = await table.to_act()
    assert len(to_act) == 1, to_act
    seat = to_act[0]
    before = len(fake.messages_in(table.thread, ephemeral=False))
    answer = await table.slash("ttr replace", fake.alice, seat=seat + 1, user=ivy)
    assert answer.text().startswith("✓"), answer.text()
    await table.settle()
    posts = fake.messages_in(table.thread, ephemeral=False)[before:]
    assert posts, "the hand-over posted nothing"
    last = posts[-1]
    assert f"<@{ivy.id}>" in last.text() and "your turn" in last.text(), last.text()
    assert f"<@{fake.alice.id}>" not in last.text() and f"<@{fake.bob.id}>" not in last.text()
    posted = next(r for r in fake.requests if r.message is last and r.method == "POST")
    assert (posted.message_data or {})["allowed_mentions"]["users"] == [ivy.id]  # the one ping
    table.assert_no_leaks()
