-- The counting engine's work units changed (constellations are now grouped by bottom table), so a
-- sub-partition number no longer names the same constellations. Results of an unfinished run
-- counted by the previous engine are dropped; the next run counts those sizes again.
DELETE FROM count_partition;
