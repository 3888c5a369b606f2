"""The typed seams a game's front-end parts plug into, and the registry that holds them.

A game's rules register a :class:`rules.registry.GameSpec`; its front-end parts register a
:class:`FrontEnd` here, built in the game's own package (``bot/games/<game>/``) from objects that
implement these protocols: its words (:class:`GameWords`, and the sentences of its refusal codes),
its drawing (:class:`Drawing`), its terminal menu (:class:`TerminalMenu`) and an animated replay
(:class:`Replay`). Every part is
optional: generic code calls the part when the game has one and uses the generic text or controls
when it has not, so a game with no front-end parts of its own is still playable everywhere. The
Discord UI is a front end's own seam (:mod:`bot.discord_app.game_ui`): it sits above the Discord
adapter it plugs into.

:mod:`bot.games.catalog` holds the one list of built-in front ends; this module imports no game.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from lang import Msg
from lang.refusals import register_refusals, unregister_refusals
from rules.plans import Step

View = dict[str, object]
"""A game's own view (the envelope's ``detail``, with the service's seat names): JSON data."""


class GameWords:
    """A game's words in the reader's language. Each method returns None (or its input) when the
    game has no words of its own for it, and generic code then uses its generic text: a game
    overrides what it words."""

    def title_words(self, title: str) -> str | None:
        """The game's title (its registry entry's) as its edition in the reader's language calls it."""
        return None

    def board_words(self, name: str) -> str | None:
        """One of the game's boards by its name in the reader's language."""
        return None

    def board_text(self, view: View, *, title: str | None = None) -> str | None:
        """A compact public board summary (no hand, no tickets) that fits one Discord message."""
        return None

    def hand_text(self, view: View) -> str | None:
        """The viewer's private state in words (PRIVATE: sent ephemerally only)."""
        return None

    def map_key(self, view: View) -> Hashable | None:
        """What the board image shows that a turn can change (a front end posts a new image only
        when it differs); None: every board is drawn."""
        return None

    def event_words(self, event: Mapping[str, object]) -> str | None:
        """One public engine event (kind and facts) as a sentence."""
        return None

    def view_words(self, view: View) -> View:
        """The view with its data texts (a board's notes) worded, for an image drawn elsewhere."""
        return view

    def rules_words(self, config: dict[str, object]) -> list[str] | None:
        """The rules in force for ``config``; IllegalAction for a config it cannot read."""
        return None

    def score_words(self, label: str) -> str | None:
        """A final score breakdown label of the game's ``score_labels``."""
        return None

    def setting_words(self, key: str, label: str, help_text: str) -> tuple[str, str] | None:
        """One of the game's own settings' label and meaning."""
        return None

    def card_file_words(self, key: str) -> str | None:
        """The name of one of the game's card-file settings (a group's own data file)."""
        return None

    def forced_words(self, clause: str) -> str | None:
        """A forced-move clause of the game's ``TurnSkip.forced`` (an English sentence)."""
        return None

    def plan_step_words(self, step: Step, config: Mapping[str, object]) -> Msg | None:
        """One step of a planned turn (``rules.plans.Step``) as a phrase for any reader, in the
        game ``config`` names (its board's routes)."""
        return None


class Drawing(Protocol):
    """A game's pictures, drawn from its view (in a worker process: a picklable object)."""

    def board_png(self, view: View) -> bytes | None: ...

    def hand_png(self, view: View) -> bytes | None: ...

    def hand_state(self, view: View) -> View:
        """What of a seat's view its hand picture shows: the picture is drawn once per distinct
        value and reused while it stays the same (the whole view when the game cannot say)."""

    def summary_png(self, view: View) -> bytes | None: ...

    def prewarm(self) -> bool:
        """Build the cached static layers in this process (a worker's start); False when the game
        has none to build."""


class Replay(Protocol):
    """An animated replay of a whole game from its spectator views."""

    def animate(self, views: Sequence[View], names: list[str] | None, width: int, frame_ms: int) -> bytes: ...

    def frame_count(self, data: bytes) -> int: ...


class TerminalMenu(Protocol):
    """A game's table in words for the terminal, with a numbered choice per legal move."""

    def help(self) -> str:
        """How to play the game in the terminal."""

    def text(self, view: View) -> str:
        """Everything the viewing seat needs to choose a move (PRIVATE: the seat's own view)."""

    def prompt(self, view: View, seat: int | None, kinds: set[str]) -> str: ...

    def choices(self, view: View, seat: int | None, legal: list[str]) -> list[tuple[str, str]]:
        """``(words, text form)`` of every legal move, in the engine's order."""

    def menu(self, view: View, seat: int | None, choices: list[tuple[str, str]]) -> list[str]:
        """The numbered choices as lines."""


@dataclass(frozen=True)
class FrontEnd:
    """One game's front-end parts; ``game`` is its registry name."""

    game: str
    words: GameWords = GameWords()
    drawing: Drawing | None = None
    terminal: TerminalMenu | None = None
    replay: Replay | None = None
    terminal_help: Callable[[], str] | None = None
    """How to type the game's moves in the terminal (a game with a terminal menu has its own help)."""
    refusals: Mapping[str, Msg] = field(default_factory=dict)
    """The sentence of each refusal code the game's rules raise (beside the shared ones)."""


FRONT_ENDS: dict[str, FrontEnd] = {}


def register_front_end(front: FrontEnd) -> FrontEnd:
    """Add a game's front-end parts (one per game)."""
    if front.game in FRONT_ENDS:
        raise ValueError(f"the front end of {front.game!r} is already registered")
    register_refusals(front.refusals)
    FRONT_ENDS[front.game] = front
    return front


def find_front_end(game: str) -> FrontEnd:
    """The front-end parts of the game called ``game`` (its registry name); a game that registered
    none gets the generic ones (no words of its own, no pictures)."""
    return FRONT_ENDS.get(game) or FrontEnd(game)


def unregister_front_end(game: str) -> None:
    """Remove a game's front-end parts (a test's toy game, once the test is over)."""
    unregister_refusals(FRONT_ENDS.pop(game).refusals)
