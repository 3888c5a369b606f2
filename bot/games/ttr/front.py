"""Ticket to Ride's front-end parts: its words, its pictures and its animated replay, as the typed
objects :mod:`bot.games.catalog` lists. The pictures are imported when first drawn, so reading a
board in words never loads Pillow."""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence

from bot.games.api import FrontEnd, GameWords, View
from bot.games.ttr import plan_words, refusals, words
from lang import Msg
from rules.plans import Step


class TTRWords(GameWords):
    def forced_words(self, clause: str) -> str | None:
        return words.forced_words(clause)

    def title_words(self, title: str) -> str | None:
        return words.game_title(title)

    def board_words(self, name: str) -> str | None:
        return words.board_words(name)

    def board_text(self, view: View, *, title: str | None = None) -> str | None:
        return words.board_text(view, title=title)

    def hand_text(self, view: View) -> str | None:
        return words.hand_text(view)

    def map_key(self, view: View) -> Hashable | None:
        return words.map_key(view)

    def event_words(self, event: Mapping[str, object]) -> str | None:
        return words.event_words(dict(event))

    def view_words(self, view: View) -> View:
        return words.view_words(view)

    def rules_words(self, config: dict[str, object]) -> list[str] | None:
        return words.rules_words(config)

    def score_words(self, label: str) -> str | None:
        return words.score_words(label)

    def plan_step_words(self, step: Step, config: Mapping[str, object]) -> Msg | None:
        return plan_words.plan_step_words(step, config)


class TTRDrawing:
    def board_png(self, view: View) -> bytes | None:
        from render import ttr

        return ttr.board_png(view)

    def hand_png(self, view: View) -> bytes | None:
        from render import ttr

        return ttr.hand_png(view)

    def hand_state(self, view: View) -> View:
        from render import ttr

        return ttr.hand_view(view)

    def summary_png(self, view: View) -> bytes | None:
        from render import ttr

        return ttr.summary_png(view)

    def prewarm(self) -> bool:
        from render import ttr

        ttr.prewarm()
        return True


class TTRReplay:
    def animate(self, views: Sequence[View], names: list[str] | None, width: int, frame_ms: int) -> bytes:
        from render import ttr

        return ttr.render_replay(list(views), names, width=width, frame_ms=frame_ms)

    def frame_count(self, data: bytes) -> int:
        from render import ttr

        return ttr.replay_frame_count(data)


FRONT_END = FrontEnd(
    "ttr",
    words=TTRWords(),
    drawing=TTRDrawing(),
    replay=TTRReplay(),
    terminal_help=words.terminal_help,
    refusals=refusals.SENTENCES,
)
