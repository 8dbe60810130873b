-- The counting engine's work units changed (it now meets in the middle: a unit is a run of column
-- sets of the top half's queens, no longer a run of start constellations), so a unit number no
-- longer names the same work. The plans of sizes counted but not yet published by the previous
-- engine are dropped, and their counted units with them (count_unit cascades); the next run counts
-- those sizes afresh.
DELETE FROM count_plan;
