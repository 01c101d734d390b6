-- A problem may ask for a program to run on every testcase even after one fails
-- (problem.toml `judge_all = true`); by default the rest are skipped. The default
-- matches every manifest written before the key existed, so no resync is needed.
alter table problem add column judge_all integer not null default 0;
