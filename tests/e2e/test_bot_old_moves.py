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

And a game whose row cannot be read at all (its config is not JSON): each player reads the refusal
in their own language (before, the bot failed on it and answered "Something went wrong").
"""

from __future__ import annotations

import argparse
import asyncio
import logging
from pathlib import Path
from typing import Any

import discord
import pytest
from english_scan import english_sentences
from fakediscord import FakeDiscord, FakeUser
from test_bot_languages_rest import assert_no_english
from test_bot_support import Table, make_bot

import lang
from bot.commands import run
from bot.discord_app.client import ConductorBot
from lang.extract import committed_template

NO_LONGER_SHOWN = (
    "Questa mossa non può più essere mostrata nella tua lingua. La registrazione originale, in inglese: "
)


async def _started(fake: FakeDiscord, bot: ConductorBot, creator: FakeUser, other: FakeUser) -> Table:
    """A two-player USA game created, joined and started through slash commands."""
    table = Table(fake, bot)
    created = await (await fake.slash("ttr new", user=creator, board="usa", seat_order="join")).wait_message()
    assert "Creata la partita n." in created.text(), created.text()
    table.follow_newest_thread()
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
    await bot.storage.db.execute(
        "UPDATE actions SET action_json=? WHERE game_id=? AND seq=?",
        ('{"kind": "build_depot", "city": "Denver"}', old.gid, last),
    )
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
    assert_no_english(
        "it",
        "\n".join(lines[:-1]),
        english_sentences(committed_template("conductor")),
        (alice.name, bob.name),
    )

    first = (await good.to_act())[0]
    await good.play_buttons(alice if await good.seat_of(alice) == first else bob)
    assert (await bot.service.game_row(good.gid)).seq == 1


async def test_a_game_whose_row_cannot_be_read_is_refused_in_each_readers_language(
    fake_discord: FakeDiscord, run_bot: Any, tmp_path: Path
) -> None:
    """The storage's refusal reaches a player through the service as a sentence of the catalog:
    Italian to Alice, French to Bob, and the game is marked broken for the admins."""
    fake = fake_discord
    fake.guild.preferred_locale = "it"
    alice, bob = fake.alice, fake.bob
    alice.locale, bob.locale = "it", "fr"
    bot = await run_bot(lambda: make_bot(tmp_path / "row.db"))
    table = Table(fake, bot)
    await (await fake.slash("ttr new", user=alice, board="usa")).wait_message()
    table.follow_newest_thread()
    await bot.storage.db.execute("UPDATE games SET config='{not json' WHERE id=?", (table.gid,))
    await bot.storage.db.commit()
    bot.service.evict(table.gid)

    italian = (await table.slash("view log", alice, game=table.gid)).text()
    french = (await table.slash("ttr join", bob, game=table.gid)).text()
    assert italian == "✗ Questa partita non si può caricare; gli amministratori sono stati avvisati.", italian
    assert french == "✗ Cette partie ne peut pas être chargée ; les admins ont été prévenus.", french
    async with bot.storage.db.execute("SELECT status FROM games WHERE id=?", (table.gid,)) as cur:
        assert tuple(await cur.fetchone() or ()) == ("broken",)


async def test_conductor_run_names_a_database_it_cannot_open_in_the_operators_language(
    fake_discord: FakeDiscord,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """``conductor run`` against the fake Discord with a database path inside a file: the bot logs in,
    cannot open its database, and the operator reads the path and the fix in their language (German
    here; the command line chooses it from --lang or the locale), not a Python exception's name."""
    a_file = tmp_path / "plain.txt"
    a_file.write_text("x")
    monkeypatch.setenv("DISCORD_TOKEN", "fake-bot-token")
    discord_log = logging.getLogger("discord")
    monkeypatch.setattr(discord_log, "level", discord_log.level)  # run sets it; put it back after
    args = argparse.Namespace(
        env_file=str(tmp_path / "none.env"),
        db=str(a_file / "c.db"),
        workers=0,
        sync=False,
        web=False,
        shards=None,
        shard_count=None,
    )
    with lang.using("de"):
        code = await asyncio.to_thread(run.run, args)  # run has its own event loop, as from a shell
    err = capsys.readouterr().err
    assert code == 1, err
    assert err.strip() == (
        f"conductor run: Die Datenbank {a_file / 'c.db'} kann nicht geöffnet werden: {a_file} ist "
        "eine Datei, kein Ordner; verschiebe sie oder setze CONDUCTOR_DB (oder übergib --db) auf "
        "eine Datei in einem Ordner, in den dieser Benutzer schreiben darf."
    ), err
