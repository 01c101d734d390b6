//! Contests, pure: what a contest is, the rules a contest's definition
//! must keep, its phases in time, and its ICPC and IOI scoreboards ranked
//! from the stored cells (one per participant and problem, kept by the
//! store as submissions arrive and verdicts land).
//!
//! A contest is a window over some of the hosted problems, each under a
//! label. Submissions inside the window carry their contest time; the last
//! `freeze_ms` of it are frozen: contestants and the public see tries made
//! from the freeze on as pending until an admin thaws the scoreboard after
//! the end. Admins always see everything.

use std::collections::{BTreeMap, HashMap};

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::{
    domain::{ContestId, ProblemId, Registration, ScoreBy, Scoring, Timestamp},
    scoring,
    solver::TestKind,
};

/// The most problems a contest holds (labels `A` to `Z`, and then some).
pub const MAX_PROBLEMS: usize = 52;
/// The longest a contest lasts: 30 days.
pub const MAX_DURATION_MS: i64 = 30 * 24 * 60 * 60 * 1000;
/// The most penalty minutes a rejected try costs.
pub const MAX_PENALTY_MINUTES: i64 = 1000;

/// One problem of a contest.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ContestProblem {
    /// Its label on the scoreboard: 1 to 8 letters or digits, e.g. `A`.
    pub label: String,
    #[schema(value_type = String)]
    pub problem: ProblemId,
    /// Its balloon colour, `#rrggbb`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub colour: Option<String>,
    /// Each participant's own input, generated with this kind and a seed
    /// of the contest, the participant and the problem, answered as the
    /// testcase `personal` (answer problems only); none: the problem's
    /// own testcases.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub personal_input: Option<TestKind>,
}

/// The testcase name a participant's own input is answered as.
pub const PERSONAL: &str = "personal";

/// The seed of a participant's own input to a contest problem: the first
/// eight bytes of the SHA-256 of the contest's secret `salt` (never shown,
/// so no one can make the input before the judge hands it out) and the
/// three names; a contest made before contests had a secret has none.
pub fn personal_seed(
    contest: &ContestId,
    salt: Option<&str>,
    user: &str,
    problem: &ProblemId,
) -> u64 {
    use sha2::{Digest, Sha256};
    let mut hasher = Sha256::new();
    for part in salt
        .into_iter()
        .chain([contest.as_str(), user, problem.as_str()])
    {
        hasher.update((part.len() as u64).to_le_bytes());
        hasher.update(part.as_bytes());
    }
    let digest = hasher.finalize();
    let mut first = [0u8; 8];
    first.copy_from_slice(&digest[..8]);
    u64::from_le_bytes(first)
}

/// What an admin sets of a contest: the body of `PUT /api/contests/{id}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ContestSettings {
    pub title: String,
    #[schema(value_type = String, format = DateTime)]
    pub starts_at: Timestamp,
    /// In seconds, at most 30 days.
    pub duration_seconds: i64,
    /// How long before the end the scoreboard freezes, in seconds; none
    /// (or absent): it never does. With personal windows, before the end
    /// of each participant's window.
    #[serde(default)]
    pub freeze_seconds: Option<i64>,
    /// Personal windows (virtual participation): each participant's own
    /// window lasts this many seconds from when they start it (or send
    /// their first submission), within the contest's span of
    /// `duration_seconds` from `starts_at`, and ends with the span at the
    /// latest. None (or absent): one window for everyone, the span.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub window_seconds: Option<i64>,
    #[serde(default = "default_scoring")]
    pub scoring: Scoring,
    /// How an `ioi` contest takes a participant's score on a problem:
    /// each group's best over their submissions (`group`, the default) or
    /// the best submission's. An `icpc` contest keeps `group`.
    #[serde(default)]
    pub score_by: ScoreBy,
    #[serde(default = "default_registration")]
    pub registration: Registration,
    /// Added for each rejected try before a problem's first AC (CE, unless
    /// `count_compile_errors`, and IE do not count); 20 unless set.
    #[serde(default = "default_penalty")]
    pub penalty_minutes: i64,
    /// Whether a compile error counts as a rejected try; off unless set.
    #[serde(default)]
    pub count_compile_errors: bool,
    /// In scoreboard order.
    pub problems: Vec<ContestProblem>,
}

fn default_scoring() -> Scoring {
    Scoring::Icpc
}

fn default_registration() -> Registration {
    Registration::Open
}

fn default_penalty() -> i64 {
    20
}

impl ContestSettings {
    /// Checks every rule a contest keeps; the message names the field and
    /// what is wrong. Whether its problems exist is the caller's to check.
    pub fn validate(&self) -> Result<(), String> {
        let title = self.title.trim();
        if title.is_empty() || title.chars().count() > 200 {
            return Err("`title` must be 1 to 200 characters".into());
        }
        if !(1..=MAX_DURATION_MS / 1000).contains(&self.duration_seconds) {
            return Err(format!(
                "`duration_seconds` must be 1 to {} (30 days), not {}",
                MAX_DURATION_MS / 1000,
                self.duration_seconds
            ));
        }
        if let Some(freeze) = self.freeze_seconds
            && !(0..=self.duration_seconds).contains(&freeze)
        {
            return Err(format!(
                "`freeze_seconds` must be 0 to the duration ({}), not {freeze}",
                self.duration_seconds
            ));
        }
        if self.scoring == Scoring::Icpc && self.score_by != ScoreBy::Group {
            return Err(
                "`score_by` is for `ioi` contests: an `icpc` contest ranks by solved problems"
                    .into(),
            );
        }
        if let Some(window) = self.window_seconds {
            if !(1..=self.duration_seconds).contains(&window) {
                return Err(format!(
                    "`window_seconds` must be 1 to the duration ({}), not {window}",
                    self.duration_seconds
                ));
            }
            if let Some(freeze) = self.freeze_seconds
                && freeze > window
            {
                return Err(format!(
                    "`freeze_seconds` must be 0 to the window ({window}), not {freeze}"
                ));
            }
        }
        if !(0..=MAX_PENALTY_MINUTES).contains(&self.penalty_minutes) {
            return Err(format!(
                "`penalty_minutes` must be 0 to {MAX_PENALTY_MINUTES}, not {}",
                self.penalty_minutes
            ));
        }
        if self.problems.is_empty() || self.problems.len() > MAX_PROBLEMS {
            return Err(format!(
                "`problems` must hold 1 to {MAX_PROBLEMS} problems, not {}",
                self.problems.len()
            ));
        }
        let mut labels = HashMap::new();
        let mut problems = HashMap::new();
        for (index, entry) in self.problems.iter().enumerate() {
            let at = format!("`problems[{index}]`");
            let label = &entry.label;
            if label.is_empty()
                || label.len() > 8
                || !label.chars().all(|c| c.is_ascii_alphanumeric())
            {
                return Err(format!(
                    "{at}: the label `{label}` must be 1 to 8 letters or digits"
                ));
            }
            if let Some(first) = labels.insert(label.as_str(), index) {
                return Err(format!(
                    "{at}: the label `{label}` is taken by `problems[{first}]`"
                ));
            }
            if let Some(first) = problems.insert(&entry.problem, index) {
                return Err(format!(
                    "{at}: problem `{}` is already `problems[{first}]`",
                    entry.problem
                ));
            }
            if let Some(colour) = &entry.colour {
                let hex = colour.strip_prefix('#').unwrap_or_default();
                if hex.len() != 6 || !hex.chars().all(|c| c.is_ascii_hexdigit()) {
                    return Err(format!(
                        "{at}: the colour `{colour}` must be written `#rrggbb`"
                    ));
                }
            }
        }
        Ok(())
    }
}

/// A contest as stored.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct Contest {
    #[schema(value_type = String)]
    pub id: ContestId,
    pub settings: ContestSettings,
    /// When an admin thawed its frozen scoreboard, if they did.
    #[schema(value_type = Option<String>, format = DateTime)]
    pub thawed_at: Option<Timestamp>,
}

/// A contest as one reader sees it.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct ContestView {
    pub contest: Contest,
    pub phase: Phase,
    /// Whether the reader takes part.
    pub registered: bool,
    /// The reader's own window once they started it (personal windows).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub window: Option<Window>,
}

/// A participant's window.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct Window {
    #[schema(value_type = String, format = DateTime)]
    pub starts_at: Timestamp,
    #[schema(value_type = String, format = DateTime)]
    pub ends_at: Timestamp,
}

/// A question to a contest's jury and its answer, or an announcement of
/// the jury (no asker, no question).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct Clarification {
    pub id: i64,
    #[schema(value_type = String)]
    pub contest: ContestId,
    /// The problem it is about; none: the contest in general.
    #[schema(value_type = Option<String>)]
    pub problem: Option<ProblemId>,
    /// Who asked; none for an announcement.
    pub asked_by: Option<String>,
    pub question: Option<String>,
    /// None until the jury answers.
    pub answer: Option<String>,
    /// Whether every participant sees it, not only the asker.
    pub to_all: bool,
    #[schema(value_type = String, format = DateTime)]
    pub created_at: Timestamp,
    #[schema(value_type = Option<String>, format = DateTime)]
    pub answered_at: Option<Timestamp>,
}

/// The most characters of a question or an answer.
pub const MAX_CLARIFICATION_CHARS: usize = 4000;

/// Checks a question's or an answer's text: not blank, at most
/// [`MAX_CLARIFICATION_CHARS`]; the message names `field`.
pub fn check_clarification_text(field: &str, text: &str) -> Result<(), String> {
    let length = text.trim().chars().count();
    if length == 0 || length > MAX_CLARIFICATION_CHARS {
        return Err(format!(
            "`{field}` must be 1 to {MAX_CLARIFICATION_CHARS} characters, not {length}"
        ));
    }
    Ok(())
}

/// Where a contest is in time.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    /// Not started: its problems are hidden from contestants.
    Before,
    /// Running, the scoreboard live.
    Running,
    /// Running, the scoreboard frozen for contestants and the public.
    Frozen,
    /// Over; a frozen scoreboard stays frozen until an admin thaws it.
    Ended,
}

impl Phase {
    /// The text it is sent as.
    pub fn as_str(self) -> &'static str {
        match self {
            Phase::Before => "before",
            Phase::Running => "running",
            Phase::Frozen => "frozen",
            Phase::Ended => "ended",
        }
    }
}

impl Contest {
    pub fn starts_at_ms(&self) -> i64 {
        self.settings.starts_at.as_millisecond()
    }

    pub fn duration_ms(&self) -> i64 {
        self.settings.duration_seconds * 1000
    }

    pub fn ends_at_ms(&self) -> i64 {
        self.starts_at_ms() + self.duration_ms()
    }

    /// How long a participant's window lasts: the personal window's
    /// length, else the whole span.
    pub fn window_ms(&self) -> i64 {
        self.settings
            .window_seconds
            .map_or(self.duration_ms(), |s| s * 1000)
    }

    /// Whether each participant has a window of their own.
    pub fn personal_windows(&self) -> bool {
        self.settings.window_seconds.is_some()
    }

    /// The contest time (from the start of a participant's window) from
    /// which tries are frozen; the window's length when it never freezes.
    pub fn freeze_at_ms(&self) -> i64 {
        self.window_ms() - self.settings.freeze_seconds.unwrap_or(0) * 1000
    }

    /// A participant's window (unix milliseconds, start and end) when they
    /// start it at `start_ms`: the contest's span without personal windows;
    /// else from `start_ms` for the window's length, ending with the span
    /// at the latest.
    pub fn window_from(&self, start_ms: i64) -> (i64, i64) {
        if self.personal_windows() {
            let start = start_ms.clamp(self.starts_at_ms(), self.ends_at_ms());
            (start, (start + self.window_ms()).min(self.ends_at_ms()))
        } else {
            (self.starts_at_ms(), self.ends_at_ms())
        }
    }

    /// Where the contest is at `now_ms` (unix milliseconds). With personal
    /// windows it is running through its whole span (each participant's
    /// freeze is their own).
    pub fn phase(&self, now_ms: i64) -> Phase {
        let time = now_ms - self.starts_at_ms();
        if time < 0 {
            Phase::Before
        } else if time >= self.duration_ms() {
            Phase::Ended
        } else if !self.personal_windows() && time >= self.freeze_at_ms() {
            Phase::Frozen
        } else {
            Phase::Running
        }
    }

    /// Whether contestants and the public see frozen tries as pending at
    /// `now_ms`: from the freeze until an admin thaws it. With personal
    /// windows, from the start: a try from the freeze of its own window on
    /// is frozen whenever it comes.
    pub fn hides_frozen(&self, now_ms: i64) -> bool {
        let time = now_ms - self.starts_at_ms();
        self.thawed_at.is_none()
            && self.settings.freeze_seconds.is_some_and(|s| s > 0)
            && if self.personal_windows() {
                time >= 0
            } else {
                time >= self.freeze_at_ms()
            }
    }

    /// The problem under `label`.
    pub fn problem(&self, label: &str) -> Option<&ContestProblem> {
        self.settings.problems.iter().find(|p| p.label == label)
    }
}

/// One participant on one problem, as the store keeps it: everything, and
/// what the public sees during the freeze (tries from the freeze on as
/// pending).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct StoredCell {
    pub solved_ms: Option<i64>,
    pub tries: i64,
    pub pending: i64,
    pub public_solved_ms: Option<i64>,
    pub public_tries: i64,
    pub public_pending: i64,
    /// The best score in hundredths (`ioi` contests; 0 otherwise).
    pub score: i64,
    pub public_score: i64,
    /// The contest time of the submission that last changed the score
    /// (`ioi` contests; none while it is 0).
    pub scored_ms: Option<i64>,
    pub public_scored_ms: Option<i64>,
}

/// One participant on one problem, on the scoreboard.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct Cell {
    pub label: String,
    /// Contest minutes of the first AC (rounded down), if solved.
    pub solved_minute: Option<i64>,
    /// Rejected tries before it (CE and IE do not count).
    pub tries: i64,
    /// Tries not judged yet, or frozen.
    pub pending: i64,
    /// The first participant to solve the problem.
    pub first_to_solve: bool,
    /// The best score in points (`ioi` contests only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub score: Option<f64>,
    /// Contest minutes (rounded down) of the submission that last changed
    /// the score (`ioi` contests, while it is above 0).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scored_minute: Option<i64>,
}

impl Cell {
    /// Whether a judged try shows in it: solved, rejected tries, or points.
    pub fn tried(&self) -> bool {
        self.solved_minute.is_some() || self.tries > 0 || self.score.is_some_and(|s| s > 0.0)
    }
}

/// One participant's row.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct Row {
    /// Equal solved count, penalty and last solve time share a rank.
    pub rank: u64,
    pub user: String,
    pub solved: i64,
    /// Minutes: each solved problem's minute plus the penalty for its
    /// rejected tries (`icpc` contests; 0 in `ioi` ones).
    pub penalty: i64,
    /// The sum of the cells' scores in points (`ioi` contests only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub score: Option<f64>,
    /// Contest minutes (rounded down) of the row's last score change: the
    /// latest of its cells' (`ioi` contests, while the score is above 0).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scored_minute: Option<i64>,
    /// One per contest problem, in label order.
    pub cells: Vec<Cell>,
}

/// A contest's scoreboard as one reader sees it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct Scoreboard {
    #[schema(value_type = String)]
    pub contest: ContestId,
    pub phase: Phase,
    /// How it ranks: `ioi` boards carry scores.
    pub scoring: Scoring,
    /// Whether tries from the freeze on show as pending to this reader.
    pub frozen: bool,
    /// The contest's labels, in order.
    pub labels: Vec<String>,
    /// Rows in the whole board; `rows` may be a page of them.
    pub total_rows: usize,
    /// The position of `rows`' first in the whole board, from 0.
    pub first_row: usize,
    pub rows: Vec<Row>,
}

/// A contest's rows as one reader sees them (everything, or the public
/// part of each cell with `frozen`), ranked, and kept so that a change of
/// a few participants' cells ranks again without drawing every row anew.
///
/// ICPC: ranked by problems solved, then penalty, then the earlier last
/// solve. IOI: ranked by the sum of the best scores. Ties share a rank and
/// are listed by name. A problem's first solve is the earliest among the
/// rows.
///
/// Drawing and sorting every row of 10,000 participants and 12 problems
/// took about 30 to 55 ms, at every request after any verdict;
/// [`RankedBoard::update`] draws the changed participants' rows only and
/// moves each to its place by a binary search, and its passes over every
/// row are the ranks and, where a first solve moved, that problem's marks
/// (BENCHMARKS.md, "Contest scoreboards").
#[derive(Debug, Clone)]
pub struct RankedBoard {
    frozen: bool,
    /// In rank order: by (key, name).
    entries: Vec<Entry>,
    /// Each problem's first solve among the rows, in label order.
    first: Vec<Option<i64>>,
    /// Each participant's key, to find their row by a binary search.
    keys: HashMap<String, (i64, i64, i64)>,
}

/// One participant's row and what ranks it.
#[derive(Debug, Clone)]
struct Entry {
    /// Smaller first: (minus the score, 0, 0) in `ioi` contests, else
    /// (minus the solved count, penalty, last solve).
    key: (i64, i64, i64),
    /// Each problem's solve time as the reader sees it, in label order:
    /// what first solves are found from.
    solved_ms: Vec<Option<i64>>,
    row: Row,
}

impl Entry {
    fn order(&self) -> ((i64, i64, i64), &str) {
        (self.key, self.row.user.as_str())
    }
}

impl RankedBoard {
    /// Every participant's row, ranked.
    pub fn rank(
        contest: &Contest,
        participants: &[String],
        cells: &BTreeMap<(String, ProblemId), StoredCell>,
        frozen: bool,
    ) -> RankedBoard {
        // Each participant's cells, grouped in one pass (a lookup by user
        // and problem per cell cost a ranking of 10,000 participants about
        // 50 ms).
        let mut by_user: HashMap<&str, Vec<(&ProblemId, &StoredCell)>> = HashMap::new();
        for ((user, problem), cell) in cells {
            by_user.entry(user).or_default().push((problem, cell));
        }
        let mut board = RankedBoard {
            frozen,
            entries: Vec::with_capacity(participants.len()),
            first: vec![None; contest.settings.problems.len()],
            keys: HashMap::with_capacity(participants.len()),
        };
        for user in participants {
            if board.keys.contains_key(user) {
                continue;
            }
            let own = by_user.get(user.as_str()).map_or(&[][..], Vec::as_slice);
            let entry = board.entry(contest, user, |problem| {
                own.iter()
                    .find(|(p, _)| *p == problem)
                    .map(|(_, cell)| *cell)
            });
            board.keys.insert(user.clone(), entry.key);
            board.entries.push(entry);
        }
        board.entries.sort_by(|a, b| a.order().cmp(&b.order()));
        for problem in 0..board.first.len() {
            board.mark_first_solves(problem);
        }
        board.number();
        board
    }

    /// Draws again the rows of `users` (participants whose cells changed,
    /// or who joined) from `cells`, every cell held, and ranks again.
    pub fn update<'a>(
        &mut self,
        contest: &Contest,
        users: impl IntoIterator<Item = &'a str>,
        cells: &BTreeMap<(String, ProblemId), StoredCell>,
    ) {
        let users: std::collections::BTreeSet<&str> = users.into_iter().collect();
        if users.is_empty() {
            return;
        }
        // Problems whose first solve may have moved: their marks are
        // made again over every row.
        let mut moved = vec![false; self.first.len()];
        let mut drawn = Vec::with_capacity(users.len());
        for user in users {
            if let Some(key) = self.keys.get(user) {
                let at = self
                    .entries
                    .binary_search_by(|e| e.order().cmp(&(*key, user)))
                    .expect("a kept row is where its key says");
                let old = self.entries.remove(at);
                for (problem, solved) in old.solved_ms.iter().enumerate() {
                    moved[problem] |= solved.is_some() && *solved == self.first[problem];
                }
            }
            let key = |problem: &ProblemId| (user.to_string(), problem.clone());
            let entry = self.entry(contest, user, |problem| cells.get(&key(problem)));
            for (problem, solved) in entry.solved_ms.iter().enumerate() {
                if let Some(ms) = *solved
                    && self.first[problem].is_none_or(|first| ms < first)
                {
                    moved[problem] = true;
                }
            }
            self.keys.insert(user.to_string(), entry.key);
            drawn.push(entry);
        }
        for mut entry in drawn {
            for (problem, cell) in entry.row.cells.iter_mut().enumerate() {
                cell.first_to_solve = entry.solved_ms[problem].is_some()
                    && entry.solved_ms[problem] == self.first[problem];
            }
            let at = self
                .entries
                .binary_search_by(|e| e.order().cmp(&entry.order()))
                .unwrap_or_else(|free| free);
            self.entries.insert(at, entry);
        }
        for (problem, moved) in moved.into_iter().enumerate() {
            if moved {
                self.mark_first_solves(problem);
            }
        }
        self.number();
    }

    /// Finds `problem`'s first solve among the rows and marks it in each.
    fn mark_first_solves(&mut self, problem: usize) {
        let first = self
            .entries
            .iter()
            .filter_map(|entry| entry.solved_ms[problem])
            .min();
        self.first[problem] = first;
        for entry in &mut self.entries {
            entry.row.cells[problem].first_to_solve =
                first.is_some() && entry.solved_ms[problem] == first;
        }
    }

    /// Numbers the rows in order, ties sharing a rank.
    fn number(&mut self) {
        for index in 0..self.entries.len() {
            self.entries[index].row.rank =
                if index > 0 && self.entries[index].key == self.entries[index - 1].key {
                    self.entries[index - 1].row.rank
                } else {
                    index as u64 + 1
                };
        }
    }

    /// Rows on the board.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether the board has no rows.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The board with the rows at `rows` (positions from 0, cut to the
    /// board), as seen in `phase`.
    pub fn scoreboard(
        &self,
        contest: &Contest,
        phase: Phase,
        rows: std::ops::Range<usize>,
    ) -> Scoreboard {
        let end = rows.end.min(self.entries.len());
        let start = rows.start.min(end);
        Scoreboard {
            contest: contest.id.clone(),
            phase,
            scoring: contest.settings.scoring,
            frozen: self.frozen,
            labels: contest
                .settings
                .problems
                .iter()
                .map(|p| p.label.clone())
                .collect(),
            total_rows: self.entries.len(),
            first_row: start,
            rows: self.entries[start..end]
                .iter()
                .map(|entry| entry.row.clone())
                .collect(),
        }
    }

    /// `user`'s row from their cells (`cell` of each problem), unranked
    /// and without first solves.
    fn entry<'c>(
        &self,
        contest: &Contest,
        user: &str,
        cell: impl Fn(&ProblemId) -> Option<&'c StoredCell>,
    ) -> Entry {
        let ioi = contest.settings.scoring == Scoring::Ioi;
        let penalty_minutes = if ioi {
            0
        } else {
            contest.settings.penalty_minutes
        };
        let untouched = StoredCell::default();
        let (mut solved, mut penalty, mut last, mut score) = (0, 0, 0, 0);
        let mut last_scored: Option<i64> = None;
        let mut solved_times = Vec::with_capacity(contest.settings.problems.len());
        let cells = contest
            .settings
            .problems
            .iter()
            .map(|entry| {
                let stored = cell(&entry.problem).unwrap_or(&untouched);
                let (solved_ms, tries, pending, cell_score, scored_ms) = if self.frozen {
                    (
                        stored.public_solved_ms,
                        stored.public_tries,
                        stored.public_pending,
                        stored.public_score,
                        stored.public_scored_ms,
                    )
                } else {
                    (
                        stored.solved_ms,
                        stored.tries,
                        stored.pending,
                        stored.score,
                        stored.scored_ms,
                    )
                };
                let scored_ms = scored_ms.filter(|_| ioi && cell_score > 0);
                last_scored = last_scored.max(scored_ms);
                let solved_minute = solved_ms.map(|ms| ms / 60_000);
                score += cell_score;
                if let (Some(minute), Some(ms)) = (solved_minute, solved_ms) {
                    solved += 1;
                    penalty += minute + penalty_minutes * tries;
                    last = last.max(ms);
                }
                solved_times.push(solved_ms);
                Cell {
                    label: entry.label.clone(),
                    solved_minute,
                    tries,
                    pending,
                    first_to_solve: false,
                    score: ioi.then(|| scoring::points(cell_score)),
                    scored_minute: scored_ms.map(|ms| ms / 60_000),
                }
            })
            .collect();
        Entry {
            key: if ioi {
                (-score, 0, 0)
            } else {
                (-solved, penalty, last)
            },
            solved_ms: solved_times,
            row: Row {
                rank: 0,
                user: user.to_string(),
                solved,
                penalty,
                score: ioi.then(|| scoring::points(score)),
                scored_minute: last_scored.filter(|_| score > 0).map(|ms| ms / 60_000),
                cells,
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use super::{
        Contest, ContestProblem, ContestSettings, Phase, RankedBoard, Scoreboard, StoredCell,
    };
    use crate::domain::{ProblemId, Registration, ScoreBy, Scoring, Timestamp};

    /// The scoreboard of `contest` from its participants' stored cells
    /// (participants without cells have empty rows), every row of it: a
    /// [`RankedBoard`] drawn once.
    fn scoreboard(
        contest: &Contest,
        participants: &[String],
        cells: &BTreeMap<(String, ProblemId), StoredCell>,
        phase: Phase,
        frozen: bool,
    ) -> Scoreboard {
        let board = RankedBoard::rank(contest, participants, cells, frozen);
        board.scoreboard(contest, phase, 0..board.len())
    }

    fn settings() -> ContestSettings {
        ContestSettings {
            title: "Spring".into(),
            starts_at: Timestamp::from_second(1_000_000).expect("a time"),
            duration_seconds: 5 * 3600,
            freeze_seconds: Some(3600),
            scoring: Scoring::Icpc,
            score_by: ScoreBy::Group,
            count_compile_errors: false,
            window_seconds: None,
            registration: Registration::Open,
            penalty_minutes: 20,
            problems: vec![
                ContestProblem {
                    personal_input: None,
                    label: "A".into(),
                    problem: "nim".parse().expect("an id"),
                    colour: Some("#ff0000".into()),
                },
                ContestProblem {
                    personal_input: None,
                    label: "B".into(),
                    problem: "coin-game".parse().expect("an id"),
                    colour: None,
                },
            ],
        }
    }

    fn contest() -> Contest {
        Contest {
            id: "spring".parse().expect("an id"),
            settings: settings(),
            thawed_at: None,
        }
    }

    /// A participant's seed hangs on the contest's secret: without it the
    /// names alone made it; the seed of a contest made before secrets is
    /// the one it handed out then.
    #[test]
    fn a_personal_seed_hangs_on_the_contests_secret() {
        use super::personal_seed;
        use crate::domain::ContestId;
        let (contest, problem): (ContestId, ProblemId) = (
            "spring".parse().expect("an id"),
            "nim".parse().expect("an id"),
        );
        let seed = |salt| personal_seed(&contest, salt, "carol", &problem);
        assert_eq!(seed(None), 0x2834_352c_2f8f_3f5e, "{:#x}", seed(None));
        assert_ne!(seed(Some("one secret")), seed(None));
        assert_ne!(seed(Some("one secret")), seed(Some("another")));
        assert_eq!(seed(Some("one secret")), seed(Some("one secret")));
        assert_ne!(
            personal_seed(&contest, Some("one secret"), "dave", &problem),
            seed(Some("one secret"))
        );
    }

    #[test]
    fn a_contests_rules_name_the_field_at_fault() {
        assert_eq!(settings().validate(), Ok(()));
        let refused = |change: fn(&mut ContestSettings)| {
            let mut settings = settings();
            change(&mut settings);
            settings.validate().expect_err("refused")
        };
        assert_eq!(
            refused(|s| s.title = "  ".into()),
            "`title` must be 1 to 200 characters"
        );
        assert_eq!(
            refused(|s| s.duration_seconds = 0),
            "`duration_seconds` must be 1 to 2592000 (30 days), not 0"
        );
        assert_eq!(
            refused(|s| s.freeze_seconds = Some(5 * 3600 + 1)),
            "`freeze_seconds` must be 0 to the duration (18000), not 18001"
        );
        assert_eq!(
            refused(|s| s.window_seconds = Some(5 * 3600 + 1)),
            "`window_seconds` must be 1 to the duration (18000), not 18001"
        );
        assert_eq!(
            refused(|s| s.window_seconds = Some(1800)),
            "`freeze_seconds` must be 0 to the window (1800), not 3600"
        );
        assert_eq!(
            refused(|s| {
                s.scoring = Scoring::Icpc;
                s.score_by = ScoreBy::Submission;
            }),
            "`score_by` is for `ioi` contests: an `icpc` contest ranks by solved problems"
        );
        assert_eq!(
            refused(|s| s.penalty_minutes = -1),
            "`penalty_minutes` must be 0 to 1000, not -1"
        );
        assert_eq!(
            refused(|s| s.problems.clear()),
            "`problems` must hold 1 to 52 problems, not 0"
        );
        assert_eq!(
            refused(|s| s.problems[1].label = "A".into()),
            "`problems[1]`: the label `A` is taken by `problems[0]`"
        );
        assert_eq!(
            refused(|s| s.problems[1].label = "B 2".into()),
            "`problems[1]`: the label `B 2` must be 1 to 8 letters or digits"
        );
        assert_eq!(
            refused(|s| s.problems[1].problem = "nim".parse().expect("an id")),
            "`problems[1]`: problem `nim` is already `problems[0]`"
        );
        assert_eq!(
            refused(|s| s.problems[0].colour = Some("red".into())),
            "`problems[0]`: the colour `red` must be written `#rrggbb`"
        );
    }

    #[test]
    fn phases_follow_the_clock_and_the_freeze_lasts_until_the_thaw() {
        for phase in [Phase::Before, Phase::Running, Phase::Frozen, Phase::Ended] {
            let sent = serde_json::to_value(phase).expect("json");
            assert_eq!(sent.as_str(), Some(phase.as_str()));
        }
        let mut contest = contest();
        let start = contest.starts_at_ms();
        let hour = 3_600_000;
        assert_eq!(contest.phase(start - 1), Phase::Before);
        assert_eq!(contest.phase(start), Phase::Running);
        assert_eq!(contest.phase(start + 4 * hour - 1), Phase::Running);
        assert!(!contest.hides_frozen(start + 4 * hour - 1));
        assert_eq!(contest.phase(start + 4 * hour), Phase::Frozen);
        assert!(contest.hides_frozen(start + 4 * hour));
        assert_eq!(contest.phase(start + 5 * hour), Phase::Ended);
        assert!(contest.hides_frozen(start + 6 * hour));
        contest.thawed_at = Some(Timestamp::from_second(2_000_000).expect("a time"));
        assert!(!contest.hides_frozen(start + 6 * hour));
        contest.thawed_at = None;
        contest.settings.freeze_seconds = None;
        assert!(!contest.hides_frozen(start + 6 * hour));
        assert_eq!(contest.phase(start + 4 * hour), Phase::Running);
    }

    /// Five participants worked out by hand: solved count first, then
    /// penalty (minutes plus 20 a rejected try), then the earlier last
    /// solve; ties share a rank; first solves are marked; frozen shows the
    /// public part.
    #[test]
    fn personal_windows_start_when_their_participant_likes_and_end_with_the_span() {
        let mut contest = contest();
        let hour = 3_600_000;
        contest.settings.window_seconds = Some(2 * 3600);
        let start = contest.starts_at_ms();
        // Five hours' span: a window started at 1:00 runs to 3:00, one
        // started at 4:00 is cut at 5:00, one asked before the span starts
        // with it.
        assert_eq!(
            contest.window_from(start + hour),
            (start + hour, start + 3 * hour)
        );
        assert_eq!(
            contest.window_from(start + 4 * hour),
            (start + 4 * hour, start + 5 * hour)
        );
        assert_eq!(contest.window_from(start - hour), (start, start + 2 * hour));
        // The freeze is each window's last hour, in contest time.
        assert_eq!(contest.freeze_at_ms(), hour);
        // Running through the span; frozen for the public from the start.
        assert_eq!(
            contest.phase(start + 4 * hour + 30 * 60_000),
            Phase::Running
        );
        assert_eq!(contest.phase(start + 5 * hour), Phase::Ended);
        assert!(!contest.hides_frozen(start - 1));
        assert!(contest.hides_frozen(start));
        contest.thawed_at = Some(Timestamp::from_second(2_000_000).expect("a time"));
        assert!(!contest.hides_frozen(start + 5 * hour));
        // Without personal windows, everyone's is the span.
        contest.settings.window_seconds = None;
        assert_eq!(contest.window_from(start + hour), (start, start + 5 * hour));
    }

    #[test]
    fn the_ioi_ranking_by_hand() {
        let mut contest = contest();
        contest.settings.scoring = Scoring::Ioi;
        let nim: ProblemId = "nim".parse().expect("an id");
        let coin: ProblemId = "coin-game".parse().expect("an id");
        let scored = |score: i64, public_score: i64| StoredCell {
            tries: 1,
            public_tries: 1,
            score,
            public_score,
            ..StoredCell::default()
        };
        let mut cells = BTreeMap::new();
        // ann 100 + 33.33, bob 70 + 63.33 (the same 133.33), cid 40 of
        // which 30 came after the freeze, dan nothing.
        cells.insert(("ann".into(), nim.clone()), scored(10_000, 10_000));
        cells.insert(("ann".into(), coin.clone()), scored(3333, 3333));
        cells.insert(("bob".into(), nim.clone()), scored(7000, 7000));
        cells.insert(("bob".into(), coin.clone()), scored(6333, 6333));
        cells.insert(("cid".into(), nim.clone()), scored(4000, 1000));
        let participants = ["dan", "cid", "bob", "ann"].map(String::from);
        let board = |frozen| {
            scoreboard(&contest, &participants, &cells, Phase::Running, frozen)
                .rows
                .into_iter()
                .map(|row| {
                    let cells: Vec<_> = row.cells.iter().map(|c| c.score).collect();
                    (row.rank, row.user, row.score, row.penalty, cells)
                })
                .collect::<Vec<_>>()
        };
        let row = |rank: u64, user: &str, total: f64, a: f64, b: f64| {
            (
                rank,
                user.to_string(),
                Some(total),
                0,
                vec![Some(a), Some(b)],
            )
        };
        assert_eq!(
            board(false),
            [
                row(1, "ann", 133.33, 100.0, 33.33),
                row(1, "bob", 133.33, 70.0, 63.33),
                row(3, "cid", 40.0, 40.0, 0.0),
                row(4, "dan", 0.0, 0.0, 0.0),
            ]
        );
        assert_eq!(board(true)[2], row(3, "cid", 10.0, 10.0, 0.0));
    }

    /// A board brought up to date change by change ranks exactly as one
    /// drawn anew from the same cells: random cells of random participants,
    /// then rounds that change some cells (solves, tries, scores, in both
    /// views) and add participants, compared after each round, in both
    /// scorings and views.
    #[test]
    fn a_board_updated_by_changes_equals_one_ranked_anew() {
        use crate::solver::seeded::SeededRng;
        let problems: Vec<ProblemId> = ["nim", "coin-game", "xy-game"]
            .iter()
            .map(|id| id.parse().expect("an id"))
            .collect();
        for seed in 0..300 {
            let mut rng = SeededRng::new(seed);
            let mut contest = contest();
            contest.settings.problems = problems
                .iter()
                .enumerate()
                .map(|(index, problem)| ContestProblem {
                    personal_input: None,
                    label: ((b'A' + index as u8) as char).to_string(),
                    problem: problem.clone(),
                    colour: None,
                })
                .collect();
            if seed % 2 == 1 {
                contest.settings.scoring = Scoring::Ioi;
            }
            let frozen = seed % 3 == 0;
            // Few distinct times and scores, so ties and shared first
            // solves happen.
            let random_cell = |rng: &mut SeededRng| {
                let solved = rng.chance(1, 2).then(|| rng.range(1, 6) as i64 * 60_000);
                StoredCell {
                    solved_ms: solved,
                    tries: rng.range(0, 3) as i64,
                    pending: rng.range(0, 2) as i64,
                    public_solved_ms: solved.filter(|_| rng.chance(2, 3)),
                    public_tries: rng.range(0, 3) as i64,
                    public_pending: rng.range(0, 2) as i64,
                    score: rng.range(0, 4) as i64 * 2500,
                    public_score: rng.range(0, 4) as i64 * 2500,
                    scored_ms: rng.chance(1, 2).then(|| rng.range(1, 6) as i64 * 60_000),
                    public_scored_ms: rng.chance(1, 2).then(|| rng.range(1, 6) as i64 * 60_000),
                }
            };
            let mut participants: Vec<String> = (0..rng.range_usize(0, 12))
                .map(|i| format!("user-{i}"))
                .collect();
            let mut cells = BTreeMap::new();
            for user in &participants {
                for problem in &problems {
                    if rng.chance(2, 3) {
                        cells.insert((user.clone(), problem.clone()), random_cell(&mut rng));
                    }
                }
            }
            let mut board = RankedBoard::rank(&contest, &participants, &cells, frozen);
            for _round in 0..8 {
                let mut changed = Vec::new();
                for _ in 0..rng.range_usize(0, 4) {
                    if participants.is_empty() || rng.chance(1, 4) {
                        let user = format!("user-{}", participants.len());
                        participants.push(user.clone());
                        changed.push(user);
                        continue;
                    }
                    let user = rng.pick(&participants).clone();
                    let problem = rng.pick(&problems).clone();
                    cells.insert((user.clone(), problem), random_cell(&mut rng));
                    changed.push(user);
                }
                board.update(&contest, changed.iter().map(String::as_str), &cells);
                let anew = RankedBoard::rank(&contest, &participants, &cells, frozen);
                assert_eq!(
                    board.scoreboard(&contest, Phase::Running, 0..board.len()),
                    anew.scoreboard(&contest, Phase::Running, 0..anew.len()),
                    "seed {seed}"
                );
            }
            // A page is the same rows, cut to the board.
            let whole = board.scoreboard(&contest, Phase::Running, 0..board.len());
            let page = board.scoreboard(&contest, Phase::Running, 2..5);
            let end = whole.rows.len().min(5);
            let start = end.min(2);
            assert_eq!(page.rows, whole.rows[start..end]);
            assert_eq!((page.first_row, page.total_rows), (start, whole.rows.len()));
        }
    }

    #[test]
    fn the_icpc_ranking_by_hand() {
        let contest = contest();
        let nim: ProblemId = "nim".parse().expect("an id");
        let coin: ProblemId = "coin-game".parse().expect("an id");
        let minute = 60_000;
        let mut cells = BTreeMap::new();
        let solved = |ms: i64, tries: i64| StoredCell {
            solved_ms: Some(ms),
            tries,
            pending: 0,
            public_solved_ms: Some(ms),
            public_tries: tries,
            public_pending: 0,
            ..StoredCell::default()
        };
        // ann: A at 10:30 after 1 try (10 + 20), B at 100 (100): 2, 130.
        cells.insert(("ann".into(), nim.clone()), solved(10 * minute + 30_000, 1));
        cells.insert(("ann".into(), coin.clone()), solved(100 * minute, 0));
        // bob: A at 50, B at 80: 2, 130, last solve 80 < 100: above ann.
        cells.insert(("bob".into(), nim.clone()), solved(50 * minute, 0));
        cells.insert(("bob".into(), coin.clone()), solved(80 * minute, 0));
        // cid: A at 5 (first), B after the freeze at 250 with 2 tries, one
        // of them before the freeze.
        cells.insert(("cid".into(), nim.clone()), solved(5 * minute, 0));
        cells.insert(
            ("cid".into(), coin.clone()),
            StoredCell {
                solved_ms: Some(250 * minute),
                tries: 2,
                pending: 0,
                public_solved_ms: None,
                public_tries: 1,
                public_pending: 2,
                ..StoredCell::default()
            },
        );
        // dan: tries only. eve: nothing at all.
        cells.insert(
            ("dan".into(), nim.clone()),
            StoredCell {
                tries: 3,
                public_tries: 3,
                pending: 1,
                public_pending: 1,
                ..StoredCell::default()
            },
        );
        let users: Vec<String> = ["eve", "dan", "cid", "bob", "ann"].map(String::from).into();
        // Each row as (rank, user, solved, penalty).
        let summary = |board: &Scoreboard| -> Vec<(u64, String, i64, i64)> {
            board
                .rows
                .iter()
                .map(|r| (r.rank, r.user.clone(), r.solved, r.penalty))
                .collect()
        };
        let rows = |expected: [(u64, &str, i64, i64); 5]| -> Vec<(u64, String, i64, i64)> {
            expected
                .iter()
                .map(|(rank, user, solved, penalty)| (*rank, user.to_string(), *solved, *penalty))
                .collect()
        };
        let full = scoreboard(&contest, &users, &cells, Phase::Ended, false);
        // cid: 2 solved, 5 + 250 + 40 = 295.
        assert_eq!(
            summary(&full),
            rows([
                (1, "bob", 2, 130),
                (2, "ann", 2, 130),
                (3, "cid", 2, 295),
                (4, "dan", 0, 0),
                (4, "eve", 0, 0),
            ])
        );
        let cid = &full.rows[2];
        assert!(cid.cells[0].first_to_solve, "{cid:?}");
        assert_eq!(cid.cells[1].solved_minute, Some(250));
        assert!(!full.rows[1].cells[0].first_to_solve);
        // B's first solve is bob's at 80 in both views.
        assert!(full.rows[0].cells[1].first_to_solve);
        assert_eq!(full.rows[3].cells[0].tries, 3);
        assert_eq!(full.rows[3].cells[0].pending, 1);

        let public = scoreboard(&contest, &users, &cells, Phase::Ended, true);
        assert_eq!(
            summary(&public),
            rows([
                (1, "bob", 2, 130),
                (2, "ann", 2, 130),
                (3, "cid", 1, 5),
                (4, "dan", 0, 0),
                (4, "eve", 0, 0),
            ])
        );
        let hidden = &public.rows[2].cells[1];
        assert_eq!(
            (hidden.solved_minute, hidden.tries, hidden.pending),
            (None, 1, 2)
        );
        assert!(public.frozen);
        assert_eq!(public.labels, ["A", "B"]);
    }
}
