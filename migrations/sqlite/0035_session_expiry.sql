-- Each sign-in deletes the sessions that expired: by this index, not by
-- reading every session.
create index session_by_expiry on session (expires_at);
