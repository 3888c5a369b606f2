"""The effect-op table (rules.firstclass.ops.OPS): one entry per symbol kind, consistent with the card
language, the saved state and the engine's own answers."""

from __future__ import annotations

import pytest
from fc_helpers import player, started

from rules.errors import IllegalAction
from rules.firstclass.effects import parse_effects
from rules.firstclass.ops import OPS, describe_item, expand, item_options
from rules.firstclass.state import Symbol

# Every symbol a card can print (one of each kind of the effect language), and those the engine
# queues itself: a forgone card's upgrade and the 5th car's mail car.
PRINTED = "car(2);up(1>2);upany(2);cond2(2);cond1(2);loco(2);coin(2);points(2);ge(2);choice(car(1)|coin(1))"
ENGINE_QUEUED = {"upone", "mail"}


def test_one_table_entry_per_symbol_kind_and_no_other() -> None:
    printed = {t.op for t in parse_effects(PRINTED)}
    assert set(OPS) == printed | ENGINE_QUEUED


@pytest.mark.parametrize("term", [t.to_text() for t in parse_effects(PRINTED)])
def test_queued_symbols_save_and_load_unchanged_and_are_worded(term: str) -> None:
    """What the table queues for a printed term survives the saved state's JSON form (whose fields
    depend on the op) and has words for the list of waiting symbols."""
    items = expand(term, "card X1-01")
    assert items
    for item in items:
        assert Symbol.from_json(item.to_json()) == item
        assert describe_item(item)


def _symbols() -> list[Symbol]:
    return [
        Symbol("car", "test"),
        Symbol("up", "test", a=0),
        Symbol("upone", "test"),
        Symbol("upany", "test"),
        Symbol("cond1", "test"),
        Symbol("ge", "test"),
        Symbol("choice", "test", options=("car(1)", "coin(1)")),
        Symbol("mail", "test", train="upper"),
    ]


@pytest.mark.parametrize("symbol", _symbols(), ids=lambda s: s.op)
def test_every_option_an_op_lists_is_an_answer_it_accepts(symbol: Symbol) -> None:
    """An op's options and its answer agree: each listed action is legal, carried out without a refusal,
    and uses up the symbol."""
    g = started(2)
    g.s.taken = True
    player(g, 0).pending = [symbol]
    options = item_options(g, 0, symbol)
    assert options, f"{symbol.op} lists no answer on a fresh board"
    legal = g.legal_actions(0)
    for action in options:
        assert action in legal
        trial = g.copy()
        try:
            trial.apply(0, action)
        except IllegalAction as exc:
            pytest.fail(f"{symbol.op}: listed {action.to_text()!r} but refused it: {exc.message}")
        assert symbol not in player(trial, 0).pending


def test_automatic_ops_are_never_offered_nor_skipped() -> None:
    """Symbols with no decision are carried out by the engine: no answer lists them, skip passes them."""
    g = started(2)
    for name, op in OPS.items():
        symbol = Symbol(name, "test", n=1)
        if op.auto:
            assert op.rank is None and item_options(g, 0, symbol) == []
