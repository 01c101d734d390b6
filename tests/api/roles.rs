//! The role matrix: every role against every endpoint, allowed and refused.

use reqwest::{Method, StatusCode};
use serde_json::{Value, json};

use crate::helpers::{TestApp, TestDir, correct_answers};

const ROLES: [&str; 3] = ["contestant", "setter", "admin"];

struct Case {
    method: Method,
    /// The path; `{role}` is replaced by the caller's role.
    path: String,
    body: Option<Value>,
    /// Expected status for contestant, setter and admin.
    expected: [u16; 3],
}

fn case(method: Method, path: &str, body: Option<Value>, expected: [u16; 3]) -> Case {
    Case {
        method,
        path: path.to_string(),
        body,
        expected,
    }
}

#[tokio::test]
async fn every_role_is_allowed_or_refused_on_every_endpoint() {
    let dir = TestDir::new();
    let app = TestApp::spawn(&dir, 1).await;
    let own = app
        .submit_answers(&app.contestant, &correct_answers())
        .await;
    let others = app.submit_answers(&app.other, &correct_answers()).await;
    let mut to_rejudge = Vec::new();
    for _ in ROLES {
        to_rejudge.push(app.submit_answers(&app.other, &correct_answers()).await);
    }
    for (name, hidden) in [
        ("hidden-1", true),
        ("del-contestant", false),
        ("del-setter", false),
        ("del-admin", false),
    ] {
        let (status, _) = app
            .post(
                "/api/problems/nim/testcases",
                &app.admin,
                json!({ "name": name, "input": "1\n1\n", "hidden": hidden }),
            )
            .await;
        assert_eq!(status, StatusCode::CREATED);
    }
    app.drain().await;

    let submit = json!({ "problem": "nim", "answers": correct_answers() });
    let cases = vec![
        case(Method::GET, "/api/problems", None, [200, 200, 200]),
        case(Method::GET, "/api/problems/nim", None, [200, 200, 200]),
        case(
            Method::GET,
            "/api/problems/nim/testcases",
            None,
            [200, 200, 200],
        ),
        case(
            Method::GET,
            "/api/problems/nim/testcases/sample-1/input",
            None,
            [200, 200, 200],
        ),
        case(
            Method::GET,
            "/api/problems/nim/testcases/hidden-1/input",
            None,
            [404, 200, 200],
        ),
        case(
            Method::POST,
            "/api/problems/nim/testcases",
            Some(json!({ "name": "new-{role}", "input": "1\n2\n" })),
            [403, 201, 201],
        ),
        case(
            Method::PATCH,
            "/api/problems/nim/testcases/hidden-1",
            Some(json!({ "hidden": true })),
            [403, 204, 204],
        ),
        case(
            Method::DELETE,
            "/api/problems/nim/testcases/del-{role}",
            None,
            [403, 204, 204],
        ),
        case(
            Method::POST,
            "/api/submissions",
            Some(submit),
            [202, 202, 202],
        ),
        // Custom checks are off by default: contestants may not send them.
        case(
            Method::POST,
            "/api/submissions",
            Some(json!({ "problem": "nim", "input": "1\n1\n", "output": "Alice\n" })),
            [403, 202, 202],
        ),
        case(Method::GET, "/api/submissions", None, [200, 200, 200]),
        case(
            Method::GET,
            &format!("/api/submissions/{own}"),
            None,
            [200, 200, 200],
        ),
        case(
            Method::GET,
            &format!("/api/submissions/{others}"),
            None,
            // As a missing one: a contestant cannot tell that it exists.
            [404, 200, 200],
        ),
        case(
            Method::POST,
            "/api/submissions/{rejudge}/rejudge",
            None,
            [403, 202, 202],
        ),
        case(
            Method::POST,
            "/api/problems/nim/rejudge",
            None,
            [403, 202, 202],
        ),
        case(
            Method::POST,
            "/api/tokens",
            Some(json!({ "name": "eve", "role": "contestant" })),
            [403, 403, 201],
        ),
        // Setter tools: a contestant learns nothing of them.
        case(
            Method::POST,
            "/api/problems/nim/rejudgings",
            Some(json!({})),
            [403, 201, 201],
        ),
        case(
            Method::GET,
            "/api/problems/nim/rejudgings",
            None,
            [403, 200, 200],
        ),
        case(Method::GET, "/api/rejudgings/999999", None, [403, 404, 404]),
        case(
            Method::POST,
            "/api/rejudgings/999999/apply",
            Some(json!({})),
            [403, 404, 404],
        ),
        // An import's body is a zip: JSON is not one.
        case(
            Method::POST,
            "/api/problems",
            Some(json!({})),
            [403, 422, 422],
        ),
    ];
    let tokens = [&app.contestant, &app.setter, &app.admin];
    for case in &cases {
        for (i, role) in ROLES.iter().enumerate() {
            let path = case
                .path
                .replace("{role}", role)
                .replace("{rejudge}", &to_rejudge[i].to_string());
            let body = case.body.as_ref().map(|b| {
                serde_json::from_str(&b.to_string().replace("{role}", role)).expect("json")
            });
            let (status, reply) = app
                .request(case.method.clone(), &path, Some(tokens[i]), body)
                .await;
            assert_eq!(
                status.as_u16(),
                case.expected[i],
                "{role} {} {path}: {reply}",
                case.method
            );
            if status.is_client_error() {
                assert!(reply["error"].is_string(), "{reply}");
            }
            app.drain().await;
        }
        // Without a token, or with an unknown one: 401.
        let path = case
            .path
            .replace("{role}", "admin")
            .replace("{rejudge}", &to_rejudge[2].to_string());
        for token in [None, Some("nj_not-a-token")] {
            let (status, reply) = app
                .request(case.method.clone(), &path, token, case.body.clone())
                .await;
            assert_eq!(
                status,
                StatusCode::UNAUTHORIZED,
                "{} {path}: {reply}",
                case.method
            );
            assert!(reply["error"].is_string());
        }
    }
    // Operational endpoints need no token.
    for path in ["/api/health", "/metrics", "/api/openapi.json"] {
        let (status, _) = app.request(Method::GET, path, None, None).await;
        assert_eq!(status, StatusCode::OK, "{path}");
    }
    app.stop().await;
}

#[tokio::test]
async fn the_openapi_document_describes_every_endpoint_of_the_matrix() {
    let dir = TestDir::new();
    let app = TestApp::spawn(&dir, 0).await;
    let (_, doc) = app
        .request(Method::GET, "/api/openapi.json", None, None)
        .await;
    for (method, path) in [
        ("get", "/api/health"),
        ("get", "/metrics"),
        ("post", "/api/tokens"),
        ("get", "/api/problems"),
        ("get", "/api/problems/{id}"),
        ("get", "/api/problems/{id}/testcases"),
        ("post", "/api/problems/{id}/testcases"),
        ("delete", "/api/problems/{id}/testcases/{name}"),
        ("get", "/api/problems/{id}/testcases/{name}/input"),
        ("post", "/api/problems/{id}/rejudge"),
        ("get", "/api/submissions"),
        ("post", "/api/submissions"),
        ("get", "/api/submissions/{id}"),
        ("post", "/api/submissions/{id}/rejudge"),
    ] {
        assert!(doc["paths"][path][method].is_object(), "{method} {path}");
    }
    app.stop().await;
}

/// Another contestant's submission answers exactly as a missing one does,
/// and every API answer says `nosniff`.
#[tokio::test]
async fn another_contestants_submission_is_not_found_like_a_missing_one() {
    let dir = TestDir::new();
    let app = TestApp::spawn(&dir, 0).await;
    let theirs = app.submit_answers(&app.other, &correct_answers()).await;
    let missing = nimjudge::domain::SubmissionId::new();
    let (status, body) = app
        .get(&format!("/api/submissions/{theirs}"), &app.contestant)
        .await;
    let (missing_status, missing_body) = app
        .get(&format!("/api/submissions/{missing}"), &app.contestant)
        .await;
    assert_eq!(status, StatusCode::NOT_FOUND, "{body}");
    assert_eq!(missing_status, StatusCode::NOT_FOUND);
    assert_eq!(
        body["error"]
            .as_str()
            .map(|e| e.replace(&theirs.to_string(), "ID")),
        missing_body["error"]
            .as_str()
            .map(|e| e.replace(&missing.to_string(), "ID")),
    );
    let response = app
        .http
        .get(format!("{}/api/health", app.address))
        .send()
        .await
        .expect("health");
    assert_eq!(
        response
            .headers()
            .get("x-content-type-options")
            .map(|v| v.as_bytes()),
        Some(&b"nosniff"[..])
    );
    app.stop().await;
}

/// `server.secure_cookies` marks the web UI's cookies `Secure`; off by
/// default, since browsers drop such cookies over plain http.
#[tokio::test]
async fn secure_cookies_are_marked_secure_only_when_configured() {
    for (setting, secure) in [("false", false), ("true", true)] {
        let dir = TestDir::new();
        let app = TestApp::spawn_with(&dir, 0, &[("SERVER__SECURE_COOKIES", setting)]).await;
        let response = app
            .http
            .get(format!("{}/sign-in", app.address))
            .send()
            .await
            .expect("sign-in page");
        let cookie = response
            .headers()
            .get("set-cookie")
            .and_then(|v| v.to_str().ok())
            .unwrap_or_default()
            .to_string();
        assert!(cookie.contains("HttpOnly"), "{cookie}");
        assert_eq!(cookie.contains("; Secure"), secure, "{cookie}");
        app.stop().await;
    }
}
