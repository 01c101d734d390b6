-- A problem's submissions still to judge: what the testcase page's rejudge
-- progress counts (SQLite's migration 0012).

create index submission_pending_by_problem on submission (problem_id) where state != 'done';
