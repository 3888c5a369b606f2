"""First Class (Hans im Glück 2016): a data-driven rules engine.

Public API: :class:`rules.firstclass.game.FirstClassGame` (``GAME_CLASS``), the card languages in
:mod:`rules.firstclass.effects`, the data loaders and validator in :mod:`rules.firstclass.cards`,
the settings and module registry in :mod:`rules.firstclass.settings`, and :func:`rules_summary`.
"""

from __future__ import annotations

from typing import Any

from rules.firstclass.cards import OPEN_DECK_LABEL


def rules_summary(config: dict[str, Any] | None = None, players: int = 4) -> str:
    """A plain-text summary of the rules as configured: deck, modules, settings, provisional values."""
    from rules.firstclass.deck import build_deck
    from rules.firstclass.settings import FILE_KEYS, MODULES, SETTINGS, resolve_config

    cfg = resolve_config(dict(config or {}))
    deck = build_deck(cfg, players)
    lines = [
        "First Class - rules as played here",
        f"Cards: {deck.label}."
        + (
            ""
            if deck.label != OPEN_DECK_LABEL
            else " Base cards are weaker in pile 1 and stronger in pile 3."
        ),
        "Six rounds: piles 1, 2, 3 each give two rounds of 18 cards in 3 rows of 6; a row is removed once as "
        "many cards as players were taken or removed from it. Scoring phases after rounds 2, 4 and 6.",
        "On your turn take one Action card and carry it out (fully or partly), or forgo it for one upgrade, or "
        "take the Start Player tile (compensations: 2 coins / nothing / a 0-value car / a car or a 0>1 upgrade; "
        "then the leftmost card of the top row is removed). Spend coins and fulfil contracts before or after.",
        "Trains: each starts with a 0-value car; cars go on at the right; upgrades 0>1>2>4>7>12 one step at a "
        "time, never above the car to the left, leftmost first among equals. The 5th car brings a mail car as "
        "6th (with its bonus); the 9th brings the top Locomotive tile as 10th (with its upgrades of choice); "
        "no lengthening after that. Constantinople: 20/10/5 for the first three conductors on a Locomotive tile.",
        "Coins: 12 spaces in columns of 5/5/2, filled lowest-leftmost; gains must fit at once. Spend: column 1 "
        "a 0-value car, column 2 a conductor or the locomotive 1 step, column 3 one upgrade, any 4 coins a "
        "Game End card, any coin 1 point. Leftover coins are 1 point each at the end.",
        "Game End cards: one drafted at setup, 4 face up, bought for 4 coins (with a one-time bonus), refilled "
        "at the end of the turn; at the end each scores (base cards of its type chosen) x its points.",
        "Modules: "
        + "; ".join(
            f"{m.letter} {m.name} - "
            + ("playable" if m.playable else "listed, not playable")
            + f" ({m.note})"
            for m in MODULES.values()
        )
        + ".",
        f"In use: base cards + modules {', '.join(cfg['modules'])}.",
        "Owners of the game can load the published components from CSV files in the documented template format "
        "with the config keys "
        + ", ".join(FILE_KEYS)
        + "; every file is validated against the known counts.",
        "Settings (open rule questions):",
    ]
    for s in SETTINGS:
        lines.append(f"  {s.key} = {cfg[s.key]!r} (default {s.default!r}, {s.question}): {s.meaning}")
    lines += [
        "  Q2 player board stations, Q5 mail car bonuses 3-4, Q6 the 21 Game End cards: unknown facts - the "
        "packaged values are provisional or our own design (listed below); load the real ones with "
        "board_route_file, mail_cars_file and game_end_deck.",
        "  Q11 modules B-E: listed, not playable until their rules text is available.",
        "  Q12 yucata deviations: none applied.",
    ]
    lines.append("Provisional values (unknown facts, stand-ins until checked against the real components):")
    lines += [f"  - {p}" for p in deck.provisional]
    return "\n".join(lines)


__all__ = ["rules_summary"]
