"""Addresses of the web pages, for the front ends that link to them (a game's Discord thread,
``/view``, an event's status message, ``conductor play``).

A page is reached by an unguessable public id, given the first time a link is asked for and kept
through the storage port (:class:`bot.store.api.WebTables`). No address is given when the pages
have no public address (not configured) or the game's space turned pages off."""

from __future__ import annotations

import secrets

from bot.store.api import WebTables
from lang import _

PUBLIC_ID_BYTES = 16
"""``secrets.token_urlsafe(16)``: 22 characters, 128 random bits: never guessed, never derived
from the server's game or event numbers."""


async def public_id(tables: WebTables, kind: str, ref: object) -> str:
    """The public id of a game, event or player (``kind``), given now if it has none."""
    return await tables.public_id(kind, str(ref), secrets.token_urlsafe(PUBLIC_ID_BYTES))


class PageLinks:
    """The page address of a game or an event (None: no pages, or none for its space)."""

    def __init__(self, tables: WebTables, public_url: str | None) -> None:
        self.tables = tables
        self.public_url = (public_url or "").rstrip("/") or None

    async def _link(self, kind: str, path: str, ref: int, space: str | None) -> str | None:
        if self.public_url is None or (space is not None and await self.tables.pages_off(space)):
            return None
        return f"{self.public_url}/{path}/{await public_id(self.tables, kind, ref)}/"

    async def game(self, game_id: int, space: str | None) -> str | None:
        return await self._link("game", "g", game_id, space)

    async def event(self, event_id: int, space: str | None) -> str | None:
        return await self._link("event", "e", event_id, space)

    async def set_player_page(self, player: str, public: bool) -> str | None:
        """Opt ``player`` in to a public page (its address, None without public pages) or out
        (the page and its address are gone)."""
        if not public:
            await self.tables.forget_public("player", player)
            return None
        pid = await public_id(self.tables, "player", player)
        return None if self.public_url is None else f"{self.public_url}/p/{pid}/"


def page_line(url: str | None) -> str:
    """The line a message ends with to link its page, in the current language ("" without one)."""
    return "" if url is None else "\n" + _("Web page: {url}", url=url)
