//! Operations: health and Prometheus metrics. Health, metrics and the
//! OpenAPI document need no token, so probes and scrapers work without
//! secrets; the judgements by verdict are in the metrics only for staff.

use axum::{
    Json,
    extract::State,
    http::{StatusCode, header},
    response::IntoResponse,
};
use utoipa_axum::{router::OpenApiRouter, routes};

use super::{ApiError, AppState, auth::Caller};
use crate::api::{ErrorBody, Health};

/// This module's routes, each with its OpenAPI operation.
pub(super) fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(health))
        .routes(routes!(metrics))
}

/// Health check: the database answers reads and takes writes; queue depth;
/// whether this host judges programs, and why not.
///
/// While writes are failing, each call first tries one small write, so a
/// database that takes writes again (space freed) reports `ok` without
/// waiting for a submission to prove it.
#[utoipa::path(
    get,
    path = "/api/health",
    tag = "operations",
    security(()),
    responses(
        (status = OK, description = "The database answers reads and takes writes.", body = Health),
        (status = SERVICE_UNAVAILABLE, description = "Writes fail (`status` is `failing`): submissions would be refused.", body = Health),
        (status = INTERNAL_SERVER_ERROR, description = "The database does not answer.", body = ErrorBody),
    )
)]
pub async fn health(State(state): State<AppState>) -> Result<(StatusCode, Json<Health>), ApiError> {
    let report = state.app.health().await?;
    let writes = report.writes;
    let (status, word) = if writes.failing {
        (StatusCode::SERVICE_UNAVAILABLE, "failing")
    } else {
        (StatusCode::OK, "ok")
    };
    let (last_write_error, last_write_error_at) = writes
        .last_failure
        .map_or((None, None), |f| (Some(f.error), Some(f.at)));
    let program_judging_off = report.program_judging_off;
    Ok((
        status,
        Json(Health {
            status: word.into(),
            queued: report.queued,
            running: report.running,
            last_write_error,
            last_write_error_at,
            program_judging: program_judging_off.is_none(),
            program_judging_off,
        }),
    ))
}

/// Prometheus metrics: queue depth, submit-to-verdict latency, whether this
/// host judges programs, requests and the process (OpenMetrics text); with
/// a setter's or an admin's token also the judgements by verdict.
#[utoipa::path(
    get,
    path = "/metrics",
    tag = "operations",
    security((), ("bearer" = [])),
    responses(
        (status = OK, description = "Metrics in the OpenMetrics text format.", body = String,
            content_type = "application/openmetrics-text; version=1.0.0; charset=utf-8"),
        (status = INTERNAL_SERVER_ERROR, description = "The database does not answer.", body = ErrorBody),
    )
)]
pub async fn metrics(
    State(state): State<AppState>,
    caller: Option<Caller>,
) -> Result<impl IntoResponse, ApiError> {
    let text = state.app.metrics_text(caller.as_ref()).await?;
    Ok((
        [(
            header::CONTENT_TYPE,
            "application/openmetrics-text; version=1.0.0; charset=utf-8",
        )],
        text,
    ))
}
