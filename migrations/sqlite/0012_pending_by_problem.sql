-- A problem's submissions still to judge: what the testcase page's rejudge
-- progress counts. Partial, like submission_pending_by_user, so it holds only
-- the rows waiting or being judged, however many are judged: without it the
-- count walked every submission of the problem (12 ms at 100,000 stored).

create index submission_pending_by_problem on submission (problem_id) where state != 'done';
