-- Submissions go in queued only: an admission no longer inserts rows
-- claimed by a waiting worker or judged before they were stored, and it
-- takes the inserts' turn with its transaction's BEGIN, so the triggers
-- that wrote those rows' events and the function that took the turn inside
-- the insert go.
drop trigger submission_queued_claimed on submission;
drop function submission_queued_claimed();
drop trigger submission_queued_judged on submission;
drop function submission_queued_judged();
drop function submission_turn(boolean, text[], bigint[], boolean);
