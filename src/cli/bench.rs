//! `nimjudge bench`: the load benchmark.
//!
//! Starts a fresh server in this process over a scratch `nim` catalog of
//! generated testcases, sends K answer submissions over HTTP from C
//! concurrent clients, each waiting for its verdict, and prints throughput
//! and submit-to-verdict latency. Then measures the raw ceiling of the same
//! database setup: a tight loop of the same inserts and updates (insert,
//! claim, record the verdict) without HTTP or judging.
//!
//! `--backends sqlite,postgres` runs it on each database in turn, in one
//! run: SQLite in the scratch folder, then a fresh database on the
//! PostgreSQL cluster named by `NIMJUDGE_TEST_POSTGRES_URL`.

use std::{
    process::ExitCode,
    sync::{
        Arc,
        atomic::{AtomicUsize, Ordering},
    },
    time::{Duration, Instant},
};

use anyhow::Context;
use clap::Args;

use super::client::Client;
use crate::{
    api::SubmitRequest,
    catalog,
    domain::{Payload, ProblemId, Role, SubmissionState, TestcaseResult, Verdict},
    solver::TestKind,
    startup::Application,
    store::{JudgementWrite, NewSubmission, Store},
    testing::{FixtureInput, ScratchCatalog, TestBackend},
};

#[derive(Debug, Args)]
pub struct BenchArgs {
    /// Number of submissions (K).
    #[arg(long, default_value_t = 2000)]
    pub submissions: usize,
    /// Concurrent clients (C).
    #[arg(long, default_value_t = 32)]
    pub concurrency: usize,
    /// Judging workers (default: one per core).
    #[arg(long)]
    pub workers: Option<usize>,
    /// Testcases in the benchmark problem.
    #[arg(long, default_value_t = 5)]
    pub testcases: usize,
    /// The databases to run on, in turn: sqlite, postgres.
    #[arg(long, value_delimiter = ',', default_value = "sqlite")]
    pub backends: Vec<TestBackend>,
}

fn percentile(sorted: &[f64], p: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let rank = ((p / 100.0) * sorted.len() as f64).ceil() as usize;
    sorted
        .get(rank.clamp(1, sorted.len()) - 1)
        .copied()
        .unwrap_or(0.0)
}

/// The benchmark server's settings on top of the scratch catalog's. One
/// contestant sends every submission, C at once, so the per-user limits are
/// raised past what any run needs: it measures them being checked rather
/// than refusing. (TOML integers are `i64`, hence no `u64::MAX`.)
fn server_overrides(workers: Option<usize>) -> Vec<(&'static str, String)> {
    let mut overrides = vec![
        ("LIMITS__SUBMISSIONS_PER_MINUTE", u32::MAX.to_string()),
        ("LIMITS__PENDING_SUBMISSIONS", u32::MAX.to_string()),
        ("LIMITS__BYTES_PER_DAY", i64::MAX.to_string()),
    ];
    if let Some(workers) = workers {
        overrides.push(("WORKER__COUNT", workers.to_string()));
    }
    overrides
}

pub async fn run(args: BenchArgs) -> anyhow::Result<ExitCode> {
    anyhow::ensure!(
        args.submissions > 0 && args.concurrency > 0,
        "K and C must be positive"
    );
    for &backend in &args.backends {
        run_on(&args, backend).await?;
    }
    Ok(ExitCode::SUCCESS)
}

/// The benchmark on one database.
async fn run_on(args: &BenchArgs, backend: TestBackend) -> anyhow::Result<()> {
    let label = backend.as_str();
    let names: Vec<String> = (1..=args.testcases.max(1))
        .map(|seed| format!("random-{seed}"))
        .collect();
    let testcases: Vec<(&str, FixtureInput)> = names
        .iter()
        .zip(1..)
        .map(|(name, seed)| {
            (
                name.as_str(),
                FixtureInput::Generated(TestKind::Random, seed),
            )
        })
        .collect();
    let scratch = ScratchCatalog::nim(&testcases)?.with_backend(backend);
    let answers = scratch.correct_answers()?;
    let overrides = server_overrides(args.workers);
    let config = scratch.config("server", &overrides)?;
    let workers = config.worker.count;
    let app = Application::build(config.clone()).await?;
    let server = format!("http://{}", app.address());
    let token = app
        .store()
        .create_token("bench", Role::Contestant, None)
        .await?
        .secret;
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let running = tokio::spawn(app.run_until(async move {
        let _ = stopped.await;
    }));

    println!(
        "[{label}] bench: K = {} submissions, C = {} clients, {workers} workers, {} testcases each",
        args.submissions,
        args.concurrency,
        answers.len()
    );
    let nim: ProblemId = "nim".parse().map_err(anyhow::Error::msg)?;
    let request = Arc::new(SubmitRequest {
        problem: nim.clone(),
        answers: Some(answers.clone()),
        input: None,
        output: None,
        language: None,
        source: None,
    });
    let client = Client::new(&server, &token)?;
    let next = Arc::new(AtomicUsize::new(0));
    let started = Instant::now();
    let mut tasks = tokio::task::JoinSet::new();
    for _ in 0..args.concurrency {
        let (client, next, request) = (client.clone(), next.clone(), request.clone());
        let total = args.submissions;
        tasks.spawn(async move {
            let mut latencies = Vec::new();
            while next.fetch_add(1, Ordering::Relaxed) < total {
                let sent = Instant::now();
                let queued = client.submit(&request).await?;
                loop {
                    let document = client
                        .submission(queued.id, Duration::from_secs(10))
                        .await?;
                    if document.submission.state == SubmissionState::Done {
                        anyhow::ensure!(
                            document.submission.verdict == Some(Verdict::AC),
                            "unexpected verdict: {:?}",
                            document.submission
                        );
                        break;
                    }
                }
                latencies.push(sent.elapsed().as_secs_f64() * 1000.0);
            }
            anyhow::Ok(latencies)
        });
    }
    let mut latencies = Vec::with_capacity(args.submissions);
    while let Some(result) = tasks.join_next().await {
        latencies.extend(result??);
    }
    let elapsed = started.elapsed().as_secs_f64();
    let _ = stop.send(());
    running.await??;
    latencies.sort_by(f64::total_cmp);
    let throughput = args.submissions as f64 / elapsed;
    println!(
        "[{label}] server:  {throughput:.0} submissions/s ({:.2} s); submit-to-verdict p50 {:.1} ms, p99 {:.1} ms",
        elapsed,
        percentile(&latencies, 50.0),
        percentile(&latencies, 99.0)
    );

    // The ceiling: the same statements in a tight loop, no HTTP, no judging.
    let ceiling_config = scratch.config("ceiling", &[])?;
    let store = Store::connect(&ceiling_config.database).await?;
    catalog::sync(&store, &scratch.problems_dir()).await?;
    let judgement = JudgementWrite {
        problem_version: 1,
        verdict: Verdict::AC,
        message: None,
        compile_output: None,
        results: answers
            .keys()
            .map(|name| TestcaseResult {
                testcase: name.to_string(),
                hidden: false,
                verdict: Verdict::AC,
                time_us: 1,
                message: None,
                detail: None,
                run: None,
            })
            .collect(),
    };
    let payload = Payload::Answers { answers };
    let started = Instant::now();
    for _ in 0..args.submissions {
        store
            .insert_submission(&NewSubmission {
                problem: &nim,
                user: "bench",
                payload: &payload,
            })
            .await?;
        let claim = store
            .claim("ceiling", Duration::from_secs(30))
            .await?
            .context("nothing to claim")?;
        anyhow::ensure!(
            store.finish(&claim, &judgement).await?,
            "the ceiling loop lost a lease"
        );
    }
    let ceiling_elapsed = started.elapsed().as_secs_f64();
    store.close().await;
    let ceiling = args.submissions as f64 / ceiling_elapsed;
    println!(
        "[{label}] ceiling: {ceiling:.0} submissions/s ({ceiling_elapsed:.2} s): insert + claim + verdict, same database setup, no HTTP, no judging"
    );
    println!(
        "[{label}] ratio:   {:.0}% of the ceiling",
        100.0 * throughput / ceiling
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_benchmark_servers_settings_are_valid_and_raise_every_limit() {
        let scratch =
            ScratchCatalog::nim(&[("random-1", FixtureInput::Generated(TestKind::Random, 1))])
                .expect("scratch catalog");
        let config = scratch
            .config("server", &server_overrides(Some(1)))
            .expect("valid settings");
        assert_eq!(config.limits.pending_submissions, Some(u32::MAX));
        assert_eq!(config.limits.submissions_per_minute, Some(u32::MAX));
        assert_eq!(config.limits.bytes_per_day, Some(i64::MAX as u64));
        assert_eq!(config.worker.count, 1);
    }
}
