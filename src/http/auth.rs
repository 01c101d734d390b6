//! Bearer-token authentication and role checks.
//!
//! A token secret is looked up by its sha256; the caller becomes a
//! [`Principal`] with a role. Handlers state what they need with
//! [`Caller::require_staff`] or [`Caller::require_admin`].

use axum::{
    extract::FromRequestParts,
    http::{header::AUTHORIZATION, request::Parts},
};

use super::{ApiError, AppState};
use crate::domain::{Principal, Role};

/// The authenticated caller of a request.
#[derive(Debug, Clone)]
pub struct Caller(pub Principal);

impl Caller {
    pub fn name(&self) -> &str {
        &self.0.name
    }

    pub fn role(&self) -> Role {
        self.0.role
    }

    /// Setters and admins only.
    pub fn require_staff(&self) -> Result<(), ApiError> {
        if self.0.role.is_staff() {
            Ok(())
        } else {
            Err(ApiError::Forbidden(
                "only setters and admins may do this".into(),
            ))
        }
    }

    /// Admins only.
    pub fn require_admin(&self) -> Result<(), ApiError> {
        if self.0.role == Role::Admin {
            Ok(())
        } else {
            Err(ApiError::Forbidden("only admins may do this".into()))
        }
    }
}

impl FromRequestParts<AppState> for Caller {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, ApiError> {
        let secret = parts
            .headers
            .get(AUTHORIZATION)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.strip_prefix("Bearer "))
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .ok_or(ApiError::Unauthorized)?;
        state
            .store
            .principal(secret)
            .await?
            .map(Caller)
            .ok_or(ApiError::Unauthorized)
    }
}
