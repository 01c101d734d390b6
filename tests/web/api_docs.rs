//! The interactive API documentation: in Chromium, every operation of the
//! served OpenAPI document is drawn, and a request sent from the page with
//! a pasted token gets the API's own answer.

use std::time::Duration;

use fantoccini::{Client, Locator};
use reqwest::StatusCode;

use crate::{
    browser::{screenshot, with_browser},
    helpers::{TestApp, TestDir},
};

/// Every operation of the served document, as `METHOD /path`.
async fn documented_operations(app: &TestApp) -> Vec<String> {
    let (status, document) = app.get("/api/openapi.json", &app.contestant).await;
    assert_eq!(status, StatusCode::OK);
    let mut operations = Vec::new();
    for (path, item) in document["paths"].as_object().expect("paths") {
        for method in ["get", "post", "put", "patch", "delete"] {
            if item.get(method).is_some() {
                operations.push(format!("{} {path}", method.to_uppercase()));
            }
        }
    }
    operations
}

/// Opens the operation `name` (unless open) and sends it with the form as
/// filled in.
async fn send(client: &Client, name: &str) {
    let operation = client
        .find(Locator::Css(&format!(
            r#"details[data-operation="{name}"]"#
        )))
        .await
        .unwrap_or_else(|e| panic!("no operation `{name}`: {e}"));
    if operation.attr("open").await.expect("its state").is_none() {
        operation
            .find(Locator::Css("summary"))
            .await
            .expect("its summary")
            .click()
            .await
            .expect("open it");
    }
    operation
        .find(Locator::Css("button[type=submit]"))
        .await
        .expect("its button")
        .click()
        .await
        .expect("send it");
}

/// Reads `read` every 100 ms until it gives `expected`, for at most 10 s;
/// `what` names it in the failure.
async fn eventually<F, Fut>(what: &str, expected: &str, mut read: F)
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = Option<String>>,
{
    let deadline = std::time::Instant::now() + Duration::from_secs(10);
    loop {
        let seen = read().await;
        if seen.as_deref() == Some(expected) {
            return;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "{what} read {seen:?}, not {expected}"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// Waits until the answer of operation `name` shows status `expected`.
async fn answered_status(client: &Client, name: &str, expected: &str) {
    let css = format!(r#"details[data-operation="{name}"] pre.answer"#);
    eventually(name, expected, || async {
        client
            .find(Locator::Css(&css))
            .await
            .expect("the answer")
            .attr("data-status")
            .await
            .expect("its status")
    })
    .await;
}

#[tokio::test]
#[ignore = "needs Chromium and chromedriver; scripts/test.sh runs it"]
async fn the_api_page_lists_every_operation_and_sends_requests_with_a_pasted_token() {
    with_browser(|client| async move {
        let dir = TestDir::new();
        let app = TestApp::spawn(&dir, 0).await;
        let operations = documented_operations(&app).await;
        assert!(operations.len() > 10, "{operations:?}");
        client
            .goto(&format!("{}/api-docs", app.address))
            .await
            .expect("open the page");
        let count = operations.len().to_string();
        wait_for_operations(&client, &count).await;
        for name in &operations {
            client
                .find(Locator::Css(&format!(
                    r#"details[data-operation="{name}"]"#
                )))
                .await
                .unwrap_or_else(|e| panic!("`{name}` is not drawn: {e}"));
        }
        // Without a token: the API's 401.
        send(&client, "GET /api/problems").await;
        answered_status(&client, "GET /api/problems", "401").await;
        // With one: the problems.
        client
            .find(Locator::Id("api-token"))
            .await
            .expect("the token field")
            .send_keys(&app.contestant)
            .await
            .expect("type the token");
        send(&client, "GET /api/problems").await;
        answered_status(&client, "GET /api/problems", "200").await;
        let answer = client
            .find(Locator::Css(
                r#"details[data-operation="GET /api/problems"] pre.answer"#,
            ))
            .await
            .expect("the answer")
            .text()
            .await
            .expect("its text");
        assert!(answer.contains("\"nim\""), "{answer}");
        // A path parameter.
        let show = r#"details[data-operation="GET /api/problems/{id}"]"#;
        client
            .find(Locator::Css(&format!("{show} summary")))
            .await
            .expect("the operation")
            .click()
            .await
            .expect("open it");
        client
            .find(Locator::Css(&format!("{show} input[name=id]")))
            .await
            .expect("the id field")
            .send_keys("nim")
            .await
            .expect("type the id");
        client
            .find(Locator::Css(&format!("{show} button[type=submit]")))
            .await
            .expect("its button")
            .click()
            .await
            .expect("send it");
        answered_status(&client, "GET /api/problems/{id}", "200").await;
        screenshot(&client, "api-docs").await;
        app.stop().await;
    })
    .await;
}

/// Waits until the page has drawn `count` operations.
async fn wait_for_operations(client: &Client, count: &str) {
    eventually("the operations drawn", count, || async {
        client
            .execute(
                "return String(document.querySelectorAll('details.operation').length);",
                vec![],
            )
            .await
            .expect("count the operations")
            .as_str()
            .map(str::to_string)
    })
    .await;
}
