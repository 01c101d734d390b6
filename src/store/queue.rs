//! Submissions as a leased job queue, their judgements and event log.
//!
//! A submission row is its own queue entry. A worker claims one in a single
//! `update ... returning` statement that sets a lease; every later write of
//! that worker is fenced by the attempt number it claimed, so a worker whose
//! lease expired (and whose job another worker claimed) can never write a
//! verdict: zero rows affected means "lease lost, drop the result".

use std::collections::{BTreeSet, HashMap, HashSet};
use std::time::Duration;

use super::{
    Admission, AdmissionOutcome, Store, StoreError,
    backend::{Arg, DbRow, Dialect, Pool, Statement, TurnLock, Tx, query, turn_lock},
    contests::{self, CellScope},
    millis, notices, now_ms, parse_column, parse_optional_column, time_column,
};
use crate::domain::{
    ContestId, Event, EventKind, Judgement, Payload, PayloadSizes, ProblemId, Progress, RunUsage,
    Submission, SubmissionId, SubmissionKind, SubmissionState, TestcaseResult, Timestamp, Verdict,
};
use crate::scoring;

/// What a submission sent, as [`Store::submission_content`] reads it.
#[derive(Debug, Clone, PartialEq)]
pub enum SentContent {
    /// An answers or custom payload's sizes.
    Sizes(PayloadSizes),
    /// A program's payload, or one stored without its sizes.
    Payload(Payload),
}

/// A submission to insert.
#[derive(Debug, Clone)]
pub struct NewSubmission<'a> {
    pub problem: &'a ProblemId,
    pub user: &'a str,
    pub payload: &'a Payload,
    /// The contest it is sent to, if any.
    pub contest: Option<ContestWindow<'a>>,
}

/// A contest and the submitter's window in it (unix milliseconds): a
/// submission admitted inside the window gets its contest time, one
/// admitted after it none (practice).
#[derive(Debug, Clone, Copy)]
pub struct ContestWindow<'a> {
    pub contest: &'a ContestId,
    pub starts_at_ms: i64,
    pub ends_at_ms: i64,
}

impl ContestWindow<'_> {
    /// The contest time of a submission admitted at `now`: none after the
    /// window; never negative (the caller refused one before it).
    pub fn contest_time_ms(&self, now: i64) -> Option<i64> {
        (now < self.ends_at_ms).then(|| (now - self.starts_at_ms).max(0))
    }
}

/// A claimed job: everything a worker needs, and the fence for its writes.
#[derive(Debug, Clone)]
pub struct Claim {
    pub id: SubmissionId,
    pub problem: ProblemId,
    /// The payload, or why the stored one could not be read (a worker turns
    /// that into an IE verdict at once instead of retrying forever).
    pub payload: Result<Payload, String>,
    /// The fence: writes succeed only while the row still has this attempt.
    pub attempt: i64,
    /// Claims in this judging round, this one included.
    pub tries: i64,
    pub worker: String,
    /// The revision of its problem when it was claimed (0 if the problem is
    /// gone): the testcases it is judged on are at least this recent.
    pub revision: i64,
    /// Start of this judging round, unix ms: the latency clock.
    pub queued_at: i64,
    pub claimed_at: i64,
}

/// A verdict to record.
#[derive(Debug, Clone)]
pub struct JudgementWrite {
    pub problem_version: i64,
    pub verdict: Verdict,
    pub message: Option<String>,
    /// A program's compiler messages.
    pub compile_output: Option<String>,
    /// In the order the testcases were judged.
    pub results: Vec<TestcaseResult>,
    /// Each testcase group's score in hundredths (see `scoring`); none
    /// when the judgement earns no score (a custom check, an IE).
    pub group_scores: Option<Vec<i64>>,
}

/// Filters of the submission listing; `None` means any.
#[derive(Debug, Clone, Default)]
pub struct ListFilter {
    pub problem: Option<ProblemId>,
    pub verdict: Option<Verdict>,
    pub user: Option<String>,
    /// Only submissions created at or after this time.
    pub since: Option<Timestamp>,
    /// Only submissions older than this cursor (a `next_cursor` from a page).
    pub before: Option<i64>,
    pub limit: i64,
    /// Only submissions sent to this contest (practice ones included).
    pub contest: Option<ContestId>,
    /// Only submissions created, queued (again) or judged at or after this
    /// time: what changed since then.
    pub changed_since: Option<Timestamp>,
}

/// One page of a listing, newest first.
#[derive(Debug, Clone)]
pub struct SubmissionPage {
    pub submissions: Vec<Submission>,
    /// Pass as [`ListFilter::before`] for the next page; `None` on the last.
    pub next_cursor: Option<i64>,
}

/// One submission with everything recorded about it, as of one moment.
#[derive(Debug, Clone)]
pub struct SubmissionRecord {
    pub submission: Submission,
    /// Oldest first, each with its results in the order judged.
    pub judgements: Vec<Judgement>,
    /// Oldest first.
    pub events: Vec<Event>,
}

/// Why a rejudge did not happen.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RejudgeOutcome {
    Queued,
    NotFound,
    /// It is queued or running already.
    Pending,
}

/// The columns [`submission`] reads, as a literal for `concat!`.
macro_rules! submission_columns {
    () => {
        "seq, id, problem_id, user_name, kind, state, verdict, message, \
         attempt, worker, queued_at, judged_at, created_at, progress_done, progress_total, \
         language, max_cpu_ms, max_memory_kib, contest_id, contest_time_ms, score, group_scores"
    };
}

fn submission(row: &DbRow) -> Result<Submission, StoreError> {
    let queued_at: i64 = row.try_get("queued_at")?;
    let judged_at: Option<i64> = row.try_get("judged_at")?;
    let state = parse_column(row, "state")?;
    // A number recorded by an attempt that is over (released, or judged)
    // says nothing about the submission now.
    let progress = match (
        state,
        row.try_get::<Option<i64>>("progress_done")?,
        row.try_get::<Option<i64>>("progress_total")?,
    ) {
        (SubmissionState::Running, Some(done), Some(total)) => Some(Progress { done, total }),
        _ => None,
    };
    Ok(Submission {
        id: parse_column(row, "id")?,
        problem: parse_column(row, "problem_id")?,
        user: row.try_get("user_name")?,
        kind: parse_column(row, "kind")?,
        state,
        verdict: parse_optional_column(row, "verdict")?,
        message: row.try_get("message")?,
        attempt: row.try_get("attempt")?,
        worker: row.try_get("worker")?,
        queued_at: super::timestamp(queued_at)?,
        judged_at: judged_at.map(super::timestamp).transpose()?,
        latency_ms: judged_at.map(|j| j - queued_at),
        created_at: time_column(row, "created_at")?,
        progress,
        language: parse_optional_column(row, "language")?,
        max_cpu_ms: row.try_get("max_cpu_ms")?,
        max_memory_kib: row.try_get("max_memory_kib")?,
        contest: parse_optional_column(row, "contest_id")?,
        contest_time_ms: row.try_get("contest_time_ms")?,
        score: match state {
            SubmissionState::Done => row.try_get::<Option<i64>>("score")?.map(scoring::points),
            _ => None,
        },
        group_scores: match (state, row.try_get::<Option<String>>("group_scores")?) {
            (SubmissionState::Done, Some(text)) => Some(
                scoring::decode(&text)
                    .ok_or_else(|| StoreError::Corrupt(format!("group scores `{text}`")))?
                    .into_iter()
                    .map(scoring::points)
                    .collect(),
            ),
            _ => None,
        },
    })
}

/// A nullable integer column that holds an `i32` (stored as a 64-bit one).
fn small_int(row: &DbRow, column: &str) -> Result<Option<i32>, StoreError> {
    row.try_get::<Option<i64>>(column)?
        .map(|value| {
            i32::try_from(value).map_err(|_| StoreError::Corrupt(format!("{column}: {value}")))
        })
        .transpose()
}

/// Decodes a stored payload and checks it against the row's kind column.
pub(super) fn decode_payload(kind: &str, json: &str) -> Result<Payload, String> {
    let kind: SubmissionKind = kind.parse()?;
    let payload: Payload =
        serde_json::from_str(json).map_err(|e| format!("unreadable payload: {e}"))?;
    if payload.kind() != kind {
        return Err(format!(
            "the payload is of kind `{}` but the row says `{kind}`",
            payload.kind()
        ));
    }
    Ok(payload)
}

impl Store {
    /// Inserts a queued submission and its `queued` event, atomically: an
    /// admission with no idempotency key and no limits (tests and
    /// benchmarks).
    pub async fn insert_submission(
        &self,
        new: &NewSubmission<'_>,
    ) -> Result<Submission, StoreError> {
        let admission = Admission {
            submission: new.clone(),
            idempotency: None,
            limits: None,
        };
        match self.admit(&admission).await? {
            AdmissionOutcome::Queued(stored) => Ok(*stored),
            other => Err(StoreError::Corrupt(format!(
                "an admission without key or limits was not stored: {other:?}"
            ))),
        }
    }

    /// Claims the next job for `worker` with a lease, in one statement:
    /// first a job whose lease expired, else the oldest queued one.
    /// Records `claimed` (and `lease_lost` for a reclaim) in the event log.
    pub async fn claim(&self, worker: &str, lease: Duration) -> Result<Option<Claim>, StoreError> {
        Ok(self.claim_batch(worker, lease, 1).await?.into_iter().next())
    }

    /// Claims up to `max` jobs (at most [`MAX_CLAIM_BATCH`]) for `worker`
    /// in one statement ([`claim_statement`]), oldest first: a job whose
    /// lease expired (alone), else the oldest queued job and, when it is an
    /// answers job, the queued answers jobs right behind it, up to the first
    /// job of another kind (a program's judging takes seconds; the answers
    /// jobs of a batch take milliseconds each, so their leases hold while
    /// the worker judges them in turn). Empty if the queue is.
    pub async fn claim_batch(
        &self,
        worker: &str,
        lease: Duration,
        max: usize,
    ) -> Result<Vec<Claim>, StoreError> {
        self.noted(async {
            let now = now_ms();
            let lease_ms = i64::try_from(lease.as_millis()).unwrap_or(i64::MAX);
            let batch = claim_batch_size(max);
            // One statement, no transaction: the claim's events are written
            // by the claim itself (the `submission_claimed` trigger).
            let rows = claim_statement(self.write.dialect(), worker, now, lease_ms, batch)
                .fetch_all(&self.write)
                .await?;
            claims_from(rows, worker, now)
        })
        .await
    }

    /// Writes a judgement, its results and the verdict in one transaction,
    /// fenced by the claim's attempt. `Ok(false)` means the lease was lost
    /// (another worker claimed the job): nothing was written but a `dropped`
    /// event.
    pub async fn finish(
        &self,
        claim: &Claim,
        judgement: &JudgementWrite,
    ) -> Result<bool, StoreError> {
        let written = self.finish_batch(&[(claim, judgement)]).await?;
        Ok(written.first().copied().unwrap_or(false))
    }

    /// Writes the verdicts of several claims in one transaction (a group
    /// commit), each fenced by its claim's attempt as [`Store::finish`] is,
    /// in a few statements whatever the batch: the `update` that marks done
    /// the rows still running with their claim's attempt, the judgements
    /// and the results of those, and a `dropped` event for each claim
    /// fenced out. The `judged` events and verdict counts come by trigger.
    /// Returns, in order, whether each was written.
    pub async fn finish_batch(
        &self,
        verdicts: &[(&Claim, &JudgementWrite)],
    ) -> Result<Vec<bool>, StoreError> {
        self.noted(async {
            let now = now_ms();
            let mut tx = self.write.begin().await?;
            let mut ended = HashSet::new();
            let mut cells = BTreeSet::new();
            for chunk in verdicts.chunks(VERDICTS_PER_STATEMENT) {
                for row in fenced_update(chunk, now).fetch_all(&mut tx).await? {
                    let id = parse_column::<SubmissionId>(&row, "id")?;
                    if row.try_get::<Option<i64>>("contest_time_ms")?.is_some() {
                        cells.insert((
                            row.try_get("contest_id")?,
                            row.try_get("user_name")?,
                            row.try_get("problem_id")?,
                        ));
                    }
                    ended.insert(id);
                }
            }
            let (judged, dropped): (Vec<_>, Vec<_>) = verdicts
                .iter()
                .copied()
                .partition(|(claim, _)| ended.contains(&claim.id));
            let written: Vec<(JudgedBy<'_>, &JudgementWrite)> = judged
                .iter()
                .map(|(claim, judgement)| (JudgedBy::claim(claim), *judgement))
                .collect();
            insert_judgements(&mut tx, &written, now).await?;
            let events: Vec<NewEvent<'_>> = dropped
                .iter()
                .map(|(claim, _)| NewEvent {
                    submission: &claim.id,
                    kind: EventKind::Dropped,
                    actor: Some(&claim.worker),
                    detail: Some(format!(
                        "attempt {} finished after losing its lease",
                        claim.attempt
                    )),
                })
                .collect();
            insert_events(&mut tx, &events, now).await?;
            let ids: Vec<SubmissionId> = judged.iter().map(|(claim, _)| claim.id).collect();
            notices::judged(&mut tx, &ids).await?;
            contests::refresh_cells(&mut tx, CellScope::Cells(&cells)).await?;
            tx.commit().await?;
            Ok(verdicts
                .iter()
                .map(|(claim, _)| ended.contains(&claim.id))
                .collect())
        })
        .await
    }

    /// Extends a running claim's lease while its worker is still at work.
    /// `false` if the claim was lost (another attempt took over).
    pub async fn extend_lease(&self, claim: &Claim, lease: Duration) -> Result<bool, StoreError> {
        self.noted(async {
            let lease_ms = i64::try_from(lease.as_millis()).unwrap_or(i64::MAX);
            // The claim's clock: the database's on PostgreSQL (`$1` unused).
            let extended = query(self.write.dialect().pick(
                "update submission set lease_until = $1 + $2 \
             where id = $3 and attempt = $4 and state = 'running'",
                concat!(
                    "update submission set \
             lease_until = ",
                    pg_clock_ms!(),
                    " + $2 \
             where id = $3 and attempt = $4 and state = 'running'"
                ),
            ))
            .bind(now_ms())
            .bind(lease_ms)
            .bind(claim.id.to_string())
            .bind(claim.attempt)
            .execute(&self.write)
            .await?;
            Ok(extended == 1)
        })
        .await
    }

    /// Records how far a running claim's judging is. Fenced by the attempt
    /// like every write of a worker: `false`, and nothing changed, if the
    /// lease was lost (another attempt took over, or the job ended).
    /// Workers call it now and then, not per testcase (see the worker's
    /// `PROGRESS_INTERVAL`).
    pub async fn record_progress(
        &self,
        claim: &Claim,
        progress: Progress,
    ) -> Result<bool, StoreError> {
        self.noted(async {
            let recorded = query(
                "update submission set progress_done = $1, progress_total = $2 \
                 where id = $3 and attempt = $4 and state = 'running'",
            )
            .bind(progress.done)
            .bind(progress.total)
            .bind(claim.id.to_string())
            .bind(claim.attempt)
            .execute(&self.write)
            .await?;
            Ok(recorded == 1)
        })
        .await
    }

    /// Puts the jobs of workers whose names start with `worker_prefix` back
    /// in the queue (used at shutdown for jobs that did not finish in time).
    /// The release does not count as a try. Returns how many were released.
    pub async fn release(&self, worker_prefix: &str) -> Result<u64, StoreError> {
        self.noted(async {
            let now = now_ms();
            let pattern = format!("{}%", worker_prefix.replace(['%', '_'], ""));
            let mut tx = self.write.begin().await?;
            query(
                "insert into event (submission_id, kind, actor, detail, created_at) \
             select id, $1, worker, 'the daemon stopped before judging finished', $2 \
             from submission where state = 'running' and worker like $3",
            )
            .bind(EventKind::Released.as_str())
            .bind(now)
            .bind(&pattern)
            .execute(&mut tx)
            .await?;
            let done = query(
            "update submission set state = 'queued', lease_until = null, tries = case when tries > 0 then tries - 1 else 0 end \
             where state = 'running' and worker like $1",
        )
        .bind(&pattern)
        .execute(&mut tx)
        .await?;
            tx.commit().await?;
            Ok(done)
        })
        .await
    }

    /// One submission.
    pub async fn submission(&self, id: &SubmissionId) -> Result<Option<Submission>, StoreError> {
        query(concat!(
            "select ",
            submission_columns!(),
            " from submission where id = $1"
        ))
        .bind(id.to_string())
        .fetch_optional(&self.read)
        .await?
        .as_ref()
        .map(submission)
        .transpose()
    }

    /// What a submission sent, as shown, with its submitter: the sizes
    /// stored with an answers or custom payload, not the payload (which
    /// may be a day's bytes); else the payload itself (a program's, or one
    /// stored before sizes were). `Err` names why an unreadable one cannot
    /// be decoded.
    pub async fn submission_content(
        &self,
        id: &SubmissionId,
    ) -> Result<Option<(String, Result<SentContent, String>)>, StoreError> {
        let row = query(
            "select user_name, kind, payload_sizes, \
             case when payload_sizes is null then payload end as payload \
             from submission where id = $1",
        )
        .bind(id.to_string())
        .fetch_optional(&self.read)
        .await?;
        row.map(|row| {
            let user: String = row.try_get("user_name")?;
            let kind: String = row.try_get("kind")?;
            let sizes: Option<String> = row.try_get("payload_sizes")?;
            let content = match sizes {
                Some(sizes) => serde_json::from_str(&sizes)
                    .map(SentContent::Sizes)
                    .map_err(|e| format!("unreadable payload sizes: {e}")),
                None => {
                    let payload: Option<String> = row.try_get("payload")?;
                    decode_payload(&kind, payload.as_deref().unwrap_or_default())
                        .map(SentContent::Payload)
                }
            };
            Ok((user, content))
        })
        .transpose()
    }

    /// One submission with every judgement (oldest first, with results)
    /// and its event log, read by one statement, so one snapshot: a
    /// verdict written meanwhile is in all three parts or in none.
    pub async fn submission_record(
        &self,
        id: &SubmissionId,
    ) -> Result<Option<SubmissionRecord>, StoreError> {
        let rows = record_statement(self.read.dialect(), id)
            .fetch_all(&self.read)
            .await?;
        record_from(&rows)
    }

    /// Every judgement of a submission, oldest first, with results (none
    /// for a missing submission).
    pub async fn judgements(&self, id: &SubmissionId) -> Result<Vec<Judgement>, StoreError> {
        Ok(self
            .submission_record(id)
            .await?
            .map(|record| record.judgements)
            .unwrap_or_default())
    }

    /// The latest judgement (with results) of each of `ids` that has one,
    /// with its submission's user and problem, in the order of `ids`: one
    /// statement for each [`LATEST_JUDGEMENTS_CHUNK`] ids, where
    /// [`Store::submission_record`] costs one a submission (the Contest
    /// API's runs of a whole contest read a million records one by one).
    pub async fn latest_judgements(
        &self,
        ids: &[SubmissionId],
    ) -> Result<Vec<LatestJudgement>, StoreError> {
        let mut found = Vec::with_capacity(ids.len());
        for chunk in ids.chunks(LATEST_JUDGEMENTS_CHUNK) {
            let rows = latest_judgements_statement(self.read.dialect(), chunk)
                .fetch_all(&self.read)
                .await?;
            let mut read: HashMap<SubmissionId, LatestJudgement> = HashMap::new();
            for row in &rows {
                let submission: SubmissionId = parse_column(row, "submission_id")?;
                let latest = match read.entry(submission) {
                    std::collections::hash_map::Entry::Occupied(entry) => entry.into_mut(),
                    std::collections::hash_map::Entry::Vacant(entry) => {
                        entry.insert(LatestJudgement {
                            submission,
                            user: row.try_get("user_name")?,
                            problem: parse_column(row, "problem_id")?,
                            judgement: judgement(row)?,
                        })
                    }
                };
                if let Some(result) = testcase_result(row)? {
                    latest.judgement.results.push(result);
                }
            }
            found.extend(chunk.iter().filter_map(|id| read.remove(id)));
        }
        Ok(found)
    }

    /// A submission's event log, oldest first (empty for a missing
    /// submission).
    pub async fn events(&self, id: &SubmissionId) -> Result<Vec<Event>, StoreError> {
        Ok(self
            .submission_record(id)
            .await?
            .map(|record| record.events)
            .unwrap_or_default())
    }

    /// Submissions matching `filter`, newest first, one page.
    pub async fn list_submissions(
        &self,
        filter: &ListFilter,
    ) -> Result<SubmissionPage, StoreError> {
        let rows = list_statement(self.read.dialect(), filter)
            .fetch_all(&self.read)
            .await?;
        let next_cursor = if rows.len() as i64 == filter.limit {
            rows.last().map(|r| r.try_get("seq")).transpose()?
        } else {
            None
        };
        Ok(SubmissionPage {
            submissions: rows.iter().map(submission).collect::<Result<_, _>>()?,
            next_cursor,
        })
    }

    /// Queues a judged submission again. Earlier judgements stay.
    pub async fn rejudge(&self, id: &SubmissionId, by: &str) -> Result<RejudgeOutcome, StoreError> {
        self.noted(async {
            let now = now_ms();
            let mut tx = self.write.begin().await?;
            let done = query(
            "update submission set state = 'queued', tries = 0, queued_at = $1, lease_until = null \
             where id = $2 and state = 'done'",
        )
        .bind(now)
        .bind(id.to_string())
        .execute(&mut tx)
        .await?;
            if done == 0 {
                let exists = query("select 1 from submission where id = $1")
                    .bind(id.to_string())
                    .fetch_optional(&mut tx)
                    .await?
                    .is_some();
                return Ok(if exists {
                    RejudgeOutcome::Pending
                } else {
                    RejudgeOutcome::NotFound
                });
            }
            insert_event(&mut tx, id, EventKind::Rejudged, Some(by), None, now).await?;
            notices::job_queued(&mut tx, self.origin).await?;
            contests::refresh_cells(&mut tx, CellScope::Submissions(&[*id])).await?;
            tx.commit().await?;
            Ok(RejudgeOutcome::Queued)
        })
        .await
    }

    /// Queues every judged submission of a problem again; returns how many.
    pub async fn rejudge_problem(
        &self,
        problem_id: &ProblemId,
        by: &str,
    ) -> Result<u64, StoreError> {
        self.noted(async {
            let now = now_ms();
            let mut tx = self.write.begin().await?;
            query(
                "insert into event (submission_id, kind, actor, detail, created_at) \
             select id, $1, $2, 'with every submission of the problem', $3 \
             from submission where problem_id = $4 and state = 'done'",
            )
            .bind(EventKind::Rejudged.as_str())
            .bind(by)
            .bind(now)
            .bind(problem_id.as_str())
            .execute(&mut tx)
            .await?;
            let done = query(
            "update submission set state = 'queued', tries = 0, queued_at = $1, lease_until = null \
             where problem_id = $2 and state = 'done'",
        )
        .bind(now)
        .bind(problem_id.as_str())
        .execute(&mut tx)
        .await?;
            if done > 0 {
                contests::refresh_cells(&mut tx, CellScope::Problem(problem_id)).await?;
                notices::job_queued(&mut tx, self.origin).await?;
            }
            tx.commit().await?;
            Ok(done)
        })
        .await
    }

    /// A problem's submissions waiting or being judged: what is left of a
    /// rejudge. Read through the partial index `submission_pending_by_problem`,
    /// which holds only unjudged rows (the condition must match its own).
    pub async fn unjudged_of_problem(&self, problem_id: &ProblemId) -> Result<i64, StoreError> {
        let row = unjudged_of_problem_statement(problem_id)
            .fetch_one(&self.read)
            .await?;
        Ok(row.try_get("n")?)
    }

    /// Submissions waiting and being judged.
    pub async fn queue_depth(&self) -> Result<(i64, i64), StoreError> {
        let row = query(
            "select (select count(*) from submission where state = 'queued') as queued, \
             (select count(*) from submission where state = 'running') as running",
        )
        .fetch_one(&self.read)
        .await?;
        Ok((row.try_get("queued")?, row.try_get("running")?))
    }

    /// Judgements ever recorded, by verdict: counters kept with each
    /// judgement (a verdict's in several rows on PostgreSQL, one for each
    /// group of connections), not a count of the judgement table.
    pub async fn verdict_counts(&self) -> Result<Vec<(Verdict, i64)>, StoreError> {
        query(
            "select verdict, cast(sum(judgements) as bigint) as n from verdict_tally \
             group by verdict order by verdict",
        )
        .fetch_all(&self.read)
        .await?
        .iter()
        .map(|r| Ok((parse_column(r, "verdict")?, r.try_get("n")?)))
        .collect()
    }
}

/// Rows of `result` per insert: 14 bound parameters each, so 5,600 a
/// statement, far under SQLite's 32,766 and PostgreSQL's 65,535.
const RESULT_ROWS_PER_INSERT: usize = 400;
/// Rows of `event` per insert (5 parameters each).
const EVENT_ROWS_PER_INSERT: usize = 400;

/// The count behind [`Store::unjudged_of_problem`]; the store's tests read
/// its query plan.
pub(super) fn unjudged_of_problem_statement(problem_id: &ProblemId) -> Statement<'_> {
    query("select count(*) as n from submission where problem_id = $1 and state != 'done'")
        .bind(problem_id.as_str())
}

/// The listing statement for `filter`.
///
/// Only the filters given enter the statement, so the database picks the
/// index that serves them (see SQLite's migration 0009) instead of one plan
/// for every combination of nulls.
pub(super) fn list_statement(dialect: Dialect, filter: &ListFilter) -> Statement<'_> {
    // What changed in a contest is found by its index (the migration that
    // made it); SQLite, without statistics, preferred the contest's index
    // in `seq` order, which reads every submission of the contest.
    let changed_in_contest = filter.contest.is_some() && filter.changed_since.is_some();
    let mut statement = query(if changed_in_contest && dialect == Dialect::Sqlite {
        concat!(
            "select ",
            submission_columns!(),
            " from submission indexed by submission_changed_in_contest where true"
        )
    } else {
        concat!(
            "select ",
            submission_columns!(),
            " from submission where true"
        )
    });
    if let Some(problem) = &filter.problem {
        statement = statement
            .push(" and problem_id = ")
            .push_bind(problem.as_str());
    }
    if let Some(verdict) = filter.verdict {
        statement = statement
            .push(" and verdict = ")
            .push_bind(verdict.as_str());
    }
    if let Some(contest) = &filter.contest {
        statement = statement
            .push(" and contest_id = ")
            .push_bind(contest.as_str());
    }
    if let Some(user) = &filter.user {
        statement = statement.push(" and user_name = ").push_bind(user.as_str());
    }
    if let Some(since) = filter.since {
        // created_at never decreases as seq grows, so the first row
        // created at or after `since` bounds the newest-first scan.
        statement = statement
            .push(" and created_at >= ")
            .push_bind(millis(since))
            .push(" and seq >= coalesce((select seq from submission where created_at >= ")
            .push_bind(millis(since))
            .push(" order by created_at, seq limit 1), 9223372036854775807)");
    }
    if let Some(since) = filter.changed_since {
        // The latest of the three times, as the index keys it.
        statement = statement
            .push(dialect.pick(
                " and max(created_at, coalesce(queued_at, 0), coalesce(judged_at, 0)) >= ",
                " and greatest(created_at, queued_at, judged_at) >= ",
            ))
            .push_bind(millis(since));
    }
    if let Some(before) = filter.before {
        statement = statement.push(" and seq < ").push_bind(before);
    }
    statement
        .push(" order by seq desc limit ")
        .push_bind(filter.limit)
}

/// The lock that makes submissions' inserts take turns on PostgreSQL.
const SUBMISSION_ORDER: TurnLock = turn_lock!("submission order");

/// A transaction that inserts submissions: it holds the lock that makes
/// their inserts take turns (on PostgreSQL) from its start to its end, so
/// nothing it reads before the insert can be changed by another's insert
/// either (the admission's limits count on that).
pub(super) struct OrderedTx(Tx);

impl OrderedTx {
    /// Begins one; on PostgreSQL the lock comes with the `BEGIN`.
    pub(super) async fn begin(pool: &Pool) -> Result<OrderedTx, StoreError> {
        Ok(OrderedTx(pool.begin_holding(&SUBMISSION_ORDER).await?))
    }

    /// The transaction, for what it reads before its insert.
    pub(super) fn tx(&mut self) -> &mut Tx {
        &mut self.0
    }

    /// Commits it (dropping it rolls it back).
    pub(super) async fn commit(self) -> Result<(), StoreError> {
        Ok(self.0.commit().await?)
    }
}

/// A submission ready to insert: its id chosen, its payload encoded, its
/// place among its user's submissions known.
pub(super) struct QueuedRow<'a> {
    pub id: SubmissionId,
    pub problem: &'a ProblemId,
    pub user: &'a str,
    pub kind: SubmissionKind,
    /// A program's language.
    pub language: Option<&'a str>,
    /// The payload as JSON, as stored.
    pub payload: &'a str,
    /// Its sizes as JSON ([`PayloadSizes`]); none for a program.
    pub sizes: Option<&'a str>,
    /// Its `user_ordinal` and `user_bytes`.
    pub totals: UserTotals,
    /// The contest it was sent to, and its contest time (none: practice).
    pub contest: Option<&'a ContestId>,
    pub contest_time_ms: Option<i64>,
}

/// Ends a read of a user's submissions (`where user_name = $n`) so that it
/// reads the latest:
/// the last in the windows' index (`user_name, created_at, user_ordinal`),
/// as `created_at` never decreases and `user_ordinal` grows as `seq` does.
/// Ordered by `seq`, the statement had two fitting indexes, and a generic
/// plan made while the table was nearly empty (every estimate one row)
/// took the windows' index with a sort: it read all of a user's rows each
/// time, 0.84 ms a count at 925 submissions/s against 0.07 ms. Ordered as
/// the index is, its plan needs no sort whatever the estimates.
pub(super) const LATEST_OF_USER: &str = " order by created_at desc, user_ordinal desc limit 1";

/// A submission's place among its user's (the columns `user_ordinal` and
/// `user_bytes`): how many the user had stored with it, and their payload
/// bytes. Assigned in the write transaction that inserts it, which holds
/// the write lock from its start; a user with none has zeros.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(super) struct UserTotals {
    pub submissions: i64,
    pub bytes: i64,
}

impl UserTotals {
    /// The totals of the user's next submission, of `payload`; they become
    /// the user's latest.
    pub(super) fn after(&mut self, payload: &str) -> UserTotals {
        self.submissions += 1;
        self.bytes = self
            .bytes
            .saturating_add(i64::try_from(payload.len()).unwrap_or(i64::MAX));
        *self
    }
}

/// Encodes a payload as it is stored.
pub(super) fn encode_payload(payload: &Payload) -> Result<String, StoreError> {
    serde_json::to_string(payload)
        .map_err(|e| StoreError::Corrupt(format!("cannot encode a payload: {e}")))
}

pub(super) fn encode_sizes(sizes: &PayloadSizes) -> Result<String, StoreError> {
    serde_json::to_string(sizes)
        .map_err(|e| StoreError::Corrupt(format!("cannot encode a payload's sizes: {e}")))
}

/// An idempotency key to store with the submission it made.
#[derive(Debug, Clone, Copy)]
pub(super) struct NewKey<'a> {
    pub user: &'a str,
    pub key: &'a str,
    /// The hash of the request that made the submission.
    pub request_hash: &'a str,
    pub submission: SubmissionId,
}

/// Inserts `row`, queued at `now`, with the idempotency key that made it,
/// in `tx`, which holds the inserts' turn. The row's events are written by
/// its insert (the `submission_queued` trigger). The caller announces the
/// job ([`notices::job_queued`]) and refreshes a contest try's scoreboard
/// cell ([`contests::refresh_cells`]).
///
/// `created_at` never decreases as `seq` grows (listings bound their scans
/// by it): the larger of now and the newest row's, read under the turn.
pub(super) async fn insert_queued(
    tx: &mut OrderedTx,
    row: &QueuedRow<'_>,
    key: Option<NewKey<'_>>,
    now: i64,
) -> Result<Submission, StoreError> {
    // The newest `created_at` if it is later than now, else now: the
    // larger of the two, written alike for both databases.
    let inserted = query(concat!(
        "insert into submission (id, problem_id, user_name, kind, payload, size_bytes, state, \
         queued_at, user_ordinal, user_bytes, created_at, language, contest_id, \
         contest_time_ms, payload_sizes) \
         values ($1, $2, $3, $4, $5, $6, 'queued', $7, $8, $9, \
         coalesce((select max(created_at) from submission where created_at > $10), $10), $11, \
         $12, $13, $14) \
         returning ",
        submission_columns!()
    ))
    .bind(row.id.to_string())
    .bind(row.problem.as_str())
    .bind(row.user)
    .bind(row.kind.as_str())
    .bind(row.payload)
    .bind(i64::try_from(row.payload.len()).unwrap_or(i64::MAX))
    .bind(now)
    .bind(row.totals.submissions)
    .bind(row.totals.bytes)
    .bind(now)
    .bind(row.language)
    .bind(row.contest.map(ContestId::as_str))
    .bind(row.contest_time_ms)
    .bind(row.sizes)
    .fetch_one(&mut tx.0)
    .await?;
    if let Some(key) = key {
        query(
            "insert into idempotency_key (user_name, key_value, request_hash, submission_id, \
             created_at) values ($1, $2, $3, $4, $5)",
        )
        .bind(key.user)
        .bind(key.key)
        .bind(key.request_hash)
        .bind(key.submission.to_string())
        .bind(now)
        .execute(&mut tx.0)
        .await?;
    }
    submission(&inserted)
}

/// An event row to insert.
struct NewEvent<'a> {
    submission: &'a SubmissionId,
    kind: EventKind,
    actor: Option<&'a str>,
    detail: Option<String>,
}

pub(super) async fn insert_event(
    tx: &mut Tx,
    submission: &SubmissionId,
    kind: EventKind,
    actor: Option<&str>,
    detail: Option<&str>,
    now: i64,
) -> Result<(), StoreError> {
    let event = NewEvent {
        submission,
        kind,
        actor,
        detail: detail.map(str::to_string),
    };
    insert_events(tx, &[event], now).await
}

/// Inserts `events`, all created at `now`, in order: one statement per
/// [`EVENT_ROWS_PER_INSERT`].
async fn insert_events(tx: &mut Tx, events: &[NewEvent<'_>], now: i64) -> Result<(), StoreError> {
    for chunk in events.chunks(EVENT_ROWS_PER_INSERT) {
        query("insert into event (submission_id, kind, actor, detail, created_at) values ")
            .push_rows(chunk.iter().map(|event| {
                [
                    event.submission.to_string().into(),
                    event.kind.as_str().into(),
                    event.actor.into(),
                    event.detail.clone().into(),
                    now.into(),
                ]
            }))
            .execute(&mut *tx)
            .await?;
    }
    Ok(())
}

/// Verdicts per statement of [`Store::finish_batch`]: 9 parameters each
/// in the judgements' insert, 8 in the update.
const VERDICTS_PER_STATEMENT: usize = 200;

/// The `update` that marks done the rows of `verdicts` still running with
/// their claim's attempt (the fence), returning their ids. The verdicts
/// travel as a relation `v` of `select`s joined by `union all`, which both
/// databases read alike.
fn fenced_update<'a>(verdicts: &[(&'a Claim, &'a JudgementWrite)], now: i64) -> Statement<'a> {
    let mut update = query(
        "update submission set state = 'done', verdict = v.verdict, message = v.message, \
         max_cpu_ms = v.max_cpu_ms, max_memory_kib = v.max_memory_kib, score = v.score, \
         group_scores = v.group_scores, judged_at = ",
    )
    .push_bind(now)
    .push(", lease_until = null, progress_done = null, progress_total = null from (");
    for (index, (claim, judgement)) in verdicts.iter().enumerate() {
        update = update
            .push(if index == 0 {
                "select "
            } else {
                " union all select "
            })
            .push_bind(claim.id.to_string())
            .push(" as id, ")
            .push_bind(claim.attempt)
            .push(" as attempt, ")
            .push_bind(judgement.verdict.as_str())
            .push(" as verdict, ")
            .push_bind(&judgement.message)
            .push(" as message, ")
            .push_bind(most(judgement, |run| run.cpu_ms))
            .push(" as max_cpu_ms, ")
            .push_bind(most(judgement, |run| run.memory_kib))
            .push(" as max_memory_kib, ")
            .push_bind(
                judgement
                    .group_scores
                    .as_ref()
                    .map(|scores| scores.iter().sum::<i64>()),
            )
            .push(" as score, ")
            .push_bind(judgement.group_scores.as_deref().map(scoring::encode))
            .push(" as group_scores");
    }
    update.push(
        ") as v where submission.id = v.id and submission.attempt = v.attempt \
         and submission.state = 'running' returning submission.id, submission.contest_time_ms, \
         submission.contest_id, submission.user_name, submission.problem_id",
    )
}

/// The most of `measure` over a judgement's runs; none without runs.
pub(super) fn most(judgement: &JudgementWrite, measure: impl Fn(&RunUsage) -> i64) -> Option<i64> {
    judgement
        .results
        .iter()
        .filter_map(|result| result.run.as_ref())
        .map(measure)
        .max()
}

/// Who wrote a judgement: the submission, the attempt it is recorded under
/// and the worker's claim of it.
pub(super) struct JudgedBy<'a> {
    pub submission: &'a SubmissionId,
    pub attempt: i64,
    pub worker: &'a str,
    pub claimed_at: i64,
}

impl<'a> JudgedBy<'a> {
    fn claim(claim: &'a Claim) -> JudgedBy<'a> {
        JudgedBy {
            submission: &claim.id,
            attempt: claim.attempt,
            worker: &claim.worker,
            claimed_at: claim.claimed_at,
        }
    }
}

/// Inserts the judgements of `judged` (their claims' attempts) and their
/// testcases' results, at `now`: one statement for the judgements (per
/// [`VERDICTS_PER_STATEMENT`]), one for the results (per
/// [`RESULT_ROWS_PER_INSERT`]).
pub(super) async fn insert_judgements(
    tx: &mut Tx,
    judged: &[(JudgedBy<'_>, &JudgementWrite)],
    now: i64,
) -> Result<(), StoreError> {
    let mut ids: HashMap<SubmissionId, i64> = HashMap::with_capacity(judged.len());
    for chunk in judged.chunks(VERDICTS_PER_STATEMENT) {
        let rows = query(
            "insert into judgement (submission_id, attempt, problem_version, verdict, message, \
             compile_output, worker, duration_ms, created_at) values ",
        )
        .push_rows(chunk.iter().map(|(claim, judgement)| -> [Arg<'_>; 9] {
            [
                claim.submission.to_string().into(),
                claim.attempt.into(),
                judgement.problem_version.into(),
                judgement.verdict.as_str().into(),
                (&judgement.message).into(),
                (&judgement.compile_output).into(),
                claim.worker.into(),
                (now - claim.claimed_at).into(),
                now.into(),
            ]
        }))
        .push(" returning id, submission_id")
        .fetch_all(&mut *tx)
        .await?;
        for row in &rows {
            ids.insert(parse_column(row, "submission_id")?, row.try_get("id")?);
        }
    }
    let mut results: Vec<(i64, usize, &TestcaseResult)> = Vec::new();
    for (claim, judgement) in judged {
        let id = *ids.get(claim.submission).ok_or_else(|| {
            StoreError::Corrupt(format!("no judgement of {} came back", claim.submission))
        })?;
        results.extend(
            judgement
                .results
                .iter()
                .enumerate()
                .map(|(position, result)| (id, position, result)),
        );
    }
    for chunk in results.chunks(RESULT_ROWS_PER_INSERT) {
        query(
            "insert into result (judgement_id, testcase, position, hidden, verdict, time_us, \
             message, detail, cpu_ms, wall_ms, memory_kib, exit_code, signal, created_at) values ",
        )
        .push_rows(chunk.iter().map(|(id, position, result)| -> [Arg<'_>; 14] {
            let run = result.run.as_ref();
            [
                (*id).into(),
                (&result.testcase).into(),
                i64::try_from(*position).unwrap_or(i64::MAX).into(),
                result.hidden.into(),
                result.verdict.as_str().into(),
                result.time_us.into(),
                (&result.message).into(),
                (&result.detail).into(),
                run.map(|r| r.cpu_ms).into(),
                run.map(|r| r.wall_ms).into(),
                run.map(|r| r.memory_kib).into(),
                run.and_then(|r| r.exit_code).into(),
                run.and_then(|r| r.signal).into(),
                now.into(),
            ]
        }))
        .execute(&mut *tx)
        .await?;
    }
    Ok(())
}

/// The parts of a [`record_statement`]'s rows, in its order.
const RECORD_SUBMISSION: i64 = 0;
const RECORD_JUDGEMENT: i64 = 1;
const RECORD_EVENT: i64 = 2;

/// The statement of [`Store::submission_record`], with `$results` the join
/// of a judgement `j` to its results `r`: a `union all` of the submission's
/// row (`part` 0), its judgements' (1: one a result, or one with null
/// result columns for a judgement without any) and its events' (2), in
/// that order, each part in its own order. The parts share the columns
/// they have in common (`kind`, `verdict`, `message`, `attempt`, `worker`,
/// `created_at`, `detail`); the others are null outside their part.
macro_rules! record_sql {
    ($results:literal, $id:literal) => {
        concat!(
            "select cast(0 as bigint) as part, ",
            submission_columns!(),
            ", cast(null as bigint) as judgement_id, \
             cast(null as bigint) as problem_version, cast(null as text) as compile_output, \
             cast(null as bigint) as duration_ms, cast(null as text) as testcase, \
             cast(null as bigint) as position, cast(null as boolean) as hidden, \
             cast(null as text) as result_verdict, cast(null as bigint) as time_us, \
             cast(null as text) as result_message, cast(null as text) as detail, \
             cast(null as bigint) as cpu_ms, cast(null as bigint) as wall_ms, \
             cast(null as bigint) as memory_kib, cast(null as bigint) as exit_code, \
             cast(null as bigint) as signal, cast(null as text) as actor, \
             cast(null as bigint) as event_id \
             from submission where id = ",
            $id,
            " union all \
             select 1, null, null, null, null, null, null, \
             j.verdict, j.message, j.attempt, j.worker, null, null, j.created_at, \
             null, null, null, null, null, null, null, null, null, j.id, j.problem_version, j.compile_output, j.duration_ms, \
             r.testcase, r.position, r.hidden, r.verdict, r.time_us, r.message, r.detail, \
             r.cpu_ms, r.wall_ms, r.memory_kib, r.exit_code, r.signal, null, null \
             from judgement j ",
            $results,
            " where j.submission_id = ",
            $id,
            " union all \
             select 2, null, null, null, null, kind, null, null, null, null, null, null, \
             null, created_at, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, \
             null, null, detail, null, null, null, null, null, actor, id \
             from event where submission_id = ",
            $id,
            " order by part, judgement_id, position, testcase, event_id"
        )
    };
}

/// The read of one submission with its judgements and events (see
/// [`record_sql!`]).
///
/// On PostgreSQL a judgement's results are read in a `lateral` subquery
/// that the planner cannot flatten (`offset 0`), so they are always found
/// through the primary key, one judgement at a time. As a plain join, on
/// tables not yet analyzed (a new database fills faster than autovacuum
/// looks at it), the planner guessed forty results a judgement and read
/// the whole `result` table into a hash for each submission: 3 ms at
/// 20,000 rows against 0.15 ms, growing with the table.
///
/// Also on PostgreSQL, the id is given as a subquery's value, which no plan
/// can see, so a plan made for one id is no better than the prepared
/// statement's generic plan, and PostgreSQL keeps that one. With the id
/// itself, it kept planning the read anew on some connections: in runs of
/// 3,008 submissions at 376/s, 577 and 1,073 plans for about 4,500 reads
/// (317 and 544 ms of planning); with the subquery, 125 plans and 49 ms
/// (2026-11-27, sessions then planning five times before the generic plan).
pub(super) fn record_statement(dialect: Dialect, id: &SubmissionId) -> Statement<'static> {
    query(dialect.pick(
        record_sql!("left join result r on r.judgement_id = j.id", "$1"),
        record_sql!(
            "left join lateral (select * from result \
             where result.judgement_id = j.id offset 0) r on true",
            "(select cast($1 as text))"
        ),
    ))
    .bind(id.to_string())
}

/// Submissions whose latest judgements [`Store::latest_judgements`] reads
/// in one statement. A shorter chunk is padded with its last id, so every
/// read is one statement text (one prepared statement, one plan).
pub(super) const LATEST_JUDGEMENTS_CHUNK: usize = 256;

/// The latest judgement of a submission, with what decides who may read it.
#[derive(Debug, Clone)]
pub struct LatestJudgement {
    pub submission: SubmissionId,
    pub user: String,
    pub problem: ProblemId,
    pub judgement: Judgement,
}

/// The read of the latest judgements of some submissions with their
/// results, a judgement's rows together and its results in order, up to
/// the list of submission ids, with `$results` the join of a judgement `j`
/// to its results `r` (see [`record_statement`] for why PostgreSQL reads
/// them in a `lateral` subquery).
macro_rules! latest_judgements_sql {
    ($results:literal) => {
        concat!(
            "select j.submission_id, s.user_name, s.problem_id, j.id as judgement_id, \
             j.attempt, j.problem_version, j.verdict, j.message, j.compile_output, j.worker, \
             j.duration_ms, j.created_at, r.testcase, r.position, r.hidden, \
             r.verdict as result_verdict, r.time_us, r.message as result_message, r.detail, \
             r.cpu_ms, r.wall_ms, r.memory_kib, r.exit_code, r.signal \
             from judgement j join submission s on s.id = j.submission_id ",
            $results,
            " where j.id in (select max(l.id) from judgement l where l.submission_id in ("
        )
    };
}

/// The read of the latest judgements of `ids` (at most
/// [`LATEST_JUDGEMENTS_CHUNK`]), by [`latest_judgements_sql!`].
fn latest_judgements_statement(dialect: Dialect, ids: &[SubmissionId]) -> Statement<'static> {
    let mut statement = query(dialect.pick(
        latest_judgements_sql!("left join result r on r.judgement_id = j.id"),
        latest_judgements_sql!(
            "left join lateral (select * from result \
             where result.judgement_id = j.id offset 0) r on true"
        ),
    ));
    let padding = ids.last().into_iter().cycle();
    for (index, id) in ids
        .iter()
        .chain(padding)
        .take(LATEST_JUDGEMENTS_CHUNK)
        .enumerate()
    {
        if index > 0 {
            statement = statement.push(", ");
        }
        statement = statement.push_bind(id.to_string());
    }
    statement.push(
        ") group by l.submission_id) \
         order by j.id, r.position, r.testcase",
    )
}

/// The [`SubmissionRecord`] in the rows of a [`record_statement`]; `None`
/// if they have no submission.
fn record_from(rows: &[DbRow]) -> Result<Option<SubmissionRecord>, StoreError> {
    let mut rows = rows.iter();
    let Some(first) = rows.next() else {
        return Ok(None);
    };
    let part = |row: &DbRow| row.try_get::<i64>("part");
    if part(first)? != RECORD_SUBMISSION {
        // No submission, then no judgement or event can name it (foreign
        // keys): this is a bug, never a missing row.
        return Err(StoreError::Corrupt(
            "judgements or events of a missing submission".into(),
        ));
    }
    let mut record = SubmissionRecord {
        submission: submission(first)?,
        judgements: Vec::new(),
        events: Vec::new(),
    };
    let mut current_judgement: Option<i64> = None;
    for row in rows {
        match part(row)? {
            RECORD_JUDGEMENT => {
                let judgement_id: i64 = row.try_get("judgement_id")?;
                if current_judgement != Some(judgement_id) {
                    current_judgement = Some(judgement_id);
                    record.judgements.push(judgement(row)?);
                }
                // A judgement without results has one row, its result
                // columns null.
                if let Some(result) = testcase_result(row)?
                    && let Some(judgement) = record.judgements.last_mut()
                {
                    judgement.results.push(result);
                }
            }
            RECORD_EVENT => record.events.push(Event {
                kind: parse_column(row, "kind")?,
                actor: row.try_get("actor")?,
                detail: row.try_get("detail")?,
                created_at: time_column(row, "created_at")?,
            }),
            other => {
                return Err(StoreError::Corrupt(format!(
                    "a submission record's row of part {other}"
                )));
            }
        }
    }
    Ok(Some(record))
}

/// A judgement's own columns in a [`record_statement`] row, without results.
fn judgement(row: &DbRow) -> Result<Judgement, StoreError> {
    Ok(Judgement {
        attempt: row.try_get("attempt")?,
        problem_version: row.try_get("problem_version")?,
        verdict: parse_column(row, "verdict")?,
        message: row.try_get("message")?,
        compile_output: row.try_get("compile_output")?,
        worker: row.try_get("worker")?,
        duration_ms: row.try_get("duration_ms")?,
        created_at: time_column(row, "created_at")?,
        results: Vec::new(),
    })
}

/// The result in a judgement's [`record_statement`] row; `None` for a
/// judgement without results.
fn testcase_result(row: &DbRow) -> Result<Option<TestcaseResult>, StoreError> {
    let Some(testcase) = row.try_get::<Option<String>>("testcase")? else {
        return Ok(None);
    };
    Ok(Some(TestcaseResult {
        testcase,
        hidden: row.try_get("hidden")?,
        verdict: parse_column(row, "result_verdict")?,
        time_us: row.try_get("time_us")?,
        message: row.try_get("result_message")?,
        detail: row.try_get("detail")?,
        run: match row.try_get::<Option<i64>>("cpu_ms")? {
            None => None,
            Some(cpu_ms) => Some(RunUsage {
                cpu_ms,
                wall_ms: row.try_get::<Option<i64>>("wall_ms")?.unwrap_or(0),
                memory_kib: row.try_get::<Option<i64>>("memory_kib")?.unwrap_or(0),
                exit_code: small_int(row, "exit_code")?,
                signal: small_int(row, "signal")?,
            }),
        },
    }))
}

/// The claims in the rows of a [`claim_statement`] made at `now`, oldest
/// first.
fn claims_from(mut rows: Vec<DbRow>, worker: &str, now: i64) -> Result<Vec<Claim>, StoreError> {
    rows.sort_by_key(|row| row.try_get::<i64>("seq").unwrap_or(i64::MAX));
    let mut claims = Vec::with_capacity(rows.len());
    for row in &rows {
        let kind: String = row.try_get("kind")?;
        let payload: String = row.try_get("payload")?;
        claims.push(Claim {
            id: parse_column(row, "id")?,
            problem: parse_column(row, "problem_id")?,
            payload: decode_payload(&kind, &payload),
            attempt: row.try_get("attempt")?,
            tries: row.try_get("tries")?,
            worker: worker.to_string(),
            revision: row.try_get::<Option<i64>>("revision")?.unwrap_or(0),
            queued_at: row.try_get("queued_at")?,
            claimed_at: now,
        });
    }
    Ok(claims)
}

/// The `batch` argument of a [`claim_statement`] that takes up to `max`.
fn claim_batch_size(max: usize) -> i64 {
    i64::try_from(max.clamp(1, MAX_CLAIM_BATCH)).unwrap_or(1)
}

/// The most jobs one claim takes: the SQLite claim's `limit 64`.
pub const MAX_CLAIM_BATCH: usize = 64;

/// The claim of [`Store::claim_batch`]: up to `batch` jobs for `worker`,
/// leased for `lease_ms` from `now`.
///
/// PostgreSQL runs claims side by side: `skip locked` lets each take rows
/// no other claim holds. SQLite runs one write at a time, so plain
/// subqueries are enough. Leases are set and compared by one clock: on
/// PostgreSQL the database's own (the hosts' clocks may disagree; `now`
/// then only stamps `claimed_at`), on SQLite its one host's.
///
/// On SQLite the head of the queue is read with a fixed `limit 64`
/// ([`MAX_CLAIM_BATCH`]) and cut to `batch` after: a bound `limit` there
/// made SQLite (built with `SQLITE_ENABLE_STAT4`, as sqlx's bundled library
/// is) prepare the statement again at every run, about 100 µs on the one
/// writer's thread. On PostgreSQL, whose plans do not hang on the value,
/// `limit $4` keeps `skip locked` from locking more rows than it takes.
pub(super) fn claim_statement<'a>(
    dialect: Dialect,
    worker: &'a str,
    now: i64,
    lease_ms: i64,
    batch: i64,
) -> Statement<'a> {
    query(dialect.pick(
        "with expired as (select seq from submission where state = 'running' \
                 and lease_until < $2 order by seq limit 1), \
             head as (select seq, kind from submission where state = 'queued' \
                 and not exists (select 1 from expired) order by seq limit 64), \
             claimed as (select seq from expired union all select seq from head \
                 where seq <= coalesce((select seq from head order by seq limit 1 offset $4 - 1), \
                     9223372036854775807) \
                 and (seq = (select min(seq) from head) or seq < coalesce( \
                     (select min(seq) from head where kind != 'answers'), 9223372036854775807))) \
             update submission set state = 'running', attempt = attempt + 1, tries = tries + 1, \
             worker = $1, lease_until = $2 + $3, claimed_at = $2, progress_done = null, \
             progress_total = null \
             where seq in (select seq from claimed) \
             returning seq, id, problem_id, kind, payload, attempt, tries, queued_at, worker, \
             (select p.revision from problem p where p.id = submission.problem_id) as revision",
        concat!(
            "with expired as (select seq from submission where state = 'running' \
                 and lease_until < ",
            pg_clock_ms!(),
            " \
                 order by seq limit 1 for update skip locked), \
             head as (select seq, kind from submission where state = 'queued' \
                 and not exists (select 1 from expired) order by seq limit $4 \
                 for update skip locked), \
             claimed as (select seq from expired union all select seq from head \
                 where seq = (select min(seq) from head) or seq < coalesce( \
                     (select min(seq) from head where kind != 'answers'), 9223372036854775807)) \
             update submission set state = 'running', attempt = attempt + 1, tries = tries + 1, \
             worker = $1, lease_until = ",
            pg_clock_ms!(),
            " + $3, \
             claimed_at = $2, progress_done = null, progress_total = null \
             where seq in (select seq from claimed) \
             returning seq, id, problem_id, kind, payload, attempt, tries, queued_at, worker, \
             (select p.revision from problem p where p.id = submission.problem_id) as revision"
        ),
    ))
    .bind(worker)
    .bind(now)
    .bind(lease_ms)
    .bind(batch)
}
