//! The `nimjudge` binary: parse the command line and hand over to the library.

use std::process::ExitCode;

use clap::Parser;
use nimjudge::cli::{Cli, run};

fn main() -> ExitCode {
    run(Cli::parse())
}
