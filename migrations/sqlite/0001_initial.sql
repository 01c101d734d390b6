-- nimjudge's schema. Every time is unix milliseconds (UTC).

create table problem (
    id text primary key not null,           -- the problem id, e.g. `nim`
    title text not null,
    statement text not null,
    version integer not null,               -- bumped each time the synced definition changes
    definition_hash text not null,          -- sha256 of the definition folder; a sync bumps `version` only when it changes
    time_limit_ms integer not null,
    created_at integer not null,
    updated_at integer not null
);

create table testcase (
    -- autoincrement: a deleted testcase's id, and so its cached references, is never reused
    id integer primary key autoincrement,
    problem_id text not null references problem(id),
    name text not null,
    input text not null,
    hidden integer not null,                -- 1: only setters and admins see its input and details
    origin text not null check (origin in ('sample', 'generated', 'setter')), -- catalog sync only touches the first two
    created_by text,                        -- the setter's token name; null for synced testcases
    created_at integer not null,
    unique (problem_id, name)
);

-- The reference output of a testcase, computed once per problem version.
create table reference (
    testcase_id integer not null references testcase(id) on delete cascade,
    problem_version integer not null,
    output text,                            -- the solver's output; null when the solver failed
    error text,                             -- why the solver failed
    compute_us integer not null,
    created_at integer not null,
    primary key (testcase_id, problem_version)
);

create table token (
    id integer primary key,
    name text not null,                     -- the user's name: submissions belong to a name, not a token
    role text not null check (role in ('contestant', 'setter', 'admin')),
    hash text not null unique,              -- sha256 (hex) of the secret; the secret itself is never stored
    created_at integer not null
);

-- A submission is also its own queue entry.
create table submission (
    seq integer primary key autoincrement,  -- arrival order: queue order and pagination cursor
    id text not null unique,                -- the public uuid
    problem_id text not null references problem(id),
    user_name text not null,
    kind text not null check (kind in ('answers', 'custom')),
    payload text not null,                  -- JSON: {"answers": {...}} or {"input": ..., "output": ...}
    state text not null check (state in ('queued', 'running', 'done')),
    attempt integer not null default 0,     -- claims ever made; each worker write is fenced by the value it claimed
    tries integer not null default 0,       -- claims in the current judging round; beyond max_attempts the verdict is IE
    worker text,                            -- the worker holding (or last holding) the lease
    lease_until integer,                    -- while running: when another worker may claim it
    queued_at integer not null,             -- start of the current judging round (submit or rejudge): the latency clock
    verdict text,                           -- the latest judgement's verdict, copied here for filtering
    message text,                           -- the latest judgement's message
    judged_at integer,
    created_at integer not null
);
create index submission_by_state on submission (state, seq);
create index submission_by_problem on submission (problem_id, seq);
create index submission_by_user on submission (user_name, seq);

-- One judging of a submission; a rejudge adds another, earlier ones stay.
create table judgement (
    id integer primary key autoincrement,
    submission_id text not null references submission(id),
    attempt integer not null,               -- the claim that produced it: at most one judgement per claim
    problem_version integer not null,
    verdict text not null check (verdict in ('AC', 'WA', 'IE')),
    message text,
    worker text not null,
    duration_ms integer not null,           -- claim to verdict
    created_at integer not null,
    unique (submission_id, attempt)
);
create index judgement_by_submission on judgement (submission_id, id);

create table result (
    judgement_id integer not null references judgement(id),
    testcase text not null,                 -- the testcase name, kept even if the testcase is deleted later
    hidden integer not null,
    verdict text not null check (verdict in ('AC', 'WA', 'IE')),
    time_us integer not null,               -- reference lookup or computation plus comparison
    message text,
    created_at integer not null,
    primary key (judgement_id, testcase)
);

create table event (
    id integer primary key autoincrement,
    submission_id text not null references submission(id),
    kind text not null,                     -- queued, claimed, lease_lost, judged, dropped, released, rejudged
    actor text,                             -- the user or worker that caused it
    detail text,
    created_at integer not null
);
create index event_by_submission on event (submission_id, id);
