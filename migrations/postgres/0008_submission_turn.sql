-- Submissions' inserts take turns by a row instead of an advisory lock
-- taken with the transaction's `BEGIN`, so an admission can be one
-- statement (one round trip and one commit) instead of five.
--
-- The insert's first step updates `submission_turn`: the update waits for
-- any other insert's transaction holding the row, then reads the row as
-- that one committed it, and holds it until its own commit. Its `newest`
-- is the largest `created_at` given so far, so created_at never decreases
-- as seq grows (listings bound their scans by it), and the rows' seqs are
-- taken after it, so they follow the order the inserts commit in. A
-- transaction that reads before it inserts and needs what it read to hold
-- (an admission decided again) locks the row first (`for update`).
create table submission_turn (
    only_row boolean primary key default true check (only_row),
    newest bigint not null
);
insert into submission_turn (newest) select coalesce(max(created_at), 0) from submission;

-- A user's ordinals are unique (SQLite's migration 0017 says why): an
-- admission reads the user's latest submission before its insert, and an
-- insert of another host's for that user in between makes it fail here.
-- Migration 0006 numbered the existing rows one to n a user, and every
-- insert since numbered its rows after the user's latest, taking turns.
create unique index submission_user_ordinal on submission (user_name, user_ordinal);
