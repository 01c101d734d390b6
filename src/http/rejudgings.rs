//! Rejudge previews over HTTP: the routes of [`crate::app::rejudgings`].

use axum::{Json, extract::State, http::StatusCode};
use utoipa_axum::{router::OpenApiRouter, routes};

use super::{ApiError, ApiPath, AppState, auth::Caller};
use crate::{
    api::ErrorBody,
    domain::{AppliedRejudging, ProblemId, Rejudging, RejudgingReport},
};

/// This module's routes, each with its OpenAPI operation.
pub(super) fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list, preview))
        .routes(routes!(show))
        .routes(routes!(apply))
        .routes(routes!(discard))
}

/// Preview a rejudge of every judged submission of the problem (setters
/// and admins): workers judge them again on the side; their verdicts stay
/// as they are until the preview is applied.
#[utoipa::path(
    post,
    path = "/api/problems/{id}/rejudgings",
    operation_id = "preview_rejudge",
    tag = "rejudgings",
    params(("id" = ProblemId, Path, description = "Problem id")),
    responses(
        (status = CREATED, description = "The preview, being judged.", body = Rejudging),
        (status = UNAUTHORIZED, description = "No valid token.", body = ErrorBody),
        (status = FORBIDDEN, description = "Not a setter or admin.", body = ErrorBody),
        (status = NOT_FOUND, description = "No such problem.", body = ErrorBody),
        (status = CONFLICT, description = "The problem has no judged submissions.", body = ErrorBody),
    )
)]
pub async fn preview(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath(id): ApiPath<ProblemId>,
) -> Result<(StatusCode, Json<Rejudging>), ApiError> {
    let rejudging = state.app.preview_rejudge(&caller, &id).await?;
    Ok((StatusCode::CREATED, Json(rejudging)))
}

/// The problem's rejudge previews, newest first (setters and admins).
#[utoipa::path(
    get,
    path = "/api/problems/{id}/rejudgings",
    operation_id = "list_rejudgings",
    tag = "rejudgings",
    params(("id" = ProblemId, Path, description = "Problem id")),
    responses(
        (status = OK, description = "The previews.", body = Vec<Rejudging>),
        (status = UNAUTHORIZED, description = "No valid token.", body = ErrorBody),
        (status = FORBIDDEN, description = "Not a setter or admin.", body = ErrorBody),
        (status = NOT_FOUND, description = "No such problem.", body = ErrorBody),
    )
)]
pub async fn list(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath(id): ApiPath<ProblemId>,
) -> Result<Json<Vec<Rejudging>>, ApiError> {
    Ok(Json(state.app.rejudgings(&caller, &id).await?))
}

/// A rejudge preview with each submission's verdict before and in it
/// (setters and admins).
#[utoipa::path(
    get,
    path = "/api/rejudgings/{id}",
    operation_id = "show_rejudging",
    tag = "rejudgings",
    params(("id" = i64, Path, description = "Rejudge preview id")),
    responses(
        (status = OK, description = "The preview.", body = RejudgingReport),
        (status = UNAUTHORIZED, description = "No valid token.", body = ErrorBody),
        (status = FORBIDDEN, description = "Not a setter or admin.", body = ErrorBody),
        (status = NOT_FOUND, description = "No such preview.", body = ErrorBody),
    )
)]
pub async fn show(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath(id): ApiPath<i64>,
) -> Result<Json<RejudgingReport>, ApiError> {
    Ok(Json(state.app.rejudging(&caller, id).await?))
}

/// Apply a rejudge preview whose submissions are all judged again: each
/// changed verdict becomes its submission's, except for submissions judged
/// again since the preview began (counted as stale).
#[utoipa::path(
    post,
    path = "/api/rejudgings/{id}/apply",
    operation_id = "apply_rejudging",
    tag = "rejudgings",
    params(("id" = i64, Path, description = "Rejudge preview id")),
    responses(
        (status = OK, description = "Applied.", body = AppliedRejudging),
        (status = UNAUTHORIZED, description = "No valid token.", body = ErrorBody),
        (status = FORBIDDEN, description = "Not a setter or admin.", body = ErrorBody),
        (status = NOT_FOUND, description = "No such preview.", body = ErrorBody),
        (status = CONFLICT, description = "Still being judged, or applied or discarded already.", body = ErrorBody),
    )
)]
pub async fn apply(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath(id): ApiPath<i64>,
) -> Result<Json<AppliedRejudging>, ApiError> {
    Ok(Json(state.app.apply_rejudging(&caller, id).await?))
}

/// Discard a rejudge preview: the submissions keep their verdicts.
#[utoipa::path(
    post,
    path = "/api/rejudgings/{id}/discard",
    operation_id = "discard_rejudging",
    tag = "rejudgings",
    params(("id" = i64, Path, description = "Rejudge preview id")),
    responses(
        (status = NO_CONTENT, description = "Discarded."),
        (status = UNAUTHORIZED, description = "No valid token.", body = ErrorBody),
        (status = FORBIDDEN, description = "Not a setter or admin.", body = ErrorBody),
        (status = NOT_FOUND, description = "No such preview.", body = ErrorBody),
        (status = CONFLICT, description = "Applied or discarded already.", body = ErrorBody),
    )
)]
pub async fn discard(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath(id): ApiPath<i64>,
) -> Result<StatusCode, ApiError> {
    state.app.discard_rejudging(&caller, id).await?;
    Ok(StatusCode::NO_CONTENT)
}
