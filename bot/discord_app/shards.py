"""Which process posts for which server: Discord's shards.

A bot process runs a range of shards (``conductor run --shards 0-3 --shard-count 8``); Discord
sends each server's events to one shard, ``(guild_id >> 22) % shard_count``, and every direct
message to shard 0. The process running a game's server's shard is the one that posts the game's
outcomes (whichever process committed them, see :mod:`bot.outbox`), so a game's posts come from one
process, in order. A game outside any server (created in a direct message or the terminal) is
shard 0's.
"""

from __future__ import annotations

import re
from collections.abc import Collection

from lang import CatalogError, M


def shard_of(guild_id: int | None, shard_count: int) -> int:
    """The shard Discord sends ``guild_id``'s events to (None: a direct message, shard 0)."""
    if guild_id is None or shard_count <= 1:
        return 0
    return (guild_id >> 22) % shard_count


def posts_for(guild_id: int | None, shard_ids: Collection[int] | None, shard_count: int | None) -> bool:
    """Whether a process running ``shard_ids`` of ``shard_count`` posts for ``guild_id``'s games
    (no shard count, or every shard: one process posts for every server)."""
    if not shard_count or shard_ids is None:
        return True
    return shard_of(guild_id, shard_count) in shard_ids


class ShardSettingError(CatalogError, ValueError):
    """``--shards``/``--shard-count`` that name no shard range, with the operator's sentence."""


def parse_shards(text: str, shard_count: int) -> list[int]:
    """``"0-3"``, ``"1"`` or ``"0,2,5-6"`` as shard ids, each below ``shard_count``."""
    if shard_count < 1:
        raise ShardSettingError("shard_count", M("--shard-count must be at least 1."))
    ids: set[int] = set()
    for part in text.split(","):
        match = re.fullmatch(r"\s*(\d+)\s*(?:-\s*(\d+)\s*)?", part)
        if match is None:
            raise ShardSettingError(
                "shards",
                M(
                    "--shards {shards}: write shard numbers and ranges, like 0-3 or 0,2,5-7.",
                    shards=repr(text),
                ),
            )
        low = int(match.group(1))
        high = int(match.group(2)) if match.group(2) is not None else low
        if high < low:
            raise ShardSettingError(
                "shards",
                M(
                    "--shards {shards}: the range {low}-{high} runs backwards.",
                    shards=repr(text),
                    low=low,
                    high=high,
                ),
            )
        ids.update(range(low, high + 1))
    too_high = sorted(i for i in ids if i >= shard_count)
    if too_high:
        raise ShardSettingError(
            "shards",
            M(
                "--shards {shards}: there is no shard {shard} with --shard-count {count} (shards are numbered"
                " 0 to {last}).",
                shards=repr(text),
                shard=too_high[0],
                count=shard_count,
                last=shard_count - 1,
            ),
        )
    return sorted(ids)
