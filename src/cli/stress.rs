//! `nimjudge stress`: a setter's solution against the solver core on
//! generated inputs, in the sandbox, until they disagree or the budget is
//! spent; the failing input is then shrunk (see [`crate::app::stress`]).
//! Exit status 1 when a disagreement is found, 0 when none is.

use std::{ops::RangeInclusive, path::PathBuf, process::ExitCode, time::Duration};

use anyhow::{Context, bail};
use clap::Args;

use super::{EXIT_NOT_ACCEPTED, local::LocalProgram};
use crate::{
    app::{
        stress::{Failed, StressPlan, stress},
        worker::program::{Compilation, ProgramJob, ProgramSource, ProgramTestcase, compile},
    },
    domain::{StressFailure, TestcaseName, Verdict},
    solver::{self, TestKind},
};

#[derive(Debug, Args)]
pub struct StressArgs {
    /// Problem id.
    pub problem: String,
    /// The solution's source; its extension names the language (`.cpp`, `.py`, `.rs`).
    pub solution: PathBuf,
    /// Generator kinds to try, each seed in turn (default: all four).
    #[arg(long = "kind", value_name = "KIND")]
    pub kinds: Vec<TestKind>,
    /// Seeds, `A..B` (both included).
    #[arg(long, default_value = "1..1000", value_parser = parse_seeds)]
    pub seeds: RangeInclusive<u64>,
    /// Seconds for the search, and again at most for shrinking.
    #[arg(long, default_value_t = 60)]
    pub budget: u64,
    /// Settings file (default: config.toml in the working directory, if present).
    #[arg(long)]
    pub config: Option<PathBuf>,
}

fn parse_seeds(text: &str) -> Result<RangeInclusive<u64>, String> {
    let (from, to) = text
        .split_once("..")
        .ok_or_else(|| format!("`{text}` is not a range of seeds such as 1..1000"))?;
    let number = |part: &str| {
        part.trim()
            .parse::<u64>()
            .map_err(|e| format!("`{part}` in `{text}`: {e}"))
    };
    let (from, to) = (number(from)?, number(to)?);
    if from > to {
        return Err(format!("`{text}` is empty: {from} is above {to}"));
    }
    Ok(from..=to)
}

pub fn run(args: StressArgs) -> anyhow::Result<ExitCode> {
    let solver = solver::find(&args.problem)
        .with_context(|| format!("unknown problem `{}`", args.problem))?;
    let local = LocalProgram::load(args.config.as_deref(), &args.problem, &args.solution)?;
    let kinds = if args.kinds.is_empty() {
        TestKind::ALL.to_vec()
    } else {
        args.kinds.clone()
    };
    let job = ProgramJob {
        sandbox: &local.judge.sandbox,
        settings: &local.judge.programs.settings,
        language: local.language()?,
        source: ProgramSource::Text(&local.source),
        limits: local.judge.limits,
        testcases: &[],
        judge_all: false,
        case: crate::checker::Case::Sensitive,
        interactive: Some(solver).filter(|s| s.interactive()),
        label: &format!("stress-{}", std::process::id()),
        progress: None,
    };
    let compiled = match compile(&job)? {
        Compilation::Ready(compiled) => compiled,
        Compilation::Failed(judgement) => {
            if let Some(output) = &judgement.compile_output {
                eprintln!("{output}");
            }
            bail!(
                "{} does not compile: {}",
                args.solution.display(),
                judgement.message.unwrap_or_default()
            );
        }
    };
    let plan = StressPlan {
        kinds,
        seeds: args.seeds.clone(),
        budget: Duration::from_secs(args.budget),
    };
    eprintln!(
        "stress {} {}: seeds {}..{}, kinds {}, budget {} s",
        args.problem,
        args.solution.display(),
        plan.seeds.start(),
        plan.seeds.end(),
        plan.kinds
            .iter()
            .map(|k| k.as_str())
            .collect::<Vec<_>>()
            .join(", "),
        args.budget
    );
    let name: TestcaseName = "stress".parse().map_err(anyhow::Error::msg)?;
    let report = stress(solver, &plan, |input| {
        let testcase = ProgramTestcase {
            name: name.clone(),
            hidden: false,
            input: input.to_string(),
            expected: solver.solve(input).map_err(|e| e.to_string()),
        };
        let result = compiled.run(&testcase)?;
        Ok::<_, crate::sandbox::SandboxError>((result.verdict != Verdict::AC).then_some(Failed {
            verdict: result.verdict,
            message: result.message,
        }))
    })?;
    let Some(found) = &report.found else {
        println!(
            "no disagreement in {} runs{}",
            report.runs,
            if report.out_of_time {
                " (the budget ran out before the seeds)"
            } else {
                ""
            }
        );
        return Ok(ExitCode::SUCCESS);
    };
    println!(
        "disagreement after {} runs: {}",
        report.runs,
        StressFailure::from(found).describe()
    );
    if let Some((shrunk, runs)) = &report.shrunk {
        println!(
            "shrunk in {runs} more runs to {} bytes: {}",
            shrunk.input.len(),
            StressFailure::from(shrunk).describe()
        );
        println!("--- input");
        print!("{}", shrunk.input);
        if !shrunk.input.ends_with('\n') {
            println!();
        }
        println!("--- expected (the solver core)");
        print!("{}", solver.solve(&shrunk.input).unwrap_or_default());
    }
    Ok(ExitCode::from(EXIT_NOT_ACCEPTED))
}
