"""End-to-end: ``/leaderboard scope:everywhere`` lists, across servers, only the players who
chose it with ``/profile share:``; one row per player and server, named by the server; nobody
else appears; each server's own ``/leaderboard`` is unchanged; a player chooses only for
themselves."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from fakediscord import FakeDiscord
from test_bot_manager import _command
from test_bot_support import make_bot
from test_tournament_support import Clock, ask

from bot.discord_app.client import ConductorBot
from bot.discord_app.store import player_ref, space_ref
from bot.tournament.model import EventConfig, GameResult, SeatResult
from bot.tournament.ratings import rate_event_game
from bot.tournament.store import ENTERED, RatingWrite

CONFIG = EventConfig(family="ttr", boards=("usa",), name="Club Night", rounds=1, table_size=2)


async def _rated_game(
    bot: ConductorBot, space: str, game_id: int, names: dict[str, str], *players: str
) -> None:
    """A finished, rated event game in ``space`` (``players`` in finishing order), stored as the
    runner stores one: the result and its rating changes in one transaction."""
    store = bot.tournaments.store
    event_id = await store.create_event(
        space=space, creator=players[0], game_name="ttr", config=CONFIG, settings={}, seed=game_id
    )
    for player in players:  # what /tournament join stores: the name the leaderboards show
        await store.add_entry(event_id, player, names[player], ENTERED)
    result = GameResult(
        game_id=str(game_id),
        round=1,
        table=1,
        board="usa",
        seats=tuple(SeatResult(p, i, 100 - i) for i, p in enumerate(players, 1)),
    )
    book = rate_event_game(await store.rating_book(space), CONFIG, result)
    await store.add_result(
        event_id,
        result,
        game_id,
        rated=RatingWrite(space, {str(game_id): event_id}, book.history[-len(players) * 2 :]),
    )


def _rows(text: str) -> list[str]:
    return [line for line in text.splitlines() if re.match(r"^ +\d+ ", line)]


async def test_only_players_who_share_appear_in_every_servers_leaderboard(
    fake_discord: FakeDiscord, run_bot: Any, tmp_path: Path
) -> None:
    fake = fake_discord
    carol = fake.add_user("carol")
    other = fake.add_guild("Elsewhere")
    elsewhere = fake.add_channel(other, "general")
    bot: ConductorBot = await run_bot(lambda: make_bot(tmp_path / "r.db", clock=Clock()))
    here, there = space_ref(fake.guild.id), space_ref(other.id)
    assert here is not None and there is not None
    alice, bob, cy = (player_ref(u.id) for u in (fake.alice, fake.bob, carol))
    names = {alice: "alice", bob: "bob", cy: "carol"}
    await _rated_game(bot, here, 1, names, alice, bob)
    await _rated_game(bot, there, 2, names, bob, cy)
    local_before = (await ask(fake, "leaderboard", fake.alice)).text()
    assert len(_rows(local_before)) == 2

    nobody = (await ask(fake, "leaderboard", fake.alice, scope="everywhere")).text()
    assert "No player who chose" in nobody and not _rows(nobody)

    shared = (await ask(fake, "profile", fake.bob, share=True)).text()
    assert shared.startswith("You now appear in every server's leaderboards"), shared
    everywhere = (await ask(fake, "leaderboard", carol, channel=elsewhere, scope="everywhere")).text()
    rows = _rows(everywhere)
    assert len(rows) == 2, everywhere  # bob in each of his two servers, nobody else
    assert all(" bob " in row for row in rows)
    assert any("Elsewhere" in row for row in rows) and any(fake.guild.name[:18] in row for row in rows)
    assert "alice" not in everywhere and "carol" not in everywhere and alice not in everywhere
    assert cy not in everywhere

    # a player chooses only for themselves; the refusal is private and changes nothing
    handle = _command(fake, "profile", fake.alice, fake.general, user=fake.bob, share=False)
    refused = await (await fake.inject(handle)).wait_message(timeout=60)
    assert (
        refused.ephemeral
        and refused.text() == "✗ Only each player chooses whether they appear in other servers' leaderboards."
    )
    assert await bot.tournaments.store.sharing(bob)

    assert (await ask(fake, "leaderboard", fake.alice)).text() == local_before  # this server's: unchanged
    withdrawn = (await ask(fake, "profile", fake.bob, share=False)).text()
    assert withdrawn.startswith("You no longer appear"), withdrawn
    assert not _rows((await ask(fake, "leaderboard", fake.alice, scope="everywhere")).text())
    fake.assert_no_failures()
