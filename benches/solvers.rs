//! Solver benchmark: for every problem, parse its maximum-size input alone,
//! then solve the parsed input alone, and report both with their ratio.
//!
//! Run with `cargo bench --bench solvers`. Each figure is the median of
//! several timed runs after one warm-up. Not part of the test suite.

use std::{
    hint::black_box,
    time::{Duration, Instant},
};

use nimjudge::solver::{self, Problem, ProblemVisitor, TestKind};

const RUNS: usize = 15;

fn median(mut samples: Vec<Duration>) -> Duration {
    samples.sort_unstable();
    samples[samples.len() / 2]
}

fn time<T>(mut f: impl FnMut() -> T) -> Duration {
    black_box(f());
    median(
        (0..RUNS)
            .map(|_| {
                let start = Instant::now();
                black_box(f());
                start.elapsed()
            })
            .collect(),
    )
}

/// Prints one table row per problem it visits.
struct BenchTable;

impl ProblemVisitor for BenchTable {
    fn visit<P: Problem>(&mut self) {
        bench::<P>();
    }
}

fn bench<P: Problem>() {
    // The same text as the bundled `max-1` testcase.
    let text = match solver::find(P::ID) {
        Some(solver) => solver.generate(TestKind::Max, 1),
        None => return,
    };
    let input = match P::parse(&text) {
        Ok(input) => input,
        Err(e) => {
            println!(
                "| {} | generator produced an invalid max input: {e} |",
                P::ID
            );
            return;
        }
    };
    let parse = time(|| P::parse(black_box(&text)).is_ok());
    let solve = time(|| P::solve(black_box(&input)));
    let format = time(|| P::format(&P::solve(&input)).len()).saturating_sub(solve);
    let mb = text.len() as f64 / 1e6;
    println!(
        "| {} | {:.2} | {:.3} | {:.0} | {:.3} | {:.3} | {:.2} |",
        P::ID,
        mb,
        parse.as_secs_f64() * 1e3,
        mb / parse.as_secs_f64(),
        solve.as_secs_f64() * 1e3,
        format.as_secs_f64() * 1e3,
        solve.as_secs_f64() / parse.as_secs_f64(),
    );
}

fn main() {
    // `cargo bench` passes `--bench`; a filter argument is not supported.
    println!(
        "| problem | input MB | parse ms | parse MB/s | solve ms | format ms | solve / parse |"
    );
    println!("|---|---:|---:|---:|---:|---:|---:|");
    solver::for_each_problem(&mut BenchTable);
}
