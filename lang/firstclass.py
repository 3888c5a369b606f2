"""First Class's card symbols in the reader's words: effects, route stations, contract
requirements, queued symbols, card kinds and Game End cards.

The cards are data written in the symbol languages of :mod:`rules.firstclass.effects`
(``car(2);upany(1)``, ``P3|B[coin(2)]``, ``count(value>=4,any)>=2``); nothing English is stored
with them. These functions parse that structure and word it in the *current* language
(:func:`lang.using`), so a card reads the same on a button, in a line of the game and in a
picture (the renderer calls them inside ``using(view language)``). Card ids and player names stay
as they are; a text that does not parse is shown as written rather than failing a post.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from lang import N_, _, _n, _p
from lang.lists import semicolon_list
from rules.firstclass.effects import (
    LanguageError,
    Req,
    Term,
    parse_effects,
    parse_requirement,
    parse_stations,
)


def train_name(train: str) -> str:
    """``upper``/``lower`` as an adjective of "train" in the reader's language."""
    return {"upper": _("upper"), "lower": _("lower")}.get(train, train)


def _then(parts: Iterable[str]) -> str:
    """Symbols carried out one after the other (a card's sequence)."""
    words = list(parts)
    if not words:
        return _("nothing")
    out = words[0]
    for nxt in words[1:]:
        out = _("{first}, then {second}", first=out, second=nxt)
    return out


def _either(parts: Iterable[str]) -> str:
    """The options of a choice."""
    words = list(parts)
    out = words[0] if words else ""
    for nxt in words[1:]:
        out = _("{first} or {second}", first=out, second=nxt)
    return out


def term_words(t: Term) -> str:
    """One symbol of an effect sequence, as a noun phrase (what a card gives), so it reads in
    every sentence that names it: "takes X1-03: 1 0-value car, then an upgrade from 0 to 1",
    "receives 1 0-value car from the Start Player tile", a button's label."""
    if t.op == "car":
        return _n("{n} 0-value car", "{n} 0-value cars", t.n)
    if t.op == "up":
        return _("an upgrade from {a} to {b}", a=t.a, b=t.b)
    if t.op == "upany":
        return _n("{n} upgrade of your choice", "{n} upgrades of your choice", t.n)
    if t.op == "cond2":
        return _("both conductors +{n}", n=t.n)
    if t.op == "cond1":
        return _("conductors +{n} split", n=t.n)
    if t.op == "loco":
        return _("locomotive +{n}", n=t.n)
    if t.op == "coin":
        return _n("{n} coin", "{n} coins", t.n)
    if t.op == "points":
        return _n("{n} point", "{n} points", t.n)
    if t.op == "ge":
        return _n("{n} Game End card", "{n} Game End cards", t.n)
    if t.op == "choice":
        return _("either {options}", options=_either(_then(term_words(x) for x in o) for o in t.options))
    return t.to_text()


def effects_words(text: str) -> str:
    """An effect sequence (``car(2);coin(1)``) in words; unreadable text is returned as it is."""
    try:
        terms = parse_effects(str(text or ""))
    except LanguageError:
        return str(text)
    return _then(term_words(t) for t in terms)


def _where(r: Req) -> str:
    if r.op in ("seq", "cond") and r.train == "any":
        return _("one train")
    return {
        "any": _("your trains"),
        "both": _("each train"),
        "upper": _("the upper train"),
        "lower": _("the lower train"),
    }.get(r.train, r.train)


def requirement_term_words(r: Req) -> str:
    """One term of a contract's requirement."""
    if r.op == "count":
        return _n(
            "{n} car worth {v}+ in {where}", "{n} cars worth {v}+ in {where}", r.n, v=r.v, where=_where(r)
        )
    if r.op == "seq":
        return _(
            "cars {values} in a row in {where}", values="-".join(str(v) for v in r.values), where=_where(r)
        )
    if r.op == "cars":
        return _n("{n} car in {where}", "{n} cars in {where}", r.n, where=_where(r))
    if r.op == "cond":
        return _("conductor on space {n}+ in {where}", n=r.n, where=_where(r))
    if r.op == "loco":
        return _("locomotive on station {n}+", n=r.n)
    if r.op == "routecards":
        return _n("{n} route card", "{n} route cards", r.n)
    return _n("{n} coin on your board", "{n} coins on your board", r.n)


def requirement_words(text: str) -> str:
    """A contract's requirement (terms joined by ``&``) in words."""
    try:
        terms = parse_requirement(str(text or ""))
    except LanguageError:
        return str(text)
    out = ""
    for i, r in enumerate(terms):
        words = requirement_term_words(r)
        out = words if i == 0 else _("{first} and {second}", first=out, second=words)
    return out


def stations_words(text: str, *, named: bool = True) -> str:
    """A route card's stations in travel order: points stations and bonus stations (``named``:
    with the word "route" before them, for where the card's kind is not shown)."""
    try:
        stations = parse_stations(str(text or ""))
    except LanguageError:
        return str(text)
    parts = [
        _n("{n} pt", "{n} pts", st.points)
        if st.kind == "P"
        else _("bonus: {effects}", effects=effects_words(st.effects))
        for st in stations
    ]
    return _("route: {stations}", stations=" | ".join(parts)) if named else " | ".join(parts)


def card_words(card: Mapping[str, Any], *, kind_shown: bool = False) -> str:
    """An Action card's text from its structure (a view's card: ``kind``, ``effects``,
    ``requirement``, ``bonus``, ``route_stations``); ``kind_shown`` when its kind is written next
    to it (a route card then does not say "route" twice)."""
    kind = str(card.get("kind") or "")
    if kind == "route":
        return stations_words(str(card.get("route_stations") or ""), named=not kind_shown)
    if kind == "contract":
        return _(
            "{requirement} -> {bonus}",
            requirement=requirement_words(str(card.get("requirement") or "")),
            bonus=effects_words(str(card.get("bonus") or "")),
        )
    return effects_words(str(card.get("effects") or ""))


KINDS = ("railcar", "conductor", "locomotive", "route", "contract", "money", "game_end", "other")


def kind_words(kind: str) -> str:
    """An Action card's kind (the symbol in its corner), or a Game End card's type."""
    words = {
        "railcar": _p("card kind", "railroad car"),
        "conductor": _p("card kind", "conductor"),
        "locomotive": _p("card kind", "locomotive"),
        "route": _p("card kind", "route"),
        "contract": _p("card kind", "contract"),
        "money": _p("card kind", "money"),
        "game_end": _p("card kind", "Game End"),
        "other": _p("card kind", "other"),
    }
    return words.get(kind, kind)


def game_end_words(card: Mapping[str, Any]) -> str:
    """A Game End card: ``G10: conductor ×3, bonus 1 coin``."""
    bonus = str(card.get("bonus") or "")
    text = _(
        "{id}: {type} ×{points}",
        id=card.get("id", "?"),
        type=kind_words(str(card.get("type") or "?")),
        points=card.get("points", "?"),
    )
    return _("{card}, bonus {bonus}", card=text, bonus=effects_words(bonus)) if bonus else text


def source_words(src: str) -> str:
    """Where a queued symbol comes from (a card id, a bonus station, a mail car...), as the engine
    names it (``"contract A1-03"``, ``"bonus station 4"``, ``"5th car of the upper train"``)."""
    words = src.split()
    if len(words) == 1:
        return {"coin": _("a coin")}.get(src, src)  # a card id, or a coin spent
    head, rest = " ".join(words[:-1]), words[-1]
    simple = {
        "forgoing": lambda: _("forgoing {card}", card=rest),
        "contract": lambda: _("contract {card}", card=rest),
        "bonus station": lambda: _("bonus station {n}", n=rest),
        "mail car": lambda: _("mail car {n}", n=rest),
        "Locomotive tile": lambda: _("Locomotive tile {n}", n=rest),
        "Game End card": lambda: _("Game End card {card}", card=rest),
    }
    if head in simple:
        return simple[head]()
    if src == "Start Player tile":
        return _("the Start Player tile")
    if src == "a Game End card":
        return _("a Game End card")
    if len(words) == 6 and words[1:4] == ["car", "of", "the"] and words[5] == "train":
        return _("car 5 of the {train} train", train=train_name(words[4]))
    return src


def symbol_words(item: Mapping[str, Any]) -> str:
    """One queued symbol of a view's ``pending`` list (``op`` and its numbers) in words."""
    op = str(item.get("op") or "")
    n = int(item.get("n") or 1)
    if op == "up":
        a = int(item.get("a") or 0)
        from rules.firstclass.effects import NEXT_STEP

        return _("upgrade a {a} to {b}", a=a, b=NEXT_STEP.get(a, "?"))
    if op == "choice":
        return _(
            "choose: {options}", options=_either(effects_words(str(o)) for o in item.get("options") or [])
        )
    if op == "mail":
        return _("a mail car for the {train} train", train=train_name(str(item.get("train") or "")))
    if op == "upone":
        return _("1 upgrade (forgone card)")
    if op in ("car", "upany", "cond1", "ge"):
        return effects_words(f"{op}(1)")
    return effects_words(f"{op}({n})")


def _set_names(sets: Iterable[str]) -> str:
    words = [_("base cards") if s == "X" else _("module {letter}", letter=s) for s in sets]
    out = words[0] if words else ""
    for nxt in words[1:]:
        out = _("{first} and {second}", first=out, second=nxt)
    return out


def deck_words(sources: Any, fallback: str = "") -> str:
    """Where a game's Action cards come from (a view's ``deck_sources``: ``[[sets], file]``, the
    file ``""`` for our open deck); ``fallback`` (the stored English label) for a game stored
    before the sources were kept."""
    parts = []
    for entry in sources or []:
        try:
            sets, path = entry
        except (TypeError, ValueError):
            return fallback
        if path:
            parts.append(_("{sets} loaded from {file}", sets=_set_names(sets), file=path))
        elif len(sources) == 1:
            parts.append(
                _("the Conductor open deck (cards of our own design, not the published First Class cards)")
            )
        else:
            parts.append(
                _(
                    "{sets} from the Conductor open deck (cards of our own design, not the published First "
                    "Class cards)",
                    sets=_set_names(sets),
                )
            )
    return semicolon_list(parts) if parts else fallback


# First Class's settings as people read them: (label, what it changes), by config key. The engine's
# own English (rules.firstclass.settings) stays the record; these are its words for every reader.
_SETTING_WORDS: dict[str, tuple[str, str]] = {
    "conductor_start": (
        N_("Conductors start on"),
        N_(
            "space the conductors start on: 0 = the brass plate before car 1 (documented default), "
            "1 = on car 1"
        ),
    ),
    "start_player_compensation": (
        N_("Start Player compensation"),
        N_(
            "compensations are counted clockwise from the player taking the tile and cut "
            "off at the player count"
        ),
    ),
    "locomotive_tiles_3p": (
        N_("Locomotive tiles with 3 players"),
        N_("with 3 players tiles 1-6 are used (4 with 2 upgrades, 2 with 1) - a guess, marked provisional"),
    ),
    "game_end_typing": (
        N_("Game End card counting"),
        N_("which base cards count for a Game End card: its printed type (default) or the card kind"),
    ),
    "car_supply": (
        N_("Railroad car supply"),
        N_("railroad car supply: unlimited (default) or the 50 0/1, 24 2/4 and 20 7/12 double-sided cards"),
    ),
    "route_clock": (
        N_("Clock icon on route cards"),
        N_("the clock icon on route cards does nothing in the base game"),
    ),
    "buy_game_end_in_scoring": (
        N_("Buy Game End cards in scoring"),
        N_(
            "whether Game End cards may also be bought during your scoring step: True "
            "(default, the rulebook's coin spending list, which applies in scoring phases "
            "too) or False (only on your own turn, the German FAQ reading)"
        ),
    ),
    "deck": (
        N_("Action cards file"),
        N_("CSV of Action cards (base X and module cards) in the template format"),
    ),
    "game_end_deck": (N_("Game End cards file"), N_("CSV of the 21 Game End cards")),
    "tiles_file": (N_("Locomotive tiles file"), N_("CSV of the 8 Locomotive tiles")),
    "mail_cars_file": (N_("Mail cars file"), N_("CSV of the 4 mail cars")),
    "board_route_file": (N_("Player board route file"), N_("CSV of the player board's pre-printed stations")),
}


def setting_words(key: str, label: str, help_text: str) -> tuple[str, str]:
    """A First Class setting's label and meaning in the reader's language (``label`` and
    ``help_text``, the engine's English, for a setting this table does not know)."""
    if key == "modules":
        modules = help_text[help_text.find("(") + 1 : help_text.find(")")] if "(" in help_text else ""
        return _("Modules"), _(
            "modules played with the base cards ({modules}); B-G are listed but not playable", modules=modules
        )
    words = _SETTING_WORDS.get(key)
    if words is None:
        return label, help_text
    # The open question a setting answers ("Q1: ...") keeps its id, which the notes cite.
    question, sep, _rest = help_text.partition(": ")
    cited = question + ": " if sep and question[:1] == "Q" and question[1:].isdigit() else ""
    return _(words[0]), cited + _(words[1])
