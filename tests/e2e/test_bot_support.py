"""Support for the bot's end-to-end tests (no tests here): drive a Conductor game only through Discord interactions."""

from __future__ import annotations

import asyncio
import json
import re
from pathlib import Path
from typing import Any

from fakediscord import FakeDiscord, FakeMessage, FakeUser, InteractionHandle

from bot.discord_app.client import ConductorBot
from bot.discord_app.store import player_ref
from bot.service import ServiceError
from rules.ai import make_ai

IT_COMPONENT = 3
# How long a wait may last before a test fails. Every wait ends on its event (a message, a board for
# the current seq); the bound only has to outlast a busy machine rendering boards.
PATIENCE = 60.0
TICKET_ID = re.compile(r"\b(?:US|EU|CH|DE)-T\d+\b")


def make_bot(db: Path | str, **kwargs: Any) -> ConductorBot:
    """A ConductorBot over a new App for tests: fast ready, no background timers, no renderer
    prewarm (a test of its own checks that the real start-up prewarms)."""
    kwargs.setdefault("start_scheduler", False)
    kwargs.setdefault("prewarm", False)
    return ConductorBot.for_database(str(db), guild_ready_timeout=0.05, **kwargs)


class Table:
    """One game in a thread, played by test users through commands, buttons and menus."""

    def __init__(self, fake: FakeDiscord, bot: ConductorBot) -> None:
        self.fake = fake
        self.bot = bot
        self.gid = 0
        self.thread: Any = None
        self.ai: Any = None
        self.tunnels = 0
        self.last_private: dict[int, FakeMessage] = {}  # each user's latest private reply
        self.stale_refusals = 0

    async def create(self, creator: FakeUser, board: str = "usa", **options: Any) -> None:
        h = await self.fake.slash("ttr new", user=creator, board=board, **options)
        msg = await h.wait_message()
        assert msg.ephemeral, msg
        m = re.search(r"game #(\d+)", msg.text())
        assert m, msg.text()
        self.gid = int(m[1])
        self.thread = next(t for t in self.fake.threads if f"#{self.gid}" in t.name)

    def follow_newest_thread(self) -> None:
        """Follow the game whose thread opened last (after a /ttr new answered in a language whose
        reply :meth:`create` cannot read)."""
        self.thread = self.fake.threads[-1]
        self.gid = int(re.search(r"#(\d+)", self.thread.name)[1])  # type: ignore[index]

    async def reply(self, handle: InteractionHandle) -> FakeMessage:
        """The (ephemeral) answer to an interaction; then wait until the public board is current."""
        msg = await handle.wait_message(timeout=PATIENCE)
        await self.settle()
        return msg

    async def slash(self, command: str, who: FakeUser, /, **options: Any) -> FakeMessage:
        """Run a slash command in the game's thread as ``who`` (options may include ``user=``)."""
        handle = self.fake._interaction_base(
            2, self.fake.build_command_data(command, options, channel=self.thread), who, self.thread, None
        )
        return await self.reply(await self.fake.inject(handle))

    async def settle(self, timeout: float = PATIENCE) -> None:
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
            if self.bot.ui.held_seq.get(self.gid) == row.seq:  # mid-turn: answered privately only
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
        if kind == "draw_face":  # a second card is offered in the private reply to the first
            return await self.press(user, f"c:{gid}:{seq}:face:{action.slot}")
        if kind == "draw_deck":
            return await self.press(user, f"c:{gid}:{seq}:deck")
        if kind == "draw_tickets":
            board = self.latest_board()
            assert board is not None
            reply = await self.click(user, next(c for c in board.custom_ids() if c.endswith(":tix")), board)
            if any(c.endswith(":tix") and c.startswith("s:") for c in reply.custom_ids()):  # Märklin: the mix
                return await self.reply(
                    await self.fake.select(
                        reply, self.private_id(reply, "tix"), [action.to_text()], user=user
                    )
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
                return await self.reply(
                    await self.fake.select(hand, select_id, [action.to_text()], user=user)
                )
            return await self.slash("play tunnel", user, choice=action.to_text())
        if kind == "station":
            payment = ",".join(f"{c}={n}" for c, n in action.cards)
            return await self.slash("play station", user, city=action.city, payment=payment)
        return await self.slash("play action", user, text=action.to_text())

    async def _answer(self, user: FakeUser, handle: InteractionHandle) -> FakeMessage:
        msg = await self.reply(handle)
        assert msg.ephemeral, msg.text()
        if "earlier turn" in msg.text():
            self.stale_refusals += 1
        self.last_private[user.id] = msg
        return msg

    async def press(self, user: FakeUser, custom_id: str) -> FakeMessage:
        """Click ``custom_id`` on the user's latest private reply if it has it, else on the latest board."""
        private = self.last_private.get(user.id)
        target = private if private is not None and custom_id in private.custom_ids() else self.latest_board()
        assert target is not None and custom_id in target.custom_ids(), (
            custom_id,
            target and target.custom_ids(),
        )
        return await self._answer(user, await self.fake.click(target, custom_id, user=user))

    async def pick(self, user: FakeUser, message: FakeMessage, what: str, wanted: list[str]) -> FakeMessage:
        """Choose in the private ``what`` menu: the wanted values when offered, else the first option."""
        cid = self.private_id(message, what)
        menu = message.find_component(cid)
        offered = [o["value"] for o in menu.get("options") or []]
        values = ([v for v in wanted if v in offered] or offered[:1])[: int(menu.get("max_values") or 1)]
        assert values, (what, message.text())
        return await self._answer(user, await self.fake.select(message, cid, values, user=user))

    async def confirm(self, user: FakeUser, message: FakeMessage) -> FakeMessage:
        """Press Confirm on a private prompt."""
        ids = [c for c in message.custom_ids() if c.startswith(f"c:{self.gid}:m") and ":do:" in c]
        assert len(ids) == 1, (message.text(), message.custom_ids())
        return await self._answer(user, await self.fake.click(message, ids[0], user=user))

    async def play_buttons(self, user: FakeUser) -> FakeMessage:
        """Let the heuristic choose ``user``'s move, then make it with buttons and menus only (no
        slash command): the public board's buttons, then the private replies' menus and buttons."""
        loaded = await self.bot.service.load(self.gid)
        seat = await self.seat_of(user)
        if self.ai is None:
            self.ai = make_ai(loaded.row.game_name, "heuristic", 17)
        action = self.ai.choose(loaded.game, seat)
        seq, gid, kind = loaded.row.seq, self.gid, action.kind
        if kind == "keep_tickets":
            private = self.last_private.get(user.id)
            if private is None or not any(c.endswith(":keep") for c in private.custom_ids()):
                private = await self.press(user, f"c:{gid}:hand")
            return await self.pick(user, private, "keep", list(action.ids))
        if kind == "draw_face":
            return await self.press(user, f"c:{gid}:{seq}:face:{action.slot}")
        if kind == "draw_deck":
            return await self.press(user, f"c:{gid}:{seq}:deck")
        if kind == "draw_tickets":
            private = self.last_private.get(user.id)
            if private is not None and any(
                c.endswith(":tix") and c.startswith("s:") for c in private.custom_ids()
            ):
                return await self.pick(user, private, "tix", [action.to_text()])
            board = self.latest_board()
            assert board is not None
            tix = next(c for c in board.custom_ids() if c.endswith(":tix"))
            reply = await self._answer(user, await self.fake.click(board, tix, user=user))
            if any(c.endswith(":tix") and c.startswith("s:") for c in reply.custom_ids()):  # Märklin: the mix
                return await self.pick(user, reply, "tix", [action.to_text()])
            return reply
        if kind in ("tunnel_pay", "tunnel_withdraw"):
            self.tunnels += 1
            private = self.last_private.get(user.id)
            if private is None or not any(c.endswith(":tun") for c in private.custom_ids()):
                private = await self.press(user, f"c:{gid}:hand")
            return await self.pick(user, private, "tun", [action.to_text()])
        if kind == "pass":
            await self.press(user, f"c:{gid}:hand")
            return await self.press(user, f"c:{gid}:m{await self.moves(seat)}:do:pass")
        if kind == "journey_route":  # a Märklin passenger's next route, in the private journey menu
            private = self.last_private.get(user.id)
            if private is None or not any(c.endswith(":pstep") for c in private.custom_ids()):
                private = await self.press(user, f"c:{gid}:hand")
            return await self.pick(user, private, "pstep", [action.to_text()])
        if kind == "journey_end":
            stop = f"c:{gid}:m{await self.moves(seat)}:do:passenger stop"
            private = self.last_private.get(user.id)
            if private is None or stop not in private.custom_ids():
                await self.press(user, f"c:{gid}:hand")
            return await self.press(user, stop)
        menu = {"claim": "claim", "station": "station", "journey_start": "pas"}[kind]
        board = self.latest_board()
        assert board is not None
        button = next(c for c in board.custom_ids() if c.endswith(f":{menu}"))
        step = await self._answer(user, await self.fake.click(board, button, user=user))
        if kind == "claim":
            tr = loaded.game.board.track_by_id[action.track.lower()]
            if any(c.endswith(":rcity") for c in step.custom_ids()):
                step = await self.pick(user, step, "rcity", [tr.a, tr.b])
            step = await self.pick(user, step, "route", [action.track])
        elif kind == "station":
            if any(c.endswith(":sgrp") for c in step.custom_ids()):
                cid = self.private_id(step, "sgrp")
                groups = step.find_component(cid).get("options") or []
                chosen = [
                    str(i)
                    for i, o in enumerate(groups)
                    if o["label"].split(" … ")[0] <= action.city <= o["label"].split(" … ")[1]
                ]
                step = await self.pick(user, step, "sgrp", chosen)
            step = await self.pick(user, step, "scity", [action.city])
        if any(c.endswith(":pay") or c.endswith(":pas") for c in step.custom_ids()):
            step = await self.pick(
                user, step, "pay" if kind != "journey_start" else "pas", [action.to_text()]
            )
        return await self.confirm(user, step)

    async def moves(self, seat: int) -> int:
        return await self.bot.service.storage.count_actions(self.gid, seat)

    def private_id(self, message: FakeMessage, what: str) -> str:
        """The custom id of the private ``what`` menu (keep, tun, tix) on ``message``."""
        ids = [c for c in message.custom_ids() if c.startswith(f"s:{self.gid}:") and c.endswith(f":{what}")]
        assert len(ids) == 1, message.custom_ids()
        return ids[0]

    def shared_text(self) -> str:
        """Every payload posted where more than one person can read it (not ephemeral, not a
        direct message to its recipient), with attachment filenames."""
        parts: list[str] = []
        for r in self.fake.requests:
            if not r.is_public:
                continue
            channel = self.fake.channels.get(r.message.channel_id) if r.message is not None else None
            if channel is not None and channel.type == 1:  # a direct message: its recipient's own
                continue
            parts.append(json.dumps(r.message_data or {}, ensure_ascii=False))
            parts.extend(f.filename for f in r.files)
        return "\n".join(parts)

    def live_surfaces(self) -> list[FakeMessage]:
        """The shared messages (not ephemeral, not in a direct message) that carry an enabled button
        or menu of this game: the places where anyone could act on it."""
        return live_surfaces(self.fake, self.gid)

    def assert_one_live_surface(self, when: str = "") -> None:
        """Issue 30: exactly one message of a running game carries enabled game buttons (none once
        it is over)."""
        live = self.live_surfaces()
        assert len(live) == 1, (when, [(m.id, m.text()[:80]) for m in live])

    def assert_no_leaks(self) -> None:
        """No shared payload carries a ticket id, a hand or a ticket offer."""
        text = self.shared_text()
        assert not TICKET_ID.search(text), TICKET_ID.search(text)
        for marker in ("Your cards", "Your tickets", "Tickets offered", '"hand"', "keep"):
            assert marker not in text, marker


def stage_berlin_passenger(game: Any, seat: int) -> None:
    """A Märklin position as the rules tests stage it: ``seat`` holds Berlin–Magdeburg–Leipzig
    (DE008, DE067) and has a passenger in Berlin, two passengers left."""
    for tid in ("DE008", "DE067"):
        game.owner[game.board.track_by_id[tid.lower()].index] = seat
    game.passenger_at = {"Berlin": seat}
    game.passengers_left[seat] = 2


def live_surfaces(fake: FakeDiscord, gid: int) -> list[FakeMessage]:
    """Shared messages carrying an enabled component of game ``gid`` (ids ``<kind>:<gid>:…``)."""
    own = re.compile(rf"^[a-z]+:{gid}:")
    out = []
    for msg in fake.messages.values():
        channel = fake.channels.get(msg.channel_id)
        if msg.deleted or msg.ephemeral or (channel is not None and channel.type == 1):
            continue
        if any(
            own.match(str(c.get("custom_id") or "")) and not c.get("disabled") for c in msg.iter_components()
        ):
            out.append(msg)
    return out
