"""check_game: a game's row, action log and snapshot must agree (bot/integrity.py).

Each test damages one part of a real record the way a bug, a crash or a hand edit could, and
checks that the reason names it; sound records (finished, half-played, in the lobby) pass.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from record_helpers import record_game

from bot.integrity import check_game
from bot.store.sqlite import SqliteStore


async def _snapshot(storage: SqliteStore, gid: int) -> dict[str, Any]:
    async with storage.db.execute("SELECT snapshot FROM games WHERE id=?", (gid,)) as cur:
        row = await cur.fetchone()
    return dict(json.loads(row[0]))


async def _set_snapshot(storage: SqliteStore, gid: int, snapshot: dict[str, Any]) -> None:
    await storage.db.execute("UPDATE games SET snapshot=? WHERE id=?", (json.dumps(snapshot), gid))


# ---- sound records pass -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "config", "players"),
    [("ttr", {"board": "europe"}, 5), ("ttr", {"board": "germany"}, 3), ("first-class", {}, 3)],
)
async def test_a_finished_game_passes(
    storage: SqliteStore, name: str, config: dict[str, Any], players: int
) -> None:
    """Replaying the whole log from config and seed gives exactly the stored snapshot."""
    gid = await record_game(storage, name, config, players, seed=4)
    assert (await storage.get_game(gid)).status == "over"
    assert await check_game(storage, gid) is None


async def test_a_game_in_progress_and_a_lobby_pass(storage: SqliteStore) -> None:
    """A half-played game (status active) and a lobby (no snapshot, no log) are sound."""
    playing = await record_game(storage, "ttr", {"board": "usa"}, 3, seed=2, moves=25)
    lobby = await storage.create_game(
        game_name="ttr", config={"board": "usa"}, seed=9, max_players=5, space=None, creator="p:1"
    )
    assert await check_game(storage, playing) is None
    assert await check_game(storage, lobby) is None


# ---- each finding -----------------------------------------------------------------------------


async def test_a_stale_move_number_is_found(storage: SqliteStore) -> None:
    """games.seq behind the log: every later move would answer "That was already played" forever."""
    gid = await record_game(storage, "ttr", {"board": "usa"}, 2, seed=3, moves=12)
    await storage.db.execute("UPDATE games SET seq=seq-1 WHERE id=?", (gid,))
    reason = await check_game(storage, gid)
    assert reason == "its stored move number is 11 but its action log ends at move 12."


async def test_a_gap_in_the_log_is_found(storage: SqliteStore) -> None:
    gid = await record_game(storage, "ttr", {"board": "usa"}, 2, seed=3, moves=12)
    await storage.db.execute("DELETE FROM actions WHERE game_id=? AND seq=5", (gid,))
    reason = await check_game(storage, gid)
    assert reason is not None and "gaps" in reason and "5" in reason


@pytest.mark.parametrize(
    ("field", "path"), [("trains", "snapshot.trains[1]"), ("hands", "snapshot.hands[0][")]
)
async def test_a_tampered_but_well_formed_ttr_snapshot_is_found(
    storage: SqliteStore, field: str, path: str
) -> None:
    """A snapshot that still loads (one seat given a train, or a card) differs from the replay."""
    gid = await record_game(storage, "ttr", {"board": "europe"}, 3, seed=5, moves=40)
    snapshot = await _snapshot(storage, gid)
    if field == "trains":
        snapshot["trains"][1] += 1
    else:
        snapshot["hands"][0][2] += 1
    await _set_snapshot(storage, gid, snapshot)
    reason = await check_game(storage, gid)
    assert reason is not None and reason.startswith(
        "its saved state differs from a replay of its 40 moves"
    ), reason
    assert path in reason
    assert str(snapshot["hands"][0]) not in reason, "the reason names the place, not the hidden hand"


async def test_a_tampered_first_class_snapshot_is_found(storage: SqliteStore) -> None:
    gid = await record_game(storage, "first-class", {}, 2, seed=5, moves=30)
    snapshot = await _snapshot(storage, gid)
    snapshot["state"]["players"][1]["coins"][0] += 3  # three more coins in column 1
    await _set_snapshot(storage, gid, snapshot)
    reason = await check_game(storage, gid)
    assert reason is not None and "snapshot.state.players[1].coins[0]" in reason, reason


async def test_a_corrupted_action_row_is_found(storage: SqliteStore) -> None:
    """A row outside the snapshot that is not JSON (here the 3rd move's JSON form)."""
    gid = await record_game(storage, "ttr", {"board": "usa"}, 2, seed=3, moves=12)
    await storage.db.execute(
        'UPDATE actions SET action_json=\'{"kind": "dra\' WHERE game_id=? AND seq=3', (gid,)
    )
    assert await check_game(storage, gid) == "move 3 is not readable JSON."


async def test_a_corrupted_config_is_found(storage: SqliteStore) -> None:
    gid = await record_game(storage, "ttr", {"board": "usa"}, 2, seed=3, moves=4)
    await storage.db.execute("UPDATE games SET config='{\"board\": ' WHERE id=?", (gid,))
    assert await check_game(storage, gid) == "its config is not readable JSON."


async def test_an_action_whose_text_and_json_disagree_is_found(storage: SqliteStore) -> None:
    """``conductor export`` replays the text column, the bot the JSON form: they must be the same move."""
    gid = await record_game(storage, "ttr", {"board": "usa"}, 2, seed=3, moves=12)
    await storage.db.execute("UPDATE actions SET action='pass' WHERE game_id=? AND seq=7", (gid,))
    reason = await check_game(storage, gid)
    assert reason is not None and reason.startswith("move 7 is written 'pass' but its JSON form says"), reason


async def test_a_move_the_rules_refuse_on_replay_is_found(storage: SqliteStore) -> None:
    gid = await record_game(storage, "ttr", {"board": "usa"}, 2, seed=3, moves=12)
    refused = json.dumps({"kind": "draw_face", "text": "draw face 4"})
    await storage.db.execute(
        "UPDATE actions SET action='draw face 4', action_json=?, seat=1 - seat WHERE game_id=? AND seq=9",
        (refused, gid),
    )
    reason = await check_game(storage, gid)
    assert reason is not None and reason.startswith("move 9 (seat"), reason
    assert "refused when the log is replayed" in reason


async def test_a_status_that_contradicts_the_replay_is_found(storage: SqliteStore) -> None:
    gid = await record_game(storage, "ttr", {"board": "usa"}, 2, seed=3, moves=12)
    await storage.db.execute("UPDATE games SET status='over' WHERE id=?", (gid,))
    assert await check_game(storage, gid) == "its status is 'over' but the replayed game is not over."


async def test_moves_without_a_saved_state_are_found(storage: SqliteStore) -> None:
    gid = await record_game(storage, "ttr", {"board": "usa"}, 2, seed=3, moves=6)
    await storage.db.execute("UPDATE games SET snapshot=NULL WHERE id=?", (gid,))
    assert await check_game(storage, gid) == "it has 6 moves but no saved state."


async def test_an_unknown_game_is_named(storage: SqliteStore) -> None:
    assert await check_game(storage, 404) == "there is no game #404."
