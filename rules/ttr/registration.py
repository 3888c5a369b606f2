"""Ticket to Ride's entry in the game registry: every board of the family is one game, ``"ttr"``,
whose ``board`` config key picks the map. :mod:`rules.games` lists it among the built-in games."""

from __future__ import annotations

import random
from collections.abc import Mapping

from rules import takeback
from rules.ai_settings import ai_setting_specs
from rules.protocol import Game
from rules.registry import GameSpec
from rules.ttr import ai as ttr_ai
from rules.ttr import plans as ttr_plans
from rules.ttr import search_ai as ttr_search_ai
from rules.ttr import summary as ttr_summary
from rules.ttr import takeback as ttr_takeback
from rules.ttr import timeout as ttr_timeout
from rules.ttr.determinize import observation_copy
from rules.ttr.game import TTRGame

# The words for the final score breakdown keys (see ``TTRGame.final_scores``).
SCORE_LABELS: Mapping[str, str] = {
    "routes": "Routes",
    "tickets_won": "Tickets completed",
    "tickets_lost": "Tickets failed",
    "stations": "Unused stations",
    "merchandise": "Merchandise",
    "longest_path": "Longest path bonus",
    "most_tickets": "Most tickets bonus",
}


def _observation_copy(game: Game, seat: int, rng: random.Random) -> Game:
    """The registry hands this spec only its own games."""
    if not isinstance(game, TTRGame):
        raise TypeError(f"not a Ticket to Ride game: {type(game).__name__}")
    return observation_copy(game, seat, rng)


SPEC = GameSpec(
    name="ttr",
    title="Ticket to Ride",
    new=lambda config, players, seed: TTRGame.new(dict(config), players, seed),
    from_json=TTRGame.from_json,
    parse_action=TTRGame.parse_action,
    action_from_json=TTRGame.action_from_json,
    player_range=ttr_summary.player_range,
    ais={
        "heuristic": ttr_ai.HeuristicAI,
        "random": ttr_ai.RandomAI,
        "search": ttr_search_ai.SearchAI,
    },
    settings=(*ai_setting_specs(("heuristic", "search", "random")), *takeback.setting_specs()),
    take_back=ttr_takeback.take_back,
    plans=ttr_plans.RULES,
    rules_summary=ttr_summary.rules_summary,
    score_bounds=ttr_summary.score_bounds,
    public_scores=ttr_summary.public_scores,
    private_part=ttr_summary.private_part,
    secret_tokens=ttr_summary.secret_tokens,
    skip_kinds=("pass", "draw_deck"),
    observation_copy=_observation_copy,
    skip_turn=ttr_timeout.skip_turn,
    timeout_only_kinds=("skip_turn",),
    score_labels=SCORE_LABELS,
    boards=ttr_summary.board_choices,
    board_key="board",
    aliases=("ticket-to-ride", "ticket to ride"),
)
