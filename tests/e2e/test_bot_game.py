"""End-to-end: the real ConductorBot against the fake Discord, games played only through interactions."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from fakediscord import BotRunner, FakeDiscord
from test_bot_support import IT_COMPONENT, Table, make_bot

from bot.discord_app.store import player_ref
from bot.service import GameService


async def _lobby_with_ai(fake: FakeDiscord, bot: Any, board: str = "usa") -> Table:
    table = Table(fake, bot)
    await table.create(fake.alice, board=board, seat_order="join")
    msg = await table.slash("ttr addai", fake.alice)
    assert "Added an AI seat" in msg.text() and msg.ephemeral
    msg = await table.slash("ttr start", fake.alice)
    assert "started" in msg.text() and msg.ephemeral
    return table


async def test_commands_are_grouped_and_synced_once(
    fake_discord: FakeDiscord, run_bot: Any, tmp_path: Path, bot_runner: BotRunner
) -> None:
    fake = fake_discord
    await run_bot(lambda: make_bot(tmp_path / "c.db"))
    await fake.sync_commands_done()
    assert sorted(fake.command_names()) == [
        "games",
        "leaderboard",
        "play",
        "profile",
        "tournament",
        "ttr",
        "view",
    ]
    subs = {c["name"]: sorted(o["name"] for o in c.get("options", [])) for c in fake.commands()}
    assert {"new", "join", "leave", "addai", "start", "abort", "kick", "replace", "rules"} <= set(subs["ttr"])
    assert {"draw", "claim", "tickets", "keep", "station", "tunnel", "passenger", "resign"} <= set(
        subs["play"]
    )
    assert subs["view"] == ["board", "hand", "log", "scores"]
    # a restart with the same command set does not sync again (the hash is stored)
    syncs = len(fake.command_syncs)
    await bot_runner.restart(lambda: make_bot(tmp_path / "c.db"))
    await asyncio.sleep(0.05)
    assert len(fake.command_syncs) == syncs
    # ... unless asked to
    await bot_runner.restart(lambda: make_bot(tmp_path / "c.db", sync=True))
    await fake.wait_for_request(lambda r: r.method == "PUT" and r.path.endswith("/commands"), new_only=False)
    assert len(fake.command_syncs) == syncs + 1


async def test_dev_guild_sync(fake_discord: FakeDiscord, run_bot: Any, tmp_path: Path) -> None:
    fake = fake_discord
    await run_bot(lambda: make_bot(tmp_path / "c.db", dev_guild_id=fake.guild.id))
    await fake.sync_commands_done()
    assert sorted(fake.command_names(fake.guild)) == [
        "games",
        "leaderboard",
        "play",
        "profile",
        "tournament",
        "ttr",
        "view",
    ]


@pytest.mark.parametrize("board", ["usa", "europe", "switzerland", "germany"])
async def test_full_game_against_ai_through_interactions(
    fake_discord: FakeDiscord, run_bot: Any, tmp_path: Path, board: str
) -> None:
    fake = fake_discord
    bot = await run_bot(lambda: make_bot(tmp_path / "c.db"))
    table = await _lobby_with_ai(fake, bot, board=board)
    alice_seat = await table.seat_of(fake.alice)
    tickets_seen: set[str] = set()
    for _ in range(400):
        if not await table.to_act():
            break
        assert await table.to_act() == [alice_seat]
        view = await bot.service.private_view(table.gid, player_ref(fake.alice.id))
        for t in (view["you"]["tickets"] or []) + (view["you"]["offer"] or []):
            tickets_seen.add(t["text"])
        reply = await table.play_one(fake.alice)
        assert reply.ephemeral
        assert reply.text().startswith("✓"), reply.text()
    row = await bot.service.game_row(table.gid)
    assert row.status == "over"
    public = fake.messages_in(table.thread, ephemeral=False)
    final = [m for m in public if "Final scores" in m.text()]
    assert len(final) == 1 and "alice" in final[0].text()
    try:
        import render.ttr  # noqa: F401
    except ImportError:
        pass
    else:  # with the renderer installed the first board is an image, a new image follows only a
        # change of the map (a claim, a station, a passenger), and the end adds a summary
        boards = [m for m in public if m.custom_ids() or m is final[0]]
        images = [m for m in boards if any(a.filename == "board.png" for a in m.attachments)]
        assert images and images[0] is boards[0]
        assert [a.filename for a in final[0].attachments] == ["board.png", "summary.png"]
        claims = sum(
            1 for m in public if "claimed" in m.text() or "station" in m.text() or "passenger" in m.text()
        )
        assert len(images) <= claims + 2
    # every public board pinged only the player to act (never the AI, never anyone else)
    for m in public:
        if "your turn" in m.text():
            assert f"<@{fake.alice.id}>" in m.text()
    msg = await table.slash("view scores", fake.alice)  # still answers in the thread after the end
    assert "Final scores" in msg.text()
    table.assert_no_leaks()
    public_text = fake.public_text()
    assert tickets_seen and not any(t in public_text for t in tickets_seen)
    # the private replies did carry the hand
    assert any("Your cards" in (p.get("content") or "") for p in fake.ephemeral_payloads())


async def test_two_players_restart_old_button_double_click_and_races(
    fake_discord: FakeDiscord, run_bot: Any, bot_runner: BotRunner, tmp_path: Path
) -> None:
    fake = fake_discord
    db = tmp_path / "c.db"
    bot = await run_bot(lambda: make_bot(db))
    table = Table(fake, bot)
    await table.create(fake.alice, board="usa", seat_order="join")
    assert "joined" in (await table.slash("ttr join", fake.bob)).text()
    await table.slash("ttr start", fake.alice)
    # simultaneous opening ticket choices, both accepted
    await table.play_one(fake.alice)
    await table.play_one(fake.bob)
    assert await table.to_act() == [0]
    old_board = table.latest_board()
    seq = await table.seq()

    # a double click on the Deck button: one draw, the other is told it already counted
    h1 = await fake.click(old_board, f"c:{table.gid}:{seq}:deck", user=fake.alice)
    h2 = await fake.click(old_board, f"c:{table.gid}:{seq}:deck", user=fake.alice)
    r1, r2 = await h1.wait_message(), await h2.wait_message()
    await table.settle()
    texts = sorted([r1.text(), r2.text()])
    assert r1.ephemeral and r2.ephemeral
    assert texts[0].startswith("✓") and "already counted" in texts[1], texts
    assert await table.seq() == seq + 1

    # two players pressing at once: alice (second card, offered in her private reply: the first
    # card posts nothing public) and bob (the public board's deck: not his turn)
    seq = await table.seq()
    assert table.latest_board() is old_board
    first = r1 if r1.text().startswith("✓") else r2
    ha = await fake.click(first, f"c:{table.gid}:{seq}:deck", user=fake.alice)
    hb = await fake.click(old_board, f"c:{table.gid}:{seq - 1}:deck", user=fake.bob)
    ra, rb = await ha.wait_message(), await hb.wait_message()
    await table.settle()
    assert ra.text().startswith("✓") and rb.text().startswith("✗")
    assert "not your turn" in rb.text() or "earlier turn" in rb.text()
    assert await table.seq() == seq + 1
    assert await table.to_act() == [1]

    # restart: a new client on the same database
    before = (await bot.service.load(table.gid)).game.to_json()
    bot = await bot_runner.restart(lambda: make_bot(db))
    table.bot = bot
    assert (await bot.service.load(table.gid)).game.to_json() == before
    # the old board lost its buttons when the next was posted (issue 30); a click a phone sent
    # from it before it showed the edit, arriving after the restart: answered, nothing changes
    assert old_board is not None and not fake.message(old_board.id).custom_ids()
    seq = await table.seq()
    r = await table.reply(
        await fake.forge_component(old_board, f"c:{table.gid}:{seq - 2}:deck", user=fake.bob)
    )
    assert r.ephemeral and "earlier turn" in r.text()
    assert await table.seq() == seq
    # the current board's buttons work after the restart
    r = await table.click(fake.bob, f"c:{table.gid}:{seq}:deck")
    assert r.text().startswith("✓")
    assert await table.seq() == seq + 1
    table.assert_no_leaks()


async def test_bad_inputs_are_explained_privately_and_change_nothing(
    fake_discord: FakeDiscord, run_bot: Any, tmp_path: Path
) -> None:
    fake = fake_discord
    bot = await run_bot(lambda: make_bot(tmp_path / "c.db"))
    table = await _lobby_with_ai(fake, bot)
    await table.play_one(fake.alice)  # keep opening tickets
    seq = await table.seq()
    board = table.latest_board()
    assert board is not None

    async def expect(msg_coro: Any, *needles: str) -> None:
        msg = await msg_coro
        assert msg.ephemeral, msg.text()
        assert msg.text().startswith("✗"), msg.text()
        assert any(n.lower() in msg.text().lower() for n in needles), msg.text()
        assert await table.seq() == seq

    # a non-player tries to act: button and command
    await expect(table.click(fake.carol, f"c:{table.gid}:{seq}:deck"), "not playing")
    await expect(table.slash("play draw", fake.carol, card="deck"), "not playing", "no game")
    await expect(table.slash("play draw", fake.carol, card="deck", game=table.gid), "not playing")
    # unknown route, garbage action, impossible claim, bad tickets
    await expect(table.slash("play claim", fake.alice, route="Atlantis–Narnia"), "no route")
    await expect(table.slash("play action", fake.alice, text="fly to the moon"), "could not read")
    loaded = await bot.service.load(table.gid)
    claimable = {a.track for a in loaded.game.legal_actions(0) if a.kind == "claim"}
    blocked = next(t for t in loaded.game.board.tracks if t.id not in claimable and t.length == 6)
    await expect(table.slash("play claim", fake.alice, route=blocked.id), "card", "need", "have")
    await expect(
        table.slash("play claim", fake.alice, route=blocked.id, payment="purple=banana"), "count", "read"
    )
    await expect(table.slash("play keep", fake.alice, tickets="US-T01"), "ticket")
    await expect(
        table.slash("play action", fake.alice, text="draw face 9", game=table.gid), "slot", "face", "read"
    )
    await expect(table.slash("view hand", fake.carol, game=table.gid), "not playing")
    await expect(table.slash("ttr abort", fake.carol, game=table.gid), "creator")
    await expect(table.slash("play draw", fake.alice, card="deck", game=999), "no game")
    # a garbled button id and a forged select value (Discord only delivers ids present on the message,
    # so the forged components are put on the message the click carries)
    data = {"custom_id": f"c:{table.gid}:x:face:zz", "component_type": 2}
    handle = fake._interaction_base(IT_COMPONENT, data, fake.alice, table.thread, board)
    handle.payload["message"]["components"][0]["components"][0]["custom_id"] = data["custom_id"]
    await expect(table.reply(await fake.inject(handle)), "garbled")
    forged = "'; DROP TABLE games"
    data = {"custom_id": f"s:{table.gid}:{seq}:keep", "component_type": 3, "values": [forged]}
    handle = fake._interaction_base(IT_COMPONENT, data, fake.alice, table.thread, board)
    handle.payload["message"]["components"] = [
        {
            "type": 1,
            "components": [
                {
                    "type": 3,
                    "custom_id": data["custom_id"],
                    "options": [{"label": "x", "value": forged}],
                    "min_values": 1,
                    "max_values": 1,
                }
            ],
        }
    ]
    await expect(table.reply(await fake.inject(handle)), "garbled")
    table.assert_no_leaks()


async def test_autocomplete_is_accent_insensitive_and_sliced(
    fake_discord: FakeDiscord, run_bot: Any, tmp_path: Path
) -> None:
    fake = fake_discord
    bot = await run_bot(lambda: make_bot(tmp_path / "c.db"))
    table = Table(fake, bot)
    await table.create(fake.alice, board="switzerland", seat_order="join")
    await table.slash("ttr addai", fake.alice)
    await table.slash("ttr start", fake.alice)
    h = await fake.autocomplete(
        "play claim", focused="route", value="zurich", user=fake.alice, channel=table.thread
    )
    choices = await h.wait_choices()
    assert choices and all("Zürich" in c["name"] for c in choices)
    h = await fake.autocomplete(
        "play claim", focused="route", value="", user=fake.alice, channel=table.thread
    )
    assert len(await h.wait_choices()) == 25
    h = await fake.autocomplete(
        "play station", focused="city", value="geneve", user=fake.alice, channel=table.thread
    )
    assert [c["value"] for c in await h.wait_choices()] == ["Genève"]
    # payments offered are the ones alice can actually pay (from legal actions)
    await table.play_one(fake.alice)
    loaded = await bot.service.load(table.gid)
    legal = [a for a in loaded.game.legal_actions(await table.seat_of(fake.alice)) if a.kind == "claim"]
    if legal:
        track = legal[0].track
        h = await fake.autocomplete(
            "play claim", focused="payment", value="", user=fake.alice, channel=table.thread, route=track
        )
        values = {c["value"] for c in await h.wait_choices()}
        assert values == {",".join(f"{c}={n}" for c, n in a.cards) for a in legal if a.track == track}


async def test_views_games_rules_and_abort(fake_discord: FakeDiscord, run_bot: Any, tmp_path: Path) -> None:
    fake = fake_discord
    bot = await run_bot(lambda: make_bot(tmp_path / "c.db"))
    table = await _lobby_with_ai(fake, bot, board="germany")
    msg = await table.slash("games", fake.alice)
    assert f"#{table.gid}" in msg.text() and "your turn" in msg.text()
    msg = await table.slash("view hand", fake.alice)
    assert msg.ephemeral and "Your cards" in msg.text()
    msg = await table.slash("view board", fake.alice)
    assert msg.ephemeral and "Märklin" in msg.text()
    msg = await table.slash("view scores", fake.alice)
    assert "alice" in msg.text()
    msg = await table.slash("view log", fake.alice)
    assert "kept" in msg.text() and "DE-T" not in msg.text()
    msg = await table.slash("ttr rules", fake.alice)
    assert "Stand-in deck" in msg.text() and "Provisional merchandise" in msg.text()
    msg = await table.slash("ttr abort", fake.alice)
    assert msg.text().startswith("✓")
    assert (await bot.service.game_row(table.gid)).status == "aborted"
    table.assert_no_leaks()


class _Clock:
    def __init__(self) -> None:
        self.now = 1_800_000_000.0

    def __call__(self) -> float:
        return self.now


async def test_turn_timer_reminds_then_ai_plays(
    fake_discord: FakeDiscord, run_bot: Any, tmp_path: Path
) -> None:
    fake = fake_discord
    clock = _Clock()
    bot = await run_bot(lambda: make_bot(tmp_path / "c.db", clock=clock))
    table = Table(fake, bot)
    await table.create(fake.alice, board="usa", seat_order="join", timer_hours=2.0, timeout="ai")
    await table.slash("ttr join", fake.bob)
    await table.slash("ttr start", fake.alice)
    await table.play_one(fake.alice)
    await table.play_one(fake.bob)
    seq = await table.seq()
    clock.now += 1.6 * 3600
    await bot.scheduler.tick()
    reminder = await fake.wait_for_message(lambda m: "⏰" in m.text(), channel=table.thread, new_only=False)
    assert f"<@{fake.alice.id}>" in reminder.text() and f"<@{fake.bob.id}>" not in reminder.text()
    assert not reminder.ephemeral  # public, and it pings only alice
    clock.now += 0.5 * 3600
    await bot.scheduler.tick()
    await table.settle()
    assert await table.seq() > seq
    assert await table.to_act() == [1]
    posted = [m for m in fake.messages_in(table.thread, ephemeral=False) if "ran out of time" in m.text()]
    assert posted and f"<@{fake.bob.id}>" in posted[-1].text()


async def test_discord_errors_are_retried(fake_discord: FakeDiscord, run_bot: Any, tmp_path: Path) -> None:
    fake = fake_discord
    bot = await run_bot(lambda: make_bot(tmp_path / "c.db"))
    table = await _lobby_with_ai(fake, bot)
    fake.fail_next("POST", f"/channels/{table.thread.id}/messages", status=429, retry_after=0.01)
    await table.play_one(fake.alice)  # the board post is rate-limited once, then retried
    fake.fail_next("POST", f"/channels/{table.thread.id}/messages", status=500)
    await table.play_one(fake.alice)
    assert (await bot.service.game_row(table.gid)).status == "active"
    table.assert_no_leaks()


async def test_first_class_plugs_in(fake_discord: FakeDiscord, run_bot: Any, tmp_path: Path) -> None:
    """A game other than Ticket to Ride runs through the same service, thread, buttons and /play action."""
    fake = fake_discord
    bot = await run_bot(lambda: make_bot(tmp_path / "c.db"))
    table = Table(fake, bot)
    await table.create(fake.alice, game="first-class", seat_order="join")
    assert table.thread.name.startswith("First Class")
    await table.slash("ttr addai", fake.alice)
    await table.slash("ttr start", fake.alice)
    h = await fake.autocomplete(
        "play action", focused="text", value="", user=fake.alice, channel=table.thread
    )
    choices = await h.wait_choices()
    legal = {a.to_text() for a in await bot.service.legal_actions(table.gid, player_ref(fake.alice.id))}
    assert choices and {c["value"] for c in choices} <= legal
    hand = await table.click(fake.alice, f"c:{table.gid}:hand")
    assert hand.ephemeral and "legal moves" in hand.text()
    for _ in range(300):
        if not await table.to_act():
            break
        reply = await table.play_one(fake.alice)
        assert reply.text().startswith("✓"), reply.text()
    assert (await bot.service.game_row(table.gid)).status == "over"
    assert any("Final scores" in m.text() for m in fake.messages_in(table.thread, ephemeral=False))


async def test_owner_only_sync_command(fake_discord: FakeDiscord, run_bot: Any, tmp_path: Path) -> None:
    fake = fake_discord
    await run_bot(lambda: make_bot(tmp_path / "c.db", owner_id=fake.alice.id))
    await fake.sync_commands_done()
    syncs = len(fake.command_syncs)
    h = await fake.slash("ttr sync", user=fake.bob)
    msg = await h.wait_message()
    assert msg.ephemeral and "owner" in msg.text() and len(fake.command_syncs) == syncs
    h = await fake.slash("ttr sync", user=fake.alice)
    msg = await h.wait_message()
    assert msg.ephemeral and msg.text().startswith("Synced") and len(fake.command_syncs) == syncs + 1


async def test_restart_reposts_a_board_that_fell_behind(
    fake_discord: FakeDiscord, run_bot: Any, bot_runner: BotRunner, tmp_path: Path
) -> None:
    """A crash between the commit and the board post: the next start posts the current board."""
    fake = fake_discord
    db = tmp_path / "c.db"
    bot = await run_bot(lambda: make_bot(db))
    table = await _lobby_with_ai(fake, bot)
    # the move is committed, but the bot "dies" before posting the board: a service with no
    # subscriber on the same database stands for the process that crashed after its commit
    crashed = GameService(bot.storage)
    alice = player_ref(fake.alice.id)
    seq = (await crashed.act(table.gid, alice, (await crashed.legal_actions(table.gid, alice))[0])).seq
    assert f"c:{table.gid}:{seq}:deck" not in (table.latest_board().custom_ids())
    bot = await bot_runner.restart(lambda: make_bot(db))
    table.bot = bot
    await table.settle()
    board = table.latest_board()
    assert f"c:{table.gid}:{seq}:deck" in board.custom_ids()
    assert "after a restart" in board.text() and f"<@{fake.alice.id}>" in board.text()
    r = await table.click(fake.alice, f"c:{table.gid}:{seq}:deck")
    assert r.text().startswith("✓")


async def test_seat_management_commands(fake_discord: FakeDiscord, run_bot: Any, tmp_path: Path) -> None:
    fake = fake_discord
    bot = await run_bot(lambda: make_bot(tmp_path / "c.db"))
    table = Table(fake, bot)
    await table.create(fake.alice, board="europe", seat_order="join", timer_hours=0.0)
    await table.slash("ttr join", fake.bob)
    await table.slash("ttr join", fake.carol)
    msg = await table.slash("ttr leave", fake.carol)
    assert "left" in msg.text()
    await table.slash("ttr join", fake.carol)
    msg = await table.slash("ttr kick", fake.bob, user=fake.carol)
    assert msg.text().startswith("✗") and "creator" in msg.text()
    msg = await table.slash("ttr kick", fake.alice, user=fake.carol)
    assert msg.text().startswith("✓")
    assert (await bot.service.game_row(table.gid)).seat_of(player_ref(fake.carol.id)) is None
    await table.slash("ttr start", fake.alice)
    msg = await table.slash("ttr leave", fake.bob)
    assert "resign" in msg.text()
    msg = await table.slash("ttr replace", fake.alice, seat=2)  # seats are counted from 1
    assert msg.text().startswith("✓")
    row = await bot.service.game_row(table.gid)
    assert row.seats[1].is_ai and row.seat_of(player_ref(fake.bob.id)) is None
    msg = await table.slash("ttr vacation", fake.alice, days=3.0)
    assert "paused" in msg.text()
    msg = await table.slash("play resign", fake.alice)
    assert "resigned" in msg.text()
    await table.settle()
    assert (await bot.service.game_row(table.gid)).status == "over"  # two AIs finish the game
    assert any("Final scores" in m.text() for m in fake.messages_in(table.thread, ephemeral=False))
    table.assert_no_leaks()


async def test_a_corrupted_game_is_reported_and_others_go_on(
    fake_discord: FakeDiscord, run_bot: Any, bot_runner: BotRunner, tmp_path: Path
) -> None:
    fake = fake_discord
    db = tmp_path / "c.db"
    bot = await run_bot(lambda: make_bot(db))
    bad = await _lobby_with_ai(fake, bot)
    good = await _lobby_with_ai(fake, bot)
    await bot.storage.db.execute('UPDATE games SET snapshot=\'{"game_name": "ttr"}\' WHERE id=?', (bad.gid,))
    bot = await bot_runner.restart(lambda: make_bot(db))
    good.bot = bad.bot = bot
    note = await fake.wait_for_message(
        lambda m: "could not be restored" in m.text(), channel=bad.thread, new_only=False
    )
    assert not note.ephemeral
    r = await bad.click(fake.alice, f"c:{bad.gid}:hand")
    assert r.text().startswith("✗") and "cannot" in r.text()
    reply = await good.play_one(fake.alice)
    assert reply.text().startswith("✓")
