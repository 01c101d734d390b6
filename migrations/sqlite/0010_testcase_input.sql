-- Testcase inputs move to a table of their own. SQLite stores a row's columns
-- in order and a multi-megabyte input spills into a chain of overflow pages,
-- so reading any column stored after it (hidden, origin, created_at) walked
-- that chain: listing constrained-nim's testcases to take in one submission
-- read megabytes. Now the testcase row is small and the input is read only
-- where it is used.

create table testcase_input (
    testcase_id integer primary key references testcase(id) on delete cascade,
    input text not null,
    created_at integer not null
);
insert into testcase_input (testcase_id, input, created_at)
    select id, input, created_at from testcase;
alter table testcase drop column input;
