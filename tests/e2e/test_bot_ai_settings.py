"""End-to-end: a table chooses its AI settings at ``/ttr new`` (how long a search AI thinks, which
AI takes a seat over), ``/ttr rules`` lists them with the values in force, and a value out of
range is refused privately in the creator's language with no game made."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from fakediscord import FakeDiscord
from test_bot_support import Table, make_bot

from bot.discord_app.store import player_ref


async def test_ai_settings_chosen_at_new_reach_the_game_and_the_rules_list(
    fake_discord: FakeDiscord, run_bot: Any, tmp_path: Path
) -> None:
    """Promise (issue 15): the thinking budget per move is the game's setting. Typed at /ttr new,
    both AI settings are kept in the game's config (where the search AI and the takeover read
    them) and /ttr rules shows them in force, after the game's rules, in the reader's language."""
    fake = fake_discord
    bot = await run_bot(lambda: make_bot(tmp_path / "a.db"))
    table = Table(fake, bot)
    await table.create(fake.alice, board="europe", settings="ai_think_ms=500, takeover_ai=search")
    config = (await bot.service.game_row(table.gid)).config
    assert config["ai_think_ms"] == 500 and config["takeover_ai"] == "search"

    handle = await fake.inject(
        fake._interaction_base(
            2, fake.build_command_data("ttr rules", {}, channel=table.thread), fake.alice, table.thread, None
        )
    )
    settings = await handle.wait_message(index=1)
    assert settings.ephemeral
    assert "ai_think_ms = 500" in settings.text() and "from 100 to 10000" in settings.text()
    assert "takeover_ai = search" in settings.text() and "AI that takes seats over" in settings.text()

    fake.bob.locale = "it"
    handle = await fake.inject(
        fake._interaction_base(
            2, fake.build_command_data("ttr rules", {}, channel=table.thread), fake.bob, table.thread, None
        )
    )
    italian = await handle.wait_message(index=1)
    assert "Tempo di riflessione dell'IA" in italian.text() and "da 100 a 10000" in italian.text()
    assert "AI thinking time" not in italian.text()


async def test_an_ai_setting_out_of_range_is_refused_privately_and_makes_no_game(
    fake_discord: FakeDiscord, run_bot: Any, tmp_path: Path
) -> None:
    """Standard: bad input gets a clear private sentence in its reader's language and changes
    nothing. A thinking time below the floor, or an AI kind the game has not, opens no game."""
    fake = fake_discord
    bot = await run_bot(lambda: make_bot(tmp_path / "b.db"))
    fake.alice.locale = "fr"
    threads = len(fake.threads)
    refused = await (
        await fake.slash("ttr new", user=fake.alice, board="usa", settings="ai_think_ms=5")
    ).wait_message()
    assert refused.ephemeral
    assert refused.text() == "✗ Le réglage ai_think_ms prend un nombre entier de 100 à 10000."
    refused = await (
        await fake.slash("ttr new", user=fake.alice, board="usa", settings="takeover_ai=grandmaster")
    ).wait_message()
    assert refused.ephemeral and refused.text().startswith("✗")
    assert len(fake.threads) == threads
    assert await bot.storage.games_of_player(player_ref(fake.alice.id)) == []
    await (
        await fake.slash("ttr new", user=fake.alice, board="usa", settings="ai_think_ms=100")
    ).wait_message()
    assert len(await bot.storage.games_of_player(player_ref(fake.alice.id))) == 1  # the check can see a game
