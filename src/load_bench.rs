//! `nimjudge bench`: the load benchmark.
//!
//! Starts a fresh server in this process (temporary database and a `nim`
//! catalog of generated testcases), sends K answer submissions over HTTP
//! from C concurrent clients, each waiting for its verdict, and prints
//! throughput and submit-to-verdict latency. Then measures the raw ceiling
//! of the same SQLite setup: a tight loop of the same inserts and updates
//! (insert, claim, record the verdict) without HTTP or judging.

use std::{
    collections::BTreeMap,
    path::{Path, PathBuf},
    process::ExitCode,
    sync::{
        Arc,
        atomic::{AtomicUsize, Ordering},
    },
    time::{Duration, Instant},
};

use anyhow::Context;
use clap::Args;

use crate::{
    client::{self, Client},
    config::{Config, DEFAULT_TOML},
    solver::{self, TestKind},
    startup::Application,
    store::{JudgementWrite, NewSubmission, ResultWrite, Role, Store, Verdict},
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
}

/// A temporary folder, removed on drop.
struct Scratch(PathBuf);

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Writes a `nim` catalog of generated testcases; returns the correct answers.
fn write_catalog(problems: &Path, count: usize) -> anyhow::Result<BTreeMap<String, String>> {
    let nim = solver::find("nim").context("the nim solver is missing")?;
    let folder = problems.join("nim");
    std::fs::create_dir_all(folder.join("testcases"))?;
    let mut manifest = String::from("id = \"nim\"\ntitle = \"Nim\"\ntime_limit_ms = 2000\n");
    let mut answers = BTreeMap::new();
    for seed in 1..=count as u64 {
        let name = format!("random-{seed}");
        let input = nim.generate(TestKind::Random, seed);
        manifest.push_str(&format!(
            "\n[[testcase]]\nname = \"{name}\"\norigin = \"generated\"\nkind = \"random\"\nseed = {seed}\n"
        ));
        std::fs::write(folder.join("testcases").join(format!("{name}.in")), &input)?;
        answers.insert(name, nim.solve(&input).map_err(|e| anyhow::anyhow!("{e}"))?);
    }
    std::fs::write(folder.join("problem.toml"), manifest)?;
    Ok(answers)
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

pub async fn run(args: BenchArgs) -> anyhow::Result<ExitCode> {
    anyhow::ensure!(
        args.submissions > 0 && args.concurrency > 0,
        "K and C must be positive"
    );
    let scratch =
        Scratch(std::env::temp_dir().join(format!("nimjudge-bench-{}", uuid::Uuid::new_v4())));
    let answers = write_catalog(&scratch.0.join("problems"), args.testcases.max(1))?;
    let mut env = vec![
        (
            "NIMJUDGE_SERVER__BIND".to_string(),
            "127.0.0.1:0".to_string(),
        ),
        (
            "NIMJUDGE_DATABASE__URL".to_string(),
            format!("sqlite://{}", scratch.0.join("server.db").display()),
        ),
        (
            "NIMJUDGE_CATALOG__PROBLEMS_DIR".to_string(),
            scratch.0.join("problems").display().to_string(),
        ),
    ];
    if let Some(workers) = args.workers {
        env.push(("NIMJUDGE_WORKER__COUNT".to_string(), workers.to_string()));
    }
    let config = Config::from_layers(&[("the bundled config.toml", DEFAULT_TOML)], env)?;
    let workers = config.worker.count;
    let app = Application::build(config.clone()).await?;
    let server = format!("http://{}", app.address());
    let token = app
        .judge()
        .store()
        .create_token("bench", Role::Contestant)
        .await?;
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let running = tokio::spawn(app.run_until(async move {
        let _ = stopped.await;
    }));

    println!(
        "bench: K = {} submissions, C = {} clients, {workers} workers, {} testcases each",
        args.submissions,
        args.concurrency,
        answers.len()
    );
    let client = Client::new(&server, &token)?;
    let next = Arc::new(AtomicUsize::new(0));
    let answers = Arc::new(answers);
    let started = Instant::now();
    let mut tasks = tokio::task::JoinSet::new();
    for _ in 0..args.concurrency {
        let (client, next, answers) = (client.clone(), next.clone(), answers.clone());
        let total = args.submissions;
        tasks.spawn(async move {
            let mut latencies = Vec::new();
            while next.fetch_add(1, Ordering::Relaxed) < total {
                let sent = Instant::now();
                let submitted = client.submit_answers("nim", &answers).await?;
                loop {
                    let document = client
                        .submission(&submitted.id, Duration::from_secs(10))
                        .await?;
                    if client::state_of(&document) == "done" {
                        anyhow::ensure!(
                            document
                                .pointer("/submission/verdict")
                                .and_then(|v| v.as_str())
                                == Some("AC"),
                            "unexpected verdict: {document}"
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
        "server:  {throughput:.0} submissions/s ({:.2} s); submit-to-verdict p50 {:.1} ms, p99 {:.1} ms",
        elapsed,
        percentile(&latencies, 50.0),
        percentile(&latencies, 99.0)
    );

    // The ceiling: the same statements in a tight loop, no HTTP, no judging.
    let store = Store::connect(&crate::config::DatabaseConfig {
        url: format!("sqlite://{}", scratch.0.join("ceiling.db").display()),
        ..config.database.clone()
    })
    .await?;
    crate::catalog::sync(&store, &scratch.0.join("problems")).await?;
    let payload = serde_json::json!({ "answers": &*answers }).to_string();
    let results: Vec<ResultWrite> = answers
        .keys()
        .map(|name| ResultWrite {
            testcase: name.clone(),
            hidden: false,
            verdict: Verdict::AC,
            time_us: 1,
            message: None,
        })
        .collect();
    let judgement = JudgementWrite {
        problem_version: 1,
        verdict: Verdict::AC,
        message: None,
        results,
    };
    let started = Instant::now();
    for _ in 0..args.submissions {
        store
            .insert_submission(&NewSubmission {
                problem_id: "nim",
                user_name: "bench",
                kind: "answers",
                payload: payload.clone(),
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
        "ceiling: {ceiling:.0} submissions/s ({ceiling_elapsed:.2} s): insert + claim + verdict, same SQLite setup, no HTTP, no judging"
    );
    println!(
        "ratio:   {:.0}% of the ceiling",
        100.0 * throughput / ceiling
    );
    Ok(ExitCode::SUCCESS)
}
