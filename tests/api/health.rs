//! Health tells the truth about writes: a full disk makes it 503 `failing`,
//! and freeing the space makes it `ok` again without a submission.

use nimjudge::testing::{SmallDisk, fill_up};
use reqwest::StatusCode;
use serde_json::json;

use crate::helpers::{TestApp, TestDir};

#[tokio::test]
#[ignore = "needs root (it mounts a small tmpfs); scripts/test.sh runs it"]
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

/// Program judging that is off shows in health and metrics with its
/// reason, and comes back by itself once the self-test passes (here: once
/// the other process holding the sandbox's folder lets it go).
#[tokio::test]
#[ignore = "needs root (the sandbox); scripts/test.sh runs it"]
async fn program_judging_that_is_off_shows_in_health_and_comes_back_by_itself() {
    let dir = TestDir::new();
    let settings = dir.config(1).sandbox;
    let holder = nimjudge::sandbox::Sandbox::new(nimjudge::sandbox::SandboxSettings {
        work_dir: settings.work_dir.clone(),
        first_uid: settings.first_uid,
        uid_count: settings.uid_count,
        system_paths: settings.system_paths.clone(),
        tmp_size_bytes: settings.tmp_size_bytes,
    })
    .expect("the sandbox needs root: run the tests as root");
    let app = TestApp::spawn(&dir, 1).await;
    let (status, health) = app
        .request(reqwest::Method::GET, "/api/health", None, None)
        .await;
    assert_eq!(status, StatusCode::OK, "{health}");
    assert_eq!(health["program_judging"], false, "{health}");
    let why = health["program_judging_off"].as_str().unwrap_or_default();
    assert!(
        why.contains("in use by another nimjudge process"),
        "{health}"
    );
    let metrics = metrics_text(&app).await;
    assert!(
        metrics.contains("nimjudge_program_judging 0\n"),
        "{metrics}"
    );
    let (status, body) = submit_program(&app).await;
    assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE, "{body}");

    drop(holder);
    let mut health = serde_json::Value::Null;
    for _ in 0..100 {
        health = app
            .request(reqwest::Method::GET, "/api/health", None, None)
            .await
            .1;
        if health["program_judging"] == true {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    assert_eq!(health["program_judging"], true, "{health}");
    assert_eq!(health["program_judging_off"], serde_json::Value::Null);
    let metrics = metrics_text(&app).await;
    assert!(
        metrics.contains("nimjudge_program_judging 1\n"),
        "{metrics}"
    );
    let (status, body) = submit_program(&app).await;
    assert_eq!(status, StatusCode::ACCEPTED, "{body}");
    app.stop().await;
}

async fn metrics_text(app: &TestApp) -> String {
    let (status, body) = app
        .request(reqwest::Method::GET, "/metrics", None, None)
        .await;
    assert_eq!(status, StatusCode::OK);
    body.as_str().expect("metrics as text").to_string()
}

/// Submits a one-line Python program to nim as the contestant.
async fn submit_program(app: &TestApp) -> (StatusCode, serde_json::Value) {
    app.post(
        "/api/submissions",
        &app.contestant,
        json!({"problem": "nim", "language": "python", "source": "print('Alice')\n"}),
    )
    .await
}

#[tokio::test]
async fn metrics_count_requests_by_route_and_status_and_report_the_process() {
    let dir = TestDir::new();
    let app = TestApp::spawn(&dir, 0).await;
    for _ in 0..3 {
        let (status, _) = app.get("/api/problems/nim", &app.contestant).await;
        assert_eq!(status, StatusCode::OK);
    }
    let (status, _) = app.get("/api/problems/nosuch", &app.contestant).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    let (status, _) = app.get("/api/nothing/here", &app.contestant).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    let metrics = metrics_text(&app).await;
    for line in [
        "nimjudge_http_requests_total{method=\"GET\",route=\"/api/problems/{id}\",status=\"200\"} 3\n",
        "nimjudge_http_requests_total{method=\"GET\",route=\"/api/problems/{id}\",status=\"404\"} 1\n",
        "nimjudge_http_request_duration_seconds_count{route=\"/api/problems/{id}\"} 4\n",
    ] {
        assert!(metrics.contains(line), "{line} in {metrics}");
    }
    // An unknown API path is one series, whatever the path.
    assert!(
        metrics.contains(
            "nimjudge_http_requests_total{method=\"GET\",route=\"/api/{*rest}\",status=\"404\"} 1\n"
        ),
        "{metrics}"
    );
    for family in [
        "nimjudge_build_info{version=",
        "process_cpu_seconds_total ",
        "process_resident_memory_bytes ",
        "process_start_time_seconds ",
    ] {
        assert!(
            metrics.lines().any(|l| l.starts_with(family)),
            "{family} in {metrics}"
        );
    }
    app.stop().await;
}
