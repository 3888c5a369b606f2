"""The rules' refusals in the reader's language: one sentence per refusal code.

The sentences every game shares are here; each game's own come from its front end's package
(``bot/games/<game>/refusals.py``) and are added with :func:`register_refusals` when the game's
front end is registered.

The engines raise :class:`rules.errors.IllegalAction` with a code, the facts it names as
``params`` and an English sentence (which stays the English text and the log's). A code that is
raised in several places with different facts has a sentence that names only the facts every
raise site gives (``tests/lang`` checks it against the source).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from lang import SOURCE_LANGUAGE, Joined, M, Msg, current, normalise

SENTENCES: dict[str, Msg] = {
    # ---- reading and setting up
    "malformed_action": M("That move cannot be read; choose it from the buttons or the suggestions."),
    "bad_config": M("Those game options do not fit together; see /ttr rules."),
    "bad_setting": M("That setting cannot be used; see the settings in /ttr rules."),
    "setting_out_of_range": M(
        "Setting {setting} takes a whole number from {minimum} to {maximum}.",
        setting="",
        minimum=0,
        maximum=0,
    ),
    "bad_player_count": M("This game cannot be played with that many players."),
    "bad_state": M("This saved game is damaged and cannot be read."),
    "wrong_game": M("This saved game belongs to another game."),
    "unknown_ai": M("There is no AI of that kind."),
    "unknown_game": M("There is no such game."),
    # ---- whose turn
    "empty_plan": M("A plan needs at least one step."),
    "plan_too_long": M("A plan has at most {steps} steps.", steps=0),
    "unknown_step": M("This game cannot plan that step."),
    "malformed_plan": M("That plan cannot be read."),
    "not_your_turn": M("It is not your turn for that."),
    "not_a_seat": M("That seat is not in this game."),
    "bad_seat": M("That seat is not in this game."),
    "game_over": M("The game is over; no more moves."),
    "must_act": M("You must make a move: passing is allowed only when nothing else is."),
    "turn_underway": M("This turn is already under way; it cannot be skipped now."),
    "wrong_phase": M("That is not possible at this point of the game."),
    # The terminal's --set/--cards (bot/commands/rules.py)
    "setting_two_files": M("Two files for {setting}: {first} and {second}.", setting="", first="", second=""),
    "no_card_files": M("{game} loads no card files.", game=""),
    "card_file_which": M("Say which file {file} is with --set KEY=PATH ({keys}).", file="", keys=""),
}


def register_refusals(sentences: Mapping[str, Msg]) -> None:
    """Add a game's own refusal sentences (its front end's, see ``bot.games``): one per code, and a
    code is either shared (above) or one game's."""
    taken = sorted(set(sentences) & set(SENTENCES))
    if taken:
        raise ValueError(f"refusal codes {taken} already have a sentence")
    SENTENCES.update(sentences)


def unregister_refusals(codes: Iterable[str]) -> None:
    """Remove a game's refusal sentences (a test's toy game, once the test is over)."""
    for code in codes:
        SENTENCES.pop(code, None)


# Several problems of a group's card files at once (rules.firstclass.cards.InvalidCards: ``parts``).
INVALID_CARDS = M("The card files cannot be used. {problems}", problems="")


@dataclass(frozen=True)
class Refusal(Msg):
    """A refusal: English readers get the engine's own sentence (with every detail), others the
    catalog's sentence for its code."""

    english: str = ""

    def text(self, code: object | None = None) -> str:
        language = current() if code is None else normalise(code)
        if language == SOURCE_LANGUAGE and self.english:
            return self.english
        return super().text(language)


def refusal(code: str, english: str, params: Mapping[str, Any] | None = None) -> Msg | str:
    """The refusal ``code`` as a message for any reader; an unknown code keeps its English."""
    template = SENTENCES.get(code)
    if template is None:
        return english
    given = {k: v for k, v in (params or {}).items() if k in template.params}
    return Refusal(template.id, {**template.params, **given}, english=english)


def refusal_of(exc: Any) -> Msg | str:
    """``refusal`` for an :class:`~rules.errors.IllegalAction`; one that carries several coded
    problems (``parts``: a card file's, each with its file, line, column and value) reads as all of
    them, each worded for the reader."""
    parts = getattr(exc, "parts", None)
    if parts:
        problems = Joined(
            " ", parts=tuple(refusal(str(p.code), str(p), getattr(p, "params", None)) for p in parts)
        )
        return Refusal(INVALID_CARDS.id, {"problems": problems}, english=str(exc.message))
    return refusal(str(exc.code), str(exc.message), getattr(exc, "params", None))
