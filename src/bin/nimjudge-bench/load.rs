//! `nimjudge-bench load`: the load benchmark.
//!
//! Starts a fresh server in this process over a scratch `nim` catalog of
//! generated testcases. The load comes from another process (`nimjudge
//! load-clients`, this same binary): C concurrent clients send K answer
//! submissions over HTTP, each waiting for its verdict, and report
//! throughput and submit-to-verdict latency; this process meanwhile counts
//! the server's CPU time (every thread: HTTP, workers, database), so the
//! CPU per submission excludes the clients. Then it measures the raw
//! ceiling of the same database setup: C tasks running the same writes
//! concurrently (insert, claim, record the verdict) through the same store,
//! without HTTP or judging.
//!
//! `--repeat N` (default 3) runs the server measurement and the ceiling N
//! times each, alternating, each on a fresh database, and reports every run
//! and the medians: one run on a shared machine swings too much to quote.
//!
//! `--backends sqlite,postgres` runs it on each database in turn, in one
//! run: SQLite in the scratch folder, then a fresh database on the
//! PostgreSQL cluster named by `NIMJUDGE_TEST_POSTGRES_URL`.

use std::{
    collections::BTreeMap,
    path::PathBuf,
    process::ExitCode,
    sync::{
        Arc,
        atomic::{AtomicUsize, Ordering},
    },
    time::{Duration, Instant},
};

use anyhow::Context;
use clap::Args;
use serde::{Deserialize, Serialize};

use crate::{database_cpu::DatabaseCpu, synthetic::Scratch};
use nimjudge::cli::client::Client;
use nimjudge::{
    api::SubmitRequest,
    catalog,
    config::{LogConfig, LogFormat},
    domain::{Payload, ProblemId, Role, SubmissionState, TestcaseName, TestcaseResult, Verdict},
    solver::TestKind,
    startup::Application,
    store::{JudgementWrite, NewSubmission, Store},
    testing::{FixtureInput, ScratchCatalog, TestBackend},
};

#[derive(Debug, Clone, Args)]
pub struct BenchArgs {
    /// Number of submissions (K).
    #[arg(long, default_value_t = 2000)]
    pub submissions: usize,
    /// Concurrent clients (C), and concurrent tasks of the ceiling.
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
    /// Runs of each measurement; the medians are reported.
    #[arg(long, default_value_t = 3)]
    pub repeat: usize,
    /// An open load instead of C clients: send submissions at this rate
    /// (per second) whatever the server's answers, each waiting for its
    /// verdict, and time each from when it was due (so a server that falls
    /// behind shows it in the latencies).
    #[arg(long)]
    pub rate: Option<f64>,
    /// Also print each run's latencies second by second (of when each
    /// submission was sent, or due): the submissions, p50, p99 and slowest.
    #[arg(long)]
    pub timeline: bool,
    /// After the maxima (C clients), on each database: `repeat` runs of an
    /// open load at half of its median maximum, 8 seconds each, measured
    /// in the same run as issue 12's bound on the tail asks.
    #[arg(long, conflicts_with = "rate")]
    pub half_load: bool,
    /// Log as `serve` does (plain text at `info` to stderr, one line per
    /// HTTP request among them), to measure what the log costs; without
    /// it the server logs nothing.
    #[arg(long)]
    pub log: bool,
}

/// `nimjudge-bench load-clients`: the load benchmark's clients, run by `bench` as a
/// process of their own. The token comes in the environment
/// ([`TOKEN_VARIABLE`]), not on the command line.
#[derive(Debug, Args)]
pub struct BenchLoadArgs {
    /// The server's base URL.
    #[arg(long)]
    pub server: String,
    /// A file holding the submission to send, as JSON (`SubmitRequest`).
    #[arg(long)]
    pub request: PathBuf,
    /// Number of submissions (K).
    #[arg(long)]
    pub submissions: usize,
    /// Concurrent clients (C).
    #[arg(long)]
    pub concurrency: usize,
    /// Send at this rate per second instead (see `bench --rate`).
    #[arg(long)]
    pub rate: Option<f64>,
}

/// Where `load-clients` finds its token.
const TOKEN_VARIABLE: &str = "NIMJUDGE_BENCH_TOKEN";

/// What `load-clients` prints, one JSON line.
#[derive(Debug, Serialize, Deserialize)]
struct LoadReport {
    elapsed_s: f64,
    /// Submit to verdict.
    p50_ms: f64,
    p99_ms: f64,
    /// Submit to the `202 Accepted`: the submit request's own part.
    accepted_p50_ms: f64,
    accepted_p99_ms: f64,
    /// Submit to verdict of the submissions sent (or due) after the first
    /// second: the run without its start.
    after_start_p99_ms: f64,
    /// How many of the first second's submissions took over 20 ms.
    start_over_20_ms: usize,
    /// Submit to verdict, second by second of the load.
    #[serde(default)]
    timeline: Vec<LoadSecond>,
}

/// The submissions sent (or due) in one second of a load, and their
/// times from submit to verdict.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct LoadSecond {
    /// Seconds from the start of the load.
    second: usize,
    submissions: usize,
    p50_ms: f64,
    p99_ms: f64,
    max_ms: f64,
}

/// `latencies` second by second of when each was sent (or due); a second
/// in which none was sent has no entry.
fn timeline(latencies: &[Latency]) -> Vec<LoadSecond> {
    let mut seconds: std::collections::BTreeMap<usize, Vec<f64>> = Default::default();
    for latency in latencies {
        // Whole seconds from the start (`as` floors a non-negative float).
        let second = latency.sent_s.max(0.0) as usize;
        seconds.entry(second).or_default().push(latency.verdict_ms);
    }
    seconds
        .into_iter()
        .map(|(second, mut times)| {
            times.sort_by(f64::total_cmp);
            LoadSecond {
                second,
                submissions: times.len(),
                p50_ms: percentile(&times, 50.0),
                p99_ms: percentile(&times, 99.0),
                max_ms: times.last().copied().unwrap_or(0.0),
            }
        })
        .collect()
}

/// One server measurement.
#[derive(Debug)]
struct ServerRun {
    throughput: f64,
    /// Submit to verdict as the clients saw it.
    p50_ms: f64,
    p99_ms: f64,
    /// Submit to the `202 Accepted`, as the clients saw it.
    accepted_p50_ms: f64,
    accepted_p99_ms: f64,
    after_start_p99_ms: f64,
    start_over_20_ms: usize,
    /// The server's own part: from the `queued` event to the `judged` one.
    queued_to_judged_p50_ms: f64,
    queued_to_judged_p99_ms: f64,
    cpu_ms_per_submission: f64,
    /// PostgreSQL on this machine only: its backends' CPU for the store.
    database_cpu_ms_per_submission: Option<f64>,
    /// SQLite only: how the one write connection was used.
    writer: Option<WriterUse>,
    timeline: Vec<LoadSecond>,
}

/// How busy writes kept SQLite's one write connection over a run.
#[derive(Debug, Clone, Copy)]
struct WriterUse {
    /// The share of the run's time it was held.
    busy: f64,
    /// How many times it was taken, per submission.
    leases_per_submission: f64,
}

impl std::fmt::Display for WriterUse {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "; writer busy {:.0}%, {:.2} writes a submission",
            100.0 * self.busy,
            self.leases_per_submission
        )
    }
}

/// One store ceiling measurement.
#[derive(Debug)]
struct CeilingRun {
    throughput: f64,
    cpu_ms_per_submission: f64,
    database_cpu_ms_per_submission: Option<f64>,
}

/// A database's CPU a submission, where it was read, as the run lines
/// print it after the server's own.
fn database_cpu_text(ms_per_submission: Option<f64>) -> String {
    ms_per_submission
        .map(|ms| format!(", and {ms:.2} ms of PostgreSQL's"))
        .unwrap_or_default()
}

/// The median of figures every run has; `None` if a run lacks it.
fn median_of_all(values: impl Iterator<Item = Option<f64>>) -> Option<f64> {
    values.collect::<Option<Vec<f64>>>().map(median)
}

/// `used` over `submissions`, in ms each; `None` if no database process
/// was read (SQLite, or PostgreSQL on another machine).
fn database_cpu_per_submission(
    after: &DatabaseCpu,
    before: &DatabaseCpu,
    submissions: usize,
) -> Option<f64> {
    (!after.is_empty()).then(|| after.since(before).as_secs_f64() * 1000.0 / submissions as f64)
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
        ("SERVER__MAX_CONNECTIONS_PER_ADDRESS", "0".to_string()),
    ];
    if let Some(workers) = workers {
        overrides.push(("WORKER__COUNT", workers.to_string()));
    }
    overrides
}

pub async fn run(args: BenchArgs) -> anyhow::Result<ExitCode> {
    anyhow::ensure!(
        args.submissions > 0 && args.concurrency > 0 && args.repeat > 0,
        "K, C and the number of runs must be positive"
    );
    if args.log {
        nimjudge::telemetry::init(&LogConfig {
            filter: "info".into(),
            format: LogFormat::Text,
        });
    }
    for &backend in &args.backends {
        run_on(&args, backend).await?;
    }
    Ok(ExitCode::SUCCESS)
}

/// The median of some figures (the lower middle one of an even count).
/// The median of the runs' writer figures, each on its own.
fn median_writer(servers: &[ServerRun]) -> Option<WriterUse> {
    let writers: Vec<WriterUse> = servers.iter().filter_map(|r| r.writer).collect();
    (!writers.is_empty()).then(|| WriterUse {
        busy: median(writers.iter().map(|w| w.busy).collect()),
        leases_per_submission: median(writers.iter().map(|w| w.leases_per_submission).collect()),
    })
}

fn median(mut values: Vec<f64>) -> f64 {
    values.sort_by(f64::total_cmp);
    values
        .get((values.len().max(1) - 1) / 2)
        .copied()
        .unwrap_or(0.0)
}

/// CPU time this process has used so far, every thread, user and system.
fn process_cpu() -> Duration {
    // SAFETY: getrusage only writes the struct it is given.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: a valid pointer to a rusage; RUSAGE_SELF is always valid.
    let status = unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut usage) };
    if status != 0 {
        return Duration::ZERO;
    }
    let time = |t: libc::timeval| {
        Duration::from_secs(t.tv_sec.max(0) as u64) + Duration::from_micros(t.tv_usec.max(0) as u64)
    };
    time(usage.ru_utime) + time(usage.ru_stime)
}

/// The benchmark on one database: `repeat` server runs and ceiling runs,
/// alternating, then the medians.
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
    let nim: ProblemId = "nim".parse().map_err(anyhow::Error::msg)?;
    let request = SubmitRequest {
        problem: nim.clone(),
        answers: Some(answers.clone()),
        input: None,
        output: None,
        language: None,
        source: None,
        contest: None,
    };
    let request_file = scratch.problems_dir().with_file_name("bench-request.json");
    std::fs::write(&request_file, serde_json::to_vec(&request)?)
        .with_context(|| format!("writing {}", request_file.display()))?;
    let mut servers = Vec::new();
    let mut ceilings = Vec::new();
    let mut raws = Vec::new();
    for round in 1..=args.repeat {
        let server = server_run(args, &scratch, &request_file, round).await?;
        println!("[{label}] run {round}: server  {}", server_line(&server));
        if args.timeline {
            print_timeline(label, round, &server);
        }
        let ceiling = ceiling_run(args, &scratch, &nim, &answers, round).await?;
        println!(
            "[{label}] run {round}: ceiling {:.0} submissions/s, {:.2} ms CPU per submission{}",
            ceiling.throughput,
            ceiling.cpu_ms_per_submission,
            database_cpu_text(ceiling.database_cpu_ms_per_submission)
        );
        servers.push(server);
        ceilings.push(ceiling);
        if backend == TestBackend::Sqlite {
            let raw = raw_run(args.submissions, &scratch, &nim, &answers, round).await?;
            println!(
                "[{label}] run {round}: raw SQLite loop {:.0} submissions/s",
                raw.throughput
            );
            raws.push(raw.throughput);
        }
    }
    let server = median(servers.iter().map(|r| r.throughput).collect());
    let ceiling = median(ceilings.iter().map(|r| r.throughput).collect());
    println!(
        "[{label}] median of {}: server {server:.0} submissions/s (p50 {:.1} ms, p99 {:.1} ms, \
         after the first second {:.1} ms; to 202 p50 {:.1} ms, p99 {:.1} ms; queued to judged p50 {:.0} ms, p99 {:.0} ms; \
         {}); ceiling {ceiling:.0} submissions/s ({:.2} ms CPU each{}); ratio {:.0}%",
        args.repeat,
        median(servers.iter().map(|r| r.p50_ms).collect()),
        median(servers.iter().map(|r| r.p99_ms).collect()),
        median(servers.iter().map(|r| r.after_start_p99_ms).collect()),
        median(servers.iter().map(|r| r.accepted_p50_ms).collect()),
        median(servers.iter().map(|r| r.accepted_p99_ms).collect()),
        median(servers.iter().map(|r| r.queued_to_judged_p50_ms).collect()),
        median(servers.iter().map(|r| r.queued_to_judged_p99_ms).collect()),
        median_cpu_text(&servers),
        median(ceilings.iter().map(|r| r.cpu_ms_per_submission).collect()),
        database_cpu_text(median_of_all(
            ceilings.iter().map(|r| r.database_cpu_ms_per_submission)
        )),
        100.0 * server / ceiling
    );
    if !raws.is_empty() {
        let raw = median(raws);
        println!(
            "[{label}] median of {}: raw SQLite loop {raw:.0} submissions/s; server / raw {:.0}%",
            args.repeat,
            100.0 * server / raw
        );
    }
    if args.half_load {
        half_load_on(args, &scratch, &request_file, server).await?;
    }
    Ok(())
}

/// `bench --half-load`: `repeat` runs of an open load at half of
/// `maximum`, on the database of `scratch`, and their medians.
async fn half_load_on(
    args: &BenchArgs,
    scratch: &ScratchCatalog,
    request_file: &std::path::Path,
    maximum: f64,
) -> anyhow::Result<()> {
    let label = scratch.backend().as_str();
    let rate = (maximum / 2.0).round().max(1.0);
    let half = BenchArgs {
        rate: Some(rate),
        submissions: (HALF_LOAD_SECONDS * rate) as usize,
        ..args.clone()
    };
    println!(
        "[{label}] half load: an open load of {rate:.0} a second (half of {maximum:.0}), \
         K = {} submissions",
        half.submissions
    );
    let mut runs = Vec::new();
    for round in 1..=args.repeat {
        // Numbered after the maxima's runs, so each has a database of its own.
        let run = server_run(&half, scratch, request_file, args.repeat + round).await?;
        println!("[{label}] half load run {round}: {}", server_line(&run));
        if args.timeline {
            print_timeline(label, round, &run);
        }
        runs.push(run);
    }
    let each = |pick: fn(&ServerRun) -> f64| {
        let values: Vec<String> = runs.iter().map(|r| format!("{:.1}", pick(r))).collect();
        values.join(", ")
    };
    // A fresh server's first second is its cold start, an eighth of a
    // run's submissions (on PostgreSQL its p99 alone was 40-85 ms): the
    // p99 after it is the steady state's. BENCHMARKS.md gives both.
    println!(
        "[{label}] half load, median of {}: p99 {:.1} ms (runs {} ms), after the first second \
         {:.1} ms (runs {} ms), p50 {:.1} ms; {}",
        args.repeat,
        median(runs.iter().map(|r| r.p99_ms).collect()),
        each(|r| r.p99_ms),
        median(runs.iter().map(|r| r.after_start_p99_ms).collect()),
        each(|r| r.after_start_p99_ms),
        median(runs.iter().map(|r| r.p50_ms).collect()),
        median_cpu_text(&runs),
    );
    Ok(())
}

/// The medians of server runs' CPU figures, as the median lines print
/// them: the server's CPU a submission, then the database's and the
/// writer's where measured.
fn median_cpu_text(runs: &[ServerRun]) -> String {
    format!(
        "{:.2} ms CPU each{}{}",
        median(runs.iter().map(|r| r.cpu_ms_per_submission).collect()),
        database_cpu_text(median_of_all(
            runs.iter().map(|r| r.database_cpu_ms_per_submission)
        )),
        median_writer(runs)
            .map(|w| w.to_string())
            .unwrap_or_default()
    )
}

/// Seconds of load in each `--half-load` run.
const HALF_LOAD_SECONDS: f64 = 8.0;

/// A server run's figures, as each run's line prints them.
fn server_line(server: &ServerRun) -> String {
    format!(
        "{:.0} submissions/s, p50 {:.1} ms, p99 {:.1} ms \
         (after the first second {:.1} ms; {} of the first second's over 20 ms) \
         (to 202: p50 {:.1} ms, p99 {:.1} ms; queued to judged: p50 {:.0} ms, p99 {:.0} ms), \
         {:.2} ms CPU per submission{}{}",
        server.throughput,
        server.p50_ms,
        server.p99_ms,
        server.after_start_p99_ms,
        server.start_over_20_ms,
        server.accepted_p50_ms,
        server.accepted_p99_ms,
        server.queued_to_judged_p50_ms,
        server.queued_to_judged_p99_ms,
        server.cpu_ms_per_submission,
        database_cpu_text(server.database_cpu_ms_per_submission),
        server.writer.map(|w| w.to_string()).unwrap_or_default()
    )
}

/// A run's latencies second by second (`--timeline`).
fn print_timeline(label: &str, round: usize, server: &ServerRun) {
    for second in &server.timeline {
        println!(
            "[{label}] run {round}, second {}: {} submissions, p50 {:.1} ms, \
             p99 {:.1} ms, slowest {:.1} ms",
            second.second, second.submissions, second.p50_ms, second.p99_ms, second.max_ms
        );
    }
}

/// The raw SQLite loop ([`crate::raw`]) on a fresh database of the
/// same setup.
async fn raw_run(
    total: usize,
    scratch: &ScratchCatalog,
    nim: &ProblemId,
    answers: &BTreeMap<TestcaseName, String>,
    round: usize,
) -> anyhow::Result<crate::raw::RawRun> {
    let config = scratch.config(&format!("raw-{round}"), &[])?;
    let store = Store::connect(&config.database).await?;
    catalog::sync(&store, &scratch.problems_dir()).await?;
    let file = store
        .file()
        .context("the raw loop needs a SQLite file")?
        .to_path_buf();
    store.close().await;
    anyhow::ensure!(nim.as_str() == "nim", "the raw loop writes problem nim");
    let payload = Payload::Answers {
        personal: None,
        answers: answers.clone(),
    };
    let sizes = serde_json::to_string(&payload.sizes())?;
    let payload = serde_json::to_string(&payload)?;
    let names: Vec<String> = answers.keys().map(ToString::to_string).collect();
    tokio::task::spawn_blocking(move || crate::raw::run(&file, total, (&payload, &sizes), &names))
        .await?
}

/// A fresh server and database; the load from a `load-clients` process.
async fn server_run(
    args: &BenchArgs,
    scratch: &ScratchCatalog,
    request_file: &std::path::Path,
    round: usize,
) -> anyhow::Result<ServerRun> {
    let label = scratch.backend().as_str();
    let config = scratch.config(&format!("server-{round}"), &server_overrides(args.workers))?;
    let workers = config.worker.count;
    let database = config.database.clone();
    let app = Application::build(config).await?;
    let server = format!("http://{}", app.address());
    let token = app
        .store()
        .create_token("bench", Role::Contestant, None)
        .await?
        .secret;
    let store = app.store().clone();
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let running = tokio::spawn(app.run_until(async move {
        let _ = stopped.await;
    }));
    if round == 1 {
        let load = match args.rate {
            Some(rate) => format!("an open load of {rate} a second from another process"),
            None => format!("C = {} clients in another process", args.concurrency),
        };
        println!(
            "[{label}] bench: K = {} submissions, {load}, {workers} workers",
            args.submissions
        );
    }
    let mut command = std::process::Command::new(std::env::current_exe()?);
    command
        .arg("load-clients")
        .arg("--server")
        .arg(&server)
        .arg("--request")
        .arg(request_file)
        .arg("--submissions")
        .arg(args.submissions.to_string())
        .arg("--concurrency")
        .arg(args.concurrency.to_string())
        .env(TOKEN_VARIABLE, &token)
        .stderr(std::process::Stdio::inherit());
    if let Some(rate) = args.rate {
        command.arg("--rate").arg(rate.to_string());
    }
    let database_before = DatabaseCpu::read(&database).await?;
    let cpu_before = process_cpu();
    let held_before = store.writer_held();
    let output = tokio::task::spawn_blocking(move || command.output()).await??;
    let cpu = process_cpu().saturating_sub(cpu_before);
    let database_cpu = DatabaseCpu::read(&database).await?;
    let held = store
        .writer_held()
        .zip(held_before)
        .map(|((n, t), (n0, t0))| (n.saturating_sub(n0), t.saturating_sub(t0)));
    drop(store);
    let _ = stop.send(());
    running.await??;
    anyhow::ensure!(
        output.status.success(),
        "load-clients failed ({})",
        output.status
    );
    let report: LoadReport = serde_json::from_slice(&output.stdout)
        .context("load-clients' report is not what load reads")?;
    // The server's own part, from its event log.
    let mut events = Scratch::open(&database.url).await?;
    let mut inside: Vec<f64> = events
        .queued_to_judged_ms()
        .await?
        .into_iter()
        .map(|ms| ms as f64)
        .collect();
    events.close().await?;
    // Left on the cluster, the run's database would be autovacuumed (its
    // first visit: every table) while the next run is measured.
    scratch.drop_database(&format!("server-{round}")).await?;
    inside.sort_by(f64::total_cmp);
    Ok(ServerRun {
        throughput: args.submissions as f64 / report.elapsed_s,
        p50_ms: report.p50_ms,
        p99_ms: report.p99_ms,
        accepted_p50_ms: report.accepted_p50_ms,
        accepted_p99_ms: report.accepted_p99_ms,
        after_start_p99_ms: report.after_start_p99_ms,
        start_over_20_ms: report.start_over_20_ms,
        queued_to_judged_p50_ms: percentile(&inside, 50.0),
        queued_to_judged_p99_ms: percentile(&inside, 99.0),
        cpu_ms_per_submission: cpu.as_secs_f64() * 1000.0 / args.submissions as f64,
        database_cpu_ms_per_submission: database_cpu_per_submission(
            &database_cpu,
            &database_before,
            args.submissions,
        ),
        writer: held.map(|(leases, time)| WriterUse {
            busy: time.as_secs_f64() / report.elapsed_s,
            leases_per_submission: leases as f64 / args.submissions as f64,
        }),
        timeline: report.timeline,
    })
}

/// The ceiling: C tasks running the same writes as the server (insert the
/// submission, claim it, record the verdict) through the same store on a
/// fresh database of the same setup, concurrently, no HTTP, no judging. A
/// task may claim another task's submission; every one is finished once.
async fn ceiling_run(
    args: &BenchArgs,
    scratch: &ScratchCatalog,
    nim: &ProblemId,
    answers: &BTreeMap<TestcaseName, String>,
    round: usize,
) -> anyhow::Result<CeilingRun> {
    let config = scratch.config(&format!("ceiling-{round}"), &[])?;
    let store = Store::connect(&config.database).await?;
    catalog::sync(&store, &scratch.problems_dir()).await?;
    let judgement = Arc::new(JudgementWrite {
        problem_version: 1,
        verdict: Verdict::AC,
        message: None,
        compile_output: None,
        group_scores: Some(vec![10_000]),
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
    });
    let payload = Arc::new(Payload::Answers {
        personal: None,
        answers: answers.clone(),
    });
    let next = Arc::new(AtomicUsize::new(0));
    let finished = Arc::new(AtomicUsize::new(0));
    let database_before = DatabaseCpu::read(&config.database).await?;
    let cpu_before = process_cpu();
    let started = Instant::now();
    let mut tasks = tokio::task::JoinSet::new();
    for _ in 0..args.concurrency {
        let (store, nim, payload, judgement) = (
            store.clone(),
            nim.clone(),
            payload.clone(),
            judgement.clone(),
        );
        let (next, finished, total) = (next.clone(), finished.clone(), args.submissions);
        tasks.spawn(async move {
            while next.fetch_add(1, Ordering::Relaxed) < total {
                store
                    .insert_submission(&NewSubmission {
                        problem: &nim,
                        user: "bench",
                        payload: &payload,
                        contest: None,
                    })
                    .await?;
                if let Some(claim) = store.claim("ceiling", Duration::from_secs(60)).await? {
                    anyhow::ensure!(
                        store.finish(&claim, &judgement).await?,
                        "the ceiling lost a lease"
                    );
                    finished.fetch_add(1, Ordering::Relaxed);
                }
            }
            anyhow::Ok(())
        });
    }
    while let Some(result) = tasks.join_next().await {
        result??;
    }
    // Submissions whose task found its own claimed by another are finished
    // by that other; any left are claimed here (none, normally).
    while let Some(claim) = store.claim("ceiling", Duration::from_secs(60)).await? {
        anyhow::ensure!(store.finish(&claim, &judgement).await?, "lost a lease");
        finished.fetch_add(1, Ordering::Relaxed);
    }
    let elapsed = started.elapsed().as_secs_f64();
    let cpu = process_cpu().saturating_sub(cpu_before);
    let database_cpu = DatabaseCpu::read(&config.database).await?;
    store.close().await;
    scratch.drop_database(&format!("ceiling-{round}")).await?;
    anyhow::ensure!(
        finished.load(Ordering::Relaxed) == args.submissions,
        "the ceiling finished {} of {} submissions",
        finished.load(Ordering::Relaxed),
        args.submissions
    );
    Ok(CeilingRun {
        throughput: args.submissions as f64 / elapsed,
        cpu_ms_per_submission: cpu.as_secs_f64() * 1000.0 / args.submissions as f64,
        database_cpu_ms_per_submission: database_cpu_per_submission(
            &database_cpu,
            &database_before,
            args.submissions,
        ),
    })
}

/// `load-clients`: sends the submission K times from C concurrent clients,
/// each waiting for its verdict (which must be AC), and prints one
/// [`LoadReport`] line.
pub async fn load(args: BenchLoadArgs) -> anyhow::Result<ExitCode> {
    let token = std::env::var(TOKEN_VARIABLE)
        .with_context(|| format!("load-clients reads its token from {TOKEN_VARIABLE}"))?;
    let text = std::fs::read(&args.request)
        .with_context(|| format!("reading {}", args.request.display()))?;
    let request: Arc<SubmitRequest> = Arc::new(serde_json::from_slice(&text)?);
    let client = Client::new(&args.server, &token)?;
    if let Some(rate) = args.rate {
        return open_load(client, request, args.submissions, rate).await;
    }
    let next = Arc::new(AtomicUsize::new(0));
    let started = Instant::now();
    let mut tasks = tokio::task::JoinSet::new();
    for _ in 0..args.concurrency.max(1) {
        let (client, next, request) = (client.clone(), next.clone(), request.clone());
        let total = args.submissions;
        tasks.spawn(async move {
            let mut latencies = Vec::new();
            while next.fetch_add(1, Ordering::Relaxed) < total {
                let sent = Instant::now();
                latencies.push(submit_and_wait(&client, &request, sent, started).await?);
            }
            anyhow::Ok(latencies)
        });
    }
    let mut latencies = Vec::with_capacity(args.submissions);
    while let Some(result) = tasks.join_next().await {
        latencies.extend(result??);
    }
    report(started.elapsed().as_secs_f64(), latencies)
}

/// Prints the [`LoadReport`] of a load that took `elapsed_s` seconds.
fn report(elapsed_s: f64, latencies: Vec<Latency>) -> anyhow::Result<ExitCode> {
    let sorted = |pick: fn(&Latency) -> f64| {
        let mut values: Vec<f64> = latencies.iter().map(pick).collect();
        values.sort_by(f64::total_cmp);
        values
    };
    let (verdict, accepted) = (sorted(|l| l.verdict_ms), sorted(|l| l.accepted_ms));
    let mut after_start: Vec<f64> = latencies
        .iter()
        .filter(|l| l.sent_s >= 1.0)
        .map(|l| l.verdict_ms)
        .collect();
    after_start.sort_by(f64::total_cmp);
    let start_over_20_ms = latencies
        .iter()
        .filter(|l| l.sent_s < 1.0 && l.verdict_ms > 20.0)
        .count();
    let report = LoadReport {
        elapsed_s,
        p50_ms: percentile(&verdict, 50.0),
        p99_ms: percentile(&verdict, 99.0),
        accepted_p50_ms: percentile(&accepted, 50.0),
        accepted_p99_ms: percentile(&accepted, 99.0),
        after_start_p99_ms: percentile(&after_start, 99.0),
        start_over_20_ms,
        timeline: timeline(&latencies),
    };
    println!("{}", serde_json::to_string(&report)?);
    Ok(ExitCode::SUCCESS)
}

/// How long one submission took, from `from` (when it was sent, or due).
struct Latency {
    /// When it was sent (or due), from the start of the load.
    sent_s: f64,
    /// To the `202 Accepted`.
    accepted_ms: f64,
    /// To the verdict.
    verdict_ms: f64,
}

/// One submission and the wait for its verdict (which must be AC), timed
/// from `from`.
async fn submit_and_wait(
    client: &Client,
    request: &SubmitRequest,
    from: Instant,
    load_started: Instant,
) -> anyhow::Result<Latency> {
    let since = |from: Instant| from.elapsed().as_secs_f64() * 1000.0;
    let queued = client.submit(request).await?;
    let accepted_ms = since(from);
    // The verdict is waited for (a 202 says `queued`).
    let verdict = if queued.state == SubmissionState::Done {
        queued.verdict
    } else {
        loop {
            let document = client
                .submission(queued.id, Duration::from_secs(10))
                .await?;
            if document.submission.state == SubmissionState::Done {
                break document.submission.verdict;
            }
        }
    };
    anyhow::ensure!(
        verdict == Some(Verdict::AC),
        "unexpected verdict {verdict:?} for submission {}",
        queued.id
    );
    Ok(Latency {
        sent_s: from.saturating_duration_since(load_started).as_secs_f64(),
        accepted_ms,
        verdict_ms: since(from),
    })
}

/// The open load of `load-clients --rate`: submission i is due at i / rate
/// seconds and sent then, whatever is still waiting; its latency counts
/// from when it was due.
async fn open_load(
    client: Client,
    request: Arc<SubmitRequest>,
    total: usize,
    rate: f64,
) -> anyhow::Result<ExitCode> {
    anyhow::ensure!(rate > 0.0, "the rate must be positive");
    let started = tokio::time::Instant::now();
    let mut tasks = tokio::task::JoinSet::new();
    for index in 0..total {
        let due = started + Duration::from_secs_f64(index as f64 / rate);
        tokio::time::sleep_until(due).await;
        let (client, request) = (client.clone(), request.clone());
        let load_started = started.into_std();
        tasks.spawn(async move {
            submit_and_wait(&client, &request, due.into_std(), load_started).await
        });
    }
    let mut latencies = Vec::with_capacity(total);
    while let Some(result) = tasks.join_next().await {
        latencies.push(result??);
    }
    report(started.elapsed().as_secs_f64(), latencies)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_loads_timeline_groups_its_submissions_by_the_second_they_were_sent() {
        let latency = |sent_s: f64, verdict_ms: f64| Latency {
            sent_s,
            accepted_ms: verdict_ms / 2.0,
            verdict_ms,
        };
        let latencies = [
            latency(0.1, 5.0),
            latency(0.9, 7.0),
            latency(0.5, 30.0),
            latency(2.0, 4.0),
        ];
        assert_eq!(
            timeline(&latencies),
            [
                LoadSecond {
                    second: 0,
                    submissions: 3,
                    p50_ms: 7.0,
                    p99_ms: 30.0,
                    max_ms: 30.0,
                },
                LoadSecond {
                    second: 2,
                    submissions: 1,
                    p50_ms: 4.0,
                    p99_ms: 4.0,
                    max_ms: 4.0,
                },
            ]
        );
        assert!(timeline(&[]).is_empty());
    }

    #[test]
    fn the_median_is_the_middle_figure() {
        assert_eq!(median(vec![3.0, 1.0, 2.0]), 2.0);
        assert_eq!(median(vec![4.0, 1.0, 3.0, 2.0]), 2.0);
        assert_eq!(median(vec![5.0]), 5.0);
    }

    #[test]
    fn the_process_cpu_clock_moves_with_work() {
        let before = process_cpu();
        let mut x = 0u64;
        let started = Instant::now();
        while started.elapsed() < Duration::from_millis(30) {
            x = x.wrapping_mul(6364136223846793005).wrapping_add(1);
        }
        std::hint::black_box(x);
        assert!(process_cpu() > before);
    }

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
        assert_eq!(config.server.connections.max_connections_per_address, None);
    }
}
