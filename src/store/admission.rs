//! Taking a new submission in: its `Idempotency-Key` and the per-user limits,
//! checked in the same write transaction as the insert.
//!
//! Everything is counted from the database, not from memory, so the limits
//! hold across restarts and would hold across several API processes on one
//! database. The transaction is exclusive for the user (SQLite's `begin
//! immediate`, a PostgreSQL advisory lock on the user's name): it holds the
//! lock before it reads, so two requests (from this process or another)
//! cannot both count the same rows and both slip under a limit.

use std::time::Duration;

use super::{
    Store, StoreError,
    backend::{Tx, query},
    now_ms, parse_column,
    queue::NewSubmission,
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
    /// Stored and queued.
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
        let row = query(
            "select submission_id, request_hash from idempotency_key \
             where user_name = $1 and key_value = $2",
        )
        .bind(user)
        .bind(key)
        .fetch_optional(&self.read)
        .await?;
        row.map(|row| {
            Ok((
                parse_column(&row, "submission_id")?,
                row.try_get("request_hash")?,
            ))
        })
        .transpose()
    }

    /// Replays, refuses or inserts a submission: first its idempotency key,
    /// then the limits, then the insert (with the key), all in one
    /// transaction.
    pub async fn admit(&self, admission: &Admission<'_>) -> Result<AdmissionOutcome, StoreError> {
        self.noted(async {
            let now = now_ms();
            let user = admission.submission.user;
            let mut tx = self
                .write
                .begin_exclusive(&format!("admission {user}"))
                .await?;
            if let Some(idempotency) = admission.idempotency {
                let earlier = query(
                    "select submission_id, request_hash from idempotency_key \
                 where user_name = $1 and key_value = $2",
                )
                .bind(user)
                .bind(idempotency.key)
                .fetch_optional(&mut tx)
                .await?;
                if let Some(row) = earlier {
                    let id: SubmissionId = parse_column(&row, "submission_id")?;
                    let hash: String = row.try_get("request_hash")?;
                    tx.rollback().await?;
                    return Ok(if hash == idempotency.request_hash {
                        AdmissionOutcome::Replayed(id)
                    } else {
                        AdmissionOutcome::KeyReused(id)
                    });
                }
            }
            if let Some(limits) = admission.limits
                && let Some(exceeded) =
                    first_exceeded(&mut tx, user, admission.submission.payload, limits, now).await?
            {
                tx.rollback().await?;
                return Ok(AdmissionOutcome::Limited(exceeded));
            }
            let submission =
                super::queue::insert_queued(&mut tx, &admission.submission, now).await?;
            if let Some(idempotency) = admission.idempotency {
                query(
                "insert into idempotency_key (user_name, key_value, request_hash, submission_id, \
                 created_at) values ($1, $2, $3, $4, $5)",
            )
            .bind(user)
            .bind(idempotency.key)
            .bind(idempotency.request_hash)
            .bind(submission.id.to_string())
            .bind(now)
            .execute(&mut tx)
            .await?;
            }
            tx.commit().await?;
            Ok(AdmissionOutcome::Queued(submission))
        })
        .await
    }
}

/// The first limit the new submission would break, if any.
async fn first_exceeded(
    tx: &mut Tx,
    user: &str,
    payload: &crate::domain::Payload,
    limits: &LimitsConfig,
    now: i64,
) -> Result<Option<LimitExceeded>, StoreError> {
    // The counts the limits set need, in one statement (one round trip to
    // the database), each served by an index of the user's submissions; a
    // limit that is off costs nothing. The limits are then checked in order.
    if limits.pending_submissions.is_none()
        && limits.submissions_per_minute.is_none()
        && limits.bytes_per_day.is_none()
    {
        return Ok(None);
    }
    let since_minute = now - MINUTE_MS;
    let since_day = now - DAY_MS;
    let none = "cast(0 as bigint)";
    let mut counts = query("select ");
    counts = if limits.pending_submissions.is_some() {
        counts
            .push("(select count(*) from submission where user_name = ")
            .push_bind(user)
            .push(" and state != 'done')")
    } else {
        counts.push(none)
    };
    counts = counts.push(" as pending, ");
    counts = if limits.submissions_per_minute.is_some() {
        counts
            .push("(select count(*) from submission where user_name = ")
            .push_bind(user)
            .push(" and created_at > ")
            .push_bind(since_minute)
            .push(")")
    } else {
        counts.push(none)
    };
    counts = counts.push(" as recent, ");
    counts = if limits.bytes_per_day.is_some() {
        counts
            .push("(select cast(coalesce(sum(size_bytes), 0) as bigint) from submission where user_name = ")
            .push_bind(user)
            .push(" and created_at > ")
            .push_bind(since_day)
            .push(")")
    } else {
        counts.push(none)
    };
    let counts = counts.push(" as used").fetch_one(&mut *tx).await?;
    let pending: i64 = counts.try_get("pending")?;
    let recent: i64 = counts.try_get("recent")?;
    let used: i64 = counts.try_get("used")?;
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
        let freeing: i64 = query(
            "select created_at from submission where user_name = $1 and created_at > $2 \
             order by created_at limit 1 offset $3",
        )
        .bind(user)
        .bind(since_minute)
        .bind(recent - i64::from(limit))
        .fetch_one(&mut *tx)
        .await?
        .try_get("created_at")?;
        return Ok(Some(LimitExceeded {
            limit: UserLimit::SubmissionsPerMinute(limit),
            retry_after: until(freeing + MINUTE_MS, now),
        }));
    }
    if let Some(limit) = limits.bytes_per_day {
        let size = serde_json::to_vec(payload)
            .map_err(|e| StoreError::Corrupt(format!("cannot encode a payload: {e}")))?
            .len();
        let size = i64::try_from(size).unwrap_or(i64::MAX);
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
