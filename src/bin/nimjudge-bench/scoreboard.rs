//! `nimjudge-bench scoreboard`: how long a contest's scoreboard takes to
//! read, and what keeping its cells costs a verdict, at a contest's size.
//!
//! Starts a server in this process (no workers) on a fresh database with
//! the bundled problems and a synthetic history of N judged submissions
//! spread over U users, makes the history a contest over the twelve batch
//! problems (the submissions to them inside its window get their contest
//! times, their users take part, the cells are computed), then times the
//! scoreboard over loopback as an admin (everything) and as a contestant
//! (frozen: the contest froze ten minutes in), whole and its first 100
//! rows, R times each after one warm-up (median and 95th percentile), and
//! the first 100 rows right after each of R verdicts (how soon a verdict
//! shows). Last, it times a contest submission's admission and verdict
//! write (each refreshes its cell in its own transaction) against the same
//! for a submission outside it.

use std::{
    path::PathBuf,
    process::ExitCode,
    time::{Duration, Instant},
};

use clap::Args;

use nimjudge::{
    contest::{ContestProblem, ContestSettings},
    domain::{ContestId, Payload, Registration, Role, ScoreBy, Scoring, TestcaseName, Verdict},
    store::{ContestWindow, JudgementWrite, NewSubmission},
    testing::TestBackend,
};

use super::{queries::BenchServer, synthetic};

#[derive(Debug, Args)]
pub struct BenchScoreboardArgs {
    /// Submissions in the synthetic history (about half go to the
    /// contest's problems).
    #[arg(long, default_value_t = 2_000_000)]
    pub submissions: i64,
    /// Users the history is spread over: the contest's participants. The
    /// history gives row i to user i mod U and problem i mod 24, so a U
    /// prime to 24 (the default) has every user submit to every problem.
    #[arg(long, default_value_t = 10_001)]
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

fn median_and_p95(mut times: Vec<Duration>) -> (f64, f64) {
    times.sort();
    let ms = |d: Duration| d.as_secs_f64() * 1000.0;
    let p95 = ((times.len() * 95).div_ceil(100)).max(1) - 1;
    (ms(times[times.len() / 2]), ms(times[p95]))
}

/// The benchmarks' contest: the history made a contest over the twelve
/// batch problems, from one second before its first row, five hours,
/// frozen from ten minutes in.
pub(super) struct BenchContest {
    pub id: ContestId,
    pub start: jiff::Timestamp,
    pub problems: Vec<nimjudge::domain::ProblemId>,
    /// How long making it took.
    pub made_in: Duration,
    /// Its submissions.
    pub in_contest: i64,
}

impl BenchContest {
    pub(super) async fn make(
        bench: &BenchServer,
        submissions: i64,
    ) -> anyhow::Result<BenchContest> {
        let store = &bench.store;
        let batch: Vec<_> = bench
            .problems
            .iter()
            .filter(|p| !p.as_str().ends_with("-play"))
            .cloned()
            .collect();
        let id: ContestId = "bench".parse().map_err(anyhow::Error::msg)?;
        let start = jiff::Timestamp::now() - jiff::SignedDuration::from_millis(submissions + 1000);
        let settings = ContestSettings {
            title: "Bench".into(),
            starts_at: start,
            duration_seconds: 5 * 3600,
            freeze_seconds: Some(5 * 3600 - 600),
            scoring: Scoring::Icpc,
            score_by: ScoreBy::Group,
            count_compile_errors: false,
            window_seconds: None,
            registration: Registration::Open,
            penalty_minutes: 20,
            problems: batch
                .iter()
                .enumerate()
                .map(|(index, problem)| ContestProblem {
                    personal_input: None,
                    label: ((b'A' + index as u8) as char).to_string(),
                    problem: problem.clone(),
                    colour: None,
                })
                .collect(),
        };
        store.put_contest(&id, &settings).await?;
        let made = Instant::now();
        let in_contest = synthetic::add_contest(store, &bench.database, &id, &settings).await?;
        Ok(BenchContest {
            id,
            start,
            problems: batch,
            made_in: made.elapsed(),
            in_contest,
        })
    }
}

/// The window of the benchmarks' contest `id` that starts at `start`.
pub(super) fn contest_window(id: &ContestId, start: jiff::Timestamp) -> ContestWindow<'_> {
    ContestWindow {
        contest: id,
        starts_at_ms: start.as_millisecond(),
        ends_at_ms: start.as_millisecond() + 5 * 3_600_000,
    }
}

/// A rejected try as the benchmarks store it: a wrong answer to one
/// testcase, and its verdict as a worker writes it.
pub(super) fn rejected_try() -> anyhow::Result<(Payload, JudgementWrite)> {
    let payload = Payload::Answers {
        personal: None,
        answers: [(
            "sample-1"
                .parse::<TestcaseName>()
                .map_err(anyhow::Error::msg)?,
            "x".to_string(),
        )]
        .into(),
    };
    let judgement = JudgementWrite {
        problem_version: 1,
        verdict: Verdict::WA,
        message: None,
        compile_output: None,
        group_scores: Some(vec![0]),
        results: Vec::new(),
    };
    Ok((payload, judgement))
}

pub async fn run(args: BenchScoreboardArgs) -> anyhow::Result<ExitCode> {
    anyhow::ensure!(
        args.submissions > 0 && args.runs > 0 && args.users > 0,
        "N, U and R must be positive"
    );
    let bench = BenchServer::start(
        args.backend,
        &args.problems_dir,
        args.submissions,
        args.users,
    )
    .await?;
    let (server, store) = (&bench.address, &bench.store);
    let BenchContest {
        id,
        start,
        problems: batch,
        made_in,
        in_contest,
    } = BenchContest::make(&bench, args.submissions).await?;
    let cells = store.scoreboard_cells(&id).await?.len();
    println!(
        "bench-scoreboard on {}: {} submissions ({in_contest} to the contest's {} problems) \
         over {} users, {cells} cells; history made in {:.1} s, the contest in {:.1} s; \
         {} runs per request",
        args.backend.as_str(),
        bench.rows,
        batch.len(),
        args.users,
        bench.filled_in.as_secs_f64(),
        made_in.as_secs_f64(),
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
    let (payload, judgement) = rejected_try()?;
    let window = contest_window(&id, start);
    // A rejected try by a participant, admitted and judged: one change of
    // the scoreboard; returns how long the admission and the verdict took.
    let try_once = |run: usize, in_contest: bool| {
        let user = format!("user-{}", run * 37 % args.users as usize);
        let problem = batch[run % batch.len()].clone();
        let (payload, judgement) = (&payload, &judgement);
        let contest = in_contest.then_some(window);
        async move {
            let began = Instant::now();
            store
                .insert_submission(&NewSubmission {
                    problem: &problem,
                    user: &user,
                    payload,
                    contest,
                })
                .await?;
            let admitted = began.elapsed();
            let claim = store
                .claim("bench", Duration::from_secs(60))
                .await?
                .ok_or_else(|| anyhow::anyhow!("nothing to claim"))?;
            let began = Instant::now();
            anyhow::ensure!(
                store.finish(&claim, judgement).await?,
                "the verdict was fenced out"
            );
            anyhow::Ok((admitted, began.elapsed()))
        }
    };
    println!(
        "{:<48} {:>10} {:>10} {:>10}",
        "request", "KiB", "median ms", "p95 ms"
    );
    let cases = [
        ("scoreboard, admin, every row", &admin, "", false),
        (
            "scoreboard, contestant (frozen), every row",
            &contestant,
            "",
            false,
        ),
        (
            "scoreboard, admin, first 100 rows",
            &admin,
            "?limit=100",
            false,
        ),
        (
            "scoreboard, contestant, first 100 rows",
            &contestant,
            "?limit=100",
            false,
        ),
        (
            "first 100 rows, right after each verdict",
            &contestant,
            "?limit=100",
            true,
        ),
    ];
    for (name, token, query, after_a_verdict) in cases {
        let url = format!("{server}/api/contests/{id}/scoreboard{query}");
        let mut times = Vec::with_capacity(args.runs);
        let mut size = 0;
        for run in 0..=args.runs {
            if after_a_verdict {
                try_once(run, true).await?;
            }
            let began = Instant::now();
            let response = http.get(&url).bearer_auth(token).send().await?;
            anyhow::ensure!(
                response.status().is_success(),
                "{url}: {}",
                response.status()
            );
            size = response.bytes().await?.len();
            if run > 0 {
                times.push(began.elapsed());
            }
        }
        let (median, p95) = median_and_p95(times);
        println!(
            "{name:<48} {:>10.1} {median:>10.2} {p95:>10.2}",
            size as f64 / 1024.0
        );
    }

    // A verdict's write with its cell refresh, against one without.
    println!(
        "{:<48} {:>10} {:>10} {:>10}",
        "write", "", "median ms", "p95 ms"
    );
    for (name, contest) in [("outside a contest", false), ("in the contest", true)] {
        let (mut admits, mut verdicts) = (Vec::new(), Vec::new());
        for run in 0..=args.runs {
            let (admitted, judged) = try_once(run, contest).await?;
            if run > 0 {
                admits.push(admitted);
                verdicts.push(judged);
            }
        }
        let (admit_median, admit_p95) = median_and_p95(admits);
        let (verdict_median, verdict_p95) = median_and_p95(verdicts);
        println!(
            "{:<48} {:>10} {admit_median:>10.2} {admit_p95:>10.2}",
            format!("admission, {name}"),
            ""
        );
        println!(
            "{:<48} {:>10} {verdict_median:>10.2} {verdict_p95:>10.2}",
            format!("verdict, {name}"),
            ""
        );
    }
    bench.stop().await?;
    Ok(ExitCode::SUCCESS)
}
