"""A bot process that dies holding a timer job (run by tests/bot/test_cluster_kill.py).

``python cluster_victim.py URL NOW REMINDERS``: an App on the PostgreSQL database ``URL`` whose
clock stands at ``NOW`` runs one scheduler pass. Each reminder it sends is appended to the file
``REMINDERS``; the first timeout it takes, it announces with ``HOLDING`` on stdout and then
never finishes: the test kills it there with SIGKILL."""

from __future__ import annotations

import asyncio
import sys

from bot.app import App, AppSettings
from bot.stream import Outcome


async def main(url: str, now: float, reminders: str) -> None:
    app = App(AppSettings(url, clock=lambda: now, process="victim"))
    await app.start()

    async def remind(game_id: int, players: list[str], deadline: float | None) -> None:
        with open(reminders, "a", encoding="utf-8") as out:
            out.write(f"victim {game_id} {' '.join(players)}\n")

    async def hold(game_id: int, seq: int) -> Outcome | None:
        print("HOLDING", game_id, seq, flush=True)
        await asyncio.Event().wait()  # killed here
        return None

    app.scheduler.subscribe_reminders(remind)
    app.service.timeout = hold  # type: ignore[method-assign]
    await app.scheduler.tick()


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], float(sys.argv[2]), sys.argv[3]))
