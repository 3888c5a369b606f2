"""The game registry: :class:`GameSpec` and :func:`register`/:func:`find_game`, with no game in it.

Everything generic code needs to know about a game's rules lives in its spec: how to create,
restore and parse it, how many players it takes, which AIs it offers, which moves the bot may play
for a person who has no real choice, its boards and rules summary. Generic code (the service, the
CLI, the Discord adapter) looks a game up with :func:`find_game` and never branches on a game's
name, in the spirit of python-chess's ``VARIANTS``/``find_variant`` and OpenSpiel's
``register_game``.

Each game builds its own spec in its own package (``rules/<game>/registration.py``) and
:mod:`rules.games` holds the one list of built-in games and registers them; this module imports no
game, so a game may import it without a cycle. A game's front-end parts (words, drawing, Discord
UI) are registered on the front-end side (:mod:`bot.games`), never named here.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TypedDict

from rules.errors import IllegalAction
from rules.plans import PlanRules
from rules.protocol import AI, JSON, Action, BoardChoice, Event, FinalScore, Game, JsonObject, View
from rules.settings import SettingSpec, show_setting_value

__all__ = [
    "GAMES",
    "GameSpec",
    "RandomLegalAI",
    "SettingSpec",
    "TurnSkip",
    "ai_view_of",
    "envelope",
    "find_game",
    "register",
    "unregister",
    "show_setting_value",
]

Config = Mapping[str, JSON]
"""A game's config: JSON values under the keys its spec knows (board, variant, settings)."""


class Envelope(TypedDict):
    """The view every game shares (see :func:`envelope`)."""

    game: str
    viewer: int | None
    players: int
    to_act: list[int]
    phase: object
    scores: list[int]
    final: list[FinalScore] | None
    last_action: object
    you: JSON
    detail: View


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
    ``settings`` describes the game's own settings (:class:`SettingSpec`) for front ends to offer
    generically; board and variant are not among them (they have their own options).
    ``card_file_key(path)`` says which ``file`` setting a data file fills (from its contents).
    ``takeover_ai`` is the AI kind that plays a person's seat when the bot takes it over (a
    timed-out turn, a forfeit on time, a resignation): the strongest kind the game offers that
    meets its bar (``bench/bench_ai.py``); the search AI does not yet, so both games keep the
    heuristic.
    ``score_bounds(config, players)`` declares the lowest and highest final score a seat can
    have (OpenSpiel's ``min_utility``/``max_utility``): bounds that hold for every game under
    that config and seat count, not a forecast; the conformance test checks every played game's
    final scores against them.
    """

    name: str
    title: str
    new: Callable[[Config, int, int], Game]
    from_json: Callable[[JsonObject], Game]
    parse_action: Callable[[str], Action]
    action_from_json: Callable[[JsonObject], Action]
    player_range: Callable[[Config], tuple[int, int]]
    ais: Mapping[str, Callable[[int], AI]]
    rules_summary: Callable[[Config], list[str]]
    public_scores: Callable[[View], list[int]]
    private_part: Callable[[View], JSON]
    secret_tokens: Callable[[View], set[str]]
    forced_action: Callable[[Game, int], Action | None] | None = None
    observation_copy: Callable[[Game, int, random.Random], Game] | None = None
    # The starting position of a stored game from its config, seat count, seed and a snapshot
    # (for games whose snapshot carries static data, such as First Class's cards): a replay uses
    # what the game was dealt with, not today's data files. None: ``new`` is enough.
    replay_start: Callable[[Config, int, int, JsonObject], Game] | None = None
    # The copy a stored log is replayed on when the game keeps state a replay never needs (First
    # Class's undo copy before each move); None: the game itself.
    replay_copy: Callable[[Game], Game] | None = None
    skip_kinds: tuple[str, ...] = ("pass",)
    skip_turn: Callable[[Game, int], TurnSkip | None] | None = None
    # Moves only the turn timer makes (a skipped turn); the service refuses them from people.
    timeout_only_kinds: tuple[str, ...] = ()
    score_labels: Mapping[str, str] = field(default_factory=dict)
    boards: Callable[[], Sequence[BoardChoice]] = lambda: ()
    board_key: str | None = None
    aliases: tuple[str, ...] = field(default=())
    settings: tuple[SettingSpec, ...] = field(default=())
    card_file_key: Callable[[str], str] | None = None
    takeover_ai: str = "heuristic"
    score_bounds: Callable[[Config, int], tuple[int, int]] | None = None
    # Which moves a player may take back (see rules/takeback.py): (before, after, seat, action,
    # events) -> the reason code of a final move, None for one that can be taken back. None: the
    # game takes no move back.
    take_back: Callable[[Game, Game, int, Action, list[Event]], str | None] | None = None
    # Which turns a player may plan ahead (see rules/plans.py): the steps and conditions the game
    # supports and what upsets a plan. None: the game offers no planned turns.
    plans: PlanRules | None = None

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
    ) -> JsonObject:
        """A config from the choices a front end offers (board, variant, game settings)."""
        config: JsonObject = dict(extra or {})
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

    def parse_settings(self, assignments: Sequence[str]) -> JsonObject:
        """Config entries from ``key=value`` texts (as given to ``--set``); IllegalAction with a
        sentence for an unknown key, a missing ``=`` or a value the setting does not take."""
        out: JsonObject = {}
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


def envelope(game: Game, seat: int | None) -> Envelope:
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

    def choose(self, game: Game, seat: int) -> Action:
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


def unregister(name: str) -> None:
    """Remove the game called ``name`` and its aliases (a test's toy game, once the test is over)."""
    spec = GAMES.pop(name)
    for alias in spec.aliases:
        _ALIASES.pop(alias, None)
