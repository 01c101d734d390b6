//! Tokens: admins list and revoke them, a revoked or expired one gets 401,
//! a name is one user with one role, the bearer scheme is matched without
//! regard to case, and request bodies with repeated keys or empty answers
//! are refused.

use std::time::Duration;

use reqwest::{Method, StatusCode};
use serde_json::{Value, json};

use crate::helpers::{TestApp, TestDir};

#[tokio::test]
async fn admins_list_and_revoke_tokens_and_a_revoked_or_expired_token_gets_401() {
    let dir = TestDir::new();
    let app = TestApp::spawn(&dir, 0).await;
    let (status, created) = app
        .post(
            "/api/tokens",
            &app.admin,
            json!({ "name": "erin", "role": "contestant" }),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{created}");
    assert_eq!(created["expires_at"], Value::Null);
    let erin = created["token"].as_str().expect("a secret").to_string();
    let id = created["id"].as_i64().expect("an id");
    assert_eq!(app.get("/api/problems", &erin).await.0, StatusCode::OK);

    let (status, listed) = app.get("/api/tokens", &app.admin).await;
    assert_eq!(status, StatusCode::OK, "{listed}");
    let tokens = listed["tokens"].as_array().expect("tokens");
    assert_eq!(
        tokens.len(),
        5,
        "four from the harness and erin's: {listed}"
    );
    let row = tokens.iter().find(|t| t["id"] == id).expect("erin's token");
    assert_eq!(row["name"], "erin");
    assert_eq!(row["revoked_at"], Value::Null);
    assert!(!listed.to_string().contains(&erin), "never a secret");
    assert_eq!(
        app.get("/api/tokens", &app.setter).await.0,
        StatusCode::FORBIDDEN
    );

    let path = format!("/api/tokens/{id}");
    let delete = |path: String, token: String| {
        let app = &app;
        async move {
            app.request(Method::DELETE, &path, Some(&token), None)
                .await
                .0
        }
    };
    assert_eq!(
        delete(path.clone(), app.contestant.clone()).await,
        StatusCode::FORBIDDEN
    );
    assert_eq!(
        delete(path.clone(), app.admin.clone()).await,
        StatusCode::NO_CONTENT
    );
    assert_eq!(
        app.get("/api/problems", &erin).await.0,
        StatusCode::UNAUTHORIZED
    );
    assert_eq!(
        delete(path.clone(), app.admin.clone()).await,
        StatusCode::NO_CONTENT
    );
    assert_eq!(
        delete("/api/tokens/9999".into(), app.admin.clone()).await,
        StatusCode::NOT_FOUND
    );
    let (_, listed) = app.get("/api/tokens", &app.admin).await;
    let own = listed["tokens"]
        .as_array()
        .and_then(|t| t.iter().find(|t| t["name"] == "alice-admin"))
        .map(|t| t["id"].clone())
        .expect("the admin's own token");
    assert_eq!(
        delete(format!("/api/tokens/{own}"), app.admin.clone()).await,
        StatusCode::CONFLICT,
        "an admin cannot lock themselves out"
    );

    // An expiring token works until it expires.
    let (status, created) = app
        .post(
            "/api/tokens",
            &app.admin,
            json!({ "name": "erin", "role": "contestant", "expires_in_seconds": 1 }),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{created}");
    assert!(created["expires_at"].is_string(), "{created}");
    let brief = created["token"].as_str().expect("a secret").to_string();
    assert_eq!(app.get("/api/problems", &brief).await.0, StatusCode::OK);
    tokio::time::sleep(Duration::from_millis(1200)).await;
    assert_eq!(
        app.get("/api/problems", &brief).await.0,
        StatusCode::UNAUTHORIZED
    );
    for lifetime in [0, 400_000_000] {
        let (status, reply) = app
            .post(
                "/api/tokens",
                &app.admin,
                json!({ "name": "erin", "role": "contestant", "expires_in_seconds": lifetime }),
            )
            .await;
        assert_eq!(
            status,
            StatusCode::UNPROCESSABLE_ENTITY,
            "{lifetime}: {reply}"
        );
    }
    app.stop().await;
}

#[tokio::test]
async fn a_name_is_one_user_with_one_role_checked_as_the_command_line_does() {
    let dir = TestDir::new();
    let app = TestApp::spawn(&dir, 0).await;
    let (status, reply) = app
        .post(
            "/api/tokens",
            &app.admin,
            json!({ "name": "carol", "role": "admin" }),
        )
        .await;
    assert_eq!(status, StatusCode::CONFLICT, "{reply}");
    assert!(
        reply["error"]
            .as_str()
            .is_some_and(|e| e.contains("carol") && e.contains("contestant")),
        "{reply}"
    );
    let (status, reply) = app
        .post(
            "/api/tokens",
            &app.admin,
            json!({ "name": "carol", "role": "contestant" }),
        )
        .await;
    assert_eq!(
        status,
        StatusCode::CREATED,
        "a second token, same role: {reply}"
    );
    let (status, reply) = app
        .post(
            "/api/tokens",
            &app.admin,
            json!({ "name": " carol", "role": "contestant" }),
        )
        .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{reply}");
    assert_eq!(
        reply["error"].as_str(),
        Some(
            nimjudge::domain::validate_user_name(" carol")
                .expect_err("invalid")
                .to_string()
                .as_str()
        ),
        "the command line's words"
    );
    app.stop().await;
}

#[tokio::test]
async fn the_bearer_scheme_is_case_insensitive() {
    let dir = TestDir::new();
    let app = TestApp::spawn(&dir, 0).await;
    for scheme in ["bearer", "BEARER", "Bearer"] {
        let response = app
            .http
            .get(format!("{}/api/problems", app.address))
            .header("Authorization", format!("{scheme} {}", app.contestant))
            .send()
            .await
            .expect("send");
        assert_eq!(response.status(), StatusCode::OK, "{scheme}");
    }
    let response = app
        .http
        .get(format!("{}/api/problems", app.address))
        .header("Authorization", format!("Basic {}", app.contestant))
        .send()
        .await
        .expect("send");
    assert_eq!(response.status(), StatusCode::UNAUTHORIZED);
    app.stop().await;
}

#[tokio::test]
async fn repeated_json_keys_and_empty_answers_are_refused_naming_the_key() {
    let dir = TestDir::new();
    let app = TestApp::spawn(&dir, 0).await;
    let cases = [
        (
            r#"{"problem": "nim", "answers": {"sample-1": "Alice", "sample-1": "Bob"}}"#,
            "sample-1",
        ),
        (
            r#"{"problem": "nim", "problem": "nim", "answers": {"sample-1": "Alice"}}"#,
            "problem",
        ),
        (r#"{"problem": "nim", "answers": {}}"#, "answers"),
    ];
    for (body, named) in cases {
        let response = app
            .http
            .post(format!("{}/api/submissions", app.address))
            .bearer_auth(&app.contestant)
            .header("content-type", "application/json")
            .body(body)
            .send()
            .await
            .expect("send");
        assert_eq!(
            response.status(),
            StatusCode::UNPROCESSABLE_ENTITY,
            "{body}"
        );
        let reply: Value = response.json().await.expect("json");
        assert!(
            reply["error"].as_str().is_some_and(|e| e.contains(named)),
            "{body}: {reply}"
        );
    }
    let response = app
        .http
        .post(format!("{}/api/tokens", app.address))
        .bearer_auth(&app.admin)
        .header("content-type", "application/json")
        .body(r#"{"name": "x", "role": "admin", "role": "contestant"}"#)
        .send()
        .await
        .expect("send");
    assert_eq!(response.status(), StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(app.store().queue_depth().await.expect("depth"), (0, 0));
    app.stop().await;
}

#[tokio::test]
async fn the_token_list_is_paged_newest_first_and_its_cursor_reaches_every_token() {
    let dir = TestDir::new();
    let app = TestApp::spawn(&dir, 0).await;
    for i in 0..7 {
        let (status, _) = app
            .post(
                "/api/tokens",
                &app.admin,
                json!({ "name": format!("user-{i}"), "role": "contestant" }),
            )
            .await;
        assert_eq!(status, StatusCode::CREATED);
    }
    let (_, everything) = app.get("/api/tokens", &app.admin).await;
    let all: Vec<i64> = everything["tokens"]
        .as_array()
        .expect("tokens")
        .iter()
        .map(|t| t["id"].as_i64().expect("an id"))
        .collect();
    assert_eq!(
        all.len(),
        11,
        "four from the harness and seven: {everything}"
    );
    assert!(all.windows(2).all(|w| w[0] > w[1]), "newest first: {all:?}");
    assert_eq!(everything["next_cursor"], Value::Null);

    let mut walked = Vec::new();
    let mut path = "/api/tokens?limit=3".to_string();
    let mut pages = 0;
    loop {
        let (status, page) = app.get(&path, &app.admin).await;
        assert_eq!(status, StatusCode::OK, "{page}");
        pages += 1;
        let tokens = page["tokens"].as_array().expect("tokens");
        assert!(tokens.len() <= 3);
        walked.extend(tokens.iter().map(|t| t["id"].as_i64().expect("an id")));
        match page["next_cursor"].as_str() {
            Some(cursor) => path = format!("/api/tokens?limit=3&cursor={cursor}"),
            None => break,
        }
    }
    assert_eq!(walked, all, "every token once, in order");
    assert_eq!(pages, 4);

    for (query, named, wanted) in [
        ("limit=0", "limit", StatusCode::UNPROCESSABLE_ENTITY),
        ("limit=501", "limit", StatusCode::UNPROCESSABLE_ENTITY),
        ("cursor=abc", "cursor", StatusCode::UNPROCESSABLE_ENTITY),
        ("cursor=", "cursor", StatusCode::UNPROCESSABLE_ENTITY),
        ("limit=ten", "limit", StatusCode::BAD_REQUEST),
        ("order=asc", "order", StatusCode::BAD_REQUEST),
    ] {
        let (status, body) = app.get(&format!("/api/tokens?{query}"), &app.admin).await;
        assert_eq!(status, wanted, "{query}: {body}");
        assert!(
            body["error"].as_str().unwrap_or_default().contains(named),
            "{query}: {body}"
        );
    }
    app.stop().await;
}
