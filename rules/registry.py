"""The game registry: one :class:`GameSpec` per game, registered in this one place.

Everything generic code needs to know about a game lives in its spec: how to create, restore and
parse it, how many players it takes, which AIs it offers, which moves the bot may play for a
person who has no real choice, its boards and rules summary, and which modules present, draw and
drive it in front ends. Generic code (the service, the CLI, the Discord adapter) looks a game up
with :func:`find_game` and never branches on a game's name, in the spirit of python-chess's
``VARIANTS``/``find_variant`` and OpenSpiel's ``register_game``.

Adding a game is one package under ``rules/`` plus one :func:`register` call below. Front-end
modules are *named* (dotted paths), not imported, so :mod:`rules` stays importable on its own;
a game without a presenter, renderer or Discord UI module is still playable everywhere through
the generic ones (text from the view envelope, moves from ``legal_actions``).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from rules.errors import IllegalAction
from rules.protocol import AI, Action, BoardChoice, Game

Config = Mapping[str, Any]


@dataclass(frozen=True)
class GameSpec:
    """Everything generic code may know about one game.

    ``new``/``from_json``/``parse_action``/``action_from_json`` are the engine's entry points.
    ``player_range(config)`` gives the allowed seat counts for a config (a board may narrow them).
    ``ais`` maps an AI kind (``"heuristic"``, ``"random"``) to a factory taking a seed.
    ``forced_action(game, seat)`` returns the move the bot plays for a *person* who has no real
    choice (the single legal move, or one where no alternative changes anything), else None.
    ``skip_kinds`` are the least eventful move kinds, in order of preference, for the "skip" turn
    timeout policy. ``boards()`` lists the boards a player may pick (empty: the game has one) and
    ``board_key`` is the config key the choice sets. ``rules_summary(config)`` gives plain lines
    (title first) saying the rules in force and which data is a stand-in or provisional.
    ``public_scores(detail)``, ``private_part(detail)`` and ``secret_tokens(detail)`` read the
    game's own view (the envelope's ``detail``): every seat's score as everyone may see it, the
    viewer's secrets (hand, tickets, hidden cards), and the identifiers among them that no other
    seat may ever see before the end (the conformance test checks every other view for them).
    ``observation_copy(game, seat, rng)`` is what an AI seat is handed: a playable copy
    consistent with everything ``seat`` sees, every hidden card dealt again at random, so an AI
    can use the whole engine and still never see what a player could not.
    ``presenter``, ``renderer`` and ``discord_ui`` name optional front-end modules.
    """

    name: str
    title: str
    new: Callable[[Config, int, int], Game]
    from_json: Callable[[dict[str, Any]], Game]
    parse_action: Callable[[str], Action]
    action_from_json: Callable[[dict[str, Any]], Action]
    player_range: Callable[[Config], tuple[int, int]]
    ais: Mapping[str, Callable[[int], AI]]
    rules_summary: Callable[[Config], list[str]]
    public_scores: Callable[[Mapping[str, Any]], list[int]]
    private_part: Callable[[Mapping[str, Any]], Any]
    secret_tokens: Callable[[Mapping[str, Any]], set[str]]
    forced_action: Callable[[Any, int], Action | None] | None = None
    observation_copy: Callable[[Any, int, random.Random], Game] | None = None
    skip_kinds: tuple[str, ...] = ("pass",)
    boards: Callable[[], Sequence[BoardChoice]] = lambda: ()
    board_key: str | None = None
    presenter: str | None = None
    renderer: str | None = None
    discord_ui: str | None = None
    aliases: tuple[str, ...] = field(default=())

    @property
    def ai_kinds(self) -> tuple[str, ...]:
        return tuple(self.ais)

    def make_ai(self, kind: str, seed: int) -> AI:
        """An AI of ``kind`` for this game; deterministic for a given seed."""
        try:
            factory = self.ais[kind]
        except KeyError:
            raise IllegalAction(
                "unknown_ai", f"There is no AI called {kind!r}; choose one of {', '.join(self.ais)}."
            ) from None
        return factory(seed)

    def config_for(self, board: str | None = None, variant: str | None = None,
                   extra: Config | None = None) -> dict[str, Any]:
        """A config from the choices a front end offers (board, variant, game settings)."""
        config: dict[str, Any] = dict(extra or {})
        if board and self.board_key:
            config[self.board_key] = board
        if variant:
            config["variant"] = variant
        return config


def envelope(game: Game, seat: int | None) -> dict[str, Any]:
    """The view every game shares: ``game``, ``viewer``, ``players`` (seat count), ``to_act``,
    ``phase``, ``scores`` (public, per seat), ``final`` (final scores once over), ``last_action``,
    ``you`` (the viewer's secrets; None for a spectator) and ``detail``: the game's own view of
    the same seat, the one place where game-specific data lives."""
    spec = find_game(game.game_name)
    detail = game.view(seat)
    return {
        "game": spec.name,
        "viewer": seat,
        "players": game.players,
        "to_act": list(game.seats_to_act()),
        "phase": detail.get("phase"),
        "scores": spec.public_scores(detail),
        "final": game.final_scores() if game.is_over() else None,
        "last_action": detail.get("last_action"),
        "you": spec.private_part(detail) if seat is not None else None,
        "detail": detail,
    }


def ai_view_of(game: Game, seat: int, rng: random.Random) -> Game:
    """The game as an AI seat may know it (see ``GameSpec.observation_copy``); a plain copy for a
    game that declares none."""
    spec = find_game(game.game_name)
    return spec.observation_copy(game, seat, rng) if spec.observation_copy is not None else game.copy()  # type: ignore[no-any-return]


class RandomLegalAI:
    """A seeded uniformly random legal action: every game has at least this AI."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def choose(self, game: Any, seat: int) -> Any:
        return self.rng.choice(list(game.legal_actions(seat)))


GAMES: dict[str, GameSpec] = {}
_ALIASES: dict[str, str] = {}


def register(spec: GameSpec) -> GameSpec:
    """Add ``spec`` to the registry (its name and aliases must be new)."""
    for key in (spec.name, *spec.aliases):
        if key in GAMES or key in _ALIASES:
            raise ValueError(f"a game called {key!r} is already registered")
    GAMES[spec.name] = spec
    for alias in spec.aliases:
        _ALIASES[alias] = spec.name
    return spec


def find_game(name: str) -> GameSpec:
    """The spec of the game called ``name`` (or one of its aliases). Raises IllegalAction."""
    key = name.strip().lower() if isinstance(name, str) else ""
    spec = GAMES.get(key) or GAMES.get(_ALIASES.get(key, ""))
    if spec is None:
        raise IllegalAction(
            "unknown_game", f"There is no game called {name!r}; choose one of {', '.join(GAMES)}."
        )
    return spec


def _register_builtin_games() -> None:
    from rules.firstclass import ai as fc_ai
    from rules.firstclass import search_ai as fc_search_ai
    from rules.firstclass import summary as fc_summary
    from rules.firstclass.actions import action_from_json as fc_action_from_json
    from rules.firstclass.actions import parse_action as fc_parse_action
    from rules.firstclass.auto import forced_action as fc_forced_action
    from rules.firstclass.determinize import observation_copy as fc_observation_copy
    from rules.firstclass.game import FirstClassGame
    from rules.ttr import ai as ttr_ai
    from rules.ttr import search_ai as ttr_search_ai
    from rules.ttr import summary as ttr_summary
    from rules.ttr.determinize import observation_copy as ttr_observation_copy
    from rules.ttr.game import TTRGame

    register(GameSpec(
        name="ttr",
        title="Ticket to Ride",
        new=lambda config, players, seed: TTRGame.new(dict(config), players, seed),
        from_json=TTRGame.from_json,
        parse_action=TTRGame.parse_action,
        action_from_json=TTRGame.action_from_json,
        player_range=ttr_summary.player_range,
        ais={"heuristic": ttr_ai.HeuristicAI, "random": ttr_ai.RandomAI, "search": ttr_search_ai.SearchAI},
        rules_summary=ttr_summary.rules_summary,
        public_scores=ttr_summary.public_scores,
        private_part=ttr_summary.private_part,
        secret_tokens=ttr_summary.secret_tokens,
        skip_kinds=("pass", "draw_deck"),
        observation_copy=ttr_observation_copy,
        boards=ttr_summary.board_choices,
        board_key="board",
        presenter="bot.present_ttr",
        renderer="render.ttr",
        discord_ui="bot.discord_app.components",
        aliases=("ticket-to-ride", "ticket to ride"),
    ))
    register(GameSpec(
        name="first-class",
        title="First Class",
        new=lambda config, players, seed: FirstClassGame.new(dict(config), players, seed),
        from_json=FirstClassGame.from_json,
        parse_action=fc_parse_action,
        action_from_json=fc_action_from_json,
        player_range=fc_summary.player_range,
        ais={"heuristic": fc_ai.HeuristicAI, "random": fc_ai.RandomAI, "search": fc_search_ai.SearchAI},
        rules_summary=fc_summary.rules_summary,
        public_scores=fc_summary.public_scores,
        private_part=fc_summary.private_part,
        secret_tokens=fc_summary.secret_tokens,
        forced_action=fc_forced_action,
        observation_copy=fc_observation_copy,
        skip_kinds=(),
        presenter="bot.present_firstclass",
        renderer="render.firstclass",
        discord_ui="bot.discord_app.firstclass_ui",
        aliases=("firstclass", "first class", "orient-express"),
    ))


_register_builtin_games()
