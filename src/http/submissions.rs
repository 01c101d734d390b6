//! Submissions: contestants submit and read their own; setters and admins
//! read every one and rejudge.
//!
//! What a contestant reads of a judgement follows the problem's
//! [`Feedback`]: the full difference (with the expected token) only under
//! `full`, per-testcase verdicts and safe messages under `verdict`, the
//! verdict alone under `none`. Custom checks are an oracle for any input, so
//! contestants may send them only where the problem allows it.

use std::time::Duration;

use axum::{
    Json,
    extract::State,
    http::{HeaderMap, StatusCode, header},
    response::{IntoResponse, Response},
};
use tokio::sync::broadcast::{Receiver, error::RecvError};

use super::{
    ApiError, ApiJson, ApiPath, ApiQuery, AppState, auth::Caller, idempotency,
    problems::validate_input,
};
use crate::{
    api::{
        ErrorBody, ListQuery, Queued, ShowQuery, SubmissionDocument, SubmissionPage, SubmitRequest,
    },
    domain::{
        Feedback, Judgement, Payload, Role, Submission, SubmissionId, SubmissionState, Verdict,
    },
    store::{
        Admission, AdmissionOutcome, IdempotencyKey, ListFilter, NewSubmission, RejudgeOutcome,
        SubmissionRecord,
    },
};

/// The `202 Accepted` answer for a queued submission.
fn queued(id: SubmissionId) -> impl IntoResponse {
    accepted(id, SubmissionState::Queued, None)
}

/// The `202 Accepted` answer for a submission stored as `state` (with its
/// verdict, if a waiting worker judged it before it was stored).
fn accepted(
    id: SubmissionId,
    state: SubmissionState,
    verdict: Option<Verdict>,
) -> impl IntoResponse {
    let url = format!("/api/submissions/{id}");
    (
        StatusCode::ACCEPTED,
        [(header::LOCATION, url.clone())],
        Json(Queued {
            id,
            url,
            state,
            verdict,
        }),
    )
}

/// Submit answers to the public testcases, one output for an input of your
/// own, or a program (run on every testcase in the sandbox). Workers judge
/// it; read the verdict at the returned `url`. Send an `Idempotency-Key` to
/// retry safely: the same key with the same request answers 200 with the
/// first submission.
#[utoipa::path(
    post,
    path = "/api/submissions",
    operation_id = "create_submission",
    tag = "submissions",
    request_body = SubmitRequest,
    params(("Idempotency-Key" = Option<String>, Header, min_length = 1, max_length = 255,
        pattern = "^[!-~]+$",
        description = "Any 1 to 255 visible ASCII characters, e.g. a UUID. A retry with the same key and request returns the first submission.")),
    responses(
        (status = OK, description = "A retry: this key was used for the same request before; the first submission, in its current state.", body = Queued,
            headers(("Location" = String, description = "The submission's URL"),
                ("Idempotent-Replayed" = String, description = "`true`"))),
        (status = ACCEPTED, description = "Stored: queued, running, or done with its verdict (answers an idle worker judged before storing them).", body = Queued,
            headers(("Location" = String, description = "The submission's URL"))),
        (status = BAD_REQUEST, description = "Malformed JSON or Idempotency-Key.", body = ErrorBody),
        (status = UNAUTHORIZED, description = "No valid token.", body = ErrorBody),
        (status = FORBIDDEN, description = "A contestant's custom check on a problem whose `custom_checks` is off.", body = ErrorBody),
        (status = REQUEST_TIMEOUT, description = "The body did not arrive in time.", body = ErrorBody),
        (status = PAYLOAD_TOO_LARGE, description = "Body too large.", body = ErrorBody),
        (status = UNSUPPORTED_MEDIA_TYPE, description = "Not JSON.", body = ErrorBody),
        (status = UNPROCESSABLE_ENTITY, description = "An unknown problem, testcase or language, a testcase answered twice, empty `answers`, not exactly one kind of submission, an empty source, an input the validator rejects, or an Idempotency-Key used before for another request.", body = ErrorBody),
        (status = TOO_MANY_REQUESTS, description = "A per-user limit; `limit` names it.", body = ErrorBody,
            headers(("Retry-After" = u64, description = "Seconds to wait before trying again"))),
        (status = SERVICE_UNAVAILABLE, description = "A program, on a host whose sandbox cannot isolate or lacks the language's toolchain.", body = ErrorBody),
    )
)]
pub async fn create(
    State(state): State<AppState>,
    caller: Caller,
    headers: HeaderMap,
    ApiJson(body): ApiJson<SubmitRequest>,
) -> Result<Response, ApiError> {
    let key = idempotency::key(&headers)?;
    match submit(&state, &caller, key, body).await? {
        Submitted::Stored(row) => Ok(accepted(row.id, row.state, row.verdict).into_response()),
        Submitted::Replayed(first) => replayed(&state, first).await,
    }
}

/// What taking a submission in did.
#[derive(Debug, Clone)]
pub enum Submitted {
    /// Stored, as stored: queued (a worker was woken), running (a waiting
    /// worker claimed it) or done (a waiting worker judged it first).
    Stored(Box<Submission>),
    /// A retry of an earlier request with the same idempotency key: the
    /// first submission, nothing stored.
    Replayed(SubmissionId),
}

/// Validates a submission and admits it: the one path every submission
/// takes, from the API and from the web UI's forms alike, so both refuse
/// the same requests with the same errors.
pub async fn submit(
    state: &AppState,
    caller: &Caller,
    key: Option<String>,
    body: SubmitRequest,
) -> Result<Submitted, ApiError> {
    let request_hash = idempotency::request_hash(&body)?;
    if let Some(key) = &key
        && let Some((first, hash)) = state
            .store
            .idempotent_submission(caller.name(), key)
            .await?
    {
        return if hash == request_hash {
            Ok(Submitted::Replayed(first))
        } else {
            Err(idempotency::reused(key, first))
        };
    }
    let problem = body.problem;
    let Some(rules) = state.store.submission_rules(&problem).await? else {
        return Err(ApiError::Unprocessable(format!(
            "unknown problem `{problem}`"
        )));
    };
    let payload = match (
        body.answers,
        body.input,
        body.output,
        body.language,
        body.source,
    ) {
        (Some(answers), None, None, None, None) => {
            if answers.is_empty() {
                return Err(ApiError::Unprocessable(
                    "`answers` is empty: answer at least one testcase".into(),
                ));
            }
            let unknown: Vec<&str> = answers
                .keys()
                .filter(|name| !rules.public_testcases.contains(*name))
                .map(|name| name.as_str())
                .collect();
            if !unknown.is_empty() {
                return Err(ApiError::Unprocessable(format!(
                    "problem `{problem}` has no public testcase named {}",
                    unknown.join(", ")
                )));
            }
            Payload::Answers { answers }
        }
        (None, Some(input), Some(output), None, None) => {
            if !rules.custom_checks && !caller.role().is_staff() {
                return Err(ApiError::Forbidden(format!(
                    "custom checks are off for problem `{problem}`: its setter has not \
                     enabled them (`custom_checks` in problem.toml)"
                )));
            }
            validate_input(&problem, input.clone()).await?;
            Payload::Custom { input, output }
        }
        (None, None, None, Some(language), Some(source)) => {
            // The request's own faults first, whatever this host can do.
            if source.trim().is_empty() {
                return Err(ApiError::Unprocessable("`source` is empty".into()));
            }
            state.programs.usable(&language)?;
            Payload::Program { language, source }
        }
        _ => {
            return Err(ApiError::Unprocessable(
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
        },
        idempotency: key.as_deref().map(|key| IdempotencyKey {
            key,
            request_hash: &request_hash,
        }),
        limits: (caller.role() != Role::Admin).then_some(&state.limits),
    };
    match state.store.admit(&admission).await? {
        AdmissionOutcome::Queued(row) => {
            // A waiting worker may have claimed it in the admission itself,
            // or judged it before it was stored.
            match row.state {
                SubmissionState::Queued => state.signals.job_added(),
                SubmissionState::Done => {
                    let latency = row.latency_ms.unwrap_or(0);
                    state
                        .metrics
                        .observe_latency_ms(u64::try_from(latency).unwrap_or(0));
                    state.signals.judged(row.id);
                }
                SubmissionState::Running => {}
            }
            Ok(Submitted::Stored(Box::new(row)))
        }
        AdmissionOutcome::Replayed(first) => Ok(Submitted::Replayed(first)),
        AdmissionOutcome::KeyReused(first) => Err(idempotency::reused(
            key.as_deref().unwrap_or_default(),
            first,
        )),
        AdmissionOutcome::Limited(exceeded) => Err(ApiError::TooManyRequests(exceeded)),
    }
}

/// The `200 OK` answer to a retried submission: the first one, as it is now.
async fn replayed(state: &AppState, id: SubmissionId) -> Result<Response, ApiError> {
    let submission = state.store.submission(&id).await?.ok_or_else(|| {
        ApiError::Internal(format!("idempotency key of a missing submission {id}"))
    })?;
    let url = format!("/api/submissions/{id}");
    Ok((
        StatusCode::OK,
        [
            (header::LOCATION, url.clone()),
            (
                header::HeaderName::from_static(idempotency::REPLAYED_HEADER),
                "true".to_string(),
            ),
        ],
        Json(Queued {
            id,
            url,
            state: submission.state,
            verdict: submission.verdict,
        }),
    )
        .into_response())
}

/// Lets `caller` read `submission` if it is theirs, or any for setters and
/// admins. Another contestant's answers 404 with the message of a missing
/// one, so a contestant cannot even learn that an id exists.
fn visible(caller: &Caller, submission: &Submission) -> Result<(), ApiError> {
    if !caller.role().is_staff() && submission.user != caller.name() {
        return Err(ApiError::NotFound(format!(
            "no submission `{}`",
            submission.id
        )));
    }
    Ok(())
}

/// A submission with the results of its latest judgement, every judgement
/// and its event log; `?wait_ms=` waits for the verdict first.
#[utoipa::path(
    get,
    path = "/api/submissions/{id}",
    operation_id = "show_submission",
    tag = "submissions",
    params(("id" = String, Path, format = Uuid, description = "Submission id"), ShowQuery),
    responses(
        (status = OK, description = "The submission.", body = SubmissionDocument),
        (status = BAD_REQUEST, description = "A malformed query.", body = ErrorBody),
        (status = UNAUTHORIZED, description = "No valid token.", body = ErrorBody),
        (status = NOT_FOUND, description = "No such submission, or another contestant's.", body = ErrorBody),
    )
)]
pub async fn show(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath(id): ApiPath<SubmissionId>,
    ApiQuery(query): ApiQuery<ShowQuery>,
) -> Result<Json<SubmissionDocument>, ApiError> {
    // Subscribe before reading, so a verdict written in between is not missed.
    let mut judged = state.signals.subscribe();
    let mut record = readable_record(&state, &caller, &id).await?;
    let wait = Duration::from_millis(query.wait_ms.unwrap_or(0)).min(state.max_wait);
    let deadline = tokio::time::Instant::now() + wait;
    // The in-process wake-up misses verdicts written by another process on
    // the same database, so the row is also re-read every `wait_recheck`,
    // and once more at the deadline: what is returned is never older than
    // the wait.
    while record.submission.state != SubmissionState::Done && tokio::time::Instant::now() < deadline
    {
        let recheck_at = (tokio::time::Instant::now() + state.wait_recheck).min(deadline);
        tokio::select! {
            () = state.shutdown.cancelled() => break,
            () = tokio::time::sleep_until(recheck_at) => {}
            () = next_match(&mut judged, id) => {}
        }
        record = readable_record(&state, &caller, &id).await?;
    }
    let SubmissionRecord {
        submission,
        judgements,
        events,
    } = record;
    let results = judgements
        .last()
        .map(|j| j.results.clone())
        .unwrap_or_default();
    Ok(Json(SubmissionDocument {
        submission,
        results,
        judgements,
        events,
    }))
}

/// A submission `caller` may read ([`visible`]) with its judgements and
/// events, read as one snapshot, cut to what the caller may see: for a
/// contestant, [`redact_for_contestant`] applies to the submission and its
/// judgements by the problem's feedback.
pub async fn readable_record(
    state: &AppState,
    caller: &Caller,
    id: &SubmissionId,
) -> Result<SubmissionRecord, ApiError> {
    let mut record = state
        .store
        .submission_record(id)
        .await?
        .ok_or_else(|| ApiError::NotFound(format!("no submission `{id}`")))?;
    visible(caller, &record.submission)?;
    if !caller.role().is_staff() {
        let feedback = problem_feedback(state, &record.submission).await?;
        redact_for_contestant(feedback, &mut record.submission, &mut record.judgements);
    }
    Ok(record)
}

/// The feedback setting of a submission's problem; the default if the
/// problem is gone.
async fn problem_feedback(state: &AppState, submission: &Submission) -> Result<Feedback, ApiError> {
    Ok(state
        .store
        .submission_rules(&submission.problem)
        .await?
        .map(|rules| rules.feedback)
        .unwrap_or_default())
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
        submission.message = None;
        submission.progress = None;
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

/// List submissions, newest first, one page at a time. Contestants see
/// their own only.
#[utoipa::path(
    get,
    path = "/api/submissions",
    operation_id = "list_submissions",
    tag = "submissions",
    params(ListQuery),
    responses(
        (status = OK, description = "One page.", body = SubmissionPage),
        (status = BAD_REQUEST, description = "A malformed query.", body = ErrorBody),
        (status = UNAUTHORIZED, description = "No valid token.", body = ErrorBody),
        (status = FORBIDDEN, description = "A contestant asked for another user.", body = ErrorBody),
        (status = UNPROCESSABLE_ENTITY, description = "A limit out of range or an invalid cursor.", body = ErrorBody),
    )
)]
pub async fn list(
    State(state): State<AppState>,
    caller: Caller,
    ApiQuery(query): ApiQuery<ListQuery>,
) -> Result<Json<SubmissionPage>, ApiError> {
    let user = if caller.role().is_staff() {
        query.user
    } else {
        match query.user {
            Some(user) if user != caller.name() => {
                return Err(ApiError::Forbidden(
                    "contestants may only list their own submissions".into(),
                ));
            }
            _ => Some(caller.name().to_string()),
        }
    };
    let limit = query.limit.unwrap_or(50);
    if !(1..=500).contains(&limit) {
        return Err(ApiError::Unprocessable(
            "limit must be between 1 and 500".into(),
        ));
    }
    let before = query.cursor.as_deref().map(parse_cursor).transpose()?;
    let page = state
        .store
        .list_submissions(&ListFilter {
            problem: query.problem,
            verdict: query.verdict,
            user,
            since: query.since,
            before,
            limit,
        })
        .await?;
    let mut submissions = page.submissions;
    redact_listing(&state, &caller, &mut submissions).await?;
    Ok(Json(SubmissionPage {
        submissions,
        next_cursor: page.next_cursor.map(|c| c.to_string()),
    }))
}

/// Cuts a listing to what `caller` may see: under feedback `none` a
/// contestant sees the verdict alone, without the message or progress.
pub async fn redact_listing(
    state: &AppState,
    caller: &Caller,
    submissions: &mut [Submission],
) -> Result<(), ApiError> {
    if caller.role().is_staff() {
        return Ok(());
    }
    let silent: Vec<_> = state
        .store
        .problems()
        .await?
        .into_iter()
        .filter(|p| p.feedback == Feedback::None)
        .map(|p| p.id)
        .collect();
    for submission in submissions {
        if silent.contains(&submission.problem) {
            submission.message = None;
            submission.progress = None;
        }
    }
    Ok(())
}

/// Parses a page cursor: the decimal row id a `next_cursor` gave, 1 to 19
/// digits as the document says. One past every row id means no bound.
pub(super) fn parse_cursor(cursor: &str) -> Result<i64, ApiError> {
    let invalid = || ApiError::Unprocessable(format!("invalid cursor `{cursor}`"));
    if cursor.is_empty() || cursor.len() > 19 || !cursor.bytes().all(|b| b.is_ascii_digit()) {
        return Err(invalid());
    }
    let value: u64 = cursor.parse().map_err(|_| invalid())?;
    Ok(i64::try_from(value).unwrap_or(i64::MAX))
}

/// Rejudge one submission (setters and admins); earlier judgements stay.
#[utoipa::path(
    post,
    path = "/api/submissions/{id}/rejudge",
    operation_id = "rejudge_submission",
    tag = "submissions",
    params(("id" = String, Path, format = Uuid, description = "Submission id")),
    responses(
        (status = ACCEPTED, description = "Queued again.", body = Queued,
            headers(("Location" = String, description = "The submission's URL"))),
        (status = UNAUTHORIZED, description = "No valid token.", body = ErrorBody),
        (status = FORBIDDEN, description = "Not a setter or admin.", body = ErrorBody),
        (status = NOT_FOUND, description = "No such submission.", body = ErrorBody),
        (status = CONFLICT, description = "It is waiting to be judged already.", body = ErrorBody),
    )
)]
pub async fn rejudge(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath(id): ApiPath<SubmissionId>,
) -> Result<impl IntoResponse, ApiError> {
    requeue_submission(&state, &caller, &id).await?;
    Ok(queued(id))
}

/// Queues one submission again, the one path for the API and the web UI:
/// staff only (403), an existing submission (404), not one already waiting
/// (409).
pub async fn requeue_submission(
    state: &AppState,
    caller: &Caller,
    id: &SubmissionId,
) -> Result<(), ApiError> {
    caller.require_staff()?;
    match state.store.rejudge(id, caller.name()).await? {
        RejudgeOutcome::Queued => {
            state.signals.job_added();
            Ok(())
        }
        RejudgeOutcome::NotFound => Err(ApiError::NotFound(format!("no submission `{id}`"))),
        RejudgeOutcome::Pending => Err(ApiError::Conflict(format!(
            "submission `{id}` is already waiting to be judged"
        ))),
    }
}
