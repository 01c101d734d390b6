-- The participants registered since a version a scoreboard reader holds, found without reading
-- every participant of the contest (10,000 rows at each read after any change).
create index contest_participant_by_version on contest_participant (contest_id, version);
