//! The solver commands: `problems`, `solve`, `check` and `generate`. They use
//! the solver core alone: no daemon, no database.

use std::{
    io::{self, Read, Write},
    path::{Path, PathBuf},
    process::ExitCode,
};

use anyhow::{Context, bail};
use clap::Args;

use super::EXIT_NOT_ACCEPTED;
use crate::{
    checker::{self, Comparison},
    solver::{self, Solver, TestKind},
};

#[derive(Debug, Args)]
pub struct SolveArgs {
    /// Problem id, e.g. `nim` or `xy-game`.
    pub problem: String,
}

#[derive(Debug, Args)]
pub struct CheckArgs {
    /// Problem id.
    pub problem: String,
    /// The input file.
    #[arg(long)]
    pub input: PathBuf,
    /// The candidate output file.
    #[arg(long)]
    pub output: PathBuf,
}

#[derive(Debug, Args)]
pub struct GenerateArgs {
    /// Problem id.
    pub problem: String,
    /// small, edge, random or max.
    #[arg(long)]
    pub kind: TestKind,
    /// Seed of the generator.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
}

fn find(problem: &str) -> anyhow::Result<&'static dyn Solver> {
    solver::find(problem).with_context(|| {
        let known: Vec<_> = solver::solvers().iter().map(|s| s.id()).collect();
        format!("unknown problem `{problem}` (known: {})", known.join(", "))
    })
}

/// The largest input the commands read. No hosted problem has a valid input
/// near it (the largest bundled one, constrained-nim's edge-1, is 11.4 MB),
/// so a larger one is refused before it is read whole.
const INPUT_LIMIT_BYTES: u64 = 64 << 20;

/// Reads an input of at most [`INPUT_LIMIT_BYTES`]; `what` names it in errors.
fn read_input(reader: impl Read, what: &str) -> anyhow::Result<String> {
    let mut bytes = Vec::new();
    reader
        .take(INPUT_LIMIT_BYTES + 1)
        .read_to_end(&mut bytes)
        .with_context(|| format!("cannot read {what}"))?;
    if bytes.len() as u64 > INPUT_LIMIT_BYTES {
        bail!(
            "{what} is larger than {INPUT_LIMIT_BYTES} bytes, the largest input accepted \
             (no problem has a valid input that large)"
        );
    }
    String::from_utf8(bytes).map_err(|e| {
        anyhow::anyhow!(
            "{what} is not UTF-8 text (invalid byte at offset {})",
            e.utf8_error().valid_up_to()
        )
    })
}

fn read_file(path: &Path) -> anyhow::Result<String> {
    let file =
        std::fs::File::open(path).with_context(|| format!("cannot open {}", path.display()))?;
    read_input(file, &path.display().to_string())
}

fn print(text: &str) -> anyhow::Result<()> {
    let mut out = io::stdout().lock();
    out.write_all(text.as_bytes())
        .and_then(|()| out.flush())
        .context("cannot write to stdout")
}

/// `nimjudge problems`: one id per line.
pub fn problems() -> anyhow::Result<ExitCode> {
    let ids: String = solver::solvers()
        .iter()
        .map(|s| format!("{}\n", s.id()))
        .collect();
    print(&ids)?;
    Ok(ExitCode::SUCCESS)
}

/// `nimjudge solve <id>`: stdin to the reference output.
pub fn solve(args: SolveArgs) -> anyhow::Result<ExitCode> {
    solve_stdin(&args.problem)
}

/// Reads an input of `problem` on stdin and prints its reference output:
/// `nimjudge solve`, and the whole of the small `nimjudge-solve` binary.
pub fn solve_stdin(problem: &str) -> anyhow::Result<ExitCode> {
    let solver = find(problem)?;
    let input = read_input(io::stdin().lock(), "stdin")?;
    let output = match solver.solve(&input) {
        Ok(output) => output,
        Err(e) => bail!("invalid input: {e}"),
    };
    print(&output)?;
    Ok(ExitCode::SUCCESS)
}

/// `nimjudge check <id> --input F --output F`: AC, or WA and status 1.
pub fn check(args: CheckArgs) -> anyhow::Result<ExitCode> {
    let solver = find(&args.problem)?;
    let input = read_file(&args.input)?;
    let expected = match solver.solve(&input) {
        Ok(expected) => expected,
        Err(e) => bail!("invalid input: {e}"),
    };
    // The candidate is streamed: any size, any bytes (not UTF-8 is a WA).
    let candidate = std::fs::File::open(&args.output)
        .with_context(|| format!("cannot open {}", args.output.display()))?;
    let comparison = checker::compare_reader(&expected, candidate)
        .with_context(|| format!("cannot read {}", args.output.display()))?;
    match comparison {
        Comparison::Accepted => {
            print("AC\n")?;
            Ok(ExitCode::SUCCESS)
        }
        Comparison::WrongAnswer(difference) => {
            print(&format!("WA {difference}\n"))?;
            Ok(ExitCode::from(EXIT_NOT_ACCEPTED))
        }
    }
}

/// `nimjudge generate <id> --kind K --seed S`.
pub fn generate(args: GenerateArgs) -> anyhow::Result<ExitCode> {
    let solver = find(&args.problem)?;
    print(&solver.generate(args.kind, args.seed))?;
    Ok(ExitCode::SUCCESS)
}
