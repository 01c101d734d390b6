//! Submissions as a leased job queue, their judgements and event log.
//!
//! A submission row is its own queue entry. A worker claims one in a single
//! `update ... returning` statement that sets a lease; every later write of
//! that worker is fenced by the attempt number it claimed, so a worker whose
//! lease expired (and whose job another worker claimed) can never write a
//! verdict: zero rows affected means "lease lost, drop the result".

use std::collections::{HashMap, HashSet};
use std::time::Duration;

use super::{
    Store, StoreError,
    backend::{Arg, DbRow, Dialect, Pool, Statement, TurnLock, Tx, query, turn_lock},
    millis,
    notices::{self, Origin},
    now_ms, parse_column, parse_optional_column, time_column,
};
use crate::domain::{
    Event, EventKind, Judgement, Payload, ProblemId, Progress, RunUsage, Submission, SubmissionId,
    SubmissionKind, SubmissionState, TestcaseResult, Timestamp, Verdict,
};

/// A submission to insert.
#[derive(Debug, Clone)]
pub struct NewSubmission<'a> {
    pub problem: &'a ProblemId,
    pub user: &'a str,
    pub payload: &'a Payload,
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

/// Joins a verdict's row of a `values` list `v` (its submission's id, then
/// its claim's attempt) to its submission `s` if that has the claim's
/// attempt and is in `$state`: `running` while the claim still holds it,
/// `done` for a row inserted judged. (A `cross join`: see
/// [`sql_judgement_inserts`].)
macro_rules! fenced_in {
    ($state:literal) => {
        concat!(
            " cross join submission s on s.id = v.column1 and s.attempt = v.column2 \
             and s.state = '",
            $state,
            "'"
        )
    };
}

/// The columns [`submission`] reads, as a literal for `concat!`.
macro_rules! submission_columns {
    () => {
        "seq, id, problem_id, user_name, kind, state, verdict, message, \
         attempt, worker, queued_at, judged_at, created_at, progress_done, progress_total"
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
    /// Inserts a queued submission and its `queued` event, atomically.
    pub async fn insert_submission(
        &self,
        new: &NewSubmission<'_>,
    ) -> Result<Submission, StoreError> {
        self.noted(async {
            let payload = encode_payload(new.payload)?;
            let mut tx = OrderedTx::begin(&self.write).await?;
            let row = QueuedRow {
                id: SubmissionId::new(),
                problem: new.problem,
                user: new.user,
                kind: new.payload.kind(),
                payload: &payload,
                totals: UserTotals::latest(tx.tx(), new.user).await?.after(&payload),
            };
            let new = NewRows {
                rows: &[row],
                starts: &[],
                keys: &[],
            };
            let turn = InsertTurn::Held(tx);
            commit_queued_rows(turn, new, Vec::new(), &[], self.origin, now_ms())
                .await?
                .0
                .pop()
                .ok_or_else(|| StoreError::Corrupt("an insert returned no row".into()))
        })
        .await
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
    /// commit), each fenced by its claim's attempt as [`Store::finish`] is.
    /// Returns, in order, whether each was written.
    pub async fn finish_batch(
        &self,
        verdicts: &[(&Claim, &JudgementWrite)],
    ) -> Result<Vec<bool>, StoreError> {
        Ok(self.finish_and_claim(verdicts, None).await?.0)
    }

    /// [`Store::finish_batch`], and in the same transaction the claim of up
    /// to `max` next jobs for `worker` as [`Store::claim_batch`] makes it: a
    /// worker that has written its verdicts takes its next batch in the
    /// same step instead of a write of its own.
    pub async fn finish_batch_and_claim(
        &self,
        verdicts: &[(&Claim, &JudgementWrite)],
        worker: &str,
        lease: Duration,
        max: usize,
    ) -> Result<(Vec<bool>, Vec<Claim>), StoreError> {
        self.finish_and_claim(verdicts, Some((worker, lease, max)))
            .await
    }

    /// The verdicts, and the claim `next` asks for.
    ///
    /// On SQLite in one transaction: the verdicts' writes
    /// ([`sql_verdict_writes`]), then the claim, one [`Tx::commit_with`]
    /// (one hand-off to the writer's thread). On PostgreSQL, where each
    /// statement is a round trip to the server, the verdicts are one
    /// statement ([`pg_verdict_writes`], per [`FENCED_ROWS_PER_UPDATE`]),
    /// and the claim rides in the last of them as more common table
    /// expressions: one round trip and one commit for both.
    async fn finish_and_claim(
        &self,
        verdicts: &[(&Claim, &JudgementWrite)],
        next: Option<(&str, Duration, usize)>,
    ) -> Result<(Vec<bool>, Vec<Claim>), StoreError> {
        self.noted(async {
            let now = now_ms();
            let dialect = self.write.dialect();
            let claim = next.map(|(worker, lease, max)| ClaimArgs {
                worker,
                now,
                lease_ms: i64::try_from(lease.as_millis()).unwrap_or(i64::MAX),
                batch: claim_batch_size(max),
            });
            let next_claim =
                claim.map(|c| claim_statement(dialect, c.worker, c.now, c.lease_ms, c.batch));
            let (judged, claimed): (Vec<DbRow>, Vec<DbRow>) = match dialect {
                Dialect::Sqlite => {
                    let mut statements = sql_verdict_writes(verdicts, now);
                    statements.extend(next_claim);
                    // The claim's rows are those with a `seq`; the update's
                    // have an id alone.
                    self.write
                        .begin()
                        .await?
                        .commit_with(statements)
                        .await?
                        .into_iter()
                        .partition(|row| !row.has("seq"))
                }
                Dialect::Postgres => {
                    let chunks: Vec<_> = verdicts.chunks(FENCED_ROWS_PER_UPDATE).collect();
                    let (mut judged, mut claimed) = (Vec::new(), Vec::new());
                    if chunks.is_empty()
                        && let Some(claim) = next_claim
                    {
                        claimed = claim.fetch_all(&self.write).await?;
                    }
                    for (index, chunk) in chunks.iter().enumerate() {
                        // The claim rides with the last verdicts; their
                        // statement's rows with a `seq` are the claim's.
                        let with_claim = claim.filter(|_| index + 1 == chunks.len());
                        let rows = pg_verdict_writes(chunk, now, with_claim)
                            .fetch_all(&self.write)
                            .await?;
                        for row in rows {
                            if with_claim.is_some() && row.try_get::<Option<i64>>("seq")?.is_some()
                            {
                                claimed.push(row);
                            } else {
                                judged.push(row);
                            }
                        }
                    }
                    (judged, claimed)
                }
            };
            let written = judged
                .iter()
                .map(|row| row.try_get::<String>("id"))
                .collect::<Result<HashSet<String>, _>>()?;
            let claims = match next {
                Some((worker, ..)) => claims_from(claimed, worker, now)?,
                None => Vec::new(),
            };
            Ok((
                verdicts
                    .iter()
                    .map(|(claim, _)| written.contains(&claim.id.to_string()))
                    .collect(),
                claims,
            ))
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
                "update submission set \
             lease_until = (extract(epoch from clock_timestamp()) * 1000)::bigint + $2 \
             where id = $3 and attempt = $4 and state = 'running'",
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
        let row = submission_statement(id).fetch_optional(&self.read).await?;
        row.as_ref().map(submission).transpose()
    }

    /// What a submission sent, with its submitter: the payload as stored
    /// (`Err` names why an unreadable one cannot be decoded).
    pub async fn submission_payload(
        &self,
        id: &SubmissionId,
    ) -> Result<Option<(String, Result<Payload, String>)>, StoreError> {
        let row = query("select user_name, kind, payload from submission where id = $1")
            .bind(id.to_string())
            .fetch_optional(&self.read)
            .await?;
        row.map(|row| {
            let user: String = row.try_get("user_name")?;
            let kind: String = row.try_get("kind")?;
            let payload: String = row.try_get("payload")?;
            Ok((user, decode_payload(&kind, &payload)))
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

    /// A submission's event log, oldest first (empty for a missing
    /// submission).
    pub async fn events(&self, id: &SubmissionId) -> Result<Vec<Event>, StoreError> {
        Ok(self
            .submission_record(id)
            .await?
            .map(|record| record.events)
            .unwrap_or_default())
    }

    /// Milliseconds from each judged submission's first `queued` event to
    /// its first `judged` event: the server's own part of the
    /// submit-to-verdict time, which the load benchmark reports beside what
    /// its clients saw.
    pub async fn queued_to_judged_ms(&self) -> Result<Vec<i64>, StoreError> {
        let rows = query(
            "select q.at as queued, j.at as judged from \
             (select submission_id, min(created_at) as at from event where kind = 'queued' \
              group by submission_id) q \
             join (select submission_id, min(created_at) as at from event where kind = 'judged' \
              group by submission_id) j on j.submission_id = q.submission_id",
        )
        .fetch_all(&self.read)
        .await?;
        rows.iter()
            .map(|row| Ok(row.try_get::<i64>("judged")? - row.try_get::<i64>("queued")?))
            .collect()
    }

    /// Submissions matching `filter`, newest first, one page.
    pub async fn list_submissions(
        &self,
        filter: &ListFilter,
    ) -> Result<SubmissionPage, StoreError> {
        let rows = list_statement(filter).fetch_all(&self.read).await?;
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
    /// judgement, not a count of the judgement table.
    pub async fn verdict_counts(&self) -> Result<Vec<(Verdict, i64)>, StoreError> {
        query("select verdict, judgements as n from verdict_tally order by verdict")
            .fetch_all(&self.read)
            .await?
            .iter()
            .map(|r| Ok((parse_column(r, "verdict")?, r.try_get("n")?)))
            .collect()
    }
}

/// Rows of `result` per insert: 14 bound parameters each, so 5,600 a
/// statement, far under SQLite's 32,766 and PostgreSQL's 65,535 (the
/// verdicts' inserts bind two more a row: 6,400).
const RESULT_ROWS_PER_INSERT: usize = 400;
/// Rows of `judgement` per insert (9 parameters each).
const JUDGEMENT_ROWS_PER_INSERT: usize = 400;
/// Claims fenced per `update` of [`Store::finish_batch`] (4 parameters
/// each): on PostgreSQL each update sends their ids as one judged notice.
const FENCED_ROWS_PER_UPDATE: usize = notices::IDS_PER_NOTICE;
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
pub(super) fn list_statement(filter: &ListFilter) -> Statement<'_> {
    let mut statement = query(concat!(
        "select ",
        submission_columns!(),
        " from submission where true"
    ));
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
    if let Some(before) = filter.before {
        statement = statement.push(" and seq < ").push_bind(before);
    }
    statement
        .push(" order by seq desc limit ")
        .push_bind(filter.limit)
}

/// The lock that makes submissions' inserts take turns on PostgreSQL (the
/// one `submission_turn` takes, see PostgreSQL's migration 0010).
const SUBMISSION_ORDER: TurnLock = turn_lock!("submission order");

/// A transaction that inserts submissions: it holds the lock that makes
/// their inserts take turns (on PostgreSQL) from its start to its end, so
/// nothing it reads before the insert can be changed by another's insert
/// either (the admission's limits count on that); [`InsertTurn::Held`].
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
}

/// Rows of `submission` per insert (10 parameters each).
const SUBMISSION_ROWS_PER_INSERT: usize = 400;

/// A submission ready to insert: its id chosen, its payload encoded, its
/// place among its user's submissions known.
pub(super) struct QueuedRow<'a> {
    pub id: SubmissionId,
    pub problem: &'a ProblemId,
    pub user: &'a str,
    pub kind: SubmissionKind,
    /// The payload as JSON, as stored.
    pub payload: &'a str,
    /// Its `user_ordinal` and `user_bytes`.
    pub totals: UserTotals,
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

    /// The totals of `user`'s latest stored submission.
    async fn latest(tx: &mut Tx, user: &str) -> Result<UserTotals, StoreError> {
        let row = query("select user_ordinal, user_bytes from submission where user_name = ")
            .push_bind(user)
            .push(LATEST_OF_USER)
            .fetch_optional(tx)
            .await?;
        Ok(match row {
            Some(row) => UserTotals {
                submissions: row.try_get("user_ordinal")?,
                bytes: row.try_get("user_bytes")?,
            },
            None => UserTotals::default(),
        })
    }
}

/// Encodes a payload as it is stored.
pub(super) fn encode_payload(payload: &Payload) -> Result<String, StoreError> {
    serde_json::to_string(payload)
        .map_err(|e| StoreError::Corrupt(format!("cannot encode a payload: {e}")))
}

/// New submissions to insert together: their rows, in order, how each
/// starts (a short `starts` leaves the rest queued), and the idempotency
/// keys to store with them.
#[derive(Clone, Copy)]
pub(super) struct NewRows<'s, 'a> {
    pub rows: &'s [QueuedRow<'a>],
    pub starts: &'s [RowStart<'a>],
    pub keys: &'s [NewKey<'a>],
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

/// Rows of `idempotency_key` per insert on SQLite (5 parameters each).
const KEYS_PER_INSERT: usize = 400;

/// How an insert of submissions takes its turn (submissions' inserts take
/// turns; see [`queued_rows_inserts`]).
pub(super) enum InsertTurn<'p> {
    /// In a transaction that took it with its `BEGIN`, and holds it from
    /// its start: what it read before the insert is what the insert meets.
    Held(OrderedTx),
    /// On PostgreSQL, in the insert's own statement, in autocommit (one
    /// round trip, the turn held only while it runs): it fails with
    /// `serialization_failure` if one of its users' latest submission is
    /// no longer the one its rows follow (another host admitted one of
    /// theirs after they were read), and stores nothing.
    InStatement(&'p Pool),
}

/// A claim to make for a worker in the transaction that queues new jobs.
#[derive(Debug, Clone, Copy)]
pub(super) struct ClaimFor<'a> {
    pub worker: &'a str,
    pub lease: Duration,
    /// Jobs to take at most.
    pub max: usize,
}

/// Inserts `new` submissions, in order, with their idempotency keys, runs
/// `then` (statements whose rows are not submissions) and commits, taking
/// the inserts' turn as `turn` says, all in one [`Tx::commit_with`] (on
/// PostgreSQL, one statement in autocommit if that is all there is): one
/// statement for the rows (per [`SUBMISSION_ROWS_PER_INSERT`]), which
/// writes their events too and, on PostgreSQL, their keys, and announces
/// the jobs as from `origin`. Each row starts as its start says
/// ([`RowStart`]). A row claimed goes in queued instead
/// if the queue holds a job ahead of the new ones (queued, or running with
/// its lease run out) when the insert runs: its worker, handed nothing,
/// looks for work itself, oldest first. A row judged goes in queued
/// instead if its problem has changed since the judgement's revision; its
/// judgement is then not written (see [`queued_rows_inserts`]).
/// Returns the rows in the order given, as inserted, and the jobs each of
/// `claims` took.
pub(super) async fn commit_queued_rows<'a>(
    turn: InsertTurn<'_>,
    new: NewRows<'_, 'a>,
    then: Vec<Statement<'a>>,
    claims: &[ClaimFor<'a>],
    origin: Origin,
    now: i64,
) -> Result<(Vec<Submission>, Vec<Vec<Claim>>), StoreError> {
    let dialect = match &turn {
        InsertTurn::Held(OrderedTx(tx)) => tx.dialect(),
        InsertTurn::InStatement(pool) => pool.dialect(),
    };
    let rows = new.rows;
    let mut statements = if rows.is_empty() {
        Vec::new()
    } else {
        queued_rows_inserts(dialect, new, origin, now)
    };
    statements.extend(then);
    let written = match turn {
        InsertTurn::Held(OrderedTx(tx)) => tx.commit_with(statements).await?,
        // The statement takes the turn itself (`submission_turn`).
        InsertTurn::InStatement(pool) if dialect == Dialect::Postgres => {
            if statements.is_empty() {
                Vec::new()
            } else if let [_] = statements.as_slice() {
                statements.remove(0).fetch_all(pool).await?
            } else {
                // Its first statement takes the turn, held to the COMMIT.
                pool.begin().await?.commit_with(statements).await?
            }
        }
        InsertTurn::InStatement(_) => {
            return Err(StoreError::Corrupt(
                "only PostgreSQL's insert takes its turn in its statement".into(),
            ));
        }
    };
    if rows.is_empty() {
        return Ok((Vec::new(), vec![Vec::new(); claims.len()]));
    }
    let mut inserted = HashMap::with_capacity(rows.len());
    let mut by_worker: HashMap<String, Vec<DbRow>> = HashMap::new();
    for row in written {
        if !row.has("seq") {
            // A row of the statements in `then`.
            continue;
        }
        let stored = submission(&row)?;
        if stored.state == SubmissionState::Running
            && let Some(worker) = &stored.worker
        {
            by_worker.entry(worker.clone()).or_default().push(row);
        }
        inserted.insert(stored.id, stored);
    }
    let inserted = rows
        .iter()
        .map(|row| {
            inserted.remove(&row.id).ok_or_else(|| {
                StoreError::Corrupt(format!("the insert of {} returned no row", row.id))
            })
        })
        .collect::<Result<Vec<_>, _>>()?;
    let claims = claims
        .iter()
        .map(|claim| {
            claims_from(
                by_worker.remove(claim.worker).unwrap_or_default(),
                claim.worker,
                now,
            )
        })
        .collect::<Result<Vec<_>, _>>()?;
    Ok((inserted, claims))
}

/// How a new row goes in.
#[derive(Debug, Clone, Copy)]
pub(super) enum RowStart<'a> {
    Queued,
    /// Claimed by a waiting worker, as its own claim would take it.
    Claimed(ClaimedBy<'a>),
    /// Judged already by a waiting worker, before it was stored.
    Judged(JudgedBy<'a>),
}

/// A job judged before its row was stored: the claim it was judged under
/// (attempt 1, at its problem's revision then) and its judgement.
#[derive(Debug, Clone, Copy)]
pub(super) struct JudgedBy<'a> {
    pub claim: &'a Claim,
    pub judgement: &'a JudgementWrite,
    /// When the judging ended: the row's `judged_at`.
    pub judged_at: i64,
}

/// A worker a new row is inserted as claimed by, and its lease.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct ClaimedBy<'a> {
    pub worker: &'a str,
    pub lease_ms: i64,
}

/// Which worker each of `rows` goes to: `claims` in turn, each taking what
/// its [`claim_statement`] would take from a queue holding only the rows
/// not taken yet: a run of answers jobs (at most its batch), or one job of
/// another kind. Rows left over stay queued.
pub(super) fn claimed_at_insert<'a>(
    rows: &[QueuedRow<'_>],
    claims: &[ClaimFor<'a>],
) -> Vec<Option<ClaimedBy<'a>>> {
    let mut claimed_by = vec![None; rows.len()];
    let mut next = 0;
    for claim in claims {
        let Some(first) = rows.get(next) else { break };
        let by = ClaimedBy {
            worker: claim.worker,
            lease_ms: i64::try_from(claim.lease.as_millis()).unwrap_or(i64::MAX),
        };
        let batch = usize::try_from(claim_batch_size(claim.max)).unwrap_or(1);
        let start = next;
        claimed_by[next] = Some(by);
        next += 1;
        while first.kind == SubmissionKind::Answers
            && next - start < batch
            && rows
                .get(next)
                .is_some_and(|row| row.kind == SubmissionKind::Answers)
        {
            claimed_by[next] = Some(by);
            next += 1;
        }
    }
    claimed_by
}

/// The inserts of the `new` rows, queued at `now` (each started as its
/// start says): one statement per
/// [`SUBMISSION_ROWS_PER_INSERT`] rows, the first of which announces the
/// jobs as from `origin` (on PostgreSQL, if any went in queued). Each
/// returns its rows; the rows claimed carry what [`claims_from`] reads.
/// The judgements of rows judged go in with them on PostgreSQL (one round
/// trip), after them on SQLite, by [`judged_at_insert_writes`]; so do
/// their idempotency `keys` (in the statement of the last rows on
/// PostgreSQL, statements of their own after the rows' on SQLite).
///
/// created_at never decreases as seq grows (listings bound their scans by
/// it): the larger of now and the newest row's, read by the insert itself
/// (no round trip of its own). On PostgreSQL two submitting transactions
/// could each miss the other's uncommitted row (and a seq taken first
/// could commit last), so they take turns ([`InsertTurn`]): each insert
/// takes the turn (`submission_turn`, see PostgreSQL's migration 0010)
/// before it reads the newest created_at or takes a seq, and checks that
/// its users' latest submissions are still the ones its rows follow.
pub(super) fn queued_rows_inserts<'a>(
    dialect: Dialect,
    new: NewRows<'_, 'a>,
    origin: Origin,
    now: i64,
) -> Vec<Statement<'a>> {
    rows_inserts(dialect, new, origin, true, now)
}

/// The warm-up's [`queued_rows_inserts`] of `rows` (queued by `origin`),
/// which, on PostgreSQL, do not take the turn: the warm-up's transaction
/// is rolled back after, and holding the turn to its end would hold up
/// every host's inserts meanwhile.
pub(super) fn warm_up_rows_inserts<'a>(
    rows: &[QueuedRow<'a>],
    starts: &[RowStart<'a>],
    origin: Origin,
) -> Vec<Statement<'a>> {
    let new = NewRows {
        rows,
        starts,
        keys: &[],
    };
    rows_inserts(Dialect::Postgres, new, origin, false, 0)
}

/// [`queued_rows_inserts`], on PostgreSQL taking the turn if `take_turn`.
fn rows_inserts<'a>(
    dialect: Dialect,
    NewRows { rows, starts, keys }: NewRows<'_, 'a>,
    origin: Origin,
    take_turn: bool,
    now: i64,
) -> Vec<Statement<'a>> {
    let mut statements = Vec::new();
    let chunks = rows.len().div_ceil(SUBMISSION_ROWS_PER_INSERT);
    for (number, chunk) in rows.chunks(SUBMISSION_ROWS_PER_INSERT).enumerate() {
        let offset = number * SUBMISSION_ROWS_PER_INSERT;
        let starts: Vec<RowStart<'a>> = (0..chunk.len())
            .map(|index| {
                starts
                    .get(offset + index)
                    .copied()
                    .unwrap_or(RowStart::Queued)
            })
            .collect();
        statements.push(match dialect {
            Dialect::Sqlite => sql_queued_rows_insert(chunk, &starts, now),
            // The keys go with the last rows (a key names its row).
            Dialect::Postgres => pg_queued_rows_insert(
                chunk,
                &starts,
                if number + 1 == chunks { keys } else { &[] },
                (number == 0).then_some(origin),
                take_turn,
                now,
            ),
        });
    }
    if dialect == Dialect::Sqlite {
        statements.extend(keys.chunks(KEYS_PER_INSERT).map(|chunk| {
            query(
                "insert into idempotency_key (user_name, key_value, request_hash, \
                 submission_id, created_at) values ",
            )
            .push_rows(chunk.iter().map(|key| {
                [
                    key.user.into(),
                    key.key.into(),
                    key.request_hash.into(),
                    key.submission.to_string().into(),
                    now.into(),
                ]
            }))
        }));
    }
    statements
}

/// The time leases are set and compared by on PostgreSQL: the database's
/// clock, as a claim's (see `claim_statement`).
const PG_CLOCK: &str = "(extract(epoch from clock_timestamp()) * 1000)::bigint";

/// PostgreSQL's insert of `rows` (see [`queued_rows_inserts`]), announcing
/// the jobs as from `origin` if given. The rows travel as one array a
/// column ([`Arg::Column`]), each with how it starts, so the statement has
/// one text whatever the rows (two: with the judgements of rows judged, or
/// without), prepared once a connection and planned once; the problem's
/// revision, the newest `created_at` and whether the queue is free are
/// each read once a statement, not once a row and column.
fn pg_queued_rows_insert<'a>(
    rows: &[QueuedRow<'a>],
    starts: &[RowStart<'a>],
    keys: &[NewKey<'a>],
    origin: Option<Origin>,
    take_turn: bool,
    now: i64,
) -> Statement<'a> {
    // Each user's latest submission as the rows were numbered: the one
    // before the user's first row here.
    let mut users: Vec<(&str, i64)> = Vec::new();
    for row in rows {
        if !users.iter().any(|(user, _)| *user == row.user) {
            users.push((row.user, row.totals.submissions - 1));
        }
    }
    let queue_asked = starts
        .iter()
        .any(|start| matches!(start, RowStart::Claimed(_)));
    let texts = |value: &dyn Fn(&QueuedRow<'a>, RowStart<'a>) -> Option<String>| {
        Arg::texts(
            rows.iter()
                .zip(starts)
                .map(|(row, start)| value(row, *start)),
        )
    };
    let ints = |value: &dyn Fn(&QueuedRow<'a>, RowStart<'a>) -> Option<i64>| {
        Arg::ints(
            rows.iter()
                .zip(starts)
                .map(|(row, start)| value(row, *start)),
        )
    };
    // The turn first: a materialized common table expression that `s`
    // joins, so it runs before any row is read, numbered or inserted.
    let statement = query("with turn as materialized (select * from submission_turn(")
        .push_bind(take_turn)
        .push(", ")
        .push_bind(Arg::texts(
            users.iter().map(|(user, _)| Some(user.to_string())),
        ))
        .push("::text[], ")
        .push_bind(Arg::ints(users.iter().map(|(_, ordinal)| Some(*ordinal))))
        .push("::bigint[], ")
        .push_bind(queue_asked)
        .push(")), r as (select * from unnest(")
        .push_bind(texts(&|row, _| Some(row.id.to_string())))
        .push("::text[], ")
        .push_bind(texts(&|row, _| Some(row.problem.to_string())))
        .push("::text[], ")
        .push_bind(texts(&|row, _| Some(row.user.to_string())))
        .push("::text[], ")
        .push_bind(texts(&|row, _| Some(row.kind.as_str().to_string())))
        .push("::text[], ")
        .push_bind(texts(&|row, _| Some(row.payload.to_string())))
        .push("::text[], ")
        .push_bind(ints(&|row, _| {
            Some(i64::try_from(row.payload.len()).unwrap_or(i64::MAX))
        }))
        .push("::bigint[], ")
        .push_bind(ints(&|row, _| Some(row.totals.submissions)))
        .push("::bigint[], ")
        .push_bind(ints(&|row, _| Some(row.totals.bytes)))
        .push("::bigint[], ")
        .push_bind(texts(&|_, start| {
            Some(
                match start {
                    RowStart::Queued => "queued",
                    RowStart::Claimed(_) => "claimed",
                    RowStart::Judged(_) => "judged",
                }
                .to_string(),
            )
        }))
        .push("::text[], ")
        .push_bind(texts(&|_, start| match start {
            RowStart::Queued => None,
            RowStart::Claimed(by) => Some(by.worker.to_string()),
            RowStart::Judged(by) => Some(by.claim.worker.clone()),
        }))
        .push("::text[], ")
        .push_bind(ints(&|_, start| match start {
            RowStart::Claimed(by) => Some(by.lease_ms),
            _ => None,
        }))
        .push("::bigint[], ")
        // Attempt, tries and claim time: a claimed row's first claim
        // (attempt 1, try 1, now), a judged row's judging claim.
        .push_bind(ints(&|_, start| match start {
            RowStart::Queued => None,
            RowStart::Claimed(_) => Some(1),
            RowStart::Judged(by) => Some(by.claim.attempt),
        }))
        .push("::bigint[], ")
        .push_bind(ints(&|_, start| match start {
            RowStart::Queued => None,
            RowStart::Claimed(_) => Some(1),
            RowStart::Judged(by) => Some(by.claim.tries),
        }))
        .push("::bigint[], ")
        .push_bind(ints(&|_, start| match start {
            RowStart::Queued => None,
            RowStart::Claimed(_) => Some(now),
            RowStart::Judged(by) => Some(by.claim.claimed_at),
        }))
        .push("::bigint[], ")
        // A judged row's revision judged at, verdict, message, end.
        .push_bind(ints(&|_, start| match start {
            RowStart::Judged(by) => Some(by.claim.revision),
            _ => None,
        }))
        .push("::bigint[], ")
        .push_bind(texts(&|_, start| match start {
            RowStart::Judged(by) => Some(by.judgement.verdict.as_str().to_string()),
            _ => None,
        }))
        .push("::text[], ")
        .push_bind(texts(&|_, start| match start {
            RowStart::Judged(by) => by.judgement.message.clone(),
            _ => None,
        }))
        .push("::text[], ")
        .push_bind(ints(&|_, start| match start {
            RowStart::Judged(by) => Some(by.judged_at),
            _ => None,
        }))
        .push(
            "::bigint[]) with ordinality as r (id, problem_id, user_name, kind, payload, \
             size_bytes, user_ordinal, user_bytes, start, worker, lease_ms, attempt, tries, \
             claimed_at, revision, verdict, message, judged_at, n)), ",
        )
        // Whether the queue holds nothing ahead of the new rows (queued, or
        // running with its lease run out) is read by the turn, once, and
        // only if a row is claimed.
        .push(
            "s as (select r.*, turn.newest_created_at, case r.start \
             when 'claimed' then case when turn.queue_free then 'running' \
             else 'queued' end \
             when 'judged' then case when p.revision = r.revision then 'done' else 'queued' end \
             else 'queued' end as state \
             from turn cross join r left join problem p on p.id = r.problem_id), ",
        )
        // A row claimed when the queue was not free, or judged under a
        // revision its problem no longer has, goes in queued, as if never
        // claimed or judged. Rows go in in the order given, so their seqs
        // follow it. Each row's events are written by its insert (the
        // `submission_queued`, `submission_queued_claimed` and
        // `submission_queued_judged` triggers).
        .push(
            "queued as (insert into submission (id, problem_id, user_name, kind, payload, \
             size_bytes, state, queued_at, user_ordinal, user_bytes, created_at, attempt, tries, \
             worker, lease_until, claimed_at, verdict, message, judged_at) \
             select id, problem_id, user_name, kind, payload, size_bytes, state, ",
        )
        .push_bind(now)
        .push(", user_ordinal, user_bytes, greatest(newest_created_at, ")
        .push_bind(now)
        .push(
            "), case when state = 'queued' then 0 else attempt end, \
             case when state = 'queued' then 0 else tries end, \
             case when state <> 'queued' then worker end, \
             case when state = 'running' then ",
        )
        .push(PG_CLOCK)
        .push(
            " + lease_ms end, \
             case when state <> 'queued' then claimed_at end, \
             case when state = 'done' then verdict end, \
             case when state = 'done' then message end, \
             case when state = 'done' then judged_at end \
             from s order by n returning ",
        )
        .push(submission_columns!())
        .push(
            ", case when state = 'running' then payload end as payload, tries, \
             case when state = 'running' then (select p.revision from problem p \
             where p.id = submission.problem_id) end as revision)",
        );
    // The judgements of the rows that went in done. (Written only when a
    // row was judged: the tally's statement trigger fires on every insert
    // into `judgement`, even one of no rows.)
    let judged = verdicts_judged(starts.iter().filter_map(|start| match start {
        RowStart::Judged(by) => Some(by),
        _ => None,
    }));
    let statement = match judged {
        Some((judged_at, verdicts)) => pg_judgement_writes(
            statement.push(", "),
            &verdicts,
            judged_at,
            JudgedRows::InsertedDone,
        ),
        None => statement,
    };
    // The keys, if any (the same text without: arrays of no rows).
    let key_column =
        |value: &dyn Fn(&NewKey<'a>) -> String| Arg::texts(keys.iter().map(|key| Some(value(key))));
    let statement = statement
        .push(
            ", keys as (insert into idempotency_key (user_name, key_value, request_hash, \
             submission_id, created_at) select k.user_name, k.key_value, k.request_hash, \
             k.submission_id, ",
        )
        .push_bind(now)
        .push(" from unnest(")
        .push_bind(key_column(&|key| key.user.to_string()))
        .push("::text[], ")
        .push_bind(key_column(&|key| key.key.to_string()))
        .push("::text[], ")
        .push_bind(key_column(&|key| key.request_hash.to_string()))
        .push("::text[], ")
        .push_bind(key_column(&|key| key.submission.to_string()))
        .push("::text[]) as k (user_name, key_value, request_hash, submission_id))");
    let statement = statement.push(" select queued.* from queued");
    match origin {
        Some(origin) => notices::queued_jobs_announced(statement, origin),
        None => statement,
    }
}

/// SQLite's insert of `rows` (see [`queued_rows_inserts`]): a row of
/// values each, so one text a number of rows and the ways they start.
fn sql_queued_rows_insert<'a>(
    chunk: &[QueuedRow<'a>],
    starts: &[RowStart<'a>],
    now: i64,
) -> Statement<'a> {
    let start = |index: usize| starts[index];
    let claims = (0..chunk.len()).any(|index| matches!(start(index), RowStart::Claimed(_)));
    let judges = (0..chunk.len()).any(|index| matches!(start(index), RowStart::Judged(_)));
    // Rows go in in the order given, so their seqs follow it.
    let mut insert = query("");
    if claims {
        // Whether the queue holds nothing ahead of the new rows, read
        // once by the statement (which does not see its own rows).
        insert = insert.push(
            "with ahead as (select not exists (select 1 from submission \
             where state = 'queued') and not exists (select 1 from submission \
             where state = 'running' and lease_until < ",
        );
        insert = insert.push_bind(now).push(") as free) ");
    }
    insert = insert.push(
        "insert into submission (id, problem_id, user_name, kind, payload, size_bytes, state, \
         queued_at, user_ordinal, user_bytes, created_at",
    );
    if claims || judges {
        insert = insert.push(", attempt, tries, worker, lease_until, claimed_at");
    }
    if judges {
        insert = insert.push(", verdict, message, judged_at");
    }
    insert = insert.push(") values ");
    for (index, row) in chunk.iter().enumerate() {
        // A judged row goes in done if its problem is still at the
        // revision it was judged at, else queued, as if never judged.
        let current = |insert: Statement<'a>, by: &JudgedBy<'a>| {
            insert
                .push(" case when (select p.revision from problem p where p.id = ")
                .push_bind(row.problem.as_str())
                .push(") = ")
                .push_bind(by.claim.revision)
                .push(" then ")
        };
        insert = insert
            .push(if index == 0 { "(" } else { ", (" })
            .push_bind(row.id.to_string())
            .push(", ")
            .push_bind(row.problem.as_str())
            .push(", ")
            .push_bind(row.user)
            .push(", ")
            .push_bind(row.kind.as_str())
            .push(", ")
            .push_bind(row.payload)
            .push(", ")
            .push_bind(i64::try_from(row.payload.len()).unwrap_or(i64::MAX))
            .push(", ");
        insert = match start(index) {
            RowStart::Queued => insert.push_bind(SubmissionState::Queued.as_str()),
            RowStart::Claimed(_) => {
                insert.push("case when (select free from ahead) then 'running' else 'queued' end")
            }
            RowStart::Judged(by) => current(insert, &by).push("'done' else 'queued' end"),
        }
        .push(", ")
        .push_bind(now)
        .push(", ")
        .push_bind(row.totals.submissions)
        .push(", ")
        .push_bind(row.totals.bytes)
        .push(", max(coalesce((select max(created_at) from submission), 0), ")
        .push_bind(now)
        .push(")");
        if claims || judges {
            insert = match start(index) {
                RowStart::Queued => insert.push(", 0, 0, null, null, null"),
                RowStart::Claimed(by) => {
                    // Its first claim: attempt 1, try 1.
                    let when_free = ", case when (select free from ahead) then ";
                    let insert = insert
                        .push(when_free)
                        .push("1 else 0 end")
                        .push(when_free)
                        .push("1 else 0 end")
                        .push(when_free)
                        .push_bind(by.worker)
                        .push(" end")
                        .push(when_free);
                    insert
                        .push_bind(now)
                        .push(" + ")
                        .push_bind(by.lease_ms)
                        .push(" end")
                        .push(when_free)
                        .push_bind(now)
                        .push(" end")
                }
                RowStart::Judged(by) => {
                    // Its claim, ended: no lease.
                    let insert = current(insert.push(","), &by)
                        .push_bind(by.claim.attempt)
                        .push(" else 0 end,");
                    let insert = current(insert, &by)
                        .push_bind(by.claim.tries)
                        .push(" else 0 end,");
                    let insert = current(insert, &by)
                        .push_bind(by.claim.worker.as_str())
                        .push(" end, null,");
                    current(insert, &by)
                        .push_bind(by.claim.claimed_at)
                        .push(" end")
                }
            };
        }
        if judges {
            insert = match start(index) {
                RowStart::Queued | RowStart::Claimed(_) => insert.push(", null, null, null"),
                RowStart::Judged(by) => {
                    let insert = current(insert.push(","), &by)
                        .push_bind(by.judgement.verdict.as_str())
                        .push(" end,");
                    let insert = current(insert, &by)
                        .push_bind(&by.judgement.message)
                        .push(" end,");
                    current(insert, &by).push_bind(by.judged_at).push(" end")
                }
            };
        }
        insert = insert.push(")");
    }
    // Each row's events are written by its insert (the
    // `submission_queued`, `submission_queued_claimed` and
    // `submission_queued_judged` triggers).
    let insert = insert.push(concat!(" returning ", submission_columns!()));
    if claims {
        insert.push(
            ", payload, tries, \
             (select p.revision from problem p where p.id = submission.problem_id) as revision",
        )
    } else {
        insert
    }
}

/// SQLite's writes of the judgements of rows inserted judged (see
/// [`RowStart::Judged`]), to run after their inserts in the same
/// transaction: each judgement and its results go in only if its row went
/// in done (its problem unchanged since the judging); the `judged` events
/// came with the rows, and the verdict counts come by trigger. (On
/// PostgreSQL they are part of the rows' insert, [`queued_rows_inserts`].)
pub(super) fn judged_at_insert_writes<'a>(
    dialect: Dialect,
    judged: &[JudgedBy<'a>],
) -> Vec<Statement<'a>> {
    match (dialect, verdicts_judged(judged)) {
        (Dialect::Sqlite, Some((now, verdicts))) => {
            sql_judgement_inserts(&verdicts, now, fenced_in!("done"))
        }
        _ => Vec::new(),
    }
}

/// The verdicts of rows judged before they were stored, with the one time
/// their writes carry (the last judging's end, as a worker's batch has
/// one time); `None` if there are none.
fn verdicts_judged<'a, 'b>(
    judged: impl IntoIterator<Item = &'b JudgedBy<'a>>,
) -> Option<(i64, Vec<(&'a Claim, &'a JudgementWrite)>)>
where
    'a: 'b,
{
    let judged: Vec<&JudgedBy<'a>> = judged.into_iter().collect();
    let now = judged.iter().map(|by| by.judged_at).max()?;
    Some((
        now,
        judged.iter().map(|by| (by.claim, by.judgement)).collect(),
    ))
}

/// An event row to insert.
struct NewEvent<'a> {
    submission: &'a SubmissionId,
    kind: EventKind,
    actor: Option<&'a str>,
    detail: Option<String>,
}

async fn insert_event(
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

/// SQLite's writes of `verdicts`, each fenced by its claim's attempt in
/// the statements themselves, so all of them go in one script: the
/// judgements and their results are inserted for the claims whose row is
/// still running with their attempt, a `dropped` event for the others, then
/// the `update` that marks the kept ones done and returns their ids. The
/// `judged` events and verdict counts come by trigger.
fn sql_verdict_writes<'a>(
    verdicts: &[(&'a Claim, &'a JudgementWrite)],
    now: i64,
) -> Vec<Statement<'a>> {
    let mut statements = sql_fenced_inserts(verdicts, now);
    statements.extend(sql_fenced_updates(verdicts, now));
    statements
}

/// PostgreSQL's writes of `verdicts` (at most [`FENCED_ROWS_PER_UPDATE`]),
/// each fenced by its claim's attempt, in one statement, so one round trip
/// and its own transaction: the `update` that marks done the rows still
/// running with their claim's attempt (`judged`), the judgements of those
/// rows and their results ([`pg_judgement_writes`]), a `dropped` event for
/// the others, one judged notice with the ids it returns, and beside them,
/// if `next` is given, the worker's next claim. The judged events and
/// verdict counts come by trigger, as on SQLite.
pub(super) fn pg_verdict_writes<'a>(
    verdicts: &[(&'a Claim, &'a JudgementWrite)],
    now: i64,
    next: Option<ClaimArgs<'a>>,
) -> Statement<'a> {
    let statement = pg_judgement_writes(query("with "), verdicts, now, JudgedRows::Running)
        .push(
            ", dropped as (insert into event (submission_id, kind, actor, detail, created_at) \
             select v.id, ",
        )
        .push_bind(EventKind::Dropped.as_str())
        .push(", v.worker, v.dropped, ")
        .push_bind(now)
        .push(" from v where not exists (select 1 from judged where judged.id = v.id))");
    match next {
        None => notices::judged_ids_announced(statement),
        Some(claim) => notices::judged_ids_announced_beside_claim(pg_claim_expressions(
            statement.push(", "),
            claim,
            ClaimBeside::Verdicts,
        )),
    }
}

/// Which rows [`pg_judgement_writes`] writes the judgements of.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum JudgedRows {
    /// Rows still running with their claim's attempt: its `judged` is the
    /// `update` that marks them done.
    Running,
    /// Rows the same statement's `queued` insert put in done (a row judged
    /// under a revision its problem no longer has went in queued, and its
    /// judgement is not written). Nothing is fenced out, so no `dropped`
    /// details are bound.
    InsertedDone,
}

/// Continues a statement of common table expressions (after `with ` or a
/// comma) with PostgreSQL's writes of `verdicts`' judgements: `v`, the
/// verdicts; `judged`, the ids of the rows whose judgement goes in (as
/// `rows` says); `judgements` and `results`, their inserts. The values
/// travel as one array a column ([`Arg::Column`]), so the statement has one
/// text whatever the batch, prepared once a connection.
pub(super) fn pg_judgement_writes<'a>(
    statement: Statement<'a>,
    verdicts: &[(&'a Claim, &'a JudgementWrite)],
    now: i64,
    rows: JudgedRows,
) -> Statement<'a> {
    let claims = || verdicts.iter().map(|(claim, _)| *claim);
    let judgements = || verdicts.iter().map(|(_, judgement)| *judgement);
    let results: Vec<(&Claim, i64, &TestcaseResult)> = verdicts
        .iter()
        .flat_map(|(claim, judgement)| {
            judgement
                .results
                .iter()
                .enumerate()
                .map(move |(position, result)| {
                    (*claim, i64::try_from(position).unwrap_or(i64::MAX), result)
                })
        })
        .collect();
    let runs = || results.iter().map(|(_, _, result)| result.run.as_ref());
    let statement = statement
        .push("v as (select * from unnest(")
        .push_bind(Arg::texts(claims().map(|c| Some(c.id.to_string()))))
        .push("::text[], ")
        .push_bind(Arg::ints(claims().map(|c| Some(c.attempt))))
        .push("::bigint[], ")
        .push_bind(Arg::ints(judgements().map(|j| Some(j.problem_version))))
        .push("::bigint[], ")
        .push_bind(Arg::texts(
            judgements().map(|j| Some(j.verdict.as_str().to_string())),
        ))
        .push("::text[], ")
        .push_bind(Arg::texts(judgements().map(|j| j.message.clone())))
        .push("::text[], ")
        .push_bind(Arg::texts(judgements().map(|j| j.compile_output.clone())))
        .push("::text[], ")
        .push_bind(Arg::texts(claims().map(|c| Some(c.worker.clone()))))
        .push("::text[], ")
        .push_bind(Arg::ints(claims().map(|c| Some(now - c.claimed_at))))
        .push("::bigint[], ")
        .push_bind(Arg::texts(claims().map(|c| match rows {
            JudgedRows::Running => Some(dropped_detail(c)),
            JudgedRows::InsertedDone => None,
        })))
        .push(
            "::text[]) as v (id, attempt, problem_version, verdict, message, compile_output, \
             worker, duration_ms, dropped)), ",
        );
    let statement = match rows {
        JudgedRows::Running => statement
            .push(
                "judged as (update submission set state = 'done', verdict = v.verdict, \
                 message = v.message, judged_at = ",
            )
            .push_bind(now)
            .push(
                ", lease_until = null, progress_done = null, progress_total = null from v \
                 where submission.id = v.id and submission.attempt = v.attempt \
                 and submission.state = 'running' returning submission.id), ",
            ),
        JudgedRows::InsertedDone => statement.push(
            "judged as (select queued.id from queued join v \
             on queued.id = v.id and queued.attempt = v.attempt and queued.state = 'done'), ",
        ),
    };
    statement
        .push(
            "judgements as (insert into judgement (submission_id, attempt, problem_version, \
             verdict, message, compile_output, worker, duration_ms, created_at) \
             select v.id, v.attempt, v.problem_version, v.verdict, v.message, v.compile_output, \
             v.worker, v.duration_ms, ",
        )
        .push_bind(now)
        .push(
            " from v join judged on judged.id = v.id returning id, submission_id), \
             results as (insert into result (judgement_id, testcase, position, hidden, verdict, \
             time_us, message, detail, cpu_ms, wall_ms, memory_kib, exit_code, signal, \
             created_at) select j.id, r.testcase, r.position, r.hidden, r.verdict, r.time_us, \
             r.message, r.detail, r.cpu_ms, r.wall_ms, r.memory_kib, r.exit_code, r.signal, ",
        )
        .push_bind(now)
        .push(" from unnest(")
        .push_bind(Arg::texts(
            results.iter().map(|(c, ..)| Some(c.id.to_string())),
        ))
        .push("::text[], ")
        .push_bind(Arg::texts(
            results.iter().map(|(.., r)| Some(r.testcase.to_string())),
        ))
        .push("::text[], ")
        .push_bind(Arg::ints(
            results.iter().map(|(_, position, _)| Some(*position)),
        ))
        .push("::bigint[], ")
        .push_bind(Arg::bools(results.iter().map(|(.., r)| r.hidden)))
        .push("::boolean[], ")
        .push_bind(Arg::texts(
            results
                .iter()
                .map(|(.., r)| Some(r.verdict.as_str().to_string())),
        ))
        .push("::text[], ")
        .push_bind(Arg::ints(results.iter().map(|(.., r)| Some(r.time_us))))
        .push("::bigint[], ")
        .push_bind(Arg::texts(results.iter().map(|(.., r)| r.message.clone())))
        .push("::text[], ")
        .push_bind(Arg::texts(results.iter().map(|(.., r)| r.detail.clone())))
        .push("::text[], ")
        .push_bind(Arg::ints(runs().map(|run| run.map(|r| r.cpu_ms))))
        .push("::bigint[], ")
        .push_bind(Arg::ints(runs().map(|run| run.map(|r| r.wall_ms))))
        .push("::bigint[], ")
        .push_bind(Arg::ints(runs().map(|run| run.map(|r| r.memory_kib))))
        .push("::bigint[], ")
        .push_bind(Arg::ints(
            runs().map(|run| run.and_then(|r| r.exit_code).map(i64::from)),
        ))
        .push("::bigint[], ")
        .push_bind(Arg::ints(
            runs().map(|run| run.and_then(|r| r.signal).map(i64::from)),
        ))
        .push(
            "::bigint[]) as r (submission_id, testcase, position, hidden, verdict, time_us, \
             message, detail, cpu_ms, wall_ms, memory_kib, exit_code, signal) \
             join judgements j on j.submission_id = r.submission_id)",
        )
}

/// The columns of `judgement` from `submission_id` to `duration_ms` for a
/// verdict written at `now`, as both verdict paths bind them.
fn judgement_values<'a>(claim: &'a Claim, judgement: &'a JudgementWrite, now: i64) -> [Arg<'a>; 8] {
    [
        claim.id.to_string().into(),
        claim.attempt.into(),
        judgement.problem_version.into(),
        judgement.verdict.as_str().into(),
        (&judgement.message).into(),
        (&judgement.compile_output).into(),
        (&claim.worker).into(),
        (now - claim.claimed_at).into(),
    ]
}

/// The columns of `result` from `testcase` to `signal`,
/// as both verdict paths bind them.
fn result_values(position: usize, result: &TestcaseResult) -> [Arg<'_>; 12] {
    let run = result.run.as_ref();
    [
        (&result.testcase).into(),
        i64::try_from(position).unwrap_or(i64::MAX).into(),
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
    ]
}

/// The `detail` of the `dropped` event of a verdict fenced out.
fn dropped_detail(claim: &Claim) -> String {
    format!("attempt {} finished after losing its lease", claim.attempt)
}

/// SQLite's inserts of a verdict batch, each joined to the claims whose row
/// is still running with their attempt (the fence), to run before the
/// update that ends their running; and `dropped` events for the others.
fn sql_fenced_inserts<'a>(
    verdicts: &[(&'a Claim, &'a JudgementWrite)],
    now: i64,
) -> Vec<Statement<'a>> {
    let mut statements = sql_judgement_inserts(verdicts, now, fenced_in!("running"));
    for chunk in verdicts.chunks(EVENT_ROWS_PER_INSERT) {
        statements.push(
            query(
                "insert into event (submission_id, kind, actor, detail, created_at) \
                 select v.column1, ",
            )
            .push_bind(EventKind::Dropped.as_str())
            .push(", v.column3, v.column4, ")
            .push_bind(now)
            .push(" from (values ")
            .push_rows(chunk.iter().map(|(claim, _)| {
                [
                    claim.id.to_string().into(),
                    claim.attempt.into(),
                    (&claim.worker).into(),
                    dropped_detail(claim).into(),
                ]
            }))
            .push(
                ") as v where not exists (select 1 from submission s \
                 where s.id = v.column1 and s.attempt = v.column2 and s.state = 'running')",
            ),
        );
    }
    statements
}

/// SQLite's inserts of the judgements of `verdicts` and their results, at
/// `now`, each only if its row joins as `fence` says (a `cross join` of the
/// `values` list `v`, its submission's id then its claim's attempt, to its
/// submission `s`).
///
/// A `cross join`, which SQLite runs in the order written: `v` outside,
/// each of its rows finding its submission by id. With a plain `join` and
/// no statistics, SQLite could take the submissions of the fence's state
/// as the outer loop and run the `values` list once for each: for `done`,
/// every judged submission (the writer's time grew with the table).
fn sql_judgement_inserts<'a>(
    verdicts: &[(&'a Claim, &'a JudgementWrite)],
    now: i64,
    fence: &'static str,
) -> Vec<Statement<'a>> {
    let mut statements = Vec::new();
    for chunk in verdicts.chunks(JUDGEMENT_ROWS_PER_INSERT) {
        statements.push(
            query(
                "insert into judgement (submission_id, attempt, problem_version, verdict, \
                 message, compile_output, worker, duration_ms, created_at) \
                 select v.column1, v.column2, v.column3, v.column4, v.column5, v.column6, \
                 v.column7, v.column8, ",
            )
            .push_bind(now)
            .push(" from (values ")
            .push_rows(
                chunk
                    .iter()
                    .map(|(claim, judgement)| judgement_values(claim, judgement, now)),
            )
            .push(") as v")
            .push(fence),
        );
    }
    // A running row with the claim's attempt has a judgement of that
    // attempt only if the insert above just wrote it (the update that
    // would follow any earlier one ends the attempt's running).
    let results: Vec<_> = verdicts
        .iter()
        .flat_map(|(claim, judgement)| {
            judgement
                .results
                .iter()
                .enumerate()
                .map(move |(position, result)| (*claim, position, result))
        })
        .collect();
    for chunk in results.chunks(RESULT_ROWS_PER_INSERT) {
        statements.push(
            query(
                "insert into result (judgement_id, testcase, position, hidden, verdict, \
                 time_us, message, detail, cpu_ms, wall_ms, memory_kib, exit_code, signal, \
                 created_at) \
                 select j.id, v.column3, v.column4, v.column5, v.column6, v.column7, \
                 v.column8, v.column9, v.column10, v.column11, v.column12, v.column13, \
                 v.column14, ",
            )
            .push_bind(now)
            .push(" from (values ")
            .push_rows(chunk.iter().map(|(claim, position, result)| {
                [claim.id.to_string().into(), claim.attempt.into()]
                    .into_iter()
                    .chain(result_values(*position, result))
            }))
            .push(") as v")
            .push(fence)
            .push(" join judgement j on j.submission_id = s.id and j.attempt = s.attempt"),
        );
    }
    statements
}

/// SQLite's fenced `update`s that mark `verdicts`' rows done and return
/// their ids.
fn sql_fenced_updates<'a>(
    verdicts: &[(&'a Claim, &'a JudgementWrite)],
    now: i64,
) -> Vec<Statement<'a>> {
    let mut statements = Vec::new();
    for chunk in verdicts.chunks(FENCED_ROWS_PER_UPDATE) {
        statements.push(
            query(
                "update submission set state = 'done', verdict = v.column3, \
                 message = v.column4, judged_at = ",
            )
            .push_bind(now)
            .push(
                ", lease_until = null, progress_done = null, progress_total = null \
                 from (values ",
            )
            .push_rows(chunk.iter().map(|(claim, judgement)| {
                [
                    claim.id.to_string().into(),
                    claim.attempt.into(),
                    judgement.verdict.as_str().into(),
                    (&judgement.message).into(),
                ]
            }))
            .push(
                ") as v where submission.id = v.column1 and submission.attempt = v.column2 \
                 and submission.state = 'running' returning submission.id",
            ),
        );
    }
    statements
}

/// The read of one submission's row.
pub(super) fn submission_statement(id: &SubmissionId) -> Statement<'static> {
    query(concat!(
        "select ",
        submission_columns!(),
        " from submission where id = $1"
    ))
    .bind(id.to_string())
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
            "select cast(0 as bigint) as part, seq, id, problem_id, user_name, kind, state, \
             verdict, message, attempt, worker, queued_at, judged_at, created_at, \
             progress_done, progress_total, cast(null as bigint) as judgement_id, \
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
             null, null, j.id, j.problem_version, j.compile_output, j.duration_ms, \
             r.testcase, r.position, r.hidden, r.verdict, r.time_us, r.message, r.detail, \
             r.cpu_ms, r.wall_ms, r.memory_kib, r.exit_code, r.signal, null, null \
             from judgement j ",
            $results,
            " where j.submission_id = ",
            $id,
            " union all \
             select 2, null, null, null, null, kind, null, null, null, null, null, null, \
             null, created_at, null, null, null, null, null, null, null, null, null, null, \
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
/// (317 and 544 ms of planning); with the subquery, 125 plans (most of
/// them the warm-up's) and 49 ms.
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
    match dialect {
        Dialect::Sqlite => query(
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
        )
        .bind(worker)
        .bind(now)
        .bind(lease_ms)
        .bind(batch),
        Dialect::Postgres => pg_claim_expressions(
            query("with "),
            ClaimArgs {
                worker,
                now,
                lease_ms,
                batch,
            },
            ClaimBeside::Nothing,
        )
        .push(" select * from claim"),
    }
}

/// A claim's arguments, as [`claim_statement`] takes them.
#[derive(Debug, Clone, Copy)]
pub(super) struct ClaimArgs<'a> {
    pub worker: &'a str,
    pub now: i64,
    pub lease_ms: i64,
    pub batch: i64,
}

/// What else the statement a PostgreSQL claim is part of changes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum ClaimBeside {
    /// Nothing: the claim is the statement.
    Nothing,
    /// The verdicts of the rows in `v` ([`pg_verdict_writes`]): a row may
    /// not be changed twice in one statement, so the claim leaves those
    /// alone even when their lease ran out (their verdict is fenced by
    /// their attempt: if the lease was lost, it is dropped and the row
    /// stays for the next claim).
    Verdicts,
}

/// PostgreSQL's claim as common table expressions appended to `statement`
/// (which ends in `with ` or `, `), the last of them `claim`: the `update`
/// that claims, returning what [`claims_from`] reads.
fn pg_claim_expressions<'a>(
    statement: Statement<'a>,
    claim: ClaimArgs<'a>,
    beside: ClaimBeside,
) -> Statement<'a> {
    statement
        .push(
            "expired as (select seq from submission where state = 'running' \
             and lease_until < (extract(epoch from clock_timestamp()) * 1000)::bigint",
        )
        .push(match beside {
            ClaimBeside::Nothing => "",
            ClaimBeside::Verdicts => " and not exists (select 1 from v where v.id = submission.id)",
        })
        .push(
            " order by seq limit 1 for update skip locked), \
             head as (select seq, kind from submission where state = 'queued' \
             and not exists (select 1 from expired) order by seq limit ",
        )
        .push_bind(claim.batch)
        .push(
            " for update skip locked), \
             claimed as (select seq from expired union all select seq from head \
             where seq = (select min(seq) from head) or seq < coalesce( \
             (select min(seq) from head where kind != 'answers'), 9223372036854775807)), \
             claim as (update submission set state = 'running', attempt = attempt + 1, \
             tries = tries + 1, worker = ",
        )
        .push_bind(claim.worker)
        .push(", lease_until = (extract(epoch from clock_timestamp()) * 1000)::bigint + ")
        .push_bind(claim.lease_ms)
        .push(", claimed_at = ")
        .push_bind(claim.now)
        .push(
            ", progress_done = null, progress_total = null \
             where seq in (select seq from claimed) \
             returning seq, id, problem_id, kind, payload, attempt, tries, queued_at, worker, \
             (select p.revision from problem p where p.id = submission.problem_id) as revision)",
        )
}
