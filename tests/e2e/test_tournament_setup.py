"""End-to-end: an event's settings and language (issue 32, findings 1 and 2).

Promises: a setting a table's game would refuse (a 0.01-hour turn timer) is refused when the
event is created, privately, with the sentence `/ttr new` gives, and no event is made; the games
of a German server's event speak German in their threads, as a `/ttr new` game there does.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from fakediscord import FakeDiscord
from test_bot_support import Table, make_bot
from test_tournament_support import Clock, EventTables, ask, event_id_of

from bot.discord_app.client import ConductorBot
from bot.discord_app.store import space_ref


async def test_the_stuck_event_configuration_is_refused_at_creation_with_a_sentence(
    fake_discord: FakeDiscord, run_bot: Any, tmp_path: Path
) -> None:
    fake = fake_discord
    bot: ConductorBot = await run_bot(lambda: make_bot(tmp_path / "stuck.db", clock=Clock()))
    refused = await ask(fake, "tournament create", fake.alice, name="Blitz", timer_hours=0.01)
    assert refused.text().startswith("✗ A turn timer must be from 1 hour to 14 days"), refused.text()
    assert "0.01 hours is not allowed" in refused.text()
    assert await bot.tournaments.store.events(space_ref(fake.guild.id)) == []
    created = await ask(fake, "tournament create", fake.alice, name="Blitz", timer_hours=1)
    assert "Created event #" in created.text(), created.text()


async def test_a_german_servers_event_plays_its_games_in_german(
    fake_discord: FakeDiscord, run_bot: Any, tmp_path: Path
) -> None:
    fake = fake_discord
    fake.guild.preferred_locale = "de"
    bot: ConductorBot = await run_bot(lambda: make_bot(tmp_path / "de.db", clock=Clock()))
    event_id = event_id_of(
        await ask(fake, "tournament create", fake.alice, name="Herbstpokal", table_size=2, rounds=1)
    )
    for user in (fake.alice, fake.bob):
        await ask(fake, "tournament join", user, event=event_id)
    await ask(fake, "tournament start", fake.alice, event=event_id)
    (row,) = await bot.tournaments.store.tables(event_id, 1)
    assert row.game_id is not None
    assert (await bot.service.game_row(row.game_id)).config["language"] == "de"
    table = Table(fake, bot)
    table.gid, table.thread = row.game_id, fake.threads[-1]
    await table.settle()
    # the players hand their seats to AIs, which play the game to its final scores
    await EventTables(fake, bot, event_id, [fake.alice, fake.bob]).resign_all(table)
    await table.settle()
    assert (await bot.service.game_row(row.game_id)).status == "over"
    public = "\n".join(m.text() for m in fake.messages_in(table.thread, ephemeral=False))
    for german in ("Herbstpokal", "hat begonnen", "Du bist am Zug", "Offen:", "Stapel", "Endwertung"):
        assert german in public, (german, public[:500])
    for english in ("has started", "your turn", "Face up:", "Final scores"):
        assert english not in public, (english, public[:500])
