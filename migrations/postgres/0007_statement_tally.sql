-- Judgements count themselves in `verdict_tally` once a statement, from
-- the statement's new rows, instead of once a row. Each row's upsert made
-- a new version of its verdict's tally row, and versions made by one
-- transaction cannot be pruned before it ends: a statement inserting many
-- judgements walked a chain that grew with every row, so the synthetic
-- history's one insert of a million judgements ran for over nine minutes
-- (quadratic) where it had taken about a minute. The judging path's
-- statements insert a batch's judgements in one statement, so the trigger
-- fires as often as before or less. The events' triggers (migration 0005)
-- stay row triggers: a statement trigger cannot name the columns it is for,
-- and at half load each update of a submission fired both update triggers
-- for nothing (BENCHMARKS.md, the ninth session).

drop trigger judgement_tallied on judgement;
drop function judgement_tallied();

create function judgements_tallied() returns trigger language plpgsql as $$
begin
    insert into verdict_tally (verdict, judgements, created_at)
    select verdict, count(*), min(created_at)
    from new_rows
    group by verdict
    on conflict (verdict) do update set judgements = verdict_tally.judgements + excluded.judgements;
    return null;
end
$$;

create trigger judgements_tallied after insert on judgement
referencing new table as new_rows
for each statement execute function judgements_tallied();
