-- The same events and tally as migration 0005, written once a statement
-- instead of once a row. A row trigger ran a PL/pgSQL call and an insert
-- of one row for each submission a statement stored, claimed or judged,
-- and for each judgement (the verdict tally's upsert): at an open load of
-- 925 submissions a second, 7% of the machine's CPU samples were in those
-- calls. A statement trigger reads the statement's transition tables (the
-- rows as they were and as they are) and writes every event in one insert,
-- in the order of the submissions' `seq` (a claim's `lease_lost` before its
-- `claimed`), and each verdict's count in one upsert.
--
-- A trigger with transition tables cannot name columns (`update of`) or
-- carry a `when`: the updates' triggers fire for every update of
-- `submission` and pick the rows whose change is theirs, as the `when`
-- clauses did.

drop trigger submission_queued on submission;
drop trigger submission_claimed on submission;
drop trigger submission_judged on submission;
drop trigger judgement_tallied on judgement;
drop function submission_queued();
drop function submission_claimed();
drop function submission_judged();
drop function judgement_tallied();

create function submissions_queued() returns trigger language plpgsql as $$
begin
    insert into event (submission_id, kind, actor, detail, created_at)
    select id, 'queued', user_name, null, queued_at
    from new_rows
    where state = 'queued'
    order by seq;
    return null;
end
$$;

create trigger submissions_queued after insert on submission
referencing new table as new_rows
for each statement execute function submissions_queued();

create function submissions_claimed() returns trigger language plpgsql as $$
begin
    insert into event (submission_id, kind, actor, detail, created_at)
    select n.id, e.kind, e.actor, e.detail, n.claimed_at
    from new_rows n
    join old_rows o on o.seq = n.seq
    cross join lateral (values
        (1, 'lease_lost', null, 'the lease of attempt ' || (n.attempt - 1) || ' expired'),
        (2, 'claimed', n.worker, 'attempt ' || n.attempt)
    ) as e (step, kind, actor, detail)
    where n.state = 'running' and n.attempt > o.attempt
        and (e.step = 2 or n.tries > 1)
    order by n.seq, e.step;
    return null;
end
$$;

create trigger submissions_claimed after update on submission
referencing old table as old_rows new table as new_rows
for each statement execute function submissions_claimed();

create function submissions_judged() returns trigger language plpgsql as $$
begin
    insert into event (submission_id, kind, actor, detail, created_at)
    select n.id, 'judged', n.worker,
           -- (A job claimed before migration 0005 has no claimed_at.)
           n.verdict || coalesce(' in ' || (n.judged_at - n.claimed_at) || ' ms', '')
               || ' (' || (n.judged_at - n.queued_at) || ' ms after it was queued)',
           n.judged_at
    from new_rows n
    join old_rows o on o.seq = n.seq
    where o.state = 'running' and n.state = 'done'
    order by n.seq;
    return null;
end
$$;

create trigger submissions_judged after update on submission
referencing old table as old_rows new table as new_rows
for each statement execute function submissions_judged();

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
