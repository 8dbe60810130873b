-- A size is published as soon as it is complete, while larger sizes of the same run are still
-- being computed, and a run can end with sizes half done (a time window, a crash). So the rows of a
-- size computed for the first time, written straight into the stored tables chunk by chunk, must
-- stay out of sight until the size has its board_summary row: the class table becomes
-- stored_fundamental, and fundamental_solution, solution and solution_cell become views that show
-- published sizes only. (A published size being recomputed is still built in the staging tables.)

DROP VIEW solution_cell;
DROP VIEW solution;
ALTER TABLE fundamental_solution RENAME TO stored_fundamental;

CREATE VIEW fundamental_solution AS
SELECT f.n, f.class_ordinal, f.placement, f.orbit_size, f.symmetry
FROM stored_fundamental f
WHERE EXISTS (SELECT 1 FROM board_summary b WHERE b.n = f.n);

CREATE VIEW solution AS
SELECT s.n, s.ordinal, s.placement, f.class_ordinal, f.orbit_size, f.symmetry
FROM stored_solution s
JOIN stored_fundamental f ON f.n = s.n AND f.placement = s.representative
WHERE EXISTS (SELECT 1 FROM board_summary b WHERE b.n = s.n AND b.stored = 'ALL');

CREATE VIEW solution_cell AS
SELECT t.n, t.image_row AS queen_row, t.image_column AS queen_column, s.ordinal
FROM square_symmetry t
JOIN fundamental_cell c ON c.n = t.n AND c.queen_row = t.source_row AND c.queen_column = t.source_column
JOIN stored_fundamental f ON f.n = c.n AND f.class_ordinal = c.class_ordinal
JOIN stored_solution s ON s.n = f.n AND s.representative = f.placement AND s.transform = t.transform
WHERE EXISTS (SELECT 1 FROM board_summary b WHERE b.n = t.n AND b.stored = 'ALL');

COMMENT ON TABLE stored_fundamental IS 'Class representatives as stored, published or not; read through the fundamental_solution view';
COMMENT ON VIEW fundamental_solution IS 'One row per symmetry class of each published size: its representative, the lexicographically smallest member';
COMMENT ON COLUMN fundamental_solution.class_ordinal IS 'Class number, in lexicographic order of the representatives';
COMMENT ON COLUMN fundamental_solution.placement IS 'The representative: 1-based columns, top row first';
COMMENT ON COLUMN fundamental_solution.orbit_size IS 'Members of the class: 1, 2, 4 or 8';
COMMENT ON COLUMN fundamental_solution.symmetry IS 'ROT90, ROT180 or NONE';
COMMENT ON VIEW solution IS 'Every solution of the published sizes stored at level ALL, with its rank and class';
COMMENT ON COLUMN solution.ordinal IS '1-based lexicographic rank among the solutions of size n (No. 1 of n = 8 is 1 5 8 6 3 7 2 4)';
COMMENT ON COLUMN solution.placement IS '1-based column of each row''s queen, top row first, space separated';
COMMENT ON COLUMN solution.class_ordinal IS 'The class (fundamental_solution.class_ordinal)';
COMMENT ON COLUMN solution.orbit_size IS 'Members of the class: 1, 2, 4 or 8';
COMMENT ON COLUMN solution.symmetry IS 'ROT90, ROT180 or NONE';
COMMENT ON TABLE stored_solution IS 'Every solution of the sizes stored at level ALL, published or not; read through the solution view';
COMMENT ON VIEW solution_cell IS 'One row per queen of every published solution: WHERE n = ? AND queen_row = ? AND queen_column = ?';
COMMENT ON COLUMN solution_cell.queen_row IS 'Row of the queen, 1 = top';
COMMENT ON COLUMN solution_cell.queen_column IS 'Column of the queen, 1 = left';
COMMENT ON COLUMN solution_cell.ordinal IS 'The solution (solution.ordinal of size n)';

-- Counting keeps the result of every finished work unit, so a run that ends early (a closed
-- window, a crash, a lost worker) loses at most the units in progress. How a counted size is split
-- into partitions is fixed when it is first planned and kept until it is published, together with
-- the fingerprint of the engine's list of work units: a build whose list differs must not add to it.
DROP TABLE count_partition;

CREATE TABLE count_plan (
    n                INTEGER     NOT NULL PRIMARY KEY CHECK (n BETWEEN 1 AND 32),
    work_units       INTEGER     NOT NULL CHECK (work_units >= 1),
    unit_fingerprint VARCHAR(64) NOT NULL,
    partitions       INTEGER     NOT NULL CHECK (partitions >= 1),
    replicas         SMALLINT    NOT NULL CHECK (replicas IN (1, 2)),
    planned_at       TIMESTAMP WITH TIME ZONE NOT NULL
);

-- replica 1 is every unit's count; sizes without a published value to check against are counted
-- twice in cluster mode (replica 2 by another worker) and published only when both agree.
CREATE TABLE count_unit (
    n                     INTEGER      NOT NULL,
    unit_index            INTEGER      NOT NULL CHECK (unit_index >= 0),
    replica               SMALLINT     NOT NULL CHECK (replica IN (1, 2)),
    total_solutions       BIGINT       NOT NULL CHECK (total_solutions >= 0),
    fundamental_solutions BIGINT       NOT NULL CHECK (fundamental_solutions >= 0),
    rot90_classes         BIGINT       NOT NULL CHECK (rot90_classes >= 0),
    rot180_classes        BIGINT       NOT NULL CHECK (rot180_classes >= 0),
    asymmetric_classes    BIGINT       NOT NULL CHECK (asymmetric_classes >= 0),
    elapsed_ms            BIGINT       NOT NULL CHECK (elapsed_ms >= 0),
    counted_by            VARCHAR(200) NOT NULL,
    step_execution_id     BIGINT,
    computed_at           TIMESTAMP WITH TIME ZONE NOT NULL,
    CONSTRAINT count_unit_pk PRIMARY KEY (n, unit_index, replica),
    CONSTRAINT count_unit_plan_fk FOREIGN KEY (n) REFERENCES count_plan (n) ON DELETE CASCADE
);

-- What each run published (a restarted run never publishes a size twice), and what a run was
-- given: when it started, until when it may take new work, which process manages it.
CREATE TABLE run_publication (
    job_execution_id BIGINT  NOT NULL,
    n                INTEGER NOT NULL CHECK (n BETWEEN 1 AND 32),
    published_at     TIMESTAMP WITH TIME ZONE NOT NULL,
    CONSTRAINT run_publication_pk PRIMARY KEY (job_execution_id, n),
    CONSTRAINT run_publication_execution_fk FOREIGN KEY (job_execution_id)
        REFERENCES batch_job_execution (job_execution_id)
);

CREATE TABLE run_control (
    job_execution_id BIGINT       NOT NULL PRIMARY KEY,
    manager          VARCHAR(200) NOT NULL,
    started_at       TIMESTAMP WITH TIME ZONE NOT NULL,
    heartbeat_at     TIMESTAMP WITH TIME ZONE NOT NULL,
    deadline         TIMESTAMP WITH TIME ZONE,
    window_closed    BOOLEAN      NOT NULL DEFAULT FALSE,
    CONSTRAINT run_control_execution_fk FOREIGN KEY (job_execution_id)
        REFERENCES batch_job_execution (job_execution_id)
);

COMMENT ON TABLE count_plan IS 'How each counted size that is not published yet is split: work units, their fingerprint, partitions';
COMMENT ON TABLE count_unit IS 'The counts of each finished work unit of a counted size, until the size is published';
COMMENT ON COLUMN count_unit.counted_by IS 'Who counted it: local, or the cluster worker (host:pid)';
COMMENT ON TABLE run_publication IS 'The sizes each run (job execution) published';
COMMENT ON TABLE run_control IS 'Per run: its manager, heartbeat and the end of its time window (deadline)';
COMMENT ON COLUMN run_control.window_closed IS 'The run stopped because its time window closed; the next run goes on';
