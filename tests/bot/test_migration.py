"""A database written by the release before the front-end neutral core opens and plays on.

``fixtures/schema1.db`` was made by main at c26a4c5 (schema version 1, Discord integer ids in the
core tables) with the script beside it: a lobby, a Europe game 45 moves in (two people and an AI,
with a thread and a posted board), a First Class game 6 moves in on another server, and a
finished Switzerland game.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from bot.discord_app.store import DiscordStore, Route
from bot.service import GameService
from bot.storage import ACTIVE, LOBBY, OVER, SCHEMA_VERSION, Storage
from rules.games import find_game

FIXTURE = Path(__file__).parent / "fixtures" / "schema1.db"


@pytest.fixture
def old_db(tmp_path: Path) -> str:
    path = tmp_path / "old.db"
    shutil.copy(FIXTURE, path)
    return str(path)


async def test_schema1_database_migrates_and_every_game_stays_playable(old_db: str) -> None:
    async with Storage(old_db) as st:
        assert await st.schema_version() == SCHEMA_VERSION
        service = GameService(st)
        ok, broken = await service.resume_all()
        assert broken == [] and set(ok) == {1, 2, 3}
        # players became references; the Discord routing moved to the adapter's table
        lobby = await service.game_row(1)
        assert lobby.status == LOBBY and [s.player for s in lobby.seats] == ["discord:101", "discord:102"]
        assert lobby.space == "discord:guild:5001" and lobby.creator == "discord:101"
        store = DiscordStore(st)
        assert await store.route(2) == Route(5001, 6001, 7001)
        assert await store.games_in_channel(7001) == [2]
        assert (await store.latest_message(2)) is not None
        # the Europe game goes on from where it was, for its own players, from its own server
        europe = await service.game_row(2)
        assert europe.status == ACTIVE and europe.seq == 45
        loaded = await service.load(2)
        assert loaded.game is not None
        seat = loaded.game.seats_to_act()[0]
        player = europe.seats[seat].player
        assert player is not None
        action = (await service.legal_actions(2, player))[0]
        out = await service.act(2, player, action, where="discord:guild:5001")
        assert out.seq > 45
        # the First Class game too, and the finished game still replays from its log
        fc = await service.load(3)
        assert fc.game is not None and fc.row.game_name == "first-class"
        fc_seat = fc.game.seats_to_act()[0]
        fc_player = fc.row.seats[fc_seat].player
        assert fc_player is not None
        out = await service.act(
            3, fc_player, (await service.legal_actions(3, fc_player))[0], where="discord:guild:5002"
        )
        assert out.seq > 6
        export = await st.export_game(4)
        assert export["status"] == OVER
        spec = find_game(export["game"])
        replay = spec.new(export["config"], export["players"], export["seed"])
        for seat_no, text in export["actions"]:
            replay.apply(seat_no, spec.parse_action(text))
        assert replay.to_json() == (await st.get_game(4)).snapshot


async def test_migration_numbers_old_games_per_server_in_creation_order(old_db: str) -> None:
    """Schema 8: games of the old database get numbers counted per server, oldest first, and new
    games continue each server's count."""
    async with Storage(old_db) as st:
        numbers = {
            gid: ((await st.get_game(gid)).space, (await st.get_game(gid)).number) for gid in (1, 2, 3, 4)
        }
        assert numbers == {
            1: ("discord:guild:5001", 1),
            2: ("discord:guild:5001", 2),
            3: ("discord:guild:5002", 1),
            4: ("discord:guild:5002", 2),
        }
        service = GameService(st)
        assert await service.game_numbered(2, None, "discord:guild:5002") == 4
        fresh = await service.create_game(creator="discord:101", creator_name="a", space="discord:guild:5001")
        assert fresh.number == 3
        elsewhere = await service.create_game(
            creator="discord:101", creator_name="a", space="discord:guild:9"
        )
        assert elsewhere.number == 1
