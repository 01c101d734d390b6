-- Submissions' inserts take turns (every host's), so that created_at never
-- decreases as seq grows and each user's ordinals follow one another. An
-- admission used to take the turn with its transaction's BEGIN and hold it
-- across four round trips (the lock, its counts, the insert, the COMMIT).
-- This function lets the insert's own statement take it: a statement of
-- its own in autocommit, one round trip, the turn held only while it runs.
--
-- A statement's snapshot is taken before it runs, so before the lock it
-- waits for: what it read itself could miss a row another host committed
-- meanwhile. A VOLATILE function's statements each take a fresh snapshot
-- (under READ COMMITTED), so what this one reads after the lock is up to
-- date: the newest created_at, and whether the queue holds a job ahead of
-- the new rows (queued, or running with its lease run out; only if asked).
-- The admission read its users' counts before its turn; each user's latest
-- ordinal must still be the one it read (`users` and `ordinals`), or
-- another host admitted a submission of that user meanwhile and the
-- function fails with serialization_failure: nothing is stored, and the
-- admission is decided again holding the turn from the start.
--
-- A connection's warm-up runs the insert in a transaction it rolls back
-- (`take_turn` false): holding the turn to its end would hold up every
-- host's inserts meanwhile.

create function submission_turn(
    take_turn boolean, users text[], ordinals bigint[], queue_asked boolean
)
returns table (newest_created_at bigint, queue_free boolean)
-- One row, which the planner is told: by default it expects a thousand
-- rows of a function, and plans the insert's joins for them.
language plpgsql volatile rows 1 as $$
begin
    if take_turn then
        perform pg_advisory_xact_lock(hashtextextended('submission order', 0));
    end if;
    if exists (
        select 1 from unnest(users, ordinals) as u (user_name, ordinal)
        where coalesce((select s.user_ordinal from submission s
                        where s.user_name = u.user_name
                        order by s.created_at desc, s.user_ordinal desc limit 1), 0)
              <> u.ordinal
    ) then
        raise exception 'a user''s submissions changed since the admission read them'
            using errcode = 'serialization_failure';
    end if;
    return query select
        coalesce((select max(s.created_at) from submission s), 0),
        case when queue_asked then
            not exists (select 1 from submission s where s.state = 'queued')
            and not exists (select 1 from submission s where s.state = 'running'
                            and s.lease_until < (extract(epoch from clock_timestamp()) * 1000)::bigint)
        end;
end
$$;
