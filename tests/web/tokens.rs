//! The admins' token page: in Chromium, issuing a token from the menu and
//! signing in with it; over plain HTTP, who may reach it, a secret shown
//! once and never listed, the API's refusals shown on the page, revoking,
//! CSRF, and the list's pages.

use fantoccini::Locator;
use nimjudge::domain::Role;
use reqwest::{StatusCode, header};
use serde_json::Value;
use sha2::{Digest, Sha256};

use crate::{
    browser::{click_and_wait_for_page, screenshot, sign_in, text_of, with_browser},
    forms::WebClient,
    helpers::{TestApp, TestDir},
};

/// Every token as the API lists it.
async fn api_tokens(app: &TestApp) -> Vec<Value> {
    let (status, body) = app.get("/api/tokens", &app.admin).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    body["tokens"].as_array().expect("a list").clone()
}

/// The id of the first token named `name`.
async fn token_id(app: &TestApp, name: &str) -> i64 {
    api_tokens(app)
        .await
        .iter()
        .find(|t| t["name"] == name)
        .and_then(|t| t["id"].as_i64())
        .expect("the token is listed")
}

/// The text of the `<pre id="new-secret">` on a page.
fn shown_secret(html: &str) -> String {
    let start = html
        .find(r#"id="new-secret">"#)
        .expect("the secret is shown")
        + 16;
    let end = html[start..].find('<').expect("the end of the secret") + start;
    html[start..end].to_string()
}

#[tokio::test]
#[ignore = "needs Chromium and chromedriver; scripts/test.sh runs it"]
async fn contestants_and_setters_get_403_for_the_token_page_and_its_forms_and_no_menu_entry() {
    let dir = TestDir::new();
    let app = TestApp::spawn(&dir, 0).await;
    let before = api_tokens(&app).await;
    let carol = token_id(&app, "carol").await.to_string();
    for token in [&app.contestant, &app.setter] {
        let web = WebClient::sign_in(&app, token).await;
        let menu = web.get("/problems").await.text().await.expect("the page");
        assert!(!menu.contains(r#"href="/tokens""#), "{menu}");
        let page = web.get("/tokens").await;
        assert_eq!(page.status(), StatusCode::FORBIDDEN);
        let body = page.text().await.expect("the page");
        assert!(body.contains("only admins may do this"), "{body}");
        assert!(!body.contains("issue-token"), "{body}");
        let issued = web
            .post_form(
                "/tokens",
                &[("csrf", &web.csrf), ("name", "mallory"), ("role", "admin")],
            )
            .await;
        assert_eq!(issued.status(), StatusCode::FORBIDDEN);
        let revoked = web
            .post_form(&format!("/tokens/{carol}/revoke"), &[("csrf", &web.csrf)])
            .await;
        assert_eq!(revoked.status(), StatusCode::FORBIDDEN);
    }
    assert_eq!(api_tokens(&app).await, before, "nothing changed");
    app.stop().await;
}

#[tokio::test]
#[ignore = "needs Chromium and chromedriver; scripts/test.sh runs it"]
async fn an_admin_issues_a_token_whose_secret_is_shown_once_and_never_listed() {
    let dir = TestDir::new();
    let app = TestApp::spawn(&dir, 0).await;
    let web = WebClient::sign_in(&app, &app.admin).await;
    let menu = web.get("/problems").await.text().await.expect("the page");
    assert!(
        menu.contains(r#"href="/tokens""#),
        "admins see the menu entry"
    );

    let page = web.get("/tokens").await;
    assert_eq!(page.status(), StatusCode::OK);
    let body = page.text().await.expect("the page");
    for name in ["alice-admin", "sam-setter", "carol", "dave"] {
        assert!(body.contains(name), "{name} is listed: {body}");
    }
    // The admin's own token has no revoke button.
    let own = token_id(&app, "alice-admin").await;
    assert!(!body.contains(&format!("revoke-{own}\"")), "{body}");
    assert!(body.contains(&format!("revoke-{}\"", token_id(&app, "carol").await)));

    let issued = web
        .post_form(
            "/tokens",
            &[
                ("csrf", &web.csrf),
                ("name", "erin"),
                ("role", "setter"),
                ("expires_in", "2"),
                ("expires_unit", "days"),
            ],
        )
        .await;
    assert_eq!(issued.status(), StatusCode::CREATED);
    let body = issued.text().await.expect("the page");
    let secret = shown_secret(&body);
    assert!(secret.starts_with("nj_"), "{secret}");
    assert!(body.contains("shown this once"), "{body}");

    // The secret works, with the role and expiry asked for.
    let (status, me) = app.get("/api/problems", &secret).await;
    assert_eq!(status, StatusCode::OK, "{me}");
    let listed = api_tokens(&app).await;
    let erin = listed
        .iter()
        .find(|t| t["name"] == "erin")
        .expect("erin is listed");
    assert_eq!(erin["role"], "setter");
    let expires: jiff::Timestamp = erin["expires_at"]
        .as_str()
        .expect("an expiry")
        .parse()
        .expect("a time");
    let lifetime = expires.duration_since(jiff::Timestamp::now()).as_secs();
    assert!(
        (2 * 86_400 - 120..=2 * 86_400).contains(&lifetime),
        "{lifetime}"
    );

    // Neither the secret nor its hash is ever on the list page again.
    let hash: String = Sha256::digest(secret.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    let list = web.get("/tokens").await;
    assert_eq!(list.status(), StatusCode::OK);
    assert_eq!(
        list.headers()
            .get(header::CACHE_CONTROL)
            .and_then(|v| v.to_str().ok()),
        Some("no-store")
    );
    let body = list.text().await.expect("the page");
    assert!(body.contains("erin"), "{body}");
    assert!(!body.contains(&secret), "the secret is shown once only");
    assert!(!body.contains(&hash), "nor its hash");
    assert!(!body.contains("nj_"), "no secret at all: {body}");
    app.stop().await;
}

/// Issue form fields (after the CSRF token), the status they get, and words
/// of the message on the page.
type Refusal = (
    &'static [(&'static str, &'static str)],
    StatusCode,
    &'static str,
);

#[tokio::test]
#[ignore = "needs Chromium and chromedriver; scripts/test.sh runs it"]
async fn the_issue_form_shows_the_apis_refusals_on_the_page_and_keeps_what_was_typed() {
    let dir = TestDir::new();
    let app = TestApp::spawn(&dir, 0).await;
    let web = WebClient::sign_in(&app, &app.admin).await;
    let before = api_tokens(&app).await;
    let cases: [Refusal; 5] = [
        // A name is one user with one role: the API's 409.
        (
            &[("name", "carol"), ("role", "admin")],
            StatusCode::CONFLICT,
            "carol",
        ),
        // The API's lifetime bounds, in its words.
        (
            &[
                ("name", "frank"),
                ("role", "contestant"),
                ("expires_in", "4000"),
                ("expires_unit", "days"),
            ],
            StatusCode::UNPROCESSABLE_ENTITY,
            "lifetime must be 1 to",
        ),
        (
            &[("name", " frank"), ("role", "contestant")],
            StatusCode::UNPROCESSABLE_ENTITY,
            "frank",
        ),
        (
            &[("name", "frank"), ("role", "owner")],
            StatusCode::UNPROCESSABLE_ENTITY,
            "unknown role <code>owner</code>",
        ),
        (
            &[
                ("name", "frank"),
                ("role", "contestant"),
                ("expires_in", "soon"),
            ],
            StatusCode::UNPROCESSABLE_ENTITY,
            "the expiry <code>soon</code> is not a whole number",
        ),
    ];
    for (fields, status, message) in cases {
        let mut pairs = vec![("csrf", web.csrf.as_str())];
        pairs.extend_from_slice(fields);
        let response = web.post_form("/tokens", &pairs).await;
        assert_eq!(response.status(), status, "{fields:?}");
        let body = response.text().await.expect("the page");
        assert!(body.contains(r#"id="token-error""#), "{body}");
        assert!(body.contains(message), "{message}: {body}");
        assert!(!body.contains("new-secret"), "{body}");
        let name = fields[0].1.trim();
        assert!(
            body.contains(&format!(r#"name="name" value="{}"#, fields[0].1)),
            "the form keeps {name}: {body}"
        );
    }
    // Without this session's CSRF token, nothing is issued.
    for csrf in [None, Some("not-the-token")] {
        let mut pairs = vec![("name", "frank"), ("role", "admin")];
        if let Some(csrf) = csrf {
            pairs.push(("csrf", csrf));
        }
        let response = web.post_form("/tokens", &pairs).await;
        assert_eq!(response.status(), StatusCode::FORBIDDEN);
    }
    assert_eq!(api_tokens(&app).await, before, "nothing was issued");
    app.stop().await;
}

#[tokio::test]
#[ignore = "needs Chromium and chromedriver; scripts/test.sh runs it"]
async fn an_admin_revokes_a_token_from_the_page_but_not_their_own() {
    let dir = TestDir::new();
    let app = TestApp::spawn(&dir, 0).await;
    let web = WebClient::sign_in(&app, &app.admin).await;
    let carol = token_id(&app, "carol").await;
    let own = token_id(&app, "alice-admin").await;

    let refused = web
        .post_form(&format!("/tokens/{carol}/revoke"), &[("csrf", "wrong")])
        .await;
    assert_eq!(refused.status(), StatusCode::FORBIDDEN);
    let (status, _) = app.get("/api/problems", &app.contestant).await;
    assert_eq!(status, StatusCode::OK, "a refused form revokes nothing");

    let revoked = web
        .post_form(&format!("/tokens/{carol}/revoke"), &[("csrf", &web.csrf)])
        .await;
    assert_eq!(revoked.status(), StatusCode::SEE_OTHER);
    let location = revoked
        .headers()
        .get(header::LOCATION)
        .and_then(|v| v.to_str().ok())
        .expect("a redirect")
        .to_string();
    assert_eq!(location, format!("/tokens?revoked={carol}"));
    let (status, _) = app.get("/api/problems", &app.contestant).await;
    assert_eq!(
        status,
        StatusCode::UNAUTHORIZED,
        "the token stopped working"
    );
    let body = web.get(&location).await.text().await.expect("the page");
    assert!(body.contains(&format!("Revoked token {carol}")), "{body}");
    assert!(body.contains("revoked 20"), "the row says when: {body}");
    assert!(!body.contains(&format!("revoke-{carol}\"")), "{body}");

    // The admin's own token: the API's 409, on the page.
    let own_revoke = web
        .post_form(&format!("/tokens/{own}/revoke"), &[("csrf", &web.csrf)])
        .await;
    assert_eq!(own_revoke.status(), StatusCode::CONFLICT);
    let body = own_revoke.text().await.expect("the page");
    assert!(body.contains("is the one this request uses"), "{body}");
    assert_eq!(
        web.get("/tokens").await.status(),
        StatusCode::OK,
        "still signed in"
    );
    // A token that does not exist: the 404 page.
    let missing = web
        .post_form("/tokens/9999/revoke", &[("csrf", &web.csrf)])
        .await;
    assert_eq!(missing.status(), StatusCode::NOT_FOUND);
    app.stop().await;
}

#[tokio::test]
#[ignore = "needs Chromium and chromedriver; scripts/test.sh runs it"]
async fn an_admin_issues_a_token_in_the_browser_and_its_secret_signs_its_holder_in() {
    with_browser(|client| async move {
        let dir = TestDir::new();
        let app = TestApp::spawn(&dir, 0).await;
        sign_in(&client, &app.address, &app.admin).await;
        click_and_wait_for_page(&client, Locator::LinkText("Tokens"), |path| {
            path == "/tokens"
        })
        .await;
        let listed = text_of(&client, "#token-list tbody").await;
        assert!(
            listed.contains("carol") && listed.contains("contestant"),
            "{listed}"
        );
        screenshot(&client, "tokens").await;

        let field = |id: &'static str| {
            let client = client.clone();
            async move { client.find(Locator::Id(id)).await.expect(id) }
        };
        field("token-name")
            .await
            .send_keys("gwen")
            .await
            .expect("type");
        field("token-role")
            .await
            .select_by_value("setter")
            .await
            .expect("choose the role");
        field("token-expires-in")
            .await
            .send_keys("3")
            .await
            .expect("type");
        field("token-expires-unit")
            .await
            .select_by_value("hours")
            .await
            .expect("choose the unit");
        click_and_wait_for_page(&client, Locator::Id("issue-token-button"), |path| {
            path == "/tokens"
        })
        .await;
        let secret = text_of(&client, "#new-secret").await;
        assert!(secret.starts_with("nj_"), "{secret}");
        // Newest first: the new token heads the list.
        let row = text_of(&client, "#token-list tbody tr:first-child").await;
        assert!(
            row.contains("gwen") && row.contains("setter") && row.contains("live"),
            "{row}"
        );
        screenshot(&client, "token-issued").await;

        // The holder signs in with it and gets a setter's menu, no tokens.
        click_and_wait_for_page(&client, Locator::Id("sign-out"), |path| path == "/sign-in").await;
        sign_in(&client, &app.address, &secret).await;
        let menu = text_of(&client, "header").await;
        assert!(
            menu.contains("gwen") && menu.contains("Verdict log"),
            "{menu}"
        );
        assert!(!menu.contains("Tokens"), "{menu}");
        app.stop().await;
    })
    .await;
}

/// The token numbers a token page lists, in order.
fn listed_ids(page: &str) -> Vec<i64> {
    page.match_indices(r#"<tr data-id=""#)
        .map(|(at, found)| {
            let start = at + found.len();
            let end = page[start..].find('"').expect("the end of the id") + start;
            page[start..end].parse().expect("a token number")
        })
        .collect()
}

/// The href of the "Older tokens" link, if the page has one.
fn older_link(page: &str) -> Option<String> {
    let marker = r#"id="older-tokens" href=""#;
    let start = page.find(marker)? + marker.len();
    let end = page[start..].find('"')? + start;
    Some(page[start..end].replace("&amp;", "&"))
}

#[tokio::test]
#[ignore = "needs Chromium and chromedriver; scripts/test.sh runs it"]
async fn the_token_list_pages_newest_first_with_an_older_link_for_admins_only() {
    let dir = TestDir::new();
    let app = TestApp::spawn(&dir, 0).await;
    // A full page and a few more, besides the fixture's tokens.
    let page_size = usize::try_from(nimjudge::web::tokens::PAGE_SIZE).expect("a size");
    for n in 0..page_size + 2 {
        app.store()
            .create_token(&format!("bulk-{n:03}"), Role::Contestant, None)
            .await
            .expect("create a token");
    }
    let mut every: Vec<i64> = api_tokens(&app)
        .await
        .iter()
        .map(|t| t["id"].as_i64().expect("a number"))
        .collect();
    every.sort_unstable_by(|a, b| b.cmp(a));
    assert!(every.len() > page_size, "more than one page");

    let web = WebClient::sign_in(&app, &app.admin).await;
    let first = web.get("/tokens").await;
    assert_eq!(first.status(), StatusCode::OK);
    let first = first.text().await.expect("the page");
    assert_eq!(listed_ids(&first), every[..page_size], "newest first");
    let older = older_link(&first).expect("an older-tokens link");
    assert_eq!(older, format!("/tokens?before={}", every[page_size - 1]));

    let second = web.get(&older).await;
    assert_eq!(second.status(), StatusCode::OK);
    let second = second.text().await.expect("the page");
    assert_eq!(listed_ids(&second), every[page_size..], "the rest");
    assert!(older_link(&second).is_none(), "the last page: {second}");
    assert!(
        second.contains("issue-token"),
        "the issue form is on every page"
    );

    // A cursor that is not a token number is a 400 page; contestants and
    // setters get the API's 403 whatever the cursor.
    let malformed = web.get("/tokens?before=newest").await;
    assert_eq!(malformed.status(), StatusCode::BAD_REQUEST);
    for token in [&app.contestant, &app.setter] {
        let other = WebClient::sign_in(&app, token).await;
        for path in [older.as_str(), "/tokens?before=newest"] {
            let refused = other.get(path).await;
            assert_eq!(refused.status(), StatusCode::FORBIDDEN, "{path}");
            let body = refused.text().await.expect("the page");
            assert!(!body.contains("bulk-"), "{body}");
        }
    }
    app.stop().await;
}
