-- How far the judging of a running submission is: testcases judged out of
-- those the attempt will judge. A worker records it now and then (at most
-- every quarter second, and never for a job that ends sooner), fenced by its
-- attempt like every other write; a claim clears it, so a number is always
-- the current attempt's. Null until the first record.

alter table submission add column progress_done bigint;
alter table submission add column progress_total bigint;
