"""A group's own card files attached to ``/ttr new`` (First Class's card-file settings): checked,
saved where the game reads them and named as they were attached."""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import os
import re
from pathlib import Path

import discord

from bot.commands.rules import file_setting_for
from bot.games.api import find_front_end as front_end
from bot.service import ServiceError
from lang import M
from rules.errors import IllegalAction
from rules.registry import GameSpec

CARDS_DESC = "First Class: a card file of your group's own (CSV in the template format)"
MAX_CARD_FILE = 256 * 1024  # bytes; a whole printed card list in the template format is a few dozen kB


def card_file_words(spec: GameSpec, key: str) -> str:
    """A card-file setting's name in the reader's language (the game's words; its label else)."""
    return front_end(spec.name).words.card_file_words(key) or spec.setting(key).label


class AttachedCards:
    """A group's own card files attached to ``/ttr new`` (First Class), saved where the game reads
    them: ``<database folder>/card-files/<content hash>/<file name>``, so the lobby can deal from
    them at its start, also after a restart (a started game keeps the dealt cards in its snapshot).
    Each file is told apart by its header, as ``conductor play --cards`` does; every refusal is the
    loader's sentence with the attachment's own name in it, and nothing is kept after a refusal.
    A file Discord will not give, too large, not text or given twice is refused with a
    :class:`ServiceError` saying so in the reader's language."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.names: dict[str, str] = {}  # saved path -> the attachment's name
        self.created: list[Path] = []

    async def config(self, spec: GameSpec, attachments: list[discord.Attachment]) -> dict[str, str]:
        """The ``file`` settings the attachments fill (``{"deck": path, ...}``); ServiceError for a
        file too large, not text or given twice, IllegalAction (the loader's) for one that is not one
        of the game's card templates."""
        config: dict[str, str] = {}
        for attachment in attachments:
            name = attachment.filename
            self._check_size(name, attachment.size)
            try:
                data = await attachment.read()
            except discord.HTTPException:
                raise ServiceError(
                    "bad_setting",
                    M("{name} could not be downloaded from Discord; attach it again.", name=name),
                ) from None
            self._check_size(name, len(data))  # the size Discord announced is not trusted alone
            try:
                text = data.decode("utf-8-sig")
            except UnicodeDecodeError:
                raise ServiceError(
                    "bad_setting",
                    M(
                        "{name} is not a text file in UTF-8; save it as CSV (UTF-8) and attach it again.",
                        name=name,
                    ),
                ) from None
            path = await asyncio.to_thread(self._save, name, text)
            try:
                key = file_setting_for(spec, path)
            except IllegalAction as exc:  # kept whole (its code and facts), the files named as attached
                exc.message = self.words(exc.message)
                raise
            if key in config:
                raise ServiceError(
                    "bad_setting",
                    M(
                        "Two files for {setting}: {first} and {second}.",
                        setting=card_file_words(spec, key),
                        first=self.names[config[key]],
                        second=name,
                    ),
                )
            config[key] = path
        return config

    @staticmethod
    def _check_size(name: str, size: int) -> None:
        if size > MAX_CARD_FILE:
            raise ServiceError(
                "bad_setting",
                M(
                    "{name} is {size} bytes; a card file may be at most {limit} kB.",
                    name=name,
                    size=float(size),  # grouped as the reader writes it: 262,159 or 262.159
                    limit=MAX_CARD_FILE // 1024,
                ),
            )

    def _save(self, name: str, text: str) -> str:
        data = text.encode("utf-8")
        safe = re.sub(r"[^A-Za-z0-9._-]", "_", name)[-80:].lstrip(".") or "cards.csv"
        target = self.folder / hashlib.sha256(data).hexdigest()[:16] / safe
        if not target.exists():
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(data)
            self.created.append(target)
        # Relative to where the bot runs when inside it: the deck label quotes the path to players.
        relative = os.path.relpath(target)
        path = str(target) if relative.startswith("..") else relative
        self.names[path] = name
        return path

    def words(self, message: str) -> str:
        """``message`` with each saved file's path replaced by the name it was attached with."""
        for path, name in sorted(self.names.items(), key=lambda item: -len(item[0])):
            message = message.replace(path, name)
        return message

    def discard(self) -> None:
        """Remove the files this upload saved (the game they were for was not created)."""
        for path in self.created:
            with contextlib.suppress(OSError):
                path.unlink()
                path.parent.rmdir()
        self.created.clear()
