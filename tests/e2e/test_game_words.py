"""End-to-end: the words players met that said too little or the wrong thing (issue 30): a forfeit
named the player "carol (AI)", and ``/games`` did not show a vacation pause. (A finished game's
summary is checked over a whole game in ``test_markdown_names.py``.)"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from fakediscord import FakeDiscord
from test_bot_support import Table, make_bot


class _Clock:
    def __init__(self) -> None:
        self.now = 1_800_000_000.0

    def __call__(self) -> float:
        return self.now


async def test_a_forfeit_names_the_player_as_they_were(
    fake_discord: FakeDiscord, run_bot: Any, tmp_path: Path
) -> None:
    """The turn runs out under the forfeit policy: the public line names bob, not "bob (AI)" (the
    AI that plays the seat from now on)."""
    fake = fake_discord
    clock = _Clock()
    bot = await run_bot(lambda: make_bot(tmp_path / "c.db", clock=clock))
    table = Table(fake, bot)
    await table.create(fake.alice, board="usa", seat_order="join", timer_hours=2.0, timeout="forfeit")
    await table.slash("ttr join", fake.bob)
    await table.slash("ttr start", fake.alice)
    await table.play_one(fake.alice)  # alice's opening tickets; bob lets his turn run out
    clock.now += 2.1 * 3600
    await bot.scheduler.tick()
    await table.settle()
    posted = [m.text() for m in fake.messages_in(table.thread, ephemeral=False) if "forfeits" in m.text()]
    assert posted, [m.text()[:120] for m in fake.messages_in(table.thread, ephemeral=False)]
    assert "bob ran out of time and forfeits" in posted[-1], posted[-1]
    assert "bob (AI) ran out" not in posted[-1] and "**bob (AI)** ran out" not in posted[-1]
    assert (await bot.service.game_row(table.gid)).seats[await table.seat_of(fake.alice) ^ 1].is_ai


async def test_games_shows_a_vacation_pause(fake_discord: FakeDiscord, run_bot: Any, tmp_path: Path) -> None:
    """``/games`` says that a game's timer is paused by a vacation, and until when; the pause
    ended, it shows the timer again."""
    fake = fake_discord
    clock = _Clock()
    bot = await run_bot(lambda: make_bot(tmp_path / "c.db", clock=clock))
    table = Table(fake, bot)
    await table.create(fake.alice, board="usa", seat_order="join", timer_hours=24.0)
    await table.slash("ttr join", fake.bob)
    await table.slash("ttr start", fake.alice)
    before = (await table.slash("games", fake.bob)).text()
    assert "paused" not in before and "timer 24" in before, before
    assert "paused" in (await table.slash("ttr vacation", fake.alice, days=3.0)).text()
    until = int(clock.now + 3 * 24 * 3600)
    for user in (fake.alice, fake.bob):  # the one away, and the one waiting on the game
        shown = (await table.slash("games", user)).text()
        assert f"timer paused until <t:{until}:f> (vacation)" in shown, shown
    await table.slash("ttr vacation", fake.alice, days=0.0)
    assert "paused" not in (await table.slash("games", fake.bob)).text()


async def test_a_marklin_game_says_in_words_that_its_data_is_partly_provisional(
    fake_discord: FakeDiscord, run_bot: Any, tmp_path: Path
) -> None:
    """The opening board of a Märklin game says, in its text (not only in the picture's small
    print), that the ticket deck is a stand-in and which merchandise stacks are provisional; a
    board with only published data says nothing of the kind."""
    fake = fake_discord
    bot = await run_bot(lambda: make_bot(tmp_path / "c.db"))
    for board, noted in (("germany", True), ("usa", False)):
        table = Table(fake, bot)
        await table.create(fake.alice, board=board, seat_order="join")
        await table.slash("ttr join", fake.bob)
        await table.slash("ttr start", fake.alice)
        await table.settle()
        opening = table.latest_board()
        assert opening is not None
        said = "ℹ Stand-in deck" in opening.text() and "provisional" in opening.text()
        assert said == noted, (board, opening.text())
