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

/// A large submission past what is left of its sender's day is refused as
/// admission would refuse it (before it is hashed: the refusal costs a
/// read, not a pass over its bytes), and a retry of a stored large
/// submission under its `Idempotency-Key` is still replayed, not refused.
#[tokio::test]
async fn a_large_submission_past_the_days_bytes_is_refused_and_a_retry_still_replayed() {
    let dir = TestDir::with_custom_checks();
    let app = TestApp::spawn_with(
        &dir,
        0,
        &[
            ("SERVER__BODY_LIMIT_BYTES", "4194304"),
            ("LIMITS__BYTES_PER_DAY", "4194304"),
        ],
    )
    .await;
    let big = |fill: &str| json!({ "problem": "nim", "input": "1\n1\n", "output": fill.repeat(2_100_000) });
    let send = |body: Value, key: &'static str| {
        app.http
            .post(format!("{}/api/submissions", app.address))
            .bearer_auth(&app.contestant)
            .header("Idempotency-Key", key)
            .json(&body)
            .send()
    };
    let first = send(big("x"), "first").await.expect("send");
    assert_eq!(first.status(), StatusCode::ACCEPTED);
    let first: Value = first.json().await.expect("json");
    let second = send(big("y"), "second").await.expect("send");
    assert_eq!(second.status(), StatusCode::TOO_MANY_REQUESTS);
    let retry_after: u64 = second.headers()["retry-after"]
        .to_str()
        .expect("ascii")
        .parse()
        .expect("whole seconds");
    assert!(retry_after > 23 * 3600, "{retry_after}");
    let second: Value = second.json().await.expect("json");
    assert_eq!(second["limit"], "limits.bytes_per_day", "{second}");
    let again = send(big("x"), "first").await.expect("send");
    assert_eq!(again.status(), StatusCode::OK);
    let again: Value = again.json().await.expect("json");
    assert_eq!(again["id"], first["id"], "{again}");
    assert_eq!(app.store().queue_depth().await.expect("depth"), (1, 0));
    app.stop().await;
}

/// Unknown tokens are counted per client address: past
/// `limits.failed_auths_per_minute` the address gets 429 with
/// `Retry-After` until its minute is over, whatever token it presents;
/// valid tokens never count, and requests without one are not refused.
#[tokio::test]
async fn failed_authentication_is_throttled_per_client_address() {
    let dir = TestDir::new();
    let app = TestApp::spawn_with(&dir, 0, &[("LIMITS__FAILED_AUTHS_PER_MINUTE", "5")]).await;
    for _ in 0..10 {
        let (status, _) = app.get("/api/problems", &app.contestant).await;
        assert_eq!(status, StatusCode::OK);
    }
    for n in 0..5 {
        let (status, body) = app.get("/api/problems", "nj_not_a_token").await;
        assert_eq!(status, StatusCode::UNAUTHORIZED, "try {n}: {body}");
    }
    let response = app
        .http
        .get(format!("{}/api/problems", app.address))
        .bearer_auth("nj_not_a_token")
        .send()
        .await
        .expect("send");
    assert_eq!(response.status(), StatusCode::TOO_MANY_REQUESTS);
    let retry_after: u64 = response
        .headers()
        .get("retry-after")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse().ok())
        .expect("a Retry-After in seconds");
    assert!((1..=60).contains(&retry_after), "{retry_after}");
    let body: serde_json::Value = response.json().await.expect("JSON");
    assert_eq!(body["limit"], "limits.failed_auths_per_minute", "{body}");
    // The address is refused whatever it presents, until the minute ends.
    let (status, _) = app.get("/api/problems", &app.contestant).await;
    assert_eq!(status, StatusCode::TOO_MANY_REQUESTS);
    let (status, _) = app
        .request(reqwest::Method::GET, "/api/health", None, None)
        .await;
    assert_eq!(status, StatusCode::OK);
    app.stop().await;
}

/// The client honours `Retry-After`: over the pending limit it says so,
/// waits, and sends the submission again, which goes in once a job is
/// judged.
#[tokio::test]
async fn the_client_waits_for_retry_after_and_submits_again() {
    let dir = TestDir::new();
    let app = TestApp::spawn_with(&dir, 0, &[("LIMITS__PENDING_SUBMISSIONS", "1")]).await;
    app.submit_answers(&app.contestant, &correct_answers())
        .await;
    let answers = dir.path().join("answers");
    std::fs::create_dir(&answers).expect("a folder");
    for (name, answer) in correct_answers() {
        std::fs::write(answers.join(format!("{name}.out")), answer).expect("an answer file");
    }
    let (server, token) = (app.address.clone(), app.contestant.clone());
    let client = tokio::task::spawn_blocking(move || {
        std::process::Command::new(env!("CARGO_BIN_EXE_nimjudge"))
            .args(["submit", "--problem", "nim", "--answers"])
            .arg(answers)
            .env("NIMJUDGE_SERVER", server)
            .env("NIMJUDGE_TOKEN", token)
            .output()
            .expect("the client runs")
    });
    // The first submission is judged while the client waits; then the
    // client's, once it is in.
    tokio::time::sleep(std::time::Duration::from_millis(1500)).await;
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    while !client.is_finished() && std::time::Instant::now() < deadline {
        app.judge.run_one_job("w").await.expect("a job run");
        tokio::time::sleep(std::time::Duration::from_millis(200)).await;
    }
    let out = client.await.expect("the client's task");
    let (stdout, stderr) = (
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr),
    );
    assert_eq!(out.status.code(), Some(0), "{stdout}{stderr}");
    assert!(stderr.contains("limits.pending_submissions"), "{stderr}");
    assert!(stderr.contains("trying again in 1 s"), "{stderr}");
    assert!(stdout.contains("verdict AC"), "{stdout}");
    app.stop().await;
}
