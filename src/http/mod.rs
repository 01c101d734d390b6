//! The HTTP API: routing, shared state, extractors and auth.
//!
//! Handlers validate and insert; they never judge (that is the workers' job)
//! and never hold a transaction across an await on anything but the
//! database. Every error is an [`ApiError`] rendered as `{"error": "..."}`.
//!
//! # Layout
//! - [`error`]: [`ApiError`] and its status mapping.
//! - [`auth`]: bearer tokens and roles.
//! - [`problems`]: problems and testcases (setters manage, everyone reads).
//! - [`submissions`]: submitting, reading, listing and rejudging.
//! - [`ops`]: health, metrics, the OpenAPI document, token creation.

pub mod auth;
pub mod error;
pub mod ops;
pub mod problems;
pub mod submissions;

use std::time::Duration;

use axum::{
    Json, Router,
    extract::{DefaultBodyLimit, FromRequest, FromRequestParts, Request},
    http::{StatusCode, request::Parts},
    routing::{delete, get, post},
};
use serde::de::DeserializeOwned;
use tokio_util::sync::CancellationToken;

pub use error::ApiError;

use crate::worker::Judge;

/// What every handler can reach.
#[derive(Clone, Debug)]
pub struct AppState {
    pub judge: Judge,
    /// Longest `?wait_ms=` a client may ask for.
    pub max_wait: Duration,
    /// Fires at shutdown, so long polls return at once instead of holding
    /// the graceful shutdown open.
    pub shutdown: CancellationToken,
}

/// Every route of the API. Keep in step with [`ops::openapi`].
pub fn router(state: AppState, body_limit: usize) -> Router {
    Router::new()
        .route("/api/health", get(ops::health))
        .route("/metrics", get(ops::metrics))
        .route("/api/openapi.json", get(ops::openapi))
        .route("/api/tokens", post(ops::create_token))
        .route("/api/problems", get(problems::list))
        .route("/api/problems/{id}", get(problems::show))
        .route(
            "/api/problems/{id}/testcases",
            get(problems::testcases).post(problems::add_testcase),
        )
        .route(
            "/api/problems/{id}/testcases/{name}",
            delete(problems::delete_testcase),
        )
        .route(
            "/api/problems/{id}/testcases/{name}/input",
            get(problems::input),
        )
        .route("/api/problems/{id}/rejudge", post(problems::rejudge))
        .route(
            "/api/submissions",
            get(submissions::list).post(submissions::create),
        )
        .route("/api/submissions/{id}", get(submissions::show))
        .route("/api/submissions/{id}/rejudge", post(submissions::rejudge))
        .fallback(not_found)
        .method_not_allowed_fallback(method_not_allowed)
        .layer(DefaultBodyLimit::max(body_limit))
        .layer(axum::middleware::from_fn(log_request))
        .with_state(state)
}

/// Logs each request with its status and duration (at debug level: one line
/// per request is too much for `info` under load).
async fn log_request(request: Request, next: axum::middleware::Next) -> axum::response::Response {
    let method = request.method().clone();
    let path = request.uri().path().to_string();
    let started = std::time::Instant::now();
    let response = next.run(request).await;
    tracing::debug!(
        %method,
        %path,
        status = response.status().as_u16(),
        micros = started.elapsed().as_micros() as u64,
        "request"
    );
    response
}

async fn not_found() -> ApiError {
    ApiError::NotFound("no such endpoint; see GET /api/openapi.json".into())
}

async fn method_not_allowed() -> ApiError {
    ApiError::Rejected {
        status: StatusCode::METHOD_NOT_ALLOWED,
        message: "method not allowed on this endpoint".into(),
    }
}

/// `Json` whose rejections are [`ApiError`]s (so `{"error": ...}` bodies).
pub struct ApiJson<T>(pub T);

impl<S: Send + Sync, T: DeserializeOwned> FromRequest<S> for ApiJson<T> {
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Self, ApiError> {
        let Json(value) = Json::<T>::from_request(req, state).await?;
        Ok(ApiJson(value))
    }
}

/// `Query` whose rejections are [`ApiError`]s.
pub struct ApiQuery<T>(pub T);

impl<S: Send + Sync, T: DeserializeOwned> FromRequestParts<S> for ApiQuery<T> {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, ApiError> {
        let axum::extract::Query(value) =
            axum::extract::Query::<T>::from_request_parts(parts, state).await?;
        Ok(ApiQuery(value))
    }
}

/// `Path` whose rejections are [`ApiError`]s.
pub struct ApiPath<T>(pub T);

impl<S: Send + Sync, T: DeserializeOwned + Send> FromRequestParts<S> for ApiPath<T> {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, ApiError> {
        let axum::extract::Path(value) =
            axum::extract::Path::<T>::from_request_parts(parts, state).await?;
        Ok(ApiPath(value))
    }
}
