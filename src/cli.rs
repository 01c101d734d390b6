//! The command line: argument definitions and the offline commands.
//!
//! `solve`, `check`, `generate` and `problems` work on the solver core alone,
//! with no daemon and no database. Daemon commands live in their own modules
//! and are only dispatched from here.

use std::{
    io::{self, Read, Write},
    path::PathBuf,
    process::ExitCode,
};

use clap::{Parser, Subcommand};

use crate::{
    checker::{self, Comparison},
    solver::{self, Solver, TestKind},
};

/// nimjudge: an online judge for combinatorial-game contest problems.
#[derive(Debug, Parser)]
#[command(name = "nimjudge", version, about)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// List the hosted problems.
    Problems,
    /// Read an input on stdin and print the reference output.
    Solve {
        /// Problem id, e.g. `nim` or `xy-game`.
        problem: String,
    },
    /// Judge a candidate output: prints AC, or WA with the first differing token.
    Check {
        /// Problem id.
        problem: String,
        /// The input file.
        #[arg(long)]
        input: PathBuf,
        /// The candidate output file.
        #[arg(long)]
        output: PathBuf,
    },
    /// Print a valid input of the given kind, the same for the same seed.
    Generate {
        /// Problem id.
        problem: String,
        /// small, edge, random or max.
        #[arg(long)]
        kind: TestKind,
        /// Seed of the generator.
        #[arg(long, default_value_t = 1)]
        seed: u64,
    },
    /// The grading daemon and its tools: serve, token, log, submit, status, bench.
    #[command(flatten)]
    Daemon(crate::daemon_cli::DaemonCommand),
}

/// Exit status for a usage error or an invalid input.
const EXIT_INVALID: u8 = 2;
/// Exit status of `check` for a wrong answer.
const EXIT_WRONG_ANSWER: u8 = 1;

/// Runs one offline command. Errors are printed as one line on stderr.
pub fn run_offline(command: Command) -> ExitCode {
    match offline(command) {
        Ok(code) => code,
        Err(message) => {
            eprintln!("error: {message}");
            ExitCode::from(EXIT_INVALID)
        }
    }
}

fn find(problem: &str) -> Result<&'static dyn Solver, String> {
    solver::find(problem).ok_or_else(|| {
        let known: Vec<_> = solver::solvers().iter().map(|s| s.id()).collect();
        format!("unknown problem `{problem}` (known: {})", known.join(", "))
    })
}

fn read_file(path: &PathBuf) -> Result<String, String> {
    std::fs::read_to_string(path).map_err(|e| format!("cannot read {}: {e}", path.display()))
}

fn offline(command: Command) -> Result<ExitCode, String> {
    let mut stdout = io::stdout().lock();
    let write = |out: &mut io::StdoutLock, text: &str| {
        out.write_all(text.as_bytes())
            .and_then(|()| out.flush())
            .map_err(|e| format!("cannot write to stdout: {e}"))
    };
    match command {
        Command::Problems => {
            let ids: String = solver::solvers()
                .iter()
                .map(|s| format!("{}\n", s.id()))
                .collect();
            write(&mut stdout, &ids)?;
        }
        Command::Solve { problem } => {
            let solver = find(&problem)?;
            let mut input = String::new();
            io::stdin()
                .read_to_string(&mut input)
                .map_err(|e| format!("cannot read stdin: {e}"))?;
            let output = solver
                .solve(&input)
                .map_err(|e| format!("invalid input: {e}"))?;
            write(&mut stdout, &output)?;
        }
        Command::Check {
            problem,
            input,
            output,
        } => {
            let solver = find(&problem)?;
            let input = read_file(&input)?;
            let candidate = read_file(&output)?;
            let expected = solver
                .solve(&input)
                .map_err(|e| format!("invalid input: {e}"))?;
            match checker::compare(&expected, &candidate) {
                Comparison::Accepted => write(&mut stdout, "AC\n")?,
                Comparison::WrongAnswer(difference) => {
                    write(&mut stdout, &format!("WA {difference}\n"))?;
                    return Ok(ExitCode::from(EXIT_WRONG_ANSWER));
                }
            }
        }
        Command::Generate {
            problem,
            kind,
            seed,
        } => {
            let solver = find(&problem)?;
            write(&mut stdout, &solver.generate(kind, seed))?;
        }
        Command::Daemon(_) => return Err("daemon commands are run by main, not here".into()),
    }
    Ok(ExitCode::SUCCESS)
}
