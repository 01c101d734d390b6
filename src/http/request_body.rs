//! Reading a request's body within its limits, before any handler runs.
//!
//! A `Content-Length` above the body limit is refused with 413 at once, before
//! a byte of the body is read, so a client announcing a huge body is not
//! waited for. Any other body is read whole within the body-read timeout, or
//! answered 408: a client that sends its header and then trickles (or never
//! sends) its body cannot hold a connection and a task for the full request
//! timeout. Both answers close the connection, since the unread rest of the
//! body would otherwise be taken for the next request. Handlers then parse the
//! body from memory, as they would have anyway (every body here is JSON).
//!
//! The refusals are the API's errors, answered the way the routes behind the
//! middleware answer errors: JSON for the API, an HTML page for the web UI's
//! forms ([`BodyLimits::refuse`]).

use std::time::Duration;

use axum::{
    body::Body,
    extract::{Request, State},
    http::header::CONTENT_LENGTH,
    middleware::Next,
    response::Response,
};
use http_body_util::{BodyExt, LengthLimitError, Limited};

use super::ApiError;

/// The size and time a request body may take, and how a refusal is
/// answered.
#[derive(Debug, Clone, Copy)]
pub struct BodyLimits {
    pub max_bytes: usize,
    pub read_timeout: Duration,
    /// Renders a 413 or 408 (or a 400 for a body that cannot be read) for
    /// the routes behind this middleware: the API's JSON, or the web UI's
    /// HTML page, so a browser never shows a form's refusal as raw JSON.
    pub refuse: fn(ApiError) -> Response,
}

/// Middleware: refuses an oversized `Content-Length`, then reads the body
/// within [`BodyLimits::read_timeout`] and hands the request on with the body
/// in memory.
pub async fn read_within_limits(
    State(limits): State<BodyLimits>,
    request: Request,
    next: Next,
) -> Response {
    match read_body(limits, request).await {
        Ok(request) => next.run(request).await,
        Err(refusal) => (limits.refuse)(refusal),
    }
}

/// The request with its body read into memory, or why it was refused.
async fn read_body(limits: BodyLimits, request: Request) -> Result<Request, ApiError> {
    let (parts, body) = request.into_parts();
    let announced = parts
        .headers
        .get(CONTENT_LENGTH)
        .and_then(|value| value.to_str().ok())
        .and_then(|text| text.trim().parse::<u64>().ok());
    if announced.is_some_and(|length| length > limits.max_bytes as u64) {
        return Err(ApiError::BodyTooLarge(limits.max_bytes));
    }
    let read = Limited::new(body, limits.max_bytes).collect();
    let bytes = match tokio::time::timeout(limits.read_timeout, read).await {
        Err(_) => return Err(ApiError::BodyTimeout(limits.read_timeout.as_millis())),
        Ok(Err(e)) if e.is::<LengthLimitError>() => {
            return Err(ApiError::BodyTooLarge(limits.max_bytes));
        }
        Ok(Err(e)) => {
            return Err(ApiError::BadRequest(format!(
                "cannot read the request body: {e}"
            )));
        }
        Ok(Ok(collected)) => collected.to_bytes(),
    };
    Ok(Request::from_parts(parts, Body::from(bytes)))
}
