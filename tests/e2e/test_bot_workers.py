"""The bot's worker pool through its whole life: started before the bot connects, used for the
boards it posts, and gone (every worker process reaped) once the bot has closed."""

from __future__ import annotations

import multiprocessing
import os
from pathlib import Path
from typing import Any

import pytest
from fakediscord import BotRunner, FakeDiscord
from test_bot_support import Table, make_bot


async def test_the_bot_draws_in_its_workers_and_leaves_none_behind_when_it_closes(
    fake_discord: FakeDiscord, bot_runner: BotRunner, tmp_path: Path
) -> None:
    """A bot with a pool is ready only once its workers are up; the board of a new game is drawn in
    a worker process; closing the bot stops and reaps every worker."""
    bot: Any = await bot_runner.start(lambda: make_bot(tmp_path / "w.db", workers=1))
    assert bot.workers.pooled and len(bot.workers.pids) == 1 and bot.workers.pids[0] != os.getpid()
    table = Table(fake_discord, bot)
    await table.create(fake_discord.alice, board="usa", seat_order="join")
    await table.slash("ttr addai", fake_discord.alice)
    await table.slash("ttr start", fake_discord.alice)
    board = table.latest_board()
    assert board is not None and any(a.filename.endswith(".png") for a in board.attachments)
    assert bot.workers.done["render"] >= 1 and not bot.workers.in_threads
    pids = bot.workers.pids
    await bot_runner.close()
    assert not bot.workers.pooled
    assert not {p.pid for p in multiprocessing.active_children()} & set(pids)
    for pid in pids:
        with pytest.raises(ProcessLookupError):
            os.kill(pid, 0)
