"""What one seat may know, as a playable game: the hidden cards and tickets re-dealt at random.

An AI (or a search over futures) is handed :func:`observation_copy` instead of the real game, so
it can call the whole engine API and still never learn what its seat could not see as a player:
the order of the train deck, the other seats' hands, the other seats' tickets and ticket offers,
the order of the ticket piles and the tickets out of the game are shuffled together and dealt
back in the same amounts. Everything the seat sees (its own hand, tickets and offer, the board,
face-up cards, discards, counts) is unchanged, so its view and legal actions are the same.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from rules.ttr.board import N_CARD_TYPES
from rules.ttr.game import TTRGame


def observation_copy(game: TTRGame, seat: int, rng: random.Random) -> TTRGame:
    """A copy of ``game`` consistent with everything ``seat`` sees, the rest dealt at random."""
    return _redeal(game, seat, rng.shuffle)


def canonical_view(game: TTRGame, seat: int) -> TTRGame:
    """A copy of ``game`` whose hidden parts depend only on what ``seat`` sees: the unseen cards
    and tickets sorted and dealt back in the same amounts, the seed fixed (a search starts from it
    so that its choice is a function of the seat's view alone)."""
    copy = _redeal(game, seat, _sort)
    copy.seed = 0
    return copy


def _sort(items: list[Any]) -> None:
    items.sort()


def _redeal(game: TTRGame, seat: int, arrange: Callable[[list[Any]], None]) -> TTRGame:
    """A copy in which every card and ticket ``seat`` cannot see is gathered, put in the order
    ``arrange`` gives, and dealt back in the same amounts."""
    copy = game.copy()
    st = copy.state
    others = [s for s in range(copy.players) if s != seat]
    cards = list(st.deck)
    for s in others:
        for card, count in enumerate(st.hands[s]):
            cards += [card] * count
    arrange(cards)
    for s in others:
        hand = [0] * N_CARD_TYPES
        for _ in range(sum(st.hands[s])):
            hand[cards.pop()] += 1
        st.hands[s] = hand
    st.deck = cards

    kind_of = {tid: ("long" if t.kind == "long" else "short") for tid, t in copy.board.tickets.items()}
    unseen: dict[str, list[str]] = {"short": [], "long": []}
    slots: list[tuple[list[str], int]] = []  # (list, index) of every unseen ticket position

    def collect(tickets: list[str]) -> None:
        for i, tid in enumerate(tickets):
            unseen[kind_of[tid]].append(tid)
            slots.append((tickets, i))

    for pile in st.ticket_decks.values():
        collect(pile)
    collect(st.tickets_out)
    for s in others:
        collect(st.tickets[s])
        offer = st.offers[s]
        if offer is not None:
            collect(offer)
    for pool in unseen.values():
        arrange(pool)
    for tickets, i in slots:
        tickets[i] = unseen[kind_of[tickets[i]]].pop()
    return copy
