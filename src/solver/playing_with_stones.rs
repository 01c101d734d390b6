//! `playing-with-stones`: placeholder while the solver is written.

use super::{InputError, Problem, SeededRng, TestKind};

pub struct PlayingWithStones;

impl Problem for PlayingWithStones {
    const ID: &'static str = "playing-with-stones";
    type Input = ();
    type Output = ();

    fn parse(_text: &str) -> Result<(), InputError> {
        Err(InputError::Invalid {
            line: 1,
            message: "not hosted yet".into(),
        })
    }

    fn solve(_input: &()) {}

    fn format(_output: &()) -> String {
        String::new()
    }

    fn generate(_kind: TestKind, _rng: &mut SeededRng) -> String {
        String::new()
    }
}
