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

SETTING_KINDS = ("bool", "int", "choice", "file")
_TRUE = ("true", "yes", "on", "1")
_FALSE = ("false", "no", "off", "0")


@dataclass(frozen=True)
class SettingSpec:
    """One game setting a front end may offer, described as data so it can offer it generically.

    ``key`` is the config key, ``label`` a short name for people, ``kind`` one of
    :data:`SETTING_KINDS` (``file``: a path to a data file the game loads), ``default`` the value
    used when nobody chooses, ``choices`` the allowed values (empty: any value of the kind),
    ``multiple`` whether several choices may be taken at once (the value is then a tuple), and
    ``help`` one sentence on what it changes (and which open question it answers). An ``int``
    setting may bound its values with ``minimum`` and ``maximum`` (inclusive).
    """

    key: str
    label: str
    kind: str
    default: Any
    choices: tuple[Any, ...] = ()
    help: str = ""
    multiple: bool = False
    minimum: int | None = None
    maximum: int | None = None

    def parse(self, text: str) -> Any:
        """The value written as ``text`` (as typed after ``--set key=``); IllegalAction when it is
        not one this setting takes."""
        raw = text.strip()
        if self.multiple:
            parts = [p for p in raw.replace(",", " ").split() if p]
            return tuple(self._one(p) for p in parts)
        return self._one(raw)

    def _one(self, raw: str) -> Any:
        value: Any
        if self.kind == "bool":
            if raw.lower() in _TRUE:
                value = True
            elif raw.lower() in _FALSE:
                value = False
            else:
                raise IllegalAction("bad_setting", f"Setting {self.key} is true or false, not {raw!r}.")
        elif self.kind == "int":
            try:
                value = int(raw)
            except ValueError:
                raise IllegalAction(
                    "bad_setting", f"Setting {self.key} is a whole number, not {raw!r}."
                ) from None
            self.check_range(value)
        elif self.kind == "file":
            if not raw:
                raise IllegalAction("bad_setting", f"Setting {self.key} needs the path of a file.")
            value = raw
        else:
            folded = {str(c).lower(): c for c in self.choices}
            value = folded.get(raw.lower(), raw)
        if self.choices and value not in self.choices:
            allowed = ", ".join(_show(c) for c in self.choices)
            raise IllegalAction(
                "bad_setting", f"Setting {self.key} ({self.label}) takes {allowed}; not {raw!r}."
            )
        return value

    def check_range(self, value: int) -> None:
        """IllegalAction (``setting_out_of_range``) when ``value`` lies outside the setting's bounds."""
        low = self.minimum if self.minimum is not None else value
        high = self.maximum if self.maximum is not None else value
        if not low <= value <= high:
            raise IllegalAction(
                "setting_out_of_range",
                f"Setting {self.key} takes a whole number from {low} to {high}, not {value}.",
                setting=self.key,
                minimum=low,
                maximum=high,
            )


def _show(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, tuple):
        return ",".join(map(_show, value)) or "none"
    return str(value)


def show_setting_value(value: Any) -> str:
    """A setting's value as it would be typed after ``--set key=`` (``true``, ``A,O``, ``3``)."""
    return _show(value)


@dataclass(frozen=True)
class TurnSkip:
    """How a seat whose turn timed out passes it under the "skip" policy.

    ``action`` is the move applied for the seat (an ordinary move of the game, so the action log
    still replays). ``forced`` is None when the move passes the turn without effect (nothing drawn,
    nothing claimed), else the sentence naming the rule that forces a move here (e.g. opening
    tickets must be kept), which the players are told.
    """

    action: Action
    forced: str | None = None


@dataclass(frozen=True)
class GameSpec:
    """Everything generic code may know about one game.

    ``new``/``from_json``/``parse_action``/``action_from_json`` are the engine's entry points.
    ``player_range(config)`` gives the allowed seat counts for a config (a board may narrow them).
    ``ais`` maps an AI kind (``"heuristic"``, ``"random"``) to a factory taking a seed.
    ``forced_action(game, seat)`` returns the move the bot plays for a *person* who has no real
    choice (the single legal move, or one where no alternative changes anything), else None.
    ``skip_turn(game, seat)`` says how a timed-out seat's turn passes (a :class:`TurnSkip`), or None
    when the game cannot pass it now; then ``skip_kinds`` name the least eventful move kinds, in
    order of preference, played instead (and the players are told which). ``score_labels`` maps
    the keys of a final score breakdown to the words players read. ``boards()`` lists the boards a player may pick (empty: the game has one) and
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
    ``settings`` describes the game's own settings (:class:`SettingSpec`) for front ends to offer
    generically; board and variant are not among them (they have their own options).
    ``card_file_key(path)`` says which ``file`` setting a data file fills (from its contents).
    ``takeover_ai`` is the AI kind that plays a person's seat when the bot takes it over (a
    timed-out turn, a forfeit on time, a resignation): the strongest kind the game offers that
    meets its bar (``bench/bench_ai.py``); the search AI does not yet, so both games keep the
    heuristic.
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
    # The starting position of a stored game from its config, seat count, seed and a snapshot
    # (for games whose snapshot carries static data, such as First Class's cards): a replay uses
    # what the game was dealt with, not today's data files. None: ``new`` is enough.
    replay_start: Callable[[Config, int, int, dict[str, Any]], Game] | None = None
    skip_kinds: tuple[str, ...] = ("pass",)
    skip_turn: Callable[[Game, int], TurnSkip | None] | None = None
    # Moves only the turn timer makes (a skipped turn); the service refuses them from people.
    timeout_only_kinds: tuple[str, ...] = ()
    score_labels: Mapping[str, str] = field(default_factory=dict)
    boards: Callable[[], Sequence[BoardChoice]] = lambda: ()
    board_key: str | None = None
    presenter: str | None = None
    renderer: str | None = None
    discord_ui: str | None = None
    aliases: tuple[str, ...] = field(default=())
    settings: tuple[SettingSpec, ...] = field(default=())
    card_file_key: Callable[[str], str] | None = None
    takeover_ai: str = "heuristic"

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

    def score_label(self, key: str) -> str:
        """The words for a score breakdown key (a plain reading of the key if the game gives none)."""
        return self.score_labels.get(key) or key.replace("_", " ").capitalize()

    def config_for(
        self, board: str | None = None, variant: str | None = None, extra: Config | None = None
    ) -> dict[str, Any]:
        """A config from the choices a front end offers (board, variant, game settings)."""
        config: dict[str, Any] = dict(extra or {})
        if board and self.board_key:
            config[self.board_key] = board
        if variant:
            config["variant"] = variant
        return config

    def setting(self, key: str) -> SettingSpec:
        """The setting called ``key``; IllegalAction naming the settings there are."""
        for s in self.settings:
            if s.key == key.strip():
                return s
        known = ", ".join(s.key for s in self.settings) or "none"
        raise IllegalAction(
            "bad_setting", f"{self.title} has no setting {key.strip()!r}; its settings: {known}."
        )

    def parse_settings(self, assignments: Sequence[str]) -> dict[str, Any]:
        """Config entries from ``key=value`` texts (as given to ``--set``); IllegalAction with a
        sentence for an unknown key, a missing ``=`` or a value the setting does not take."""
        out: dict[str, Any] = {}
        for text in assignments:
            key, sep, raw = text.partition("=")
            if not sep:
                raise IllegalAction(
                    "bad_setting",
                    f"Write a setting as key=value (for example "
                    f"{self.settings[0].key if self.settings else 'key'}=...), not {text!r}.",
                )
            setting = self.setting(key)
            value = setting.parse(raw)
            out[setting.key] = list(value) if setting.multiple else value
        return out


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
    return spec.observation_copy(game, seat, rng) if spec.observation_copy is not None else game.copy()


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


# The words for each game's final score breakdown keys (see the engines' ``final_scores``).
TTR_SCORE_LABELS: Mapping[str, str] = {
    "routes": "Routes",
    "tickets_won": "Tickets completed",
    "tickets_lost": "Tickets failed",
    "stations": "Unused stations",
    "merchandise": "Merchandise",
    "longest_path": "Longest path bonus",
    "most_tickets": "Most tickets bonus",
}
FIRST_CLASS_SCORE_LABELS: Mapping[str, str] = {
    "route_stations": "Route stations",
    "trains": "Trains",
    "constantinople": "Constantinople",
    "card_points": "Points from cards",
    "coin_points": "Points bought with coins",
    "game_end_cards": "Game End cards",
    "coins_left": "Coins left",
}


def _first_class_skip_turn(game: Game, seat: int) -> TurnSkip | None:
    """First Class: a pending symbol may always be left undone (``skip``) and a turn whose card is
    taken may end (``end``); taking a card, drafting and scoring are what the rules require."""
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


def _register_builtin_games() -> None:
    from rules.ai_settings import ai_setting_specs
    from rules.firstclass import ai as fc_ai
    from rules.firstclass import search_ai as fc_search_ai
    from rules.firstclass import summary as fc_summary
    from rules.firstclass.actions import action_from_json as fc_action_from_json
    from rules.firstclass.actions import parse_action as fc_parse_action
    from rules.firstclass.auto import forced_action as fc_forced_action
    from rules.firstclass.cards import card_file_key as fc_card_file_key
    from rules.firstclass.determinize import observation_copy as fc_observation_copy
    from rules.firstclass.game import FirstClassGame
    from rules.firstclass.settings import setting_specs as fc_setting_specs
    from rules.ttr import ai as ttr_ai
    from rules.ttr import search_ai as ttr_search_ai
    from rules.ttr import summary as ttr_summary
    from rules.ttr import timeout as ttr_timeout
    from rules.ttr.determinize import observation_copy as ttr_observation_copy
    from rules.ttr.game import TTRGame

    register(
        GameSpec(
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
            settings=ai_setting_specs(("heuristic", "search", "random")),
            rules_summary=ttr_summary.rules_summary,
            public_scores=ttr_summary.public_scores,
            private_part=ttr_summary.private_part,
            secret_tokens=ttr_summary.secret_tokens,
            skip_kinds=("pass", "draw_deck"),
            observation_copy=ttr_observation_copy,
            skip_turn=ttr_timeout.skip_turn,
            timeout_only_kinds=("skip_turn",),
            score_labels=TTR_SCORE_LABELS,
            boards=ttr_summary.board_choices,
            board_key="board",
            presenter="bot.present_ttr",
            renderer="render.ttr",
            discord_ui="bot.discord_app.components",
            aliases=("ticket-to-ride", "ticket to ride"),
        )
    )
    register(
        GameSpec(
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
            replay_start=lambda config, players, seed, snapshot: FirstClassGame.replay_start(
                dict(config), players, seed, snapshot
            ),
            skip_kinds=(),
            skip_turn=_first_class_skip_turn,
            score_labels=FIRST_CLASS_SCORE_LABELS,
            presenter="bot.present_firstclass",
            renderer="render.firstclass",
            discord_ui="bot.discord_app.firstclass_ui",
            aliases=("firstclass", "first class", "orient-express"),
            settings=(*fc_setting_specs(), *ai_setting_specs(("heuristic", "search", "random"))),
            card_file_key=fc_card_file_key,
        )
    )


_register_builtin_games()
