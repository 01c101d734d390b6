-- The setter solution that computes the references of testcases a setter adds to a problem whose
-- references are files (an imported Kattis package): problem.toml `reference_solution`, its path
-- under `solutions/` and its source. Null for a problem the solver core serves, and for a
-- problem that names none (setters cannot add testcases to it).
alter table problem add column reference_solution_name text;
alter table problem add column reference_solution text;
