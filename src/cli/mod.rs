//! The command line: argument definitions and one module per command group.
//!
//! The solver commands (`problems`, `solve`, `check`, `generate`) work on the
//! solver core alone, with no daemon and no database. `serve` runs the
//! daemon and `worker` a host of workers only; `token` and `log` open its
//! database; `submit` and `status` talk to a running server; `sandbox check`
//! and `verify` run programs in the sandbox, with no daemon. The benchmarks
//! are a binary of their own, `nimjudge-bench` (`src/bin/nimjudge-bench/`). Every command prints its
//! error as one line on stderr and exits with status 2 (1 means "not AC").
//!
//! # Layout
//! - [`solve`]: the solver commands.
//! - [`serve`]: running the daemon, in either role.
//! - [`token`]: `token create`, `token list` and `token revoke`.
//! - [`log`]: `log`, the reviewers' view of the database.
//! - [`submit`]: `submit` and `status`.
//! - [`contest`]: `contest put`, `list`, `scoreboard`, `register`, `thaw`.
//! - [`sandbox`]: `sandbox check`.
//! - [`verify`]: `verify`, the setter solutions through the sandbox.
//! - [`export`] and [`import`]: Kattis problem packages out and in.
//! - [`interact`]: `interact`, one program against an interactive judge.
//! - [`play`]: `play`, a person against the judge in a terminal.
//! - [`client`]: the typed HTTP client (the benchmarks' clients use it too).
//! - [`tables`]: tables for people.

pub mod client;
pub mod contest;
pub mod export;
pub mod import;
pub mod interact;
mod local;
pub mod log;
pub mod play;
pub mod sandbox;
pub mod serve;
pub mod solve;
pub mod stress;
pub mod submit;
pub mod tables;
pub mod token;
pub mod verify;

use std::{future::Future, path::PathBuf, process::ExitCode};

use clap::{Args, Parser, Subcommand};

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
    Solve(solve::SolveArgs),
    /// Judge a candidate output: prints AC, or WA with the first differing token.
    Check(solve::CheckArgs),
    /// Print a valid input of the given kind, the same for the same seed.
    Generate(solve::GenerateArgs),
    /// Run the grading daemon: HTTP API, web UI and workers (`--workers 0`: API only).
    Serve(serve::ServeArgs),
    /// Run workers only, no HTTP: a judge host on a shared (PostgreSQL) database.
    Worker(serve::ServeArgs),
    /// Contests over the API: put (admins), list, scoreboard, register, thaw.
    Contest {
        #[command(subcommand)]
        action: contest::ContestAction,
    },
    /// Manage API tokens.
    Token {
        #[command(subcommand)]
        action: token::TokenAction,
    },
    /// Print submissions (or one submission's results and events) from the database.
    Log(log::LogArgs),
    /// Submit a folder of answers (one file per testcase) and wait for the verdict.
    Submit(submit::SubmitArgs),
    /// Wait for and print the verdict of an existing submission.
    Status(submit::StatusArgs),
    /// List your submissions on the server (setters and admins: everyone's), newest first.
    Submissions(submit::SubmissionsArgs),
    /// Download a problem's public inputs, `<testcase>.in` each, into the folder
    /// `submit --answers` reads (write your `<testcase>.out` files beside them).
    Inputs(submit::InputsArgs),
    /// What the program sandbox can do on this host.
    Sandbox {
        #[command(subcommand)]
        action: sandbox::SandboxAction,
    },
    /// Judge every setter solution (problems/<id>/solutions/<verdict>/) in the
    /// sandbox; fails if any gets another verdict than its folder names.
    Verify(verify::VerifyArgs),
    /// Run a solution against the solver core on generated inputs in the
    /// sandbox until they disagree, then shrink the failing input.
    Stress(stress::StressArgs),
    /// Write problems out as Kattis problem packages (legacy format), answers
    /// from the solver core.
    Export(export::ExportArgs),
    /// Bring a Kattis problem package (a folder) into the catalog folder as a
    /// problem judged by the package's answer files.
    Import(import::ImportArgs),
    /// Run one program against an interactive problem's judge on one input,
    /// in the sandbox, and print the transcript and the verdict.
    Interact(interact::InteractArgs),
    /// Play an interactive problem's game against the judge in the terminal,
    /// with explanations (`?`).
    Play(play::PlayArgs),
}

/// `--config FILE`, for the commands that read the daemon's settings.
#[derive(Debug, Args)]
pub struct ConfigArg {
    /// Settings file (default: config.toml in the working directory, if present).
    #[arg(long)]
    pub config: Option<PathBuf>,
}

/// Exit status for a usage error, an invalid input or a failure.
pub const EXIT_FAILURE: u8 = 2;
/// Exit status for a verdict other than AC.
pub const EXIT_NOT_ACCEPTED: u8 = 1;

/// Runs one command and returns the process's exit status.
pub fn run(cli: Cli) -> ExitCode {
    let outcome = match cli.command {
        Command::Problems => solve::problems(),
        Command::Solve(args) => solve::solve(args),
        Command::Check(args) => solve::check(args),
        Command::Generate(args) => solve::generate(args),
        Command::Serve(args) => block_on(serve::serve(args)),
        Command::Worker(args) => block_on(serve::worker(args)),
        Command::Token { action } => block_on(token::run(action)),
        Command::Contest { action } => block_on(contest::run(action)),
        Command::Log(args) => block_on(log::run(args)),
        Command::Submit(args) => block_on(submit::submit(args)),
        Command::Status(args) => block_on(submit::status(args)),
        Command::Submissions(args) => block_on(submit::submissions(args)),
        Command::Inputs(args) => block_on(submit::inputs(args)),
        Command::Sandbox { action } => sandbox::run(action),
        Command::Verify(args) => verify::run(args),
        Command::Stress(args) => stress::run(args),
        Command::Export(args) => export::run(args),
        Command::Import(args) => import::run(args),
        Command::Interact(args) => interact::run(args),
        Command::Play(args) => play::run(args),
    };
    match outcome {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::from(EXIT_FAILURE)
        }
    }
}

/// Runs an async command on a fresh multi-threaded runtime (the
/// benchmarks' binary uses it too).
pub fn block_on(
    command: impl Future<Output = anyhow::Result<ExitCode>>,
) -> anyhow::Result<ExitCode> {
    tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| anyhow::anyhow!("cannot start the runtime: {e}"))?
        .block_on(command)
}
