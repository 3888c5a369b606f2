"""The Discord adapter's own tables: where each game and event lives on Discord, the messages
posted there, the hands kept in direct messages and each server's settings. The core never reads
them."""

from __future__ import annotations

SQLITE: list[str] = [
    # 1: the tables as the global list left them at its version 10 (see legacy.py).
    """
    CREATE TABLE discord_routes (
        game_id INTEGER PRIMARY KEY REFERENCES games(id) ON DELETE CASCADE,
        guild_id INTEGER,
        channel_id INTEGER,
        thread_id INTEGER
    );
    CREATE INDEX discord_routes_thread ON discord_routes(thread_id);
    CREATE INDEX discord_routes_channel ON discord_routes(channel_id);
    CREATE TABLE discord_messages (
        game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
        seq INTEGER NOT NULL,
        channel_id INTEGER NOT NULL,
        message_id INTEGER NOT NULL,
        kind TEXT NOT NULL DEFAULT 'board',
        created_at REAL NOT NULL,
        PRIMARY KEY (game_id, message_id)
    );
    CREATE TABLE discord_dm_optin (
        player TEXT PRIMARY KEY,
        enabled INTEGER NOT NULL
    );
    CREATE TABLE discord_dm_hands (
        game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
        player TEXT NOT NULL,
        channel_id INTEGER NOT NULL,
        message_id INTEGER NOT NULL,
        PRIMARY KEY (game_id, player)
    );
    CREATE TABLE discord_guild_settings (
        guild_id INTEGER PRIMARY KEY,
        manager_role_id INTEGER,
        language TEXT
    );
    CREATE TABLE tournament_discord (
        event_id INTEGER PRIMARY KEY REFERENCES tournament_events(id) ON DELETE CASCADE,
        guild_id INTEGER,
        channel_id INTEGER,
        status_message_id INTEGER
    );
    """,
    # 2: who may create events in the server (issue 32): NULL or 'anyone', 'admins', or
    # 'role:<id>' (holders of that role; admins and game managers always may).
    """
    ALTER TABLE discord_guild_settings ADD COLUMN event_creators TEXT;
    """,
]

POSTGRES: list[str] = [
    # 1: the same tables as SQLite's first entry (64-bit integers, double-precision times).
    """
    CREATE TABLE discord_routes (
        game_id BIGINT PRIMARY KEY REFERENCES games(id) ON DELETE CASCADE,
        guild_id BIGINT,
        channel_id BIGINT,
        thread_id BIGINT
    );
    CREATE INDEX discord_routes_thread ON discord_routes(thread_id);
    CREATE INDEX discord_routes_channel ON discord_routes(channel_id);
    CREATE TABLE discord_messages (
        game_id BIGINT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
        seq BIGINT NOT NULL,
        channel_id BIGINT NOT NULL,
        message_id BIGINT NOT NULL,
        kind TEXT NOT NULL DEFAULT 'board',
        created_at DOUBLE PRECISION NOT NULL,
        PRIMARY KEY (game_id, message_id)
    );
    CREATE TABLE discord_dm_optin (
        player TEXT PRIMARY KEY,
        enabled BIGINT NOT NULL
    );
    CREATE TABLE discord_dm_hands (
        game_id BIGINT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
        player TEXT NOT NULL,
        channel_id BIGINT NOT NULL,
        message_id BIGINT NOT NULL,
        PRIMARY KEY (game_id, player)
    );
    CREATE TABLE discord_guild_settings (
        guild_id BIGINT PRIMARY KEY,
        manager_role_id BIGINT,
        language TEXT
    );
    CREATE TABLE tournament_discord (
        event_id BIGINT PRIMARY KEY REFERENCES tournament_events(id) ON DELETE CASCADE,
        guild_id BIGINT,
        channel_id BIGINT,
        status_message_id BIGINT
    );
    """,
    # 2: who may create events in the server (issue 32): NULL or 'anyone', 'admins', or
    # 'role:<id>' (holders of that role; admins and game managers always may).
    """
    ALTER TABLE discord_guild_settings ADD COLUMN event_creators TEXT;
    """,
]
