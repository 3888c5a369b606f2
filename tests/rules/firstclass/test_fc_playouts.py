"""Seeded random playouts with invariants after every action, replay, secrecy of views."""

from __future__ import annotations

import json
import random

import pytest

from rules.errors import IllegalAction
from rules.firstclass.ai import HeuristicAI, RandomAI
from rules.firstclass.game import FirstClassGame
from rules.games import game_from_json, new_game, parse_action


def _hidden_ids(g: FirstClassGame, viewer: int | None) -> set[str]:
    hidden = {c for pile in g.s["piles"].values() for c in pile} | set(g.s["ge_pile"])
    for seat in range(g.players):
        if seat != viewer and not g.is_over():
            hidden |= set(g.s["players"][seat]["ge_cards"])
    if g.s["phase"] == "draft" and viewer != g.seats_to_act()[0]:
        hidden |= set(g.s["draft"]["hand"])
    return hidden


def _check_views(g: FirstClassGame) -> None:
    for viewer in [None, *range(g.players)]:
        text = json.dumps(g.view(viewer))
        leaked = [c for c in _hidden_ids(g, viewer) if f'"{c}"' in text]
        assert not leaked, f"view for {viewer} shows hidden cards {leaked}"
        assert "piles" not in g.view(viewer) and "ge_pile" not in g.view(viewer)


@pytest.mark.parametrize("seed", range(100))
def test_random_playout_invariants_and_replay(seed: int) -> None:
    players = 2 + seed % 3
    g = new_game("first-class", {}, players, seed)
    ais = [RandomAI(seed * 10 + i) if (seed + i) % 3 else HeuristicAI(seed * 10 + i) for i in range(players)]
    log: list[tuple[int, str]] = []
    steps = 0
    while not g.is_over():
        seats = g.seats_to_act()
        assert len(seats) == 1
        seat = seats[0]
        legal = g.legal_actions(seat)
        assert legal, "a seat to act always has a legal action"
        assert all(g.legal_actions(o) == [] for o in range(players) if o != seat)
        action = ais[seat].choose(g, seat)
        assert action in legal
        text = action.to_text()
        assert g.parse_action(text) == action and g.action_from_json(action.to_json()) == action
        events = g.apply(seat, action)
        assert all(isinstance(e["type"], str) and isinstance(e["text"], str) and e["text"] for e in events)
        log.append((seat, text))
        steps += 1
        for p in range(players):
            pl = g.s["players"][p]
            assert g.score(p) == sum(pl["points"].values())
            for t in ("upper", "lower"):
                cars = [v for v in pl["trains"][t] if v != -1]
                assert cars == sorted(cars, reverse=True), (
                    "a car is never worth more than the car to its left"
                )
                assert 0 <= pl["cond"][t] <= g.positions(p, t)
                assert len(pl["trains"][t]) <= 9
            assert all(0 <= n <= cap for n, cap in zip(pl["coins"], (5, 5, 2), strict=True))
        if steps % 25 == 0:
            _check_views(g)
            assert game_from_json(json.loads(json.dumps(g.to_json()))).to_json() == g.to_json()
        assert steps < 3000
    _check_views(g)
    scores = g.final_scores()
    assert all(r["total"] == sum(r["breakdown"].values()) for r in scores)
    assert any(r["winner"] for r in scores)
    again = FirstClassGame.new({}, players, seed)
    for seat, text in log:
        again.apply(seat, parse_action("first-class", text))
    assert again.to_json() == g.to_json()


def test_illegal_actions_change_nothing() -> None:
    g = FirstClassGame.new({}, 3, 4)
    rng = random.Random(4)
    tried = 0
    while not g.is_over() and tried < 400:
        seat = g.seats_to_act()[0]
        before = g.to_json()
        for text in (
            "take NOPE",
            "up upper 9",
            "spend up lower 1",
            "buy G01 3 3 3 3",
            "bonus 1",
            "end",
            "done",
            "fulfil A1-01",
            "mail 9",
            "choose 3",
            "draft 9",
        ):
            action = g.parse_action(text)
            if action in g.legal_actions(seat):
                continue
            with pytest.raises(IllegalAction):
                g.apply(seat, action)
            assert g.to_json() == before
        other = (seat + 1) % 3
        with pytest.raises(IllegalAction) as exc:
            g.apply(other, g.legal_actions(seat)[0])
        assert exc.value.code == "not_your_turn"
        g.apply(seat, rng.choice(g.legal_actions(seat)))
        tried += 1


@pytest.mark.parametrize(
    "text",
    ["", "take", "fly away", "up middle 2", "up upper two", "spend", "spend gold 1", "buy G01 1 1", "mail x"],
)
def test_malformed_actions(text: str) -> None:
    with pytest.raises(IllegalAction) as exc:
        FirstClassGame.parse_action(text)
    assert exc.value.code == "malformed_action"


def test_action_text_forms_are_stable() -> None:
    for text in [
        "draft 2",
        "take X1-01",
        "forgo X1-01",
        "start",
        "car upper",
        "up lower 3",
        "cond upper",
        "choose 2",
        "mail 1",
        "ge G05",
        "skip",
        "end",
        "bonus 4",
        "done",
        "spend car lower",
        "spend move loco",
        "spend up upper 2",
        "spend point 3",
        "buy G07 1 1 2 3",
        "fulfil A1-02",
    ]:
        a = FirstClassGame.parse_action(text)
        assert a.to_text() == text and a.to_json() == {"kind": a.kind, "text": text}


def test_bad_player_counts_and_wrong_json() -> None:
    for n in (1, 5):
        with pytest.raises(IllegalAction):
            FirstClassGame.new({}, n, 1)
    with pytest.raises(IllegalAction):
        FirstClassGame.from_json({"game_name": "ttr"})


def test_copy_is_independent() -> None:
    g = FirstClassGame.new({}, 2, 2)
    c = g.copy()
    c.apply(c.seats_to_act()[0], c.legal_actions(c.seats_to_act()[0])[0])
    assert g.s["phase"] == "draft" and g.s["draft"]["index"] == 0 and c.s["draft"]["index"] == 1


@pytest.mark.slow
def test_heuristic_beats_random_in_at_least_90_percent() -> None:
    wins = 0
    games = 30
    for seed in range(games):
        g = FirstClassGame.new({}, 2, 1000 + seed)
        h = seed % 2
        ais = {h: HeuristicAI(seed), 1 - h: RandomAI(seed)}
        while not g.is_over():
            seat = g.seats_to_act()[0]
            g.apply(seat, ais[seat].choose(g, seat))
        res = g.final_scores()
        wins += res[h]["total"] > res[1 - h]["total"]
    assert wins >= 0.9 * games
