//! Tests of the xy-game solver: the closed form against the brute-force DP
//! and the interval simulation, the reference solvers against each other,
//! the official sample, validation messages and the generators.

use super::{
    reference::{brute_table, simulate},
    *,
};

/// Every `1 ≤ x < y ≤ 60` and every `v ≤ 5000`: the closed form is the DP.
#[test]
fn closed_form_matches_the_rules_dp_for_all_small_parameters() {
    for y in 2..=60 {
        for x in 1..y {
            let table = brute_table(x, y, 5000);
            for (v, &expected) in table.iter().enumerate().skip(1) {
                assert_eq!(
                    u64::from(grundy(x, y, v as u64)),
                    expected,
                    "x = {x}, y = {y}, v = {v}"
                );
            }
        }
    }
}

/// The simulation, including its jump over whole periods, is the DP too.
#[test]
fn simulation_matches_the_rules_dp() {
    for y in 2..=30 {
        for x in 1..y {
            let table = brute_table(x, y, 2000);
            for (v, &expected) in table.iter().enumerate().skip(1) {
                assert_eq!(
                    u64::from(simulate(x, y, v as u64)),
                    expected,
                    "x = {x}, y = {y}, v = {v}"
                );
            }
        }
    }
}
