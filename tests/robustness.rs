//! Bad input never panics: every problem's validator and solver either
//! answer or return an `InputError`, on token soup and on valid inputs with
//! one token changed, removed or duplicated.

use nimjudge::solver::{self, TestKind};
use proptest::prelude::*;

/// Tokens near the edges of every problem's constraints.
const TOKENS: &[&str] = &[
    "0",
    "1",
    "2",
    "3",
    "5",
    "30",
    "100",
    "101",
    "9999",
    "10000",
    "100000",
    "200000",
    "200001",
    "99999999",
    "100000000",
    "1000000000",
    "1000000000000000000",
    "2000000000000000000",
    "18446744073709551615",
    "18446744073709551616",
    "-1",
    "x",
    "o",
    "oxo",
    "1.5",
    "１",
];

fn token() -> impl Strategy<Value = String> {
    prop_oneof![
        prop::sample::select(TOKENS).prop_map(str::to_string),
        any::<u64>().prop_map(|n| n.to_string()),
        "[ox]{1,12}",
    ]
}

fn separator() -> impl Strategy<Value = &'static str> {
    prop::sample::select(&[" ", "\n", "\r\n", "\t", "  "][..])
}

/// Solves `text` with every problem; the point is that this returns.
fn every_problem_answers_or_refuses(text: &str) {
    for s in solver::solvers() {
        match s.solve(text) {
            Ok(output) => assert!(output.ends_with('\n'), "{}: {output:?}", s.id()),
            Err(e) => assert!(e.line() >= 1, "{}: {e}", s.id()),
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn token_soup_is_answered_or_refused(tokens in prop::collection::vec((token(), separator()), 0..40)) {
        let text: String = tokens.iter().map(|(t, sep)| format!("{t}{sep}")).collect();
        every_problem_answers_or_refuses(&text);
    }

    #[test]
    fn arbitrary_text_is_answered_or_refused(text in "\\PC{0,200}") {
        every_problem_answers_or_refuses(&text);
    }

    #[test]
    fn a_valid_input_with_one_token_changed_is_answered_or_refused(
        problem in any::<prop::sample::Index>(),
        seed in 0..50u64,
        position in any::<prop::sample::Index>(),
        replacement in token(),
        edit in 0..3u8,
    ) {
        let s = solver::solvers()[problem.index(solver::solvers().len())];
        let text = s.generate(TestKind::Small, seed);
        let mut tokens: Vec<String> = text.split_ascii_whitespace().map(str::to_string).collect();
        let i = position.index(tokens.len().max(1)).min(tokens.len().saturating_sub(1));
        match edit {
            0 if !tokens.is_empty() => tokens[i] = replacement,
            1 if !tokens.is_empty() => { tokens.remove(i); }
            _ => tokens.insert(i, replacement),
        }
        let mutated = tokens.join("\n");
        match s.solve(&mutated) {
            Ok(output) => prop_assert!(output.ends_with('\n')),
            Err(e) => prop_assert!(!e.to_string().is_empty()),
        }
    }
}
