//! The HTTP layer's error type: every failure a handler can return, mapped to
//! a status code in one `match` and rendered as `{"error": "..."}`.
//!
//! Internal errors are logged with their cause and answered with a generic
//! message, so database details never reach a client.

use axum::{
    Json,
    extract::rejection::{JsonRejection, PathRejection, QueryRejection},
    http::StatusCode,
    response::{IntoResponse, Response},
};

use crate::{api::ErrorBody, programs::ProgramsRefusal, store::StoreError};

/// A failed request.
#[derive(Debug, thiserror::Error)]
pub enum ApiError {
    /// 401: no `Authorization: Bearer` header, or an unknown token.
    #[error("missing or invalid bearer token")]
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
    fn status(&self) -> StatusCode {
        match self {
            ApiError::Unauthorized => StatusCode::UNAUTHORIZED,
            ApiError::Forbidden(_) => StatusCode::FORBIDDEN,
            ApiError::NotFound(_) => StatusCode::NOT_FOUND,
            ApiError::Conflict(_) => StatusCode::CONFLICT,
            ApiError::Unprocessable(_) => StatusCode::UNPROCESSABLE_ENTITY,
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
        let mut response = (status, Json(ErrorBody { error: message })).into_response();
        if status == StatusCode::UNAUTHORIZED
            && let Ok(value) = "Bearer".parse()
        {
            response
                .headers_mut()
                .insert(axum::http::header::WWW_AUTHENTICATE, value);
        }
        response
    }
}

impl From<StoreError> for ApiError {
    fn from(e: StoreError) -> ApiError {
        ApiError::Internal(e.to_string())
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

impl From<ProgramsRefusal> for ApiError {
    fn from(refusal: ProgramsRefusal) -> ApiError {
        match refusal {
            ProgramsRefusal::UnknownLanguage(_) => ApiError::Unprocessable(refusal.to_string()),
            ProgramsRefusal::NoSandbox(_) | ProgramsRefusal::LanguageUnavailable(..) => {
                ApiError::Unavailable(refusal.to_string())
            }
        }
    }
}
