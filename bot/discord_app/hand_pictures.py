"""A hand picture drawn once per hand state and uploaded once, then reused until the hand changes.

*My hand* is pressed far more often than a hand changes (to look again, to open the private
menus, while others play), and each answer used to draw and upload a new picture of 80-180 KB.
The picture depends only on the game's ``hand_state`` of the seat's view (for Ticket to Ride:
cards, tickets, the offer and the seat's own routes; :func:`bot.present.hand_picture`), so:

* it is drawn once per state (a small cache of the PNGs, keyed by the state's fingerprint);
* it is uploaded once per player, game and state: a later answer in the same state shows the
  attachment already uploaded (its URL in a media gallery, Discord's layout components) instead
  of sending the bytes again. Discord keeps an ephemeral message's attachment for a while but
  does not say how long, so an upload is reused for ``REUSE_FOR`` seconds only, then sent anew.

Only the player's own answers ever carry the URL: it is kept in this process's memory, per player.
"""

from __future__ import annotations

import io
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

import discord

from bot.present import hand_picture, hand_picture_key, render_hand_state_png

#: Draws a picture in a worker process (``Workers.render``).
Render = Callable[[Callable[[dict[str, Any]], bytes | None], dict[str, Any]], Awaitable[bytes | None]]

#: How long an uploaded hand picture is shown again by its URL (seconds); well inside the day a
#: Discord attachment URL stays signed for.
REUSE_FOR = 3600.0


@dataclass
class HandAttachment:
    """How one answer shows the hand picture: a file to upload, or the URL of an earlier upload."""

    filename: str
    file: discord.File | None = None
    url: str | None = None
    _remember: Callable[[str], None] = field(default=lambda url: None, repr=False)

    def remember(self, message: discord.Message | None) -> None:
        """After an upload: keep the attachment's URL for the next answer in the same state."""
        if self.file is None or message is None:
            return
        for attachment in message.attachments:
            if attachment.filename == self.filename:
                self._remember(attachment.url)


class HandPictures:
    """The drawn hand pictures (by state) and the uploaded ones (by player, game and state)."""

    def __init__(
        self,
        render: Render,
        *,
        drawn: int = 256,
        uploads: int = 4096,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.render = render
        self.clock = clock
        self._drawn: OrderedDict[str, bytes | None] = OrderedDict()
        self._uploads: OrderedDict[tuple[str, int, str], tuple[str, float]] = OrderedDict()
        self._max_drawn, self._max_uploads = drawn, uploads
        self.draws = 0  # pictures drawn (a test of the cache reads it)

    async def attachment(
        self, player: str, gid: int, view: dict[str, Any], *, filename: str, limit: int
    ) -> HandAttachment | None:
        """The hand picture of ``view`` (a seat's private view, in its reader's language) for
        ``player``'s answer in game ``gid``, or None when the game draws none (or it is too big)."""
        picture = hand_picture(view)
        if picture is None:
            return None
        key = hand_picture_key(picture)
        upload = (player, gid, key)
        earlier = self._uploads.get(upload)
        if earlier is not None and self.clock() - earlier[1] < REUSE_FOR:
            self._uploads.move_to_end(upload)
            return HandAttachment(filename, url=earlier[0])
        png = await self._png(key, picture)
        if png is None or len(png) >= limit:
            return None

        def remember(url: str) -> None:
            self._uploads[upload] = (url, self.clock())
            self._uploads.move_to_end(upload)
            while len(self._uploads) > self._max_uploads:
                self._uploads.popitem(last=False)

        return HandAttachment(
            filename, file=discord.File(io.BytesIO(png), filename=filename), _remember=remember
        )

    async def _png(self, key: str, picture: dict[str, Any]) -> bytes | None:
        if key in self._drawn:
            self._drawn.move_to_end(key)
            return self._drawn[key]
        png = await self.render(render_hand_state_png, picture)
        self.draws += 1
        self._drawn[key] = png
        while len(self._drawn) > self._max_drawn:
            self._drawn.popitem(last=False)
        return png


def with_picture(text: str, controls: discord.ui.View | None, url: str) -> discord.ui.LayoutView:
    """A private answer that shows an uploaded picture again by its URL: the text, the picture
    and the controls' rows, in Discord's layout components (a plain message cannot show an
    attachment it does not carry)."""
    layout = discord.ui.LayoutView(timeout=None)
    layout.add_item(discord.ui.TextDisplay(text))
    layout.add_item(discord.ui.MediaGallery(discord.MediaGalleryItem(url)))
    if controls is not None:
        rows: dict[int, list[discord.ui.Item[Any]]] = {}
        for item in controls.children:
            # the row the view laid the item out in (its own ``row``, or the first with room)
            row = getattr(item, "_rendered_row", None)
            rows.setdefault(row if isinstance(row, int) else (item.row or 0), []).append(item)
        for _row, items in sorted(rows.items()):
            action_row: discord.ui.ActionRow[Any] = discord.ui.ActionRow()
            for item in items:
                controls.remove_item(item)
                action_row.add_item(item)
            layout.add_item(action_row)
    return layout
