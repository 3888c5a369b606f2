"""Seeded random games reduced to one digest per decision, for comparing two builds of the engine.

``python tests/rules/engine_replay.py ROOT [--pure]`` imports ``rules`` from ROOT (with ``--pure``
always from the ``.py`` sources, even where compiled extensions sit next to them) and prints, as
one JSON object, which build it ran and, per game, a digest of the state's JSON, the legal actions
of the seat to act and the events of every action, then the final scores and every view.
"""

from __future__ import annotations

import hashlib
import json
import random
import sys
from typing import Any

# (board, players, seeds): every board, with enough games to meet tunnels, ferries, stations,
# passengers and the end of the decks.
GAMES: tuple[tuple[str, int, tuple[int, ...]], ...] = (
    ("usa", 4, (0, 1, 2)),
    ("usa", 2, (3,)),
    ("europe", 5, (4, 5)),
    ("switzerland", 3, (6, 7)),
    ("germany", 4, (8, 9)),
)


def _digest(obj: Any) -> str:
    return hashlib.sha256(json.dumps(obj, ensure_ascii=False, sort_keys=True).encode()).hexdigest()[:24]


def replay() -> dict[str, Any]:
    from rules.games import new_game

    games: dict[str, list[str]] = {}
    for board, players, seeds in GAMES:
        for seed in seeds:
            game = new_game("ttr", {"board": board}, players, seed)
            rng = random.Random(seed)
            steps = [_digest(game.to_json())]
            while not game.is_over():
                seat = game.seats_to_act()[0]
                legal = game.legal_actions(seat)
                action = rng.choice(legal)
                events = game.apply(seat, action)
                copy = game.copy()
                steps.append(
                    _digest(
                        [
                            [a.to_text() for a in legal],
                            events,
                            game.to_json(),
                            copy.to_json() == game.to_json(),
                        ]
                    )
                )
            steps.append(
                _digest([game.final_scores(), [game.view(s) for s in range(players)], game.view(None)])
            )
            games[f"{board}-{players}p-{seed}"] = steps
    return games


def main() -> None:
    root, pure = sys.argv[1], "--pure" in sys.argv[2:]
    sys.path.insert(0, root)
    if pure:
        from rules.pure_sources import SourceFirst

        sys.meta_path.insert(0, SourceFirst())
    import rules.ttr.game as engine
    import rules.ttr.movegen as movegen

    files = [engine.__file__ or "", movegen.__file__ or ""]
    print(
        json.dumps({"compiled": not any(f.endswith(".py") for f in files), "files": files, "games": replay()})
    )


if __name__ == "__main__":
    main()
