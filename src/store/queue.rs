//! Submissions as a leased job queue, their judgements and event log.
//!
//! A submission row is its own queue entry. A worker claims one in a single
//! `update ... returning` statement that sets a lease; every later write of
//! that worker is fenced by the attempt number it claimed, so a worker whose
//! lease expired (and whose job another worker claimed) can never write a
//! verdict: zero rows affected means "lease lost, drop the result".

use std::time::Duration;

use sqlx::{Row, sqlite::SqliteRow};

use super::{Store, StoreError, millis, now_ms, parse_column, parse_optional_column, time_column};
use crate::domain::{
    Event, EventKind, Judgement, Payload, ProblemId, RunUsage, Submission, SubmissionId,
    SubmissionKind, TestcaseResult, Timestamp, Verdict,
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

/// Why a rejudge did not happen.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RejudgeOutcome {
    Queued,
    NotFound,
    /// It is queued or running already.
    Pending,
}

const SUBMISSION_COLUMNS: &str = "seq, id, problem_id, user_name, kind, state, verdict, message, \
     attempt, worker, queued_at, judged_at, created_at";

fn submission(row: &SqliteRow) -> Result<Submission, StoreError> {
    let queued_at: i64 = row.try_get("queued_at")?;
    let judged_at: Option<i64> = row.try_get("judged_at")?;
    Ok(Submission {
        id: parse_column(row, "id")?,
        problem: parse_column(row, "problem_id")?,
        user: row.try_get("user_name")?,
        kind: parse_column(row, "kind")?,
        state: parse_column(row, "state")?,
        verdict: parse_optional_column(row, "verdict")?,
        message: row.try_get("message")?,
        attempt: row.try_get("attempt")?,
        worker: row.try_get("worker")?,
        queued_at: super::timestamp(queued_at)?,
        judged_at: judged_at.map(super::timestamp).transpose()?,
        latency_ms: judged_at.map(|j| j - queued_at),
        created_at: time_column(row, "created_at")?,
    })
}

/// Decodes a stored payload and checks it against the row's kind column.
fn decode_payload(kind: &str, json: &str) -> Result<Payload, String> {
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
            let mut tx = self.write.begin().await?;
            let row = insert_queued(&mut tx, new, now_ms()).await?;
            tx.commit().await?;
            Ok(row)
        })
        .await
    }

    /// Claims the next job for `worker` with a lease, in one statement:
    /// first a job whose lease expired, else the oldest queued one.
    /// Records `claimed` (and `lease_lost` for a reclaim) in the event log.
    pub async fn claim(&self, worker: &str, lease: Duration) -> Result<Option<Claim>, StoreError> {
        self.noted(async {
            let now = now_ms();
            let lease_ms = i64::try_from(lease.as_millis()).unwrap_or(i64::MAX);
            let mut tx = self.write.begin().await?;
            let row = sqlx::query(
            "update submission set state = 'running', attempt = attempt + 1, tries = tries + 1, \
             worker = ?1, lease_until = ?2 + ?3 \
             where seq = coalesce( \
                 (select min(seq) from submission where state = 'running' and lease_until < ?2), \
                 (select min(seq) from submission where state = 'queued')) \
             returning id, problem_id, kind, payload, attempt, tries, queued_at",
        )
        .bind(worker)
        .bind(now)
        .bind(lease_ms)
        .fetch_optional(&mut *tx)
        .await?;
            let Some(row) = row else {
                return Ok(None);
            };
            let kind: String = row.try_get("kind")?;
            let payload: String = row.try_get("payload")?;
            let claim = Claim {
                id: parse_column(&row, "id")?,
                problem: parse_column(&row, "problem_id")?,
                payload: decode_payload(&kind, &payload),
                attempt: row.try_get("attempt")?,
                tries: row.try_get("tries")?,
                worker: worker.to_string(),
                queued_at: row.try_get("queued_at")?,
                claimed_at: now,
            };
            if claim.tries > 1 {
                let detail = format!("the lease of attempt {} expired", claim.attempt - 1);
                insert_event(
                    &mut tx,
                    &claim.id,
                    EventKind::LeaseLost,
                    None,
                    Some(&detail),
                    now,
                )
                .await?;
            }
            let detail = format!("attempt {}", claim.attempt);
            insert_event(
                &mut tx,
                &claim.id,
                EventKind::Claimed,
                Some(worker),
                Some(&detail),
                now,
            )
            .await?;
            tx.commit().await?;
            Ok(Some(claim))
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
        self.noted(async {
            let now = now_ms();
            let duration = now - claim.claimed_at;
            let id = claim.id.to_string();
            let mut tx = self.write.begin().await?;
            let fenced = sqlx::query(
                "update submission set state = 'done', verdict = ?, message = ?, judged_at = ?, \
             lease_until = null where id = ? and attempt = ? and state = 'running'",
            )
            .bind(judgement.verdict.as_str())
            .bind(&judgement.message)
            .bind(now)
            .bind(&id)
            .bind(claim.attempt)
            .execute(&mut *tx)
            .await?;
            if fenced.rows_affected() == 0 {
                tx.rollback().await?;
                let detail = format!("attempt {} finished after losing its lease", claim.attempt);
                let mut tx = self.write.begin().await?;
                insert_event(
                    &mut tx,
                    &claim.id,
                    EventKind::Dropped,
                    Some(&claim.worker),
                    Some(&detail),
                    now,
                )
                .await?;
                tx.commit().await?;
                return Ok(false);
            }
            let judgement_id: i64 = sqlx::query(
                "insert into judgement (submission_id, attempt, problem_version, verdict, message, \
             compile_output, worker, duration_ms, created_at) values (?, ?, ?, ?, ?, ?, ?, ?, ?) \
             returning id",
            )
            .bind(&id)
            .bind(claim.attempt)
            .bind(judgement.problem_version)
            .bind(judgement.verdict.as_str())
            .bind(&judgement.message)
            .bind(&judgement.compile_output)
            .bind(&claim.worker)
            .bind(duration)
            .bind(now)
            .fetch_one(&mut *tx)
            .await?
            .try_get("id")?;
            for (position, result) in judgement.results.iter().enumerate() {
                let run = result.run.as_ref();
                sqlx::query(
                "insert into result (judgement_id, testcase, position, hidden, verdict, time_us, \
                 message, detail, cpu_ms, wall_ms, memory_kib, exit_code, signal, created_at) \
                 values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            )
            .bind(judgement_id)
            .bind(&result.testcase)
            .bind(i64::try_from(position).unwrap_or(i64::MAX))
            .bind(result.hidden)
            .bind(result.verdict.as_str())
            .bind(result.time_us)
            .bind(&result.message)
            .bind(&result.detail)
            .bind(run.map(|r| r.cpu_ms))
            .bind(run.map(|r| r.wall_ms))
            .bind(run.map(|r| r.memory_kib))
            .bind(run.and_then(|r| r.exit_code))
            .bind(run.and_then(|r| r.signal))
            .bind(now)
            .execute(&mut *tx)
            .await?;
            }
            let detail = format!(
                "{} in {duration} ms ({} ms after it was queued)",
                judgement.verdict,
                now - claim.queued_at
            );
            insert_event(
                &mut tx,
                &claim.id,
                EventKind::Judged,
                Some(&claim.worker),
                Some(&detail),
                now,
            )
            .await?;
            tx.commit().await?;
            Ok(true)
        })
        .await
    }

    /// Extends a running claim's lease while its worker is still at work.
    /// `false` if the claim was lost (another attempt took over).
    pub async fn extend_lease(&self, claim: &Claim, lease: Duration) -> Result<bool, StoreError> {
        self.noted(async {
            let lease_ms = i64::try_from(lease.as_millis()).unwrap_or(i64::MAX);
            let extended = sqlx::query(
                "update submission set lease_until = ? + ? \
             where id = ? and attempt = ? and state = 'running'",
            )
            .bind(now_ms())
            .bind(lease_ms)
            .bind(claim.id.to_string())
            .bind(claim.attempt)
            .execute(&self.write)
            .await?;
            Ok(extended.rows_affected() == 1)
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
            sqlx::query(
                "insert into event (submission_id, kind, actor, detail, created_at) \
             select id, ?, worker, 'the daemon stopped before judging finished', ? \
             from submission where state = 'running' and worker like ?",
            )
            .bind(EventKind::Released.as_str())
            .bind(now)
            .bind(&pattern)
            .execute(&mut *tx)
            .await?;
            let done = sqlx::query(
            "update submission set state = 'queued', lease_until = null, tries = max(tries - 1, 0) \
             where state = 'running' and worker like ?",
        )
        .bind(&pattern)
        .execute(&mut *tx)
        .await?;
            tx.commit().await?;
            Ok(done.rows_affected())
        })
        .await
    }

    /// One submission.
    pub async fn submission(&self, id: &SubmissionId) -> Result<Option<Submission>, StoreError> {
        let row = sqlx::query(sqlx::AssertSqlSafe(format!(
            "select {SUBMISSION_COLUMNS} from submission where id = ?"
        )))
        .bind(id.to_string())
        .fetch_optional(&self.read)
        .await?;
        row.as_ref().map(submission).transpose()
    }

    /// Every judgement of a submission, oldest first, with results.
    pub async fn judgements(&self, id: &SubmissionId) -> Result<Vec<Judgement>, StoreError> {
        let rows = sqlx::query(
            "select id, attempt, problem_version, verdict, message, compile_output, worker, \
             duration_ms, created_at from judgement where submission_id = ? order by id",
        )
        .bind(id.to_string())
        .fetch_all(&self.read)
        .await?;
        let mut judgements = Vec::with_capacity(rows.len());
        for row in &rows {
            let judgement_id: i64 = row.try_get("id")?;
            let results = sqlx::query(
                "select testcase, hidden, verdict, time_us, message, detail, cpu_ms, wall_ms, memory_kib, \
                 exit_code, signal from result where judgement_id = ? order by position, testcase",
            )
            .bind(judgement_id)
            .fetch_all(&self.read)
            .await?
            .iter()
            .map(|r| {
                Ok(TestcaseResult {
                    testcase: r.try_get("testcase")?,
                    hidden: r.try_get("hidden")?,
                    verdict: parse_column(r, "verdict")?,
                    time_us: r.try_get("time_us")?,
                    message: r.try_get("message")?,
                    detail: r.try_get("detail")?,
                    run: match r.try_get::<Option<i64>, _>("cpu_ms")? {
                        None => None,
                        Some(cpu_ms) => Some(RunUsage {
                            cpu_ms,
                            wall_ms: r.try_get::<Option<i64>, _>("wall_ms")?.unwrap_or(0),
                            memory_kib: r.try_get::<Option<i64>, _>("memory_kib")?.unwrap_or(0),
                            exit_code: r.try_get("exit_code")?,
                            signal: r.try_get("signal")?,
                        }),
                    },
                })
            })
            .collect::<Result<Vec<_>, StoreError>>()?;
            judgements.push(Judgement {
                attempt: row.try_get("attempt")?,
                problem_version: row.try_get("problem_version")?,
                verdict: parse_column(row, "verdict")?,
                message: row.try_get("message")?,
                compile_output: row.try_get("compile_output")?,
                worker: row.try_get("worker")?,
                duration_ms: row.try_get("duration_ms")?,
                created_at: time_column(row, "created_at")?,
                results,
            });
        }
        Ok(judgements)
    }

    /// A submission's event log, oldest first.
    pub async fn events(&self, id: &SubmissionId) -> Result<Vec<Event>, StoreError> {
        sqlx::query(
            "select kind, actor, detail, created_at from event where submission_id = ? order by id",
        )
        .bind(id.to_string())
        .fetch_all(&self.read)
        .await?
        .iter()
        .map(|r| {
            Ok(Event {
                kind: parse_column(r, "kind")?,
                actor: r.try_get("actor")?,
                detail: r.try_get("detail")?,
                created_at: time_column(r, "created_at")?,
            })
        })
        .collect()
    }

    /// Submissions matching `filter`, newest first, one page.
    pub async fn list_submissions(
        &self,
        filter: &ListFilter,
    ) -> Result<SubmissionPage, StoreError> {
        let rows = sqlx::query(sqlx::AssertSqlSafe(format!(
            "select {SUBMISSION_COLUMNS} from submission \
             where (?1 is null or problem_id = ?1) and (?2 is null or verdict = ?2) \
             and (?3 is null or user_name = ?3) and (?4 is null or created_at >= ?4) \
             and (?5 is null or seq < ?5) order by seq desc limit ?6"
        )))
        .bind(filter.problem.as_ref().map(ProblemId::as_str))
        .bind(filter.verdict.map(Verdict::as_str))
        .bind(&filter.user)
        .bind(filter.since.map(millis))
        .bind(filter.before)
        .bind(filter.limit)
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
            let done = sqlx::query(
            "update submission set state = 'queued', tries = 0, queued_at = ?, lease_until = null \
             where id = ? and state = 'done'",
        )
        .bind(now)
        .bind(id.to_string())
        .execute(&mut *tx)
        .await?;
            if done.rows_affected() == 0 {
                let exists = sqlx::query("select 1 from submission where id = ?")
                    .bind(id.to_string())
                    .fetch_optional(&mut *tx)
                    .await?
                    .is_some();
                return Ok(if exists {
                    RejudgeOutcome::Pending
                } else {
                    RejudgeOutcome::NotFound
                });
            }
            insert_event(&mut tx, id, EventKind::Rejudged, Some(by), None, now).await?;
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
            sqlx::query(
                "insert into event (submission_id, kind, actor, detail, created_at) \
             select id, ?, ?, 'with every submission of the problem', ? \
             from submission where problem_id = ? and state = 'done'",
            )
            .bind(EventKind::Rejudged.as_str())
            .bind(by)
            .bind(now)
            .bind(problem_id.as_str())
            .execute(&mut *tx)
            .await?;
            let done = sqlx::query(
            "update submission set state = 'queued', tries = 0, queued_at = ?, lease_until = null \
             where problem_id = ? and state = 'done'",
        )
        .bind(now)
        .bind(problem_id.as_str())
        .execute(&mut *tx)
        .await?;
            tx.commit().await?;
            Ok(done.rows_affected())
        })
        .await
    }

    /// Submissions waiting and being judged.
    pub async fn queue_depth(&self) -> Result<(i64, i64), StoreError> {
        let row = sqlx::query(
            "select (select count(*) from submission where state = 'queued') as queued, \
             (select count(*) from submission where state = 'running') as running",
        )
        .fetch_one(&self.read)
        .await?;
        Ok((row.try_get("queued")?, row.try_get("running")?))
    }

    /// Judgements ever recorded, by verdict.
    pub async fn verdict_counts(&self) -> Result<Vec<(Verdict, i64)>, StoreError> {
        sqlx::query(
            "select verdict, count(*) as n from judgement group by verdict order by verdict",
        )
        .fetch_all(&self.read)
        .await?
        .iter()
        .map(|r| Ok((parse_column(r, "verdict")?, r.try_get("n")?)))
        .collect()
    }
}

/// Inserts a queued submission and its `queued` event inside `tx`.
pub(super) async fn insert_queued(
    tx: &mut sqlx::Transaction<'_, sqlx::Sqlite>,
    new: &NewSubmission<'_>,
    now: i64,
) -> Result<Submission, StoreError> {
    let id = SubmissionId::new();
    let payload = serde_json::to_string(new.payload)
        .map_err(|e| StoreError::Corrupt(format!("cannot encode a payload: {e}")))?;
    let row = sqlx::query(sqlx::AssertSqlSafe(format!(
        "insert into submission (id, problem_id, user_name, kind, payload, size_bytes, state, \
         queued_at, created_at) values (?, ?, ?, ?, ?, ?, 'queued', ?, ?) \
         returning {SUBMISSION_COLUMNS}"
    )))
    .bind(id.to_string())
    .bind(new.problem.as_str())
    .bind(new.user)
    .bind(new.payload.kind().as_str())
    .bind(&payload)
    .bind(i64::try_from(payload.len()).unwrap_or(i64::MAX))
    .bind(now)
    .bind(now)
    .fetch_one(&mut **tx)
    .await?;
    insert_event(tx, &id, EventKind::Queued, Some(new.user), None, now).await?;
    submission(&row)
}

async fn insert_event(
    tx: &mut sqlx::Transaction<'_, sqlx::Sqlite>,
    submission: &SubmissionId,
    kind: EventKind,
    actor: Option<&str>,
    detail: Option<&str>,
    now: i64,
) -> Result<(), StoreError> {
    sqlx::query(
        "insert into event (submission_id, kind, actor, detail, created_at) values (?, ?, ?, ?, ?)",
    )
    .bind(submission.to_string())
    .bind(kind.as_str())
    .bind(actor)
    .bind(detail)
    .bind(now)
    .execute(&mut **tx)
    .await?;
    Ok(())
}
