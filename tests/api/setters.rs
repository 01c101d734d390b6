//! Problem setters managing testcases, and the catalog sync.

use std::time::Duration;

use reqwest::{Method, StatusCode};
use serde_json::{Value, json};

use crate::helpers::{TestApp, TestDir, raw_get};

async fn testcase_status(app: &TestApp, name: &str) -> Option<Value> {
    let (_, body) = app.get("/api/problems/nim/testcases", &app.setter).await;
    body["testcases"]
        .as_array()?
        .iter()
        .find(|t| t["name"] == name)
        .map(|t| t["status"].clone())
}

#[tokio::test]
async fn a_setter_adds_a_valid_testcase_and_a_worker_computes_its_reference() {
    let dir = TestDir::new();
    let app = TestApp::spawn(&dir, 1).await;
    let (status, body) = app
        .post(
            "/api/problems/nim/testcases",
            &app.setter,
            json!({ "name": "setter-1", "input": "2\n7 7\n", "hidden": false }),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{body}");
    let mut ready = false;
    for _ in 0..100 {
        if testcase_status(&app, "setter-1").await == Some(json!("ready")) {
            ready = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert!(ready, "the reference was not computed");
    let (status, input) = app
        .get(
            "/api/problems/nim/testcases/setter-1/input",
            &app.contestant,
        )
        .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(input, json!("2\n7 7\n"));
    // The same name again is a conflict.
    let (status, _) = app
        .post(
            "/api/problems/nim/testcases",
            &app.setter,
            json!({ "name": "setter-1", "input": "1\n1\n" }),
        )
        .await;
    assert_eq!(status, StatusCode::CONFLICT);
    app.stop().await;
}

#[tokio::test]
async fn an_invalid_testcase_is_refused_with_the_validators_message_and_not_stored() {
    let dir = TestDir::new();
    let app = TestApp::spawn(&dir, 0).await;
    let (status, body) = app
        .post(
            "/api/problems/nim/testcases",
            &app.setter,
            json!({ "name": "bad-1", "input": "2\n1 -3\n" }),
        )
        .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
    let expected = nimjudge::solver::find("nim")
        .expect("nim")
        .validate("2\n1 -3\n")
        .expect_err("invalid")
        .to_string();
    assert!(
        body["error"].as_str().expect("error").contains(&expected),
        "{body}"
    );
    assert_eq!(testcase_status(&app, "bad-1").await, None);
    let (status, _) = app
        .post(
            "/api/problems/nim/testcases",
            &app.setter,
            json!({ "name": "Bad Name", "input": "1\n1\n" }),
        )
        .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    app.stop().await;
}

#[tokio::test]
async fn hidden_testcases_are_invisible_to_contestants_and_can_be_deleted() {
    let dir = TestDir::new();
    let app = TestApp::spawn(&dir, 0).await;
    let (status, _) = app
        .post(
            "/api/problems/nim/testcases",
            &app.admin,
            json!({ "name": "secret-1", "input": "1\n9\n", "hidden": true }),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED);
    let (_, body) = app
        .get("/api/problems/nim/testcases", &app.contestant)
        .await;
    let names: Vec<&str> = body["testcases"]
        .as_array()
        .expect("list")
        .iter()
        .filter_map(|t| t["name"].as_str())
        .collect();
    assert_eq!(names, ["sample-1", "small-1", "small-2"]);
    let (status, _) = app
        .get(
            "/api/problems/nim/testcases/secret-1/input",
            &app.contestant,
        )
        .await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    // Answers may name public testcases only.
    let (status, _) = app
        .post(
            "/api/submissions",
            &app.contestant,
            json!({ "problem": "nim", "answers": { "secret-1": "Alice" } }),
        )
        .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    let (status, _) = app
        .request(
            Method::DELETE,
            "/api/problems/nim/testcases/secret-1",
            Some(&app.setter),
            None,
        )
        .await;
    assert_eq!(status, StatusCode::NO_CONTENT);
    let (status, _) = app
        .get("/api/problems/nim/testcases/secret-1/input", &app.setter)
        .await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    app.stop().await;
}

#[tokio::test]
async fn the_catalog_sync_is_idempotent_and_a_changed_definition_gets_a_new_version() {
    let dir = TestDir::new();
    let version = |body: &Value| body["problem"]["version"].as_i64();
    let app = TestApp::spawn(&dir, 0).await;
    let (_, body) = app.get("/api/problems/nim", &app.contestant).await;
    assert_eq!(version(&body), Some(1), "{body}");
    app.stop().await;

    let app = TestApp::spawn(&dir, 0).await;
    let (_, body) = app.get("/api/problems/nim", &app.contestant).await;
    assert_eq!(version(&body), Some(1), "a second sync changed nothing");
    app.stop().await;

    let input = dir.path().join("problems/nim/testcases/small-1.in");
    std::fs::write(&input, "2\n3 3\n").expect("edit");
    let app = TestApp::spawn(&dir, 0).await;
    let (_, body) = app.get("/api/problems/nim", &app.contestant).await;
    assert_eq!(version(&body), Some(2));
    let (_, input) = app
        .get("/api/problems/nim/testcases/small-1/input", &app.contestant)
        .await;
    assert_eq!(input, json!("2\n3 3\n"));
    app.stop().await;
}

#[tokio::test]
async fn a_testcase_from_the_problem_folder_cannot_be_deleted_through_the_api() {
    let dir = TestDir::new();
    let app = TestApp::spawn(&dir, 0).await;
    // Deleted, it would be gone for good: a sync leaves an unchanged folder
    // alone. The folder is its source of truth, so the API refuses.
    let (status, body) = app
        .request(
            Method::DELETE,
            "/api/problems/nim/testcases/sample-1",
            Some(&app.setter),
            None,
        )
        .await;
    assert_eq!(status, StatusCode::CONFLICT, "{body}");
    assert!(
        body["error"].as_str().unwrap().contains("problem.toml"),
        "{body}"
    );
    let (status, _) = app
        .get("/api/problems/nim/testcases/sample-1/input", &app.setter)
        .await;
    assert_eq!(status, StatusCode::OK);
    app.stop().await;
}

#[tokio::test]
async fn a_setter_hides_and_shows_a_testcase_and_contestants_follow_it() {
    let dir = TestDir::new();
    let app = TestApp::spawn(&dir, 0).await;
    let (status, _) = app
        .post(
            "/api/problems/nim/testcases",
            &app.setter,
            json!({ "name": "extra-1", "input": "1\n9\n" }),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED);
    let input = "/api/problems/nim/testcases/extra-1/input";
    let patch = |name: &str, body: Value, token: String| {
        let app = &app;
        let path = format!("/api/problems/nim/testcases/{name}");
        async move {
            app.request(Method::PATCH, &path, Some(&token), Some(body))
                .await
        }
    };
    assert_eq!(app.get(input, &app.contestant).await.0, StatusCode::OK);

    // A contestant may not; a setter hides it: its input and its answers
    // are gone for contestants.
    let (status, _) = patch("extra-1", json!({ "hidden": true }), app.contestant.clone()).await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    let (status, body) = patch("extra-1", json!({ "hidden": true }), app.setter.clone()).await;
    assert_eq!(status, StatusCode::NO_CONTENT, "{body}");
    assert_eq!(
        app.get(input, &app.contestant).await.0,
        StatusCode::NOT_FOUND
    );
    assert_eq!(app.get(input, &app.setter).await.0, StatusCode::OK);
    let (status, body) = app
        .post(
            "/api/submissions",
            &app.contestant,
            json!({ "problem": "nim", "answers": { "extra-1": "Alice" } }),
        )
        .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");

    // Shown again, contestants read it.
    let (status, _) = patch("extra-1", json!({ "hidden": false }), app.admin.clone()).await;
    assert_eq!(status, StatusCode::NO_CONTENT);
    let (status, body) = app.get(input, &app.contestant).await;
    assert_eq!((status, body), (StatusCode::OK, json!("1\n9\n")));

    // Refusals name what is wrong.
    let (status, body) = patch("sample-1", json!({ "hidden": true }), app.setter.clone()).await;
    assert_eq!(status, StatusCode::CONFLICT, "{body}");
    assert!(
        body["error"].as_str().unwrap().contains("problem.toml"),
        "{body}"
    );
    let (status, body) = patch("nowhere", json!({ "hidden": true }), app.setter.clone()).await;
    assert_eq!(status, StatusCode::NOT_FOUND, "{body}");
    let (status, body) = patch("extra-1", json!({ "hidden": "yes" }), app.setter.clone()).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
    assert!(body["error"].as_str().unwrap().contains("hidden"), "{body}");
    let (status, _) = patch("extra-1", json!({}), app.setter.clone()).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    app.stop().await;
}

/// Every file of a zip, by name, as text.
fn zip_texts(bytes: &[u8]) -> std::collections::BTreeMap<String, String> {
    let mut archive = zip::ZipArchive::new(std::io::Cursor::new(bytes)).expect("a zip");
    (0..archive.len())
        .map(|index| {
            let mut file = archive.by_index(index).expect("an entry");
            let mut text = String::new();
            std::io::Read::read_to_string(&mut file, &mut text).expect("UTF-8");
            (file.name().expect("a name").to_string(), text)
        })
        .collect()
}

/// A setter downloads a problem as a Kattis package holding the testcases
/// added through the API too, each with the solver core's answer; a
/// contestant may not (the package holds every hidden input), an
/// interactive problem has none yet, an unknown one is missing.
#[tokio::test]
async fn a_setter_downloads_a_kattis_package_with_the_testcases_added_since() {
    let dir = TestDir::new();
    dir.add_bundled_problem("coin-game");
    dir.add_bundled_problem("nim-play");
    let app = TestApp::spawn(&dir, 1).await;
    let (status, body) = app
        .post(
            "/api/problems/coin-game/testcases",
            &app.setter,
            json!({ "name": "setter-1", "input": "7\n", "hidden": true }),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{body}");
    let response = raw_get(&app, "/api/problems/coin-game/kattis".into(), &app.setter).await;
    assert_eq!(response.status(), StatusCode::OK);
    assert_eq!(response.headers()["content-type"], "application/zip");
    assert_eq!(
        response.headers()["content-disposition"],
        "attachment; filename=\"coingame.zip\""
    );
    let package = zip_texts(&response.bytes().await.expect("a body"));
    let read = |name: &str| {
        package
            .get(name)
            .cloned()
            .unwrap_or_else(|| panic!("no {name} in the package"))
    };
    let coin_game = nimjudge::solver::find("coin-game").expect("a solver");
    assert_eq!(read("coingame/data/secret/setter-1.in"), "7\n");
    assert_eq!(
        read("coingame/data/secret/setter-1.ans"),
        coin_game.solve("7\n").unwrap()
    );
    assert!(read("coingame/problem.yaml").contains("validator_flags: case_sensitive\n"));
    assert!(
        read("coingame/problem_statement/problem.en.tex").starts_with("\\problemname{Coin Game}")
    );
    assert!(read("coingame/input_validators/validate/main.py").contains("s.finish()"));
    let max = read("coingame/data/secret/max-1.in");
    assert_eq!(
        read("coingame/data/secret/max-1.ans"),
        coin_game.solve(&max).unwrap()
    );

    // In the 2025-09 format: its version, the statement's new folder, the
    // answers' comparison per test group, the invalid inputs, and the
    // setter's testcase too.
    let response = raw_get(
        &app,
        "/api/problems/coin-game/kattis?format=2025-09".into(),
        &app.setter,
    )
    .await;
    assert_eq!(response.status(), StatusCode::OK);
    let package = zip_texts(&response.bytes().await.expect("a body"));
    let read = |name: &str| {
        package
            .get(name)
            .cloned()
            .unwrap_or_else(|| panic!("no {name} in the package"))
    };
    let yaml = read("coingame/problem.yaml");
    assert!(yaml.contains("problem_format_version: 2025-09\n"), "{yaml}");
    assert!(yaml.contains("name: \"Coin Game\"\n"), "{yaml}");
    assert!(read("coingame/statement/problem.en.tex").starts_with("\\problemname{Coin Game}"));
    assert_eq!(
        read("coingame/data/test_group.yaml"),
        "output_validator_args: [case_sensitive]\n"
    );
    let folder =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("problems/coin-game/invalid");
    for entry in std::fs::read_dir(&folder).expect("coin-game's invalid inputs") {
        let name = entry
            .expect("an entry")
            .file_name()
            .into_string()
            .expect("a name");
        if name.ends_with(".in") {
            assert_eq!(
                read(&format!("coingame/data/invalid_input/{name}")),
                std::fs::read_to_string(folder.join(&name)).expect("an invalid input")
            );
        }
    }
    assert_eq!(read("coingame/data/secret/setter-1.in"), "7\n");
    let (status, body) = app
        .get("/api/problems/coin-game/kattis?format=2023-07", &app.setter)
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
    assert!(
        body["error"]
            .as_str()
            .unwrap_or_default()
            .contains("2023-07"),
        "the error names the format: {body}"
    );

    let (status, _) = app
        .get("/api/problems/coin-game/kattis", &app.contestant)
        .await;
    assert_eq!(
        status,
        StatusCode::FORBIDDEN,
        "a contestant gets no hidden input"
    );
    // An interactive problem: its judge plays the program.
    let response = raw_get(&app, "/api/problems/nim-play/kattis".into(), &app.setter).await;
    assert_eq!(response.status(), StatusCode::OK);
    let package = zip_texts(&response.bytes().await.expect("a body"));
    let yaml = &package["nimplay/problem.yaml"];
    assert!(
        yaml.contains("\nvalidation: custom interactive\n"),
        "{yaml}"
    );
    assert!(package["nimplay/output_validators/judge/main.py"].contains("judge(GAME)"));
    assert!(package["nimplay/data/sample/sample-1.interaction"].starts_with("<2\n"));
    let (status, _) = app.get("/api/problems/chess/kattis", &app.setter).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    app.stop().await;
}
