"""The Ticket to Ride board's score panel, laid out under the map and sized for a phone.

Discord shows a posted image about :data:`~render.common.PREVIEW_WIDTH` pixels wide. Every text a
player reads at a glance here (who is to play, the last move, names, scores, trains, cards,
tickets, the face-up cards) is sized with :func:`~render.common.legible_size`, so its capitals stay
at least :data:`~render.common.MIN_PREVIEW_CAP_PX` tall in that preview; the legend and the data
notes are detail for the zoomed picture and smaller.

The panel is planned first (texts, wrapping, column widths, hence its height) and then drawn
straight into the snapshot canvas under the map, so no panel-sized image is built and copied.
"""

from __future__ import annotations

import math
import threading
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache, partial
from typing import Any

from PIL import Image, ImageDraw, ImageFont

from lang import N_, normalise, pictures
from render.common import (
    CARD_COLOURS,
    HIGHLIGHT,
    MIN_PREVIEW_CAP_PX,
    MUTED,
    PANEL_BG,
    PANEL_LINE,
    RAINBOW,
    RGB,
    SS,
    TEXT,
    card_glyphs,
    disc_stamp,
    draw_text,
    fit_text,
    font,
    ink_for,
    legible_size,
    mix,
    paste_centred,
    player_colour,
    player_glyph,
    route_glyphs,
    text_length,
)
from rules.ttr.board import Board

View = dict[str, Any]

FINAL_ROUND_RED: RGB = (190, 30, 45)
#: The width the panel's spacing was drawn for; spacing scales with the image, text by legibility.
DESIGN_WIDTH = 1240
#: The market column needs room for five cards this wide (design pixels) beside the table.
MIN_CARD_W = 54
#: Table geometry in design pixels: the seat disc's column, the gap between columns, and the
#: widest name shown whole (longer names end in an ellipsis; the bot's text has them in full).
DISC_W = 52
COL_GAP = 16
MAX_NAME_W = 270
#: Translated with the view's language when drawn (``pictures`` domain).
LEGEND_LINES = (
    N_("Claimed: solid bars in the player's colour, seat number on each car · magenta glow = last move"),
    N_("Dashed frame = tunnel · L = ferry locomotive"),
)
#: The first legend line: the letters of the route colours, each with its colour's name, in the
#: picture's language (the letters are the language's own, see ``render.common.route_glyphs``).
LEGEND_LETTERS = N_("Free routes: hollow spaces, letter = colour: {letters} · = gray")
COLOUR_NAMES = {
    "red": N_("red"),
    "orange": N_("orange"),
    "yellow": N_("yellow"),
    "green": N_("green"),
    "blue": N_("blue"),
    "pink": N_("pink"),
    "black": N_("black"),
    "white": N_("white"),
}


def legend_letters(language: str) -> str:
    """The legend's line of colour letters in ``language``: "R=rot O=orange Ge=gelb Gr=grün …"."""
    t = pictures(language)
    glyphs = route_glyphs(language)
    letters = " ".join(f"{glyphs[c]}={t(name)}" for c, name in COLOUR_NAMES.items())
    return t(LEGEND_LETTERS, letters=letters)


# The boards' names (``board.toml`` ``name``), translated in the status line; a new board keeps
# its own. The boards' names of the longest-path bonus (``longest_path_name``), translated where
# the summary draws them (:mod:`render.ttr`).
BOARD_NAMES = (N_("USA"), N_("Europe"), N_("Switzerland"), N_("Märklin"))
BONUS_NAMES = (N_("Longest continuous path"), N_("Longest path"), N_("European Express"))


# --- Shared pieces (also used by the hand image) -------------------------------------------------


@lru_cache(maxsize=256)
def card_tile(name: str, w: int, h: int, language: str = "en") -> Image.Image:
    """A train card face: its colour (rainbow stripes for locomotives) and its letter in
    ``language``."""
    big_w, big_h = w * SS, h * SS
    face = Image.new("RGBA", (big_w, big_h), (0, 0, 0, 0))
    d = ImageDraw.Draw(face)
    fill = CARD_COLOURS.get(name, (200, 200, 200))
    rad = min(big_w, big_h) * 0.14
    if name in ("locomotive", "plus4"):
        stripes = Image.new("RGBA", (big_w, big_h), (0, 0, 0, 0))
        sd = ImageDraw.Draw(stripes)
        n = len(RAINBOW)
        for i, c in enumerate(RAINBOW):
            sd.rectangle((0, big_h * i / n, big_w, big_h * (i + 1) / n + 1), fill=c)
        mask = Image.new("L", (big_w, big_h), 0)
        ImageDraw.Draw(mask).rounded_rectangle((0, 0, big_w - 1, big_h - 1), radius=rad, fill=255)
        face.paste(stripes, (0, 0), mask)
        d.rounded_rectangle((0, 0, big_w - 1, big_h - 1), radius=rad, outline=(30, 30, 30), width=2 * SS)
        ink: RGB = (255, 255, 255)
    else:
        d.rounded_rectangle(
            (0, 0, big_w - 1, big_h - 1), radius=rad, fill=fill, outline=(30, 30, 30), width=2 * SS
        )
        ink = ink_for(fill)
    glyph = card_glyphs(language).get(name, "?")
    fsize = min(big_w, big_h) * {1: 0.5, 2: 0.36}.get(len(glyph), 0.27)
    fnt = font(int(fsize), "bold")
    if name in ("locomotive", "plus4"):
        # A dark plate behind the letters so they read on the stripes.
        box = fnt.getbbox(glyph, anchor="mm")
        m = fsize * 0.28
        plate = (
            big_w / 2 + box[0] - m,
            big_h / 2 + box[1] - m,
            big_w / 2 + box[2] + m,
            big_h / 2 + box[3] + m,
        )
        d.rounded_rectangle(plate, radius=(plate[3] - plate[1]) / 2, fill=(30, 30, 30))
    d.text((big_w / 2, big_h / 2), glyph, font=fnt, fill=ink, anchor="mm")
    return face.resize((w, h), Image.Resampling.LANCZOS)


def card_row(
    img: Image.Image,
    names: Sequence[str | None],
    x: int,
    y: int,
    cw: int,
    ch: int,
    gap: int,
    language: str = "en",
) -> None:
    """Card faces left to right from (x, y); ``None`` is an empty slot."""
    d = ImageDraw.Draw(img)
    for i, name in enumerate(names):
        cx = x + i * (cw + gap)
        if name is None:
            d.rounded_rectangle((cx, y, cx + cw, y + ch), radius=int(cw * 0.14), outline=PANEL_LINE, width=2)
            continue
        tile = card_tile(name, cw, ch, language)
        img.paste(tile, (cx, y), tile)


def wrap(text: str, fnt: ImageFont.FreeTypeFont, max_w: float) -> list[str]:
    """Greedy word wrap to ``max_w`` pixels (a single over-long word is shortened)."""
    lines: list[str] = []
    line = ""
    for word in text.split():
        trial = f"{line} {word}".strip()
        if line and text_length(trial, fnt) > max_w:
            lines.append(line)
            line = word
        else:
            line = trial
    if line:
        lines.append(line)
    return [fit_text(x, fnt, max_w) for x in lines] or [""]


def final_rows(view: View) -> list[dict[str, Any]]:
    """The per-seat final scores, whether ``final`` is a list or a dict holding one."""
    final = view.get("final")
    if final is None:
        raise ValueError("render_summary needs a finished game's view (view['final'] is None)")
    if isinstance(final, dict):
        for key in ("seats", "players", "scores"):
            if isinstance(final.get(key), list):
                return list(final[key])
        return [v for v in final.values() if isinstance(v, dict)]
    return list(final)


def action_sentence(view: View, board: Board, names: Sequence[str]) -> str | None:
    """A short human description of the last action."""
    last = view.get("last_action")
    if not last:
        return None
    seat = last.get("seat")
    t = pictures(view.get("language"))
    who = names[seat] if isinstance(seat, int) and 0 <= seat < len(names) else t("Someone")
    kind = str(last.get("kind") or "")
    tracks = [
        t
        for t in (board.track_by_id.get(str(tid).lower()) for tid in last.get("tracks") or [])
        if t is not None
    ]
    cities = list(last.get("cities") or [])
    # The engine's own text is already a phrase ("claimed A–B", "drew tickets"); a few kinds read
    # better with the route length or a fuller verb.
    if kind == "claim" and tracks:
        return t(
            "{player} claimed {route} ({length})", player=who, route=tracks[0].label, length=tracks[0].length
        )
    if kind == "tunnel" and tracks:
        return t("{player} is trying the tunnel {route}", player=who, route=tracks[0].label)
    if kind == "station" and cities:
        return t("{player} built a station in {city}", player=who, city=cities[0])
    if kind == "passenger" and cities:
        return t("{player} moved a passenger from {city}", player=who, city=cities[0])
    # The engine's phrase for the other kinds is English: the known kinds read in the language.
    phrases = {
        "tickets": t("drew tickets"),
        "draw": t("drew cards"),
        "pass": t("passed"),
        "skip_turn": t("turn skipped"),
        "tunnel_withdraw": t("withdrew from a tunnel"),
    }
    text = phrases.get(kind) or str(last.get("text") or kind)
    return f"{who} {text}"


# --- Fonts and plan ------------------------------------------------------------------------------


@dataclass(frozen=True)
class PanelFonts:
    """The panel's fonts for one image width. All but ``small`` meet the preview minimum."""

    body: ImageFont.FreeTypeFont  # counts, column heads, deck line
    body_bold: ImageFont.FreeTypeFont  # labels on coloured pills
    strong: ImageFont.FreeTypeFont  # status, names, the last move
    score: ImageFont.FreeTypeFont
    small: ImageFont.FreeTypeFont  # legend and notes: zoom detail

    def legible(self) -> tuple[ImageFont.FreeTypeFont, ...]:
        """The fonts promised to stay readable in the preview."""
        return (self.body, self.body_bold, self.strong, self.score)


@lru_cache(maxsize=16)
def panel_fonts(width: int) -> PanelFonts:
    """Fonts for a panel in an image ``width`` pixels wide (the whole image, which the preview
    scales down to :data:`PREVIEW_WIDTH`)."""
    return PanelFonts(
        body=font(legible_size(width, "regular"), "regular"),
        body_bold=font(legible_size(width, "bold"), "bold"),
        strong=font(legible_size(width, "bold", MIN_PREVIEW_CAP_PX + 1), "bold"),
        score=font(legible_size(width, "bold", MIN_PREVIEW_CAP_PX + 2.5), "bold"),
        small=font(max(11, round(17 * width / DESIGN_WIDTH)), "regular"),
    )


def _line_h(fnt: ImageFont.FreeTypeFont) -> int:
    return int(round(fnt.size * 1.3))


@dataclass(frozen=True)
class Column:
    head: str
    values: tuple[str, ...]
    width: int
    bold: bool = False


@dataclass
class PanelPlan:
    """Everything the panel will show, measured: built by :func:`plan_panel`, drawn by
    :func:`draw_panel`."""

    width: int
    u: float  # design pixels to image pixels
    language: str  # the labels' language (a :func:`lang.languages` code); part of every block key
    fonts: PanelFonts
    status: str
    badge: str | None  # the final-round warning
    badge_below: bool  # the badge does not fit beside the status
    last_lines: list[str]
    last_indent: int
    tunnel: dict[str, Any] | None
    tunnel_label: str
    seats: list[int]
    names: list[str]
    acting: set[int]
    columns: list[Column]
    name_w: int
    market_beside: bool
    market_w: int
    card_w: int
    deck_lines: list[str]
    legend: list[str]
    height: int = 0
    sections: dict[str, int] | None = None  # top y of each section, filled by the plan


def _status(view: View, board: Board, names: Sequence[str]) -> str:
    t = pictures(view.get("language"))
    phase = view.get("phase")
    title = t(str(view.get("board_name") or board.name))  # the boards' names are in the catalog
    if view.get("variant"):
        title += f" ({view['variant']})"
    cur = view.get("current")
    if phase == "over":
        status = t("Game over")
        try:
            winners = [int(r["seat"]) for r in final_rows(view) if int(r.get("rank", 0) or 0) == 1]
        except (ValueError, KeyError, TypeError):
            winners = []
        if winners:
            who = (" " + t("and") + " ").join(
                names[w] if w < len(names) else t("Player {n}", n=w + 1) for w in winners
            )
            status += " · " + (
                t("{players} wins", players=who) if len(winners) == 1 else t("{players} win", players=who)
            )
    elif phase == "setup":
        status = t("Everyone chooses first tickets")
    elif isinstance(cur, int):
        pend = {
            "draw_second": " " + t("(second card)"),
            "tickets": " " + t("(choosing tickets)"),
            "tunnel": " " + t("(tunnel)"),
        }.get(str(view.get("pending")), "")
        status = (
            t(
                "Turn {turn} · {player} to play",
                turn=int(view.get("turn", 0)) + 1,
                player=names[cur] if cur < len(names) else cur,
            )
            + pend
        )
    else:
        status = t("Turn {turn}", turn=view.get("turn", 0))
    return f"{title} · {status}"


def _columns(view: View, board: Board, f: PanelFonts, gap: int) -> list[Column]:
    """The table's columns, each as wide as its translated head or its widest figure."""
    seats = list(view.get("seats") or [])
    t = pictures(view.get("language"))

    def col(head: str, values: list[str], bold: bool = False) -> Column:
        vf = f.score if bold else f.body
        w = max([text_length(head, f.body), *(text_length(v, vf) for v in values)])
        return Column(head, tuple(values), int(w) + gap, bold)

    def tickets(s: dict[str, Any]) -> str:
        if s.get("tickets_completed") is not None:  # revealed at the end
            return f"{s['tickets_completed']}/{s.get('tickets', 0)}"
        return str(s.get("tickets", 0))

    cols = [
        col(t("Score"), [str(s.get("score", 0)) for s in seats], bold=True),
        col(t("Trains"), [str(s.get("trains", 0)) for s in seats]),
        col(t("Cards"), [str(s.get("cards", 0)) for s in seats]),
        col(t("Tickets"), [tickets(s) for s in seats]),
    ]
    if int(board.rules.get("stations", 0) or 0) > 0:
        cols.append(col(t("Stations"), [str(s.get("stations", 0)) for s in seats]))
    if int(board.rules.get("passengers", 0) or 0) > 0:
        cols.append(col(t("Passengers"), [str(s.get("passengers", 0)) for s in seats]))
    return cols


def plan_panel(view: View, board: Board, names: Sequence[str], width: int) -> PanelPlan:
    """Measure the panel for ``view`` in an image ``width`` pixels wide."""
    f = panel_fonts(width)
    u = width / DESIGN_WIDTH
    language = normalise(view.get("language"))
    t = pictures(language)
    pad = round(16 * u)
    inner = width - 2 * pad
    status = _status(view, board, names)
    badge = None
    if view.get("final_round") and view.get("phase") != "over":
        left = view.get("final_turns_left")
        badge = t("FINAL ROUND") + (
            " · " + (t("1 turn left") if left == 1 else t("{n} turns left", n=left))
            if left is not None
            else ""
        )
    badge_w = int(text_length(badge, f.body_bold)) + 2 * pad if badge else 0
    badge_below = bool(badge) and text_length(status, f.strong) + badge_w + pad > inner

    sentence = action_sentence(view, board, names)
    last_indent = int(text_length(t("LAST MOVE"), f.body_bold)) + 3 * pad
    last_lines = wrap(sentence, f.strong, inner - last_indent - pad) if sentence else []

    tunnel = view.get("tunnel") or None
    tunnel_label = ""
    if tunnel:
        track = board.track_by_id.get(str(tunnel.get("track", "")).lower())
        tunnel_label = track.label if track else str(tunnel.get("track"))

    seats_info = list(view.get("seats") or [])
    seats = [int(s["seat"]) for s in seats_info]
    current = view.get("current")
    setup = view.get("phase") == "setup"
    to_act = {int(s) for s in view.get("to_act") or []}
    acting = {s for s in seats if s == current or (setup and s in to_act)}
    col_gap = round(COL_GAP * u)
    columns = _columns(view, board, f, col_gap)
    arrow = set() if setup else acting  # the row's "▶": whose turn it is (none while all choose)
    longest = max(
        (text_length(("▶ " if s in arrow else "") + _name(names, s, t), f.strong) for s in seats), default=0
    )
    name_w = round(DISC_W * u) + math.ceil(min(max(longest, 150 * u), MAX_NAME_W * u)) + col_gap
    table_w = name_w + sum(c.width for c in columns)
    card_gap = round(8 * u)
    market_w = width - table_w - 3 * pad
    market_beside = market_w >= 5 * MIN_CARD_W * u + 4 * card_gap
    if not market_beside:
        market_w = inner
    card_w = int(min(66 * u, (min(market_w, 420 * u) - 4 * card_gap) / 5))

    sizes = view.get("ticket_deck_sizes") or {}
    if len(sizes) > 1:
        kinds = {"short": t("short"), "long": t("long")}
        tickets = " + ".join(f"{v} {kinds.get(key, key)}" for key, v in sizes.items() if v or key == "short")
    else:
        tickets = str(sum(int(v) for v in sizes.values()))
    deck_text = [
        t(
            "Deck {deck} · Discard {discard}",
            deck=view.get("deck_size", 0),
            discard=view.get("discard_size", 0),
        ),
        t("Tickets {tickets}", tickets=tickets),
    ]
    deck_room = market_w if market_beside else inner - (5 * card_w + 4 * card_gap) - 2 * pad
    deck_lines = [line for t in deck_text for line in wrap(t, f.body, deck_room)]

    legend = wrap(legend_letters(language), f.small, inner)
    legend += [fit_text(t(line), f.small, inner) for line in LEGEND_LINES]
    # Data caveats from the engine (stand-in ticket deck, provisional merchandise) in full.
    legend += [
        line
        for note in view.get("notes") or []
        for line in wrap(t("Note: {note}", note=note), f.small, inner)
    ]

    plan = PanelPlan(
        width,
        u,
        language,
        f,
        status,
        badge,
        badge_below,
        last_lines,
        last_indent,
        tunnel,
        tunnel_label,
        seats,
        list(names),
        acting,
        columns,
        name_w,
        market_beside,
        market_w,
        card_w,
        deck_lines,
        legend,
    )
    _place(plan)
    return plan


def _name(names: Sequence[str], seat: int, t: Callable[..., str]) -> str:
    return names[seat] if seat < len(names) else t("Player {n}", n=seat + 1)


def _row_h(p: PanelPlan) -> int:
    return max(_line_h(p.fonts.score), round(56 * p.u))


def _place(p: PanelPlan) -> None:
    """Fill in each section's top and the panel's height."""
    f, u = p.fonts, p.u
    pad = round(16 * u)
    y = round(10 * u)
    sec: dict[str, int] = {"status": y}
    y += _line_h(f.strong)
    if p.badge and p.badge_below:
        sec["badge"] = y
        y += _line_h(f.body_bold) + round(10 * u)
    if p.last_lines:
        sec["last"] = y
        y += len(p.last_lines) * _line_h(f.strong) + round(14 * u)
    if p.tunnel:
        sec["tunnel"] = y
        y += int(p.card_w * 1.3) + round(16 * u)
    sec["rule"] = y
    y += round(8 * u)
    sec["table"] = y
    table_h = _line_h(f.body) + len(p.seats) * _row_h(p)
    ch = int(p.card_w * 1.25)
    market_h = _line_h(f.body) + ch + round(10 * u) + len(p.deck_lines) * _line_h(f.body)
    if p.market_beside:
        y += max(table_h, market_h)
    else:
        y += table_h + round(12 * u)
        sec["market"] = y
        y += max(_line_h(f.body) + ch, len(p.deck_lines) * _line_h(f.body)) + round(6 * u)
    y += round(10 * u)
    sec["legend"] = y
    y += len(p.legend) * _line_h(f.small) + pad // 2
    p.sections = sec
    p.height = y


# --- Drawing -------------------------------------------------------------------------------------
#
# The panel is cut into blocks (the header strip, the column heads, one block per player row, the
# market, the legend), each drawn at its own origin into its own image and named by everything it
# shows. From one turn to the next most blocks are the same (three player rows of five, the legend,
# often the market), so their images, and their palette mappings, are kept and pasted again.


@dataclass(frozen=True)
class Block:
    """One rectangle of the panel: ``key`` names its whole content, ``box`` is where it goes."""

    key: tuple[Any, ...]
    box: tuple[int, int, int, int]
    draw: Callable[[Image.Image], None]  # draws into an image of the box's size, at its origin


def panel_blocks(p: PanelPlan, view: View) -> list[Block]:
    """The planned panel as blocks that tile it (uncovered parts are the panel background)."""
    assert p.sections is not None
    f, u, w = p.fonts, p.u, p.width
    pad = round(16 * u)
    sec = p.sections
    # Every key holds the language: a block's labels ("LAST MOVE", the heads) are drawn from it.
    fonts = (p.language, f.body.size, f.strong.size, f.score.size, f.small.size)
    t = pictures(p.language)
    blocks: list[Block] = []

    head_h = sec["rule"] + 1
    head_key = (
        "head",
        w,
        fonts,
        p.status,
        p.badge,
        p.badge_below,
        tuple(p.last_lines),
        p.last_indent,
        repr(p.tunnel),
        p.tunnel_label,
        p.card_w,
        tuple(sorted(sec.items())),
    )
    blocks.append(Block(head_key, (0, 0, w, head_h), lambda img: _draw_head(img, p)))

    x_cols: list[int] = []
    x = pad + p.name_w
    for c in p.columns:
        x += c.width
        x_cols.append(x - round(COL_GAP * u))  # right edge of the column's text
    table_right = x_cols[-1] + pad // 2 if x_cols else pad + p.name_w
    left_w = w - pad - p.market_w if p.market_beside else w
    heads = tuple(c.head for c in p.columns)
    y = sec["table"]
    line_h = _line_h(f.body)
    blocks.append(
        Block(
            ("heads", w, fonts, heads, tuple(x_cols)),
            (0, y, left_w, y + line_h),
            lambda img: _draw_heads(img, p, x_cols),
        )
    )
    y += line_h
    row_h = _row_h(p)
    for i, seat in enumerate(p.seats):
        acting = seat in p.acting
        arrow = acting and view.get("phase") != "setup"
        values = tuple(c.values[i] for c in p.columns)
        name = _name(p.names, seat, t)
        key = (
            "row",
            w,
            fonts,
            seat,
            name,
            acting,
            arrow,
            values,
            tuple(x_cols),
            p.name_w,
            row_h,
            table_right,
        )
        draw = partial(
            _draw_row,
            p=p,
            seat=seat,
            name=name,
            acting=acting,
            arrow=arrow,
            values=values,
            x_cols=x_cols,
            table_right=table_right,
        )
        blocks.append(Block(key, (0, y, left_w, y + row_h), draw))
        y += row_h

    face_up = tuple(view.get("face_up") or [None] * 5)
    market_key = ("market", w, fonts, p.market_beside, p.market_w, p.card_w, face_up, tuple(p.deck_lines))
    if p.market_beside:
        mx = w - pad - p.market_w
        mh = _line_h(f.body) + int(p.card_w * 1.25) + round(10 * u) + len(p.deck_lines) * _line_h(f.body)
        blocks.append(
            Block(
                market_key,
                (mx, sec["table"], w, sec["table"] + mh),
                lambda img: _draw_market(img, p, face_up),
            )
        )
    else:
        mh = max(_line_h(f.body) + int(p.card_w * 1.25), len(p.deck_lines) * _line_h(f.body))
        blocks.append(
            Block(
                market_key,
                (0, sec["market"], w, sec["market"] + mh),
                lambda img: _draw_market(img, p, face_up),
            )
        )

    legend_key = ("legend", w, fonts, tuple(p.legend))
    blocks.append(Block(legend_key, (0, sec["legend"], w, p.height), lambda img: _draw_legend(img, p)))
    return blocks


def draw_panel(img: Image.Image, p: PanelPlan, view: View, top: int) -> None:
    """Draw the planned panel into ``img`` from row ``top`` down (the area is already the panel
    background), block by block."""
    for block in panel_blocks(p, view):
        x0, y0, x1, y1 = block.box
        img.paste(block_image(block), (x0, y0 + top))


_BLOCKS: OrderedDict[tuple[Any, ...], Image.Image] = OrderedDict()
_BLOCKS_KEPT = 256
_BLOCKS_LOCK = threading.Lock()  # renders may run in threads


def block_image(block: Block) -> Image.Image:
    """The block drawn on the panel background (kept for the blocks of recent panels)."""
    with _BLOCKS_LOCK:
        img = _BLOCKS.get(block.key)
        if img is not None:
            _BLOCKS.move_to_end(block.key)
            return img
    x0, y0, x1, y1 = block.box
    img = Image.new("RGB", (x1 - x0, y1 - y0), PANEL_BG)
    block.draw(img)
    with _BLOCKS_LOCK:
        _BLOCKS[block.key] = img
        if len(_BLOCKS) > _BLOCKS_KEPT:
            _BLOCKS.popitem(last=False)
    return img


def _draw_head(img: Image.Image, p: PanelPlan) -> None:
    """The top rule, the status (with the final-round warning), the last move and a tunnel."""
    assert p.sections is not None
    f, u, w = p.fonts, p.u, p.width
    pad = round(16 * u)
    sec = p.sections
    t = pictures(p.language)
    d = ImageDraw.Draw(img)
    d.line((0, 0, w, 0), fill=PANEL_LINE, width=max(1, round(2 * u)))
    lh = _line_h(f.strong)
    y = sec["status"] + lh / 2
    if p.badge:
        bw = int(text_length(p.badge, f.body_bold)) + 2 * pad
        bh = _line_h(f.body_bold)
        by = sec["badge"] if p.badge_below else sec["status"] + (lh - bh) / 2
        bx = pad if p.badge_below else w - pad - bw
        d.rounded_rectangle((bx, by, bx + bw, by + bh), radius=bh / 2, fill=FINAL_ROUND_RED)
        draw_text(
            img, (bx + bw / 2, by + bh / 2), p.badge, font=f.body_bold, fill=(255, 255, 255), anchor="mm"
        )
        room = w - 2 * pad - (0 if p.badge_below else bw + pad)
    else:
        room = w - 2 * pad
    draw_text(img, (pad, y), fit_text(p.status, f.strong, room), font=f.strong, fill=TEXT, anchor="lm")

    # The last move: a magenta pill (the map marks the same move in magenta) and the sentence.
    if p.last_lines:
        y0 = sec["last"]
        box_h = len(p.last_lines) * lh + round(8 * u)
        d.rounded_rectangle(
            (pad // 2, y0 - round(4 * u), w - pad // 2, y0 + box_h - round(4 * u)),
            radius=round(10 * u),
            fill=mix(HIGHLIGHT, (255, 255, 255), 0.86),
        )
        ph = _line_h(f.body_bold)
        pw = p.last_indent - 2 * pad
        d.rounded_rectangle(
            (pad, y0 + (lh - ph) / 2, pad + pw, y0 + (lh + ph) / 2), radius=ph / 2, fill=HIGHLIGHT
        )
        draw_text(
            img,
            (pad + pw / 2, y0 + lh / 2),
            t("LAST MOVE"),
            font=f.body_bold,
            fill=(255, 255, 255),
            anchor="mm",
        )
        for i, line in enumerate(p.last_lines):
            draw_text(img, (p.last_indent, y0 + i * lh + lh / 2), line, font=f.strong, fill=TEXT, anchor="lm")

    if p.tunnel:
        y0 = sec["tunnel"]
        tw, th = p.card_w, int(p.card_w * 1.3)
        label = t("Tunnel {route}:", route=p.tunnel_label)
        draw_text(img, (pad, y0 + th / 2), label, font=f.strong, fill=TEXT, anchor="lm")
        x = pad + int(text_length(label, f.strong)) + pad
        revealed = list(p.tunnel.get("revealed") or [])
        card_row(img, revealed, x, y0, tw, th, round(8 * u), p.language)
        x += len(revealed) * (tw + round(8 * u)) + pad
        sur = int(p.tunnel.get("surcharge") or 0)
        text = t("+{n} to pay", n=sur) if sur else t("no extra cost")
        draw_text(
            img,
            (x, y0 + th / 2),
            fit_text(text, f.strong, w - x - pad),
            font=f.strong,
            fill=HIGHLIGHT if sur else TEXT,
            anchor="lm",
        )
    d.line((pad, sec["rule"], w - pad, sec["rule"]), fill=PANEL_LINE, width=1)


def _draw_heads(img: Image.Image, p: PanelPlan, x_cols: list[int]) -> None:
    f = p.fonts
    head_h = _line_h(f.body)
    for c, xr in zip(p.columns, x_cols, strict=True):
        draw_text(img, (xr, head_h / 2), c.head, font=f.body, fill=MUTED, anchor="rm")


def _draw_row(
    img: Image.Image,
    p: PanelPlan,
    seat: int,
    name: str,
    acting: bool,
    arrow: bool,
    values: tuple[str, ...],
    x_cols: list[int],
    table_right: int,
) -> None:
    """One player's row: seat disc, name, then the figures right-aligned under their heads."""
    f, u = p.fonts, p.u
    pad = round(16 * u)
    d = ImageDraw.Draw(img)
    row_h = _row_h(p)
    col = player_colour(seat)
    cy = row_h / 2
    if acting:
        d.rounded_rectangle(
            (pad // 2, 2, table_right, row_h - 2), radius=round(10 * u), fill=mix(col, (255, 255, 255), 0.75)
        )
        d.rectangle((pad // 2, 2, pad // 2 + round(7 * u), row_h - 2), fill=col)
    r = round(19 * u)
    cx = pad + round(6 * u) + r
    paste_centred(img, disc_stamp(r, col, (20, 20, 20), max(1.0, 1.5 * u)), cx, cy)
    draw_text(img, (cx, cy), player_glyph(seat), font=f.body_bold, fill=ink_for(col), anchor="mm")
    shown = ("▶ " if arrow else "") + name
    nx = pad + round(DISC_W * u)
    draw_text(
        img,
        (nx, cy),
        fit_text(shown, f.strong, p.name_w - round(DISC_W * u) - round(COL_GAP * u)),
        font=f.strong,
        fill=TEXT,
        anchor="lm",
    )
    for c, xr, value in zip(p.columns, x_cols, values, strict=True):
        draw_text(img, (xr, cy), value, font=f.score if c.bold else f.body, fill=TEXT, anchor="rm")


def _draw_market(img: Image.Image, p: PanelPlan, face_up: tuple[str | None, ...]) -> None:
    """The face-up cards, the deck, the discard pile and the tickets left."""
    f, u = p.fonts, p.u
    gap = round(8 * u)
    cw, ch = p.card_w, int(p.card_w * 1.25)
    head_h = _line_h(f.body)
    t = pictures(p.language)
    label = t("Face-up cards")
    draw_text(
        img,
        (0 if p.market_beside else round(16 * u), head_h / 2),
        label,
        font=f.body,
        fill=MUTED,
        anchor="lm",
    )
    if p.market_beside:
        card_row(img, list(face_up), 0, head_h, cw, ch, gap, p.language)
        y = head_h + ch + round(10 * u)
        for line in p.deck_lines:
            draw_text(img, (0, y + head_h / 2), line, font=f.body, fill=TEXT, anchor="lm")
            y += head_h
        return
    x = round(16 * u)
    card_row(img, list(face_up), x, head_h, cw, ch, gap, p.language)
    x += 5 * cw + 4 * gap + round(32 * u)
    ty = (head_h + ch - len(p.deck_lines) * head_h) / 2
    for line in p.deck_lines:
        draw_text(img, (x, ty + head_h / 2), line, font=f.body, fill=TEXT, anchor="lm")
        ty += head_h


def _draw_legend(img: Image.Image, p: PanelPlan) -> None:
    f = p.fonts
    pad = round(16 * p.u)
    for i, line in enumerate(p.legend):
        draw_text(img, (pad, i * _line_h(f.small)), line, font=f.small, fill=MUTED)


__all__ = [
    "PanelFonts",
    "PanelPlan",
    "Block",
    "action_sentence",
    "block_image",
    "card_row",
    "card_tile",
    "draw_panel",
    "final_rows",
    "panel_blocks",
    "panel_fonts",
    "plan_panel",
    "wrap",
]
