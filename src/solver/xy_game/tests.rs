//! Tests of the xy-game solver: the closed form against the brute-force DP
//! and the interval simulation, the reference solvers against each other,
//! the official sample and the generators. The validator's messages are
//! checked from data, in `problems/xy-game/invalid/`.

use super::{
    reference::{Simulator, brute_table},
    *,
};
use crate::solver::grundy::agrees_with_search;

/// Every `1 ≤ x < y ≤ 60` and every `v ≤ 5000`: the closed form is the DP.
#[test]
fn closed_form_matches_the_rules_dp_for_all_small_parameters() {
    let mut checked = 0;
    for y in 2..=60 {
        for x in 1..y {
            let table = brute_table(x, y, 5000);
            checked += agrees_with_search(
                (1..=5000u64).map(|v| (x, y, v)),
                |&(x, y, v)| u64::from(grundy(x, y, v)),
                |&(_, _, v)| table[v as usize],
            );
        }
    }
    assert_eq!(checked, 59 * 60 / 2 * 5000);
}

/// The simulation, including its jump over whole periods, is the DP too.
#[test]
fn simulation_matches_the_rules_dp() {
    let mut checked = 0;
    for y in 2..=30 {
        for x in 1..y {
            let table = brute_table(x, y, 2000);
            let sim = Simulator::new(x, y);
            checked += agrees_with_search(
                (1..=2000u64).map(|v| (x, y, v)),
                |&(_, _, v)| u64::from(sim.grundy(v)),
                |&(_, _, v)| table[v as usize],
            );
        }
    }
    assert_eq!(checked, 29 * 30 / 2 * 2000);
}

/// The search behind the X ≡ 2 case, against a linear scan, over every slope
/// regime (`a mod 3c` in `[0, c]`, `(c, 2c)` and `[2c, 3c)`), negative and
/// positive offsets, every residue and many windows.
#[test]
fn floor_residue_search_matches_a_linear_scan() {
    let searches = (1..=7i128).flat_map(|c| {
        (0..=(6 * c + 1)).flat_map(move |a| {
            (-9..=9i128).flat_map(move |b| {
                (0..3).flat_map(move |w| {
                    [-3i128, 0, 1, 4]
                        .into_iter()
                        .flat_map(move |lo| ((lo - 1)..=(lo + 24)).map(move |hi| (a, b, c, w, lo, hi)))
                })
            })
        })
    });
    let checked = agrees_with_search(
        searches,
        |&(a, b, c, w, lo, hi)| closed_form::last_with_floor_residue(a, b, c, w, lo, hi),
        |&(a, b, c, w, lo, hi)| {
            (lo..=hi)
                .rev()
                .find(|&j| (a * j + b).div_euclid(c).rem_euclid(3) == w)
        },
    );
    let slopes: usize = (1..=7).map(|c| 6 * c + 2).sum();
    assert_eq!(checked, slopes * 19 * 3 * 4 * 26);
}

/// The same search with large slopes and windows, checked by scanning down
/// from the top to the answer (or through the whole window when none).
#[test]
fn floor_residue_search_matches_a_scan_at_large_magnitudes() {
    let mut rng = SeededRng::new(0x5eed);
    let searches = std::iter::repeat_with(|| {
        let c = i128::from(rng.log_uniform(1, 1_000_000_000));
        let a = i128::from(rng.range(0, 3 * c as u64 - 1));
        let hi = i128::from(rng.log_uniform(1, 400_000_000_000_000_000));
        let lo = (hi - i128::from(rng.range(0, 3_000))).max(1);
        let w = i128::from(rng.range(0, 2));
        (a, c, w, lo, hi)
    });
    let checked = agrees_with_search(
        searches.take(20_000),
        |&(a, c, w, lo, hi)| closed_form::last_with_floor_residue(a, 0, c, w, lo, hi),
        |&(a, c, w, lo, hi)| {
            (lo..=hi)
                .rev()
                .find(|&j| (a * j).div_euclid(c).rem_euclid(3) == w)
        },
    );
    assert_eq!(checked, 20_000);
}

/// Piles at and around the interesting places of (x, y): every multiple of x
/// and y near `centre`, ±2, and `centre` itself.
fn probes(x: u64, y: u64, centre: u64) -> Vec<u64> {
    let mut out = vec![centre];
    for d in [x, y] {
        let k = centre / d;
        for m in k.saturating_sub(1)..=k + 1 {
            for off in -2i64..=2 {
                if let Some(v) = (m * d).checked_add_signed(off) {
                    out.push(v);
                }
            }
        }
    }
    out.retain(|&v| (1..=MAX_A).contains(&v));
    out
}

/// The closed form equals the simulation on every probe around `centres`.
/// Returns how many piles were compared.
fn assert_matches_simulation(x: u64, y: u64, centres: &[u64]) -> usize {
    let sim = Simulator::new(x, y);
    agrees_with_search(
        centres
            .iter()
            .flat_map(|&centre| probes(x, y, centre))
            .map(|v| (x, y, v)),
        |&(x, y, v)| grundy(x, y, v),
        |&(_, _, v)| sim.grundy(v),
    )
}

/// Random (x, y) up to 10^4 with piles up to 10^7, and at 10^18 scale,
/// where the simulation jumps over whole periods.
#[test]
fn closed_form_matches_the_simulation_for_random_mid_parameters() {
    let mut rng = SeededRng::new(2);
    let mut checked = 0;
    for _ in 0..4_000 {
        let x = rng.log_uniform(1, 9_999);
        let y = rng.range(x + 1, 10_000);
        let small = rng.range(1, 10_000_000);
        let huge = rng.range(1, MAX_A);
        checked += assert_matches_simulation(x, y, &[small, huge]);
    }
    // Each centre and up to 30 probes around it.
    assert!(checked >= 4_000 * 2 * 10, "{checked}");
}

/// The shapes where case analyses usually break, with every residue of x and
/// y mod 3, piles near 10^18 and near small multiples.
#[test]
fn closed_form_matches_the_simulation_on_adversarial_shapes() {
    let mut rng = SeededRng::new(3);
    let mut pairs = Vec::new();
    for x in [1u64, 2, 3, 4, 5, 6, 7, 8] {
        for y in [x + 1, x + 2, x + 3, 2 * x + 1, 3 * x, 7 * x + 2] {
            pairs.push((x, y));
        }
    }
    for _ in 0..60 {
        let x = rng.log_uniform(2, 20_000);
        pairs.push((x, x + 1)); // Y = X + 1
        pairs.push((x, x + rng.range(1, 5))); // Y/X near 1
        pairs.push((x, 2 * x - 1)); // Y just below 2X
        if x > 2 {
            pairs.push((x, 2 * x - 2));
        }
        pairs.push((x, 2 * x + 1)); // Y just above 2X
        pairs.push((x, x * rng.range(2, 50))); // Y a multiple of X
        // X ≡ 2 and Y = X + d with d ≡ 1 (mod 3): the search's parity split.
        let x2 = x / 3 * 3 + 2;
        pairs.push((x2, x2 + 3 * rng.range(0, x2 / 3) + 1));
        // Every residue pair mod 3.
        let base = rng.range(1_000, 20_000) / 3 * 3;
        for rx in 0..3 {
            for ry in 0..3 {
                let x = base + rx;
                let y = x + 3 + rng.range(0, 4_000) / 3 * 3 + (3 + ry - rx) % 3;
                pairs.push((x, y));
            }
        }
    }
    let mut checked = 0;
    for (x, y) in pairs {
        assert!(x < y);
        let mut centres = vec![MAX_A, MAX_A - 1, 1, 2, 3, 4, x * y, (x * y) / 2 + 1];
        centres.push(rng.range(1, 1_000 * y));
        centres.push(rng.range(1, MAX_A));
        checked += assert_matches_simulation(x, y, &centres);
    }
    assert!(checked >= 48 * 10 * 10, "{checked}");
}

/// Piles beyond the constraints, up to `2^63` (the simulation's walk does not
/// reach `u64::MAX`).
#[test]
fn closed_form_matches_the_simulation_beyond_ten_to_the_eighteen() {
    let mut rng = SeededRng::new(4);
    let piles = std::iter::repeat_with(|| {
        let x = rng.log_uniform(1, 199);
        let y = if rng.chance(1, 2) {
            x + rng.range(1, 4)
        } else {
            rng.range(x + 1, 200)
        };
        let vs = [rng.range(MAX_A, 1 << 63), rng.range(1 << 62, 1 << 63)];
        vs.map(|v| (x, y, v))
    });
    let checked = agrees_with_search(
        piles.take(2_000).flatten(),
        |&(x, y, v)| grundy(x, y, v),
        |&(x, y, v)| Simulator::new(x, y).grundy(v),
    );
    assert_eq!(checked, 4_000);
}

/// X = 1 blocks every size: no move, so every pile is worth 0.
#[test]
fn with_x_equal_to_one_no_pile_has_a_move() {
    for y in [2, 3, 10, MAX_XY] {
        for v in [1, 2, 3, 1_000_000_007, MAX_A] {
            assert_eq!(grundy(1, y, v), 0);
        }
    }
}

mod properties {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(96))]

        /// Large (x, y) with arbitrary piles up to 10^18: the simulation costs
        /// O(x + y) whatever the pile, so x, y stay below 10^6.
        #[test]
        fn closed_form_matches_the_simulation_for_large_piles(
            x in 2u64..400_000,
            gap in 1u64..600_000,
            v in 1u64..=MAX_A,
        ) {
            assert_matches_simulation(x, x + gap, &[v]);
        }

        /// x, y up to 10^9 with piles that span at most ~10^4 multiples of x,
        /// so the simulation walks from 0 cheaply.
        #[test]
        fn closed_form_matches_the_simulation_for_huge_divisors(
            x in 2u64..MAX_XY,
            y_fraction in 0.0f64..1.0,
            span in 1u64..10_000,
        ) {
            let y = x + 1 + ((MAX_XY - x - 1) as f64 * y_fraction * y_fraction) as u64;
            let y = y.min(MAX_XY);
            prop_assume!(x < y);
            assert_matches_simulation(x, y, &[x * span]);
        }
    }
}

#[test]
fn parses_cases_in_order_with_their_piles() {
    let input = XyGame::parse("2\n2 3 5\n4 12\n1 1 2\n7\n").unwrap();
    let cases: Vec<_> = input.iter().collect();
    assert_eq!(cases, vec![(3, 5, &[4u64, 12][..]), (1, 2, &[7u64][..])]);
}

/// Whole inputs of the small generator, solved end to end, against the XOR
/// of brute-force tables.
#[test]
fn small_inputs_are_solved_like_the_brute_force() {
    let inputs = (0..300).map(|seed| {
        let text = XyGame::generate(TestKind::Small, &mut SeededRng::new(seed));
        XyGame::parse(&text).unwrap()
    });
    let checked = agrees_with_search(inputs, XyGame::solve, |input| {
        input
            .iter()
            .map(|(x, y, piles)| {
                let table = brute_table(x, y, 60);
                let xor = piles.iter().fold(0, |acc, &v| acc ^ table[v as usize]);
                Outcome::from_first_wins(xor != 0)
            })
            .collect::<Vec<_>>()
    });
    assert_eq!(checked, 300);
}
