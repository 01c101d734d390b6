-- Submissions go in queued only: an admission no longer inserts rows
-- claimed by a waiting worker or judged before they were stored, so the
-- triggers that wrote those rows' events go.
drop trigger submission_queued_claimed;
drop trigger submission_queued_judged;
