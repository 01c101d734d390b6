//! `nimjudge-bench`: the benchmarks, kept out of the product's binary. Each
//! command starts what it measures itself (a fresh server, a database of
//! synthetic history, the sandbox) from the library, and prints figures;
//! BENCHMARKS.md says which command gives which figure.
//!
//! `cargo run --release --bin nimjudge-bench -- <command> ...`
//!
//! # Layout
//! - [`load`]: `load`, the load benchmark (and `load-clients`, its clients
//!   in a process of their own); [`raw`]: its raw SQLite loop, the ceiling;
//!   [`database_cpu`]: the CPU time of PostgreSQL's backends.
//! - [`queries`]: `queries`, reads over a big database.
//! - [`pages`]: `pages`, the web UI's pages over a big database.
//! - [`sandbox`]: `sandbox`, what a run in the sandbox costs.
//! - [`scoreboard`]: `scoreboard`, a contest's scoreboard at its size;
//!   [`feed`]: `feed`, whether the Contest API's event feed keeps up.
//! - [`synthetic`]: the benchmarks' own SQL: synthetic histories and
//!   contests, and what only the load benchmark reads.
//! - [`interactive`]: `interactive`, a long interactive game against a bare
//!   ping-pong of its lines, and the judge's time a move.

mod database_cpu;
mod feed;
mod interactive;
mod load;
mod pages;
mod queries;
mod raw;
mod sandbox;
mod scoreboard;
mod synthetic;

use std::process::ExitCode;

use clap::{Parser, Subcommand};
use nimjudge::cli::block_on;

/// nimjudge's benchmarks, apart from the product's binary.
#[derive(Debug, Parser)]
#[command(name = "nimjudge-bench")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Load benchmark: a fresh server, K submissions from C clients, and the raw database ceiling.
    Load(load::BenchArgs),
    /// The load benchmark's clients, as `load` runs them in a process of their own.
    #[command(hide = true)]
    LoadClients(load::BenchLoadArgs),
    /// Read benchmark: list filters, a submission, metrics and health over N stored submissions.
    Queries(queries::BenchQueriesArgs),
    /// Page benchmark: the web UI's main pages, signed in, over N stored submissions.
    Pages(pages::BenchPagesArgs),
    /// Scoreboard benchmark: a contest's scoreboard over N submissions and U participants, and the cost of its cells to a verdict.
    Scoreboard(scoreboard::BenchScoreboardArgs),
    /// Event feed benchmark: a contest's Contest API feed read while R submissions a second are judged.
    Feed(feed::BenchFeedArgs),
    /// Time runs of /bin/true in the sandbox against a bare fork+exec.
    Sandbox(sandbox::BenchArgs),
    /// Long nim-play games in the sandbox against a bare pipe ping-pong of the same lines.
    Interactive(interactive::BenchArgs),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Load(args) => block_on(load::run(args)),
        Command::LoadClients(args) => block_on(load::load(args)),
        Command::Queries(args) => block_on(queries::run(args)),
        Command::Pages(args) => block_on(pages::run(args)),
        Command::Scoreboard(args) => block_on(scoreboard::run(args)),
        Command::Feed(args) => block_on(feed::run(args)),
        Command::Sandbox(args) => sandbox::bench(args),
        Command::Interactive(args) => interactive::bench(args),
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::from(2)
        }
    }
}
