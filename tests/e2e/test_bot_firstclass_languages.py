"""End-to-end: a German-language First Class game with an Italian and a French player.

The real discord.py client against the fake Discord. The server's preferred language is German,
so ``/ttr new game:first-class`` makes a German game; Alice's Discord speaks Italian, Bob's French.
A whole game is played with the card grid and the private panels only. The engine's events (cards
taken, their effects, cars, conductors, coins, scoring phases, the winner) reach the thread in
German, each player's private replies (the lines of their own move included) in their own
language, and no English sentence of the engine or the catalog reaches anyone.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from babel.messages.catalog import Catalog
from english_scan import english_words
from fakediscord import FakeDiscord, FakeMessage, FakeUser
from test_bot_firstclass import FCTable
from test_bot_support import make_bot

import lang
from lang.extract import committed_template

# Words of the engine's own English (its event texts and card effects): none may reach a reader.
ENGINE_ENGLISH = (
    "0-value car",
    "upgrade of your choice",
    "upgrades of your choice",
    "Game End card",
    "Start Player tile",
    "both conductors",
    " takes ",
    "Round ",
    " moves the ",
    "scores first",
    "conductor moves",
    "laid face up",
    "is removed from the game",
    "The game is over",
)


class LanguageTable(FCTable):
    """The First Class table, keeping every private reply with the person it answered."""

    def __init__(self, fake: FakeDiscord, bot: Any) -> None:
        super().__init__(fake, bot)
        self.private: list[tuple[FakeUser, FakeMessage]] = []

    async def panel(self, user: FakeUser, seq: int) -> FakeMessage:
        last = self.panels.get(user.id)
        if last is not None and any(
            c.startswith((f"f:{self.gid}:{seq}:", f"fs:{self.gid}:{seq}:")) for c in last.custom_ids()
        ):
            return last
        board = self.latest_board()
        assert board is not None
        msg = await self.click(user, f"c:{self.gid}:hand", board)
        assert msg.ephemeral, msg.text()
        self.private.append((user, msg))
        return msg

    async def play_one(self, user: FakeUser) -> FakeMessage:
        reply = await super().play_one(user)
        self.private.append((user, reply))
        return reply


def _english_fragments(catalog: Catalog) -> list[str]:
    """The fixed words of every English source sentence (between its placeholders), long enough to
    be unmistakable: a sentence with facts filled in still shows them."""
    out: set[str] = set()
    for message in catalog:
        if message.context:
            continue
        for text in [message.id] if isinstance(message.id, str) else list(message.id or ()):
            for part in re.split(r"\{[^}]*\}", text or ""):
                part = part.strip(" .,:;()")
                if len(part) >= 18:
                    out.add(part)
    return sorted(out)


def _leaks(text: str, code: str, fragments: list[str]) -> list[str]:
    """English fragments and engine words in ``text`` that ``code``'s translation does not share."""
    tr = lang.translator(code)
    own = {f for f in fragments if f in tr.gettext(f)}  # a fragment the language writes the same way
    found = [f for f in fragments if f in text and f not in own and not _inside_translation(f, code)]
    return found + [w for w in ENGINE_ENGLISH if w in text]


def _inside_translation(fragment: str, code: str) -> bool:
    """Whether some translated sentence of ``code`` itself contains ``fragment`` (a card file's
    column name, a command's text form): then seeing it is no leak."""
    return fragment in _translated_text(code)


_TRANSLATED: dict[str, str] = {}


def _translated_text(code: str) -> str:
    if code not in _TRANSLATED:
        from babel.messages.pofile import read_po

        with lang.catalog_path(code, "conductor").open("rb") as f:
            catalog = read_po(f)
        _TRANSLATED[code] = "\n".join(
            s
            for m in catalog
            for s in ([m.string] if isinstance(m.string, str) else list(m.string or ()))
            if s
        )
    return _TRANSLATED[code]


async def test_first_class_lines_follow_the_game_replies_follow_the_reader(
    fake_discord: FakeDiscord, run_bot: Any, tmp_path: Path
) -> None:
    fake = fake_discord
    fake.guild.preferred_locale = "de"
    alice, bob = fake.alice, fake.bob
    alice.locale, bob.locale = "it", "fr"
    bot = await run_bot(lambda: make_bot(tmp_path / "fc-lang.db"))
    table = LanguageTable(fake, bot)

    created = await fake.slash("ttr new", user=alice, game="first-class", seat_order="join")
    reply = await created.wait_message()
    assert reply.ephemeral and "Creata la partita n." in reply.text(), reply.text()
    table.thread = fake.threads[-1]
    table.gid = int(re.search(r"#(\d+)", table.thread.name)[1])  # type: ignore[index]
    assert (await bot.service.game_row(table.gid)).config["language"] == "de"
    assert "Vous avez rejoint" in (await table.slash("ttr join", bob)).text()
    await table.slash("ttr start", alice)

    users = {await table.seat_of(alice): alice, await table.seat_of(bob): bob}
    for _ in range(2000):
        to_act = await table.to_act()
        if not to_act:
            break
        answer = await table.play_one(users[to_act[0]])
        assert answer.text().startswith("✓"), answer.text()
    await table.settle()
    assert (await bot.service.game_row(table.gid)).status == "over"

    fragments = _english_fragments(committed_template("conductor"))
    # Private: each reply in its reader's language (the lines of one's own move included).
    seen = {alice.id: "", bob.id: ""}
    languages = {alice.id: "it", bob.id: "fr"}
    for user, msg in table.private:
        text = msg.text()
        seen[user.id] += text + "\n"
        leaked = _leaks(text, languages[user.id], fragments)
        assert not leaked, (languages[user.id], leaked[:3], text[:400])
        words = english_words(text, languages[user.id])  # single words too: no bare "end"
        assert not words, (languages[user.id], words, text[:400])
    for words in ("prende", "Fine partita", "carrozza"):
        assert words in seen[alice.id], words
    for words in ("prend ", "Fin de partie", "wagon"):
        assert words in seen[bob.id], words
    for german in ("nimmt", "Spielende-Karte", "Wagen"):
        assert german not in seen[alice.id] and german not in seen[bob.id], german

    # Public: every engine line in the game's language, German, from the draft to the winner.
    public = "\n".join(m.text() for m in fake.messages_in(table.thread, ephemeral=False))
    for german in (
        "behält eine Spielende-Karte verdeckt",
        "Runde 1 startet",
        "nimmt ",
        "Stapel 1 ist aufgebraucht",
        "gewinnt mit",
        "Endwertung",
    ):
        assert german in public, german
    for foreign in ("prende ", "Fine partita", " prend ", "Fin de partie", "Final scores"):
        assert foreign not in public, foreign
    leaked = _leaks(public, "de", fragments)
    assert not leaked, leaked[:5]
    # a turn is posted once, when it ends: its end is no line of its own (issue 30); the player's
    # own reply says it, worded (the English scan below finds no bare "end")
    assert "beendet den Zug" not in public
    words = english_words(public, "de")
    assert not words, words
