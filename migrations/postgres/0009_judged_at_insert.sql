-- A submission may be inserted already judged: an admission that finds a
-- worker of its process waiting hands it the new answers jobs to judge
-- first (their references in memory), then inserts them done with their
-- verdicts, instead of inserting them claimed and updating them when the
-- worker writes its verdicts (a second version of each row, with an entry
-- in every index). Such a row writes the three events a queued row, its
-- claim and its verdict would have written, in that order. (The rows of a
-- synthetic history for benchmarks go in done with no claim and no events.)

create function submission_queued_judged() returns trigger language plpgsql as $$
begin
    insert into event (submission_id, kind, actor, detail, created_at)
    values (new.id, 'queued', new.user_name, null, new.queued_at),
           (new.id, 'claimed', new.worker, 'attempt ' || new.attempt, new.claimed_at),
           (new.id, 'judged', new.worker,
            new.verdict || ' in ' || (new.judged_at - new.claimed_at) || ' ms'
                || ' (' || (new.judged_at - new.queued_at) || ' ms after it was queued)',
            new.judged_at);
    return null;
end
$$;

create trigger submission_queued_judged after insert on submission
for each row when (new.state = 'done' and new.claimed_at is not null)
execute function submission_queued_judged();
