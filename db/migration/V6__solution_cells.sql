-- An index for "the solutions with a queen in row r, column c" that costs one row per queen of
-- each class representative, not of each solution (8 times fewer): every stored solution is an
-- image of its class representative under one of the 8 symmetries of the square, and it has a
-- queen on a square exactly when its representative has one on the square that symmetry takes
-- there.
--   stored_solution.transform  the symmetry that maps the representative onto the solution
--   fundamental_cell           the queens of the representatives of the sizes stored at level ALL
--   square_symmetry            where each symmetry takes each square, for n = 1..32
--   solution_cell (view)       (n, queen_row, queen_column, ordinal) of every stored solution,
--                              found through the primary keys of the three
-- Rows and columns are 1-based, row 1 at the top. Symmetries are numbered 0 identity, 1 quarter
-- turn clockwise, 2 half turn, 3 quarter turn anticlockwise, 4 mirror left-right, 5 mirror
-- top-bottom, 6 main diagonal, 7 anti-diagonal.
ALTER TABLE stored_solution ADD COLUMN transform SMALLINT CHECK (transform BETWEEN 0 AND 7);
ALTER TABLE staged_solution ADD COLUMN transform SMALLINT CHECK (transform BETWEEN 0 AND 7);

-- The class index gets the transform too: the solutions of one class (WHERE n = ? AND
-- representative = ?), and of one class and symmetry. H2 ties the index to the foreign key, so
-- the key is dropped and added back around it.
ALTER TABLE stored_solution DROP CONSTRAINT stored_solution_class_fk;
DROP INDEX stored_solution_class_ix;
CREATE INDEX stored_solution_class_ix ON stored_solution (n, representative, transform);
ALTER TABLE stored_solution ADD CONSTRAINT stored_solution_class_fk FOREIGN KEY (n, representative)
    REFERENCES fundamental_solution (n, placement);

CREATE TABLE fundamental_cell (
    n             INTEGER  NOT NULL CHECK (n BETWEEN 1 AND 32),
    queen_row     SMALLINT NOT NULL CHECK (queen_row BETWEEN 1 AND 32),
    queen_column  SMALLINT NOT NULL CHECK (queen_column BETWEEN 1 AND 32),
    class_ordinal BIGINT   NOT NULL CHECK (class_ordinal >= 1),
    CONSTRAINT fundamental_cell_pk PRIMARY KEY (n, queen_row, queen_column, class_ordinal)
);

CREATE TABLE staged_fundamental_cell (
    n             INTEGER  NOT NULL CHECK (n BETWEEN 1 AND 32),
    queen_row     SMALLINT NOT NULL CHECK (queen_row BETWEEN 1 AND 32),
    queen_column  SMALLINT NOT NULL CHECK (queen_column BETWEEN 1 AND 32),
    class_ordinal BIGINT   NOT NULL CHECK (class_ordinal >= 1),
    CONSTRAINT staged_fundamental_cell_pk PRIMARY KEY (n, queen_row, queen_column, class_ordinal)
);

CREATE TABLE square_symmetry (
    n             INTEGER  NOT NULL CHECK (n BETWEEN 1 AND 32),
    image_row     SMALLINT NOT NULL,
    image_column  SMALLINT NOT NULL,
    transform     SMALLINT NOT NULL CHECK (transform BETWEEN 0 AND 7),
    source_row    SMALLINT NOT NULL,
    source_column SMALLINT NOT NULL,
    CONSTRAINT square_symmetry_pk PRIMARY KEY (n, image_row, image_column, transform)
);

CREATE VIEW solution_cell AS
SELECT t.n, t.image_row AS queen_row, t.image_column AS queen_column, s.ordinal
FROM square_symmetry t
JOIN fundamental_cell c ON c.n = t.n AND c.queen_row = t.source_row AND c.queen_column = t.source_column
JOIN fundamental_solution f ON f.n = c.n AND f.class_ordinal = c.class_ordinal
JOIN stored_solution s ON s.n = f.n AND s.representative = f.placement AND s.transform = t.transform;

COMMENT ON COLUMN stored_solution.transform IS 'Symmetry (0-7) that maps the representative onto this solution';
COMMENT ON TABLE fundamental_cell IS 'One row per queen of each representative of the sizes stored at level ALL';
COMMENT ON TABLE staged_fundamental_cell IS 'Cells of the representatives of a size being recomputed';
COMMENT ON TABLE square_symmetry IS 'Square (source_row, source_column) goes to (image_row, image_column) under symmetry transform';
COMMENT ON VIEW solution_cell IS 'One row per queen of every stored solution: WHERE n = ? AND queen_row = ? AND queen_column = ?';
COMMENT ON COLUMN solution_cell.queen_row IS 'Row of the queen, 1 = top';
COMMENT ON COLUMN solution_cell.queen_column IS 'Column of the queen, 1 = left';
COMMENT ON COLUMN solution_cell.ordinal IS 'The solution (solution.ordinal of size n)';
