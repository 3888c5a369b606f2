"""Every word the page templates show, in the current language: the templates hold no text of
their own, so the catalogs (``python -m lang.extract``) see them all here."""

from __future__ import annotations

from lang import _


def page_words() -> dict[str, str]:
    return {
        "site": _("Conductor"),
        "game": _("Game #{number}"),
        "scores": _("Scores"),
        "final": _("Final scores"),
        "to_act": _("to play"),
        "log": _("Moves"),
        "no_moves": _("No move yet."),
        "board_alt": _("The board after move {move}"),
        "move_of": _("Move {move} of {last}"),
        "first": _("First"),
        "previous": _("Previous"),
        "next": _("Next"),
        "latest": _("Latest"),
        "show": _("Show"),
        "move": _("Move"),
        "lobby": _("This game has not started yet."),
        "players": _("Players"),
        "event": _("Event"),
        "standings": _("Standings"),
        "name": _("Player"),
        "games": _("Games"),
        "points": _("Points"),
        "wins": _("Wins"),
        "total": _("Score"),
        "dropped": _("dropped"),
        "round": _("Round {number}"),
        "table": _("Table {number}"),
        "download_csv": _("Standings (CSV)"),
        "download_export": _("Whole record (JSON)"),
        "recent": _("Recent games"),
        "ratings": _("Ratings"),
        "rating": _("Rating"),
        "rated_games": _("Rated games"),
        "history": _("History"),
        "rank": _("Place"),
        "no_games": _("No finished game yet."),
        "language": _("Language"),
        "unlisted": _("This page is unlisted: only people with its address can see it."),
        "not_found": _("There is no page here."),
        "home": _(
            "Conductor: asynchronous train board games on Discord. Pages of games and events are reached from their links."
        ),
    }
