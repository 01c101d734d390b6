//! Operations: health, Prometheus metrics, and token creation for admins.
//! Health, metrics and the OpenAPI document need no token, so probes and
//! scrapers work without secrets.

use axum::{
    Json,
    extract::State,
    http::{StatusCode, header},
    response::IntoResponse,
};

use super::{ApiError, ApiJson, AppState, auth::Caller};
use crate::{
    api::{ErrorBody, Health, NewToken, TokenCreated},
    domain::{MAX_NAME_LEN, is_user_name},
    telemetry::QueueSnapshot,
};

/// Health check: the database answers; queue depth.
#[utoipa::path(
    get,
    path = "/api/health",
    tag = "operations",
    security(()),
    responses(
        (status = OK, description = "The database answers.", body = Health),
        (status = INTERNAL_SERVER_ERROR, description = "The database does not answer.", body = ErrorBody),
    )
)]
pub async fn health(State(state): State<AppState>) -> Result<Json<Health>, ApiError> {
    let (queued, running) = state.store.queue_depth().await?;
    Ok(Json(Health {
        status: "ok".into(),
        queued,
        running,
    }))
}

/// Prometheus metrics: queue depth, judgements by verdict, submit-to-verdict
/// latency (OpenMetrics text).
#[utoipa::path(
    get,
    path = "/metrics",
    tag = "operations",
    security(()),
    responses(
        (status = OK, description = "Metrics in the OpenMetrics text format.", body = String,
            content_type = "application/openmetrics-text; version=1.0.0; charset=utf-8"),
        (status = INTERNAL_SERVER_ERROR, description = "The database does not answer.", body = ErrorBody),
    )
)]
pub async fn metrics(State(state): State<AppState>) -> Result<impl IntoResponse, ApiError> {
    let (queued, running) = state.store.queue_depth().await?;
    let judgements = state.store.verdict_counts().await?;
    let text = state
        .metrics
        .render(QueueSnapshot {
            queued,
            running,
            judgements,
        })
        .map_err(|e| ApiError::Internal(format!("cannot encode the metrics: {e}")))?;
    Ok((
        [(
            header::CONTENT_TYPE,
            "application/openmetrics-text; version=1.0.0; charset=utf-8",
        )],
        text,
    ))
}

/// Create a token (admins only); the secret is returned this once.
#[utoipa::path(
    post,
    path = "/api/tokens",
    tag = "operations",
    request_body = NewToken,
    responses(
        (status = CREATED, description = "Created.", body = TokenCreated),
        (status = BAD_REQUEST, description = "Malformed JSON.", body = ErrorBody),
        (status = UNAUTHORIZED, description = "No valid token.", body = ErrorBody),
        (status = FORBIDDEN, description = "Not an admin.", body = ErrorBody),
        (status = PAYLOAD_TOO_LARGE, description = "Body too large.", body = ErrorBody),
        (status = UNSUPPORTED_MEDIA_TYPE, description = "Not JSON.", body = ErrorBody),
        (status = UNPROCESSABLE_ENTITY, description = "An invalid name or role.", body = ErrorBody),
    )
)]
pub async fn create_token(
    State(state): State<AppState>,
    caller: Caller,
    ApiJson(body): ApiJson<NewToken>,
) -> Result<(StatusCode, Json<TokenCreated>), ApiError> {
    caller.require_admin()?;
    let name = body.name;
    if !is_user_name(&name) {
        return Err(ApiError::Unprocessable(format!(
            "name must be 1 to {MAX_NAME_LEN} characters, without control characters \
             or a space at either end"
        )));
    }
    let token = state.store.create_token(&name, body.role).await?;
    Ok((
        StatusCode::CREATED,
        Json(TokenCreated {
            name,
            role: body.role,
            token,
        }),
    ))
}
