"""First Class's refusals in the reader's language: one sentence per refusal code its rules raise."""

from __future__ import annotations

from lang import M, Msg

SENTENCES: dict[str, Msg] = {
    "invalid_deck": M("The card file cannot be used."),
    "module_not_playable": M("That module is listed but cannot be played yet."),
    "coins_do_not_fit": M("Those coins do not fit on your coin board: spend coins first."),
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
}
