"""The phone board's score panel (``render.ttr_panel``) reads in the view's language, and its
cached blocks never hand one language's labels to another."""

from __future__ import annotations

from typing import Any

from PIL import Image

import lang
import render.ttr as ttr_render
import render.ttr_panel as ttr_panel
from render.common import PANEL_BG
from render.ttr_sample import sample_view
from rules.ttr.board import load_board

NAMES = ["Ann", "Bo", "Cy", "Di", "Ed"]


def _view(code: str, **extra: Any) -> dict[str, Any]:
    return {**sample_view("europe"), "language": code, "names": NAMES, **extra}


def test_panel_labels_are_the_views_language() -> None:
    """Status, column heads, market lines and legend come from the pictures catalog."""
    board = load_board("europe")
    plan = ttr_panel.plan_panel(_view("de", phase="setup", to_act=[0, 1]), board, NAMES, 1240)
    assert plan.status.startswith("Europa · Alle wählen ihre ersten Zielkarten"), plan.status
    assert [c.head for c in plan.columns] == ["Punkte", "Waggons", "Karten", "Zielkarten", "Bahnhöfe"]
    assert plan.deck_lines[0].startswith("Stapel ") and plan.legend[0].startswith("Freie Strecken:")
    english = ttr_panel.plan_panel(_view("en"), board, NAMES, 1240)
    for code in lang.languages()[1:]:
        translated = ttr_panel.plan_panel(_view(code), board, NAMES, 1240)
        assert not {c.head for c in translated.columns} & {c.head for c in english.columns}, code
        assert translated.last_lines != english.last_lines, f"{code}: the last move is still English"


def test_column_width_is_measured_on_the_translated_head() -> None:
    """A head longer in German ("Zielkarten" for "Tickets") widens its column: no head overlaps."""
    board = load_board("europe")
    widths = {
        code: {c.head: c.width for c in ttr_panel.plan_panel(_view(code), board, NAMES, 1240).columns}
        for code in ("en", "de")
    }
    assert widths["de"]["Zielkarten"] > widths["en"]["Tickets"]


def test_cached_panel_blocks_are_kept_apart_by_language() -> None:
    """A board drawn in English and then in German from the warm caches is the German board drawn
    from cold ones: every German block taken from the cache is the block drawn afresh, and no
    block of one language is named like a block of the other."""
    english, german = _view("en"), _view("de")
    board = load_board("europe")
    ttr_render.render_board(english, NAMES)
    warm = ttr_render.render_board(german, NAMES)
    blocks = {
        code: ttr_panel.panel_blocks(ttr_panel.plan_panel(v, board, NAMES, 1240), v)
        for code, v in (("en", english), ("de", german))
    }
    assert not {b.key for b in blocks["en"]} & {b.key for b in blocks["de"]}
    for block in blocks["de"]:
        x0, y0, x1, y1 = block.box
        fresh = Image.new("RGB", (x1 - x0, y1 - y0), PANEL_BG)
        block.draw(fresh)
        assert ttr_panel.block_image(block).tobytes() == fresh.tobytes(), block.key[0]
    with ttr_panel._BLOCKS_LOCK:
        ttr_panel._BLOCKS.clear()
    with ttr_render._P_BLOCKS_LOCK:
        ttr_render._P_BLOCKS.clear()
    assert ttr_render.render_board(german, NAMES) == warm
    assert warm != ttr_render.render_board(english, NAMES)
