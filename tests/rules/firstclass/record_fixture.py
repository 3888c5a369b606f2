"""Record the replay fixture: ``python tests/rules/firstclass/record_fixture.py`` (from the repository root).

Writes ``data/replay_digests.json``: for seeded games played by seeded AIs, a digest of every
(public view, seat 0's view, events) step and a few mid-game ``to_json`` snapshots. First recorded
from the dict-state engine just before the typed-state refactor (which replayed it identically), then
re-recorded once when events gained ``visible_to`` and hidden Game End sources were masked in public
texts (an intended change of every event), and once more when the open deck's values were rebalanced
(`bench/bench_fc_balance.py`: the cards the views show changed), and once more when events gained their facts (kind
and numbers, worded in each reader's language) and the view the deck's sources (``deck_sources``): the same actions,
views (but for that key), event kinds and visibility were checked step by step against the engine before, on all 716
steps of these games. ``test_fc_state_compat.py`` checks that today's engine
replays the same games to the same digests and loads the same snapshots. Re-record only when a
change is meant to change what these games show.
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT))

from rules.firstclass.ai import HeuristicAI, RandomAI  # noqa: E402
from rules.firstclass.game import FirstClassGame  # noqa: E402

OUT = Path(__file__).parent / "data" / "replay_digests.json"
GAMES = ((5, 2, "random"), (8, 3, "random"), (13, 4, "random"), (21, 2, "mixed"))
SNAPSHOT_STEPS = (7, 120, 300)


def digest(obj: Any) -> str:
    return hashlib.sha256(json.dumps(obj, sort_keys=True).encode()).hexdigest()[:16]


def ais(seed: int, players: int, mix: str) -> list[Any]:
    return [
        HeuristicAI(seed * 10 + i) if mix == "mixed" and i % 2 else RandomAI(seed * 10 + i)
        for i in range(players)
    ]


def play(seed: int, players: int, mix: str) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Each step: seat, action text and the digest of (view(None), view(0), events); and snapshots."""
    g = FirstClassGame.new({"open_deck": 1}, players, seed)
    players_ai = ais(seed, players, mix)
    steps: list[dict[str, Any]] = []
    snaps: list[dict[str, Any]] = []
    while not g.is_over():
        if len(steps) in SNAPSHOT_STEPS:
            snaps.append(
                {"step": len(steps), "snapshot": g.to_json(), "view": digest([g.view(None), g.view(0)])}
            )
        seat = g.seats_to_act()[0]
        action = players_ai[seat].choose(g, seat)
        events = g.apply(seat, action)
        steps.append(
            {"seat": seat, "action": action.to_text(), "digest": digest([g.view(None), g.view(0), events])}
        )
    return steps, snaps


def main() -> None:
    games = []
    for seed, players, mix in GAMES:
        steps, snaps = play(seed, players, mix)
        games.append({"seed": seed, "players": players, "ai": mix, "steps": steps, "snapshots": snaps})
    OUT.write_text(json.dumps({"games": games}, separators=(",", ":")))
    print(f"wrote {OUT} ({sum(len(g['steps']) for g in games)} steps)")


if __name__ == "__main__":
    main()
