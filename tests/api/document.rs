//! The served OpenAPI document says what the server really does: the values,
//! shapes and limits it lists are the ones the server sends and accepts.

use reqwest::{Method, StatusCode};
use serde_json::{Value, json};

use nimjudge::domain::{
    EventKind, ReferenceStatus, Role, SubmissionKind, SubmissionState, TestcaseOrigin, Verdict,
};

use crate::helpers::{TestApp, TestDir};

async fn document(app: &TestApp) -> Value {
    let (status, doc) = app
        .request(Method::GET, "/api/openapi.json", None, None)
        .await;
    assert_eq!(status, StatusCode::OK);
    doc
}

#[tokio::test]
async fn every_enum_lists_the_values_sent_on_the_wire() {
    let dir = TestDir::new();
    let app = TestApp::spawn(&dir, 0).await;
    let doc = document(&app).await;
    let wire = |values: Vec<&str>| -> Value { json!(values) };
    for (schema, values) in [
        ("Role", wire(Role::ALL.iter().map(|v| v.as_str()).collect())),
        (
            "Verdict",
            wire(Verdict::ALL.iter().map(|v| v.as_str()).collect()),
        ),
        (
            "SubmissionState",
            wire(SubmissionState::ALL.iter().map(|v| v.as_str()).collect()),
        ),
        (
            "EventKind",
            wire(EventKind::ALL.iter().map(|v| v.as_str()).collect()),
        ),
        (
            "SubmissionKind",
            wire(SubmissionKind::ALL.iter().map(|v| v.as_str()).collect()),
        ),
        (
            "TestcaseOrigin",
            wire(TestcaseOrigin::ALL.iter().map(|v| v.as_str()).collect()),
        ),
        (
            "ReferenceStatus",
            wire(ReferenceStatus::ALL.iter().map(|v| v.as_str()).collect()),
        ),
    ] {
        assert_eq!(
            doc["components"]["schemas"][schema]["enum"], values,
            "{schema}"
        );
    }
    // And the server takes the documented spelling.
    let (status, body) = app
        .post(
            "/api/tokens",
            &app.admin,
            json!({ "name": "erin", "role": "setter" }),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{body}");
    app.stop().await;
}

#[tokio::test]
async fn token_names_follow_the_documented_rule_in_characters() {
    let dir = TestDir::new();
    let app = TestApp::spawn(&dir, 0).await;
    let doc = document(&app).await;
    let name = &doc["components"]["schemas"]["NewToken"]["properties"]["name"];
    assert_eq!(name["minLength"], 1, "{name}");
    assert_eq!(name["maxLength"], 64, "{name}");
    assert!(name["pattern"].is_string(), "{name}");
    let create = |name: String| {
        app.post(
            "/api/tokens",
            &app.admin,
            json!({ "name": name, "role": "contestant" }),
        )
    };
    // 64 characters are allowed however many bytes they take.
    for good in [
        "é".repeat(64),
        "x".repeat(64),
        "Zoë Ångström".into(),
        "a b".into(),
    ] {
        let (status, body) = create(good.clone()).await;
        assert_eq!(status, StatusCode::CREATED, "{good:?}: {body}");
        assert_eq!(body["name"], good.as_str());
    }
    // Names are taken as written: no silent trimming, no control characters.
    for bad in [
        String::new(),
        " ".into(),
        " erin".into(),
        "erin ".into(),
        "er\nin".into(),
        "erin\u{0}".into(),
        "erin\u{85}".into(),
        "é".repeat(65),
    ] {
        let (status, body) = create(bad.clone()).await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{bad:?}: {body}");
        assert!(body["error"].is_string(), "{body}");
    }
    app.stop().await;
}

#[tokio::test]
async fn page_cursors_are_what_the_document_says() {
    let dir = TestDir::new();
    let app = TestApp::spawn(&dir, 0).await;
    let doc = document(&app).await;
    let params = doc["paths"]["/api/submissions"]["get"]["parameters"]
        .as_array()
        .expect("parameters")
        .clone();
    let param = |name: &str| {
        params
            .iter()
            .find(|p| p["name"] == name)
            .unwrap_or_else(|| panic!("no parameter {name}"))["schema"]
            .clone()
    };
    assert_eq!(param("cursor")["pattern"], "^[0-9]{1,19}$");
    assert_eq!(param("problem")["pattern"], "^[a-z0-9][a-z0-9-]*$");
    let id = app
        .submit_answers(&app.contestant, &crate::helpers::correct_answers())
        .await;
    // Every cursor of 1 to 19 digits is a page, even one past the last row id.
    for cursor in ["0", "1", "9223372036854775807", "9999999999999999999"] {
        let (status, body) = app
            .get(
                &format!("/api/submissions?cursor={cursor}"),
                &app.contestant,
            )
            .await;
        assert_eq!(status, StatusCode::OK, "{cursor}: {body}");
        let ids: Vec<&str> = body["submissions"]
            .as_array()
            .expect("submissions")
            .iter()
            .filter_map(|s| s["id"].as_str())
            .collect();
        let expected = if cursor.len() == 19 {
            vec![id.to_string()]
        } else {
            vec![]
        };
        assert_eq!(ids, expected, "{cursor}");
    }
    // Anything else is refused, as the pattern says.
    for cursor in ["", "-1", "+1", "1.0", "x", "00000000000000000001"] {
        let (status, body) = app
            .get(
                &format!("/api/submissions?cursor={cursor}"),
                &app.contestant,
            )
            .await;
        assert_eq!(
            status,
            StatusCode::UNPROCESSABLE_ENTITY,
            "{cursor:?}: {body}"
        );
    }
    app.stop().await;
}

#[tokio::test]
async fn any_whole_number_of_milliseconds_is_a_wait_up_to_the_cap() {
    let dir = TestDir::new();
    let app = TestApp::spawn(&dir, 1).await;
    let doc = document(&app).await;
    let params = doc["paths"]["/api/submissions/{id}"]["get"]["parameters"]
        .as_array()
        .expect("parameters")
        .clone();
    let wait = params
        .iter()
        .find(|p| p["name"] == "wait_ms")
        .expect("wait_ms")["schema"]
        .clone();
    // No int64 bound: the server takes larger numbers too.
    assert_eq!(wait, json!({ "type": "integer", "minimum": 0 }));
    let id = app
        .submit_answers(&app.contestant, &crate::helpers::correct_answers())
        .await;
    app.verdict(&id, &app.contestant).await;
    for wait_ms in [
        "0",
        "18446744073709551615",
        "18446744073709551616",
        "1".repeat(40).as_str(),
    ] {
        let (status, body) = app
            .get(
                &format!("/api/submissions/{id}?wait_ms={wait_ms}"),
                &app.contestant,
            )
            .await;
        assert_eq!(status, StatusCode::OK, "{wait_ms}: {body}");
        assert_eq!(body["submission"]["state"], "done");
    }
    for wait_ms in ["-1", "", "1.5", "soon"] {
        let (status, body) = app
            .get(
                &format!("/api/submissions/{id}?wait_ms={wait_ms}"),
                &app.contestant,
            )
            .await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{wait_ms:?}: {body}");
    }
    app.stop().await;
}

/// Every operation lists the statuses any route can answer: 500 and 503
/// everywhere, 401 and 429 where a token is needed, 400 where a query or a
/// body is read, 404 where the path holds a parameter, 408, 413, 415 and
/// 422 where a body is read. And the one that was missing answers as
/// documented: a malformed body to PATCH a testcase is 400.
#[tokio::test]
async fn every_operation_lists_every_status_it_can_answer() {
    let dir = TestDir::new();
    let app = TestApp::spawn(&dir, 0).await;
    let doc = document(&app).await;
    let mut checked = 0;
    for (path, item) in doc["paths"].as_object().expect("paths") {
        for (method, operation) in item.as_object().expect("path item") {
            let listed: Vec<&str> = operation["responses"]
                .as_object()
                .expect("responses")
                .keys()
                .map(String::as_str)
                .collect();
            let public = operation["security"].as_array().is_some_and(|all| {
                all.iter()
                    .all(|r| r.as_object().is_some_and(|o| o.is_empty()))
            });
            let parameters = operation["parameters"]
                .as_array()
                .cloned()
                .unwrap_or_default();
            let has = |place: &str| parameters.iter().any(|p| p["in"] == place);
            let body = operation.get("requestBody").is_some();
            let mut needed = vec!["500", "503"];
            if !public {
                needed.extend(["401", "429"]);
            }
            if has("query") || body {
                needed.push("400");
            }
            if has("path") {
                needed.push("404");
            }
            if body {
                needed.extend(["408", "413", "415", "422"]);
            }
            for status in needed {
                assert!(
                    listed.contains(&status),
                    "{method} {path} lacks {status}: {listed:?}"
                );
            }
            checked += 1;
        }
    }
    assert!(checked >= 15, "{checked} operations");

    let response = app
        .http
        .patch(format!(
            "{}/api/problems/nim/testcases/sample-1",
            app.address
        ))
        .bearer_auth(&app.setter)
        .header("content-type", "application/json")
        .body("{\"hidden\": ")
        .send()
        .await
        .expect("send");
    assert_eq!(response.status(), StatusCode::BAD_REQUEST);
    let patch = &doc["paths"]["/api/problems/{id}/testcases/{name}"]["patch"]["responses"];
    assert!(patch.get("400").is_some(), "{patch}");
    app.stop().await;
}

/// Every operation has an id of its own (code generators name functions
/// after them).
#[tokio::test]
async fn every_operation_id_is_unique() {
    let dir = TestDir::new();
    let app = TestApp::spawn(&dir, 0).await;
    let doc = document(&app).await;
    let mut seen = std::collections::BTreeMap::new();
    for (path, item) in doc["paths"].as_object().expect("paths") {
        for (method, operation) in item.as_object().expect("path item") {
            let id = operation["operationId"].as_str().expect("an operation id");
            if let Some(first) = seen.insert(id.to_string(), format!("{method} {path}")) {
                panic!("`{id}` names both {first} and {method} {path}");
            }
        }
    }
    app.stop().await;
}

/// The served document passes a real OpenAPI validator
/// (openapi-spec-validator, from PyPI).
#[tokio::test]
#[ignore = "needs openapi-spec-validator (PyPI); scripts/test.sh installs it and runs this"]
async fn the_served_document_passes_openapi_spec_validator() {
    let dir = TestDir::new();
    let app = TestApp::spawn(&dir, 0).await;
    let doc = document(&app).await;
    app.stop().await;
    let file = tempfile::NamedTempFile::new().expect("a temporary file");
    std::fs::write(file.path(), doc.to_string()).expect("write the document");
    let out = std::process::Command::new("python3")
        .args(["-m", "openapi_spec_validator"])
        .arg(file.path())
        .output()
        .expect("python3 runs (scripts/test.sh installs openapi-spec-validator)");
    let said = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        out.status.success(),
        "the validator refused the document: {said}"
    );
    assert!(said.contains("OK"), "{said}");
}
