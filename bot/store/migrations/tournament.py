"""Community tournaments' tables: events, registrations, rounds, tables, results, the rating
history and who lets cross-server leaderboards list them."""

from __future__ import annotations

SQLITE: list[str] = [
    # 1: the tables as the global list left them at its version 10 (see legacy.py).
    """
    CREATE TABLE tournament_events (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        space TEXT NOT NULL,
        name TEXT NOT NULL,
        creator TEXT NOT NULL,
        game_name TEXT NOT NULL,
        config TEXT NOT NULL,
        settings TEXT NOT NULL,
        seed INTEGER NOT NULL,
        status TEXT NOT NULL,
        round INTEGER NOT NULL DEFAULT 0,
        created_at REAL NOT NULL,
        updated_at REAL NOT NULL
    );
    CREATE INDEX tournament_events_space ON tournament_events(space, status);
    CREATE TABLE tournament_registrations (
        event_id INTEGER NOT NULL REFERENCES tournament_events(id) ON DELETE CASCADE,
        player TEXT NOT NULL,
        name TEXT NOT NULL,
        position INTEGER NOT NULL,
        state TEXT NOT NULL,
        checked_in INTEGER NOT NULL DEFAULT 0,
        joined_at REAL NOT NULL,
        PRIMARY KEY (event_id, player)
    );
    CREATE TABLE tournament_rounds (
        event_id INTEGER NOT NULL REFERENCES tournament_events(id) ON DELETE CASCADE,
        round INTEGER NOT NULL,
        stage TEXT NOT NULL,
        started_at REAL NOT NULL,
        deadline_at REAL,
        finished_at REAL,
        PRIMARY KEY (event_id, round)
    );
    CREATE TABLE tournament_tables (
        event_id INTEGER NOT NULL REFERENCES tournament_events(id) ON DELETE CASCADE,
        round INTEGER NOT NULL,
        table_no INTEGER NOT NULL,
        board TEXT NOT NULL,
        seats TEXT NOT NULL,
        stage TEXT NOT NULL,
        grp INTEGER,
        game_id INTEGER REFERENCES games(id),
        adjudicated INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (event_id, round, table_no)
    );
    CREATE UNIQUE INDEX tournament_tables_game ON tournament_tables(game_id);
    CREATE TABLE tournament_results (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        event_id INTEGER NOT NULL REFERENCES tournament_events(id) ON DELETE CASCADE,
        round INTEGER NOT NULL,
        table_no INTEGER NOT NULL,
        game_id INTEGER NOT NULL,
        result TEXT NOT NULL,
        correction_reason TEXT,
        corrected_by TEXT,
        created_at REAL NOT NULL
    );
    CREATE INDEX tournament_results_table ON tournament_results(event_id, round, table_no);
    CREATE TABLE tournament_ratings (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        space TEXT NOT NULL,
        event_id INTEGER NOT NULL REFERENCES tournament_events(id) ON DELETE CASCADE,
        game_id INTEGER NOT NULL,
        player TEXT NOT NULL,
        family TEXT NOT NULL,
        board TEXT,
        rank INTEGER NOT NULL,
        ai_takeover INTEGER NOT NULL,
        counted INTEGER NOT NULL,
        mu_before REAL NOT NULL,
        sigma_before REAL NOT NULL,
        games_before INTEGER NOT NULL,
        mu_after REAL NOT NULL,
        sigma_after REAL NOT NULL,
        games_after INTEGER NOT NULL,
        created_at REAL NOT NULL
    );
    CREATE INDEX tournament_ratings_space ON tournament_ratings(space, family);
    CREATE TABLE rating_sharing (
        player TEXT PRIMARY KEY,
        shared INTEGER NOT NULL
    );
    """,
]
