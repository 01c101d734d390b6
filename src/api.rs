//! The JSON bodies of the HTTP API: what clients send and what they get back.
//!
//! The server's handlers ([`crate::http`]) and the typed client behind the
//! command line ([`crate::cli::client`]) both use these types, so the two
//! cannot drift apart, and the OpenAPI document's schemas are derived from
//! them. The records inside (submissions, problems, …) are the
//! [`domain`](crate::domain) types themselves.

use std::{collections::BTreeMap, fmt, num::IntErrorKind};

use serde::{
    Deserialize, Deserializer, Serialize,
    de::{self, Error as _, MapAccess, Visitor},
};
use utoipa::{
    IntoParams, ToSchema,
    openapi::{Object, ObjectBuilder, Type},
};

use crate::contest::{Clarification, ContestView};
use crate::domain::{
    ContestId, Event, Judgement, LanguageId, PackageFormat, Payload, PayloadSizes, Problem,
    ProblemId, ReferenceStatus, Role, Submission, SubmissionId, SubmissionState, Testcase,
    TestcaseName, TestcaseResult, Timestamp, TokenId, TokenRecord, Verdict,
};

/// Every error: a status code and this body.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct ErrorBody {
    /// What went wrong, naming the field, token or constraint at fault.
    pub error: String,
    /// On 429 only: the setting of the per-user limit that was reached
    /// (`limits.submissions_per_minute`, `limits.pending_submissions` or
    /// `limits.bytes_per_day`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub limit: Option<String>,
}

/// `POST /api/submissions`: `answers`; or both `input` and `output`; or
/// both `language` and `source` (a program).
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(examples(
    json!({ "problem": "nim", "answers": { "small-1": "Alice" } }),
    json!({ "problem": "nim", "input": "3\n1 2 3\n", "output": "Bob" }),
    json!({ "problem": "nim", "language": "python", "source": "print('Alice')\n" })
))]
pub struct SubmitRequest {
    pub problem: ProblemId,
    /// Output per public testcase name, at least one; testcases left out
    /// count as WA. A testcase named twice is refused.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "answers_without_repeats"
    )]
    #[schema(value_type = Option<BTreeMap<String, String>>)]
    pub answers: Option<BTreeMap<TestcaseName, String>>,
    /// An input of your own, checked by the problem's validator.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub input: Option<String>,
    /// Your output for `input`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub output: Option<String>,
    /// A program's language, one of `GET /api/languages`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<String>)]
    pub language: Option<LanguageId>,
    /// The program's source text; it is run on every testcase, hidden ones
    /// included.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
    /// The contest it is sent to (answers or a program to one of its
    /// problems): inside your window it carries its contest time and is
    /// ranked; after it, it is judged as practice; before it, refused.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<String>)]
    pub contest: Option<ContestId>,
}

/// Reads `answers`, refusing a testcase named twice: JSON lets an object
/// repeat a key, and a map would silently keep the last one.
fn answers_without_repeats<'de, D: Deserializer<'de>>(
    deserializer: D,
) -> Result<Option<BTreeMap<TestcaseName, String>>, D::Error> {
    struct AnswersVisitor;

    impl<'de> Visitor<'de> for AnswersVisitor {
        type Value = Option<BTreeMap<TestcaseName, String>>;

        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("an object of testcase name to output, or null")
        }

        fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
            Ok(None)
        }

        fn visit_none<E: de::Error>(self) -> Result<Self::Value, E> {
            Ok(None)
        }

        fn visit_some<D: Deserializer<'de>>(self, inner: D) -> Result<Self::Value, D::Error> {
            inner.deserialize_map(self)
        }

        fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
            let mut answers = BTreeMap::new();
            while let Some((name, output)) = map.next_entry::<TestcaseName, String>()? {
                if answers.contains_key(&name) {
                    return Err(A::Error::custom(format!(
                        "testcase `{name}` is answered twice in `answers`"
                    )));
                }
                answers.insert(name, output);
            }
            Ok(Some(answers))
        }
    }

    deserializer.deserialize_option(AnswersVisitor)
}

/// The answer to a submission or rejudge: its state as stored, `queued`.
/// A retry with an `Idempotency-Key` gets the same body for the first
/// submission, with its state now (`done` with its verdict once judged;
/// read its results at `url`).
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct Queued {
    pub id: SubmissionId,
    /// Where to read the verdict.
    pub url: String,
    pub state: SubmissionState,
    /// The verdict, when `state` is `done`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub verdict: Option<Verdict>,
}

/// `GET /api/submissions/{id}`: a submission and everything known about it.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct SubmissionDocument {
    pub submission: Submission,
    /// The results of the latest judgement.
    pub results: Vec<TestcaseResult>,
    /// Every judgement, oldest first.
    pub judgements: Vec<Judgement>,
    /// The event log, oldest first.
    pub events: Vec<Event>,
    /// What was submitted (absent from a server that does not say).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub content: Option<SubmittedContent>,
}

/// What a submission sent, for its submitter and for setters and admins: a
/// program's language and source in full; of answers and of a custom check,
/// the sizes (their texts can be megabytes each).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum SubmittedContent {
    /// One output per testcase answered, by testcase name.
    Answers { answers: Vec<AnsweredTestcase> },
    /// The contestant's own input and their output for it.
    Custom { input_bytes: u64, output_bytes: u64 },
    /// A program.
    Program {
        language: LanguageId,
        source: String,
    },
}

/// One answered testcase: its name and the answer's size.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct AnsweredTestcase {
    pub testcase: TestcaseName,
    pub bytes: u64,
}

impl SubmittedContent {
    /// What `payload` shows of itself.
    pub fn of(payload: &Payload) -> SubmittedContent {
        match payload {
            Payload::Answers { answers, .. } => {
                SubmittedContent::of_sizes(PayloadSizes::of_answers(answers))
            }
            Payload::Custom { input, output } => {
                SubmittedContent::of_sizes(PayloadSizes::of_custom(input, output))
            }
            Payload::Program { language, source } => SubmittedContent::Program {
                language: language.clone(),
                source: source.clone(),
            },
        }
    }

    /// What an answers or custom payload shows of itself, from its sizes.
    pub fn of_sizes(sizes: PayloadSizes) -> SubmittedContent {
        match sizes {
            PayloadSizes::Answers { answers } => SubmittedContent::Answers {
                answers: answers
                    .into_iter()
                    .map(|(testcase, bytes)| AnsweredTestcase { testcase, bytes })
                    .collect(),
            },
            PayloadSizes::Custom { input, output } => SubmittedContent::Custom {
                input_bytes: input,
                output_bytes: output,
            },
        }
    }
}

/// Query of `GET /api/submissions/{id}`.
#[derive(Debug, Clone, Default, Serialize, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct ShowQuery {
    /// Wait up to this many milliseconds for the verdict before answering
    /// (capped by the server's `max_wait_ms`, so any larger number means the
    /// cap).
    #[serde(default, deserialize_with = "saturating_millis")]
    #[param(schema_with = wait_ms_schema)]
    pub wait_ms: Option<u64>,
}

/// `wait_ms` in the document: any whole number from 0, without the `int64`
/// bound, since every number past the cap means the cap.
fn wait_ms_schema() -> Object {
    ObjectBuilder::new()
        .schema_type(Type::Integer)
        .minimum(Some(0))
        .build()
}

/// Reads `wait_ms`: a whole number too large for `u64` still means "as long
/// as the server allows".
fn saturating_millis<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Option<u64>, D::Error> {
    let text = String::deserialize(deserializer)?;
    match text.parse::<u64>() {
        Ok(millis) => Ok(Some(millis)),
        Err(e) if *e.kind() == IntErrorKind::PosOverflow => Ok(Some(u64::MAX)),
        Err(_) => Err(D::Error::custom(format!(
            "`{text}` is not a whole number of milliseconds"
        ))),
    }
}

/// Query of `GET /api/submissions`.
#[derive(Debug, Clone, Default, Serialize, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct ListQuery {
    #[param(value_type = Option<String>, pattern = "^[a-z0-9][a-z0-9-]*$", max_length = 64)]
    pub problem: Option<ProblemId>,
    pub verdict: Option<Verdict>,
    /// Another user's submissions (setters and admins only).
    pub user: Option<String>,
    /// Only submissions sent to this contest (its practice ones included).
    #[param(value_type = Option<String>, pattern = "^[a-z0-9][a-z0-9-]*$", max_length = 64)]
    pub contest: Option<ContestId>,
    /// Only submissions created at or after this time (RFC 3339).
    #[param(value_type = Option<String>, format = DateTime)]
    pub since: Option<Timestamp>,
    /// Page size, 1 to 500 (default 50).
    #[param(minimum = 1, maximum = 500)]
    pub limit: Option<i64>,
    /// `next_cursor` of the previous page: 1 to 19 decimal digits.
    #[param(pattern = "^[0-9]{1,19}$")]
    pub cursor: Option<String>,
}

/// `GET /api/submissions`: one page, newest first.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct SubmissionPage {
    pub submissions: Vec<Submission>,
    /// Pass as `cursor` for the next page; null on the last one.
    pub next_cursor: Option<String>,
}

/// `GET /api/problems`
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct ProblemList {
    pub problems: Vec<Problem>,
}

/// `GET /api/problems/{id}`: the problem with its statement and the
/// testcases the caller may see.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct ProblemDocument {
    pub problem: Problem,
    pub testcases: Vec<Testcase>,
}

/// `GET /api/problems/{id}/testcases`
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct TestcaseList {
    pub testcases: Vec<Testcase>,
}

/// `POST /api/problems/{id}/testcases`
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(examples(json!({ "name": "three-piles", "input": "3\n1 2 3\n", "hidden": false })))]
pub struct NewTestcase {
    pub name: TestcaseName,
    /// The input; the problem's validator must accept it.
    pub input: String,
    /// Hidden testcases are seen by setters and admins only.
    #[serde(default)]
    pub hidden: bool,
}

/// `PATCH /api/problems/{id}/testcases/{name}`: hide a setter's testcase
/// from contestants or show it.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(examples(json!({ "hidden": true })))]
pub struct TestcaseVisibility {
    /// Hidden testcases are seen by setters and admins only, and judge
    /// programs only; public ones can be downloaded and take answers.
    pub hidden: bool,
}

/// The answer to adding a testcase: stored; its reference is computed next.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct TestcaseCreated {
    pub name: TestcaseName,
    pub hidden: bool,
    pub status: ReferenceStatus,
    /// Where to read its input.
    pub url: String,
}

/// `POST /api/problems/{id}/rejudge`
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct RejudgeCount {
    /// Judged submissions queued again.
    pub queued: u64,
}

/// `GET /api/health`
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct Health {
    /// `ok` when the database answers reads and takes writes; `failing`
    /// (with status 503) while writes fail.
    pub status: String,
    pub queued: i64,
    pub running: i64,
    /// The most recent write failure of the storage (a full disk, an I/O
    /// error), even if writes work again since.
    pub last_write_error: Option<String>,
    pub last_write_error_at: Option<Timestamp>,
    /// Whether this host judges programs now: its sandbox is set up and
    /// passed its self-test. While it is off, program submissions get 503,
    /// and a failure that may pass is tried again with backoff.
    pub program_judging: bool,
    /// Why program judging is off, when it is.
    pub program_judging_off: Option<String>,
}

/// `GET /api/languages`: the languages programs may be written in.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct LanguageList {
    pub languages: Vec<crate::programs::LanguageInfo>,
}

/// `POST /api/tokens`
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct NewToken {
    /// The user's name: submissions belong to it. 1 to 64 characters, no
    /// control characters, no space at either end.
    #[schema(
        min_length = 1,
        max_length = 64,
        pattern = r"^[^\x00-\x20\x7f-\x9f]([^\x00-\x1f\x7f-\x9f]*[^\x00-\x20\x7f-\x9f])?$"
    )]
    pub name: String,
    pub role: Role,
    /// Seconds until the token stops working (at most ten years); left out,
    /// it works until revoked.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "whole_number"
    )]
    #[schema(minimum = 1, maximum = 316_224_000)]
    pub expires_in_seconds: Option<u64>,
}

/// A JSON integer, also written with a zero fraction (`60.0`): JSON Schema
/// counts that as an integer, so a client may send it.
fn whole_number<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Option<u64>, D::Error> {
    match Option::<serde_json::Number>::deserialize(deserializer)? {
        None => Ok(None),
        Some(number) => {
            if let Some(whole) = number.as_u64() {
                return Ok(Some(whole));
            }
            match number.as_f64() {
                Some(x) if x.fract() == 0.0 && (0.0..=u64::MAX as f64).contains(&x) => {
                    Ok(Some(x as u64))
                }
                _ => Err(D::Error::custom(format!(
                    "`{number}` is not a whole number of seconds"
                ))),
            }
        }
    }
}

/// The answer to creating a token. The secret is shown this once.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct TokenCreated {
    /// The token's number, to list or revoke it by.
    pub id: TokenId,
    pub name: String,
    pub role: Role,
    /// When it stops working; null: never.
    #[schema(value_type = Option<String>, format = DateTime)]
    pub expires_at: Option<Timestamp>,
    pub token: String,
}

/// `GET /api/tokens`: every token, oldest first, without secrets.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct TokenList {
    pub tokens: Vec<TokenRecord>,
    /// Pass as `cursor` for the next page; null on the last one.
    pub next_cursor: Option<String>,
}

/// Query of `GET /api/tokens`.
#[derive(Debug, Clone, Default, Serialize, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct TokenListQuery {
    /// Page size, 1 to 500 (default 100).
    #[param(minimum = 1, maximum = 500)]
    pub limit: Option<i64>,
    /// `next_cursor` of the previous page: 1 to 19 decimal digits.
    #[param(pattern = "^[0-9]{1,19}$")]
    pub cursor: Option<String>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_token_lifetime_may_be_written_with_a_zero_fraction_but_not_a_real_one() {
        let parse = |lifetime: &str| {
            serde_json::from_str::<NewToken>(&format!(
                r#"{{"name": "bob", "role": "contestant", "expires_in_seconds": {lifetime}}}"#
            ))
        };
        assert_eq!(parse("60").unwrap().expires_in_seconds, Some(60));
        assert_eq!(
            parse("1831521.0").unwrap().expires_in_seconds,
            Some(1_831_521)
        );
        assert_eq!(parse("null").unwrap().expires_in_seconds, None);
        let error = parse("1.5").unwrap_err().to_string();
        assert!(error.contains("not a whole number"), "{error}");
        assert!(parse("-1").is_err());
    }
}

/// `GET /api/contests`.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct ContestList {
    pub contests: Vec<ContestView>,
}

/// `POST /api/contests/{id}/registrations`: yourself (no `user`), or, for
/// an admin, anyone.
#[derive(Debug, Clone, Default, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct NewRegistration {
    #[serde(default)]
    pub user: Option<String>,
}

/// `POST /api/contests/{id}/registrations`'s answer.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct Registered {
    pub contest: String,
    pub user: String,
}

/// `POST /api/contests/{id}/clarifications`: a participant's question to
/// the jury, or (from setters and admins) an announcement to everyone.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct NewClarification {
    /// The contest problem it is about; leave out for the contest in
    /// general.
    #[serde(default)]
    #[schema(value_type = Option<String>)]
    pub problem: Option<ProblemId>,
    pub text: String,
}

/// `POST /api/contests/{id}/clarifications/{n}/answer` (setters and admins).
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ClarificationAnswer {
    pub answer: String,
    /// Show the question and answer to every participant, not only the
    /// asker.
    #[serde(default)]
    pub to_all: bool,
}

/// `GET /api/contests/{id}/clarifications`: the jury sees every one; a
/// participant their own questions and the answers meant for everyone.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct ClarificationList {
    pub clarifications: Vec<Clarification>,
}

/// `GET /api/problems/{id}/kattis`: which version of the Kattis package
/// format to export in.
#[derive(Debug, Clone, Default, Serialize, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct KattisQuery {
    /// `legacy` (the default: Kattis, problemtools) or `2025-09`
    /// (BAPCtools; with the invalid inputs in `data/invalid_input`).
    #[param(value_type = Option<String>)]
    pub format: Option<PackageFormat>,
}

/// `POST /api/problems/kattis`: what the package does not say.
#[derive(Debug, Clone, Default, Serialize, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct KattisImportQuery {
    /// The hosted problem's id (default: the package's folder name).
    #[param(value_type = Option<String>)]
    pub id: Option<ProblemId>,
    /// The time limit in milliseconds: a legacy package states none; it
    /// overrides a 2025-09 package's.
    pub time_limit_ms: Option<i64>,
}

/// `POST /api/problems/kattis`: the problem a package became.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct ImportedPackage {
    pub problem: ProblemId,
    pub title: String,
    /// Its testcases: the package's samples and secret data.
    pub testcases: usize,
    /// Of those, samples (the rest are hidden).
    pub samples: usize,
    /// What was left out, one line each (submissions in a language or a
    /// folder nimjudge does not take, input validators).
    pub notes: Vec<String>,
}

/// `GET /api/contests/{id}/scoreboard`: which rows, by rank order (all by
/// default).
#[derive(Debug, Clone, Default, Serialize, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct ScoreboardQuery {
    /// Rows to skip from the top (default 0).
    #[param(minimum = 0)]
    pub offset: Option<usize>,
    /// Rows to return, 1 to 100000 (default: all).
    #[param(minimum = 1, maximum = 100000)]
    pub limit: Option<usize>,
}
