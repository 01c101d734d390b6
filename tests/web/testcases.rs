//! The setters' testcase page and the rejudge buttons over plain HTTP: who
//! may reach them, the API's refusals shown on the page, CSRF, and how many
//! submissions a rejudge queued.

use reqwest::{StatusCode, header};

use crate::{
    forms::WebClient,
    helpers::{TestApp, TestDir, correct_answers},
};

/// The names the API lists for nim, hidden ones included.
async fn testcase_names(app: &TestApp) -> Vec<String> {
    let (status, body) = app.get("/api/problems/nim/testcases", &app.admin).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    body["testcases"]
        .as_array()
        .expect("a list")
        .iter()
        .map(|t| t["name"].as_str().expect("a name").to_string())
        .collect()
}

/// Whether nim's testcase `extra-1` is hidden, as the API lists it.
async fn hidden(app: &TestApp) -> Option<bool> {
    let (_, body) = app.get("/api/problems/nim/testcases", &app.setter).await;
    body["testcases"]
        .as_array()
        .expect("a list")
        .iter()
        .find(|t| t["name"] == "extra-1")
        .map(|t| t["hidden"] == true)
}

/// Posts the add form with these fields (csrf first).
async fn add(
    web: &WebClient,
    csrf: &str,
    name: &str,
    input: &str,
    hidden: bool,
) -> reqwest::Response {
    let mut fields = vec![
        ("csrf", None, csrf),
        ("name", None, name),
        ("input", None, input),
    ];
    if hidden {
        fields.push(("hidden", None, "on"));
    }
    web.post_multipart("/problems/nim/testcases", &fields).await
}

#[tokio::test]
#[ignore = "needs Chromium and chromedriver; scripts/test.sh runs it"]
async fn a_contestant_can_neither_open_the_testcase_page_nor_post_its_forms() {
    let dir = TestDir::new();
    let app = TestApp::spawn(&dir, 0).await;
    let web = WebClient::sign_in(&app, &app.contestant).await;
    let before = testcase_names(&app).await;

    // The API refuses contestants these actions with 403; so do the pages.
    let page = web.get("/problems/nim/testcases").await;
    assert_eq!(page.status(), StatusCode::FORBIDDEN);
    let body = page.text().await.expect("the page");
    assert!(
        body.contains("only setters and admins may do this"),
        "{body}"
    );
    assert!(!body.contains("add-testcase"), "{body}");
    let problem = web
        .get("/problems/nim")
        .await
        .text()
        .await
        .expect("the page");
    assert!(
        !problem.contains("/problems/nim/testcases\""),
        "no link for contestants"
    );

    let added = add(&web, &web.csrf, "mine-1", "2\n4 5\n", false).await;
    assert_eq!(added.status(), StatusCode::FORBIDDEN);
    let deleted = web
        .post_form(
            "/problems/nim/testcases/small-1/delete",
            &[("csrf", &web.csrf)],
        )
        .await;
    assert_eq!(deleted.status(), StatusCode::FORBIDDEN);
    let rejudged = web
        .post_form("/problems/nim/rejudge", &[("csrf", &web.csrf)])
        .await;
    assert_eq!(rejudged.status(), StatusCode::FORBIDDEN);
    assert_eq!(testcase_names(&app).await, before, "nothing changed");

    // Nor may a contestant rejudge their own submission, or see the button.
    let id = app
        .submit_answers(&app.contestant, &correct_answers())
        .await;
    let own = web
        .get(&format!("/submissions/{id}"))
        .await
        .text()
        .await
        .expect("page");
    assert!(!own.contains("rejudge-submission"), "{own}");
    let rejudge = web
        .post_form(
            &format!("/submissions/{id}/rejudge"),
            &[("csrf", &web.csrf)],
        )
        .await;
    assert_eq!(rejudge.status(), StatusCode::FORBIDDEN);
    app.stop().await;
}

#[tokio::test]
#[ignore = "needs Chromium and chromedriver; scripts/test.sh runs it"]
async fn a_setters_forms_go_through_the_apis_rules_and_show_refusals_on_the_page() {
    let dir = TestDir::new();
    let app = TestApp::spawn(&dir, 0).await;
    let web = WebClient::sign_in(&app, &app.setter).await;

    // A setter with none of their own is pointed at everyone's.
    let own = web
        .get("/submissions")
        .await
        .text()
        .await
        .expect("the page");
    assert!(
        own.contains(r#"<a id="everyones" href="/submissions?everyone=true">"#),
        "{own}"
    );

    let page = web.get("/problems/nim/testcases").await;
    assert_eq!(page.status(), StatusCode::OK);
    let body = page.text().await.expect("the page");
    for name in ["sample-1", "small-1", "small-2"] {
        assert!(body.contains(&format!(r#"data-name="{name}""#)), "{body}");
    }
    // Bundled testcases have no delete button.
    assert!(!body.contains("delete-sample-1"), "{body}");

    // Without this session's CSRF token, nothing is written.
    let forged = add(&web, "not-the-token", "extra-1", "2\n4 5\n", false).await;
    assert_eq!(forged.status(), StatusCode::FORBIDDEN);

    // The validator's refusal: 422, its message above the form, the form
    // still filled in.
    let invalid = add(&web, &web.csrf, "extra-1", "2\n4\n", true).await;
    assert_eq!(invalid.status(), StatusCode::UNPROCESSABLE_ENTITY);
    let body = invalid.text().await.expect("the page");
    let (_, api_error) = app
        .post(
            "/api/problems/nim/testcases",
            &app.setter,
            serde_json::json!({"name": "extra-1", "input": "2\n4\n"}),
        )
        .await;
    let message = api_error["error"].as_str().expect("the API's message");
    assert!(message.starts_with("invalid input: line"), "{message}");
    assert!(
        body.contains(message),
        "the API's own words: {message}\n{body}"
    );
    assert!(body.contains(r#"value="extra-1""#), "{body}");
    assert!(body.contains("2\n4\n</textarea>"), "{body}");
    assert!(body.contains("checked"), "the hidden box stays ticked");

    // A bad name and a taken name.
    let bad_name = add(&web, &web.csrf, "Bad Name", "2\n4 5\n", false).await;
    assert_eq!(bad_name.status(), StatusCode::UNPROCESSABLE_ENTITY);
    assert!(
        bad_name
            .text()
            .await
            .expect("page")
            .contains("the name <code>Bad Name</code>")
    );
    let taken = add(&web, &web.csrf, "sample-1", "2\n4 5\n", false).await;
    assert_eq!(taken.status(), StatusCode::CONFLICT);
    assert!(
        taken
            .text()
            .await
            .expect("page")
            .contains("problem <code>nim</code> already has a testcase <code>sample-1</code>")
    );

    // A valid one is added and listed, hidden.
    let valid = add(&web, &web.csrf, "extra-1", "2\n4 5\n", true).await;
    assert_eq!(valid.status(), StatusCode::SEE_OTHER);
    let location = valid.headers()[header::LOCATION]
        .to_str()
        .expect("text")
        .to_string();
    assert_eq!(location, "/problems/nim/testcases?added=extra-1");
    let body = web.get(&location).await.text().await.expect("the page");
    assert!(
        body.contains("Added testcase <code>extra-1</code>;"),
        "{body}"
    );
    assert!(body.contains("delete-extra-1"), "{body}");
    assert!(testcase_names(&app).await.contains(&"extra-1".to_string()));

    // A bundled testcase is refused with the API's 409, shown on the page.
    let bundled = web
        .post_form(
            "/problems/nim/testcases/sample-1/delete",
            &[("csrf", &web.csrf)],
        )
        .await;
    assert_eq!(bundled.status(), StatusCode::CONFLICT);
    let body = bundled.text().await.expect("the page");
    assert!(
        body.contains(
            "testcase <code>sample-1</code> is a sample testcase from problems/nim/problem.toml"
        ),
        "{body}"
    );
    // The setter's own is deleted (with the token only).
    let forged = web
        .post_form("/problems/nim/testcases/extra-1/delete", &[("csrf", "x")])
        .await;
    assert_eq!(forged.status(), StatusCode::FORBIDDEN);
    let deleted = web
        .post_form(
            "/problems/nim/testcases/extra-1/delete",
            &[("csrf", &web.csrf)],
        )
        .await;
    assert_eq!(deleted.status(), StatusCode::SEE_OTHER);
    assert!(!testcase_names(&app).await.contains(&"extra-1".to_string()));
    app.stop().await;
}

#[tokio::test]
#[ignore = "needs Chromium and chromedriver; scripts/test.sh runs it"]
async fn the_rejudge_buttons_queue_through_the_apis_calls_and_say_how_many() {
    let dir = TestDir::new();
    let app = TestApp::spawn(&dir, 1).await;
    let first = app
        .submit_answers(&app.contestant, &correct_answers())
        .await;
    let second = app.submit_answers(&app.other, &correct_answers()).await;
    app.verdict(&first, &app.admin).await;
    app.verdict(&second, &app.admin).await;
    let web = WebClient::sign_in(&app, &app.setter).await;

    // One submission, from its page.
    let page = web
        .get(&format!("/submissions/{first}"))
        .await
        .text()
        .await
        .expect("page");
    assert!(page.contains("rejudge-submission-button"), "{page}");
    let forged = web
        .post_form(&format!("/submissions/{first}/rejudge"), &[("csrf", "x")])
        .await;
    assert_eq!(forged.status(), StatusCode::FORBIDDEN);
    let one = web
        .post_form(
            &format!("/submissions/{first}/rejudge"),
            &[("csrf", &web.csrf)],
        )
        .await;
    assert_eq!(one.status(), StatusCode::SEE_OTHER);
    let location = one.headers()[header::LOCATION]
        .to_str()
        .expect("text")
        .to_string();
    assert_eq!(location, format!("/submissions/{first}?rejudged=true"));
    let page = web.get(&location).await.text().await.expect("page");
    assert!(page.contains("Queued 1 submission for rejudging"), "{page}");
    app.drain().await;
    let events = app
        .get(&format!("/api/submissions/{first}"), &app.admin)
        .await
        .1;
    assert!(
        events.to_string().contains("rejudge"),
        "the rejudge is in the event log: {events}"
    );

    // The whole problem, from the testcase page: both judged submissions.
    let forged = web
        .post_form("/problems/nim/rejudge", &[("csrf", "x")])
        .await;
    assert_eq!(forged.status(), StatusCode::FORBIDDEN);
    let all = web
        .post_form("/problems/nim/rejudge", &[("csrf", &web.csrf)])
        .await;
    assert_eq!(all.status(), StatusCode::SEE_OTHER);
    let location = all.headers()[header::LOCATION]
        .to_str()
        .expect("text")
        .to_string();
    assert_eq!(location, "/problems/nim/testcases?rejudged=2");
    let page = web.get(&location).await.text().await.expect("page");
    assert!(
        page.contains("Queued 2 submissions of this problem for rejudging."),
        "{page}"
    );
    assert!(page.contains(r#"data-queued="2""#), "{page}");
    app.drain().await;
    // What the progress bar reads: the staff's alone.
    let progress = web.get("/problems/nim/rejudge/progress").await;
    assert_eq!(progress.status(), StatusCode::OK);
    let body: serde_json::Value = progress.json().await.expect("json");
    assert_eq!(body, serde_json::json!({ "unjudged": 0 }));
    let contestant = WebClient::sign_in(&app, &app.contestant).await;
    let refused = contestant.get("/problems/nim/rejudge/progress").await;
    assert_eq!(refused.status(), StatusCode::FORBIDDEN);
    app.stop().await;
}

#[tokio::test]
#[ignore = "needs Chromium and chromedriver; scripts/test.sh runs it"]
async fn the_hide_and_show_buttons_go_through_the_api_and_need_the_csrf_token() {
    let dir = TestDir::new();
    let app = TestApp::spawn(&dir, 0).await;
    let web = WebClient::sign_in(&app, &app.setter).await;
    let added = add(&web, &web.csrf, "extra-1", "2\n4 5\n", false).await;
    assert_eq!(added.status(), StatusCode::SEE_OTHER);
    assert_eq!(hidden(&app).await, Some(false));

    let forged = web
        .post_form("/problems/nim/testcases/extra-1/hide", &[("csrf", "x")])
        .await;
    assert_eq!(forged.status(), StatusCode::FORBIDDEN);
    assert_eq!(hidden(&app).await, Some(false));
    let done = web
        .post_form(
            "/problems/nim/testcases/extra-1/hide",
            &[("csrf", &web.csrf)],
        )
        .await;
    assert_eq!(done.status(), StatusCode::SEE_OTHER);
    assert_eq!(
        done.headers()[header::LOCATION],
        "/problems/nim/testcases?hidden=extra-1"
    );
    assert_eq!(hidden(&app).await, Some(true));
    let page = web
        .get("/problems/nim/testcases")
        .await
        .text()
        .await
        .expect("page");
    assert!(
        page.contains("show-extra-1") && !page.contains("hide-extra-1"),
        "{page}"
    );
    let done = web
        .post_form(
            "/problems/nim/testcases/extra-1/show",
            &[("csrf", &web.csrf)],
        )
        .await;
    assert_eq!(done.status(), StatusCode::SEE_OTHER);
    assert_eq!(hidden(&app).await, Some(false));

    // The problem folder's testcases: the API's 409 on the page; no button.
    let page = web
        .get("/problems/nim/testcases")
        .await
        .text()
        .await
        .expect("page");
    assert!(!page.contains("hide-sample-1"), "{page}");
    let bundled = web
        .post_form(
            "/problems/nim/testcases/sample-1/hide",
            &[("csrf", &web.csrf)],
        )
        .await;
    assert_eq!(bundled.status(), StatusCode::CONFLICT);
    let body = bundled.text().await.expect("page");
    assert!(body.contains("change it there"), "{body}");

    // A contestant is refused.
    let contestant = WebClient::sign_in(&app, &app.contestant).await;
    let refused = contestant
        .post_form(
            "/problems/nim/testcases/extra-1/hide",
            &[("csrf", &contestant.csrf)],
        )
        .await;
    assert_eq!(refused.status(), StatusCode::FORBIDDEN);
    assert_eq!(hidden(&app).await, Some(false));
    app.stop().await;
}

#[tokio::test]
#[ignore = "needs Chromium and chromedriver; scripts/test.sh runs it"]
async fn typed_line_ends_are_stored_as_lf_and_a_chosen_file_as_sent() {
    let dir = TestDir::new();
    let app = TestApp::spawn(&dir, 0).await;
    let web = WebClient::sign_in(&app, &app.setter).await;
    // What a browser sends for a textarea, whatever the setter's system.
    let typed = add(&web, &web.csrf, "typed-1", "2\r\n1 1\r\n", false).await;
    assert_eq!(typed.status(), StatusCode::SEE_OTHER);
    let file = web
        .post_multipart(
            "/problems/nim/testcases",
            &[
                ("csrf", None, &web.csrf),
                ("name", None, "file-1"),
                ("input_file", Some("file-1.in"), "2\r\n3 4\r\n"),
            ],
        )
        .await;
    assert_eq!(file.status(), StatusCode::SEE_OTHER);
    for (name, stored) in [("typed-1", "2\n1 1\n"), ("file-1", "2\r\n3 4\r\n")] {
        let response = app
            .http
            .get(format!(
                "{}/api/problems/nim/testcases/{name}/input",
                app.address
            ))
            .bearer_auth(&app.setter)
            .send()
            .await
            .expect("send");
        assert_eq!(response.status(), StatusCode::OK);
        assert_eq!(response.text().await.expect("the input"), stored, "{name}");
    }
    app.stop().await;
}
