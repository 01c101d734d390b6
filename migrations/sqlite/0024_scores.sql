-- Points and personal windows: a problem's testcase groups, each judged submission's score (in
-- hundredths of a point, with each group's), IOI contests and their cells'
-- best scores; contests whose participants each start a window of their own.
alter table problem add column groups text not null default '[]';      -- JSON, as problem.toml's `[[group]]`
alter table submission add column score integer;                         -- hundredths; null until judged
alter table submission add column group_scores text;                     -- hundredths per group, `4000,0,1500`
alter table scoreboard_cell add column score integer not null default 0;         -- best, hundredths
alter table scoreboard_cell add column public_score integer not null default 0;  -- best before the freeze

-- SQLite cannot change a CHECK constraint in place, but a column whose
-- CHECK is its own can be dropped and added again: every stored contest is
-- `icpc`, the default the column comes back with.
alter table contest drop column scoring;
alter table contest add column scoring text not null default 'icpc' check (scoring in ('icpc', 'ioi'));
-- Whether a compile error counts as a rejected try (ICPC penalty).
alter table contest add column count_compile_errors integer not null default 0;
alter table contest add column score_by text not null default 'group' check (score_by in ('group', 'submission'));

-- Personal windows: each participant's lasts `window_ms` from when they start it.
alter table contest add column window_ms integer;                       -- null: one window, the contest's span
alter table contest_participant add column window_start_ms integer;     -- unix ms, once started

-- Per-contestant inputs: a contest problem may give each participant an input of their own,
-- generated with this kind (and a seed of the contest, the participant and the problem).
alter table contest_problem add column personal_input text check (personal_input in ('small', 'edge', 'random', 'max'));
