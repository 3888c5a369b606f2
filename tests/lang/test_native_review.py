"""The native review of the Italian, French and German catalogs, kept true (issue 34).

- No translation is its English source, except the names and loanwords a native speaker of the
  language reviewed and writes the same way (:data:`SAME_AS_ENGLISH`): an entry copied over
  untranslated fails here until it is translated or reviewed into the list.
- Each language's glossary terms are used consistently: the variants the review replaced (and
  the glossaries in ``lang/glossary/`` name) are forbidden in every translation
  (:data:`FORBIDDEN`).
- Numbers with decimals are written as the reader's language writes them, through Babel.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po

import lang
from lang.extract import GAME_KIND_CONTEXT, committed_template
from lang.numbers import decimal

ROOT = Path(__file__).resolve().parents[2]
TRANSLATED = ("it", "fr", "de")
PLACEHOLDER = re.compile(r"\{\w*\}")

#: Written the same in every language: names (boards, games, the bot, the tournament ratio), the
#: route letters every language shares (R is rosso, rouge and rot), and the command's own name.
NAMES = {
    "USA",
    "Märklin",
    "Ticket to Ride: Märklin",
    "First Class",
    "European Express",
    "Conductor",
    "ttr",
    "WBC",
    "R",
    "B{n}: {bonus}",  # the player board's bonus station, lettered B on the picture in every language
}

#: Reviewed by a native speaker: loanwords and words the language writes like English.
SAME_AS_ENGLISH: dict[str, set[str]] = {
    "it": {
        "Ticket to Ride",  # the Italian edition keeps the English title
        # loanwords Italian players use as they are
        "bonus {bonus}",
        "bonus {effects}",
        "bonus: {effects}",
        "{card}, bonus {bonus}",
        "Server",
        "database {path}",
        "timer {hours}",
        "round",  # a tournament's round (turno is a player's turn and First Class's round)
        "{n} round",
        "Round {number}",
        "**{event}**, round {round}:",
        "Cor",  # standings column: corretti
        "zero",
        "{n} h",
        "{n} min",
    },
    "fr": {
        # French words spelled as in English
        "Europe",
        "Constantinople",
        "orange",
        "O",  # orange's letter
        "tunnel",
        "(tunnel)",
        "tunnel {route}",
        "{route} ({length} {colour}, tunnel) {id}",
        "ferry",  # the French editions' word
        "locomotive",
        "locomotive +{n}",
        "{n} locomotive",
        "route",
        "{n} route",
        "Routes",
        "trains",
        "Trains",
        "points",
        "Points",
        "1 point",
        "{n} point",
        "{n} points",
        "{player} - {n} point",
        "{n} pt",
        "**{n}** pt",
        "Pts",
        "score {n}",
        "Score",
        "Scores",
        "scores",
        "table",
        "{n} table",
        "Table {number}",
        "Place",
        "page",
        "pages",
        "pause",
        "format",
        "action",
        "options",
        "Option {n}",
        "Modules",
        "module {letter}",
        "phase {phase}",
        "{n} minute",
        "{n} h",
        "{n} min",
        "bonus {bonus}",
        "bonus {effects}",
        "{card}, bonus {bonus}",
        "Cor",  # standings column: corrigés
    },
    "de": {
        # German words spelled as in English (slash command names are lower case in Discord)
        "orange",
        "O",  # orange's letter
        "B",  # blau
        "W",  # weiß
        "tunnel",
        "Tunnel {route}:",
        "hand",
        "name",
        "text",
        "format",
        "Option {n}",
        "Server",
        "START",
    },
}


def _catalog(code: str, domain: str) -> Catalog:
    with lang.catalog_path(code, domain).open("rb") as f:
        return read_po(f, locale=code, domain=domain)


def _forms(value: object) -> list[str]:
    return list(value) if isinstance(value, (tuple, list)) else [str(value or "")]


def _words_only(text: str) -> str:
    """``text`` without its placeholders and markup: what a translator writes."""
    return re.sub(r"[^\w]+", " ", PLACEHOLDER.sub(" ", text)).strip()


def _same_as_english(code: str) -> list[tuple[str, str | None, str]]:
    """(domain, context, English) of every entry one of whose forms is its English form."""
    same = []
    for domain in lang.DOMAINS:
        catalog = _catalog(code, domain)
        for message in committed_template(domain):
            if not message.id:
                continue
            found = catalog.get(message.id, context=message.context)
            if found is None:
                continue
            english = _forms(message.id)
            forms = _forms(found.string)
            # the singular form against the English singular, every other form against the plural
            pairs = [(forms[0], english[0])] + [(f, english[-1]) for f in forms[1:]]
            if any(f == e and re.search(r"[^\W\d_]", _words_only(e)) for f, e in pairs):
                same.append((domain, message.context, english[0]))
    return same


@pytest.mark.parametrize("code", TRANSLATED)
def test_no_translation_is_its_english_source_outside_the_reviewed_names_and_loanwords(code: str) -> None:
    """An entry whose translation is the English text (a form compared with the same English
    form) must be a name or a reviewed loanword of that language; format-only entries (no word
    outside their placeholders: "{requirement} -> {bonus}") are not counted."""
    allowed = NAMES | SAME_AS_ENGLISH[code]
    unreviewed = sorted({english for _d, _c, english in _same_as_english(code) if english not in allowed})
    assert not unreviewed, f"{code}: {len(unreviewed)} entries left in English: {unreviewed}"


@pytest.mark.parametrize("code", TRANSLATED)
def test_the_reviewed_list_names_only_entries_still_written_as_in_english(code: str) -> None:
    """The reviewed list stays the review: an entry since translated differently leaves it."""
    same = {english for _d, _c, english in _same_as_english(code)}
    stale = sorted(SAME_AS_ENGLISH[code] - same)
    assert not stale, f"{code}: no longer written as in English, take them off the list: {stale}"


#: The glossary's terms, per language: each variant a translation may not use (a regular
#: expression over the translation without its placeholders) and the term the glossary chose.
FORBIDDEN: dict[str, list[tuple[str, str]]] = {
    "it": [
        (r"(?i)\bpila\b", "mazzo (a pile of cards)"),
        (r"(?i)\bticket\b(?! to Ride)", "carta Destinazione / destinazione"),
        # the second review (session 3): one form of address, Discord's own words, the board's
        (
            r"(?i)\b(continuate|verificate|indicatel[oa]|migrate|scegliete|aggiungete|premete|scrivete)\b",
            "tu (one form of address: continua, verifica, indicalo…)",
        ),
        (r"(?i)\bgestire (il )?server\b", "Gestisci server (the permission as Discord's Italian names it)"),
        (r"^Prossimo\b", "Ora: (what comes next)"),
        (r"(?i)\b(sullo|di uno) spazio\b", "casella (a space of the conductor's track)"),
        (r"(?i)\bcapotreno partono\b|\bi capotreno\b", "capotreni (the plural)"),
        (r"(?i)\bin (il|lo|i|gli|la|le)\b", "the articulated preposition: nel, nei, nella…"),
        (r"(?i)\bbigliett[oi]\b(?! pagat)", "destinazione (a ticket; biglietto is only a passenger's fare)"),
        (r"(?i)\bviene seduto\b|\bverrai seduto\b", "assegnato a un tavolo"),
    ],
    "fr": [
        (r"(?i)\b(tu|ton|ta|tes|toi)\b", "vous, votre, vos (one form of address)"),
        (r"(?i)\b(tape|choisis|ajoute donc|prends)\b", "the vous form of the verb"),
        (r"(?i)\bpile\b", "pioche (a pile of cards)"),
        (r"(?i)\bcarte Train\b", "carte Wagon"),
        (
            r"(?i)\b(enregistre|ajoute|choisis|prends|tape|joue|clique|rouvre|réessaie)-(le|la|les|moi)\b",
            "the vous form of the imperative (enregistrez-le)",
        ),
        (r"^À jouer\b", "Au tour de"),
        (r"\(défaut\b|(?<!par )\bdéfaut documenté", "par défaut (défaut alone is a defect)"),
        (r"\bClasst\b", "Cote (a player's rating; classement is the leaderboard)"),
    ],
    "de": [
        (r"\b[a-zäöü]\w*en Sie\b|\bIhre?[mnrs]?\b", "du (one form of address)"),
        (r"\bZiele\b", "Zielkarten"),
        (r"\bTiebreak", "Gleichstandsregel"),
        (r"\bRoute\b", "Strecke (Ticket to Ride's and First Class's route)"),
        (r"\bTicket\b", "Zielkarte"),
        (r"\bFahrkarte", "Zielkarte (Fahrkarten are not the destination tickets)"),
        (r"\bdanach eine\b", "verb second: danach spielt eine KI"),
        (r"\bkeine \w+ für niemanden\b", "no double negation: niemand erhält"),
        (r"\bOrganisator", "Turnierleitung (who runs an event)"),
        (r"\bGrundkarte", "Basiskarte (First Class's base cards)"),
        (r"\bnimm das neueste\b", "nutze das neueste Spielbrett"),
        (r"\bgeht weiter\b\.?$", "der Zug verfällt (a turn that passes)"),
        (r"\bin dem\b", "im (the contracted preposition: im oberen Zug)"),
        (r"\bwahlweise\b", "entweder … oder … (a card's choice)"),
    ],
}

#: Where the English text itself is written into a translation (the typed text forms of moves,
#: a card file's column names), a variant is no variant.
QUOTED_ENGLISH = re.compile(r"\|.*\||`[^`]*`|--\w[\w-]*")


@pytest.mark.parametrize("code", TRANSLATED)
def test_every_glossary_term_is_used_consistently(code: str) -> None:
    """No translation uses a variant the glossary replaced (lang/glossary/<code>.md)."""
    wrong = []
    for domain in lang.DOMAINS:
        for message in _catalog(code, domain):
            if not message.id:
                continue
            for form in _forms(message.string):
                text = QUOTED_ENGLISH.sub(" ", PLACEHOLDER.sub(" ", form))
                for pattern, term in FORBIDDEN[code]:
                    if re.search(pattern, text):
                        wrong.append((term, form))
    assert not wrong, f"{code}: {len(wrong)} translations use a replaced variant, e.g. {wrong[:5]}"


#: A German preposition that takes the dative: a card phrase ("3 rote Karten", nominative and
#: accusative alike, as every card is feminine) may not follow it ("mit 3 rote Karten").
DATIVE_BEFORE_CARDS = re.compile(r"\b(mit|von|aus|bei|nach|seit|zu|zum|zur)\s+\{cards\}")


def test_no_german_card_phrase_follows_a_dative_preposition() -> None:
    """The claim and station sentences name the cards paid as the object of a verb ("und dafür 3
    rote Karten abgegeben"), never after "mit", where the phrase would need the dative ("mit 3
    roten Karten") that the one card-count message per colour cannot give."""
    wrong = []
    for domain in lang.DOMAINS:
        for message in _catalog("de", domain):
            for form in _forms(message.string) if message.id else []:
                if DATIVE_BEFORE_CARDS.search(form):
                    wrong.append(form)
    assert not wrong, wrong


def test_a_german_claim_names_the_cards_in_the_accusative() -> None:
    """A claim read in German: the count, the colour and the noun agree, in the case the verb takes,
    and the cards are one list of the language ("… und 1 Lokomotive", "… e 1 locomotiva")."""
    from bot.games.ttr.words import event_words

    event = {
        "type": "claim",
        "board": "europe",
        "track": "EU001",
        "points": 4,
        "cards": {"red": 3, "locomotive": 1},
    }
    with lang.using("de"):
        said = event_words(event)
    assert (
        said
        == "hat Amsterdam–Bruxelles für 4 Punkte gebaut und dafür 3 rote Karten und 1 Lokomotive abgegeben."
    ), said
    with lang.using("it"):
        assert (
            event_words(event)
            == "ha costruito Amsterdam–Bruxelles per 4 punti con 3 carte rosse e 1 locomotiva."
        )


@pytest.mark.parametrize("code", TRANSLATED)
def test_no_translation_numbers_a_game_with_the_english_number_sign(code: str) -> None:
    """A game's or an event's number reads "partita n. 12", "partie n° 12", "Partie Nr. 12"."""
    wrong = [
        form
        for domain in lang.DOMAINS
        for message in _catalog(code, domain)
        if message.id
        for form in _forms(message.string)
        if "#{" in form
    ]
    assert not wrong, wrong


def test_the_turn_counter_is_one_word_in_german() -> None:
    """German calls a player's turn Zug wherever the turn counter is shown (the board, the
    terminal, the pictures); Runde is First Class's and the tournaments' round."""
    for domain in lang.DOMAINS:
        catalog = _catalog("de", domain)
        for message in committed_template(domain):
            if isinstance(message.id, str) and "{turn}" in message.id:
                found = catalog.get(message.id, context=message.context)
                assert found is not None and "Zug {turn}" in str(found.string), (message.id, found)


@pytest.mark.parametrize(("code", "word"), [("it", "gioco"), ("fr", "jeu"), ("de", "spiel")])
def test_the_option_that_picks_the_game_is_a_game_not_a_match(code: str, word: str) -> None:
    """``/ttr new game:`` and the tournaments' ``game`` choose which game is played: gioco, jeu,
    Spiel; the other ``game`` options take a game's number (partita, partie, Partie)."""
    tr = lang.translator(code)
    assert tr.pgettext(GAME_KIND_CONTEXT, "game") == word
    assert tr.pgettext("slash command name", "game") != word


@pytest.mark.parametrize(
    ("code", "expected"),
    [
        ("en", "83.0 · 27.6 · 1,234.5"),
        ("it", "83,0 · 27,6 · 1.234,5"),
        ("fr", "83,0 · 27,6 · 1\u202f234,5"),
        ("de", "83,0 · 27,6 · 1.234,5"),
    ],
)
def test_decimals_are_written_as_the_readers_language_writes_them(code: str, expected: str) -> None:
    """Averages, ratings and ratios go through Babel: a decimal comma in Italian, French and
    German ("punteggio medio 83,0"), the language's digit groups; a float given to any sentence
    as a fact is written the same way."""
    assert " · ".join(decimal(v, 1, code) for v in (83.0, 27.6, 1234.5)) == expected
    said = lang.M("average score {score}", score=1234.5).text(code)
    assert expected.split(" · ")[2] in said, said


FLOAT_FORMAT = re.compile(r"""\{[^{}:'"]+:[^{}]*[.][0-9]*[fg%]\}|\{[^{}:'"]+:g\}|:,\}""")
"""A number formatted in Python's own way inside an f-string ({x:.1f}, {x:g}, {x:,}): always
English, whatever the reader's language."""


def test_no_number_shown_to_a_reader_is_formatted_by_python() -> None:
    """The bot's, the terminal's and the pictures' code writes no number with a Python format
    spec: decimals go through ``lang.numbers`` (or are given to the sentence as floats). Logs,
    progress bars on standard error and the CSV for spreadsheets keep Python's format."""
    allowed = {"bot/tournament/sheets.py"}
    found = []
    for folder in ("bot", "lang", "render"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            rel = path.relative_to(ROOT).as_posix()
            if rel in allowed:
                continue
            for number, line in enumerate(path.read_text().splitlines(), 1):
                if "log." in line or "sys.stderr.write" in line:
                    continue
                if FLOAT_FORMAT.search(line):
                    found.append(f"{rel}:{number}: {line.strip()}")
    assert not found, found


def test_no_catalog_or_template_keeps_a_merge_conflict_marker() -> None:
    """Babel's reader skips a line it does not know, so a catalog merged with a conflict left in
    it still loads and every other test passes: the markers are looked for as text."""
    marked = [
        f"{path.relative_to(ROOT)}:{number}"
        for path in sorted((ROOT / "lang" / "locales").rglob("*.po*"))
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if re.match(r"(<{7}|={7}|>{7})( |$)", line)
    ]
    assert not marked, marked


def test_french_sets_a_space_before_a_semicolon_in_lists_as_french_typography_does() -> None:
    """French typography puts a space before ";" (as before ":"); Italian, German and English
    do not. Lists the code joins (First Class's open contracts, offered cards, provisional
    values) go through :func:`lang.lists.semicolon_list`, never a hard-coded "; "."""
    from lang import using
    from lang.lists import semicolon_list

    parts = ["Paris", "Wien", "Roma"]
    with using("fr"):
        assert semicolon_list(parts) == "Paris ; Wien ; Roma"
    for code in ("en", "it", "de"):
        with using(code):
            assert semicolon_list(parts) == "Paris; Wien; Roma"
    hard_coded = [
        str(path)
        for folder in ("bot/games/firstclass", "lang")
        for path in Path(folder).rglob("*.py")
        if '"; ".join(' in path.read_text(encoding="utf-8")
    ]
    assert hard_coded == []
