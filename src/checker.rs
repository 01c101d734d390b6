//! Comparing a candidate output with the reference output, token by token.
//!
//! Every hosted problem has exactly one correct output, and none needs a
//! special judge. nimjudge compares whitespace-separated tokens exactly
//! (case-sensitive), so trailing spaces, a missing final newline or CRLF line
//! ends never change a verdict, and a wrong answer is reported with the first
//! token that differs. Pure: no I/O.
//!
//! A [`Difference`] has two wordings: [`Difference::contestant_message`]
//! never names a reference token, so it may be shown to anyone who sees the
//! verdict; its `Display` (the full difference, with the expected token) is
//! for setters, and for contestants only when the problem's feedback is
//! `full`.

use std::fmt;

/// The outcome of comparing one output.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Comparison {
    /// Every token matches.
    Accepted,
    /// The first difference.
    WrongAnswer(Difference),
}

/// Where a candidate output first departs from the reference.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Difference {
    /// 1-based index of the token.
    pub token: usize,
    /// 1-based line of that token in the candidate output (or its last line).
    pub line: usize,
    /// The reference token, `None` if the candidate has too many tokens.
    pub expected: Option<String>,
    /// The candidate token, `None` if the candidate ended early.
    pub found: Option<String>,
}

impl Difference {
    /// The difference without the reference token: where the candidate went
    /// wrong and what it wrote, never what it should have written.
    pub fn contestant_message(&self) -> String {
        match (&self.expected, &self.found) {
            (Some(_), Some(found)) => format!(
                "token {} (line {}): found `{}`, which is wrong",
                self.token,
                self.line,
                shorten(found)
            ),
            (None, Some(_)) => format!("extra output from token {}", self.token),
            (_, None) => format!("the output ended early at token {}", self.token),
        }
    }
}

/// The full difference, naming the expected token: not for contestants
/// unless the problem's feedback is `full`.
impl fmt::Display for Difference {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let show = |t: &Option<String>| match t {
            Some(t) => format!("`{}`", shorten(t)),
            None => "end of output".to_string(),
        };
        write!(
            f,
            "token {} (line {}): expected {}, found {}",
            self.token,
            self.line,
            show(&self.expected),
            show(&self.found)
        )
    }
}

fn shorten(token: &str) -> String {
    const LIMIT: usize = 40;
    if token.chars().count() > LIMIT {
        format!("{}…", token.chars().take(LIMIT).collect::<String>())
    } else {
        token.to_string()
    }
}

/// The separators between tokens: the same bytes the input scanner skips
/// (space, tab, line feed, carriage return, vertical tab, form feed), so an
/// output is split exactly as an input is. (`split_ascii_whitespace` leaves
/// out the vertical tab.)
fn is_separator(c: char) -> bool {
    matches!(c, ' ' | '\t' | '\n' | '\r' | '\x0b' | '\x0c')
}

/// The tokens of one line.
fn words(line: &str) -> impl Iterator<Item = &str> {
    line.split(is_separator).filter(|t| !t.is_empty())
}

/// Tokens of `text` with their 1-based line numbers.
fn tokens(text: &str) -> impl Iterator<Item = (usize, &str)> {
    text.split('\n')
        .enumerate()
        .flat_map(|(i, line)| words(line).map(move |t| (i + 1, t)))
}

/// Compares `candidate` with `expected` token by token.
pub fn compare(expected: &str, candidate: &str) -> Comparison {
    let mut want = words(expected);
    let mut got = tokens(candidate);
    let mut index = 0;
    let mut last_line = 1;
    loop {
        index += 1;
        match (want.next(), got.next()) {
            (None, None) => return Comparison::Accepted,
            (Some(w), Some((line, g))) if w == g => last_line = line,
            (w, g) => {
                return Comparison::WrongAnswer(Difference {
                    token: index,
                    line: g.map_or(last_line, |(line, _)| line),
                    expected: w.map(str::to_string),
                    found: g.map(|(_, t)| t.to_string()),
                });
            }
        }
    }
}

#[cfg(test)]
mod tests {

    #[test]
    fn a_vertical_tab_separates_tokens_as_it_does_in_inputs() {
        assert_eq!(compare("Alice Bob\n", "Alice\x0bBob"), Comparison::Accepted);
        assert_eq!(
            compare("Alice\x0cBob", "Alice\tBob\r\n"),
            Comparison::Accepted
        );
        assert!(matches!(
            compare("Alice Bob", "Alice\u{a0}Bob"),
            Comparison::WrongAnswer(_)
        ));
    }
    use super::*;

    #[test]
    fn whitespace_differences_are_accepted() {
        assert_eq!(
            compare("Alice\nBob\n", "Alice  \r\nBob"),
            Comparison::Accepted
        );
        assert_eq!(compare("1\n2\n", "1 2"), Comparison::Accepted);
    }

    #[test]
    fn the_first_differing_token_is_reported() {
        let Comparison::WrongAnswer(d) = compare("Alice\nBob\nAlice\n", "Alice\nAlice\nAlice\n")
        else {
            panic!("expected a wrong answer");
        };
        assert_eq!(
            d.to_string(),
            "token 2 (line 2): expected `Bob`, found `Alice`"
        );
    }

    #[test]
    fn the_contestant_message_never_names_the_expected_token() {
        let cases = [
            (
                "Alice\nBob\n",
                "Alice\nAlice\n",
                "token 2 (line 2): found `Alice`, which is wrong",
            ),
            ("1\n2\n", "1\n", "the output ended early at token 2"),
            ("1\n", "1\n3\n", "extra output from token 2"),
            ("Bob\n", "", "the output ended early at token 1"),
        ];
        for (expected, candidate, message) in cases {
            let Comparison::WrongAnswer(d) = compare(expected, candidate) else {
                panic!("expected a wrong answer for {candidate:?}");
            };
            assert_eq!(d.contestant_message(), message);
        }
    }

    #[test]
    fn case_matters() {
        assert!(matches!(
            compare("Alice", "alice"),
            Comparison::WrongAnswer(_)
        ));
    }

    #[test]
    fn short_and_long_outputs_are_wrong() {
        let Comparison::WrongAnswer(d) = compare("1\n2\n", "1\n") else {
            panic!("expected a wrong answer");
        };
        assert_eq!(
            d.to_string(),
            "token 2 (line 1): expected `2`, found end of output"
        );
        let Comparison::WrongAnswer(d) = compare("1\n", "1\n3\n") else {
            panic!("expected a wrong answer");
        };
        assert_eq!(
            d.to_string(),
            "token 2 (line 2): expected end of output, found `3`"
        );
        assert!(matches!(compare("0\n", ""), Comparison::WrongAnswer(_)));
    }
}
