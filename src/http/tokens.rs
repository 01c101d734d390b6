//! Tokens, for admins: create (optionally expiring), list and revoke.
//!
//! A token's secret is returned once, when it is created; the list shows
//! every token without it. A revoked or expired token is refused with 401 at
//! once. A name is one user with one role, so a token for an existing name
//! with another role is refused with 409.
//!
//! The rules live in the use cases [`issue_token`], [`token_page`] and
//! [`revoke_token`], which the web UI's token page calls too, so a form is
//! refused for the same reasons and with the same words as the API.
//!
//! [`issue_token`]: crate::app::App::issue_token
//! [`token_page`]: crate::app::App::token_page
//! [`revoke_token`]: crate::app::App::revoke_token

use axum::{Json, extract::State, http::StatusCode};
use utoipa_axum::{router::OpenApiRouter, routes};

use super::{
    ApiError, ApiJson, ApiPath, ApiQuery, AppState, auth::Caller, submissions::parse_cursor,
};
use crate::{
    api::{ErrorBody, NewToken, TokenCreated, TokenList, TokenListQuery},
    domain::TokenId,
};

/// This module's routes, each with its OpenAPI operation.
pub(super) fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list, create))
        .routes(routes!(revoke))
}

/// Create a token (admins only); the secret is returned this once.
#[utoipa::path(
    post,
    path = "/api/tokens",
    operation_id = "create_token",
    tag = "tokens",
    request_body = NewToken,
    responses(
        (status = CREATED, description = "Created.", body = TokenCreated),
        (status = BAD_REQUEST, description = "Malformed JSON.", body = ErrorBody),
        (status = UNAUTHORIZED, description = "No valid token.", body = ErrorBody),
        (status = FORBIDDEN, description = "Not an admin.", body = ErrorBody),
        (status = CONFLICT, description = "The name is a user with another role.", body = ErrorBody),
        (status = PAYLOAD_TOO_LARGE, description = "Body too large.", body = ErrorBody),
        (status = UNSUPPORTED_MEDIA_TYPE, description = "Not JSON.", body = ErrorBody),
        (status = UNPROCESSABLE_ENTITY, description = "An invalid name, role or lifetime.", body = ErrorBody),
    )
)]
pub async fn create(
    State(state): State<AppState>,
    caller: Caller,
    ApiJson(body): ApiJson<NewToken>,
) -> Result<(StatusCode, Json<TokenCreated>), ApiError> {
    let created = state.app.issue_token(&caller, body).await?;
    Ok((StatusCode::CREATED, Json(created)))
}

/// Tokens, newest first, a page at a time, with their expiry and
/// revocation, never their secrets (admins only).
#[utoipa::path(
    get,
    path = "/api/tokens",
    operation_id = "list_tokens",
    tag = "tokens",
    params(TokenListQuery),
    responses(
        (status = OK, description = "One page of tokens.", body = TokenList),
        (status = BAD_REQUEST, description = "A malformed query or an unknown parameter.", body = ErrorBody),
        (status = UNAUTHORIZED, description = "No valid token.", body = ErrorBody),
        (status = FORBIDDEN, description = "Not an admin.", body = ErrorBody),
        (status = UNPROCESSABLE_ENTITY, description = "A limit out of range or an invalid cursor.", body = ErrorBody),
    )
)]
pub async fn list(
    State(state): State<AppState>,
    caller: Caller,
    ApiQuery(query): ApiQuery<TokenListQuery>,
) -> Result<Json<TokenList>, ApiError> {
    let limit = query.limit.unwrap_or(100);
    let before = query
        .cursor
        .as_deref()
        .map(parse_cursor)
        .transpose()?
        .map(TokenId);
    let page = state.app.token_page(&caller, before, limit).await?;
    Ok(Json(TokenList {
        tokens: page.tokens,
        next_cursor: page.next_cursor.map(|id| id.to_string()),
    }))
}

/// Revoke a token (admins only): it is refused from now on. Revoking a
/// revoked token changes nothing; an admin cannot revoke the token they
/// are using.
#[utoipa::path(
    delete,
    path = "/api/tokens/{id}",
    operation_id = "revoke_token",
    tag = "tokens",
    params(("id" = i64, Path, minimum = 1, description = "The token's number")),
    responses(
        (status = NO_CONTENT, description = "Revoked (or already revoked)."),
        (status = UNAUTHORIZED, description = "No valid token.", body = ErrorBody),
        (status = FORBIDDEN, description = "Not an admin.", body = ErrorBody),
        (status = NOT_FOUND, description = "No such token.", body = ErrorBody),
        (status = CONFLICT, description = "It is the token of this request.", body = ErrorBody),
    )
)]
pub async fn revoke(
    State(state): State<AppState>,
    caller: Caller,
    ApiPath(id): ApiPath<TokenId>,
) -> Result<StatusCode, ApiError> {
    state.app.revoke_token(&caller, id).await?;
    Ok(StatusCode::NO_CONTENT)
}
