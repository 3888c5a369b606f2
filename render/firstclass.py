"""Pillow images for First Class, drawn from a view dict (``FirstClassGame.view``) to PNG bytes.

Pure functions: no game objects, no I/O except reading the bundled fonts. Sized for phones
(1000 px wide) and cheap (a few hundred shapes, fast PNG compression).
"""

from __future__ import annotations

import io
from functools import lru_cache
from pathlib import Path
from typing import Any

from PIL import Image, ImageDraw, ImageFont

from lang import pictures, using
from lang.firstclass import card_words, deck_words, effects_words, kind_words, symbol_words

FONT_DIR = Path(__file__).parent / "fonts"
RGB = tuple[int, int, int]
Font = ImageFont.FreeTypeFont | ImageFont.ImageFont

WIDTH = 1000
BG: RGB = (245, 240, 228)
INK: RGB = (30, 30, 34)
MUTED: RGB = (120, 115, 105)
SEAT_COLOURS: tuple[RGB, ...] = ((0, 114, 178), (213, 94, 0), (0, 158, 115), (204, 121, 167))
KIND_COLOURS: dict[str, RGB] = {
    "railcar": (150, 75, 45),
    "conductor": (40, 90, 160),
    "locomotive": (40, 120, 70),
    "route": (190, 140, 30),
    "contract": (110, 60, 140),
    "money": (200, 160, 20),
    "game_end": (20, 130, 140),
    "other": (100, 100, 100),
}
CAR_COLOURS: dict[int, RGB] = {
    0: (225, 220, 205),
    1: (205, 225, 240),
    2: (170, 205, 235),
    4: (120, 175, 225),
    7: (235, 190, 90),
    12: (215, 150, 40),
}


@lru_cache(maxsize=32)
def _font(size: int, bold: bool = False) -> Font:
    name = "DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf"
    path = FONT_DIR / name
    if path.exists():
        return ImageFont.truetype(str(path), size)
    return ImageFont.load_default(size=size)  # until the bundled fonts are present


def _ink(fill: RGB) -> RGB:
    lum = (0.2126 * fill[0] + 0.7152 * fill[1] + 0.0722 * fill[2]) / 255
    return INK if lum > 0.55 else (250, 250, 250)


def _png(img: Image.Image) -> bytes:
    buf = io.BytesIO()
    img.save(buf, format="PNG", compress_level=1)
    return buf.getvalue()


def _text_center(
    d: ImageDraw.ImageDraw, box: tuple[int, int, int, int], text: str, font: Font, fill: RGB
) -> None:
    x0, y0, x1, y1 = box
    d.text(((x0 + x1) / 2, (y0 + y1) / 2), text, font=font, fill=fill, anchor="mm")


def _text_width(text: str, font: Font) -> float:
    return float(font.getlength(text))


def wrap_to_width(text: str, font: Font, max_w: float) -> list[str]:
    """``text`` broken into lines no wider than ``max_w`` pixels at ``font`` (a word longer than the
    width is broken inside, with a hyphen: German compounds)."""
    lines: list[str] = []
    current = ""
    for word in text.split():
        candidate = f"{current} {word}" if current else word
        if _text_width(candidate, font) <= max_w:
            current = candidate
            continue
        if current:
            lines.append(current)
        while _text_width(word, font) > max_w and len(word) > 1:
            cut = len(word) - 1
            while cut > 1 and _text_width(word[:cut] + "-", font) > max_w:
                cut -= 1
            lines.append(word[:cut] + "-")
            word = word[cut:]
        current = word
    if current:
        lines.append(current)
    return lines


# Card texts shrink to fit their box rather than being cut: these sizes are tried in turn.
CARD_TEXT_SIZES = (14, 13, 12, 11, 10)


def fit_block(
    text: str, max_w: float, max_h: float, sizes: tuple[int, ...] = CARD_TEXT_SIZES, spacing: int = 2
) -> tuple[int, list[str], bool]:
    """The largest of ``sizes`` at which ``text`` wraps into ``max_w`` x ``max_h`` pixels:
    ``(size, lines, fits)``; ``fits`` is False when even the smallest size does not (then the
    lines that fit are given, the last one ending with an ellipsis)."""
    for size in sizes:
        lines = wrap_to_width(text, _font(size), max_w)
        if len(lines) * (size + spacing) - spacing <= max_h:
            return size, lines, True
    size = sizes[-1]
    room = max(1, int((max_h + spacing) // (size + spacing)))
    lines = wrap_to_width(text, _font(size), max_w)[:room]
    if lines:
        lines[-1] = lines[-1].rstrip("-") + "…"
    return size, lines, False


def _draw_block(
    d: ImageDraw.ImageDraw,
    box: tuple[int, int, int, int],
    text: str,
    fill: RGB,
    sizes: tuple[int, ...] = CARD_TEXT_SIZES,
    spacing: int = 2,
) -> None:
    """``text`` wrapped into ``box``, at the largest size that fits it whole."""
    x0, y0, x1, y1 = box
    size, lines, _fits = fit_block(text, x1 - x0, y1 - y0, sizes, spacing)
    y = y0
    for line in lines:
        d.text((x0, y), line, font=_font(size), fill=fill)
        y += size + spacing


def fit_size(text: str, max_w: float, size: int, smallest: int = 9, bold: bool = False) -> int:
    """The largest font size from ``size`` down to ``smallest`` at which ``text`` is no wider than
    ``max_w`` (``smallest`` if none is)."""
    while size > smallest and _text_width(text, _font(size, bold)) > max_w:
        size -= 1
    return size


def _seat_colour(seat: int) -> RGB:
    return SEAT_COLOURS[seat % len(SEAT_COLOURS)]


def _name(view: dict[str, Any], seat: int, limit: int = 18) -> str:
    """A seat's player name (the service's ``names``), else "Player N" counted from 1."""
    names = view.get("names") or []
    name = (
        str(names[seat])
        if 0 <= seat < len(names)
        else pictures(view.get("language"))("Player {n}", n=seat + 1)
    )
    return name if len(name) <= limit else name[: limit - 1] + "…"


# --- player board -------------------------------------------------------------------------------


def _draw_route(d: ImageDraw.ImageDraw, y: int, pl: dict[str, Any], t: Any = None) -> int:
    t = t or pictures(None)
    d.text(
        (20, y),
        t("Route (from Paris; gold = points, blue = bonus, red = locomotive)"),
        font=_font(18, True),
        fill=INK,
    )
    y += 44
    stations = pl["route"]
    loco = pl["locomotive"]
    step = min(78, (WIDTH - 100) // max(1, len(stations) + 1))
    r = min(28, step // 2 - 3)
    cy = y + r + 4
    xs = [40 + i * step + r for i in range(len(stations) + 1)]
    d.line([(xs[0], cy), (xs[-1], cy)], fill=MUTED, width=4)
    for i, x in enumerate(xs):
        reached = i <= loco
        if i == 0:
            fill, label = (90, 90, 90), "Paris"
        else:
            st = stations[i - 1]
            if st["kind"] == "P":
                fill, label = ((230, 190, 60) if reached else (245, 225, 160)), f"{st['points']}"
            else:
                fill, label = ((70, 140, 210) if reached else (185, 210, 235)), "B"
        d.ellipse((x - r, cy - r, x + r, cy + r), fill=fill, outline=INK, width=2)
        size = (13 if r >= 26 else 9) if i == 0 else (18 if r >= 20 else 14)
        _text_center(d, (x - r, cy - r, x + r, cy + r), label, _font(size, True), _ink(fill))
        if i == loco:
            d.polygon([(x - 10, cy - r - 16), (x + 10, cy - r - 16), (x, cy - r - 3)], fill=(200, 30, 30))
    y = cy + r + 8
    bonuses = [
        t("B{n}: {bonus}", n=s["index"], bonus=effects_words(str(s.get("bonus") or "")))
        for s in stations
        if s["kind"] == "B"
    ]
    if bonuses:
        _draw_block(d, (20, y, WIDTH - 20, y + 36), "  ·  ".join(bonuses), INK, sizes=(14, 13, 12, 11))
        y += 40
    return y + 6


def _draw_train(
    d: ImageDraw.ImageDraw, y: int, name: str, train: dict[str, Any], colour: RGB, t: Any = None
) -> int:
    t = t or pictures(None)
    heading = (
        t("Upper train - scores {n} now", n=train["points_now"])
        if name == "upper"
        else t("Lower train - scores {n} now", n=train["points_now"])
    )
    d.text((20, y), heading, font=_font(18, True), fill=INK)
    y += 44
    cw, ch, gap = 80, 92, 8
    x0 = 70
    # the conductor's start plate (space 0)
    d.rounded_rectangle((20, y + 20, 60, y + ch - 20), radius=6, fill=(180, 150, 90), outline=INK)
    cars = list(train["cars"])
    cells: list[tuple[str, RGB, str]] = []
    mail = t("MAIL")
    for v in cars:
        if v == -1:
            cells.append((mail, (150, 150, 150), t("mail car")))
        else:
            cells.append((str(v), CAR_COLOURS.get(v, (200, 200, 200)), ""))
    if train["tile"] is not None:
        cells.append((str(train["tile"]["value"]), (45, 45, 50), t("loco tile")))
    for i, (label, fill, sub) in enumerate(cells):
        x = x0 + i * (cw + gap)
        d.rounded_rectangle((x, y, x + cw, y + ch), radius=8, fill=fill, outline=INK, width=2)
        size = 30 if label != mail else fit_size(label, cw - 8, 18, bold=True)
        _text_center(d, (x, y, x + cw, y + ch - (18 if sub else 0)), label, _font(size, True), _ink(fill))
        if sub:
            _text_center(
                d, (x, y + ch - 26, x + cw, y + ch - 4), sub, _font(fit_size(sub, cw - 6, 12)), _ink(fill)
            )
        _text_center(d, (x, y + ch + 2, x + cw, y + ch + 18), str(i + 1), _font(12), MUTED)
    pos = train["conductor"]
    cx = 40 if pos == 0 else x0 + (pos - 1) * (cw + gap) + cw // 2
    d.ellipse((cx - 13, y - 16, cx + 13, y + 10), fill=colour, outline=INK, width=2)
    _text_center(d, (cx - 13, y - 16, cx + 13, y + 10), "C", _font(14, True), (255, 255, 255))
    return y + ch + 28


def _draw_coins(d: ImageDraw.ImageDraw, x: int, y: int, coins: list[int], t: Any = None) -> None:
    t = t or pictures(None)
    d.text((x, y), t("Coins: {n}", n=sum(coins)), font=_font(18, True), fill=INK)
    labels = (t("car"), t("move"), t("up"))
    for col, (n, cap) in enumerate(zip(coins, (5, 5, 2), strict=True)):
        cx = x + 20 + col * 70
        d.text((cx - 12, y + 28), labels[col], font=_font(13), fill=MUTED)
        for row in range(cap):
            cy = y + 60 + (4 - row) * 34
            filled = row < n
            d.ellipse(
                (cx - 14, cy - 14, cx + 14, cy + 14),
                fill=(235, 190, 40) if filled else BG,
                outline=INK,
                width=2,
            )


def render_player_board(view: dict[str, Any], seat: int) -> bytes:
    """One player's board: route, both trains with conductors, coins, contracts, cards."""
    pl = view["players"][seat]
    colour = _seat_colour(seat)
    img = Image.new("RGB", (WIDTH, 900), BG)
    d = ImageDraw.Draw(img)
    t = pictures(view.get("language"))
    with using(view.get("language")):  # card texts are worded in the game's language
        return _player_board(view, seat, pl, colour, img, d, t)


def _player_board(
    view: dict[str, Any],
    seat: int,
    pl: dict[str, Any],
    colour: RGB,
    img: Image.Image,
    d: ImageDraw.ImageDraw,
    t: Any,
) -> bytes:
    d.rectangle((0, 0, WIDTH, 56), fill=colour)
    d.text((20, 12), _name(view, seat), font=_font(28, True), fill=(255, 255, 255))
    d.text(
        (WIDTH - 20, 18),
        t(
            "Score {score}   Round {round}  Pile {pile}",
            score=pl["score"],
            round=view["round"],
            pile=view["pile"],
        ),
        font=_font(20, True),
        fill=(255, 255, 255),
        anchor="ra",
    )
    y = _draw_route(d, 70, pl, t)
    for name in ("upper", "lower"):
        y = _draw_train(d, y + 10, name, pl["trains"][name], colour, t)
    top = y + 6
    _draw_coins(d, 20, top, pl["coins"], t)
    x, x2 = 260, 640
    d.text((x, top), t("Contracts"), font=_font(18, True), fill=INK)
    ty = top + 28
    if not pl["contracts"]:
        d.text((x, ty), t("none open"), font=_font(15), fill=MUTED)
        ty += 22
    for c in pl["contracts"][:4]:
        _draw_block(
            d,
            (x, ty, x2 - 20, ty + 38),
            t("{card}: {text}", card=c["id"], text=card_words(c)),
            KIND_COLOURS["contract"],
            sizes=(15, 14, 13, 12, 11),
        )
        ty += 42
    d.text((x2, top), t("Cards"), font=_font(18, True), fill=INK)
    base = pl["completed_base"]
    lines = [
        t("Face-down pile: {n}", n=pl["completed_count"]),
        t(
            "Base cards: railcar {railcar}, loco {loco}, conductor {conductor}",
            railcar=base["railcar"],
            loco=base["locomotive"],
            conductor=base["conductor"],
        ),
        t("Mail cars left: {cars}", cars=", ".join(str(m) for m in pl["mails_left"]) or t("none")),
    ]
    if pl["game_end_cards"] is not None:
        ge = ", ".join(f"{kind_words(str(g['type']))} x{g['points']}" for g in pl["game_end_cards"]) or t(
            "none"
        )
        lines.append(t("Game End cards: {cards}", cards=ge))
    else:
        lines.append(t("Game End cards: {n} (hidden)", n=pl["game_end_count"]))
    if pl["pending"]:
        lines.append(t("Waiting: {symbols}", symbols="; ".join(symbol_words(p) for p in pl["pending"][:6])))
    yy = top + 28
    for line in lines:
        wrapped = wrap_to_width(line, _font(15), WIDTH - 20 - x2)
        for part in wrapped:
            d.text((x2, yy), part, font=_font(15), fill=INK)
            yy += 17
        yy += 5
    bottom = max(top + 250, ty, yy) + 10
    img = img.crop((0, 0, WIDTH, bottom))
    return _png(img)


# --- table --------------------------------------------------------------------------------------


def _draw_card(
    d: ImageDraw.ImageDraw, box: tuple[int, int, int, int], slot: dict[str, Any], view: dict[str, Any]
) -> None:
    x0, y0, x1, y1 = box
    status = slot["status"]
    card = slot["card"]
    t = pictures(view.get("language"))
    if card is None:
        d.rounded_rectangle(box, radius=8, fill=(225, 220, 210), outline=(190, 185, 175), width=2)
        if status.startswith("taken:"):
            seat = int(status.split(":")[1])
            mid = (y0 + y1) // 2
            _text_center(d, (x0, mid - 24, x1, mid - 4), t("taken by"), _font(13), _seat_colour(seat))
            _text_center(
                d, (x0, mid + 2, x1, mid + 22), _name(view, seat, 13), _font(14, True), _seat_colour(seat)
            )
        else:
            d.line((x0 + 10, y0 + 10, x1 - 10, y1 - 10), fill=(190, 185, 175), width=3)
            d.line((x0 + 10, y1 - 10, x1 - 10, y0 + 10), fill=(190, 185, 175), width=3)
            _text_center(
                d,
                box,
                {"cleared": t("cleared"), "removed": t("removed"), "empty": t("empty")}.get(status, status),
                _font(14, True),
                MUTED,
            )
        return
    colour = KIND_COLOURS.get(card["kind"], KIND_COLOURS["other"])
    d.rounded_rectangle(box, radius=8, fill=(255, 252, 245), outline=colour, width=3)
    d.rounded_rectangle((x0, y0, x1, y0 + 24), radius=8, fill=colour)
    d.text((x0 + 8, y0 + 4), card["id"], font=_font(14, True), fill=_ink(colour))
    kind = kind_words(str(card["kind"]))
    room = x1 - x0 - 22 - _text_width(str(card["id"]), _font(14, True))
    d.text((x1 - 8, y0 + 5), kind, font=_font(fit_size(kind, room, 12)), fill=_ink(colour), anchor="ra")
    _draw_block(d, card_text_box(box), card_words(card, kind_shown=True), INK)


def _draw_taken(
    d: ImageDraw.ImageDraw, view: dict[str, Any], at: tuple[int, int], size: tuple[int, int], t: Any
) -> None:
    """The card taken (or forgone) in the last turn, framed in its taker's colour: it has left the
    row, and one post per turn must still show which card it was."""
    card = view.get("taken_card")
    last = view.get("last_action") or {}
    seat = last.get("seat")
    if not isinstance(card, dict) or not isinstance(seat, int) or view.get("phase") == "over":
        return
    (x, y), (w, h) = at, size
    colour = _seat_colour(seat)
    # right-aligned with the card's frame, the label may use the free line to the card's left
    # (the Game End cards' heading ends far before it)
    label, font_size = taken_label(view, seat, w + TAKEN_LABEL_ROOM, t)
    d.text((x + w + 5, y), label, font=_font(font_size, True), fill=colour, anchor="ra")
    box = (x, y + 22, x + w, y + 22 + h)
    d.rounded_rectangle((box[0] - 4, box[1] - 4, box[2] + 4, box[3] + 4), radius=10, outline=colour, width=4)
    _draw_card(d, box, {"status": "open", "card": card}, view)


#: How much wider than the taken card its "Just taken by" label may be (to the card's left).
TAKEN_LABEL_ROOM = 160


def taken_label(view: dict[str, Any], seat: int, width: int, t: Any) -> tuple[str, int]:
    """ "Just taken by <name>" and its font size, no wider than ``width``: the size shrinks to a
    readable 11 px, then the name is shortened with "…" (a long name in German filled twice the
    card's width and ran off the picture's right edge)."""
    name = _name(view, seat, 13)
    label = t("Just taken by {player}", player=name)
    size = fit_size(label, width, 14, smallest=11, bold=True)
    while _text_width(label, _font(size, True)) > width and len(name) > 1:
        name = name.removesuffix("…")[:-1].rstrip()
        label = t("Just taken by {player}", player=name + "…")
    return label, size


def card_text_box(box: tuple[int, int, int, int]) -> tuple[int, int, int, int]:
    """Where an Action card's text goes inside the card's ``box``."""
    x0, y0, x1, y1 = box
    return x0 + 7, y0 + 30, x1 - 6, y1 - 6


def render_table(view: dict[str, Any]) -> bytes:
    """The middle of the table: 3 rows of 6 cards, the Start Player tile, Game End cards, scores."""
    img = Image.new("RGB", (WIDTH, 1000), BG)
    d = ImageDraw.Draw(img)
    turn = view["seats_to_act"]
    t = pictures(view.get("language"))
    with using(view.get("language")):  # card texts are worded in the game's language
        return _table(view, img, d, turn, t)


def _table(view: dict[str, Any], img: Image.Image, d: ImageDraw.ImageDraw, turn: list[int], t: Any) -> bytes:
    who = t("{player} to act", player=_name(view, turn[0])) if turn else t("game over")
    phase = {"draft": t("draft"), "play": t("play"), "scoring": t("scoring"), "over": t("over")}.get(
        str(view["phase"]), str(view["phase"])
    )
    d.text(
        (20, 14),
        t(
            "First Class - Round {round} of 6, pile {pile} - {phase} - {who}",
            round=view["round"],
            pile=view["pile"],
            phase=phase,
            who=who,
        ),
        font=_font(22, True),
        fill=INK,
    )
    deck = deck_words(view.get("deck_sources"), str(view.get("deck_label") or ""))
    deck_lines = wrap_to_width(
        t("Cards: {deck}", deck=deck) if deck else t("Cards: not stated"), _font(14), WIDTH - 40
    )[:3]
    for i, line in enumerate(deck_lines):
        d.text((20, 44 + i * 16), line, font=_font(14), fill=MUTED)
    cw, ch, gap, x0, y0 = 136, 126, 8, 132, 56 + 6 + 16 * len(deck_lines)
    sp = view["start_tile"]
    for r, row in enumerate(view["rows"]):
        y = y0 + r * (ch + gap)
        for c, slot in enumerate(row["slots"]):
            x = x0 + c * (cw + gap)
            _draw_card(d, (x, y, x + cw, y + ch), slot, view)
        if row["cleared"]:
            d.text((20, y + ch // 2 - 10), t("row {n}\ncleared", n=r + 1), font=_font(14, True), fill=MUTED)
        if sp["row"] == r and sp["taken_by"] is None:
            d.rounded_rectangle(
                (14, y + 20, 120, y + ch - 20), radius=10, fill=(200, 40, 40), outline=INK, width=2
            )
            _text_center(d, (14, y + 20, 120, y + ch - 20), t("START"), _font(18, True), (255, 255, 255))
    if sp["taken_by"] is not None:
        d.text(
            (20, y0 + 3 * (ch + gap) - 4),
            t("Start Player tile taken by {player}", player=_name(view, sp["taken_by"], 32)),
            font=_font(15, True),
            fill=_seat_colour(sp["taken_by"]),
        )
    y = y0 + 3 * (ch + gap) + 20
    d.text(
        (20, y),
        t("Game End cards on offer ({n} in the pile)", n=view["game_end_pile_size"]),
        font=_font(18, True),
        fill=INK,
    )
    y += 28
    _draw_taken(d, view, (WIDTH - 20 - cw, y - 28), (cw, ch), t)
    for i, g in enumerate(view["game_end_display"]):
        x = 20 + i * 160
        d.rounded_rectangle((x, y, x + 150, y + 84), radius=8, fill=KIND_COLOURS["game_end"], outline=INK)
        head = f"{g['id']}  {kind_words(str(g['type']))}"
        d.text(
            (x + 8, y + 6), head, font=_font(fit_size(head, 134, 14, bold=True), True), fill=(255, 255, 255)
        )
        d.text((x + 8, y + 26), t("x{n} per card", n=g["points"]), font=_font(15, True), fill=(255, 255, 255))
        bonus = t("bonus {bonus}", bonus=effects_words(str(g["bonus"] or "")))
        _draw_block(
            d, (x + 8, y + 47, x + 146, y + 81), bonus, (255, 255, 255), sizes=(12, 11, 10, 9), spacing=1
        )
    y += 104
    d.text((20, y), t("Scores"), font=_font(18, True), fill=INK)
    y += 28
    final = {r["seat"]: r for r in (view.get("final") or [])}
    short = {
        "route_stations": t("route"),
        "trains": t("trains"),
        "constantinople": t("Constantinople"),
        "card_points": t("cards"),
        "coin_points": t("coins spent"),
        "game_end_cards": t("Game End"),
        "coins_left": t("coins left"),
    }
    for p in view["players"]:
        colour = _seat_colour(p["seat"])
        mark = " " + t("(start player)") if p["seat"] == view["start_player"] and not final else ""
        if p["seat"] in final:
            mark = (
                " - "
                + t("rank {n}", n=final[p["seat"]]["rank"])
                + (" - " + t("WINNER") if final[p["seat"]]["winner"] else "")
            )
        d.rectangle((20, y + 3, 36, y + 19), fill=colour)
        points = t("1 point") if p["score"] == 1 else t("{n} points", n=p["score"])
        # through the catalog, so French puts its space before the colon
        line = t("{player}: {points}", player=_name(view, p["seat"], 32), points=points) + mark
        d.text((46, y), line, font=_font(16, True), fill=INK)
        y += 26
        if final:
            parts = [f"{short.get(k, k)} {v}" for k, v in p["breakdown"].items() if v]
            d.text((46, y), ", ".join(parts) or t("no points"), font=_font(14), fill=MUTED)
            y += 24
    img = img.crop((0, 0, WIDTH, max(y + 16, 560)))
    return _png(img)


# ---- entry points of the game's drawing (``bot/games/<game>/front.py``) ----------------------------
def board_png(view: dict[str, Any]) -> bytes:
    """The table (public) for a service view."""
    return render_table(view)


def hand_png(view: dict[str, Any]) -> bytes | None:
    """The viewing seat's player board, or None for a spectator view."""
    viewer = view.get("viewer")
    return render_player_board(view, viewer) if isinstance(viewer, int) else None


def summary_png(view: dict[str, Any]) -> bytes | None:
    """First Class shows its end-of-game breakdown on the table image: no separate summary."""
    return None
