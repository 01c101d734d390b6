//! Bad input gets a clear 4xx JSON error, never a 500 and never a row.

use reqwest::{Method, StatusCode};
use serde_json::json;

use crate::helpers::{TestApp, TestDir};

#[tokio::test]
async fn bad_requests_get_json_errors_and_leave_no_rows() {
    let dir = TestDir::new();
    let app = TestApp::spawn(&dir, 0).await;
    let url = format!("{}/api/submissions", app.address);
    let send = |body: String, content_type: &'static str| {
        app.http
            .post(&url)
            .bearer_auth(&app.contestant)
            .header("content-type", content_type)
            .body(body)
            .send()
    };
    let cases = [
        (
            "{not json".to_string(),
            "application/json",
            StatusCode::BAD_REQUEST,
        ),
        (
            json!({ "problem": 7 }).to_string(),
            "application/json",
            StatusCode::UNPROCESSABLE_ENTITY,
        ),
        (
            json!({ "problem": "nim", "answers": { "sample-1": 3 } }).to_string(),
            "application/json",
            StatusCode::UNPROCESSABLE_ENTITY,
        ),
        (
            json!({ "problem": "nope", "answers": {} }).to_string(),
            "application/json",
            StatusCode::UNPROCESSABLE_ENTITY,
        ),
        (
            json!({ "problem": "nim", "answers": {}, "input": "1\n1\n" }).to_string(),
            "application/json",
            StatusCode::UNPROCESSABLE_ENTITY,
        ),
        (
            json!({ "problem": "nim", "input": "x".repeat(70_000), "output": "" }).to_string(),
            "application/json",
            StatusCode::PAYLOAD_TOO_LARGE,
        ),
        (
            json!({ "problem": "nim" }).to_string(),
            "text/plain",
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
        ),
    ];
    for (body, content_type, expected) in cases {
        let preview: String = body.chars().take(60).collect();
        let response = send(body, content_type).await.expect("send");
        assert_eq!(response.status(), expected, "{preview}");
        let reply: serde_json::Value = response.json().await.expect("a JSON error");
        assert!(
            reply["error"].as_str().is_some_and(|e| !e.is_empty()),
            "{reply}"
        );
    }
    assert_eq!(app.store().queue_depth().await.expect("depth"), (0, 0));

    for (method, path) in [
        (Method::GET, "/api/nowhere"),
        (Method::GET, "/api/submissions/not-a-uuid"),
        (Method::GET, "/api/problems/nope/testcases"),
        (Method::PUT, "/api/submissions"),
        (Method::GET, "/api/submissions?limit=abc"),
        (Method::GET, "/api/submissions?verdict=OK"),
    ] {
        let (status, reply) = app
            .request(method.clone(), path, Some(&app.admin), None)
            .await;
        assert!(status.is_client_error(), "{method} {path}: {status}");
        assert!(reply["error"].is_string(), "{method} {path}: {reply}");
    }
    app.stop().await;
}
