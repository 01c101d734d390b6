-- A submission's state changes write their own events, inside the statement
-- that changes the state: `queued` when a submission is stored queued,
-- `claimed` (after `lease_lost` for a job taken again once its lease ran
-- out, its tries counting more than one claim) when a claim takes it, and
-- `judged` when its verdict is written. A verdict also counts itself in
-- `verdict_tally`. Each was a statement of its own in the transaction that
-- made the change: on SQLite's single writer, a round trip to the writer's
-- thread while every other write waited. A claim is now one statement with
-- no transaction around it. The events the code still writes itself are the
-- ones whose facts are not in the row (`dropped`, `released`, `rejudged`).
--
-- `claimed_at` is the time of the latest claim, the `claimed` event's time
-- and the start of the `judged` event's duration.

alter table submission add column claimed_at integer;

create trigger submission_queued after insert on submission
when new.state = 'queued'
begin
    insert into event (submission_id, kind, actor, detail, created_at)
    values (new.id, 'queued', new.user_name, null, new.queued_at);
end;

create trigger submission_claimed after update of attempt on submission
when new.state = 'running' and new.attempt > old.attempt
begin
    insert into event (submission_id, kind, actor, detail, created_at)
    select new.id, 'lease_lost', null,
           'the lease of attempt ' || (new.attempt - 1) || ' expired', new.claimed_at
    where new.tries > 1;
    insert into event (submission_id, kind, actor, detail, created_at)
    values (new.id, 'claimed', new.worker, 'attempt ' || new.attempt, new.claimed_at);
end;

create trigger submission_judged after update of state on submission
when old.state = 'running' and new.state = 'done'
begin
    insert into event (submission_id, kind, actor, detail, created_at)
    values (new.id, 'judged', new.worker,
            -- (A job claimed before this migration has no claimed_at.)
            new.verdict || coalesce(' in ' || (new.judged_at - new.claimed_at) || ' ms', '')
                || ' (' || (new.judged_at - new.queued_at) || ' ms after it was queued)',
            new.judged_at);
end;

create trigger judgement_tallied after insert on judgement
begin
    insert into verdict_tally (verdict, judgements, created_at)
    values (new.verdict, 1, new.created_at)
    on conflict (verdict) do update set judgements = verdict_tally.judgements + 1;
end;
