//! The `Idempotency-Key` header of `POST /api/submissions`.
//!
//! A client that retries a submission (after a timeout, a dropped
//! connection) sends the same key; the store then returns the submission the
//! first request made instead of storing another. A key belongs to its user
//! and is kept as long as the submission. The request is compared by a hash
//! of its parsed body, so whitespace and key order do not matter, but the
//! same key with a different problem or different answers is refused.

use axum::http::HeaderMap;
use sha2::{Digest, Sha256};

use super::ApiError;
use crate::{api::SubmitRequest, domain::SubmissionId, store::hex};

/// The request header.
pub const HEADER: &str = "idempotency-key";

/// The longest key accepted.
pub const MAX_KEY_LEN: usize = 255;

/// The response header saying an answer is a replay of an earlier one.
pub const REPLAYED_HEADER: &str = "idempotent-replayed";

/// The request's `Idempotency-Key`, if any: 1 to 255 visible ASCII
/// characters (a UUID is a good key). Anything else is a 400.
pub fn key(headers: &HeaderMap) -> Result<Option<String>, ApiError> {
    let mut values = headers.get_all(HEADER).iter();
    let Some(value) = values.next() else {
        return Ok(None);
    };
    if values.next().is_some() {
        return Err(ApiError::BadRequest(
            "send one Idempotency-Key header, not several".into(),
        ));
    }
    parse_key(value.as_bytes()).map(Some)
}

/// An idempotency key, from the header or a web form's hidden field: 1 to
/// 255 visible ASCII characters. Anything else is a 400.
pub fn parse_key(text: &[u8]) -> Result<String, ApiError> {
    if text.is_empty() || text.len() > MAX_KEY_LEN || !text.iter().all(u8::is_ascii_graphic) {
        return Err(ApiError::BadRequest(format!(
            "Idempotency-Key must be 1 to {MAX_KEY_LEN} visible ASCII characters"
        )));
    }
    Ok(String::from_utf8_lossy(text).into_owned())
}

/// The hash a retry must match: sha256 of the parsed request as JSON
/// (answers are a sorted map, so the text is canonical).
pub fn request_hash(request: &SubmitRequest) -> Result<String, ApiError> {
    let json = serde_json::to_vec(request)
        .map_err(|e| ApiError::Internal(format!("cannot encode a request: {e}")))?;
    Ok(hex(&Sha256::digest(&json)))
}

/// The refusal of a key reused for another request.
pub fn reused(key: &str, first: SubmissionId) -> ApiError {
    ApiError::Unprocessable(format!(
        "Idempotency-Key `{key}` was used before for a different request (submission {first}); \
         send a new key for a new submission"
    ))
}
