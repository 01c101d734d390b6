//! A stress test a setter started from the web: claimed like a job, the
//! solution compiled once in the sandbox and run by [`crate::app::stress`]
//! seed after seed against the solver core, the outcome stored whole.

use std::time::Duration;

use tracing::{Instrument, info, info_span, warn};

use super::{
    Judge, PREVIEW_LEASES, WorkerError,
    program::{Compilation, ProblemLimits, ProgramJob, ProgramSource, ProgramTestcase, compile},
};
use crate::{
    app::stress::{Failed, StressPlan, stress},
    checker::Case,
    domain::{StressFailure, StressOutcome, TestcaseName, Verdict},
    solver,
};

/// The longest budget a stress test may ask for, in milliseconds: the
/// search takes it and the shrinking at most as long again.
pub const MAX_STRESS_BUDGET_MS: i64 = 300_000;

impl Judge {
    /// Claims and runs one stress test, if one is waiting; `Ok(false)` if
    /// none is. Its lease covers the longest search and shrinking.
    pub async fn judge_pending_stress_run(&self, worker: &str) -> Result<bool, WorkerError> {
        let lease =
            Duration::from_millis(2 * MAX_STRESS_BUDGET_MS as u64) + self.lease * PREVIEW_LEASES;
        let Some(claimed) = self.store.claim_stress_run(worker, lease).await? else {
            return Ok(false);
        };
        let span = info_span!("stress_run", run = claimed.run.id, worker);
        async {
            let outcome = self.stress_outcome(&claimed).await?;
            if self.store.record_stress_run(&claimed, &outcome).await? {
                info!("a stress test finished");
            } else {
                warn!("a stress test was lost before its outcome was written");
            }
            Ok(true)
        }
        .instrument(span)
        .await
    }

    async fn stress_outcome(
        &self,
        claimed: &crate::store::StressClaim,
    ) -> Result<StressOutcome, WorkerError> {
        let run = &claimed.run;
        let unrunnable = |why: String| Ok(StressOutcome::Unrunnable { why });
        let Some(solver) = solver::find(run.problem.as_str()) else {
            return unrunnable(format!("no solver core for `{}`", run.problem));
        };
        let (sandbox, language) = match self.programs.usable(&run.language) {
            Ok((sandbox, language)) => (sandbox.clone(), language.clone()),
            Err(refusal) => return unrunnable(refusal.to_string()),
        };
        let Some(problem) = self.store.problem(&run.problem).await? else {
            return unrunnable(format!("problem `{}` no longer exists", run.problem));
        };
        let limits = ProblemLimits {
            time: Duration::from_millis(u64::try_from(problem.time_limit_ms).unwrap_or(0)),
            memory_bytes: u64::try_from(problem.memory_limit_mib).unwrap_or(0) << 20,
        };
        let settings = self.programs.settings.clone();
        let source = claimed.source.clone();
        let label = format!("{}-{}", claimed.job, claimed.attempt);
        let plan = StressPlan {
            kinds: run.kinds.clone(),
            seeds: run.seeds.0..=run.seeds.1,
            budget: Duration::from_millis(u64::try_from(run.budget_ms).unwrap_or(0)),
        };
        let name: TestcaseName = match "stress".parse() {
            Ok(name) => name,
            Err(e) => return unrunnable(e),
        };
        let span = tracing::Span::current();
        let outcome = tokio::task::spawn_blocking(move || {
            span.in_scope(|| {
                let job = ProgramJob {
                    sandbox: &sandbox,
                    settings: &settings,
                    language: &language,
                    source: ProgramSource::Text(&source),
                    limits,
                    testcases: &[],
                    judge_all: false,
                    case: Case::Sensitive,
                    interactive: Some(solver).filter(|s| s.interactive()),
                    label: &label,
                    progress: None,
                };
                let compiled = match compile(&job)? {
                    Compilation::Ready(compiled) => compiled,
                    Compilation::Failed(judgement) => {
                        return Ok(StressOutcome::DoesNotCompile {
                            message: judgement.message,
                            compile_output: judgement.compile_output,
                        });
                    }
                };
                let report = stress(solver, &plan, |input| {
                    let testcase = ProgramTestcase {
                        name: name.clone(),
                        hidden: false,
                        input: input.to_string(),
                        expected: solver.solve(input).map_err(|e| e.to_string()),
                    };
                    let result = compiled.run(&testcase)?;
                    Ok::<_, crate::sandbox::SandboxError>(
                        (result.verdict != Verdict::AC).then_some(Failed {
                            verdict: result.verdict,
                            message: result.message,
                        }),
                    )
                })?;
                let smallest = report
                    .shrunk
                    .as_ref()
                    .map(|(failure, _)| failure)
                    .or(report.found.as_ref());
                Ok(StressOutcome::Searched {
                    runs: report.runs,
                    out_of_time: report.out_of_time,
                    expected: smallest.and_then(|f| solver.solve(&f.input).ok()),
                    found: report.found.as_ref().map(StressFailure::from),
                    shrink_runs: report.shrunk.as_ref().map_or(0, |(_, runs)| *runs),
                    shrunk: report.shrunk.as_ref().map(|(f, _)| StressFailure::from(f)),
                })
            })
        })
        .await?;
        Ok(outcome.unwrap_or_else(
            |e: crate::sandbox::SandboxError| StressOutcome::Unrunnable {
                why: format!("the sandbox failed: {e}"),
            },
        ))
    }
}
