-- The verdict indexes hold judged submissions only. The lists filter on a
-- verdict by equality, which a null verdict never meets, and SQLite uses a
-- partial index `where verdict is not null` for any comparison on the
-- column. Before, a new submission wrote an entry with a null verdict
-- into each of the three indexes and its verdict write moved all three:
-- six index changes on the one writer's path that the lists never read
-- (BENCHMARKS.md, the tenth session).

drop index submission_by_verdict;
create index submission_by_verdict on submission (verdict, seq) where verdict is not null;

drop index submission_by_problem_verdict;
create index submission_by_problem_verdict on submission (problem_id, verdict, seq)
    where verdict is not null;

drop index submission_by_user_verdict;
create index submission_by_user_verdict on submission (user_name, verdict, seq)
    where verdict is not null;
