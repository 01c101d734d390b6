//! Stress runs: a setter's solution, kinds, seeds and budget, claimed by a
//! worker with the sandbox (a lease and an attempt that fences its write)
//! and the outcome it found, stored whole as JSON.

use std::time::Duration;

use super::{
    Store, StoreError,
    backend::{DbRow, query},
    notices, now_ms, parse_column, time_column,
};
use crate::{
    domain::{LanguageId, ProblemId, StressOutcome, StressRun, SubmissionId},
    solver::TestKind,
};

/// A stress test to start.
#[derive(Debug, Clone)]
pub struct NewStressRun<'a> {
    pub problem: &'a ProblemId,
    pub by: &'a str,
    pub language: &'a LanguageId,
    pub source: &'a str,
    pub kinds: &'a [TestKind],
    pub seeds: (u64, u64),
    pub budget_ms: i64,
}

/// A claimed stress run.
#[derive(Debug, Clone)]
pub struct StressClaim {
    pub run: StressRun,
    pub source: String,
    /// Names the run's sandbox boxes, as a submission's id does.
    pub job: SubmissionId,
    pub attempt: i64,
}

impl Store {
    /// Queues a stress test.
    pub async fn create_stress_run(&self, new: &NewStressRun<'_>) -> Result<StressRun, StoreError> {
        let kinds: Vec<&str> = new.kinds.iter().map(|k| k.as_str()).collect();
        let seed = |n: u64| {
            i64::try_from(n).map_err(|_| StoreError::Corrupt(format!("seed {n} is too large")))
        };
        let id = self
            .noted(async {
                let mut tx = self.write.begin().await?;
                let id: i64 = query(
                    "insert into stress_run (problem_id, created_by, created_at, language, \
                     source, kinds, seed_from, seed_to, budget_ms, job_id) \
                     values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) returning id",
                )
                .bind(new.problem.as_str())
                .bind(new.by)
                .bind(now_ms())
                .bind(new.language.as_str())
                .bind(new.source)
                .bind(kinds.join(","))
                .bind(seed(new.seeds.0)?)
                .bind(seed(new.seeds.1)?)
                .bind(new.budget_ms)
                .bind(uuid::Uuid::new_v4().to_string())
                .fetch_one(&mut tx)
                .await?
                .try_get("id")?;
                notices::job_queued(&mut tx, self.origin).await?;
                tx.commit().await?;
                Ok(id)
            })
            .await?;
        self.stress_run(id)
            .await?
            .ok_or_else(|| StoreError::Corrupt(format!("stress run {id} vanished")))
    }

    /// A stress run.
    pub async fn stress_run(&self, id: i64) -> Result<Option<StressRun>, StoreError> {
        query(concat!(
            "select id, problem_id, created_by, created_at, language, kinds, seed_from, ",
            "seed_to, budget_ms, outcome from stress_run where id = $1"
        ))
        .bind(id)
        .fetch_optional(&self.read)
        .await?
        .map(|row| run_from(&row))
        .transpose()
    }

    /// A problem's latest stress runs, newest first.
    pub async fn stress_runs_of_problem(
        &self,
        problem: &ProblemId,
    ) -> Result<Vec<StressRun>, StoreError> {
        query(concat!(
            "select id, problem_id, created_by, created_at, language, kinds, seed_from, ",
            "seed_to, budget_ms, outcome from stress_run where problem_id = $1 ",
            "order by id desc limit 10"
        ))
        .bind(problem.as_str())
        .fetch_all(&self.read)
        .await?
        .iter()
        .map(run_from)
        .collect()
    }

    /// Claims the oldest stress run not done for `worker`
    /// ([`side_job_claim!`]).
    pub async fn claim_stress_run(
        &self,
        worker: &str,
        lease: Duration,
    ) -> Result<Option<StressClaim>, StoreError> {
        let claim = side_job_claim!(
            update "stress_run" where "id" = (select "i.id" from "stress_run i"
                where "i.outcome is null" order by "i.id")
            returning "id, problem_id, created_by, created_at, language, kinds, seed_from, \
                seed_to, budget_ms, outcome, source, job_id, attempt"
        );
        self.claim_side_job(claim, worker, lease)
            .await?
            .map(|row| {
                Ok(StressClaim {
                    run: run_from(&row)?,
                    source: row.try_get("source")?,
                    job: parse_column(&row, "job_id")?,
                    attempt: row.try_get("attempt")?,
                })
            })
            .transpose()
    }

    /// Stores a run's outcome, fenced by its attempt; `false` if the claim
    /// was lost (or the run is done).
    pub async fn record_stress_run(
        &self,
        claimed: &StressClaim,
        outcome: &StressOutcome,
    ) -> Result<bool, StoreError> {
        self.noted(async {
            let outcome = serde_json::to_string(outcome)
                .map_err(|e| StoreError::Corrupt(format!("a stress outcome: {e}")))?;
            let written = query(
                "update stress_run set outcome = $1, finished_at = $2, lease_until = null \
                 where id = $3 and attempt = $4 and outcome is null",
            )
            .bind(outcome)
            .bind(now_ms())
            .bind(claimed.run.id)
            .bind(claimed.attempt)
            .execute(&self.write)
            .await?;
            Ok(written == 1)
        })
        .await
    }
}

fn run_from(row: &DbRow) -> Result<StressRun, StoreError> {
    let kinds: String = row.try_get("kinds")?;
    let kinds = kinds
        .split(',')
        .filter(|k| !k.is_empty())
        .map(|k| {
            k.parse::<TestKind>()
                .map_err(|_| StoreError::Corrupt(format!("a stress run's kind `{k}`")))
        })
        .collect::<Result<_, _>>()?;
    let seed = |column: &str| -> Result<u64, StoreError> {
        let n: i64 = row.try_get(column)?;
        u64::try_from(n).map_err(|_| StoreError::Corrupt(format!("a stress run's {column} {n}")))
    };
    let outcome: Option<String> = row.try_get("outcome")?;
    Ok(StressRun {
        id: row.try_get("id")?,
        problem: parse_column(row, "problem_id")?,
        created_by: row.try_get("created_by")?,
        created_at: time_column(row, "created_at")?,
        language: parse_column(row, "language")?,
        kinds,
        seeds: (seed("seed_from")?, seed("seed_to")?),
        budget_ms: row.try_get("budget_ms")?,
        outcome: outcome
            .map(|json| {
                serde_json::from_str(&json)
                    .map_err(|e| StoreError::Corrupt(format!("a stress outcome: {e}")))
            })
            .transpose()?,
    })
}
