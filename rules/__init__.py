"""Conductor's rules core: pure game logic, no I/O.

Every game follows :class:`rules.protocol.Game`; :mod:`rules.games` creates and restores them by
name. Illegal actions raise :class:`rules.errors.IllegalAction`.
"""

from rules.errors import IllegalAction

__all__ = ["IllegalAction"]
