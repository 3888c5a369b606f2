"""First Class actions: one frozen dataclass with a stable text form.

Text forms (seat numbers are implied by who sends the action)::

    draft <n>                      keep the n-th Game End card of the hand passed to you (setup)
    take <card_id>                 take an Action card and carry it out
    forgo <card_id>                take an Action card and forgo it for one upgrade
    start                          take the Start Player tile
    car <upper|lower>              add a 0-value car (for a pending car / upgrade-of-choice symbol)
    up <upper|lower> <pos>         upgrade the car at position pos (1 = leftmost)
    cond <upper|lower>             move one conductor 1 space (split conductor symbol)
    choose <n>                     pick option n of a choice symbol
    mail <slot>                    put mail car <slot> into the train as its 6th car
    ge <ge_id>                     take a face-up Game End card (Game End symbol)
    skip                           do not carry out the pending symbol (partial action)
    end                            end your turn
    bonus <station>                receive a bonus station's bonus (scoring phase)
    done                           finish your bonuses and score your trains (scoring phase)
    spend car <upper|lower>        coin from column 1: add a 0-value car
    spend move <upper|lower|loco>  coin from column 2: a conductor 1 space or the locomotive 1 station
    spend up <upper|lower> <pos>   coin from column 3: one upgrade
    spend point <column>           coin from any column: 1 point
    buy <ge_id> <c> <c> <c> <c>    4 coins (columns listed) for a face-up Game End card
    fulfil <card_id>               fulfil a contract
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rules.errors import IllegalAction
from rules.text import MAX_NUMBER_DIGITS, invisible_character, is_number, shown

# kind -> number of arguments (None: checked by a custom rule)
ARITY: dict[str, int] = {
    "draft": 1,
    "take": 1,
    "forgo": 1,
    "start": 0,
    "car": 1,
    "up": 2,
    "cond": 1,
    "choose": 1,
    "mail": 1,
    "ge": 1,
    "skip": 0,
    "end": 0,
    "bonus": 1,
    "done": 0,
    "spend_car": 1,
    "spend_move": 1,
    "spend_up": 2,
    "spend_point": 1,
    "buy": 5,
    "fulfil": 1,
}
_TRAIN_ARG = {"car", "up", "cond", "spend_car", "spend_up"}
_INT_ARGS = {
    "draft": (0,),
    "up": (1,),
    "spend_up": (1,),
    "choose": (0,),
    "mail": (0,),
    "bonus": (0,),
    "spend_point": (0,),
    "buy": (1, 2, 3, 4),
}


# Hidden choices: which Game End card was kept, taken or bought stays secret until the game is over.
PUBLIC_TEXTS: dict[str, str] = {
    "draft": "kept a Game End card",
    "ge": "took a Game End card",
    "buy": "bought a Game End card",
}


@dataclass(frozen=True)
class Action:
    """A First Class move: ``kind`` plus string arguments; ``to_text`` is the stable text form."""

    kind: str
    args: tuple[str, ...] = ()

    def to_text(self) -> str:
        return " ".join([self.kind.replace("_", " "), *self.args])

    def public_text(self) -> str:
        """The reading safe for everyone: hidden choices (``draft``, ``ge``, ``buy``) name no card."""
        return PUBLIC_TEXTS.get(self.kind) or self.to_text()

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "text": self.to_text()}

    def __str__(self) -> str:
        return self.to_text()

    def int_arg(self, i: int) -> int:
        return int(self.args[i])


# Bounds of the text form: no real action comes near them, and they keep a pasted wall of text
# (or a number too long for int()) a plain refusal instead of an error.
MAX_ACTION_CHARS = 500


def _malformed(text: str, why: str) -> IllegalAction:
    return IllegalAction("malformed_action", f"Cannot read {shown(text)}: {why}.")


def make(kind: str, *args: str | int) -> Action:
    return Action(kind, tuple(str(a) for a in args))


def parse_action(text: str) -> Action:
    """Parse the text form; raises IllegalAction("malformed_action") on anything else."""
    if not isinstance(text, str):
        raise _malformed(repr(text), "an action is a line of text")
    if len(text) > MAX_ACTION_CHARS:
        raise IllegalAction(
            "malformed_action",
            f"That action is {len(text)} characters long; an action is at most {MAX_ACTION_CHARS}.",
        )
    ch = invisible_character(text)
    if ch is not None:
        raise _malformed(text, f"it contains the invisible character U+{ord(ch):04X}")
    tokens = text.strip().split()
    if not tokens:
        raise _malformed(text, "it is empty")
    head = tokens[0].lower()
    if head == "fulfill":
        head = "fulfil"
    if head == "spend":
        if len(tokens) < 2:
            raise _malformed(text, "say what to spend on: car, move, up or point")
        kind, args = "spend_" + tokens[1].lower(), tokens[2:]
    else:
        kind, args = head, tokens[1:]
    if kind not in ARITY:
        raise _malformed(text, f"unknown action {shown(kind.replace('_', ' '))}")
    if len(args) != ARITY[kind]:
        raise _malformed(text, f"{kind.replace('_', ' ')} takes {ARITY[kind]} argument(s)")
    if kind in _TRAIN_ARG:
        args[0] = args[0].lower()
        if args[0] not in ("upper", "lower"):
            raise _malformed(text, "the train is upper or lower")
    if kind == "spend_move":
        args[0] = args[0].lower()
        if args[0] not in ("upper", "lower", "loco"):
            raise _malformed(text, "move upper, lower or loco")
    for i in _INT_ARGS.get(kind, ()):
        if not is_number(args[i]):
            raise _malformed(text, f"{shown(args[i])} is not a number written with the digits 0-9")
        if len(args[i]) > MAX_NUMBER_DIGITS:
            raise _malformed(
                text, f"{shown(args[i])} is too long for a number here (at most {MAX_NUMBER_DIGITS} digits)"
            )
        args[i] = str(int(args[i]))
    return Action(kind, tuple(args))


def action_from_json(obj: dict[str, Any]) -> Action:
    if not isinstance(obj, dict) or "text" not in obj:
        raise IllegalAction("malformed_action", "An action's JSON form needs a 'text' field.")
    action = parse_action(str(obj["text"]))
    if "kind" in obj and obj["kind"] != action.kind:
        raise IllegalAction(
            "malformed_action", f"Action kind {shown(str(obj['kind']))} does not match its text."
        )
    return action
