//! Contests: admins create and edit them and thaw a frozen scoreboard;
//! everyone reads them and their scoreboards; contestants register and
//! submit inside their window.
//!
//! Before a contest starts its problems are not listed to contestants.
//! During the freeze and until the thaw, contestants and the public see
//! tries from the freeze on as pending; admins always see everything.

use std::collections::HashSet;

use super::{App, AppError, Caller};
use crate::{
    api::{ClarificationAnswer, NewClarification},
    contest::{
        Clarification, Contest, ContestSettings, ContestView, Phase, Scoreboard, Window,
        check_clarification_text,
    },
    domain::{ContestId, ProblemId, Registration, Role, Submission, Timestamp},
    store::{ContestWindow, ListFilter, now_ms},
};
use serde::Serialize;
use utoipa::ToSchema;

/// Submissions read per page by [`App::export_contest`].
const EXPORT_PAGE: i64 = 1000;

/// A whole contest, as [`App::export_contest`] gives it.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct ContestExport {
    #[schema(value_type = String, format = DateTime)]
    pub exported_at: Timestamp,
    pub phase: Phase,
    pub contest: Contest,
    pub participants: Vec<String>,
    /// Oldest first; practice ones (sent after the window) have no contest
    /// time.
    pub submissions: Vec<Submission>,
    pub clarifications: Vec<Clarification>,
    /// As admins see it: nothing frozen.
    pub scoreboard: Scoreboard,
}

/// The most questions a participant may have waiting for the jury's answer
/// in one contest (every staff page and event feed reads them all).
pub const MAX_UNANSWERED_QUESTIONS: i64 = 10;

impl App {
    /// Creates or replaces a contest (admins). `true` if it is new.
    pub async fn put_contest(
        &self,
        caller: &Caller,
        id: &ContestId,
        settings: &ContestSettings,
    ) -> Result<bool, AppError> {
        caller.require_admin()?;
        settings.validate().map_err(AppError::Invalid)?;
        let hosted: HashSet<ProblemId> = self
            .store
            .problems()
            .await?
            .into_iter()
            .map(|problem| problem.id)
            .collect();
        for (index, entry) in settings.problems.iter().enumerate() {
            if !hosted.contains(&entry.problem) {
                return Err(AppError::Invalid(format!(
                    "`problems[{index}]`: there is no problem `{}`",
                    entry.problem
                )));
            }
            if entry.personal_input.is_some() && super::problems::is_interactive(&entry.problem) {
                return Err(AppError::Invalid(format!(
                    "`problems[{index}]`: `{}` is interactive: programs play it, so it has no \
                     inputs to give each participant",
                    entry.problem
                )));
            }
        }
        Ok(self.store.put_contest(id, settings).await?)
    }

    /// Every contest, the latest start first.
    pub async fn contests(&self, caller: &Caller) -> Result<Vec<ContestView>, AppError> {
        let now = now_ms();
        let joined = self.store.contests_of(caller.name()).await?;
        Ok(self
            .store
            .contests()
            .await?
            .into_iter()
            .map(|contest| {
                let registered = joined.contains(&contest.id);
                view(caller, contest, registered, now)
            })
            .collect())
    }

    /// One contest, with the reader's own window where windows are
    /// personal and they started theirs.
    pub async fn contest(&self, caller: &Caller, id: &ContestId) -> Result<ContestView, AppError> {
        let contest = self.stored_contest(id).await?;
        let registered = self.store.is_participant(id, caller.name()).await?;
        let started = match contest.personal_windows() && registered {
            true => self.store.window_start(id, caller.name()).await?,
            false => None,
        };
        let window = started
            .map(|start| {
                let (starts_at, ends_at) = contest.window_from(start);
                Ok::<_, AppError>(Window {
                    starts_at: timestamp(starts_at)?,
                    ends_at: timestamp(ends_at)?,
                })
            })
            .transpose()?;
        let mut view = view(caller, contest, registered, now_ms());
        view.window = window;
        Ok(view)
    }

    async fn stored_contest(&self, id: &ContestId) -> Result<Contest, AppError> {
        self.store
            .contest(id)
            .await?
            .ok_or_else(|| AppError::NotFound(format!("no contest `{id}`")))
    }

    /// Registers `user` for a contest: a contestant themselves where
    /// registration is open, an admin anyone. `true` if newly registered.
    pub async fn register(
        &self,
        caller: &Caller,
        id: &ContestId,
        user: Option<&str>,
    ) -> Result<bool, AppError> {
        let contest = self.stored_contest(id).await?;
        let user = match user {
            Some(user) if user != caller.name() => {
                caller.require_admin()?;
                user
            }
            _ => {
                if contest.settings.registration == Registration::Invited
                    && caller.role() != Role::Admin
                {
                    return Err(AppError::Forbidden(format!(
                        "contest `{id}` is by invitation: an admin registers its participants"
                    )));
                }
                caller.name()
            }
        };
        Ok(self.store.register(id, user).await?)
    }

    /// Thaws a contest's frozen scoreboard (admins), once it has ended.
    pub async fn thaw(&self, caller: &Caller, id: &ContestId) -> Result<ContestView, AppError> {
        caller.require_admin()?;
        let contest = self.stored_contest(id).await?;
        let now = now_ms();
        if contest.phase(now) != Phase::Ended {
            return Err(AppError::Conflict(format!(
                "contest `{id}` has not ended: its scoreboard thaws after the end"
            )));
        }
        if contest.thawed_at.is_none() {
            let at =
                Timestamp::from_millisecond(now).map_err(|e| AppError::Internal(e.to_string()))?;
            self.store.set_thawed(id, Some(at)).await?;
        }
        self.contest(caller, id).await
    }

    /// A contest's scoreboard as `caller` may see it: frozen for everyone
    /// but admins from the freeze until the thaw.
    ///
    /// `rows` picks the rows returned (by position, from 0), all by default.
    pub async fn scoreboard(
        &self,
        caller: &Caller,
        id: &ContestId,
        rows: Option<std::ops::Range<usize>>,
    ) -> Result<Scoreboard, AppError> {
        let (contest, frozen, phase) = self.board_seen_by(caller, id).await?;
        Ok(self
            .scoreboards
            .board(&self.store, &contest, frozen, phase, rows)
            .await?)
    }

    /// [`App::scoreboard`] with every row, as the API's JSON, written once
    /// for each change of the board (it is megabytes at thousands of
    /// participants).
    pub async fn whole_scoreboard_json(
        &self,
        caller: &Caller,
        id: &ContestId,
    ) -> Result<std::sync::Arc<[u8]>, AppError> {
        let (contest, frozen, phase) = self.board_seen_by(caller, id).await?;
        Ok(self
            .scoreboards
            .whole_json(&self.store, &contest, frozen, phase)
            .await?)
    }

    /// Contest `id`, whether `caller` sees its board frozen (everyone but
    /// admins from the freeze until the thaw), and its phase now.
    async fn board_seen_by(
        &self,
        caller: &Caller,
        id: &ContestId,
    ) -> Result<(Contest, bool, Phase), AppError> {
        let contest = self.stored_contest(id).await?;
        let now = now_ms();
        let frozen = caller.role() != Role::Admin && contest.hides_frozen(now);
        let phase = contest.phase(now);
        Ok((contest, frozen, phase))
    }

    /// The frozen scoreboard and the whole one, for an admin to reveal the
    /// frozen results one at a time before the thaw: only after the end,
    /// while the public board is still frozen.
    pub async fn reveal(
        &self,
        caller: &Caller,
        id: &ContestId,
    ) -> Result<(Scoreboard, Scoreboard), AppError> {
        caller.require_admin()?;
        let contest = self.stored_contest(id).await?;
        let now = now_ms();
        if contest.phase(now) != Phase::Ended || !contest.hides_frozen(now) {
            return Err(AppError::Conflict(format!(
                "contest `{id}` has no frozen results to reveal: that is after its end and \
                 before the thaw, with a freeze"
            )));
        }
        let phase = contest.phase(now);
        let frozen = self
            .scoreboards
            .board(&self.store, &contest, true, phase, None)
            .await?;
        let full = self
            .scoreboards
            .board(&self.store, &contest, false, phase, None)
            .await?;
        Ok((frozen, full))
    }

    /// A question to the jury from a participant, or, from setters and
    /// admins, an announcement to everyone. Not before the start.
    pub async fn clarify(
        &self,
        caller: &Caller,
        id: &ContestId,
        body: &NewClarification,
    ) -> Result<Clarification, AppError> {
        let contest = self.stored_contest(id).await?;
        let staff = caller.role().is_staff();
        if !staff && contest.phase(now_ms()) == Phase::Before {
            return Err(AppError::Conflict(format!(
                "contest `{id}` has not started: questions open at its start, {}",
                contest.settings.starts_at
            )));
        }
        check_clarification_text("text", &body.text).map_err(AppError::Invalid)?;
        if let Some(problem) = &body.problem
            && !contest
                .settings
                .problems
                .iter()
                .any(|p| &p.problem == problem)
        {
            return Err(AppError::Invalid(format!(
                "problem `{problem}` is not in contest `{id}`"
            )));
        }
        let text = body.text.trim();
        if staff {
            return Ok(self
                .store
                .announce(id, body.problem.as_ref(), caller.name(), text)
                .await?);
        }
        if !self.store.is_participant(id, caller.name()).await? {
            return Err(AppError::Forbidden(format!(
                "only participants of contest `{id}` ask its jury; register first"
            )));
        }
        self.store
            .ask(
                id,
                body.problem.as_ref(),
                caller.name(),
                text,
                MAX_UNANSWERED_QUESTIONS,
            )
            .await?
            .ok_or_else(|| {
                AppError::Conflict(format!(
                    "you have {MAX_UNANSWERED_QUESTIONS} questions in contest `{id}` not answered \
                     yet: ask again once the jury has answered one"
                ))
            })
    }

    /// The jury (setters and admins) answers a question, for its asker or
    /// for everyone.
    pub async fn answer_clarification(
        &self,
        caller: &Caller,
        id: &ContestId,
        number: i64,
        body: &ClarificationAnswer,
    ) -> Result<Clarification, AppError> {
        caller.require_staff()?;
        check_clarification_text("answer", &body.answer).map_err(AppError::Invalid)?;
        self.store
            .answer_clarification(id, number, body.answer.trim(), caller.name(), body.to_all)
            .await?
            .ok_or_else(|| {
                AppError::NotFound(format!("contest `{id}` has no clarification {number}"))
            })
    }

    /// The clarifications `caller` may read: every one for setters and
    /// admins; for others, their own questions and the answers meant for
    /// everyone.
    pub async fn clarifications(
        &self,
        caller: &Caller,
        id: &ContestId,
    ) -> Result<Vec<Clarification>, AppError> {
        self.stored_contest(id).await?;
        let reader = (!caller.role().is_staff()).then(|| caller.name());
        Ok(self.store.clarifications(id, reader).await?)
    }

    /// Everything of a contest as one JSON document (admins): its settings,
    /// participants, submissions (oldest first, practice ones included),
    /// clarifications and the whole scoreboard.
    pub async fn export_contest(
        &self,
        caller: &Caller,
        id: &ContestId,
    ) -> Result<ContestExport, AppError> {
        caller.require_admin()?;
        let contest = self.stored_contest(id).await?;
        let participants = self.store.participants(id).await?;
        let mut submissions = Vec::new();
        let mut filter = ListFilter {
            contest: Some(id.clone()),
            limit: EXPORT_PAGE,
            ..ListFilter::default()
        };
        loop {
            let page = self.store.list_submissions(&filter).await?;
            submissions.extend(page.submissions);
            match page.next_cursor {
                Some(cursor) => filter.before = Some(cursor),
                None => break,
            }
        }
        submissions.reverse();
        let clarifications = self.store.clarifications(id, None).await?;
        let scoreboard = self.scoreboard(caller, id, None).await?;
        Ok(ContestExport {
            exported_at: Timestamp::now(),
            phase: contest.phase(now_ms()),
            contest,
            participants,
            submissions,
            clarifications,
            scoreboard,
        })
    }

    /// `caller`'s own input to the contest problem under `label`, for a
    /// problem that gives each participant one: once the contest started,
    /// to its participants, once their window began. Reading it changes
    /// nothing (it is a `GET`): registering and starting a window are their
    /// own requests, or a first submission. Nobody reads another's.
    pub async fn personal_input(
        &self,
        caller: &Caller,
        id: &ContestId,
        label: &str,
    ) -> Result<String, AppError> {
        let contest = self.stored_contest(id).await?;
        let missing = || AppError::NotFound(format!("contest `{id}` has no problem `{label}`"));
        if contest.phase(now_ms()) == Phase::Before {
            return Err(missing());
        }
        let entry = contest.problem(label).ok_or_else(missing)?;
        let Some(kind) = entry.personal_input else {
            return Err(AppError::NotFound(format!(
                "problem `{label}` of contest `{id}` has no inputs of their own: its testcases are the problem's"
            )));
        };
        let problem = entry.problem.clone();
        if !self.store.is_participant(id, caller.name()).await? {
            return Err(AppError::Conflict(format!(
                "you are not registered for contest `{id}`: register first \
                 (`POST /api/contests/{id}/registrations`), or send a submission"
            )));
        }
        if contest.personal_windows() && self.store.window_start(id, caller.name()).await?.is_none()
        {
            return Err(AppError::Conflict(format!(
                "your window of contest `{id}` has not started: start it first \
                 (`POST /api/contests/{id}/window`), or send a submission"
            )));
        }
        let seed = self.personal_seed(id, caller.name(), &problem).await?;
        let solver = crate::solver::find(problem.as_str())
            .ok_or_else(|| AppError::Internal(format!("no solver for `{problem}`")))?;
        // One at a time for each user: an input may be megabytes, made anew
        // on each download, and a user's parallel downloads would each take
        // a core.
        let Some(in_flight) = self.generating_inputs.start(caller.name()) else {
            return Err(AppError::Conflict(
                "another download of your own input is being made now: wait for it, \
                 then try again"
                    .into(),
            ));
        };
        // Held by the generation itself, which a dropped request does not stop.
        tokio::task::spawn_blocking(move || {
            let _in_flight = in_flight;
            solver.generate(kind, seed)
        })
        .await
        .map_err(|e| AppError::Internal(e.to_string()))
    }

    /// The seed of `user`'s own input to `problem` in contest `id`.
    pub(super) async fn personal_seed(
        &self,
        id: &ContestId,
        user: &str,
        problem: &ProblemId,
    ) -> Result<u64, AppError> {
        let salt = self.store.contest_input_salt(id).await?;
        Ok(crate::contest::personal_seed(
            id,
            salt.as_deref(),
            user,
            problem,
        ))
    }

    /// Where a submission by `caller` to `problem` in contest `id` goes:
    /// registered (where registration is open) and in their window (a
    /// personal one starts with their first submission), or refused with
    /// the reason.
    pub(super) async fn contest_entry(
        &self,
        caller: &Caller,
        id: &ContestId,
        problem: &ProblemId,
    ) -> Result<ContestEntry, AppError> {
        let contest = self.stored_contest(id).await?;
        // Before the start, nothing is said of its problems.
        if contest.phase(now_ms()) == Phase::Before {
            return Err(AppError::Conflict(format!(
                "contest `{id}` has not started: it starts at {}",
                contest.settings.starts_at
            )));
        }
        if !contest
            .settings
            .problems
            .iter()
            .any(|entry| &entry.problem == problem)
        {
            return Err(AppError::Invalid(format!(
                "problem `{problem}` is not in contest `{id}`"
            )));
        }
        if !self.store.is_participant(id, caller.name()).await? {
            if contest.settings.registration == Registration::Invited {
                return Err(AppError::Forbidden(format!(
                    "you are not registered for contest `{id}`, which is by invitation"
                )));
            }
            self.store.register(id, caller.name()).await?;
        }
        let (starts_at_ms, ends_at_ms) = if contest.personal_windows() {
            let started = self
                .store
                .start_window(id, caller.name(), now_ms())
                .await?
                .ok_or_else(|| AppError::Internal(format!("no participation in `{id}`")))?;
            contest.window_from(started)
        } else {
            contest.window_from(contest.starts_at_ms())
        };
        Ok(ContestEntry {
            contest,
            starts_at_ms,
            ends_at_ms,
        })
    }

    /// Starts `caller`'s personal window in a contest that has them,
    /// registering them where registration is open; returns the contest as
    /// they see it, with their window. Starting again changes nothing.
    pub async fn start_window(
        &self,
        caller: &Caller,
        id: &ContestId,
    ) -> Result<ContestView, AppError> {
        let contest = self.stored_contest(id).await?;
        if !contest.personal_windows() {
            return Err(AppError::Conflict(format!(
                "contest `{id}` has one window for everyone: it starts at {}",
                contest.settings.starts_at
            )));
        }
        match contest.phase(now_ms()) {
            Phase::Before => {
                return Err(AppError::Conflict(format!(
                    "contest `{id}` has not started: it starts at {}",
                    contest.settings.starts_at
                )));
            }
            Phase::Ended => {
                return Err(AppError::Conflict(format!(
                    "contest `{id}` is over: windows start within its span"
                )));
            }
            Phase::Running | Phase::Frozen => {}
        }
        if !self.store.is_participant(id, caller.name()).await? {
            self.register(caller, id, None).await?;
        }
        self.store.start_window(id, caller.name(), now_ms()).await?;
        self.contest(caller, id).await
    }
}

/// A contest submission's contest and its sender's window (unix ms).
pub(super) struct ContestEntry {
    pub contest: Contest,
    pub starts_at_ms: i64,
    pub ends_at_ms: i64,
}

/// The window a contest submission is admitted in.
pub(super) fn window(entry: &ContestEntry) -> ContestWindow<'_> {
    ContestWindow {
        contest: &entry.contest.id,
        starts_at_ms: entry.starts_at_ms,
        ends_at_ms: entry.ends_at_ms,
    }
}

fn timestamp(ms: i64) -> Result<Timestamp, AppError> {
    Timestamp::from_millisecond(ms).map_err(|e| AppError::Internal(e.to_string()))
}

/// A contest as `caller` sees it: before the start, its problems are
/// hidden from everyone but setters and admins.
fn view(caller: &Caller, mut contest: Contest, registered: bool, now: i64) -> ContestView {
    let phase = contest.phase(now);
    if phase == Phase::Before && !caller.role().is_staff() {
        contest.settings.problems.clear();
    }
    ContestView {
        contest,
        phase,
        registered,
        window: None,
    }
}

/// The users whose own input is being generated, each at most once.
#[derive(Debug, Clone, Default)]
pub(super) struct InputsInFlight(std::sync::Arc<std::sync::Mutex<HashSet<String>>>);

/// One user's generation in progress; dropping it ends it.
pub(super) struct InputInFlight {
    users: InputsInFlight,
    user: String,
}

impl InputsInFlight {
    /// Marks `user`'s generation as started, unless one is already.
    pub(super) fn start(&self, user: &str) -> Option<InputInFlight> {
        let mut users = self
            .0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        users.insert(user.to_string()).then(|| InputInFlight {
            users: self.clone(),
            user: user.to_string(),
        })
    }
}

impl Drop for InputInFlight {
    fn drop(&mut self) {
        self.users
            .0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .remove(&self.user);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_user_generates_one_input_at_a_time_and_others_are_not_held_up() {
        let inputs = InputsInFlight::default();
        let first = inputs.start("alice").expect("alice's first");
        assert!(
            inputs.start("alice").is_none(),
            "a second while the first runs"
        );
        let bob = inputs.start("bob").expect("bob is not held up by alice");
        drop(first);
        let again = inputs
            .start("alice")
            .expect("alice's next, once hers ended");
        drop((again, bob));
        assert!(inputs.0.lock().expect("not poisoned").is_empty());
    }
}
