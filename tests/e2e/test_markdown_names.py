"""End-to-end: names with markdown show as typed in every message and view of a whole game
(issue 30: ``__dan__`` was underlined in the board text, "To play" and ``/view scores``, and a
``*`` in a name italicised the rest of the line). Escaped once, where a seat's name enters text."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from fakediscord import FakeDiscord, FakeMessage
from test_bot_support import Table, make_bot

DAN, STAR = "__dan__", "a*b"
SHOWN = {DAN: r"\_\_dan\_\_", STAR: r"a\*b"}


def raw_names(text: str) -> list[str]:
    """The names of ``SHOWN`` that ``text`` holds unescaped (markdown would change them)."""
    for escaped in SHOWN.values():
        text = text.replace(escaped, "")
    return [name for name in SHOWN if name in text or name.strip("_") + "__" in text]


async def test_markdown_in_names_is_shown_literally_over_a_whole_game(
    fake_discord: FakeDiscord, run_bot: Any, tmp_path: Path
) -> None:
    fake = fake_discord
    dan, star = fake.add_user(DAN), fake.add_user(STAR)
    bot = await run_bot(lambda: make_bot(tmp_path / "c.db"))
    table = Table(fake, bot)
    await table.create(dan, board="usa", seat_order="join", timer_hours=0.0)
    await table.slash("ttr join", star)
    await table.slash("ttr start", dan)
    users = {await table.seat_of(u): u for u in (dan, star)}
    views: list[FakeMessage] = []
    for turn in range(3000):
        to_act = await table.to_act()
        if not to_act:
            break
        await asyncio.gather(*(table.play_buttons(users[s]) for s in to_act))
        if turn == 20:  # the views a player asks for, mid-game
            for command in ("view board", "view scores", "view log"):
                views.append(await table.slash(command, star))
    assert (await bot.service.game_row(table.gid)).status == "over"
    for command in ("view board", "view scores", "view log"):
        views.append(await table.slash(command, dan))
    public = fake.messages_in(table.thread, ephemeral=False)
    text = "\n".join(m.text() for m in public)
    assert SHOWN[DAN] in text and SHOWN[STAR] in text  # both names are there, escaped
    assert "To play: **" + SHOWN[DAN] + "**" in text or "To play: **" + SHOWN[STAR] + "**" in text
    for message in [*public, *views, *(m for m in fake.messages.values() if m.ephemeral)]:
        assert not raw_names(message.text()), message.text()
    scores = views[1].text()
    assert SHOWN[DAN] in scores and SHOWN[STAR] in scores, scores
    # the finished game's summary: who won, then the final scores; no "The game is over." beside
    # "Game #1 is over.", no final-round warning under the end
    last = public[-1].text()
    final = await bot.service.load(table.gid)
    best = min(final.game.final_scores(), key=lambda f: f["rank"])  # type: ignore[union-attr]
    winner = SHOWN[[DAN, STAR][best["seat"]]] if best["seat"] < 2 else ""
    assert (
        f"🏁 Game #1 is over: {winner} wins with {best['total']} points." in last or "share the win" in last
    ), last
    assert "The game is over" not in last and "Final round" not in last and "Final scores" in last, last
    table.assert_no_leaks()


async def test_player_names_in_event_posts_show_as_typed(
    fake_discord: FakeDiscord, run_bot: Any, tmp_path: Path
) -> None:
    """An event's round post (each table's seats), ``/tournament pairings`` and the end's podium
    show ``__dan__`` and ``a*b`` as typed (the CSV and the fixed-width standings keep them raw)."""
    from test_tournament_support import Clock, EventTables, ask, event_id_of

    fake = fake_discord
    bot = await run_bot(lambda: make_bot(tmp_path / "e.db", clock=Clock()))
    users = [fake.add_user(DAN), fake.add_user(STAR), fake.alice, fake.bob]
    event_id = event_id_of(await ask(fake, "tournament create", fake.alice, name="Night Train", rounds=1))
    for user in users:
        await ask(fake, "tournament join", user)
    await ask(fake, "tournament start", fake.alice)
    await fake.settle()
    tables = EventTables(fake, bot, event_id, users)
    await tables.finish_round(1)
    await fake.settle()
    posts = [m for m in fake.messages_in(fake.general, ephemeral=False) if "Night Train" in m.text()]
    pairings = await ask(fake, "tournament pairings", fake.bob, event=1, round=1)
    paired = next(m for m in posts if "is paired" in m.text())
    over = next(m for m in posts if "is over" in m.text())
    for message in (paired, pairings):
        assert SHOWN[DAN] in message.text() and SHOWN[STAR] in message.text(), message.text()
        assert not raw_names(message.text()), message.text()
    # the podium names three of the four players: at least one of the two, whoever the games made
    # best (the random AI's results decide which), and never a name raw
    assert SHOWN[DAN] in over.text() or SHOWN[STAR] in over.text(), over.text()
    assert not raw_names(over.text()), over.text()
