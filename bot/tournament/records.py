"""A player's record over finished event games: the numbers ``/profile`` shows.

Counted from the stored results (each table's standing result, corrections applied; voided
tables left out), so the record always agrees with the standings. Tickets completed and the
longest trail are Ticket to Ride's; where no game of the record carries them (First Class, or
results stored before they were kept) they are ``None``, which the profile shows as "—".
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from bot.tournament.model import GameResult


@dataclass
class PlayerRecord:
    """Games, wins and scores of one player. ``by_board`` maps ``(board, players at the table)``
    to ``[games, wins]``; ``tickets_games`` counts the games that reported tickets completed."""

    player: str
    games: int = 0
    wins: int = 0
    total_score: int = 0
    by_board: dict[tuple[str, int], list[int]] = field(default_factory=dict)
    tickets_completed: int | None = None
    tickets_games: int = 0
    longest_trail: int | None = None

    @property
    def average_score(self) -> float:
        """Mean game score (0 without games)."""
        return self.total_score / self.games if self.games else 0.0


def player_record(player: str, results: Iterable[GameResult]) -> PlayerRecord:
    """``player``'s record over ``results`` (games they did not sit at and void tables ignored).
    A win is a first place, shared or not; the longest trail is the longest over all games."""
    record = PlayerRecord(player)
    for result in results:
        if result.void:
            continue
        seat = next((s for s in result.seats if s.player == player), None)
        if seat is None:
            continue
        record.games += 1
        won = seat.rank == 1
        record.wins += won
        record.total_score += seat.score
        cell = record.by_board.setdefault((result.board, len(result.seats)), [0, 0])
        cell[0] += 1
        cell[1] += won
        if seat.tickets_completed is not None:
            record.tickets_completed = (record.tickets_completed or 0) + seat.tickets_completed
            record.tickets_games += 1
        if seat.longest_trail is not None:
            record.longest_trail = max(record.longest_trail or 0, seat.longest_trail)
    return record
