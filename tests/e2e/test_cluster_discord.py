"""The Discord bot on a shared PostgreSQL database, and its REST requests through a shared
rate-limit proxy (docs/operations.md, "PostgreSQL"), played through the fake Discord."""

from __future__ import annotations

from collections.abc import AsyncIterator
from itertools import count
from pathlib import Path
from typing import Any

import aiohttp
import discord.http
import pytest
from aiohttp import web
from fakediscord import FakeDiscord
from test_bot_support import Table, make_bot

from bot.discord_app.api_base import use_api_base
from bot.store.pg_cluster import shared_cluster

_numbers = count()


async def _started_game(fake: FakeDiscord, bot: Any) -> Table:
    table = Table(fake, bot)
    await table.create(fake.alice, board="usa", seat_order="join")
    assert "Added an AI seat" in (await table.slash("ttr addai", fake.alice)).text()
    assert "started" in (await table.slash("ttr start", fake.alice)).text()
    return table


async def test_a_game_is_created_started_and_survives_a_restart_on_postgresql(
    fake_discord: FakeDiscord, bot_runner: Any
) -> None:
    url = shared_cluster().create_database(f"discord_{next(_numbers)}")
    bot = await bot_runner.start(lambda: make_bot(url))
    table = await _started_game(fake_discord, bot)
    row = await bot.storage.get_game(table.gid)
    assert row.status == "active" and bot.storage.path.startswith("postgresql://")
    bot = await bot_runner.restart(lambda: make_bot(url))
    again = await bot.storage.get_game(table.gid)
    assert (again.status, again.seq) == ("active", row.seq)


class CountingProxy:
    """A stand-in for a rate-limit proxy: forwards every request to the fake Discord and counts them."""

    def __init__(self, upstream: str) -> None:
        self.upstream = upstream
        self.seen: list[str] = []
        self.runner: web.AppRunner | None = None
        self.base = ""

    async def handle(self, request: web.Request) -> web.Response:
        self.seen.append(f"{request.method} {request.match_info['tail']}")
        body = await request.read()
        headers = {k: v for k, v in request.headers.items() if k.lower() not in ("host", "content-length")}
        async with (
            aiohttp.ClientSession() as session,
            session.request(
                request.method,
                f"{self.upstream}/{request.match_info['tail']}",
                params=request.query,
                data=body,
                headers=headers,
            ) as answer,
        ):
            payload = await answer.read()
            keep = {
                k: v
                for k, v in answer.headers.items()
                if k.lower() not in ("content-length", "transfer-encoding", "content-encoding")
            }
            return web.Response(status=answer.status, body=payload, headers=keep)

    async def start(self) -> None:
        app = web.Application(client_max_size=64 * 1024 * 1024)
        app.router.add_route("*", "/proxy/api/v10/{tail:.*}", self.handle)
        self.runner = web.AppRunner(app, access_log=None)
        await self.runner.setup()
        site = web.TCPSite(self.runner, "127.0.0.1", 0)
        await site.start()
        port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
        self.base = f"http://127.0.0.1:{port}/proxy/api/v10"


@pytest.fixture
async def proxy(fake_discord: FakeDiscord, monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[CountingProxy]:
    running = CountingProxy(fake_discord.api_base)
    await running.start()
    monkeypatch.setattr(discord.http.Route, "BASE", discord.http.Route.BASE)  # undone after the test
    try:
        yield running
    finally:
        assert running.runner is not None
        await running.runner.cleanup()


async def test_every_rest_request_goes_through_the_rate_limit_proxy_the_settings_name(
    fake_discord: FakeDiscord, run_bot: Any, proxy: CountingProxy, tmp_path: Path
) -> None:
    """CONDUCTOR_DISCORD_API (see bot.discord_app.api_base): every REST request of the bot (the
    interaction answers, follow-ups and posts included) reaches Discord only through the proxy."""
    assert use_api_base(proxy.base) == proxy.base
    assert use_api_base(None) == proxy.base and use_api_base("  ") == proxy.base  # unset: unchanged
    bot = await run_bot(lambda: make_bot(tmp_path / "c.db"))
    table = await _started_game(fake_discord, bot)
    assert table.gid
    assert len(proxy.seen) == len(fake_discord.requests) > 0
    assert any(seen.startswith("POST interactions/") for seen in proxy.seen)
    assert any(seen.startswith("POST webhooks/") for seen in proxy.seen)  # follow-up messages
    assert any(seen.startswith("POST channels/") for seen in proxy.seen)  # the game's thread and board
