//! The HTTP layer's error type: every failure a handler can return, mapped to
//! a status code in one `match` and rendered as `{"error": "..."}`.
//!
//! Internal errors are logged with their cause and answered with a generic
//! message, so database details never reach a client.

use axum::{
    Json,
    extract::rejection::{JsonRejection, PathRejection, QueryRejection},
    http::{HeaderValue, StatusCode, header},
    response::{IntoResponse, Response},
};

use super::auth_throttle::Throttled;
use crate::{
    api::ErrorBody,
    app::{AppError, error::limit_message},
    store::LimitExceeded,
};

/// A failed request.
#[derive(Debug, thiserror::Error)]
pub enum ApiError {
    /// 400: a malformed header (such as `Idempotency-Key`).
    #[error("{0}")]
    BadRequest(String),
    /// 401: no `Authorization: Bearer` header, or an unknown, revoked or
    /// expired token.
    #[error("missing, unknown, revoked or expired bearer token")]
    Unauthorized,
    /// 403: the token's role may not do this.
    #[error("{0}")]
    Forbidden(String),
    /// 404: no such route, problem, testcase or submission.
    #[error("{0}")]
    NotFound(String),
    /// 409: the request conflicts with the current state (a taken name).
    #[error("{0}")]
    Conflict(String),
    /// 422: well-formed JSON whose content is invalid (unknown problem or
    /// testcase names, an input the validator rejects).
    #[error("{0}")]
    Unprocessable(String),
    /// 408: the body did not arrive within `server.body_read_timeout_ms`.
    /// The connection is closed, since the rest of the body may still come.
    #[error("the request body did not arrive within {0} ms")]
    BodyTimeout(u128),
    /// 413: a body (or its announced `Content-Length`) above
    /// `server.body_limit_bytes`, refused before it is read. The connection
    /// is closed rather than the body drained.
    #[error("the request body is larger than {0} bytes")]
    BodyTooLarge(usize),
    /// 429: a per-user limit; `Retry-After` says when to try again and the
    /// body's `limit` names the setting.
    #[error("{}", limit_message(.0))]
    TooManyRequests(LimitExceeded),
    /// 429: this client address presented too many unknown, revoked or
    /// expired tokens in a minute; `Retry-After` says when to try again.
    #[error(
        "limits.failed_auths_per_minute reached: at most {} failed authentications from one address in a minute; retry in {} s",
        .0.limit,
        .0.retry_after.as_millis().div_ceil(1000).max(1)
    )]
    AuthThrottled(Throttled),
    /// 400 (malformed JSON or query), 413 (body too large), 415 (not JSON),
    /// 422 (wrong types): the extractor's own status, with its message.
    #[error("{message}")]
    Rejected { status: StatusCode, message: String },
    /// 503: the host cannot do this now (no sandbox for programs).
    #[error("{0}")]
    Unavailable(String),
    /// 500: a database or runtime failure; logged, never shown.
    #[error("internal error: {0}")]
    Internal(String),
}

impl ApiError {
    /// The status this error answers with, for the API and the web UI alike.
    pub fn status(&self) -> StatusCode {
        match self {
            ApiError::BadRequest(_) => StatusCode::BAD_REQUEST,
            ApiError::Unauthorized => StatusCode::UNAUTHORIZED,
            ApiError::Forbidden(_) => StatusCode::FORBIDDEN,
            ApiError::NotFound(_) => StatusCode::NOT_FOUND,
            ApiError::Conflict(_) => StatusCode::CONFLICT,
            ApiError::Unprocessable(_) => StatusCode::UNPROCESSABLE_ENTITY,
            ApiError::BodyTimeout(_) => StatusCode::REQUEST_TIMEOUT,
            ApiError::BodyTooLarge(_) => StatusCode::PAYLOAD_TOO_LARGE,
            ApiError::TooManyRequests(_) | ApiError::AuthThrottled(_) => {
                StatusCode::TOO_MANY_REQUESTS
            }
            ApiError::Rejected { status, .. } => *status,
            ApiError::Unavailable(_) => StatusCode::SERVICE_UNAVAILABLE,
            ApiError::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let status = self.status();
        let message = match &self {
            ApiError::Internal(cause) => {
                tracing::error!(%cause, "internal error");
                "internal server error".to_string()
            }
            other => other.to_string(),
        };
        let limit = match &self {
            ApiError::TooManyRequests(exceeded) => Some(exceeded.limit.setting().to_string()),
            ApiError::AuthThrottled(_) => Some("limits.failed_auths_per_minute".to_string()),
            _ => None,
        };
        let mut response = (
            status,
            Json(ErrorBody {
                error: message,
                limit,
            }),
        )
            .into_response();
        let headers = response.headers_mut();
        match &self {
            ApiError::Unauthorized => {
                headers.insert(header::WWW_AUTHENTICATE, HeaderValue::from_static("Bearer"));
            }
            ApiError::BodyTimeout(_) | ApiError::BodyTooLarge(_) => {
                headers.insert(header::CONNECTION, HeaderValue::from_static("close"));
            }
            ApiError::TooManyRequests(LimitExceeded { retry_after, .. })
            | ApiError::AuthThrottled(Throttled { retry_after, .. }) => {
                let seconds = retry_after.as_millis().div_ceil(1000).max(1);
                headers.insert(header::RETRY_AFTER, HeaderValue::from(seconds as u64));
            }
            _ => {}
        }
        response
    }
}

impl From<AppError> for ApiError {
    fn from(e: AppError) -> ApiError {
        match e {
            AppError::Forbidden(message) => ApiError::Forbidden(message),
            AppError::NotFound(message) => ApiError::NotFound(message),
            AppError::Conflict(message) => ApiError::Conflict(message),
            AppError::Invalid(message) => ApiError::Unprocessable(message),
            AppError::Limited(exceeded) => ApiError::TooManyRequests(exceeded),
            AppError::Unavailable(message) => ApiError::Unavailable(message),
            AppError::Internal(cause) => ApiError::Internal(cause),
        }
    }
}

impl From<tokio::task::JoinError> for ApiError {
    fn from(e: tokio::task::JoinError) -> ApiError {
        ApiError::Internal(e.to_string())
    }
}

impl From<JsonRejection> for ApiError {
    fn from(rejection: JsonRejection) -> ApiError {
        ApiError::Rejected {
            status: rejection.status(),
            message: rejection.body_text(),
        }
    }
}

impl From<QueryRejection> for ApiError {
    fn from(rejection: QueryRejection) -> ApiError {
        ApiError::Rejected {
            status: StatusCode::BAD_REQUEST,
            message: rejection.body_text(),
        }
    }
}

impl From<PathRejection> for ApiError {
    fn from(rejection: PathRejection) -> ApiError {
        ApiError::Rejected {
            status: StatusCode::NOT_FOUND,
            message: rejection.body_text(),
        }
    }
}
