"""The web pages in a real browser: Debian's headless Chromium (driven by Selenium through
Debian's chromedriver, nothing downloaded) at a phone's size, against a running bot (the real
ConductorBot on the fake Discord, its App serving the pages as ``conductor run --web`` does).

Issue 33's "Done when": the game page at 390 x 844 shows the board and the scores; stepping the
replay shows the board of the chosen move; the 64-player event page shows every row; a player
named ``<b>x</b>`` appears as text. Screenshots at phone size are written to
``$CONDUCTOR_SCREENSHOTS`` (else the test's temporary folder) and looked at.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import pytest
from fakediscord import FakeDiscord
from test_bot_support import Table, make_bot

from bot.web.pages import EVENT, GAME
from bot.web.server import WebServer

CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"
FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
)
PHONE = (390, 844)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """One headless Chromium for the module, the size of a phone's screen."""
    for program in (CHROMIUM, CHROMEDRIVER):
        if not os.access(program, os.X_OK):
            pytest.fail(f"{program} is missing: apt-get install -y chromium chromium-driver (.ci/run does)")
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in FLAGS:
        options.add_argument(flag)
    options.add_argument(f"--window-size={PHONE[0]},{PHONE[1]}")
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    # headless windows have a minimum width: the phone's viewport is emulated instead
    driver.execute_cdp_cmd(
        "Emulation.setDeviceMetricsOverride",
        {"width": PHONE[0], "height": PHONE[1], "deviceScaleFactor": 1, "mobile": True},
    )
    try:
        yield driver
    finally:
        driver.quit()


@pytest.fixture
def shots(tmp_path: Path) -> Path:
    folder = Path(os.environ.get("CONDUCTOR_SCREENSHOTS") or tmp_path / "screenshots")
    folder.mkdir(parents=True, exist_ok=True)
    return folder


class Browser:
    """The browser, driven from the test's event loop (each call in a thread: the bot and its
    pages keep answering in the loop meanwhile)."""

    def __init__(self, driver: Any, base: str, shots: Path) -> None:
        self.driver, self.base, self.shots = driver, base, shots

    async def call(self, fn: Any, *args: Any) -> Any:
        return await asyncio.to_thread(fn, *args)

    async def open(self, path: str) -> None:
        await self.call(self.driver.get, self.base + path)

    async def js(self, script: str, *args: Any) -> Any:
        return await self.call(self.driver.execute_script, script, *args)

    async def wait(self, script: str, *args: Any) -> Any:
        """Until ``script`` returns something true (Selenium's wait: polls the page, no sleep)."""
        from selenium.webdriver.support.ui import WebDriverWait

        return await self.call(
            lambda: WebDriverWait(self.driver, 30).until(lambda d: d.execute_script(script, *args))
        )

    async def screenshot(self, name: str) -> Path:
        path = self.shots / f"{name}.png"
        await self.call(self.driver.save_screenshot, str(path))
        return path

    async def csp_violations(self) -> list[str]:
        logs = await self.call(self.driver.get_log, "browser")
        return [e["message"] for e in logs if "Content Security Policy" in e["message"]]


BOARD_SHOWN = """
const img = document.getElementById('board');
return img && img.complete && img.naturalWidth > 0 && img.getAttribute('src');
"""


@pytest.fixture
async def site(
    fake_discord: FakeDiscord, run_bot: Any, tmp_path: Path, browser: Any, shots: Path
) -> AsyncIterator[tuple[Any, WebServer, Browser]]:
    bot = await run_bot(lambda: make_bot(tmp_path / "web.db", web_url="http://127.0.0.1:0"))
    server = await WebServer(bot.app, "127.0.0.1", 0).start()
    try:
        yield bot, server, Browser(browser, server.url, shots)
    finally:
        await server.stop()


async def test_a_game_page_on_a_phone_shows_the_board_scores_and_steps_the_replay(
    fake_discord: FakeDiscord, site: tuple[Any, WebServer, Browser]
) -> None:
    bot, server, browser = site
    fake = fake_discord
    # a game played on Discord: alice against an AI, a few moves in
    table = Table(fake, bot)
    await table.create(fake.alice, board="europe")
    await table.slash("ttr addai", fake.alice)
    await table.slash("ttr start", fake.alice)
    # and a finished one, of AI seats, with a player named <b>x</b>
    service = bot.app.service
    space = f"discord:guild:{fake.guild.id}"
    row = await service.create_game(
        game_name="ttr", creator="discord:999", creator_name="<b>x</b>", space=space, config={"board": "usa"}
    )
    await service.add_ai(row.id, "discord:999", "random", where=space)
    await service.start(row.id, "discord:999", where=space)
    await service.resign(row.id, "discord:999", where=space)  # the bot plays the seat to the end
    await service.stream.drain()
    finished = await service.game_row(row.id)
    assert finished.status == "over"

    pid = await server.pages.pages.public_id(GAME, finished.id)
    await browser.open(f"/g/{pid}/")
    src = await browser.wait(BOARD_SHOWN)
    assert src == f"board/{finished.seq}.png"
    layout = await browser.js(
        """
        const img = document.getElementById('board').getBoundingClientRect();
        const scores = document.getElementById('final');
        return {width: innerWidth, page: document.documentElement.scrollWidth, img: img.width,
                imgTop: img.top, scores: scores ? scores.getBoundingClientRect().height : 0,
                cells: scores ? scores.innerText : '',
                collapse: getComputedStyle(scores).borderCollapse};
        """
    )
    assert layout["width"] == 390 and layout["page"] <= 390  # nothing wider than the phone
    assert 300 < layout["img"] <= 390 and layout["scores"] > 0
    assert layout["collapse"] == "collapse"  # the stylesheet applied under the CSP
    # the name people typed reads as text: the characters, no bold element made of it
    assert "<b>x</b>" in layout["cells"]
    assert await browser.js("return document.querySelectorAll('main b').length") == 0
    await browser.screenshot("game-finished-phone")

    # the replay: Previous shows the board of the move before, drawn for that move
    await browser.js("document.querySelector('#stepper a[rel=prev]').click()")
    before = finished.seq - 1
    assert await browser.wait(BOARD_SHOWN) == f"board/{before}.png"
    assert f"Move {before} of {finished.seq}" in await browser.js(
        "return document.getElementById('move-label').textContent"
    )
    # the slider: straight to move 10
    await browser.js(
        "const r = document.getElementById('move-range'); r.value = '10';"
        " r.dispatchEvent(new Event('input'));"
    )
    await browser.wait("return document.getElementById('board').getAttribute('src') === 'board/10.png'")
    await browser.wait(BOARD_SHOWN)
    assert await browser.js("return document.querySelector('ol.log li.here').dataset.move") == "10"
    assert await browser.js("return location.search") == "?move=10"
    await browser.screenshot("game-replay-move-10-phone")
    # without the script (a link followed, a reload): the same move from the server
    await browser.open(f"/g/{pid}/?move=10")
    assert await browser.wait(BOARD_SHOWN) == "board/10.png"
    shown = await browser.js("return document.getElementById('board').naturalWidth")
    assert shown > 0

    # the game in progress: its board and who is to play
    pid = await server.pages.pages.public_id(GAME, table.gid)
    await browser.open(f"/g/{pid}/")
    await browser.wait(BOARD_SHOWN)
    assert await browser.js("return document.querySelectorAll('#scores tr').length") == 2
    await browser.screenshot("game-in-progress-phone")
    assert await browser.csp_violations() == []


async def test_a_64_player_event_page_shows_every_row_on_a_phone(
    fake_discord: FakeDiscord, site: tuple[Any, WebServer, Browser]
) -> None:
    bot, server, browser = site
    space = f"discord:guild:{fake_discord.guild.id}"
    runner = bot.app.tournaments
    event = await runner.create_event(
        game_name="ttr", space=space, creator="discord:1", name="Grand <i>Prix</i>", seed=9
    )
    for i in range(64):
        await runner.join(event.id, space, f"discord:{2000 + i}", f"Player {i:02d}")
    await runner.start(event.id, space, "discord:1")
    pid = await server.pages.pages.public_id(EVENT, event.id)
    await browser.open(f"/e/{pid}/")
    rows = await browser.js(
        """
        return [...document.querySelectorAll('#standings tbody tr')].map(
            r => [r.cells[1].innerText, r.getBoundingClientRect().height > 0]);
        """
    )
    assert len(rows) == 64 and all(visible for _name, visible in rows)
    assert sorted(name for name, _v in rows) == [f"Player {i:02d}" for i in range(64)]
    assert await browser.js("return document.querySelector('h1').innerText") == "Grand <i>Prix</i>"
    assert await browser.js("return document.documentElement.scrollWidth") <= 390
    assert await browser.js("return document.querySelectorAll('table.round a').length") == 16
    await browser.screenshot("event-64-phone")
    # the whole page, every row, in one picture (the viewport stretched to the page's height)
    height = await browser.js("return document.documentElement.scrollHeight")
    await browser.call(
        browser.driver.execute_cdp_cmd,
        "Emulation.setDeviceMetricsOverride",
        {"width": 390, "height": int(height), "deviceScaleFactor": 1, "mobile": True},
    )
    await browser.screenshot("event-64-phone-full")
    await browser.call(
        browser.driver.execute_cdp_cmd,
        "Emulation.setDeviceMetricsOverride",
        {"width": 390, "height": 844, "deviceScaleFactor": 1, "mobile": True},
    )
    assert await browser.csp_violations() == []


async def test_the_static_sites_replay_stepper_shows_the_board_of_each_move_on_a_phone(
    browser: Any, shots: Path, tmp_path: Path
) -> None:
    """``conductor site``: the static copy steps through the replay opened from disk (no server):
    the script shows the stepper, Previous and the slider swap in that move's picture, and an
    address ending in ``#move=N`` opens on move N."""
    from bot.app import App, AppSettings
    from bot.web.export import export_site
    from bot.web.pages import Pages

    async with App.open(AppSettings(str(tmp_path / "site.db"))) as app:
        made = await app.service.create_game(game_name="ttr", creator=None, creator_name="-", join=False)
        for _seat in range(2):
            await app.service.add_ai(made.id, None, "random", is_admin=True)
        await app.service.start(made.id, None, is_admin=True)  # AI seats: played to the end
        game_id = made.id
        row = await app.service.game_row(game_id)
        assert row.status == "over"
        await export_site(app, tmp_path / "out")
        pid = await Pages(app).public_id(GAME, game_id)
    page = (tmp_path / "out" / "g" / pid / "index.html").as_uri()
    driver = Browser(browser, "", shots)
    await driver.open(page)
    assert await driver.wait(BOARD_SHOWN) == f"board/{row.seq}.png"
    assert await driver.js("return document.getElementById('stepper').hidden") is False
    await driver.js("document.querySelector('#stepper a[rel=prev]').click()")
    assert await driver.wait(BOARD_SHOWN) == f"board/{row.seq - 1}.png"
    assert await driver.js("return location.hash") == f"#move={row.seq - 1}"
    await driver.js(
        "const r = document.getElementById('move-range'); r.value = '4'; r.dispatchEvent(new Event('input'));"
    )
    await driver.wait("return document.getElementById('board').getAttribute('src') === 'board/4.png'")
    assert await driver.wait(BOARD_SHOWN) == "board/4.png"
    assert await driver.js("return document.querySelector('ol.log li.here').dataset.move") == "4"
    assert "Move 4 of" in await driver.js("return document.getElementById('move-label').textContent")
    # a move of the log: its board, without leaving the page
    await driver.js("document.querySelector('ol.log a[data-move=\"9\"]').click()")
    await driver.wait("return document.getElementById('board').getAttribute('src') === 'board/9.png'")
    assert (await driver.js("return location.pathname")).endswith("/index.html")
    await driver.screenshot("static-site-replay-phone")
    # an address with its move: the page opens on that move's board
    await driver.open((tmp_path / "out" / "index.html").as_uri())
    await driver.open(page + "#move=2")
    await driver.wait("return document.getElementById('board').getAttribute('src') === 'board/2.png'")
    assert await driver.wait(BOARD_SHOWN) == "board/2.png"
    assert await driver.js("return document.documentElement.scrollWidth") <= PHONE[0]
