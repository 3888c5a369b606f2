"""First Class in plain words: labels for action cards and legal actions, and prompts.

Pure functions over a game *view* and action text forms (see ``docs/first-class-api.md``); no
Discord here. :mod:`bot.discord_app.firstclass_ui` builds buttons and menus from these labels, the
terminal could use them too. Nothing here decides what is legal: the labels describe action texts
that came from ``game.legal_actions``; unknown forms fall back to the text itself.

Which moves the bot plays for a person is not decided here: the engine's
:func:`rules.firstclass.auto.forced_action` (named in the game's registry entry) plays a move only
when it is the single legal one or no alternative changes anything.
"""

from __future__ import annotations

import re
from typing import Any

from lang import _, _n

KIND_EMOJI = {
    "railcar": "🚃", "conductor": "🎫", "locomotive": "🚂", "route": "📍", "money": "🪙",
    "contract": "📜", "game_end": "🏁",
}
TRAINS = ("upper", "lower")
# Kinds answered in the "pending symbol" row of the private controls.
CHOICE_KINDS = ("draft", "car", "up", "cond", "choose", "mail", "ge", "bonus")
COIN_KINDS = ("spend_car", "spend_move", "spend_up", "spend_point")
FLOW_KINDS = ("skip", "end", "done")
def _op(code: str, n: int) -> str | None:
    """One symbol's words in the reader's language (None: a code this presenter does not know)."""
    words = {
        "upany": lambda: _n("{n} upgrade of your choice", "{n} upgrades of your choice", n),
        "coin": lambda: _n("{n} coin", "{n} coins", n),
        "car": lambda: _n("{n} new 0-value car", "{n} new 0-value cars", n),
        "cond": lambda: _("both conductors +{n}", n=n), "cond1": lambda: _("conductors +{n} split", n=n),
        "loco": lambda: _("locomotive +{n}", n=n), "point": lambda: _n("{n} point", "{n} points", n),
        "points": lambda: _n("{n} point", "{n} points", n),
        "ge": lambda: _n("{n} Game End card", "{n} Game End cards", n),
    }
    make = words.get(code)
    return make() if make is not None else None


def op_words(op: str) -> str:
    """``"upany(2)"`` -> ``"2 upgrades of your choice"``; unknown codes are returned as they are."""
    m = re.fullmatch(r"(\w+)\((\d+)\)", op.strip())
    words = _op(m[1], int(m[2])) if m else None
    return words if words is not None else op


def card_label(card: dict[str, Any], limit: int = 60) -> str:
    """A card as a short line: ``"add 2 0-value cars"`` (its printed text, else its id)."""
    text = str(card.get("text") or card.get("id") or "?")
    return text if len(text) <= limit else text[: limit - 1] + "…"


def card_emoji(card: dict[str, Any]) -> str | None:
    return KIND_EMOJI.get(str(card.get("kind") or ""))


def available_cards(view: dict[str, Any]) -> list[tuple[int, int, dict[str, Any]]]:
    """``(row, position, card)`` of every card that may still be taken, row by row."""
    out: list[tuple[int, int, dict[str, Any]]] = []
    for r, row in enumerate(view.get("rows") or []):
        if not isinstance(row, dict) or row.get("cleared"):
            continue
        for p, slot in enumerate(row.get("slots") or []):
            if isinstance(slot, dict) and slot.get("status") == "available" and slot.get("card"):
                out.append((r, p, slot["card"]))
    return out


def _player(view: dict[str, Any], seat: int | None) -> dict[str, Any]:
    for p in view.get("players") or []:
        if isinstance(p, dict) and p.get("seat") == seat:
            return p
    return {}


def _car_value(view: dict[str, Any], seat: int | None, train: str, pos: str) -> str:
    try:
        cars = _player(view, seat)["trains"][train]["cars"]
        value = cars[int(pos) - 1]
    except (KeyError, IndexError, ValueError, TypeError):
        return ""
    return " " + (_("(mail car)") if value == -1 else _("(now {value})", value=value))


def _ge_words(view: dict[str, Any], ge_id: str) -> str:
    cards = list(view.get("game_end_display") or [])
    draft = view.get("draft") or {}
    cards += list(draft.get("hand") or []) if isinstance(draft, dict) else []
    for c in cards:
        if isinstance(c, dict) and c.get("id") == ge_id:
            bonus = ", " + _("bonus {what}", what=op_words(str(c["bonus"]))) if c.get("bonus") else ""
            return f"{ge_id}: {c.get('type', '?')} ×{c.get('points', '?')}{bonus}"
    return ge_id


def _pending_choice(view: dict[str, Any], seat: int | None, n: int) -> str:
    for p in _player(view, seat).get("pending") or []:
        if isinstance(p, dict) and p.get("op") == "choice":
            options = p.get("options") or []
            if 0 < n <= len(options):
                return op_words(str(options[n - 1]))
    return ""


def _route_station(view: dict[str, Any], seat: int | None, index: str) -> str:
    for st in _player(view, seat).get("route") or []:
        if isinstance(st, dict) and str(st.get("index")) == index:
            return str(st.get("text") or op_words(str(st.get("bonus") or "")))
    return ""


def _contract(view: dict[str, Any], seat: int | None, card_id: str) -> str:
    for c in _player(view, seat).get("contracts") or []:
        if isinstance(c, dict) and c.get("id") == card_id:
            return card_label(c, 70)
    return ""


def action_label(text: str, view: dict[str, Any], seat: int | None) -> str:
    """Plain words for one legal action text, using the seat's own view for details (private)."""
    w = text.split()
    if not w:
        return text
    k = w[0]
    if k == "draft" and len(w) == 2:
        draft = view.get("draft") or {}
        hand = draft.get("hand") or [] if isinstance(draft, dict) else []
        i = int(w[1]) - 1 if w[1].isdigit() else -1
        card = hand[i] if 0 <= i < len(hand) else None
        return _("Keep {card}", card=_ge_words(view, str(card.get("id"))) if isinstance(card, dict)
                 else _("card {n}", n=w[1]))
    if k == "car" and len(w) == 2:
        return _("New car in the {train} train", train=train_word(w[1]))
    if k == "up" and len(w) == 3:
        return _("Upgrade {train} car {n}", train=train_word(w[1]), n=w[2]) + _car_value(view, seat, w[1], w[2])
    if k == "cond" and len(w) == 2:
        return _("Move the {train} conductor", train=train_word(w[1]))
    if k == "choose" and len(w) == 2:
        what = _pending_choice(view, seat, int(w[1])) if w[1].isdigit() else ""
        return _("Option {n}", n=w[1]) + (f": {what}" if what else "")
    if k == "mail" and len(w) == 2:
        return _("Mail car {n}", n=w[1])
    if k == "ge" and len(w) == 2:
        return _("Take Game End card {card}", card=_ge_words(view, w[1]))
    if k == "bonus" and len(w) == 2:
        what = _route_station(view, seat, w[1])
        return _("Bonus station {n}", n=w[1]) + (f": {what}" if what else "")
    if k == "fulfil" and len(w) == 2:
        what = _contract(view, seat, w[1])
        return _("Fulfil contract {card}", card=w[1]) + (f": {what}" if what else "")
    if k == "spend" and len(w) >= 2:
        if w[1] == "car" and len(w) == 3:
            return _("Coin: new car in the {train} train", train=train_word(w[2]))
        if w[1] == "move" and len(w) == 3:
            return (_("Coin: move the locomotive") if w[2] == "loco"
                    else _("Coin: move the {train} conductor", train=train_word(w[2])))
        if w[1] == "up" and len(w) == 4:
            return _("Coin: upgrade {train} car {n}", train=train_word(w[2]), n=w[3]) + _car_value(view, seat, w[2], w[3])
        if w[1] == "point" and len(w) == 3:
            return _("Coin from column {n}: 1 point", n=w[2])
    if k == "buy" and len(w) >= 2:
        return _("Buy {card} (coins from columns {columns})", card=_ge_words(view, w[1]), columns=" ".join(w[2:]))
    fixed = {"skip": _("Skip this symbol"), "end": _("End my turn"), "done": _("Done: score my trains"),
             "start": _("Take the Start Player tile")}
    if k in fixed and len(w) == 1:
        return fixed[k]
    if k in ("take", "forgo") and len(w) == 2:
        return _("Take {card}", card=w[1]) if k == "take" else _("Forgo {card}", card=w[1])
    return text


def train_word(train: str) -> str:
    """``upper``/``lower`` in the reader's language."""
    return {"upper": _("upper"), "lower": _("lower")}.get(train, train)


def prompt(view: dict[str, Any], seat: int | None, kinds: set[str], *, terminal: bool = False) -> str:
    """One sentence on what the seat is asked now (from the kinds of its legal actions)."""
    pending = _player(view, seat).get("pending") or []
    src = pending[0].get("src") if pending and isinstance(pending[0], dict) else None
    from_card = f" ({src})" if src else ""
    if "draft" in kinds:
        return _("Keep one Game End card (face down); pass the rest on.")
    if "bonus" in kinds:
        return _("Scoring: choose the order of your bonus stations, then you are done.")
    if "done" in kinds:
        return _("Scoring: finish with Done to score your trains.")
    for kind, words in (("car", _("Where does the new car go?")), ("up", _("Which car do you upgrade?")),
                        ("cond", _("Which conductor moves one space?")), ("choose", _("Choose one option of the card.")),
                        ("mail", _("Which mail car goes into the train?")), ("ge", _("Take which Game End card?"))):
        if kind in kinds:
            return words + from_card
    if ("take" in kinds or "start" in kinds) and terminal:
        return _("Your turn: take a card (or forgo one, or take the Start Player tile).")
    if "take" in kinds or "start" in kinds:
        return _("Your turn: take a card with the buttons under the table (or forgo one, or take the Start Player tile).")
    if "end" in kinds:
        return _("Spend coins or fulfil a contract if you like, then end your turn.")
    return _("Nothing to do right now.")


# --- the terminal: the table, the seat's board and numbered choices in words --------------------

TERMINAL_HELP = """\
First Class in the terminal. On your turn, type the number of a choice from the list, or its text form:
  take X1-07      take that card from the table and carry it out (its symbols are asked one by one)
  forgo X1-07     take that card but give it up for one upgrade of your choice
  start           take the Start Player tile (and its compensation)
  car upper       the new car goes into the upper (or lower) train
  up upper 2      upgrade car 2 of the upper train one step (0>1>2>4>7>12)
  cond lower      move the lower train's conductor one space
  choose 1        take option 1 of a card that offers a choice
  mail 2          put mail car 2 into the train being lengthened
  spend car upper | spend move loco | spend move upper | spend up lower 3 | spend point 1
                  spend a coin (column 1: a car, column 2: a move, column 3: an upgrade; any column: 1 point)
  buy G10 1 1 2 2 buy a Game End card for 4 coins, naming the column of each coin
  fulfil A1-03    fulfil a contract whose requirement your trains meet
  skip            skip the symbol being asked     end    end your turn
  draft 2         keep the 2nd Game End card offered at setup      done   finish your scoring step
Other commands: help (this text), legal (the text form of every legal move), quit."""


def seat_name(view: dict[str, Any], seat: int | None) -> str:
    """A seat's player name (from the service's ``names``), else "Player N" counted from 1."""
    names = view.get("names") or []
    if isinstance(seat, int) and 0 <= seat < len(names):
        return str(names[seat])
    return _("Player {n}", n=seat + 1) if isinstance(seat, int) else _("nobody")


def card_position(view: dict[str, Any], card_id: str) -> tuple[int, int] | None:
    """``(row, position)`` of a card on the table, both counted from 1."""
    for r, p, card in available_cards(view):
        if card.get("id") == card_id:
            return r + 1, p + 1
    return None


def _card_words(card: dict[str, Any]) -> str:
    return f"{card.get('id')} {card.get('kind')}: {card_label(card, 90)}"


def table_lines(view: dict[str, Any]) -> list[str]:
    """The 18 cards on the table in words, row by row with their position, and the Start Player tile."""
    lines = [f"Round {view.get('round')} of 6, pile {view.get('pile')}; cards: {view.get('deck_label', '?')}"]
    start = view.get("start_tile") or {}
    for r, row in enumerate(view.get("rows") or []):
        tile = " (Start Player tile here)" if start.get("row") == r and start.get("taken_by") is None else ""
        if row.get("cleared"):
            lines.append(f"Row {r + 1}: cleared{tile}")
            continue
        lines.append(f"Row {r + 1}:{tile}")
        for p, slot in enumerate(row.get("slots") or []):
            status = str(slot.get("status") or "")
            if slot.get("card") and status == "available":
                lines.append(f"  {p + 1}. {_card_words(slot['card'])}")
            elif status.startswith("taken:"):
                lines.append(f"  {p + 1}. (taken by {seat_name(view, int(status.split(':')[1]))})")
            else:
                lines.append(f"  {p + 1}. ({status or 'empty'})")
    if start.get("taken_by") is not None:
        lines.append(f"Start Player tile: taken by {seat_name(view, start['taken_by'])}")
    else:
        lines.append(f"Start Player tile: on offer at row {int(start.get('row') or 0) + 1} "
                     f"(start player now: {seat_name(view, view.get('start_player'))})")
    offer = [_ge_card_words(g) for g in view.get("game_end_display") or [] if isinstance(g, dict)]
    lines.append(f"Game End cards on offer ({view.get('game_end_pile_size', '?')} in the pile): "
                 + ("; ".join(offer) if offer else "none"))
    return lines


def _train_words(train: dict[str, Any]) -> str:
    cars = ", ".join("mail" if v == -1 else str(v) for v in train.get("cars") or [])
    tile = train.get("tile")
    tile_words = f", Locomotive tile {tile['value']}" if isinstance(tile, dict) else ""
    cond = int(train.get("conductor") or 0)
    where = "on the start plate" if cond == 0 else f"on car {cond}"
    return f"cars [{cars}]{tile_words}; conductor {where}; scores {train.get('points_now', 0)} now"


def board_lines(view: dict[str, Any], seat: int) -> list[str]:
    """One seat's board in words: trains, coins, route position, contracts, Game End cards.
    The Game End cards appear only in the seat's own view (the engine hides them otherwise)."""
    me = _player(view, seat)
    if not me:
        return []
    lines = [f"{seat_name(view, seat)} - {me.get('score', 0)} points"]
    for name in TRAINS:
        lines.append(f"  {name.capitalize()} train: {_train_words(me['trains'][name])}")
    coins = list(me.get("coins") or [0, 0, 0])
    lines.append(f"  Coins: {sum(coins)} (column 1 car: {coins[0]}/5, column 2 move: {coins[1]}/5, "
                 f"column 3 upgrade: {coins[2]}/2)")
    route = me.get("route") or []
    loco = int(me.get("locomotive") or 0)
    stations = ", ".join(
        f"{st['index']}:{'P' + str(st['points']) if st.get('kind') == 'P' else 'bonus ' + str(st.get('text') or st.get('bonus'))}"
        for st in route if isinstance(st, dict))
    lines.append(f"  Route: locomotive at station {loco} of {len(route)} (0 = Paris); stations {stations or 'none'}")
    contracts = [f"{c.get('id')}: {card_label(c, 80)}" for c in me.get("contracts") or [] if isinstance(c, dict)]
    lines.append("  Contracts: " + ("; ".join(contracts) if contracts else "none open"))
    ge = me.get("game_end_cards")
    if ge is not None:
        lines.append("  Your Game End cards (hidden from others): "
                     + ("; ".join(_ge_card_words(g) for g in ge if isinstance(g, dict)) or "none"))
    else:
        lines.append(f"  Game End cards: {me.get('game_end_count', 0)} (hidden)")
    mails = ", ".join(str(m) for m in me.get("mails_left") or []) or "none"
    base = me.get("completed_base") or {}
    lines.append(f"  Mail cars left: {mails}; base cards taken: railcar {base.get('railcar', 0)}, "
                 f"locomotive {base.get('locomotive', 0)}, conductor {base.get('conductor', 0)}")
    return lines


def _ge_card_words(card: dict[str, Any]) -> str:
    bonus = f", bonus {op_words(str(card['bonus']))}" if card.get("bonus") else ""
    return f"{card.get('id')}: {card.get('type', '?')} ×{card.get('points', '?')}{bonus}"


def scores_line(view: dict[str, Any]) -> str:
    return _("Scores: {scores}", scores=", ".join(f"{seat_name(view, p['seat'])} {p['score']}"
                                                  for p in view.get("players") or [] if isinstance(p, dict)))


def terminal_text(view: dict[str, Any]) -> str:
    """Everything the viewing seat needs to choose a move, in words (PRIVATE: the seat's own view)."""
    seat = view.get("viewer")
    lines = table_lines(view)
    lines.append(scores_line(view))
    if isinstance(seat, int):
        lines.append("Your board:")
        lines += board_lines(view, seat)
    return "\n".join(lines)


def terminal_label(text: str, view: dict[str, Any], seat: int | None) -> str:
    """One legal action in words for the terminal: a card named with its place on the table."""
    w = text.split()
    if len(w) == 2 and w[0] in ("take", "forgo"):
        where = card_position(view, w[1])
        card = next((c for _r, _p, c in available_cards(view) if c.get("id") == w[1]), None)
        place = f"row {where[0]} card {where[1]}" if where else w[1]
        what = f" ({_card_words(card)})" if card else ""
        verb = "Take" if w[0] == "take" else "Forgo for 1 upgrade:"
        return f"{verb} {place}{what}"
    return action_label(text, view, seat)


def terminal_prompt(view: dict[str, Any], seat: int | None, kinds: set[str]) -> str:
    """:func:`prompt` for the terminal, where choices are typed rather than clicked."""
    return prompt(view, seat, kinds, terminal=True)


def terminal_choices(view: dict[str, Any], seat: int | None, legal: list[str]) -> list[tuple[str, str]]:
    """``(words, text form)`` for every legal action, in the engine's order, for a numbered list."""
    return [(terminal_label(t, view, seat), t) for t in legal]


def terminal_menu(view: dict[str, Any], seat: int | None, choices: list[tuple[str, str]]) -> list[str]:
    """The numbered choices as lines: taking and forgoing the same card share one line (the table
    above already gives the card's text), every other choice has a line of its own."""
    lines: list[str] = []
    i = 0
    while i < len(choices):
        words, text = choices[i]
        w = text.split()
        nxt = choices[i + 1][1].split() if i + 1 < len(choices) else []
        if len(w) == 2 and w[0] == "take" and nxt == ["forgo", w[1]]:
            where = card_position(view, w[1])
            place = f"row {where[0]} card {where[1]}" if where else w[1]
            card = next((c for _r, _p, c in available_cards(view) if c.get("id") == w[1]), {})
            lines.append(f"  {i + 1:>2} take, {i + 2:>2} forgo for 1 upgrade: {place} "
                         f"({w[1]} {card.get('kind', '')}: {card_label(card, 50)})")
            i += 2
            continue
        lines.append(f"  {i + 1:>2}. {words}")
        i += 1
    return lines
