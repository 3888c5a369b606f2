"""Links from Discord to the web pages, played through the fake Discord as a user would (issue 33):
a game's thread starts with its page's address, ``/view board`` gives it, an event's status
message ends with its page's; a server admin turns the server's pages off (and a member cannot);
a game's creator unlists its page; a player opts in to a page of their own and out again. Every
address given opens the page it names on the bot's own server.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import aiohttp
from fakediscord import FakeDiscord
from test_bot_manager import _command
from test_bot_support import Table, make_bot
from test_tournament_support import ask, event_id_of

from bot.web.server import WebServer

LINK = re.compile(r"Web page: (http://127\.0\.0\.1:\d+/([gep])/([A-Za-z0-9_-]{22})/)")


async def _run(fake: FakeDiscord, run_bot: Any, tmp_path: Path) -> tuple[Any, WebServer]:
    # the App's public address is the server's own: the bot serves its pages (conductor run --web)
    bot = await run_bot(lambda: make_bot(tmp_path / "links.db", web_url="http://127.0.0.1:0"))
    server = await WebServer(bot.app, "127.0.0.1", 0).start()
    bot.app.links.public_url = server.url
    return bot, server


async def _status(session: aiohttp.ClientSession, url: str) -> tuple[int, str]:
    async with session.get(url) as r:
        return r.status, await r.text()


async def test_a_games_thread_and_view_board_link_its_page_and_a_server_can_turn_pages_off(
    fake_discord: FakeDiscord, run_bot: Any, tmp_path: Path
) -> None:
    fake = fake_discord
    bot, server = await _run(fake, run_bot, tmp_path)
    try:
        table = Table(fake, bot)
        await table.create(fake.alice, board="usa")
        opening = next(m for m in fake.messages_in(table.thread, ephemeral=False) if "Game #" in m.text())
        found = LINK.search(opening.text())
        assert found and found[2] == "g", opening.text()
        url = found[1]
        await table.slash("ttr addai", fake.alice)
        await table.slash("ttr start", fake.alice)
        board = await table.slash("view board", fake.bob)
        assert board.ephemeral and LINK.search(board.text()) and LINK.search(board.text())[1] == url  # type: ignore[index]
        async with aiohttp.ClientSession() as session:
            status, html = await _status(session, url)
            assert status == 200 and f"Game #{table.gid}" in html and 'src="board/' in html

            # a member may not turn the pages off; a server admin may
            refused = await (
                await fake.inject(_command(fake, "ttr pages", fake.bob, table.thread, shown=False))
            ).wait_message()
            assert refused.ephemeral and refused.text().startswith("✗") and "server admin" in refused.text()
            assert (await _status(session, url))[0] == 200
            done = await (
                await fake.inject(
                    _command(fake, "ttr pages", fake.alice, table.thread, admin=True, shown=False)
                )
            ).wait_message()
            assert done.text().startswith("✓")
            assert (await _status(session, url))[0] == 404
            assert not LINK.search((await table.slash("view board", fake.bob)).text())
            await (
                await fake.inject(
                    _command(fake, "ttr pages", fake.alice, table.thread, admin=True, shown=True)
                )
            ).wait_message()
            assert (await _status(session, url))[0] == 200

            # its creator unlists the game: the page stays, marked not to be indexed; another member may not
            refused = await table.slash("ttr listed", fake.bob, listed=False)
            assert refused.text().startswith("✗")
            unlisted = await table.slash("ttr listed", fake.alice, listed=False)
            assert unlisted.text().startswith("✓") and url in unlisted.text()
            status, html = await _status(session, url)
            assert status == 200 and 'content="noindex"' in html
    finally:
        await server.stop()


async def test_an_events_status_message_links_its_page_and_a_player_opts_in_to_a_page(
    fake_discord: FakeDiscord, run_bot: Any, tmp_path: Path
) -> None:
    fake = fake_discord
    bot, server = await _run(fake, run_bot, tmp_path)
    try:
        event_id = event_id_of(
            await ask(
                fake, "tournament create", fake.alice, name="Link Cup", boards="usa", table_size=2, rounds=1
            )
        )
        status_message = next(
            m for m in fake.messages_in(ephemeral=False) if f"(event #{event_id}) ·" in m.text()
        )
        found = LINK.search(status_message.text())
        assert found and found[2] == "e", status_message.text()
        async with aiohttp.ClientSession() as session:
            event_url = found[1]
            status, html = await _status(session, event_url)
            assert status == 200 and "Link Cup" in html and 'content="noindex"' not in html

            # its organiser unlists the event's page: still served by its link, marked not to be
            # indexed; a member who does not organise it is refused and nothing changes
            refused = await ask(fake, "tournament listed", fake.bob, listed=False)
            assert refused.ephemeral and refused.text().startswith("✗") and "creator" in refused.text()
            assert 'content="noindex"' not in (await _status(session, event_url))[1]
            unlisted = await ask(fake, "tournament listed", fake.alice, listed=False, event=event_id)
            assert unlisted.ephemeral and unlisted.text().startswith("✓") and event_url in unlisted.text()
            status, html = await _status(session, event_url)
            assert status == 200 and 'content="noindex"' in html
            assert (await bot.app.storage.web.public_ref(event_url.rstrip("/").rsplit("/", 1)[1])).unlisted
            listed = await ask(fake, "tournament listed", fake.alice, listed=True)
            assert listed.text().startswith("✓") and "is listed" in listed.text()
            assert 'content="noindex"' not in (await _status(session, event_url))[1]

            page = await ask(fake, "profile", fake.bob, page=True)
            mine = LINK.pattern.replace("Web page: ", "")
            found = re.search(mine, page.text())
            assert found and found[2] == "p", page.text()
            assert (await _status(session, found[1]))[0] == 200
            data = fake.build_command_data(
                "profile", {"user": fake.alice, "page": True}, channel=fake.general
            )
            handle = await fake.inject(fake.build_interaction(2, data, fake.bob, fake.general, None))
            others = await handle.wait_message()
            assert others.ephemeral and others.text().startswith("✗")
            await ask(fake, "profile", fake.bob, page=False)
            assert (await _status(session, found[1]))[0] == 404
    finally:
        await server.stop()
