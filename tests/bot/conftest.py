"""Fixtures for the bot tests: a fake clock, an on-disk SqliteStore and a GameService."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from bot_helpers import FakeClock

from bot.service import GameService
from bot.store.sqlite import SqliteStore


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def db_path(tmp_path: Path) -> str:
    return str(tmp_path / "conductor.db")


@pytest.fixture
async def storage(db_path: str, clock: FakeClock) -> AsyncIterator[SqliteStore]:
    st = await SqliteStore(db_path, clock=clock).open()
    try:
        yield st
    finally:
        await st.close()


@pytest.fixture
def service(storage: SqliteStore, clock: FakeClock) -> GameService:
    return GameService(storage, clock=clock, rng=random.Random(1))
