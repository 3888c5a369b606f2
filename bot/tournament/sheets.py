"""The standings and a round's pairings as CSV, the spreadsheet organisers keep (issue 32).

Plain text in, plain text out (no Discord, no database): a front end attaches the file. The
columns are the standings' every tie-break column, under stable English keys a spreadsheet or a
script can rely on whatever the server's language; names are the players' display names.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Mapping, Sequence

from bot.tournament.model import GameResult
from bot.tournament.standings import Row
from bot.tournament.store import TableRow

STANDINGS_COLUMNS = (
    "position",
    "player",
    "games",
    "place_points",
    "wins",
    "wbc_ratio",
    "total_score",
    "tickets_completed",
    "head_to_head",
    "adjudicated_games",
    "ai_takeovers",
    "corrected_games",
    "dropped",
    "group",
    "final_rank",
    "cut_round",
    "player_id",
)
PAIRINGS_COLUMNS = (
    "round",
    "table",
    "board",
    "seat",
    "player",
    "game",
    "rank",
    "score",
    "result",
    "player_id",
)


def _text(rows: Sequence[Sequence[object]], head: Sequence[str]) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(head)
    writer.writerows(["" if cell is None else cell for cell in row] for row in rows)
    return out.getvalue()


def standings_csv(rows: Sequence[Row], names: Mapping[str, str]) -> str:
    """Every row of the standings with every column (WBC to 4 decimals, as the tie-break uses it)."""
    return _text(
        [
            (
                r.position,
                names.get(r.player, r.player),
                r.games,
                f"{r.place_points:g}",
                r.wins,
                f"{r.wbc_ratio:.4f}",
                r.total_score,
                r.tickets_completed,
                r.head_to_head,
                r.adjudicated_games,
                r.ai_takeovers,
                r.corrected_games,
                int(r.dropped),
                r.group,
                r.final_rank,
                r.cut_round,
                r.player,
            )
            for r in rows
        ],
        STANDINGS_COLUMNS,
    )


def pairings_csv(
    tables: Sequence[TableRow],
    names: Mapping[str, str],
    results: Sequence[GameResult],
    game_numbers: Mapping[int, int],
) -> str:
    """One line per seat of each table (seat 1 plays first), with its result once there is one:
    ``result`` is ``played``, ``adjudicated``, ``corrected`` or ``void``; ``game`` is the game's
    number in its server."""
    by_table = {(r.round, r.table): r for r in results}
    lines = []
    for t in tables:
        result = by_table.get((t.round, t.number))
        seats = {s.player: s for s in result.seats} if result is not None else {}
        if result is None:
            kind = ""
        elif result.void:
            kind = "void"
        elif result.correction_reason:
            kind = "corrected"
        else:
            kind = "adjudicated" if result.adjudicated else "played"
        for seat, player in enumerate(t.seats, 1):
            got = seats.get(player)
            lines.append(
                (
                    t.round,
                    t.number,
                    t.board,
                    seat,
                    names.get(player, player),
                    game_numbers.get(t.game_id) if t.game_id is not None else None,
                    None if got is None or (result is not None and result.void) else got.rank,
                    None if got is None or (result is not None and result.void) else got.score,
                    kind,
                    player,
                )
            )
    return _text(lines, PAIRINGS_COLUMNS)
