//! xy-game through the public registry: the official sample end to end, and
//! every generator kind producing inputs the strict parser accepts.

use nimjudge::{
    checker::{Comparison, compare},
    solver::{self, TestKind},
};

const SAMPLE_IN: &str = include_str!("../problems/xy-game/testcases/sample-1.in");
const SAMPLE_OUT: &str = include_str!("../problems/xy-game/testcases/sample-1.out");

fn xy_game() -> &'static dyn solver::Solver {
    solver::find("xy-game").expect("xy-game is registered")
}

#[test]
fn the_official_sample_gets_the_official_answer() {
    let answer = xy_game().solve(SAMPLE_IN).unwrap();
    assert_eq!(answer, SAMPLE_OUT);
    assert_eq!(compare(SAMPLE_OUT, &answer), Comparison::Accepted);
}

#[test]
fn every_generator_kind_makes_valid_inputs() {
    for kind in TestKind::ALL {
        for seed in 1..=4 {
            let text = xy_game().generate(kind, seed);
            assert_eq!(
                text,
                xy_game().generate(kind, seed),
                "{kind} {seed} is not deterministic"
            );
            if let Err(err) = xy_game().validate(&text) {
                panic!("{kind} seed {seed} made an invalid input: {err}");
            }
            let answer = xy_game().solve(&text).unwrap();
            let cases = text.split_ascii_whitespace().next().unwrap();
            assert_eq!(
                answer.lines().count().to_string(),
                cases,
                "{kind} seed {seed}"
            );
            assert!(answer.lines().all(|line| line == "Alice" || line == "Bob"));
        }
    }
}

#[test]
fn max_inputs_use_the_whole_pile_budget() {
    for seed in 1..=3 {
        let text = xy_game().generate(TestKind::Max, seed);
        let mut tokens = text
            .split_ascii_whitespace()
            .map(|t| t.parse::<u64>().unwrap());
        let t = tokens.next().unwrap();
        let mut total = 0;
        for _ in 0..t {
            let (n, x, y) = (
                tokens.next().unwrap(),
                tokens.next().unwrap(),
                tokens.next().unwrap(),
            );
            assert_eq!(x % 3, 2, "max inputs use the hard residue X ≡ 2 (mod 3)");
            assert!(x < y && y <= 1_000_000_000);
            for _ in 0..n {
                assert!(tokens.next().unwrap() >= 900_000_000_000_000_000);
            }
            total += n;
        }
        assert_eq!(total, 200_000);
    }
}
