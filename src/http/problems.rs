//! Problems and testcases: everyone reads public ones; setters and admins
//! see hidden ones, add, delete and rejudge.

use axum::{
    Json,
    extract::State,
    http::{StatusCode, header},
    response::IntoResponse,
};
use serde::Deserialize;
use serde_json::{Value, json};

use super::{ApiError, ApiJson, ApiPath, AppState, auth::Caller};
use crate::{catalog::valid_name, solver, store::ProblemRow};

async fn existing_problem(state: &AppState, id: &str) -> Result<ProblemRow, ApiError> {
    state
        .judge
        .store()
        .problem(id)
        .await?
        .ok_or_else(|| ApiError::NotFound(format!("no problem `{id}`")))
}

/// Validates an input with the problem's validator, on the blocking pool.
/// `Err` carries the validator's message as a 422.
pub(super) async fn validate_input(problem: &str, input: String) -> Result<(), ApiError> {
    let Some(solver) = solver::find(problem) else {
        return Err(ApiError::Unprocessable(format!(
            "problem `{problem}` has no validator"
        )));
    };
    tokio::task::spawn_blocking(move || solver.validate(&input))
        .await?
        .map_err(|e| ApiError::Unprocessable(format!("invalid input: {e}")))
}

/// `GET /api/problems`
pub async fn list(State(state): State<AppState>, _caller: Caller) -> Result<Json<Value>, ApiError> {
    let problems = state.judge.store().problems().await?;
    Ok(Json(json!({ "problems": problems })))
}

/// `GET /api/problems/{id}`: the problem, its statement and visible testcases.
pub async fn show(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath(id): ApiPath<String>,
) -> Result<Json<Value>, ApiError> {
    let problem = existing_problem(&state, &id).await?;
    let testcases = state
        .judge
        .store()
        .testcases(&id, caller.role().is_staff())
        .await?;
    Ok(Json(json!({ "problem": problem, "testcases": testcases })))
}

/// `GET /api/problems/{id}/testcases`: contestants see public ones only.
pub async fn testcases(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath(id): ApiPath<String>,
) -> Result<Json<Value>, ApiError> {
    existing_problem(&state, &id).await?;
    let testcases = state
        .judge
        .store()
        .testcases(&id, caller.role().is_staff())
        .await?;
    Ok(Json(json!({ "testcases": testcases })))
}

/// `GET /api/problems/{id}/testcases/{name}/input`: the input as text.
pub async fn input(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath((id, name)): ApiPath<(String, String)>,
) -> Result<impl IntoResponse, ApiError> {
    let (testcase, input) = state
        .judge
        .store()
        .testcase(&id, &name)
        .await?
        .ok_or_else(|| ApiError::NotFound(format!("problem `{id}` has no testcase `{name}`")))?;
    if testcase.hidden && !caller.role().is_staff() {
        return Err(ApiError::Forbidden(format!("testcase `{name}` is hidden")));
    }
    Ok(([(header::CONTENT_TYPE, "text/plain; charset=utf-8")], input))
}

/// The body of `POST /api/problems/{id}/testcases`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewTestcase {
    pub name: String,
    pub input: String,
    #[serde(default)]
    pub hidden: bool,
}

/// `POST /api/problems/{id}/testcases`: validate, store, queue the reference.
pub async fn add_testcase(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath(id): ApiPath<String>,
    ApiJson(body): ApiJson<NewTestcase>,
) -> Result<impl IntoResponse, ApiError> {
    caller.require_staff()?;
    existing_problem(&state, &id).await?;
    if !valid_name(&body.name) {
        return Err(ApiError::Unprocessable(format!(
            "testcase name `{}` must match [a-z0-9][a-z0-9-]* (at most 64 characters)",
            body.name
        )));
    }
    validate_input(&id, body.input.clone()).await?;
    let added = state
        .judge
        .store()
        .add_testcase(&id, &body.name, &body.input, body.hidden, caller.name())
        .await?;
    if !added {
        return Err(ApiError::Conflict(format!(
            "problem `{id}` already has a testcase `{}`",
            body.name
        )));
    }
    // A worker computes the reference output.
    state.judge.job_added();
    let url = format!("/api/problems/{id}/testcases/{}/input", body.name);
    Ok((
        StatusCode::CREATED,
        Json(json!({ "name": body.name, "hidden": body.hidden, "status": "pending", "url": url })),
    ))
}

/// `DELETE /api/problems/{id}/testcases/{name}`
pub async fn delete_testcase(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath((id, name)): ApiPath<(String, String)>,
) -> Result<StatusCode, ApiError> {
    caller.require_staff()?;
    if state.judge.store().delete_testcase(&id, &name).await? {
        Ok(StatusCode::NO_CONTENT)
    } else {
        Err(ApiError::NotFound(format!(
            "problem `{id}` has no testcase `{name}`"
        )))
    }
}

/// `POST /api/problems/{id}/rejudge`: queue every judged submission again.
pub async fn rejudge(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath(id): ApiPath<String>,
) -> Result<impl IntoResponse, ApiError> {
    caller.require_staff()?;
    existing_problem(&state, &id).await?;
    let queued = state
        .judge
        .store()
        .rejudge_problem(&id, caller.name())
        .await?;
    for _ in 0..queued.min(64) {
        state.judge.job_added();
    }
    Ok((StatusCode::ACCEPTED, Json(json!({ "queued": queued }))))
}
