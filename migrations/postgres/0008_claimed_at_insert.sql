-- A submission may be inserted already claimed: an admission that finds
-- workers of its process waiting, and nothing ahead of its jobs in the
-- queue, inserts them as running for those workers instead of inserting
-- them queued and updating them in the same transaction (the update made
-- a second version of each row, with an entry in every index). Such a row
-- writes both events a queued row and its claim would have written, in
-- that order.

create function submission_queued_claimed() returns trigger language plpgsql as $$
begin
    insert into event (submission_id, kind, actor, detail, created_at)
    values (new.id, 'queued', new.user_name, null, new.queued_at),
           (new.id, 'claimed', new.worker, 'attempt ' || new.attempt, new.claimed_at);
    return null;
end
$$;

create trigger submission_queued_claimed after insert on submission
for each row when (new.state = 'running')
execute function submission_queued_claimed();
