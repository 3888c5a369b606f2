"""Record the golden games: ``python tests/rules/firstclass/record_golden.py`` (from the repository root).

Writes ``data/golden_games.json``: whole seeded games under several configs (player counts,
modules, every rule setting that changes play), each step pinned byte for byte: the acting seat
and action, every seat's legal actions, every seat's and a spectator's view, the events, and the
refusal (code and sentence) of a fixed list of probe actions that are not legal then; at the end
the exact ``to_json`` text and the final scores. Recorded from the engine before it was split into
modules (deck, draft, effect ops, scoring, view); ``test_fc_golden.py`` checks that the engine
still plays these games identically. Re-record only when a change is meant to change what they show.
The first five games deal the first edition of the open deck (``open_deck`` = 1) and are the games
recorded before the split, unchanged; the sixth deals the second edition (module O with contracts),
the seventh the third (two Game End cards one point lower).
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT))

from rules.errors import IllegalAction  # noqa: E402
from rules.firstclass.actions import Action, parse_action  # noqa: E402
from rules.firstclass.ai import HeuristicAI, RandomAI  # noqa: E402
from rules.firstclass.game import FirstClassGame  # noqa: E402

OUT = Path(__file__).parent / "data" / "golden_games.json"
# (seed, players, config, AIs: "random", "heuristic" or "mixed")
GAMES: tuple[tuple[int, int, dict[str, Any], str], ...] = (
    # the first edition of the open deck, recorded before the engine's split
    (3, 2, {"open_deck": 1}, "random"),
    (
        11,
        3,
        {"car_supply": "limited", "game_end_typing": "kind", "conductor_start": 1, "open_deck": 1},
        "mixed",
    ),
    (
        17,
        4,
        {"modules": ["O", "A"], "buy_game_end_in_scoring": False, "start_player": 2, "open_deck": 1},
        "heuristic",
    ),
    (29, 2, {"game_end_typing": "kind", "open_deck": 1}, "heuristic"),
    (41, 4, {"car_supply": "limited", "open_deck": 1}, "random"),
    # the second edition (module O with contracts), recorded when it was added
    (5, 3, {"open_deck": 2}, "heuristic"),
    # the third edition (two Game End cards one point lower), recorded when it was added
    (7, 2, {}, "heuristic"),
)
# Texts tried at every step when not legal: each kind of action, in and out of turn.
PROBES = (
    "draft 1",
    "draft 9",
    "take X1-01",
    "forgo X2-05",
    "start",
    "car upper",
    "car lower",
    "up upper 1",
    "up lower 2",
    "up upper 7",
    "cond upper",
    "cond lower",
    "choose 1",
    "choose 3",
    "mail 1",
    "mail 4",
    "ge G01",
    "skip",
    "end",
    "bonus 1",
    "bonus 4",
    "done",
    "spend car upper",
    "spend move loco",
    "spend move lower",
    "spend up upper 2",
    "spend point 1",
    "spend point 3",
    "buy G02 1 1 1 1",
    "buy G03 1 2 3 3",
    "fulfil A1-01",
)


def text(obj: Any) -> str:
    """The exact JSON text (key order kept: byte for byte, not just equal)."""
    return json.dumps(obj, ensure_ascii=False)


def digest(obj: Any) -> str:
    return hashlib.sha256(text(obj).encode()).hexdigest()[:20]


def make_ais(seed: int, players: int, mix: str) -> list[RandomAI | HeuristicAI]:
    out: list[RandomAI | HeuristicAI] = []
    for i in range(players):
        heuristic = mix == "heuristic" or (mix == "mixed" and i % 2 == 1)
        out.append(HeuristicAI(seed * 10 + i) if heuristic else RandomAI(seed * 10 + i))
    return out


def refusals(g: FirstClassGame) -> list[Any]:
    """What each probe not legal now does, for the acting seat and for the next seat."""
    acting = g.seats_to_act()[0]
    before = text(g.s.to_json())  # the card data (the deck) is immutable
    out: list[Any] = []
    for seat in (acting, (acting + 1) % g.players):
        legal = {a.to_text() for a in g.legal_actions(seat)}
        for probe in PROBES:
            action: Action = parse_action(probe)
            if action.to_text() in legal:
                continue
            trial = g.copy()
            try:
                events = trial.apply(seat, action)
            except IllegalAction as exc:
                out.append([seat, probe, exc.code, exc.message, exc.params])
                if text(trial.s.to_json()) != before:
                    out.append([seat, probe, "refusal changed the game"])
            else:
                out.append([seat, probe, "accepted", digest(events)])
    return out


def step_record(g: FirstClassGame, seat: int, action: Action, events: list[dict[str, Any]]) -> dict[str, Any]:
    views = [g.view(None)] + [g.view(i) for i in range(g.players)]
    legal = [[a.to_text() for a in g.legal_actions(i)] for i in range(g.players)]
    return {
        "seat": seat,
        "action": action.to_text(),
        "events": digest(events),
        "views": digest(views),
        "legal": digest([g.seats_to_act(), legal]),
        "refusals": digest(refusals(g)) if not g.is_over() else "",
    }


def play(seed: int, players: int, config: dict[str, Any], mix: str) -> dict[str, Any]:
    g = FirstClassGame.new(config, players, seed)
    ais = make_ais(seed, players, mix)
    start = {
        "json": digest(g.to_json()),
        "views": digest([g.view(None)] + [g.view(i) for i in range(players)]),
        "refusals": digest(refusals(g)),
    }
    steps = []
    while not g.is_over():
        seat = g.seats_to_act()[0]
        action = ais[seat].choose(g, seat)
        events = g.apply(seat, action)
        steps.append(step_record(g, seat, action, events))
    return {
        "seed": seed,
        "players": players,
        "config": config,
        "ai": mix,
        "start": start,
        "steps": steps,
        "final_json": text(g.to_json()),
        "final_scores": text(g.final_scores()),
    }


def main() -> None:
    games = [play(*spec) for spec in GAMES]
    OUT.write_text(json.dumps({"games": games}, separators=(",", ":")))
    print(f"wrote {OUT} ({sum(len(g['steps']) for g in games)} steps)")


if __name__ == "__main__":
    main()
