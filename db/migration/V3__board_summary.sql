-- One row per solved board size: the counts, how much of it is stored, and when it was computed.
CREATE TABLE board_summary (
    n                     INTEGER     NOT NULL PRIMARY KEY CHECK (n BETWEEN 1 AND 32),
    total_solutions       BIGINT      NOT NULL CHECK (total_solutions >= 0),
    fundamental_solutions BIGINT      NOT NULL CHECK (fundamental_solutions >= 0),
    rot90_classes         BIGINT      NOT NULL CHECK (rot90_classes >= 0),
    rot180_classes        BIGINT      NOT NULL CHECK (rot180_classes >= 0),
    asymmetric_classes    BIGINT      NOT NULL CHECK (asymmetric_classes >= 0),
    stored                VARCHAR(11) NOT NULL CHECK (stored IN ('ALL', 'FUNDAMENTAL', 'COUNT')),
    computed_at           TIMESTAMP WITH TIME ZONE NOT NULL,
    elapsed_ms            BIGINT      NOT NULL CHECK (elapsed_ms >= 0)
);
