//! Tokens, for admins: create (optionally expiring), list and revoke.
//!
//! A token's secret is returned once, when it is created; the list shows
//! every token without it. A revoked or expired token is refused with 401 at
//! once. A name is one user with one role, so a token for an existing name
//! with another role is refused with 409.
//!
//! The rules live in [`issue_token`], [`token_page`] and [`revoke_token`],
//! which the web UI's token page calls too, so a form is refused for the
//! same reasons and with the same words as the API.

use axum::{Json, extract::State, http::StatusCode};

use super::{
    ApiError, ApiJson, ApiPath, ApiQuery, AppState, auth::Caller, submissions::parse_cursor,
};
use crate::{
    api::{ErrorBody, NewToken, TokenCreated, TokenList, TokenListQuery},
    domain::{Timestamp, TokenId, token_expiry, validate_user_name},
    store::{Revocation, TokenPage},
};

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
    let created = issue_token(&state, &caller, body).await?;
    Ok((StatusCode::CREATED, Json(created)))
}

/// Issues a token for an admin `caller`: the name and lifetime checked as
/// the API checks them, then stored; the answer holds the secret, which is
/// never shown again.
pub async fn issue_token(
    state: &AppState,
    caller: &Caller,
    request: NewToken,
) -> Result<TokenCreated, ApiError> {
    caller.require_admin()?;
    let name = request.name;
    validate_user_name(&name).map_err(|e| ApiError::Unprocessable(e.to_string()))?;
    let expires_at = request
        .expires_in_seconds
        .map(|seconds| token_expiry(Timestamp::now(), seconds))
        .transpose()
        .map_err(ApiError::Unprocessable)?;
    let issued = state
        .store
        .create_token(&name, request.role, expires_at)
        .await?;
    Ok(TokenCreated {
        id: issued.id,
        name,
        role: request.role,
        expires_at,
        token: issued.secret,
    })
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
    caller.require_admin()?;
    let limit = query.limit.unwrap_or(100);
    if !(1..=500).contains(&limit) {
        return Err(ApiError::Unprocessable(
            "limit must be between 1 and 500".into(),
        ));
    }
    let before = query
        .cursor
        .as_deref()
        .map(parse_cursor)
        .transpose()?
        .map(TokenId);
    let page = token_page(&state, &caller, before, limit).await?;
    Ok(Json(TokenList {
        tokens: page.tokens,
        next_cursor: page.next_cursor.map(|id| id.to_string()),
    }))
}

/// One page of tokens, newest first, for an admin `caller`, without
/// secrets: the API's listing and the web UI's token page.
pub async fn token_page(
    state: &AppState,
    caller: &Caller,
    before: Option<TokenId>,
    limit: i64,
) -> Result<TokenPage, ApiError> {
    caller.require_admin()?;
    Ok(state.store.token_page(before, limit).await?)
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
    revoke_token(&state, &caller, id).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// Revokes token `id` for an admin `caller`. Revoking a revoked token
/// changes nothing; the caller's own token is refused with 409, so an admin
/// cannot lock themselves out by mistake.
pub async fn revoke_token(state: &AppState, caller: &Caller, id: TokenId) -> Result<(), ApiError> {
    caller.require_admin()?;
    if id == caller.token {
        return Err(ApiError::Conflict(format!(
            "token {id} is the one this request uses; revoke it with another admin token"
        )));
    }
    match state.store.revoke_token(id).await? {
        Revocation::Revoked | Revocation::AlreadyRevoked => Ok(()),
        Revocation::NotFound => Err(ApiError::NotFound(format!("no token {id}"))),
    }
}
