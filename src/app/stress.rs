//! Stress testing a setter's solution against the solver core: generated
//! inputs, seed after seed, until the solution disagrees or the budget is
//! spent; then the failing input is shrunk.
//!
//! Shrinking has two steps. First the generator's own: the search goes on
//! for as many runs again (at least [`MIN_GENERATOR_SHRINK_RUNS`]), over
//! the kinds no larger than the one that failed, running only inputs
//! shorter than the best so far and keeping the shortest that fails. Then number by number: each number of that input is
//! made as small as it can be (0, 1, then halving) while the input stays
//! valid for the problem's own validator and the solution still fails.
//!
//! The search and the shrinking are pure over `check`, which runs the
//! solution on one input and says whether it failed: the sandbox in
//! `nimjudge stress` and a worker running a stress test a setter started
//! from the web ([`App::start_stress_run`](super::App::start_stress_run)),
//! a closure in the tests.

use std::{
    ops::RangeInclusive,
    time::{Duration, Instant},
};

use crate::{
    domain::Verdict,
    solver::{Solver, TestKind},
};

/// Runs of the generator's shrinking, at least.
pub const MIN_GENERATOR_SHRINK_RUNS: usize = 100;
/// Runs of the number-by-number shrinking, at most.
pub const MAX_NUMBER_SHRINK_RUNS: usize = 400;

/// What to try.
#[derive(Debug, Clone)]
pub struct StressPlan {
    /// The generator kinds, each seed trying them in this order.
    pub kinds: Vec<TestKind>,
    pub seeds: RangeInclusive<u64>,
    /// Wall-clock time for the search, and again at most for shrinking.
    pub budget: Duration,
}

/// How a solution failed on one input.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Failed {
    pub verdict: Verdict,
    pub message: Option<String>,
}

/// A failing input.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Failure {
    /// The generator's kind and seed, where the input is the generator's
    /// own (not after shrinking numbers).
    pub generated: Option<(TestKind, u64)>,
    pub input: String,
    pub failed: Failed,
}

impl From<&Failure> for crate::domain::StressFailure {
    fn from(failure: &Failure) -> Self {
        crate::domain::StressFailure {
            generated: failure.generated,
            input: failure.input.clone(),
            verdict: failure.failed.verdict,
            message: failure.failed.message.clone(),
        }
    }
}

/// What a stress test found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StressReport {
    /// Runs of the solution in the search.
    pub runs: usize,
    /// The first failing input found.
    pub found: Option<Failure>,
    /// The smallest failing input shrinking reached, and its runs.
    pub shrunk: Option<(Failure, usize)>,
    /// The search stopped at the budget before the seeds ran out.
    pub out_of_time: bool,
}

/// The kinds from the smallest inputs to the largest.
fn size_rank(kind: TestKind) -> u8 {
    match kind {
        TestKind::Small => 0,
        TestKind::Edge => 1,
        TestKind::Random => 2,
        TestKind::Max => 3,
    }
}

/// Searches `plan`'s seeds and kinds for an input on which `check` says
/// the solution fails, then shrinks it. `check` answers `Ok(None)` when
/// the solution agrees with the solver core; its `Err` (the sandbox's
/// failure) ends the test.
pub fn stress<E>(
    solver: &dyn Solver,
    plan: &StressPlan,
    mut check: impl FnMut(&str) -> Result<Option<Failed>, E>,
) -> Result<StressReport, E> {
    let started = Instant::now();
    let mut runs = 0;
    let mut pairs = plan
        .seeds
        .clone()
        .flat_map(|seed| plan.kinds.iter().map(move |&kind| (kind, seed)));
    let mut found = None;
    let mut out_of_time = false;
    for (kind, seed) in pairs.by_ref() {
        if started.elapsed() >= plan.budget {
            out_of_time = true;
            break;
        }
        let input = solver.generate(kind, seed);
        runs += 1;
        if let Some(failed) = check(&input)? {
            found = Some(Failure {
                generated: Some((kind, seed)),
                input,
                failed,
            });
            break;
        }
    }
    let Some(first) = found.clone() else {
        return Ok(StressReport {
            runs,
            found: None,
            shrunk: None,
            out_of_time,
        });
    };

    // The generator's shrinking: the same search, on, over kinds no larger.
    let shrinking = Instant::now();
    let within = |at: &Instant| at.elapsed() < plan.budget;
    let largest = first.generated.map_or(u8::MAX, |(kind, _)| size_rank(kind));
    let mut best = first.clone();
    let mut shrink_runs = 0;
    let generator_runs = runs.max(MIN_GENERATOR_SHRINK_RUNS);
    // Inputs no shorter than the best are not run, but their making counts
    // too, so a long range of seeds ends.
    let generated_at_most = generator_runs * 20;
    for (made, (kind, seed)) in pairs
        .filter(|(kind, _)| size_rank(*kind) <= largest)
        .enumerate()
    {
        if shrink_runs >= generator_runs || made >= generated_at_most || !within(&shrinking) {
            break;
        }
        let input = solver.generate(kind, seed);
        if input.len() >= best.input.len() {
            continue;
        }
        shrink_runs += 1;
        if let Some(failed) = check(&input)? {
            best = Failure {
                generated: Some((kind, seed)),
                input,
                failed,
            };
        }
    }

    // Number by number.
    let mut number_runs = 0;
    let mut index = 0;
    loop {
        let Some(span) = number_spans(&best.input).nth(index) else {
            break;
        };
        let value: u128 = best.input[span.clone()].parse().unwrap_or(0);
        let mut candidates = vec![0, 1];
        let mut half = value / 2;
        while half > 1 {
            candidates.push(half);
            half /= 2;
        }
        for candidate in candidates.into_iter().filter(|&c| c < value) {
            if number_runs >= MAX_NUMBER_SHRINK_RUNS || !within(&shrinking) {
                break;
            }
            let input = format!(
                "{}{candidate}{}",
                &best.input[..span.start],
                &best.input[span.end..]
            );
            if solver.validate(&input).is_err() {
                continue;
            }
            number_runs += 1;
            if let Some(failed) = check(&input)? {
                best = Failure {
                    generated: None,
                    input,
                    failed,
                };
                break;
            }
        }
        index += 1;
    }
    Ok(StressReport {
        runs,
        found: Some(first),
        shrunk: Some((best, shrink_runs + number_runs)),
        out_of_time,
    })
}

/// The byte ranges of the whole non-negative numbers of `text`, in order
/// (not digits inside a word, a decimal or a negative number).
fn number_spans(text: &str) -> impl Iterator<Item = std::ops::Range<usize>> + '_ {
    let bytes = text.as_bytes();
    let mut at = 0;
    std::iter::from_fn(move || {
        while at < bytes.len() {
            let starts = at == 0
                || !(bytes[at - 1].is_ascii_alphanumeric() || b".-".contains(&bytes[at - 1]));
            if bytes[at].is_ascii_digit() && starts {
                let start = at;
                while at < bytes.len() && bytes[at].is_ascii_digit() {
                    at += 1;
                }
                let followed = bytes
                    .get(at)
                    .is_some_and(|b| b.is_ascii_alphabetic() || *b == b'.');
                if !followed {
                    return Some(start..at);
                }
            }
            at += 1;
        }
        None
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver;

    fn nim() -> &'static dyn Solver {
        solver::find("nim").expect("nim is hosted")
    }

    /// A nim "solution" with a planted bug: it answers the wrong player
    /// whenever there are exactly seven piles, which the random kind (1 to
    /// 1,000 piles) makes about once in a thousand inputs.
    fn planted(input: &str) -> Result<Option<Failed>, std::convert::Infallible> {
        let expected = nim().solve(input).expect("a valid input");
        let n: usize = input.split_whitespace().next().unwrap().parse().unwrap();
        let answer = if n == 7 {
            if expected.trim() == "Alice" {
                "Bob"
            } else {
                "Alice"
            }
        } else {
            expected.trim()
        };
        Ok((answer != expected.trim()).then(|| Failed {
            verdict: Verdict::WA,
            message: Some(format!("expected {}, got {answer}", expected.trim())),
        }))
    }

    fn plan(seeds: RangeInclusive<u64>) -> StressPlan {
        StressPlan {
            kinds: vec![TestKind::Small, TestKind::Random],
            seeds,
            budget: Duration::from_secs(600),
        }
    }

    #[test]
    fn a_planted_bug_of_rare_seeds_is_found_and_shrunk_to_seven_zeros() {
        let report = stress(nim(), &plan(1..=20_000), planted).unwrap();
        let found = report.found.expect("the planted bug is found");
        let (kind, seed) = found.generated.unwrap();
        assert_eq!(kind, TestKind::Random);
        // Every input before it was tried and agreed: the search is in
        // order, two kinds a seed.
        assert_eq!(report.runs as u64, (seed - 1) * 2 + 2);
        assert!(report.runs > 100, "rare: {} runs", report.runs);
        let (shrunk, shrink_runs) = report.shrunk.expect("shrunk");
        assert!(shrink_runs > 0);
        assert_eq!(shrunk.input, "7\n0 0 0 0 0 0 0\n");
        assert_eq!(shrunk.generated, None);
        assert_eq!(shrunk.failed.verdict, Verdict::WA);
        assert!(!report.out_of_time);
    }

    #[test]
    fn a_correct_solution_runs_every_seed_and_kind() {
        let report = stress(nim(), &plan(1..=50), |input| {
            Ok::<_, std::convert::Infallible>((nim().solve(input).is_err()).then_some(Failed {
                verdict: Verdict::WA,
                message: None,
            }))
        })
        .unwrap();
        assert_eq!(report.runs, 100);
        assert_eq!(report.found, None);
        assert_eq!(report.shrunk, None);
    }

    #[test]
    fn the_budget_stops_the_search_and_the_checks_error_ends_it() {
        let report = stress(
            nim(),
            &StressPlan {
                budget: Duration::ZERO,
                ..plan(1..=50)
            },
            planted,
        )
        .unwrap();
        assert_eq!(report.runs, 0);
        assert!(report.out_of_time);
        let error = stress(nim(), &plan(1..=50), |_| Err("the sandbox failed"));
        assert_eq!(error, Err("the sandbox failed"));
    }

    #[test]
    fn numbers_are_found_by_their_spans_and_not_inside_words_or_decimals() {
        let text = "3\n10 0 7x 2.5 a1 42\n";
        let numbers: Vec<&str> = number_spans(text).map(|s| &text[s]).collect();
        assert_eq!(numbers, ["3", "10", "0", "42"]);
        let text = "-4 5";
        let numbers: Vec<&str> = number_spans(text).map(|s| &text[s]).collect();
        assert_eq!(numbers, ["5"]);
    }
}

/// A stress test as a setter asks for it from the web.
#[derive(Debug, Clone)]
pub struct StressRequest {
    pub language: crate::domain::LanguageId,
    pub source: String,
    /// In the order each seed tries them; all four when empty.
    pub kinds: Vec<TestKind>,
    pub seeds: RangeInclusive<u64>,
    pub budget: Duration,
}

impl super::App {
    /// Queues a stress test of a setter's solution for a worker with the
    /// sandbox (setters and admins): a problem with a solver core, a
    /// source, a known language, seeds in order and a budget of at most
    /// [`MAX_STRESS_BUDGET_MS`](super::worker::stress_job::MAX_STRESS_BUDGET_MS).
    pub async fn start_stress_run(
        &self,
        caller: &super::Caller,
        problem: &crate::domain::ProblemId,
        request: StressRequest,
    ) -> Result<crate::domain::StressRun, super::AppError> {
        use super::{AppError, worker::stress_job::MAX_STRESS_BUDGET_MS};
        caller.require_staff()?;
        self.problem(caller, problem).await?;
        if crate::solver::find(problem.as_str()).is_none() {
            return Err(AppError::Conflict(format!(
                "problem `{problem}` has no solver core to compare a solution with"
            )));
        }
        if request.source.trim().is_empty() {
            return Err(AppError::Invalid("the solution's source is empty".into()));
        }
        if request.seeds.is_empty() {
            return Err(AppError::Invalid(format!(
                "the seeds {}..{} are empty: the first must not be above the last",
                request.seeds.start(),
                request.seeds.end()
            )));
        }
        if *request.seeds.end() > i64::MAX as u64 {
            return Err(AppError::Invalid(format!(
                "seed {} is above the largest, {}",
                request.seeds.end(),
                i64::MAX
            )));
        }
        let budget_ms = i64::try_from(request.budget.as_millis()).unwrap_or(i64::MAX);
        if !(1_000..=MAX_STRESS_BUDGET_MS).contains(&budget_ms) {
            return Err(AppError::Invalid(format!(
                "the budget must be 1 to {} seconds",
                MAX_STRESS_BUDGET_MS / 1000
            )));
        }
        self.programs.usable(&request.language)?;
        let kinds = if request.kinds.is_empty() {
            TestKind::ALL.to_vec()
        } else {
            request.kinds
        };
        let run = self
            .store
            .create_stress_run(&crate::store::NewStressRun {
                problem,
                by: caller.name(),
                language: &request.language,
                source: &request.source,
                kinds: &kinds,
                seeds: (*request.seeds.start(), *request.seeds.end()),
                budget_ms,
            })
            .await?;
        self.signals.job_added();
        Ok(run)
    }

    /// A stress run (setters and admins).
    pub async fn stress_run(
        &self,
        caller: &super::Caller,
        id: i64,
    ) -> Result<crate::domain::StressRun, super::AppError> {
        caller.require_staff()?;
        self.store
            .stress_run(id)
            .await?
            .ok_or_else(|| super::AppError::NotFound(format!("no stress run {id}")))
    }

    /// A problem's latest stress runs, newest first.
    pub async fn stress_runs(
        &self,
        caller: &super::Caller,
        problem: &crate::domain::ProblemId,
    ) -> Result<Vec<crate::domain::StressRun>, super::AppError> {
        caller.require_staff()?;
        self.problem(caller, problem).await?;
        Ok(self.store.stress_runs_of_problem(problem).await?)
    }
}
