//! A problem imported from a Kattis package (the hand-written
//! `tests/data/kattis/subtractiongame`, a game nimjudge has no solver for):
//! hosted with its package's answer files as references, its secret
//! testcases hidden, programs only.

use std::path::Path;

use nimjudge::kattis::{
    self,
    import::{ImportOptions, Package},
};
use reqwest::{Method, StatusCode};
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
    // A setter's testcase waits for a worker to run the reference solution;
    // an empty one is refused, having no validator to say more.
    let (status, reply) = add_testcase(&app, "extra-1", "1\n8\n").await;
    assert_eq!(status, StatusCode::CREATED, "{reply}");
    assert_eq!(reply["status"], "pending", "{reply}");
    let (status, reply) = add_testcase(&app, "extra-2", " \n").await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{reply}");
    assert!(error(&reply).contains("it is empty"), "{reply}");
    let (_, body) = app
        .get(
            &format!("/api/problems/{PROBLEM}/testcases"),
            &app.contestant,
        )
        .await;
    assert_eq!(
        body["testcases"].as_array().map(Vec::len),
        Some(1),
        "{body}"
    );
    app.stop().await;
}

#[tokio::test]
async fn without_a_reference_solution_setters_cannot_add_testcases() {
    let dir = TestDir::new();
    with_imported_package(&dir);
    let manifest = dir
        .path()
        .join("problems")
        .join(PROBLEM)
        .join("problem.toml");
    let text = std::fs::read_to_string(&manifest).expect("the manifest reads");
    let without: String = text
        .lines()
        .filter(|line| !line.starts_with("reference_solution"))
        .map(|line| format!("{line}\n"))
        .collect();
    assert_ne!(without, text, "the import named a reference solution");
    std::fs::write(&manifest, without).expect("the manifest is written");
    let app = TestApp::spawn(&dir, 0).await;
    let (status, reply) = add_testcase(&app, "extra-1", "1\n8\n").await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{reply}");
    assert!(
        error(&reply).contains("names no reference_solution"),
        "{reply}"
    );
    app.stop().await;
}

/// A setter adds a hidden testcase `name` holding `input`.
async fn add_testcase(app: &TestApp, name: &str, input: &str) -> (StatusCode, Value) {
    app.post(
        &format!("/api/problems/{PROBLEM}/testcases"),
        &app.setter,
        json!({ "name": name, "input": input, "hidden": true }),
    )
    .await
}

/// The reference status of testcase `name` once a worker has computed it
/// (or the last one seen after two minutes).
async fn reference_status(app: &TestApp, name: &str) -> String {
    let mut status = String::new();
    for _ in 0..1200 {
        let (_, body) = app
            .get(&format!("/api/problems/{PROBLEM}/testcases"), &app.setter)
            .await;
        status = body["testcases"]
            .as_array()
            .and_then(|all| all.iter().find(|t| t["name"] == name))
            .and_then(|t| t["status"].as_str())
            .unwrap_or("")
            .to_owned();
        if status != "pending" {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    status
}

/// Submits `source` as a contestant and waits for its verdict.
async fn judged(app: &TestApp, language: &str, source: &str) -> Value {
    let (status, body) = app
        .post(
            "/api/submissions",
            &app.contestant,
            json!({ "problem": PROBLEM, "language": language, "source": source }),
        )
        .await;
    assert_eq!(status, StatusCode::ACCEPTED, "{body}");
    let id = submission_id(&body["id"]);
    app.verdict_within(&id, &app.contestant, 180).await
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
        let body = judged(&app, language, &solution(path)).await;
        assert_eq!(body["submission"]["verdict"], expected, "{path}: {body:#}");
    }
    app.stop().await;
}

/// Wrong only on a pile of 123,456,789,012 stones (4 mod 7: Alice wins),
/// which none of the package's testcases holds.
const PLANTED: &str = r#"import sys

data = sys.stdin.buffer.read().split()
for n in data[1 : 1 + int(data[0])]:
    n = int(n)
    print("Bob" if n % 7 in (0, 2) or n == 123456789012 else "Alice")
"#;

#[tokio::test]
#[ignore = "needs root (the sandbox); scripts/test.sh runs it"]
async fn a_setters_testcase_gets_its_reference_from_the_reference_solution_in_the_sandbox() {
    let dir = TestDir::new();
    with_imported_package(&dir);
    let app = TestApp::spawn(&dir, 1).await;
    let body = judged(&app, "python", PLANTED).await;
    assert_eq!(body["submission"]["verdict"], "AC", "{body:#}");
    let (status, reply) = add_testcase(&app, "extra-1", "2\n123456789012\n8\n").await;
    assert_eq!(status, StatusCode::CREATED, "{reply}");
    assert_eq!(reference_status(&app, "extra-1").await, "ready");
    let body = judged(&app, "python", PLANTED).await;
    assert_eq!(body["submission"]["verdict"], "WA", "{body:#}");
    assert_eq!(
        body["submission"]["message"], "a hidden testcase: wrong answer",
        "{body:#}"
    );
    // The reference is right: the package's own solutions still pass.
    for (path, language) in [
        ("accepted/lowercase.py", "python"),
        ("accepted/periodic.cpp", "cpp"),
    ] {
        let body = judged(&app, language, &solution(path)).await;
        assert_eq!(body["submission"]["verdict"], "AC", "{path}: {body:#}");
    }
    // The package goes out with the setter's testcase and its reference.
    let exported =
        crate::helpers::raw_get(&app, format!("/api/problems/{PROBLEM}/kattis"), &app.setter).await;
    assert_eq!(exported.status(), StatusCode::OK);
    let bytes = exported.bytes().await.expect("a zip");
    let files = nimjudge::zip_archive::read_files(&bytes, usize::MAX).expect("a zip");
    let secret = |file: &str| {
        files
            .get(&format!("{PROBLEM}/data/secret/{file}"))
            .map(|bytes| String::from_utf8_lossy(bytes).into_owned())
    };
    assert_eq!(
        secret("extra-1.in").as_deref(),
        Some("2\n123456789012\n8\n")
    );
    assert_eq!(secret("extra-1.ans").as_deref(), Some("Alice\nAlice\n"));
    // The reference solution fails on an input that promises two piles and
    // holds one (it exits with status 1): the reference fails, and a program
    // that reads it well gets IE until the setter deletes the testcase.
    let (status, reply) = add_testcase(&app, "bad-1", "2\n5\n").await;
    assert_eq!(status, StatusCode::CREATED, "{reply}");
    assert_eq!(reference_status(&app, "bad-1").await, "failed");
    let (_, body) = app
        .get(&format!("/api/problems/{PROBLEM}/testcases"), &app.setter)
        .await;
    let bad = body["testcases"]
        .as_array()
        .and_then(|all| all.iter().find(|t| t["name"] == "bad-1"))
        .expect("listed");
    assert_eq!(
        bad["reference_error"],
        "the reference solution accepted/periodic.cpp: the program exited with status 1",
        "{body}"
    );
    let (status, body) = app
        .get(&format!("/api/problems/{PROBLEM}/kattis"), &app.setter)
        .await;
    assert_eq!(status, StatusCode::CONFLICT, "{body}");
    assert!(
        error(&body)
            .contains("testcase `bad-1` has no reference yet (failed: the reference solution"),
        "{body}"
    );
    let source = solution("accepted/lowercase.py");
    let body = judged(&app, "python", &source).await;
    assert_eq!(body["submission"]["verdict"], "IE", "{body:#}");
    assert_eq!(
        body["submission"]["message"], "a hidden testcase: internal error",
        "{body:#}"
    );
    let (status, _) = app
        .request(
            Method::DELETE,
            &format!("/api/problems/{PROBLEM}/testcases/bad-1"),
            Some(&app.setter),
            None,
        )
        .await;
    assert_eq!(status, StatusCode::NO_CONTENT);
    let body = judged(&app, "python", &source).await;
    assert_eq!(body["submission"]["verdict"], "AC", "{body:#}");
    app.stop().await;
}

/// The hand-written package zipped inside its folder, with `change` made to
/// its files first.
fn zipped_package(change: impl FnOnce(&mut Package)) -> Vec<u8> {
    let mut package = Package::read_folder(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/kattis/subtractiongame"),
    )
    .expect("the package reads");
    change(&mut package);
    let mut zip = nimjudge::zip_archive::StoredZip::with_limit(usize::MAX);
    for (path, bytes) in &package.files {
        zip.add(&format!("{PROBLEM}/{path}"), bytes)
            .expect("it fits");
    }
    zip.finish().expect("a zip")
}

/// `POST /api/problems` with `archive` as the body.
async fn upload(app: &TestApp, query: &str, token: &str, archive: Vec<u8>) -> (StatusCode, Value) {
    let response = app
        .http
        .post(format!("{}/api/problems{query}", app.address))
        .bearer_auth(token)
        .header("content-type", "application/zip")
        .body(archive)
        .send()
        .await
        .expect("an answer");
    let status = response.status();
    let text = response.text().await.expect("a body");
    (
        status,
        serde_json::from_str(&text).unwrap_or(Value::String(text)),
    )
}

#[tokio::test]
async fn a_setter_imports_a_zipped_package_through_the_api_and_it_is_hosted_at_once() {
    let dir = TestDir::new();
    let app = // The package is 290 kB: above the fixture's body limit, within the
    // default one.
    TestApp::spawn_with(&dir, 0, &[("SERVER__BODY_LIMIT_BYTES", "1048576")]).await;
    let package = zipped_package(|_| {});
    let folder = dir.path().join("problems").join(PROBLEM);
    let (status, body) = upload(
        &app,
        "?time_limit_ms=2000",
        &app.contestant,
        package.clone(),
    )
    .await;
    assert_eq!(status, StatusCode::FORBIDDEN, "{body}");
    // A legacy package states no time limit.
    let (status, body) = upload(&app, "", &app.setter, package.clone()).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
    assert!(error(&body).contains("time limit"), "{body}");
    assert!(!folder.exists());

    let (status, body) = upload(&app, "?time_limit_ms=2000", &app.setter, package.clone()).await;
    assert_eq!(status, StatusCode::CREATED, "{body}");
    assert_eq!(
        (
            &body["problem"],
            &body["title"],
            &body["testcases"],
            &body["samples"]
        ),
        (
            &json!(PROBLEM),
            &json!("Take One, Three or Four"),
            &json!(4),
            &json!(1)
        ),
        "{body}"
    );
    assert!(folder.join("problem.toml").is_file());
    // Hosted at once: a contestant sees it and its sample only.
    let (status, body) = app
        .get(&format!("/api/problems/{PROBLEM}"), &app.contestant)
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["problem"]["time_limit_ms"], 2000, "{body}");
    let (_, body) = app
        .get(
            &format!("/api/problems/{PROBLEM}/testcases"),
            &app.contestant,
        )
        .await;
    assert_eq!(
        body["testcases"].as_array().map(Vec::len),
        Some(1),
        "{body}"
    );

    // It goes out again as a package, until setters add a testcase the
    // package has no answer file for.
    let exported =
        crate::helpers::raw_get(&app, format!("/api/problems/{PROBLEM}/kattis"), &app.setter).await;
    assert_eq!(exported.status(), StatusCode::OK);
    let bytes = exported.bytes().await.expect("a zip");
    let files = nimjudge::zip_archive::read_files(&bytes, usize::MAX).expect("a zip");
    assert!(
        files.contains_key(&format!("{PROBLEM}/input_validators/validate.py")),
        "{:?}",
        files.keys()
    );
    let (status, reply) = add_testcase(&app, "extra-1", "1\n8\n").await;
    assert_eq!(status, StatusCode::CREATED, "{reply}");
    let (status, body) = app
        .get(&format!("/api/problems/{PROBLEM}/kattis"), &app.setter)
        .await;
    assert_eq!(status, StatusCode::CONFLICT, "{body}");
    assert!(
        error(&body).contains("testcase `extra-1` has no reference yet (pending)"),
        "{body}"
    );

    // Never over a hosted problem.
    let (status, body) = upload(&app, "?time_limit_ms=2000", &app.setter, package.clone()).await;
    assert_eq!(status, StatusCode::CONFLICT, "{body}");
    assert!(error(&body).contains("is hosted already"), "{body}");
    let (status, body) = upload(
        &app,
        "?time_limit_ms=2000&id=nim",
        &app.admin,
        package.clone(),
    )
    .await;
    assert_eq!(status, StatusCode::CONFLICT, "{body}");
    let (status, body) = upload(
        &app,
        "?time_limit_ms=1500&id=subtraction-two",
        &app.admin,
        package,
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{body}");

    // A package nimjudge cannot host is named by file and line; not a zip
    // at all, by what it is.
    let broken = zipped_package(|package| {
        let yaml = package.files.get_mut("problem.yaml").expect("problem.yaml");
        yaml.extend_from_slice(b"bogus: 1\n");
    });
    let (status, body) = upload(&app, "?time_limit_ms=2000&id=broken", &app.setter, broken).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
    assert!(error(&body).contains("problem.yaml:7"), "{body}");
    let (status, body) = upload(
        &app,
        "?time_limit_ms=2000",
        &app.setter,
        b"plain text".to_vec(),
    )
    .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
    assert!(error(&body).contains("package.zip"), "{body}");
    let (status, body) = upload(&app, "?time=2000", &app.setter, Vec::new()).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
    // Nothing half-made is left in the catalog folder.
    let mut names: Vec<String> = std::fs::read_dir(dir.path().join("problems"))
        .expect("the catalog")
        .map(|e| {
            e.expect("an entry")
                .file_name()
                .into_string()
                .expect("UTF-8")
        })
        .filter(|name| name.starts_with('.') || name.contains("subtraction") || name == "broken")
        .collect();
    names.sort();
    assert_eq!(names, ["subtraction-two", PROBLEM]);
    app.stop().await;
}
