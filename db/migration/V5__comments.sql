-- Descriptions that SQL clients show for the tables, views and columns users query.
COMMENT ON TABLE board_summary IS 'One row per solved board size: counts, symmetry split, storage level, timing';
COMMENT ON COLUMN board_summary.n IS 'Board size (n x n board, n queens)';
COMMENT ON COLUMN board_summary.total_solutions IS 'All solutions Q(n) (OEIS A000170)';
COMMENT ON COLUMN board_summary.fundamental_solutions IS 'Symmetry classes U(n) (OEIS A002562)';
COMMENT ON COLUMN board_summary.rot90_classes IS 'Classes unchanged by a quarter turn (orbit size 2; n = 1: 1)';
COMMENT ON COLUMN board_summary.rot180_classes IS 'Classes unchanged by a half turn only (orbit size 4)';
COMMENT ON COLUMN board_summary.asymmetric_classes IS 'Classes without symmetry (orbit size 8)';
COMMENT ON COLUMN board_summary.stored IS 'ALL: every solution stored; FUNDAMENTAL: representatives only; COUNT: counts only';
COMMENT ON COLUMN board_summary.computed_at IS 'When the size was computed and published';
COMMENT ON COLUMN board_summary.elapsed_ms IS 'Wall time of computing the size, in milliseconds';

COMMENT ON VIEW solution IS 'Every stored solution with its rank and class';
COMMENT ON TABLE stored_solution IS 'Every solution of the sizes stored at level ALL; read through the solution view';
COMMENT ON COLUMN stored_solution.ordinal IS '1-based lexicographic rank among the solutions of size n';
COMMENT ON COLUMN stored_solution.placement IS '1-based column of each row''s queen, top row first, space separated';
COMMENT ON COLUMN stored_solution.representative IS 'Placement of the class representative (fundamental_solution.placement)';

COMMENT ON TABLE fundamental_solution IS 'One row per symmetry class: its representative, the lexicographically smallest member';
COMMENT ON COLUMN fundamental_solution.class_ordinal IS 'Class number, in lexicographic order of the representatives';
COMMENT ON COLUMN fundamental_solution.placement IS 'The representative: 1-based columns, top row first';
COMMENT ON COLUMN fundamental_solution.orbit_size IS 'Members of the class: 1, 2, 4 or 8';
COMMENT ON COLUMN fundamental_solution.symmetry IS 'ROT90, ROT180 or NONE';

COMMENT ON TABLE count_partition IS 'Results of counting sub-partitions of a size, kept until the size is published';
COMMENT ON TABLE staged_solution IS 'Solutions of a size being recomputed, swapped into stored_solution when complete';
COMMENT ON TABLE staged_fundamental IS 'Representatives of a size being recomputed, swapped in when complete';
COMMENT ON COLUMN solution.ordinal IS '1-based lexicographic rank among the solutions of size n (No. 1 of n = 8 is 1 5 8 6 3 7 2 4)';
COMMENT ON COLUMN solution.placement IS '1-based column of each row''s queen, top row first, space separated';
COMMENT ON COLUMN solution.class_ordinal IS 'The class (fundamental_solution.class_ordinal)';
COMMENT ON COLUMN solution.orbit_size IS 'Members of the class: 1, 2, 4 or 8';
COMMENT ON COLUMN solution.symmetry IS 'ROT90, ROT180 or NONE';
