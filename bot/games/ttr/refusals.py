"""Ticket to Ride's refusals in the reader's language: one sentence per refusal code its rules raise."""

from __future__ import annotations

from lang import M, Msg

SENTENCES: dict[str, Msg] = {
    # ---- Ticket to Ride: cards
    "finish_drawing": M("You drew one card this turn: draw your second card (not a face-up locomotive)."),
    "locomotive_second": M("A face-up locomotive cannot be your second card."),
    "deck_empty": M("The deck and the discard pile are empty: take a face-up card or do something else."),
    "bad_slot": M("Face-up cards are numbered 0 to 4."),
    "empty_slot": M("Face-up slot {slot} is empty.", slot=0),
    # ---- Ticket to Ride: planned turns
    "malformed_step": M(
        "That step cannot be read: steps are claim ROUTE CARDS, locomotive, colour COLOUR and deck."
    ),
    "plan_payment": M("{route} needs {length} cards; pay exactly that many.", route="", length=0),
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
}
