"""What one seat may know in First Class, as a playable game: hidden cards dealt again at random.

An AI is handed :func:`observation_copy` instead of the real game: the order of the face-down
Action piles and of the Game End pile, the other seats' Game End cards and (during the draft) a
hand the seat is not holding are shuffled together and dealt back in the same amounts, so the AI
can look ahead with the whole engine without learning what its seat could not see. What the seat
sees (the table, every board, its own Game End cards and draft hand) is unchanged.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from rules.firstclass.game import FirstClassGame


def observation_copy(game: FirstClassGame, seat: int, rng: random.Random) -> FirstClassGame:
    """A copy of ``game`` consistent with everything ``seat`` sees, the rest dealt at random."""
    return _redeal(game, seat, rng.shuffle)


def canonical_view(game: FirstClassGame, seat: int) -> FirstClassGame:
    """A copy of ``game`` whose hidden cards depend only on what ``seat`` sees: piles and unseen
    Game End cards sorted and dealt back in the same amounts, the seed fixed (a search starts from
    it so that its choice is a function of the seat's view alone)."""
    copy = _redeal(game, seat, _sort)
    copy.seed = 0
    return copy


def _sort(items: list[str]) -> None:
    items.sort()


def _redeal(game: FirstClassGame, seat: int, arrange: Callable[[list[str]], None]) -> FirstClassGame:
    """A copy in which every card ``seat`` cannot see is put in the order ``arrange`` gives and
    dealt back in the same amounts."""
    copy = game.copy()
    st = copy.s
    for pile in st.piles.values():
        arrange(pile)
    holders: list[list[str]] = [st.ge_pile]
    holders += [p.ge_cards for i, p in enumerate(st.players) if i != seat]
    if st.phase == "draft" and st.draft.order[st.draft.index] != seat:
        holders.append(st.draft.hand)
    unseen = [card for cards in holders for card in cards]
    arrange(unseen)
    for cards in holders:
        for i in range(len(cards)):
            cards[i] = unseen.pop()
    return copy
