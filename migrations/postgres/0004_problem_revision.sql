-- A problem's revision, bumped by every change to the problem or to its set of
-- testcases (SQLite's migration 0013).

alter table problem add column revision bigint not null default 1;
