"""Check that a game's record agrees with itself.

A game is stored three ways that must agree: the ``games`` row (config, seed, players, status and
``seq``, the number of the last move), the action log (``actions`` rows 1…seq) and the snapshot
of the full state after the last move. :func:`check_game` rebuilds the state from config and seed
by replaying the log and compares it with the snapshot, so a damaged or hand-edited record is
found before anyone plays on it (a stale ``seq``, for instance, makes every later move answer
"That was already played" forever).

The row and its log are read in one consistent read (:meth:`~bot.store.api.GameStore.game_record`),
so a check made while the bot is committing moves (``conductor doctor`` on a live database) sees
one moment of the game.
"""

from __future__ import annotations

import json
from typing import Any

from bot.store.api import GameStore
from bot.store.rows import ACTIVE, LOBBY, OVER, LoggedAction, RecordUnreadable
from lang import M, Msg
from lang.refusals import refusal_of
from rules import games as rules_games
from rules import takeback
from rules.errors import IllegalAction
from rules.games import find_game


async def check_game(storage: GameStore, game_id: int) -> str | None:
    """Why game ``game_id``'s record is inconsistent, as an English sentence for the record (the
    reason the bot stores when it stops a game); None if it is sound. See :func:`explain_game`."""
    reason = await explain_game(storage, game_id)
    return None if reason is None else str(reason)


async def explain_game(storage: GameStore, game_id: int) -> Msg | None:
    """Why game ``game_id``'s record is inconsistent, as a sentence for an admin, worded for
    whoever reads it (``conductor doctor``); None if it is sound.

    Finds: a row that cannot be read (config, snapshot or an action that is not JSON), a stored
    move number (``games.seq``) that is not the last move of the log, a log with gaps, an action
    whose text and JSON forms disagree or that the rules refuse on replay, and a snapshot (even a
    well-formed one) that differs from replaying the log from config and seed. The reason names
    where the record disagrees, never a hidden value (a hand, a ticket).
    """
    try:
        record = await storage.game_record(game_id)
    except RecordUnreadable as exc:
        return M("its row or action log cannot be read (SQLite: {error}).", error=str(exc))
    if record is None:
        return M("there is no game #{game}.", game=game_id)
    try:
        return _check_record(
            record.game_name,
            record.config,
            record.players,
            record.seed,
            record.status,
            record.snapshot,
            record.seq,
            record.seat_count,
            record.log,
        )
    except Exception as exc:  # noqa: BLE001 - any failure of the rules on this record is a finding, not a crash
        return M("replaying its record fails: {error}", error=f"{type(exc).__name__}: {exc}")


def _check_record(
    name: str,
    config_text: Any,
    players: Any,
    seed: Any,
    status: str,
    snapshot_text: Any,
    seq: Any,
    seat_count: int,
    log: tuple[LoggedAction, ...],
) -> Msg | None:
    config = _json_object(config_text)
    if config is None:
        return M("its config is not readable JSON.")
    if not isinstance(players, int) or not isinstance(seed, int) or not isinstance(seq, int):
        return M("its players, seed or move number is not a whole number.")
    seqs = [entry.seq for entry in log]
    if seqs != list(range(1, len(seqs) + 1)):
        missing = sorted(set(range(1, max(seqs) + 1)) - set(seqs))
        return M("its action log has gaps (moves {moves} are missing).", moves=_numbers(missing))
    if seq != len(log):
        return M(
            "its stored move number is {seq} but its action log ends at move {last}.", seq=seq, last=len(log)
        )
    if snapshot_text is None:
        if log:
            return M("it has {moves} moves but no saved state.", moves=len(log))
        if status in (ACTIVE, OVER):
            return M("it is {status} but has no saved state.", status=status)
        return None  # a lobby, or a game aborted (or marked broken) before it started
    snapshot = _json_object(snapshot_text)
    if snapshot is None:
        return M("its saved state is not readable JSON.")
    if status == LOBBY:
        return M("it is still in its lobby but has a saved state.")
    if seat_count != players:
        return M("it has {seats} seats for {players} players.", seats=seat_count, players=players)
    try:
        spec = find_game(name)
        game = (
            spec.replay_start(config, players, seed, snapshot)
            if spec.replay_start is not None
            else spec.new(config, players, seed)
        )
    except IllegalAction as exc:
        return M("its config does not make a game: {reason}", reason=refusal_of(exc))
    except (KeyError, ValueError, TypeError) as exc:
        return M("its saved state does not say how it started ({error}).", error=type(exc).__name__)
    if spec.replay_copy is not None:  # e.g. without First Class's undo copy: twice as fast
        game = spec.replay_copy(game)
    # a take-back entry cancels the move before it (rules/takeback.py): the moves that stand replay
    standing = takeback.effective(log, lambda e: takeback.is_take_back(_json_object(e.action_json)))
    for move, seat, text, action_text in ((e.seq, e.seat, e.text, e.action_json) for e in standing):
        action_obj = _json_object(action_text)
        if action_obj is None:
            return M("move {move} is not readable JSON.", move=move)
        try:
            action = rules_games.action_from_json(name, action_obj)
            if rules_games.parse_action(name, str(text)) != action:
                return M(
                    "move {move} is written {text} but its JSON form says {json}.",
                    move=move,
                    text=repr(str(text)[:80]),
                    json=repr(action.to_text()[:80]),
                )
            game.apply(int(seat), action)
        except IllegalAction as exc:
            return M(
                "move {move} (seat {seat}) is refused when the log is replayed: {reason}",
                move=move,
                seat=seat,
                reason=refusal_of(exc),
            )
    replayed = json.loads(json.dumps(game.to_json()))
    where = _first_difference(replayed, snapshot)
    if where is not None:
        return M(
            "its saved state differs from a replay of its {moves} moves (at {where}).",
            moves=len(log),
            where=where,
        )
    over = bool(game.is_over())
    if status == OVER and not over or status == ACTIVE and over:
        if over:
            return M("its status is {status} but the replayed game is over.", status=repr(status))
        return M("its status is {status} but the replayed game is not over.", status=repr(status))
    return None


def _json_object(text: Any) -> dict[str, Any] | None:
    """``text`` decoded as a JSON object, or None if it is not one."""
    if not isinstance(text, str):
        return None
    try:
        value = json.loads(text)
    except ValueError:
        return None
    return value if isinstance(value, dict) else None


def _numbers(values: list[int]) -> Msg | str:
    shown = ", ".join(str(v) for v in values[:5])
    return M("{numbers} and {n} more", numbers=shown, n=len(values) - 5) if len(values) > 5 else shown


def _first_difference(expected: Any, actual: Any, path: str = "snapshot") -> str | None:
    """The path (``snapshot.hands[2]``) of the first place ``actual`` differs from ``expected``."""
    if isinstance(expected, dict) and isinstance(actual, dict):
        for key in sorted(set(expected) | set(actual), key=str):
            if key not in expected or key not in actual:
                return f"{path}.{key}"
            found = _first_difference(expected[key], actual[key], f"{path}.{key}")
            if found is not None:
                return found
        return None
    if isinstance(expected, list) and isinstance(actual, list):
        if len(expected) != len(actual):
            return path
        for i, (e, a) in enumerate(zip(expected, actual, strict=True)):
            found = _first_difference(e, a, f"{path}[{i}]")
            if found is not None:
                return found
        return None
    return None if expected == actual and type(expected) is type(actual) else path
