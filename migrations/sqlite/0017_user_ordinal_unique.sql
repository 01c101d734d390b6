-- A user's ordinals are unique. The admission reads a user's latest
-- submission before its write transaction (so the one writer is not held
-- while it decides) and numbers the new one after it: if another process
-- admitted a submission for that user in between, the insert meets this
-- index, fails, and the admission is decided again holding the write lock.
-- Migration 0015 numbered the existing rows by `seq`, one to n a user, and
-- every admission since numbered its rows after the user's latest, holding
-- the write lock, so no existing row breaks it.
create unique index submission_user_ordinal on submission (user_name, user_ordinal);
