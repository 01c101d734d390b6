//! `nimjudge-bench feed`: whether the Contest API's event feed keeps up
//! with a contest's submissions.
//!
//! Starts a server in this process (no workers) with the scoreboard
//! benchmark's contest (a synthetic history of N judged submissions over U
//! users, made a contest), opens the event feed as an admin and reads it to
//! its first state (every object), then, for S seconds, stores R contest
//! submissions a second while workers claim them and write their verdicts
//! as the daemon's workers do (up to [`CLAIM_BATCH`] a claim, the batch's
//! verdicts in one transaction), and reads the feed until every verdict has
//! come through it. Prints how long
//! the first read took, the submissions and verdicts a second stored, and
//! the lag of each verdict's judgement in the feed after it was stored
//! (median, 95th percentile, largest). The feed keeps up when the lag stays
//! about its look interval (a second) plus one look.

use std::{
    collections::HashMap,
    path::PathBuf,
    process::ExitCode,
    sync::{Arc, Mutex},
    time::{Duration, Instant},
};

use clap::Args;
use nimjudge::{
    app::worker::CLAIM_BATCH,
    domain::Role,
    store::{Claim, ContestWindow, JudgementWrite, NewSubmission, Store},
    testing::TestBackend,
};

use super::{
    queries::BenchServer,
    scoreboard::{BenchContest, contest_window, rejected_try},
};

#[derive(Debug, Args)]
pub struct BenchFeedArgs {
    /// Submissions in the synthetic history (about half go to the contest).
    #[arg(long, default_value_t = 20_000)]
    pub submissions: i64,
    /// Users the history is spread over: the contest's participants.
    #[arg(long, default_value_t = 10_001)]
    pub users: i64,
    /// New contest submissions a second while the feed is read.
    #[arg(long, default_value_t = 500)]
    pub rate: u64,
    /// Seconds of new submissions.
    #[arg(long, default_value_t = 20)]
    pub seconds: u64,
    /// Writers storing them side by side, each its share of the rate: the
    /// contestants' clients, each sending when its last submission was
    /// stored (four such clients, one admission after another, store
    /// about 300 a second on PostgreSQL here, whatever the store can take).
    #[arg(long, default_value_t = 64)]
    pub writers: usize,
    /// Workers claiming and judging them (the daemon's default: one per
    /// core).
    #[arg(long, default_value_t = 2)]
    pub workers: usize,
    /// The database: sqlite, or postgres (a fresh database on the cluster
    /// named by `NIMJUDGE_TEST_POSTGRES_URL`).
    #[arg(long, default_value = "sqlite")]
    pub backend: TestBackend,
    /// The problems folder.
    #[arg(long, default_value = "problems")]
    pub problems_dir: PathBuf,
}

/// Verdicts stored and not yet seen in the feed, by submission id, with
/// when each was stored; and the lags of those seen.
#[derive(Default)]
struct Lags {
    stored: HashMap<String, Instant>,
    /// Judgements read before the benchmark stored their verdict's time.
    early: HashMap<String, Instant>,
    lags: Vec<Duration>,
}

/// Claims up to [`CLAIM_BATCH`] tries, stores their verdicts in one
/// transaction as a worker does, and notes when; how many it judged.
async fn judge_batch(
    store: &Store,
    judgement: &JudgementWrite,
    lags: &std::sync::Mutex<Lags>,
) -> anyhow::Result<usize> {
    let claims = store
        .claim_batch("bench", Duration::from_secs(60), CLAIM_BATCH)
        .await?;
    if claims.is_empty() {
        return Ok(0);
    }
    let verdicts: Vec<(&Claim, &JudgementWrite)> =
        claims.iter().map(|claim| (claim, judgement)).collect();
    let written = store.finish_batch(&verdicts).await?;
    anyhow::ensure!(
        written.iter().all(|written| *written),
        "a verdict was fenced out"
    );
    let stored = Instant::now();
    let mut lags = lags.lock().unwrap_or_else(|e| e.into_inner());
    for claim in &claims {
        let id = claim.id.to_string();
        match lags.early.remove(&id) {
            Some(seen) => lags.lags.push(seen.saturating_duration_since(stored)),
            None => {
                lags.stored.insert(id, stored);
            }
        }
    }
    Ok(claims.len())
}

pub async fn run(args: BenchFeedArgs) -> anyhow::Result<ExitCode> {
    anyhow::ensure!(
        args.submissions > 0 && args.users > 0 && args.rate > 0 && args.seconds > 0,
        "N, U, R and S must be positive"
    );
    let bench = BenchServer::start(
        args.backend,
        &args.problems_dir,
        args.submissions,
        args.users,
    )
    .await?;
    let contest = BenchContest::make(&bench, args.submissions).await?;
    let store = &bench.store;
    let admin = store
        .create_token("bench-admin", Role::Admin, None)
        .await?
        .secret;
    let url = format!("{}/ccs/contests/{}/event-feed", bench.address, contest.id);
    let opened = Instant::now();
    let mut response = reqwest::Client::new()
        .get(&url)
        .bearer_auth(&admin)
        .send()
        .await?;
    anyhow::ensure!(
        response.status().is_success(),
        "{url}: {}",
        response.status()
    );
    // The first look ends with the state. Only each chunk (and the end of
    // the one before, where the mark may begin) is searched: searching all
    // that was read at each chunk cost this client minutes of CPU at a
    // contest's largest, beside the server it measures.
    const STATE_MARK: &[u8] = b"\"type\":\"state\"";
    let mut tail: Vec<u8> = Vec::new();
    let mut first_bytes = 0usize;
    loop {
        let chunk = response
            .chunk()
            .await?
            .ok_or_else(|| anyhow::anyhow!("the feed ended"))?;
        first_bytes += chunk.len();
        tail.extend_from_slice(&chunk);
        if tail.windows(STATE_MARK.len()).any(|w| w == STATE_MARK) {
            break;
        }
        let keep = STATE_MARK.len() - 1;
        if tail.len() > keep {
            tail.drain(..tail.len() - keep);
        }
    }
    let first_read = opened.elapsed();
    println!(
        "bench-feed on {}: {} submissions ({} in the contest) over {} users; the first read \
         (every object, {:.1} MiB) took {:.2} s",
        args.backend.as_str(),
        bench.rows,
        contest.in_contest,
        args.users,
        first_bytes as f64 / (1 << 20) as f64,
        first_read.as_secs_f64()
    );

    let lags = Arc::new(Mutex::new(Lags::default()));
    let total = (args.rate * args.seconds) as usize;
    let reader = {
        let lags = lags.clone();
        tokio::spawn(async move {
            let mut pending = String::new();
            let mut seen = 0usize;
            while seen < total {
                let Some(chunk) = response.chunk().await? else {
                    anyhow::bail!("the feed ended after {seen} verdicts");
                };
                pending.push_str(&String::from_utf8_lossy(&chunk));
                let now = Instant::now();
                while let Some(end) = pending.find('\n') {
                    let line: String = pending.drain(..=end).collect();
                    if !line.contains("\"type\":\"judgements\"") {
                        continue;
                    }
                    let event: serde_json::Value = serde_json::from_str(&line)?;
                    let Some(id) = event["data"]["submission_id"].as_str() else {
                        continue;
                    };
                    let mut lags = lags.lock().unwrap_or_else(|e| e.into_inner());
                    match lags.stored.remove(id) {
                        Some(stored) => {
                            lags.lags.push(now - stored);
                            seen += 1;
                        }
                        None => {
                            lags.early.insert(id.to_string(), now);
                        }
                    }
                }
            }
            anyhow::Ok(())
        })
    };

    let (payload, judgement) = rejected_try()?;
    let window = contest_window(&contest.id, contest.start);
    let began = Instant::now();
    let tick = Duration::from_secs(1) / args.rate as u32;
    let mut writers = tokio::task::JoinSet::new();
    for first in 0..args.writers.max(1) {
        let (store, payload) = (store.clone(), payload.clone());
        let (id, problems, users, step) = (
            contest.id.clone(),
            contest.problems.clone(),
            args.users as usize,
            args.writers.max(1),
        );
        let (starts_at_ms, ends_at_ms) = (window.starts_at_ms, window.ends_at_ms);
        writers.spawn(async move {
            let window = ContestWindow {
                contest: &id,
                starts_at_ms,
                ends_at_ms,
            };
            for n in (first..total).step_by(step) {
                tokio::time::sleep_until((began + tick * n as u32).into()).await;
                let user = format!("user-{}", n * 37 % users);
                store
                    .insert_submission(&NewSubmission {
                        problem: &problems[n % problems.len()],
                        user: &user,
                        payload: &payload,
                        contest: Some(window),
                    })
                    .await?;
            }
            anyhow::Ok(())
        });
    }
    let writing_done = Arc::new(std::sync::atomic::AtomicBool::new(false));
    let mut workers = tokio::task::JoinSet::new();
    for _ in 0..args.workers.max(1) {
        let (store, lags, judgement, writing_done) = (
            store.clone(),
            lags.clone(),
            judgement.clone(),
            writing_done.clone(),
        );
        workers.spawn(async move {
            loop {
                // Read before the claim: once the writers are done, an
                // empty claim means an empty queue.
                let last = writing_done.load(std::sync::atomic::Ordering::SeqCst);
                if judge_batch(&store, &judgement, &lags).await? == 0 {
                    if last {
                        return anyhow::Ok(());
                    }
                    // An idle worker waits for a wake-up; a short nap here.
                    tokio::time::sleep(Duration::from_millis(2)).await;
                }
            }
        });
    }
    while let Some(written) = writers.join_next().await {
        written??;
    }
    writing_done.store(true, std::sync::atomic::Ordering::SeqCst);
    while let Some(judged) = workers.join_next().await {
        judged??;
    }
    let writing = began.elapsed();
    let finished = tokio::time::timeout(Duration::from_secs(120), reader).await;
    let lags = std::mem::take(&mut *lags.lock().unwrap_or_else(|e| e.into_inner()));
    let mut times = lags.lags;
    times.sort();
    let ms = |d: Duration| d.as_secs_f64() * 1000.0;
    println!(
        "stored {total} contest submissions and verdicts in {:.1} s ({:.0}/s asked, {:.0}/s done); \
         {} verdicts came through the feed{}",
        writing.as_secs_f64(),
        args.rate,
        total as f64 / writing.as_secs_f64(),
        times.len(),
        match finished {
            Ok(Ok(Ok(()))) => String::new(),
            Ok(Ok(Err(e))) => format!(" (the feed failed: {e})"),
            Ok(Err(e)) => format!(" (the reader failed: {e})"),
            Err(_) => " (not all within 120 s of the last)".into(),
        }
    );
    if !times.is_empty() {
        let p95 = ((times.len() * 95).div_ceil(100)).max(1) - 1;
        println!(
            "a verdict's lag in the feed: median {:.0} ms, p95 {:.0} ms, largest {:.0} ms",
            ms(times[times.len() / 2]),
            ms(times[p95]),
            ms(times[times.len() - 1])
        );
    }
    bench.stop().await?;
    Ok(ExitCode::SUCCESS)
}
