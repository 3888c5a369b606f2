"""Translated labels fit their boxes in every language (longer German and French words included).

Every text the renderers draw is measured with Pillow's ``textbbox`` against the image (panel
block) it is drawn on, and every text the renderer shortens to fit (``fit_text``, with an
ellipsis) is noted. A label is known by the line of the renderer that draws it (the same in every
language; a wrapped text may take more lines): a translation may neither run past its box nor be
cut where the English one is not. (Where the English source itself does not fit, that is the layout's matter, not a
translation's: the renderers' own tests own it.)
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from PIL import ImageDraw

import lang
import render.firstclass as fc_render
import render.ttr as ttr_render
import render.ttr_panel as ttr_panel
from render.ttr_sample import sample_view
from rules.games import new_game

NAMES = ["Ann", "Bo", "Cy", "Di", "Ed"]
LANGUAGES = list(lang.languages())


@contextmanager
def measuring() -> Iterator[dict[str, list[Any]]]:
    """Record every drawn text's box and every shortened text while the block runs (the board's
    panel blocks are drawn afresh: their cache would hide a label drawn for an earlier render)."""
    seen: dict[str, Any] = {"overflow": set(), "cut": set(), "drawn": [], "texts": {}}
    draw_text, fit_text, pil_text = ttr_render.draw_text, ttr_render.fit_text, ImageDraw.ImageDraw.text
    panel_draw_text, panel_fit_text = ttr_panel.draw_text, ttr_panel.fit_text

    def site() -> tuple[str, int]:
        frame = sys._getframe(3)  # the renderer's line that drew or fitted the text
        return frame.f_code.co_filename.rsplit("/", 1)[-1], frame.f_lineno

    def check(size: tuple[int, int], box: tuple[float, float, float, float], text: str) -> None:
        seen["drawn"].append(text)
        if box[0] < 0 or box[2] > size[0] or box[1] < 0 or box[3] > size[1]:
            where = site()
            seen["overflow"].add(where)
            seen["texts"][where] = text

    def measured_draw_text(img: Any, xy: Any, text: str, font: Any, fill: Any, anchor: str = "la") -> None:
        check(img.size, ImageDraw.Draw(img).textbbox(xy, text, font=font, anchor=anchor), text)
        draw_text(img, xy, text, font, fill, anchor)

    def measured_fit_text(text: str, fnt: Any, max_w: float) -> str:
        out = fit_text(text, fnt, max_w)
        if out != text:
            where = sys._getframe(1).f_code.co_filename.rsplit("/", 1)[-1], sys._getframe(1).f_lineno
            seen["cut"].add(where)
            seen["texts"][where] = text
        return str(out)

    def measured_pil_text(self: ImageDraw.ImageDraw, xy: Any, text: Any, *args: Any, **kwargs: Any) -> None:
        image = getattr(self, "_image", None)
        if image is not None and isinstance(text, str):
            font, anchor = kwargs.get("font"), kwargs.get("anchor")
            box = (
                self.multiline_textbbox(xy, text, font=font, anchor=anchor)
                if "\n" in text
                else self.textbbox(xy, text, font=font, anchor=anchor)
            )
            check(image.size, box, text)
        pil_text(self, xy, text, *args, **kwargs)

    ttr_render.draw_text = ttr_panel.draw_text = measured_draw_text  # type: ignore[assignment]
    ttr_render.fit_text = ttr_panel.fit_text = measured_fit_text  # type: ignore[assignment]
    with ttr_panel._BLOCKS_LOCK:
        ttr_panel._BLOCKS.clear()
    ImageDraw.ImageDraw.text = measured_pil_text  # type: ignore[method-assign]
    try:
        yield seen
    finally:
        ttr_render.draw_text, ttr_render.fit_text = draw_text, fit_text  # type: ignore[assignment]
        ttr_panel.draw_text, ttr_panel.fit_text = panel_draw_text, panel_fit_text  # type: ignore[assignment]
        ImageDraw.ImageDraw.text = pil_text  # type: ignore[method-assign]


def _ttr_views(board: str, code: str) -> list[tuple[str, dict[str, Any]]]:
    playing = {
        **sample_view(board),
        "language": code,
        "names": NAMES,
        "final_round": True,
        "final_turns_left": 3,
        "phase": "play",
        "current": 1,
        "pending": "draw_second",
    }
    hand = {**sample_view(board, seat=0), "language": code, "names": NAMES}
    over = {**sample_view(board, final=True), "language": code, "names": NAMES, "phase": "over"}
    opening = {
        **sample_view(board),
        "language": code,
        "names": NAMES,
        "phase": "setup",
        "to_act": [0, 1, 2],
        "last_action": None,
        "tunnel": None,
    }
    ended = {**over, "last_action": {"seat": 2, "kind": "tickets", "text": "drew tickets"}}
    return [
        ("board", playing),
        ("hand", hand),
        ("summary", over),
        ("opening board", opening),
        ("final board", ended),
    ]


def _draw_ttr(kind: str, view: dict[str, Any]) -> None:
    if kind.endswith("board"):
        ttr_render.snapshot_image(view, NAMES)
    elif kind == "hand":
        ttr_render.hand_image(view, NAMES)
    else:
        ttr_render.summary_image(view, NAMES)


def _worse_than_english(seen: dict[str, Any], english: dict[str, Any], what: str) -> list[str]:
    """Labels (by the renderer line drawing them) that overflow or are cut here but not in English."""
    return [f"{where}: {seen['texts'][where]!r}" for where in sorted(seen[what] - english[what])]


@pytest.mark.parametrize("board", ["usa", "europe", "switzerland", "germany"])
def test_ttr_labels_fit_their_boxes_in_every_language(board: str) -> None:
    english: dict[str, dict[str, Any]] = {}
    for code in LANGUAGES:
        for kind, view in _ttr_views(board, code):
            with measuring() as seen:
                _draw_ttr(kind, view)
            if code == lang.SOURCE_LANGUAGE:
                english[kind] = seen
                continue
            overflow = _worse_than_english(seen, english[kind], "overflow")
            assert not overflow, f"{board} {kind} [{code}] runs past its box: {overflow[:3]}"
            cut = _worse_than_english(seen, english[kind], "cut")
            assert not cut, f"{board} {kind} [{code}]: label(s) cut that fit in English: {cut[:3]}"


def _fc_views(code: str) -> list[tuple[str, dict[str, Any]]]:
    game = new_game("first-class", {}, players=3, seed=5)
    for _ in range(12):  # a few turns: taken cards, coins, pending symbols
        seat = game.seats_to_act()[0]
        game.apply(seat, game.legal_actions(seat)[0])
    extra = {"language": code, "names": NAMES[:3]}
    return [("table", {**game.view(None), **extra}), ("player", {**game.view(0), **extra})]


def test_first_class_labels_fit_their_boxes_in_every_language() -> None:
    english: dict[str, dict[str, Any]] = {}
    for code in LANGUAGES:
        for kind, view in _fc_views(code):
            with measuring() as seen:
                if kind == "table":
                    fc_render.render_table(view)
                else:
                    fc_render.render_player_board(view, 0)
            assert seen["drawn"], "nothing measured"
            if code == lang.SOURCE_LANGUAGE:
                english[kind] = seen
                continue
            overflow = _worse_than_english(seen, english[kind], "overflow")
            assert not overflow, f"First Class {kind} [{code}] runs past its box: {overflow[:3]}"


def test_the_measure_notices_an_overflow() -> None:
    """The check can fail: a label wider than its block is reported."""
    from PIL import Image

    from render.common import font

    with measuring() as seen:
        ttr_render.draw_text(Image.new("RGB", (50, 20)), (0, 0), "Zielkartenübersicht", font(16), (0, 0, 0))
        ttr_render.draw_text(Image.new("RGB", (500, 20)), (0, 0), "Ziel", font(16), (0, 0, 0))
    assert len(seen["overflow"]) == 1
