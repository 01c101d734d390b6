//! The web UI's error type: every failure a page handler can return, each
//! rendered as an HTML page with its status (or, for a signed-out visitor,
//! a redirect to the sign-in page).
//!
//! Errors from the shared API code keep their status and message, so a form
//! is refused for the same reason and with the same words as the API would
//! refuse the request. Internal errors are logged with their cause and shown
//! as a generic message.

use axum::{
    http::{HeaderValue, StatusCode, header},
    response::{IntoResponse, Redirect, Response},
};

use super::{page, page::byte_size};
use crate::{app::AppError, http::ApiError};

/// A failed page request.
#[derive(Debug, thiserror::Error)]
pub enum PageError {
    /// 303 to the sign-in page: no session cookie, or a session that ended
    /// (signed out, expired, or its token revoked or expired).
    #[error("sign in first")]
    SignedOut,
    /// 403: a form without this session's CSRF token, or with another.
    #[error(
        "this form did not come from this page or has expired; reload the page and send it again"
    )]
    Csrf,
    /// 400: a form whose fields are missing or malformed; the message names
    /// the field.
    #[error("{0}")]
    BadForm(String),
    /// 404: nothing here, or nothing this user may see (another
    /// contestant's submission, a hidden testcase): the same page either way.
    #[error("{0}")]
    NotFound(String),
    /// 507: a download larger than the page will build in memory (the
    /// inputs zip); the message names the cap.
    #[error("{0}")]
    TooLarge(String),
    /// The shared API code refused or failed; its status and message.
    #[error(transparent)]
    Api(#[from] ApiError),
}

impl From<AppError> for PageError {
    fn from(e: AppError) -> PageError {
        PageError::Api(e.into())
    }
}

impl PageError {
    fn status(&self) -> StatusCode {
        match self {
            PageError::SignedOut => StatusCode::SEE_OTHER,
            PageError::Csrf => StatusCode::FORBIDDEN,
            PageError::BadForm(_) => StatusCode::BAD_REQUEST,
            PageError::NotFound(_) => StatusCode::NOT_FOUND,
            PageError::TooLarge(_) => StatusCode::INSUFFICIENT_STORAGE,
            PageError::Api(e) => e.status(),
        }
    }
}

impl IntoResponse for PageError {
    fn into_response(self) -> Response {
        if let PageError::SignedOut = self {
            return Redirect::to("/sign-in").into_response();
        }
        let status = self.status();
        let message = match &self {
            PageError::Api(ApiError::Internal(cause)) => {
                tracing::error!(%cause, "internal error");
                "internal server error".to_string()
            }
            PageError::Api(ApiError::BodyTooLarge(limit)) => format!(
                "This form sent more than the server takes: the limit is {} ({limit} bytes, \
                 the setting server.body_limit_bytes). Send a smaller file or less text.",
                byte_size(*limit)
            ),
            other => other.to_string(),
        };
        let mut response = (status, page::error(status, &message)).into_response();
        match &self {
            PageError::Api(ApiError::TooManyRequests(exceeded)) => {
                let seconds = exceeded.retry_after.as_millis().div_ceil(1000).max(1);
                response
                    .headers_mut()
                    .insert(header::RETRY_AFTER, (seconds as u64).into());
            }
            // The rest of the body was never read: the connection cannot
            // carry another request, as the API's answer says too.
            PageError::Api(ApiError::BodyTooLarge(_) | ApiError::BodyTimeout(_)) => {
                response
                    .headers_mut()
                    .insert(header::CONNECTION, HeaderValue::from_static("close"));
            }
            _ => {}
        }
        response
    }
}
