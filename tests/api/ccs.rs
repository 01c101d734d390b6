//! The ICPC CCS Contest API under `/ccs`, on the real clock: an ICPC
//! contest before its start and while it runs, each endpoint compared with
//! what the spec's shapes give for it, worked out by hand; the roles'
//! views (problems hidden before the start, testcase counts by role);
//! missing things and a missing token.

use jiff::Timestamp;
use reqwest::{Method, StatusCode};
use serde_json::json;

use crate::helpers::{
    TestApp, TestDir, correct_answers, raw_get, submission_id, until, wrong_answers,
};

/// `2026-01-31T12:00:00.000Z` from unix milliseconds.
fn abstime(ms: i64) -> String {
    Timestamp::from_millisecond(ms)
        .expect("a time")
        .strftime("%Y-%m-%dT%H:%M:%S%.3fZ")
        .to_string()
}

/// Reads a streaming event feed until what came since the call satisfies
/// `found`, waiting at most 20 s a chunk; returns what came.
async fn read_feed_until(
    stream: &mut reqwest::Response,
    what: &str,
    found: impl Fn(&str) -> bool,
) -> String {
    let mut received = String::new();
    while !found(&received) {
        let chunk = tokio::time::timeout(std::time::Duration::from_secs(20), stream.chunk())
            .await
            .unwrap_or_else(|_| panic!("{what} within 20 s: {received}"))
            .unwrap_or_else(|e| panic!("the feed failed before {what}: {e}"))
            .unwrap_or_else(|| panic!("the feed ended before {what}"));
        received.push_str(&String::from_utf8_lossy(&chunk));
    }
    received
}

/// Whether `text` holds a notification of `kind` for the object `id`.
fn notifies(text: &str, kind: &str, id: &str) -> bool {
    text.lines().any(|l| {
        l.contains(&format!("\"type\":\"{kind}\"")) && l.contains(&format!("\"id\":\"{id}\""))
    })
}

#[tokio::test]
async fn the_contest_api_shows_an_icpc_contest_as_the_spec_shapes_it() {
    let dir = TestDir::new();
    dir.add_bundled_problem("coin-game");
    let app = TestApp::spawn(&dir, 1).await;
    let start = Timestamp::now().as_millisecond() + 1_500;
    let settings = json!({
        "title": "Spring",
        "starts_at": Timestamp::from_millisecond(start).expect("a time").to_string(),
        "duration_seconds": 3600,
        "freeze_seconds": 600,
        "problems": [
            { "label": "A", "problem": "nim", "colour": "#ff0000" },
            { "label": "B", "problem": "coin-game" },
        ],
    });
    let (status, created) = app
        .request(
            Method::PUT,
            "/api/contests/spring",
            Some(&app.admin),
            Some(settings),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{created}");
    for token in [&app.contestant, &app.other] {
        let (status, body) = app
            .post("/api/contests/spring/registrations", token, json!({}))
            .await;
        assert_eq!(status, StatusCode::CREATED, "{body}");
    }

    let (status, info) = app.get("/ccs", &app.contestant).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(info["version"], "2026-01");
    assert_eq!(
        info["version_url"],
        "https://ccs-specs.icpc.io/2026-01/contest_api"
    );
    let expected_contest = json!({
        "id": "spring",
        "name": "Spring",
        "formal_name": "Spring",
        "start_time": abstime(start),
        "duration": "1:00:00.000",
        "scoreboard_freeze_duration": "0:10:00.000",
        "scoreboard_thaw_time": null,
        "scoreboard_type": "pass-fail",
        "penalty_time": "0:20:00.000",
    });
    let (status, contest) = app.get("/ccs/contests/spring", &app.contestant).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(contest, expected_contest);
    let (_, contests) = app.get("/ccs/contests", &app.contestant).await;
    assert_eq!(contests, json!([expected_contest]));

    // Before the start: nothing has happened, and contestants see no
    // problems (staff do).
    let (_, state) = app.get("/ccs/contests/spring/state", &app.contestant).await;
    assert_eq!(
        state,
        json!({
            "started": null, "frozen": null, "ended": null,
            "thawed": null, "finalized": null, "end_of_updates": null,
        })
    );
    let (_, problems) = app
        .get("/ccs/contests/spring/problems", &app.contestant)
        .await;
    assert_eq!(problems, json!([]));
    let (_, problems) = app.get("/ccs/contests/spring/problems", &app.setter).await;
    assert_eq!(problems.as_array().map(Vec::len), Some(2), "{problems}");

    until(start + 200).await;
    let (status, body) = app
        .post(
            "/api/submissions",
            &app.contestant,
            json!({ "problem": "nim", "contest": "spring", "answers": correct_answers() }),
        )
        .await;
    assert_eq!(status, StatusCode::ACCEPTED, "{body}");
    let right = submission_id(&body["id"]);
    let (status, body) = app
        .post(
            "/api/submissions",
            &app.other,
            json!({ "problem": "nim", "contest": "spring", "answers": wrong_answers() }),
        )
        .await;
    assert_eq!(status, StatusCode::ACCEPTED, "{body}");
    let wrong = submission_id(&body["id"]);
    assert_eq!(
        app.verdict(&right, &app.contestant).await["submission"]["verdict"],
        "AC"
    );
    assert_eq!(
        app.verdict(&wrong, &app.other).await["submission"]["verdict"],
        "WA"
    );

    let (_, state) = app.get("/ccs/contests/spring/state", &app.contestant).await;
    assert_eq!(
        state,
        json!({
            "started": abstime(start), "frozen": null, "ended": null,
            "thawed": null, "finalized": null, "end_of_updates": null,
        })
    );

    // Problems: the hosted problem's title and limits, the contest's label
    // and colour, and the count of the testcases the reader may list (the
    // public ones for a contestant, all for staff).
    for token in [&app.contestant, &app.setter] {
        let mut expected = Vec::new();
        for (ordinal, (id, label, rgb)) in [("nim", "A", Some("#ff0000")), ("coin-game", "B", None)]
            .into_iter()
            .enumerate()
        {
            let (_, document) = app.get(&format!("/api/problems/{id}"), token).await;
            let problem = &document["problem"];
            let (_, testcases) = app
                .get(&format!("/api/problems/{id}/testcases"), token)
                .await;
            let mut one = json!({
                "id": id,
                "label": label,
                "name": problem["title"],
                "ordinal": ordinal,
                "time_limit": problem["time_limit_ms"].as_f64().expect("a limit") / 1000.0,
                "memory_limit": problem["memory_limit_mib"],
                "test_data_count": testcases["testcases"].as_array().map(Vec::len),
            });
            // No colour: no `rgb` at all.
            if let Some(rgb) = rgb {
                one["rgb"] = json!(rgb);
            }
            expected.push(one);
        }
        let (_, problems) = app.get("/ccs/contests/spring/problems", token).await;
        assert_eq!(problems, json!(expected));
        let (_, one) = app.get("/ccs/contests/spring/problems/nim", token).await;
        assert_eq!(one, expected[0]);
    }
    let (_, types) = app
        .get("/ccs/contests/spring/judgement-types", &app.contestant)
        .await;
    let ids: Vec<&str> = types
        .as_array()
        .expect("a list")
        .iter()
        .map(|t| t["id"].as_str().expect("an id"))
        .collect();
    assert_eq!(ids, ["AC", "WA", "TLE", "MLE", "OLE", "RTE", "CE", "JE"]);
    let (_, compile_error) = app
        .get("/ccs/contests/spring/judgement-types/CE", &app.contestant)
        .await;
    assert_eq!(
        compile_error,
        json!({ "id": "CE", "name": "compiler error", "penalty": false, "solved": false })
    );
    let (_, wrong_answer) = app
        .get("/ccs/contests/spring/judgement-types/WA", &app.contestant)
        .await;
    assert_eq!(wrong_answer["penalty"], true);

    let (_, teams) = app.get("/ccs/contests/spring/teams", &app.contestant).await;
    assert_eq!(
        teams,
        json!([
            { "id": "carol", "name": "carol", "label": "carol" },
            { "id": "dave", "name": "dave", "label": "dave" },
        ])
    );
    let (_, languages) = app
        .get("/ccs/contests/spring/languages", &app.contestant)
        .await;
    let (_, own) = app.get("/api/languages", &app.contestant).await;
    // nimjudge's languages and `answers`.
    assert_eq!(
        languages.as_array().map(Vec::len),
        own["languages"].as_array().map(|l| l.len() + 1)
    );
    let (_, answers) = app
        .get("/ccs/contests/spring/languages/answers", &app.contestant)
        .await;
    assert_eq!(answers["extensions"], json!(["out"]));
    assert_eq!(languages[0]["entry_point_required"], false);

    // The scoreboard: carol solved A at minute 0 with no penalty, dave has
    // one rejected try; untried cells are left out.
    let (status, board) = app
        .get("/ccs/contests/spring/scoreboard", &app.contestant)
        .await;
    assert_eq!(status, StatusCode::OK, "{board}");
    assert_eq!(board["state"], state);
    assert_eq!(
        board["rows"],
        json!([
            {
                "rank": 1, "team_id": "carol",
                "score": { "num_solved": 1, "total_time": "0:00:00.000", "time": "0:00:00.000" },
                "problems": [
                    { "problem_id": "nim", "num_judged": 1, "num_pending": 0, "solved": true, "time": "0:00:00.000" },
                ],
            },
            {
                "rank": 2, "team_id": "dave",
                "score": { "num_solved": 0, "total_time": "0:00:00.000", "time": null },
                "problems": [
                    { "problem_id": "nim", "num_judged": 1, "num_pending": 0, "solved": false },
                ],
            },
        ])
    );
    let contest_time = board["contest_time"].as_str().expect("a contest time");
    assert!(contest_time.starts_with("0:00:"), "{contest_time}");

    // Submissions and judgements: a contestant's own, everyone's for
    // staff, oldest first; answers are in the language `answers` and have
    // no files; one judgement per judged submission, under its id.
    let (_, own) = app
        .get("/ccs/contests/spring/submissions", &app.contestant)
        .await;
    let right_id = right.to_string();
    let wrong_id = wrong.to_string();
    assert_eq!(own.as_array().map(Vec::len), Some(1), "{own}");
    assert_eq!(
        (
            &own[0]["id"],
            &own[0]["language_id"],
            &own[0]["problem_id"],
            &own[0]["team_id"],
            &own[0]["files"]
        ),
        (
            &json!(right_id),
            &json!("answers"),
            &json!("nim"),
            &json!("carol"),
            &json!([])
        )
    );
    let (_, all) = app
        .get("/ccs/contests/spring/submissions", &app.setter)
        .await;
    let ids: Vec<&str> = all
        .as_array()
        .expect("a list")
        .iter()
        .map(|s| s["id"].as_str().expect("an id"))
        .collect();
    assert_eq!(ids, [right_id.as_str(), wrong_id.as_str()]);
    let (status, _) = app
        .get(
            &format!("/ccs/contests/spring/submissions/{wrong_id}"),
            &app.contestant,
        )
        .await;
    assert_eq!(status, StatusCode::NOT_FOUND, "another's submission");
    let (status, _) = app
        .get(
            &format!("/ccs/contests/spring/submissions/{right_id}/files"),
            &app.contestant,
        )
        .await;
    assert_eq!(status, StatusCode::NOT_FOUND, "answers have no files");
    let (_, judgements) = app
        .get("/ccs/contests/spring/judgements", &app.setter)
        .await;
    let verdicts: Vec<(&str, &str)> = judgements
        .as_array()
        .expect("a list")
        .iter()
        .map(|j| {
            assert_eq!(j["id"], j["submission_id"]);
            assert!(j["end_time"].as_str() >= j["start_time"].as_str(), "{j}");
            (
                j["submission_id"].as_str().expect("an id"),
                j["judgement_type_id"].as_str().expect("a verdict"),
            )
        })
        .collect();
    assert_eq!(
        verdicts,
        [(right_id.as_str(), "AC"), (wrong_id.as_str(), "WA")]
    );
    let (_, mine) = app
        .get(
            &format!("/ccs/contests/spring/judgements/{right_id}"),
            &app.contestant,
        )
        .await;
    assert_eq!(mine["judgement_type_id"], "AC");

    // Runs: one per testcase of the latest judgement, in judging order,
    // ids of at most 36 characters, times within the judgement.
    let (_, runs) = app.get("/ccs/contests/spring/runs", &app.contestant).await;
    let runs = runs.as_array().expect("a list");
    assert_eq!(runs.len(), correct_answers().len(), "{runs:?}");
    for (index, run) in runs.iter().enumerate() {
        assert_eq!(run["judgement_id"], json!(right_id));
        assert_eq!(run["ordinal"], json!(index + 1));
        assert_eq!(run["judgement_type_id"], "AC");
        let id = run["id"].as_str().expect("an id");
        assert!(id.len() <= 36, "{id}");
        assert!(run["time"].as_str() <= mine["end_time"].as_str(), "{run}");
    }
    let (_, first) = app
        .get(
            &format!(
                "/ccs/contests/spring/runs/{}",
                runs[0]["id"].as_str().expect("an id")
            ),
            &app.contestant,
        )
        .await;
    assert_eq!(&first, &runs[0]);
    let (_, others) = app.get("/ccs/contests/spring/runs", &app.other).await;
    assert!(
        others
            .as_array()
            .expect("a list")
            .iter()
            .all(|r| r["judgement_id"] == json!(wrong_id)),
        "{others}"
    );
    // Another's run, a run past the last and a malformed id are missing.
    let last = runs.len();
    let compact = right_id.replace('-', "");
    for item in [
        others[0]["id"].as_str().expect("an id").to_string(),
        format!("{compact}-{}", last + 1),
        compact.clone(),
        "run".into(),
    ] {
        let (status, _) = app
            .get(
                &format!("/ccs/contests/spring/runs/{item}"),
                &app.contestant,
            )
            .await;
        assert_eq!(status, StatusCode::NOT_FOUND, "{item}");
    }

    // Clarifications: a question and its answer are two messages, the
    // answer replying to the question; a private question stays the
    // asker's; an announcement comes from the jury alone.
    for (token, text) in [
        (
            &app.contestant,
            json!({ "problem": "nim", "text": "Can a pile be empty?" }),
        ),
        (&app.contestant, json!({ "text": "Is it lunch yet?" })),
    ] {
        let (status, body) = app
            .post("/api/contests/spring/clarifications", token, text)
            .await;
        assert_eq!(status, StatusCode::CREATED, "{body}");
    }
    let (status, body) = app
        .post(
            "/api/contests/spring/clarifications/1/answer",
            &app.admin,
            json!({ "answer": "Yes.", "to_all": true }),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let answered_at = body["answered_at"].as_str().expect("answered").to_string();
    let asked_at = body["created_at"].as_str().expect("asked").to_string();
    let at = |text: &str| abstime(text.parse::<Timestamp>().expect("a time").as_millisecond());
    let (_, seen) = app
        .get("/ccs/contests/spring/clarifications", &app.other)
        .await;
    let messages = seen.as_array().expect("a list");
    assert_eq!(messages.len(), 2, "{seen}");
    assert_eq!(
        (
            &messages[0]["id"],
            &messages[0]["from_team_id"],
            &messages[0]["text"]
        ),
        (&json!("1"), &json!("carol"), &json!("Can a pile be empty?"))
    );
    assert_eq!(messages[0]["time"], at(&asked_at));
    assert_eq!(
        messages[1],
        json!({
            "id": "1-answer", "from_team_id": null, "to_team_id": null,
            "reply_to_id": "1", "problem_id": "nim", "text": "Yes.",
            "time": at(&answered_at),
            "contest_time": messages[1]["contest_time"],
        })
    );
    let (_, own) = app
        .get("/ccs/contests/spring/clarifications", &app.contestant)
        .await;
    assert_eq!(own.as_array().map(Vec::len), Some(3), "{own}");
    let (status, private) = app
        .get("/ccs/contests/spring/clarifications/2", &app.other)
        .await;
    assert_eq!(status, StatusCode::NOT_FOUND, "{private}");

    // The event feed: every object once (stream=false ends there), the
    // state last, which carries the token to resume from.
    let response = raw_get(
        &app,
        "/ccs/contests/spring/event-feed?stream=false".to_string(),
        &app.setter,
    )
    .await;
    assert_eq!(response.status(), StatusCode::OK);
    assert_eq!(response.headers()["content-type"], "application/x-ndjson");
    let text = response.text().await.expect("a body");
    let events: Vec<serde_json::Value> = text
        .lines()
        .map(|line| serde_json::from_str(line).expect("one JSON object a line"))
        .collect();
    let count = |kind: &str| events.iter().filter(|e| e["type"] == kind).count();
    assert_eq!(count("contest"), 1);
    assert_eq!(count("judgement-types"), 8);
    assert_eq!(count("problems"), 2);
    assert_eq!(count("teams"), 2);
    assert_eq!(count("submissions"), 2);
    assert_eq!(count("judgements"), 2);
    assert_eq!(count("clarifications"), 3);
    assert_eq!(events.last().map(|e| &e["type"]), Some(&json!("state")));
    let submitted = events
        .iter()
        .find(|e| e["type"] == "submissions" && e["id"] == json!(wrong_id))
        .expect("dave's submission");
    assert_eq!(submitted["data"]["team_id"], "dave");
    let token = events.last().expect("a state")["token"]
        .as_str()
        .expect("the last notification has a token")
        .to_string();
    assert!(
        events[..events.len() - 1]
            .iter()
            .all(|e| e.get("token").is_none()),
        "{text}"
    );
    // Resumed at once, nothing changed, so nothing is sent.
    let resumed = raw_get(
        &app,
        format!("/ccs/contests/spring/event-feed?stream=false&since_token={token}"),
        &app.setter,
    )
    .await;
    assert_eq!(resumed.status(), StatusCode::OK);
    assert_eq!(resumed.text().await.expect("a body"), "");
    // A token is its user's and its contest's; one never given is refused.
    for (path, who) in [
        (format!("event-feed?since_token={token}"), &app.other),
        ("event-feed?since_token=nope-1".to_string(), &app.setter),
        ("event-feed?since_id=1".to_string(), &app.setter),
    ] {
        let (status, body) = app.get(&format!("/ccs/contests/spring/{path}"), who).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{path}: {body}");
    }

    // Streaming: the objects, then a new submission as it comes.
    let mut stream = raw_get(
        &app,
        "/ccs/contests/spring/event-feed".to_string(),
        &app.setter,
    )
    .await;
    read_feed_until(&mut stream, "the first state", |r| {
        r.contains("\"type\":\"state\"")
    })
    .await;
    let (status, body) = app
        .post(
            "/api/submissions",
            &app.other,
            json!({ "problem": "nim", "contest": "spring", "answers": wrong_answers() }),
        )
        .await;
    assert_eq!(status, StatusCode::ACCEPTED, "{body}");
    let late = submission_id(&body["id"]).to_string();
    let more = read_feed_until(&mut stream, "the new submission", |r| {
        notifies(r, "submissions", &late)
    })
    .await;
    assert!(
        !more.contains("\"type\":\"contest\""),
        "only what changed is sent again: {more}"
    );
    // A rejudged old submission: the looks that read only what changed
    // read it again, and its judgement comes through.
    let (status, body) = app
        .request(
            Method::POST,
            &format!("/api/submissions/{wrong_id}/rejudge"),
            Some(&app.setter),
            None,
        )
        .await;
    assert_eq!(status, StatusCode::ACCEPTED, "{body}");
    read_feed_until(&mut stream, "the rejudged judgement", |r| {
        notifies(r, "judgements", &wrong_id)
    })
    .await;
    // Resumed from the token of the first feed: the new submission, and
    // nothing that has not changed since.
    let resumed = raw_get(
        &app,
        format!("/ccs/contests/spring/event-feed?stream=false&since_token={token}"),
        &app.setter,
    )
    .await;
    assert_eq!(resumed.status(), StatusCode::OK);
    let resumed = resumed.text().await.expect("a body");
    assert!(resumed.contains(&format!("\"id\":\"{late}\"")), "{resumed}");
    for kind in [
        "contest",
        "problems",
        "teams",
        "judgement-types",
        "clarifications",
    ] {
        assert!(
            !resumed.contains(&format!("\"type\":\"{kind}\"")),
            "{kind} did not change: {resumed}"
        );
    }
    // At most four feeds at once per user; a closed one frees its place
    // within about a second.
    let mut open = Vec::new();
    for _ in 0..3 {
        let extra = raw_get(
            &app,
            "/ccs/contests/spring/event-feed".to_string(),
            &app.setter,
        )
        .await;
        assert_eq!(extra.status(), StatusCode::OK);
        open.push(extra);
    }
    let (status, body) = app
        .get("/ccs/contests/spring/event-feed", &app.setter)
        .await;
    assert_eq!(status, StatusCode::TOO_MANY_REQUESTS, "{body}");
    let (status, _) = app
        .get("/ccs/contests/spring/event-feed?stream=false", &app.other)
        .await;
    assert_eq!(status, StatusCode::OK, "another user's feeds are their own");
    drop(stream);
    drop(open);
    let mut reopened = false;
    for _ in 0..50 {
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
        let response = raw_get(
            &app,
            "/ccs/contests/spring/event-feed?stream=false".to_string(),
            &app.setter,
        )
        .await;
        if response.status() == StatusCode::OK {
            reopened = true;
            break;
        }
    }
    assert!(reopened, "the closed feeds freed their places");

    // Missing things are 404s; without a token, 401.
    for path in [
        "/ccs/contests/nope",
        "/ccs/contests/nope/state",
        "/ccs/contests/NOT_A_SLUG!/problems",
        "/ccs/contests/spring/problems/xy-game",
        "/ccs/contests/spring/teams/erin",
        "/ccs/contests/spring/judgement-types/XX",
        "/ccs/contests/spring/languages/cobol",
        "/ccs/contests/spring/submissions/999999",
        "/ccs/doesnt-exist",
    ] {
        let (status, body) = app.get(path, &app.contestant).await;
        assert_eq!(status, StatusCode::NOT_FOUND, "{path}: {body}");
        assert!(body["error"].is_string(), "{path}: {body}");
    }
    let (status, _) = app
        .request(Method::GET, "/ccs/contests/spring", None, None)
        .await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
}

/// A program submitted to a contest: its files are a zip holding its
/// source, for the submitter and staff; its judgement has a run time.
#[tokio::test]
#[ignore = "needs root (the sandbox); scripts/test.sh runs it"]
async fn a_program_submissions_files_are_a_zip_of_its_source() {
    let dir = TestDir::new();
    let app = TestApp::spawn(&dir, 1).await;
    let settings = json!({
        "title": "Now",
        "starts_at": Timestamp::from_millisecond(Timestamp::now().as_millisecond() - 60_000)
            .expect("a time")
            .to_string(),
        "duration_seconds": 3600,
        "problems": [{ "label": "A", "problem": "nim" }],
    });
    let (status, created) = app
        .request(
            Method::PUT,
            "/api/contests/now",
            Some(&app.admin),
            Some(settings),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{created}");
    let source = "import sys\nd = sys.stdin.read().split()\nx = 0\nfor a in d[1:]: x ^= int(a)\nprint('Alice' if x else 'Bob')\n";
    let (status, body) = app
        .post(
            "/api/submissions",
            &app.contestant,
            json!({ "problem": "nim", "contest": "now", "language": "python", "source": source }),
        )
        .await;
    assert_eq!(status, StatusCode::ACCEPTED, "{body}");
    let id = submission_id(&body["id"]);
    assert_eq!(
        app.verdict(&id, &app.contestant).await["submission"]["verdict"],
        "AC"
    );
    let (_, submission) = app
        .get(
            &format!("/ccs/contests/now/submissions/{id}"),
            &app.contestant,
        )
        .await;
    assert_eq!(submission["language_id"], "python");
    let href = submission["files"][0]["href"].as_str().expect("a file");
    assert_eq!(href, format!("contests/now/submissions/{id}/files"));
    for token in [&app.contestant, &app.setter] {
        let response = raw_get(&app, format!("/ccs/{href}"), token).await;
        assert_eq!(response.status(), StatusCode::OK);
        assert_eq!(response.headers()["content-type"], "application/zip");
        let bytes = response.bytes().await.expect("a body");
        let mut archive =
            zip::ZipArchive::new(std::io::Cursor::new(bytes.to_vec())).expect("a zip");
        assert_eq!(archive.len(), 1);
        let mut file = archive.by_index(0).expect("its file");
        assert_eq!(file.name().expect("a name"), "source.py");
        let mut text = String::new();
        std::io::Read::read_to_string(&mut file, &mut text).expect("UTF-8");
        assert_eq!(text, source);
    }
    let response = raw_get(&app, format!("/ccs/{href}"), &app.other).await;
    assert_eq!(response.status(), StatusCode::NOT_FOUND, "another's files");
    let (_, judgement) = app
        .get(
            &format!("/ccs/contests/now/judgements/{id}"),
            &app.contestant,
        )
        .await;
    assert_eq!(judgement["judgement_type_id"], "AC");
    assert!(
        judgement["max_run_time"].as_f64() > Some(0.0),
        "{judgement}"
    );
}

/// A feed that sends nothing for longer than the keep-alive timeout is
/// still a request in progress: the connection stays open, and a change
/// after that comes through it.
#[tokio::test]
async fn an_event_feed_outlives_the_keep_alive_timeout() {
    let dir = TestDir::new();
    let app = TestApp::spawn_with(&dir, 1, &[("SERVER__KEEP_ALIVE_TIMEOUT_MS", "300")]).await;
    let settings = json!({
        "title": "Quiet",
        "starts_at": Timestamp::now().to_string(),
        "duration_seconds": 3600,
        "problems": [{ "label": "A", "problem": "nim" }],
    });
    let (status, created) = app
        .request(
            Method::PUT,
            "/api/contests/quiet",
            Some(&app.admin),
            Some(settings),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{created}");
    let (status, body) = app
        .post(
            "/api/contests/quiet/registrations",
            &app.contestant,
            json!({}),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{body}");
    let mut stream = raw_get(
        &app,
        "/ccs/contests/quiet/event-feed".to_string(),
        &app.admin,
    )
    .await;
    read_feed_until(&mut stream, "the first state", |r| {
        r.contains("\"type\":\"state\"")
    })
    .await;
    // Six keep-alive timeouts of nothing.
    tokio::time::sleep(std::time::Duration::from_millis(1800)).await;
    let (status, body) = app
        .post(
            "/api/submissions",
            &app.contestant,
            json!({ "problem": "nim", "contest": "quiet", "answers": wrong_answers() }),
        )
        .await;
    assert_eq!(status, StatusCode::ACCEPTED, "{body}");
    let id = submission_id(&body["id"]).to_string();
    read_feed_until(&mut stream, "the new submission", |r| {
        notifies(r, "submissions", &id)
    })
    .await;

    // A feed ends once its token is revoked: what comes after is not sent.
    let (status, created) = app
        .post(
            "/api/tokens",
            &app.admin,
            json!({ "name": "sid", "role": "setter" }),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{created}");
    let sid = created["token"].as_str().expect("a secret").to_string();
    let mut revoked = raw_get(&app, "/ccs/contests/quiet/event-feed".to_string(), &sid).await;
    read_feed_until(&mut revoked, "the first state", |r| {
        r.contains("\"type\":\"state\"")
    })
    .await;
    let (status, _) = app
        .request(
            Method::DELETE,
            &format!("/api/tokens/{}", created["id"]),
            Some(&app.admin),
            None,
        )
        .await;
    assert_eq!(status, StatusCode::NO_CONTENT);
    let mut after = String::new();
    loop {
        match tokio::time::timeout(std::time::Duration::from_secs(20), revoked.chunk()).await {
            Ok(Ok(Some(chunk))) => after.push_str(&String::from_utf8_lossy(&chunk)),
            Ok(Ok(None)) => break,
            Ok(Err(e)) => panic!("the feed failed instead of ending: {e}"),
            Err(_) => panic!("the feed went on 20 s after its token was revoked: {after}"),
        }
    }
    assert!(!after.contains("\"type\":\"submissions\""), "{after}");
    app.stop().await;
}

/// A user name with a space and kanji and a contest id of 42 characters
/// are not Contest API ids (at most 36 of `[a-zA-Z0-9_.-]`): the API shows
/// each by the hash of its name, everywhere it appears, and finds it by
/// that id.
#[tokio::test]
async fn names_that_are_not_contest_api_ids_are_shown_and_found_by_their_hash() {
    let dir = TestDir::new();
    let app = TestApp::spawn(&dir, 1).await;
    let (status, created) = app
        .post(
            "/api/tokens",
            &app.admin,
            json!({ "name": "Taro Yamada 太郎", "role": "contestant" }),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{created}");
    let taro = created["token"].as_str().expect("a secret").to_string();
    let contest = "a-very-long-contest-id-of-forty-characters";
    let settings = json!({
        "title": "Long",
        "starts_at": Timestamp::from_millisecond(Timestamp::now().as_millisecond() - 60_000)
            .expect("a time")
            .to_string(),
        "duration_seconds": 3600,
        "problems": [{ "label": "A", "problem": "nim" }],
    });
    let (status, body) = app
        .request(
            Method::PUT,
            &format!("/api/contests/{contest}"),
            Some(&app.admin),
            Some(settings),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{body}");
    let (status, body) = app
        .post(
            &format!("/api/contests/{contest}/registrations"),
            &taro,
            json!({}),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{body}");
    let (status, body) = app
        .post(
            "/api/submissions",
            &taro,
            json!({ "problem": "nim", "contest": contest, "answers": correct_answers() }),
        )
        .await;
    assert_eq!(status, StatusCode::ACCEPTED, "{body}");
    let id = submission_id(&body["id"]);
    assert_eq!(app.verdict(&id, &taro).await["submission"]["verdict"], "AC");

    // SHA-256 of each name, its first 32 hex digits after `_` (computed
    // separately with Python's hashlib).
    let contest_id = "_8492bf933d6105bc903340c925c3379c";
    let team_id = "_1558de7be06350231734069f339c9a3c";
    let (_, contests) = app.get("/ccs/contests", &app.admin).await;
    assert_eq!(contests[0]["id"], contest_id, "{contests}");
    let (status, _) = app
        .get(&format!("/ccs/contests/{contest}"), &app.admin)
        .await;
    assert_eq!(status, StatusCode::NOT_FOUND, "the name is not its id");
    let base = format!("/ccs/contests/{contest_id}");
    let (status, shown) = app.get(&base, &taro).await;
    assert_eq!(status, StatusCode::OK, "{shown}");
    assert_eq!(shown["id"], contest_id);
    let (_, teams) = app.get(&format!("{base}/teams"), &app.admin).await;
    assert_eq!(
        teams,
        json!([{ "id": team_id, "name": "Taro Yamada 太郎", "label": "Taro Yamada 太郎" }])
    );
    let (status, team) = app.get(&format!("{base}/teams/{team_id}"), &taro).await;
    assert_eq!(status, StatusCode::OK, "{team}");
    assert_eq!(team["name"], "Taro Yamada 太郎");
    let (_, submission) = app.get(&format!("{base}/submissions/{id}"), &taro).await;
    assert_eq!(submission["team_id"], team_id, "{submission}");
    assert_eq!(submission["problem_id"], "nim");
    let (_, board) = app.get(&format!("{base}/scoreboard"), &app.admin).await;
    assert_eq!(board["rows"][0]["team_id"], team_id, "{board}");
}
