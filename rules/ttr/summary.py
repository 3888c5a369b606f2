"""Ticket to Ride facts for front ends: the boards on offer, seat counts and the rules summary.

Read from the board data (``board.toml`` and its CSVs), so a new board folder appears here with
no code change.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules.errors import IllegalAction
from rules.protocol import BoardChoice
from rules.ttr.board import BoardDataError, board_catalog, load_board


def _board(config: Mapping[str, Any]) -> Any:
    try:
        return load_board(str(config.get("board", "usa")), config.get("variant"), config.get("ticket_deck"))
    except BoardDataError as exc:
        raise IllegalAction("bad_config", str(exc)) from None


def board_choices() -> list[BoardChoice]:
    """Every board found in the board folders, with its display name, seat range and variants."""
    return [
        BoardChoice(b.id, b.name, b.min_players, b.max_players, tuple(b.variants)) for b in board_catalog()
    ]


def player_range(config: Mapping[str, Any]) -> tuple[int, int]:
    """Allowed seat counts for the config's board (and variant)."""
    spec = _board(config).spec
    return spec.min_players, spec.max_players


def rules_summary(config: Mapping[str, Any]) -> list[str]:
    """The board's rule flags in plain lines, and which of its data is a stand-in or provisional."""
    board = _board(config)
    r = board.spec
    lines = [f"{board.name} ({r.edition or board.name}), {r.min_players}-{r.max_players} players"]
    lines.append(f"Trains per player: {r.trains}; stations: {r.stations}")
    if r.passengers:
        lines.append(f"Passengers per player: {r.passengers}")
    lines.append("Route points: " + ", ".join(f"{k}→{v}" for k, v in sorted(r.route_points.items())))
    if r.double_routes_min_players:
        lines.append(f"Double routes usable by two players from {r.double_routes_min_players} players")
    if r.longest_path_bonus:
        lines.append(f"{r.longest_path_name or 'Longest path'} bonus: {r.longest_path_bonus}")
    if r.most_tickets_bonus:
        lines.append(f"Most tickets bonus: {r.most_tickets_bonus}")
    if r.locomotives_tunnels_only:
        lines.append("Locomotives: only on tunnels")
    if board.variant:
        lines.append(f"Variant: {board.variant}: {r.variant_description}")
    elif r.variants:
        lines.append("Variants: " + "; ".join(f"{k}: {v}" for k, v in r.variants.items()))
    if r.ticket_deck_is_standin:
        lines.append(f"⚠ {r.ticket_deck_label}")
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


def score_bounds(config: Mapping[str, Any], players: int) -> tuple[int, int]:
    """The lowest and highest final score a seat can have on the config's board (any seat count).

    Lowest: every ticket of the deck held and failed, each losing its smallest value; nothing in
    the breakdown but tickets is ever negative. Highest: every route claimed, every ticket
    completed at its largest value, every unused station, every merchandise token and both
    bonuses; loose (no seat claims both tracks of a double route) but never exceeded."""
    board = _board(config)
    rules = board.spec
    tickets = list(board.tickets.values())
    lowest = -sum(min(points for _, points in t.destinations) for t in tickets)
    highest = (
        sum(rules.route_points.get(t.length, 0) for t in board.tracks)
        + sum(max(points for _, points in t.destinations) for t in tickets)
        + rules.stations * rules.unused_station_points
        + sum(sum(tokens) for tokens, _, _ in board.merchandise.values())
        + rules.longest_path_bonus
        + rules.most_tickets_bonus
    )
    return lowest, highest
