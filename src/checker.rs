//! Comparing a candidate output with the reference output, token by token.
//!
//! Every hosted problem has exactly one correct output, and none needs a
//! special judge. nimjudge compares whitespace-separated tokens exactly
//! (case-sensitive), so trailing spaces, a missing final newline or CRLF line
//! ends never change a verdict, and a wrong answer is reported with the first
//! token that differs. A problem imported from a Kattis package without
//! `case_sensitive` compares as Kattis' default output validator does, its
//! tokens' ASCII letters in either case ([`Case::Insensitive`]). It opens no
//! file or socket.
//!
//! A [`Difference`] has two wordings: [`Difference::contestant_message`]
//! never names a reference token, so it may be shown to anyone who sees the
//! verdict; its `Display` (the full difference, with the expected token) is
//! for setters, and for contestants only when the problem's feedback is
//! `full`.
//!
//! The candidate is bytes, fed whole or in pieces ([`Comparer`]), so an
//! output that is not UTF-8 is a wrong answer, and one of any length costs
//! memory bounded by the reference. The module opens nothing:
//! [`compare_reader`] reads from whatever reader it is handed.

use std::fmt;

/// Whether letters must match in case.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Case {
    /// `First` is not `first`: every hosted problem.
    #[default]
    Sensitive,
    /// ASCII letters match in either case, as Kattis' default output
    /// validator compares unless a package asks for `case_sensitive`.
    Insensitive,
}

impl Case {
    /// The rule a problem's `case_sensitive` setting names.
    pub fn new(case_sensitive: bool) -> Case {
        if case_sensitive {
            Case::Sensitive
        } else {
            Case::Insensitive
        }
    }
}

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
fn is_separator(byte: u8) -> bool {
    matches!(byte, b' ' | b'\t' | b'\n' | b'\r' | 0x0b | 0x0c)
}

/// The tokens of the reference output.
fn words(text: &str) -> impl Iterator<Item = &str> {
    text.split(|c: char| c.is_ascii() && is_separator(c as u8))
        .filter(|t| !t.is_empty())
}

/// Compares `candidate` with `expected` token by token. The candidate is
/// bytes: an output that is not UTF-8 is a wrong answer like any other,
/// with its token shown with the invalid bytes replaced.
pub fn compare(expected: &str, candidate: impl AsRef<[u8]>) -> Comparison {
    compare_in(Case::Sensitive, expected, candidate)
}

/// [`compare`] with the letters' case as `case` says.
pub fn compare_in(case: Case, expected: &str, candidate: impl AsRef<[u8]>) -> Comparison {
    let mut comparer = Comparer::new(expected).with_case(case);
    comparer.feed(candidate.as_ref());
    comparer.finish()
}

/// Compares the candidate read from `reader`, a buffer at a time, stopping
/// at the first difference: an output of any size costs a fixed buffer.
pub fn compare_reader(expected: &str, reader: impl std::io::Read) -> std::io::Result<Comparison> {
    compare_reader_in(Case::Sensitive, expected, reader)
}

/// [`compare_reader`] with the letters' case as `case` says.
pub fn compare_reader_in(
    case: Case,
    expected: &str,
    mut reader: impl std::io::Read,
) -> std::io::Result<Comparison> {
    let mut comparer = Comparer::new(expected).with_case(case);
    let mut buffer = vec![0u8; 64 * 1024];
    while !comparer.is_decided() {
        match reader.read(&mut buffer) {
            Ok(0) => break,
            Ok(read) => comparer.feed(&buffer[..read]),
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(comparer.finish())
}

/// A comparison fed the candidate output in pieces of any size, as it is
/// read: memory stays bounded by the reference, however long the
/// candidate. Once a difference is found the rest is skipped.
#[derive(Debug)]
pub struct Comparer<'a> {
    /// The reference output and how far its tokens have been taken.
    expected: &'a str,
    expected_at: usize,
    /// The start of the candidate's current token, kept up to `kept_limit`
    /// bytes: enough to compare with any reference token and to show it.
    token: Vec<u8>,
    /// The current token's full length (it may be longer than kept).
    token_len: usize,
    kept_limit: usize,
    in_token: bool,
    /// The candidate's current line and the line its current token began on.
    line: usize,
    token_line: usize,
    /// Tokens compared so far, and the line of the last matching one.
    compared: usize,
    last_line: usize,
    difference: Option<Difference>,
    case: Case,
}

/// Bytes of a candidate token kept for showing it, beyond those needed to
/// compare: `shorten` shows 40 characters of at most 4 bytes each.
const SHOWN_BYTES: usize = 4 * 41;

impl<'a> Comparer<'a> {
    pub fn new(expected: &'a str) -> Comparer<'a> {
        let longest = words(expected).map(str::len).max().unwrap_or(0);
        Comparer {
            expected,
            expected_at: 0,
            token: Vec::new(),
            token_len: 0,
            kept_limit: (longest + 1).max(SHOWN_BYTES),
            in_token: false,
            line: 1,
            token_line: 1,
            compared: 0,
            last_line: 1,
            difference: None,
            case: Case::Sensitive,
        }
    }

    /// The same comparison with the letters' case as `case` says.
    pub fn with_case(mut self, case: Case) -> Comparer<'a> {
        self.case = case;
        self
    }

    /// Takes the next piece of the candidate output.
    pub fn feed(&mut self, bytes: &[u8]) {
        for &byte in bytes {
            if self.difference.is_some() {
                return;
            }
            if is_separator(byte) {
                if self.in_token {
                    self.end_token();
                }
                if byte == b'\n' {
                    self.line += 1;
                }
            } else {
                if !self.in_token {
                    self.in_token = true;
                    self.token.clear();
                    self.token_len = 0;
                    self.token_line = self.line;
                }
                if self.token.len() < self.kept_limit {
                    self.token.push(byte);
                }
                self.token_len += 1;
            }
        }
    }

    /// Whether a difference has been found already (the rest need not be
    /// read).
    pub fn is_decided(&self) -> bool {
        self.difference.is_some()
    }

    /// The verdict once the whole candidate has been fed.
    pub fn finish(mut self) -> Comparison {
        if self.in_token {
            self.end_token();
        }
        if let Some(difference) = self.difference {
            return Comparison::WrongAnswer(difference);
        }
        match self.next_expected() {
            None => Comparison::Accepted,
            Some(want) => Comparison::WrongAnswer(Difference {
                token: self.compared + 1,
                line: self.last_line,
                expected: Some(want.to_string()),
                found: None,
            }),
        }
    }

    /// The reference's next token.
    fn next_expected(&mut self) -> Option<&'a str> {
        let rest = &self.expected.as_bytes()[self.expected_at..];
        let start = rest.iter().position(|&b| !is_separator(b))?;
        let len = rest[start..]
            .iter()
            .position(|&b| is_separator(b))
            .unwrap_or(rest.len() - start);
        let from = self.expected_at + start;
        self.expected_at = from + len;
        // Separators are ASCII, so these are character boundaries.
        self.expected.get(from..from + len)
    }

    fn end_token(&mut self) {
        self.in_token = false;
        self.compared += 1;
        let want = self.next_expected();
        let whole = self.token_len == self.token.len();
        let same = |w: &str| match self.case {
            Case::Sensitive => w.as_bytes() == self.token.as_slice(),
            Case::Insensitive => w.as_bytes().eq_ignore_ascii_case(&self.token),
        };
        if want.is_some_and(|w| whole && same(w)) {
            self.last_line = self.token_line;
            return;
        }
        let mut found = String::from_utf8_lossy(&self.token).into_owned();
        if !whole {
            // Cut where it was cut, so `shorten` marks it as longer.
            found.push('…');
        }
        self.difference = Some(Difference {
            token: self.compared,
            line: self.token_line,
            expected: want.map(str::to_string),
            found: Some(found),
        });
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    /// The comparison as first written, on whole UTF-8 texts with `split`:
    /// the oracle the streaming comparer is checked against.
    fn split_compare(expected: &str, candidate: &str) -> Comparison {
        let sep = |c: char| matches!(c, ' ' | '\t' | '\n' | '\r' | '\x0b' | '\x0c');
        let mut want = expected.split(sep).filter(|t| !t.is_empty());
        let mut got = candidate.split('\n').enumerate().flat_map(|(i, line)| {
            line.split(sep)
                .filter(|t| !t.is_empty())
                .map(move |t| (i + 1, t))
        });
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

    /// Texts over a few tokens and every separator, so that equal,
    /// reordered, short and long outputs all come up.
    fn text() -> impl Strategy<Value = String> {
        proptest::collection::vec(
            prop_oneof![
                Just("Alice"),
                Just("aLICE"),
                Just("Bob"),
                Just("1"),
                Just("12"),
                Just("é"),
                Just(" "),
                Just("\n"),
                Just("\r\n"),
                Just("\t"),
                Just("\x0b"),
                Just("\x0c"),
            ],
            0..12,
        )
        .prop_map(|parts| parts.concat())
    }

    proptest! {
        #[test]
        fn fed_in_pieces_it_agrees_with_the_whole_text_split(
            expected in text(),
            candidate in text(),
            piece in 1usize..5,
        ) {
            let mut comparer = Comparer::new(&expected);
            for chunk in candidate.as_bytes().chunks(piece) {
                comparer.feed(chunk);
            }
            prop_assert_eq!(comparer.finish(), split_compare(&expected, &candidate));
        }

        #[test]
        fn without_case_it_accepts_what_agrees_once_ascii_letters_are_lowered(
            expected in text(),
            candidate in text(),
        ) {
            let lowered = split_compare(&expected.to_ascii_lowercase(), &candidate.to_ascii_lowercase());
            let got = compare_in(Case::Insensitive, &expected, &candidate);
            prop_assert_eq!(got == Comparison::Accepted, lowered == Comparison::Accepted);
            if let (Comparison::WrongAnswer(got), Comparison::WrongAnswer(lowered)) = (got, lowered) {
                prop_assert_eq!((got.token, got.line), (lowered.token, lowered.line));
            }
        }
    }

    #[test]
    fn without_case_only_ascii_letters_match_in_either_case() {
        assert_eq!(
            compare_in(Case::Insensitive, "First 12\n", "fIRST 12"),
            Comparison::Accepted
        );
        assert_ne!(compare("First\n", "first"), Comparison::Accepted);
        assert_ne!(
            compare_in(Case::Insensitive, "É", "é"),
            Comparison::Accepted
        );
        let mut file: &[u8] = b"SECOND\n";
        let read = compare_reader_in(Case::Insensitive, "second", &mut file).expect("read");
        assert_eq!(read, Comparison::Accepted);
    }

    #[test]
    fn an_output_that_is_not_utf8_is_a_wrong_answer_naming_its_token() {
        let Comparison::WrongAnswer(d) = compare("Alice\nBob\n", b"Alice\nB\xffb\n") else {
            panic!("expected a wrong answer");
        };
        assert_eq!(d.token, 2);
        assert_eq!(d.line, 2);
        assert_eq!(d.found.as_deref(), Some("B\u{fffd}b"));
    }

    #[test]
    fn a_huge_token_is_kept_short_and_shown_cut() {
        let mut comparer = Comparer::new("Alice\n");
        for _ in 0..1000 {
            comparer.feed(&[b'x'; 1000]);
        }
        assert!(
            comparer.token.len() <= SHOWN_BYTES,
            "kept {}",
            comparer.token.len()
        );
        let Comparison::WrongAnswer(d) = comparer.finish() else {
            panic!("expected a wrong answer");
        };
        assert!(
            d.contestant_message().ends_with("…`, which is wrong"),
            "{}",
            d.contestant_message()
        );
    }

    #[test]
    fn a_token_longer_than_the_reference_by_one_byte_is_wrong() {
        let long = "9".repeat(SHOWN_BYTES + 10);
        let candidate = format!("{long}9");
        assert!(matches!(
            compare(&long, &candidate),
            Comparison::WrongAnswer(_)
        ));
        assert_eq!(compare(&long, &long), Comparison::Accepted);
    }

    #[test]
    fn nothing_more_is_read_once_a_difference_is_found() {
        let mut comparer = Comparer::new("1 2 3");
        comparer.feed(b"1 5 ");
        assert!(comparer.is_decided());
    }

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
