"""The web front end: read-only pages of games, events and opted-in players, built from the
spectator view alone, served by the bot's own process (:mod:`bot.web.server`) or written as a
static site (:mod:`bot.web.export`). See docs/web.md."""
