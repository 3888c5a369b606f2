"""End-to-end: a move today's rules can no longer replay, read by an Italian player in ``/view log``.

The real discord.py client against the fake Discord. The realistic case is a game played under
older rules: an active or finished game is replayed from its log whenever it loads
(:mod:`bot.integrity`), so a move the rules no longer accept marks it broken (reported to the
admins, never played on); an aborted game is not replayed, and its log can still be read. Here an
aborted Italian game's last move is rewritten in SQLite into an action kind the rules do not know
(as if stored by rules since changed), and the bot restarts (as it does when its rules change):
``/view log`` shows the moves before it in Italian and that move as an Italian sentence saying it
can no longer be shown in Italian, followed by the English sentence kept with it. Another game of
the same server plays on.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import discord
from english_scan import english_sentences
from fakediscord import FakeDiscord, FakeUser
from test_bot_languages_rest import assert_no_english
from test_bot_support import Table, make_bot

import lang
from bot.discord_app.client import ConductorBot
from lang.extract import template

NO_LONGER_SHOWN = ("Questa mossa non può più essere mostrata nella tua lingua. "
                   "La registrazione originale, in inglese: ")


async def _started(fake: FakeDiscord, bot: ConductorBot, creator: FakeUser, other: FakeUser) -> Table:
    """A two-player USA game created, joined and started through slash commands."""
    table = Table(fake, bot)
    created = await (await fake.slash("ttr new", user=creator, board="usa", seat_order="join")).wait_message()
    assert "Creata la partita n." in created.text(), created.text()
    table.thread = fake.threads[-1]
    table.gid = int(re.search(r"#(\d+)", table.thread.name)[1])  # type: ignore[index]
    await table.slash("ttr join", other)
    await table.slash("ttr start", creator)
    return table


async def test_an_old_move_reads_as_an_italian_sentence_with_its_english_record(
    fake_discord: FakeDiscord, run_bot: Any, bot_runner: Any, tmp_path: Path
) -> None:
    """Issue 14 (every sentence in the reader's language): a move the rules can no longer replay
    is the one thing ``/view log`` cannot word for the reader, so it says so in Italian and shows
    the English original; the other moves read in Italian, and nothing else breaks."""
    fake = fake_discord
    fake.guild.preferred_locale = "it"
    alice, bob = fake.alice, fake.bob
    alice.locale = bob.locale = "it"
    db = tmp_path / "old.db"
    bot = await run_bot(lambda: make_bot(db))
    old = await _started(fake, bot, alice, bob)
    users = {await old.seat_of(alice): alice, await old.seat_of(bob): bob}
    while await old.seq() < 4:
        await old.play_buttons(users[(await old.to_act())[0]])
    await old.settle()
    good = await _started(fake, bot, alice, bob)
    aborted = await old.slash("ttr abort", alice)
    assert (await bot.service.game_row(old.gid)).status == "aborted", aborted.text()

    last = await old.seq()
    await bot.storage.db.execute("UPDATE actions SET action_json=? WHERE game_id=? AND seq=?",
                                 ('{"kind": "build_depot", "city": "Denver"}', old.gid, last))
    await bot.storage.db.commit()
    record = {a.seq: a.public for a in await bot.storage.actions(old.gid)}
    bot = await bot_runner.restart(lambda: make_bot(db))
    old.bot = good.bot = bot

    log = (await old.slash("view log", alice, game=old.gid, count=40)).text()
    lines = log.splitlines()
    assert len(lines) == last, log
    expected_last = f"{last}. {NO_LONGER_SHOWN}{record[last]}"
    assert lines[-1] == discord.utils.escape_markdown(expected_last), log
    kept_it = lang.translator("it").ngettext("kept {n} ticket", "kept {n} tickets", 2).split(" 2 ")[0]
    assert kept_it in lines[0] and kept_it in lines[1], log
    for n, line in enumerate(lines[:-1], start=1):
        assert line.startswith(f"{n}. ") and "inglese" not in line, log
    assert_no_english("it", "\n".join(lines[:-1]), english_sentences(template("conductor")), (alice.name, bob.name))

    first = (await good.to_act())[0]
    await good.play_buttons(alice if await good.seat_of(alice) == first else bob)
    assert (await bot.service.game_row(good.gid)).seq == 1
