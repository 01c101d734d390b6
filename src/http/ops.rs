//! Operations: health and Prometheus metrics. Health, metrics and the
//! OpenAPI document need no token, so probes and scrapers work without
//! secrets.

use axum::{Json, extract::State, http::header, response::IntoResponse};

use super::{ApiError, AppState};
use crate::{
    api::{ErrorBody, Health},
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
