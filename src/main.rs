//! The `nimjudge` binary: parse the command line and hand over to the library.

use std::process::ExitCode;

use clap::Parser;
use nimjudge::{
    cli::{Cli, Command, run_offline},
    daemon_cli,
};

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Command::Daemon(command) => daemon_cli::run(command),
        offline => run_offline(offline),
    }
}
