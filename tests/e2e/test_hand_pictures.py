"""End-to-end: the "My hand" picture is drawn and uploaded once per hand state, then shown again
by the URL of that upload until the hand changes (issue 30: 15.1 MB of hand pictures in a Europe
game, more than all its boards)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from fakediscord import FakeDiscord, FakeMessage, FakeUser
from test_bot_support import Table, make_bot

MEDIA_GALLERY = 12


def gallery_urls(message: FakeMessage) -> list[str]:
    """The URLs a message shows in its media galleries (Discord's layout components)."""
    return [
        str(item["media"]["url"])
        for comp in message.iter_components()
        if comp.get("type") == MEDIA_GALLERY
        for item in comp.get("items") or []
    ]


def attachment_url(fake: FakeDiscord, message: FakeMessage, filename: str) -> str:
    """The URL Discord gave an attachment of ``message`` (as the bot read it back)."""
    data = message.payload(fake.url)
    return next(str(a["url"]) for a in data["attachments"] if a["filename"] == filename)


async def _hand(table: Table, user: FakeUser) -> FakeMessage:
    reply = await table.press(user, f"c:{table.gid}:hand")
    assert reply.ephemeral and "Your cards" in reply.text(), reply.text()
    return reply


async def test_hand_picture_is_uploaded_once_per_hand_state(
    fake_discord: FakeDiscord, run_bot: Any, tmp_path: Path
) -> None:
    """Pressing *My hand* again in the same hand state draws nothing and uploads nothing: the
    answer shows the picture already uploaded (by its URL) with the same text and working
    controls; another player's move leaves the picture as it is; the player's own move (a new
    card) makes a new picture, drawn and uploaded once."""
    fake = fake_discord
    bot = await run_bot(lambda: make_bot(tmp_path / "c.db"))
    table = Table(fake, bot)
    await table.create(fake.alice, board="usa", seat_order="join")
    await table.slash("ttr join", fake.bob)
    await table.slash("ttr start", fake.alice)
    for user in (fake.alice, fake.bob):
        await table.play_buttons(user)  # the opening tickets, kept by buttons
    users = {await table.seat_of(u): u for u in (fake.alice, fake.bob)}
    first = users[(await table.to_act())[0]]
    other = fake.bob if first is fake.alice else fake.alice
    pictures = bot.ui.hand_pictures

    drawn = pictures.draws
    upload = await _hand(table, first)
    assert [a.filename for a in upload.attachments] == ["hand.png"]
    assert pictures.draws == drawn + 1
    url = attachment_url(fake, upload, "hand.png")

    again = await _hand(table, first)
    assert again.attachments == [] and gallery_urls(again) == [url]
    assert pictures.draws == drawn + 1  # drawn once for this state
    assert again.text() == upload.text()
    assert set(again.custom_ids()) == set(upload.custom_ids())
    toggle = await table.press(first, f"c:{table.gid}:dm:on")  # a control of the reused answer works
    assert "direct message" in toggle.text()

    async def turn_of(user: FakeUser) -> None:
        while users[(await table.to_act())[0]] is user:
            await table.play_buttons(user)

    await turn_of(first)  # the player's own move: the hand changes
    changed = await _hand(table, first)
    assert [a.filename for a in changed.attachments] == ["hand.png"]
    new_url = attachment_url(fake, changed, "hand.png")
    assert new_url != url
    mine = await _hand(table, other)
    assert [a.filename for a in mine.attachments] == ["hand.png"]  # another seat: its own picture
    await turn_of(other)
    drawn = pictures.draws
    unchanged = await _hand(table, first)  # the other player's move leaves this hand as it was
    assert unchanged.attachments == [] and gallery_urls(unchanged) == [new_url]
    assert pictures.draws == drawn
    table.assert_no_leaks()
