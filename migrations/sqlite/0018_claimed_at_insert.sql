-- A submission may be inserted already claimed: an admission that finds
-- workers of its process waiting, and nothing ahead of its jobs in the
-- queue, inserts them as running for those workers instead of inserting
-- them queued and updating them in the same transaction. Such a row
-- writes both events a queued row and its claim would have written, in
-- that order.

create trigger submission_queued_claimed after insert on submission
when new.state = 'running'
begin
    insert into event (submission_id, kind, actor, detail, created_at)
    values (new.id, 'queued', new.user_name, null, new.queued_at),
           (new.id, 'claimed', new.worker, 'attempt ' || new.attempt, new.claimed_at);
end;
