"""Fixtures for end-to-end tests that run the real discord.py client against :mod:`fakediscord`.

Fixtures
    ``fake_discord``  a started :class:`fakediscord.FakeDiscord`, with ``Route.BASE`` and
                      ``DEFAULT_GATEWAY`` patched through ``monkeypatch``; at teardown it fails the test
                      if the fake recorded failures (unknown routes, late/double acks, leaks, ...) that
                      the test did not consume with ``fake_discord.take_failures(kind)``.
                      Configure it with ``@pytest.mark.fake_discord(response_deadline=0.2)``.
    ``bot_runner``    a :class:`fakediscord.BotRunner` (``start``, ``restart``, ``close``); closes the
                      client at teardown, before the fake stops.
    ``run_bot``       shortcut for ``bot_runner.start``: ``bot = await run_bot(lambda: MyBot(...))``.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import pytest
from fakediscord import BotRunner, FakeDiscord


@pytest.fixture(scope="session", autouse=True)
def _warm_renderers() -> None:
    """Build every renderer's cached layers once per test session, before the first client must be
    ready: on a loaded machine the bot's own prewarm could otherwise outlast the ready timeout."""
    from bot.workers import prewarm_renderers_here

    prewarm_renderers_here()


def pytest_configure(config: pytest.Config) -> None:
    """Register the ``fake_discord`` marker."""
    config.addinivalue_line(
        "markers",
        "fake_discord(**kwargs): keyword arguments for FakeDiscord (response_deadline, token_lifetime)",
    )


@pytest.fixture
async def fake_discord(
    request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch
) -> AsyncIterator[FakeDiscord]:
    """A running fake Discord that the real discord.py client talks to."""
    marker = request.node.get_closest_marker("fake_discord")
    fake = FakeDiscord(**(marker.kwargs if marker else {}))
    await fake.start()
    fake.install(monkeypatch)
    try:
        yield fake
    finally:
        await fake.stop()
    fake.assert_no_failures()


@pytest.fixture
async def bot_runner(fake_discord: FakeDiscord) -> AsyncIterator[BotRunner]:
    """Starts/restarts clients against ``fake_discord`` and closes them at teardown."""
    runner = BotRunner(fake_discord)
    try:
        yield runner
    finally:
        await runner.close()


@pytest.fixture
def run_bot(bot_runner: BotRunner) -> Callable[..., Awaitable[Any]]:
    """``await run_bot(factory)`` starts a client (instance or zero-argument factory) and waits until ready."""
    return bot_runner.start
