"""Golden-record helpers for the TTR engine: seeded games replayed action by action, reduced to
digests of every view and every event list, so a refactor can prove byte-identical behaviour.

``python tests/rules/ttr_golden.py`` (from the repository root) rewrites the fixtures in
``tests/rules/fixtures/``; they were recorded from the engine as it was before the split into
static rules, state, move generation and view (commit c26a4c5), and must not be regenerated to
make a failing comparison pass. One deliberate exception: the Märklin (germany) game digests and
snapshot continuations were re-recorded when passengers began moving route by route (a new move
shape changes the legal actions); the Märklin snapshots themselves are still the old engine's, and
still load and re-serialise unchanged. The other boards' records are untouched.
"""

from __future__ import annotations

import hashlib
import json
import random
import sys
from pathlib import Path
from typing import Any

FIXTURES = Path(__file__).parent / "fixtures"
# (board, variant, players, seeds): every board, each player-count extreme, the Swiss variant.
GOLDEN_CASES: tuple[tuple[str, str | None, int, tuple[int, ...]], ...] = (
    ("usa", None, 2, (1, 2)),
    ("usa", None, 5, (3,)),
    ("europe", None, 3, (4, 5)),
    ("europe", None, 5, (6,)),
    ("switzerland", None, 2, (7,)),
    ("switzerland", None, 3, (8, 9)),
    ("switzerland", "digital", 2, (10, 11)),
    ("germany", None, 2, (12,)),
    ("germany", None, 4, (13, 14)),
)
# Snapshot points (action counts) for the stored mid-game JSON.
SNAPSHOT_AT = (0, 7, 60, 150)


def _dumps(obj: Any) -> str:
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":"))


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def as_recorded(game: Any, rows: list[dict[str, Any]] | None) -> list[dict[str, Any]] | None:
    """Final scores as the recorded engine gave them: it laid out every seat's longest trail;
    scoring now lays out only the longest (the ones the final board highlights) and leaves the
    others' tracks empty, so they are laid out here and every other byte is still compared."""
    if rows is None:
        return None
    from rules.ttr.scoring import longest_trail, own_tracks

    out = []
    for row in rows:
        if row["longest_trail"] and not row["longest_trail_tracks"]:
            trail = longest_trail(game.board, own_tracks(game.state, row["seat"]))[1]
            row = {**row, "longest_trail_tracks": [game.board.tracks[i].id for i in trail]}
        out.append(row)
    return out


def observe(game: Any) -> str:
    """Every seat's view plus the spectator's, and the legal actions of each seat to act."""
    views = [game.view(s) for s in range(game.players)] + [game.view(None)]
    views = [{**v, "final": as_recorded(game, v["final"])} if "final" in v else v for v in views]
    legal = {s: [a.to_json() for a in game.legal_actions(s)] for s in game.seats_to_act()}
    return _dumps({"views": views, "legal": legal})


def replay(
    board: str,
    variant: str | None,
    players: int,
    seed: int,
    snapshots: dict[int, dict[str, Any]] | None = None,
    heuristic: bool = False,
) -> dict[str, Any]:
    """Play a seeded game with a uniform choice among legal actions (or, with ``heuristic``, the
    heuristic AI in every seat); return per-step digests."""
    from rules.games import new_game
    from rules.ttr.ai import HeuristicAI

    config: dict[str, Any] = {"board": board}
    if variant:
        config["variant"] = variant
    game = new_game("ttr", config, players, seed)
    rng = random.Random(f"golden:{board}:{variant}:{players}:{seed}")
    ais = [HeuristicAI(seed * 10 + s) for s in range(players)]
    running = hashlib.sha256()
    steps: list[str] = []
    n = 0
    while True:
        if snapshots is not None and n in SNAPSHOT_AT:
            snapshots[n] = game.to_json()
        observed = observe(game)
        running.update(observed.encode())
        if game.is_over():
            break
        seat = game.seats_to_act()[0]
        action = ais[seat].choose(game, seat) if heuristic else rng.choice(game.legal_actions(seat))
        events = game.apply(seat, action)
        record = _dumps({"seat": seat, "action": action.to_json(), "events": events, "json": game.to_json()})
        running.update(record.encode())
        n += 1
        if n % 25 == 0:
            steps.append(running.hexdigest())
    return {
        "actions": n,
        "every_25": steps,
        "final": running.hexdigest(),
        "scores": _digest(_dumps(as_recorded(game, game.final_scores()))),
    }


def continue_from(snapshot: dict[str, Any], seed: int, limit: int = 80) -> dict[str, Any]:
    """Load ``snapshot``, record its views and legal actions, then play ``limit`` more actions."""
    from rules.games import game_from_json

    game = game_from_json(json.loads(json.dumps(snapshot)))
    first = observe(game)
    roundtrip = _dumps(game.to_json()) == _dumps(snapshot)
    rng = random.Random(f"continue:{seed}")
    running = hashlib.sha256(first.encode())
    for _ in range(limit):
        if game.is_over():
            break
        seat = game.seats_to_act()[0]
        action = rng.choice(game.legal_actions(seat))
        events = game.apply(seat, action)
        running.update(_dumps({"events": events, "json": game.to_json()}).encode())
        running.update(observe(game).encode())
    return {"observed": _digest(first), "roundtrip": roundtrip, "continued": running.hexdigest()}


def record() -> None:
    FIXTURES.mkdir(exist_ok=True)
    games: list[dict[str, Any]] = []
    snapshots: list[dict[str, Any]] = []
    for board, variant, players, seeds in GOLDEN_CASES:
        for seed in seeds:
            taken: dict[int, dict[str, Any]] = {}
            result = replay(board, variant, players, seed, taken)
            games.append({"board": board, "variant": variant, "players": players, "seed": seed, **result})
            if seed == seeds[0]:
                for at, snap in sorted(taken.items()):
                    snapshots.append(
                        {
                            "board": board,
                            "variant": variant,
                            "at": at,
                            "snapshot": snap,
                            **continue_from(snap, seed * 100 + at),
                        }
                    )
            print(board, variant, players, seed, result["actions"], file=sys.stderr)
        result = replay(board, variant, players, seeds[0], heuristic=True)
        games.append(
            {
                "board": board,
                "variant": variant,
                "players": players,
                "seed": seeds[0],
                "heuristic": True,
                **result,
            }
        )
    (FIXTURES / "ttr_golden_games.json").write_text(json.dumps(games, indent=1) + "\n", encoding="utf-8")
    (FIXTURES / "ttr_snapshots.json").write_text(
        json.dumps(snapshots, ensure_ascii=False) + "\n", encoding="utf-8"
    )


if __name__ == "__main__":
    sys.path.insert(0, str(Path.cwd()))
    record()
