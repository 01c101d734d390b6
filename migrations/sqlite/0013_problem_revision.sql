-- A problem's revision: bumped by every change to the problem or to its set of
-- testcases (a sync that makes a new version, a setter adding, deleting, hiding
-- or showing a testcase). A claim returns its problem's revision, so a worker
-- may keep the testcases and references it judged with in memory and know
-- exactly when they are out of date.

alter table problem add column revision integer not null default 1;
