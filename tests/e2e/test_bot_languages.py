"""End-to-end: one German-language game, an Italian and a French player, each reading their own.

The real discord.py client against the fake Discord: the server's preferred language is German,
so ``/ttr new`` (no language option) makes a German game; Alice's Discord speaks Italian, Bob's
French. A whole Switzerland game (with one AI seat) is played with buttons and menus only. Every
private reply is in its reader's language, every public message in the game's, and no English
sentence of the catalog reaches anyone.
"""

from __future__ import annotations

import asyncio
import re
from pathlib import Path
from typing import Any

from english_scan import english_sentences, english_words
from fakediscord import FakeDiscord, FakeMessage, FakeUser
from test_bot_support import Table, make_bot

import lang
from lang.extract import committed_template
from rules.ttr.board import load_board

CITIES = set(load_board("switzerland").city_names)  # as printed on the board, in every language


class RecordingTable(Table):
    """A table that keeps every private reply with the person it answered."""

    def __init__(self, fake: FakeDiscord, bot: Any) -> None:
        super().__init__(fake, bot)
        self.private: list[tuple[FakeUser, FakeMessage]] = []

    async def _answer(self, user: FakeUser, handle: Any) -> FakeMessage:
        msg = await super()._answer(user, handle)
        self.private.append((user, msg))
        return msg

    async def command(self, user: FakeUser, command: str, **options: Any) -> FakeMessage:
        msg = await self.slash(command, user, **options)
        assert msg.ephemeral, msg.text()
        self.private.append((user, msg))
        return msg


def _translation(code: str, english: str) -> str:
    return lang.translator(code).gettext(english)


async def test_private_replies_follow_the_reader_public_messages_the_game(
    fake_discord: FakeDiscord, run_bot: Any, tmp_path: Path
) -> None:
    fake = fake_discord
    fake.guild.preferred_locale = "de"
    alice, bob = fake.alice, fake.bob
    alice.locale, bob.locale = "it", "fr"
    bot = await run_bot(lambda: make_bot(tmp_path / "lang.db"))
    table = RecordingTable(fake, bot)

    created = await fake.slash("ttr new", user=alice, board="switzerland", seat_order="join")
    reply = await created.wait_message()
    assert reply.ephemeral and "Creata la partita n." in reply.text(), reply.text()
    table.private.append((alice, reply))
    table.thread = fake.threads[-1]
    table.gid = int(re.search(r"#(\d+)", table.thread.name)[1])  # type: ignore[index]
    row = await bot.service.game_row(table.gid)
    assert row.config["language"] == "de"  # the server's preferred locale, pinned in the config

    assert "Vous avez rejoint la partie n°" in (await table.command(bob, "ttr join")).text()
    assert "Aggiunto un posto IA" in (await table.command(alice, "ttr addai")).text()
    assert "è cominciata" in (await table.command(alice, "ttr start")).text()

    users = {await table.seat_of(alice): alice, await table.seat_of(bob): bob}
    for _ in range(3000):
        to_act = [s for s in await table.to_act() if s in users]
        if not to_act:
            break
        replies = await asyncio.gather(*(table.play_buttons(users[s]) for s in to_act))
        assert all(r.text().startswith("✓") for r in replies), [r.text() for r in replies]
    await table.settle()
    assert (await bot.service.game_row(table.gid)).status == "over"

    # A refusal is worded for its reader too: a button of an old board, pressed after the end (by
    # a phone that had not shown yet that the board lost its buttons).
    old = next(
        (m, c)
        for m in fake.messages_in(table.thread, ephemeral=False)
        for c in m.posted_custom_ids()
        if c.endswith(":deck")
    )
    refused = await table.reply(await fake.forge_component(old[0], old[1], user=bob))
    table.private.append((bob, refused))
    assert refused.text().startswith("✗") and "La partie n°" in refused.text(), refused.text()

    english = english_sentences(committed_template("conductor"))
    languages = {alice.id: "it", bob.id: "fr"}
    # Private: each reply in its reader's language, none with an English sentence.
    seen: dict[int, str] = {alice.id: "", bob.id: ""}
    for user, msg in table.private:
        text = msg.text()
        seen[user.id] += text + "\n"
        code = languages[user.id]
        leaked = [e for e in english if e in text and _translation(code, e) != e]
        assert not leaked, (code, leaked[:3], text[:300])
        words = english_words(text, code, allowed=CITIES)  # single words too ("con 2 locomotiva" glued)
        assert not words, (code, words, text[:300])
    assert (
        "Ora:" in seen[alice.id] and "Ensuite" not in seen[alice.id] and "Als Nächstes" not in seen[alice.id]
    )
    assert "Ensuite" in seen[bob.id] and "Ora:" not in seen[bob.id] and "Als Nächstes" not in seen[bob.id]
    assert "Le tue carte" in seen[alice.id] and "Vos cartes" in seen[bob.id]

    # Public: the game's language (German), in the thread, from the opening post to the final scores.
    public = "\n".join(m.text() for m in fake.messages_in(table.thread, ephemeral=False))
    for german in ("Partie Nr.", "Am Zug", "Offen:", "Stapel", "Endwertung", "Erfüllte Zielkarten"):
        assert german in public, german
    for foreign in ("Tocca a", "Punteggi finali", "Scores finaux", "Au tour de", "Final scores", "To play:"):
        assert foreign not in public, foreign
    leaked = [e for e in english if e in public and _translation("de", e) != e]
    assert not leaked, leaked[:5]
    words = english_words(public, "de", allowed=CITIES)
    assert not words, words
    table.assert_no_leaks()


def _command(fake: FakeDiscord, command: str, who: FakeUser, *, admin: bool = False, **options: Any) -> Any:
    """A slash command in the general channel from ``who`` (with Manage Server if ``admin``)."""
    import discord

    handle = fake.build_interaction(
        2, fake.build_command_data(command, options, channel=fake.general), who, fake.general, None
    )
    if admin:
        member = handle.payload["member"]
        perms = discord.Permissions(int(member["permissions"]))
        perms.manage_guild = True
        member["permissions"] = str(perms.value)
    return handle


async def test_a_server_admin_sets_the_default_language_of_new_games(
    fake_discord: FakeDiscord, run_bot: Any, tmp_path: Path
) -> None:
    """``/ttr language`` (server admins only) beats the server's preferred locale for new games;
    ``/ttr new language:`` beats both; refusals and answers are in the asker's language."""
    fake = fake_discord
    fake.guild.preferred_locale = "de"
    fake.alice.locale = "it"
    bot = await run_bot(lambda: make_bot(tmp_path / "lang2.db"))

    refused = await (
        await fake.inject(_command(fake, "ttr language", fake.alice, language="fr"))
    ).wait_message()
    assert refused.ephemeral and refused.text().startswith("✗ Solo un amministratore del server"), (
        refused.text()
    )
    done = await (
        await fake.inject(_command(fake, "ttr language", fake.alice, admin=True, language="fr"))
    ).wait_message()
    assert "Le nuove partite di questo server parlano français" in done.text(), done.text()

    async def new_game(**options: Any) -> str:
        handle = await fake.slash("ttr new", user=fake.alice, board="usa", **options)
        reply = await handle.wait_message()
        assert "Creata la partita n." in reply.text(), reply.text()
        gid = int(re.search(r"#(\d+)", fake.threads[-1].name)[1])  # type: ignore[index]
        return str((await bot.service.game_row(gid)).config["language"])

    assert await new_game() == "fr"
    assert await new_game(language="it") == "it"
    opening = fake.messages_in(fake.threads[-1], ephemeral=False)[0].text()
    assert opening.startswith("Partita n."), opening  # the thread's first post: the game's language
    rules = await (
        await fake.inject(_command(fake, "ttr rules", fake.alice, board="switzerland"))
    ).wait_message()
    assert "Svizzera" in rules.text() and "Vagoni per giocatore: 40" in rules.text(), rules.text()
