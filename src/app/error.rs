//! The application layer's error: what a use case refuses and why, or that
//! it failed. The edges map each variant to their own answer in one place
//! (`http::ApiError`'s statuses; the web pages show the same).

use crate::{
    programs::ProgramsRefusal,
    store::{LimitExceeded, StoreError, UserLimit},
};

/// A refused or failed use case.
#[derive(Debug, thiserror::Error)]
pub enum AppError {
    /// The caller's role may not do this.
    #[error("{0}")]
    Forbidden(String),
    /// No such problem, testcase, submission or token, or one the caller
    /// may not know of (another contestant's submission, a hidden input).
    #[error("{0}")]
    NotFound(String),
    /// The request conflicts with the current state (a taken name, a
    /// submission already waiting).
    #[error("{0}")]
    Conflict(String),
    /// The request's content is invalid: the message names what and why.
    #[error("{0}")]
    Invalid(String),
    /// A per-user limit; says which and when to try again.
    #[error("{}", limit_message(.0))]
    Limited(LimitExceeded),
    /// This host cannot do it now (no sandbox, no toolchain).
    #[error("{0}")]
    Unavailable(String),
    /// A database or runtime failure; the edges log it and show a generic
    /// message.
    #[error("internal error: {0}")]
    Internal(String),
}

/// The message of a limit: which, its bound, and when to retry.
pub fn limit_message(exceeded: &LimitExceeded) -> String {
    let rule = match exceeded.limit {
        UserLimit::SubmissionsPerMinute(n) => format!("at most {n} submissions in any 60 seconds"),
        UserLimit::PendingSubmissions(n) => {
            format!("at most {n} submissions queued or being judged at once")
        }
        UserLimit::BytesPerDay(n) => format!("at most {n} bytes of submissions in any 24 hours"),
    };
    format!(
        "{} reached: {rule}; retry in {} s",
        exceeded.limit.setting(),
        exceeded.retry_after.as_millis().div_ceil(1000).max(1)
    )
}

impl From<StoreError> for AppError {
    fn from(e: StoreError) -> AppError {
        match e {
            StoreError::NameTaken { .. } => AppError::Conflict(e.to_string()),
            other => AppError::Internal(other.to_string()),
        }
    }
}

impl From<tokio::task::JoinError> for AppError {
    fn from(e: tokio::task::JoinError) -> AppError {
        AppError::Internal(e.to_string())
    }
}

impl From<ProgramsRefusal> for AppError {
    fn from(refusal: ProgramsRefusal) -> AppError {
        match refusal {
            ProgramsRefusal::UnknownLanguage(_) => AppError::Invalid(refusal.to_string()),
            ProgramsRefusal::NoSandbox(_) | ProgramsRefusal::LanguageUnavailable(..) => {
                AppError::Unavailable(refusal.to_string())
            }
        }
    }
}
