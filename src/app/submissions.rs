//! Submissions: contestants submit and read their own; setters and admins
//! read every one and rejudge.
//!
//! What a contestant reads of a judgement follows the problem's
//! [`Feedback`]: the full difference (with the expected token) only under
//! `full`, per-testcase verdicts and safe messages under `verdict`, the
//! verdict alone under `none`. Custom checks are an oracle for any input, so
//! contestants may send them only where the problem allows it.
//!
//! A client that retries a submission (after a timeout, a dropped
//! connection) sends the same idempotency key; the first submission is then
//! returned instead of storing another. A key belongs to its user and is
//! kept as long as the submission. The request is compared by a hash of its
//! parsed body, so whitespace and key order do not matter, but the same key
//! with a different problem or different answers is refused.

use std::time::Duration;

use sha2::{Digest, Sha256};
use tokio::sync::broadcast::{Receiver, error::RecvError};

use super::{App, AppError, Caller};
use crate::{
    api::{SubmitRequest, SubmittedContent},
    contest::PERSONAL,
    domain::{
        Feedback, Judgement, Payload, PersonalInput, ProblemId, Role, Submission, SubmissionId,
        SubmissionState,
    },
    store::{
        Admission, AdmissionOutcome, IdempotencyKey, ListFilter, NewSubmission, RejudgeOutcome,
        SentContent, SubmissionPage, SubmissionRecord, hex,
    },
};

/// What taking a submission in did.
#[derive(Debug, Clone)]
pub enum Submitted {
    /// Stored, queued (a worker was woken).
    Stored(Box<Submission>),
    /// A retry of an earlier request with the same idempotency key: the
    /// first submission as it is now, nothing stored.
    Replayed(Box<Submission>),
}

/// A submission larger than this is checked against what is left of its
/// sender's `limits.bytes_per_day` before it is hashed (smaller ones only
/// at admission, saving the read).
const CHECKED_BEFORE_HASHING: u64 = 1 << 20;

/// The most rows a listing returns at once.
pub const MAX_LIST_LIMIT: i64 = 500;

impl App {
    /// Validates a submission and admits it: the one path every submission
    /// takes, from the API and from the web UI's forms alike, so both refuse
    /// the same requests with the same errors.
    pub async fn submit(
        &self,
        caller: &Caller,
        key: Option<String>,
        body: SubmitRequest,
    ) -> Result<Submitted, AppError> {
        let stored_key = match &key {
            Some(key) => self.store.idempotent_submission(caller.name(), key).await?,
            None => None,
        };
        // One larger than a whole day's bytes can never be admitted, and a
        // large one past what is left of the user's day would be refused at
        // admission: both are refused before they are hashed and encoded
        // (the web form's answers zip unpacks to up to 64 MiB, each pass
        // over it costly). A retry of a stored request is replayed instead.
        if caller.role() != Role::Admin
            && let Some(limit) = self.settings.limits.bytes_per_day
        {
            let texts = body.answers.iter().flat_map(|answers| answers.values());
            let size: usize = texts
                .chain(&body.source)
                .chain(&body.input)
                .chain(&body.output)
                .map(String::len)
                .sum();
            let size = u64::try_from(size).unwrap_or(u64::MAX);
            if size > limit {
                return Err(AppError::Invalid(format!(
                    "this submission holds {size} bytes, more than the {limit} bytes of \
                     submissions allowed in any 24 hours (limits.bytes_per_day)"
                )));
            }
            if size > CHECKED_BEFORE_HASHING
                && stored_key.is_none()
                && let Some(exceeded) = self
                    .store
                    .over_bytes_per_day(caller.name(), size, &self.settings.limits)
                    .await?
            {
                return Err(AppError::Limited(exceeded));
            }
        }
        let request_hash = request_hash(&body)?;
        if let (Some(key), Some((first, hash))) = (&key, stored_key) {
            return if hash == request_hash {
                self.replayed(first).await
            } else {
                Err(reused(key, first))
            };
        }
        let problem = body.problem;
        let contest = match &body.contest {
            Some(id) if body.answers.is_none() && body.source.is_none() => {
                return Err(AppError::Invalid(format!(
                    "only answers and programs are sent to a contest; send a custom check \
                     without `contest` (`{id}`)"
                )));
            }
            Some(id) => Some(self.contest_entry(caller, id, &problem).await?),
            None => None,
        };
        self.check_visible(caller, &problem).await?;
        // A contest problem that gives each participant an input of their own.
        let personal_kind = contest.as_ref().and_then(|entry| {
            let kind = entry
                .contest
                .settings
                .problems
                .iter()
                .find(|p| p.problem == problem)?
                .personal_input?;
            Some((&entry.contest.id, kind))
        });
        let personal = match personal_kind {
            Some((contest, kind)) => Some(PersonalInput {
                kind,
                seed: self.personal_seed(contest, caller.name(), &problem).await?,
            }),
            None => None,
        };
        let Some(rules) = self.catalog.submission_rules(&self.store, &problem).await? else {
            return Err(AppError::Invalid(format!("unknown problem `{problem}`")));
        };
        let interactive = super::problems::is_interactive(&problem);
        let solved = super::problems::has_solver(&problem);
        let payload = match (
            body.answers,
            body.input,
            body.output,
            body.language,
            body.source,
        ) {
            (Some(_), None, None, None, None) | (None, Some(_), Some(_), None, None)
                if interactive =>
            {
                return Err(AppError::Invalid(format!(
                    "problem `{problem}` is interactive: a program plays its games against the \
                     judge, so submit `language` and `source`"
                )));
            }
            // Its hidden testcases have answer files and no solver: answers
            // for its samples alone, or for an input of one's own, judge
            // nothing of it.
            (Some(_), None, None, None, None) | (None, Some(_), Some(_), None, None) if !solved => {
                return Err(AppError::Invalid(format!(
                    "problem `{problem}` is judged on its package's testcases only: submit a \
                     program (`language` and `source`)"
                )));
            }
            (Some(answers), None, None, None, None) if personal.is_some() => {
                let named: Vec<&str> = answers.keys().map(|name| name.as_str()).collect();
                if named != [PERSONAL] {
                    return Err(AppError::Invalid(format!(
                        "contest problem `{problem}` gives you an input of your own: answer it \
                         alone, as the testcase `{PERSONAL}` (not {})",
                        if named.is_empty() {
                            "nothing".to_string()
                        } else {
                            named.join(", ")
                        }
                    )));
                }
                Payload::Answers { answers, personal }
            }
            (Some(answers), None, None, None, None) => {
                if answers.is_empty() {
                    return Err(AppError::Invalid(
                        "`answers` is empty: answer at least one testcase".into(),
                    ));
                }
                let unknown: Vec<&str> = answers
                    .keys()
                    .filter(|name| !rules.public_testcases.contains(*name))
                    .map(|name| name.as_str())
                    .collect();
                if !unknown.is_empty() {
                    return Err(AppError::Invalid(format!(
                        "problem `{problem}` has no public testcase named {}",
                        unknown.join(", ")
                    )));
                }
                Payload::Answers {
                    answers,
                    personal: None,
                }
            }
            (None, Some(input), Some(output), None, None) => {
                if !rules.custom_checks && !caller.role().is_staff() {
                    return Err(AppError::Forbidden(format!(
                        "custom checks are off for problem `{problem}`: its setter has not \
                         enabled them (`custom_checks` in problem.toml)"
                    )));
                }
                super::problems::validate_input(&problem, input.clone()).await?;
                Payload::Custom { input, output }
            }
            (None, None, None, Some(language), Some(source)) => {
                // The request's own faults first, whatever this host can do.
                if source.trim().is_empty() {
                    return Err(AppError::Invalid("`source` is empty".into()));
                }
                self.programs.usable(&language)?;
                Payload::Program { language, source }
            }
            _ => {
                return Err(AppError::Invalid(
                    "give exactly one of: `answers` (testcase name → output); both `input` and \
                     `output`; both `language` and `source`"
                        .into(),
                ));
            }
        };
        let admission = Admission {
            submission: NewSubmission {
                problem: &problem,
                user: caller.name(),
                payload: &payload,
                contest: contest.as_ref().map(super::contests::window),
            },
            idempotency: key.as_deref().map(|key| IdempotencyKey {
                key,
                request_hash: &request_hash,
            }),
            limits: (caller.role() != Role::Admin).then_some(&self.settings.limits),
        };
        match self.store.admit(&admission).await? {
            AdmissionOutcome::Queued(row) => {
                self.signals.job_added();
                Ok(Submitted::Stored(row))
            }
            AdmissionOutcome::Replayed(first) => self.replayed(first).await,
            AdmissionOutcome::KeyReused(first) => {
                Err(reused(key.as_deref().unwrap_or_default(), first))
            }
            AdmissionOutcome::Limited(exceeded) => Err(AppError::Limited(exceeded)),
        }
    }

    /// A retried submission's answer: the first one, as it is now.
    async fn replayed(&self, id: SubmissionId) -> Result<Submitted, AppError> {
        let submission = self.store.submission(&id).await?.ok_or_else(|| {
            AppError::Internal(format!("idempotency key of a missing submission {id}"))
        })?;
        Ok(Submitted::Replayed(Box::new(submission)))
    }

    /// A submission `caller` may read ([`visible`]) with its judgements and
    /// events, read as one snapshot, cut to what the caller may see: for a
    /// contestant, [`redact_for_contestant`] applies to the submission and
    /// its judgements by the problem's feedback.
    pub async fn readable_record(
        &self,
        caller: &Caller,
        id: &SubmissionId,
    ) -> Result<SubmissionRecord, AppError> {
        let mut record = self
            .store
            .submission_record(id)
            .await?
            .ok_or_else(|| AppError::NotFound(format!("no submission `{id}`")))?;
        visible(caller, &record.submission)?;
        if !caller.role().is_staff() {
            let feedback = self.problem_feedback(&record.submission).await?;
            redact_for_contestant(feedback, &mut record.submission, &mut record.judgements);
        }
        Ok(record)
    }

    /// The latest judgement of each of `ids` that has one, as `caller` may
    /// read it ([`App::readable_record`]'s rules: their own submissions for
    /// a contestant, cut to what the problem's feedback shows), in the
    /// order of `ids`, read a few hundred at a time. A submission the
    /// caller may not read is refused as missing, as one by one.
    pub async fn readable_latest_judgements(
        &self,
        caller: &Caller,
        ids: &[SubmissionId],
    ) -> Result<Vec<(SubmissionId, Judgement)>, AppError> {
        let mut found = Vec::with_capacity(ids.len());
        for latest in self.store.latest_judgements(ids).await? {
            let mut judgement = latest.judgement;
            if !caller.role().is_staff() {
                if latest.user != caller.name() {
                    return Err(AppError::NotFound(format!(
                        "no submission `{}`",
                        latest.submission
                    )));
                }
                let feedback = self.feedback_of(&latest.problem).await?;
                redact_judgements(feedback, std::slice::from_mut(&mut judgement));
            }
            found.push((latest.submission, judgement));
        }
        Ok(found)
    }

    /// What a submission `caller` may read sent ([`SubmittedContent`]):
    /// theirs, or any for setters and admins. `None` for a payload that
    /// cannot be decoded (its judging said why).
    pub async fn submitted_content(
        &self,
        caller: &Caller,
        id: &SubmissionId,
    ) -> Result<Option<SubmittedContent>, AppError> {
        let missing = || AppError::NotFound(format!("no submission `{id}`"));
        let (user, content) = self
            .store
            .submission_content(id)
            .await?
            .ok_or_else(missing)?;
        if !caller.role().is_staff() && user != caller.name() {
            return Err(missing());
        }
        Ok(content.ok().map(|content| match content {
            SentContent::Sizes(sizes) => SubmittedContent::of_sizes(sizes),
            SentContent::Payload(payload) => SubmittedContent::of(&payload),
        }))
    }

    /// [`App::readable_record`], after waiting up to `wait` (at most the
    /// configured `server.max_wait`) for its verdict.
    pub async fn record_when_judged(
        &self,
        caller: &Caller,
        id: &SubmissionId,
        wait: Duration,
    ) -> Result<SubmissionRecord, AppError> {
        // Subscribe before reading, so a verdict written in between is not
        // missed.
        let mut judged = self.signals.subscribe();
        let mut record = self.readable_record(caller, id).await?;
        let deadline = tokio::time::Instant::now() + wait.min(self.settings.max_wait);
        // The in-process wake-up misses verdicts written by another process
        // on the same database, so the row is also re-read every
        // `wait_recheck`, and once more at the deadline: what is returned is
        // never older than the wait.
        while record.submission.state != SubmissionState::Done
            && tokio::time::Instant::now() < deadline
        {
            let recheck_at =
                (tokio::time::Instant::now() + self.settings.wait_recheck).min(deadline);
            tokio::select! {
                () = self.shutdown.cancelled() => break,
                () = tokio::time::sleep_until(recheck_at) => {}
                () = next_match(&mut judged, *id) => {}
            }
            record = self.readable_record(caller, id).await?;
        }
        Ok(record)
    }

    /// The feedback setting of a submission's problem; the default if the
    /// problem is gone.
    async fn problem_feedback(&self, submission: &Submission) -> Result<Feedback, AppError> {
        self.feedback_of(&submission.problem).await
    }

    /// The feedback a problem gives its contestants.
    async fn feedback_of(&self, problem: &ProblemId) -> Result<Feedback, AppError> {
        Ok(self
            .catalog
            .submission_rules(&self.store, problem)
            .await?
            .map(|rules| rules.feedback)
            .unwrap_or_default())
    }

    /// One page of submissions, newest first, cut to what `caller` may see:
    /// a contestant lists their own only (another user named is refused),
    /// without what the problem's feedback hides. `limit` is 1 to
    /// [`MAX_LIST_LIMIT`]; a problem named must exist.
    pub async fn list_submissions(
        &self,
        caller: &Caller,
        mut filter: ListFilter,
    ) -> Result<SubmissionPage, AppError> {
        if !caller.role().is_staff() {
            match &filter.user {
                Some(user) if user != caller.name() => {
                    return Err(AppError::Forbidden(
                        "contestants may only list their own submissions".into(),
                    ));
                }
                _ => filter.user = Some(caller.name().to_string()),
            }
        }
        if !(1..=MAX_LIST_LIMIT).contains(&filter.limit) {
            return Err(AppError::Invalid(format!(
                "limit must be between 1 and {MAX_LIST_LIMIT}"
            )));
        }
        // An unknown problem is a mistake to say, not an empty page; one held
        // back for a contest not begun is unknown to those it is held from.
        if let Some(problem) = &filter.problem
            && (self.store.problem(problem).await?.is_none()
                || self.embargoed(caller).await?.contains(problem))
        {
            return Err(AppError::Invalid(format!("unknown problem `{problem}`")));
        }
        let mut page = self.store.list_submissions(&filter).await?;
        self.redact_listing(caller, &mut page.submissions).await?;
        Ok(page)
    }

    /// Cuts a listing to what `caller` may see: under feedback `none` a
    /// contestant sees the verdict alone, without the message or progress.
    async fn redact_listing(
        &self,
        caller: &Caller,
        submissions: &mut [Submission],
    ) -> Result<(), AppError> {
        if caller.role().is_staff() {
            return Ok(());
        }
        let silent: Vec<_> = self
            .store
            .problems()
            .await?
            .into_iter()
            .filter(|p| p.feedback == Feedback::None)
            .map(|p| p.id)
            .collect();
        for submission in submissions {
            if silent.contains(&submission.problem) {
                silence(submission);
            }
        }
        Ok(())
    }

    /// Queues one submission again: staff only, an existing submission
    /// (not found), not one already waiting (conflict). Earlier judgements
    /// stay.
    pub async fn requeue_submission(
        &self,
        caller: &Caller,
        id: &SubmissionId,
    ) -> Result<(), AppError> {
        caller.require_staff()?;
        match self.store.rejudge(id, caller.name()).await? {
            RejudgeOutcome::Queued => {
                self.signals.job_added();
                Ok(())
            }
            RejudgeOutcome::NotFound => Err(AppError::NotFound(format!("no submission `{id}`"))),
            RejudgeOutcome::Pending => Err(AppError::Conflict(format!(
                "submission `{id}` is already waiting to be judged"
            ))),
        }
    }
}

/// The hash a retry must match: sha256 of the parsed request as JSON
/// (answers are a sorted map, so the text is canonical).
fn request_hash(request: &SubmitRequest) -> Result<String, AppError> {
    let json = serde_json::to_vec(request)
        .map_err(|e| AppError::Internal(format!("cannot encode a request: {e}")))?;
    Ok(hex(&Sha256::digest(&json)))
}

/// The refusal of a key reused for another request.
fn reused(key: &str, first: SubmissionId) -> AppError {
    AppError::Invalid(format!(
        "Idempotency-Key `{key}` was used before for a different request (submission {first}); \
         send a new key for a new submission"
    ))
}

/// Lets `caller` read `submission` if it is theirs, or any for setters and
/// admins. Another contestant's is refused as a missing one, so a
/// contestant cannot even learn that an id exists.
fn visible(caller: &Caller, submission: &Submission) -> Result<(), AppError> {
    if !caller.role().is_staff() && submission.user != caller.name() {
        return Err(AppError::NotFound(format!(
            "no submission `{}`",
            submission.id
        )));
    }
    Ok(())
}

/// Removes from a contestant's own submission what the problem's feedback
/// does not show them. Under `none`, the verdict alone: no message, no
/// per-testcase results and no progress (its total counts the testcases,
/// hidden ones too). Otherwise no detail (the expected token) unless
/// the feedback is `full`, and of a hidden testcase only its verdict, time
/// and memory: no message, no detail, no exit status.
fn redact_for_contestant(
    feedback: Feedback,
    submission: &mut Submission,
    judgements: &mut [Judgement],
) {
    if feedback == Feedback::None {
        silence(submission);
    }
    redact_judgements(feedback, judgements);
}

/// [`redact_for_contestant`]'s cut of the judgements alone.
fn redact_judgements(feedback: Feedback, judgements: &mut [Judgement]) {
    if feedback == Feedback::None {
        for judgement in judgements.iter_mut() {
            judgement.message = None;
            judgement.results.clear();
        }
        return;
    }
    for result in judgements.iter_mut().flat_map(|j| j.results.iter_mut()) {
        if feedback != Feedback::Full || result.hidden {
            result.detail = None;
        }
        if result.hidden {
            result.message = None;
            if let Some(run) = &mut result.run {
                run.exit_code = None;
                run.signal = None;
            }
        }
    }
}

/// Leaves a submission of a problem whose feedback is `none` its verdict
/// alone: no message, progress, time or memory.
fn silence(submission: &mut Submission) {
    submission.message = None;
    submission.progress = None;
    submission.max_cpu_ms = None;
    submission.max_memory_kib = None;
    submission.group_scores = None;
}

/// Resolves when `id` is judged, or when messages were lost (so the caller
/// must look again).
async fn next_match(judged: &mut Receiver<SubmissionId>, id: SubmissionId) {
    loop {
        match judged.recv().await {
            Ok(seen) if seen == id => return,
            Ok(_) => {}
            Err(RecvError::Lagged(_)) => return,
            Err(RecvError::Closed) => {
                // Nothing more will come; the periodic re-read goes on.
                std::future::pending::<()>().await;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::{SubmissionKind, Timestamp, Verdict};

    fn judged_program() -> Submission {
        Submission {
            id: SubmissionId::new(),
            problem: "nim".parse().expect("an id"),
            user: "ann".into(),
            kind: SubmissionKind::Program,
            state: SubmissionState::Done,
            verdict: Some(Verdict::WA),
            message: Some("testcase small-1: wrong answer".into()),
            attempt: 1,
            worker: Some("w".into()),
            queued_at: Timestamp::UNIX_EPOCH,
            judged_at: Some(Timestamp::UNIX_EPOCH),
            latency_ms: Some(0),
            created_at: Timestamp::UNIX_EPOCH,
            progress: None,
            language: Some("cpp".parse().expect("a language id")),
            max_cpu_ms: Some(1_990),
            max_memory_kib: Some(65_000),
            contest: None,
            contest_time_ms: None,
            score: Some(40.0),
            group_scores: Some(vec![0.0, 40.0, 0.0]),
        }
    }

    #[test]
    fn without_feedback_a_contestant_sees_neither_time_nor_memory_nor_group_scores() {
        let mut silent = judged_program();
        redact_for_contestant(Feedback::None, &mut silent, &mut []);
        assert_eq!(silent.verdict, Some(Verdict::WA));
        assert_eq!(
            (silent.message, silent.max_cpu_ms, silent.max_memory_kib),
            (None, None, None)
        );
        assert_eq!((silent.score, silent.group_scores), (Some(40.0), None));
        assert_eq!(
            silent.language.map(|l| l.to_string()).as_deref(),
            Some("cpp")
        );
        let mut shown = judged_program();
        redact_for_contestant(Feedback::Verdict, &mut shown, &mut []);
        assert_eq!(
            (shown.max_cpu_ms, shown.max_memory_kib),
            (Some(1_990), Some(65_000))
        );
        assert_eq!(shown.group_scores, Some(vec![0.0, 40.0, 0.0]));
    }
}
