-- Bot Arena server schema, version 1. Applied once, in one transaction, when
-- PRAGMA user_version is below 1 (see arena/server/src/store.rs).

CREATE TABLE users (
    id          INTEGER PRIMARY KEY,
    name        TEXT NOT NULL UNIQUE,
    -- SHA-256 of the token: the token itself is shown once and never stored.
    token_hash  BLOB NOT NULL UNIQUE,
    admin       INTEGER NOT NULL DEFAULT 0,
    created     INTEGER NOT NULL
);

-- Uploaded modules, content-addressed: a re-upload of the same bytes is stored once.
CREATE TABLE modules (
    sha256  TEXT PRIMARY KEY,
    wasm    BLOB NOT NULL
);

CREATE TABLE bots (
    id       INTEGER PRIMARY KEY,
    owner    INTEGER NOT NULL REFERENCES users(id),
    name     TEXT NOT NULL UNIQUE,
    active   INTEGER NOT NULL DEFAULT 1,
    created  INTEGER NOT NULL
);

-- Every accepted upload of a bot is a version; old versions keep their games.
CREATE TABLE versions (
    id       INTEGER PRIMARY KEY,
    bot      INTEGER NOT NULL REFERENCES bots(id),
    number   INTEGER NOT NULL,
    sha256   TEXT NOT NULL REFERENCES modules(sha256),
    -- JSON list of the modes the check found the bot plays without faults.
    modes    TEXT NOT NULL,
    -- The check report (JSON), as `arena check --json` prints it.
    report   TEXT NOT NULL,
    created  INTEGER NOT NULL,
    UNIQUE (bot, number)
);

-- Replays, content-addressed by the SHA-256 of their JSON, deflated.
CREATE TABLE replays (
    sha256    TEXT PRIMARY KEY,
    deflated  BLOB NOT NULL
);

-- Ladder work: a seat-swapped pair of games on one seed. A job stays here until its second
-- game is committed (in the same transaction), so a restart replays exactly what is missing.
CREATE TABLE jobs (
    -- AUTOINCREMENT: a finished job's id (which games refer to) is never reused.
    id       INTEGER PRIMARY KEY AUTOINCREMENT,
    mode     TEXT NOT NULL,
    seed     INTEGER NOT NULL,
    a        INTEGER NOT NULL REFERENCES versions(id),
    b        INTEGER NOT NULL REFERENCES versions(id),
    created  INTEGER NOT NULL
);

CREATE TABLE tournaments (
    id        INTEGER PRIMARY KEY,
    name      TEXT NOT NULL,
    -- The tournament file as run (with the submitted bots appended).
    config    TEXT NOT NULL,
    status    TEXT NOT NULL,       -- running, done, failed
    error     TEXT,
    -- report::Report as JSON, and the text tables the CLI prints.
    report    TEXT,
    tables    TEXT,
    svg       TEXT,
    created   INTEGER NOT NULL
);

CREATE TABLE games (
    id          INTEGER PRIMARY KEY,
    mode        TEXT NOT NULL,
    seed        INTEGER NOT NULL,
    -- The ladder job and which of its two games (0: a in seat 0, 1: swapped).
    job         INTEGER,
    swap        INTEGER,
    seat0       INTEGER NOT NULL REFERENCES versions(id),
    seat1       INTEGER NOT NULL REFERENCES versions(id),
    winner      INTEGER,           -- 0, 1, NULL = draw
    reason      TEXT NOT NULL,
    turns       INTEGER NOT NULL,
    faults0     INTEGER NOT NULL,
    faults1     INTEGER NOT NULL,
    -- [SeatOutcome; 2] as JSON.
    seats       TEXT NOT NULL,
    replay      TEXT NOT NULL REFERENCES replays(sha256),
    created     INTEGER NOT NULL,
    UNIQUE (job, swap)
);
CREATE INDEX games_mode ON games (mode, id);
CREATE INDEX games_seat0 ON games (seat0, id);
CREATE INDEX games_seat1 ON games (seat1, id);

-- A version's ladder rating after the games of its mode numbered up to `games`.
CREATE TABLE rating_history (
    mode     TEXT NOT NULL,
    version  INTEGER NOT NULL REFERENCES versions(id),
    games    INTEGER NOT NULL,
    elo      REAL NOT NULL,
    PRIMARY KEY (mode, version, games)
);
