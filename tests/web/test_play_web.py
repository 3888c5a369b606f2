"""``conductor play --web``: the terminal game serves its own page and prints its address
(issue 33: "`conductor play` can print the page address of the game it plays").

Played as a person would: the real command in its own process, its output read line by line (no
sleeps: each step waits for the line that says it happened), the printed address opened over HTTP,
then Ctrl-C (SIGINT) ends the serving and the command exits cleanly.
"""

from __future__ import annotations

import asyncio
import os
import re
import signal
import sys
from pathlib import Path

import aiohttp

from bot.cli import main

ADDRESS = re.compile(r"^Web page: (http://127\.0\.0\.1:(\d+)/g/([A-Za-z0-9_-]{22})/)$")


async def _line_matching(
    stream: asyncio.StreamReader, pattern: re.Pattern[str], seen: list[str]
) -> re.Match[str]:
    while True:
        raw = await asyncio.wait_for(stream.readline(), timeout=300)
        assert raw, "the command ended before printing: " + "".join(seen[-20:])
        line = raw.decode().rstrip("\n")
        seen.append(line)
        found = pattern.search(line)
        if found is not None:
            return found


async def test_conductor_play_web_serves_the_page_of_the_game_it_plays_and_prints_its_address(
    tmp_path: Path,
) -> None:
    env = {
        **os.environ,
        "CONDUCTOR_WEB": "off",
        "CONDUCTOR_WEB_PORT": "0",
        "CONDUCTOR_WEB_URL": "",
        "LANG": "C",
    }
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot.cli", "play", "--seat", "ai", "--quiet", "--web", "--seed", "5",
        "--players", "2", "--lang", "en",
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT, env=env, cwd=tmp_path,
    )  # fmt: skip
    assert proc.stdout is not None
    seen: list[str] = []
    try:
        address = await _line_matching(proc.stdout, ADDRESS, seen)
        url = address.group(1)
        # the game is played to its end, then the page stays served until Ctrl-C
        await _line_matching(
            proc.stdout, re.compile(re.escape(f"Serving the game's page at {url} until")), seen
        )
        async with aiohttp.ClientSession() as session:
            async with session.get(url) as page:
                html = await page.text()
                assert page.status == 200, html
            assert 'id="final"' in html and "Final scores" in html
            last = int(re.search(r'<img id="board" src="board/(\d+)\.png"', html).group(1))  # type: ignore[union-attr]
            async with session.get(f"{url}board/{last}.png") as board:
                assert board.status == 200 and (await board.read())[:8] == b"\x89PNG\r\n\x1a\n"
        proc.send_signal(signal.SIGINT)
        assert await asyncio.wait_for(proc.wait(), timeout=120) == 0, seen
    finally:
        if proc.returncode is None:
            proc.kill()
            await proc.wait()


def test_conductor_play_without_web_prints_no_address_unless_another_process_serves_its_database(
    tmp_path: Path, monkeypatch: object, capsys: object
) -> None:
    """Without ``--web`` the README's game prints no address; with ``--db`` and a public address
    (a `conductor run --web` serving that database) it prints the page's address there."""
    import pytest

    assert isinstance(monkeypatch, pytest.MonkeyPatch) and isinstance(capsys, pytest.CaptureFixture)
    monkeypatch.setenv("CONDUCTOR_WEB_URL", "https://games.example.org")
    assert main(["play", "--seat", "ai", "--quiet", "--seed", "2", "--players", "2", "--lang", "en"]) == 0
    assert "Web page:" not in capsys.readouterr().out  # a temporary database: nobody serves it
    db = tmp_path / "kept.db"
    assert (
        main(
            [
                "play",
                "--seat",
                "ai",
                "--quiet",
                "--seed",
                "2",
                "--players",
                "2",
                "--lang",
                "en",
                "--db",
                str(db),
            ]
        )
        == 0
    )
    out = capsys.readouterr().out
    assert re.search(r"^Web page: https://games\.example\.org/g/[A-Za-z0-9_-]{22}/$", out, re.M), out
    assert "Ctrl-C" not in out  # nothing served here, so nothing to wait for
