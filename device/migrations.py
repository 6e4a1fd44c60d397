"""The database schema, one migration per version (``PRAGMA user_version``).

Append a migration to change the schema; never edit one that has shipped. Each runs
in one transaction, so an upgrade interrupted by a power cut leaves the old version.
"""

MIGRATIONS: tuple[str, ...] = (
    # 1: saved games as their seed, options and input log; high scores.
    """
    CREATE TABLE games (
        id INTEGER PRIMARY KEY,
        game TEXT NOT NULL,
        name TEXT NOT NULL DEFAULT '',
        seed INTEGER NOT NULL,
        options TEXT NOT NULL DEFAULT '{}',
        created REAL NOT NULL,
        updated REAL NOT NULL,
        over INTEGER NOT NULL DEFAULT 0,
        result TEXT
    );
    CREATE TABLE inputs (
        game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
        seq INTEGER NOT NULL,
        input TEXT NOT NULL,
        at REAL NOT NULL,
        PRIMARY KEY (game_id, seq)
    );
    CREATE TABLE scores (
        id INTEGER PRIMARY KEY,
        game TEXT NOT NULL,
        mode TEXT NOT NULL DEFAULT '',
        party TEXT NOT NULL DEFAULT '',
        heroes TEXT NOT NULL DEFAULT '',
        score INTEGER NOT NULL,
        detail TEXT NOT NULL DEFAULT '{}',
        at REAL NOT NULL,
        game_id INTEGER REFERENCES games(id) ON DELETE SET NULL
    );
    CREATE INDEX scores_by_game ON scores (game, mode, score DESC);
    """,
    # 2: dice corrected by touch, with the frame they were read from (a PNG under
    # <data_dir>/corrections/), so the reader can be improved from real mistakes.
    """
    CREATE TABLE corrections (
        id INTEGER PRIMARY KEY,
        at REAL NOT NULL,
        game TEXT NOT NULL DEFAULT '',
        game_id INTEGER REFERENCES games(id) ON DELETE SET NULL,
        read TEXT NOT NULL,
        corrected TEXT NOT NULL,
        frame TEXT NOT NULL DEFAULT ''
    );
    """,
)

LATEST = len(MIGRATIONS)
