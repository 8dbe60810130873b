-- One run at a time, held in the data rather than in a database session: a session-level lock
-- (PostgreSQL's advisory lock) vanishes when the server restarts or fails over, while the run that
-- held it goes on. The lock is one row: who holds it, an epoch that grows by one with each holder,
-- and the holder's heartbeat (the database server's clock). A run takes the row when it is free, or
-- when its holder's heartbeat has stopped; every write that matters (a count's plan, a partition's
-- claim and each of its writes, a size's publication) checks, in its own transaction, that the
-- epoch it was started under is still the lock's. So a manager that lost the lock while it could
-- not reach the database writes nothing more, and two managers never write at once.
CREATE TABLE run_lock (
    lock_id      SMALLINT     NOT NULL PRIMARY KEY CHECK (lock_id = 1),
    holder       VARCHAR(200),
    epoch        BIGINT       NOT NULL CHECK (epoch >= 0),
    acquired_at  TIMESTAMP WITH TIME ZONE,
    heartbeat_at TIMESTAMP WITH TIME ZONE
);

INSERT INTO run_lock (lock_id, holder, epoch) VALUES (1, NULL, 0);

-- The epoch of the lock each run (job execution) was started under.
ALTER TABLE run_control ADD COLUMN lock_epoch BIGINT;

COMMENT ON TABLE run_lock IS 'The run lock: its holder (host:pid, empty when free), its epoch and the holder''s heartbeat';
COMMENT ON COLUMN run_lock.epoch IS 'Grows by one with each holder; a write of a run checks that the lock still has its epoch';
COMMENT ON COLUMN run_control.lock_epoch IS 'The epoch of the run lock the run was started under';
