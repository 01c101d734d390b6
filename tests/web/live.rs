//! The submission page's live document over plain HTTP: the progress a
//! worker recorded, the event log from a given entry on, and the same 404
//! as the page for another contestant's submission.

use std::time::Duration;

use nimjudge::domain::{Progress, Verdict};
use reqwest::{StatusCode, header};
use serde_json::{Value, json};

use crate::{
    forms::WebClient,
    helpers::{NIM_TESTCASES, TestApp, TestDir, correct_answers},
};

/// The live document at `path`, after checking that it is JSON.
async fn live(web: &WebClient, path: &str) -> Value {
    let response = web.get(path).await;
    assert_eq!(response.status(), StatusCode::OK, "{path}");
    let kind = response
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default()
        .to_string();
    assert!(kind.starts_with("application/json"), "{kind}");
    response.json().await.expect("a JSON document")
}

/// The kinds of a document's events, in order.
fn kinds(document: &Value) -> Vec<String> {
    document["events"]
        .as_array()
        .expect("events")
        .iter()
        .map(|event| event["kind"].as_str().expect("a kind").to_string())
        .collect()
}

#[tokio::test]
#[ignore = "needs Chromium and chromedriver; scripts/test.sh runs it"]
async fn the_live_document_reports_progress_and_new_events_and_hides_others_submissions() {
    let dir = TestDir::new();
    let app = TestApp::spawn(&dir, 0).await;
    let id = app
        .submit_answers(&app.contestant, &correct_answers())
        .await;
    let path = format!("/submissions/{id}/live");
    let web = WebClient::sign_in(&app, &app.contestant).await;

    let queued = live(&web, &path).await;
    assert_eq!(queued["state"], "queued");
    assert!(queued["progress"].is_null(), "{queued}");
    assert_eq!(kinds(&queued), ["queued"]);
    assert_eq!(queued["events"][0]["actor"], "carol");

    // A worker claims it, records a count, and loses its lease at once.
    let claim = app
        .store()
        .claim("slow-worker", Duration::from_millis(1))
        .await
        .expect("claim")
        .expect("the job");
    let progress = Progress { done: 1, total: 3 };
    assert!(
        app.store()
            .record_progress(&claim, progress)
            .await
            .expect("record")
    );
    let running = live(&web, &format!("{path}?events_from=1")).await;
    assert_eq!(running["state"], "running");
    assert_eq!(running["progress"], json!({ "done": 1, "total": 3 }));
    assert_eq!(running["progress_text"], "1 / 3 testcases");
    assert_eq!(
        kinds(&running),
        ["claimed"],
        "only the events after the first"
    );
    assert_eq!(running["events"][0]["actor"], "slow-worker");
    // The page draws the same bar.
    let page = web.get(&format!("/submissions/{id}")).await;
    assert_eq!(page.status(), StatusCode::OK);
    let page = page.text().await.expect("the page");
    assert!(page.contains(r#"max="3" value="1""#), "{page}");
    assert!(page.contains("1 / 3 testcases"), "{page}");

    // Another contestant gets the 404 of a missing submission, for the
    // document and the page alike, and nothing of it.
    let other = WebClient::sign_in(&app, &app.other).await;
    for path in [path.clone(), format!("/submissions/{id}")] {
        let response = other.get(&path).await;
        assert_eq!(response.status(), StatusCode::NOT_FOUND, "{path}");
        let body = response.text().await.expect("the page");
        assert!(!body.contains("carol") && !body.contains("1 / 3"), "{body}");
    }

    // Another worker takes the expired lease over and judges it.
    let outcome = app
        .judge
        .run_one_job("test-worker")
        .await
        .expect("judge")
        .expect("the job");
    assert_eq!(outcome.verdict, Some(Verdict::AC));
    let judged = live(&web, &format!("{path}?events_from=2")).await;
    assert_eq!(judged["state"], "done");
    assert_eq!(judged["verdict"], "AC");
    assert!(judged["progress"].is_null(), "{judged}");
    assert_eq!(judged["progress_text"], "");
    assert_eq!(kinds(&judged), ["lease_lost", "claimed", "judged"]);
    assert_eq!(
        judged["results"].as_array().map(Vec::len),
        Some(NIM_TESTCASES.len())
    );
    let whole = live(&web, &path).await;
    assert_eq!(
        kinds(&whole),
        ["queued", "claimed", "lease_lost", "claimed", "judged"]
    );
    for event in whole["events"].as_array().expect("events") {
        let time = event["time"].as_str().expect("a time");
        assert_eq!(time.len(), "12:34:56".len(), "{time}");
    }
    let past_the_end = live(&web, &format!("{path}?events_from=99")).await;
    assert_eq!(past_the_end["events"], json!([]));
    let malformed = web.get(&format!("{path}?events_from=-1")).await;
    assert_eq!(malformed.status(), StatusCode::BAD_REQUEST);
    app.stop().await;
}
