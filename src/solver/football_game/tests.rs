//! Tests of the football-game solver: the formula against game search on
//! every small position inside the domain (and the position outside it that
//! shows why the domain exists), the π bracket, and the generators. The
//! validator's messages are checked from data, in
//! `problems/football-game/invalid/`.

use super::{
    closed_form::{PI_HIGH, PI_LOW, SCALE, floor_of_turns},
    generator::distance_for_pile,
    *,
};
use crate::solver::grundy::{WinLoseSearch, agrees_with_search, all_vectors};
use proptest::prelude::*;

/// Every position one move away: choose 1..=M non-empty piles and lower
/// each by 1..=k (never below zero). Positions are sorted tuples.
fn successors(piles: &[u64], m: usize, k: u64) -> Vec<Vec<u64>> {
    let mut next = Vec::new();
    let mut amounts = vec![0u64; piles.len()];
    loop {
        let moved = amounts.iter().filter(|&&d| d > 0).count();
        if (1..=m).contains(&moved) {
            let mut p: Vec<u64> = piles.iter().zip(&amounts).map(|(a, d)| a - d).collect();
            p.sort_unstable();
            next.push(p);
        }
        // Next vector of amounts, each in 0..=min(k, pile).
        let mut i = 0;
        loop {
            if i == piles.len() {
                next.sort();
                next.dedup();
                return next;
            }
            if amounts[i] < k.min(piles[i]) {
                amounts[i] += 1;
                break;
            }
            amounts[i] = 0;
            i += 1;
        }
    }
}

/// Whether the first player wins from some piles with M = `m` and cap `k`,
/// by game search; one search per (M, k), so positions share one memo.
fn search(m: usize, k: u64) -> impl FnMut(&[u64]) -> bool {
    let mut search = WinLoseSearch::normal_play(move |p: &Vec<u64>| successors(p, m, k));
    move |piles: &[u64]| {
        let mut sorted = piles.to_vec();
        sorted.sort_unstable();
        search.mover_wins(&sorted)
    }
}

/// Whether the first player wins one case, by a game search of its own.
fn searched_first_wins(case: &FootballGameCase) -> bool {
    search(case.balls_per_move(), case.cap())(case.piles())
}

/// The formula on one case.
fn formula(case: &FootballGameCase) -> bool {
    formula_first_wins(case.piles(), case.balls_per_move(), case.cap())
}

fn answer(text: &str) -> String {
    FootballGame::format(&FootballGame::solve(
        &FootballGame::parse(text).expect("valid input"),
    ))
}

fn error(text: &str) -> String {
    FootballGame::parse(text)
        .expect_err("invalid input")
        .to_string()
}

#[test]
fn the_formula_matches_game_search_on_every_valid_small_position() {
    let mut checked = 0;
    for m in 1..=4 {
        for k in 0..=7 {
            let valid_cases = (m..=4)
                .flat_map(|n| all_vectors(n, 5))
                .map(|v| v.iter().map(|a| a + 1).collect::<Vec<u64>>())
                .filter_map(|piles| FootballGameCase::new(piles, m, k));
            let mut first_wins = search(m, k);
            checked += agrees_with_search(valid_cases, formula, |case| first_wins(case.piles()));
        }
    }
    // Every tuple is valid for M = 1; for M ≥ 2 only those within k.
    assert!(checked > 10_000, "{checked}");
}

#[test]
fn outside_the_domain_the_formula_is_wrong_so_such_inputs_are_refused() {
    // (1, 1, 4, 6) with M = 2, k = 3: a first-player loss by game search,
    // but the formula says Alice.
    let piles = [1, 1, 4, 6];
    assert!(!search(2, 3)(&piles));
    assert!(formula_first_wins(&piles, 2, 3));
    assert_eq!(FootballGameCase::new(piles.to_vec(), 2, 3), None);
    // The same position in the problem's terms: R = 1, L = 20 (k = 3),
    // distances 1, 1, 20, 35 (piles 1, 1, 4, 6).
    assert_eq!(
        error("4 2 20 1\n1 1 20 35\n"),
        "line 2: test case 1: M = 2 and pile a_3 = 4 exceeds the kick cap k = 3; \
         nimjudge hosts football-game only where M = 1 or every pile is within the cap \
         (see the statement)"
    );
}

/// Both ends of the π bracket classify every integer near every 2πm,
/// m = R·q, the same way, so `whole_turns` never fails in range; and the
/// closest approach is the one the problem facts record (1.48·10^-8 at
/// D = 80143857).
#[test]
fn the_pi_bracket_decides_every_comparison_in_range() {
    // 2π·15915494 < 10^8 − 1 < 2π·15915495 (with room): beyond the last m
    // every distance in range is below 2πm under both bounds.
    let last = 15_915_494u128;
    assert!(2 * last * PI_HIGH < MAX_DISTANCE as u128 * SCALE);
    assert!(2 * (last + 1) * PI_LOW > (MAX_DISTANCE as u128 + 1) * SCALE);
    let mut closest = (u128::MAX, 0);
    for m in 1..=last {
        let low = 2 * m * PI_LOW;
        let high = 2 * m * PI_HIGH;
        // No integer D with low ≤ D·10^30 ≤ high.
        let below = low / SCALE;
        assert!(below * SCALE < low && (below + 1) * SCALE > high, "m = {m}");
        let gap = (low - below * SCALE).min((below + 1) * SCALE - high);
        if gap < closest.0 {
            closest = (gap, m);
        }
    }
    let (gap, m) = closest;
    assert_eq!(m, 12_755_291);
    // 2πm lies just above the distance 80143857.
    assert_eq!(floor_of_turns(m as u64), 80_143_857);
    // 1.48·10^-8, in units of 10^-30.
    assert!((14_700_000_000_000_000_000_000..14_900_000_000_000_000_000_000).contains(&gap));
}

#[test]
fn the_near_miss_distance_is_handled_exactly() {
    // 80143857/(2π) = 12755290.9999999976…: the pile is 12755291 and a
    // kick of L = 80143857 covers 12755290 whole turns.
    assert_eq!(whole_turns(80_143_857, 1), Some(12_755_290));
    let input = FootballGame::parse("1 1 80143857 1\n80143857\n").expect("valid");
    assert_eq!(input.cases[0].piles(), [12_755_291]);
    assert_eq!(input.cases[0].cap(), 12_755_290);
    // A pile of exactly k + 1 is a loss for the mover: Bob wins. The usual
    // double-precision code with a +10^-9 nudge on k gets the cap wrong
    // here (k = 12755291, so the pile is not reduced and it says Alice).
    let naive_cap = (80_143_857f64 / (2.0 * std::f64::consts::PI) + 1e-9).floor() as u64;
    assert_eq!(naive_cap, 12_755_291);
    assert!(formula_first_wins(&[12_755_291], 1, naive_cap));
    assert_eq!(answer("1 1 80143857 1\n80143857\n"), "Bob\n");
}

#[test]
fn whole_turns_agrees_with_floating_point_away_from_the_edge() {
    let mut rng = SeededRng::new(2315);
    for _ in 0..100_000 {
        let d = rng.range(1, MAX_DISTANCE);
        let r = rng.range(1, MAX_RADIUS);
        let exact = whole_turns(d, r).expect("decidable in range");
        let x = d as f64 / (2.0 * std::f64::consts::PI * r as f64);
        if (x - x.round()).abs() > 1e-6 {
            assert_eq!(exact, x.floor() as u64, "D = {d}, R = {r}");
        }
    }
}

#[test]
fn extra_case_file() {
    // The extra case of the problem facts, a solver's local input file from
    // demonSong/Algorithm (not an official sample); every
    // case has M = 1, where the formula is the game's value.
    let text = "2 1 30 1\n8 14\n2 1 30 1\n8 12\n2 1 30 1\n8 10\n2 1 30 1\n40 200\n";
    assert_eq!(answer(text), "Alice\nBob\nBob\nBob\n");
    let input = FootballGame::parse(text).expect("valid");
    let checked = agrees_with_search(input.cases, formula, searched_first_wins);
    assert_eq!(checked, 4);
}

#[test]
fn a_cap_of_zero_means_bob_wins() {
    assert_eq!(answer("2 1 6 1\n100 3\n"), "Bob\n");
}

#[test]
fn every_generator_kind_is_accepted_by_the_parser() {
    for kind in TestKind::ALL {
        for seed in 1..=4 {
            let text = FootballGame::generate(kind, &mut SeededRng::new(seed));
            let input = FootballGame::parse(&text)
                .unwrap_or_else(|e| panic!("{kind} seed {seed}: {e}"));
            if kind == TestKind::Max {
                assert_eq!(input.cases.len(), 10_000);
                assert!(input.cases.iter().all(|c| c.piles().len() == MAX_N));
            }
        }
    }
}

#[test]
fn generators_make_both_outcomes() {
    for kind in [TestKind::Small, TestKind::Random, TestKind::Max] {
        let text: String = (1..=6)
            .map(|seed| FootballGame::generate(kind, &mut SeededRng::new(seed)))
            .collect();
        let outcomes = FootballGame::solve(&FootballGame::parse(&text).expect("valid"));
        let losses = outcomes
            .iter()
            .filter(|&&o| o == Outcome::SecondPlayerWins)
            .count();
        // At least a fifth of the cases go each way.
        assert!(losses * 5 >= outcomes.len(), "{kind}: {losses}");
        assert!(
            (outcomes.len() - losses) * 5 >= outcomes.len(),
            "{kind}: {losses}"
        );
    }
}

#[test]
fn small_generated_cases_agree_with_game_search() {
    let cases = (1..=40).flat_map(|seed| {
        let text = FootballGame::generate(TestKind::Small, &mut SeededRng::new(seed));
        FootballGame::parse(&text).expect("valid").cases
    });
    let checked = agrees_with_search(cases, formula, searched_first_wins);
    // One to five cases per input.
    assert!(checked >= 40, "{checked}");
}

#[test]
fn distances_for_a_pile_give_that_pile() {
    let mut rng = SeededRng::new(1);
    for radius in 1..=30 {
        for pile in 1..=60 {
            let d = distance_for_pile(&mut rng, pile, radius);
            assert_eq!(whole_turns(d, radius).map(|q| q + 1), Some(pile));
        }
    }
}

proptest! {
    /// q = whole_turns(D, R) satisfies 2πR·q < D < 2πR·(q + 1), checked
    /// with the bound of π that makes each inequality hardest.
    #[test]
    fn whole_turns_brackets_the_distance(d in 1..=MAX_DISTANCE, r in 1..=MAX_RADIUS) {
        let q = whole_turns(d, r).expect("decidable in range") as u128;
        let scaled = d as u128 * SCALE;
        prop_assert!(2 * r as u128 * q * PI_HIGH < scaled);
        prop_assert!(scaled < 2 * r as u128 * (q + 1) * PI_LOW);
    }

    /// Random valid cases with M ≥ 2 and every pile within the cap agree
    /// with game search.
    #[test]
    fn random_capped_cases_agree_with_game_search(
        raw in prop::collection::vec(1u64..=5, 2..=4),
        m in 2usize..=4,
        extra_cap in 0u64..=2,
    ) {
        let m = m.min(raw.len());
        let cap = raw.iter().copied().max().unwrap_or(1) + extra_cap;
        let case = FootballGameCase::new(raw, m, cap).expect("within the domain");
        agrees_with_search([case], formula, searched_first_wins);
    }
}
