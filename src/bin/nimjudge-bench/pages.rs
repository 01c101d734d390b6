//! `nimjudge-bench pages`: how long the web UI's pages take to render on a
//! big database, the figure issue 10 sets a bound on (under 50 ms of server
//! time per page at 100,000 submissions).
//!
//! Starts a server in this process (no workers) on a fresh database with
//! the bundled problems and a synthetic history of N judged submissions
//! (the same one `bench-queries` reads), opens signed-in sessions for a
//! contestant who owns part of that history and for an admin, then GETs
//! each page R times over loopback with the session cookie and prints the
//! median and the 95th percentile. The times are the client's: server time
//! plus HTTP on loopback, so they bound the server time from above.

use std::{path::PathBuf, process::ExitCode, time::Instant};

use anyhow::Context;
use clap::Args;

use crate::queries::{BenchServer, median_and_p95};
use nimjudge::{domain::Role, testing::TestBackend, web::session::SESSION_COOKIE};

/// The bound issue 10 sets on a page's server time.
const PAGE_BUDGET_MS: f64 = 50.0;

/// The bundled problem with the largest inputs.
const LARGE_INPUTS: &str = "constrained-nim";

#[derive(Debug, Args)]
pub struct BenchPagesArgs {
    /// Submissions in the synthetic history.
    #[arg(long, default_value_t = 100_000)]
    pub submissions: i64,
    /// Users the history is spread over.
    #[arg(long, default_value_t = 1000)]
    pub users: i64,
    /// Timed runs of each page.
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

pub async fn run(args: BenchPagesArgs) -> anyhow::Result<ExitCode> {
    anyhow::ensure!(
        args.submissions > 0 && args.runs >= 20,
        "N must be positive and R at least 20"
    );
    let bench = BenchServer::start(
        args.backend,
        &args.problems_dir,
        args.submissions,
        args.users,
    )
    .await?;
    let (server, store, problems) = (&bench.address, &bench.store, &bench.problems);
    println!(
        "bench-pages on {}: {} submissions over {} problems and {} users (made in {:.1} s), {} runs per page; \
         first problem {}, large inputs {LARGE_INPUTS}",
        args.backend.as_str(),
        bench.rows,
        problems.len(),
        args.users,
        bench.filled_in.as_secs_f64(),
        args.runs,
        problems[0]
    );
    // `user-7` owns about N / users submissions of the history.
    let contestant = store
        .create_token("user-7", Role::Contestant, None)
        .await?
        .secret;
    let admin = store
        .create_token("bench-admin", Role::Admin, None)
        .await?
        .secret;
    let session_ends = nimjudge::domain::Timestamp::now()
        .checked_add(jiff::SignedDuration::from_hours(1))
        .context("a session expiry")?;
    let mut cookies = Vec::new();
    for secret in [&contestant, &admin] {
        let (session, _) = store
            .open_session(secret, session_ends)
            .await?
            .context("a session for a token just made")?;
        cookies.push(format!("{SESSION_COOKIE}={}", session.id));
    }
    let (as_contestant, as_admin) = (cookies[0].as_str(), cookies[1].as_str());

    let http = reqwest::Client::new();
    let get = |path: String, cookie: &str| {
        let request = http
            .get(format!("{server}{path}"))
            .header(reqwest::header::COOKIE, cookie);
        async move {
            let response = request.send().await?;
            let status = response.status();
            let body = response.bytes().await?;
            anyhow::ensure!(status.is_success(), "{path}: {status}");
            anyhow::Ok(body.len())
        }
    };
    // The contestant's newest submission, through the API.
    let newest: serde_json::Value = http
        .get(format!("{server}/api/submissions?limit=1"))
        .bearer_auth(&contestant)
        .send()
        .await?
        .json()
        .await?;
    let own = newest["submissions"][0]["id"]
        .as_str()
        .context("the contestant's newest submission")?
        .to_string();
    let first = problems[0].as_str();
    let last = problems[problems.len() - 1].as_str();
    let middle = bench.rows / 2;
    let mut cases: Vec<(&str, String, &str)> = vec![
        ("problems list", "/problems".into(), as_contestant),
        (
            "problem page (first problem)",
            format!("/problems/{first}"),
            as_contestant,
        ),
        ("own submissions", "/submissions".into(), as_contestant),
        (
            "submission page (own)",
            format!("/submissions/{own}"),
            as_contestant,
        ),
        (
            "submission live status",
            format!("/submissions/{own}/live"),
            as_contestant,
        ),
        (
            "all submissions (admin)",
            "/submissions?everyone=true".into(),
            as_admin,
        ),
        ("verdict log, first page", "/log".into(), as_admin),
        (
            "verdict log, problem + TLE",
            format!("/log?problem={last}&verdict=TLE"),
            as_admin,
        ),
        ("verdict log, user", "/log?user=user-7".into(), as_admin),
        (
            "verdict log, middle page",
            format!("/log?before={middle}"),
            as_admin,
        ),
        (
            "testcases (first problem)",
            format!("/problems/{first}/testcases"),
            as_admin,
        ),
        (
            "rejudge progress (first problem)",
            format!("/problems/{first}/rejudge/progress"),
            as_admin,
        ),
        ("tokens (admin)", "/tokens".into(), as_admin),
        (
            "inputs zip (first problem)",
            format!("/problems/{first}/inputs.zip"),
            as_contestant,
        ),
    ];
    // The problem with the largest inputs (megabytes each), where reading
    // them shows.
    if problems.iter().any(|p| p.as_str() == LARGE_INPUTS) {
        cases.extend([
            (
                "problem page, large inputs",
                format!("/problems/{LARGE_INPUTS}"),
                as_contestant,
            ),
            (
                "testcases, large inputs",
                format!("/problems/{LARGE_INPUTS}/testcases"),
                as_admin,
            ),
            (
                "inputs zip, large inputs",
                format!("/problems/{LARGE_INPUTS}/inputs.zip"),
                as_contestant,
            ),
        ]);
    }
    println!(
        "{:<32} {:>10} {:>10} {:>10}  under {PAGE_BUDGET_MS} ms",
        "page", "KiB", "median ms", "p95 ms"
    );
    let mut over = 0;
    for (name, path, cookie) in cases {
        let size = get(path.clone(), cookie).await?;
        let mut times = Vec::with_capacity(args.runs);
        for _ in 0..args.runs {
            let started = Instant::now();
            get(path.clone(), cookie).await?;
            times.push(started.elapsed().as_secs_f64() * 1000.0);
        }
        let (median, p95) = median_and_p95(&mut times);
        let meets = if p95 < PAGE_BUDGET_MS {
            "yes"
        } else if median < PAGE_BUDGET_MS {
            "median only"
        } else {
            "no"
        };
        if p95 >= PAGE_BUDGET_MS {
            over += 1;
        }
        println!(
            "{name:<32} {:>10.1} {median:>10.2} {p95:>10.2}  {meets}",
            size as f64 / 1024.0
        );
    }
    println!("{over} page(s) with a p95 at or over {PAGE_BUDGET_MS} ms");
    bench.stop().await?;
    Ok(ExitCode::SUCCESS)
}
