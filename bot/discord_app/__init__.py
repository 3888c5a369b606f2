"""Discord front end: :class:`~bot.discord_app.client.ConductorBot`, its cogs and components."""
