//! Grundy plots: for every hosted problem where one pile has a Grundy
//! sequence, what the sequence depends on and a window of it, computed by
//! the solver's own functions.
//!
//! A [`GrundyPlot`] describes one problem's sequence: the game's integer
//! parameters (name, default, bounds), the smallest and largest size `n`,
//! and how `g(n)` is computed. [`GrundyPlot::sequence`] checks the
//! parameters and the window `from..from + count` against those bounds and
//! returns `g(n)` for each `n` in it; bad values are a [`PlotError`] naming
//! the parameter and its bound, never a panic. Like the rest of the solver
//! core this is pure: no I/O, no web types.
//!
//! The sequences:
//! - `xy-game`: [`xy_game::grundy`] for chosen `X < Y`.
//! - `playing-with-stones`: [`playing_with_stones::pile_grundy`].
//! - `prime-factor-game-returns`: [`prime_factor_game_returns::number_grundy`],
//!   the value of the number `n` (each prime power a pile).
//! - `coin-game`: [`coin_game::plates_grundy`], the value of the whole
//!   position with `n` plates.
//! - `constrained-nim`: [`GrundyTable::value`] with the special sizes the
//!   multiples of `X`, from each of which removing exactly `Y` stones is
//!   forbidden.
//!
//! Each is checked in the tests against a Grundy table computed from the
//! game's rules by the brute force in `grundy`.

use super::{
    coin_game,
    constrained_nim::{self, table::GrundyTable},
    input::{pretty_bound, range_text},
    playing_with_stones, prime_factor_game_returns, xy_game,
};

/// The most sizes one plot shows.
pub const MAX_COUNT: u64 = 400;

/// One integer parameter of a game.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PlotParameter {
    /// The name statements use, e.g. `X`.
    pub name: &'static str,
    /// What it means, in a few words.
    pub meaning: &'static str,
    pub default: u64,
    pub min: u64,
    pub max: u64,
}

/// What a plot's sequence is, for one problem.
#[derive(Debug, Clone, Copy)]
pub struct GrundyPlot {
    /// The problem id.
    pub problem: &'static str,
    /// What `n` is and what `g(n)` is the value of.
    pub description: &'static str,
    /// The game's parameters, in the order [`GrundyPlot::sequence`] takes
    /// their values.
    pub parameters: &'static [PlotParameter],
    /// The smallest size with a value.
    pub min_size: u64,
    /// The largest size a plot may reach.
    pub max_size: u64,
    /// The first size shown when none is chosen.
    pub default_from: u64,
    /// `g(n)` for `n` in `from..from + count`, for parameters already checked.
    values: fn(&[u64], u64, u64) -> Vec<u64>,
}

/// A parameter or window a plot refuses.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PlotError {
    /// A value outside its bounds.
    #[error("{name} = {value} violates the constraint {constraint}")]
    OutOfRange {
        name: String,
        value: u64,
        constraint: String,
    },
    /// Values that are each in bounds but not together.
    #[error("{0}")]
    Invalid(String),
}

/// The plots, one per problem that has one.
static PLOTS: &[GrundyPlot] = &[
    GrundyPlot {
        problem: "xy-game",
        description: "g(n) of one pile of n stones, where a move removes 1 or 2 stones \
                      but may not leave a multiple of X or of Y",
        parameters: &[
            PlotParameter {
                name: "X",
                meaning: "the smaller forbidden divisor",
                default: 3,
                min: 1,
                max: xy_game::MAX_XY - 1,
            },
            PlotParameter {
                name: "Y",
                meaning: "the larger forbidden divisor",
                default: 5,
                min: 2,
                max: xy_game::MAX_XY,
            },
        ],
        min_size: 0,
        max_size: xy_game::MAX_A,
        default_from: 0,
        values: |p, from, count| {
            sizes(from, count)
                .map(|v| u64::from(xy_game::grundy(p[0], p[1], v)))
                .collect()
        },
    },
    GrundyPlot {
        problem: "playing-with-stones",
        description: "g(n) of one pile of n stones, where a move removes between 1 and ⌊n/2⌋ stones",
        parameters: &[],
        min_size: 1,
        max_size: playing_with_stones::MAX_A,
        default_from: 1,
        values: |_, from, count| {
            sizes(from, count)
                .map(playing_with_stones::pile_grundy)
                .collect()
        },
    },
    GrundyPlot {
        problem: "prime-factor-game-returns",
        description: "g(n) of the number n, where a move divides it by a prime p or by p²",
        parameters: &[],
        min_size: 1,
        max_size: prime_factor_game_returns::MAX_M,
        default_from: 1,
        values: |_, from, count| {
            sizes(from, count)
                .map(prime_factor_game_returns::number_grundy)
                .collect()
        },
    },
    GrundyPlot {
        problem: "coin-game",
        description: "g(n) of the whole position with n plates holding 1, 2, …, n coins",
        parameters: &[],
        min_size: 1,
        max_size: coin_game::MAX_N,
        default_from: 1,
        values: |_, from, count| sizes(from, count).map(coin_game::plates_grundy).collect(),
    },
    GrundyPlot {
        problem: "constrained-nim",
        description: "g(n) of one pile of n stones, where any number may be removed except \
                      exactly Y from a pile whose size is a multiple of X",
        parameters: &[
            PlotParameter {
                name: "X",
                meaning: "the special sizes are its multiples",
                default: 4,
                min: 1,
                max: constrained_nim_max_size(),
            },
            PlotParameter {
                name: "Y",
                meaning: "the removal forbidden at a special size",
                default: 1,
                min: 1,
                max: constrained_nim_max_size(),
            },
        ],
        min_size: 0,
        max_size: constrained_nim_max_size(),
        default_from: 0,
        values: |p, from, count| {
            let (x, y) = (p[0], p[1]);
            let last = from + count.saturating_sub(1);
            // Every special size up to the window's end: (kX, Y) for kX ≥ Y.
            let forbidden: Vec<(u64, u64)> = (1..=last / x)
                .map(|k| (k * x, y))
                .filter(|&(size, removed)| removed <= size)
                .collect();
            let table = GrundyTable::build(&forbidden);
            sizes(from, count).map(|n| table.value(n)).collect()
        },
    },
];

/// The largest constrained-nim size plotted: with `X = 1` every size is
/// special, and the problem allows this many forbidden moves.
const fn constrained_nim_max_size() -> u64 {
    constrained_nim::MAX_M as u64
}

/// The sizes `from..from + count`; the caller has checked they fit.
fn sizes(from: u64, count: u64) -> impl Iterator<Item = u64> {
    (0..count).map(move |i| from + i)
}

/// The plot of problem `problem`, if one pile of it has a Grundy sequence.
pub fn find(problem: &str) -> Option<&'static GrundyPlot> {
    PLOTS.iter().find(|plot| plot.problem == problem)
}

/// Every plot, in catalogue order of their problems' listing here.
pub fn plots() -> &'static [GrundyPlot] {
    PLOTS
}

impl GrundyPlot {
    /// `g(n)` for every `n` in `from..from + count`, with the game's
    /// parameters `parameters` (in the order of [`GrundyPlot::parameters`]).
    /// Refuses a parameter out of its bounds, `X ≥ Y` where `X < Y` is
    /// required, an empty window or one longer than [`MAX_COUNT`], and a
    /// window outside `min_size..=max_size`.
    pub fn sequence(
        &self,
        parameters: &[u64],
        from: u64,
        count: u64,
    ) -> Result<Vec<u64>, PlotError> {
        if parameters.len() != self.parameters.len() {
            return Err(PlotError::Invalid(format!(
                "{} takes {} parameters, not {}",
                self.problem,
                self.parameters.len(),
                parameters.len()
            )));
        }
        for (parameter, &value) in self.parameters.iter().zip(parameters) {
            check_range(parameter.name, value, parameter.min, parameter.max)?;
        }
        if let [x, y] = parameters {
            let ordered = match self.problem {
                "xy-game" => x < y,
                "constrained-nim" => y <= x,
                _ => true,
            };
            if !ordered {
                let rule = if self.problem == "xy-game" {
                    "X < Y"
                } else {
                    "Y ≤ X (a move removes at most the pile)"
                };
                return Err(PlotError::Invalid(format!(
                    "X = {x} and Y = {y} violate the constraint {rule}"
                )));
            }
        }
        check_range("count", count, 1, MAX_COUNT)?;
        check_range("from", from, self.min_size, self.max_size)?;
        let last = from + (count - 1);
        if last > self.max_size {
            return Err(PlotError::Invalid(format!(
                "the window from {from} holding {count} sizes ends at {last}, past the largest \
                 size {}; choose from ≤ {}",
                pretty_bound(self.max_size),
                self.max_size - (count - 1)
            )));
        }
        Ok((self.values)(parameters, from, count))
    }

    /// The default parameter values, in order.
    pub fn default_parameters(&self) -> Vec<u64> {
        self.parameters.iter().map(|p| p.default).collect()
    }
}

fn check_range(name: &str, value: u64, min: u64, max: u64) -> Result<(), PlotError> {
    if (min..=max).contains(&value) {
        Ok(())
    } else {
        Err(PlotError::OutOfRange {
            name: name.to_string(),
            value,
            constraint: range_text(name, min, max),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::grundy::grundy_table;

    /// The plot of `problem`, which must exist.
    fn plot(problem: &str) -> &'static GrundyPlot {
        find(problem).unwrap_or_else(|| panic!("no plot for {problem}"))
    }

    /// The window `from..from + count` of a brute-force table.
    fn window(table: &[u64], from: u64, count: u64) -> Vec<u64> {
        table[from as usize..(from + count) as usize].to_vec()
    }

    #[test]
    fn every_plot_names_a_hosted_problem_and_its_defaults_are_accepted() {
        for plot in plots() {
            assert!(
                crate::solver::find(plot.problem).is_some(),
                "{} is not hosted",
                plot.problem
            );
            let values = plot
                .sequence(&plot.default_parameters(), plot.default_from, 100)
                .unwrap_or_else(|e| panic!("{}: {e}", plot.problem));
            assert_eq!(values.len(), 100, "{}", plot.problem);
        }
        assert!(find("nim-k").is_none());
    }

    #[test]
    fn xy_game_matches_the_rules_for_every_small_x_and_y() {
        let mut windows = 0;
        for y in 2..=12u64 {
            for x in 1..y {
                let blocked =
                    |v: usize| (v as u64).is_multiple_of(x) || (v as u64).is_multiple_of(y);
                let table = grundy_table(120, |v, out| {
                    out.extend(
                        (1..=2)
                            .filter_map(|d| v.checked_sub(d))
                            .filter(|&w| !blocked(w)),
                    );
                });
                for from in [0, 7, 40] {
                    let values = plot("xy-game")
                        .sequence(&[x, y], from, 80)
                        .expect("in bounds");
                    assert_eq!(
                        values,
                        window(&table, from, 80),
                        "X = {x}, Y = {y}, from {from}"
                    );
                    windows += 1;
                }
            }
        }
        assert_eq!(windows, 3 * 66);
    }

    #[test]
    fn playing_with_stones_matches_the_rules() {
        let table = grundy_table(500, |v, out| out.extend((1..=v / 2).map(|k| v - k)));
        for from in [1, 2, 99] {
            let values = plot("playing-with-stones")
                .sequence(&[], from, 400)
                .expect("in bounds");
            assert_eq!(values, window(&table, from, 400), "from {from}");
        }
    }

    #[test]
    fn prime_factor_game_returns_matches_the_rules() {
        // From m a move goes to m/p or m/p² for a prime p dividing it.
        let primes: Vec<usize> = (2..=700usize)
            .filter(|&p| (2..p).take_while(|d| d * d <= p).all(|d| p % d != 0))
            .collect();
        let table = grundy_table(700, |m, out| {
            for &p in primes.iter().take_while(|&&p| p <= m) {
                if m % p == 0 {
                    out.push(m / p);
                    if (m / p) % p == 0 {
                        out.push(m / p / p);
                    }
                }
            }
        });
        for from in [1, 300] {
            let values = plot("prime-factor-game-returns")
                .sequence(&[], from, 400)
                .expect("in bounds");
            assert_eq!(values, window(&table, from, 400), "from {from}");
        }
    }

    #[test]
    fn coin_game_matches_the_xor_of_the_plates() {
        let values = plot("coin-game").sequence(&[], 1, 400).expect("in bounds");
        let mut xor = 0;
        for (n, value) in (1..=400u64).zip(values) {
            xor ^= n;
            assert_eq!(value, xor, "n = {n}");
        }
    }

    #[test]
    fn constrained_nim_matches_the_rules() {
        let mut windows = 0;
        for x in 1..=9u64 {
            for y in 1..=x {
                let table = grundy_table(140, |n, out| {
                    let special = (n as u64).is_multiple_of(x);
                    out.extend(
                        (1..=n)
                            .filter(|&k| !(special && k as u64 == y))
                            .map(|k| n - k),
                    );
                });
                for from in [0, 60] {
                    let values = plot("constrained-nim")
                        .sequence(&[x, y], from, 80)
                        .expect("in bounds");
                    assert_eq!(
                        values,
                        window(&table, from, 80),
                        "X = {x}, Y = {y}, from {from}"
                    );
                    windows += 1;
                }
            }
        }
        assert_eq!(windows, 2 * 45);
    }

    #[test]
    fn windows_at_the_largest_sizes_are_computed() {
        let xy = plot("xy-game");
        let last = xy
            .sequence(
                &[xy_game::MAX_XY - 1, xy_game::MAX_XY],
                xy_game::MAX_A - 399,
                400,
            )
            .expect("in bounds");
        assert_eq!(last.len(), 400);
        assert!(last.iter().all(|&g| g <= 2));
        let stones = plot("playing-with-stones")
            .sequence(&[], playing_with_stones::MAX_A, 1)
            .expect("in bounds");
        assert_eq!(
            stones,
            [playing_with_stones::pile_grundy(playing_with_stones::MAX_A)]
        );
    }

    #[test]
    fn bad_parameters_are_refused_naming_the_parameter_and_its_bound() {
        let xy = plot("xy-game");
        let message =
            |result: Result<Vec<u64>, PlotError>| result.expect_err("refused").to_string();
        assert_eq!(
            message(xy.sequence(&[0, 5], 0, 10)),
            "X = 0 violates the constraint 1 ≤ X ≤ 999999999"
        );
        assert_eq!(
            message(xy.sequence(&[3, 2_000_000_000], 0, 10)),
            "Y = 2000000000 violates the constraint 2 ≤ Y ≤ 10^9"
        );
        assert_eq!(
            message(xy.sequence(&[5, 5], 0, 10)),
            "X = 5 and Y = 5 violate the constraint X < Y"
        );
        assert_eq!(
            message(xy.sequence(&[3, 5], 0, 401)),
            "count = 401 violates the constraint 1 ≤ count ≤ 400"
        );
        assert_eq!(
            message(xy.sequence(&[3, 5], 0, 0)),
            "count = 0 violates the constraint 1 ≤ count ≤ 400"
        );
        assert_eq!(
            message(xy.sequence(&[3, 5], xy_game::MAX_A - 5, 10)),
            "the window from 999999999999999995 holding 10 sizes ends at 1000000000000000004, \
             past the largest size 10^18; choose from ≤ 999999999999999991"
        );
        assert_eq!(
            message(xy.sequence(&[3], 0, 10)),
            "xy-game takes 2 parameters, not 1"
        );
        let stones = plot("playing-with-stones");
        assert_eq!(
            message(stones.sequence(&[], 0, 10)),
            "from = 0 violates the constraint 1 ≤ from ≤ 2·10^18"
        );
        let constrained = plot("constrained-nim");
        assert_eq!(
            message(constrained.sequence(&[3, 4], 0, 10)),
            "X = 3 and Y = 4 violate the constraint Y ≤ X (a move removes at most the pile)"
        );
        assert_eq!(
            message(constrained.sequence(&[3, 1], 300_000, 10)),
            "from = 300000 violates the constraint 0 ≤ from ≤ 2·10^5"
        );
    }
}
