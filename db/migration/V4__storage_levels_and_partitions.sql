-- Storage levels, replacement of a published size, and sub-partitioned counting.

-- A size that is already published (it has a board_summary row) and is recomputed (--force, or a
-- higher storage level) is computed into these staging tables first, then swapped into
-- stored_solution / fundamental_solution in one transaction, so a reader never sees it half
-- replaced. Same columns and constraints as the published tables.
CREATE TABLE staged_fundamental (
    n             INTEGER     NOT NULL CHECK (n BETWEEN 1 AND 32),
    class_ordinal BIGINT      NOT NULL CHECK (class_ordinal >= 1),
    placement     VARCHAR(96) NOT NULL,
    orbit_size    SMALLINT    NOT NULL CHECK (orbit_size IN (1, 2, 4, 8)),
    symmetry      VARCHAR(6)  NOT NULL CHECK (symmetry IN ('ROT90', 'ROT180', 'NONE')),
    CONSTRAINT staged_fundamental_pk PRIMARY KEY (n, class_ordinal),
    CONSTRAINT staged_fundamental_placement_uq UNIQUE (n, placement)
);

CREATE TABLE staged_solution (
    n              INTEGER     NOT NULL CHECK (n BETWEEN 1 AND 32),
    ordinal        BIGINT      NOT NULL CHECK (ordinal >= 1),
    placement      VARCHAR(96) NOT NULL,
    representative VARCHAR(96) NOT NULL,
    CONSTRAINT staged_solution_pk PRIMARY KEY (n, ordinal),
    CONSTRAINT staged_solution_placement_uq UNIQUE (n, placement),
    CONSTRAINT staged_solution_class_fk FOREIGN KEY (n, representative)
        REFERENCES staged_fundamental (n, placement)
);

-- The result of one sub-partition of a counted size (storage level COUNT): sub-partition
-- partition_index of partition_count counts every partition_count-th work unit of the size,
-- starting at unit partition_index. A restarted run skips the sub-partitions recorded here.
CREATE TABLE count_partition (
    n                  INTEGER   NOT NULL CHECK (n BETWEEN 1 AND 32),
    partition_count    INTEGER   NOT NULL CHECK (partition_count >= 1),
    partition_index    INTEGER   NOT NULL CHECK (partition_index >= 0),
    work_units         INTEGER   NOT NULL CHECK (work_units >= 0),
    total_solutions    BIGINT    NOT NULL CHECK (total_solutions >= 0),
    fundamental_solutions BIGINT NOT NULL CHECK (fundamental_solutions >= 0),
    rot90_classes      BIGINT    NOT NULL CHECK (rot90_classes >= 0),
    rot180_classes     BIGINT    NOT NULL CHECK (rot180_classes >= 0),
    asymmetric_classes BIGINT    NOT NULL CHECK (asymmetric_classes >= 0),
    elapsed_ms         BIGINT    NOT NULL CHECK (elapsed_ms >= 0),
    computed_at        TIMESTAMP WITH TIME ZONE NOT NULL,
    CONSTRAINT count_partition_pk PRIMARY KEY (n, partition_count, partition_index),
    CONSTRAINT count_partition_index_ck CHECK (partition_index < partition_count)
);
