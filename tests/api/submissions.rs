//! Contestants submitting answers and custom checks; reviewers reading them.

use reqwest::StatusCode;
use serde_json::json;

use crate::helpers::{
    NIM_TESTCASES, TestApp, TestDir, correct_answers, nim_answer, run_client, submission_id,
};

fn flip(answer: &str) -> String {
    if answer.trim() == "Alice" {
        "Bob\n"
    } else {
        "Alice\n"
    }
    .to_string()
}

#[tokio::test]
async fn correct_answers_to_every_public_testcase_are_accepted() {
    let dir = TestDir::new();
    let app = TestApp::spawn(&dir, 2).await;
    let id = app
        .submit_answers(&app.contestant, &correct_answers())
        .await;
    let body = app.verdict(&id, &app.contestant).await;
    assert_eq!(body["submission"]["verdict"], "AC", "{body}");
    let results = body["results"].as_array().expect("results");
    assert_eq!(results.len(), NIM_TESTCASES.len());
    assert!(results.iter().all(|r| r["verdict"] == "AC"), "{body}");
    let kinds: Vec<&str> = body["events"]
        .as_array()
        .expect("events")
        .iter()
        .filter_map(|e| e["kind"].as_str())
        .collect();
    assert_eq!(kinds, ["queued", "claimed", "judged"]);
    // The worker counts the latency right after its write returns; on
    // PostgreSQL the database's judged notice can answer the long poll
    // first, so the count may follow the verdict by a moment.
    let expected = [
        "nimjudge_judgements_total{verdict=\"AC\"} 1",
        "nimjudge_judgements_total{verdict=\"WA\"} 0",
        "nimjudge_queue_depth{state=\"queued\"} 0",
        "nimjudge_submit_to_verdict_seconds_count 1",
    ];
    let mut metrics = String::new();
    for _ in 0..50 {
        let (status, body) = app
            .request(reqwest::Method::GET, "/metrics", Some(&app.setter), None)
            .await;
        assert_eq!(status, StatusCode::OK);
        metrics = body.as_str().expect("text").to_string();
        if expected
            .iter()
            .all(|line| metrics.lines().any(|l| l == *line))
        {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    for line in expected {
        assert!(metrics.lines().any(|l| l == line), "{line} in {metrics}");
    }
    // Without a token, or with a contestant's, the verdicts are left out
    // (during a freeze they would tell what the board hides); a token that
    // is no token is refused.
    for token in [None, Some(app.contestant.as_str())] {
        let (status, body) = app
            .request(reqwest::Method::GET, "/metrics", token, None)
            .await;
        assert_eq!(status, StatusCode::OK);
        let text = body.as_str().expect("text");
        assert!(!text.contains("nimjudge_judgements"), "{text}");
        assert!(text.contains("nimjudge_submit_to_verdict_seconds_count 1\n"));
    }
    let (status, _) = app
        .request(
            reqwest::Method::GET,
            "/metrics",
            Some("nj_no-such-token"),
            None,
        )
        .await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    app.stop().await;
}

#[tokio::test]
async fn a_wrong_token_is_wa_naming_the_testcase_and_the_token_found() {
    let dir = TestDir::new();
    let app = TestApp::spawn(&dir, 2).await;
    let mut answers = correct_answers();
    let expected = nim_answer(NIM_TESTCASES[1].2);
    let wrong = flip(&expected);
    answers.insert("small-1".into(), wrong.clone());
    answers.remove("small-2");
    let id = app.submit_answers(&app.contestant, &answers).await;
    let body = app.verdict(&id, &app.contestant).await;
    assert_eq!(body["submission"]["verdict"], "WA", "{body}");
    let message = body["submission"]["message"].as_str().expect("a message");
    // The contestant learns where their output went wrong, not the answer.
    assert_eq!(
        message,
        format!(
            "testcase small-1: token 1 (line 1): found `{}`, which is wrong",
            wrong.trim()
        )
    );
    // A setter reads the full difference in the testcase's detail.
    let reviewed = app.verdict(&id, &app.setter).await;
    let detail = reviewed["results"]
        .as_array()
        .expect("results")
        .iter()
        .find(|r| r["testcase"] == "small-1")
        .and_then(|r| r["detail"].as_str())
        .expect("a detail for the setter")
        .to_string();
    assert_eq!(
        detail,
        format!(
            "token 1 (line 1): expected `{}`, found `{}`",
            expected.trim(),
            wrong.trim()
        )
    );
    let results = body["results"].as_array().expect("results");
    let verdict_of = |name: &str| {
        results
            .iter()
            .find(|r| r["testcase"] == name)
            .map(|r| r["verdict"].clone())
    };
    assert_eq!(verdict_of("sample-1"), Some(json!("AC")));
    assert_eq!(verdict_of("small-1"), Some(json!("WA")));
    // Left unanswered: WA for that testcase.
    assert_eq!(verdict_of("small-2"), Some(json!("WA")));
    app.stop().await;
}

#[tokio::test]
async fn a_submission_shows_its_submitter_and_staff_what_was_sent_and_nobody_else() {
    let dir = TestDir::with_custom_checks();
    let app = TestApp::spawn(&dir, 1).await;
    let mut answers = correct_answers();
    let first = answers.keys().next().expect("a testcase").clone();
    answers.insert(first.clone(), "Alice\n\n\n".into());
    let id = app.submit_answers(&app.contestant, &answers).await;
    let body = app.verdict(&id, &app.contestant).await;
    let content = &body["content"];
    assert_eq!(content["kind"], "answers", "{body}");
    let sent = content["answers"].as_array().expect("answers");
    assert_eq!(sent.len(), answers.len(), "{body}");
    for entry in sent {
        let name = entry["testcase"].as_str().expect("a name");
        assert_eq!(entry["bytes"], answers[name].len(), "{body}");
    }
    assert_eq!(sent[0]["bytes"], 8, "{body}");
    for staff in [&app.setter, &app.admin] {
        let (status, seen) = app.get(&format!("/api/submissions/{id}"), staff).await;
        assert_eq!(status, StatusCode::OK, "{seen}");
        assert_eq!(seen["content"], body["content"]);
    }
    let (status, seen) = app.get(&format!("/api/submissions/{id}"), &app.other).await;
    assert_eq!(status, StatusCode::NOT_FOUND, "{seen}");
    assert!(seen.get("content").is_none(), "{seen}");

    let input = "3\n4 4 1\n";
    let (status, body) = app
        .post(
            "/api/submissions",
            &app.contestant,
            json!({ "problem": "nim", "input": input, "output": "Bob\n" }),
        )
        .await;
    assert_eq!(status, StatusCode::ACCEPTED, "{body}");
    let judged = app
        .verdict(&submission_id(&body["id"]), &app.contestant)
        .await;
    assert_eq!(
        judged["content"],
        json!({ "kind": "custom", "input_bytes": input.len(), "output_bytes": 4 }),
        "{judged}"
    );
    app.stop().await;
}

#[tokio::test]
async fn a_custom_check_judges_one_input_of_the_contestants_choice() {
    let dir = TestDir::with_custom_checks();
    let app = TestApp::spawn(&dir, 1).await;
    let input = "3\n4 4 1\n";
    let right = nim_answer(input);
    for (output, verdict) in [(right.clone(), "AC"), (flip(&right), "WA")] {
        let (status, body) = app
            .post(
                "/api/submissions",
                &app.contestant,
                json!({ "problem": "nim", "input": input, "output": output }),
            )
            .await;
        assert_eq!(status, StatusCode::ACCEPTED, "{body}");
        let id = submission_id(&body["id"]);
        assert_eq!(body["url"], format!("/api/submissions/{id}"));
        let judged = app.verdict(&id, &app.contestant).await;
        assert_eq!(judged["submission"]["verdict"], verdict, "{judged}");
        assert_eq!(judged["results"][0]["testcase"], "custom");
    }
    app.stop().await;
}

#[tokio::test]
async fn an_invalid_custom_input_is_a_422_with_the_validators_message_and_no_job() {
    let dir = TestDir::with_custom_checks();
    let app = TestApp::spawn(&dir, 0).await;
    let (status, body) = app
        .post(
            "/api/submissions",
            &app.contestant,
            json!({ "problem": "nim", "input": "2\n1\n", "output": "Alice\n" }),
        )
        .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
    let error = body["error"].as_str().expect("error");
    let validator = nimjudge::solver::find("nim")
        .expect("nim")
        .validate("2\n1\n")
        .expect_err("invalid")
        .to_string();
    assert!(error.contains(&validator), "{error} vs {validator}");
    assert_eq!(app.store().queue_depth().await.expect("depth"), (0, 0));
    app.stop().await;
}

#[tokio::test]
async fn unknown_testcase_names_are_refused() {
    let dir = TestDir::new();
    let app = TestApp::spawn(&dir, 0).await;
    let mut answers = correct_answers();
    answers.insert("no-such-test".into(), "Alice".into());
    let (status, body) = app
        .post(
            "/api/submissions",
            &app.contestant,
            json!({ "problem": "nim", "answers": answers }),
        )
        .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
    assert!(
        body["error"]
            .as_str()
            .expect("error")
            .contains("no-such-test")
    );
    assert_eq!(app.store().queue_depth().await.expect("depth"), (0, 0));
    app.stop().await;
}

#[tokio::test]
async fn reviewers_filter_and_page_through_submissions() {
    let dir = TestDir::new();
    let app = TestApp::spawn(&dir, 2).await;
    let mut wrong = correct_answers();
    wrong.insert("sample-1".into(), flip(&wrong["sample-1"]));
    let mut ids = Vec::new();
    for i in 0..5 {
        let answers = if i % 2 == 0 {
            correct_answers()
        } else {
            wrong.clone()
        };
        ids.push(app.submit_answers(&app.contestant, &answers).await);
    }
    ids.push(app.submit_answers(&app.other, &correct_answers()).await);
    app.drain().await;

    // A problem that does not exist is a mistake, not an empty page.
    let (status, body) = app.get("/api/submissions?problem=nosuch", &app.admin).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
    assert_eq!(body["error"], "unknown problem `nosuch`");

    // Pages of two, newest first, until the cursor runs out.
    let mut seen = Vec::new();
    let mut cursor: Option<String> = None;
    loop {
        let path = match &cursor {
            Some(c) => format!("/api/submissions?limit=2&cursor={c}"),
            None => "/api/submissions?limit=2".to_string(),
        };
        let (status, body) = app.get(&path, &app.setter).await;
        assert_eq!(status, StatusCode::OK, "{body}");
        for s in body["submissions"].as_array().expect("page") {
            seen.push(s["id"].as_str().expect("id").to_string());
        }
        match body["next_cursor"].as_str() {
            Some(c) => cursor = Some(c.to_string()),
            None => break,
        }
    }
    let newest_first: Vec<String> = ids.iter().rev().map(|id| id.to_string()).collect();
    assert_eq!(seen, newest_first);

    let (_, body) = app
        .get("/api/submissions?verdict=WA&problem=nim", &app.admin)
        .await;
    assert_eq!(body["submissions"].as_array().expect("list").len(), 2);
    let (_, body) = app.get("/api/submissions?user=dave", &app.admin).await;
    assert_eq!(body["submissions"].as_array().expect("list").len(), 1);

    // A contestant lists only their own, and cannot ask for another's.
    let (_, body) = app.get("/api/submissions", &app.contestant).await;
    let mine = body["submissions"].as_array().expect("list");
    assert_eq!(mine.len(), 5);
    assert!(mine.iter().all(|s| s["user"] == "carol"));
    let (status, _) = app.get("/api/submissions?user=dave", &app.contestant).await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    app.stop().await;
}

#[tokio::test]
async fn a_rejudge_adds_a_judgement_and_keeps_the_earlier_one() {
    let dir = TestDir::new();
    let app = TestApp::spawn(&dir, 1).await;
    let id = app
        .submit_answers(&app.contestant, &correct_answers())
        .await;
    app.verdict(&id, &app.contestant).await;
    let (status, body) = app
        .post(
            &format!("/api/submissions/{id}/rejudge"),
            &app.setter,
            json!({}),
        )
        .await;
    assert_eq!(status, StatusCode::ACCEPTED, "{body}");
    app.drain().await;
    let body = app.verdict(&id, &app.admin).await;
    let judgements = body["judgements"].as_array().expect("judgements");
    assert_eq!(judgements.len(), 2, "{body}");
    assert!(judgements.iter().all(|j| j["verdict"] == "AC"));
    let rejudged = body["events"]
        .as_array()
        .expect("events")
        .iter()
        .find(|e| e["kind"] == "rejudged")
        .expect("a rejudged event");
    assert_eq!(rejudged["actor"], "sam-setter");

    let (status, body) = app
        .post("/api/problems/nim/rejudge", &app.admin, json!({}))
        .await;
    assert_eq!(status, StatusCode::ACCEPTED, "{body}");
    assert_eq!(body["queued"], 1);
    app.drain().await;
    let body = app.verdict(&id, &app.admin).await;
    assert_eq!(body["judgements"].as_array().expect("judgements").len(), 3);
    app.stop().await;
}

/// The client's round trip of an answers submission: `inputs` downloads
/// the public inputs into a folder, the contestant writes an answer beside
/// each, `submit --answers` sends them (the inputs are left out), and
/// `submissions` lists the contestant's own.
#[tokio::test]
async fn the_client_downloads_inputs_submits_answers_beside_them_and_lists_its_own() {
    let dir = TestDir::new();
    let app = TestApp::spawn(&dir, 1).await;
    let theirs = app.submit_answers(&app.other, &correct_answers()).await;
    let folder = dir.path().join("work");
    let cli = |args: Vec<String>| run_client(&app.address, &app.contestant, args);
    let folder_arg = folder.display().to_string();
    let out = cli(vec![
        "inputs".into(),
        "nim".into(),
        "--dir".into(),
        folder_arg.clone(),
    ])
    .await;
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let mut inputs: Vec<std::path::PathBuf> = std::fs::read_dir(&folder)
        .expect("the folder")
        .map(|e| e.expect("an entry").path())
        .collect();
    inputs.sort();
    assert_eq!(inputs.len(), correct_answers().len(), "{inputs:?}");
    for input in &inputs {
        assert_eq!(input.extension().and_then(|e| e.to_str()), Some("in"));
        let text = std::fs::read_to_string(input).expect("an input");
        std::fs::write(input.with_extension("out"), nim_answer(&text)).expect("an answer");
    }
    let out = cli(vec![
        "submit".into(),
        "--problem".into(),
        "nim".into(),
        "--answers".into(),
        folder_arg,
    ])
    .await;
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(stdout.contains("verdict AC"), "{stdout}");
    let out = cli(vec!["submissions".into(), "--json".into()]).await;
    let listed: Vec<serde_json::Value> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON line"))
        .collect();
    assert_eq!(listed.len(), 1, "{listed:?}");
    assert_eq!(listed[0]["user"], "carol");
    assert_ne!(listed[0]["id"], theirs.to_string());
    let out = cli(vec!["submissions".into()]).await;
    let table = String::from_utf8_lossy(&out.stdout);
    assert!(table.contains("nim") && table.contains("AC"), "{table}");
    // What the submission sent: each answer's size, as the files held.
    let mine = listed[0]["id"].as_str().expect("an id").to_string();
    let out = cli(vec!["status".into(), mine, "--source".into()]).await;
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let sent = String::from_utf8_lossy(&out.stdout).into_owned();
    for input in &inputs {
        let name = input.file_stem().and_then(|n| n.to_str()).expect("a name");
        let bytes = std::fs::metadata(input.with_extension("out"))
            .expect("an answer")
            .len();
        assert!(sent.contains(&format!("{name}\t{bytes} bytes")), "{sent}");
    }
    // Another contestant's is not found.
    let out = cli(vec!["status".into(), theirs.to_string(), "--source".into()]).await;
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("no submission"));
    // An id may be shortened to its start, among the caller's own.
    let short = listed[0]["id"].as_str().expect("an id")[..8].to_string();
    let out = cli(vec!["status".into(), short.to_uppercase()]).await;
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(stdout.contains("verdict AC"), "{stdout}");
    for (text, said) in [
        (
            theirs.to_string()[..8].to_string(),
            "no submission among the 500 newest starts with",
        ),
        (
            "zz".to_string(),
            "is neither a submission id nor its first 4 or more characters",
        ),
    ] {
        let out = cli(vec!["status".into(), text.clone()]).await;
        assert!(!out.status.success(), "{text}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.contains(said), "{text}: {stderr}");
    }
    app.stop().await;
}

#[tokio::test]
async fn reviewers_read_the_log_over_the_api_from_anywhere() {
    let dir = TestDir::new();
    let app = TestApp::spawn(&dir, 1).await;
    let mine = app
        .submit_answers(&app.contestant, &correct_answers())
        .await;
    let theirs = app.submit_answers(&app.other, &correct_answers()).await;
    app.verdict(&mine, &app.contestant).await;
    app.verdict(&theirs, &app.other).await;
    let address = app.address.as_str();
    let log = |token: String, args: Vec<String>| async move {
        let command = vec!["log".to_string(), "--server".into(), address.to_string()];
        run_client(address, &token, [command, args].concat()).await
    };
    let lines = |out: &std::process::Output| -> Vec<serde_json::Value> {
        String::from_utf8_lossy(&out.stdout)
            .lines()
            .map(|l| serde_json::from_str(l).expect("a JSON line"))
            .collect()
    };
    // A setter sees everyone's, filtered as asked.
    let out = log(app.setter.clone(), vec!["--json".into()]).await;
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let listed = lines(&out);
    assert_eq!(listed.len(), 2, "{listed:?}");
    let out = log(
        app.setter.clone(),
        vec![
            "--json".into(),
            "--user".into(),
            "dave".into(),
            "--verdict".into(),
            "ac".into(),
        ],
    )
    .await;
    let listed = lines(&out);
    assert_eq!(listed.len(), 1, "{listed:?}");
    assert_eq!(listed[0]["id"], theirs.to_string());
    // One submission: its results and events.
    let out = log(app.setter.clone(), vec![mine.to_string(), "--json".into()]).await;
    let kinds: Vec<String> = lines(&out)
        .iter()
        .map(|l| l["type"].as_str().expect("a type").to_string())
        .collect();
    assert_eq!(
        kinds.first().map(String::as_str),
        Some("submission"),
        "{kinds:?}"
    );
    assert!(kinds.iter().any(|k| k == "event"), "{kinds:?}");
    // An unknown problem is said, not an empty table.
    let out = log(
        app.setter.clone(),
        vec!["--problem".into(), "nosuch".into()],
    )
    .await;
    assert!(!out.status.success());
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("unknown problem `nosuch`"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // A contestant's token lists their own only.
    let out = log(app.contestant.clone(), vec!["--json".into()]).await;
    let listed = lines(&out);
    assert_eq!(listed.len(), 1, "{listed:?}");
    assert_eq!(listed[0]["id"], mine.to_string());
    app.stop().await;
}
