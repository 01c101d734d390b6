-- A submission's state changes write their own events, inside the statement
-- that changes the state, and a verdict counts itself in `verdict_tally`
-- (SQLite's migration 0014 says why). `claimed_at` is the time of the latest
-- claim.

alter table submission add column claimed_at bigint;

create function submission_queued() returns trigger language plpgsql as $$
begin
    insert into event (submission_id, kind, actor, detail, created_at)
    values (new.id, 'queued', new.user_name, null, new.queued_at);
    return null;
end
$$;

create trigger submission_queued after insert on submission
for each row when (new.state = 'queued')
execute function submission_queued();

create function submission_claimed() returns trigger language plpgsql as $$
begin
    if new.tries > 1 then
        insert into event (submission_id, kind, actor, detail, created_at)
        values (new.id, 'lease_lost', null,
                'the lease of attempt ' || (new.attempt - 1) || ' expired', new.claimed_at);
    end if;
    insert into event (submission_id, kind, actor, detail, created_at)
    values (new.id, 'claimed', new.worker, 'attempt ' || new.attempt, new.claimed_at);
    return null;
end
$$;

create trigger submission_claimed after update of attempt on submission
for each row when (new.state = 'running' and new.attempt > old.attempt)
execute function submission_claimed();

create function submission_judged() returns trigger language plpgsql as $$
begin
    insert into event (submission_id, kind, actor, detail, created_at)
    values (new.id, 'judged', new.worker,
            -- (A job claimed before this migration has no claimed_at.)
            new.verdict || coalesce(' in ' || (new.judged_at - new.claimed_at) || ' ms', '')
                || ' (' || (new.judged_at - new.queued_at) || ' ms after it was queued)',
            new.judged_at);
    return null;
end
$$;

create trigger submission_judged after update of state on submission
for each row when (old.state = 'running' and new.state = 'done')
execute function submission_judged();

create function judgement_tallied() returns trigger language plpgsql as $$
begin
    insert into verdict_tally (verdict, judgements, created_at)
    values (new.verdict, 1, new.created_at)
    on conflict (verdict) do update set judgements = verdict_tally.judgements + 1;
    return null;
end
$$;

create trigger judgement_tallied after insert on judgement
for each row execute function judgement_tallied();
