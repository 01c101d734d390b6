-- Contests: a time window over some problems, each under a label; who takes
-- part; and the scoreboard's read model, one cell per participant and
-- problem, kept up to date as submissions arrive and verdicts land.
create table contest (
    id text primary key,                    -- a slug, e.g. `spring-2027`
    title text not null,
    starts_at integer not null,             -- unix ms
    duration_ms integer not null,
    freeze_ms integer,                      -- how long before the end the scoreboard freezes; null: never
    scoring text not null check (scoring in ('icpc')),
    registration text not null check (registration in ('open', 'invited')),
    penalty_minutes integer not null,       -- added for each rejected try before the first AC
    thawed_at integer,                      -- when an admin thawed a frozen scoreboard
    cells_version integer not null default 0,   -- bumped by every change of its scoreboard's cells or participants
    created_at integer not null,
    updated_at integer not null
);

create table contest_problem (
    contest_id text not null references contest(id) on delete cascade,
    problem_id text not null references problem(id),
    label text not null,                    -- `A`, `B`, …
    colour text,                            -- `#rrggbb`
    position integer not null,
    primary key (contest_id, problem_id)
);
create unique index contest_problem_label on contest_problem (contest_id, label);

create table contest_participant (
    contest_id text not null references contest(id) on delete cascade,
    user_name text not null,
    registered_at integer not null,
    version integer not null default 0,         -- the contest's cells_version when registered
    primary key (contest_id, user_name)
);
-- The contests a user takes part in (the contest list marks them).
create index contest_participant_by_user on contest_participant (user_name);

-- A submission sent to a contest: its contest time while the window was
-- open, null after it (practice: judged, not ranked).
alter table submission add column contest_id text references contest(id);
alter table submission add column contest_time_ms integer;
create index submission_by_contest_cell on submission (contest_id, user_name, problem_id)
    where contest_id is not null;
-- The verdict log and the listings filtered by contest, newest first.
create index submission_by_contest on submission (contest_id, seq) where contest_id is not null;

-- One participant on one problem, as the scoreboard shows it: everything
-- (admins, and everyone once thawed) and what the public sees during a
-- freeze (tries from the freeze on count as pending).
create table scoreboard_cell (
    contest_id text not null references contest(id) on delete cascade,
    user_name text not null,
    problem_id text not null,
    solved_ms integer,                      -- contest time of the first AC
    tries integer not null,                 -- rejected tries before it (CE and IE not counted)
    pending integer not null,               -- tries before it not judged yet
    public_solved_ms integer,
    public_tries integer not null,
    public_pending integer not null,
    version integer not null default 0,         -- the contest's cells_version when last computed
    primary key (contest_id, user_name, problem_id)
);
-- What changed since a version a reader holds.
create index scoreboard_cell_by_version on scoreboard_cell (contest_id, version);

-- Questions to a contest's jury and their answers; a jury's announcement
-- is an answer to nobody's question, for everyone.
create table clarification (
    id integer primary key autoincrement,
    contest_id text not null references contest(id) on delete cascade,
    problem_id text,                        -- the problem it is about; null: the contest in general
    asked_by text,                          -- null: an announcement of the jury
    question text,
    answer text,
    answered_by text,
    to_all integer not null,                -- the answer is shown to every participant, not only the asker
    created_at integer not null,
    answered_at integer
);
create index clarification_by_contest on clarification (contest_id, id);
