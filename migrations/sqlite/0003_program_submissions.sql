-- Program submissions: a submission may be a program, judgements and results carry the
-- program verdicts (TLE, MLE, OLE, RE, CE), a judgement keeps the compiler's messages and a
-- result the run's CPU time, wall time, peak memory and ending, in the order the testcases ran.
--
-- SQLite cannot change a CHECK constraint in place, so the four queue tables are rebuilt.
-- Foreign keys stay enforced: the new tables are filled parents first, the old ones dropped
-- children first (so no drop leaves a dangling reference), and renaming a new table rewrites
-- the references the other new tables make to it.

create table submission_new (
    seq integer primary key autoincrement,
    id text not null unique,
    problem_id text not null references problem(id),
    user_name text not null,
    kind text not null check (kind in ('answers', 'custom', 'program')),
    payload text not null,                  -- JSON, tagged with its kind
    state text not null check (state in ('queued', 'running', 'done')),
    attempt integer not null default 0,
    tries integer not null default 0,
    worker text,
    lease_until integer,
    queued_at integer not null,
    verdict text,
    message text,
    judged_at integer,
    created_at integer not null
);
insert into submission_new
    select seq, id, problem_id, user_name, kind, payload, state, attempt, tries, worker,
           lease_until, queued_at, verdict, message, judged_at, created_at
    from submission;

create table judgement_new (
    id integer primary key autoincrement,
    submission_id text not null references submission_new(id),
    attempt integer not null,
    problem_version integer not null,
    verdict text not null check (verdict in ('AC', 'WA', 'TLE', 'MLE', 'OLE', 'RE', 'CE', 'IE')),
    message text,
    compile_output text,                    -- a program's compiler messages, capped
    worker text not null,
    duration_ms integer not null,
    created_at integer not null,
    unique (submission_id, attempt)
);
insert into judgement_new
    (id, submission_id, attempt, problem_version, verdict, message, worker, duration_ms, created_at)
    select id, submission_id, attempt, problem_version, verdict, message, worker, duration_ms, created_at
    from judgement;

create table result_new (
    judgement_id integer not null references judgement_new(id),
    testcase text not null,
    position integer not null default 0,    -- the order the testcases were judged in
    hidden integer not null,
    verdict text not null check (verdict in ('AC', 'WA', 'TLE', 'MLE', 'OLE', 'RE', 'CE', 'IE')),
    time_us integer not null,
    message text,
    cpu_ms integer,                         -- a program's run; null for answers
    wall_ms integer,
    memory_kib integer,
    exit_code integer,
    signal integer,
    created_at integer not null,
    primary key (judgement_id, testcase)
);
insert into result_new (judgement_id, testcase, hidden, verdict, time_us, message, created_at)
    select judgement_id, testcase, hidden, verdict, time_us, message, created_at from result;

create table event_new (
    id integer primary key autoincrement,
    submission_id text not null references submission_new(id),
    kind text not null,
    actor text,
    detail text,
    created_at integer not null
);
insert into event_new select id, submission_id, kind, actor, detail, created_at from event;

drop table result;
drop table event;
drop table judgement;
drop table submission;
alter table submission_new rename to submission;
alter table judgement_new rename to judgement;
alter table result_new rename to result;
alter table event_new rename to event;

create index submission_by_state on submission (state, seq);
create index submission_by_problem on submission (problem_id, seq);
create index submission_by_user on submission (user_name, seq);
create index judgement_by_submission on judgement (submission_id, id);
create index event_by_submission on event (submission_id, id);
