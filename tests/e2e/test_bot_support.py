"""Support for the bot's end-to-end tests (no tests here): drive a Conductor game only through Discord interactions."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path
from typing import Any

from fakediscord import HANG_GUARD, FakeDiscord, FakeMessage, FakeUser, InteractionHandle

from bot.discord_app.client import ConductorBot
from bot.discord_app.store import player_ref
from bot.service import ServiceError
from rules.ai import make_ai

IT_COMPONENT = 3
TICKET_ID = re.compile(r"\b(?:US|EU|CH|DE)-T\d+\b")


def make_bot(db: Path | str, **kwargs: Any) -> ConductorBot:
    """A ConductorBot for tests: fast ready, no background scheduler."""
    kwargs.setdefault("start_scheduler", False)
    return ConductorBot(str(db), guild_ready_timeout=0.05, **kwargs)


class Table:
    """One game in a thread, played by test users through commands, buttons and menus."""

    def __init__(self, fake: FakeDiscord, bot: ConductorBot) -> None:
        self.fake = fake
        self.bot = bot
        self.gid = 0
        self.thread: Any = None
        self.ai: Any = None
        self.tunnels = 0

    async def create(self, creator: FakeUser, board: str = "usa", **options: Any) -> None:
        h = await self.fake.slash("ttr new", user=creator, board=board, **options)
        msg = await h.wait_message()
        assert msg.ephemeral, msg
        m = re.search(r"game #(\d+)", msg.text())
        assert m, msg.text()
        self.gid = int(m[1])
        self.thread = next(t for t in self.fake.threads if f"#{self.gid}" in t.name)

    async def reply(self, handle: InteractionHandle) -> FakeMessage:
        """The (ephemeral) answer to an interaction; then wait until the public board is current."""
        msg = await handle.wait_message()
        await self.settle()
        return msg

    async def slash(self, command: str, who: FakeUser, /, **options: Any) -> FakeMessage:
        """Run a slash command in the game's thread as ``who`` (options may include ``user=``)."""
        handle = self.fake._interaction_base(
            2, self.fake.build_command_data(command, options, channel=self.thread), who, self.thread, None
        )
        return await self.reply(await self.fake.inject(handle))

    async def settle(self, timeout: float = HANG_GUARD) -> None:
        """Wait until the newest public board in the thread matches the game's current seq."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            await self.bot.service.stream.drain()  # every published outcome has been posted (or refused)
            try:
                async with self.bot.service.lock(self.gid):
                    row = await self.bot.service.game_row(self.gid)
            except ServiceError:  # a broken game posts no boards
                return
            if row.status in ("lobby", "aborted"):
                return
            msgs = self.fake.messages_in(self.thread, ephemeral=False)
            if row.status == "over" and any("Final scores" in m.text() for m in msgs):
                return
            latest = await self.bot.ui.store.latest_message(self.gid)
            if latest is not None and latest[0] == row.seq:
                return
            if loop.time() > deadline:
                raise AssertionError(f"board for seq {row.seq} was not posted")
            await asyncio.sleep(0.005)

    def latest_board(self) -> FakeMessage | None:
        boards = [
            m
            for m in self.fake.messages_in(self.thread, ephemeral=False)
            if any(c.startswith(f"c:{self.gid}:") for c in m.custom_ids())
        ]
        return boards[-1] if boards else None

    async def click(self, user: FakeUser, custom_id: str, message: FakeMessage | None = None) -> FakeMessage:
        board = message or self.latest_board()
        assert board is not None
        return await self.reply(await self.fake.click(board, custom_id, user=user))

    async def seq(self) -> int:
        return (await self.bot.service.game_row(self.gid)).seq

    async def seat_of(self, user: FakeUser) -> int:
        seat = (await self.bot.service.game_row(self.gid)).seat_of(player_ref(user.id))
        assert seat is not None
        return seat

    async def to_act(self) -> list[int]:
        loaded = await self.bot.service.load(self.gid)
        return (
            list(loaded.game.seats_to_act())
            if loaded.game is not None and loaded.row.status == "active"
            else []
        )

    async def play_one(self, user: FakeUser) -> FakeMessage:
        """Let the heuristic choose ``user``'s move, then make it through the Discord UI."""
        loaded = await self.bot.service.load(self.gid)
        seat = await self.seat_of(user)
        if self.ai is None:
            self.ai = make_ai(loaded.row.game_name, "heuristic", 17)
        action = self.ai.choose(loaded.game, seat)
        seq = loaded.row.seq
        gid = self.gid
        kind = action.kind
        if kind == "keep_tickets":
            board = self.latest_board()
            assert board is not None
            hand_id = f"c:{gid}:hand"
            hand = await self.click(user, hand_id, board)
            assert hand.ephemeral and "Tickets offered" in hand.text()
            return await self.reply(
                await self.fake.select(hand, self.private_id(hand, "keep"), list(action.ids), user=user)
            )
        if kind == "draw_face":
            return await self.click(user, f"c:{gid}:{seq}:face:{action.slot}")
        if kind == "draw_deck":
            return await self.click(user, f"c:{gid}:{seq}:deck")
        if kind == "draw_tickets":
            reply = await self.click(user, f"c:{gid}:{seq}:tix")
            if any(c.endswith(":tix") and c.startswith("s:") for c in reply.custom_ids()):  # Märklin: the mix
                return await self.reply(
                    await self.fake.select(reply, self.private_id(reply, "tix"), [action.to_text()], user=user)
                )
            return reply
        if kind == "claim":
            payment = ",".join(f"{c}={n}" for c, n in action.cards)
            opts: dict[str, Any] = {"route": action.track, "payment": payment}
            if action.passenger:
                opts["passenger"] = action.passenger
            return await self.slash("play claim", user, **opts)
        if kind in ("tunnel_pay", "tunnel_withdraw"):
            self.tunnels += 1
            if self.tunnels % 2:  # alternate: the private select menu, then the slash command
                hand = await self.click(user, f"c:{gid}:hand")
                select_id = self.private_id(hand, "tun")
                return await self.reply(await self.fake.select(hand, select_id, [action.to_text()], user=user))
            return await self.slash("play tunnel", user, choice=action.to_text())
        if kind == "station":
            payment = ",".join(f"{c}={n}" for c, n in action.cards)
            return await self.slash("play station", user, city=action.city, payment=payment)
        return await self.slash("play action", user, text=action.to_text())

    def private_id(self, message: FakeMessage, what: str) -> str:
        """The custom id of the private ``what`` menu (keep, tun, tix) on ``message``."""
        ids = [c for c in message.custom_ids() if c.startswith(f"s:{self.gid}:") and c.endswith(f":{what}")]
        assert len(ids) == 1, message.custom_ids()
        return ids[0]

    def assert_no_leaks(self) -> None:
        """No public payload carries a ticket id, a hand or a ticket offer."""
        text = self.fake.public_text()
        assert not TICKET_ID.search(text), TICKET_ID.search(text)
        for marker in ("Your cards", "Your tickets", "Tickets offered", '"hand"', "keep"):
            assert marker not in text, marker
