"""Module O, the Conductor open deck's own module, includes contracts: "Every module includes
contracts" (rulebook, The Contracts), and each module holds 24 cards, 8 per pile (the module table,
shared/reference/first-class/modules.csv). Its cards are ours and say so, like the rest of the open
deck. The first edition of the open deck (module O without contracts) can still be dealt, so games
recorded with it replay unchanged."""

from __future__ import annotations

import pytest
from fc_helpers import act, player, started, texts

from rules.errors import IllegalAction
from rules.firstclass import cards as C
from rules.firstclass.game import FirstClassGame
from rules.firstclass.settings import take_hook


def _module_o(edition: int) -> list[C.ActionCard]:
    return [c for c in C.open_action_cards(edition) if c.set == "O"]


def test_rule_every_module_includes_contracts_module_o_too() -> None:
    cards = _module_o(C.OPEN_DECK_EDITION)
    assert len(cards) == 24
    for pile in (1, 2, 3):
        in_pile = [c for c in cards if c.pile == pile]
        assert len(in_pile) == 8
        contracts = [c for c in in_pile if c.kind == "contract"]
        assert len(contracts) == 3, pile
        assert all(c.requirement and c.bonus and not c.effects for c in contracts)
    # labelled as our own cards, like every card of the open deck
    assert all(
        c.source.startswith("Conductor open deck") and "not the published cards" in c.source for c in cards
    )
    assert C.validate_action_cards(C.open_action_cards(), ["X", "A", "O"]) == []
    # a module O contract is placed beside the board even when module A is not chosen
    assert take_hook(["O"], "contract") == "place_contract"


def _with_card_on_display(g: FirstClassGame, cid: str) -> None:
    g.s.rows[0][0] = cid
    g.s.slots[0][0] = "available"


def test_rule_module_o_contract_is_taken_face_up_and_fulfilled_for_its_bonus() -> None:
    g = started(2)
    card = g.deck.cards["O1-07"]
    assert (card.kind, card.requirement, card.bonus) == ("contract", "count(value>=2,both)>=1", "points(7)")
    _with_card_on_display(g, "O1-07")
    act(g, 0, "take O1-07")
    pl = player(g, 0)
    assert pl.contracts == ["O1-07"] and "O1-07" not in pl.completed
    assert "fulfil O1-07" not in texts(g, 0)  # two 0-value cars: no car worth 2 in either train
    before = g.to_json()
    with pytest.raises(IllegalAction) as exc:
        act(g, 0, "fulfil O1-07")
    assert exc.value.code == "contract_not_met" and g.to_json() == before
    pl = player(g, 0)  # a refused action puts back the state it copied
    pl["trains"] = {"upper": [2, 0], "lower": [4]}
    points = pl.points["card_points"]
    act(g, 0, "fulfil O1-07")
    assert pl.points["card_points"] == points + 7
    assert pl.contracts == [] and "O1-07" in pl.completed


def test_first_edition_deals_module_o_without_contracts_and_saves_as_before() -> None:
    assert not [c for c in _module_o(1) if c.kind == "contract"]
    old = FirstClassGame.new({"open_deck": 1}, 2, 5)
    assert "open_deck" not in old.config  # saved exactly as a game of the first edition always was
    assert not [c for c in old.deck.cards.values() if c.set == "O" and c.kind == "contract"]
    new = FirstClassGame.new({}, 2, 5)
    assert new.config["open_deck"] == C.OPEN_DECK_EDITION
    assert [c.id for c in new.deck.cards.values() if c.set == "O" and c.kind == "contract"]
    # the same Action card ids in both editions: only what the module O cards do differs
    assert set(old.deck.cards) == set(new.deck.cards)


@pytest.mark.parametrize("value", [0, 4, "2", True, None])
def test_an_unknown_open_deck_edition_is_refused_with_a_sentence(value: object) -> None:
    with pytest.raises(IllegalAction) as exc:
        FirstClassGame.new({"open_deck": value}, 2, 1)
    assert (
        exc.value.code == "bad_config"
        and "open_deck must be an edition of the open deck: 1, 2, 3" in exc.value.message
    )


@pytest.mark.parametrize("edition", [1, 2, 3])
def test_a_stored_game_replays_with_the_edition_it_was_dealt(edition: int) -> None:
    """A stored game's config may lack the edition (games saved before editions existed, or a front
    end that keeps the players' own config): the replay takes it from the saved state, so the replayed
    game saves the same JSON as the stored one."""
    g = FirstClassGame.new({"open_deck": edition}, 3, 8)
    while g.s.phase == "draft":
        seat = g.seats_to_act()[0]
        g.apply(seat, g.legal_actions(seat)[0])
    snapshot = g.to_json()
    start = FirstClassGame.replay_start({}, 3, 8, snapshot)
    assert start.config == FirstClassGame.new({"open_deck": edition}, 3, 8).config


def test_third_edition_lowers_two_game_end_cards_and_older_editions_keep_theirs() -> None:
    """Edition 3 (the balance issue): G13 (locomotive) and G21 (conductor) score one point less per
    card, so the setup draft's first pick no longer decides 2-player games; editions 1 and 2 deal the
    Game End cards they always did, so their stored and golden games replay unchanged."""
    points = {e: {g.id: g.points for g in C.open_game_end_cards(e)} for e in (1, 2, 3)}
    assert points[1] == points[2]
    assert (points[2]["G13"], points[2]["G21"]) == (3, 4)
    assert (points[3]["G13"], points[3]["G21"]) == (2, 3)
    assert {k: v for k, v in points[3].items() if k not in ("G13", "G21")} == {
        k: v for k, v in points[2].items() if k not in ("G13", "G21")
    }
    assert FirstClassGame.new({}, 2, 5).deck.game_end["G21"].points == 3
    assert FirstClassGame.new({"open_deck": 2}, 2, 5).deck.game_end["G21"].points == 4
