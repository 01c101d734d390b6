//! Rejudge previews: a problem's judged submissions judged again on the
//! side, their verdicts untouched, then applied or discarded.
//!
//! A preview is a `rejudging` row and one `rejudging_item` per submission
//! that was judged when it began, holding the verdict and latest judgement
//! it had then. Workers claim items as they claim submissions (a lease and
//! an attempt that fences each write) and store the new judgement whole in
//! the item. Applying writes the judgements whose verdict changed as the
//! submissions' latest, in one transaction, except where the submission
//! was judged again since the preview began: those are counted stale and
//! left alone.

use std::time::Duration;

use super::{
    Store, StoreError,
    backend::{DbRow, query},
    contests::{self, CellScope},
    notices, now_ms, optional_time_column, parse_column, parse_optional_column,
    queue::{self, Claim, JudgedBy, JudgementWrite},
    time_column,
};
use crate::domain::{
    AppliedRejudging, EventKind, ProblemId, Rejudging, RejudgingItem, RejudgingReport,
    RejudgingState, SubmissionId, TestcaseResult, Verdict,
};
use crate::scoring;

/// A claimed item of a preview: the submission to judge again, as a claim
/// whose `attempt` is the item's.
#[derive(Debug)]
pub struct RejudgingClaim {
    pub rejudging: i64,
    pub claim: Claim,
}

/// Why a preview was not applied or discarded.
#[derive(Debug, PartialEq, Eq)]
pub enum RejudgingRefusal {
    NotFound,
    /// Applied or discarded already.
    Decided(RejudgingState),
    /// This many of its submissions are not judged again yet.
    StillJudging(i64),
}

/// The columns of a [`Rejudging`] `r`, read by [`rejudging_from`].
macro_rules! rejudging_columns {
    () => {
        "r.id, r.problem_id, r.state, r.created_by, r.created_at, \
     r.decided_by, r.decided_at, \
     (select count(*) from rejudging_item i where i.rejudging_id = r.id) as submissions, \
     (select count(*) from rejudging_item i where i.rejudging_id = r.id \
         and i.verdict is not null) as judged, \
     (select count(*) from rejudging_item i where i.rejudging_id = r.id \
         and i.verdict is not null and (i.verdict_before is null or i.verdict != i.verdict_before)) \
         as changed"
    };
}

impl Store {
    /// Starts a preview of rejudging every judged submission of a problem;
    /// `None` if it has none. The submissions are not touched.
    pub async fn create_rejudging(
        &self,
        problem: &ProblemId,
        by: &str,
    ) -> Result<Option<Rejudging>, StoreError> {
        let id = self
            .noted(async {
                let now = now_ms();
                let mut tx = self.write.begin().await?;
                let id: i64 = query(
                    "insert into rejudging (problem_id, state, created_by, created_at) \
                     values ($1, 'preview', $2, $3) returning id",
                )
                .bind(problem.as_str())
                .bind(by)
                .bind(now)
                .fetch_one(&mut tx)
                .await?
                .try_get("id")?;
                let items = query(
                    "insert into rejudging_item (rejudging_id, submission_id, judgement_before, \
                     verdict_before) \
                     select $1, s.id, (select max(j.id) from judgement j \
                         where j.submission_id = s.id), s.verdict \
                     from submission s where s.problem_id = $2 and s.state = 'done'",
                )
                .bind(id)
                .bind(problem.as_str())
                .execute(&mut tx)
                .await?;
                if items == 0 {
                    return Ok(None);
                }
                notices::job_queued(&mut tx, self.origin).await?;
                tx.commit().await?;
                Ok(Some(id))
            })
            .await?;
        match id {
            Some(id) => self.rejudging(id).await,
            None => Ok(None),
        }
    }

    /// A preview, without its items.
    pub async fn rejudging(&self, id: i64) -> Result<Option<Rejudging>, StoreError> {
        query(concat!(
            "select ",
            rejudging_columns!(),
            " from rejudging r where r.id = $1"
        ))
        .bind(id)
        .fetch_optional(&self.read)
        .await?
        .map(|row| rejudging_from(&row))
        .transpose()
    }

    /// A problem's previews, newest first.
    pub async fn rejudgings_of_problem(
        &self,
        problem: &ProblemId,
    ) -> Result<Vec<Rejudging>, StoreError> {
        query(concat!(
            "select ",
            rejudging_columns!(),
            " from rejudging r where r.problem_id = $1 order by r.id desc"
        ))
        .bind(problem.as_str())
        .fetch_all(&self.read)
        .await?
        .iter()
        .map(rejudging_from)
        .collect()
    }

    /// A preview with each submission's verdict before and in it.
    pub async fn rejudging_report(&self, id: i64) -> Result<Option<RejudgingReport>, StoreError> {
        let Some(rejudging) = self.rejudging(id).await? else {
            return Ok(None);
        };
        let items = query(
            "select i.submission_id, s.user_name, s.kind, i.verdict_before, i.verdict, i.message \
             from rejudging_item i join submission s on s.id = i.submission_id \
             where i.rejudging_id = $1 order by s.seq",
        )
        .bind(id)
        .fetch_all(&self.read)
        .await?
        .iter()
        .map(|row| {
            Ok(RejudgingItem {
                submission: parse_column(row, "submission_id")?,
                user: row.try_get("user_name")?,
                kind: parse_column(row, "kind")?,
                before: parse_optional_column(row, "verdict_before")?,
                after: parse_optional_column(row, "verdict")?,
                message: row.try_get("message")?,
            })
        })
        .collect::<Result<_, StoreError>>()?;
        Ok(Some(RejudgingReport { rejudging, items }))
    }

    /// Claims one item of an open preview for `worker`: one not judged yet
    /// ([`side_job_claim!`]).
    pub async fn claim_rejudging_item(
        &self,
        worker: &str,
        lease: Duration,
    ) -> Result<Option<RejudgingClaim>, StoreError> {
        let claim = side_job_claim!(
            update "rejudging_item" where "(rejudging_id, submission_id)" = (
                select "i.rejudging_id, i.submission_id"
                from "rejudging_item i join rejudging r on r.id = i.rejudging_id"
                where "r.state = 'preview' and i.verdict is null"
                order by "i.rejudging_id, i.submission_id")
            returning "rejudging_id, submission_id, attempt, claimed_at"
        );
        let Some(claimed) = self.claim_side_job(claim, worker, lease).await? else {
            return Ok(None);
        };
        let submission: SubmissionId = parse_column(&claimed, "submission_id")?;
        let row = query(
            "select s.problem_id, s.kind, s.payload, s.queued_at, \
             (select p.revision from problem p where p.id = s.problem_id) as revision \
             from submission s where s.id = $1",
        )
        .bind(submission.to_string())
        .fetch_one(&self.read)
        .await?;
        let kind: String = row.try_get("kind")?;
        let payload: String = row.try_get("payload")?;
        let attempt: i64 = claimed.try_get("attempt")?;
        Ok(Some(RejudgingClaim {
            rejudging: claimed.try_get("rejudging_id")?,
            claim: Claim {
                id: submission,
                problem: parse_column(&row, "problem_id")?,
                payload: queue::decode_payload(&kind, &payload),
                attempt,
                tries: attempt,
                worker: worker.to_string(),
                revision: row.try_get::<Option<i64>>("revision")?.unwrap_or(0),
                queued_at: row.try_get("queued_at")?,
                claimed_at: claimed.try_get("claimed_at")?,
            },
        }))
    }

    /// Stores a preview's new judgement of one submission, fenced by the
    /// item's attempt; `false` if the claim was lost (or the item judged).
    pub async fn record_rejudging_item(
        &self,
        claimed: &RejudgingClaim,
        judgement: &JudgementWrite,
    ) -> Result<bool, StoreError> {
        self.noted(async {
            let results = serde_json::to_string(&judgement.results)
                .map_err(|e| StoreError::Corrupt(format!("results: {e}")))?;
            let written = query(
                "update rejudging_item set verdict = $1, message = $2, compile_output = $3, \
                 results = $4, group_scores = $5, problem_version = $6, judged_at = $7, \
                 lease_until = null \
                 where rejudging_id = $8 and submission_id = $9 and attempt = $10 \
                 and verdict is null",
            )
            .bind(judgement.verdict.as_str())
            .bind(&judgement.message)
            .bind(&judgement.compile_output)
            .bind(results)
            .bind(judgement.group_scores.as_deref().map(scoring::encode))
            .bind(judgement.problem_version)
            .bind(now_ms())
            .bind(claimed.rejudging)
            .bind(claimed.claim.id.to_string())
            .bind(claimed.claim.attempt)
            .execute(&self.write)
            .await?;
            Ok(written == 1)
        })
        .await
    }

    /// Applies a preview whose items are all judged: each judgement whose
    /// verdict changed becomes its submission's latest (a judgement, its
    /// results and a `judged` event by `by`), unless the submission was
    /// judged again or queued since the preview began. One transaction.
    pub async fn apply_rejudging(
        &self,
        id: i64,
        by: &str,
    ) -> Result<Result<AppliedRejudging, RejudgingRefusal>, StoreError> {
        self.noted(async {
            let now = now_ms();
            let mut tx = self.write.begin().await?;
            if let Some(refusal) = decide(&mut tx, id, by, RejudgingState::Applied, now).await? {
                return Ok(Err(refusal));
            }
            let rows = query(
                "select i.submission_id, i.verdict_before, i.judgement_before, i.worker, \
                 i.claimed_at, i.problem_version, i.verdict, i.message, i.compile_output, \
                 i.results, i.group_scores, s.state, \
                 (select max(j.id) from judgement j where j.submission_id = s.id) as judgement_now \
                 from rejudging_item i join submission s on s.id = i.submission_id \
                 where i.rejudging_id = $1",
            )
            .bind(id)
            .fetch_all(&mut tx)
            .await?;
            let mut applied = Vec::new();
            let mut stale = 0;
            for row in &rows {
                let before: Option<Verdict> = parse_optional_column(row, "verdict_before")?;
                let after: Verdict = parse_column(row, "verdict")?;
                if before == Some(after) {
                    continue;
                }
                let fresh = row.try_get::<String>("state")? == "done"
                    && row.try_get::<Option<i64>>("judgement_now")?
                        == row.try_get::<Option<i64>>("judgement_before")?;
                if !fresh {
                    stale += 1;
                    continue;
                }
                let submission: SubmissionId = parse_column(row, "submission_id")?;
                let judgement = stored_judgement(row, after)?;
                // (On PostgreSQL a rejudge may have queued it since the read
                // above: then it is stale too.)
                let updated = query(
                    "update submission set attempt = attempt + 1, verdict = $1, message = $2, \
                     max_cpu_ms = $3, max_memory_kib = $4, score = $5, group_scores = $6, \
                     judged_at = $7 where id = $8 and state = 'done' returning attempt",
                )
                .bind(after.as_str())
                .bind(&judgement.message)
                .bind(queue::most(&judgement, |run| run.cpu_ms))
                .bind(queue::most(&judgement, |run| run.memory_kib))
                .bind(
                    judgement
                        .group_scores
                        .as_ref()
                        .map(|scores| scores.iter().sum::<i64>()),
                )
                .bind(judgement.group_scores.as_deref().map(scoring::encode))
                .bind(now)
                .bind(submission.to_string())
                .fetch_optional(&mut tx)
                .await?;
                let Some(updated) = updated else {
                    stale += 1;
                    continue;
                };
                let attempt: i64 = updated.try_get("attempt")?;
                let worker: Option<String> = row.try_get("worker")?;
                let claimed_at: Option<i64> = row.try_get("claimed_at")?;
                let worker = worker.unwrap_or_default();
                queue::insert_judgements(
                    &mut tx,
                    &[(
                        JudgedBy {
                            submission: &submission,
                            attempt,
                            worker: &worker,
                            claimed_at: claimed_at.unwrap_or(now),
                        },
                        &judgement,
                    )],
                    now,
                )
                .await?;
                let change = match before {
                    Some(before) => format!("{before} → {after}"),
                    None => after.to_string(),
                };
                queue::insert_event(
                    &mut tx,
                    &submission,
                    EventKind::Judged,
                    Some(by),
                    Some(&format!("{change}: rejudge preview {id} applied")),
                    now,
                )
                .await?;
                applied.push(submission);
            }
            if !applied.is_empty() {
                notices::judged(&mut tx, &applied).await?;
                contests::refresh_cells(&mut tx, CellScope::Submissions(&applied)).await?;
            }
            tx.commit().await?;
            Ok(Ok(AppliedRejudging {
                applied: i64::try_from(applied.len()).unwrap_or(i64::MAX),
                stale,
            }))
        })
        .await
    }

    /// Discards a preview: its submissions keep their verdicts. Items
    /// still being judged are left to their workers, whose writes then
    /// change nothing anyone reads but the preview.
    pub async fn discard_rejudging(
        &self,
        id: i64,
        by: &str,
    ) -> Result<Result<(), RejudgingRefusal>, StoreError> {
        self.noted(async {
            let mut tx = self.write.begin().await?;
            if let Some(refusal) =
                decide(&mut tx, id, by, RejudgingState::Discarded, now_ms()).await?
            {
                return Ok(Err(refusal));
            }
            tx.commit().await?;
            Ok(Ok(()))
        })
        .await
    }
}

/// Marks an open preview applied or discarded by `by`, or says why not
/// (then nothing was changed). Applying needs every item judged.
async fn decide(
    tx: &mut super::backend::Tx,
    id: i64,
    by: &str,
    to: RejudgingState,
    now: i64,
) -> Result<Option<RejudgingRefusal>, StoreError> {
    let Some(row) = query(
        "select state, (select count(*) from rejudging_item i where i.rejudging_id = $1 \
         and i.verdict is null) as pending from rejudging where id = $1",
    )
    .bind(id)
    .fetch_optional(&mut *tx)
    .await?
    else {
        return Ok(Some(RejudgingRefusal::NotFound));
    };
    let state: RejudgingState = parse_column(&row, "state")?;
    if state != RejudgingState::Preview {
        return Ok(Some(RejudgingRefusal::Decided(state)));
    }
    let pending: i64 = row.try_get("pending")?;
    if to == RejudgingState::Applied && pending > 0 {
        return Ok(Some(RejudgingRefusal::StillJudging(pending)));
    }
    query(
        "update rejudging set state = $1, decided_by = $2, decided_at = $3 \
         where id = $4 and state = 'preview'",
    )
    .bind(to.as_str())
    .bind(by)
    .bind(now)
    .bind(id)
    .execute(&mut *tx)
    .await?;
    Ok(None)
}

/// A preview item's judgement as judged.
fn stored_judgement(row: &DbRow, verdict: Verdict) -> Result<JudgementWrite, StoreError> {
    let results: Option<String> = row.try_get("results")?;
    let results: Vec<TestcaseResult> = match results {
        Some(json) => serde_json::from_str(&json)
            .map_err(|e| StoreError::Corrupt(format!("rejudging results: {e}")))?,
        None => Vec::new(),
    };
    let group_scores = row
        .try_get::<Option<String>>("group_scores")?
        .map(|text| {
            scoring::decode(&text)
                .ok_or_else(|| StoreError::Corrupt(format!("rejudging group scores `{text}`")))
        })
        .transpose()?;
    Ok(JudgementWrite {
        problem_version: row.try_get::<Option<i64>>("problem_version")?.unwrap_or(0),
        verdict,
        message: row.try_get("message")?,
        compile_output: row.try_get("compile_output")?,
        results,
        group_scores,
    })
}

/// A row of `rejudging_columns!` as a [`Rejudging`].
fn rejudging_from(row: &DbRow) -> Result<Rejudging, StoreError> {
    Ok(Rejudging {
        id: row.try_get("id")?,
        problem: parse_column(row, "problem_id")?,
        state: parse_column(row, "state")?,
        created_by: row.try_get("created_by")?,
        created_at: time_column(row, "created_at")?,
        decided_by: row.try_get("decided_by")?,
        decided_at: optional_time_column(row, "decided_at")?,
        submissions: row.try_get("submissions")?,
        judged: row.try_get("judged")?,
        changed: row.try_get("changed")?,
    })
}
