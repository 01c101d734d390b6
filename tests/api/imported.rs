//! A problem imported from a Kattis package (the hand-written
//! `tests/data/kattis/subtractiongame`, a game nimjudge has no solver for):
//! hosted with its package's answer files as references, its secret
//! testcases hidden, programs only.

use std::path::Path;

use nimjudge::kattis::{
    self,
    import::{ImportOptions, Package},
};
use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::helpers::{TestApp, TestDir, submission_id};

const PROBLEM: &str = "subtractiongame";

/// The package imported into the test's catalog, as `nimjudge import` does.
fn with_imported_package(dir: &TestDir) {
    let package = Package::read_folder(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/kattis/subtractiongame"),
    )
    .expect("the package reads");
    let imported = kattis::import::import(
        &package,
        &ImportOptions {
            id: None,
            time_limit_ms: Some(2000),
        },
    )
    .expect("the package imports");
    kattis::write(&imported.files, &dir.path().join("problems").join(PROBLEM))
        .expect("the problem folder is written");
}

fn solution(path: &str) -> String {
    std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/data/kattis/subtractiongame/submissions")
            .join(path),
    )
    .expect("the solution reads")
}

fn error(body: &Value) -> &str {
    body["error"].as_str().unwrap_or("")
}

#[tokio::test]
async fn an_imported_problem_shows_its_sample_only_and_takes_programs_only() {
    let dir = TestDir::new();
    with_imported_package(&dir);
    let app = TestApp::spawn(&dir, 0).await;
    let (status, body) = app
        .get(&format!("/api/problems/{PROBLEM}"), &app.contestant)
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(
        body["problem"]["title"], "Take One, Three or Four",
        "{body}"
    );
    assert_eq!(body["problem"]["takes_answers"], false, "{body}");
    let (_, body) = app.get("/api/problems/nim", &app.contestant).await;
    assert_eq!(body["problem"]["takes_answers"], true, "{body}");
    let (_, body) = app
        .get(
            &format!("/api/problems/{PROBLEM}/testcases"),
            &app.contestant,
        )
        .await;
    let names: Vec<&str> = body["testcases"]
        .as_array()
        .expect("a list")
        .iter()
        .filter_map(|t| t["name"].as_str())
        .collect();
    assert_eq!(names, ["sample-1"], "{body}");
    for (token, visible) in [(&app.contestant, false), (&app.setter, true)] {
        let (status, _) = app
            .get(
                &format!("/api/problems/{PROBLEM}/testcases/02-random/input"),
                token,
            )
            .await;
        assert_eq!(status == StatusCode::OK, visible, "{status}");
    }
    // Answers for the sample, or an input of one's own, would judge none of
    // the package's secret testcases.
    for body in [
        json!({ "problem": PROBLEM, "answers": { "sample-1": "Alice\nBob\nAlice\nAlice\nAlice\n" } }),
        json!({ "problem": PROBLEM, "input": "1\n7\n", "output": "Bob\n" }),
    ] {
        let (status, reply) = app.post("/api/submissions", &app.contestant, body).await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{reply}");
        assert!(
            error(&reply).contains("is judged on its package's testcases only: submit a program"),
            "{reply}"
        );
    }
    // A setter's testcase would have no reference: no solver computes one.
    let (status, reply) = app
        .post(
            &format!("/api/problems/{PROBLEM}/testcases"),
            &app.setter,
            json!({ "name": "extra-1", "input": "1\n8\n", "hidden": true }),
        )
        .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{reply}");
    assert!(error(&reply).contains("import it again"), "{reply}");
    app.stop().await;
}

#[tokio::test]
#[ignore = "needs root (the sandbox); scripts/test.sh runs it"]
async fn programs_on_an_imported_problem_are_judged_by_its_answer_files() {
    let dir = TestDir::new();
    with_imported_package(&dir);
    let app = TestApp::spawn(&dir, 1).await;
    for (path, language, expected) in [
        ("accepted/periodic.cpp", "cpp", "AC"),
        // In lower case: the package compares letters in either case.
        ("accepted/lowercase.py", "python", "AC"),
        ("wrong_answer/multiples.py", "python", "WA"),
    ] {
        let source = solution(path);
        let (status, body) = app
            .post(
                "/api/submissions",
                &app.contestant,
                json!({ "problem": PROBLEM, "language": language, "source": source }),
            )
            .await;
        assert_eq!(status, StatusCode::ACCEPTED, "{body}");
        let id = submission_id(&body["id"]);
        let body = app.verdict_within(&id, &app.contestant, 180).await;
        assert_eq!(body["submission"]["verdict"], expected, "{path}: {body:#}");
    }
    app.stop().await;
}
