//! Per-user limits: a flooding contestant gets 429 with `Retry-After` and
//! the limit's name; others and admins go on; the counts come from the
//! database, so a restart does not reset them.

use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::helpers::{TestApp, TestDir, correct_answers};

/// Posts a submission and returns the status, `Retry-After` in seconds and
/// the body.
async fn submit(app: &TestApp, token: &str, body: &Value) -> (StatusCode, Option<u64>, Value) {
    let response = app
        .http
        .post(format!("{}/api/submissions", app.address))
        .bearer_auth(token)
        .json(body)
        .send()
        .await
        .expect("send");
    let status = response.status();
    let retry_after = response
        .headers()
        .get("retry-after")
        .map(|v| v.to_str().expect("ascii").parse().expect("whole seconds"));
    (status, retry_after, response.json().await.expect("json"))
}

fn answers() -> Value {
    json!({ "problem": "nim", "answers": correct_answers() })
}

#[tokio::test]
async fn a_third_pending_submission_gets_429_naming_the_limit_even_after_a_restart() {
    let dir = TestDir::new();
    let limits = [("LIMITS__PENDING_SUBMISSIONS", "2")];
    let app = TestApp::spawn_with(&dir, 0, &limits).await;
    for _ in 0..2 {
        let (status, _, body) = submit(&app, &app.contestant, &answers()).await;
        assert_eq!(status, StatusCode::ACCEPTED, "{body}");
    }
    let (status, retry_after, body) = submit(&app, &app.contestant, &answers()).await;
    assert_eq!(status, StatusCode::TOO_MANY_REQUESTS, "{body}");
    assert!(retry_after.is_some_and(|s| s >= 1), "{retry_after:?}");
    assert_eq!(body["limit"], "limits.pending_submissions");
    assert!(
        body["error"]
            .as_str()
            .is_some_and(|e| e.contains("limits.pending_submissions") && e.contains("at most 2")),
        "{body}"
    );
    // Another contestant and an admin are not held back by carol's flood.
    let (status, _, body) = submit(&app, &app.other, &answers()).await;
    assert_eq!(status, StatusCode::ACCEPTED, "{body}");
    for _ in 0..3 {
        let (status, _, body) = submit(&app, &app.admin, &answers()).await;
        assert_eq!(status, StatusCode::ACCEPTED, "admins are exempt: {body}");
    }
    assert_eq!(app.store().queue_depth().await.expect("depth"), (6, 0));
    app.stop().await;

    // The count is the database's, not the process's.
    let app = TestApp::spawn_with(&dir, 0, &limits).await;
    let (status, _, body) = submit(&app, &app.contestant, &answers()).await;
    assert_eq!(status, StatusCode::TOO_MANY_REQUESTS, "{body}");
    // Once judged, carol may submit again.
    while app.judge.run_one_job("w").await.expect("judge").is_some() {}
    let (status, _, body) = submit(&app, &app.contestant, &answers()).await;
    assert_eq!(status, StatusCode::ACCEPTED, "{body}");
    app.stop().await;
}

#[tokio::test]
async fn submissions_per_minute_and_bytes_per_day_are_limited_with_retry_after() {
    let dir = TestDir::with_custom_checks();
    let app = TestApp::spawn_with(
        &dir,
        0,
        &[
            ("LIMITS__SUBMISSIONS_PER_MINUTE", "3"),
            ("LIMITS__BYTES_PER_DAY", "65536"),
        ],
    )
    .await;
    for _ in 0..3 {
        let (status, _, body) = submit(&app, &app.contestant, &answers()).await;
        assert_eq!(status, StatusCode::ACCEPTED, "{body}");
    }
    let (status, retry_after, body) = submit(&app, &app.contestant, &answers()).await;
    assert_eq!(status, StatusCode::TOO_MANY_REQUESTS, "{body}");
    assert_eq!(body["limit"], "limits.submissions_per_minute");
    let retry_after = retry_after.expect("Retry-After");
    assert!((50..=60).contains(&retry_after), "{retry_after}");

    // Two 30 kB custom checks fit in 64 KiB a day; a third does not.
    let big = json!({ "problem": "nim", "input": "1\n1\n", "output": "x".repeat(30_000) });
    for _ in 0..2 {
        let (status, _, body) = submit(&app, &app.other, &big).await;
        assert_eq!(status, StatusCode::ACCEPTED, "{body}");
    }
    let (status, retry_after, body) = submit(&app, &app.other, &big).await;
    assert_eq!(status, StatusCode::TOO_MANY_REQUESTS, "{body}");
    assert_eq!(body["limit"], "limits.bytes_per_day");
    assert!(
        retry_after.is_some_and(|s| s > 23 * 3600),
        "{retry_after:?}"
    );
    assert_eq!(app.store().queue_depth().await.expect("depth"), (5, 0));
    app.stop().await;
}
