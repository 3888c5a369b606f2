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

from lang import SOURCE_LANGUAGE, M, Msg, current, normalise

SENTENCES: dict[str, Msg] = {
    # ---- reading and setting up
    "malformed_action": M("That move cannot be read; choose it from the buttons or the suggestions."),
    "bad_config": M("Those game options do not fit together; see /ttr rules."),
    "bad_setting": M("That setting cannot be used; see the settings in /ttr rules."),
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
    "double_route_own": M("You already hold the other track of {route}; nobody may claim both tracks of a "
                          "double route.", route=""),
    "double_route_closed": M("With {players} players only one track of a double route may be claimed, and "
                             "{route} is taken.", route="", players=0),
    "not_enough_trains": M("{route} needs {length} trains and you have {trains} left.", route="", length=0,
                           trains=0),
    "wrong_card_count": M("That is not the right number of cards."),
    "wrong_colour": M("Those cards are not the colour this needs."),
    "mixed_colours": M("Pay with cards of one colour (plus locomotives)."),
    "wrong_cards": M("Those cards cannot pay for this."),
    "locomotive_not_allowed": M("On this board locomotives may only be used on tunnels, and {route} is not a "
                                "tunnel.", route=""),
    "plus4_too_short": M("\"+4\" locomotives pay only for routes of 4 or more spaces."),
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
    "wrong_ticket_count": M("Keep {low} to {high} of the {offered} tickets, not {kept}.", low=0, high=0, offered=0,
                            kept=0),
    # ---- Ticket to Ride: stations and passengers
    "no_stations": M("There are no stations on this board."),
    "no_stations_left": M("You have built all your stations."),
    "unknown_city": M("There is no city {name} on this board.", name=""),
    "station_on_country": M("{city} is a country; stations go in cities.", city=""),
    "station_taken": M("{city} already has a station; each city holds only one.", city=""),
    "no_passengers": M("There are no passengers on this board."),
    "no_passengers_left": M("You have no passengers left to place."),
    "passenger_not_on_route": M("Place the passenger in one of the two cities of the route you just claimed."),
    "passenger_country": M("Passengers may not go to a country outside Germany."),
    "passenger_city_taken": M("A passenger already stands in {city}.", city=""),
    "no_passenger_there": M("You have no passenger in {city}.", city=""),
    "empty_move": M("Name at least one route for the passenger to travel along."),
    "route_reused": M("The passenger may use each route only once per move."),
    "unclaimed_route": M("Passengers travel only on claimed routes."),
    "not_connected": M("The routes must form one connected journey."),
    "not_enough_passenger_cards": M("You do not have enough passenger cards for that journey."),
    "passenger_stuck": M("The passenger in {city} cannot travel now: no claimed route from there is open to it.",
                         city=""),
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
}


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
    """``refusal`` for an :class:`~rules.errors.IllegalAction`."""
    return refusal(str(exc.code), str(exc.message), getattr(exc, "params", None))
