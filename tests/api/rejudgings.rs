//! Rejudge previews: judged on the side, seen only by setters and admins,
//! then applied (the changed verdicts become the submissions') or
//! discarded.

use std::time::Duration;

use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::helpers::{TestApp, TestDir, correct_answers, wrong_answers};

/// The preview once every submission in it is judged again.
async fn judged_preview(app: &TestApp, id: i64) -> Value {
    for _ in 0..400 {
        let (status, body) = app.get(&format!("/api/rejudgings/{id}"), &app.setter).await;
        assert_eq!(status, StatusCode::OK, "{body}");
        if body["rejudging"]["judged"] == body["rejudging"]["submissions"] {
            return body;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("rejudge preview {id} was not judged in 20 s");
}

#[tokio::test]
async fn a_rejudge_preview_lists_the_changed_verdicts_and_applies_only_them() {
    let dir = TestDir::new();
    let app = TestApp::spawn(&dir, 1).await;
    let right = app
        .submit_answers(&app.contestant, &correct_answers())
        .await;
    let wrong = app.submit_answers(&app.other, &wrong_answers()).await;
    assert_eq!(
        app.verdict(&right, &app.contestant).await["submission"]["verdict"],
        "AC"
    );
    assert_eq!(
        app.verdict(&wrong, &app.other).await["submission"]["verdict"],
        "WA"
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

    let (status, _) = app
        .post("/api/problems/nim/rejudgings", &app.contestant, json!({}))
        .await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    let (status, body) = app
        .post("/api/problems/nim/rejudgings", &app.setter, json!({}))
        .await;
    assert_eq!(status, StatusCode::CREATED, "{body}");
    assert_eq!(body["state"], "preview");
    assert_eq!(body["submissions"], 2);
    let id = body["id"].as_i64().expect("an id");
    let (status, _) = app
        .get(&format!("/api/rejudgings/{id}"), &app.contestant)
        .await;
    assert_eq!(status, StatusCode::FORBIDDEN);

    let report = judged_preview(&app, id).await;
    assert_eq!(report["rejudging"]["changed"], 1, "{report}");
    let items = report["items"].as_array().expect("items");
    let item = |submission: &str| {
        items
            .iter()
            .find(|i| i["submission"] == submission)
            .unwrap_or_else(|| panic!("{submission} in {report}"))
    };
    let changed = item(&right.to_string());
    assert_eq!(
        (&changed["before"], &changed["after"]),
        (&json!("AC"), &json!("WA"))
    );
    assert_eq!(changed["user"], "carol");
    let same = item(&wrong.to_string());
    assert_eq!(
        (&same["before"], &same["after"]),
        (&json!("WA"), &json!("WA"))
    );
    // Until it is applied, the contestant's verdict is the one they had.
    let body = app.verdict(&right, &app.contestant).await;
    assert_eq!(body["submission"]["verdict"], "AC");

    let (status, body) = app
        .post(
            &format!("/api/rejudgings/{id}/apply"),
            &app.setter,
            json!({}),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body, json!({ "applied": 1, "stale": 0 }));
    let body = app.verdict(&right, &app.admin).await;
    assert_eq!(body["submission"]["verdict"], "WA", "{body}");
    let judgements = body["judgements"].as_array().expect("judgements");
    assert_eq!(judgements.len(), 2, "{body}");
    let applied = body["events"]
        .as_array()
        .expect("events")
        .iter()
        .find(|e| e["actor"] == "sam-setter" && e["kind"] == "judged")
        .unwrap_or_else(|| panic!("an applied judgement in {body}"));
    assert_eq!(
        applied["detail"],
        format!("AC → WA: rejudge preview {id} applied")
    );
    let body = app.verdict(&wrong, &app.admin).await;
    assert_eq!(body["judgements"].as_array().expect("judgements").len(), 1);
    let (status, body) = app
        .post(
            &format!("/api/rejudgings/{id}/apply"),
            &app.setter,
            json!({}),
        )
        .await;
    assert_eq!(status, StatusCode::CONFLICT);
    assert_eq!(
        body["error"],
        format!("rejudge preview {id} was applied already")
    );
    app.stop().await;
}

#[tokio::test]
async fn a_discarded_rejudge_preview_changes_no_verdict() {
    let dir = TestDir::new();
    let app = TestApp::spawn(&dir, 1).await;
    let (status, body) = app
        .post("/api/problems/nim/rejudgings", &app.setter, json!({}))
        .await;
    assert_eq!(status, StatusCode::CONFLICT, "{body}");
    assert_eq!(
        body["error"],
        "problem `nim` has no judged submissions to rejudge"
    );
    let right = app
        .submit_answers(&app.contestant, &correct_answers())
        .await;
    app.verdict(&right, &app.contestant).await;
    app.post(
        "/api/problems/nim/testcases",
        &app.setter,
        json!({ "name": "setter-1", "input": "2\n7 7\n", "hidden": false }),
    )
    .await;
    let (_, body) = app
        .post("/api/problems/nim/rejudgings", &app.admin, json!({}))
        .await;
    let id = body["id"].as_i64().expect("an id");
    let report = judged_preview(&app, id).await;
    assert_eq!(report["rejudging"]["changed"], 1, "{report}");
    let (status, body) = app
        .post(
            &format!("/api/rejudgings/{id}/discard"),
            &app.setter,
            json!({}),
        )
        .await;
    assert_eq!(status, StatusCode::NO_CONTENT, "{body}");
    let (status, _) = app
        .post(
            &format!("/api/rejudgings/{id}/apply"),
            &app.setter,
            json!({}),
        )
        .await;
    assert_eq!(status, StatusCode::CONFLICT);
    let body = app.verdict(&right, &app.admin).await;
    assert_eq!(body["submission"]["verdict"], "AC");
    assert_eq!(body["judgements"].as_array().expect("judgements").len(), 1);
    let (_, list) = app.get("/api/problems/nim/rejudgings", &app.setter).await;
    assert_eq!(list[0]["state"], "discarded", "{list}");
    assert_eq!(list[0]["decided_by"], "sam-setter");
    let (status, _) = app.get("/api/rejudgings/9999", &app.setter).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    app.stop().await;
}
