//! `nimjudge-solve <problem>`: the solver core alone, as `nimjudge solve`
//! (an input on stdin, its reference output on stdout; an invalid input is
//! status 2 with one line saying what is wrong), in a binary that holds
//! nothing else: a tenth of the daemon's size, so it starts in a fraction
//! of the time, for scripts that solve many inputs one process each.

use std::process::ExitCode;

use nimjudge::cli::{EXIT_FAILURE, solve::solve_stdin};

fn main() -> ExitCode {
    let mut arguments = std::env::args().skip(1);
    let outcome = match (arguments.next(), arguments.next()) {
        (Some(problem), None) if !problem.starts_with('-') => solve_stdin(&problem),
        _ => Err(anyhow::anyhow!(
            "usage: nimjudge-solve <problem> < input (`nimjudge problems` lists the problems)"
        )),
    };
    match outcome {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::from(EXIT_FAILURE)
        }
    }
}
