//! Taking a new submission in: its `Idempotency-Key` and the per-user limits,
//! checked against what is stored when it is inserted.
//!
//! Everything is counted from the database, not from memory, so the limits
//! hold across restarts and would hold across several API processes on one
//! database. On PostgreSQL the transaction holds, before it reads, the
//! advisory lock that submissions' inserts take turns by (sent with the
//! `BEGIN`), so two requests (from this host or another) cannot both count
//! the same rows and both slip under a limit. On SQLite the reads come
//! first, outside the write transaction, and the insert fails on a unique
//! index if another process admitted a submission for the same user
//! meanwhile; the batch is then decided again holding the write lock
//! (`begin immediate`) from its start (see [`Store::admit_together`]).

use std::{
    collections::{BTreeSet, HashMap},
    sync::Arc,
    time::Duration,
};

use tokio::sync::{OnceCell, mpsc, oneshot};

use super::{
    Store, StoreError,
    backend::{Dialect, Statement, Target, Tx, query},
    now_ms, parse_column,
    queue::{
        Claim, ClaimFor, ClaimedBy, InsertTurn, JudgedBy, JudgementWrite, LATEST_OF_USER, NewKey,
        NewRows, NewSubmission, OrderedTx, QueuedRow, RowStart, UserTotals, claimed_at_insert,
        commit_queued_rows, decode_payload, encode_payload, judged_at_insert_writes,
    },
    waiting_workers::Offer,
};
use crate::{
    config::LimitsConfig,
    domain::{ProblemId, Submission, SubmissionId, SubmissionKind, SubmissionState},
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
    /// Stored: as committed, so `running` if a waiting worker of this
    /// process claimed it in the same transaction (see
    /// [`Store::offer_to_claim`]), `done` with its verdict if one judged
    /// it before it was stored (see `Store::judge_first`).
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

    /// Replays, refuses or inserts a submission: first its idempotency key,
    /// then the limits, then the insert (with the key), all in one
    /// transaction.
    ///
    /// Admissions arriving together are taken together: one task holds the
    /// queue of admissions, and while a transaction runs, the next ones
    /// wait and then go in one transaction (a group commit), each decided
    /// as if it were alone (see [`Store::admit_together`]).
    pub async fn admit(&self, admission: &Admission<'_>) -> Result<AdmissionOutcome, StoreError> {
        let queued = QueuedAdmission::new(admission)?;
        let sender = self
            .admissions
            .0
            .get_or_init(|| async {
                let (sender, receiver) = mpsc::channel(ADMISSION_QUEUE);
                // The task's own handle has a queue of its own, never used,
                // so dropping the last other handle ends the task.
                let store = Store {
                    admissions: AdmissionQueue::default(),
                    ..self.clone()
                };
                tokio::spawn(store.take_admissions(receiver));
                sender
            })
            .await;
        let (reply, answer) = oneshot::channel();
        if let Err(mpsc::error::SendError((queued, _))) = sender.send((queued, reply)).await {
            // The task is gone (its runtime stopped): admit here, alone.
            let mut outcomes = self.admit_together(std::slice::from_ref(&queued)).await?;
            return outcomes.pop().ok_or_else(undecided);
        }
        answer.await.map_err(|_| StoreError::WriterGone)?
    }

    /// The admission task: takes every admission waiting, up to
    /// [`ADMISSIONS_PER_TRANSACTION`], into one transaction, and answers
    /// each. If that transaction fails, each is tried again alone, so each
    /// gets its own outcome or error.
    async fn take_admissions(self, mut queue: mpsc::Receiver<(QueuedAdmission, Reply)>) {
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
                        let outcome = self
                            .admit_together(std::slice::from_ref(admission))
                            .await
                            .and_then(|mut outcomes| outcomes.pop().ok_or_else(undecided));
                        let _ = reply.send(outcome);
                    }
                }
            }
        }
    }

    /// Decides and stores `admissions` in one transaction, in order, each as
    /// if it were alone: an admission sees the ones before it in the batch
    /// as if they were stored already (their idempotency keys, and their
    /// count and bytes in the user's limits). Those admitted are inserted
    /// together at the end.
    ///
    /// The counts and keys are read first, before the inserts take their
    /// turn: on SQLite the one writer is held for one hand-off (the inserts
    /// and the `COMMIT`, one script) instead of two with this task's
    /// decisions between them; on PostgreSQL the insert is one statement
    /// that takes the turn itself (one round trip, where a transaction
    /// holding the turn from its `BEGIN` took four). What was read can only
    /// have changed by another process's admission for the same user
    /// meanwhile, and then the insert fails (on SQLite on a unique index,
    /// the user's ordinal or the key; on PostgreSQL the turn finds the
    /// user's latest submission changed, or the key's unique index), stores
    /// nothing, and the batch is decided again holding the turn from the
    /// start. Verdicts meanwhile only lower the counts; a setter's rejudge
    /// meanwhile can raise a user's pending count past what was read, and
    /// so leave that user one over the pending limit.
    async fn admit_together(
        &self,
        admissions: &[QueuedAdmission],
    ) -> Result<Vec<AdmissionOutcome>, StoreError> {
        self.noted(async {
            match self.decide_and_insert(admissions, Reading::First).await {
                Err(StoreError::Database(sqlx::Error::Database(error)))
                    if error.is_unique_violation()
                        || error.code().as_deref() == Some(SERIALIZATION_FAILURE) => {}
                outcome => return outcome,
            }
            self.decide_and_insert(admissions, Reading::HoldingTheLock)
                .await
        })
        .await
    }

    /// [`Store::admit_together`]'s work, reading the counts and keys as
    /// `reading` says.
    async fn decide_and_insert(
        &self,
        admissions: &[QueuedAdmission],
        reading: Reading,
    ) -> Result<Vec<AdmissionOutcome>, StoreError> {
        let now = now_ms();
        // Held from the start, admissions take turns (the lock
        // submissions' inserts take anyway), so what they count cannot
        // change before they insert, on any host.
        let mut holding = match reading {
            Reading::HoldingTheLock => Some(OrderedTx::begin(&self.write).await?),
            Reading::First => None,
        };
        let mut reads = match holding.as_mut() {
            Some(ordered) => Reads::Tx(ordered.tx()),
            None => Reads::Pool(&self.read),
        };
        let ids: Vec<SubmissionId> = admissions.iter().map(|_| SubmissionId::new()).collect();
        let mut outcomes: Vec<Option<AdmissionOutcome>> = vec![None; admissions.len()];
        let stored = stored_counts(&mut reads, admissions, now).await?;
        let mut keys_in_batch: HashMap<(&str, &str), (SubmissionId, &str)> = HashMap::new();
        let mut in_batch: HashMap<&str, InBatch> = HashMap::new();
        let mut admitted = Vec::new();
        for (index, admission) in admissions.iter().enumerate() {
            let user = admission.user.as_str();
            if let Some((key, hash)) = &admission.idempotency {
                let earlier = match keys_in_batch.get(&(user, key.as_str())) {
                    Some((id, hash)) => Some((*id, hash.to_string())),
                    None => stored_key(reads.target(), user, key).await?,
                };
                if let Some((id, earlier_hash)) = earlier {
                    outcomes[index] = Some(if &earlier_hash == hash {
                        AdmissionOutcome::Replayed(id)
                    } else {
                        AdmissionOutcome::KeyReused(id)
                    });
                    continue;
                }
            }
            let size = i64::try_from(admission.payload.len()).unwrap_or(i64::MAX);
            let before = in_batch.get(user).copied().unwrap_or_default();
            if let Some(limits) = &admission.limits
                && let Some(exceeded) = first_exceeded(
                    reads.target(),
                    user,
                    size,
                    limits,
                    now,
                    stored.get(user).copied().unwrap_or_default(),
                    before,
                )
                .await?
            {
                outcomes[index] = Some(AdmissionOutcome::Limited(exceeded));
                continue;
            }
            let counted = in_batch.entry(user).or_default();
            counted.submissions += 1;
            counted.bytes = counted.bytes.saturating_add(size);
            if let Some((key, hash)) = &admission.idempotency {
                keys_in_batch.insert((user, key.as_str()), (ids[index], hash.as_str()));
            }
            admitted.push(index);
        }
        // Each row follows its user's latest, in the batch's order.
        let mut totals: HashMap<&str, UserTotals> = stored
            .iter()
            .map(|(user, stored)| (*user, stored.latest))
            .collect();
        let rows: Vec<QueuedRow<'_>> = admitted
            .iter()
            .map(|&index| {
                let admission = &admissions[index];
                let user = admission.user.as_str();
                QueuedRow {
                    id: ids[index],
                    problem: &admission.problem,
                    user,
                    kind: admission.kind,
                    payload: &admission.payload,
                    totals: totals.entry(user).or_default().after(&admission.payload),
                }
            })
            .collect();
        if holding.is_none() && rows.is_empty() {
            // Read first, and nothing to write (every admission replayed or
            // over a limit): the writer is not needed.
            return decided(outcomes);
        }
        let keys: Vec<NewKey<'_>> = admitted
            .iter()
            .filter_map(|&index| {
                let admission = &admissions[index];
                admission
                    .idempotency
                    .as_ref()
                    .map(|(key, request_hash)| NewKey {
                        user: &admission.user,
                        key,
                        request_hash,
                        submission: ids[index],
                    })
            })
            .collect();
        // Workers of this process waiting for a job take these jobs in
        // this transaction, as many workers as a claim each needs (a
        // claim takes a run of answers jobs, or one program): a batch
        // of answers goes to one worker, one write for its verdicts.
        let offers = self.waiting_workers.take(claim_groups(&rows));
        let offered: Vec<(String, Duration, usize)> = offers
            .iter()
            .map(|offer| (offer.worker.clone(), offer.lease, offer.max))
            .collect();
        let claim_for: Vec<ClaimFor<'_>> = offered
            .iter()
            .map(|(worker, lease, max)| ClaimFor {
                worker,
                lease: *lease,
                max: *max,
            })
            .collect();
        let claimed_by = claimed_at_insert(&rows, &claim_for);
        // A worker whose jobs can be judged at once judges them first, and
        // they go in done: one write of each row, none of the worker's.
        // (On SQLite before the writer is taken.)
        let (kept, judged) = self.judge_first(&rows, &claimed_by, offers, now).await;
        let judged_at = now_ms();
        // Read first, PostgreSQL's insert takes the turn in its own
        // statement, which checks that what was read still holds.
        let turn = match (holding, self.write.dialect()) {
            (Some(ordered), _) => InsertTurn::Held(ordered),
            (None, Dialect::Postgres) => InsertTurn::InStatement(&self.write),
            (None, Dialect::Sqlite) => InsertTurn::Held(OrderedTx::begin(&self.write).await?),
        };
        let judged_by: Vec<JudgedBy<'_>> = judged
            .iter()
            .map(|(_, claim, judgement)| JudgedBy {
                claim,
                judgement,
                judged_at,
            })
            .collect();
        let mut starts: Vec<RowStart<'_>> = claimed_by
            .iter()
            .map(|by| match by {
                Some(by) if kept.iter().any(|offer| offer.worker == by.worker) => {
                    RowStart::Claimed(*by)
                }
                // Its worker judged it, or could not: queued unless judged.
                _ => RowStart::Queued,
            })
            .collect();
        for ((index, ..), by) in judged.iter().zip(&judged_by) {
            starts[*index] = RowStart::Judged(*by);
        }
        let then = judged_at_insert_writes(self.write.dialect(), &judged_by);
        let kept_for: Vec<ClaimFor<'_>> = claim_for
            .iter()
            .filter(|claim| kept.iter().any(|offer| offer.worker == claim.worker))
            .copied()
            .collect();
        let new = NewRows {
            rows: &rows,
            starts: &starts,
            keys: &keys,
        };
        let (inserted, claims) =
            commit_queued_rows(turn, new, then, &kept_for, self.origin, now).await?;
        let claimed: HashMap<SubmissionId, &Claim> = claims
            .iter()
            .flatten()
            .map(|claim| (claim.id, claim))
            .collect();
        for (index, mut submission) in admitted.into_iter().zip(inserted) {
            if let Some(claim) = claimed.get(&submission.id) {
                submission.state = SubmissionState::Running;
                submission.attempt = claim.attempt;
                submission.worker = Some(claim.worker.clone());
            }
            if submission.state == SubmissionState::Done {
                tracing::info!(
                    submission = %submission.id,
                    worker = submission.worker.as_deref().unwrap_or_default(),
                    verdict = submission.verdict.map_or("none", |v| v.as_str()),
                    "judged before it was stored"
                );
            }
            outcomes[index] = Some(AdmissionOutcome::Queued(submission));
        }
        drop(claimed);
        for (offer, claims) in kept.into_iter().zip(claims) {
            offer.hand(claims);
        }
        decided(outcomes)
    }

    /// Hands each of `offers` whose jobs (as `claimed_by` gives them out)
    /// can be judged at once the claims to judge first, and waits for the
    /// judgements (workers judge at the same time). Jobs can be judged at
    /// once if they are all answers, each at most
    /// [`JUDGED_FIRST_PAYLOAD_BYTES`], of problems whose testcases and
    /// references this process holds (see [`catalog_cache`]): no reference
    /// to compute, no read. Returns the offers not used so (to hand their
    /// claims after the commit), and each job judged: its row's index, its
    /// claim and judgement. The jobs of a worker that fails, declines or
    /// takes over [`JUDGED_FIRST_WAIT`] go in queued.
    ///
    /// [`catalog_cache`]: super::catalog_cache
    async fn judge_first(
        &self,
        rows: &[QueuedRow<'_>],
        claimed_by: &[Option<ClaimedBy<'_>>],
        offers: Vec<Offer>,
        now: i64,
    ) -> (Vec<Offer>, Vec<(usize, Claim, JudgementWrite)>) {
        let mut kept = Vec::new();
        let mut judging = Vec::new();
        for offer in offers {
            let indexes: Vec<usize> = claimed_by
                .iter()
                .enumerate()
                .filter(|(_, by)| by.is_some_and(|by| by.worker == offer.worker))
                .map(|(index, _)| index)
                .collect();
            let claims: Option<Vec<Claim>> = indexes
                .iter()
                .map(|&index| self.claim_to_judge_first(&rows[index], &offer.worker, now))
                .collect();
            match claims {
                Some(claims) if !claims.is_empty() => {
                    let worker = offer.worker.clone();
                    if let Some(judgements) = offer.judge_first(claims.clone()) {
                        judging.push((worker, indexes, claims, judgements));
                    }
                }
                _ => kept.push(offer),
            }
        }
        let mut judged = Vec::new();
        for (worker, indexes, claims, judgements) in judging {
            match tokio::time::timeout(JUDGED_FIRST_WAIT, judgements).await {
                Ok(Ok(Some(judgements))) if judgements.len() == claims.len() => {
                    judged.extend(
                        indexes
                            .into_iter()
                            .zip(claims)
                            .zip(judgements)
                            .map(|((index, claim), judgement)| (index, claim, judgement)),
                    );
                }
                Ok(_) => {}
                Err(_) => tracing::warn!(
                    worker,
                    "a worker took too long to judge jobs before they were stored; \
                     they go in queued"
                ),
            }
        }
        (kept, judged)
    }

    /// The claim under which `row` can be judged before it is stored, by
    /// `worker`, if it can (see [`Store::judge_first`]).
    fn claim_to_judge_first(&self, row: &QueuedRow<'_>, worker: &str, now: i64) -> Option<Claim> {
        if row.kind != SubmissionKind::Answers || row.payload.len() > JUDGED_FIRST_PAYLOAD_BYTES {
            return None;
        }
        let set = self.catalog_cache.judge_set(row.problem, 0)?;
        Some(Claim {
            id: row.id,
            problem: row.problem.clone(),
            payload: decode_payload(row.kind.as_str(), row.payload),
            attempt: 1,
            tries: 1,
            worker: worker.to_string(),
            revision: set.revision,
            queued_at: now,
            claimed_at: now,
        })
    }
}

/// The largest answers payload judged before it is stored: judging waits
/// on the admission of every submission behind it, so only what is
/// quickly judged is (a bigger answer is judged after, as a claim).
const JUDGED_FIRST_PAYLOAD_BYTES: usize = 64 * 1024;

/// How long an admission waits for jobs judged before they are stored; a
/// worker slower than that (it should take well under a millisecond) has
/// its jobs stored queued.
const JUDGED_FIRST_WAIT: Duration = Duration::from_secs(1);

/// Every admission's outcome, or [`undecided`] if the batch left one out.
fn decided(outcomes: Vec<Option<AdmissionOutcome>>) -> Result<Vec<AdmissionOutcome>, StoreError> {
    outcomes
        .into_iter()
        .map(|outcome| outcome.ok_or_else(undecided))
        .collect()
}

/// PostgreSQL's error code of a turn that found what its admission read
/// changed (`submission_turn`, PostgreSQL's migration 0010).
const SERIALIZATION_FAILURE: &str = "40001";

/// When an admission batch reads the counts and keys it decides by.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Reading {
    /// Before the insert takes its turn, on a read connection; the insert
    /// fails if what was read changed meanwhile (see
    /// [`Store::admit_together`]).
    First,
    /// Inside its write transaction, which holds the lock from its start.
    HoldingTheLock,
}

/// Where an admission batch's reads go.
enum Reads<'a> {
    Pool(&'a super::backend::Pool),
    Tx(&'a mut Tx),
}

impl Reads<'_> {
    fn target(&mut self) -> Target<'_> {
        match self {
            Reads::Pool(pool) => Target::Pool(pool),
            Reads::Tx(tx) => Target::Tx(tx),
        }
    }

    fn dialect(&self) -> Dialect {
        match self {
            Reads::Pool(pool) => pool.dialect(),
            Reads::Tx(tx) => tx.dialect(),
        }
    }
}

/// How many claims take `rows`, queued in this order behind an empty queue:
/// one a run of answers jobs, one a job of another kind (see
/// [`Store::claim_batch`]).
fn claim_groups(rows: &[QueuedRow<'_>]) -> usize {
    let mut groups = 0;
    let mut in_answers_run = false;
    for row in rows {
        let answers = row.kind == SubmissionKind::Answers;
        if !(answers && in_answers_run) {
            groups += 1;
        }
        in_answers_run = answers;
    }
    groups
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

/// An admission the batch left without an outcome: a bug, never a guess.
fn undecided() -> StoreError {
    StoreError::Corrupt("an admission was left without an outcome".into())
}

/// Admissions waiting for the admission task, at most; more wait to join.
const ADMISSION_QUEUE: usize = 1024;
/// Admissions in one transaction, at most.
const ADMISSIONS_PER_TRANSACTION: usize = 64;

/// Where an admission's outcome goes.
type Reply = oneshot::Sender<Result<AdmissionOutcome, StoreError>>;

/// The queue of the admission task, started by the first admission.
#[derive(Debug, Clone, Default)]
pub(super) struct AdmissionQueue(Arc<OnceCell<mpsc::Sender<(QueuedAdmission, Reply)>>>);

/// An [`Admission`] as the admission task holds it: owned, its payload
/// encoded as stored.
#[derive(Debug)]
struct QueuedAdmission {
    problem: ProblemId,
    user: String,
    kind: SubmissionKind,
    payload: String,
    /// The key and the request's hash.
    idempotency: Option<(String, String)>,
    limits: Option<LimitsConfig>,
}

impl QueuedAdmission {
    fn new(admission: &Admission<'_>) -> Result<QueuedAdmission, StoreError> {
        Ok(QueuedAdmission {
            problem: admission.submission.problem.clone(),
            user: admission.submission.user.to_string(),
            kind: admission.submission.payload.kind(),
            payload: encode_payload(admission.submission.payload)?,
            idempotency: admission
                .idempotency
                .map(|key| (key.key.to_string(), key.request_hash.to_string())),
            limits: admission.limits.cloned(),
        })
    }
}

/// A user's admissions earlier in the same transaction, not yet inserted.
#[derive(Debug, Clone, Copy, Default)]
struct InBatch {
    submissions: i64,
    bytes: i64,
}

/// A user's stored submissions as the limits count them: those pending,
/// those of the last minute, and the bytes of the last day (0 where no
/// admission's limits need the count); and the place of the user's latest
/// submission among theirs, which the batch's own follow.
#[derive(Debug, Clone, Copy, Default)]
struct Stored {
    pending: i64,
    recent: i64,
    used: i64,
    latest: UserTotals,
}

/// The [`Stored`] counts of every user among `admissions`, in one statement
/// (one round trip, however many users), each read from at most two rows
/// found by an index, however many submissions the user has: the pending
/// ones are counted (a partial index holds only those), the windowed ones
/// are the difference of the user's latest submission's [`UserTotals`] and
/// those of the first one in the window (see the migration that added
/// them). A limit no admission has costs nothing. The batch's own
/// admissions are inserted at its end and counted apart ([`InBatch`]).
async fn stored_counts<'a>(
    reads: &mut Reads<'_>,
    admissions: &'a [QueuedAdmission],
    now: i64,
) -> Result<HashMap<&'a str, Stored>, StoreError> {
    let limits: Vec<&LimitsConfig> = admissions
        .iter()
        .filter_map(|a| a.limits.as_ref())
        .collect();
    let pending = limits.iter().any(|l| l.pending_submissions.is_some());
    let recent = limits.iter().any(|l| l.submissions_per_minute.is_some());
    let used = limits.iter().any(|l| l.bytes_per_day.is_some());
    let users: BTreeSet<&str> = admissions.iter().map(|a| a.user.as_str()).collect();
    if users.is_empty() {
        return Ok(HashMap::new());
    }
    let counts = stored_counts_statement(
        reads.dialect(),
        &users,
        CountsNeeded {
            pending,
            recent,
            used,
        },
        now,
    );
    let rows = counts.fetch_all(reads.target()).await?;
    let mut stored = HashMap::with_capacity(rows.len());
    for row in &rows {
        let user: String = row.try_get("user_name")?;
        let user = users
            .get(user.as_str())
            .copied()
            .ok_or_else(|| StoreError::Corrupt(format!("counts of an unasked user `{user}`")))?;
        let latest = UserTotals {
            submissions: row.try_get("ordinal")?,
            bytes: row.try_get("bytes")?,
        };
        let first_recent: Option<i64> = row.try_get("first_recent")?;
        let bytes_before_day: Option<i64> = row.try_get("bytes_before_day")?;
        stored.insert(
            user,
            Stored {
                pending: row.try_get("pending")?,
                recent: first_recent.map_or(0, |first| latest.submissions - first + 1),
                used: bytes_before_day.map_or(0, |before| latest.bytes - before),
                latest,
            },
        );
    }
    Ok(stored)
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
/// `stored` are the user's stored submissions ([`stored_counts`]); `before`
/// their admissions earlier in the same transaction, counted as stored
/// (created now) though not yet inserted.
async fn first_exceeded(
    reads: Target<'_>,
    user: &str,
    size: i64,
    limits: &LimitsConfig,
    now: i64,
    stored: Stored,
    before: InBatch,
) -> Result<Option<LimitExceeded>, StoreError> {
    let since_minute = now - MINUTE_MS;
    let since_day = now - DAY_MS;
    let pending = stored.pending + before.submissions;
    let stored_recent = stored.recent;
    let recent = stored_recent + before.submissions;
    let used = stored.used.saturating_add(before.bytes);
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
        // than a minute: when the one at this offset, oldest first, is (one
        // of this transaction's, created now, if the offset passes the
        // stored ones).
        let offset = recent - i64::from(limit);
        let freeing: i64 = if offset < stored_recent {
            query(
                "select created_at from submission where user_name = $1 and created_at > $2 \
                 order by created_at limit 1 offset $3",
            )
            .bind(user)
            .bind(since_minute)
            .bind(offset)
            .fetch_one(reads)
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
            // have left the window for this one to fit (if it takes this
            // transaction's own, created now, that is a day from now).
            let rows = query(
                "select created_at, size_bytes from submission \
                 where user_name = $1 and created_at > $2 order by created_at",
            )
            .bind(user)
            .bind(since_day)
            .fetch_all(reads)
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::queue::claimed_at_insert;

    /// Rows of `kinds`, in order, all of one user and problem.
    fn queued_rows<'a>(problem: &'a ProblemId, kinds: &[SubmissionKind]) -> Vec<QueuedRow<'a>> {
        kinds
            .iter()
            .map(|&kind| QueuedRow {
                id: SubmissionId::new(),
                problem,
                user: "ann",
                kind,
                payload: "{}",
                totals: UserTotals::default(),
            })
            .collect()
    }

    #[test]
    fn a_claim_takes_a_run_of_answers_or_one_job_of_another_kind() {
        let problem: ProblemId = "nim".parse().expect("an id");
        let rows = |kinds: &[SubmissionKind]| -> usize {
            let rows = queued_rows(&problem, kinds);
            claim_groups(&rows)
        };
        use SubmissionKind::{Answers, Custom, Program};
        assert_eq!(rows(&[]), 0);
        assert_eq!(rows(&[Answers, Answers, Answers]), 1);
        assert_eq!(rows(&[Program, Program]), 2);
        assert_eq!(rows(&[Answers, Program, Answers, Answers, Custom]), 4);
    }

    #[test]
    fn waiting_workers_take_new_rows_as_their_claims_would() {
        use SubmissionKind::{Answers, Custom, Program};
        let problem: ProblemId = "nim".parse().expect("an id");
        let lease = Duration::from_secs(30);
        let workers = |claims: &[(&'static str, usize)], kinds: &[SubmissionKind]| {
            let rows = queued_rows(&problem, kinds);
            let claims: Vec<ClaimFor<'static>> = claims
                .iter()
                .map(|&(worker, max)| ClaimFor { worker, lease, max })
                .collect();
            claimed_at_insert(&rows, &claims)
                .into_iter()
                .map(|by| {
                    by.map(|by| {
                        assert_eq!(by.lease_ms, 30_000);
                        by.worker
                    })
                })
                .collect::<Vec<_>>()
        };
        assert_eq!(workers(&[("a", 4)], &[]), []);
        assert_eq!(workers(&[], &[Answers]), [None]);
        // A run of answers to one worker, up to its batch.
        assert_eq!(
            workers(&[("a", 2), ("b", 2)], &[Answers, Answers, Answers]),
            [Some("a"), Some("a"), Some("b")]
        );
        assert_eq!(
            workers(&[("a", 8)], &[Answers, Answers, Answers]),
            [Some("a"); 3]
        );
        // One job of another kind each; a run ends at one.
        assert_eq!(
            workers(
                &[("a", 8), ("b", 8), ("c", 8)],
                &[Program, Answers, Answers, Custom, Answers]
            ),
            [Some("a"), Some("b"), Some("b"), Some("c"), None]
        );
        // A batch of zero is one job, as a claim's is.
        assert_eq!(workers(&[("a", 0)], &[Answers, Answers]), [Some("a"), None]);
    }
}
