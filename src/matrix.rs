//! The solutions × testcases matrix of a problem and problemtools' rule for
//! where a time limit sits, as pure functions over runs already made.
//!
//! Every setter solution runs on every testcase with the time limit raised
//! by the safety margin (`limit × time_limit_to_tle`); from those runs this
//! module says what each solution gets at the problem's own limit (a run
//! whose CPU time is over the limit is TLE there) and whether the limit is
//! where problemtools (Kattis' `verifyproblem`, `problemtools/
//! verifyproblem.py`) wants it:
//! - the slowest accepted solution (its slowest testcase) times
//!   `ac_to_time_limit` must fit in the limit (problemtools' error "Fixed
//!   time limit ... is tighter than the auto-computed limit");
//! - every time-limit-exceeded solution must still be TLE at the raised
//!   limit: it is caught with the safety margin;
//! - a solution whose verdict differs between the limit and the raised
//!   limit is sensitive to the limit (a problemtools warning).
//!
//! The multipliers default to the 2025-09 package format's
//! (`ac_to_time_limit` 2.0, `time_limit_to_tle` 1.5); the legacy format's
//! `time_multiplier` and `time_safety_margin` are 5.0 and 2.0.

use crate::domain::Verdict;

/// problemtools' two time multipliers.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Multipliers {
    /// The limit over the slowest accepted runtime, at least.
    pub ac_to_time_limit: f64,
    /// The raised limit over the limit: the safety margin that every
    /// time-limit-exceeded solution must still exceed.
    pub time_limit_to_tle: f64,
}

impl Default for Multipliers {
    fn default() -> Multipliers {
        Multipliers {
            ac_to_time_limit: 2.0,
            time_limit_to_tle: 1.5,
        }
    }
}

impl Multipliers {
    /// The values a multiplier may take (the CLI's and the setter page's).
    pub const RANGE: std::ops::RangeInclusive<f64> = 1.0..=100.0;

    /// `value` if it is in [`Multipliers::RANGE`], else why not, naming
    /// it as `name`.
    pub fn checked(name: &str, value: f64) -> Result<f64, String> {
        if Self::RANGE.contains(&value) {
            Ok(value)
        } else {
            Err(format!(
                "{name} must be between {} and {}, not {value}",
                Self::RANGE.start(),
                Self::RANGE.end()
            ))
        }
    }

    /// The raised limit the matrix's runs get, in whole milliseconds
    /// (rounded up).
    pub fn raised_limit_ms(&self, limit_ms: i64) -> i64 {
        (limit_ms as f64 * self.time_limit_to_tle).ceil() as i64
    }
}

/// One solution on one testcase, run under the raised limit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Cell {
    /// The verdict under the raised limit.
    pub verdict: Verdict,
    /// CPU time in milliseconds (0 where nothing ran).
    pub cpu_ms: i64,
}

impl Cell {
    /// The verdict at `limit_ms`: a run that used more CPU time than that
    /// would have been stopped there.
    pub fn verdict_at(&self, limit_ms: i64) -> Verdict {
        if self.cpu_ms > limit_ms {
            Verdict::TLE
        } else {
            self.verdict
        }
    }
}

impl From<&crate::domain::TestcaseResult> for Cell {
    fn from(result: &crate::domain::TestcaseResult) -> Cell {
        Cell {
            verdict: result.verdict,
            cpu_ms: result.run.as_ref().map_or(0, |run| run.cpu_ms),
        }
    }
}

/// One setter solution's row.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Row {
    /// Its path under `solutions/`.
    pub solution: String,
    /// The verdict its folder promises.
    pub expected: Verdict,
    /// Its cells in judging order (samples first), or the verdict it got
    /// without running (CE).
    pub cells: Result<Vec<Cell>, Verdict>,
}

impl Row {
    /// The solution's verdict at `limit_ms`: its first testcase that is not
    /// AC there, as a submission is judged.
    pub fn verdict_at(&self, limit_ms: i64) -> Verdict {
        match &self.cells {
            Ok(cells) => cells
                .iter()
                .map(|c| c.verdict_at(limit_ms))
                .find(|v| *v != Verdict::AC)
                .unwrap_or(Verdict::AC),
            Err(verdict) => *verdict,
        }
    }

    /// Its slowest testcase's CPU time.
    pub fn slowest_ms(&self) -> i64 {
        match &self.cells {
            Ok(cells) => cells.iter().map(|c| c.cpu_ms).max().unwrap_or(0),
            Err(_) => 0,
        }
    }
}

/// What the review of a problem's time limit found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Finding {
    /// The verdict at the limit is not the one the solution's folder
    /// promises.
    Unexpected { solution: String, got: Verdict },
    /// No accepted solution ran on every testcase, so nothing bounds the
    /// limit from below.
    NoAccepted,
    /// The slowest accepted solution times `ac_to_time_limit` is over the
    /// limit.
    LimitTooTight {
        solution: String,
        slowest_ms: i64,
        needed_ms: i64,
    },
    /// A time-limit-exceeded solution ends otherwise at the raised limit.
    TleNotCaught { solution: String, raised: Verdict },
    /// The verdict at the limit and at the raised limit differ (for a
    /// solution that is not time-limit-exceeded: those are the finding
    /// above).
    SensitiveToLimit {
        solution: String,
        at_limit: Verdict,
        raised: Verdict,
    },
}

impl Finding {
    /// The finding in words, for the CLI and the setter page.
    pub fn describe(&self, limit_ms: i64, raised_ms: i64) -> String {
        match self {
            Finding::Unexpected { solution, got } => {
                format!("{solution} gets {got} at the limit of {limit_ms} ms")
            }
            Finding::NoAccepted => {
                "no accepted solution ran on every testcase: nothing bounds the limit from below"
                    .into()
            }
            Finding::LimitTooTight {
                solution,
                slowest_ms,
                needed_ms,
            } => format!(
                "the limit of {limit_ms} ms is tighter than the slowest accepted solution allows: {solution} takes {slowest_ms} ms, so the limit must be at least {needed_ms} ms"
            ),
            Finding::TleNotCaught { solution, raised } => format!(
                "{solution} is not caught with the safety margin: it gets {raised} at {raised_ms} ms"
            ),
            Finding::SensitiveToLimit {
                solution,
                at_limit,
                raised,
            } => format!(
                "{solution} is sensitive to the time limit: {at_limit} at {limit_ms} ms, {raised} at {raised_ms} ms"
            ),
        }
    }

    /// Whether problemtools counts it as an error (the rest are warnings).
    pub fn is_error(&self) -> bool {
        !matches!(self, Finding::SensitiveToLimit { .. })
    }
}

/// The review of one problem's matrix.
#[derive(Debug, Clone, PartialEq)]
pub struct Review {
    /// The slowest accepted solution and its slowest testcase's CPU time.
    pub slowest_accepted: Option<(String, i64)>,
    /// The limit problemtools would compute from it, in whole seconds (its
    /// default resolution) and at least one: `max(1, ceil(t ×
    /// ac_to_time_limit))` seconds, in milliseconds.
    pub computed_limit_ms: Option<i64>,
    pub findings: Vec<Finding>,
}

/// Reviews a problem whose time limit is `limit_ms` from its rows, run
/// under `raised_ms`: every accepted solution's slowest time times
/// `ac_to_time_limit` must fit in the limit.
pub fn review(rows: &[Row], limit_ms: i64, raised_ms: i64, ac_to_time_limit: f64) -> Review {
    let mut findings = Vec::new();
    for row in rows {
        let at_limit = row.verdict_at(limit_ms);
        let raised = row.verdict_at(raised_ms);
        if at_limit != row.expected {
            findings.push(Finding::Unexpected {
                solution: row.solution.clone(),
                got: at_limit,
            });
        }
        if row.expected == Verdict::TLE {
            if raised != Verdict::TLE {
                findings.push(Finding::TleNotCaught {
                    solution: row.solution.clone(),
                    raised,
                });
            }
        } else if at_limit != raised {
            findings.push(Finding::SensitiveToLimit {
                solution: row.solution.clone(),
                at_limit,
                raised,
            });
        }
    }
    let slowest_accepted = rows
        .iter()
        .filter(|r| r.expected == Verdict::AC && r.cells.is_ok())
        .map(|r| (r.solution.clone(), r.slowest_ms()))
        .max_by_key(|(_, ms)| *ms);
    let computed_limit_ms = slowest_accepted.as_ref().map(|(_, ms)| {
        let exact_seconds = *ms as f64 / 1000.0 * ac_to_time_limit;
        (exact_seconds.ceil() as i64).max(1) * 1000
    });
    match &slowest_accepted {
        None => findings.push(Finding::NoAccepted),
        Some((solution, slowest_ms)) => {
            let needed_ms = (*slowest_ms as f64 * ac_to_time_limit).ceil() as i64;
            if needed_ms > limit_ms {
                findings.push(Finding::LimitTooTight {
                    solution: solution.clone(),
                    slowest_ms: *slowest_ms,
                    needed_ms,
                });
            }
        }
    }
    Review {
        slowest_accepted,
        computed_limit_ms,
        findings,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(solution: &str, expected: Verdict, cells: &[(Verdict, i64)]) -> Row {
        Row {
            solution: solution.into(),
            expected,
            cells: Ok(cells
                .iter()
                .map(|&(verdict, cpu_ms)| Cell { verdict, cpu_ms })
                .collect()),
        }
    }

    #[test]
    fn a_run_over_the_limit_is_tle_there_whatever_it_got_under_the_raised_one() {
        let r = row(
            "accepted/a.cpp",
            Verdict::AC,
            &[(Verdict::AC, 10), (Verdict::AC, 1200)],
        );
        assert_eq!(r.verdict_at(1500), Verdict::AC);
        assert_eq!(r.verdict_at(1000), Verdict::TLE);
        assert_eq!(r.verdict_at(1200), Verdict::AC, "at the limit is within it");
        // The first testcase that fails decides, as in judging.
        let w = row(
            "wrong_answer/w.py",
            Verdict::WA,
            &[(Verdict::WA, 5), (Verdict::AC, 5000)],
        );
        assert_eq!(w.verdict_at(1000), Verdict::WA);
        let ce = Row {
            solution: "compile_error/c.cpp".into(),
            expected: Verdict::CE,
            cells: Err(Verdict::CE),
        };
        assert_eq!(ce.verdict_at(1000), Verdict::CE);
        assert_eq!(ce.slowest_ms(), 0);
    }

    #[test]
    fn a_limit_with_room_and_a_caught_tle_solution_pass() {
        let rows = [
            row(
                "accepted/fast.cpp",
                Verdict::AC,
                &[(Verdict::AC, 3), (Verdict::AC, 240)],
            ),
            row(
                "accepted/slow.py",
                Verdict::AC,
                &[(Verdict::AC, 40), (Verdict::AC, 410)],
            ),
            row(
                "time_limit_exceeded/brute.py",
                Verdict::TLE,
                &[(Verdict::AC, 30), (Verdict::TLE, 3001)],
            ),
        ];
        let review = review(&rows, 1000, 1500, 2.0);
        assert_eq!(review.findings, vec![]);
        assert_eq!(
            review.slowest_accepted,
            Some(("accepted/slow.py".to_string(), 410))
        );
        // problemtools: max(1, ceil(0.410 × 2)) = 1 second.
        assert_eq!(review.computed_limit_ms, Some(1000));
    }

    #[test]
    fn a_tight_limit_an_uncaught_tle_and_a_sensitive_solution_are_named() {
        let rows = [
            row("accepted/a.cpp", Verdict::AC, &[(Verdict::AC, 600)]),
            // AC at 1.5 s: not caught with the margin, though TLE at 1 s.
            row(
                "time_limit_exceeded/t.cpp",
                Verdict::TLE,
                &[(Verdict::AC, 1400)],
            ),
            // WA at the raised limit, TLE at the limit.
            row("wrong_answer/w.cpp", Verdict::WA, &[(Verdict::WA, 1100)]),
        ];
        let review = review(&rows, 1000, 1500, 2.0);
        assert_eq!(
            review.findings,
            vec![
                Finding::TleNotCaught {
                    solution: "time_limit_exceeded/t.cpp".into(),
                    raised: Verdict::AC,
                },
                Finding::Unexpected {
                    solution: "wrong_answer/w.cpp".into(),
                    got: Verdict::TLE,
                },
                Finding::SensitiveToLimit {
                    solution: "wrong_answer/w.cpp".into(),
                    at_limit: Verdict::TLE,
                    raised: Verdict::WA,
                },
                Finding::LimitTooTight {
                    solution: "accepted/a.cpp".into(),
                    slowest_ms: 600,
                    needed_ms: 1200,
                },
            ]
        );
        assert!(review.findings.iter().filter(|f| f.is_error()).count() == 3);
        // ceil(0.6 × 2) = 2 seconds.
        assert_eq!(review.computed_limit_ms, Some(2000));
    }

    #[test]
    fn without_an_accepted_solution_nothing_bounds_the_limit() {
        let rows = [row("wrong_answer/w.cpp", Verdict::WA, &[(Verdict::WA, 1)])];
        let review = review(&rows, 1000, 1500, 2.0);
        assert_eq!(review.findings, vec![Finding::NoAccepted]);
        assert_eq!(review.computed_limit_ms, None);
    }

    #[test]
    fn the_legacy_multipliers_raise_and_bound_as_problemtools_does() {
        let legacy = Multipliers {
            ac_to_time_limit: 5.0,
            time_limit_to_tle: 2.0,
        };
        assert_eq!(legacy.raised_limit_ms(1000), 2000);
        assert_eq!(Multipliers::default().raised_limit_ms(1001), 1502);
        let rows = [row("accepted/a.cpp", Verdict::AC, &[(Verdict::AC, 201)])];
        let review = review(&rows, 1000, legacy.raised_limit_ms(1000), 5.0);
        assert_eq!(
            review.findings,
            vec![Finding::LimitTooTight {
                solution: "accepted/a.cpp".into(),
                slowest_ms: 201,
                needed_ms: 1005,
            }]
        );
        // max(1, ceil(0.201 × 5)) = 2 seconds.
        assert_eq!(review.computed_limit_ms, Some(2000));
    }
}
