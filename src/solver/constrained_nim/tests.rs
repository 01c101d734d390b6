//! Tests of the constrained-nim solver: the Grundy table against the rules'
//! mex DP on every small forbidden set, whole games against the XOR of
//! brute-force values, the official samples and the generators. The
//! validator's messages are checked from data, in
//! `problems/constrained-nim/invalid/`.

use super::{
    generator::small_instance,
    table::first_size_with_value,
    *,
};
use crate::solver::grundy::{agrees_with_search, grundy_table};
use proptest::prelude::*;

/// g(0..=max) from the rules: from n, remove any 1 ≤ y ≤ n unless (n, y)
/// is forbidden.
fn brute_grundy(max: u64, forbidden: &[(u64, u64)]) -> Vec<u64> {
    grundy_table(max as usize, |n, out| {
        let n = n as u64;
        for y in 1..=n {
            if !forbidden.contains(&(n, y)) {
                out.push((n - y) as usize);
            }
        }
    })
}

/// The table's g(0..=max) for one forbidden set. With the brute force's,
/// it decides every pile multiset with piles ≤ max (the winner is the XOR
/// of per-pile values).
fn table_values(max: u64, pairs: &[(u64, u64)]) -> Vec<u64> {
    let input = ConstrainedNimInput::new(vec![1], pairs.to_vec()).expect("well-formed pairs");
    let table = GrundyTable::build(input.forbidden());
    (0..=max).map(|n| table.value(n)).collect()
}

fn answer(text: &str) -> String {
    ConstrainedNim::format(&ConstrainedNim::solve(
        &ConstrainedNim::parse(text).expect("valid input"),
    ))
}

#[test]
fn every_forbidden_set_with_sizes_up_to_five_matches_the_brute_force() {
    let all: Vec<(u64, u64)> = (1..=5u64)
        .flat_map(|x| (1..=x).map(move |y| (x, y)))
        .collect();
    assert_eq!(all.len(), 15);
    let sets = (0u32..1 << all.len()).map(|mask| {
        all.iter()
            .enumerate()
            .filter(|&(i, _)| mask >> i & 1 == 1)
            .map(|(_, &p)| p)
            .collect::<Vec<_>>()
    });
    // Sizes above 5 carry no forbidden move but their values depend on the
    // ones below.
    let checked = agrees_with_search(
        sets,
        |pairs| table_values(9, pairs),
        |pairs| brute_grundy(9, pairs),
    );
    assert_eq!(checked, 1 << 15);
}

#[test]
fn random_forbidden_sets_up_to_forty_match_the_brute_force() {
    let mut rng = SeededRng::new(255);
    let sets = std::iter::repeat_with(|| {
        let max = rng.range(1, 40);
        let wanted = rng.range_usize(1, 60);
        let mut pairs = Vec::new();
        for _ in 0..wanted {
            let x = rng.range(1, max);
            // Half the time aim at small removals, where values collide.
            let y = if rng.chance(1, 2) {
                rng.range(1, x.min(4))
            } else {
                rng.range(1, x)
            };
            pairs.push((x, y));
        }
        pairs.sort_unstable();
        pairs.dedup();
        (max, pairs)
    });
    let checked = agrees_with_search(
        sets.take(3000),
        |(max, pairs)| table_values(*max, pairs),
        |(max, pairs)| brute_grundy(*max, pairs),
    );
    assert_eq!(checked, 3000);
}

/// The winner of a whole game: the XOR of the brute force's values.
fn searched_outcome(piles: &[u64], pairs: &[(u64, u64)]) -> Outcome {
    let brute = brute_grundy(30, pairs);
    let xor = piles.iter().fold(0, |acc, &a| acc ^ brute[a as usize]);
    Outcome::from_first_wins(xor != 0)
}

fn solved_outcome(piles: &[u64], pairs: &[(u64, u64)]) -> Outcome {
    let input = ConstrainedNimInput::new(piles.to_vec(), pairs.to_vec()).expect("well-formed");
    ConstrainedNim::solve(&input)
}

#[test]
fn solving_agrees_with_the_xor_of_brute_force_values() {
    let mut rng = SeededRng::new(7);
    let instances = std::iter::repeat_with(|| small_instance(&mut rng, 30));
    let checked = agrees_with_search(
        instances.take(500),
        |(piles, pairs)| solved_outcome(piles, pairs),
        |(piles, pairs)| searched_outcome(piles, pairs),
    );
    assert_eq!(checked, 500);
}

/// For each v ≤ 40, the first size n ≤ 60 with g(n) = v, if there is one.
#[test]
fn the_first_size_with_a_value_matches_the_brute_force() {
    let mut rng = SeededRng::new(3);
    let sets = std::iter::repeat_with(|| small_instance(&mut rng, 30).1);
    let checked = agrees_with_search(
        sets.take(500),
        |pairs| {
            let mut sorted = pairs.clone();
            sorted.sort_unstable();
            let table = GrundyTable::build(&sorted);
            (0..=40)
                .map(|v| first_size_with_value(&table, v).filter(|&n| n <= 60))
                .collect::<Vec<_>>()
        },
        |pairs| {
            let brute = brute_grundy(60, pairs);
            (0..=40)
                .map(|v| brute.iter().position(|&g| g == v).map(|n| n as u64))
                .collect::<Vec<_>>()
        },
    );
    assert_eq!(checked, 500);
}

#[test]
fn generators_make_both_outcomes() {
    for kind in [TestKind::Small, TestKind::Random, TestKind::Max] {
        let outcomes: Vec<Outcome> = (1..=8)
            .map(|seed| {
                let text = ConstrainedNim::generate(kind, &mut SeededRng::new(seed));
                ConstrainedNim::solve(&ConstrainedNim::parse(&text).expect("valid"))
            })
            .collect();
        assert!(outcomes.contains(&Outcome::FirstPlayerWins), "{kind}");
        assert!(outcomes.contains(&Outcome::SecondPlayerWins), "{kind}");
    }
}

#[test]
fn official_samples() {
    for (input, output) in [
        (
            include_str!("../../../problems/constrained-nim/testcases/sample-1.in"),
            include_str!("../../../problems/constrained-nim/testcases/sample-1.out"),
        ),
        (
            include_str!("../../../problems/constrained-nim/testcases/sample-2.in"),
            include_str!("../../../problems/constrained-nim/testcases/sample-2.out"),
        ),
    ] {
        assert_eq!(answer(input), output);
    }
}

#[test]
fn huge_sizes_follow_the_counting_rule() {
    // With (1, 1) forbidden, g(1) = 0 and from 2 on every size is a new
    // maximum one above the previous: g(n) = n − 1.
    let table = GrundyTable::build(&[(1, 1)]);
    assert_eq!(table.value(1), 0);
    assert_eq!(table.value(2), 1);
    assert_eq!(table.value(MAX_VALUE), MAX_VALUE - 1);
    // Forbidding the removal of one stone at X = 10^18 hides the only
    // occurrence of the value X − 1, so g(X) = X − 1; above X the count
    // resumes from h(X) = X − 1.
    let table = GrundyTable::build(&[(MAX_VALUE, 1)]);
    assert_eq!(table.value(MAX_VALUE - 1), MAX_VALUE - 1);
    assert_eq!(table.value(MAX_VALUE), MAX_VALUE - 1);
}

#[test]
fn every_generator_kind_is_accepted_by_the_parser() {
    for kind in TestKind::ALL {
        for seed in 1..=3 {
            let text = ConstrainedNim::generate(kind, &mut SeededRng::new(seed));
            let input = ConstrainedNim::parse(&text)
                .unwrap_or_else(|e| panic!("{kind} seed {seed}: {e}"));
            if kind == TestKind::Max {
                assert_eq!(input.piles().len(), MAX_N);
                assert_eq!(input.forbidden().len(), MAX_M);
            }
            if kind == TestKind::Small {
                assert!(input.piles().iter().all(|&a| a <= 30));
            }
        }
    }
}

proptest! {
    #[test]
    fn random_small_instances_match_the_brute_force(
        piles in prop::collection::vec(1u64..=25, 1..6),
        raw in prop::collection::vec((1u64..=25, 0u64..25), 1..40),
    ) {
        let mut pairs: Vec<(u64, u64)> = raw.iter().map(|&(x, y)| (x, 1 + y % x)).collect();
        pairs.sort_unstable();
        pairs.dedup();
        agrees_with_search(
            [(piles, pairs)],
            |(piles, pairs)| solved_outcome(piles, pairs),
            |(piles, pairs)| searched_outcome(piles, pairs),
        );
    }
}
