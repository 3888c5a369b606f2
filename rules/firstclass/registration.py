"""First Class's entry in the game registry. :mod:`rules.games` lists it among the built-in games."""

from __future__ import annotations

import random
from collections.abc import Mapping

from rules import takeback
from rules.ai_settings import ai_setting_specs
from rules.firstclass import ai as fc_ai
from rules.firstclass import search_ai as fc_search_ai
from rules.firstclass import summary as fc_summary
from rules.firstclass import takeback as fc_takeback
from rules.firstclass.actions import action_from_json, parse_action
from rules.firstclass.auto import forced_action
from rules.firstclass.cards import card_file_key
from rules.firstclass.determinize import observation_copy
from rules.firstclass.game import FirstClassGame
from rules.firstclass.settings import setting_specs
from rules.protocol import Action, Game
from rules.registry import GameSpec, TurnSkip

# The words for the final score breakdown keys (see ``FirstClassGame.final_scores``).
SCORE_LABELS: Mapping[str, str] = {
    "route_stations": "Route stations",
    "trains": "Trains",
    "constantinople": "Constantinople",
    "card_points": "Points from cards",
    "coin_points": "Points bought with coins",
    "game_end_cards": "Game End cards",
    "coins_left": "Coins left",
}


def skip_turn(game: Game, seat: int) -> TurnSkip | None:
    """A pending symbol may always be left undone (``skip``) and a turn whose card is taken may end
    (``end``); taking a card, drafting and scoring are what the rules require."""
    legal = list(game.legal_actions(seat))
    for kind in ("skip", "end", "done"):
        for action in legal:
            if getattr(action, "kind", None) == kind:
                return TurnSkip(
                    action,
                    None
                    if kind != "done"
                    else "the scoring step cannot be skipped: the trains are scored as they stand",
                )
    return None


def _forced_action(game: Game, seat: int) -> Action | None:
    return forced_action(_own(game), seat)


def _observation_copy(game: Game, seat: int, rng: random.Random) -> Game:
    return observation_copy(_own(game), seat, rng)


def _own(game: Game) -> FirstClassGame:
    """The registry hands this spec only its own games."""
    if not isinstance(game, FirstClassGame):
        raise TypeError(f"not a First Class game: {type(game).__name__}")
    return game


def replay_copy(game: Game) -> Game:
    """A copy without the undo state kept before each move: a replay stops at the first refused
    move, so it never needs it, and runs about twice as fast."""
    return game.scratch_copy() if isinstance(game, FirstClassGame) else game


SPEC = GameSpec(
    name="first-class",
    title="First Class",
    new=lambda config, players, seed: FirstClassGame.new(dict(config), players, seed),
    from_json=FirstClassGame.from_json,
    parse_action=parse_action,
    action_from_json=action_from_json,
    player_range=fc_summary.player_range,
    ais={"heuristic": fc_ai.HeuristicAI, "random": fc_ai.RandomAI, "search": fc_search_ai.SearchAI},
    rules_summary=fc_summary.rules_summary,
    score_bounds=fc_summary.score_bounds,
    public_scores=fc_summary.public_scores,
    private_part=fc_summary.private_part,
    secret_tokens=fc_summary.secret_tokens,
    forced_action=_forced_action,
    observation_copy=_observation_copy,
    replay_start=lambda config, players, seed, snapshot: FirstClassGame.replay_start(
        dict(config), players, seed, snapshot
    ),
    replay_copy=replay_copy,
    skip_kinds=(),
    skip_turn=skip_turn,
    score_labels=SCORE_LABELS,
    aliases=("firstclass", "first class", "orient-express"),
    settings=(
        *setting_specs(),
        *ai_setting_specs(("heuristic", "search", "random")),
        *takeback.setting_specs(),
    ),
    take_back=fc_takeback.take_back,
    card_file_key=card_file_key,
)
