//! The `nimjudge` binary: parse the command line and hand over to the library.

use std::process::ExitCode;

use clap::Parser;
use nimjudge::cli::{Cli, run_offline};

fn main() -> ExitCode {
    let cli = Cli::parse();
    run_offline(cli.command)
}
