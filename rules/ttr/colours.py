"""The train-card types and track colours every Ticket to Ride module indexes by (kept apart from
the board loader so the move tables and actions can use them without importing the loader)."""

from __future__ import annotations

from rules.ttr.spec import CARD_TYPES

COLOURS = ("red", "orange", "yellow", "green", "blue", "pink", "black", "white")
LOCO, PLUS4, PASSENGER = 8, 9, 10
CARD_NAMES = (*COLOURS, "locomotive", "plus4", "passenger")
assert CARD_NAMES == CARD_TYPES
N_CARD_TYPES = len(CARD_NAMES)
CARD_INDEX = {name: i for i, name in enumerate(CARD_NAMES)}
GRAY = -1
