-- What changed in a contest since a time, found without reading every one of its submissions:
-- the Contest API's event feed asks it every second, and at 917,100 contest submissions the
-- scan of the contest's rows took about 4 s a look. The key is the latest of the times a
-- submission was created, queued (again) and judged; partial, so only contest submissions pay.
create index submission_changed_in_contest
    on submission (contest_id, greatest(created_at, queued_at, judged_at))
    where contest_id is not null;
