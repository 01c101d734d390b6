//! Health tells the truth about writes: a full disk makes it 503 `failing`,
//! and freeing the space makes it `ok` again without a submission.

use nimjudge::testing::{SmallDisk, fill_up};
use reqwest::StatusCode;
use serde_json::json;

use crate::helpers::{TestApp, TestDir};

#[tokio::test]
async fn health_reports_failing_writes_on_a_full_disk_and_their_recovery() {
    let disk = SmallDisk::mount("4m");
    let dir = TestDir::with_custom_checks();
    let url = format!("sqlite://{}", disk.path().join("judge.db").display());
    let app = TestApp::spawn_with(
        &dir,
        0,
        &[
            ("DATABASE__URL", url.as_str()),
            ("SERVER__BODY_LIMIT_BYTES", "400000"),
        ],
    )
    .await;
    let (status, health) = app
        .request(reqwest::Method::GET, "/api/health", None, None)
        .await;
    assert_eq!(status, StatusCode::OK, "{health}");
    assert_eq!(health["status"], "ok");
    assert_eq!(health["last_write_error"], serde_json::Value::Null);

    let ballast = disk.path().join("ballast");
    fill_up(&ballast);
    let mut refused = None;
    for _ in 0..40 {
        let (status, body) = app
            .post(
                "/api/submissions",
                &app.contestant,
                json!({"problem": "nim", "input": "1\n1\n", "output": "x".repeat(300_000)}),
            )
            .await;
        if status != StatusCode::ACCEPTED {
            refused = Some((status, body));
            break;
        }
    }
    let (status, body) = refused.expect("a submission is refused on a full disk");
    assert_eq!(status, StatusCode::INTERNAL_SERVER_ERROR, "{body}");

    let (status, health) = app
        .request(reqwest::Method::GET, "/api/health", None, None)
        .await;
    assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE, "{health}");
    assert_eq!(health["status"], "failing");
    let error = health["last_write_error"].as_str().expect("the error");
    assert!(error.contains("full"), "{error}");
    assert!(
        !error.contains(&disk.path().display().to_string()),
        "no paths in an unauthenticated answer: {error}"
    );

    std::fs::remove_file(&ballast).expect("free the space");
    let (status, health) = app
        .request(reqwest::Method::GET, "/api/health", None, None)
        .await;
    assert_eq!(status, StatusCode::OK, "{health}");
    assert_eq!(health["status"], "ok");
    assert!(
        health["last_write_error"].is_string(),
        "the last failure is still shown: {health}"
    );
    let (status, body) = app
        .post(
            "/api/submissions",
            &app.contestant,
            json!({"problem": "nim", "input": "1\n1\n", "output": "First\n"}),
        )
        .await;
    assert_eq!(status, StatusCode::ACCEPTED, "{body}");
    app.stop().await;
}
