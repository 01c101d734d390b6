//! Answers stay secret: what contestants see of a wrong answer (and of a
//! judging's progress) follows the problem's `feedback`, custom checks
//! follow its `custom_checks`, and a hidden testcase does not exist for
//! them.

use std::time::Duration;

use nimjudge::{
    domain::{Feedback, Progress},
    testing::FixturePolicy,
};
use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::helpers::{NIM_TESTCASES, TestApp, TestDir, correct_answers, nim_answer};

/// A contestant's answers with `small-1` wrong; returns the expected token
/// of `small-1`, the wrong one sent, and the judged submission as the
/// contestant and as a setter read it.
async fn wrong_small_1(app: &TestApp) -> (String, String, Value, Value) {
    let expected = nim_answer(NIM_TESTCASES[1].2).trim().to_string();
    let wrong = if expected == "Alice" { "Bob" } else { "Alice" }.to_string();
    let mut answers = correct_answers();
    answers.insert("small-1".into(), format!("{wrong}\n"));
    let id = app.submit_answers(&app.contestant, &answers).await;
    let contestant = app.verdict(&id, &app.contestant).await;
    let setter = app.verdict(&id, &app.setter).await;
    (expected, wrong, contestant, setter)
}

/// The `detail` of `small-1` in the latest results, if served.
fn small_1_detail(document: &Value) -> Option<String> {
    document["results"]
        .as_array()
        .expect("results")
        .iter()
        .find(|r| r["testcase"] == "small-1")
        .and_then(|r| r["detail"].as_str())
        .map(str::to_string)
}

/// The contestant's listing of their submissions, as text.
async fn listing(app: &TestApp) -> String {
    let (status, body) = app.get("/api/submissions", &app.contestant).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    body.to_string()
}

fn with_feedback(feedback: Feedback) -> TestDir {
    TestDir::with_policy(FixturePolicy {
        feedback: Some(feedback),
        ..FixturePolicy::default()
    })
}

#[tokio::test]
async fn a_wrong_answer_under_verdict_feedback_never_shows_the_contestant_the_expected_token() {
    let dir = TestDir::new();
    let app = TestApp::spawn(&dir, 1).await;
    let (expected, wrong, contestant, setter) = wrong_small_1(&app).await;
    assert_eq!(contestant["submission"]["verdict"], "WA", "{contestant}");
    // Nothing in the document names the reference token: not the
    // submission's message, not a result's message or detail, not a
    // judgement. The user names and testcase names never contain it.
    let text = contestant.to_string();
    assert!(!text.contains(&expected), "`{expected}` leaks: {text}");
    assert!(!listing(&app).await.contains(&expected));
    // They still see which testcase and what they wrote.
    let message = contestant["submission"]["message"]
        .as_str()
        .expect("a message");
    assert!(
        message.contains("small-1") && message.contains(&format!("`{wrong}`")),
        "{message}"
    );
    assert_eq!(small_1_detail(&contestant), None);
    // A setter sees the full difference.
    assert_eq!(
        small_1_detail(&setter).as_deref(),
        Some(format!("token 1 (line 1): expected `{expected}`, found `{wrong}`").as_str())
    );
    app.stop().await;
}

#[tokio::test]
async fn full_feedback_shows_the_contestant_the_expected_token() {
    let dir = with_feedback(Feedback::Full);
    let app = TestApp::spawn(&dir, 1).await;
    let (expected, wrong, contestant, _) = wrong_small_1(&app).await;
    assert_eq!(
        small_1_detail(&contestant).as_deref(),
        Some(format!("token 1 (line 1): expected `{expected}`, found `{wrong}`").as_str()),
        "{contestant}"
    );
    let (_, problem) = app.get("/api/problems/nim", &app.contestant).await;
    assert_eq!(problem["problem"]["feedback"], "full", "{problem}");
    app.stop().await;
}

#[tokio::test]
async fn no_feedback_shows_the_contestant_the_verdict_only() {
    let dir = with_feedback(Feedback::None);
    let app = TestApp::spawn(&dir, 1).await;
    let (expected, _, contestant, setter) = wrong_small_1(&app).await;
    assert_eq!(contestant["submission"]["verdict"], "WA", "{contestant}");
    assert_eq!(contestant["submission"]["message"], Value::Null);
    assert_eq!(contestant["results"], json!([]));
    for judgement in contestant["judgements"].as_array().expect("judgements") {
        assert_eq!(judgement["verdict"], "WA");
        assert_eq!(judgement["message"], Value::Null, "{judgement}");
        assert_eq!(judgement["results"], json!([]), "{judgement}");
    }
    // What the contestant sent names the public testcases they answered
    // (theirs, and listed on the problem page); nothing else may.
    let mut judged = contestant.clone();
    let sent = judged
        .as_object_mut()
        .and_then(|document| document.remove("content"))
        .expect("the content sent");
    assert_eq!(sent["kind"], "answers", "{sent}");
    let text = judged.to_string();
    assert!(!text.contains("small-1"), "a testcase is named: {text}");
    assert!(!text.contains(&expected), "`{expected}` leaks: {text}");
    assert!(
        !sent.to_string().contains(&expected),
        "`{expected}` leaks: {sent}"
    );
    let listed = listing(&app).await;
    assert!(!listed.contains("small-1"), "{listed}");
    assert!(listed.contains("\"verdict\":\"WA\""), "{listed}");
    // Setters still see every testcase.
    assert_eq!(
        setter["results"].as_array().expect("results").len(),
        NIM_TESTCASES.len()
    );
    app.stop().await;
}

#[tokio::test]
async fn a_custom_check_is_403_when_custom_checks_are_off_and_judged_when_on() {
    let input = "3\n4 4 1\n";
    let check = json!({ "problem": "nim", "input": input, "output": nim_answer(input) });

    let dir = TestDir::new();
    let app = TestApp::spawn(&dir, 0).await;
    let (status, body) = app
        .post("/api/submissions", &app.contestant, check.clone())
        .await;
    assert_eq!(status, StatusCode::FORBIDDEN, "{body}");
    let error = body["error"].as_str().expect("error");
    assert!(error.contains("custom_checks"), "{error}");
    assert_eq!(app.store().queue_depth().await.expect("depth"), (0, 0));
    // Setters may still check an input of their own.
    let (status, body) = app
        .post("/api/submissions", &app.setter, check.clone())
        .await;
    assert_eq!(status, StatusCode::ACCEPTED, "{body}");
    app.stop().await;

    let dir = TestDir::with_custom_checks();
    let app = TestApp::spawn(&dir, 1).await;
    let (status, body) = app.post("/api/submissions", &app.contestant, check).await;
    assert_eq!(status, StatusCode::ACCEPTED, "{body}");
    let id = crate::helpers::submission_id(&body["id"]);
    let judged = app.verdict(&id, &app.contestant).await;
    assert_eq!(judged["submission"]["verdict"], "AC", "{judged}");
    app.stop().await;
}

#[tokio::test]
async fn a_hidden_testcase_is_404_to_contestants_like_one_that_does_not_exist() {
    let dir = TestDir::new();
    let app = TestApp::spawn(&dir, 0).await;
    let (status, _) = app
        .post(
            "/api/problems/nim/testcases",
            &app.setter,
            json!({ "name": "secret-1", "input": "1\n9\n", "hidden": true }),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED);
    let path = |name: &str| format!("/api/problems/nim/testcases/{name}/input");
    let (status, hidden) = app.get(&path("secret-1"), &app.contestant).await;
    assert_eq!(status, StatusCode::NOT_FOUND, "{hidden}");
    let (status, missing) = app.get(&path("secret-2"), &app.contestant).await;
    assert_eq!(status, StatusCode::NOT_FOUND, "{missing}");
    assert_eq!(
        hidden["error"]
            .as_str()
            .map(|e| e.replace("secret-1", "NAME")),
        missing["error"]
            .as_str()
            .map(|e| e.replace("secret-2", "NAME")),
    );
    let (status, input) = app.get(&path("secret-1"), &app.setter).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(input, "1\n9\n");
    app.stop().await;
}

#[tokio::test]
async fn progress_while_judged_is_shown_to_a_contestant_unless_the_feedback_is_none() {
    for (feedback, contestant_sees) in [(Feedback::Verdict, true), (Feedback::None, false)] {
        let dir = with_feedback(feedback);
        let app = TestApp::spawn(&dir, 0).await;
        let id = app
            .submit_answers(&app.contestant, &correct_answers())
            .await;
        // A worker's claim and its record, as the worker makes them.
        let claim = app
            .store()
            .claim("progress-worker", Duration::from_secs(60))
            .await
            .expect("claim")
            .expect("the job");
        let progress = Progress { done: 1, total: 3 };
        assert!(
            app.store()
                .record_progress(&claim, progress)
                .await
                .expect("record")
        );
        let shown = json!({ "done": 1, "total": 3 });
        let (_, setter) = app
            .get(&format!("/api/submissions/{id}"), &app.setter)
            .await;
        assert_eq!(setter["submission"]["progress"], shown, "{setter}");
        let (_, contestant) = app
            .get(&format!("/api/submissions/{id}"), &app.contestant)
            .await;
        let (_, listed) = app.get("/api/submissions", &app.contestant).await;
        let listed = &listed["submissions"][0]["progress"];
        if contestant_sees {
            assert_eq!(contestant["submission"]["progress"], shown, "{contestant}");
            assert_eq!(*listed, shown);
        } else {
            // Its total counts every testcase, hidden ones too.
            assert!(
                contestant["submission"]["progress"].is_null(),
                "{contestant}"
            );
            assert!(listed.is_null(), "{listed}");
        }
        app.stop().await;
    }
}
