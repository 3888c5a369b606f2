"""The web pages' own tables (owner ``web``): the unguessable public id of each game, event and
opted-in player that has a page, whether it is unlisted, and which spaces (servers) turned pages
off. The core never reads them."""

from __future__ import annotations

SQLITE: list[str] = [
    # 1: public ids and the per-space switch
    """
    CREATE TABLE web_public (
        kind TEXT NOT NULL,
        ref TEXT NOT NULL,
        public_id TEXT NOT NULL UNIQUE,
        unlisted INTEGER NOT NULL DEFAULT 0,
        created_at REAL NOT NULL,
        PRIMARY KEY (kind, ref)
    );
    CREATE TABLE web_spaces (
        space TEXT PRIMARY KEY,
        pages_off INTEGER NOT NULL
    );
    """,
]

POSTGRES: list[str] = [
    # 1: the same tables as SQLite's first entry (double-precision times)
    """
    CREATE TABLE web_public (
        kind TEXT NOT NULL,
        ref TEXT NOT NULL,
        public_id TEXT NOT NULL UNIQUE,
        unlisted BIGINT NOT NULL DEFAULT 0,
        created_at DOUBLE PRECISION NOT NULL,
        PRIMARY KEY (kind, ref)
    );
    CREATE TABLE web_spaces (
        space TEXT PRIMARY KEY,
        pages_off BIGINT NOT NULL
    );
    """,
]
