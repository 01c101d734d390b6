//! The languages programs may be written in, and whether this host can
//! judge them now.

use axum::{Json, extract::State};
use utoipa_axum::{router::OpenApiRouter, routes};

use super::{AppState, auth::Caller};
use crate::api::{ErrorBody, LanguageList};

/// This module's routes, each with its OpenAPI operation.
pub(super) fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(list))
}

/// The configured languages; `available` is false, with the reason, where
/// this host cannot judge one (no sandbox, or no toolchain).
#[utoipa::path(
    get,
    path = "/api/languages",
    operation_id = "list_languages",
    tag = "submissions",
    responses(
        (status = OK, description = "The languages.", body = LanguageList),
        (status = UNAUTHORIZED, description = "No valid token.", body = ErrorBody),
    )
)]
pub async fn list(State(state): State<AppState>, _caller: Caller) -> Json<LanguageList> {
    Json(LanguageList {
        languages: state.app.programs().list(),
    })
}
