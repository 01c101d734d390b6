-- A verdict's count may be kept in several rows (`shard`), summed when read,
-- as on PostgreSQL, where each connection writes rows of its own so that
-- verdicts written side by side do not wait on one row. SQLite has one
-- writer: every judgement counts in shard 0.
drop trigger judgement_tallied;

create table verdict_tally_by_shard (
    verdict text not null check (verdict in ('AC', 'WA', 'TLE', 'MLE', 'OLE', 'RE', 'CE', 'IE')),
    judgements integer not null,
    created_at integer not null,
    shard integer not null default 0,
    primary key (verdict, shard)
);
insert into verdict_tally_by_shard (verdict, judgements, created_at)
    select verdict, judgements, created_at from verdict_tally;
drop table verdict_tally;
alter table verdict_tally_by_shard rename to verdict_tally;

create trigger judgement_tallied after insert on judgement
begin
    insert into verdict_tally (verdict, judgements, created_at)
    values (new.verdict, 1, new.created_at)
    on conflict (verdict, shard) do update set judgements = verdict_tally.judgements + 1;
end;
