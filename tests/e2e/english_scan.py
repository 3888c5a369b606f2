"""What an English leak looks like: the catalog's own English sentences, for tests that scan what a
non-English reader was shown."""

from __future__ import annotations

from babel.messages.catalog import Catalog


def english_sentences(catalog: Catalog) -> list[str]:
    """English source sentences long enough to be unmistakable, as written (no placeholder)."""
    out = []
    for message in catalog:
        for text in [message.id] if isinstance(message.id, str) else list(message.id or ()):
            if text and "{" not in text and len(text) >= 16 and not message.context:
                out.append(text)
    return out
