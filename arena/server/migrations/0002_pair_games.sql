-- Games per (mode, seat order): what the ladder's planner counts before every job. Kept up
-- to date in the transaction of each game, so planning reads one row per pair instead of
-- grouping every game of the mode.
CREATE TABLE pair_games (
    mode    TEXT NOT NULL,
    seat0   INTEGER NOT NULL REFERENCES versions(id),
    seat1   INTEGER NOT NULL REFERENCES versions(id),
    games   INTEGER NOT NULL,
    PRIMARY KEY (mode, seat0, seat1)
);
INSERT INTO pair_games (mode, seat0, seat1, games)
    SELECT mode, seat0, seat1, COUNT(*) FROM games GROUP BY mode, seat0, seat1;
