"""A game, whole: the one object a game's package exposes and the list of games names.

A :class:`GamePlugin` bundles a game's rules (its :class:`rules.registry.GameSpec`), its front-end
parts (:class:`bot.games.api.FrontEnd`: words, pictures, terminal menu, replay) and its Discord UI
(:class:`bot.discord_app.game_ui.DiscordGameUI`, with its own slash commands), each optional but
the spec. :func:`register_game` puts all three in their registries at once, so a game is offered
in the terminal, on Discord and in tournaments as soon as it is registered; the built-in games are
registered this way by :mod:`bot.games.catalog`, and a test's toy game the same way.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.discord_app.game_ui import GAME_UIS, DiscordGameUI, register_game_ui, unregister_game_ui
from bot.games.api import FRONT_ENDS, FrontEnd, register_front_end, unregister_front_end
from rules.registry import GAMES, GameSpec, register, unregister


@dataclass(frozen=True)
class GamePlugin:
    """One game's rules, front-end parts and Discord UI (None: the generic ones)."""

    spec: GameSpec
    front_end: FrontEnd | None = None
    discord_ui: DiscordGameUI | None = None

    @property
    def name(self) -> str:
        return self.spec.name


def register_game(plugin: GamePlugin) -> GamePlugin:
    """Register a game's rules, front end and Discord UI (its parts must all name the game)."""
    parts = [p.game for p in (plugin.front_end, plugin.discord_ui) if p is not None]
    if any(name != plugin.name for name in parts):
        raise ValueError(f"the parts of {plugin.name!r} name other games: {parts}")
    # The rules library (rules.games) registers its own built-in specs for use without the bot.
    if GAMES.get(plugin.name) is not plugin.spec:
        register(plugin.spec)
    if plugin.front_end is not None:
        register_front_end(plugin.front_end)
    if plugin.discord_ui is not None:
        register_game_ui(plugin.discord_ui)
    return plugin


def unregister_game(name: str) -> None:
    """Remove a game registered with :func:`register_game` (a test's toy game, once it is over)."""
    unregister(name)
    if name in FRONT_ENDS:
        unregister_front_end(name)
    if name in GAME_UIS:
        unregister_game_ui(name)
