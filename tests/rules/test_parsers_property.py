"""Every action parser refuses with IllegalAction, on any input.

The promise (for the text grammar of every game: the four Ticket to Ride boards and First Class):
any text either parses to an action whose ``to_text()`` parses back to an equal action, or is
refused with ``IllegalAction("malformed_action", <sentence>)``. Nothing else escapes: a raw
``ValueError`` reaches the player as "Something went wrong". Only the ASCII digits 0-9 make a
number, and numbers have a length bound (``int()`` refuses more than 4,300 digits).

Valid texts come from ``legal_actions`` of seeded games; hypothesis mutates them (a number
replaced by a Unicode digit or a huge number, control characters inserted, words dropped …) and
also feeds arbitrary Unicode text of arbitrary length.
"""

from __future__ import annotations

import random
import re
from functools import cache
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from rules.errors import IllegalAction
from rules.games import action_from_json, new_game, parse_action

# (game name, config, players): every text grammar the bot accepts.
GRAMMARS: list[tuple[str, dict[str, Any], int]] = [
    ("ttr", {"board": "usa"}, 3),
    ("ttr", {"board": "europe"}, 4),
    ("ttr", {"board": "switzerland"}, 3),
    ("ttr", {"board": "germany"}, 4),
    ("first-class", {}, 3),
]
GAME_NAMES = sorted({name for name, _, _ in GRAMMARS})

# The cases reported by players: superscript two, circled one, Arabic-Indic and Persian three,
# Devanagari five, fullwidth nine, and a 5000-digit number.
REPORTED_NUMBERS = ["²", "①", "٣", "۳", "५", "９", "5" * 5000]

PROPERTY = settings(
    max_examples=300,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


@cache
def valid_texts(name: str) -> tuple[str, ...]:
    """Texts of legal actions met while playing seeded games of ``name`` to the end (random moves)."""
    texts: set[str] = set()
    for game_name, config, players in GRAMMARS:
        if game_name != name:
            continue
        for seed in (1, 2):
            rng = random.Random(seed)
            game = new_game(game_name, config, players, seed)
            for _ in range(400):
                if game.is_over():
                    break
                seat = game.seats_to_act()[0]
                legal = game.legal_actions(seat)
                texts.update(a.to_text() for a in rng.sample(legal, min(len(legal), 8)))
                game.apply(seat, rng.choice(legal))
    return tuple(sorted(texts))


def parses_back_or_refuses(name: str, text: str) -> None:
    """The property itself: an action that reads back equal, or a malformed_action refusal."""
    try:
        action = parse_action(name, text)
    except IllegalAction as exc:
        assert exc.code == "malformed_action", (text[:80], exc)
        assert exc.message.strip(), "a refusal says why"
        assert len(exc.message) <= 300, f"a refusal stays readable, not {len(exc.message)} characters"
        return
    again = parse_action(name, action.to_text())
    assert again == action, (text[:80], action.to_text())


# ---- valid texts ------------------------------------------------------------------------------


@pytest.mark.parametrize("name", GAME_NAMES)
def test_every_legal_action_text_parses_back_to_itself(name: str) -> None:
    """The bounds (length, digits, characters) refuse nothing a game offers as a legal action."""
    texts = valid_texts(name)
    assert len(texts) > 50, "the seeded games offered a varied set of actions"
    for text in texts:
        action = parse_action(name, text)
        assert action.to_text() == text
        assert action_from_json(name, action.to_json()) == action


# ---- the reported cases -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "template"),
    [
        ("ttr", "draw face {}"),
        ("ttr", "claim EU034 red={},locomotive=1"),
        ("ttr", "tunnel pay red={}"),
        ("ttr", "tickets draw short={} long=2"),
        ("ttr", "station Berlin red={}"),
        ("first-class", "draft {}"),
        ("first-class", "choose {}"),
        ("first-class", "up upper {}"),
        ("first-class", "spend point {}"),
        ("first-class", "buy G1 1 2 {} 4"),
    ],
)
@pytest.mark.parametrize("number", REPORTED_NUMBERS, ids=lambda n: n if len(n) < 5 else f"{len(n)}-digits")
def test_a_unicode_digit_or_a_huge_number_is_refused_with_a_sentence(
    name: str, template: str, number: str
) -> None:
    """Only the ASCII digits 0-9 make a number: "²", "①", Arabic-Indic digits and a 5000-digit
    number are refused as malformed (before the fix they escaped as a raw ValueError)."""
    with pytest.raises(IllegalAction) as refused:
        parse_action(name, template.format(number))
    assert refused.value.code == "malformed_action"
    assert "0-9" in refused.value.message or "characters long" in refused.value.message, refused.value.message


@pytest.mark.parametrize(("name", "text"), [("ttr", "draw face 12345"), ("first-class", "choose 12345")])
def test_a_number_longer_than_four_digits_is_refused(name: str, text: str) -> None:
    """Numbers have a length bound: no count, slot or position in any game needs five digits."""
    with pytest.raises(IllegalAction, match="at most 4 digits"):
        parse_action(name, text)


@pytest.mark.parametrize(("name", "text"), [("ttr", "draw face 0003"), ("first-class", "choose 0002")])
def test_a_number_within_the_bound_still_parses(name: str, text: str) -> None:
    """Leading zeros are still a plain number (the text form writes it back without them)."""
    action = parse_action(name, text)
    assert action.to_text() == text.replace("000", "")


def test_the_4300_digit_limit_of_int_cannot_be_reached() -> None:
    """A number over int()'s 4,300-digit limit inside an otherwise valid action is refused."""
    for name, text in (("ttr", "draw face " + "7" * 4301), ("first-class", "draft " + "7" * 4301)):
        with pytest.raises(IllegalAction):
            parse_action(name, text)


# ---- properties over arbitrary and mutated text -----------------------------------------------


@PROPERTY
@given(name=st.sampled_from(GAME_NAMES), text=st.text())
@example(name="ttr", text="draw face ²")
@example(name="ttr", text="draw face ①")
@example(name="ttr", text="draw face " + "5" * 5000)
@example(name="ttr", text="claim EU034 red=①")
@example(name="ttr", text="tickets keep ,")
@example(name="ttr", text="passenger Berlin ,")
@example(name="ttr", text="claim DE012 blue=4 passenger=Bad_Homburg")
@example(name="first-class", text="draft ²")
@example(name="first-class", text="choose ①")
@example(name="first-class", text="up upper " + "5" * 5000)
@example(name="ttr", text="\ud800")
def test_any_unicode_text_parses_back_or_is_refused(name: str, text: str) -> None:
    """Arbitrary Unicode text (surrogates, digits of every script, control characters)."""
    parses_back_or_refuses(name, text)


@PROPERTY
@given(name=st.sampled_from(GAME_NAMES), length=st.integers(0, 20_000), char=st.characters())
def test_text_of_any_length_parses_back_or_is_refused(name: str, length: int, char: str) -> None:
    """Very long texts (a pasted wall of text, a single character repeated) are refused, not crashed on."""
    parses_back_or_refuses(name, (char * length))
    parses_back_or_refuses(name, "claim EU001 red=" + "1" * length)
    parses_back_or_refuses(name, "choose " + "1" * length)


NUMBER = re.compile(r"[0-9]+")


@st.composite
def mutated_texts(draw: st.DrawFn) -> tuple[str, str]:
    """A legal action's text with one mutation a player (or a paste) could make."""
    name = draw(st.sampled_from(GAME_NAMES))
    text = draw(st.sampled_from(valid_texts(name)))
    numbers = list(NUMBER.finditer(text))
    mutation = draw(
        st.sampled_from(["unicode_digit", "huge_number", "control", "insert", "delete", "word", "case"])
    )
    if mutation in ("unicode_digit", "huge_number") and numbers:
        span = draw(st.sampled_from(numbers)).span()
        if mutation == "unicode_digit":
            replacement = draw(st.text(st.characters(categories=["Nd", "No", "Nl"]), min_size=1, max_size=3))
        else:
            replacement = "9" * draw(st.integers(5, 6000))
        return name, text[: span[0]] + replacement + text[span[1] :]
    at = draw(st.integers(0, len(text)))
    if mutation == "control":
        junk = draw(
            st.text(
                st.characters(categories=["Cc", "Cf", "Cs", "Co", "Zl", "Zp", "Zs"]), min_size=1, max_size=3
            )
        )
        return name, text[:at] + junk + text[at:]
    if mutation == "delete":
        end = draw(st.integers(at, len(text)))
        return name, text[:at] + text[end:]
    if mutation == "word":
        words = text.split()
        i = draw(st.integers(0, len(words) - 1))
        op = draw(st.sampled_from(["drop", "double", "swap"]))
        if op == "drop":
            words.pop(i)
        elif op == "double":
            words.insert(i, words[i])
        else:
            j = draw(st.integers(0, len(words) - 1))
            words[i], words[j] = words[j], words[i]
        return name, " ".join(words)
    if mutation == "case":
        return name, text.upper() if draw(st.booleans()) else text.swapcase()
    return name, text[:at] + draw(st.text(max_size=5)) + text[at:]


@PROPERTY
@given(case=mutated_texts())
def test_a_mutated_legal_action_parses_back_or_is_refused(case: tuple[str, str]) -> None:
    """Legal texts with a Unicode digit, a huge number, control characters, stray text, a word
    dropped, doubled or swapped, or changed case."""
    parses_back_or_refuses(*case)


@PROPERTY
@given(case=mutated_texts(), kind=st.one_of(st.none(), st.text(max_size=12)))
def test_a_mutated_action_in_json_form_reads_back_or_is_refused(
    case: tuple[str, str], kind: str | None
) -> None:
    """The JSON form ({"kind", "text"}) read from the action log obeys the same promise."""
    name, text = case
    obj: dict[str, Any] = {"text": text} if kind is None else {"kind": kind, "text": text}
    try:
        action = action_from_json(name, obj)
    except IllegalAction as exc:
        assert exc.code == "malformed_action"
        return
    assert action_from_json(name, action.to_json()) == action
