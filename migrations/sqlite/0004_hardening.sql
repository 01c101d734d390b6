-- Hardening: per-user submission limits counted from the database, idempotent
-- submissions, and tokens that expire or are revoked.

-- The size of a submission's payload as submitted, in bytes, so the daily byte
-- limit sums a column instead of reading every payload. Older rows count 0.
alter table submission add column size_bytes integer not null default 0;
-- The per-minute and per-day limits read one user's recent submissions.
create index submission_by_user_time on submission (user_name, created_at, size_bytes);
-- The limit on submissions waiting or being judged at once counts these.
create index submission_pending_by_user on submission (user_name) where state != 'done';

-- An `Idempotency-Key` a user sent with a submission: the same key from the
-- same user returns the first submission instead of storing another.
create table idempotency_key (
    user_name text not null,
    key_value text not null,                -- the header's value, as sent
    request_hash text not null,             -- sha256 (hex) of the parsed request; another request under the same key is refused
    submission_id text not null references submission(id),
    created_at integer not null,
    primary key (user_name, key_value)
);

alter table token add column expires_at integer;   -- null: never expires
alter table token add column revoked_at integer;   -- null: not revoked
