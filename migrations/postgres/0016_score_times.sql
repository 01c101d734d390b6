-- When an IOI cell's score was reached: the contest time of the submission that last changed it
-- (its last improvement), in everything and as the public sees it during a freeze. Null while
-- the score is 0. Cells scored before this migration get their times at their next refresh.
alter table scoreboard_cell add column scored_ms bigint;         -- contest ms
alter table scoreboard_cell add column public_scored_ms bigint;  -- contest ms, before the freeze
