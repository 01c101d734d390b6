-- Stress tests a setter starts from a problem's page: a solution run by a worker in the
-- sandbox on generated inputs against the solver core until it disagrees or the budget is
-- spent, the failing input shrunk; one row each, with what the worker found.
create table stress_run (
    id integer primary key autoincrement,
    problem_id text not null references problem(id),
    created_by text not null,
    created_at integer not null,
    language text not null,
    source text not null,
    kinds text not null,                    -- the generator kinds, comma-separated, in order
    seed_from integer not null,
    seed_to integer not null,
    budget_ms integer not null,             -- for the search, and again at most for shrinking
    job_id text not null,                   -- a fresh id that names its sandbox boxes
    attempt integer not null default 0,     -- claims of this run; each write is fenced by the one it claimed
    worker text,
    lease_until integer,
    claimed_at integer,
    outcome text,                           -- JSON: what the worker found; null until it is done
    finished_at integer
);
create index stress_run_by_problem on stress_run (problem_id, id);
create index stress_run_pending on stress_run (id) where outcome is null;
