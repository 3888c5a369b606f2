"""Smoke tests of the fake Discord itself, driven by a tiny discord.py bot defined here."""

from __future__ import annotations

import asyncio
import base64
import io
import re
from typing import Any

import aiohttp
import discord
import pytest
from discord import app_commands
from discord.ext import commands
from fakediscord import BotRunner, FakeDiscord, FakeDiscordTimeout, check_patch_points

# 1x1 transparent PNG
PNG = base64.b64decode(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=="
)
BOARDS = ["usa", "europe", "nordic", "switzerland", "usa-1910"]


class CounterButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"smoke:count:(?P<n>\d+)"):
    """A restart-safe button: its state lives in the custom_id."""

    def __init__(self, n: int) -> None:
        super().__init__(discord.ui.Button(label=f"Count {n}", custom_id=f"smoke:count:{n}"))
        self.n = n

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> CounterButton:
        return cls(int(match["n"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        view = discord.ui.View(timeout=None)
        view.add_item(CounterButton(self.n + 1))
        await interaction.response.edit_message(content=f"count={self.n + 1}", view=view)


class PickView(discord.ui.View):
    """A non-persistent view (routed by message id) with a string select."""

    @discord.ui.select(
        custom_id="smoke:pick", options=[discord.SelectOption(label=b, value=b) for b in BOARDS]
    )
    async def pick(self, interaction: discord.Interaction, select: discord.ui.Select[Any]) -> None:
        await interaction.response.edit_message(content=f"picked {select.values[0]}", view=None)


class SnapView(discord.ui.View):
    """Buttons that replace the board image: deferred update (6) + edit, and update (7) with a file."""

    @discord.ui.button(label="Redraw", custom_id="smoke:redraw")
    async def redraw(self, interaction: discord.Interaction, button: discord.ui.Button[Any]) -> None:
        await interaction.response.defer()
        file = discord.File(io.BytesIO(PNG), "board2.png")
        await interaction.edit_original_response(content="redrawn", attachments=[file])

    @discord.ui.button(label="Swap", custom_id="smoke:swap")
    async def swap(self, interaction: discord.Interaction, button: discord.ui.Button[Any]) -> None:
        file = discord.File(io.BytesIO(PNG), "board3.png")
        await interaction.response.edit_message(content="swapped", attachments=[file])


class NameModal(discord.ui.Modal, title="Name your railway"):
    """A modal with one text input."""

    railway: discord.ui.TextInput[Any] = discord.ui.TextInput(label="Railway", custom_id="smoke:railway")

    async def on_submit(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(f"railway={self.railway.value}")


class SmokeBot(commands.Bot):
    """The tiny test bot."""

    def __init__(self) -> None:
        super().__init__(command_prefix="!", intents=discord.Intents.default(), guild_ready_timeout=0.05)
        self.errors: list[int] = []
        self.last_interaction: discord.Interaction | None = None
        self.slow_delay = 0.0
        game = app_commands.Group(name="game", description="Game commands")
        admin = app_commands.Group(name="admin", description="Admin", parent=game)

        @game.command(name="new", description="Start a game")
        async def new(interaction: discord.Interaction, board: str, players: int = 2) -> None:
            await interaction.response.send_message(f"new {board} for {players}")

        @new.autocomplete("board")
        async def board_autocomplete(
            interaction: discord.Interaction, current: str
        ) -> list[app_commands.Choice[str]]:
            return [app_commands.Choice(name=b, value=b) for b in BOARDS if b.startswith(current)][:25]

        @admin.command(name="reset", description="Reset")
        async def reset(interaction: discord.Interaction, confirm: bool, who: discord.Member) -> None:
            await interaction.response.send_message(f"reset confirm={confirm} by {who.name}", ephemeral=True)

        @app_commands.command(name="board", description="Show the board")
        async def board(interaction: discord.Interaction) -> None:
            await interaction.response.defer(thinking=True)
            self.last_interaction = interaction
            await interaction.followup.send("the board", file=discord.File(io.BytesIO(PNG), "board.png"))

        @app_commands.command(name="hand", description="Your hand")
        async def hand(interaction: discord.Interaction) -> None:
            await interaction.response.send_message("secret hand: red red blue", ephemeral=True)

        @app_commands.command(name="leaky", description="Public defer, ephemeral follow-up (a bug)")
        async def leaky(interaction: discord.Interaction) -> None:
            await interaction.response.defer()
            await interaction.followup.send("secret leaked hand", ephemeral=True)

        @app_commands.command(name="counter", description="A persistent counter")
        async def counter(interaction: discord.Interaction) -> None:
            view = discord.ui.View(timeout=None)
            view.add_item(CounterButton(0))
            await interaction.response.send_message("count=0", view=view)

        @app_commands.command(name="pick", description="Pick a board")
        async def pick(interaction: discord.Interaction) -> None:
            await interaction.response.send_message("pick one", view=PickView())

        @app_commands.command(name="snap", description="A board image with buttons")
        async def snap(interaction: discord.Interaction) -> None:
            file = discord.File(io.BytesIO(PNG), "board1.png")
            await interaction.response.send_message("board", file=file, view=SnapView())

        @app_commands.command(name="double", description="Acknowledges twice")
        async def double(interaction: discord.Interaction) -> None:
            await interaction.response.send_message("once")
            try:
                await discord.InteractionResponse(interaction).send_message("twice")
            except discord.HTTPException as exc:
                self.errors.append(exc.code)

        @app_commands.command(name="slow", description="Answers late")
        async def slow(interaction: discord.Interaction) -> None:
            await asyncio.sleep(self.slow_delay)
            try:
                await interaction.response.send_message("finally")
            except discord.HTTPException as exc:
                self.errors.append(exc.code)

        @app_commands.command(name="name", description="Opens a modal")
        async def name(interaction: discord.Interaction) -> None:
            await interaction.response.send_modal(NameModal())

        @app_commands.command(name="dm", description="DMs you")
        async def dm(interaction: discord.Interaction) -> None:
            await interaction.response.defer(ephemeral=True)
            await interaction.user.send("psst: your tickets")
            await interaction.followup.send("sent you a DM", ephemeral=True)

        @app_commands.command(name="crash", description="Raises")
        async def crash(interaction: discord.Interaction) -> None:
            raise RuntimeError("boom")

        for cmd in (game, board, hand, leaky, counter, pick, snap, double, slow, name, dm, crash):
            self.tree.add_command(cmd)

    async def setup_hook(self) -> None:
        self.add_dynamic_items(CounterButton)
        await self.tree.sync()


@pytest.fixture
async def bot(run_bot: Any, fake_discord: FakeDiscord) -> SmokeBot:
    """A started SmokeBot whose commands are synced."""
    started: SmokeBot = await run_bot(SmokeBot)
    await fake_discord.sync_commands_done()
    return started


def test_patch_points_exist() -> None:
    """Fails loudly if discord.py drops Route.BASE or DiscordWebSocket.DEFAULT_GATEWAY."""
    check_patch_points()
    assert discord.http.Route.BASE == "https://discord.com/api/v10"
    assert str(discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY).startswith("wss://gateway.discord.gg")


async def test_sync_and_deferred_followup_with_file(bot: SmokeBot, fake_discord: FakeDiscord) -> None:
    assert set(fake_discord.command_names()) == {
        "game",
        "board",
        "hand",
        "leaky",
        "counter",
        "pick",
        "snap",
        "double",
        "slow",
        "name",
        "dm",
        "crash",
    }
    sync = fake_discord.find_requests("PUT", "/applications/*/commands")[0]
    assert sync.status == 200
    assert discord.http.Route.BASE.startswith("http://127.0.0.1:")
    assert bot.get_channel(fake_discord.general.id) is not None

    it = await fake_discord.slash("board", user=fake_discord.bob)
    ack = await it.wait_ack()
    assert ack.query.get("with_response") == "1" and it.ack_type == 5
    msg = await it.wait_message()
    assert msg is it.original and not msg.ephemeral and not msg.loading
    assert msg.content == "the board"
    assert [(a.filename, a.data) for a in msg.attachments] == [("board.png", PNG)]
    followup = fake_discord.find_requests("POST", "/webhooks/*")[0]
    assert (
        followup.interaction is it and followup.files[0].data == PNG and followup.files[0].field == "files[0]"
    )
    assert followup.is_public and followup in fake_discord.responses_to(it)
    assert fake_discord.messages_in(fake_discord.general) == [msg]
    gateway = await bot.http.request(discord.http.Route("GET", "/gateway/bot"))
    assert gateway["url"] == f"ws://127.0.0.1:{fake_discord.port}/gateway" and gateway["shards"] == 1
    # the attachment URL is served, so Attachment.read() works
    async with (
        aiohttp.ClientSession() as session,
        session.get(msg.payload(fake_discord.url)["attachments"][0]["url"]) as resp,
    ):
        assert await resp.read() == PNG


async def test_ephemeral_reply_is_not_public(bot: SmokeBot, fake_discord: FakeDiscord) -> None:
    it = await fake_discord.slash("hand")
    msg = await it.wait_message()
    assert msg.ephemeral and msg.visible_to == fake_discord.alice.id
    assert it.ack_request is not None and it.ack_request.ephemeral is True
    assert "secret" not in fake_discord.public_text()
    assert any("secret" in p.get("content", "") for p in fake_discord.ephemeral_payloads())
    assert msg not in fake_discord.messages_seen_by(fake_discord.bob)


async def test_public_defer_then_ephemeral_followup_leaks(bot: SmokeBot, fake_discord: FakeDiscord) -> None:
    it = await fake_discord.slash("leaky")
    msg = await it.wait_message()
    assert not msg.ephemeral and "secret leaked hand" in fake_discord.public_text()
    [failure] = fake_discord.take_failures("ephemeral_ignored")
    assert "PUBLIC" in failure.detail


async def test_nested_subcommand_and_autocomplete(bot: SmokeBot, fake_discord: FakeDiscord) -> None:
    it = await fake_discord.slash("game new", board="europe", players=4)
    assert (await it.wait_message()).content == "new europe for 4"
    it = await fake_discord.slash("game admin reset", confirm=True, who=fake_discord.bob)
    msg = await it.wait_message()
    assert msg.content == "reset confirm=True by bob" and msg.ephemeral
    ac = await fake_discord.autocomplete("game new", focused="board", value="usa")
    assert [c["value"] for c in await ac.wait_choices()] == ["usa", "usa-1910"]
    assert ac.ack_type == 8
    with pytest.raises(ValueError, match="no option"):
        await fake_discord.slash("game new", colour="red")
    with pytest.raises(ValueError, match="missing required"):
        await fake_discord.slash("game new", players=3)
    with pytest.raises(ValueError, match="no subcommand"):
        await fake_discord.slash("game old")


async def test_persistent_button_survives_restart(
    bot: SmokeBot, fake_discord: FakeDiscord, bot_runner: BotRunner
) -> None:
    it = await fake_discord.slash("counter")
    msg = await it.wait_message()
    click = await fake_discord.click(msg, label="Count 0", user=fake_discord.bob)
    await click.wait_ack()
    assert click.ack_type == 7 and msg.content == "count=1"
    new_bot = await bot_runner.restart(SmokeBot)
    assert new_bot is not bot and new_bot.is_ready()
    click = await fake_discord.click(msg, "smoke:count:1")
    assert (await click.wait_message()).content == "count=2"
    assert msg.custom_ids() == ["smoke:count:2"]


async def test_select_routed_by_message(bot: SmokeBot, fake_discord: FakeDiscord) -> None:
    msg = await (await fake_discord.slash("pick")).wait_message()
    choice = await fake_discord.select(msg, "smoke:pick", ["nordic"])
    await choice.wait_ack()
    assert msg.content == "picked nordic" and msg.components == []


async def test_board_image_replaced_by_update_and_deferred_edit(
    bot: SmokeBot, fake_discord: FakeDiscord
) -> None:
    it = await fake_discord.slash("snap")
    msg = await it.wait_message()
    assert [a.filename for a in msg.attachments] == ["board1.png"] and it.ack_request is not None
    assert it.ack_request.files[0].data == PNG  # type-4 callback sent as multipart
    redraw = await fake_discord.click(msg, label="Redraw")
    assert (await redraw.wait_message()) is msg and redraw.ack_type == 6
    assert msg.content == "redrawn" and [a.filename for a in msg.attachments] == ["board2.png"]
    swap = await fake_discord.click(msg, label="Swap")
    await swap.wait_message()
    assert swap.ack_type == 7 and msg.content == "swapped"
    assert [(a.filename, a.data) for a in msg.attachments] == [("board3.png", PNG)]
    assert msg.edits == 2 and len(msg.history) == 2


async def test_double_acknowledgement_rejected(bot: SmokeBot, fake_discord: FakeDiscord) -> None:
    it = await fake_discord.slash("double")
    await it.wait_for(lambda r: r.status == 400)
    [failure] = fake_discord.take_failures("double_ack")
    assert failure.request is not None and failure.request.response["code"] == 40060
    await asyncio.sleep(0.01)
    assert bot.errors == [40060]


@pytest.mark.fake_discord(response_deadline=0.1)
async def test_response_deadline_enforced(bot: SmokeBot, fake_discord: FakeDiscord) -> None:
    bot.slow_delay = 0.15
    it = await fake_discord.slash("slow")
    await it.wait_for(lambda r: r.status == 404)
    assert not it.acknowledged and fake_discord.take_failures("late_ack")
    await asyncio.sleep(0.01)
    assert bot.errors == [10062]
    with pytest.raises(FakeDiscordTimeout):
        await it.wait_ack(timeout=0.05)


async def test_token_expires_after_fifteen_minutes(bot: SmokeBot, fake_discord: FakeDiscord) -> None:
    it = await fake_discord.slash("board")
    await it.wait_message()
    assert bot.last_interaction is not None
    await bot.last_interaction.edit_original_response(content="edited in time")
    assert it.original is not None and it.original.content == "edited in time"
    fake_discord.clock.advance(15 * 60 + 1)
    with pytest.raises(discord.HTTPException) as info:
        await bot.last_interaction.edit_original_response(content="too late")
    assert info.value.code == 50027
    assert [f.kind for f in fake_discord.take_failures()] == ["expired_token"]


async def test_unknown_route_is_a_failure(bot: SmokeBot, fake_discord: FakeDiscord) -> None:
    with pytest.raises(discord.NotFound):
        await bot.http.request(discord.http.Route("GET", "/no/such/route"))
    with pytest.raises(AssertionError, match="unknown_route"):
        fake_discord.assert_no_failures()
    [failure] = fake_discord.take_failures("unknown_route")
    assert failure.request is not None and failure.request.path == "/no/such/route"


async def test_rate_limit_is_retried_and_threads_work(bot: SmokeBot, fake_discord: FakeDiscord) -> None:
    channel = bot.get_channel(fake_discord.general.id)
    assert isinstance(channel, discord.TextChannel)
    fake_discord.fail_next("POST", "/channels/*/messages", status=429, retry_after=0.01)
    sent = await channel.send("hello")
    posts = fake_discord.find_requests("POST", "/channels/*/messages")
    assert [(r.status, r.injected) for r in posts] == [(429, True), (200, False)]
    assert fake_discord.message(sent.id).content == "hello"

    thread = await channel.create_thread(name="game-1", type=discord.ChannelType.public_thread)
    await thread.add_user(discord.Object(fake_discord.alice.id))
    await thread.send("your turn")
    await fake_discord.wait_for_request(lambda r: r.method == "PUT" and "thread-members" in r.path)
    [fake_thread] = fake_discord.threads
    assert fake_thread.type == 11 and fake_discord.alice.id in fake_thread.members
    assert fake_discord.last_message(fake_thread).content == "your turn"
    for _ in range(20):  # THREAD_CREATE reached the client's cache
        if bot.get_channel(thread.id) is not None:
            break
        await asyncio.sleep(0.01)
    assert isinstance(bot.get_channel(thread.id), discord.Thread)
    starter = await channel.send("game 2")
    thread2 = await starter.create_thread(name="game-2")
    assert thread2.id == starter.id


async def test_invalid_form_body(bot: SmokeBot, fake_discord: FakeDiscord) -> None:
    channel = bot.get_channel(fake_discord.general.id)
    assert isinstance(channel, discord.TextChannel)
    with pytest.raises(discord.HTTPException) as info:
        await channel.send("x" * 2001)
    assert info.value.code == 50035
    assert [f.kind for f in fake_discord.take_failures()] == ["invalid_form_body"]


async def test_modal_dm_thread_interaction_and_user_message(bot: SmokeBot, fake_discord: FakeDiscord) -> None:
    opener = await fake_discord.slash("name")
    modal = await opener.wait_modal()
    assert modal["title"] == "Name your railway" and opener.ack_type == 9
    submitted = await fake_discord.submit_modal(opener, {"smoke:railway": "Orient Express"})
    assert (await submitted.wait_message()).content == "railway=Orient Express"

    it = await fake_discord.slash("dm", user=fake_discord.carol)
    reply = await it.wait_message()
    assert reply.ephemeral and reply.content == "sent you a DM"
    assert [(r.requested_ephemeral, r.ephemeral) for r in it.requests if r.carries_message] == [(True, True)]
    dm = fake_discord.dm_channel(fake_discord.carol)
    assert [m.content for m in fake_discord.messages_in(dm)] == ["psst: your tickets"]
    in_dm = await fake_discord.slash("hand", user=fake_discord.carol, channel=dm)
    assert (await in_dm.wait_message()).channel_id == dm.id and "guild_id" not in in_dm.payload

    channel = bot.get_channel(fake_discord.general.id)
    assert isinstance(channel, discord.TextChannel)
    thread = await channel.create_thread(name="game-3", type=discord.ChannelType.public_thread)
    it = await fake_discord.slash("hand", channel=fake_discord.channels[thread.id])
    assert (await it.wait_message()).channel_id == thread.id

    seen: list[str] = []

    async def on_message(message: discord.Message) -> None:
        seen.append(message.content)

    bot.add_listener(on_message)
    await fake_discord.user_message(fake_discord.general, fake_discord.bob, "hello bot")
    for _ in range(20):
        if "hello bot" in seen:
            break
        await asyncio.sleep(0.01)
    assert "hello bot" in seen


async def test_exception_in_handler_is_a_failure(bot: SmokeBot, fake_discord: FakeDiscord) -> None:
    it = await fake_discord.slash("crash")
    for _ in range(50):
        if fake_discord.failures:
            break
        await asyncio.sleep(0.01)
    [failure] = fake_discord.take_failures("client_error")
    assert "boom" in failure.detail and not it.acknowledged


async def test_forged_click_wait_until_and_settle(bot: SmokeBot, fake_discord: FakeDiscord) -> None:
    msg = await (await fake_discord.slash("counter")).wait_message()
    forged = await fake_discord.forge_component(msg, "smoke:count:7")
    assert forged.payload["message"]["components"][0]["components"][0]["custom_id"] == "smoke:count:7"
    await fake_discord.wait_until(lambda: msg.content == "count=8", what="count=8")
    await fake_discord.settle()
    with pytest.raises(LookupError):
        await fake_discord.click(msg, "smoke:count:7")
    with pytest.raises(FakeDiscordTimeout):
        await fake_discord.wait_until(lambda: False, timeout=0.1)
