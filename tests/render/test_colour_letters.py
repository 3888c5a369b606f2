"""The letter on every free route space and train card is the picture's language's initial of
its colour (issue 34): a German reads G as gelb, an Italian G as giallo, a French B as blanc, so
the English R O Y G B P K W would tell them the wrong colour. The legend names each letter's
colour in the same language."""

from __future__ import annotations

import pytest
from PIL import ImageChops

from render import common
from render.ttr_board import static_layers
from render.ttr_panel import card_tile, legend_letters

#: The initials each language reads (the glossaries in lang/glossary/ list the colour names).
LETTERS = {
    "en": {
        "red": "R",
        "orange": "O",
        "yellow": "Y",
        "green": "G",
        "blue": "B",
        "pink": "P",
        "black": "K",
        "white": "W",
    },
    "it": {
        "red": "R",
        "orange": "A",
        "yellow": "G",
        "green": "V",
        "blue": "Bl",
        "pink": "Rs",
        "black": "N",
        "white": "Bi",
    },
    "fr": {
        "red": "R",
        "orange": "O",
        "yellow": "J",
        "green": "V",
        "blue": "Bl",
        "pink": "Vi",
        "black": "N",
        "white": "Bc",
    },
    "de": {
        "red": "R",
        "orange": "O",
        "yellow": "Ge",
        "green": "Gr",
        "blue": "B",
        "pink": "Rs",
        "black": "S",
        "white": "W",
    },
}


@pytest.mark.parametrize("code", ["it", "fr", "de"])
def test_route_and_card_letters_are_the_languages_initials(code: str) -> None:
    """Each colour's letter is its initial in the language, every letter distinct (two letters
    where two colours share an initial: blu/bianco, gelb/grün, bleu/blanc)."""
    glyphs = common.route_glyphs(code)
    assert {k: v for k, v in glyphs.items() if k != "gray"} == LETTERS[code]
    assert len(set(glyphs.values())) == len(glyphs) == 9
    cards = common.card_glyphs(code)
    assert {k: cards[k] for k in LETTERS[code]} == LETTERS[code]
    assert len(set(cards.values())) == len(cards)


@pytest.mark.parametrize("code", ["it", "fr", "de"])
def test_the_board_and_the_cards_are_drawn_with_the_languages_letters(code: str) -> None:
    """The drawn pictures change with the language: the board's free spaces (yellow is G, J or
    Ge, never Y) and a yellow card's face differ from the English ones, and equal a card drawn
    again in the same language."""
    english, local = static_layers("usa", 800, 0, "en")[0], static_layers("usa", 800, 0, code)[0]
    assert english.size == local.size
    assert ImageChops.difference(english, local).getbbox() is not None
    english_card = card_tile("yellow", 62, 86, "en").convert("RGB")
    local_card = card_tile("yellow", 62, 86, code).convert("RGB")
    assert ImageChops.difference(english_card, local_card).getbbox() is not None
    card_tile.cache_clear()  # drawn again, not taken from the cache
    again = card_tile("yellow", 62, 86, code).convert("RGB")
    assert ImageChops.difference(again, local_card).getbbox() is None


@pytest.mark.parametrize(
    ("code", "expected"),
    [
        ("it", "R=rosso A=arancione G=giallo V=verde Bl=blu Rs=rosa N=nero Bi=bianco"),
        ("fr", "R=rouge O=orange J=jaune V=vert Bl=bleu Vi=violet N=noir Bc=blanc"),
        ("de", "R=rot O=orange Ge=gelb Gr=grün B=blau Rs=rosa S=schwarz W=weiß"),
    ],
)
def test_the_legend_names_each_letters_colour_in_the_language(code: str, expected: str) -> None:
    assert expected in legend_letters(code)
