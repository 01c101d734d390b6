//! Rejudge previews over plain HTTP: started from the testcase page, seen
//! and decided by setters alone, with the API's refusals on the page.

use reqwest::{StatusCode, header};
use serde_json::json;

use crate::{
    forms::WebClient,
    helpers::{TestApp, TestDir, correct_answers},
};

/// Where a `303` sends the browser.
fn location(response: &reqwest::Response) -> String {
    assert_eq!(response.status(), StatusCode::SEE_OTHER);
    response.headers()[header::LOCATION]
        .to_str()
        .expect("text")
        .to_string()
}

/// The preview's id from its page's path.
fn preview_id(path: &str) -> i64 {
    path.strip_prefix("/rejudgings/")
        .and_then(|id| id.parse().ok())
        .unwrap_or_else(|| panic!("a preview's page, not {path}"))
}

#[tokio::test]
#[ignore = "needs Chromium and chromedriver; scripts/test.sh runs it"]
async fn a_setter_previews_a_rejudge_from_the_testcase_page_and_applies_it() {
    let dir = TestDir::new();
    let app = TestApp::spawn(&dir, 1).await;
    let right = app
        .submit_answers(&app.contestant, &correct_answers())
        .await;
    assert_eq!(
        app.verdict(&right, &app.contestant).await["submission"]["verdict"],
        "AC"
    );
    // A public testcase the accepted answers do not answer.
    let (status, body) = app
        .post(
            "/api/problems/nim/testcases",
            &app.setter,
            json!({ "name": "setter-1", "input": "2\n7 7\n", "hidden": false }),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{body}");
    let web = WebClient::sign_in(&app, &app.setter).await;
    let page = web
        .get("/problems/nim/testcases")
        .await
        .text()
        .await
        .expect("page");
    assert!(page.contains("preview-rejudge-button"), "{page}");
    assert!(!page.contains("rejudging-list"), "no preview yet: {page}");
    let forged = web
        .post_form("/problems/nim/rejudgings", &[("csrf", "x")])
        .await;
    assert_eq!(forged.status(), StatusCode::FORBIDDEN);
    let started = web
        .post_form("/problems/nim/rejudgings", &[("csrf", &web.csrf)])
        .await;
    let path = location(&started);
    let id = preview_id(&path);

    let page = web.settled(&path).await;
    assert!(
        page.contains("1 of 1 submissions judged again, 1 to another verdict."),
        "{page}"
    );
    let row = page
        .split("<tr ")
        .find(|row| row.contains(&format!(r#"data-submission="{right}""#)))
        .unwrap_or_else(|| panic!("a row for {right}: {page}"));
    assert!(row.contains(r#"data-changed="true""#), "{row}");
    assert!(
        row.contains("verdict-AC") && row.contains("verdict-WA"),
        "{row}"
    );
    assert!(page.contains("apply-rejudging-button"), "{page}");
    // Until it is applied, nothing changed for the contestant.
    assert_eq!(
        app.verdict(&right, &app.contestant).await["submission"]["verdict"],
        "AC"
    );
    let listed = web
        .get("/problems/nim/testcases")
        .await
        .text()
        .await
        .expect("page");
    assert!(
        listed.contains(&format!(r#"href="/rejudgings/{id}""#)),
        "{listed}"
    );

    // A contestant can neither see the preview nor decide it.
    let contestant = WebClient::sign_in(&app, &app.contestant).await;
    assert_eq!(contestant.get(&path).await.status(), StatusCode::FORBIDDEN);
    let refused = contestant
        .post_form(&format!("{path}/apply"), &[("csrf", &contestant.csrf)])
        .await;
    assert_eq!(refused.status(), StatusCode::FORBIDDEN);
    let refused = contestant
        .post_form("/problems/nim/rejudgings", &[("csrf", &contestant.csrf)])
        .await;
    assert_eq!(refused.status(), StatusCode::FORBIDDEN);

    let forged = web
        .post_form(&format!("{path}/apply"), &[("csrf", "x")])
        .await;
    assert_eq!(forged.status(), StatusCode::FORBIDDEN);
    let applied = web
        .post_form(&format!("{path}/apply"), &[("csrf", &web.csrf)])
        .await;
    let done = location(&applied);
    assert_eq!(done, format!("{path}?applied=1&stale=0"));
    let page = web.get(&done).await.text().await.expect("page");
    assert!(page.contains("Applied: 1 verdict changed."), "{page}");
    assert!(page.contains("Applied by sam-setter"), "{page}");
    assert!(!page.contains("apply-rejudging-button"), "{page}");
    assert_eq!(
        app.verdict(&right, &app.contestant).await["submission"]["verdict"],
        "WA"
    );
    // Applied once: again is the page with the API's 409.
    let again = web
        .post_form(&format!("{path}/apply"), &[("csrf", &web.csrf)])
        .await;
    assert_eq!(again.status(), StatusCode::CONFLICT);
    let page = again.text().await.expect("page");
    assert!(
        page.contains(&format!("rejudge preview {id} was applied already")),
        "{page}"
    );
    assert_eq!(
        web.get("/rejudgings/999999").await.status(),
        StatusCode::NOT_FOUND
    );
    app.stop().await;
}

#[tokio::test]
#[ignore = "needs Chromium and chromedriver; scripts/test.sh runs it"]
async fn a_discarded_preview_leaves_every_verdict_and_a_problem_without_judged_submissions_has_none()
 {
    let dir = TestDir::new();
    let app = TestApp::spawn(&dir, 1).await;
    let web = WebClient::sign_in(&app, &app.setter).await;
    let none = web
        .post_form("/problems/nim/rejudgings", &[("csrf", &web.csrf)])
        .await;
    assert_eq!(none.status(), StatusCode::CONFLICT);
    let page = none.text().await.expect("page");
    assert!(
        page.contains("has no judged submissions to rejudge"),
        "{page}"
    );

    let right = app
        .submit_answers(&app.contestant, &correct_answers())
        .await;
    app.verdict(&right, &app.admin).await;
    let started = web
        .post_form("/problems/nim/rejudgings", &[("csrf", &web.csrf)])
        .await;
    let path = location(&started);
    let page = web.settled(&path).await;
    assert!(
        page.contains("1 of 1 submissions judged again, 0 to another verdict."),
        "{page}"
    );
    let discarded = web
        .post_form(&format!("{path}/discard"), &[("csrf", &web.csrf)])
        .await;
    let done = location(&discarded);
    assert_eq!(done, format!("{path}?discarded=true"));
    let page = web.get(&done).await.text().await.expect("page");
    assert!(
        page.contains("Discarded: every submission keeps its verdict."),
        "{page}"
    );
    assert!(!page.contains("discard-rejudging-button"), "{page}");
    let body = app.verdict(&right, &app.admin).await;
    assert_eq!(body["submission"]["verdict"], "AC");
    assert_eq!(body["judgements"].as_array().expect("judgements").len(), 1);
    app.stop().await;
}
