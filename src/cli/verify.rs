//! `nimjudge verify`: runs every setter solution of a problem through the
//! sandbox and checks that each gets the verdict its folder names.
//!
//! Solutions follow the Kattis package layout: `problems/<id>/solutions/`
//! holds `accepted/`, `wrong_answer/`, `time_limit_exceeded/`,
//! `memory_limit_exceeded/`, `output_limit_exceeded/`, `runtime_error/` and
//! `compile_error/`, each with source files whose extension names the
//! language. Reference outputs come from the solver core; the solutions are
//! judged exactly as submissions are (samples first, stop at the first
//! failure), on every bundled testcase. Exit status 0 when every verdict is
//! the expected one, 1 otherwise.
//!
//! With `--matrix`, every solution runs on every testcase under the time
//! limit raised by problemtools' safety margin, and the command prints the
//! solutions × testcases matrix (verdict and CPU time) and the review of
//! each time limit by problemtools' rule (see [`crate::matrix`]); exit
//! status 1 when a verdict is not the expected one or the review finds an
//! error.

use std::{
    path::{Path, PathBuf},
    process::ExitCode,
    sync::Mutex,
};

use anyhow::{Context, bail};
use clap::Args;
use comfy_table::{Table, presets::UTF8_FULL_CONDENSED};

use super::EXIT_NOT_ACCEPTED;
use crate::{
    app::worker::program::{
        ProblemLimits, ProgramJob, ProgramSource, ProgramTestcase, judge_program,
    },
    catalog::{self, LoadedProblem},
    checker::Case,
    config::Config,
    domain::{ProblemId, TestcaseOrigin, Verdict},
    matrix::{self, Cell, Multipliers, Row},
    programs::{Language, Programs},
    solver,
};

#[derive(Debug, Args)]
pub struct VerifyArgs {
    /// Problems to verify (default: every problem in the catalog folder).
    pub problems: Vec<ProblemId>,
    /// Settings file (default: config.toml in the working directory, if present).
    #[arg(long)]
    pub config: Option<PathBuf>,
    /// Solutions judged at once (default: one per CPU core).
    #[arg(long)]
    pub jobs: Option<usize>,
    /// Judge only the solutions whose path (under `solutions/`) contains this.
    #[arg(long)]
    pub only: Option<String>,
    /// Run every solution on every testcase under the time limit raised by
    /// the safety margin, and print the solutions × testcases matrix
    /// (verdict and CPU ms) with problemtools' review of each time limit.
    #[arg(long)]
    pub matrix: bool,
    /// With --matrix: the slowest accepted solution's CPU time times this
    /// must fit in the time limit (problemtools' `ac_to_time_limit`; the
    /// legacy format's `time_multiplier` is 5).
    #[arg(long, default_value_t = 2.0)]
    pub ac_to_time_limit: f64,
    /// With --matrix: the safety margin, the raised limit over the limit;
    /// every time-limit-exceeded solution must exceed the raised limit
    /// (problemtools' `time_limit_to_tle`; the legacy format's
    /// `time_safety_margin` is 2).
    #[arg(long, default_value_t = 1.5)]
    pub time_limit_to_tle: f64,
}

/// One solution to judge.
struct Job<'a> {
    problem: &'a LoadedProblem,
    testcases: &'a [ProgramTestcase],
    path: PathBuf,
    expected: Verdict,
    language: &'a Language,
}

/// What one solution got.
struct Outcome {
    problem: ProblemId,
    path: PathBuf,
    expected: Verdict,
    got: Result<(Verdict, Option<String>, i64, i64), String>,
    /// With `--matrix`: every testcase's verdict and CPU time under the
    /// raised limit, or the verdict got without running.
    cells: Option<Result<Vec<Cell>, Verdict>>,
    /// Compiling and running, wall clock.
    judging: std::time::Duration,
    /// The wall time of the runs alone, summed.
    runs: std::time::Duration,
}

pub fn run(args: VerifyArgs) -> anyhow::Result<ExitCode> {
    let multipliers = args.matrix.then_some(Multipliers {
        ac_to_time_limit: args.ac_to_time_limit,
        time_limit_to_tle: args.time_limit_to_tle,
    });
    for (name, value) in [
        ("--ac-to-time-limit", args.ac_to_time_limit),
        ("--time-limit-to-tle", args.time_limit_to_tle),
    ] {
        Multipliers::checked(name, value).map_err(|why| anyhow::anyhow!(why))?;
    }
    let config = Config::load(args.config.as_deref())?;
    let programs = Programs::start(&config.sandbox, &config.languages);
    let sandbox = programs
        .sandbox()
        .map_err(|why| anyhow::anyhow!("the sandbox cannot isolate programs here: {why}"))?;
    let problems_dir = &config.catalog.problems_dir;
    let ids: Vec<ProblemId> = if args.problems.is_empty() {
        catalog_ids(problems_dir)?
    } else {
        args.problems
    };
    let mut problems = Vec::new();
    for id in &ids {
        let problem = catalog::load_problem(&problems_dir.join(id.as_str()))
            .with_context(|| format!("cannot load problem `{id}`"))?;
        let testcases = reference_testcases(&problem)?;
        problems.push((problem, testcases));
    }
    let mut jobs = Vec::new();
    for (problem, testcases) in &problems {
        let folder = problems_dir.join(problem.id.as_str());
        for (path, expected) in catalog::solutions(&folder)? {
            if let Some(only) = &args.only
                && !path
                    .strip_prefix(folder.join("solutions"))
                    .is_ok_and(|p| p.to_string_lossy().contains(only.as_str()))
            {
                continue;
            }
            let language = programs
                .language_of_file(&path)
                .map_err(anyhow::Error::msg)?;
            jobs.push(Job {
                problem,
                testcases,
                path,
                expected,
                language,
            });
        }
    }
    if jobs.is_empty() {
        bail!("no solutions found under {}", problems_dir.display());
    }
    let threads = args
        .jobs
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
        .max(1);
    let plural =
        |n: usize, one: &str, many: &str| format!("{n} {}", if n == 1 { one } else { many });
    eprintln!(
        "verifying {} of {}, {threads} at a time",
        plural(jobs.len(), "solution", "solutions"),
        plural(ids.len(), "problem", "problems")
    );
    let queue = Mutex::new(jobs.iter().enumerate());
    let outcomes = Mutex::new(Vec::new());
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| {
                loop {
                    let next = queue.lock().unwrap_or_else(|e| e.into_inner()).next();
                    let Some((index, job)) = next else { break };
                    let outcome = judge(&sandbox, &programs, job, index, multipliers);
                    eprintln!(
                        "{} {}: {}",
                        job.problem.id,
                        job.path.display(),
                        match &outcome.got {
                            Ok((verdict, ..)) if *verdict == job.expected =>
                                format!("{verdict} as expected"),
                            Ok((verdict, ..)) => format!("{verdict}, expected {}", job.expected),
                            Err(e) => format!("error: {e}"),
                        }
                    );
                    outcomes
                        .lock()
                        .unwrap_or_else(|e| e.into_inner())
                        .push((index, outcome));
                }
            });
        }
    });
    let mut outcomes = outcomes.into_inner().unwrap_or_else(|e| e.into_inner());
    outcomes.sort_by_key(|(index, _)| *index);
    if let Some(multipliers) = multipliers {
        return print_matrices(&problems, problems_dir, &outcomes, multipliers);
    }
    let mut table = Table::new();
    table.load_preset(UTF8_FULL_CONDENSED);
    table.set_header([
        "problem",
        "solution",
        "expected",
        "got",
        "max CPU ms",
        "max memory KiB",
        "judging ms (runs)",
        "note",
    ]);
    let mut mismatches = 0;
    for (_, outcome) in &outcomes {
        let file = outcome
            .path
            .strip_prefix(
                problems_dir
                    .join(outcome.problem.as_str())
                    .join("solutions"),
            )
            .unwrap_or(&outcome.path)
            .display()
            .to_string();
        let (got, cpu, memory, note) = match &outcome.got {
            Ok((verdict, message, cpu, memory)) => (
                verdict.to_string(),
                cpu.to_string(),
                memory.to_string(),
                message.clone().unwrap_or_default(),
            ),
            Err(e) => ("error".into(), String::new(), String::new(), e.clone()),
        };
        let matched = matches!(&outcome.got, Ok((v, ..)) if *v == outcome.expected);
        if !matched {
            mismatches += 1;
        }
        let note: String = note.chars().take(60).collect();
        table.add_row([
            outcome.problem.to_string(),
            file,
            outcome.expected.to_string(),
            if matched { got } else { format!("{got} ✗") },
            cpu,
            memory,
            format!(
                "{} ({})",
                outcome.judging.as_millis(),
                outcome.runs.as_millis()
            ),
            note,
        ]);
    }
    println!("{table}");
    println!(
        "{} of {} solutions got their expected verdict",
        outcomes.len() - mismatches,
        outcomes.len()
    );
    Ok(if mismatches == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(EXIT_NOT_ACCEPTED)
    })
}

fn judge(
    sandbox: &crate::sandbox::Sandbox,
    programs: &Programs,
    job: &Job<'_>,
    index: usize,
    matrix: Option<Multipliers>,
) -> Outcome {
    let started = std::time::Instant::now();
    let mut runs = std::time::Duration::ZERO;
    let mut cells = None;
    let limit_ms = u64::try_from(job.problem.time_limit_ms).unwrap_or(0);
    let time_limit = match matrix {
        Some(multipliers) => std::time::Duration::from_millis(
            u64::try_from(multipliers.raised_limit_ms(job.problem.time_limit_ms)).unwrap_or(0),
        ),
        None => std::time::Duration::from_millis(limit_ms),
    };
    let got = std::fs::read_to_string(&job.path)
        .map_err(|e| format!("cannot read the source: {e}"))
        .and_then(|source| {
            judge_program(&ProgramJob {
                sandbox,
                settings: &programs.settings,
                language: job.language,
                source: ProgramSource::Text(&source),
                limits: ProblemLimits {
                    time: time_limit,
                    memory_bytes: u64::try_from(job.problem.memory_limit_mib).unwrap_or(0) << 20,
                },
                testcases: job.testcases,
                judge_all: job.problem.judge_all || matrix.is_some(),
                case: Case::new(job.problem.case_sensitive),
                interactive: solver::find(job.problem.id.as_str()).filter(|s| s.interactive()),
                label: &format!("verify-{}-{index}", std::process::id()),
                progress: None,
            })
            .map_err(|e| e.to_string())
        })
        .map(|judged| {
            if matrix.is_some() {
                cells = Some(if judged.results.is_empty() {
                    Err(judged.verdict)
                } else {
                    Ok(judged.results.iter().map(Cell::from).collect())
                });
            }
            runs = judged
                .results
                .iter()
                .filter_map(|r| r.run.as_ref())
                .map(|r| std::time::Duration::from_millis(u64::try_from(r.wall_ms).unwrap_or(0)))
                .sum();
            let max = |f: fn(&crate::domain::RunUsage) -> i64| {
                judged
                    .results
                    .iter()
                    .filter_map(|r| r.run.as_ref())
                    .map(f)
                    .max()
                    .unwrap_or(0)
            };
            (
                judged.verdict,
                judged.message,
                max(|r| r.cpu_ms),
                max(|r| r.memory_kib),
            )
        });
    Outcome {
        problem: job.problem.id.clone(),
        path: job.path.clone(),
        expected: job.expected,
        got,
        cells,
        judging: started.elapsed(),
        runs,
    }
}

/// Prints each problem's matrix and its review; the exit status.
fn print_matrices(
    problems: &[(LoadedProblem, Vec<ProgramTestcase>)],
    problems_dir: &Path,
    outcomes: &[(usize, Outcome)],
    multipliers: Multipliers,
) -> anyhow::Result<ExitCode> {
    let mut errors = 0;
    for (problem, testcases) in problems {
        let limit_ms = problem.time_limit_ms;
        let solutions_dir = problems_dir.join(problem.id.as_str()).join("solutions");
        let mut rows = Vec::new();
        for (_, outcome) in outcomes.iter().filter(|(_, o)| o.problem == problem.id) {
            let solution = outcome
                .path
                .strip_prefix(&solutions_dir)
                .unwrap_or(&outcome.path)
                .display()
                .to_string();
            let cells = match (&outcome.cells, &outcome.got) {
                (Some(cells), _) => cells.clone(),
                (None, Err(e)) => bail!("{solution}: {e}"),
                (None, Ok(_)) => Err(Verdict::IE),
            };
            rows.push(Row {
                solution,
                expected: outcome.expected,
                cells,
            });
        }
        if rows.is_empty() {
            continue;
        }
        let raised_ms = multipliers.raised_limit_ms(limit_ms);
        let mut table = Table::new();
        table.load_preset(UTF8_FULL_CONDENSED);
        let mut header = vec![
            "solution".to_string(),
            "expected".to_string(),
            format!("at {limit_ms} ms"),
        ];
        header.extend(testcases.iter().map(|t| t.name.to_string()));
        table.set_header(header);
        for row in &rows {
            let at_limit = row.verdict_at(limit_ms);
            let mut line = vec![
                row.solution.clone(),
                row.expected.to_string(),
                if at_limit == row.expected {
                    at_limit.to_string()
                } else {
                    format!("{at_limit} ✗")
                },
            ];
            match &row.cells {
                Ok(cells) => line.extend(
                    cells
                        .iter()
                        .map(|c| format!("{} {}", c.verdict_at(limit_ms), c.cpu_ms)),
                ),
                Err(verdict) => line.extend(testcases.iter().map(|_| verdict.to_string())),
            }
            table.add_row(line);
        }
        println!(
            "{}: time limit {limit_ms} ms; every run under {raised_ms} ms (× {}); cells: verdict at the limit and CPU ms",
            problem.id, multipliers.time_limit_to_tle
        );
        println!("{table}");
        let review = matrix::review(&rows, limit_ms, raised_ms, multipliers.ac_to_time_limit);
        if let (Some((solution, slowest)), Some(computed)) =
            (&review.slowest_accepted, review.computed_limit_ms)
        {
            println!(
                "slowest accepted: {solution}, {slowest} ms; × {} = {} ms against the limit of {limit_ms} ms; problemtools would compute {} s",
                multipliers.ac_to_time_limit,
                (*slowest as f64 * multipliers.ac_to_time_limit).ceil(),
                computed / 1000
            );
        }
        for finding in &review.findings {
            let kind = if finding.is_error() {
                errors += 1;
                "error"
            } else {
                "warning"
            };
            println!("{kind}: {}", finding.describe(limit_ms, raised_ms));
        }
        println!();
    }
    println!(
        "{} {}",
        errors,
        if errors == 1 { "error" } else { "errors" }
    );
    Ok(if errors == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(EXIT_NOT_ACCEPTED)
    })
}

/// The problem's testcases in judging order with their reference outputs:
/// the folder's answer files, or the solver core's.
fn reference_testcases(problem: &LoadedProblem) -> anyhow::Result<Vec<ProgramTestcase>> {
    let solver = solver::find(problem.id.as_str());
    let mut testcases: Vec<_> = problem.testcases.iter().collect();
    testcases.sort_by_key(|t| (t.origin != TestcaseOrigin::Sample, t.name.clone()));
    testcases
        .into_iter()
        .map(|t| {
            let expected = match (&t.answer, solver) {
                (Some(answer), _) => Ok(answer.clone()),
                (None, Some(solver)) => solver.solve(&t.input).map_err(|e| e.to_string()),
                (None, None) => anyhow::bail!(
                    "testcase `{}`: no answer file and no solver registered for `{}`",
                    t.name,
                    problem.id
                ),
            };
            Ok(ProgramTestcase {
                name: t.name.clone(),
                hidden: false,
                input: t.input.clone(),
                expected,
            })
        })
        .collect()
}

/// Every problem folder's id, in name order.
pub(super) fn catalog_ids(problems_dir: &Path) -> anyhow::Result<Vec<ProblemId>> {
    let mut ids = Vec::new();
    for entry in std::fs::read_dir(problems_dir)
        .with_context(|| format!("cannot read {}", problems_dir.display()))?
    {
        let path = entry?.path();
        if path.join("problem.toml").is_file()
            && let Some(id) = path
                .file_name()
                .and_then(|n| n.to_str())
                .and_then(|n| n.parse().ok())
        {
            ids.push(id);
        }
    }
    ids.sort();
    Ok(ids)
}
