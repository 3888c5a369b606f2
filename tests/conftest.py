"""The application's list of games, registered for every test: the code under test looks games up
in the registries, which the App, the CLI and the Discord client fill by importing the list."""

from bot.games.catalog import BUILTIN_GAMES

assert BUILTIN_GAMES
