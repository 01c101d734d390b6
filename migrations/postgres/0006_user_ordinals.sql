-- Each submission's place among its user's submissions, which the
-- admission's windowed limits read instead of counting (SQLite's migration
-- 0015 says how).
alter table submission add column user_ordinal bigint not null default 0;
alter table submission add column user_bytes bigint not null default 0;

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

drop index submission_by_user_time;
create index submission_by_user_time on submission (user_name, created_at, user_ordinal);
