-- The queens of every stored solution, one row per queen, so that "the solutions with a queen in
-- row r, column c" is an index range scan instead of a scan of every placement of the size:
--   SELECT s.* FROM solution_cell c JOIN solution s ON s.n = c.n AND s.ordinal = c.ordinal
--   WHERE c.n = 8 AND c.queen_row = 4 AND c.queen_column = 2
-- Written with the solutions, in the same chunk transaction; rows of sizes stored before this
-- table existed are filled in by the Java migration V7 (src/main/java/db/migration).
CREATE TABLE solution_cell (
    n            INTEGER  NOT NULL CHECK (n BETWEEN 1 AND 32),
    queen_row    SMALLINT NOT NULL CHECK (queen_row BETWEEN 1 AND 32),
    queen_column SMALLINT NOT NULL CHECK (queen_column BETWEEN 1 AND 32),
    ordinal      BIGINT   NOT NULL CHECK (ordinal >= 1),
    CONSTRAINT solution_cell_pk PRIMARY KEY (n, queen_row, queen_column, ordinal),
    CONSTRAINT solution_cell_on_board_ck CHECK (queen_row <= n AND queen_column <= n)
);

-- The cells of a size being recomputed, swapped in with staged_solution.
CREATE TABLE staged_solution_cell (
    n            INTEGER  NOT NULL CHECK (n BETWEEN 1 AND 32),
    queen_row    SMALLINT NOT NULL CHECK (queen_row BETWEEN 1 AND 32),
    queen_column SMALLINT NOT NULL CHECK (queen_column BETWEEN 1 AND 32),
    ordinal      BIGINT   NOT NULL CHECK (ordinal >= 1),
    CONSTRAINT staged_solution_cell_pk PRIMARY KEY (n, queen_row, queen_column, ordinal),
    CONSTRAINT staged_solution_cell_on_board_ck CHECK (queen_row <= n AND queen_column <= n)
);

COMMENT ON TABLE solution_cell IS 'One row per queen of every stored solution: the index for "a queen in row r, column c"';
COMMENT ON COLUMN solution_cell.n IS 'Board size';
COMMENT ON COLUMN solution_cell.queen_row IS 'Row of the queen, 1 = top';
COMMENT ON COLUMN solution_cell.queen_column IS 'Column of the queen, 1 = left';
COMMENT ON COLUMN solution_cell.ordinal IS 'The solution (solution.ordinal of size n)';
COMMENT ON TABLE staged_solution_cell IS 'Cells of a size being recomputed, swapped into solution_cell when complete';
