"""Posting from the outbox (:mod:`bot.outbox`): moves this process did not publish itself.

They are moves another process committed for a game of a server this process's shards own (a
click in a direct message, which Discord sends to shard 0; a timer fired elsewhere), and, after a
start, moves a crash left between commit and post (those go through the paced
:class:`~bot.discord_app.ui.BoardReposts`). Each is posted as the game's board now with the lines
of every move since the last board this process posted or holds (worded from the game's log,
:meth:`bot.service.GameService.outcome_since`), under the game's post lock, so a game's posts stay
in order and none is posted twice; the post carries the nonce of its game and seq, so a post
repeated after a kill between posting and marking it posted stays one message.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from bot.service import ServiceError
from lang import Msg, using

if TYPE_CHECKING:
    from bot.discord_app.ui import GameUI

log = logging.getLogger("conductor.discord")


class OutboxPosts:
    """``post(game_id)`` for :class:`bot.outbox.OutboxFollower`, over the Discord presenter."""

    def __init__(self, ui: GameUI) -> None:
        self.ui = ui
        self.posted = 0  # boards posted from the outbox (tests, logs)

    async def post(self, gid: int) -> None:
        ui = self.ui
        route = await ui.store.route(gid)
        if route.channel_id is None and route.thread_id is None:
            if await ui.posts_for(gid):  # nowhere to post (a terminal game): nothing to wait for
                rows = await ui.bot.storage.outbox.unposted(gid)
                if rows:
                    await ui.bot.storage.outbox.mark_posted(gid, rows[-1].seq)
            return
        if not await ui.posts_for(gid):
            return  # another process's shards own the game's server
        async with ui.post_lock(gid):
            await self.post_locked(gid)

    async def post_locked(self, gid: int, *, extra: str | Msg = "") -> bool:
        """Post the game's unposted moves (the caller holds its post lock); True if posted."""
        ui = self.ui
        outbox = ui.bot.storage.outbox
        rows = await outbox.unposted(gid)
        if not rows:
            return False
        latest = await ui.store.latest_message(gid)
        shown = max(
            ui.posted_seq.get(gid, -1),
            ui.held_seq.get(gid, -1),  # lines held mid-turn go out with this post
            latest[0] if latest is not None else -1,
            rows[0].seq - 1,
        )
        try:
            outcome = await ui.service.outcome_since(gid, shown)
        except ServiceError as exc:  # a broken game: nothing more will be posted for it
            log.warning("game=%s: its unposted moves cannot be shown (%s)", gid, exc.code)
            await outbox.mark_posted(gid, rows[-1].seq)
            return False
        if outcome.view is None or outcome.seq <= shown:  # posted already (or nothing to show)
            await outbox.mark_posted(gid, max(outcome.seq, rows[-1].seq))
            return False
        if not extra and ui.mid_turn(outcome):  # one public message per turn, as in-process
            ui.held_lines[gid] = ui.held_lines.get(gid, ()) + outcome.lines
            ui.held_seq[gid] = outcome.seq
            with using(outcome.language):
                await ui.dm.refresh(outcome)
            return False
        message = await ui.announce(outcome, extra=extra, nonce=True)
        if message is None:
            return False  # left in the outbox: the presenter retries its failed posts
        self.posted += 1
        with using(outcome.language):
            await ui.dm.refresh(outcome)
        return True
