"""End-to-end: a group's own First Class card files attached to ``/ttr new`` (issue 12, item 5).

The files are read by the same loader as ``conductor play --cards``: a valid set becomes the
game's cards and the messages name every source; a broken file is refused privately with the
loader's own sentence, and nothing is created."""

from __future__ import annotations

import csv
import io
from importlib import resources
from pathlib import Path
from typing import Any

from fakediscord import FakeDiscord
from test_bot_support import PATIENCE, Table, make_bot

OURS = "Our printed cards (a group's own file)"


def _ours(*names: str) -> bytes:
    """The packaged files' rows under one header, each card's source column saying it is ours:
    a group's own file in the documented template format."""
    out = io.StringIO()
    writer: csv.DictWriter[str] | None = None
    for name in names:
        text = resources.files("rules.firstclass").joinpath("data", name).read_text(encoding="utf-8")
        reader = csv.DictReader(io.StringIO(text))
        if writer is None:
            writer = csv.DictWriter(out, fieldnames=list(reader.fieldnames or []), lineterminator="\n")
            writer.writeheader()
        for row in reader:
            writer.writerow({**row, "source": OURS})
    return out.getvalue().encode("utf-8")


async def test_a_groups_own_card_files_make_the_game_it_plays(
    fake_discord: FakeDiscord, run_bot: Any, tmp_path: Path
) -> None:
    fake = fake_discord
    bot = await run_bot(lambda: make_bot(tmp_path / "c.db"))
    deck = fake.upload("our_cards.csv", _ours("open_base_cards.csv", "module_A.csv"))
    game_end = fake.upload("our_game_end.csv", _ours("open_game_end_cards.csv"))
    table = Table(fake, bot)
    await table.create(fake.alice, game="first-class", seat_order="join", cards1=deck, cards2=game_end)
    created = fake.messages_seen_by(fake.alice)[-1].text()
    # every source is named, the group's files by the names they were attached with
    assert (
        "Cards: base cards and module A loaded from our_cards.csv; module O from the Conductor open deck"
        in created
    ), created
    assert "Game End cards file: our_game_end.csv." in created, created
    await table.slash("ttr addai", fake.alice)
    await table.slash("ttr start", fake.alice)
    loaded = await bot.service.load(table.gid)
    cards = loaded.game.deck.cards
    assert {c.source for c in cards.values() if c.set in ("X", "A")} == {OURS}
    assert {c.source for c in cards.values() if c.set == "O"} != {OURS}  # module O: our open deck, as named
    assert {g.source for g in loaded.game.deck.game_end.values()} == {OURS}
    assert "our_cards.csv" in loaded.game.deck.label
    for _ in range(4):
        if not await table.to_act():
            break
        reply = await table.play_one(fake.alice)
        assert reply.text().startswith("✓"), reply.text()
    assert (await bot.service.game_row(table.gid)).seq >= 4
    await fake.settle()


async def test_a_broken_card_file_is_refused_with_the_loaders_sentence_and_nothing_is_created(
    fake_discord: FakeDiscord, run_bot: Any, tmp_path: Path
) -> None:
    fake = fake_discord
    bot = await run_bot(lambda: make_bot(tmp_path / "c.db"))
    short = _ours("open_game_end_cards.csv").decode().splitlines()[:-1]  # 20 Game End cards
    attempts = [
        (
            {"cards1": fake.upload("game_end.csv", ("\n".join(short) + "\n").encode())},
            "✗ The card list is not valid: there are 20 Game End cards; the game has 21.",
        ),
        (
            {"cards1": fake.upload("notes.csv", b"name,colour\nx,y\n")},
            "✗ notes.csv: its header (colour,name) is none of the card templates",
        ),
        (
            {"cards1": fake.upload("binary.csv", b"\xff\xfe\x00id")},
            "✗ binary.csv is not a text file in UTF-8",
        ),
        (
            {"cards1": fake.upload("huge.csv", b"id,type,points\n" + b"x" * 300_000)},
            "✗ huge.csv is 300,015 bytes; a card file may be at most 256 kB.",
        ),
        (
            {
                "cards1": fake.upload("a.csv", _ours("open_game_end_cards.csv")),
                "cards2": fake.upload("b.csv", _ours("open_game_end_cards.csv")),
            },
            "✗ Two files for Game End cards file: a.csv and b.csv.",
        ),
    ]
    for options, sentence in attempts:
        h = await fake.slash("ttr new", user=fake.alice, game="first-class", **options)
        msg = await h.wait_message(timeout=PATIENCE)
        assert msg.ephemeral and msg.text().startswith(sentence), msg.text()
    # Ticket to Ride takes no card files
    h = await fake.slash("ttr new", user=fake.alice, board="usa", cards1=fake.upload("x.csv", b"id\n"))
    assert (await h.wait_message(timeout=PATIENCE)).text() == "✗ Ticket to Ride loads no card files."
    assert await bot.storage.game_ids() == [] and not fake.threads
    assert not [p for p in (tmp_path / "card-files").rglob("*") if p.is_file()]  # no file kept for nothing
    await fake.settle()
