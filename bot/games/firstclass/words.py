"""First Class in plain words: labels for action cards and legal actions, and prompts.

Pure functions over a game *view* and action text forms (see ``docs/first-class-api.md``); no
Discord here. :mod:`bot.games.firstclass.discord_ui` builds buttons and menus from these labels, the
terminal could use them too. Nothing here decides what is legal: the labels describe action texts
that came from ``game.legal_actions``; unknown forms fall back to the text itself.

Which moves the bot plays for a person is not decided here: the engine's
:func:`rules.firstclass.auto.forced_action` (named in the game's registry entry) plays a move only
when it is the single legal one or no alternative changes anything.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from bot.names import seat_name_words
from lang import _, _n, _p
from lang.firstclass import (
    card_words,
    deck_words,
    effects_words,
    game_end_words,
    kind_words,
    requirement_words,
    source_words,
    stations_words,
    symbol_words,
    train_name,
)
from lang.lists import semicolon_list

KIND_EMOJI = {
    "railcar": "🚃",
    "conductor": "🎫",
    "locomotive": "🚂",
    "route": "📍",
    "money": "🪙",
    "contract": "📜",
    "game_end": "🏁",
}
TRAINS = ("upper", "lower")
# Kinds answered in the "pending symbol" row of the private controls.
CHOICE_KINDS = ("draft", "car", "up", "cond", "choose", "mail", "ge", "bonus")
COIN_KINDS = ("spend_car", "spend_move", "spend_up", "spend_point")
FLOW_KINDS = ("skip", "end", "done")


def op_words(op: str) -> str:
    """An effect text (``"upany(2)"``, ``"car(1);coin(1)"``) in the reader's words; text that is not
    in the effect language is returned as it is."""
    return effects_words(op)


def card_label(card: dict[str, Any], limit: int = 60, *, kind_shown: bool = False) -> str:
    """A card as a short line in the reader's language, worded from its symbols (else its id);
    ``kind_shown`` where the card's kind is written before it."""
    text = (
        card_words(card, kind_shown=kind_shown)
        if any(card.get(k) for k in ("effects", "requirement", "route_stations"))
        else ""
    )
    text = text or str(card.get("id") or "?")
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
            return game_end_words(c)
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
            return op_words(str(st.get("bonus") or ""))
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
        return _(
            "Keep {card}",
            card=_ge_words(view, str(card.get("id"))) if isinstance(card, dict) else _("card {n}", n=w[1]),
        )
    if k == "car" and len(w) == 2:
        return _("New car in the {train} train", train=train_word(w[1]))
    if k == "up" and len(w) == 3:
        return _("Upgrade {train} car {n}", train=train_word(w[1]), n=w[2]) + _car_value(
            view, seat, w[1], w[2]
        )
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
            return (
                _("Coin: move the locomotive")
                if w[2] == "loco"
                else _("Coin: move the {train} conductor", train=train_word(w[2]))
            )
        if w[1] == "up" and len(w) == 4:
            return _("Coin: upgrade {train} car {n}", train=train_word(w[2]), n=w[3]) + _car_value(
                view, seat, w[2], w[3]
            )
        if w[1] == "point" and len(w) == 3:
            return _("Coin from column {n}: 1 point", n=w[2])
    if k == "buy" and len(w) >= 2:
        return _(
            "Buy {card} (coins from columns {columns})", card=_ge_words(view, w[1]), columns=" ".join(w[2:])
        )
    fixed = {
        "skip": _("Skip this symbol"),
        "end": _("End my turn"),
        "done": _("Done: score my trains"),
        "start": _("Take the Start Player tile"),
    }
    if k in fixed and len(w) == 1:
        return fixed[k]
    if k in ("take", "forgo") and len(w) == 2:
        return _("Take {card}", card=w[1]) if k == "take" else _("Forgo {card}", card=w[1])
    return text


def train_word(train: str) -> str:
    """``upper``/``lower`` in the reader's language."""
    return train_name(train)


def prompt(view: dict[str, Any], seat: int | None, kinds: set[str], *, terminal: bool = False) -> str:
    """One sentence on what the seat is asked now (from the kinds of its legal actions)."""
    pending = _player(view, seat).get("pending") or []
    src = pending[0].get("src") if pending and isinstance(pending[0], dict) else None
    from_card = " " + _("({source})", source=source_words(str(src))) if src else ""
    if "draft" in kinds:
        return _("Keep one Game End card (face down); pass the rest on.")
    if "bonus" in kinds:
        return _("Scoring: choose the order of your bonus stations, then you are done.")
    if "done" in kinds:
        return _("Scoring: finish with Done to score your trains.")
    for kind, words in (
        ("car", _("Where does the new car go?")),
        ("up", _("Which car do you upgrade?")),
        ("cond", _("Which conductor moves one space?")),
        ("choose", _("Choose one option of the card.")),
        ("mail", _("Which mail car goes into the train?")),
        ("ge", _("Take which Game End card?")),
    ):
        if kind in kinds:
            return words + from_card
    if ("take" in kinds or "start" in kinds) and terminal:
        return _("Your turn: take a card (or forgo one, or take the Start Player tile).")
    if "take" in kinds or "start" in kinds:
        return _(
            "Your turn: take a card with the buttons under the table (or forgo one, or take the Start Player tile)."
        )
    if "end" in kinds:
        return _("Spend coins or fulfil a contract if you like, then end your turn.")
    return _("Nothing to do right now.")


# --- the engine's events, worded for their reader ---------------------------------------------


def _cards(ids: Any) -> str:
    return ", ".join(str(c) for c in ids or [])


def _lost(event: dict[str, Any]) -> str:
    lost = int(event.get("lost") or 0)
    return " " + _n("({n} movement lost)", "({n} movements lost)", lost) if lost > 0 else ""


def _from(event: dict[str, Any]) -> str:
    src = str(event.get("src") or "")
    return " " + _("({source})", source=source_words(src)) if src else ""


def event_words(event: dict[str, Any]) -> str | None:
    """An event of the engine (its kind and facts) in the reader's language: for an event with a
    ``seat``, the words that follow the player's name. None for an event without its facts (a game
    stored before events carried them): the caller shows the English text it was stored with."""
    kind = str(event.get("type") or "")
    make = _EVENTS.get(kind)
    if make is None:
        return None
    try:
        words = make(event)
    except (KeyError, TypeError, ValueError):
        return None  # an older event without these facts: its stored English is shown
    return str(words) if words is not None else None


def _take(e: dict[str, Any]) -> str:
    return _("takes {card}: {effects}.", card=e["card"], effects=effects_words(e["effects"]))


def _setup(e: dict[str, Any]) -> str:
    return _(
        "The leftover Game End card is shuffled back and 4 Game End cards are laid face up. Playing with "
        "{deck}.",
        deck=deck_words(e["sources"], str(e.get("deck") or "")),
    )


def _row_cleared(e: dict[str, Any]) -> str:
    n = int(e["removed"])
    if e.get("cards"):
        return _n(
            "Row {row} is cleared: {n} card was taken or removed from it, so {cards} leave the game.",
            "Row {row} is cleared: {n} cards were taken or removed from it, so {cards} leave the game.",
            n,
            row=e["row"],
            cards=_cards(e["cards"]),
        )
    return _n(
        "Row {row} is cleared: {n} card was taken or removed from it.",
        "Row {row} is cleared: {n} cards were taken or removed from it.",
        n,
        row=e["row"],
    )


def _game_end_card(e: dict[str, Any]) -> str:
    if e.get("card"):  # the player's own, private line
        card = game_end_words({"id": e["card"], "type": e["ge_type"], "points": e["points"]})
        if e["bought"]:
            return _(
                "buys Game End card {card} and gets its one-time bonus: {effects}.",
                card=card,
                effects=effects_words(e["effects"]),
            )
        return _(
            "takes Game End card {card} and gets its one-time bonus: {effects}.",
            card=card,
            effects=effects_words(e["effects"]),
        )
    if e["bought"]:
        return _("buys a Game End card and gets its one-time bonus.")
    return _("takes a Game End card and gets its one-time bonus.")


_EVENTS: dict[str, Callable[[dict[str, Any]], str | None]] = {
    "draft": lambda e: _("keeps a Game End card face down."),
    "setup": _setup,
    "first_round": lambda e: _("starts: Round {round} begins.", round=e["round"]),
    "row_cleared": _row_cleared,
    "forgo": lambda e: _("takes {card} and forgoes its actions for one upgrade.", card=e["card"]),
    "route": lambda e: _(
        "adds route card {card} ({stations}) to the left end of the route.",
        card=e["card"],
        stations=stations_words(e["stations"]),
    ),
    "contract": lambda e: _(
        "takes contract {card}: {requirement} -> {bonus}.",
        card=e["card"],
        requirement=requirement_words(e["requirement"]),
        bonus=effects_words(e["bonus"]),
    ),
    "take": _take,
    "start_tile": lambda e: _("takes the Start Player tile and will start next round."),
    "compensation": lambda e: _(
        "receives {effects} from the Start Player tile.", effects=effects_words(e["effects"])
    ),
    # an action that has no event of its own: the service passes its text (only "end" today)
    "action": lambda e: _("ends the turn.") if e["action"] == "end" else None,
    "removed": lambda e: _(
        "The leftmost card of the top row, {card}, is removed from the game.", card=e["card"]
    ),
    "game_end_refill": lambda e: _("Game End cards {cards} are laid face up.", cards=_cards(e["cards"])),
    "start_player": lambda e: (
        _("took the Start Player tile and is the new start player.")
        if e["taken"]
        else _("stays start player: nobody took the Start Player tile.")
    ),
    "round_end": lambda e: _("Round {round} is over.", round=e["round"]),
    "scoring_start": lambda e: _("scores first: pile {pile} is exhausted, scoring phase.", pile=e["pile"]),
    "round_start": lambda e: _(
        "Round {round}: 18 new Action cards from pile {pile}.", round=e["round"], pile=e["pile"]
    ),
    "skip": lambda e: _("does not carry out one symbol{source}.", source=_from(e)),
    "choose": lambda e: _("chooses {effects}.", effects=effects_words(e["effects"])),
    "lost": lambda e: _("cannot carry out a symbol{source}; it is lost.", source=_from(e)),
    "points": lambda e: _n(
        "scores {n} point{source}.", "scores {n} points{source}.", int(e["points"]), source=_from(e)
    ),
    "coins": lambda e: _n(
        "gains {n} coin{source}.", "gains {n} coins{source}.", int(e["n"]), source=_from(e)
    ),
    "car": lambda e: _(
        "adds a 0-value car to the right end of the {train} train{source}.",
        train=train_name(e["train"]),
        source=_from(e),
    ),
    "locomotive_tile": lambda e: _n(
        "gets Locomotive tile {value} as the 10th card of the {train} train (its 9th car brings it): {n} upgrade "
        "of choice, and the train cannot be lengthened any more.",
        "gets Locomotive tile {value} as the 10th card of the {train} train (its 9th car brings it): {n} upgrades "
        "of choice, and the train cannot be lengthened any more.",
        int(e["upgrades"]),
        value=e["value"],
        train=train_name(e["train"]),
    ),
    "mail": lambda e: _(
        "adds mail car {slot} as the 6th car of the {train} train and gets its bonus: {effects}.",
        slot=e["slot"],
        train=train_name(e["train"]),
        effects=effects_words(e["effects"]),
    ),
    "upgrade": lambda e: _(
        "upgrades car {car} of the {train} train from {old} to {new}{source}.",
        car=e["car"],
        train=train_name(e["train"]),
        old=e["old"],
        new=e["new"],
        source=_from(e),
    ),
    "conductor": lambda e: _(
        "moves the {train} conductor to space {space}{lost}.",
        train=train_name(e["train"]),
        space=e["space"],
        lost=_lost(e),
    ),
    "constantinople": lambda e: _(
        "brings the {train} conductor to the Locomotive tile: Constantinople bonus "
        "{points} points (arrival {arrival}).",
        train=train_name(e["train"]),
        points=e["points"],
        arrival=e["arrival"],
    ),
    "locomotive": lambda e: (
        _("moves the locomotive to station {station}{lost}.", station=e["station"], lost=_lost(e))
        if e["moved"]
        else _("cannot move the locomotive: it is at the end of the route; the movement is lost.")
    ),
    "station_points": lambda e: _n(
        "reaches points station {station}: {n} point.",
        "reaches points station {station}: {n} points.",
        int(e["points"]),
        station=e["station"],
    ),
    "station_bonus": lambda e: _(
        "reaches bonus station {station} ({effects}); it pays out in every later scoring phase.",
        station=e["station"],
        effects=effects_words(e["effects"]),
    ),
    "game_end_card": _game_end_card,
    "spend": lambda e: _("pays a coin for 1 point."),
    "fulfil": lambda e: _(
        "fulfils contract {card} and gets {effects}.", card=e["card"], effects=effects_words(e["effects"])
    ),
    "bonus": lambda e: _(
        "receives bonus station {station}: {effects}.",
        station=e["station"],
        effects=effects_words(e["effects"]),
    ),
    "train_scoring": lambda e: _(
        "scores {upper} for the upper train and {lower} for the lower train.",
        upper=e["upper"],
        lower=e["lower"],
    ),
    "final": lambda e: _(
        "scores {coins} for coins and {game_end} for Game End cards: {total} in total.",
        coins=e["coins"],
        game_end=e["game_end"],
        total=e["total"],
    ),
    "game_over": lambda e: _("The game is over.") if "winners" in e else None,
    "winner": lambda e: _n("wins with {n} point.", "wins with {n} points.", int(e["total"])),
}


# --- the terminal: the table, the seat's board and numbered choices in words --------------------


def terminal_help() -> str:
    """How to play First Class in the terminal, in the reader's language (the typed text forms
    stay as the engine reads them)."""
    rows = [
        (
            "take X1-07",
            _("take that card from the table and carry it out (its symbols are asked one by one)"),
        ),
        ("forgo X1-07", _("take that card but give it up for one upgrade of your choice")),
        ("start", _("take the Start Player tile (and its compensation)")),
        ("car upper", _("the new car goes into the upper (or lower) train")),
        ("up upper 2", _("upgrade car 2 of the upper train one step (0>1>2>4>7>12)")),
        ("cond lower", _("move the lower train's conductor one space")),
        ("choose 1", _("take option 1 of a card that offers a choice")),
        ("mail 2", _("put mail car 2 into the train being lengthened")),
        (
            "spend car upper | spend move loco | spend move upper | spend up lower 3 | spend point 1",
            _("spend a coin (column 1: a car, column 2: a move, column 3: an upgrade; any column: 1 point)"),
        ),
        ("buy G10 1 1 2 2", _("buy a Game End card for 4 coins, naming the column of each coin")),
        ("fulfil A1-03", _("fulfil a contract whose requirement your trains meet")),
        ("skip", _("skip the symbol being asked")),
        ("end", _("end your turn")),
        ("draft 2", _("keep the 2nd Game End card offered at setup")),
        ("done", _("finish your scoring step")),
    ]
    lines = [
        _(
            "First Class in the terminal. On your turn, type the number of a choice from the list, or its "
            "text form:"
        )
    ]
    for form, words in rows:
        lines.append(f"  {form:<15} {words}" if len(form) <= 15 else f"  {form}\n  {'':<15} {words}")
    lines.append(_("Other commands: help (this text), legal (the text form of every legal move), quit."))
    return "\n".join(lines)


def seat_name(view: dict[str, Any], seat: int | None) -> str:
    """A seat's player name (from the service's ``names``), else "Player N" counted from 1."""
    names = view.get("names") or []
    if isinstance(seat, int) and 0 <= seat < len(names):
        return seat_name_words(str(names[seat]))  # written the front end's way (Discord: escaped)
    return _("Player {n}", n=seat + 1) if isinstance(seat, int) else _("nobody")


def card_position(view: dict[str, Any], card_id: str) -> tuple[int, int] | None:
    """``(row, position)`` of a card on the table, both counted from 1."""
    for r, p, card in available_cards(view):
        if card.get("id") == card_id:
            return r + 1, p + 1
    return None


def _card_words(card: dict[str, Any]) -> str:
    return (
        f"{card.get('id')} {kind_words(str(card.get('kind') or ''))}: {card_label(card, 90, kind_shown=True)}"
    )


def _place(view: dict[str, Any], card_id: str) -> str:
    where = card_position(view, card_id)
    return _("row {row} card {n}", row=where[0], n=where[1]) if where else card_id


def table_lines(view: dict[str, Any]) -> list[str]:
    """The 18 cards on the table in words, row by row with their position, and the Start Player tile."""
    lines = [
        _(
            "Round {round} of 6, pile {pile}; cards: {deck}",
            round=view.get("round"),
            pile=view.get("pile"),
            deck=deck_words(view.get("deck_sources"), str(view.get("deck_label") or "?")),
        )
    ]
    start = view.get("start_tile") or {}
    for r, row in enumerate(view.get("rows") or []):
        tile = (
            " " + _("(Start Player tile here)")
            if start.get("row") == r and start.get("taken_by") is None
            else ""
        )
        if row.get("cleared"):
            lines.append(_("Row {n}: cleared", n=r + 1) + tile)
            continue
        lines.append(_("Row {n}:", n=r + 1) + tile)
        for p, slot in enumerate(row.get("slots") or []):
            status = str(slot.get("status") or "")
            if slot.get("card") and status == "available":
                lines.append(f"  {p + 1}. {_card_words(slot['card'])}")
            elif status.startswith("taken:"):
                lines.append(
                    f"  {p + 1}. "
                    + _("(taken by {player})", player=seat_name(view, int(status.split(":")[1])))
                )
            else:
                words = {"removed": _("(removed)"), "cleared": _("(cleared)")}.get(status, _("(empty)"))
                lines.append(f"  {p + 1}. {words}")
    if start.get("taken_by") is not None:
        lines.append(_("Start Player tile: taken by {player}", player=seat_name(view, start["taken_by"])))
    else:
        lines.append(
            _(
                "Start Player tile: on offer at row {row} (start player now: {player})",
                row=int(start.get("row") or 0) + 1,
                player=seat_name(view, view.get("start_player")),
            )
        )
    offer = [game_end_words(g) for g in view.get("game_end_display") or [] if isinstance(g, dict)]
    lines.append(
        _(
            "Game End cards on offer ({n} in the pile): {cards}",
            n=view.get("game_end_pile_size", "?"),
            cards=semicolon_list(offer) if offer else _("none"),
        )
    )
    return lines


def _train_words(train: dict[str, Any]) -> str:
    cars = ", ".join(_("mail") if v == -1 else str(v) for v in train.get("cars") or [])
    tile = train.get("tile")
    tile_words = _(", Locomotive tile {value}", value=tile["value"]) if isinstance(tile, dict) else ""
    cond = int(train.get("conductor") or 0)
    where = _("on the start plate") if cond == 0 else _("on car {n}", n=cond)
    return _(
        "cars [{cars}]{tile}; conductor {where}; scores {points} now",
        cars=cars,
        tile=tile_words,
        where=where,
        points=train.get("points_now", 0),
    )


def _station_words(st: dict[str, Any]) -> str:
    if st.get("kind") == "P":
        return f"{st['index']}:P{st.get('points')}"
    return f"{st['index']}:" + _("bonus {effects}", effects=effects_words(str(st.get("bonus") or "")))


def board_lines(view: dict[str, Any], seat: int) -> list[str]:
    """One seat's board in words: trains, coins, route position, contracts, Game End cards.
    The Game End cards appear only in the seat's own view (the engine hides them otherwise)."""
    me = _player(view, seat)
    if not me:
        return []
    lines = [
        _n(
            "{player} - {n} point",
            "{player} - {n} points",
            int(me.get("score", 0)),
            player=seat_name(view, seat),
        )
    ]
    for name in TRAINS:
        heading = _("Upper train") if name == "upper" else _("Lower train")
        lines.append(f"  {heading}: {_train_words(me['trains'][name])}")
    coins = list(me.get("coins") or [0, 0, 0])
    lines.append(
        "  "
        + _(
            "Coins: {total} (column 1 car: {car}/5, column 2 move: {move}/5, column 3 upgrade: {up}/2)",
            total=sum(coins),
            car=coins[0],
            move=coins[1],
            up=coins[2],
        )
    )
    route = me.get("route") or []
    loco = int(me.get("locomotive") or 0)
    stations = ", ".join(_station_words(st) for st in route if isinstance(st, dict))
    lines.append(
        "  "
        + _(
            "Route: locomotive at station {n} of {total} (0 = Paris); stations {stations}",
            n=loco,
            total=len(route),
            stations=stations or _("none"),
        )
    )
    contracts = [
        f"{c.get('id')}: {card_label(c, 80)}" for c in me.get("contracts") or [] if isinstance(c, dict)
    ]
    lines.append(
        "  "
        + _("Contracts: {contracts}", contracts=semicolon_list(contracts) if contracts else _("none open"))
    )
    ge = me.get("game_end_cards")
    if ge is not None:
        lines.append(
            "  "
            + _(
                "Your Game End cards (hidden from others): {cards}",
                cards=semicolon_list([game_end_words(g) for g in ge if isinstance(g, dict)]) or _("none"),
            )
        )
    else:
        lines.append("  " + _("Game End cards: {n} (hidden)", n=me.get("game_end_count", 0)))
    mails = ", ".join(str(m) for m in me.get("mails_left") or []) or _("none")
    base = me.get("completed_base") or {}
    lines.append(
        "  "
        + _(
            "Mail cars left: {mails}; base cards taken: railroad car {railcar}, locomotive {locomotive}, "
            "conductor {conductor}",
            mails=mails,
            railcar=base.get("railcar", 0),
            locomotive=base.get("locomotive", 0),
            conductor=base.get("conductor", 0),
        )
    )
    pending = [symbol_words(p) for p in me.get("pending") or [] if isinstance(p, dict)]
    if pending:
        lines.append("  " + _("Waiting: {symbols}", symbols=semicolon_list(pending)))
    return lines


def scores_line(view: dict[str, Any]) -> str:
    return _(
        "Scores: {scores}",
        scores=", ".join(
            f"{seat_name(view, p['seat'])} {p['score']}"
            for p in view.get("players") or []
            if isinstance(p, dict)
        ),
    )


def terminal_text(view: dict[str, Any]) -> str:
    """Everything the viewing seat needs to choose a move, in words (PRIVATE: the seat's own view)."""
    seat = view.get("viewer")
    lines = table_lines(view)
    lines.append(scores_line(view))
    if isinstance(seat, int):
        lines.append(_("Your board:"))
        lines += board_lines(view, seat)
    return "\n".join(lines)


def terminal_label(text: str, view: dict[str, Any], seat: int | None) -> str:
    """One legal action in words for the terminal: a card named with its place on the table."""
    w = text.split()
    if len(w) == 2 and w[0] in ("take", "forgo"):
        card = next((c for _r, _p, c in available_cards(view) if c.get("id") == w[1]), None)
        what = f" ({_card_words(card)})" if card else ""
        if w[0] == "take":
            return _("Take {place}", place=_place(view, w[1])) + what
        return _("Forgo for 1 upgrade: {place}", place=_place(view, w[1])) + what
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
            card = next((c for _r, _p, c in available_cards(view) if c.get("id") == w[1]), {})
            what = f"{w[1]} {kind_words(str(card.get('kind', '')))}: {card_label(card, 50, kind_shown=True)}"
            lines.append(
                f"  {i + 1:>2} "
                + _(
                    "take, {forgo} forgo for 1 upgrade: {place} ({card})",
                    forgo=f"{i + 2:>2}",
                    place=_place(view, w[1]),
                    card=what,
                )
            )
            i += 2
            continue
        lines.append(f"  {i + 1:>2}. {words}")
        i += 1
    return lines


# --- the rules in force, in words ---------------------------------------------------------------


def _provisional_words(item: str) -> str:
    """One provisional value of the deck (the engine names them in fixed forms) in the reader's
    words; a form this presenter does not know is shown as written."""
    m = re.fullmatch(r"player board station (\d+) \((P(\d+)|B\[(.*)\])\)", item)
    if m:
        station = (
            _n("{n} pt", "{n} pts", int(m[3]))
            if m[3] is not None
            else _("bonus: {effects}", effects=effects_words(m[4]))
        )
        return _("player board station {n} ({station})", n=m[1], station=station)
    m = re.fullmatch(r"Locomotive tile (\d+) value (\d+)", item)
    if m:
        return _("Locomotive tile {order}: value {value}", order=m[1], value=m[2])
    m = re.fullmatch(r"mail car (\d+) bonus (.+)", item)
    if m:
        return _("mail car {slot}: bonus {effects}", slot=m[1], effects=effects_words(m[2]))
    if item == "3-player Locomotive tiles 1-6 (4 with 2 upgrades, 2 with 1)":
        return _("3 players: Locomotive tiles 1-6 (4 with 2 upgrades, 2 with 1)")
    return item


def rules_words(config: dict[str, Any]) -> list[str]:
    """The rules in force for a First Class config in the reader's language
    (``rules.firstclass.summary.rules_summary`` worded here): players, modules, where the cards come
    from, each setting (its key and value as typed) and the provisional values."""
    from rules.firstclass.game import FirstClassGame
    from rules.firstclass.settings import SETTINGS, resolve_config
    from rules.firstclass.summary import MAX_PLAYERS, MIN_PLAYERS
    from rules.settings import show_setting_value

    view = FirstClassGame.new(dict(config), MIN_PLAYERS, 0).view(None)
    lines = [_("First Class, {low}-{high} players", low=MIN_PLAYERS, high=MAX_PLAYERS)]
    if view.get("modules"):
        lines.append(_("Modules: {modules}", modules=", ".join(map(str, view["modules"]))))
    if view.get("deck_label"):
        lines.append(
            "⚠ " + _("Deck: {deck}", deck=deck_words(view.get("deck_sources"), str(view["deck_label"])))
        )
    cfg = resolve_config(dict(config))
    settings = [
        f"{s.key}={show_setting_value(cfg[s.key])}"
        + ("" if cfg[s.key] == s.default else " " + _("(changed)"))
        for s in SETTINGS
    ]
    lines.append(_("Settings in force: {settings}", settings=", ".join(settings)))
    if view.get("provisional"):
        lines.append(
            "⚠ "
            + _(
                "Provisional values: {values}",
                values=semicolon_list([_provisional_words(str(p)) for p in view["provisional"]]),
            )
        )
    return lines


def score_words(label: str) -> str | None:
    """A final-score label of the registry entry (``"Coins left"``) in the reader's language."""
    words = {
        "Route stations": _p("score", "Route stations"),
        "Trains": _p("score", "Trains"),
        "Constantinople": _p("score", "Constantinople"),
        "Points from cards": _p("score", "Points from cards"),
        "Points bought with coins": _p("score", "Points bought with coins"),
        "Game End cards": _p("score", "Game End cards"),
        "Coins left": _p("score", "Coins left"),
    }
    return words.get(label)


def game_title(title: str) -> str:
    """The game's title as its edition in the reader's language calls it."""
    return _p("game", "First Class") if title == "First Class" else title


FORCED_SCORING = "the scoring step cannot be skipped: the trains are scored as they stand"


def forced_words(clause: str) -> str | None:
    """First Class's forced-move clause of a timeout (its registration's ``skip_turn``) in the
    reader's language; None for another clause."""
    if clause == FORCED_SCORING:
        return _("the scoring step cannot be skipped: the trains are scored as they stand")
    return None


def card_file_words(key: str) -> str | None:
    """A card-file setting's name in the reader's language; None for another key."""
    words = {
        "deck": _p("card file", "Action cards file"),
        "game_end_deck": _p("card file", "Game End cards file"),
        "tiles_file": _p("card file", "Locomotive tiles file"),
        "mail_cars_file": _p("card file", "Mail cars file"),
        "board_route_file": _p("card file", "Player board route file"),
    }
    return words.get(key)
