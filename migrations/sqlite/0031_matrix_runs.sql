-- The solutions × testcases matrix of a problem, run by workers: every setter solution
-- of the problem's folder judged on every testcase under the raised time limit, so that
-- its page can review the limit by problemtools' rule.
create table matrix_run (
    id integer primary key autoincrement,
    problem_id text not null references problem(id),
    created_by text not null,
    created_at integer not null,
    time_limit_ms integer not null,         -- the problem's limit when the run began
    raised_limit_ms integer not null        -- every solution runs under this one
);
create index matrix_run_by_problem on matrix_run (problem_id, id);

-- One setter solution of a matrix run and, once a worker judged it, its results.
create table matrix_item (
    run_id integer not null references matrix_run(id),
    solution text not null,                 -- its path under solutions/
    expected text not null,                 -- the verdict its folder promises
    job_id text not null,                   -- a fresh id that names its sandbox boxes
    language text not null,
    source text not null,
    attempt integer not null default 0,     -- claims of this item; each write is fenced by the one it claimed
    worker text,
    lease_until integer,
    claimed_at integer,
    verdict text,                           -- null until judged
    message text,
    results text,                           -- JSON: every testcase's result
    judged_at integer,
    primary key (run_id, solution)
);
create index matrix_item_pending on matrix_item (run_id) where verdict is null;
