//! `Idempotency-Key`: a retried submission returns the first one instead of
//! storing another; the same key for another request is refused.

use reqwest::StatusCode;
use serde_json::Value;

use crate::helpers::{TestApp, TestDir};

/// Posts `body` as written with an optional key; returns the status, the
/// `Idempotent-Replayed` header and the body.
async fn post(
    app: &TestApp,
    token: &str,
    key: Option<&str>,
    body: &str,
) -> (StatusCode, Option<String>, Value) {
    let mut request = app
        .http
        .post(format!("{}/api/submissions", app.address))
        .bearer_auth(token)
        .header("content-type", "application/json")
        .body(body.to_string());
    if let Some(key) = key {
        request = request.header("Idempotency-Key", key);
    }
    let response = request.send().await.expect("send");
    let status = response.status();
    let replayed = response
        .headers()
        .get("idempotent-replayed")
        .map(|v| v.to_str().expect("ascii").to_string());
    (status, replayed, response.json().await.expect("json"))
}

#[tokio::test]
async fn a_retry_with_the_same_key_returns_the_first_submission_and_stores_nothing() {
    let dir = TestDir::new();
    let app = TestApp::spawn(&dir, 0).await;
    let key = "7c4f0a52-retry-1";
    let body = r#"{"problem": "nim", "answers": {"sample-1": "Alice", "small-1": "Bob"}}"#;
    let (status, replayed, first) = post(&app, &app.contestant, Some(key), body).await;
    assert_eq!(status, StatusCode::ACCEPTED, "{first}");
    assert_eq!(replayed, None);
    // The same request, written differently (key order, spacing).
    let again = r#"{"answers":{"small-1":"Bob","sample-1":"Alice"},"problem":"nim"}"#;
    for _ in 0..2 {
        let (status, replayed, second) = post(&app, &app.contestant, Some(key), again).await;
        assert_eq!(status, StatusCode::OK, "{second}");
        assert_eq!(replayed.as_deref(), Some("true"));
        assert_eq!(second, first, "the same body: id, url and state");
    }
    assert_eq!(app.store().queue_depth().await.expect("depth"), (1, 0));

    // The same key with another request is refused, naming the key.
    let other = r#"{"problem": "nim", "answers": {"sample-1": "Bob"}}"#;
    let (status, _, reply) = post(&app, &app.contestant, Some(key), other).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{reply}");
    assert!(
        reply["error"]
            .as_str()
            .is_some_and(|e| e.contains(key) && e.contains("different request")),
        "{reply}"
    );
    // Keys are per user: another contestant's identical key is a new submission.
    let (status, _, theirs) = post(&app, &app.other, Some(key), body).await;
    assert_eq!(status, StatusCode::ACCEPTED, "{theirs}");
    assert_ne!(theirs["id"], first["id"]);
    // Without a key, every request is a new submission.
    let (status, _, _) = post(&app, &app.contestant, None, body).await;
    assert_eq!(status, StatusCode::ACCEPTED);
    assert_eq!(app.store().queue_depth().await.expect("depth"), (3, 0));
    // A malformed key is a 400 and stores nothing.
    for bad in ["has space", &"k".repeat(256)] {
        let (status, _, reply) = post(&app, &app.contestant, Some(bad), body).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{reply}");
    }
    assert_eq!(app.store().queue_depth().await.expect("depth"), (3, 0));
    app.stop().await;

    // The key is durable: after a restart a retry still finds the first one.
    let app = TestApp::spawn(&dir, 0).await;
    let (status, _, after) = post(&app, &app.contestant, Some(key), body).await;
    assert_eq!(status, StatusCode::OK, "{after}");
    assert_eq!(after["id"], first["id"]);
    app.stop().await;
}
