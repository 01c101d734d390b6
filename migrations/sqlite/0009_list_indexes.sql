-- Every list filter of GET /api/submissions is answered from an index, newest
-- first, and /metrics reads counters instead of counting judgements.

create index submission_by_verdict on submission (verdict, seq);
create index submission_by_problem_verdict on submission (problem_id, verdict, seq);
create index submission_by_user_problem on submission (user_name, problem_id, seq);
create index submission_by_user_verdict on submission (user_name, verdict, seq);
-- `since`: the first submission created at or after a time, found in one
-- lookup. Its seq bounds the newest-first scan, which is exact because
-- created_at never decreases as seq grows (inserts take the larger of now and
-- the newest created_at; the update below makes older rows so).
create index submission_by_created on submission (created_at, seq);

update submission set created_at = m.created_at
from (select seq, max(created_at) over (order by seq) as created_at from submission) as m
where m.seq = submission.seq and m.created_at != submission.created_at;

-- Judgements ever recorded, by verdict: `nimjudge_judgements_total`. Kept in
-- the transaction that inserts each judgement, so it never drifts from the
-- judgement table.
create table verdict_tally (
    verdict text primary key check (verdict in ('AC', 'WA', 'TLE', 'MLE', 'OLE', 'RE', 'CE', 'IE')),
    judgements integer not null,
    created_at integer not null
);
insert into verdict_tally (verdict, judgements, created_at)
    select verdict, count(*), cast(unixepoch('subsec') * 1000 as integer) from judgement group by verdict;
