//! The table of hosted problems, by id.
//!
//! [`Solver`] is the type-erased face of a [`Problem`]: text in, text out.
//! Everything outside the solver core (CLI, daemon, tests) goes through it.
//! [`ProblemVisitor`] is the typed way round the same list, for code that
//! needs each problem's own types (the benchmark times `parse` and `solve`
//! apart). The list itself is the `hosted_problems!` invocation in the
//! parent module.

use std::marker::PhantomData;

use super::{
    HOSTED, InputError, Problem, SeededRng, TestKind,
    interactive::{Practice, Referee, seed_of},
};

/// A problem seen through text only.
pub trait Solver: Sync {
    /// The problem id.
    fn id(&self) -> &'static str;
    /// Checks an input against every constraint, without solving it.
    fn validate(&self, input: &str) -> Result<(), InputError>;
    /// Validates and solves an input, returning the exact expected output.
    fn solve(&self, input: &str) -> Result<String, InputError>;
    /// A valid input of the given kind; the same seed gives the same text.
    fn generate(&self, kind: TestKind, seed: u64) -> String;
    /// Whether programs play this problem's game against the judge.
    fn interactive(&self) -> bool;
    /// The judge of one testcase of an interactive problem (its replies
    /// seeded by the testcase's text); `None` for a batch problem.
    fn referee(&self, input: &str) -> Result<Option<Box<dyn Referee>>, InputError>;
    /// The game for a person to practise on, for an interactive problem.
    fn practice(&self) -> Option<&'static dyn Practice>;
}

impl std::fmt::Debug for dyn Solver {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_tuple("Solver").field(&self.id()).finish()
    }
}

/// Something done once per hosted problem, with the problem's types; see
/// [`super::for_each_problem`].
pub trait ProblemVisitor {
    fn visit<P: Problem>(&mut self);
}

/// A [`Problem`] as a [`Solver`].
pub(super) struct Erased<P>(PhantomData<fn() -> P>);

impl<P: Problem> Solver for Erased<P> {
    fn id(&self) -> &'static str {
        P::ID
    }

    fn validate(&self, input: &str) -> Result<(), InputError> {
        P::parse(input).map(drop)
    }

    fn solve(&self, input: &str) -> Result<String, InputError> {
        Ok(P::format(&P::answer(input)?))
    }

    fn generate(&self, kind: TestKind, seed: u64) -> String {
        // Mix the kind into the seed so `small 1` and `max 1` are unrelated.
        let salt = kind as u64 + 1;
        P::generate(
            kind,
            &mut SeededRng::new(seed ^ salt.wrapping_mul(0xA24B_AED4_963E_E407)),
        )
    }

    fn interactive(&self) -> bool {
        P::INTERACTIVE
    }

    fn referee(&self, input: &str) -> Result<Option<Box<dyn Referee>>, InputError> {
        if !P::INTERACTIVE {
            return Ok(None);
        }
        Ok(P::referee(&P::parse(input)?, seed_of(input)))
    }

    fn practice(&self) -> Option<&'static dyn Practice> {
        P::practice()
    }
}

pub(super) const fn erased<P: Problem>() -> Erased<P> {
    Erased(PhantomData)
}

/// Every hosted problem, in catalogue order.
pub fn solvers() -> &'static [&'static dyn Solver] {
    HOSTED
}

/// The solver for a problem id, if nimjudge hosts it.
pub fn find(id: &str) -> Option<&'static dyn Solver> {
    HOSTED.iter().copied().find(|solver| solver.id() == id)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::for_each_problem;

    #[test]
    fn every_id_is_registered_once() {
        let mut ids: Vec<_> = solvers().iter().map(|s| s.id()).collect();
        assert!(!ids.is_empty());
        ids.sort_unstable();
        ids.dedup();
        assert_eq!(ids.len(), solvers().len(), "an id is registered twice");
        for id in ids {
            assert_eq!(find(id).map(|s| s.id()), Some(id));
        }
        assert!(find("no-such-problem").is_none());
    }

    /// Collects the ids the visitor is called with.
    struct Ids(Vec<&'static str>);

    impl ProblemVisitor for Ids {
        fn visit<P: Problem>(&mut self) {
            self.0.push(P::ID);
        }
    }

    /// Collects `(problem type, input type)` names, without their paths.
    struct InputNames(Vec<(String, String)>);

    impl ProblemVisitor for InputNames {
        fn visit<P: Problem>(&mut self) {
            let last = |path: &str| path.rsplit("::").next().unwrap_or(path).to_string();
            self.0.push((
                last(std::any::type_name::<P>()),
                last(std::any::type_name::<P::Input>()),
            ));
        }
    }

    #[test]
    fn every_input_type_is_named_after_its_problem() {
        let mut names = InputNames(Vec::new());
        for_each_problem(&mut names);
        for (problem, input) in names.0 {
            assert_eq!(input, format!("{problem}Input"));
        }
    }

    /// Compares each problem's `answer` with `solve(parse(…))`: the same
    /// output on valid inputs, the same error on broken ones (each generated
    /// input cut short, given a stray token, a letter, a negative number).
    struct AnswerAgreesWithParseAndSolve {
        compared: usize,
    }

    impl ProblemVisitor for AnswerAgreesWithParseAndSolve {
        fn visit<P: Problem>(&mut self) {
            let solver = Erased::<P>(PhantomData);
            let by_parse = |text: &str| P::parse(text).map(|input| P::format(&P::solve(&input)));
            let by_answer = |text: &str| P::answer(text).map(|output| P::format(&output));
            for kind in [
                TestKind::Small,
                TestKind::Edge,
                TestKind::Random,
                TestKind::Max,
            ] {
                for seed in 1..=3 {
                    let text = solver.generate(kind, seed);
                    let mut texts = vec![text.clone(), format!("{text}7\n"), format!("x{text}")];
                    let cut = text.trim_end().len();
                    for at in [1, cut / 2, cut.saturating_sub(1)] {
                        if let Some(prefix) = text.get(..at) {
                            texts.push(prefix.to_string());
                        }
                    }
                    if let Some(space) = text.rfind(' ') {
                        texts.push(format!("{}-{}", &text[..=space], &text[space + 1..]));
                    }
                    for text in &texts {
                        let expected = by_parse(text).map_err(|e| e.to_string());
                        let answered = by_answer(text).map_err(|e| e.to_string());
                        assert_eq!(answered, expected, "{} on {text:.60?}", P::ID);
                        self.compared += 1;
                    }
                }
            }
        }
    }

    #[test]
    fn every_answer_agrees_with_parse_and_solve() {
        let mut check = AnswerAgreesWithParseAndSolve { compared: 0 };
        for_each_problem(&mut check);
        assert!(
            check.compared >= solvers().len() * 12 * 6,
            "{}",
            check.compared
        );
    }

    #[test]
    fn the_visitor_walks_the_registry_in_order() {
        let mut visited = Ids(Vec::new());
        for_each_problem(&mut visited);
        let registered: Vec<_> = solvers().iter().map(|s| s.id()).collect();
        assert_eq!(visited.0, registered);
    }
}
