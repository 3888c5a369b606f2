"""Hidden choices stay hidden: events say who may read them, and public texts never name a hidden card
(the Game End card kept in the draft, taken or bought stays secret until the game is over)."""

from __future__ import annotations

import re

import pytest
from fc_helpers import act, started

from rules.firstclass.actions import Action
from rules.firstclass.ai import HeuristicAI, RandomAI
from rules.firstclass.game import FirstClassGame


def _hidden_from(g: FirstClassGame, viewer: int | None) -> set[str]:
    """Card ids ``viewer`` may not read: the piles, and other players' Game End cards and draft hand."""
    hidden = {c for pile in g.s.piles.values() for c in pile} | set(g.s.ge_pile) | set(g.s.draft.hand)
    if not g.is_over():
        for seat, pl in enumerate(g.s.players):
            if seat != viewer:
                hidden |= set(pl.ge_cards)
    return hidden


def _names(text: str, ids: set[str]) -> list[str]:
    return [c for c in ids if re.search(rf"(?<![\w-]){re.escape(c)}(?![\w-])", text)]


@pytest.mark.parametrize("seed", range(6))
def test_seeded_playout_public_texts_and_events_name_no_hidden_card(seed: int) -> None:
    players = 2 + seed % 3
    g = FirstClassGame.new({}, players, seed)
    ais = [HeuristicAI(seed + i) if i % 2 else RandomAI(seed + i) for i in range(players)]
    while not g.is_over():
        seat = g.seats_to_act()[0]
        action = ais[seat].choose(g, seat)
        events = g.apply(seat, action)
        public_hidden = _hidden_from(g, None)
        assert not _names(action.public_text(), public_hidden), action
        for e in events:
            assert "visible_to" in e, e
            if e["visible_to"] is None:
                assert not _names(e["text"], public_hidden), e
                assert e.get("card") not in public_hidden, e
            else:
                assert all(isinstance(s, int) and 0 <= s < players for s in e["visible_to"])
                assert e.get("public") is False
                for s in range(players):  # a private event is fit for each seat it names
                    if s in e["visible_to"]:
                        assert not _names(e["text"], _hidden_from(g, s)), e


def test_game_end_card_taken_is_named_only_to_its_taker() -> None:
    g = started(2)
    g.s.players[0].coins = [4, 0, 0]
    gid = g.s.ge_display[0]
    events = act(g, 0, f"buy {gid} 1 1 1 1")
    public = [e for e in events if e["visible_to"] is None]
    private = [e for e in events if e["visible_to"] is not None]
    assert any("buys a Game End card" in e["text"] for e in public)
    assert not any(gid in e["text"] for e in public)
    assert [e["visible_to"] for e in private] == [[0]] and gid in private[0]["text"]
    # the bonus it queues does not name the card to the other player either
    other_view = str(g.view(1)["players"][0]["pending"]) + str(g.view(None)["players"][0]["pending"])
    assert gid not in other_view


@pytest.mark.parametrize(
    ("text", "public"),
    [
        ("draft 2", "kept a Game End card"),
        ("ge G05", "took a Game End card"),
        ("buy G05 1 1 2 3", "bought a Game End card"),
        ("take X1-03", "take X1-03"),
        ("up upper 2", "up upper 2"),
    ],
)
def test_action_public_text(text: str, public: str) -> None:
    action: Action = FirstClassGame.parse_action(text)
    assert action.public_text() == public
