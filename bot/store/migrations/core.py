"""The core's tables: games, seats, the action log, who played, timers and meta."""

from __future__ import annotations

SQLITE: list[str] = [
    # 1: the tables as the global list left them at its version 10 (see legacy.py).
    """
    CREATE TABLE games (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        game_name TEXT NOT NULL,
        config TEXT NOT NULL,
        players INTEGER NOT NULL DEFAULT 0,
        max_players INTEGER NOT NULL DEFAULT 5,
        seed INTEGER NOT NULL,
        status TEXT NOT NULL,
        seat_order TEXT NOT NULL DEFAULT 'shuffle',
        turn_hours REAL,
        timeout_policy TEXT NOT NULL DEFAULT 'ai',
        turn_started_at REAL,
        snapshot TEXT,
        seq INTEGER NOT NULL DEFAULT 0,
        broken_reason TEXT,
        created_at REAL NOT NULL,
        updated_at REAL NOT NULL,
        creator TEXT,
        space TEXT,
        reminder_hours REAL,
        remind_by TEXT NOT NULL DEFAULT 'thread',
        number INTEGER
    );
    CREATE INDEX games_status ON games(status);
    CREATE INDEX games_space ON games(space);
    CREATE UNIQUE INDEX games_space_number ON games(ifnull(space, ''), number);
    CREATE TABLE seats (
        game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
        seat INTEGER NOT NULL,
        ai_kind TEXT,
        name TEXT NOT NULL,
        away_until REAL,
        player TEXT,
        former_player TEXT,
        claimant TEXT,
        PRIMARY KEY (game_id, seat)
    );
    CREATE INDEX seats_player ON seats(player);
    CREATE TABLE actions (
        game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
        seq INTEGER NOT NULL,
        seat INTEGER NOT NULL,
        action TEXT NOT NULL,
        action_json TEXT NOT NULL,
        created_at REAL NOT NULL,
        player TEXT,
        public TEXT,
        PRIMARY KEY (game_id, seq)
    );
    CREATE TABLE game_players (
        game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
        player TEXT NOT NULL,
        name TEXT NOT NULL,
        PRIMARY KEY (game_id, player)
    );
    CREATE TABLE schedule (
        game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
        kind TEXT NOT NULL,
        due_at REAL NOT NULL,
        seq INTEGER NOT NULL,
        PRIMARY KEY (game_id, kind)
    );
    CREATE INDEX schedule_due ON schedule(due_at);
    CREATE TABLE meta (
        key TEXT PRIMARY KEY,
        value TEXT NOT NULL
    );
    """,
]
