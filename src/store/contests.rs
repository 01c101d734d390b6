//! Contests: their settings and problems, who takes part, and the
//! scoreboard's read model.
//!
//! The read model is one `scoreboard_cell` per participant and problem,
//! recomputed from that participant's submissions to that problem by
//! [`refresh_cells`] in the transaction of every write that can change it:
//! a contest submission admitted, a verdict written, a rejudge queued, the
//! contest's settings changed. A scoreboard request reads the cells, never
//! the submissions.

use std::collections::{BTreeMap, BTreeSet, HashSet};

use super::{
    Store, StoreError,
    backend::{Arg, DbRow, Dialect, Statement, Tx, query},
    now_ms, parse_column, parse_optional_column, timestamp,
};
use crate::{
    contest::{Clarification, Contest, ContestProblem, ContestSettings, StoredCell},
    domain::{ContestId, ProblemId, ScoreBy, Scoring, SubmissionId, Timestamp},
    scoring,
    solver::TestKind,
};

/// What changed in a scoreboard after a version ([`Store::scoreboard_changes`]).
#[derive(Debug, Clone, Default)]
pub struct ScoreboardChanges {
    /// Participants registered since.
    pub participants: Vec<String>,
    /// Cells computed since, as they are now.
    pub cells: BTreeMap<(String, ProblemId), StoredCell>,
}

/// Whose cells [`refresh_cells`] recomputes.
pub(super) enum CellScope<'a> {
    /// Every cell of a contest (its settings changed).
    Contest(&'a ContestId),
    /// The cells of these submissions' participants and problems, for
    /// those sent to a contest in its window (none else).
    Submissions(&'a [SubmissionId]),
    /// These cells, by key.
    Cells(&'a BTreeSet<CellKey>),
    /// Every contest cell of a problem (a rejudge of all its submissions).
    Problem(&'a ProblemId),
}

/// A cell's key: contest, participant, problem.
pub(super) type CellKey = (String, String, String);

/// One cell's key, or all of a contest's or a problem's.
enum Cell<'a> {
    Contest(&'a ContestId),
    Problem(&'a ProblemId),
    One {
        contest: String,
        user: String,
        problem: String,
    },
}

/// Recomputes the cells of `scope` (see [`recompute`]); called last in
/// its transaction, before the commit.
///
/// Two writes to one cell must not both compute it from submissions that
/// miss the other's, and readers rely on versions being committed in the
/// order they were given out (see [`Store::scoreboard_changes`]). SQLite
/// has one writer, so both hold. On PostgreSQL a refresh of some cells
/// (an admission, a verdict) takes the contest's row `for key share`
/// (writers of other cells do not wait on it), then locks its cells in
/// order (creating a new one), recomputes them, and only then bumps the
/// contest's version and stamps its cells: the contest row's lock, which
/// every writer of the contest waits on, is held from that last statement
/// to the commit. (Taken first and held through the whole transaction, it
/// made each contest write wait 1.1-2.0 ms on it at 250-350 tries a second,
/// which was all PostgreSQL then stored; BENCHMARKS.md, the event feed.)
/// A refresh of every cell of a contest or problem takes the contests'
/// rows `for update` first (as does `put_contest`, before its own update
/// of the row), so it waits for the writers of single cells and they for
/// it, and no two wait on each other.
pub(super) async fn refresh_cells(tx: &mut Tx, scope: CellScope<'_>) -> Result<(), StoreError> {
    match scope {
        CellScope::Contest(id) => refresh_every(tx, Cell::Contest(id)).await,
        CellScope::Problem(id) => refresh_every(tx, Cell::Problem(id)).await,
        CellScope::Cells(keys) => refresh_some(tx, keys).await,
        CellScope::Submissions(ids) => {
            if ids.is_empty() {
                return Ok(());
            }
            let rows = query(
                "select distinct contest_id, user_name, problem_id from submission \
                 where contest_time_ms is not null and id in (values ",
            )
            .push_rows(ids.iter().map(|id| [Arg::from(id.to_string())]))
            .push(")")
            .fetch_all(&mut *tx)
            .await?;
            let mut keys = BTreeSet::new();
            for row in rows {
                keys.insert((
                    row.try_get::<String>("contest_id")?,
                    row.try_get::<String>("user_name")?,
                    row.try_get::<String>("problem_id")?,
                ));
            }
            refresh_some(tx, &keys).await
        }
    }
}

/// Refreshes the cells of a contest or a problem (see [`refresh_cells`]).
async fn refresh_every(tx: &mut Tx, scope: Cell<'_>) -> Result<(), StoreError> {
    if tx.dialect() == Dialect::Postgres {
        scope
            .of_contests(query("select id from contest where "))
            .push(" order by id for update")
            .fetch_all(&mut *tx)
            .await?;
    }
    scope
        .of_contests(query(
            "update contest set cells_version = cells_version + 1 where ",
        ))
        .execute(&mut *tx)
        .await?;
    recompute(tx, &scope).await?;
    refresh_scores(tx, &scope).await
}

/// Refreshes the cells of these (contest, user, problem) keys (see
/// [`refresh_cells`]).
async fn refresh_some(tx: &mut Tx, keys: &BTreeSet<CellKey>) -> Result<(), StoreError> {
    if keys.is_empty() {
        return Ok(());
    }
    let contests: BTreeSet<&String> = keys.iter().map(|(contest, _, _)| contest).collect();
    // Which contests score points; on PostgreSQL, their rows `for key share`.
    let mut ioi = HashSet::new();
    for contest in &contests {
        let row = query(tx.dialect().pick(
            "select scoring from contest where id = $1",
            "select scoring from contest where id = $1 for key share",
        ))
        .bind(contest.as_str())
        .fetch_optional(&mut *tx)
        .await?;
        if let Some(row) = row
            && parse_column::<Scoring>(&row, "scoring")? == Scoring::Ioi
        {
            ioi.insert(contest.as_str());
        }
    }
    // The cells' locks, in key order: a new cell is made (its counts
    // zero until recomputed), an existing one rewritten as it is.
    query(
        "insert into scoreboard_cell (contest_id, user_name, problem_id, tries, pending, \
         public_tries, public_pending) values ",
    )
    .push_rows(keys.iter().map(|(contest, user, problem)| {
        [
            Arg::from(contest.as_str()),
            Arg::from(user.as_str()),
            Arg::from(problem.as_str()),
            Arg::from(0_i64),
            Arg::from(0_i64),
            Arg::from(0_i64),
            Arg::from(0_i64),
        ]
    }))
    .push(
        " on conflict (contest_id, user_name, problem_id) \
         do update set version = scoreboard_cell.version",
    )
    .execute(&mut *tx)
    .await?;
    for (contest, user, problem) in keys {
        let cell = Cell::One {
            contest: contest.clone(),
            user: user.clone(),
            problem: problem.clone(),
        };
        recompute(tx, &cell).await?;
        if ioi.contains(contest.as_str()) {
            refresh_scores(tx, &cell).await?;
        }
    }
    for contest in contests {
        query("update contest set cells_version = cells_version + 1 where id = $1")
            .bind(contest.as_str())
            .execute(&mut *tx)
            .await?;
        query(
            "update scoreboard_cell set version = (select cells_version from contest where id = $1) \
             where contest_id = $1 and (user_name, problem_id) in (values ",
        )
        .bind(contest.as_str())
        .push_rows(
            keys.iter()
                .filter(|(of, _, _)| of == contest)
                .map(|(_, user, problem)| [Arg::from(user.as_str()), Arg::from(problem.as_str())]),
        )
        .push(")")
        .execute(&mut *tx)
        .await?;
    }
    Ok(())
}

/// The contest time from which a contest's (`c`) tries by a submission's
/// (`s`) sender are frozen: the last `freeze_ms` of their window. That is
/// the span, or their own window, which ends with the span at the latest:
/// a window started less than `window_ms` before the span's end is that
/// much shorter, and so freezes sooner.
macro_rules! freeze_at {
    () => {
        "(case when c.window_ms is null then c.duration_ms \
           else coalesce((select c.starts_at + c.duration_ms - p.window_start_ms \
             from contest_participant p where p.contest_id = s.contest_id \
               and p.user_name = s.user_name \
               and c.starts_at + c.duration_ms - p.window_start_ms < c.window_ms), \
             c.window_ms) end - coalesce(c.freeze_ms, 0))"
    };
}

/// Recomputes the cells of `scope` from the submissions in contest time,
/// as [`StoredCell`] describes them: the first AC's contest time, the
/// rejected tries before it (CE and IE do not count) and the tries before
/// it not judged yet; and the same as the public sees it during a freeze,
/// where every try from the freeze on counts as pending; stamped with the
/// contest's version as it is. Written once for both databases.
async fn recompute(tx: &mut Tx, scope: &Cell<'_>) -> Result<(), StoreError> {
    let statement = query(concat!(
        "with t as (\
           select s.contest_id, s.user_name, s.problem_id, s.state, s.verdict, \
             s.contest_time_ms, c.cells_version as version, ",
        freeze_at!(),
        " as freeze_at, c.count_compile_errors as count_ce, \
             min(case when s.state = 'done' and s.verdict = 'AC' \
               then s.contest_time_ms end) over cell as solved_ms, \
             min(case when s.state = 'done' and s.verdict = 'AC' and s.contest_time_ms < ",
        freeze_at!(),
        " then s.contest_time_ms end) over cell as public_solved_ms \
           from submission s join contest c on c.id = s.contest_id \
           where s.contest_time_ms is not null and ",
    ));
    // One pass over the cells' submissions: each try sees its cell's first
    // AC through a window, not through a join of the submissions with
    // their own groups, whose plan a stale row estimate could make a
    // nested loop over every pair (minutes on PostgreSQL at 930,000).
    scope
        .of_submissions(statement)
        .push(
            " window cell as (partition by s.contest_id, s.user_name, s.problem_id)) \
         insert into scoreboard_cell (contest_id, user_name, problem_id, version, solved_ms, \
           tries, pending, public_solved_ms, public_tries, public_pending, score, public_score) \
         select t.contest_id, t.user_name, t.problem_id, t.version, t.solved_ms, \
           sum(case when t.state = 'done' and t.verdict not in ('AC', 'IE') \
             and (t.verdict != 'CE' or t.count_ce) \
             and (t.solved_ms is null or t.contest_time_ms < t.solved_ms) then 1 else 0 end), \
           sum(case when t.state != 'done' \
             and (t.solved_ms is null or t.contest_time_ms < t.solved_ms) then 1 else 0 end), \
           t.public_solved_ms, \
           sum(case when t.state = 'done' and t.verdict not in ('AC', 'IE') \
             and (t.verdict != 'CE' or t.count_ce) \
             and t.contest_time_ms < t.freeze_at \
             and (t.public_solved_ms is null or t.contest_time_ms < t.public_solved_ms) \
             then 1 else 0 end), \
           sum(case when (t.state != 'done' or t.contest_time_ms >= t.freeze_at) \
             and (t.public_solved_ms is null or t.contest_time_ms < t.public_solved_ms) \
             then 1 else 0 end), \
           0, 0 \
         from t where true \
         group by t.contest_id, t.user_name, t.problem_id, t.version, t.solved_ms, \
           t.public_solved_ms \
         on conflict (contest_id, user_name, problem_id) do update set \
           version = excluded.version, solved_ms = excluded.solved_ms, tries = excluded.tries, \
           pending = excluded.pending, public_solved_ms = excluded.public_solved_ms, \
           public_tries = excluded.public_tries, public_pending = excluded.public_pending, \
           score = 0, public_score = 0, scored_ms = null, public_scored_ms = null",
        )
        .execute(&mut *tx)
        .await?;
    Ok(())
}

/// Sets the best scores of the cells of `scope` in `ioi` contests (the
/// statement of [`recompute`] left them at 0), from the group scores of
/// their judged submissions in contest time, as the contest's `score_by`
/// says, with the contest time of the submission that last changed each;
/// the public score counts only submissions before the freeze.
async fn refresh_scores(tx: &mut Tx, scope: &Cell<'_>) -> Result<(), StoreError> {
    let statement = query(concat!(
        "select s.contest_id, s.user_name, s.problem_id, s.group_scores, s.contest_time_ms, \
           c.score_by, s.contest_time_ms < ",
        freeze_at!(),
        " as public \
         from submission s join contest c on c.id = s.contest_id \
         where c.scoring = 'ioi' and s.contest_time_ms is not null and s.state = 'done' \
           and s.group_scores is not null and ",
    ));
    // By (contest, user, problem): how it scores, and each judged
    // submission's contest time and group scores, with whether it came
    // before the freeze.
    type Judged = (ScoreBy, Vec<(bool, i64, Vec<i64>)>);
    let mut judged: BTreeMap<(String, String, String), Judged> = BTreeMap::new();
    let statement = scope.of_submissions(statement).push(" order by s.seq");
    for row in statement.fetch_all(&mut *tx).await? {
        let text: String = row.try_get("group_scores")?;
        let scores = scoring::decode(&text)
            .ok_or_else(|| StoreError::Corrupt(format!("group scores `{text}`")))?;
        let key = (
            row.try_get("contest_id")?,
            row.try_get("user_name")?,
            row.try_get("problem_id")?,
        );
        let by: ScoreBy = parse_column(&row, "score_by")?;
        judged
            .entry(key)
            .or_insert_with(|| (by, Vec::new()))
            .1
            .push((
                row.try_get("public")?,
                row.try_get("contest_time_ms")?,
                scores,
            ));
    }
    for ((contest, user, problem), (by, submissions)) in judged {
        // The score held and when it last changed, of `submissions`.
        let reached = |submissions: Vec<&(bool, i64, Vec<i64>)>| {
            let held = scoring::scores_held(by, submissions.iter().map(|(_, _, s)| s.as_slice()));
            let (score, at) = scoring::last_change(&held);
            (score, at.map(|index| submissions[index].1))
        };
        let (all, all_at) = reached(submissions.iter().collect());
        let (public, public_at) = reached(submissions.iter().filter(|s| s.0).collect());
        query(
            "update scoreboard_cell set score = $1, public_score = $2, scored_ms = $3, \
             public_scored_ms = $4 where contest_id = $5 and user_name = $6 and problem_id = $7",
        )
        .bind(all)
        .bind(public)
        .bind(all_at)
        .bind(public_at)
        .bind(contest)
        .bind(user)
        .bind(problem)
        .execute(&mut *tx)
        .await?;
    }
    Ok(())
}

impl Cell<'_> {
    /// `statement`, which ends in `where `, narrowed to the contests (as
    /// `id`) of this scope.
    fn of_contests<'q>(&self, statement: Statement<'q>) -> Statement<'q> {
        match self {
            Cell::Contest(id) => statement.push("id = ").push_bind(id.as_str().to_string()),
            Cell::Problem(id) => statement
                .push("id in (select contest_id from contest_problem where problem_id = ")
                .push_bind(id.as_str().to_string())
                .push(")"),
            Cell::One { contest, .. } => statement.push("id = ").push_bind(contest.clone()),
        }
    }

    /// `statement`, which ends in `where … and `, narrowed to the
    /// submissions (as `s`) of this scope.
    fn of_submissions<'q>(&self, statement: Statement<'q>) -> Statement<'q> {
        match self {
            Cell::Contest(id) => statement
                .push("s.contest_id = ")
                .push_bind(id.as_str().to_string()),
            Cell::Problem(id) => statement
                .push("s.problem_id = ")
                .push_bind(id.as_str().to_string()),
            Cell::One {
                contest,
                user,
                problem,
            } => statement
                .push("s.contest_id = ")
                .push_bind(contest.clone())
                .push(" and s.user_name = ")
                .push_bind(user.clone())
                .push(" and s.problem_id = ")
                .push_bind(problem.clone()),
        }
    }
}

/// How a contest row and its problem rows are read.
const CONTEST_COLUMNS: &str = "select id, title, starts_at, duration_ms, freeze_ms, scoring, \
     score_by, count_compile_errors, window_ms, registration, penalty_minutes, thawed_at from contest";

fn contest_from(row: &DbRow, problems: Vec<ContestProblem>) -> Result<Contest, StoreError> {
    let duration_ms: i64 = row.try_get("duration_ms")?;
    let freeze_ms: Option<i64> = row.try_get("freeze_ms")?;
    let thawed_at: Option<i64> = row.try_get("thawed_at")?;
    Ok(Contest {
        id: parse_column(row, "id")?,
        settings: ContestSettings {
            title: row.try_get("title")?,
            starts_at: timestamp(row.try_get("starts_at")?)?,
            duration_seconds: duration_ms / 1000,
            freeze_seconds: freeze_ms.map(|ms| ms / 1000),
            scoring: parse_column(row, "scoring")?,
            score_by: parse_column(row, "score_by")?,
            count_compile_errors: row.try_get("count_compile_errors")?,
            window_seconds: row.try_get::<Option<i64>>("window_ms")?.map(|ms| ms / 1000),
            registration: parse_column(row, "registration")?,
            penalty_minutes: row.try_get("penalty_minutes")?,
            problems,
        },
        thawed_at: thawed_at.map(timestamp).transpose()?,
    })
}

fn problem_from(row: &DbRow) -> Result<(ContestId, ContestProblem), StoreError> {
    Ok((
        parse_column(row, "contest_id")?,
        ContestProblem {
            label: row.try_get("label")?,
            problem: parse_column(row, "problem_id")?,
            colour: row.try_get("colour")?,
            personal_input: parse_optional_column(row, "personal_input")?,
        },
    ))
}

/// The columns [`clarification_from`] reads, as a literal for `concat!`.
macro_rules! clarification_columns {
    () => {
        "id, contest_id, problem_id, asked_by, question, answer, to_all, created_at, answered_at"
    };
}

fn clarification_from(row: &DbRow) -> Result<Clarification, StoreError> {
    let answered_at: Option<i64> = row.try_get("answered_at")?;
    Ok(Clarification {
        id: row.try_get("id")?,
        contest: parse_column(row, "contest_id")?,
        problem: parse_optional_column(row, "problem_id")?,
        asked_by: row.try_get("asked_by")?,
        question: row.try_get("question")?,
        answer: row.try_get("answer")?,
        to_all: row.try_get("to_all")?,
        created_at: timestamp(row.try_get("created_at")?)?,
        answered_at: answered_at.map(timestamp).transpose()?,
    })
}

impl Store {
    /// Stores a participant's question, unless `asked_by` has `most`
    /// questions in the contest not answered yet (then `None`, nothing
    /// stored): the count and the insert are one statement.
    pub async fn ask(
        &self,
        contest: &ContestId,
        problem: Option<&ProblemId>,
        asked_by: &str,
        question: &str,
        most: i64,
    ) -> Result<Option<Clarification>, StoreError> {
        self.noted(async {
            query(concat!(
                "insert into clarification (contest_id, problem_id, asked_by, question, to_all, \
                 created_at) select $1, $2, $3, $4, false, $5 \
                 where (select count(*) from clarification where contest_id = $1 \
                   and asked_by = $3 and answer is null) < $6 returning ",
                clarification_columns!()
            ))
            .bind(contest.as_str())
            .bind(problem.map(ProblemId::as_str))
            .bind(asked_by)
            .bind(question)
            .bind(now_ms())
            .bind(most)
            .fetch_optional(&self.write)
            .await?
            .map(|row| clarification_from(&row))
            .transpose()
        })
        .await
    }

    /// Stores an announcement of the jury: an answer for everyone.
    pub async fn announce(
        &self,
        contest: &ContestId,
        problem: Option<&ProblemId>,
        by: &str,
        text: &str,
    ) -> Result<Clarification, StoreError> {
        self.noted(async {
            let now = now_ms();
            let row = query(concat!(
                "insert into clarification (contest_id, problem_id, answer, answered_by, to_all, \
                 created_at, answered_at) values ($1, $2, $3, $4, true, $5, $5) returning ",
                clarification_columns!()
            ))
            .bind(contest.as_str())
            .bind(problem.map(ProblemId::as_str))
            .bind(text)
            .bind(by)
            .bind(now)
            .fetch_one(&self.write)
            .await?;
            clarification_from(&row)
        })
        .await
    }

    /// Answers (or answers again) a contest's clarification `id`; `None`
    /// if the contest has none such.
    pub async fn answer_clarification(
        &self,
        contest: &ContestId,
        id: i64,
        answer: &str,
        by: &str,
        to_all: bool,
    ) -> Result<Option<Clarification>, StoreError> {
        self.noted(async {
            let row = query(concat!(
                "update clarification set answer = $1, answered_by = $2, to_all = $3, \
                 answered_at = $4 where contest_id = $5 and id = $6 returning ",
                clarification_columns!()
            ))
            .bind(answer)
            .bind(by)
            .bind(to_all)
            .bind(now_ms())
            .bind(contest.as_str())
            .bind(id)
            .fetch_optional(&self.write)
            .await?;
            row.as_ref().map(clarification_from).transpose()
        })
        .await
    }

    /// A contest's clarifications, oldest first: every one, or with
    /// `reader`, those a participant may see (their own questions, and the
    /// answers meant for everyone).
    pub async fn clarifications(
        &self,
        contest: &ContestId,
        reader: Option<&str>,
    ) -> Result<Vec<Clarification>, StoreError> {
        let statement = query(concat!(
            "select ",
            clarification_columns!(),
            " from clarification"
        ))
        .push(" where contest_id = ")
        .push_bind(contest.as_str());
        let statement = match reader {
            Some(user) => statement
                .push(" and (asked_by = ")
                .push_bind(user)
                .push(" or (to_all and answer is not null))"),
            None => statement,
        };
        statement
            .push(" order by id")
            .fetch_all(&self.read)
            .await?
            .iter()
            .map(clarification_from)
            .collect()
    }

    /// Creates or replaces a contest's settings and problems, and
    /// recomputes its cells (its freeze may have moved). `true` if it is
    /// new. Every problem must exist.
    pub async fn put_contest(
        &self,
        id: &ContestId,
        settings: &ContestSettings,
    ) -> Result<bool, StoreError> {
        self.noted(async {
            let now = now_ms();
            let mut tx = self.write.begin().await?;
            // The row's lock first, as every refresh of all its cells
            // takes it (see [`refresh_cells`]).
            let existed = query(tx.dialect().pick(
                "select 1 from contest where id = $1",
                "select 1 from contest where id = $1 for update",
            ))
            .bind(id.as_str())
            .fetch_optional(&mut tx)
            .await?
            .is_some();
            query(
                "insert into contest (id, title, starts_at, duration_ms, freeze_ms, scoring, \
                 registration, penalty_minutes, created_at, updated_at, score_by, \
                 count_compile_errors, window_ms, input_salt) \
                 values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $9, $10, $11, $12, $13) \
                 on conflict (id) do update set title = excluded.title, \
                 starts_at = excluded.starts_at, duration_ms = excluded.duration_ms, \
                 freeze_ms = excluded.freeze_ms, scoring = excluded.scoring, \
                 registration = excluded.registration, \
                 penalty_minutes = excluded.penalty_minutes, updated_at = excluded.updated_at, \
                 score_by = excluded.score_by, \
                 count_compile_errors = excluded.count_compile_errors, \
                 window_ms = excluded.window_ms",
            )
            .bind(id.as_str())
            .bind(settings.title.trim())
            .bind(settings.starts_at.as_millisecond())
            .bind(settings.duration_seconds * 1000)
            .bind(settings.freeze_seconds.map(|s| s * 1000))
            .bind(settings.scoring.as_str())
            .bind(settings.registration.as_str())
            .bind(settings.penalty_minutes)
            .bind(now)
            .bind(settings.score_by.as_str())
            .bind(settings.count_compile_errors)
            .bind(settings.window_seconds.map(|s| s * 1000))
            .bind(super::sessions::random_secret(""))
            .execute(&mut tx)
            .await?;
            query("delete from contest_problem where contest_id = $1")
                .bind(id.as_str())
                .execute(&mut tx)
                .await?;
            for (position, entry) in settings.problems.iter().enumerate() {
                query(
                    "insert into contest_problem (contest_id, problem_id, label, colour, position, \
                     personal_input) values ($1, $2, $3, $4, $5, $6)",
                )
                .bind(id.as_str())
                .bind(entry.problem.as_str())
                .bind(entry.label.as_str())
                .bind(entry.colour.as_deref())
                .bind(position as i64)
                .bind(entry.personal_input.map(TestKind::as_str))
                .execute(&mut tx)
                .await?;
            }
            refresh_cells(&mut tx, CellScope::Contest(id)).await?;
            tx.commit().await?;
            Ok(!existed)
        })
        .await
    }

    /// One contest with its problems.
    pub async fn contest(&self, id: &ContestId) -> Result<Option<Contest>, StoreError> {
        let Some(row) = query(CONTEST_COLUMNS)
            .push(" where id = $1")
            .bind(id.as_str())
            .fetch_optional(&self.read)
            .await?
        else {
            return Ok(None);
        };
        let problems = query(
            "select contest_id, problem_id, label, colour, personal_input from contest_problem \
             where contest_id = $1 order by position",
        )
        .bind(id.as_str())
        .fetch_all(&self.read)
        .await?
        .iter()
        .map(|row| Ok(problem_from(row)?.1))
        .collect::<Result<_, StoreError>>()?;
        Ok(Some(contest_from(&row, problems)?))
    }

    /// Every contest with its problems, the latest start first.
    pub async fn contests(&self) -> Result<Vec<Contest>, StoreError> {
        let mut problems: BTreeMap<ContestId, Vec<ContestProblem>> = BTreeMap::new();
        for row in query(
            "select contest_id, problem_id, label, colour, personal_input from contest_problem \
             order by contest_id, position",
        )
        .fetch_all(&self.read)
        .await?
        {
            let (contest, problem) = problem_from(&row)?;
            problems.entry(contest).or_default().push(problem);
        }
        query(CONTEST_COLUMNS)
            .push(" order by starts_at desc, id")
            .fetch_all(&self.read)
            .await?
            .iter()
            .map(|row| {
                let id: ContestId = parse_column(row, "id")?;
                contest_from(row, problems.remove(&id).unwrap_or_default())
            })
            .collect()
    }

    /// Marks a contest's scoreboard thawed (or frozen again with `None`).
    /// `false` if there is no such contest.
    pub async fn set_thawed(
        &self,
        id: &ContestId,
        at: Option<Timestamp>,
    ) -> Result<bool, StoreError> {
        self.noted(async {
            let changed = query("update contest set thawed_at = $1 where id = $2")
                .bind(at.map(|at| at.as_millisecond()))
                .bind(id.as_str())
                .execute(&self.write)
                .await?;
            Ok(changed > 0)
        })
        .await
    }

    /// Registers `user` for a contest; `false` if they were already.
    pub async fn register(&self, id: &ContestId, user: &str) -> Result<bool, StoreError> {
        self.noted(async {
            let mut tx = self.write.begin().await?;
            query("update contest set cells_version = cells_version + 1 where id = $1")
                .bind(id.as_str())
                .execute(&mut tx)
                .await?;
            let added = query(
                "insert into contest_participant (contest_id, user_name, registered_at, version) \
                 values ($1, $2, $3, (select cells_version from contest where id = $1)) \
                 on conflict (contest_id, user_name) do nothing",
            )
            .bind(id.as_str())
            .bind(user)
            .bind(now_ms())
            .execute(&mut tx)
            .await?;
            tx.commit().await?;
            Ok(added > 0)
        })
        .await
    }

    /// Starts `user`'s personal window at `now` unless it started before;
    /// returns when it started. `None`: they are not a participant.
    pub async fn start_window(
        &self,
        id: &ContestId,
        user: &str,
        now: i64,
    ) -> Result<Option<i64>, StoreError> {
        self.noted(async {
            Ok(query(
                "update contest_participant set window_start_ms = coalesce(window_start_ms, $3) \
                 where contest_id = $1 and user_name = $2 returning window_start_ms",
            )
            .bind(id.as_str())
            .bind(user)
            .bind(now)
            .fetch_optional(&self.write)
            .await?
            .map(|row| row.try_get("window_start_ms"))
            .transpose()?)
        })
        .await
    }

    /// The secret a contest mixes into each participant's own input
    /// ([`crate::contest::personal_seed`]); none for a contest made before
    /// contests had one, or none at all.
    pub async fn contest_input_salt(&self, id: &ContestId) -> Result<Option<String>, StoreError> {
        Ok(query("select input_salt from contest where id = $1")
            .bind(id.as_str())
            .fetch_optional(&self.read)
            .await?
            .map(|row| row.try_get::<Option<String>>("input_salt"))
            .transpose()?
            .flatten())
    }

    /// When `user` started their personal window in a contest, if they did.
    pub async fn window_start(
        &self,
        id: &ContestId,
        user: &str,
    ) -> Result<Option<i64>, StoreError> {
        Ok(query(
            "select window_start_ms from contest_participant \
             where contest_id = $1 and user_name = $2",
        )
        .bind(id.as_str())
        .bind(user)
        .fetch_optional(&self.read)
        .await?
        .map(|row| row.try_get::<Option<i64>>("window_start_ms"))
        .transpose()?
        .flatten())
    }

    /// The version of a contest's scoreboard: it grows with every change
    /// of its cells or participants. `None`: no such contest.
    pub async fn scoreboard_version(&self, id: &ContestId) -> Result<Option<i64>, StoreError> {
        Ok(query("select cells_version from contest where id = $1")
            .bind(id.as_str())
            .fetch_optional(&self.read)
            .await?
            .map(|row| row.try_get("cells_version"))
            .transpose()?)
    }

    /// What changed in a contest's scoreboard after version `since`: the
    /// participants registered and the cells computed since. Versions are
    /// given out under the contest row's lock in the changing transaction,
    /// so once a reader has read a version, no change at or below it can
    /// commit later: reading the version first and the changes after it
    /// misses nothing (a change committed in between is read twice, which
    /// changes nothing).
    pub async fn scoreboard_changes(
        &self,
        id: &ContestId,
        since: i64,
    ) -> Result<ScoreboardChanges, StoreError> {
        let participants = query(
            "select user_name from contest_participant where contest_id = $1 and version > $2",
        )
        .bind(id.as_str())
        .bind(since)
        .fetch_all(&self.read)
        .await?
        .iter()
        .map(|row| Ok(row.try_get("user_name")?))
        .collect::<Result<_, StoreError>>()?;
        let cells = self.cells_where(id, Some(since)).await?;
        Ok(ScoreboardChanges {
            participants,
            cells,
        })
    }

    /// Whether `user` takes part in a contest.
    pub async fn is_participant(&self, id: &ContestId, user: &str) -> Result<bool, StoreError> {
        Ok(
            query("select 1 from contest_participant where contest_id = $1 and user_name = $2")
                .bind(id.as_str())
                .bind(user)
                .fetch_optional(&self.read)
                .await?
                .is_some(),
        )
    }

    /// The contests `user` takes part in.
    pub async fn contests_of(&self, user: &str) -> Result<HashSet<ContestId>, StoreError> {
        query("select contest_id from contest_participant where user_name = $1")
            .bind(user)
            .fetch_all(&self.read)
            .await?
            .iter()
            .map(|row| parse_column(row, "contest_id"))
            .collect()
    }

    /// A contest's participants, by name.
    pub async fn participants(&self, id: &ContestId) -> Result<Vec<String>, StoreError> {
        query("select user_name from contest_participant where contest_id = $1 order by user_name")
            .bind(id.as_str())
            .fetch_all(&self.read)
            .await?
            .iter()
            .map(|row| Ok(row.try_get("user_name")?))
            .collect()
    }

    /// The problems of every contest not ended at `now` (unix
    /// milliseconds), each with whether its contest has started.
    pub async fn problems_of_unended_contests(
        &self,
        now: i64,
    ) -> Result<Vec<(ProblemId, bool)>, StoreError> {
        query(
            "select p.problem_id, c.starts_at <= $1 as started from contest_problem p \
             join contest c on c.id = p.contest_id where c.starts_at + c.duration_ms > $1",
        )
        .bind(now)
        .fetch_all(&self.read)
        .await?
        .iter()
        .map(|row| Ok((parse_column(row, "problem_id")?, row.try_get("started")?)))
        .collect()
    }

    /// A contest's scoreboard cells, by participant and problem.
    pub async fn scoreboard_cells(
        &self,
        id: &ContestId,
    ) -> Result<BTreeMap<(String, ProblemId), StoredCell>, StoreError> {
        self.cells_where(id, None).await
    }

    /// A contest's cells, all or those computed after version `since`.
    async fn cells_where(
        &self,
        id: &ContestId,
        since: Option<i64>,
    ) -> Result<BTreeMap<(String, ProblemId), StoredCell>, StoreError> {
        query(
            "select user_name, problem_id, solved_ms, tries, pending, public_solved_ms, \
             public_tries, public_pending, score, public_score, scored_ms, public_scored_ms \
             from scoreboard_cell where contest_id = $1 and version > $2",
        )
        .bind(id.as_str())
        .bind(since.unwrap_or(i64::MIN))
        .fetch_all(&self.read)
        .await?
        .iter()
        .map(|row| {
            let problem: ProblemId = parse_column(row, "problem_id")?;
            Ok((
                (row.try_get("user_name")?, problem),
                StoredCell {
                    solved_ms: row.try_get("solved_ms")?,
                    tries: row.try_get("tries")?,
                    pending: row.try_get("pending")?,
                    public_solved_ms: row.try_get("public_solved_ms")?,
                    public_tries: row.try_get("public_tries")?,
                    public_pending: row.try_get("public_pending")?,
                    score: row.try_get("score")?,
                    public_score: row.try_get("public_score")?,
                    scored_ms: row.try_get("scored_ms")?,
                    public_scored_ms: row.try_get("public_scored_ms")?,
                },
            ))
        })
        .collect()
    }
}
