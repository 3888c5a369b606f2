"""One list of games: each line of ``bot/games/catalog.py`` is a game's whole plugin, and
registering it puts its rules, front end and Discord UI in their registries at once (the promise
"a new game is one package plus its line in the list of games")."""

from __future__ import annotations

import dataclasses

import pytest

from bot.discord_app.game_ui import GAME_UIS, game_ui_of
from bot.games.api import FRONT_ENDS, FrontEnd, find_front_end
from bot.games.catalog import BUILTIN_GAMES
from bot.games.plugin import GamePlugin, register_game, unregister_game
from rules.registry import GAMES, find_game


def test_every_game_of_the_list_is_registered_whole() -> None:
    """Each listed game's spec, front end and Discord UI are the ones the registries answer with."""
    assert [p.name for p in BUILTIN_GAMES] == ["ttr", "first-class"]
    for plugin in BUILTIN_GAMES:
        assert find_game(plugin.name) is plugin.spec
        assert find_front_end(plugin.name) is plugin.front_end
        assert game_ui_of(plugin.name) is plugin.discord_ui


def test_no_front_end_or_discord_ui_is_registered_outside_the_list() -> None:
    """The registries hold nothing the list does not name (no second list feeds them)."""
    listed = {p.name for p in BUILTIN_GAMES}
    assert set(FRONT_ENDS) == listed
    assert set(GAME_UIS) <= listed


def test_a_plugin_is_registered_and_removed_whole() -> None:
    """register_game adds the three parts (a spec the rules library does not know included);
    unregister_game removes them all."""
    ttr = BUILTIN_GAMES[0]
    spec = dataclasses.replace(ttr.spec, name="ttr-copy", aliases=())
    register_game(GamePlugin(spec, FrontEnd("ttr-copy")))
    try:
        assert find_game("ttr-copy") is spec and "ttr-copy" in FRONT_ENDS
        assert game_ui_of("ttr-copy") is None  # no Discord UI: the generic controls
    finally:
        unregister_game("ttr-copy")
    assert "ttr-copy" not in GAMES and "ttr-copy" not in FRONT_ENDS


def test_a_plugin_whose_parts_name_another_game_is_refused() -> None:
    """A front end registered under the wrong game would word one game with another's words."""
    ttr = BUILTIN_GAMES[0]
    spec = dataclasses.replace(ttr.spec, name="ttr-copy", aliases=())
    with pytest.raises(ValueError, match="name other games"):
        register_game(GamePlugin(spec, FrontEnd("ttr")))
    assert "ttr-copy" not in GAMES
