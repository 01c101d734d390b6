//! `nimjudge-bench queries`: how long the reads of a big database take
//! through the API: every list filter, a submission by id, `/metrics` and
//! health.
//!
//! Starts a server in this process (no workers) on a fresh database with
//! the bundled problems, adds a synthetic history of N judged submissions
//! in SQL, then times each request R times over loopback and prints the
//! median and the 95th percentile. The times include HTTP on loopback.
//! `--backend postgres` runs it on a fresh database of the PostgreSQL
//! cluster named by `NIMJUDGE_TEST_POSTGRES_URL` instead of SQLite.
//! Last, it times taking in a submission for coin-game (small inputs) and
//! constrained-nim (inputs of megabytes).

use std::{
    path::{Path, PathBuf},
    process::ExitCode,
    time::{Duration, Instant},
};

use anyhow::Context;
use clap::Args;
use tempfile::TempDir;
use tokio::{sync::oneshot, task::JoinHandle};

use crate::synthetic::{self, SyntheticHistory};
use nimjudge::{
    config::{Config, DEFAULT_TOML},
    domain::{ProblemId, Role},
    startup::Application,
    store::Store,
    testing::{TestBackend, drop_postgres_database, fresh_postgres_database},
};

#[derive(Debug, Args)]
pub struct BenchQueriesArgs {
    /// Submissions in the synthetic history.
    #[arg(long, default_value_t = 1_000_000)]
    pub submissions: i64,
    /// Users the history is spread over.
    #[arg(long, default_value_t = 1000)]
    pub users: i64,
    /// Timed runs of each request.
    #[arg(long, default_value_t = 30)]
    pub runs: usize,
    /// The database: sqlite, or postgres (a fresh database on the cluster
    /// named by `NIMJUDGE_TEST_POSTGRES_URL`).
    #[arg(long, default_value = "sqlite")]
    pub backend: TestBackend,
    /// The problems folder.
    #[arg(long, default_value = "problems")]
    pub problems_dir: PathBuf,
}

/// A server in this process (no workers) on a scratch database holding the
/// bundled problems and a synthetic history: what the read benchmarks time.
pub(super) struct BenchServer {
    /// `http://127.0.0.1:PORT`.
    pub address: String,
    pub store: Store,
    pub problems: Vec<ProblemId>,
    /// Submission rows in the database.
    pub rows: i64,
    /// How long making the history took.
    pub filled_in: Duration,
    stop: oneshot::Sender<()>,
    running: JoinHandle<anyhow::Result<()>>,
    /// Holds the database; removed when the benchmark ends.
    _scratch: TempDir,
    /// The database's URL.
    pub database: String,
    /// The PostgreSQL database's URL, dropped when the server stops.
    postgres: Option<String>,
}

impl BenchServer {
    /// Starts the server on a fresh database with `submissions` judged
    /// submissions spread over `users` users.
    pub(super) async fn start(
        backend: TestBackend,
        problems_dir: &Path,
        submissions: i64,
        users: i64,
    ) -> anyhow::Result<BenchServer> {
        let scratch = tempfile::tempdir().context("a scratch folder")?;
        let database = match backend {
            TestBackend::Sqlite => {
                format!("sqlite://{}", scratch.path().join("bench.db").display())
            }
            TestBackend::Postgres => fresh_postgres_database().await?,
        };
        let postgres = (backend == TestBackend::Postgres).then(|| database.clone());
        let env = [
            ("SERVER__BIND", "127.0.0.1:0".to_string()),
            ("DATABASE__URL", database.clone()),
            ("CATALOG__PROBLEMS_DIR", problems_dir.display().to_string()),
            (
                "SANDBOX__WORK_DIR",
                scratch.path().join("sandbox").display().to_string(),
            ),
            ("WORKER__COUNT", "0".to_string()),
            ("LOG__FILTER", "warn".to_string()),
            // Room for the large submission shown last.
            ("SERVER__BODY_LIMIT_BYTES", (16 << 20).to_string()),
        ]
        .map(|(key, value)| (format!("NIMJUDGE_{key}"), value));
        let config = Config::from_layers(&[("the bundled config.toml", DEFAULT_TOML)], env)?;
        let app = Application::build(config).await?;
        let address = format!("http://{}", app.address());
        let store = app.store().clone();
        let problems: Vec<ProblemId> = store.problems().await?.into_iter().map(|p| p.id).collect();
        anyhow::ensure!(
            !problems.is_empty(),
            "no problems in {}",
            problems_dir.display()
        );
        let filled = Instant::now();
        let rows = synthetic::add_history(
            &database,
            &SyntheticHistory {
                submissions,
                problems: &problems,
                users,
            },
        )
        .await?;
        let filled_in = filled.elapsed();
        let (stop, stopped) = oneshot::channel::<()>();
        let running = tokio::spawn(app.run_until(async move {
            let _ = stopped.await;
        }));
        Ok(BenchServer {
            address,
            store,
            problems,
            rows,
            filled_in,
            stop,
            running,
            _scratch: scratch,
            database,
            postgres,
        })
    }

    /// Stops the server, waits for it, and drops its PostgreSQL database
    /// (a million rows left on the cluster otherwise).
    pub(super) async fn stop(self) -> anyhow::Result<()> {
        let _ = self.stop.send(());
        self.running.await??;
        self.store.close().await;
        if let Some(url) = &self.postgres {
            drop_postgres_database(url).await?;
        }
        Ok(())
    }
}

pub async fn run(args: BenchQueriesArgs) -> anyhow::Result<ExitCode> {
    anyhow::ensure!(
        args.submissions > 0 && args.runs > 0,
        "N and R must be positive"
    );
    let bench = BenchServer::start(
        args.backend,
        &args.problems_dir,
        args.submissions,
        args.users,
    )
    .await?;
    let (server, store, problems, rows) =
        (&bench.address, &bench.store, &bench.problems, bench.rows);
    println!(
        "bench-queries on {}: {rows} submissions over {} problems and {} users (made in {:.1} s), {} runs per request",
        args.backend.as_str(),
        problems.len(),
        args.users,
        bench.filled_in.as_secs_f64(),
        args.runs
    );
    let admin = store
        .create_token("bench-admin", Role::Admin, None)
        .await?
        .secret;
    let contestant = store
        .create_token("user-7", Role::Contestant, None)
        .await?
        .secret;

    let http = reqwest::Client::new();
    let get = |path: String, token: &str| {
        let request = http.get(format!("{server}{path}")).bearer_auth(token);
        async move {
            let response = request.send().await?;
            let status = response.status();
            let body = response.text().await?;
            anyhow::ensure!(status.is_success(), "{path}: {status} {body}");
            anyhow::Ok(body)
        }
    };
    let newest: serde_json::Value =
        serde_json::from_str(&get("/api/submissions?limit=1".into(), &admin).await?)?;
    let id = newest["submissions"][0]["id"]
        .as_str()
        .context("a submission id")?
        .to_string();
    let middle = rows / 2;
    let first = problems[0].as_str();
    let last = problems[problems.len() - 1].as_str();
    // Roughly the newest hundred rows, and roughly the newest half.
    let recent = jiff::Timestamp::now() - jiff::SignedDuration::from_millis(100);
    let older = jiff::Timestamp::now() - jiff::SignedDuration::from_millis(middle);
    let cases: Vec<(&str, String, &str)> = vec![
        ("list, no filter", "/api/submissions".into(), &admin),
        (
            "list, problem",
            format!("/api/submissions?problem={first}"),
            &admin,
        ),
        (
            "list, verdict=AC",
            "/api/submissions?verdict=AC".into(),
            &admin,
        ),
        (
            "list, verdict=IE (none)",
            "/api/submissions?verdict=IE".into(),
            &admin,
        ),
        (
            "list, problem + verdict=TLE",
            format!("/api/submissions?problem={last}&verdict=TLE"),
            &admin,
        ),
        (
            "list, user (admin)",
            "/api/submissions?user=user-7".into(),
            &admin,
        ),
        (
            "list, own (contestant)",
            "/api/submissions".into(),
            &contestant,
        ),
        (
            "list, own + verdict=WA",
            "/api/submissions?verdict=WA".into(),
            &contestant,
        ),
        (
            "list, own + problem",
            format!("/api/submissions?problem={last}"),
            &contestant,
        ),
        (
            "list, since (newest ~100)",
            format!("/api/submissions?since={recent}"),
            &admin,
        ),
        (
            "list, since (newest half)",
            format!("/api/submissions?since={older}"),
            &admin,
        ),
        (
            "list, cursor in the middle",
            format!("/api/submissions?cursor={middle}"),
            &admin,
        ),
        ("submission by id", format!("/api/submissions/{id}"), &admin),
        ("metrics", "/metrics".into(), &admin),
        ("health", "/api/health".into(), &admin),
    ];
    println!("{:<30} {:>10} {:>10}", "request", "median ms", "p95 ms");
    for (name, path, token) in cases {
        let (median, p95) = timed(args.runs, || {
            let request = get(path.clone(), token);
            async move { request.await.map(drop) }
        })
        .await?;
        println!("{name:<30} {median:>10.2} {p95:>10.2}");
    }
    // Submitting: the cost of taking in a submission for a problem with
    // small inputs against one with inputs of megabytes, with the same
    // one-token answers, so only the problem differs.
    println!(
        "{:<30} {:>10} {:>10}",
        "submit (answers of one token)", "median ms", "p95 ms"
    );
    for problem in ["coin-game", "constrained-nim"] {
        if !problems.iter().any(|p| p.as_str() == problem) {
            continue;
        }
        let listing: serde_json::Value = serde_json::from_str(
            &get(format!("/api/problems/{problem}/testcases"), &admin).await?,
        )?;
        let answers: serde_json::Map<String, serde_json::Value> = listing["testcases"]
            .as_array()
            .context("testcases")?
            .iter()
            .filter(|t| t["hidden"] == false)
            .filter_map(|t| t["name"].as_str())
            .map(|name| (name.to_string(), serde_json::Value::from("x\n")))
            .collect();
        let body = serde_json::json!({ "problem": problem, "answers": answers });
        let (median, p95) = timed(args.runs, || {
            let request = http
                .post(format!("{server}/api/submissions"))
                .bearer_auth(&admin)
                .json(&body);
            async move {
                let response = request.send().await?;
                let status = response.status();
                anyhow::ensure!(
                    status.is_success(),
                    "submit {problem}: {status} {}",
                    response.text().await?
                );
                Ok(())
            }
        })
        .await?;
        println!(
            "{:<30} {median:>10.2} {p95:>10.2}",
            format!("{problem} ({} answers)", answers.len())
        );
    }
    // Showing one large submission: an answer of 8 MB (a contestant's
    // own, as they poll it for its verdict).
    let listing: serde_json::Value =
        serde_json::from_str(&get("/api/problems/nim/testcases".into(), &admin).await?)?;
    let testcase = listing["testcases"]
        .as_array()
        .and_then(|all| all.iter().find(|t| t["hidden"] == false))
        .and_then(|t| t["name"].as_str())
        .context("a public testcase of nim")?
        .to_string();
    let body = serde_json::json!({
        "problem": "nim",
        "answers": { testcase: "x\n".repeat(4_000_000) },
    });
    let response = http
        .post(format!("{server}/api/submissions"))
        .bearer_auth(&contestant)
        .json(&body)
        .send()
        .await?;
    let status = response.status();
    let reply: serde_json::Value = response.json().await?;
    anyhow::ensure!(status.is_success(), "submit 8 MB: {status} {reply}");
    let path = format!(
        "/api/submissions/{}",
        reply["id"].as_str().context("its id")?
    );
    let (median, p95) = timed(args.runs, || {
        let request = get(path.clone(), &contestant);
        async move { request.await.map(drop) }
    })
    .await?;
    println!(
        "{:<30} {median:>10.2} {p95:>10.2}",
        "submission by id (8 MB)"
    );
    bench.stop().await?;
    Ok(ExitCode::SUCCESS)
}

/// Runs `request` once to warm up, then `runs` times timed: the median and
/// the 95th percentile of those, in milliseconds.
async fn timed<F, Fut>(runs: usize, mut request: F) -> anyhow::Result<(f64, f64)>
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = anyhow::Result<()>>,
{
    request().await?;
    let mut times = Vec::with_capacity(runs);
    for _ in 0..runs {
        let started = Instant::now();
        request().await?;
        times.push(started.elapsed().as_secs_f64() * 1000.0);
    }
    Ok(median_and_p95(&mut times))
}

/// The median and the 95th percentile of `times` (sorted in place).
pub(super) fn median_and_p95(times: &mut [f64]) -> (f64, f64) {
    times.sort_by(f64::total_cmp);
    let median = times[times.len() / 2];
    let p95 = times[((times.len() * 95).div_ceil(100)).clamp(1, times.len()) - 1];
    (median, p95)
}
