//! The multi-case pile layout shared by `misere-nim` and
//! `playing-with-stones`: `T` on the first line, then for each case a line
//! with `n` and a line with the `n` pile sizes.

use super::{
    input::{Field, InputError, Scanner},
    push_numbers,
};

/// The names and bounds of one problem's version of the layout.
pub struct PileCasesFormat {
    pub max_cases: usize,
    /// Name of the pile count, e.g. `n` or `N`.
    pub count: &'static str,
    pub max_count: usize,
    /// Generic name of a pile size, e.g. `s_i` or `a_i`.
    pub pile: &'static str,
    pub min_pile: u64,
    pub max_pile: u64,
}

impl PileCasesFormat {
    /// Reads and validates every case.
    pub fn parse(&self, text: &str) -> Result<Vec<Vec<u64>>, InputError> {
        let mut s = Scanner::new(text);
        let t = s.usize(Field::new("T"), 1, self.max_cases)?;
        let mut cases = Vec::with_capacity(t);
        for case in 1..=t {
            let n = s.usize(Field::new(self.count).in_case(case), 1, self.max_count)?;
            let mut piles = Vec::with_capacity(n);
            for i in 1..=n {
                let field = Field::new(self.pile).at(i).in_case(case);
                piles.push(s.u64(field, self.min_pile, self.max_pile)?);
            }
            cases.push(piles);
        }
        s.finish()?;
        Ok(cases)
    }
}

/// Renders cases in the layout.
pub fn render(cases: &[Vec<u64>]) -> String {
    let mut out = String::new();
    push_numbers(&mut out, [cases.len() as u64]);
    for piles in cases {
        push_numbers(&mut out, [piles.len() as u64]);
        push_numbers(&mut out, piles.iter().copied());
    }
    out
}
