//! Operations: health, Prometheus metrics, the OpenAPI document, and token
//! creation for admins. Health, metrics and the OpenAPI document need no
//! token, so probes and scrapers work without secrets.

use std::fmt::Write as _;

use axum::{
    Json,
    extract::State,
    http::{StatusCode, header},
    response::IntoResponse,
};
use serde::Deserialize;
use serde_json::{Value, json};

use super::{ApiError, ApiJson, AppState, auth::Caller};
use crate::store::{Role, Verdict};

/// `GET /api/health`: 200 if the database answers.
pub async fn health(State(state): State<AppState>) -> Result<Json<Value>, ApiError> {
    let (queued, running) = state.judge.store().queue_depth().await?;
    Ok(Json(
        json!({ "status": "ok", "queued": queued, "running": running }),
    ))
}

/// `GET /metrics`: Prometheus text format.
pub async fn metrics(State(state): State<AppState>) -> Result<impl IntoResponse, ApiError> {
    let store = state.judge.store();
    let (queued, running) = store.queue_depth().await?;
    let counts = store.verdict_counts().await?;
    let mut out = String::new();
    let _ = writeln!(
        out,
        "# HELP nimjudge_queue_depth Submissions waiting or being judged."
    );
    let _ = writeln!(out, "# TYPE nimjudge_queue_depth gauge");
    let _ = writeln!(out, "nimjudge_queue_depth{{state=\"queued\"}} {queued}");
    let _ = writeln!(out, "nimjudge_queue_depth{{state=\"running\"}} {running}");
    let _ = writeln!(
        out,
        "# HELP nimjudge_judgements_total Judgements recorded, by verdict."
    );
    let _ = writeln!(out, "# TYPE nimjudge_judgements_total counter");
    for verdict in Verdict::ALL {
        let n = counts
            .iter()
            .find(|(v, _)| *v == verdict)
            .map_or(0, |(_, n)| *n);
        let _ = writeln!(
            out,
            "nimjudge_judgements_total{{verdict=\"{verdict}\"}} {n}"
        );
    }
    state.judge.latency().render(
        "nimjudge_submit_to_verdict_seconds",
        "Time from submission (or rejudge) to verdict, judged by this process.",
        &mut out,
    );
    Ok((
        [(
            header::CONTENT_TYPE,
            "text/plain; version=0.0.4; charset=utf-8",
        )],
        out,
    ))
}

/// The body of `POST /api/tokens`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewToken {
    pub name: String,
    pub role: Role,
}

/// `POST /api/tokens`: admins create tokens; the secret is shown once.
pub async fn create_token(
    State(state): State<AppState>,
    caller: Caller,
    ApiJson(body): ApiJson<NewToken>,
) -> Result<impl IntoResponse, ApiError> {
    caller.require_admin()?;
    let name = body.name.trim();
    if name.is_empty() || name.len() > 64 {
        return Err(ApiError::Unprocessable(
            "name must be 1 to 64 characters".into(),
        ));
    }
    let token = state.judge.store().create_token(name, body.role).await?;
    Ok((
        StatusCode::CREATED,
        Json(json!({ "name": name, "role": body.role, "token": token })),
    ))
}

/// Every endpoint: method, path, who may call it, and what it does.
pub const ENDPOINTS: [(&str, &str, &str, &str); 15] = [
    (
        "get",
        "/api/health",
        "anyone",
        "Health check: the database answers; queue depth.",
    ),
    (
        "get",
        "/metrics",
        "anyone",
        "Prometheus metrics: queue depth, judgements by verdict, submit-to-verdict latency.",
    ),
    ("get", "/api/openapi.json", "anyone", "This document."),
    (
        "post",
        "/api/tokens",
        "admin",
        "Create a token {name, role}; the secret is returned once.",
    ),
    ("get", "/api/problems", "any role", "List problems."),
    (
        "get",
        "/api/problems/{id}",
        "any role",
        "A problem, its statement and visible testcases.",
    ),
    (
        "get",
        "/api/problems/{id}/testcases",
        "any role",
        "Testcases with reference status; contestants see public ones only.",
    ),
    (
        "post",
        "/api/problems/{id}/testcases",
        "setter, admin",
        "Add a testcase {name, input, hidden}; the input is validated (422 with the validator's message).",
    ),
    (
        "delete",
        "/api/problems/{id}/testcases/{name}",
        "setter, admin",
        "Delete a testcase.",
    ),
    (
        "get",
        "/api/problems/{id}/testcases/{name}/input",
        "any role (hidden: setter, admin)",
        "The testcase input as text.",
    ),
    (
        "post",
        "/api/problems/{id}/rejudge",
        "setter, admin",
        "Rejudge every judged submission of the problem.",
    ),
    (
        "post",
        "/api/submissions",
        "any role",
        "Submit {problem, answers: {testcase: output}} or {problem, input, output}; 202 with id and url.",
    ),
    (
        "get",
        "/api/submissions",
        "any role (contestants: own)",
        "List submissions, newest first: ?problem=&verdict=&user=&since=&limit=&cursor=.",
    ),
    (
        "get",
        "/api/submissions/{id}",
        "any role (contestants: own)",
        "A submission with results, judgements and events; ?wait_ms= waits for the verdict.",
    ),
    (
        "post",
        "/api/submissions/{id}/rejudge",
        "setter, admin",
        "Rejudge one submission; earlier judgements stay.",
    ),
];

/// `GET /api/openapi.json`
pub async fn openapi() -> Json<Value> {
    let mut paths = serde_json::Map::new();
    for (method, path, who, summary) in ENDPOINTS {
        let public = who == "anyone";
        let parameters: Vec<Value> = path
            .split('/')
            .filter_map(|seg| seg.strip_prefix('{')?.strip_suffix('}'))
            .map(|name| json!({ "name": name, "in": "path", "required": true, "schema": { "type": "string" } }))
            .collect();
        let mut operation = json!({
            "summary": summary,
            "description": format!("Allowed: {who}."),
            "parameters": parameters,
            "responses": {
                "200": { "description": "Success (201 when created, 202 when queued, 204 when deleted)." },
                "4XX": { "description": "Client error: {\"error\": \"...\"}", "content": { "application/json": { "schema": { "$ref": "#/components/schemas/Error" } } } }
            }
        });
        if public && let Some(op) = operation.as_object_mut() {
            op.insert("security".into(), json!([]));
        }
        if let Some(entry) = paths
            .entry(path.to_string())
            .or_insert_with(|| json!({}))
            .as_object_mut()
        {
            entry.insert(method.to_string(), operation);
        }
    }
    Json(json!({
        "openapi": "3.0.3",
        "info": { "title": "nimjudge", "version": env!("CARGO_PKG_VERSION") },
        "paths": paths,
        "security": [{ "bearer": [] }],
        "components": {
            "securitySchemes": { "bearer": { "type": "http", "scheme": "bearer" } },
            "schemas": { "Error": { "type": "object", "properties": { "error": { "type": "string" } }, "required": ["error"] } }
        }
    }))
}
