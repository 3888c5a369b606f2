"""First Class's front-end parts: its words, its pictures and its terminal menu, as the typed
objects :mod:`bot.games.catalog` lists. The pictures are imported when first drawn."""

from __future__ import annotations

from collections.abc import Mapping

from bot.games.api import FrontEnd, GameWords, View
from bot.games.firstclass import refusals, words
from lang.firstclass import setting_words


class FirstClassWords(GameWords):
    def card_file_words(self, key: str) -> str | None:
        return words.card_file_words(key)

    def forced_words(self, clause: str) -> str | None:
        return words.forced_words(clause)

    def title_words(self, title: str) -> str | None:
        return words.game_title(title)

    def event_words(self, event: Mapping[str, object]) -> str | None:
        return words.event_words(dict(event))

    def rules_words(self, config: dict[str, object]) -> list[str] | None:
        return words.rules_words(config)

    def score_words(self, label: str) -> str | None:
        return words.score_words(label)

    def setting_words(self, key: str, label: str, help_text: str) -> tuple[str, str] | None:
        return setting_words(key, label, help_text)


class FirstClassDrawing:
    def board_png(self, view: View) -> bytes | None:
        from render import firstclass

        return firstclass.board_png(view)

    def hand_png(self, view: View) -> bytes | None:
        from render import firstclass

        return firstclass.hand_png(view)

    def hand_state(self, view: View) -> View:
        return view  # the player board shows the whole table around it

    def summary_png(self, view: View) -> bytes | None:
        from render import firstclass

        return firstclass.summary_png(view)

    def prewarm(self) -> bool:
        return False  # First Class draws no cached layers


class FirstClassTerminal:
    def help(self) -> str:
        return words.terminal_help()

    def text(self, view: View) -> str:
        return words.terminal_text(view)

    def prompt(self, view: View, seat: int | None, kinds: set[str]) -> str:
        return words.terminal_prompt(view, seat, kinds)

    def choices(self, view: View, seat: int | None, legal: list[str]) -> list[tuple[str, str]]:
        return words.terminal_choices(view, seat, legal)

    def menu(self, view: View, seat: int | None, choices: list[tuple[str, str]]) -> list[str]:
        return words.terminal_menu(view, seat, choices)


FRONT_END = FrontEnd(
    "first-class",
    words=FirstClassWords(),
    drawing=FirstClassDrawing(),
    terminal=FirstClassTerminal(),
    refusals=refusals.SENTENCES,
)
