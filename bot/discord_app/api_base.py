"""Where the bot sends Discord's REST requests: Discord itself, or a shared rate-limit proxy.

Discord's rate limits (and its global limit of 50 requests a second) belong to the bot's token,
not to a process: several processes each counting their own requests would together exceed them.
A rate-limit proxy in front of Discord (one per token, e.g. twilight-http-proxy or nirn-proxy,
see docs/operations.md) counts for all of them; ``CONDUCTOR_DISCORD_API`` points every process at
its base URL (``http://proxy:8080/api/v10``), which then stands in for ``https://discord.com/api/v10``.
"""

from __future__ import annotations

import discord.http

SETTING = "CONDUCTOR_DISCORD_API"


def use_api_base(base: str | None) -> str:
    """Send every REST request to ``base`` (None or empty: Discord's own address); returns the
    address in use. discord.py builds each request's URL from ``Route.BASE``."""
    if base and base.strip():
        discord.http.Route.BASE = base.strip().rstrip("/")
    return discord.http.Route.BASE
