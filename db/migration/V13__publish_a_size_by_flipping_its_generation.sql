-- Publishing a size no longer copies its rows. Every row of stored_fundamental, stored_solution
-- and fundamental_cell belongs to a generation: one computation of one size. A size is computed
-- straight into these tables under a new generation (its rows written once, chunk by chunk), and
-- published by writing its board_summary row with that generation in one small transaction; the
-- views show the published generation only, so a reader sees the old rows or the new ones, never
-- a mix. The replaced generation is deleted afterwards, chunk by chunk. The staging tables, which
-- held a recomputed size until one transaction copied it into these tables, are dropped.
--
-- On H2, each ALTER TABLE ... ADD COLUMN below copies its table; the run that migrates compacts
-- the file when it ends (docs/h2.md). On PostgreSQL, adding a column with a constant default
-- rewrites no table, and the keys are new indexes.

DROP VIEW solution_cell;
DROP VIEW solution;
DROP VIEW fundamental_solution;

-- Generations are numbered across all sizes and never reused; the rows stored so far are
-- generation 1 (published or being computed), a size being recomputed in the staging tables
-- becomes generation 2.
CREATE SEQUENCE solution_generation_seq START WITH 3;

ALTER TABLE board_summary ADD COLUMN generation INTEGER;
UPDATE board_summary SET generation = 1 WHERE stored <> 'COUNT';
ALTER TABLE board_summary ADD CONSTRAINT board_summary_generation_ck
    CHECK ((stored = 'COUNT' AND generation IS NULL) OR (stored <> 'COUNT' AND generation IS NOT NULL));

-- The generation each size is being computed into, until it is published (at most one per size).
CREATE TABLE building_generation (
    n          INTEGER NOT NULL PRIMARY KEY CHECK (n BETWEEN 1 AND 32),
    generation INTEGER NOT NULL,
    started_at TIMESTAMP WITH TIME ZONE NOT NULL,
    CONSTRAINT building_generation_uq UNIQUE (generation)
);

ALTER TABLE stored_fundamental ADD COLUMN generation INTEGER DEFAULT 1 NOT NULL;
ALTER TABLE stored_solution ADD COLUMN generation INTEGER DEFAULT 1 NOT NULL;
ALTER TABLE fundamental_cell ADD COLUMN generation INTEGER DEFAULT 1 NOT NULL;
ALTER TABLE stored_fundamental ALTER COLUMN generation DROP DEFAULT;
ALTER TABLE stored_solution ALTER COLUMN generation DROP DEFAULT;
ALTER TABLE fundamental_cell ALTER COLUMN generation DROP DEFAULT;

-- Sizes with rows and no board_summary row were being computed when the database was migrated.
INSERT INTO building_generation (n, generation, started_at)
SELECT r.n, 1, CURRENT_TIMESTAMP FROM (
    SELECT n FROM stored_fundamental UNION SELECT n FROM stored_solution UNION SELECT n FROM fundamental_cell) r
WHERE NOT EXISTS (SELECT 1 FROM board_summary b WHERE b.n = r.n);

-- Every key gets the generation right after the size: two generations of a size (the published
-- one and the one being computed) hold the same ordinals, classes and placements.
ALTER TABLE stored_solution DROP CONSTRAINT stored_solution_class_fk;
DROP INDEX stored_solution_class_ix;
ALTER TABLE stored_solution DROP CONSTRAINT stored_solution_placement_uq;
ALTER TABLE stored_solution DROP CONSTRAINT stored_solution_pk;
ALTER TABLE stored_fundamental DROP CONSTRAINT fundamental_solution_placement_uq;
ALTER TABLE stored_fundamental DROP CONSTRAINT fundamental_solution_pk;
ALTER TABLE fundamental_cell DROP CONSTRAINT fundamental_cell_pk;

ALTER TABLE stored_fundamental ADD CONSTRAINT stored_fundamental_pk PRIMARY KEY (n, generation, class_ordinal);
ALTER TABLE stored_fundamental ADD CONSTRAINT stored_fundamental_placement_uq UNIQUE (n, generation, placement);
ALTER TABLE stored_solution ADD CONSTRAINT stored_solution_pk PRIMARY KEY (n, generation, ordinal);
ALTER TABLE stored_solution ADD CONSTRAINT stored_solution_placement_uq UNIQUE (n, generation, placement);
-- The solutions of one class (and symmetry); H2 ties the foreign key to this index.
CREATE INDEX stored_solution_class_ix ON stored_solution (n, generation, representative, transform);
ALTER TABLE stored_solution ADD CONSTRAINT stored_solution_class_fk FOREIGN KEY (n, generation, representative)
    REFERENCES stored_fundamental (n, generation, placement);
-- Found by square first (the solution_cell view), then deleted by square and generation.
ALTER TABLE fundamental_cell ADD CONSTRAINT fundamental_cell_pk
    PRIMARY KEY (n, queen_row, queen_column, generation, class_ordinal);

-- A published size being recomputed in the staging tables goes on as generation 2.
INSERT INTO building_generation (n, generation, started_at)
SELECT DISTINCT s.n, 2, CURRENT_TIMESTAMP FROM staged_fundamental s
WHERE EXISTS (SELECT 1 FROM board_summary b WHERE b.n = s.n);
INSERT INTO stored_fundamental (n, generation, class_ordinal, placement, orbit_size, symmetry)
SELECT s.n, 2, s.class_ordinal, s.placement, s.orbit_size, s.symmetry FROM staged_fundamental s
WHERE EXISTS (SELECT 1 FROM building_generation g WHERE g.n = s.n AND g.generation = 2);
INSERT INTO stored_solution (n, generation, ordinal, placement, representative, transform)
SELECT s.n, 2, s.ordinal, s.placement, s.representative, s.transform FROM staged_solution s
WHERE EXISTS (SELECT 1 FROM building_generation g WHERE g.n = s.n AND g.generation = 2);
INSERT INTO fundamental_cell (n, queen_row, queen_column, generation, class_ordinal)
SELECT s.n, s.queen_row, s.queen_column, 2, s.class_ordinal FROM staged_fundamental_cell s
WHERE EXISTS (SELECT 1 FROM building_generation g WHERE g.n = s.n AND g.generation = 2);

DROP TABLE staged_fundamental_cell;
DROP TABLE staged_solution;
DROP TABLE staged_fundamental;

CREATE VIEW fundamental_solution AS
SELECT f.n, f.class_ordinal, f.placement, f.orbit_size, f.symmetry
FROM stored_fundamental f
WHERE EXISTS (SELECT 1 FROM board_summary b WHERE b.n = f.n AND b.generation = f.generation);

CREATE VIEW solution AS
SELECT s.n, s.ordinal, s.placement, f.class_ordinal, f.orbit_size, f.symmetry
FROM stored_solution s
JOIN stored_fundamental f ON f.n = s.n AND f.generation = s.generation AND f.placement = s.representative
WHERE EXISTS (SELECT 1 FROM board_summary b WHERE b.n = s.n AND b.generation = s.generation AND b.stored = 'ALL');

CREATE VIEW solution_cell AS
SELECT t.n, t.image_row AS queen_row, t.image_column AS queen_column, s.ordinal
FROM square_symmetry t
JOIN fundamental_cell c ON c.n = t.n AND c.queen_row = t.source_row AND c.queen_column = t.source_column
JOIN stored_fundamental f ON f.n = c.n AND f.generation = c.generation AND f.class_ordinal = c.class_ordinal
JOIN stored_solution s ON s.n = f.n AND s.generation = f.generation AND s.representative = f.placement
    AND s.transform = t.transform
WHERE EXISTS (SELECT 1 FROM board_summary b WHERE b.n = t.n AND b.generation = c.generation AND b.stored = 'ALL');

COMMENT ON COLUMN board_summary.generation IS 'The generation of the size''s rows that is published (empty for COUNT)';
COMMENT ON TABLE building_generation IS 'The generation each size is being computed into, until it is published';
COMMENT ON TABLE stored_fundamental IS 'Class representatives of every generation; read through the fundamental_solution view';
COMMENT ON COLUMN stored_fundamental.generation IS 'One computation of the size: published (board_summary.generation), being computed (building_generation) or being deleted';
COMMENT ON TABLE stored_solution IS 'Every solution of every generation stored at level ALL; read through the solution view';
COMMENT ON COLUMN stored_solution.generation IS 'One computation of the size: published (board_summary.generation), being computed (building_generation) or being deleted';
COMMENT ON TABLE fundamental_cell IS 'One row per queen of each representative of every generation stored at level ALL';
COMMENT ON COLUMN fundamental_cell.generation IS 'The generation of the representative (stored_fundamental.generation)';
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
COMMENT ON VIEW solution_cell IS 'One row per queen of every published solution: WHERE n = ? AND queen_row = ? AND queen_column = ?';
COMMENT ON COLUMN solution_cell.queen_row IS 'Row of the queen, 1 = top';
COMMENT ON COLUMN solution_cell.queen_column IS 'Column of the queen, 1 = left';
COMMENT ON COLUMN solution_cell.ordinal IS 'The solution (solution.ordinal of size n)';
