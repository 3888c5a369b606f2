"""Ticket to Ride facts for front ends: the boards on offer, seat counts and the rules summary.

Read from the board data (``board.toml`` and its CSVs), so a new board folder appears here with
no code change.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules.errors import IllegalAction
from rules.protocol import BoardChoice
from rules.ttr.board import BOARD_IDS, BoardDataError, load_board


def _board(config: Mapping[str, Any]) -> Any:
    try:
        return load_board(str(config.get("board", "usa")), config.get("variant"), config.get("ticket_deck"))
    except BoardDataError as exc:
        raise IllegalAction("bad_config", str(exc)) from None


def board_choices() -> list[BoardChoice]:
    """Every board, with its display name, seat range and variants."""
    out = []
    for board_id in BOARD_IDS:
        board = load_board(board_id)
        lo, hi = board.rules["players"]
        out.append(BoardChoice(board.id, board.name, int(lo), int(hi), tuple(board.rules.get("variants", {}))))
    return out


def player_range(config: Mapping[str, Any]) -> tuple[int, int]:
    """Allowed seat counts for the config's board (and variant)."""
    lo, hi = _board(config).rules["players"]
    return int(lo), int(hi)


def rules_summary(config: Mapping[str, Any]) -> list[str]:
    """The board's rule flags in plain lines, and which of its data is a stand-in or provisional."""
    board = _board(config)
    r = board.rules
    lines = [f"{board.name} ({r.get('edition', board.name)}), {r['players'][0]}-{r['players'][1]} players"]
    lines.append(f"Trains per player: {r.get('trains')}; stations: {r.get('stations', 0)}")
    if r.get("passengers"):
        lines.append(f"Passengers per player: {r['passengers']}")
    lines.append("Route points: " + ", ".join(f"{k}→{v}" for k, v in r.get("route_points", {}).items()))
    if r.get("double_routes_min_players"):
        lines.append(f"Double routes usable by two players from {r['double_routes_min_players']} players")
    if r.get("longest_path_bonus"):
        lines.append(f"Longest path bonus: {r['longest_path_bonus']}")
    if r.get("most_tickets_bonus"):
        lines.append(f"Most tickets bonus: {r['most_tickets_bonus']}")
    if r.get("locomotives"):
        lines.append(f"Locomotives: {r['locomotives']}")
    if board.variant:
        lines.append(f"Variant: {board.variant}: {r.get('variant_description', '')}")
    elif r.get("variants"):
        lines.append("Variants: " + "; ".join(f"{k}: {v}" for k, v in r["variants"].items()))
    if r.get("ticket_deck_is_standin"):
        lines.append(f"⚠ {r.get('ticket_deck_label')}")
    provisional = sorted(c for c, (_, _, status) in board.merchandise.items() if status != "verified")
    if provisional:
        lines.append(f"⚠ Provisional merchandise values at: {', '.join(provisional)}")
    return lines


def public_scores(detail: Mapping[str, Any]) -> list[int]:
    """Every seat's score as the board shows it (route points and public bonuses)."""
    return [int(s["score"]) for s in detail["seats"]]


def private_part(detail: Mapping[str, Any]) -> Any:
    """The viewer's hand, tickets and ticket offer."""
    return detail.get("you")


def secret_tokens(detail: Mapping[str, Any]) -> set[str]:
    """The ids of the viewer's tickets and offered tickets: no one else may see them."""
    you = detail.get("you") or {}
    return {str(t["id"]) for t in [*(you.get("tickets") or []), *(you.get("offer") or [])]}
