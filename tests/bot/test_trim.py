"""A message over Discord's limit keeps its head (bot/discord_app/ui.py ``_trim``).

Before: the tail was kept, so a long private reply lost its ✓ line and the move itself.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.discord_app.ui import MAX_CONTENT, _trim

REPLY = "✓ claim EU034 red=3,locomotive=1: Berlin – Wien for 7 points.\n" + "\n".join(
    f"Your cards: {i} red, {i} blue, {i} locomotive; ticket offer {i}: Paris – Roma" for i in range(60)
)


def test_a_short_message_is_unchanged() -> None:
    assert _trim("✓ draw deck") == "✓ draw deck"
    assert _trim("x" * MAX_CONTENT) == "x" * MAX_CONTENT


def test_a_long_private_reply_keeps_the_tick_line_and_the_move_and_says_the_rest_was_cut() -> None:
    trimmed = _trim(REPLY)
    assert len(trimmed) <= MAX_CONTENT
    assert trimmed.startswith(
        "✓ claim EU034 red=3,locomotive=1: Berlin – Wien for 7 points.\nYour cards: 0 red"
    )
    cut = len(REPLY) - len(trimmed.rsplit("\n… (", 1)[0])
    assert trimmed.endswith(f"\n… ({cut} more characters cut: a Discord message holds at most 2000)")
    kept = trimmed.rsplit("\n… (", 1)[0]
    assert REPLY.startswith(kept) and REPLY[len(kept)] == "\n", "the cut falls on a line break"


def test_a_long_public_post_keeps_the_ping_for_whoever_acts_next() -> None:
    """A mention pings only if it is in the message: the final "@player: your turn" line stays."""
    post = REPLY + "\n\n<@1234>: your turn in game #5."
    trimmed = _trim(post)
    assert len(trimmed) <= MAX_CONTENT
    assert trimmed.startswith("✓ claim EU034")
    assert trimmed.endswith(
        "more characters cut: a Discord message holds at most 2000)\n<@1234>: your turn in game #5."
    )


def test_a_cut_inside_a_code_block_closes_it() -> None:
    board = (
        "Board of game #3:\n```\n" + "\n".join(f"route {i:03} owned by nobody" for i in range(200)) + "\n```"
    )
    trimmed = _trim(board)
    assert len(trimmed) <= MAX_CONTENT and trimmed.count("```") == 2
    assert trimmed.startswith("Board of game #3:\n```\nroute 000")


@settings(max_examples=200, deadline=None, database=None)
@given(text=st.text(min_size=0, max_size=6000), limit=st.integers(500, 2000))
def test_any_text_fits_and_keeps_a_prefix(text: str, limit: int) -> None:
    """Whatever the text: the result fits, and a cut text starts with a prefix of the original."""
    trimmed = _trim(text, limit)
    assert len(trimmed) <= limit
    if len(text) <= limit:
        assert trimmed == text
    else:
        kept = trimmed.split("\n… (", 1)[0].removesuffix("\n```")
        assert text.startswith(kept) and len(kept) >= limit // 4
