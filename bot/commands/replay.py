"""``conductor replay``: an animated GIF of a whole Ticket to Ride game, one frame per claim.

Either plays a seeded AI game (``--map --players --seed``) or replays an exported game
(``--from export.json``: ``{"game": "ttr", "config": {...}, "players": n, "seed": s,
"actions": [[seat, action_text], ...]}``) through the rules engine, collecting spectator views.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from lang import N_, _, _n, text_of
from lang.refusals import refusal_of
from rules.errors import IllegalAction

NAME = "replay"
HELP = N_("Write an animated GIF of a Ticket to Ride game (a seeded AI game, or an exported one).")


def views_from_export(export: dict[str, Any]) -> list[dict[str, Any]]:
    """Re-apply an exported action log and return the spectator view after every action."""
    from bot.games.api import find_front_end as front_end
    from rules.games import find_game

    spec = find_game(str(export.get("game", "")))  # an export names its game; none: refused by name
    if front_end(spec.name).replay is None:
        raise ValueError(_("replay has no animation for {game} games", game=spec.title))
    game = spec.new(dict(export.get("config") or {}), int(export["players"]), int(export["seed"]))
    views: list[dict[str, Any]] = [dict(game.view(None))]
    from rules import takeback

    entries = export.get("actions") or []
    # a take-back entry cancels the move before it: the animation shows the moves that stand
    kept = takeback.effective(list(enumerate(entries)), lambda e: takeback.is_take_back(str(e[1][1])))
    for i, entry in kept:
        seat, text = int(entry[0]), str(entry[1])
        try:
            game.apply(seat, spec.parse_action(text))
        except Exception as exc:
            said = text_of(refusal_of(exc)) if isinstance(exc, IllegalAction) else str(exc)
            raise ValueError(
                _(
                    "action {number} ({seat}: {action}) was rejected: {reason}",
                    number=i + 1,
                    seat=seat,
                    action=repr(text),
                    reason=said,
                )
            ) from exc
        views.append(dict(game.view(None)))
    return views


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--map", default="europe", help=_("usa, europe, switzerland or germany (Märklin)"))
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--ai", choices=("heuristic", "random"), default="heuristic")
    parser.add_argument("--from", dest="source", default=None, help=_("an exported game (JSON) to replay"))
    parser.add_argument("--names", default=None, help=_("comma-separated player names"))
    parser.add_argument("--width", type=int, default=720, help=_("map width of each frame in pixels"))
    parser.add_argument("--frame-ms", type=int, default=500)
    parser.add_argument("--out", default="game.gif")


def run(args: argparse.Namespace) -> int:
    from bot.commands.render import in_reader_language, play_ai_game
    from render.ttr import render_replay, replay_frame_count

    names = [n.strip() for n in args.names.split(",")] if args.names else None
    try:
        if args.source:
            export = json.loads(Path(args.source).read_text(encoding="utf-8"))
            views = views_from_export(export)
            if names is None and isinstance(export.get("names"), list):
                names = [str(n) for n in export["names"]]
        else:
            _game, views = play_ai_game(args.map, args.players, args.seed, None, ai=args.ai, collect=True)
    except IllegalAction as exc:  # a bad board or player count
        print(f"conductor replay: {text_of(refusal_of(exc))}", file=sys.stderr)
        return 2
    except Exception as exc:  # noqa: BLE001 - a file that cannot be read or is not an export: its text is data
        print(f"conductor replay: {exc}", file=sys.stderr)
        return 2
    data = render_replay(
        [in_reader_language(view) for view in views], names, width=args.width, frame_ms=args.frame_ms
    )
    Path(args.out).write_bytes(data)
    print(
        _n(
            "wrote {path} ({size} KB, {n} frames)",
            "wrote {path} ({size} KB, {n} frames)",
            replay_frame_count(data),
            path=args.out,
            size=len(data) // 1024,
        )
    )
    return 0
