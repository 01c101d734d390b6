//! Submissions: contestants submit and read their own; setters and admins
//! read every one and rejudge.

use std::{collections::BTreeMap, time::Duration};

use axum::{
    Json,
    extract::State,
    http::{StatusCode, header},
    response::IntoResponse,
};
use serde::Deserialize;
use serde_json::{Value, json};
use tokio::sync::broadcast::error::RecvError;

use super::{
    ApiError, ApiJson, ApiPath, ApiQuery, AppState, auth::Caller, problems::validate_input,
};
use crate::store::{
    ListFilter, NewSubmission, RejudgeOutcome, SubmissionRow, SubmissionState, Verdict,
};

/// The body of `POST /api/submissions`: `answers`, or `input` and `output`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SubmitBody {
    pub problem: String,
    pub answers: Option<BTreeMap<String, String>>,
    pub input: Option<String>,
    pub output: Option<String>,
}

/// `POST /api/submissions`: validate and insert; workers judge.
pub async fn create(
    State(state): State<AppState>,
    caller: Caller,
    ApiJson(body): ApiJson<SubmitBody>,
) -> Result<impl IntoResponse, ApiError> {
    let store = state.judge.store();
    if store.problem(&body.problem).await?.is_none() {
        return Err(ApiError::Unprocessable(format!(
            "unknown problem `{}`",
            body.problem
        )));
    }
    let (kind, payload) = match (body.answers, body.input, body.output) {
        (Some(answers), None, None) => {
            let public: Vec<String> = store
                .testcases(&body.problem, false)
                .await?
                .into_iter()
                .map(|t| t.name)
                .collect();
            let unknown: Vec<&str> = answers
                .keys()
                .filter(|name| !public.contains(name))
                .map(String::as_str)
                .collect();
            if !unknown.is_empty() {
                return Err(ApiError::Unprocessable(format!(
                    "problem `{}` has no public testcase named {}",
                    body.problem,
                    unknown.join(", ")
                )));
            }
            ("answers", json!({ "answers": answers }))
        }
        (None, Some(input), Some(output)) => {
            validate_input(&body.problem, input.clone()).await?;
            ("custom", json!({ "input": input, "output": output }))
        }
        _ => {
            return Err(ApiError::Unprocessable(
                "give either `answers` (testcase name → output) or both `input` and `output`"
                    .into(),
            ));
        }
    };
    let row = store
        .insert_submission(&NewSubmission {
            problem_id: &body.problem,
            user_name: caller.name(),
            kind,
            payload: payload.to_string(),
        })
        .await?;
    state.judge.job_added();
    let url = format!("/api/submissions/{}", row.id);
    Ok((
        StatusCode::ACCEPTED,
        [(header::LOCATION, url.clone())],
        Json(json!({ "id": row.id, "url": url, "state": row.state })),
    ))
}

/// Query of `GET /api/submissions/{id}`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ShowQuery {
    /// Wait up to this long for the verdict before answering.
    pub wait_ms: Option<u64>,
}

async fn visible_submission(
    state: &AppState,
    caller: &Caller,
    id: &str,
) -> Result<SubmissionRow, ApiError> {
    let row = state
        .judge
        .store()
        .submission(id)
        .await?
        .ok_or_else(|| ApiError::NotFound(format!("no submission `{id}`")))?;
    if !caller.role().is_staff() && row.user != caller.name() {
        return Err(ApiError::Forbidden(
            "contestants may only read their own submissions".into(),
        ));
    }
    Ok(row)
}

/// `GET /api/submissions/{id}[?wait_ms=N]`: the submission, the results of
/// its latest judgement, every judgement, and its event log.
pub async fn show(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath(id): ApiPath<String>,
    ApiQuery(query): ApiQuery<ShowQuery>,
) -> Result<Json<Value>, ApiError> {
    // Subscribe before reading, so a verdict written in between is not missed.
    let mut judged = state.judge.subscribe();
    let mut row = visible_submission(&state, &caller, &id).await?;
    let wait = Duration::from_millis(query.wait_ms.unwrap_or(0)).min(state.max_wait);
    let deadline = tokio::time::Instant::now() + wait;
    while row.state != SubmissionState::Done && tokio::time::Instant::now() < deadline {
        let recheck = tokio::select! {
            () = state.shutdown.cancelled() => false,
            () = tokio::time::sleep_until(deadline) => false,
            seen = next_match(&mut judged, &id) => seen,
        };
        if !recheck {
            break;
        }
        row = visible_submission(&state, &caller, &id).await?;
    }
    let store = state.judge.store();
    let mut judgements = store.judgements(&id).await?;
    if !caller.role().is_staff() {
        // Contestants never see details of hidden testcases.
        for result in judgements.iter_mut().flat_map(|j| j.results.iter_mut()) {
            if result.hidden {
                result.message = None;
            }
        }
    }
    let results = judgements
        .last()
        .map(|j| j.results.clone())
        .unwrap_or_default();
    let events = store.events(&id).await?;
    Ok(Json(json!({
        "submission": row,
        "results": results,
        "judgements": judgements,
        "events": events,
    })))
}

/// Resolves when `id` is judged, or when messages were lost (so the caller
/// must look again). Returns false if the channel closed.
async fn next_match(judged: &mut tokio::sync::broadcast::Receiver<String>, id: &str) -> bool {
    loop {
        match judged.recv().await {
            Ok(seen) if seen == id => return true,
            Ok(_) => {}
            Err(RecvError::Lagged(_)) => return true,
            Err(RecvError::Closed) => {
                // Nothing more will come; wait out the deadline instead.
                std::future::pending::<()>().await;
            }
        }
    }
}

/// Query of `GET /api/submissions`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ListQuery {
    pub problem: Option<String>,
    pub verdict: Option<Verdict>,
    pub user: Option<String>,
    /// Unix milliseconds: only submissions created at or after it.
    pub since: Option<i64>,
    /// Page size, 1 to 500 (default 50).
    pub limit: Option<i64>,
    /// `next_cursor` of the previous page.
    pub cursor: Option<String>,
}

/// `GET /api/submissions`: newest first, filtered, one page at a time.
pub async fn list(
    State(state): State<AppState>,
    caller: Caller,
    ApiQuery(query): ApiQuery<ListQuery>,
) -> Result<Json<Value>, ApiError> {
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
    let before = query
        .cursor
        .map(|c| {
            c.parse::<i64>()
                .map_err(|_| ApiError::Unprocessable(format!("invalid cursor `{c}`")))
        })
        .transpose()?;
    let rows = state
        .judge
        .store()
        .list_submissions(&ListFilter {
            problem: query.problem,
            verdict: query.verdict,
            user,
            since: query.since,
            before,
            limit,
        })
        .await?;
    let next_cursor = if rows.len() as i64 == limit {
        rows.last().map(|r| r.seq.to_string())
    } else {
        None
    };
    Ok(Json(
        json!({ "submissions": rows, "next_cursor": next_cursor }),
    ))
}

/// `POST /api/submissions/{id}/rejudge`: a new judgement; old ones stay.
pub async fn rejudge(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath(id): ApiPath<String>,
) -> Result<impl IntoResponse, ApiError> {
    caller.require_staff()?;
    match state.judge.store().rejudge(&id, caller.name()).await? {
        RejudgeOutcome::Queued => {
            state.judge.job_added();
            Ok((
                StatusCode::ACCEPTED,
                Json(
                    json!({ "id": id, "url": format!("/api/submissions/{id}"), "state": "queued" }),
                ),
            ))
        }
        RejudgeOutcome::NotFound => Err(ApiError::NotFound(format!("no submission `{id}`"))),
        RejudgeOutcome::Pending => Err(ApiError::Conflict(format!(
            "submission `{id}` is already waiting to be judged"
        ))),
    }
}
