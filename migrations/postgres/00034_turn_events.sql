-- +goose Up
-- A stored turn while it runs: the replica running it renews beat (unix
-- ms) while it lives, so a replica starting up, or sweeping, marks only the
-- answers whose replica is gone. watched is when a client on any replica
-- last followed a detached turn; stop_requested is Stop asked on another
-- replica; ended is when it ended (0 while running). Rows and their events
-- go some minutes after the end: the stored message is the truth.
CREATE TABLE running_turns (
    message_id      BIGINT  PRIMARY KEY,
    user_id         BIGINT  NOT NULL,
    conversation_id BIGINT  NOT NULL,
    replica         TEXT    NOT NULL,
    detached        BOOLEAN NOT NULL DEFAULT FALSE,
    beat            BIGINT  NOT NULL,
    watched         BIGINT  NOT NULL DEFAULT 0,
    stop_requested  BOOLEAN NOT NULL DEFAULT FALSE,
    ended           BIGINT  NOT NULL DEFAULT 0
);
CREATE INDEX running_turns_replica ON running_turns(replica, ended);
CREATE INDEX running_turns_user ON running_turns(user_id, ended);

-- A detached turn's events in order (id 1, 2, …), as its SSE stream sent
-- them: any replica follows the turn from here.
CREATE TABLE turn_events (
    message_id BIGINT  NOT NULL,
    id         INTEGER NOT NULL,
    name       TEXT    NOT NULL,
    data       TEXT    NOT NULL,
    PRIMARY KEY (message_id, id)
);

-- +goose Down
DROP TABLE turn_events;
DROP TABLE running_turns;
