-- Whether answers must match the reference's letters in case: problem.toml `case_sensitive`, on by
-- default (every hosted problem); a problem imported from a Kattis package without the
-- `case_sensitive` validator flag compares as Kattis' default output validator does.
alter table problem add column case_sensitive integer not null default 1;
