//! Matrix runs: a problem's setter solutions, each judged by a worker on
//! every testcase under the raised time limit, for the solutions ×
//! testcases matrix and problemtools' review of the limit.
//!
//! A run is a `matrix_run` row and one `matrix_item` per solution, holding
//! its source. Workers claim items as they claim submissions (a lease and
//! an attempt that fences each write) and store the results whole in the
//! item. Nothing else reads or changes a submission.

use std::time::Duration;

use super::{
    Store, StoreError,
    backend::{DbRow, query},
    now_ms, parse_column, parse_optional_column, time_column,
};
use crate::domain::{
    LanguageId, MatrixReport, MatrixRun, MatrixSolution, ProblemId, SubmissionId, TestcaseResult,
    Verdict,
};

/// One setter solution to put in a run.
#[derive(Debug, Clone)]
pub struct NewMatrixItem {
    pub solution: String,
    pub expected: Verdict,
    pub language: LanguageId,
    pub source: String,
}

/// A claimed item: a solution to judge under `raised_limit_ms`.
#[derive(Debug, Clone)]
pub struct MatrixClaim {
    pub run: i64,
    pub problem: ProblemId,
    pub solution: String,
    /// Names the item's sandbox boxes, as a submission's id does.
    pub job: SubmissionId,
    pub language: LanguageId,
    pub source: String,
    pub raised_limit_ms: i64,
    pub attempt: i64,
}

/// The columns of a [`MatrixRun`] `r`, read by [`run_from`].
macro_rules! run_columns {
    () => {
        "r.id, r.problem_id, r.created_by, r.created_at, r.time_limit_ms, r.raised_limit_ms, \
         (select count(*) from matrix_item i where i.run_id = r.id) as solutions, \
         (select count(*) from matrix_item i where i.run_id = r.id \
             and i.verdict is not null) as judged"
    };
}

impl Store {
    /// Starts a matrix run of `items` on a problem.
    pub async fn create_matrix_run(
        &self,
        problem: &ProblemId,
        by: &str,
        time_limit_ms: i64,
        raised_limit_ms: i64,
        items: &[NewMatrixItem],
    ) -> Result<MatrixRun, StoreError> {
        let id = self
            .noted(async {
                let mut tx = self.write.begin().await?;
                let id: i64 = query(
                    "insert into matrix_run (problem_id, created_by, created_at, time_limit_ms, \
                     raised_limit_ms) values ($1, $2, $3, $4, $5) returning id",
                )
                .bind(problem.as_str())
                .bind(by)
                .bind(now_ms())
                .bind(time_limit_ms)
                .bind(raised_limit_ms)
                .fetch_one(&mut tx)
                .await?
                .try_get("id")?;
                for item in items {
                    query(
                        "insert into matrix_item (run_id, solution, expected, job_id, language, \
                         source) values ($1, $2, $3, $4, $5, $6)",
                    )
                    .bind(id)
                    .bind(&item.solution)
                    .bind(item.expected.as_str())
                    .bind(uuid::Uuid::new_v4().to_string())
                    .bind(item.language.as_str())
                    .bind(&item.source)
                    .execute(&mut tx)
                    .await?;
                }
                super::notices::job_queued(&mut tx, self.origin).await?;
                tx.commit().await?;
                Ok(id)
            })
            .await?;
        self.matrix_run(id)
            .await?
            .ok_or_else(|| StoreError::Corrupt(format!("matrix run {id} vanished")))
    }

    /// A run, without its results.
    pub async fn matrix_run(&self, id: i64) -> Result<Option<MatrixRun>, StoreError> {
        query(concat!(
            "select ",
            run_columns!(),
            " from matrix_run r where r.id = $1"
        ))
        .bind(id)
        .fetch_optional(&self.read)
        .await?
        .map(|row| run_from(&row))
        .transpose()
    }

    /// A problem's latest runs, newest first.
    pub async fn matrix_runs_of_problem(
        &self,
        problem: &ProblemId,
    ) -> Result<Vec<MatrixRun>, StoreError> {
        query(concat!(
            "select ",
            run_columns!(),
            " from matrix_run r where r.problem_id = $1 order by r.id desc limit 10"
        ))
        .bind(problem.as_str())
        .fetch_all(&self.read)
        .await?
        .iter()
        .map(run_from)
        .collect()
    }

    /// A run with each solution's results, by path.
    pub async fn matrix_report(&self, id: i64) -> Result<Option<MatrixReport>, StoreError> {
        let Some(run) = self.matrix_run(id).await? else {
            return Ok(None);
        };
        let solutions = query(
            "select solution, expected, verdict, message, results from matrix_item \
             where run_id = $1 order by solution",
        )
        .bind(id)
        .fetch_all(&self.read)
        .await?
        .iter()
        .map(|row| {
            let results: Option<String> = row.try_get("results")?;
            let results: Vec<TestcaseResult> = match results {
                Some(json) => serde_json::from_str(&json)
                    .map_err(|e| StoreError::Corrupt(format!("a matrix item's results: {e}")))?,
                None => Vec::new(),
            };
            Ok(MatrixSolution {
                solution: row.try_get("solution")?,
                expected: parse_column(row, "expected")?,
                verdict: parse_optional_column(row, "verdict")?,
                message: row.try_get("message")?,
                results,
            })
        })
        .collect::<Result<_, StoreError>>()?;
        Ok(Some(MatrixReport { run, solutions }))
    }

    /// Claims one item not judged yet for `worker` ([`side_job_claim!`]).
    pub async fn claim_matrix_item(
        &self,
        worker: &str,
        lease: Duration,
    ) -> Result<Option<MatrixClaim>, StoreError> {
        let claim = side_job_claim!(
            update "matrix_item" where "(run_id, solution)" = (select "i.run_id, i.solution"
                from "matrix_item i" where "i.verdict is null" order by "i.run_id, i.solution")
            returning "run_id, solution, job_id, language, source, attempt, \
                (select r.problem_id from matrix_run r where r.id = run_id) as problem_id, \
                (select r.raised_limit_ms from matrix_run r where r.id = run_id) \
                    as raised_limit_ms"
        );
        let Some(row) = self.claim_side_job(claim, worker, lease).await? else {
            return Ok(None);
        };
        Ok(Some(MatrixClaim {
            run: row.try_get("run_id")?,
            problem: parse_column(&row, "problem_id")?,
            solution: row.try_get("solution")?,
            job: parse_column(&row, "job_id")?,
            language: parse_column(&row, "language")?,
            source: row.try_get("source")?,
            raised_limit_ms: row.try_get("raised_limit_ms")?,
            attempt: row.try_get("attempt")?,
        }))
    }

    /// Stores a solution's results, fenced by the item's attempt; `false`
    /// if the claim was lost (or the item judged).
    pub async fn record_matrix_item(
        &self,
        claimed: &MatrixClaim,
        verdict: Verdict,
        message: Option<&str>,
        results: &[TestcaseResult],
    ) -> Result<bool, StoreError> {
        self.noted(async {
            let results = serde_json::to_string(results)
                .map_err(|e| StoreError::Corrupt(format!("results: {e}")))?;
            let written = query(
                "update matrix_item set verdict = $1, message = $2, results = $3, \
                 judged_at = $4, lease_until = null \
                 where run_id = $5 and solution = $6 and attempt = $7 and verdict is null",
            )
            .bind(verdict.as_str())
            .bind(message)
            .bind(results)
            .bind(now_ms())
            .bind(claimed.run)
            .bind(&claimed.solution)
            .bind(claimed.attempt)
            .execute(&self.write)
            .await?;
            Ok(written == 1)
        })
        .await
    }
}

fn run_from(row: &DbRow) -> Result<MatrixRun, StoreError> {
    Ok(MatrixRun {
        id: row.try_get("id")?,
        problem: parse_column(row, "problem_id")?,
        created_by: row.try_get("created_by")?,
        created_at: time_column(row, "created_at")?,
        time_limit_ms: row.try_get("time_limit_ms")?,
        raised_limit_ms: row.try_get("raised_limit_ms")?,
        solutions: row.try_get("solutions")?,
        judged: row.try_get("judged")?,
    })
}
