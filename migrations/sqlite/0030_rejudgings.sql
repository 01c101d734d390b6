-- Rejudge previews: a problem's judged submissions judged again on the side, their
-- current verdicts untouched, until a setter applies the new judgements (the changed
-- ones become the submissions' latest) or discards them.
create table rejudging (
    id integer primary key autoincrement,
    problem_id text not null references problem(id),
    state text not null check (state in ('preview', 'applied', 'discarded')),
    created_by text not null,
    created_at integer not null,
    decided_by text,                        -- who applied or discarded it
    decided_at integer
);
create index rejudging_by_problem on rejudging (problem_id, id);

-- One submission in a rejudging: its verdict when the preview began and, once a worker
-- judged it again, the new judgement, kept whole so that applying it writes it as judged.
create table rejudging_item (
    rejudging_id integer not null references rejudging(id),
    submission_id text not null references submission(id),
    judgement_before integer,               -- the submission's latest judgement then: applying skips it if another came since
    verdict_before text,
    attempt integer not null default 0,     -- claims of this item; each write is fenced by the one it claimed
    worker text,
    lease_until integer,
    claimed_at integer,
    problem_version integer,
    verdict text,                           -- null until judged
    message text,
    compile_output text,
    results text,                           -- JSON: the testcase results, in judging order
    group_scores text,
    judged_at integer,
    primary key (rejudging_id, submission_id)
);
-- The items left to judge, for the workers' claims.
create index rejudging_item_pending on rejudging_item (rejudging_id) where verdict is null;
