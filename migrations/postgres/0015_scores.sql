-- Points and personal windows: a problem's testcase groups, each judged submission's score (in
-- hundredths of a point, with each group's), IOI contests and their cells'
-- best scores; contests whose participants each start a window of their own.
alter table problem add column groups text not null default '[]';      -- JSON, as problem.toml's `[[group]]`
alter table submission add column score bigint;                          -- hundredths; null until judged
alter table submission add column group_scores text;                     -- hundredths per group, `4000,0,1500`
alter table scoreboard_cell add column score bigint not null default 0;          -- best, hundredths
alter table scoreboard_cell add column public_score bigint not null default 0;   -- best before the freeze

alter table contest drop constraint contest_scoring_check;
alter table contest add constraint contest_scoring_check check (scoring in ('icpc', 'ioi'));
-- Whether a compile error counts as a rejected try (ICPC penalty).
alter table contest add column count_compile_errors boolean not null default false;
alter table contest add column score_by text not null default 'group' check (score_by in ('group', 'submission'));

-- Personal windows: each participant's lasts `window_ms` from when they start it.
alter table contest add column window_ms bigint;                       -- null: one window, the contest's span
alter table contest_participant add column window_start_ms bigint;     -- unix ms, once started

-- Per-contestant inputs: a contest problem may give each participant an input of their own,
-- generated with this kind (and a seed of the contest, the participant and the problem).
alter table contest_problem add column personal_input text check (personal_input in ('small', 'edge', 'random', 'max'));
