-- V7 filled stored_solution.transform for the rows stored before V6; from now on it is required.
ALTER TABLE stored_solution ALTER COLUMN transform SET NOT NULL;
ALTER TABLE staged_solution ALTER COLUMN transform SET NOT NULL;
