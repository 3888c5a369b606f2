"""One conformance test over every registered game (OpenSpiel's ``games_sim_test`` is the model).

For each game in :data:`rules.registry.GAMES`, for each of its boards and for the smallest and
largest table, a seeded random playout checks the protocol's promises after every move:
legal actions round-trip through their text and JSON forms, the envelope is complete, no seat's
secrets reach another seat's view, the spectator view or any public text, the state survives a
JSON round trip, scores equal their breakdown at the end, and replaying the log from the seed
gives the same game. A new game gets all of this by registering.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any

import pytest

from rules.errors import IllegalAction
from rules.games import GAMES
from rules.protocol import Action, visible_to
from rules.protocol import apply as protocol_apply
from rules.registry import GameSpec, envelope

MAX_DECISIONS = 3000
ROUND_TRIP_EVERY = 25
ENVELOPE_KEYS = {
    "game",
    "viewer",
    "players",
    "to_act",
    "phase",
    "scores",
    "final",
    "last_action",
    "you",
    "detail",
}


def _cases() -> Iterator[Any]:
    for spec in GAMES.values():
        boards = [b.id for b in spec.boards()] or [None]
        for board in boards:
            config = spec.config_for(board=board)
            lo, hi = spec.player_range(config)
            for players in sorted({lo, hi}):
                yield pytest.param(spec, config, players, id=f"{spec.name}-{board or 'base'}-{players}p")


def _secrets_visible_elsewhere(spec: GameSpec, game: Any, public_texts: list[str]) -> list[str]:
    """Each seat's secret identifiers that appear in another seat's view, the spectator view or
    a public text (an empty list is the promise)."""
    views = {seat: json.dumps(game.view(seat), ensure_ascii=False) for seat in range(game.players)}
    spectator = json.dumps(game.view(None), ensure_ascii=False)
    leaks = []
    for seat in range(game.players):
        for token in spec.secret_tokens(game.view(seat)):
            elsewhere = [f"seat {o}" for o in range(game.players) if o != seat and token in views[o]]
            if token in spectator:
                elsewhere.append("spectator")
            elsewhere += [f"public text {t!r}" for t in public_texts if token in t]
            leaks += [f"seat {seat}'s {token} seen by {where}" for where in elsewhere]
    return leaks


def _scores_out_of_bounds(
    spec: GameSpec, config: dict[str, Any], players: int, totals: list[int]
) -> list[str]:
    """The final scores outside the bounds the game declares for this config and seat count
    (OpenSpiel's min_utility/max_utility); an empty list is the promise."""
    assert spec.score_bounds is not None, f"{spec.name} declares no score bounds"
    lowest, highest = spec.score_bounds(config, players)
    assert lowest <= highest, (lowest, highest)
    return [
        f"seat {seat} scored {total}, outside [{lowest}, {highest}]"
        for seat, total in enumerate(totals)
        if not lowest <= total <= highest
    ]


def test_a_score_outside_the_declared_bounds_is_reported() -> None:
    """The bounds check can fail: a score one past either bound is named, one on it is not."""
    spec = GAMES["ttr"]
    config = spec.config_for(board="usa")
    assert spec.score_bounds is not None
    lowest, highest = spec.score_bounds(config, 2)
    assert _scores_out_of_bounds(spec, config, 2, [lowest, highest]) == []
    assert _scores_out_of_bounds(spec, config, 2, [lowest - 1, highest + 1]) == [
        f"seat 0 scored {lowest - 1}, outside [{lowest}, {highest}]",
        f"seat 1 scored {highest + 1}, outside [{lowest}, {highest}]",
    ]


def test_every_registered_game_declares_score_bounds() -> None:
    """Every built-in game says how low and how high a final score can go, for each of its boards
    and seat counts (the protocol test checks every played game against them)."""
    for spec, config, players in (case.values for case in _cases()):
        assert isinstance(spec, GameSpec) and spec.score_bounds is not None, spec
        lowest, highest = spec.score_bounds(config, players)
        assert lowest <= 0 < highest, (spec.name, config, lowest, highest)


def _assert_clone_then_apply_equals_apply(game: Any, seat: int, action: Action) -> None:
    """OpenSpiel's clone invariant: a move applied to a copy gives what it gives to the game,
    and the game is untouched by what happens to its copy (the pure ``protocol.apply`` too)."""
    before = game.to_json()
    clone = game.copy()
    clone_events = clone.apply(seat, action)
    assert game.to_json() == before, "applying a move to a copy changed the original"
    pure, pure_events = protocol_apply(game, seat, action)
    assert game.to_json() == before, "protocol.apply changed the game it was given"
    assert pure.to_json() == clone.to_json() and pure_events == clone_events
    twin = game.copy()
    assert twin.apply(seat, action) == clone_events and twin.to_json() == clone.to_json()


class ForeignAction:
    """An action of no registered game: the protocol's shape, another game's move."""

    kind = "foreign"

    def to_text(self) -> str:
        return "fly to the moon"

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind}

    def public_text(self) -> str:
        return self.to_text()


def _assert_a_refused_move_changes_nothing(game: Any, seats: list[int], action: Action) -> None:
    """Another game's action, or a move by a seat that may not act now, is refused with
    IllegalAction, and the game is as it was."""
    before = game.to_json()
    with pytest.raises(IllegalAction):
        game.apply(seats[0], ForeignAction())
    assert game.to_json() == before, "a refused foreign action changed the game"
    idle = [s for s in range(game.players) if s not in seats]
    if not idle:
        return
    with pytest.raises(IllegalAction):
        game.apply(idle[0], action)
    assert game.to_json() == before, "a refused move changed the game"


def test_the_registry_holds_every_built_in_game_and_board() -> None:
    """A floor on the registry (OpenSpiel's games_sim_test keeps one): losing a game or a board
    from the registration fails here, not only in a front end."""
    assert {"ttr", "first-class"} <= set(GAMES)
    assert len(GAMES) >= 2
    boards = {b.id for b in GAMES["ttr"].boards()}
    assert {"usa", "europe", "switzerland", "germany"} <= boards


@pytest.mark.parametrize(("spec", "config", "players"), list(_cases()))
def test_every_registered_game_keeps_the_protocol(
    spec: GameSpec, config: dict[str, Any], players: int
) -> None:
    seed = 1000 + players
    game = spec.new(config, players, seed)
    rng = random.Random(seed)
    log: list[tuple[int, Action]] = []
    public_texts: list[str] = []
    for step in range(MAX_DECISIONS):
        if game.is_over():
            break
        seats = game.seats_to_act()
        assert seats, "a game that is not over has someone to act"
        seat = rng.choice(seats)
        legal = list(game.legal_actions(seat))
        assert legal, f"seat {seat} must act but has no legal action"
        for action in legal[:40]:
            assert spec.parse_action(action.to_text()) == action, action.to_text()
            assert spec.action_from_json(action.to_json()) == action
        for other in range(players):
            if other not in seats:
                assert not game.legal_actions(other), "only seats to act have legal actions"
        action = rng.choice(legal)
        if step % ROUND_TRIP_EVERY == 0:
            _assert_clone_then_apply_equals_apply(game, seat, action)
            _assert_a_refused_move_changes_nothing(game, seats, action)
        events = game.apply(seat, action)
        log.append((seat, action))
        public_texts.append(action.public_text())
        public_texts += [str(e.get("text", "")) for e in events if visible_to(e, None)]
        view = envelope(game, seat)
        assert set(view) >= ENVELOPE_KEYS and view["game"] == spec.name and view["viewer"] == seat
        assert len(view["scores"]) == players and view["to_act"] == game.seats_to_act()
        assert envelope(game, None)["you"] is None, "a spectator has no secrets"
        if not game.is_over():
            assert _secrets_visible_elsewhere(spec, game, public_texts) == []
        if step % ROUND_TRIP_EVERY == 0:
            assert spec.from_json(json.loads(json.dumps(game.to_json()))).to_json() == game.to_json()
    else:
        pytest.fail(f"the game did not end in {MAX_DECISIONS} decisions")
    assert game.seats_to_act() == [], "nobody acts in a finished game"
    for seat in range(players):
        assert list(game.legal_actions(seat)) == [], f"seat {seat} has a legal action after the end"
    last_seat, last_action = log[-1]
    finished = game.to_json()
    with pytest.raises(IllegalAction):
        game.apply(last_seat, last_action)
    assert game.to_json() == finished, "a move refused after the end changes nothing"
    final = game.final_scores()
    assert sorted(f["seat"] for f in final) == list(range(players))
    for f in final:
        assert f["total"] == sum(f["breakdown"].values()), f
    assert _scores_out_of_bounds(spec, config, players, [f["total"] for f in final]) == []
    assert spec.from_json(game.to_json()).to_json() == game.to_json()
    replay = spec.new(config, players, seed)
    for seat, action in log:
        replay.apply(seat, spec.parse_action(action.to_text()))
    assert replay.to_json() == game.to_json(), "config + seed + actions reproduce the game"


@pytest.mark.parametrize(("spec", "config", "players"), list(_cases()))
def test_an_ai_is_handed_only_what_its_seat_may_know(
    spec: GameSpec, config: dict[str, Any], players: int
) -> None:
    """``observation_copy``: the same view and legal actions for the seat, every hidden card dealt
    again (over a few deals, some other seat's secrets differ from the real ones)."""
    if spec.observation_copy is None:
        pytest.skip(f"{spec.title} declares no observation copy")
    game = spec.new(config, players, 77)
    rng = random.Random(77)
    for _ in range(40):
        if game.is_over():
            break
        seat = rng.choice(game.seats_to_act())
        game.apply(seat, rng.choice(list(game.legal_actions(seat))))
    for seat in range(players):
        differs = False
        for deal in range(5):
            copy = spec.observation_copy(game, seat, random.Random(deal))
            assert copy.view(seat) == game.view(seat) and list(copy.legal_actions(seat)) == list(
                game.legal_actions(seat)
            )
            differs |= any(
                json.dumps(copy.view(o)) != json.dumps(game.view(o)) for o in range(players) if o != seat
            )
        assert differs, "the other seats' secrets are re-dealt, not copied"


@pytest.mark.parametrize("spec", list(GAMES.values()), ids=list(GAMES))
def test_every_registered_game_refuses_garbage_with_illegal_action(spec: GameSpec) -> None:
    for text in ("", "   ", "fly to the moon", "claim", "\x00\x01", "9" * 50):
        with pytest.raises(IllegalAction):
            spec.parse_action(text)
