-- The solutions of the board sizes stored with level ALL, and the class representatives.
--
-- fundamental_solution: one row per symmetry class, numbered in lexicographic order of the
-- representatives (the lexicographically smallest member of each class).
CREATE TABLE fundamental_solution (
    n             INTEGER     NOT NULL CHECK (n BETWEEN 1 AND 32),
    class_ordinal BIGINT      NOT NULL CHECK (class_ordinal >= 1),
    placement     VARCHAR(96) NOT NULL,
    orbit_size    SMALLINT    NOT NULL CHECK (orbit_size IN (1, 2, 4, 8)),
    symmetry      VARCHAR(6)  NOT NULL CHECK (symmetry IN ('ROT90', 'ROT180', 'NONE')),
    CONSTRAINT fundamental_solution_pk PRIMARY KEY (n, class_ordinal),
    CONSTRAINT fundamental_solution_placement_uq UNIQUE (n, placement)
);

-- stored_solution: every solution, ranked lexicographically (ordinal 1 of n = 8 is 1 5 8 6 3 7 2 4).
-- Each row names its class by the representative's placement; the solution view turns that
-- into the class ordinal. A solution can be stored once only: by rank and by placement.
CREATE TABLE stored_solution (
    n              INTEGER     NOT NULL CHECK (n BETWEEN 1 AND 32),
    ordinal        BIGINT      NOT NULL CHECK (ordinal >= 1),
    placement      VARCHAR(96) NOT NULL,
    representative VARCHAR(96) NOT NULL,
    CONSTRAINT stored_solution_pk PRIMARY KEY (n, ordinal),
    CONSTRAINT stored_solution_placement_uq UNIQUE (n, placement),
    CONSTRAINT stored_solution_class_fk FOREIGN KEY (n, representative)
        REFERENCES fundamental_solution (n, placement)
);

-- The solutions of one class: WHERE n = ? AND representative = ?
CREATE INDEX stored_solution_class_ix ON stored_solution (n, representative);

CREATE VIEW solution AS
SELECT s.n, s.ordinal, s.placement, f.class_ordinal, f.orbit_size, f.symmetry
FROM stored_solution s
JOIN fundamental_solution f ON f.n = s.n AND f.placement = s.representative;
