//! Bearer-token authentication and role checks.
//!
//! A token secret is looked up by its sha256; the caller becomes a
//! [`Caller`] with a role, if the token is neither revoked nor expired.
//! The scheme is matched without regard to case (`bearer` works). Unknown
//! tokens are counted per client address ([`super::auth_throttle`]).
//! Use cases check the role they need ([`Caller::require_staff`],
//! [`Caller::require_admin`]).

use axum::{
    extract::{FromRequestParts, OptionalFromRequestParts},
    http::{header::AUTHORIZATION, request::Parts},
};

use super::{ApiError, AppState, auth_throttle::client_address};
pub use crate::app::Caller;

impl FromRequestParts<AppState> for Caller {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, ApiError> {
        let secret = parts
            .headers
            .get(AUTHORIZATION)
            .and_then(|v| v.to_str().ok())
            .and_then(bearer_secret)
            .ok_or(ApiError::Unauthorized)?;
        // A token is looked up only while its address has failures left.
        let address = client_address(parts);
        state
            .auth_throttle
            .check(address)
            .map_err(ApiError::AuthThrottled)?;
        let Some(caller) = state.app.authenticate(secret).await? else {
            state.auth_throttle.failed(address);
            return Err(ApiError::Unauthorized);
        };
        Ok(caller)
    }
}

/// A caller where a token is optional: none without an `Authorization`
/// header; a header with an unknown token is refused as it is elsewhere.
impl OptionalFromRequestParts<AppState> for Caller {
    type Rejection = ApiError;

    async fn from_request_parts(
        parts: &mut Parts,
        state: &AppState,
    ) -> Result<Option<Self>, ApiError> {
        if parts.headers.contains_key(AUTHORIZATION) {
            <Caller as FromRequestParts<AppState>>::from_request_parts(parts, state)
                .await
                .map(Some)
        } else {
            Ok(None)
        }
    }
}

/// The secret of an `Authorization: Bearer <secret>` value. The scheme is
/// case-insensitive (RFC 9110 §11.1), so `bearer` and `BEARER` work too.
fn bearer_secret(value: &str) -> Option<&str> {
    let (scheme, secret) = value.trim_start().split_once(' ')?;
    let secret = secret.trim();
    (scheme.eq_ignore_ascii_case("bearer") && !secret.is_empty()).then_some(secret)
}

#[cfg(test)]
mod tests {
    use super::bearer_secret;

    #[test]
    fn the_bearer_scheme_is_case_insensitive_and_the_secret_is_required() {
        for value in ["Bearer nj_x", "bearer nj_x", "BEARER  nj_x ", "bEaReR nj_x"] {
            assert_eq!(bearer_secret(value), Some("nj_x"), "{value}");
        }
        for value in ["Bearer", "Bearer ", "Basic nj_x", "Bearernj_x", "nj_x"] {
            assert_eq!(bearer_secret(value), None, "{value}");
        }
    }
}
