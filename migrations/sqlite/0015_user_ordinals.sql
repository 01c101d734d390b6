-- Each submission's place among its user's submissions: `user_ordinal` (1 for
-- a user's first) and `user_bytes` (the user's payload bytes up to and
-- including this one). The admission's windowed limits then read two rows
-- of a user instead of counting every submission in the window: the
-- submissions of the last minute are the latest ordinal less the first
-- ordinal in the window, plus one, and the bytes of the last day the latest
-- `user_bytes` less those before the day's first. Exact, because a user's
-- `created_at` never decreases as its ordinal grows (it never does as `seq`
-- grows). The admission assigns both, holding the write lock.
alter table submission add column user_ordinal integer not null default 0;
alter table submission add column user_bytes integer not null default 0;

update submission
set user_ordinal = numbered.ordinal, user_bytes = numbered.bytes
from (
    select seq,
        row_number() over by_user as ordinal,
        sum(size_bytes) over by_user as bytes
    from submission
    window by_user as (partition by user_name order by seq)
) as numbered
where submission.seq = numbered.seq;

-- The first submission of a user in a window, in ordinal order (the
-- retry-after reads walk it too); it replaces the index the counts read.
drop index submission_by_user_time;
create index submission_by_user_time on submission (user_name, created_at, user_ordinal);
