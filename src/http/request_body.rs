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

/// The size and time a request body may take.
#[derive(Debug, Clone, Copy)]
pub struct BodyLimits {
    pub max_bytes: usize,
    pub read_timeout: Duration,
}

/// Middleware: refuses an oversized `Content-Length`, then reads the body
/// within [`BodyLimits::read_timeout`] and hands the request on with the body
/// in memory.
pub async fn read_within_limits(
    State(limits): State<BodyLimits>,
    request: Request,
    next: Next,
) -> Result<Response, ApiError> {
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
    Ok(next
        .run(Request::from_parts(parts, Body::from(bytes)))
        .await)
}
