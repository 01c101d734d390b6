//! `misere-nim`: placeholder while the solver is written.

use super::{InputError, Problem, SeededRng, TestKind};

pub struct MisereNim;

impl Problem for MisereNim {
    const ID: &'static str = "misere-nim";
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
