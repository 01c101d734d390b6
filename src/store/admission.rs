//! Taking a new submission in: its `Idempotency-Key` and the per-user limits,
//! checked against what is stored when it is inserted.
//!
//! Everything is counted from the database, not from memory, so the limits
//! hold across restarts and across hosts on one database. An admission is
//! one transaction that holds the turn submissions' inserts take (SQLite's
//! write lock from `begin immediate`; PostgreSQL's advisory lock, sent with
//! the `BEGIN`) from its start, so two requests (from this host or another)
//! cannot both count the same rows and both slip under a limit.

use std::{collections::BTreeSet, time::Duration};

use super::{
    Store, StoreError,
    backend::{Dialect, Statement, Target, Tx, query},
    now_ms, parse_column,
    queue::{
        LATEST_OF_USER, NewKey, NewSubmission, OrderedTx, QueuedRow, UserTotals, encode_payload,
        insert_queued,
    },
};
use crate::{
    config::LimitsConfig,
    domain::{Submission, SubmissionId},
};

const MINUTE_MS: i64 = 60 * 1000;
const DAY_MS: i64 = 24 * 60 * MINUTE_MS;

/// A new submission and what decides whether it is taken.
#[derive(Debug, Clone)]
pub struct Admission<'a> {
    pub submission: NewSubmission<'a>,
    /// The client's `Idempotency-Key`, if it sent one.
    pub idempotency: Option<IdempotencyKey<'a>>,
    /// The limits that apply to this user; `None` for admins, who are exempt.
    pub limits: Option<&'a LimitsConfig>,
}

/// An `Idempotency-Key` and the request it came with.
#[derive(Debug, Clone, Copy)]
pub struct IdempotencyKey<'a> {
    pub key: &'a str,
    /// A hash of the parsed request, so a retry of the same request is told
    /// apart from a different request under a reused key.
    pub request_hash: &'a str,
}

/// What became of an [`Admission`].
#[derive(Debug, Clone)]
pub enum AdmissionOutcome {
    /// Stored, queued.
    Queued(Submission),
    /// The key was used before for the same request: this is the submission
    /// that request made; nothing new was stored.
    Replayed(SubmissionId),
    /// The key was used before for a different request (that submission).
    KeyReused(SubmissionId),
    /// Over a limit; nothing was stored.
    Limited(LimitExceeded),
}

/// A per-user limit, with the configured bound.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UserLimit {
    SubmissionsPerMinute(u32),
    PendingSubmissions(u32),
    BytesPerDay(u64),
}

impl UserLimit {
    /// The setting that sets it, which also names it in error bodies.
    pub fn setting(self) -> &'static str {
        match self {
            UserLimit::SubmissionsPerMinute(_) => "limits.submissions_per_minute",
            UserLimit::PendingSubmissions(_) => "limits.pending_submissions",
            UserLimit::BytesPerDay(_) => "limits.bytes_per_day",
        }
    }
}

/// A submission refused by a limit, and when trying again can succeed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LimitExceeded {
    pub limit: UserLimit,
    /// For the windowed limits, until enough of the user's submissions leave
    /// the window; for pending submissions, a short wait for the judge.
    pub retry_after: Duration,
}

/// How long to wait, at least a second, for the time `at_ms` (unix ms).
fn until(at_ms: i64, now: i64) -> Duration {
    let millis = u64::try_from(at_ms.saturating_sub(now)).unwrap_or(0);
    Duration::from_millis(millis).max(Duration::from_secs(1))
}

impl Store {
    /// The submission a user's idempotency key made, and the hash of the
    /// request that made it.
    pub async fn idempotent_submission(
        &self,
        user: &str,
        key: &str,
    ) -> Result<Option<(SubmissionId, String)>, StoreError> {
        stored_key(&self.read, user, key).await
    }

    /// Replays, refuses or inserts a submission, in one transaction that
    /// holds the inserts' turn from its start ([`OrderedTx`]): first its
    /// idempotency key, then the limits, then the insert (with the key).
    /// Nothing another admission stores (on any host) can slip between what
    /// this one counts and its insert.
    pub async fn admit(&self, admission: &Admission<'_>) -> Result<AdmissionOutcome, StoreError> {
        self.noted(async {
            let new = &admission.submission;
            let payload = encode_payload(new.payload)?;
            let now = now_ms();
            let mut tx = OrderedTx::begin(&self.write).await?;
            if let Some(key) = admission.idempotency
                && let Some((id, hash)) = stored_key(tx.tx(), new.user, key.key).await?
            {
                // Dropping the transaction rolls it back: nothing was written.
                return Ok(if hash == key.request_hash {
                    AdmissionOutcome::Replayed(id)
                } else {
                    AdmissionOutcome::KeyReused(id)
                });
            }
            let size = i64::try_from(payload.len()).unwrap_or(i64::MAX);
            let (mut latest, counts) =
                stored_counts(tx.tx(), new.user, admission.limits, now).await?;
            if let Some(limits) = admission.limits
                && let Some(exceeded) =
                    first_exceeded(tx.tx(), new.user, size, limits, now, counts).await?
            {
                return Ok(AdmissionOutcome::Limited(exceeded));
            }
            let row = QueuedRow {
                id: SubmissionId::new(),
                problem: new.problem,
                user: new.user,
                kind: new.payload.kind(),
                payload: &payload,
                totals: latest.after(&payload),
            };
            let key = admission.idempotency.map(|key| NewKey {
                user: new.user,
                key: key.key,
                request_hash: key.request_hash,
                submission: row.id,
            });
            let stored = insert_queued(&mut tx, &row, key, self.origin, now).await?;
            tx.commit().await?;
            Ok(AdmissionOutcome::Queued(stored))
        })
        .await
    }
}

/// The submission a user's idempotency key made, and the hash of the
/// request that made it, read on `target`.
async fn stored_key(
    target: impl Into<Target<'_>>,
    user: &str,
    key: &str,
) -> Result<Option<(SubmissionId, String)>, StoreError> {
    query(
        "select submission_id, request_hash from idempotency_key \
         where user_name = $1 and key_value = $2",
    )
    .bind(user)
    .bind(key)
    .fetch_optional(target)
    .await?
    .map(|row| {
        Ok((
            parse_column(&row, "submission_id")?,
            row.try_get("request_hash")?,
        ))
    })
    .transpose()
}

/// A user's stored submissions as the limits count them: those pending,
/// those of the last minute, and the bytes of the last day (0 where the
/// limits do not need the count).
#[derive(Debug, Clone, Copy, Default)]
struct Counts {
    pending: i64,
    recent: i64,
    used: i64,
}

/// The place of `user`'s latest submission among theirs (which the new one
/// follows) and the [`Counts`] `limits` need, in one statement, each read
/// from at most two rows found by an index, however many submissions the
/// user has: the pending ones are counted (a partial index holds only
/// those), the windowed ones are the difference of the user's latest
/// submission's [`UserTotals`] and those of the first one in the window
/// (see the migration that added them). A limit not set costs nothing.
async fn stored_counts(
    tx: &mut Tx,
    user: &str,
    limits: Option<&LimitsConfig>,
    now: i64,
) -> Result<(UserTotals, Counts), StoreError> {
    let needed = CountsNeeded {
        pending: limits.is_some_and(|l| l.pending_submissions.is_some()),
        recent: limits.is_some_and(|l| l.submissions_per_minute.is_some()),
        used: limits.is_some_and(|l| l.bytes_per_day.is_some()),
    };
    let users = BTreeSet::from([user]);
    let row = stored_counts_statement(tx.dialect(), &users, needed, now)
        .fetch_one(&mut *tx)
        .await?;
    let latest = UserTotals {
        submissions: row.try_get("ordinal")?,
        bytes: row.try_get("bytes")?,
    };
    let first_recent: Option<i64> = row.try_get("first_recent")?;
    let bytes_before_day: Option<i64> = row.try_get("bytes_before_day")?;
    let counts = Counts {
        pending: row.try_get("pending")?,
        recent: first_recent.map_or(0, |first| latest.submissions - first + 1),
        used: bytes_before_day.map_or(0, |before| latest.bytes - before),
    };
    Ok((latest, counts))
}

/// The statement of [`stored_counts`] for `users`: a row each.
pub(super) fn stored_counts_statement<'a>(
    dialect: Dialect,
    users: &BTreeSet<&'a str>,
    needed: CountsNeeded,
    now: i64,
) -> Statement<'a> {
    let CountsNeeded {
        pending,
        recent,
        used,
    } = needed;
    let mut counts = query("");
    for (index, user) in users.iter().enumerate() {
        counts = counts
            .push(if index == 0 {
                "select "
            } else {
                " union all select "
            })
            .push("cast(")
            .push_bind(*user)
            .push(" as text) as user_name, coalesce((select user_ordinal from submission where user_name = ")
            .push_bind(*user)
            .push(LATEST_OF_USER)
            .push("), 0) as ordinal, coalesce((select user_bytes from submission where user_name = ")
            .push_bind(*user)
            .push(LATEST_OF_USER)
            .push("), 0) as bytes, ");
        // SQLite, without statistics, took the windows' index for this
        // count as readily as the partial index of pending rows, and then
        // read every submission of the user.
        counts = if pending {
            counts
                .push(dialect.pick(
                    "(select count(*) from submission indexed by submission_pending_by_user \
                     where user_name = ",
                    "(select count(*) from submission where user_name = ",
                ))
                .push_bind(*user)
                .push(" and state != 'done')")
        } else {
            counts.push("cast(0 as bigint)")
        };
        counts = counts.push(" as pending");
        // The user's first submission in each window, in ordinal order
        // (null if none): its ordinal, and the bytes before it.
        let windows = [
            (recent, "user_ordinal", now - MINUTE_MS, " as first_recent"),
            (
                used,
                "user_bytes - size_bytes",
                now - DAY_MS,
                " as bytes_before_day",
            ),
        ];
        for (needed, column, since, name) in windows {
            counts = if needed {
                counts
                    .push(", (select ")
                    .push(column)
                    .push(" from submission where user_name = ")
                    .push_bind(*user)
                    .push(" and created_at > ")
                    .push_bind(since)
                    .push(" order by created_at, user_ordinal limit 1)")
            } else {
                counts.push(", cast(null as bigint)")
            };
            counts = counts.push(name);
        }
    }
    counts
}

/// Which of the windowed or pending counts a batch's limits need.
#[derive(Debug, Clone, Copy)]
pub(super) struct CountsNeeded {
    pub pending: bool,
    pub recent: bool,
    pub used: bool,
}

/// The first limit the new submission would break, if any.
///
/// `counts` are the user's stored submissions ([`stored_counts`]).
async fn first_exceeded(
    tx: &mut Tx,
    user: &str,
    size: i64,
    limits: &LimitsConfig,
    now: i64,
    counts: Counts,
) -> Result<Option<LimitExceeded>, StoreError> {
    let since_minute = now - MINUTE_MS;
    let since_day = now - DAY_MS;
    let Counts {
        pending,
        recent,
        used,
    } = counts;
    if let Some(limit) = limits.pending_submissions
        && pending >= i64::from(limit)
    {
        return Ok(Some(LimitExceeded {
            limit: UserLimit::PendingSubmissions(limit),
            retry_after: Duration::from_secs(1),
        }));
    }
    if let Some(limit) = limits.submissions_per_minute
        && recent >= i64::from(limit)
    {
        // Room for one more once all but `limit - 1` of them are older
        // than a minute: when the one at this offset, oldest first, is.
        let offset = recent - i64::from(limit);
        let freeing: i64 = if offset < recent {
            query(
                "select created_at from submission where user_name = $1 and created_at > $2 \
                 order by created_at limit 1 offset $3",
            )
            .bind(user)
            .bind(since_minute)
            .bind(offset)
            .fetch_one(&mut *tx)
            .await?
            .try_get("created_at")?
        } else {
            now
        };
        return Ok(Some(LimitExceeded {
            limit: UserLimit::SubmissionsPerMinute(limit),
            retry_after: until(freeing + MINUTE_MS, now),
        }));
    }
    if let Some(limit) = limits.bytes_per_day {
        let limit_bytes = i64::try_from(limit).unwrap_or(i64::MAX);
        if used.saturating_add(size) > limit_bytes {
            // Walk the day's submissions oldest first until enough bytes
            // have left the window for this one to fit.
            let rows = query(
                "select created_at, size_bytes from submission \
                 where user_name = $1 and created_at > $2 order by created_at",
            )
            .bind(user)
            .bind(since_day)
            .fetch_all(&mut *tx)
            .await?;
            let mut remaining = used;
            let mut freed_at = now + DAY_MS;
            for row in &rows {
                let created_at: i64 = row.try_get("created_at")?;
                let bytes: i64 = row.try_get("size_bytes")?;
                remaining -= bytes;
                if remaining.saturating_add(size) <= limit_bytes {
                    freed_at = created_at + DAY_MS;
                    break;
                }
            }
            return Ok(Some(LimitExceeded {
                limit: UserLimit::BytesPerDay(limit),
                retry_after: until(freed_at, now),
            }));
        }
    }
    Ok(None)
}
