"""End-to-end: what was still English (tournaments, the move log, AI seats) reads in each reader's language.

The real discord.py client against the fake Discord. An Italian server runs an event that a
French player joins: the runner's refusals are worded for whoever asked, the standings' column
heads for the reader (and, in the public status message, in the server's language). A German
game with an AI seat is played by an Italian and a French player: the AI seat is named in German
on the public board, and ``/view log`` (kept as events, worded when read) reads in Italian to
one and in French to the other. Every message is scanned for English: the catalog's sentences
and English words that none of the three languages uses.
"""

from __future__ import annotations

import asyncio
import re
from pathlib import Path
from typing import Any

from english_scan import english_sentences
from fakediscord import FakeDiscord, FakeUser
from test_bot_support import Table, make_bot
from test_tournament_support import Clock, ask

import lang
from lang.extract import committed_template

# English words that Italian, French and German never write: one in a reply is an English sentence.
ENGLISH_WORDS = re.compile(
    r"\b(the|and|you|your|is|are|has|have|with|not|this|that|was|cannot|into|from|for|"
    r"players?|table|event|game|switzerland|germany|moves?|tickets?|drew|kept|claimed|took|waits|"
    r"heuristic|Rating|Player|Score|Games)\b"
)
OWN_WORDS = {"fr": {"table", "Score"}}
"""Words of that list a language writes too (French "table", "score")."""


def assert_no_english(code: str, text: str, sentences: list[str], allowed: tuple[str, ...] = ()) -> None:
    """``text`` (read in ``code``) holds no English sentence of the catalog and no English word
    (names in ``allowed`` are taken out first: a person's or event's name is theirs)."""
    text = re.sub(r"\\([\\*_~`|>])", r"\1", text)  # as the reader sees it: markdown escapes shown bare
    for name in allowed:
        text = text.replace(name, "")
    leaked = [e for e in sentences if e in text and lang.translator(code).gettext(e) != e]
    assert not leaked, (code, leaked[:3], text[:400])
    words = [w for w in ENGLISH_WORDS.findall(text) if w not in OWN_WORDS.get(code, set())]
    assert not words, (code, words[:5], text[:600])


async def test_tournament_refusals_and_standings_follow_the_reader(
    fake_discord: FakeDiscord, run_bot: Any, tmp_path: Path
) -> None:
    """An Italian server's event: each refusal of the runner (a size the board cannot seat, an
    unknown tie-break, a second join, an organiser's command by a player) reads in its asker's
    language with its facts; the standings' column heads and legend follow the reader; the public
    status message (table states, waiting times) is in the server's language."""
    fake = fake_discord
    fake.guild.preferred_locale = "it"
    alice, bob = fake.alice, fake.bob
    alice.locale, bob.locale = "it", "fr"
    bot = await run_bot(lambda: make_bot(tmp_path / "coppa.db", clock=Clock()))
    sentences = english_sentences(committed_template("conductor"))
    private: list[tuple[str, str]] = []

    async def asked(command: str, user: FakeUser, **options: Any) -> str:
        text = (await ask(fake, command, user, **options)).text()
        private.append((str(user.locale), text))
        return text

    refused = await asked("tournament create", alice, name="Coppa Alpina", boards="switzerland")
    assert refused.startswith("✗ Le mappe di questo torneo accolgono da 2 a 3 giocatori, non tavoli da 4."), (
        refused
    )
    refused = await asked(
        "tournament create",
        bob,
        name="Coppa Alpina",
        boards="switzerland",
        table_size=2,
        tiebreaks="wins,style",
    )
    assert refused.startswith("✗ Valeur inconnue pour critère de départage : 'style' ; choisissez parmi"), (
        refused
    )
    created = await asked(
        "tournament create", alice, name="Coppa Alpina", boards="switzerland", table_size=2, rounds=1
    )
    event_id = int(re.findall(r"n\. ?(\d+)", created)[0])
    await asked("tournament join", alice, event=event_id)
    await asked("tournament join", bob, event=event_id)
    again = await asked("tournament join", bob, event=event_id)
    assert again == f"✗ Vous êtes déjà inscrit au tournoi n° {event_id}.", again
    forbidden = await asked("tournament start", bob, event=event_id)
    assert forbidden.startswith("✗ Seuls le créateur du tournoi"), forbidden
    await asked("tournament start", alice, event=event_id)

    bot.tournaments.clock.now += 2 * 3600  # two hours of waiting on the table
    standings_fr = await asked("tournament standings", bob, event=event_id)
    assert "Joueur" in standings_fr and "Bil billets réussis" in standings_fr, standings_fr
    assert "attend" in standings_fr or "2 h" in standings_fr, standings_fr
    standings_it = await asked("tournament standings", alice, event=event_id)
    assert "Giocatore" in standings_it and "Dest destinazioni completate" in standings_it, standings_it
    missing = await asked("tournament pairings", bob, event=event_id, round=5)
    assert missing.startswith("✗") and "5" in missing, missing
    leaderboard = await asked("leaderboard", bob)
    assert leaderboard, leaderboard
    shared = await asked("profile", bob, share=True)
    assert shared.startswith("Vous apparaissez maintenant"), shared
    everywhere = await asked("leaderboard", alice, scope="everywhere")
    assert everywhere.startswith("Nessun giocatore"), everywhere

    status = next(
        m for m in fake.messages_in(ephemeral=False) if "Coppa Alpina" in m.text() and "```" in m.text()
    )
    public = fake.message(status.id).text()
    assert "Giocatore" in public and "Joueur" not in public, public
    names = ("Coppa Alpina", alice.name, bob.name)
    assert_no_english("it", public, sentences, names)
    for code, text in private:
        assert_no_english(code, text, sentences, names)


async def test_the_move_log_and_ai_seats_are_worded_for_each_reader(
    fake_discord: FakeDiscord, run_bot: Any, tmp_path: Path
) -> None:
    """A German game with an AI seat: the AI seat is "KI 1 (heuristisch)" on the public board and
    in the public lines, and ``/view log`` (the moves' events worded when read, not the English
    kept with them) reads in Italian to Alice and in French to Bob, each naming the AI seat in
    their language."""
    fake = fake_discord
    fake.guild.preferred_locale = "de"
    alice, bob = fake.alice, fake.bob
    alice.locale, bob.locale = "it", "fr"
    bot = await run_bot(lambda: make_bot(tmp_path / "log.db"))
    table = Table(fake, bot)
    sentences = english_sentences(committed_template("conductor"))

    created = await (
        await fake.slash("ttr new", user=alice, board="switzerland", seat_order="join")
    ).wait_message()
    assert "Creata la partita n." in created.text(), created.text()
    table.follow_newest_thread()
    await table.slash("ttr join", bob)
    await table.slash("ttr addai", alice)
    await table.slash("ttr start", alice)
    users = {await table.seat_of(alice): alice, await table.seat_of(bob): bob}
    for _ in range(12):
        to_act = [s for s in await table.to_act() if s in users]
        if not to_act:
            break
        await asyncio.gather(*(table.play_buttons(users[s]) for s in to_act))
    await table.settle()
    assert (await bot.service.game_row(table.gid)).seq >= 6

    public = "\n".join(m.text() for m in fake.messages_in(table.thread, ephemeral=False))
    assert "KI 1 (heuristisch)" in public and "AI 1 (heuristic)" not in public, public[-1500:]
    assert_no_english("de", public, sentences, (alice.name, bob.name))

    log_it = (await table.slash("view log", alice, count=40)).text()
    log_fr = (await table.slash("view log", bob, count=40)).text()
    it, fr = lang.translator("it"), lang.translator("fr")
    kept_it = it.ngettext("kept {n} ticket", "kept {n} tickets", 2).split(" 2 ")[0]
    kept_fr = fr.ngettext("kept {n} ticket", "kept {n} tickets", 2).split(" 2 ")[0]
    assert kept_it in log_it and kept_fr not in log_it, log_it
    assert kept_fr in log_fr and kept_it not in log_fr, log_fr
    assert "IA 1 (euristica)" in log_it and "IA 1 (heuristique)" in log_fr, (log_it, log_fr)
    names = (alice.name, bob.name)
    assert_no_english("it", log_it, sentences, names)
    assert_no_english("fr", log_fr, sentences, names)
    stored = [a.public for a in await bot.service.storage.actions(table.gid)]
    assert any("kept" in (s or "") for s in stored)  # the record keeps its English; reading words it
