"""Names in Discord's markdown, shown as typed.

A person's name is free text: ``__dan__`` would be underlined, a ``*`` would italicise the rest of
the line, ``[x](link)`` would be a link. :func:`literal` escapes what has a meaning anywhere in a
line (and, at the start of a name, what has one at the start of a line); the Discord client has
every seat name written with it (:func:`bot.names.names_written`, set for the client's tasks and
for each outcome it presents), so no text built from names needs its own escaping.
"""

from __future__ import annotations

import re

# Unlike discord.utils.escape_markdown, every one is escaped, paired or not: a lone "*" in a name
# pairs with the bold markers of the text around it.
_INLINE = re.compile(r"([\\*_~`|\[\]<])")
_LINE_START = re.compile(r"^([>#\-+])")
_NUMBERED = re.compile(r"^(\d+)\.")


def literal(text: str) -> str:
    """``text`` escaped so that Discord shows it as it is."""
    return _NUMBERED.sub(r"\1\\.", _LINE_START.sub(r"\\\1", _INLINE.sub(r"\\\1", text)))


_IN_TEXT = re.compile(r"([\\*_~`|])")


def literal_text(text: str) -> str:
    """A sentence made with names as they are (an event's words), escaped whole: every character
    that changes a line's look, paired or not (links and mentions in it are the bot's own)."""
    return _IN_TEXT.sub(r"\\\1", text)
