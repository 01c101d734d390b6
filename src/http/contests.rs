//! Contests: admins create and replace them (`PUT`) and thaw a frozen
//! scoreboard; everyone lists and reads them, registers, and reads the
//! scoreboard as their role may see it (frozen for all but admins from the
//! freeze until the thaw). The rules live in [`crate::app::contests`].

use axum::{
    Json,
    body::Bytes,
    extract::State,
    http::{StatusCode, header},
    response::{IntoResponse, Response},
};
use utoipa_axum::{router::OpenApiRouter, routes};

use super::{ApiError, ApiJson, ApiPath, ApiQuery, AppState, auth::Caller};
use crate::{
    api::{
        ClarificationAnswer, ClarificationList, ContestList, ErrorBody, NewClarification,
        NewRegistration, Registered, ScoreboardQuery,
    },
    app::contests::ContestExport,
    contest::{Clarification, ContestSettings, ContestView, Scoreboard},
    domain::ContestId,
};

/// This module's routes, each with its OpenAPI operation.
pub(super) fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list))
        .routes(routes!(show, put))
        .routes(routes!(register))
        .routes(routes!(scoreboard))
        .routes(routes!(thaw))
        .routes(routes!(export))
        .routes(routes!(start_window))
        .routes(routes!(personal_input))
        .routes(routes!(clarifications, clarify))
        .routes(routes!(answer))
}

/// Every contest, the latest start first; before its start a contest's
/// problems are listed to setters and admins only.
#[utoipa::path(
    get,
    path = "/api/contests",
    operation_id = "list_contests",
    tag = "contests",
    responses((status = OK, description = "Every contest.", body = ContestList))
)]
pub async fn list(
    State(state): State<AppState>,
    caller: Caller,
) -> Result<Json<ContestList>, ApiError> {
    Ok(Json(ContestList {
        contests: state.app.contests(&caller).await?,
    }))
}

/// One contest, its phase, and whether you take part.
#[utoipa::path(
    get,
    path = "/api/contests/{id}",
    operation_id = "show_contest",
    tag = "contests",
    params(("id" = String, Path, description = "The contest id")),
    responses(
        (status = OK, description = "The contest.", body = ContestView),
        (status = NOT_FOUND, description = "No such contest.", body = ErrorBody),
    )
)]
pub async fn show(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath(id): ApiPath<ContestId>,
) -> Result<Json<ContestView>, ApiError> {
    Ok(Json(state.app.contest(&caller, &id).await?))
}

/// Create or replace a contest (admins only). Its scoreboard is recomputed
/// from the submissions already sent (a moved freeze applies at once).
#[utoipa::path(
    put,
    path = "/api/contests/{id}",
    operation_id = "put_contest",
    tag = "contests",
    params(("id" = String, Path, description = "The contest id")),
    request_body = ContestSettings,
    responses(
        (status = CREATED, description = "Created.", body = ContestView),
        (status = OK, description = "Replaced.", body = ContestView),
        (status = FORBIDDEN, description = "Not an admin.", body = ErrorBody),
        (status = UNPROCESSABLE_ENTITY, description = "A setting breaks a rule (the message names it) or names a missing problem.", body = ErrorBody),
    )
)]
pub async fn put(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath(id): ApiPath<ContestId>,
    ApiJson(settings): ApiJson<ContestSettings>,
) -> Result<(StatusCode, Json<ContestView>), ApiError> {
    let created = state.app.put_contest(&caller, &id, &settings).await?;
    let status = if created {
        StatusCode::CREATED
    } else {
        StatusCode::OK
    };
    Ok((status, Json(state.app.contest(&caller, &id).await?)))
}

/// Register for a contest: yourself where registration is open, anyone
/// (admins). Registering twice changes nothing.
#[utoipa::path(
    post,
    path = "/api/contests/{id}/registrations",
    operation_id = "register_for_contest",
    tag = "contests",
    params(("id" = String, Path, description = "The contest id")),
    request_body = NewRegistration,
    responses(
        (status = CREATED, description = "Registered.", body = Registered),
        (status = OK, description = "Registered already.", body = Registered),
        (status = FORBIDDEN, description = "By invitation only, or another user (admins only).", body = ErrorBody),
        (status = NOT_FOUND, description = "No such contest.", body = ErrorBody),
    )
)]
pub async fn register(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath(id): ApiPath<ContestId>,
    ApiJson(body): ApiJson<NewRegistration>,
) -> Result<(StatusCode, Json<Registered>), ApiError> {
    let user = body.user.unwrap_or_else(|| caller.name().to_string());
    let added = state.app.register(&caller, &id, Some(&user)).await?;
    let status = if added {
        StatusCode::CREATED
    } else {
        StatusCode::OK
    };
    Ok((
        status,
        Json(Registered {
            contest: id.to_string(),
            user,
        }),
    ))
}

/// A contest's scoreboard: ranked by problems solved, then penalty minutes,
/// then the earlier last solve. From the freeze until the thaw, everyone
/// but admins sees tries from the freeze on as pending (`frozen`).
#[utoipa::path(
    get,
    path = "/api/contests/{id}/scoreboard",
    operation_id = "contest_scoreboard",
    tag = "contests",
    params(("id" = String, Path, description = "The contest id"), ScoreboardQuery),
    responses(
        (status = OK, description = "The scoreboard.", body = Scoreboard),
        (status = UNPROCESSABLE_ENTITY, description = "A limit out of range.", body = ErrorBody),
        (status = NOT_FOUND, description = "No such contest.", body = ErrorBody),
    )
)]
pub async fn scoreboard(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath(id): ApiPath<ContestId>,
    ApiQuery(query): ApiQuery<ScoreboardQuery>,
) -> Result<Response, ApiError> {
    let offset = query.offset.unwrap_or(0);
    let rows = match query.limit {
        Some(limit) if !(1..=100_000).contains(&limit) => {
            return Err(ApiError::Unprocessable(format!(
                "`limit` must be 1 to 100000, not {limit}"
            )));
        }
        Some(limit) => Some(offset..offset.saturating_add(limit)),
        None => (offset > 0).then_some(offset..usize::MAX),
    };
    Ok(match rows {
        Some(rows) => Json(state.app.scoreboard(&caller, &id, Some(rows)).await?).into_response(),
        // Every row: the same JSON for every request until the board changes.
        None => {
            let json = state.app.whole_scoreboard_json(&caller, &id).await?;
            (
                [(header::CONTENT_TYPE, "application/json")],
                Bytes::from_owner(json),
            )
                .into_response()
        }
    })
}

/// Thaw a contest's frozen scoreboard (admins only), after its end.
#[utoipa::path(
    post,
    path = "/api/contests/{id}/thaw",
    operation_id = "thaw_contest",
    tag = "contests",
    params(("id" = String, Path, description = "The contest id")),
    responses(
        (status = OK, description = "Thawed (or thawed already).", body = ContestView),
        (status = FORBIDDEN, description = "Not an admin.", body = ErrorBody),
        (status = NOT_FOUND, description = "No such contest.", body = ErrorBody),
        (status = CONFLICT, description = "The contest has not ended.", body = ErrorBody),
    )
)]
pub async fn thaw(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath(id): ApiPath<ContestId>,
) -> Result<Json<ContestView>, ApiError> {
    Ok(Json(state.app.thaw(&caller, &id).await?))
}

/// The caller's own input to a contest problem that gives each
/// participant one (answer it as the testcase `personal`): after the
/// start, to participants (an open contest registers the caller).
#[utoipa::path(
    get,
    path = "/api/contests/{id}/problems/{label}/input",
    operation_id = "personal_input",
    tag = "contests",
    params(
        ("id" = String, Path, description = "The contest id"),
        ("label" = String, Path, description = "The problem's label, e.g. `A`"),
    ),
    responses(
        (status = OK, description = "The input.", body = String, content_type = "text/plain"),
        (status = FORBIDDEN, description = "Not invited to a contest by invitation.", body = ErrorBody),
        (status = NOT_FOUND, description = "No such contest or problem, not started, or no inputs of their own.", body = ErrorBody),
    )
)]
pub async fn personal_input(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath((id, label)): ApiPath<(ContestId, String)>,
) -> Result<impl IntoResponse, ApiError> {
    let input = state.app.personal_input(&caller, &id, &label).await?;
    Ok(([(header::CONTENT_TYPE, "text/plain; charset=utf-8")], input))
}

/// Start the caller's own window in a contest with personal windows
/// (registering them where registration is open); starting again changes
/// nothing. Their first submission starts it too.
#[utoipa::path(
    post,
    path = "/api/contests/{id}/window",
    operation_id = "start_contest_window",
    tag = "contests",
    params(("id" = String, Path, description = "The contest id")),
    responses(
        (status = OK, description = "Started (or started before): the contest with the caller's window.", body = ContestView),
        (status = FORBIDDEN, description = "Not invited to a contest by invitation.", body = ErrorBody),
        (status = NOT_FOUND, description = "No such contest.", body = ErrorBody),
        (status = CONFLICT, description = "Not started, over, or one window for everyone.", body = ErrorBody),
    )
)]
pub async fn start_window(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath(id): ApiPath<ContestId>,
) -> Result<Json<ContestView>, ApiError> {
    Ok(Json(state.app.start_window(&caller, &id).await?))
}

/// Everything of a contest as one document (admins only): settings,
/// participants, every submission sent to it (oldest first, practice ones
/// included), clarifications and the whole scoreboard.
#[utoipa::path(
    get,
    path = "/api/contests/{id}/export",
    operation_id = "export_contest",
    tag = "contests",
    params(("id" = String, Path, description = "The contest id")),
    responses(
        (status = OK, description = "The contest.", body = ContestExport),
        (status = FORBIDDEN, description = "Not an admin.", body = ErrorBody),
        (status = NOT_FOUND, description = "No such contest.", body = ErrorBody),
    )
)]
pub async fn export(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath(id): ApiPath<ContestId>,
) -> Result<Json<ContestExport>, ApiError> {
    Ok(Json(state.app.export_contest(&caller, &id).await?))
}

/// A contest's clarifications, oldest first: every one for setters and
/// admins; for others, their own questions (answered or not) and the
/// answers meant for everyone.
#[utoipa::path(
    get,
    path = "/api/contests/{id}/clarifications",
    operation_id = "list_clarifications",
    tag = "contests",
    params(("id" = String, Path, description = "The contest id")),
    responses(
        (status = OK, description = "The clarifications you may read.", body = ClarificationList),
        (status = NOT_FOUND, description = "No such contest.", body = ErrorBody),
    )
)]
pub async fn clarifications(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath(id): ApiPath<ContestId>,
) -> Result<Json<ClarificationList>, ApiError> {
    Ok(Json(ClarificationList {
        clarifications: state.app.clarifications(&caller, &id).await?,
    }))
}

/// Ask the jury (participants, once the contest has started), or, from
/// setters and admins, announce to every participant.
#[utoipa::path(
    post,
    path = "/api/contests/{id}/clarifications",
    operation_id = "ask_clarification",
    tag = "contests",
    params(("id" = String, Path, description = "The contest id")),
    request_body = NewClarification,
    responses(
        (status = CREATED, description = "Asked (or announced).", body = Clarification),
        (status = FORBIDDEN, description = "Not a participant.", body = ErrorBody),
        (status = NOT_FOUND, description = "No such contest.", body = ErrorBody),
        (status = CONFLICT, description = "The contest has not started.", body = ErrorBody),
        (status = UNPROCESSABLE_ENTITY, description = "Blank or too long, or a problem outside the contest.", body = ErrorBody),
    )
)]
pub async fn clarify(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath(id): ApiPath<ContestId>,
    ApiJson(body): ApiJson<NewClarification>,
) -> Result<(StatusCode, Json<Clarification>), ApiError> {
    let clarification = state.app.clarify(&caller, &id, &body).await?;
    Ok((StatusCode::CREATED, Json(clarification)))
}

/// Answer a clarification (setters and admins), for its asker or, with
/// `to_all`, for everyone; answering again replaces the answer.
#[utoipa::path(
    post,
    path = "/api/contests/{id}/clarifications/{number}/answer",
    operation_id = "answer_clarification",
    tag = "contests",
    params(
        ("id" = String, Path, description = "The contest id"),
        ("number" = i64, Path, description = "The clarification's number"),
    ),
    request_body = ClarificationAnswer,
    responses(
        (status = OK, description = "Answered.", body = Clarification),
        (status = FORBIDDEN, description = "Not a setter or an admin.", body = ErrorBody),
        (status = NOT_FOUND, description = "No such contest or clarification.", body = ErrorBody),
        (status = UNPROCESSABLE_ENTITY, description = "A blank or too long answer.", body = ErrorBody),
    )
)]
pub async fn answer(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath((id, number)): ApiPath<(ContestId, i64)>,
    ApiJson(body): ApiJson<ClarificationAnswer>,
) -> Result<Json<Clarification>, ApiError> {
    Ok(Json(
        state
            .app
            .answer_clarification(&caller, &id, number, &body)
            .await?,
    ))
}
