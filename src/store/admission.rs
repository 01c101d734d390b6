//! Taking a new submission in: its `Idempotency-Key` and the per-user limits,
//! checked against what is stored when it is inserted.
//!
//! Everything is counted from the database, not from memory, so the limits
//! hold across restarts and across hosts on one database. Admissions are
//! decided in a transaction that holds the turn submissions' inserts take
//! (SQLite's write lock from `begin immediate`; PostgreSQL's advisory lock,
//! sent with the `BEGIN`) from its start, so two requests (from this host
//! or another) cannot both count the same rows and both slip under a limit.
//! This module holds the store's one task: the admission task, a group
//! commit of the admissions that arrive together (see [`Store::admit`]).

use std::{collections::BTreeSet, sync::Arc, time::Duration};

use tokio::sync::{OnceCell, mpsc, oneshot};

use super::{
    Store, StoreError,
    backend::{Dialect, Statement, Target, Tx, query},
    contests::{self, CellKey, CellScope},
    notices, now_ms, parse_column,
    queue::{
        ContestWindow, LATEST_OF_USER, NewKey, NewSubmission, OrderedTx, QueuedRow, UserTotals,
        encode_payload, encode_sizes, insert_queued,
    },
};
use crate::{
    config::LimitsConfig,
    domain::{ContestId, LanguageId, Payload, ProblemId, Submission, SubmissionId, SubmissionKind},
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
    Queued(Box<Submission>),
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

    /// Whether `size` more bytes would take `user` past
    /// `limits.bytes_per_day` now, and when they would fit: the admission's
    /// own count and wait, read without the admission's turn. A submission
    /// refused here is refused before it is hashed and encoded; one let
    /// through is decided again when it is admitted.
    pub async fn over_bytes_per_day(
        &self,
        user: &str,
        size: u64,
        limits: &LimitsConfig,
    ) -> Result<Option<LimitExceeded>, StoreError> {
        let bytes_only = LimitsConfig {
            bytes_per_day: limits.bytes_per_day,
            ..LimitsConfig::default()
        };
        let size = i64::try_from(size).unwrap_or(i64::MAX);
        let now = now_ms();
        let mut tx = self.read.begin().await?;
        let (_, counts) = stored_counts(&mut tx, user, Some(&bytes_only), now).await?;
        first_exceeded(&mut tx, user, size, &bytes_only, now, counts).await
    }

    /// Replays, refuses or inserts a submission: first its idempotency key,
    /// then the limits, then the insert (with the key).
    ///
    /// Admissions arriving together share one transaction (a group commit):
    /// the store's one admission task takes every admission waiting, up to
    /// [`ADMISSIONS_PER_TRANSACTION`], and decides them in turn in a
    /// transaction that holds the inserts' turn ([`OrderedTx`]) from its
    /// start, so each is decided as if alone, seeing the ones before it as
    /// stored, and nothing another host stores can slip between what an
    /// admission counts and its insert. If that transaction fails, each of
    /// its admissions is tried again alone, so each gets its own outcome.
    pub async fn admit(&self, admission: &Admission<'_>) -> Result<AdmissionOutcome, StoreError> {
        let owned = OwnedAdmission::new(admission)?;
        let sender = self
            .admissions
            .0
            .get_or_init(|| async {
                let (sender, receiver) = mpsc::channel(ADMISSION_QUEUE);
                // The task's handle has a queue of its own, never used, so
                // dropping the last other handle ends the task.
                let store = Store {
                    admissions: AdmissionQueue::default(),
                    ..self.clone()
                };
                tokio::spawn(store.take_admissions(receiver));
                sender
            })
            .await;
        let (reply, answer) = oneshot::channel();
        if let Err(mpsc::error::SendError((owned, _))) = sender.send((owned, reply)).await {
            // The task is gone (its runtime is stopping): admit here, alone.
            return self.admit_alone(&owned).await;
        }
        answer.await.map_err(|_| StoreError::WriterGone)?
    }

    /// The admission task (see [`Store::admit`]).
    async fn take_admissions(self, mut queue: mpsc::Receiver<(OwnedAdmission, Reply)>) {
        while let Some(first) = queue.recv().await {
            let mut batch = vec![first];
            while batch.len() < ADMISSIONS_PER_TRANSACTION {
                match queue.try_recv() {
                    Ok(next) => batch.push(next),
                    Err(_) => break,
                }
            }
            let (admissions, replies): (Vec<_>, Vec<_>) = batch.into_iter().unzip();
            match self.admit_together(&admissions).await {
                Ok(outcomes) => {
                    for (reply, outcome) in replies.into_iter().zip(outcomes) {
                        let _ = reply.send(Ok(outcome));
                    }
                }
                Err(error) if admissions.len() == 1 => {
                    if let Some(reply) = replies.into_iter().next() {
                        let _ = reply.send(Err(error));
                    }
                }
                Err(_) => {
                    for (admission, reply) in admissions.iter().zip(replies) {
                        let _ = reply.send(self.admit_alone(admission).await);
                    }
                }
            }
        }
    }

    /// One admission in a transaction of its own.
    async fn admit_alone(
        &self,
        admission: &OwnedAdmission,
    ) -> Result<AdmissionOutcome, StoreError> {
        let mut outcomes = self.admit_together(std::slice::from_ref(admission)).await?;
        outcomes
            .pop()
            .ok_or_else(|| StoreError::Corrupt("an admission was left without an outcome".into()))
    }

    /// Decides `admissions` in turn and stores those admitted, in one
    /// transaction holding the inserts' turn; their outcomes, in order.
    async fn admit_together(
        &self,
        admissions: &[OwnedAdmission],
    ) -> Result<Vec<AdmissionOutcome>, StoreError> {
        self.noted(async {
            let mut tx = OrderedTx::begin(&self.write).await?;
            let mut outcomes = Vec::with_capacity(admissions.len());
            for admission in admissions {
                outcomes.push(decide(&mut tx, admission).await?);
            }
            if outcomes
                .iter()
                .any(|outcome| matches!(outcome, AdmissionOutcome::Queued(_)))
            {
                notices::job_queued(tx.tx(), self.origin).await?;
            }
            // Last, so the contests' row locks are held only to the commit.
            let cells: BTreeSet<CellKey> = outcomes
                .iter()
                .filter_map(|outcome| match outcome {
                    AdmissionOutcome::Queued(stored) if stored.contest_time_ms.is_some() => {
                        let contest = stored.contest.as_ref()?;
                        Some((
                            contest.as_str().to_string(),
                            stored.user.clone(),
                            stored.problem.as_str().to_string(),
                        ))
                    }
                    _ => None,
                })
                .collect();
            contests::refresh_cells(tx.tx(), CellScope::Cells(&cells)).await?;
            tx.commit().await?;
            Ok(outcomes)
        })
        .await
    }
}

/// Decides one admission in `tx` (which sees the admissions before it in
/// the same transaction as stored) and inserts it if it is admitted.
async fn decide(
    tx: &mut OrderedTx,
    admission: &OwnedAdmission,
) -> Result<AdmissionOutcome, StoreError> {
    let now = now_ms();
    let user = admission.user.as_str();
    if let Some((key, request_hash)) = &admission.idempotency
        && let Some((id, hash)) = stored_key(tx.tx(), user, key).await?
    {
        return Ok(if &hash == request_hash {
            AdmissionOutcome::Replayed(id)
        } else {
            AdmissionOutcome::KeyReused(id)
        });
    }
    let limits = admission.limits.as_ref();
    let size = i64::try_from(admission.payload.len()).unwrap_or(i64::MAX);
    let (mut latest, counts) = stored_counts(tx.tx(), user, limits, now).await?;
    if let Some(limits) = limits
        && let Some(exceeded) = first_exceeded(tx.tx(), user, size, limits, now, counts).await?
    {
        return Ok(AdmissionOutcome::Limited(exceeded));
    }
    let row = QueuedRow {
        id: SubmissionId::new(),
        problem: &admission.problem,
        user,
        kind: admission.kind,
        language: admission.language.as_ref().map(LanguageId::as_str),
        payload: &admission.payload,
        sizes: admission.sizes.as_deref(),
        totals: latest.after(&admission.payload),
        contest: admission.contest.as_ref().map(|(id, _, _)| id),
        contest_time_ms: admission
            .contest
            .as_ref()
            .and_then(|(contest, starts, ends)| {
                ContestWindow {
                    contest,
                    starts_at_ms: *starts,
                    ends_at_ms: *ends,
                }
                .contest_time_ms(now)
            }),
    };
    let key = admission
        .idempotency
        .as_ref()
        .map(|(key, request_hash)| NewKey {
            user,
            key,
            request_hash,
            submission: row.id,
        });
    Ok(AdmissionOutcome::Queued(Box::new(
        insert_queued(tx, &row, key, now).await?,
    )))
}

/// Admissions waiting for the admission task, at most; more wait to join.
const ADMISSION_QUEUE: usize = 1024;
/// Admissions in one transaction, at most.
const ADMISSIONS_PER_TRANSACTION: usize = 64;

/// Where an admission's outcome goes.
type Reply = oneshot::Sender<Result<AdmissionOutcome, StoreError>>;

/// The queue of the admission task, started by the first admission.
#[derive(Debug, Clone, Default)]
pub(super) struct AdmissionQueue(Arc<OnceCell<mpsc::Sender<(OwnedAdmission, Reply)>>>);

/// An [`Admission`] as the admission task holds it: owned, its payload
/// encoded as stored.
#[derive(Debug)]
struct OwnedAdmission {
    problem: ProblemId,
    user: String,
    kind: SubmissionKind,
    language: Option<LanguageId>,
    payload: String,
    /// The payload's sizes as stored (JSON); none for a program.
    sizes: Option<String>,
    /// The contest, and the submitter's window in it.
    contest: Option<(ContestId, i64, i64)>,
    /// The key and the request's hash.
    idempotency: Option<(String, String)>,
    limits: Option<LimitsConfig>,
}

impl OwnedAdmission {
    fn new(admission: &Admission<'_>) -> Result<OwnedAdmission, StoreError> {
        let new = &admission.submission;
        Ok(OwnedAdmission {
            problem: new.problem.clone(),
            user: new.user.to_string(),
            kind: new.payload.kind(),
            language: match new.payload {
                Payload::Program { language, .. } => Some(language.clone()),
                Payload::Answers { .. } | Payload::Custom { .. } => None,
            },
            payload: encode_payload(new.payload)?,
            sizes: new.payload.sizes().as_ref().map(encode_sizes).transpose()?,
            contest: new
                .contest
                .map(|w| (w.contest.clone(), w.starts_at_ms, w.ends_at_ms)),
            idempotency: admission
                .idempotency
                .map(|key| (key.key.to_string(), key.request_hash.to_string())),
            limits: admission.limits.cloned(),
        })
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
    let row = stored_counts_statement(tx.dialect(), user, needed, now)
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

/// The statement of [`stored_counts`] for `user`: one row.
pub(super) fn stored_counts_statement<'a>(
    dialect: Dialect,
    user: &'a str,
    needed: CountsNeeded,
    now: i64,
) -> Statement<'a> {
    let CountsNeeded {
        pending,
        recent,
        used,
    } = needed;
    let mut counts =
        query("select coalesce((select user_ordinal from submission where user_name = ")
            .push_bind(user)
            .push(LATEST_OF_USER)
            .push(
                "), 0) as ordinal, coalesce((select user_bytes from submission where user_name = ",
            )
            .push_bind(user)
            .push(LATEST_OF_USER)
            .push("), 0) as bytes, ");
    // SQLite, without statistics, took the windows' index for this count as
    // readily as the partial index of pending rows, and then read every
    // submission of the user.
    counts = if pending {
        counts
            .push(dialect.pick(
                "(select count(*) from submission indexed by submission_pending_by_user \
                 where user_name = ",
                "(select count(*) from submission where user_name = ",
            ))
            .push_bind(user)
            .push(" and state != 'done')")
    } else {
        counts.push("cast(0 as bigint)")
    };
    counts = counts.push(" as pending");
    // The user's first submission in each window, in ordinal order (null if
    // none): its ordinal, and the bytes before it.
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
                .push_bind(user)
                .push(" and created_at > ")
                .push_bind(since)
                .push(" order by created_at, user_ordinal limit 1)")
        } else {
            counts.push(", cast(null as bigint)")
        };
        counts = counts.push(name);
    }
    counts
}

/// Which of the windowed or pending counts an admission's limits need.
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
