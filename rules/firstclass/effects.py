"""The card languages of First Class: effects, route stations and contract requirements.

Every symbol printed on a First Class card is written as text in the data files, so a card list is
data and the engine only knows the symbol *types* the rulebook describes.

Effect language (terms separated by ``;`` form a sequence, carried out left to right)::

    car(n)       add n 0-value cars, each to the train of your choice
    up(a>b)      one fixed-step upgrade of a car worth a to b (consecutive steps of 0,1,2,4,7,12)
    upany(n)     n upgrades of your choice (each may instead add a 0-value car)
    cond2(k)     both conductors advance k
    cond1(k)     k spaces split between the two conductors
    loco(k)      the locomotive advances k stations
    coin(n)      gain n coins
    points(n)    score n points
    ge(n)        take n face-up Game End cards
    choice(X|Y)  carry out one of the options (each option is itself a sequence)

Route stations (ordered in travel order, i.e. right to left, separated by ``|``)::

    P<n>         a points station worth n
    B[<effects>] a bonus station whose bonus is the effect sequence

Requirement language (terms joined by ``&``; a car of higher value counts as every lower value)::

    count(value>=V,T)>=N   at least N cars worth V or more in train T
    seq(T,[v1,v2,...])     consecutive cars worth at least v1, v2, ... in train T
    cars(T)>=N             train T has at least N railroad cars (mail car and locomotive tile excluded)
    cond(T)>=N             the conductor of train T stands on space N or further

    T is upper, lower, both (each train on its own) or any: for count and cars, both trains
    together; for seq and cond, either train.
    loco>=N                the locomotive stands on station N or further
    routecards>=N          at least N route cards added to the route
    coins>=N               at least N coins on the player board
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

STEPS: tuple[int, ...] = (0, 1, 2, 4, 7, 12)
NEXT_STEP: dict[int, int] = {STEPS[i]: STEPS[i + 1] for i in range(len(STEPS) - 1)}
TRAINS: tuple[str, str] = ("upper", "lower")


class LanguageError(ValueError):
    """A card text that does not follow the effect, station or requirement language."""


@dataclass(frozen=True)
class Term:
    """One symbol of an effect sequence. ``options`` is only used by ``choice``."""

    op: str
    n: int = 0
    a: int = 0
    b: int = 0
    options: tuple[tuple[Term, ...], ...] = ()

    def to_text(self) -> str:
        if self.op == "up":
            return f"up({self.a}>{self.b})"
        if self.op == "choice":
            return "choice(" + "|".join(effects_to_text(o) for o in self.options) + ")"
        return f"{self.op}({self.n})"


@dataclass(frozen=True)
class Station:
    """A station on a route: ``kind`` is "P" (points) or "B" (bonus)."""

    kind: str
    points: int = 0
    effects: str = ""

    def to_text(self) -> str:
        return f"P{self.points}" if self.kind == "P" else f"B[{self.effects}]"


_COUNT_OPS = {"car", "upany", "cond2", "cond1", "loco", "coin", "points", "ge"}


def split_top(text: str, sep: str) -> list[str]:
    """Split ``text`` on ``sep`` only outside parentheses and brackets."""
    parts: list[str] = []
    depth = 0
    current: list[str] = []
    for ch in text:
        if ch in "([":
            depth += 1
        elif ch in ")]":
            depth -= 1
            if depth < 0:
                raise LanguageError(f"unbalanced brackets in {text!r}")
        if ch == sep and depth == 0:
            parts.append("".join(current))
            current = []
        else:
            current.append(ch)
    if depth != 0:
        raise LanguageError(f"unbalanced brackets in {text!r}")
    parts.append("".join(current))
    return [p.strip() for p in parts]


_TERM_RE = re.compile(r"^([a-z0-9]+)\((.*)\)$", re.S)


def _parse_term(text: str) -> Term:
    m = _TERM_RE.match(text.strip())
    if not m:
        raise LanguageError(f"{text!r} is not a symbol like car(1) or up(0>1)")
    op, arg = m.group(1), m.group(2).strip()
    if op in _COUNT_OPS:
        if not arg.isdigit() or int(arg) < 1:
            raise LanguageError(f"{op}(n) needs a whole number of at least 1, got {text!r}")
        return Term(op, n=int(arg))
    if op == "up":
        um = re.fullmatch(r"(\d+)\s*>\s*(\d+)", arg)
        if not um:
            raise LanguageError(f"up(a>b) needs two values, got {text!r}")
        a, b = int(um.group(1)), int(um.group(2))
        if a not in NEXT_STEP or NEXT_STEP[a] != b:
            raise LanguageError(
                f"{text!r}: an upgrade goes exactly one step along 0>1>2>4>7>12 (rule: upgrade a railroad car)"
            )
        return Term("up", a=a, b=b)
    if op == "choice":
        options = tuple(parse_effects(o) for o in split_top(arg, "|"))
        if len(options) < 2:
            raise LanguageError(f"{text!r}: choice needs at least two options separated by |")
        return Term("choice", options=options)
    raise LanguageError(f"unknown symbol {op!r} in {text!r}")


@lru_cache(maxsize=4096)
def parse_effects(text: str) -> tuple[Term, ...]:
    """Parse an effect sequence; the empty text is the empty sequence."""
    text = text.strip()
    if not text:
        return ()
    return tuple(_parse_term(t) for t in split_top(text, ";") if t)


def effects_to_text(terms: tuple[Term, ...]) -> str:
    return ";".join(t.to_text() for t in terms)


@lru_cache(maxsize=4096)
def parse_stations(text: str) -> tuple[Station, ...]:
    """Parse a route's stations (travel order)."""
    text = text.strip()
    if not text:
        return ()
    out: list[Station] = []
    for part in split_top(text, "|"):
        if re.fullmatch(r"P\d+", part):
            out.append(Station("P", points=int(part[1:])))
        elif part.startswith("B[") and part.endswith("]"):
            inner = part[2:-1]
            if not parse_effects(inner):
                raise LanguageError(f"bonus station {part!r} has no bonus")
            out.append(Station("B", effects=inner.strip()))
        else:
            raise LanguageError(f"station {part!r} is neither P<n> nor B[<effects>]")
    return tuple(out)


def describe_effects(text: str) -> str:
    """A short English rendering of an effect sequence, for logs and images."""
    words: list[str] = []
    for t in parse_effects(text):
        words.append(describe_term(t))
    return ", then ".join(words) if words else "nothing"


def describe_term(t: Term) -> str:
    plural = "" if t.n == 1 else "s"
    if t.op == "car":
        return f"add {t.n} 0-value car{plural}"
    if t.op == "up":
        return f"upgrade a {t.a} to {t.b}"
    if t.op == "upany":
        return f"{t.n} upgrade{plural} of your choice"
    if t.op == "cond2":
        return f"both conductors +{t.n}"
    if t.op == "cond1":
        return f"conductors +{t.n} split"
    if t.op == "loco":
        return f"locomotive +{t.n}"
    if t.op == "coin":
        return f"{t.n} coin{plural}"
    if t.op == "points":
        return f"{t.n} point{plural}"
    if t.op == "ge":
        return f"{t.n} Game End card{plural}"
    return "choose: " + " or ".join(describe_effects(effects_to_text(o)) for o in t.options)


# --- requirements -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Req:
    """One requirement term; ``values`` only for ``seq``."""

    op: str
    train: str = "any"
    v: int = 0
    n: int = 0
    values: tuple[int, ...] = ()


_REQ_TRAINS = {"upper", "lower", "any", "both"}


@lru_cache(maxsize=1024)
def parse_requirement(text: str) -> tuple[Req, ...]:
    """Parse a contract requirement (terms joined by ``&``)."""
    text = text.strip()
    if not text:
        raise LanguageError("a contract needs a requirement")
    out: list[Req] = []
    for part in split_top(text, "&"):
        part = part.replace(" ", "")
        m = re.fullmatch(r"count\(value>=(\d+),(\w+)\)>=(\d+)", part)
        if m:
            out.append(Req("count", _train(m.group(2), part), v=int(m.group(1)), n=int(m.group(3))))
            continue
        m = re.fullmatch(r"seq\((\w+),\[([\d,]+)\]\)", part)
        if m:
            values = tuple(int(x) for x in m.group(2).split(","))
            if any(x not in STEPS for x in values):
                raise LanguageError(f"{part!r}: car values must be among 0,1,2,4,7,12")
            out.append(Req("seq", _train(m.group(1), part), values=values))
            continue
        m = re.fullmatch(r"(cars|cond)\((\w+)\)>=(\d+)", part)
        if m:
            out.append(Req(m.group(1), _train(m.group(2), part), n=int(m.group(3))))
            continue
        m = re.fullmatch(r"(loco|routecards|coins)>=(\d+)", part)
        if m:
            out.append(Req(m.group(1), n=int(m.group(2))))
            continue
        raise LanguageError(f"requirement {part!r} is not in the requirement language")
    return tuple(out)


def _train(word: str, part: str) -> str:
    if word not in _REQ_TRAINS:
        raise LanguageError(f"{part!r}: train must be upper, lower, any or both")
    return word


def describe_requirement(text: str) -> str:
    words: list[str] = []
    for r in parse_requirement(text):
        where = {
            "any": "your trains",
            "both": "each train",
            "upper": "the upper train",
            "lower": "the lower train",
        }[r.train]
        if r.op in ("seq", "cond") and r.train == "any":
            where = "one train"
        if r.op == "count":
            words.append(f"{r.n} cars worth {r.v}+ in {where}")
        elif r.op == "seq":
            words.append(f"cars {'-'.join(str(v) for v in r.values)} in a row in {where}")
        elif r.op == "cars":
            words.append(f"{r.n} cars in {where}")
        elif r.op == "cond":
            words.append(f"conductor on space {r.n}+ in {where}")
        elif r.op == "loco":
            words.append(f"locomotive on station {r.n}+")
        elif r.op == "routecards":
            words.append(f"{r.n} route cards")
        else:
            words.append(f"{r.n} coins")
    return " and ".join(words)
