//! Submissions over HTTP: the routes of [`crate::app::submissions`].

use std::time::Duration;

use axum::{
    Json,
    extract::State,
    http::{HeaderMap, StatusCode, header},
    response::{IntoResponse, Response},
};
use utoipa_axum::{router::OpenApiRouter, routes};

use super::{ApiError, ApiJson, ApiPath, ApiQuery, AppState, auth::Caller, idempotency};
use crate::{
    api::{
        ErrorBody, ListQuery, Queued, ShowQuery, SubmissionDocument, SubmissionPage, SubmitRequest,
    },
    app::submissions::Submitted,
    domain::{Submission, SubmissionId, SubmissionState, Verdict},
    store::{ListFilter, SubmissionRecord},
};

/// This module's routes, each with its OpenAPI operation.
pub(super) fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list, create))
        .routes(routes!(show))
        .routes(routes!(rejudge))
}

/// The `202 Accepted` answer for a queued submission.
fn queued(id: SubmissionId) -> impl IntoResponse {
    accepted(id, SubmissionState::Queued, None)
}

/// The `202 Accepted` answer for a submission stored as `state` (with its
/// verdict, when a retry finds it judged).
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
        (status = ACCEPTED, description = "Stored and queued; a retry with the same Idempotency-Key answers the first submission, in its state now (done with its verdict once judged).", body = Queued,
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
    Ok(match state.app.submit(&caller, key, body).await? {
        Submitted::Stored(row) => accepted(row.id, row.state, row.verdict).into_response(),
        Submitted::Replayed(first) => replayed(&first),
    })
}

/// The `200 OK` answer to a retried submission: the first one, as it is now.
fn replayed(submission: &Submission) -> Response {
    let id = submission.id;
    let url = format!("/api/submissions/{id}");
    (
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
        .into_response()
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
    let wait = Duration::from_millis(query.wait_ms.unwrap_or(0));
    let record = state.app.record_when_judged(&caller, &id, wait).await?;
    let content = state.app.submitted_content(&caller, &id).await?;
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
        content,
    }))
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
        (status = UNPROCESSABLE_ENTITY, description = "A limit out of range, an invalid cursor or an unknown problem.", body = ErrorBody),
    )
)]
pub async fn list(
    State(state): State<AppState>,
    caller: Caller,
    ApiQuery(query): ApiQuery<ListQuery>,
) -> Result<Json<SubmissionPage>, ApiError> {
    let before = query.cursor.as_deref().map(parse_cursor).transpose()?;
    let page = state
        .app
        .list_submissions(
            &caller,
            ListFilter {
                problem: query.problem,
                verdict: query.verdict,
                user: query.user,
                since: query.since,
                before,
                limit: query.limit.unwrap_or(50),
                contest: query.contest,
                changed_since: None,
            },
        )
        .await?;
    Ok(Json(SubmissionPage {
        submissions: page.submissions,
        next_cursor: page.next_cursor.map(|c| c.to_string()),
    }))
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
    state.app.requeue_submission(&caller, &id).await?;
    Ok(queued(id))
}
