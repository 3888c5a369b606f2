"""Take-backs in the engines (issue 31): every kind of move of each game classified as one that can
or cannot be taken back, with the reason, and a log with take-backs replaying exactly."""

from __future__ import annotations

import random
from collections import defaultdict

import pytest

from rules import takeback
from rules.games import find_game, new_game
from rules.protocol import Action, Game

CASES = [
    ("ttr", {"board": "usa"}, 2),
    ("ttr", {"board": "europe"}, 3),
    ("ttr", {"board": "switzerland"}, 3),
    ("ttr", {"board": "germany"}, 2),
    ("first-class", {}, 2),
]


def _play(
    name: str, config: dict[str, object], players: int, seed: int
) -> tuple[dict[str, set[str | None]], Game, list[tuple[int, Action | takeback.TakeBack]]]:
    """A random game in which every move that can be taken back is, once in three times, taken
    back and then played differently: the reasons seen per kind, the live game and its log."""
    spec = find_game(name)
    rng = random.Random(seed)
    game = new_game(name, config, players, seed)
    log: list[tuple[int, Action | takeback.TakeBack]] = []
    seen: dict[str, set[str | None]] = defaultdict(set)
    for _ in range(2500):
        if game.is_over():
            break
        seat = game.seats_to_act()[0]
        legal = [a for a in game.legal_actions(seat) if a.kind not in spec.timeout_only_kinds]
        action = rng.choice(legal)
        reason = takeback.classify(spec.take_back, game, seat, action)
        seen[action.kind].add(reason)
        before = game.copy()
        game.apply(seat, action)
        log.append((seat, action))
        if reason is None and rng.random() < 0.33:
            log.append((seat, takeback.TakeBack()))
            game = before
    return seen, game, log


def _replay(
    name: str, config: dict[str, object], players: int, seed: int, log: list[tuple[int, str]]
) -> Game:
    """The game from its config, seed and text log, as an export replays it."""
    game = new_game(name, config, players, seed)
    for seat, text in takeback.effective(log, lambda m: takeback.is_take_back(m[1])):
        game.apply(seat, find_game(name).parse_action(text))
    return game


@pytest.mark.parametrize(("name", "config", "players"), CASES)
def test_every_kind_of_move_is_classified_and_a_log_with_take_backs_replays_exactly(
    name: str, config: dict[str, object], players: int
) -> None:
    """Rule (issue 31): a move that revealed something hidden is final; the log with its take-back
    entries replays to the live game (config + seed + actions)."""
    seen: dict[str, set[str | None]] = defaultdict(set)
    for seed in range(3):
        got, game, log = _play(name, config, players, seed)
        for kind, reasons in got.items():
            seen[kind] |= reasons
        assert any(isinstance(a, takeback.TakeBack) for _, a in log)
        replayed = _replay(name, config, players, seed, [(s, a.to_text()) for s, a in log])
        assert replayed.to_json() == game.to_json()
    for kind, reasons in seen.items():
        assert reasons <= {None, *takeback.REASONS}, (kind, reasons)
    if name == "ttr":
        assert seen["draw_deck"] == {takeback.BLIND_DRAW}
        assert seen["draw_tickets"] == {takeback.TICKETS}
        assert seen["keep_tickets"] == {takeback.TICKETS}
        assert takeback.FACE_UP_REPLACED in seen["draw_face"]
        assert None in seen["claim"]  # a claim paid from a known hand
        if "tunnel_pay" in seen or "tunnel_withdraw" in seen:
            assert seen.get("tunnel_pay", set()) | seen.get("tunnel_withdraw", set()) == {takeback.TUNNEL}
            assert takeback.TUNNEL in seen["claim"]
        if "station" in seen:
            assert seen["station"] == {None}
    else:
        assert seen["draft"] == {takeback.DRAFT}
        # within a turn: the start tile, a car, a coin spent are taken back; a turn's end that
        # deals a new row (or a Game End card turned up) is final
        for kind in ("start", "car", "end"):
            assert None in seen[kind], kind
        assert takeback.HIDDEN_CARD in set().union(*seen.values())


def test_a_game_can_turn_take_backs_off() -> None:
    """Setting (issue 31): take_backs=off in a game's (or a tournament's) config."""
    for name in ("ttr", "first-class"):
        spec = find_game(name)
        assert spec.setting(takeback.SETTING).parse("off") is False
        assert not takeback.enabled({takeback.SETTING: False})
        assert takeback.enabled({})
