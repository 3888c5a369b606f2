"""Conductor's Discord bot, game service, storage, scheduler and command-line interface."""
