//! nimjudge's contests in the shapes of the ICPC CCS Contest API (the
//! ccs-specs Contest API, release 2026-01), as pure functions: the HTTP
//! layer serves them under `/ccs` (read-only), with the visibility rules of
//! nimjudge's own contest API.
//!
//! The mapping: a contest's id, title, start, duration, freeze and penalty
//! are the contest's; `scoreboard_type` is `pass-fail` for ICPC scoring and
//! `score` for IOI; a contest problem's id is the problem's id, its label,
//! title, colour, time limit (seconds) and memory limit (MiB) are
//! nimjudge's; a team is a participant, its name and label the user name;
//! ids are nimjudge's names where they are valid Contest API ids, and
//! hashes of them where not ([`identifier`]); the judgement types are nimjudge's verdicts under the spec's
//! well-known ids (RE is `RTE`, IE is `JE`). Times are `2026-01-31T
//! 12:00:00.000Z` and contest times `h:mm:ss.000`.

use jiff::Timestamp;
use serde::Serialize;
use sha2::{Digest, Sha256};

use crate::{
    contest::{Clarification, Contest, Scoreboard},
    domain::{Judgement as Judged, Scoring, Submission, SubmissionKind, Verdict},
};

/// The release of the Contest API these shapes follow.
pub const VERSION: &str = "2026-01";

/// `GET /ccs`: what the API is.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct ApiInformation {
    pub version: &'static str,
    pub version_url: String,
    pub provider: Provider,
}

#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct Provider {
    pub name: &'static str,
    pub version: &'static str,
}

pub fn api_information() -> ApiInformation {
    ApiInformation {
        version: VERSION,
        version_url: format!("https://ccs-specs.icpc.io/{VERSION}/contest_api"),
        provider: Provider {
            name: "nimjudge",
            version: env!("CARGO_PKG_VERSION"),
        },
    }
}

/// The Contest API id of a nimjudge name (a user, contest or problem).
///
/// The spec's ids are 1 to 36 characters of `[a-zA-Z0-9_.-]`, not starting
/// with `-` or `.` nor ending with `.`. A user name may hold spaces and any
/// letter and a contest or problem id may be 64 characters long, so a name
/// that is not a valid id is shown as `_` and the first 32 hex digits of
/// its SHA-256. Names of that very shape are hashed too, so no two names
/// share an id.
pub fn identifier(name: &str) -> String {
    let valid = (1..=36).contains(&name.len())
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'.' | b'-'))
        && !name.starts_with(['-', '.'])
        && !name.ends_with('.');
    if valid && !is_hashed_identifier(name) {
        return name.to_string();
    }
    let digest = Sha256::digest(name.as_bytes());
    let mut id = String::with_capacity(33);
    id.push('_');
    for byte in &digest[..16] {
        id.push_str(&format!("{byte:02x}"));
    }
    id
}

/// Whether `id` has the shape [`identifier`] gives a hashed name: `_` and
/// 32 lowercase hex digits.
pub fn is_hashed_identifier(id: &str) -> bool {
    id.len() == 33
        && id.starts_with('_')
        && id[1..]
            .bytes()
            .all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
}

/// An absolute time: `2026-01-31T12:00:00.000Z`.
pub fn abstime(at: Timestamp) -> String {
    at.strftime("%Y-%m-%dT%H:%M:%S%.3fZ").to_string()
}

/// A contest time (relative): `h:mm:ss.mmm`, negative before the start.
pub fn reltime(millis: i64) -> String {
    let sign = if millis < 0 { "-" } else { "" };
    let millis = millis.unsigned_abs();
    let (hours, rest) = (millis / 3_600_000, millis % 3_600_000);
    let (minutes, rest) = (rest / 60_000, rest % 60_000);
    format!(
        "{sign}{hours}:{minutes:02}:{:02}.{:03}",
        rest / 1000,
        rest % 1000
    )
}

#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct CcsContest {
    pub id: String,
    pub name: String,
    pub formal_name: String,
    pub start_time: Option<String>,
    pub duration: String,
    pub scoreboard_freeze_duration: Option<String>,
    pub scoreboard_thaw_time: Option<String>,
    pub scoreboard_type: &'static str,
    pub penalty_time: String,
}

pub fn contest(contest: &Contest) -> CcsContest {
    let s = &contest.settings;
    CcsContest {
        id: identifier(contest.id.as_str()),
        name: s.title.clone(),
        formal_name: s.title.clone(),
        start_time: Some(abstime(s.starts_at)),
        duration: reltime(s.duration_seconds * 1000),
        scoreboard_freeze_duration: s.freeze_seconds.map(|f| reltime(f * 1000)),
        scoreboard_thaw_time: contest.thawed_at.map(abstime),
        scoreboard_type: match s.scoring {
            Scoring::Icpc => "pass-fail",
            Scoring::Ioi => "score",
        },
        penalty_time: reltime(s.penalty_minutes * 60_000),
    }
}

/// The contest's state at `now`: when it started, froze, ended, thawed and
/// became final (each null until then).
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct State {
    pub started: Option<String>,
    pub frozen: Option<String>,
    pub ended: Option<String>,
    pub thawed: Option<String>,
    pub finalized: Option<String>,
    pub end_of_updates: Option<String>,
}

pub fn state(contest: &Contest, now: Timestamp) -> State {
    let s = &contest.settings;
    let start = s.starts_at;
    let end = start + jiff::SignedDuration::from_secs(s.duration_seconds);
    let freeze = s
        .freeze_seconds
        .filter(|&f| f > 0)
        .map(|f| end - jiff::SignedDuration::from_secs(f));
    let reached = |at: Timestamp| (now >= at).then(|| abstime(at));
    let ended = reached(end);
    let thawed = contest.thawed_at.filter(|_| freeze.is_some()).map(abstime);
    // Final once over and nothing is hidden: no freeze, or thawed.
    let finalized = match (&ended, freeze) {
        (Some(ended), None) => Some(ended.clone()),
        (Some(_), Some(_)) => thawed.clone(),
        (None, _) => None,
    };
    State {
        started: reached(start),
        frozen: freeze.and_then(reached),
        ended,
        thawed,
        end_of_updates: finalized.clone(),
        finalized,
    }
}

#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct CcsProblem {
    pub id: String,
    pub label: String,
    pub name: String,
    pub ordinal: usize,
    /// Left out where the contest gives no colour (the spec's schema
    /// takes a string or nothing).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rgb: Option<String>,
    pub time_limit: f64,
    pub memory_limit: i64,
    pub test_data_count: usize,
}

/// What the API says of a hosted problem beside the contest's own.
#[derive(Debug, Clone, PartialEq)]
pub struct ProblemFacts {
    pub title: String,
    pub time_limit_ms: i64,
    pub memory_limit_mib: i64,
    pub testcases: usize,
}

pub fn problems(contest: &Contest, facts: &[ProblemFacts]) -> Vec<CcsProblem> {
    contest
        .settings
        .problems
        .iter()
        .zip(facts)
        .enumerate()
        .map(|(ordinal, (problem, facts))| CcsProblem {
            id: identifier(problem.problem.as_str()),
            label: problem.label.clone(),
            name: facts.title.clone(),
            ordinal,
            rgb: problem.colour.clone(),
            time_limit: facts.time_limit_ms as f64 / 1000.0,
            memory_limit: facts.memory_limit_mib,
            test_data_count: facts.testcases,
        })
        .collect()
}

#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct JudgementType {
    pub id: &'static str,
    pub name: &'static str,
    pub penalty: bool,
    pub solved: bool,
}

/// The spec's id of a verdict.
pub fn judgement_type_id(verdict: Verdict) -> &'static str {
    match verdict {
        Verdict::AC => "AC",
        Verdict::WA => "WA",
        Verdict::TLE => "TLE",
        Verdict::MLE => "MLE",
        Verdict::OLE => "OLE",
        Verdict::RE => "RTE",
        Verdict::CE => "CE",
        Verdict::IE => "JE",
    }
}

/// Every verdict as a judgement type; a CE counts as a rejected try where
/// the contest says so, an IE never does.
pub fn judgement_types(contest: &Contest) -> Vec<JudgementType> {
    Verdict::ALL
        .iter()
        .map(|&verdict| JudgementType {
            id: judgement_type_id(verdict),
            name: match verdict {
                Verdict::AC => "accepted",
                Verdict::WA => "wrong answer",
                Verdict::TLE => "time limit exceeded",
                Verdict::MLE => "memory limit exceeded",
                Verdict::OLE => "output limit exceeded",
                Verdict::RE => "run-time error",
                Verdict::CE => "compiler error",
                Verdict::IE => "judging error",
            },
            penalty: match verdict {
                Verdict::AC | Verdict::IE => false,
                Verdict::CE => contest.settings.count_compile_errors,
                _ => true,
            },
            solved: verdict == Verdict::AC,
        })
        .collect()
}

#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct Team {
    pub id: String,
    pub name: String,
    pub label: String,
}

pub fn team(user: &str) -> Team {
    Team {
        id: identifier(user),
        name: user.to_string(),
        label: user.to_string(),
    }
}

#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct CcsScoreboard {
    pub time: String,
    pub contest_time: String,
    pub state: State,
    pub rows: Vec<CcsRow>,
}

#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct CcsRow {
    pub rank: u64,
    pub team_id: String,
    pub score: CcsScore,
    pub problems: Vec<CcsCell>,
}

#[derive(Debug, Clone, Serialize, PartialEq)]
#[serde(untagged)]
pub enum CcsScore {
    PassFail {
        num_solved: i64,
        total_time: String,
        /// The contest time of the last solve; `null` while none is (the
        /// spec: null iff `num_solved` is 0; its schema refuses it absent).
        time: Option<String>,
    },
    Score {
        score: f64,
        /// The contest time of the row's last score change; `null` while
        /// the score is 0 (the spec's schema wants the property).
        time: Option<String>,
    },
}

#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct CcsCell {
    pub problem_id: String,
    pub num_judged: i64,
    pub num_pending: i64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub solved: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub score: Option<f64>,
    /// When it was solved (or first scored); absent otherwise.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub time: Option<String>,
}

/// The scoreboard a reader sees (already frozen or not for them), at
/// `now`. Cells of problems nobody tried are left out, as the spec allows.
pub fn scoreboard(contest: &Contest, board: &Scoreboard, now: Timestamp) -> CcsScoreboard {
    let start = contest.settings.starts_at;
    let since_start = now.duration_since(start).as_millis();
    let duration_ms = contest.settings.duration_seconds * 1000;
    let contest_time = i64::try_from(since_start)
        .unwrap_or(i64::MAX)
        .clamp(0, duration_ms);
    let ioi = contest.settings.scoring == Scoring::Ioi;
    let minutes = |m: i64| reltime(m * 60_000);
    let rows = board
        .rows
        .iter()
        .map(|row| {
            let problems = contest
                .settings
                .problems
                .iter()
                .zip(&row.cells)
                .filter(|(_, cell)| cell.tried() || cell.pending > 0)
                .map(|(problem, cell)| {
                    let judged = cell.tries + i64::from(cell.solved_minute.is_some());
                    CcsCell {
                        problem_id: identifier(problem.problem.as_str()),
                        num_judged: judged,
                        num_pending: cell.pending,
                        solved: (!ioi).then_some(cell.solved_minute.is_some()),
                        score: if ioi {
                            Some(cell.score.unwrap_or(0.0))
                        } else {
                            None
                        },
                        // The spec: required iff solved, or a score above
                        // 0 (then the try that reached it).
                        time: match (ioi, cell.solved_minute, cell.scored_minute) {
                            (false, Some(minute), _) | (true, _, Some(minute)) => {
                                Some(minutes(minute))
                            }
                            _ => None,
                        },
                    }
                })
                .collect::<Vec<_>>();
            let score = if ioi {
                CcsScore::Score {
                    score: row.score.unwrap_or(0.0),
                    time: row.scored_minute.map(minutes),
                }
            } else {
                CcsScore::PassFail {
                    num_solved: row.solved,
                    total_time: minutes(row.penalty),
                    time: row
                        .cells
                        .iter()
                        .filter_map(|c| c.solved_minute)
                        .max()
                        .map(minutes),
                }
            };
            CcsRow {
                rank: row.rank,
                team_id: identifier(&row.user),
                score,
                problems,
            }
        })
        .collect();
    CcsScoreboard {
        time: abstime(now),
        contest_time: reltime(contest_time),
        state: state(contest, now),
        rows,
    }
}

/// The language id of an answers submission (an output-only problem's),
/// listed among the languages beside the programs' own.
pub const ANSWERS_LANGUAGE: &str = "answers";

/// A submission: its id, language (`answers` for answers), problem, team
/// and times; its files are a zip of a program's source (none for
/// answers: their texts are not served back).
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct CcsSubmission {
    pub id: String,
    pub language_id: String,
    pub problem_id: String,
    pub team_id: String,
    pub time: String,
    pub contest_time: String,
    pub files: Vec<FileRef>,
}

#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct FileRef {
    pub href: String,
    pub filename: String,
    pub mime: &'static str,
}

/// The contest time of an absolute one, from the contest's start.
fn contest_time(contest: &Contest, at: Timestamp) -> String {
    reltime(i64::try_from(at.duration_since(contest.settings.starts_at).as_millis()).unwrap_or(0))
}

/// The submissions that are the contest's: programs and answers (a
/// custom check is no submission to the contest). `files_href` makes a
/// program's files link from its id.
pub fn submissions(
    contest: &Contest,
    list: &[Submission],
    files_href: impl Fn(&str) -> String,
) -> Vec<CcsSubmission> {
    list.iter()
        .filter(|s| s.kind != SubmissionKind::Custom)
        .map(|s| {
            let id = s.id.to_string();
            let files = match (&s.language, s.kind) {
                (Some(_), SubmissionKind::Program) => vec![FileRef {
                    href: files_href(&id),
                    filename: "files.zip".into(),
                    mime: "application/zip",
                }],
                _ => Vec::new(),
            };
            CcsSubmission {
                language_id: s
                    .language
                    .as_ref()
                    .map_or_else(|| ANSWERS_LANGUAGE.to_string(), ToString::to_string),
                problem_id: identifier(s.problem.as_str()),
                team_id: identifier(&s.user),
                time: abstime(s.created_at),
                contest_time: contest_time(contest, s.created_at),
                files,
                id,
            }
        })
        .collect()
}

/// A submission's judgement: its latest, one per judged submission, under
/// the submission's id. Judging starts when the submission is queued and
/// ends at its verdict.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct Judgement {
    pub id: String,
    pub submission_id: String,
    pub judgement_type_id: Option<&'static str>,
    pub start_time: String,
    pub start_contest_time: String,
    pub end_time: Option<String>,
    pub end_contest_time: Option<String>,
    pub max_run_time: Option<f64>,
}

pub fn judgements(contest: &Contest, list: &[Submission]) -> Vec<Judgement> {
    list.iter()
        .filter(|s| s.kind != SubmissionKind::Custom)
        .map(|s| {
            let ended = s.verdict.and(s.judged_at);
            Judgement {
                id: s.id.to_string(),
                submission_id: s.id.to_string(),
                judgement_type_id: ended.and(s.verdict).map(judgement_type_id),
                start_time: abstime(s.queued_at.max(s.created_at)),
                start_contest_time: contest_time(contest, s.queued_at.max(s.created_at)),
                end_time: ended.map(abstime),
                end_contest_time: ended.map(|at| contest_time(contest, at)),
                max_run_time: ended.and(s.max_cpu_ms).map(|ms| ms as f64 / 1000.0),
            }
        })
        .collect()
}

/// One testcase's run of a judgement, its ordinal from 1 in judging
/// order; its id the submission's without hyphens, `-` and the ordinal
/// (the spec's ids have at most 36 characters, a UUID alone 36).
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct Run {
    pub id: String,
    pub judgement_id: String,
    pub ordinal: usize,
    pub judgement_type_id: &'static str,
    /// When it completed. nimjudge records the judgement's end and each
    /// run's duration, not each run's end: the runs are laid back to back
    /// ending at the judgement's end.
    pub time: String,
    pub contest_time: String,
    /// A program's CPU time, or the time an answer's check took, in
    /// seconds, in whole milliseconds.
    pub run_time: f64,
}

/// The runs of a submission's latest judgement (none before its verdict).
pub fn runs(contest: &Contest, submission: &Submission, judgements: &[Judged]) -> Vec<Run> {
    let Some(latest) = judgements.last() else {
        return Vec::new();
    };
    let id = submission.id.to_string();
    let compact = id.replace('-', "");
    let mut end_us = latest.created_at.as_microsecond();
    let mut runs: Vec<Run> = latest
        .results
        .iter()
        .enumerate()
        .rev()
        .map(|(index, result)| {
            let at = Timestamp::from_microsecond(end_us).unwrap_or(latest.created_at);
            end_us -= result.time_us.max(0);
            Run {
                id: format!("{compact}-{}", index + 1),
                judgement_id: id.clone(),
                ordinal: index + 1,
                judgement_type_id: judgement_type_id(result.verdict),
                time: abstime(at),
                contest_time: contest_time(contest, at),
                run_time: result
                    .run
                    .as_ref()
                    .map_or((result.time_us.max(0) + 500) / 1000, |run| run.cpu_ms)
                    as f64
                    / 1000.0,
            }
        })
        .collect();
    runs.reverse();
    runs
}

/// `access`: what the caller may do (nothing: this API is read-only) and
/// read, each endpoint with the properties nimjudge fills.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct Access {
    pub capabilities: Vec<&'static str>,
    pub endpoints: Vec<AccessEndpoint>,
}

#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct AccessEndpoint {
    #[serde(rename = "type")]
    pub kind: &'static str,
    pub properties: Vec<&'static str>,
}

/// The endpoints served and their properties.
pub const ENDPOINTS: &[(&str, &[&str])] = &[
    (
        "contest",
        &[
            "id",
            "name",
            "formal_name",
            "start_time",
            "duration",
            "scoreboard_freeze_duration",
            "scoreboard_thaw_time",
            "scoreboard_type",
            "penalty_time",
        ],
    ),
    ("judgement-types", &["id", "name", "penalty", "solved"]),
    (
        "languages",
        &["id", "name", "entry_point_required", "extensions"],
    ),
    (
        "problems",
        &[
            "id",
            "label",
            "name",
            "ordinal",
            "rgb",
            "time_limit",
            "memory_limit",
            "test_data_count",
        ],
    ),
    ("groups", &["id", "name"]),
    ("organizations", &["id", "name"]),
    ("teams", &["id", "name", "label"]),
    (
        "state",
        &[
            "started",
            "frozen",
            "ended",
            "thawed",
            "finalized",
            "end_of_updates",
        ],
    ),
    (
        "submissions",
        &[
            "id",
            "language_id",
            "problem_id",
            "team_id",
            "time",
            "contest_time",
            "files",
        ],
    ),
    (
        "judgements",
        &[
            "id",
            "submission_id",
            "judgement_type_id",
            "start_time",
            "start_contest_time",
            "end_time",
            "end_contest_time",
            "max_run_time",
        ],
    ),
    (
        "runs",
        &[
            "id",
            "judgement_id",
            "ordinal",
            "judgement_type_id",
            "time",
            "contest_time",
            "run_time",
        ],
    ),
    (
        "clarifications",
        &[
            "id",
            "from_team_id",
            "to_team_id",
            "reply_to_id",
            "problem_id",
            "text",
            "time",
            "contest_time",
        ],
    ),
    (
        "scoreboard",
        &[
            "time",
            "contest_time",
            "state",
            "rows.rank",
            "rows.team_id",
            "rows.score.num_solved",
            "rows.score.total_time",
            "rows.score.score",
            "rows.score.time",
            "rows.problems.problem_id",
            "rows.problems.num_judged",
            "rows.problems.num_pending",
            "rows.problems.solved",
            "rows.problems.score",
            "rows.problems.time",
        ],
    ),
];

pub fn access() -> Access {
    Access {
        capabilities: Vec::new(),
        endpoints: ENDPOINTS
            .iter()
            .map(|&(kind, properties)| AccessEndpoint {
                kind,
                properties: properties.to_vec(),
            })
            .collect(),
    }
}

/// A clarification message. A question and its answer are two messages:
/// the question `<n>` from its team, the answer `<n>-answer` replying to
/// it (to that team, or to everyone); an announcement is one message from
/// the jury, `<n>`.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct CcsClarification {
    pub id: String,
    pub from_team_id: Option<String>,
    pub to_team_id: Option<String>,
    pub reply_to_id: Option<String>,
    pub problem_id: Option<String>,
    pub text: String,
    pub time: String,
    pub contest_time: String,
}

pub fn clarifications(contest: &Contest, list: &[Clarification]) -> Vec<CcsClarification> {
    let start = contest.settings.starts_at;
    let contest_time = |at: Timestamp| {
        reltime(i64::try_from(at.duration_since(start).as_millis()).unwrap_or(i64::MAX))
    };
    let mut messages = Vec::new();
    for clarification in list {
        let problem_id = clarification
            .problem
            .as_ref()
            .map(|p| identifier(p.as_str()));
        let number = clarification.id.to_string();
        match (&clarification.question, &clarification.asked_by) {
            (Some(question), Some(asker)) => {
                messages.push(CcsClarification {
                    id: number.clone(),
                    from_team_id: Some(identifier(asker)),
                    to_team_id: None,
                    reply_to_id: None,
                    problem_id: problem_id.clone(),
                    text: question.clone(),
                    time: abstime(clarification.created_at),
                    contest_time: contest_time(clarification.created_at),
                });
                if let (Some(answer), Some(at)) = (&clarification.answer, clarification.answered_at)
                {
                    messages.push(CcsClarification {
                        id: format!("{number}-answer"),
                        from_team_id: None,
                        to_team_id: (!clarification.to_all).then(|| identifier(asker)),
                        reply_to_id: Some(number),
                        problem_id,
                        text: answer.clone(),
                        time: abstime(at),
                        contest_time: contest_time(at),
                    });
                }
            }
            _ => {
                let at = clarification
                    .answered_at
                    .unwrap_or(clarification.created_at);
                messages.push(CcsClarification {
                    id: number,
                    from_team_id: None,
                    to_team_id: None,
                    reply_to_id: None,
                    problem_id,
                    text: clarification.answer.clone().unwrap_or_default(),
                    time: abstime(at),
                    contest_time: contest_time(at),
                });
            }
        }
    }
    messages.sort_by(|a, b| a.time.cmp(&b.time).then_with(|| a.id.cmp(&b.id)));
    messages
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The spec's rule for an id, as its text states it: characters
    /// `[a-zA-Z0-9_.-]`, at most 36, not starting with `-` or `.`, not
    /// ending with `.` (and, being an id, not empty).
    fn is_spec_id(id: &str) -> bool {
        let chars: Vec<char> = id.chars().collect();
        !chars.is_empty()
            && chars.len() <= 36
            && chars
                .iter()
                .all(|c| c.is_ascii_alphanumeric() || "_.-".contains(*c))
            && chars[0] != '-'
            && chars[0] != '.'
            && chars[chars.len() - 1] != '.'
    }

    #[test]
    fn every_name_gets_a_valid_id_of_its_own() {
        for kept in [
            "alice",
            "team_7",
            "A.b-c",
            "x",
            "nim",
            &"a".repeat(36),
            "ends-",
        ] {
            assert_eq!(identifier(kept), kept);
        }
        // Hashes computed separately (Python's hashlib.sha256).
        assert_eq!(
            identifier("Taro Yamada 太郎"),
            "_1558de7be06350231734069f339c9a3c"
        );
        let hash_shaped = "_0123456789abcdef0123456789abcdef";
        assert_eq!(identifier(hash_shaped), "_4a50b5f4ed390c813c578e9c71d9161d");
        let names = [
            "Taro Yamada 太郎",
            "two words",
            "-dash-first",
            ".dot-first",
            "dot-last.",
            &"a".repeat(37),
            "a-very-long-contest-id-of-forty-characters",
            "slash/inside",
            hash_shaped,
            "_4a50b5f4ed390c813c578e9c71d9161d",
            "alice",
        ];
        let ids: std::collections::BTreeSet<String> =
            names.iter().map(|name| identifier(name)).collect();
        assert_eq!(ids.len(), names.len(), "two names share an id: {ids:?}");
        for id in &ids {
            assert!(is_spec_id(id), "{id:?} is not a Contest API id");
        }
    }

    #[test]
    fn times_are_written_as_the_spec_patterns_ask() {
        assert_eq!(reltime(0), "0:00:00.000");
        assert_eq!(reltime(5 * 3_600_000 + 7 * 60_000 + 9_012), "5:07:09.012");
        assert_eq!(reltime(-61_000), "-0:01:01.000");
        assert_eq!(reltime(30 * 3_600_000), "30:00:00.000");
        let at: Timestamp = "2026-11-28T09:05:03.5Z".parse().unwrap();
        assert_eq!(abstime(at), "2026-11-28T09:05:03.500Z");
    }
}
