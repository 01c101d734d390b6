//! Problems and testcases: everyone reads public ones; setters and admins
//! see hidden ones, add, delete and rejudge.

use axum::{
    Json,
    extract::State,
    http::{StatusCode, header},
    response::IntoResponse,
};

use super::{ApiError, ApiJson, ApiPath, AppState, auth::Caller};
use crate::{
    api::{
        ErrorBody, NewTestcase, ProblemDocument, ProblemList, RejudgeCount, TestcaseCreated,
        TestcaseList, TestcaseVisibility,
    },
    domain::{Problem, ProblemId, ReferenceStatus, TestcaseName},
    solver,
    store::TestcaseChange,
};

async fn existing_problem(state: &AppState, id: &ProblemId) -> Result<Problem, ApiError> {
    state
        .store
        .problem(id)
        .await?
        .ok_or_else(|| ApiError::NotFound(format!("no problem `{id}`")))
}

/// Validates an input with the problem's validator, on the blocking pool.
/// `Err` carries the validator's message as a 422.
pub(super) async fn validate_input(problem: &ProblemId, input: String) -> Result<(), ApiError> {
    let Some(solver) = solver::find(problem.as_str()) else {
        return Err(ApiError::Unprocessable(format!(
            "problem `{problem}` has no validator"
        )));
    };
    tokio::task::spawn_blocking(move || solver.validate(&input))
        .await?
        .map_err(|e| ApiError::Unprocessable(format!("invalid input: {e}")))
}

/// List problems.
#[utoipa::path(
    get,
    path = "/api/problems",
    operation_id = "list_problems",
    tag = "problems",
    responses(
        (status = OK, description = "Every problem, by id, without statements.", body = ProblemList),
        (status = UNAUTHORIZED, description = "No valid token.", body = ErrorBody),
    )
)]
pub async fn list(
    State(state): State<AppState>,
    _caller: Caller,
) -> Result<Json<ProblemList>, ApiError> {
    let problems = state.store.problems().await?;
    Ok(Json(ProblemList { problems }))
}

/// A problem, its statement and the testcases the caller may see.
#[utoipa::path(
    get,
    path = "/api/problems/{id}",
    operation_id = "show_problem",
    tag = "problems",
    params(("id" = ProblemId, Path, description = "Problem id")),
    responses(
        (status = OK, description = "The problem.", body = ProblemDocument),
        (status = UNAUTHORIZED, description = "No valid token.", body = ErrorBody),
        (status = NOT_FOUND, description = "No such problem.", body = ErrorBody),
    )
)]
pub async fn show(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath(id): ApiPath<ProblemId>,
) -> Result<Json<ProblemDocument>, ApiError> {
    let problem = existing_problem(&state, &id).await?;
    let testcases = state.store.testcases(&id, caller.role().is_staff()).await?;
    Ok(Json(ProblemDocument { problem, testcases }))
}

/// Testcases with the state of their reference outputs; contestants see
/// public ones only.
#[utoipa::path(
    get,
    path = "/api/problems/{id}/testcases",
    operation_id = "list_testcases",
    tag = "problems",
    params(("id" = ProblemId, Path, description = "Problem id")),
    responses(
        (status = OK, description = "The testcases, by name.", body = TestcaseList),
        (status = UNAUTHORIZED, description = "No valid token.", body = ErrorBody),
        (status = NOT_FOUND, description = "No such problem.", body = ErrorBody),
    )
)]
pub async fn testcases(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath(id): ApiPath<ProblemId>,
) -> Result<Json<TestcaseList>, ApiError> {
    existing_problem(&state, &id).await?;
    let testcases = state.store.testcases(&id, caller.role().is_staff()).await?;
    Ok(Json(TestcaseList { testcases }))
}

/// A testcase's input as text. Hidden inputs: setters and admins only; to
/// contestants a hidden testcase answers 404, as one that does not exist.
#[utoipa::path(
    get,
    path = "/api/problems/{id}/testcases/{name}/input",
    operation_id = "show_testcase_input",
    tag = "problems",
    params(
        ("id" = ProblemId, Path, description = "Problem id"),
        ("name" = TestcaseName, Path, description = "Testcase name"),
    ),
    responses(
        (status = OK, description = "The input.", body = String, content_type = "text/plain; charset=utf-8"),
        (status = UNAUTHORIZED, description = "No valid token.", body = ErrorBody),
        (status = NOT_FOUND, description = "No such problem or testcase, or (to a contestant) a hidden testcase.", body = ErrorBody),
    )
)]
pub async fn input(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath((id, name)): ApiPath<(ProblemId, TestcaseName)>,
) -> Result<impl IntoResponse, ApiError> {
    // To a contestant a hidden testcase does not exist: the same 404 as a
    // name that is not there, so its existence is not revealed either.
    match state.store.testcase(&id, &name).await? {
        Some((testcase, input)) if !testcase.hidden || caller.role().is_staff() => {
            Ok(([(header::CONTENT_TYPE, "text/plain; charset=utf-8")], input))
        }
        _ => Err(ApiError::NotFound(format!(
            "problem `{id}` has no testcase `{name}`"
        ))),
    }
}

/// Add a testcase (setters and admins). The input is validated first; its
/// reference output is computed by a worker.
#[utoipa::path(
    post,
    path = "/api/problems/{id}/testcases",
    tag = "problems",
    params(("id" = ProblemId, Path, description = "Problem id")),
    request_body = NewTestcase,
    responses(
        (status = CREATED, description = "Stored; the reference is pending.", body = TestcaseCreated),
        (status = BAD_REQUEST, description = "Malformed JSON.", body = ErrorBody),
        (status = UNAUTHORIZED, description = "No valid token.", body = ErrorBody),
        (status = FORBIDDEN, description = "Not a setter or admin.", body = ErrorBody),
        (status = NOT_FOUND, description = "No such problem.", body = ErrorBody),
        (status = CONFLICT, description = "The name is taken.", body = ErrorBody),
        (status = PAYLOAD_TOO_LARGE, description = "Body too large.", body = ErrorBody),
        (status = UNSUPPORTED_MEDIA_TYPE, description = "Not JSON.", body = ErrorBody),
        (status = UNPROCESSABLE_ENTITY, description = "An invalid name, or an input the validator rejects (its message names line, token and constraint).", body = ErrorBody),
    )
)]
pub async fn add_testcase(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath(id): ApiPath<ProblemId>,
    ApiJson(body): ApiJson<NewTestcase>,
) -> Result<(StatusCode, Json<TestcaseCreated>), ApiError> {
    let created = store_testcase(&state, &caller, &id, body).await?;
    Ok((StatusCode::CREATED, Json(created)))
}

/// Adds a setter's testcase, the one path for the API and the web UI:
/// staff only (403), an existing problem (404), an input the validator
/// accepts (422 quoting it), a free name (409). A worker then computes the
/// reference output.
pub async fn store_testcase(
    state: &AppState,
    caller: &Caller,
    id: &ProblemId,
    body: NewTestcase,
) -> Result<TestcaseCreated, ApiError> {
    caller.require_staff()?;
    existing_problem(state, id).await?;
    validate_input(id, body.input.clone()).await?;
    let added = state
        .store
        .add_testcase(id, &body.name, &body.input, body.hidden, caller.name())
        .await?;
    if !added {
        return Err(ApiError::Conflict(format!(
            "problem `{id}` already has a testcase `{}`",
            body.name
        )));
    }
    // A worker computes the reference output.
    state.signals.job_added();
    let url = format!("/api/problems/{id}/testcases/{}/input", body.name);
    Ok(TestcaseCreated {
        name: body.name,
        hidden: body.hidden,
        status: ReferenceStatus::Pending,
        url,
    })
}

/// Delete a testcase a setter added (setters and admins). A testcase from
/// the problem folder (a sample or a generated one) is refused with 409:
/// remove it from `problem.toml` instead.
#[utoipa::path(
    delete,
    path = "/api/problems/{id}/testcases/{name}",
    tag = "problems",
    params(
        ("id" = ProblemId, Path, description = "Problem id"),
        ("name" = TestcaseName, Path, description = "Testcase name"),
    ),
    responses(
        (status = NO_CONTENT, description = "Deleted."),
        (status = UNAUTHORIZED, description = "No valid token.", body = ErrorBody),
        (status = FORBIDDEN, description = "Not a setter or admin.", body = ErrorBody),
        (status = NOT_FOUND, description = "No such problem or testcase.", body = ErrorBody),
        (status = CONFLICT, description = "The testcase comes from the problem folder.", body = ErrorBody),
    )
)]
pub async fn delete_testcase(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath((id, name)): ApiPath<(ProblemId, TestcaseName)>,
) -> Result<StatusCode, ApiError> {
    remove_testcase(&state, &caller, &id, &name).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// Hide a testcase a setter added from contestants, or show it (setters
/// and admins). Verdicts already given stay until a rejudge. A testcase
/// from the problem folder is refused with 409, as for deletion.
#[utoipa::path(
    patch,
    path = "/api/problems/{id}/testcases/{name}",
    tag = "problems",
    params(
        ("id" = ProblemId, Path, description = "Problem id"),
        ("name" = TestcaseName, Path, description = "Testcase name"),
    ),
    request_body = TestcaseVisibility,
    responses(
        (status = NO_CONTENT, description = "Changed (or already so)."),
        (status = UNAUTHORIZED, description = "No valid token.", body = ErrorBody),
        (status = FORBIDDEN, description = "Not a setter or admin.", body = ErrorBody),
        (status = NOT_FOUND, description = "No such problem or testcase.", body = ErrorBody),
        (status = CONFLICT, description = "The testcase comes from the problem folder.", body = ErrorBody),
        (status = UNSUPPORTED_MEDIA_TYPE, description = "Not JSON.", body = ErrorBody),
        (status = UNPROCESSABLE_ENTITY, description = "A body without a boolean `hidden`.", body = ErrorBody),
    )
)]
pub async fn set_testcase_visibility(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath((id, name)): ApiPath<(ProblemId, TestcaseName)>,
    ApiJson(body): ApiJson<TestcaseVisibility>,
) -> Result<StatusCode, ApiError> {
    change_visibility(&state, &caller, &id, &name, body.hidden).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// Hides or shows a setter's testcase, the one path for the API and the web
/// UI, with the same refusals as [`remove_testcase`].
pub async fn change_visibility(
    state: &AppState,
    caller: &Caller,
    id: &ProblemId,
    name: &TestcaseName,
    hidden: bool,
) -> Result<(), ApiError> {
    caller.require_staff()?;
    let change = state.store.set_testcase_hidden(id, name, hidden).await?;
    setter_change(change, id, name, "change it")
}

/// Deletes a setter's testcase, the one path for the API and the web UI:
/// staff only (403), an existing testcase (404), and never one from the
/// problem folder (409, saying to remove it from `problem.toml`).
pub async fn remove_testcase(
    state: &AppState,
    caller: &Caller,
    id: &ProblemId,
    name: &TestcaseName,
) -> Result<(), ApiError> {
    caller.require_staff()?;
    let change = state.store.delete_testcase(id, name).await?;
    setter_change(change, id, name, "remove it")
}

/// A setter's change to a testcase as the API answers it: 404 for a missing
/// one, 409 for one from the problem folder, saying to `what` there.
fn setter_change(
    change: TestcaseChange,
    id: &ProblemId,
    name: &TestcaseName,
    what: &str,
) -> Result<(), ApiError> {
    match change {
        TestcaseChange::Done => Ok(()),
        TestcaseChange::Missing => Err(ApiError::NotFound(format!(
            "problem `{id}` has no testcase `{name}`"
        ))),
        TestcaseChange::Bundled(origin) => Err(ApiError::Conflict(format!(
            "testcase `{name}` is a {origin} testcase from problems/{id}/problem.toml; \
             {what} there (the next start syncs the change), not through the API"
        ))),
    }
}

/// Rejudge every judged submission of the problem (setters and admins).
#[utoipa::path(
    post,
    path = "/api/problems/{id}/rejudge",
    operation_id = "rejudge_problem",
    tag = "problems",
    params(("id" = ProblemId, Path, description = "Problem id")),
    responses(
        (status = ACCEPTED, description = "Queued again.", body = RejudgeCount),
        (status = UNAUTHORIZED, description = "No valid token.", body = ErrorBody),
        (status = FORBIDDEN, description = "Not a setter or admin.", body = ErrorBody),
        (status = NOT_FOUND, description = "No such problem.", body = ErrorBody),
    )
)]
pub async fn rejudge(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath(id): ApiPath<ProblemId>,
) -> Result<(StatusCode, Json<RejudgeCount>), ApiError> {
    let queued = requeue_problem(&state, &caller, &id).await?;
    Ok((StatusCode::ACCEPTED, Json(RejudgeCount { queued })))
}

/// Queues every judged submission of a problem again, the one path for the
/// API and the web UI: staff only (403), an existing problem (404). Returns
/// how many were queued.
pub async fn requeue_problem(
    state: &AppState,
    caller: &Caller,
    id: &ProblemId,
) -> Result<u64, ApiError> {
    caller.require_staff()?;
    existing_problem(state, id).await?;
    let queued = state.store.rejudge_problem(id, caller.name()).await?;
    for _ in 0..queued.min(64) {
        state.signals.job_added();
    }
    Ok(queued)
}
