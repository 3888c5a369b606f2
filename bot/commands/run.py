"""``conductor run``: start the Discord bot.

Settings come from the environment or a ``.env`` file in the working directory: ``DISCORD_TOKEN``
(required), ``CONDUCTOR_DB``, ``DEV_GUILD_ID``, ``LOG_LEVEL``, ``CONDUCTOR_WORKERS``,
``CONDUCTOR_TAKEOVER_AI``, ``CONDUCTOR_PROCESS``, and the web pages' ``CONDUCTOR_WEB`` (or ``--web``), ``CONDUCTOR_WEB_HOST``,
``CONDUCTOR_WEB_PORT``, ``CONDUCTOR_WEB_URL``. See ``.env.example``.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import os
import signal
import sys
from pathlib import Path

from lang import N_, SOURCE_LANGUAGE, _, using

NAME = "run"
HELP = N_("Run the Discord bot (needs DISCORD_TOKEN in the environment or .env).")

NO_TOKEN = N_(
    "no DISCORD_TOKEN. Create an application at https://discord.com/developers/applications, "
    "add a bot under 'Bot', copy its token, and put DISCORD_TOKEN=... in .env (see .env.example) or the environment."
)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--sync", action="store_true", help=_("register the slash commands with Discord now"))
    parser.add_argument("--env-file", default=".env", help=_("file with KEY=value settings (default: .env)"))
    parser.add_argument("--db", default=None, help=_("SQLite file (overrides CONDUCTOR_DB)"))
    parser.add_argument(
        "--web",
        action="store_true",
        help=_("also serve the web pages of games and events (as CONDUCTOR_WEB=on does)"),
    )
    parser.add_argument(
        "--shards",
        default=None,
        help=_(
            "the Discord shards this process runs, like 0-3 (with --shard-count; several processes on"
            " one PostgreSQL database each run their own range)"
        ),
    )
    parser.add_argument(
        "--shard-count",
        type=int,
        default=None,
        help=_("how many shards the bot has in all (every process of the bot gives the same number)"),
    )
    parser.add_argument(
        "--workers",
        type=int,
        default=None,
        help=_(
            "processes that draw boards and think for AI seats (default: CONDUCTOR_WORKERS, "
            "else one per core; 0: threads in the bot's own process)"
        ),
    )


def load_env(path: str | os.PathLike[str]) -> dict[str, str]:
    """Read ``KEY=value`` lines (comments and blanks ignored); existing environment variables win."""
    loaded: dict[str, str] = {}
    p = Path(path)
    if not p.is_file():
        return loaded
    for raw in p.read_text(encoding="utf-8").splitlines():
        line = raw.strip()
        if not line or line.startswith("#") or "=" not in line:
            continue
        key, _equals, value = line.partition("=")
        key = key.strip().removeprefix("export ").strip()
        value = value.strip().strip('"').strip("'")
        loaded[key] = value
        os.environ.setdefault(key, value)
    return loaded


def run(args: argparse.Namespace) -> int:
    load_env(args.env_file)
    level = os.environ.get("LOG_LEVEL", "INFO").strip().upper() or "INFO"
    if level not in ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"):
        print(
            "conductor run: "
            + _("LOG_LEVEL={level} is not one of DEBUG, INFO, WARNING, ERROR; using INFO", level=repr(level)),
            file=sys.stderr,
        )
        level = "INFO"
    logging.basicConfig(level=level, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    logging.getLogger("discord").setLevel(max(logging.getLevelName(level), logging.INFO))
    token = os.environ.get("DISCORD_TOKEN", "").strip()
    if not token:
        print("conductor run: " + _(NO_TOKEN), file=sys.stderr)
        return 2
    from bot.app import App, AppSettings
    from bot.discord_app.api_base import SETTING, use_api_base
    from bot.discord_app.client import ConductorBot, ShardedConductorBot
    from bot.store.rows import StorageError
    from bot.store.sqlite import db_path_from_env
    from bot.workers import WorkerCountError, configured_size
    from lang import text_of

    try:
        workers = configured_size(args.workers)
    except WorkerCountError as exc:
        print(f"conductor run: {text_of(exc.said)}", file=sys.stderr)
        return 2

    from bot.web.settings import WebSettingError, WebSettings

    try:
        web = WebSettings.from_env(os.environ, force_on=args.web)
    except WebSettingError as exc:
        print(f"conductor run: {text_of(exc.said)}", file=sys.stderr)
        return 2
    from bot.discord_app.shards import ShardSettingError, parse_shards

    shards: list[int] | None = None
    if args.shards is not None or args.shard_count is not None:
        if args.shards is None or args.shard_count is None:
            print("conductor run: " + _("--shards and --shard-count go together."), file=sys.stderr)
            return 2
        try:
            shards = parse_shards(args.shards, args.shard_count)
        except ShardSettingError as exc:
            print(f"conductor run: {text_of(exc.said)}", file=sys.stderr)
            return 2
    use_api_base(os.environ.get(SETTING))  # a shared rate-limit proxy, if the settings name one
    dev_guild = os.environ.get("DEV_GUILD_ID", "").strip()
    settings = AppSettings(
        args.db or db_path_from_env(),
        workers=workers,
        prewarm=True,
        timers=True,
        # The AI kind that takes seats over on this server (a game's own ``takeover_ai`` setting
        # wins; a kind a game does not offer leaves that game's default).
        takeover_ai=os.environ.get("CONDUCTOR_TAKEOVER_AI", "").strip() or None,
        # page links are given only when this process (or another, behind CONDUCTOR_WEB_URL) serves them
        web_url=web.public_url if web.enabled or web.base_url else None,
    )

    async def main() -> None:
        # The client starts the App after login (heavy start-up work before the gateway connects)
        # and closes it with itself.
        app = App(settings)
        dev = int(dev_guild) if dev_guild.isdigit() else None
        bot = (
            ConductorBot(app, dev_guild_id=dev, sync=args.sync)
            if shards is None
            else ShardedConductorBot(
                app, dev_guild_id=dev, sync=args.sync, shard_ids=shards, shard_count=args.shard_count
            )
        )
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGTERM, signal.SIGINT):
            # a clean shutdown: stop the timers, close the gateway, the workers and the database
            with contextlib.suppress(NotImplementedError, RuntimeError):
                loop.add_signal_handler(sig, lambda: asyncio.ensure_future(bot.close()))
        server = None
        try:
            if web.enabled:
                from bot.web.server import WebServer

                # the pages read the App, which the client starts after login; a page asked for
                # before then waits for the store like any other caller
                await app.start()
                server = await WebServer(app, web.host, web.port, web.base_url or None).start()
                # CONDUCTOR_WEB_PORT=0 picks a free port: links point where the server listens
                app.links.public_url = server.pages.public_url
            async with bot:
                await bot.start(token)
        finally:
            if server is not None:
                await server.stop()
            await app.close()

    try:
        # The operator's language is for this terminal only: the bot words each message for its
        # reader and keeps its records in English, starting from the process's English default.
        with using(SOURCE_LANGUAGE):
            asyncio.run(main())
    except KeyboardInterrupt:
        pass
    except StorageError as exc:  # a database the bot cannot open: the path and the fix, in the reader's words
        print(f"conductor run: {text_of(exc.said)}", file=sys.stderr)
        return 1
    except Exception as exc:  # noqa: BLE001 - e.g. an invalid token: say so, exit non-zero
        print(f"conductor run: {type(exc).__name__}: {exc}", file=sys.stderr)
        return 1
    return 0
