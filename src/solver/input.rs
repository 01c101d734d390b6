//! Strict, allocation-free reading of problem inputs.
//!
//! A [`Scanner`] walks the input bytes once, splitting on ASCII whitespace and
//! counting lines, and reads integers straight from the bytes (no `String` per
//! token). Every read names the field it expects, so an error can say which
//! line, which token and which constraint is at fault. Problems read by tokens,
//! the way contest judges do: line breaks are whitespace, but they are counted
//! so messages can point at the right line.

use std::fmt;

/// What a problem input got wrong. Every variant carries the 1-based line.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum InputError {
    /// The input ended before a required token.
    #[error("line {line}: expected {field}, but the input ended")]
    Missing { line: usize, field: String },
    /// A token that should be an integer is not one.
    #[error("line {line}: token `{token}` is not an integer (expected {field})")]
    NotInteger {
        line: usize,
        token: String,
        field: String,
    },
    /// An integer outside the range a constraint allows.
    #[error("line {line}: {field} = {token} violates the constraint {constraint}")]
    OutOfRange {
        line: usize,
        token: String,
        field: String,
        constraint: String,
    },
    /// A token after the last one the problem reads.
    #[error("line {line}: unexpected token `{token}` after the end of the input")]
    Extra { line: usize, token: String },
    /// A constraint that spans several tokens (duplicates, lengths, domains).
    #[error("line {line}: {message}")]
    Invalid { line: usize, message: String },
}

impl InputError {
    /// The line the error points at.
    pub fn line(&self) -> usize {
        match self {
            InputError::Missing { line, .. }
            | InputError::NotInteger { line, .. }
            | InputError::OutOfRange { line, .. }
            | InputError::Extra { line, .. }
            | InputError::Invalid { line, .. } => *line,
        }
    }
}

/// The name of the value being read, e.g. `A_3` in case 2. Cheap to build;
/// only rendered when an error is reported.
#[derive(Debug, Clone, Copy)]
pub struct Field {
    /// Generic name used in constraints, e.g. `A_i` or `N`.
    name: &'static str,
    /// 1-based index substituted for the trailing `_i` in messages.
    index: Option<usize>,
    /// 1-based test case number for multi-case inputs.
    case: Option<usize>,
}

impl Field {
    pub const fn new(name: &'static str) -> Self {
        Field {
            name,
            index: None,
            case: None,
        }
    }

    /// The `i`-th (1-based) element of an indexed family such as `A_i`.
    pub const fn at(self, index: usize) -> Self {
        Field {
            index: Some(index),
            ..self
        }
    }

    /// The same field inside test case `case` (1-based).
    pub const fn in_case(self, case: usize) -> Self {
        Field {
            case: Some(case),
            ..self
        }
    }

    /// The generic name, as used in constraint text.
    pub fn generic_name(&self) -> &'static str {
        self.name
    }
}

impl fmt::Display for Field {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.index, self.name.strip_suffix("_i")) {
            (Some(i), Some(stem)) => write!(f, "{stem}_{i}")?,
            (Some(i), None) => write!(f, "{}[{i}]", self.name)?,
            (None, _) => f.write_str(self.name)?,
        }
        if let Some(case) = self.case {
            write!(f, " of test case {case}")?;
        }
        Ok(())
    }
}

/// Renders a bound the way statements write it: `10^18`, `2·10^5`, or plain digits.
pub fn pretty_bound(value: u64) -> String {
    if value >= 10_000 {
        let mut mantissa = value;
        let mut exponent = 0;
        while mantissa.is_multiple_of(10) {
            mantissa /= 10;
            exponent += 1;
        }
        if mantissa < 10 && exponent >= 4 {
            return if mantissa == 1 {
                format!("10^{exponent}")
            } else {
                format!("{mantissa}·10^{exponent}")
            };
        }
    }
    value.to_string()
}

/// The constraint text `min ≤ name ≤ max`.
pub fn range_text(name: &str, min: u64, max: u64) -> String {
    format!("{} ≤ {name} ≤ {}", pretty_bound(min), pretty_bound(max))
}

/// Longest token echoed back in a message; longer ones are cut with `…`.
const ECHO_LIMIT: usize = 40;

fn echo(token: &[u8]) -> String {
    let text = String::from_utf8_lossy(token);
    if text.chars().count() > ECHO_LIMIT {
        let cut: String = text.chars().take(ECHO_LIMIT).collect();
        format!("{cut}…")
    } else {
        text.into_owned()
    }
}

/// A whitespace-separated token reader over one input text.
pub struct Scanner<'a> {
    bytes: &'a [u8],
    pos: usize,
    /// 1-based line of `pos`.
    cursor_line: usize,
    /// 1-based line of the last token read: where a missing token is reported,
    /// since trailing newlines say nothing about where the input stopped.
    line: usize,
}

impl<'a> Scanner<'a> {
    pub fn new(text: &'a str) -> Self {
        Scanner {
            bytes: text.as_bytes(),
            pos: 0,
            cursor_line: 1,
            line: 1,
        }
    }

    /// Skips whitespace, counting newlines.
    #[inline]
    fn skip_whitespace(&mut self) {
        while let Some(&b) = self.bytes.get(self.pos) {
            match b {
                b'\n' => self.cursor_line += 1,
                b' ' | b'\t' | b'\r' | b'\x0b' | b'\x0c' => {}
                _ => break,
            }
            self.pos += 1;
        }
    }

    /// The next token and its line, or `None` at the end of the input.
    #[inline]
    fn token(&mut self) -> Option<(&'a [u8], usize)> {
        self.skip_whitespace();
        let start = self.pos;
        while let Some(&b) = self.bytes.get(self.pos) {
            if ends_token(b) {
                break;
            }
            self.pos += 1;
        }
        if self.pos == start {
            return None;
        }
        self.line = self.cursor_line;
        Some((&self.bytes[start..self.pos], self.line))
    }

    /// True when only whitespace is left.
    pub fn at_end(&mut self) -> bool {
        self.skip_whitespace();
        self.pos == self.bytes.len()
    }

    /// The line of the last token read.
    pub fn line(&self) -> usize {
        self.line
    }

    /// Reads an integer in `min..=max`.
    #[inline]
    pub fn u64(&mut self, field: Field, min: u64, max: u64) -> Result<u64, InputError> {
        // The common case in one pass: up to nineteen digits (no overflow
        // possible), then a separator or the end. Anything else (a sign, a
        // letter, twenty digits, nothing) goes the general way below.
        self.skip_whitespace();
        let start = self.pos;
        let end = self.bytes.len().min(start + 19);
        let mut value: u64 = 0;
        let mut at = start;
        // Eight digits at a time where they are (the long values of large
        // inputs), without a multiply chain through every digit.
        while let Some(chunk) = self.bytes[at..end].first_chunk::<8>() {
            match eight_digits(u64::from_le_bytes(*chunk)) {
                Some(eight) => {
                    value = value * 100_000_000 + eight;
                    at += 8;
                }
                None => break,
            }
        }
        while at < end {
            let digit = self.bytes[at].wrapping_sub(b'0');
            if digit > 9 {
                break;
            }
            value = value * 10 + u64::from(digit);
            at += 1;
        }
        if at > start && self.bytes.get(at).is_none_or(|&b| ends_token(b)) {
            self.pos = at;
            self.line = self.cursor_line;
            if value < min || value > max {
                return Err(InputError::OutOfRange {
                    line: self.line,
                    token: echo(&self.bytes[start..at]),
                    field: field.to_string(),
                    constraint: range_text(field.generic_name(), min, max),
                });
            }
            return Ok(value);
        }
        self.u64_token(field, min, max)
    }

    /// [`Scanner::u64`] by whole tokens: twenty digits, and every error.
    #[cold]
    fn u64_token(&mut self, field: Field, min: u64, max: u64) -> Result<u64, InputError> {
        let (token, line) = self.token().ok_or_else(|| InputError::Missing {
            line: self.line,
            field: field.to_string(),
        })?;
        let value = match parse_u64(token) {
            Some(value) => value,
            None => return Err(integer_error(token, line, field, min, max)),
        };
        if value < min || value > max {
            return Err(InputError::OutOfRange {
                line,
                token: echo(token),
                field: field.to_string(),
                constraint: range_text(field.generic_name(), min, max),
            });
        }
        Ok(value)
    }

    /// Reads an integer in `min..=max` that fits a `usize` (counts, lengths).
    #[inline]
    pub fn usize(&mut self, field: Field, min: usize, max: usize) -> Result<usize, InputError> {
        self.u64(field, min as u64, max as u64).map(|v| v as usize)
    }

    /// Reads a non-empty token as text (for string-valued inputs).
    pub fn word(&mut self, field: Field) -> Result<(&'a [u8], usize), InputError> {
        self.token().ok_or_else(|| InputError::Missing {
            line: self.line,
            field: field.to_string(),
        })
    }

    /// Succeeds only when no token is left.
    pub fn finish(mut self) -> Result<(), InputError> {
        match self.token() {
            None => Ok(()),
            Some((token, line)) => Err(InputError::Extra {
                line,
                token: echo(token),
            }),
        }
    }
}

/// The value of eight ASCII digits read little-endian (the first digit in
/// the lowest byte), or `None` if one byte is not a digit. The checks and
/// the three multiplications are simdjson's (Lemire, "Parsing series of
/// integers with SIMD", and simdjson's `parse_eight_digits_unrolled`).
#[inline]
fn eight_digits(chunk: u64) -> Option<u64> {
    let high = chunk & 0xF0F0_F0F0_F0F0_F0F0;
    let carried = (chunk.wrapping_add(0x0606_0606_0606_0606) & 0xF0F0_F0F0_F0F0_F0F0) >> 4;
    if high | carried != 0x3333_3333_3333_3333 {
        return None;
    }
    let mut value = chunk & 0x0F0F_0F0F_0F0F_0F0F;
    value = value.wrapping_mul(2561) >> 8;
    value = (value & 0x00FF_00FF_00FF_00FF).wrapping_mul(6_553_601) >> 16;
    value = (value & 0x0000_FFFF_0000_FFFF).wrapping_mul(42_949_672_960_001) >> 32;
    Some(value)
}

/// Whether `b` ends a token: ASCII whitespace, vertical tab included.
#[inline]
fn ends_token(b: u8) -> bool {
    b.is_ascii_whitespace() || b == b'\x0b'
}

/// Parses an unsigned decimal integer; `None` if it is not one or overflows
/// `u64`. Leading zeros change nothing, however many there are.
#[inline]
fn parse_u64(token: &[u8]) -> Option<u64> {
    let first = token
        .iter()
        .position(|&b| b != b'0')
        .unwrap_or(token.len().saturating_sub(1));
    let token = &token[first..];
    if token.is_empty() || token.len() > 20 {
        return None;
    }
    let mut value: u64 = 0;
    if token.len() <= 19 {
        // Nineteen digits cannot overflow a u64.
        for &b in token {
            let digit = b.wrapping_sub(b'0');
            if digit > 9 {
                return None;
            }
            value = value * 10 + digit as u64;
        }
        return Some(value);
    }
    for &b in token {
        let digit = b.wrapping_sub(b'0');
        if digit > 9 {
            return None;
        }
        value = value.checked_mul(10)?.checked_add(digit as u64)?;
    }
    Some(value)
}

/// Classifies a token that `parse_u64` refused: a negative or huge integer is
/// out of range, anything else is not an integer.
#[cold]
fn integer_error(token: &[u8], line: usize, field: Field, min: u64, max: u64) -> InputError {
    let digits = token.strip_prefix(b"-").unwrap_or(token);
    if !digits.is_empty() && digits.iter().all(u8::is_ascii_digit) {
        InputError::OutOfRange {
            line,
            token: echo(token),
            field: field.to_string(),
            constraint: range_text(field.generic_name(), min, max),
        }
    } else {
        InputError::NotInteger {
            line,
            token: echo(token),
            field: field.to_string(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn leading_zeros_change_nothing_however_many() {
        let zeros = "0".repeat(30);
        let text = format!("{zeros}1 {zeros} {zeros}18446744073709551616 007");
        let mut s = Scanner::new(&text);
        let field = Field::new("A");
        assert_eq!(s.u64(field, 0, u64::MAX), Ok(1));
        assert_eq!(s.u64(field, 0, u64::MAX), Ok(0));
        assert!(matches!(
            s.u64(field, 0, u64::MAX),
            Err(InputError::OutOfRange { .. })
        ));
        assert_eq!(s.u64(field, 0, 10), Ok(7));
    }

    #[test]
    fn eight_digits_at_once_agree_with_one_at_a_time() {
        let read = |text: &[u8; 8]| eight_digits(u64::from_le_bytes(*text));
        assert_eq!(read(b"12345678"), Some(12_345_678));
        assert_eq!(read(b"00000000"), Some(0));
        assert_eq!(read(b"99999999"), Some(99_999_999));
        assert_eq!(read(b"1234567 "), None);
        assert_eq!(read(b"/1234567"), None);
        assert_eq!(read(b"1234:567"), None);
        let mut rng = crate::solver::SeededRng::new(5);
        for _ in 0..100_000 {
            let bytes: [u8; 8] = std::array::from_fn(|_| rng.range(0, 255) as u8);
            let expected = bytes
                .iter()
                .all(u8::is_ascii_digit)
                .then(|| std::str::from_utf8(&bytes).unwrap().parse::<u64>().unwrap());
            assert_eq!(
                eight_digits(u64::from_le_bytes(bytes)),
                expected,
                "{bytes:?}"
            );
            let digits: [u8; 8] = std::array::from_fn(|_| b'0' + rng.range(0, 9) as u8);
            assert_eq!(
                eight_digits(u64::from_le_bytes(digits)),
                std::str::from_utf8(&digits).unwrap().parse::<u64>().ok()
            );
        }
    }

    #[test]
    fn every_magnitude_reads_back_with_any_separator() {
        let mut rng = crate::solver::SeededRng::new(9);
        let separators = [" ", "\n", "\r\n", "\t", "  \x0b "];
        let values: Vec<u64> = (0..20_000).map(|_| rng.log_uniform(0, u64::MAX)).collect();
        let mut text = String::new();
        for (i, v) in values.iter().enumerate() {
            text.push_str(&format!("{:0width$}", v, width = i % 3));
            text.push_str(separators[i % separators.len()]);
        }
        let mut s = Scanner::new(&text);
        for &v in &values {
            assert_eq!(s.u64(Field::new("A_i"), 0, u64::MAX).unwrap(), v);
        }
        assert!(s.finish().is_ok());
    }

    #[test]
    fn reads_integers_across_lines_and_reports_their_lines() {
        let mut s = Scanner::new("3\n1 2\r\n  18446744073709551615\n");
        assert_eq!(s.u64(Field::new("N"), 1, 10).unwrap(), 3);
        assert_eq!(s.u64(Field::new("A_i").at(1), 0, 9).unwrap(), 1);
        assert_eq!(s.line(), 2);
        assert_eq!(s.u64(Field::new("A_i").at(2), 0, 9).unwrap(), 2);
        assert_eq!(s.u64(Field::new("B"), 0, u64::MAX).unwrap(), u64::MAX);
        assert!(s.finish().is_ok());
    }

    #[test]
    fn a_missing_token_names_the_field() {
        let mut s = Scanner::new("2\n5");
        s.u64(Field::new("N"), 1, 2).unwrap();
        s.u64(Field::new("A_i").at(1), 0, 9).unwrap();
        let err = s.u64(Field::new("A_i").at(2), 0, 9).unwrap_err();
        assert_eq!(err.to_string(), "line 2: expected A_2, but the input ended");
    }

    #[test]
    fn a_non_integer_token_is_named() {
        let err = Scanner::new("1.5")
            .u64(Field::new("N").in_case(3), 1, 9)
            .unwrap_err();
        assert_eq!(
            err.to_string(),
            "line 1: token `1.5` is not an integer (expected N of test case 3)"
        );
    }

    #[test]
    fn negative_and_overflowing_integers_are_out_of_range() {
        let err = Scanner::new("-4").u64(Field::new("N"), 1, 9).unwrap_err();
        assert_eq!(
            err.to_string(),
            "line 1: N = -4 violates the constraint 1 ≤ N ≤ 9"
        );
        let err = Scanner::new("\n99999999999999999999")
            .u64(Field::new("A_i").at(7), 1, 1_000_000_000_000_000_000)
            .unwrap_err();
        assert_eq!(
            err.to_string(),
            "line 2: A_7 = 99999999999999999999 violates the constraint 1 ≤ A_i ≤ 10^18"
        );
    }

    #[test]
    fn an_extra_token_is_reported_with_its_line() {
        let mut s = Scanner::new("1\n\n2 x\n");
        s.u64(Field::new("N"), 1, 1).unwrap();
        s.u64(Field::new("A"), 1, 2).unwrap();
        let err = s.finish().unwrap_err();
        assert_eq!(
            err.to_string(),
            "line 3: unexpected token `x` after the end of the input"
        );
    }

    #[test]
    fn bounds_render_like_statements() {
        assert_eq!(pretty_bound(200_000), "2·10^5");
        assert_eq!(pretty_bound(1_000_000_000_000_000_000), "10^18");
        assert_eq!(pretty_bound(100), "100");
        assert_eq!(pretty_bound(99_999), "99999");
    }

    #[test]
    fn long_tokens_are_cut_in_messages() {
        let long = "z".repeat(100);
        let err = Scanner::new(&long).u64(Field::new("N"), 1, 9).unwrap_err();
        assert!(err.to_string().contains(&format!("`{}…`", "z".repeat(40))));
    }
}
