"""The global migration list used until the storage port (schema versions 1 to 10), frozen.

Before owners kept their own lists, every table was migrated by this one list, and some steps
moved data between owners (step 2 moved Discord's routing out of the core's ``games`` row), so
it cannot be split after the fact. A database below version 10 is brought to 10 by it, exactly
as the release that wrote it would have; at 10 every owner's tables are exactly the first entry
of its own list (:mod:`bot.store.migrations.core`, ``tournament``, ``discord``; a test compares
the two schemas), and the owners' lists take over from there. Never edit or append.
"""

from __future__ import annotations

# Each entry migrates the schema from version i to i+1.
SQLITE: list[str] = [
    """
    CREATE TABLE games (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        game_name TEXT NOT NULL,
        config TEXT NOT NULL,
        players INTEGER NOT NULL DEFAULT 0,
        max_players INTEGER NOT NULL DEFAULT 5,
        seed INTEGER NOT NULL,
        guild_id INTEGER,
        channel_id INTEGER,
        thread_id INTEGER,
        creator_id INTEGER,
        status TEXT NOT NULL,
        seat_order TEXT NOT NULL DEFAULT 'shuffle',
        turn_hours REAL,
        timeout_policy TEXT NOT NULL DEFAULT 'ai',
        turn_started_at REAL,
        snapshot TEXT,
        seq INTEGER NOT NULL DEFAULT 0,
        broken_reason TEXT,
        created_at REAL NOT NULL,
        updated_at REAL NOT NULL
    );
    CREATE INDEX games_status ON games(status);
    CREATE TABLE seats (
        game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
        seat INTEGER NOT NULL,
        user_id INTEGER,
        ai_kind TEXT,
        name TEXT NOT NULL,
        away_until REAL,
        PRIMARY KEY (game_id, seat)
    );
    CREATE INDEX seats_user ON seats(user_id);
    CREATE TABLE actions (
        game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
        seq INTEGER NOT NULL,
        seat INTEGER NOT NULL,
        user_id INTEGER,
        action TEXT NOT NULL,
        action_json TEXT NOT NULL,
        created_at REAL NOT NULL,
        PRIMARY KEY (game_id, seq)
    );
    CREATE TABLE messages (
        game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
        seq INTEGER NOT NULL,
        channel_id INTEGER NOT NULL,
        message_id INTEGER NOT NULL,
        kind TEXT NOT NULL DEFAULT 'board',
        created_at REAL NOT NULL,
        PRIMARY KEY (game_id, message_id)
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
    # 2: front-end neutral core. Players are references ("discord:1234"), a game belongs to a
    # space (the community it was created in, "discord:guild:5678"), and Discord's routing (guild,
    # channel, thread, posted messages) moves to the Discord adapter's own tables.
    """
    ALTER TABLE seats ADD COLUMN player TEXT;
    UPDATE seats SET player = 'discord:' || user_id WHERE user_id IS NOT NULL;
    DROP INDEX seats_user;
    ALTER TABLE seats DROP COLUMN user_id;
    CREATE INDEX seats_player ON seats(player);
    ALTER TABLE actions ADD COLUMN player TEXT;
    UPDATE actions SET player = 'discord:' || user_id WHERE user_id IS NOT NULL;
    ALTER TABLE actions DROP COLUMN user_id;
    ALTER TABLE games ADD COLUMN creator TEXT;
    UPDATE games SET creator = 'discord:' || creator_id WHERE creator_id IS NOT NULL;
    ALTER TABLE games ADD COLUMN space TEXT;
    UPDATE games SET space = 'discord:guild:' || guild_id WHERE guild_id IS NOT NULL;
    CREATE INDEX games_space ON games(space);
    CREATE TABLE discord_routes (
        game_id INTEGER PRIMARY KEY REFERENCES games(id) ON DELETE CASCADE,
        guild_id INTEGER,
        channel_id INTEGER,
        thread_id INTEGER
    );
    INSERT INTO discord_routes (game_id, guild_id, channel_id, thread_id)
        SELECT id, guild_id, channel_id, thread_id FROM games
        WHERE guild_id IS NOT NULL OR channel_id IS NOT NULL OR thread_id IS NOT NULL;
    CREATE INDEX discord_routes_thread ON discord_routes(thread_id);
    CREATE INDEX discord_routes_channel ON discord_routes(channel_id);
    ALTER TABLE games DROP COLUMN creator_id;
    ALTER TABLE games DROP COLUMN guild_id;
    ALTER TABLE games DROP COLUMN channel_id;
    ALTER TABLE games DROP COLUMN thread_id;
    ALTER TABLE messages RENAME TO discord_messages;
    """,
    # 3: a started game keeps the rules it started with. The engine's resolved config (every setting
    # with the default of its day) is pinned in the row, so a later change of a default never
    # changes a running game or makes its log replay differently.
    """
    UPDATE games SET config = json_extract(snapshot, '$.config')
        WHERE snapshot IS NOT NULL AND json_type(snapshot, '$.config') = 'object';
    """,
    # 4: seats change hands. A seat remembers the person who last held it (``former_player``) and
    # who asked to take it back (``claimant``); every person who ever sat in a game keeps a name for
    # the move log (``game_players``); each move keeps the public sentence said when it was made
    # (``public``); games choose when and how their reminder comes.
    """
    ALTER TABLE seats ADD COLUMN former_player TEXT;
    ALTER TABLE seats ADD COLUMN claimant TEXT;
    CREATE TABLE game_players (
        game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
        player TEXT NOT NULL,
        name TEXT NOT NULL,
        PRIMARY KEY (game_id, player)
    );
    INSERT OR IGNORE INTO game_players (game_id, player, name)
        SELECT game_id, player, name FROM seats WHERE player IS NOT NULL;
    ALTER TABLE actions ADD COLUMN public TEXT;
    ALTER TABLE games ADD COLUMN reminder_hours REAL;
    ALTER TABLE games ADD COLUMN remind_by TEXT NOT NULL DEFAULT 'thread';
    """,
    # 5: the Discord adapter's hand kept in a direct message, opt-in per player: who asked for it,
    # and the one message per (game, player) that the bot edits instead of posting new ones.
    """
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
    """,
    # 6: per-server settings of the Discord adapter: the optional "game manager" role whose
    # holders may abort, kick, replace and start that server's games like its admins.
    """
    CREATE TABLE discord_guild_settings (
        guild_id INTEGER PRIMARY KEY,
        manager_role_id INTEGER
    );
    """,
    # 7: community tournaments. An event belongs to the space it was created in; its tables are
    # ordinary games (``game_id``), so results are read from the games' final scores. Corrections are
    # kept beside the engine's result with their reasons, and every rating change is kept as history.
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
    CREATE TABLE tournament_discord (
        event_id INTEGER PRIMARY KEY REFERENCES tournament_events(id) ON DELETE CASCADE,
        guild_id INTEGER,
        channel_id INTEGER,
        status_message_id INTEGER
    );
    """,
    # 8: game numbers people type and read are counted per space (each server from 1; games made
    # outside any server, in the terminal, count among themselves), so a number reveals nothing
    # about other servers and cannot be walked through to find their games. The row id stays the
    # internal key. Existing games are numbered per space in the order they were created.
    """
    ALTER TABLE games ADD COLUMN number INTEGER;
    UPDATE games SET number = (
        SELECT numbered.n FROM (
            SELECT id, ROW_NUMBER() OVER (PARTITION BY space ORDER BY created_at, id) AS n FROM games
        ) AS numbered WHERE numbered.id = games.id
    );
    CREATE UNIQUE INDEX games_space_number ON games(ifnull(space, ''), number);
    """,
    # 9: a server's default language for its new games
    # (``/ttr language``); each game pins its own in its config.
    """
    ALTER TABLE discord_guild_settings ADD COLUMN language TEXT;
    """,
    # 10: whether a player lets other servers' cross-server leaderboards list them (``/profile
    # share:``); no row means no, so nobody appears outside their own servers unless they chose to.
    """
    CREATE TABLE rating_sharing (
        player TEXT PRIMARY KEY,
        shared INTEGER NOT NULL
    );
    """,
]

LAST = len(SQLITE)
