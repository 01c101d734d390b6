//! The API's documents: the OpenAPI description generated from the code,
//! and the shapes of what it describes (RFC 3339 times, typed filters).

use reqwest::StatusCode;
use serde_json::Value;

use crate::helpers::{TestApp, TestDir, correct_answers};

/// Every method and path the server answers, as the router registers them.
const ROUTES: [(&str, &str); 37] = [
    ("get", "/api/health"),
    ("get", "/metrics"),
    ("get", "/api/tokens"),
    ("post", "/api/tokens"),
    ("delete", "/api/tokens/{id}"),
    ("get", "/api/problems"),
    ("post", "/api/problems"),
    ("get", "/api/problems/{id}"),
    ("get", "/api/problems/{id}/testcases"),
    ("post", "/api/problems/{id}/testcases"),
    ("delete", "/api/problems/{id}/testcases/{name}"),
    ("patch", "/api/problems/{id}/testcases/{name}"),
    ("get", "/api/problems/{id}/testcases/{name}/input"),
    ("get", "/api/problems/{id}/kattis"),
    ("post", "/api/problems/{id}/rejudge"),
    ("get", "/api/submissions"),
    ("post", "/api/submissions"),
    ("get", "/api/submissions/{id}"),
    ("post", "/api/submissions/{id}/rejudge"),
    ("get", "/api/languages"),
    ("get", "/api/contests"),
    ("get", "/api/contests/{id}"),
    ("put", "/api/contests/{id}"),
    ("post", "/api/contests/{id}/registrations"),
    ("get", "/api/contests/{id}/scoreboard"),
    ("post", "/api/contests/{id}/thaw"),
    ("get", "/api/contests/{id}/export"),
    ("post", "/api/contests/{id}/window"),
    ("get", "/api/contests/{id}/problems/{label}/input"),
    ("get", "/api/contests/{id}/clarifications"),
    ("post", "/api/contests/{id}/clarifications"),
    ("post", "/api/contests/{id}/clarifications/{number}/answer"),
    ("get", "/api/problems/{id}/rejudgings"),
    ("post", "/api/problems/{id}/rejudgings"),
    ("get", "/api/rejudgings/{id}"),
    ("post", "/api/rejudgings/{id}/apply"),
    ("post", "/api/rejudgings/{id}/discard"),
];

#[tokio::test]
async fn the_served_document_describes_every_route_with_bodies_parameters_and_statuses() {
    let dir = TestDir::new();
    let app = TestApp::spawn(&dir, 0).await;
    let (status, doc) = app
        .request(reqwest::Method::GET, "/api/openapi.json", None, None)
        .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(
        doc,
        serde_json::to_value(nimjudge::http::openapi()).expect("json")
    );
    let paths = doc["paths"].as_object().expect("paths");
    let documented: usize = paths
        .values()
        .map(|p| p.as_object().map_or(0, |o| o.len()))
        .sum();
    assert_eq!(
        documented,
        ROUTES.len(),
        "no undocumented and no phantom routes"
    );
    for (method, path) in ROUTES {
        let operation = &doc["paths"][path][method];
        assert!(operation.is_object(), "{method} {path} is not documented");
        let responses = operation["responses"].as_object().expect("responses");
        assert!(!responses.is_empty(), "{method} {path}");
        for (status, response) in responses {
            assert!(
                status.parse::<u16>().is_ok(),
                "{method} {path}: status {status}"
            );
            assert!(
                response["description"].is_string(),
                "{method} {path} {status}"
            );
        }
        for segment in path.split('/').filter(|s| s.starts_with('{')) {
            let name = segment.trim_matches(['{', '}']);
            let parameters = operation["parameters"].as_array().expect("parameters");
            assert!(
                parameters
                    .iter()
                    .any(|p| p["name"] == name && p["in"] == "path"),
                "{method} {path} does not document {name}"
            );
        }
    }
    // Statuses other than 200, request bodies and query parameters.
    let submit = &doc["paths"]["/api/submissions"]["post"];
    assert!(submit["responses"]["202"].is_object(), "{submit}");
    assert!(submit["responses"]["503"].is_object(), "{submit}");
    assert_eq!(
        submit["requestBody"]["content"]["application/json"]["schema"]["$ref"],
        "#/components/schemas/SubmitRequest"
    );
    // A retry with an Idempotency-Key answers 200; a flood 429 with Retry-After.
    assert!(submit["responses"]["200"].is_object(), "{submit}");
    assert!(
        submit["responses"]["429"]["headers"]["Retry-After"].is_object(),
        "{submit}"
    );
    assert!(submit["responses"]["408"].is_object(), "{submit}");
    // A contestant's custom check where the problem does not allow it.
    assert!(submit["responses"]["403"].is_object(), "{submit}");
    // A hidden testcase is 404 to a contestant, never 403.
    let input = &doc["paths"]["/api/problems/{id}/testcases/{name}/input"]["get"];
    assert!(input["responses"]["404"].is_object(), "{input}");
    assert!(input["responses"]["403"].is_null(), "{input}");
    assert!(
        submit["parameters"].as_array().is_some_and(|p| p
            .iter()
            .any(|p| p["name"] == "Idempotency-Key" && p["in"] == "header")),
        "{submit}"
    );
    assert!(doc["paths"]["/api/tokens"]["post"]["responses"]["201"].is_object());
    assert!(doc["paths"]["/api/tokens"]["post"]["responses"]["409"].is_object());
    assert!(doc["paths"]["/api/tokens/{id}"]["delete"]["responses"]["204"].is_object());
    assert!(doc["paths"]["/api/tokens/{id}"]["delete"]["responses"]["409"].is_object());
    assert!(
        doc["paths"]["/api/problems/{id}/testcases/{name}"]["delete"]["responses"]["204"]
            .is_object()
    );
    let visibility = &doc["paths"]["/api/problems/{id}/testcases/{name}"]["patch"];
    assert_eq!(
        visibility["requestBody"]["content"]["application/json"]["schema"]["$ref"],
        "#/components/schemas/TestcaseVisibility"
    );
    assert!(visibility["responses"]["409"].is_object(), "{visibility}");
    let query_parameters = |path: &str| -> Vec<String> {
        doc["paths"][path]["get"]["parameters"]
            .as_array()
            .expect("parameters")
            .iter()
            .filter(|p| p["in"] == "query")
            .filter_map(|p| p["name"].as_str().map(str::to_string))
            .collect()
    };
    assert_eq!(query_parameters("/api/tokens"), ["limit", "cursor"]);
    let list = query_parameters("/api/submissions");
    for name in ["problem", "verdict", "user", "since", "limit", "cursor"] {
        assert!(
            list.iter().any(|n| n == name),
            "{name} missing from {list:?}"
        );
    }
    // Response schemas come from the real types.
    let schemas = &doc["components"]["schemas"];
    assert_eq!(
        schemas["Submission"]["properties"]["created_at"]["format"],
        "date-time"
    );
    assert_eq!(
        schemas["Feedback"]["enum"],
        serde_json::json!(["full", "verdict", "none"])
    );
    assert!(
        schemas["TestcaseResult"]["properties"]["detail"].is_object(),
        "{}",
        schemas["TestcaseResult"]
    );
    assert_eq!(
        schemas["Verdict"]["enum"],
        serde_json::json!(["AC", "WA", "TLE", "MLE", "OLE", "RE", "CE", "IE"])
    );
    assert_eq!(
        doc["paths"]["/api/health"]["get"]["security"],
        serde_json::json!([{}])
    );
    app.stop().await;
}

#[tokio::test]
async fn times_are_rfc_3339_and_since_takes_rfc_3339() {
    let dir = TestDir::new();
    let app = TestApp::spawn(&dir, 1).await;
    let before = jiff::Timestamp::now();
    let id = app
        .submit_answers(&app.contestant, &correct_answers())
        .await;
    let body = app.verdict(&id, &app.contestant).await;
    for time in [
        &body["submission"]["created_at"],
        &body["submission"]["judged_at"],
        &body["events"][0]["created_at"],
        &body["judgements"][0]["created_at"],
    ] {
        let text = time.as_str().expect("a string time");
        let parsed: jiff::Timestamp = text.parse().expect("RFC 3339");
        assert!(text.ends_with('Z'), "UTC: {text}");
        assert!(
            parsed
                >= before.round(jiff::Unit::Millisecond).unwrap()
                    - jiff::SignedDuration::from_millis(1)
        );
    }
    let list = |since: String| {
        let app = &app;
        async move {
            app.get(&format!("/api/submissions?since={since}"), &app.contestant)
                .await
        }
    };
    let (status, page) = list(before.to_string()).await;
    assert_eq!(status, StatusCode::OK, "{page}");
    assert_eq!(page["submissions"].as_array().map(Vec::len), Some(1));
    let later = (jiff::Timestamp::now() + jiff::SignedDuration::from_hours(1)).to_string();
    let (status, page) = list(later).await;
    assert_eq!(status, StatusCode::OK, "{page}");
    assert_eq!(page["submissions"], Value::Array(Vec::new()));
    // Unix milliseconds are not a time any more.
    let (status, reply) = list(before.as_millisecond().to_string()).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{reply}");
    assert!(
        reply["error"].as_str().is_some_and(|e| e.contains("since")),
        "{reply}"
    );
    app.stop().await;
}
