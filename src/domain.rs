//! The domain vocabulary: the ids, enums and records every layer speaks.
//!
//! HTTP handlers, workers, the store and the command line all use these types,
//! so a value is parsed once, at the edge, into a type that carries its
//! invariant: a [`ProblemId`] always matches the naming rule, a [`Payload`]
//! is always a kind nimjudge knows how to judge, a [`Verdict`] is one of a
//! closed set. The store writes enums as their `as_str` text and reads them
//! back with `FromStr`, so a value it cannot parse is reported as corrupt
//! rather than guessed at.
//!
//! The records ([`Submission`], [`Judgement`], …) are also the JSON shapes of
//! the API, with their OpenAPI schemas. Times are [`Timestamp`]s, written in
//! JSON as RFC 3339 in UTC.
//!
//! This module does no I/O and knows no layer above it.

use std::{collections::BTreeMap, fmt, str::FromStr};

pub use jiff::Timestamp;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// The longest problem id, testcase name or user name.
pub const MAX_NAME_LEN: usize = 64;

/// True for names matching `[a-z0-9][a-z0-9-]*` of at most 64 bytes: the
/// rule for problem ids and testcase names, which appear in paths and URLs.
fn is_slug(name: &str) -> bool {
    let mut bytes = name.bytes();
    matches!(bytes.next(), Some(b'a'..=b'z' | b'0'..=b'9'))
        && bytes.all(|b| matches!(b, b'a'..=b'z' | b'0'..=b'9' | b'-'))
        && name.len() <= MAX_NAME_LEN
}

/// True for user (token) names: 1 to 64 characters (not bytes), none of
/// them a control character (U+0000 to U+001F, U+007F to U+009F), and no
/// space at either end, so a name is what it shows. The schema of
/// [`NewToken`](crate::api::NewToken) states the same rule as a pattern.
pub fn is_user_name(name: &str) -> bool {
    let control = |c: char| matches!(c, '\u{0}'..='\u{1f}' | '\u{7f}'..='\u{9f}');
    (1..=MAX_NAME_LEN).contains(&name.chars().count())
        && !name.chars().any(control)
        && !name.starts_with(' ')
        && !name.ends_with(' ')
}

/// A user name that breaks the rule of [`is_user_name`]; the message states
/// the rule, so the command line and the API refuse a name in the same words.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "a user name must be 1 to {MAX_NAME_LEN} characters, without control characters \
     or a space at either end (got {0:?})"
)]
pub struct InvalidUserName(pub String);

/// Checks a user name as given, without trimming it: the one check behind
/// `nimjudge token create --name` and `POST /api/tokens`.
pub fn validate_user_name(name: &str) -> Result<(), InvalidUserName> {
    if is_user_name(name) {
        Ok(())
    } else {
        Err(InvalidUserName(name.to_string()))
    }
}

/// Declares a string newtype that only holds names matching [`is_slug`].
macro_rules! slug_type {
    ($(#[$doc:meta])* $name:ident, $what:literal, example = $example:tt) => {
        $(#[$doc])*
        #[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, ToSchema)]
        #[serde(try_from = "String", into = "String")]
        #[schema(
            value_type = String,
            pattern = "^[a-z0-9][a-z0-9-]*$",
            max_length = 64,
            examples($example)
        )]
        pub struct $name(String);

        impl $name {
            pub fn as_str(&self) -> &str {
                &self.0
            }
        }

        impl TryFrom<String> for $name {
            type Error = String;

            fn try_from(name: String) -> Result<Self, String> {
                if is_slug(&name) {
                    Ok($name(name))
                } else {
                    Err(format!(
                        concat!($what, " `{}` must match [a-z0-9][a-z0-9-]* (at most 64 characters)"),
                        name
                    ))
                }
            }
        }

        impl FromStr for $name {
            type Err = String;

            fn from_str(s: &str) -> Result<Self, String> {
                Self::try_from(s.to_string())
            }
        }

        impl From<$name> for String {
            fn from(value: $name) -> String {
                value.0
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(&self.0)
            }
        }

        impl PartialEq<str> for $name {
            fn eq(&self, other: &str) -> bool {
                self.0 == other
            }
        }

        impl PartialEq<&str> for $name {
            fn eq(&self, other: &&str) -> bool {
                self.0 == *other
            }
        }
    };
}

slug_type!(
    /// A problem id, e.g. `xy-game`: the folder `problems/<id>/`, the API
    /// path segment and the solver registry key.
    ProblemId,
    "problem id",
    example = "nim"
);

slug_type!(
    /// A testcase name, unique within its problem, e.g. `sample-1`.
    TestcaseName,
    "testcase name",
    example = "small-1"
);

slug_type!(
    /// A language id from the config's `[languages.<id>]`, e.g. `cpp`.
    LanguageId,
    "language id",
    example = "cpp"
);

slug_type!(
    /// A contest id, e.g. `spring-2027`: the API path segment.
    ContestId,
    "contest id",
    example = "spring-2027"
);

/// The public id of a submission: a random UUID.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, ToSchema,
)]
#[serde(transparent)]
#[schema(value_type = String, format = Uuid)]
pub struct SubmissionId(uuid::Uuid);

impl SubmissionId {
    /// A fresh random id.
    pub fn new() -> SubmissionId {
        SubmissionId(uuid::Uuid::new_v4())
    }
}

impl Default for SubmissionId {
    fn default() -> Self {
        Self::new()
    }
}

impl FromStr for SubmissionId {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        uuid::Uuid::parse_str(s)
            .map(SubmissionId)
            .map_err(|_| format!("`{s}` is not a submission id"))
    }
}

impl fmt::Display for SubmissionId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.hyphenated().fmt(f)
    }
}

/// Declares a fieldless enum stored and sent as fixed text, with `ALL`,
/// `as_str`, `FromStr` and `Display`.
///
/// The texts are `tt`, not `literal`, fragments: utoipa does not see a
/// `literal` fragment in `#[serde(rename = ...)]`, and the document would
/// list the variant names (`Pending`) instead of the wire text (`pending`).
macro_rules! text_enum {
    (
        $(#[$doc:meta])*
        $name:ident, $what:literal {
            $( $(#[$vdoc:meta])* $variant:ident => $text:tt, )+
        }
    ) => {
        $(#[$doc])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, ToSchema)]
        pub enum $name {
            $( $(#[$vdoc])* #[serde(rename = $text)] $variant, )+
        }

        impl $name {
            /// Every value, in declaration order.
            pub const ALL: &'static [$name] = &[$($name::$variant),+];

            /// The text this value is stored and sent as.
            pub fn as_str(self) -> &'static str {
                match self {
                    $($name::$variant => $text,)+
                }
            }
        }

        impl FromStr for $name {
            type Err = String;

            fn from_str(s: &str) -> Result<Self, String> {
                match s {
                    $($text => Ok($name::$variant),)+
                    other => Err(format!(
                        concat!("unknown ", $what, " `{}` (expected {})"),
                        other,
                        $name::ALL.iter().map(|v| v.as_str()).collect::<Vec<_>>().join(", ")
                    )),
                }
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(self.as_str())
            }
        }
    };
}

text_enum!(
    /// The version of the Kattis problem package format a problem is
    /// exported in.
    PackageFormat, "package format" {
        /// The legacy format: what Kattis installs and problemtools'
        /// `verifyproblem` checks.
        Legacy => "legacy",
        /// The 2025-09 format, which BAPCtools reads.
        V2025_09 => "2025-09",
    }
);

text_enum!(
    /// What a token may do.
    Role, "role" {
        /// Submits and sees only their own submissions and public testcases.
        Contestant => "contestant",
        /// Manages testcases and rejudges; reads every submission.
        Setter => "setter",
        /// Everything, including creating tokens.
        Admin => "admin",
    }
);

impl Role {
    /// Setters and admins see hidden testcases and every submission.
    pub fn is_staff(self) -> bool {
        matches!(self, Role::Setter | Role::Admin)
    }
}

text_enum!(
    /// The outcome of judging a submission or one of its testcases.
    Verdict, "verdict" {
        /// Accepted.
        AC => "AC",
        /// Wrong answer.
        WA => "WA",
        /// Time limit exceeded: CPU time above the limit, or the wall-clock
        /// limit reached (a program that sleeps).
        TLE => "TLE",
        /// Memory limit exceeded.
        MLE => "MLE",
        /// Output limit exceeded.
        OLE => "OLE",
        /// Runtime error: a non-zero exit status or a signal.
        RE => "RE",
        /// Compilation error.
        CE => "CE",
        /// Internal error: the judge could not decide (a solver failure, or
        /// too many lost leases).
        IE => "IE",
    }
);

text_enum!(
    /// Where a submission is in its life.
    SubmissionState, "submission state" {
        /// Waiting for a worker.
        Queued => "queued",
        /// Claimed by a worker holding a lease.
        Running => "running",
        /// Judged; the verdict is final until a rejudge.
        Done => "done",
    }
);

text_enum!(
    /// What a line of a submission's event log records.
    EventKind, "event kind" {
        /// Submitted (the actor is the user).
        Queued => "queued",
        /// A worker claimed it with a lease.
        Claimed => "claimed",
        /// The previous claim's lease expired before it finished.
        LeaseLost => "lease_lost",
        /// A verdict was written.
        Judged => "judged",
        /// A worker finished after losing its lease; its result was dropped.
        Dropped => "dropped",
        /// The daemon stopped and put the job back in the queue.
        Released => "released",
        /// A setter or admin queued it again.
        Rejudged => "rejudged",
    }
);

text_enum!(
    /// The kind of a submission, stored beside its payload for filtering.
    SubmissionKind, "submission kind" {
        /// Outputs for the problem's public testcases.
        Answers => "answers",
        /// One output for an input of the contestant's own.
        Custom => "custom",
        /// A program, compiled once and run on every testcase.
        Program => "program",
    }
);

text_enum!(
    /// Where a testcase came from.
    TestcaseOrigin, "testcase origin" {
        /// An official sample, from the problem folder.
        Sample => "sample",
        /// From the problem folder, not a sample: made by a generator from
        /// its kind and seed, or an imported package's secret testcase.
        Generated => "generated",
        /// Added by a setter through the API; the catalog sync leaves it alone.
        Setter => "setter",
    }
);

text_enum!(
    /// The state of a testcase's reference output for the current version.
    ReferenceStatus, "reference status" {
        /// Not computed yet.
        Pending => "pending",
        /// Computed and cached.
        Ready => "ready",
        /// The solver rejected the input.
        Failed => "failed",
    }
);

text_enum!(
    /// What contestants see of their judged submissions on a problem, set
    /// by its `problem.toml`. Setters and admins always see everything. The
    /// default, `verdict`, lets no reference output reach contestants.
    #[derive(Default)]
    Feedback, "feedback" {
        /// Practice: every testcase's result and the full difference,
        /// including the expected token.
        Full => "full",
        /// The default: each testcase's verdict and where the output went
        /// wrong, never the expected token.
        #[default]
        Verdict => "verdict",
        /// The submission's verdict only: no per-testcase results, no message.
        None => "none",
    }
);

text_enum!(
    /// How a contest ranks its participants.
    Scoring, "scoring" {
        /// Problems solved, then penalty time: minutes to each first AC
        /// plus the contest's penalty for each rejected try before it.
        Icpc => "icpc",
        /// Points: each problem's score (its testcase groups' points, see
        /// `scoring`) summed; equal totals share a rank.
        Ioi => "ioi",
    }
);

text_enum!(
    /// How an `ioi` contest takes a participant's score on a problem from
    /// their submissions.
    #[derive(Default)]
    ScoreBy, "score by" {
        /// Each group's best score over the submissions, summed (IOI since
        /// 2017): a group once passed stays passed.
        #[default]
        Group => "group",
        /// The best single submission's score.
        Submission => "submission",
    }
);

text_enum!(
    /// Who may take part in a contest.
    Registration, "registration" {
        /// Anyone signed in: a first contest submission registers them.
        Open => "open",
        /// Only the users an admin registered.
        Invited => "invited",
    }
);

/// What a submission asks the judge to check. Serialised with its kind as the
/// `kind` tag, which is also how the store keeps it; a payload of an unknown
/// kind cannot be built, so it cannot be stored.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "lowercase", deny_unknown_fields)]
pub enum Payload {
    /// One output per public testcase, keyed by testcase name; a testcase
    /// left out counts as WA.
    Answers {
        answers: BTreeMap<TestcaseName, String>,
        /// In a contest that gives each participant their own input: the
        /// input it answers, as `personal` (its kind and seed).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        personal: Option<PersonalInput>,
    },
    /// The contestant's own input and their output for it.
    Custom { input: String, output: String },
    /// A program's source text in one of the configured languages.
    Program {
        language: LanguageId,
        source: String,
    },
}

/// A participant's own generated input (see `contest::personal_seed`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct PersonalInput {
    pub kind: crate::solver::TestKind,
    pub seed: u64,
}

impl Payload {
    pub fn kind(&self) -> SubmissionKind {
        match self {
            Payload::Answers { .. } => SubmissionKind::Answers,
            Payload::Custom { .. } => SubmissionKind::Custom,
            Payload::Program { .. } => SubmissionKind::Program,
        }
    }

    /// Its sizes; `None` for a program, whose source is shown whole.
    pub fn sizes(&self) -> Option<PayloadSizes> {
        match self {
            Payload::Answers { answers, .. } => Some(PayloadSizes::of_answers(answers)),
            Payload::Custom { input, output } => Some(PayloadSizes::of_custom(input, output)),
            Payload::Program { .. } => None,
        }
    }
}

/// What an answers or custom payload shows of itself without its texts:
/// each answer's bytes, or the input's and the output's. Stored beside the
/// payload, so showing a submission does not read the payload.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum PayloadSizes {
    Answers {
        answers: BTreeMap<TestcaseName, u64>,
    },
    Custom {
        input: u64,
        output: u64,
    },
}

impl PayloadSizes {
    pub fn of_answers(answers: &BTreeMap<TestcaseName, String>) -> PayloadSizes {
        PayloadSizes::Answers {
            answers: answers
                .iter()
                .map(|(testcase, answer)| (testcase.clone(), bytes_of(answer)))
                .collect(),
        }
    }

    pub fn of_custom(input: &str, output: &str) -> PayloadSizes {
        PayloadSizes::Custom {
            input: bytes_of(input),
            output: bytes_of(output),
        }
    }
}

fn bytes_of(text: &str) -> u64 {
    u64::try_from(text.len()).unwrap_or(u64::MAX)
}

/// Who is calling: the holder of a valid token.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ToSchema)]
pub struct Principal {
    pub name: String,
    pub role: Role,
}

/// A hosted problem.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct Problem {
    pub id: ProblemId,
    pub title: String,
    /// Where the problem comes from (a contest and task, or `nimjudge`).
    pub source: String,
    /// The original task's page, when it is public.
    pub source_url: Option<String>,
    /// Bumped each time the synced definition changes.
    pub version: i64,
    pub time_limit_ms: i64,
    pub memory_limit_mib: i64,
    /// What contestants see of their judged submissions.
    pub feedback: Feedback,
    /// Whether contestants may submit custom checks (an input of their own
    /// and an output for it); setters and admins always may.
    pub custom_checks: bool,
    /// Whether a program runs on every testcase even after one fails (the
    /// verdict is still the first failure); otherwise the rest are skipped.
    pub judge_all: bool,
    /// Whether a program plays the game against the judge (an interactive
    /// problem: programs only, no answers). A property of the solver core,
    /// not of the stored definition: the application sets it.
    #[serde(default)]
    pub interactive: bool,
    /// Whether contestants may submit answers (outputs for its public
    /// testcases): not for an interactive problem, nor for one imported
    /// with its package's answer files, which has no solver. Set by the
    /// application, as `interactive` is.
    #[serde(default)]
    pub takes_answers: bool,
    /// Whether the practice page of an interactive problem explains
    /// positions (each component's value, the winning moves).
    pub practice_hints: bool,
    /// Its testcase groups and their points (none: one group of 100
    /// points over every testcase; see `scoring`).
    #[serde(default)]
    pub groups: Vec<crate::scoring::TestcaseGroup>,
    /// The statement in Markdown; only in single-problem answers.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub statement: Option<String>,
    #[schema(value_type = String, format = DateTime)]
    pub created_at: Timestamp,
    #[schema(value_type = String, format = DateTime)]
    pub updated_at: Timestamp,
}

/// A testcase, without its input, with the state of its reference output.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct Testcase {
    pub name: TestcaseName,
    /// Only setters and admins see a hidden testcase.
    pub hidden: bool,
    pub origin: TestcaseOrigin,
    /// The setter who added it; none for testcases from the problem folder.
    pub created_by: Option<String>,
    pub status: ReferenceStatus,
    /// Why its reference could not be computed (status `failed`); shown
    /// to setters and admins only.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reference_error: Option<String>,
    /// The input's size in bytes.
    pub input_bytes: i64,
    #[schema(value_type = String, format = DateTime)]
    pub created_at: Timestamp,
}

/// A submission as stored: who sent what, and where judging stands.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct Submission {
    pub id: SubmissionId,
    pub problem: ProblemId,
    pub user: String,
    pub kind: SubmissionKind,
    pub state: SubmissionState,
    /// The latest judgement's verdict; none until judged.
    pub verdict: Option<Verdict>,
    /// The latest judgement's message (e.g. the first wrong testcase).
    pub message: Option<String>,
    /// Claims ever made.
    pub attempt: i64,
    /// The worker holding, or last holding, the lease.
    pub worker: Option<String>,
    /// Start of the current judging round (submit or rejudge).
    #[schema(value_type = String, format = DateTime)]
    pub queued_at: Timestamp,
    #[schema(value_type = Option<String>, format = DateTime)]
    pub judged_at: Option<Timestamp>,
    /// From `queued_at` to the verdict, once judged.
    pub latency_ms: Option<i64>,
    #[schema(value_type = String, format = DateTime)]
    pub created_at: Timestamp,
    /// While it is judged: how far, as its worker last recorded it (now
    /// and then, not after each testcase). None before the first record,
    /// once judged, and for a contestant when the problem's feedback is
    /// `none`.
    #[serde(default)]
    pub progress: Option<Progress>,
    /// A program's language; none for answers and custom checks.
    #[serde(default)]
    pub language: Option<LanguageId>,
    /// The most CPU time one run of the latest judgement took, in
    /// milliseconds (programs, once judged). None for a contestant when the
    /// problem's feedback is `none`.
    #[serde(default)]
    pub max_cpu_ms: Option<i64>,
    /// The most memory one run of the latest judgement took, in KiB, as
    /// `max_cpu_ms`.
    #[serde(default)]
    pub max_memory_kib: Option<i64>,
    /// The contest it was sent to, if any.
    #[serde(default)]
    #[schema(value_type = Option<String>)]
    pub contest: Option<ContestId>,
    /// Its contest time in milliseconds from the start of the submitter's
    /// window; none after the window (practice: judged, not ranked).
    #[serde(default)]
    pub contest_time_ms: Option<i64>,
    /// Its points from the problem's testcase groups, once judged (none
    /// for custom checks and IE).
    #[serde(default)]
    pub score: Option<f64>,
    /// Each group's points, in the problem's order of groups; none for a
    /// contestant when the problem's feedback is `none`.
    #[serde(default)]
    pub group_scores: Option<Vec<f64>>,
}

impl Submission {
    /// What it is written in, as lists show it: a program's language, else
    /// its kind (`answers`, `custom`).
    pub fn language_text(&self) -> String {
        self.language
            .as_ref()
            .map_or_else(|| self.kind.to_string(), ToString::to_string)
    }

    /// The most CPU time a run of its latest judgement took; a dash when
    /// there is none to show (answers, not judged yet, or withheld).
    pub fn time_text(&self) -> String {
        self.max_cpu_ms
            .map_or_else(|| "—".to_string(), |ms| format!("{ms} ms"))
    }

    /// The most memory a run of its latest judgement took, as
    /// [`Submission::time_text`].
    pub fn memory_text(&self) -> String {
        self.max_memory_kib
            .map_or_else(|| "—".to_string(), memory_text)
    }
}

/// How far a judging is: testcases judged out of those the attempt will
/// judge (every testcase of a program, the public ones of answers; a
/// program that fails one may stop before the total).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct Progress {
    pub done: i64,
    pub total: i64,
}

/// One testcase's result within a judgement.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct TestcaseResult {
    /// The testcase name (`custom` for a custom check), kept even if the
    /// testcase is deleted later.
    pub testcase: String,
    pub hidden: bool,
    pub verdict: Verdict,
    /// Reference lookup or computation plus comparison, in microseconds;
    /// for a program, the whole run.
    pub time_us: i64,
    /// Why it is not AC, without any reference output; never shown to
    /// contestants for hidden testcases.
    pub message: Option<String>,
    /// The full difference, naming the expected token: shown to setters and
    /// admins, and to contestants only when the problem's feedback is `full`.
    pub detail: Option<String>,
    /// A program's run: CPU time, peak memory and how it ended.
    pub run: Option<RunUsage>,
}

impl TestcaseResult {
    /// The time shown for this result, the same in the web UI and the
    /// CLI: a program's CPU time, with its wall time beside it where the
    /// two differ (a program that waited), or for answers the time the
    /// judge took to check them.
    pub fn time_text(&self) -> String {
        match &self.run {
            Some(run) if run.wall_ms > 2 * run.cpu_ms + 10 => {
                format!("{} ms (wall {} ms)", run.cpu_ms, run.wall_ms)
            }
            Some(run) => format!("{} ms", run.cpu_ms),
            None => format!("{:.1} ms", self.time_us as f64 / 1000.0),
        }
    }

    /// A program's peak memory, or a dash for answers.
    pub fn memory_text(&self) -> String {
        self.run
            .as_ref()
            .map_or_else(|| "—".to_string(), |run| memory_text(run.memory_kib))
    }
}

/// An amount of memory as the web UI and the CLI show it: KiB below 10 MiB,
/// MiB with one decimal from there.
pub fn memory_text(kib: i64) -> String {
    if kib >= 10 * 1024 {
        format!("{:.1} MiB", kib as f64 / 1024.0)
    } else {
        format!("{kib} KiB")
    }
}

/// What a contestant's program used on one testcase.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct RunUsage {
    /// CPU time of all its processes, in milliseconds.
    pub cpu_ms: i64,
    pub wall_ms: i64,
    /// Peak memory, in KiB.
    pub memory_kib: i64,
    /// The exit status, if it exited.
    pub exit_code: Option<i32>,
    /// The signal that ended it, if one did (e.g. 11 for SIGSEGV).
    pub signal: Option<i32>,
}

/// One judging of a submission. A rejudge adds another; earlier ones stay.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct Judgement {
    /// The claim that produced it.
    pub attempt: i64,
    pub problem_version: i64,
    pub verdict: Verdict,
    pub message: Option<String>,
    /// The compiler's messages for a program, capped in size.
    pub compile_output: Option<String>,
    pub worker: String,
    /// Claim to verdict.
    pub duration_ms: i64,
    #[schema(value_type = String, format = DateTime)]
    pub created_at: Timestamp,
    pub results: Vec<TestcaseResult>,
}

text_enum!(
    /// Where a rejudge preview is in its life.
    RejudgingState, "rejudging state" {
        /// Its submissions are being (or have been) judged again on the
        /// side; their verdicts are untouched.
        Preview => "preview",
        /// Its changed verdicts became the submissions' latest.
        Applied => "applied",
        /// Dropped; the submissions kept their verdicts.
        Discarded => "discarded",
    }
);

/// A rejudge preview of a problem: its judged submissions judged again on
/// the side, to be applied (the changed verdicts become the submissions')
/// or discarded.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct Rejudging {
    pub id: i64,
    pub problem: ProblemId,
    pub state: RejudgingState,
    pub created_by: String,
    #[schema(value_type = String, format = DateTime)]
    pub created_at: Timestamp,
    /// Who applied or discarded it.
    pub decided_by: Option<String>,
    #[schema(value_type = Option<String>, format = DateTime)]
    pub decided_at: Option<Timestamp>,
    /// Submissions in it: the problem's judged ones when it began.
    pub submissions: i64,
    /// Of those, judged again so far.
    pub judged: i64,
    /// Of those, judged to another verdict than they had.
    pub changed: i64,
}

/// A rejudge preview with each submission's verdict before and after.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct RejudgingReport {
    pub rejudging: Rejudging,
    /// In submission order.
    pub items: Vec<RejudgingItem>,
}

/// One submission of a rejudge preview.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct RejudgingItem {
    pub submission: SubmissionId,
    pub user: String,
    pub kind: SubmissionKind,
    /// Its verdict when the preview began.
    pub before: Option<Verdict>,
    /// Its verdict in the preview; none while it is being judged.
    pub after: Option<Verdict>,
    /// The preview judgement's message.
    pub message: Option<String>,
}

impl RejudgingItem {
    /// Judged again, to another verdict.
    pub fn changed(&self) -> bool {
        self.after.is_some() && self.after != self.before
    }
}

/// What applying a rejudge preview did.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct AppliedRejudging {
    /// Submissions whose verdict changed: the preview's judgement is now
    /// their latest.
    pub applied: i64,
    /// Changed ones left as they are because they were judged again (or
    /// are being judged) since the preview began.
    pub stale: i64,
}

/// A run of a problem's solutions × testcases matrix: every setter solution
/// in the problem's folder judged by workers on every testcase under the
/// raised time limit (see [`crate::matrix`]).
#[derive(Debug, Clone, Serialize)]
pub struct MatrixRun {
    pub id: i64,
    pub problem: ProblemId,
    pub created_by: String,
    pub created_at: Timestamp,
    /// The problem's time limit when the run began.
    pub time_limit_ms: i64,
    /// The limit every solution ran under.
    pub raised_limit_ms: i64,
    pub solutions: i64,
    /// Of those, judged so far.
    pub judged: i64,
}

/// A matrix run with each solution's results.
#[derive(Debug, Clone, Serialize)]
pub struct MatrixReport {
    pub run: MatrixRun,
    /// By path.
    pub solutions: Vec<MatrixSolution>,
}

/// One setter solution of a matrix run.
#[derive(Debug, Clone, Serialize)]
pub struct MatrixSolution {
    /// Its path under `solutions/`.
    pub solution: String,
    /// The verdict its folder promises.
    pub expected: Verdict,
    /// Its verdict under the raised limit; none while it is being judged.
    pub verdict: Option<Verdict>,
    pub message: Option<String>,
    /// Every testcase's result (none where it did not compile).
    pub results: Vec<TestcaseResult>,
}

/// A stress test a setter started: a solution run by a worker in the
/// sandbox on generated inputs against the solver core (see
/// [`crate::app::stress`]).
#[derive(Debug, Clone, Serialize)]
pub struct StressRun {
    pub id: i64,
    pub problem: ProblemId,
    pub created_by: String,
    pub created_at: Timestamp,
    pub language: LanguageId,
    /// The generator kinds each seed tries, in order.
    pub kinds: Vec<crate::solver::TestKind>,
    /// The seeds, both ends included.
    pub seeds: (u64, u64),
    pub budget_ms: i64,
    /// What the worker found; none until it is done.
    pub outcome: Option<StressOutcome>,
}

/// What a stress test found.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "outcome", rename_all = "snake_case")]
pub enum StressOutcome {
    /// The solution did not compile.
    DoesNotCompile {
        message: Option<String>,
        compile_output: Option<String>,
    },
    /// The search ran: the first disagreement, if any, and the smallest
    /// failing input shrinking reached.
    Searched {
        runs: usize,
        out_of_time: bool,
        found: Option<StressFailure>,
        shrunk: Option<StressFailure>,
        shrink_runs: usize,
        /// The solver core's output for the smallest failing input.
        expected: Option<String>,
    },
    /// The sandbox failed.
    Unrunnable { why: String },
}

/// A failing input of a stress test.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct StressFailure {
    /// The generator's kind and seed, where the input is the generator's
    /// own (not after shrinking numbers).
    pub generated: Option<(crate::solver::TestKind, u64)>,
    pub input: String,
    pub verdict: Verdict,
    pub message: Option<String>,
}

impl StressFailure {
    /// Where the input came from and how the solution failed on it, for
    /// `nimjudge stress` and the stress page.
    pub fn describe(&self) -> String {
        let source = match self.generated {
            Some((kind, seed)) => format!("kind {}, seed {seed}", kind.as_str()),
            None => "numbers shrunk".to_string(),
        };
        match &self.message {
            Some(message) => format!("{source}: {} ({message})", self.verdict),
            None => format!("{source}: {}", self.verdict),
        }
    }
}

/// One line of a submission's event log.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct Event {
    pub kind: EventKind,
    /// The user or worker that caused it.
    pub actor: Option<String>,
    pub detail: Option<String>,
    #[schema(value_type = String, format = DateTime)]
    pub created_at: Timestamp,
}

/// The longest lifetime a token may be given: ten years, in seconds.
pub const MAX_TOKEN_LIFETIME_SECONDS: u64 = 10 * 366 * 24 * 60 * 60;

/// When a token created at `now` to live `seconds` expires: the one rule
/// behind `POST /api/tokens` and `nimjudge token create --expires-in`.
pub fn token_expiry(now: Timestamp, seconds: u64) -> Result<Timestamp, String> {
    if !(1..=MAX_TOKEN_LIFETIME_SECONDS).contains(&seconds) {
        return Err(format!(
            "a token's lifetime must be 1 to {MAX_TOKEN_LIFETIME_SECONDS} seconds (ten years)"
        ));
    }
    let seconds = i64::try_from(seconds).map_err(|e| e.to_string())?;
    now.checked_add(jiff::SignedDuration::from_secs(seconds))
        .map_err(|e| format!("cannot compute the expiry: {e}"))
}

/// A token's number: how admins list and revoke it without its secret.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, ToSchema,
)]
#[serde(transparent)]
#[schema(value_type = i64, minimum = 1, example = 3)]
pub struct TokenId(pub i64);

impl fmt::Display for TokenId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

impl FromStr for TokenId {
    type Err = String;

    fn from_str(text: &str) -> Result<TokenId, String> {
        text.parse()
            .map(TokenId)
            .map_err(|_| format!("token id `{text}` is not a whole number"))
    }
}

/// A token as admins see it: never its secret, which is stored only hashed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct TokenRecord {
    pub id: TokenId,
    /// The user it authenticates.
    pub name: String,
    pub role: Role,
    #[schema(value_type = String, format = DateTime)]
    pub created_at: Timestamp,
    /// When it stops working; null: never.
    #[schema(value_type = Option<String>, format = DateTime)]
    pub expires_at: Option<Timestamp>,
    /// When an admin revoked it; null: not revoked.
    #[schema(value_type = Option<String>, format = DateTime)]
    pub revoked_at: Option<Timestamp>,
}

impl TokenRecord {
    /// True while the token authenticates: not revoked and not expired.
    pub fn is_active(&self, now: Timestamp) -> bool {
        self.revoked_at.is_none() && self.expires_at.is_none_or(|at| at > now)
    }

    /// `active`, `expired` or `revoked` at `now`, as listings show it.
    pub fn state(&self, now: Timestamp) -> &'static str {
        if self.revoked_at.is_some() {
            "revoked"
        } else if self.is_active(now) {
            "active"
        } else {
            "expired"
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slugs_follow_the_layout_rule() {
        for good in ["sample-1", "a", "0-x", "small-12", &"a".repeat(64)] {
            assert!(good.parse::<TestcaseName>().is_ok(), "{good}");
        }
        for bad in [
            "",
            "-a",
            "Sample",
            "a b",
            "a_b",
            "é",
            "../x",
            &"a".repeat(65),
        ] {
            let err = bad.parse::<ProblemId>().expect_err(bad);
            assert!(err.starts_with("problem id `"), "{err}");
        }
    }

    #[test]
    fn every_text_enum_round_trips_and_names_the_choices() {
        for v in Verdict::ALL {
            assert_eq!(v.as_str().parse::<Verdict>(), Ok(*v));
            assert_eq!(serde_json::to_string(v).unwrap(), format!("\"{v}\""));
        }
        for k in EventKind::ALL {
            assert_eq!(k.as_str().parse::<EventKind>(), Ok(*k));
        }
        assert_eq!(
            "XX".parse::<Verdict>(),
            Err("unknown verdict `XX` (expected AC, WA, TLE, MLE, OLE, RE, CE, IE)".to_string())
        );
    }

    #[test]
    fn a_payload_carries_its_kind_as_a_tag_and_refuses_unknown_kinds() {
        let payload = Payload::Custom {
            input: "1\n1\n".into(),
            output: "Alice".into(),
        };
        let text = serde_json::to_string(&payload).unwrap();
        assert_eq!(
            text,
            r#"{"kind":"custom","input":"1\n1\n","output":"Alice"}"#
        );
        assert_eq!(serde_json::from_str::<Payload>(&text).unwrap(), payload);
        assert!(serde_json::from_str::<Payload>(r#"{"kind":"program"}"#).is_err());
        assert!(
            serde_json::from_str::<Payload>(r#"{"kind":"answers","answers":{"Bad Name":"x"}}"#)
                .is_err()
        );
    }

    #[test]
    fn submission_ids_parse_only_uuids() {
        let id = SubmissionId::new();
        assert_eq!(id.to_string().parse::<SubmissionId>(), Ok(id));
        assert!("42".parse::<SubmissionId>().is_err());
    }
}
