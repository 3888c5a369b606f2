"""The rules' refusals in the reader's language: one sentence per refusal code.

The engines raise :class:`rules.errors.IllegalAction` with a code, the facts it names as
``params`` and an English sentence (which stays the English text and the log's). A code that is
raised in several places with different facts has a sentence that names only the facts every
raise site gives (``tests/lang`` checks it against the source).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from lang import SOURCE_LANGUAGE, Joined, M, Msg, current, normalise

SENTENCES: dict[str, Msg] = {
    # ---- reading and setting up
    "malformed_action": M("That move cannot be read; choose it from the buttons or the suggestions."),
    "bad_config": M("Those game options do not fit together; see /ttr rules."),
    "bad_setting": M("That setting cannot be used; see the settings in /ttr rules."),
    "setting_out_of_range": M(
        "Setting {setting} takes a whole number from {minimum} to {maximum}.",
        setting="",
        minimum=0,
        maximum=0,
    ),
    "bad_player_count": M("This game cannot be played with that many players."),
    "bad_state": M("This saved game is damaged and cannot be read."),
    "wrong_game": M("This saved game belongs to another game."),
    "invalid_deck": M("The card file cannot be used."),
    "module_not_playable": M("That module is listed but cannot be played yet."),
    "unknown_ai": M("There is no AI of that kind."),
    "unknown_game": M("There is no such game."),
    "coins_do_not_fit": M("Those coins do not fit on your coin board: spend coins first."),
    # ---- whose turn
    "not_your_turn": M("It is not your turn for that."),
    "not_a_seat": M("That seat is not in this game."),
    "bad_seat": M("That seat is not in this game."),
    "game_over": M("The game is over; no more moves."),
    "must_act": M("You must make a move: passing is allowed only when nothing else is."),
    "turn_underway": M("This turn is already under way; it cannot be skipped now."),
    "wrong_phase": M("That is not possible at this point of the game."),
    # ---- Ticket to Ride: cards
    "finish_drawing": M("You drew one card this turn: draw your second card (not a face-up locomotive)."),
    "locomotive_second": M("A face-up locomotive cannot be your second card."),
    "deck_empty": M("The deck and the discard pile are empty: take a face-up card or do something else."),
    "bad_slot": M("Face-up cards are numbered 0 to 4."),
    "empty_slot": M("Face-up slot {slot} is empty.", slot=0),
    # ---- Ticket to Ride: routes
    "ambiguous_route": M("{route} is a double route: say which track, {tracks}.", route="", tracks=""),
    "unknown_route": M("There is no route {route} on this board.", route=""),
    "route_taken": M("{route} is already claimed.", route=""),
    "double_route_own": M(
        "You already hold the other track of {route}; nobody may claim both tracks of a double route.",
        route="",
    ),
    "double_route_closed": M(
        "With {players} players only one track of a double route may be claimed, and {route} is taken.",
        route="",
        players=0,
    ),
    "not_enough_trains": M(
        "{route} needs {length} trains and you have {trains} left.", route="", length=0, trains=0
    ),
    "wrong_card_count": M("That is not the right number of cards."),
    "wrong_colour": M("Those cards are not the colour this needs."),
    "mixed_colours": M("Pay with cards of one colour (plus locomotives)."),
    "wrong_cards": M("Those cards cannot pay for this."),
    "locomotive_not_allowed": M(
        "On this board locomotives may only be used on tunnels, and {route} is not a tunnel.", route=""
    ),
    "plus4_too_short": M('"+4" locomotives pay only for routes of 4 or more spaces.'),
    "ferry_needs_locomotives": M("{route} is a ferry: pay at least {n} locomotive(s).", route="", n=0),
    "not_enough_cards": M("You do not have those cards."),
    "tunnel_pending": M("Pay the tunnel's extra cards or withdraw first."),
    "no_tunnel": M("No tunnel is waiting for payment."),
    # ---- Ticket to Ride: tickets
    "choose_tickets": M("Choose which of your drawn tickets to keep first."),
    "announce_tickets": M("Announce the mix of short and long tickets you draw."),
    "no_offer": M("You have no drawn tickets to keep."),
    "no_tickets": M("There are no tickets left to draw."),
    "unknown_ticket": M("Ticket {ticket} is not among the ones you drew.", ticket=""),
    "duplicate_ticket": M("Ticket {ticket} is listed twice.", ticket=""),
    "wrong_ticket_count": M(
        "Keep {low} to {high} of the {offered} tickets, not {kept}.", low=0, high=0, offered=0, kept=0
    ),
    # ---- Ticket to Ride: stations and passengers
    "no_stations": M("There are no stations on this board."),
    "no_stations_left": M("You have built all your stations."),
    "unknown_city": M("There is no city {name} on this board.", name=""),
    "station_on_country": M("{city} is a country; stations go in cities.", city=""),
    "station_taken": M("{city} already has a station; each city holds only one.", city=""),
    "no_passengers": M("There are no passengers on this board."),
    "no_passengers_left": M("You have no passengers left to place."),
    "passenger_not_on_route": M(
        "Place the passenger in one of the two cities of the route you just claimed."
    ),
    "passenger_country": M("Passengers may not go to a country outside Germany."),
    "passenger_city_taken": M("A passenger already stands in {city}.", city=""),
    "no_passenger_there": M("You have no passenger in {city}.", city=""),
    "empty_move": M("Name at least one route for the passenger to travel along."),
    "route_reused": M("The passenger may use each route only once per move."),
    "unclaimed_route": M("Passengers travel only on claimed routes."),
    "not_connected": M("The routes must form one connected journey."),
    "not_enough_passenger_cards": M("You do not have enough passenger cards for that journey."),
    "passenger_stuck": M(
        "The passenger in {city} cannot travel now: no claimed route from there is open to it.", city=""
    ),
    "journey_not_begun": M("Move the passenger along at least one route before its journey ends."),
    "journey_underway": M("Your passenger is travelling: choose its next route or end its journey."),
    "no_journey": M("No passenger is travelling: choose a passenger to move first."),
    # ---- First Class
    "already_taken": M("You already took an Action card this turn."),
    "must_take": M("Choose 1 Action card or the Start Player tile before ending your turn."),
    "card_unavailable": M("That Action card is not available any more."),
    "tile_taken": M("The Start Player tile was already taken this round."),
    "pending": M("Finish or skip the waiting symbols before ending the turn."),
    "nothing_pending": M("No symbol is waiting for that."),
    "mail_forced": M("A mail car must be added as the 6th car."),
    "wrong_choice": M("That choice does not fit the waiting symbol."),
    "no_coin": M("You do not have the coin that needs."),
    "train_complete": M("That train cannot be lengthened after its Locomotive tile."),
    "route_end": M("Your locomotive is at the end of your route."),
    "train_end": M("Your conductor already stands on the last car."),
    "bad_upgrade": M("That car cannot be upgraded."),
    "not_on_offer": M("That Game End card is not face up."),
    "not_in_hand": M("Keep one of the Game End cards you were passed."),
    "no_contract": M("That is not one of your open contracts."),
    "contract_not_met": M("You do not meet that contract yet."),
    "no_bonus_station": M("That station of your route is not a bonus station."),
    "not_reached": M("Your locomotive has not reached that station yet."),
    "already_claimed": M("That station already gave its bonus in this scoring phase."),
    "bonuses_waiting": M("Receive your bonus stations first."),
    # ---- First Class: a group's card files (each problem of rules.firstclass.cards.Problem)
    "card_file_missing": M("There is no card file {file}.", file=""),
    "card_file_unreadable": M("The card file {file} cannot be read ({reason}).", file="", reason=""),
    "card_file_not_text": M("{file} is not a text file in UTF-8: save it as CSV (UTF-8).", file=""),
    "card_file_not_csv": M("{file} cannot be read as a CSV file.", file=""),
    "card_file_format": M("A card file is not in the documented format."),
    "card_file_columns": M(
        "{file} lacks the column(s) {columns}; an Action card file has the columns {expected}.",
        file="",
        columns="",
        expected="",
    ),
    "card_file_number": M(
        '{file}, line {line}, column {column}: "{value}" is not a whole number.',
        file="",
        line=0,
        column="",
        value="",
    ),
    "card_file_station_kind": M(
        '{file}, line {line}: a station\'s kind is start, points or bonus, not "{value}".',
        file="",
        line=0,
        value="",
    ),
    "card_file_header": M(
        "{file}: its first line ({header}) is the header of none of the card templates; the "
        "columns each needs: {wanted}.",
        file="",
        header="",
        wanted="",
    ),
    "card_no_id": M("A card has no id: every card needs one."),
    "card_id_twice": M("Card {card}: the id is used twice.", card=""),
    "card_bad_pile": M(
        "Card {card}: the pile is 1 (green), 2 (blue) or 3 (red), not {value}.", card="", value=""
    ),
    "card_bad_kind": M('Card {card}: there is no card kind "{value}".', card="", value=""),
    "card_bad_game_end_type": M(
        'Card {card}: game_end_type is railcar, locomotive, conductor or empty, not "{value}".',
        card="",
        value="",
    ),
    "card_game_end_type_not_base": M(
        "Card {card}: only base (X) cards count for Game End cards, so only they may have a game_end_type.",
        card="",
    ),
    "card_route_stations_count": M(
        "Card {card}: a route card has 1 to 4 stations; this one has {n}.", card="", n=0
    ),
    "card_route_effects": M(
        "Card {card}: a route card's symbols go in route_stations, not in effects.", card=""
    ),
    "card_stations_not_route": M("Card {card}: only route cards have route_stations.", card=""),
    "card_contract_bonus": M("Card {card}: a contract needs a bonus.", card=""),
    "card_requirement_not_contract": M("Card {card}: only contracts have a requirement.", card=""),
    "card_needs_effects": M("Card {card}: a {kind} card needs effects.", card="", kind=""),
    "card_symbols": M(
        'Card {card}: the {column} text "{value}" is not in the card symbol language.',
        card="",
        column="",
        value="",
    ),
    "pile_count": M(
        "Pile {pile} of set {set} has {n} cards; the rules need {want}.", pile=0, set="", n=0, want=0
    ),
    "pile_shortfall": M(
        "Pile {pile} has {n} cards; two rounds of 18 need {need}, so {missing} are missing: the rules "
        "play the base cards with 2 modules, so add a second module's cards or choose our module O "
        "as well (modules={modules}).",
        pile=0,
        n=0,
        need=0,
        missing=0,
        modules="",
    ),
    "game_end_total": M("There are {n} Game End cards; the game has {want}.", n=0, want=21),
    "game_end_id_twice": M("Game End card {card}: the id is used twice.", card=""),
    "game_end_bad_type": M(
        'Game End card {card}: the type is railcar, locomotive or conductor, not "{value}".',
        card="",
        value="",
    ),
    "game_end_points": M("Game End card {card}: the points must be at least 1.", card=""),
    "game_end_symbols": M(
        'Game End card {card}: the one_time_bonus "{value}" is not in the card symbol language.',
        card="",
        value="",
    ),
    "game_end_types_missing": M(
        "Game End cards come in 3 types (railcar, locomotive, conductor); these are only: {types}.", types=""
    ),
    "tiles_count": M("There are {n} Locomotive tiles; the game has 8.", n=0),
    "tiles_range": M("Locomotive tiles run from 5 to 15; these run from {low} to {high}.", low=0, high=0),
    "tiles_order": M("Locomotive tiles go in ascending order (5 on top, 15 at the bottom)."),
    "mail_count": M("There are {n} mail cars; each player has 4.", n=0),
    "mail_no_bonus": M("Mail car {slot}: it needs a bonus.", slot=0),
    "mail_symbols": M(
        'Mail car {slot}: the bonus "{value}" is not in the card symbol language.', slot=0, value=""
    ),
    "route_symbols": M('The player board\'s stations "{value}" are not in the station language.', value=""),
    "route_station_count": M(
        "The player board has 3 pre-printed stations after Paris; this one has {n}.", n=0
    ),
    # The terminal's --set/--cards (bot/commands/rules.py)
    "setting_two_files": M("Two files for {setting}: {first} and {second}.", setting="", first="", second=""),
    "no_card_files": M("{game} loads no card files.", game=""),
    "card_file_which": M("Say which file {file} is with --set KEY=PATH ({keys}).", file="", keys=""),
}
# Several problems of a group's card files at once (rules.firstclass.cards.InvalidCards: ``parts``).
INVALID_CARDS = M("The card files cannot be used. {problems}", problems="")


@dataclass(frozen=True)
class Refusal(Msg):
    """A refusal: English readers get the engine's own sentence (with every detail), others the
    catalog's sentence for its code."""

    english: str = ""

    def text(self, code: object | None = None) -> str:
        language = current() if code is None else normalise(code)
        if language == SOURCE_LANGUAGE and self.english:
            return self.english
        return super().text(language)


def refusal(code: str, english: str, params: Mapping[str, Any] | None = None) -> Msg | str:
    """The refusal ``code`` as a message for any reader; an unknown code keeps its English."""
    template = SENTENCES.get(code)
    if template is None:
        return english
    given = {k: v for k, v in (params or {}).items() if k in template.params}
    return Refusal(template.id, {**template.params, **given}, english=english)


def refusal_of(exc: Any) -> Msg | str:
    """``refusal`` for an :class:`~rules.errors.IllegalAction`; one that carries several coded
    problems (``parts``: a card file's, each with its file, line, column and value) reads as all of
    them, each worded for the reader."""
    parts = getattr(exc, "parts", None)
    if parts:
        problems = Joined(
            " ", parts=tuple(refusal(str(p.code), str(p), getattr(p, "params", None)) for p in parts)
        )
        return Refusal(INVALID_CARDS.id, {"problems": problems}, english=str(exc.message))
    return refusal(str(exc.code), str(exc.message), getattr(exc, "params", None))
