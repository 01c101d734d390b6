//! Contests through the API, on the real clock: an ICPC contest scripted
//! from before its start to after its thaw (refused, ranked, frozen and
//! practice submissions), its scoreboard compared with one worked out by
//! hand at each step, as a contestant and as an admin sees it.

use std::{collections::BTreeMap, time::Duration};

use jiff::Timestamp;
use reqwest::{Method, StatusCode};
use serde_json::{Value, json};

use crate::helpers::{
    TestApp, TestDir, correct_answers, run_client, submission_id, until, wrong_answers,
};

/// Sends answers to problem `problem` in `contest`; the status and body.
async fn send(
    app: &TestApp,
    token: &str,
    contest: &str,
    problem: &str,
    answers: &BTreeMap<String, String>,
) -> (StatusCode, Value) {
    app.post(
        "/api/submissions",
        token,
        json!({ "problem": problem, "contest": contest, "answers": answers }),
    )
    .await
}

/// A cell as (label, solved minute, tries, pending).
type CellSummary = (String, Option<i64>, i64, i64);
/// A row as (rank, user, solved, penalty, cells).
type RowSummary = (u64, String, i64, i64, Vec<CellSummary>);
type Summary = Vec<RowSummary>;

async fn scoreboard(app: &TestApp, token: &str, contest: &str) -> (bool, Summary) {
    let (status, board) = app
        .get(&format!("/api/contests/{contest}/scoreboard"), token)
        .await;
    assert_eq!(status, StatusCode::OK, "{board}");
    let rows = board["rows"]
        .as_array()
        .expect("rows")
        .iter()
        .map(|row| {
            let cells = row["cells"]
                .as_array()
                .expect("cells")
                .iter()
                .map(|cell| {
                    (
                        cell["label"].as_str().expect("a label").to_string(),
                        cell["solved_minute"].as_i64(),
                        cell["tries"].as_i64().expect("tries"),
                        cell["pending"].as_i64().expect("pending"),
                    )
                })
                .collect();
            (
                row["rank"].as_u64().expect("a rank"),
                row["user"].as_str().expect("a user").to_string(),
                row["solved"].as_i64().expect("solved"),
                row["penalty"].as_i64().expect("penalty"),
                cells,
            )
        })
        .collect();
    (board["frozen"].as_bool().expect("frozen"), rows)
}

fn cells(a: (Option<i64>, i64, i64), b: (Option<i64>, i64, i64)) -> Vec<CellSummary> {
    vec![
        ("A".to_string(), a.0, a.1, a.2),
        ("B".to_string(), b.0, b.1, b.2),
    ]
}

fn row(rank: u64, user: &str, solved: i64, penalty: i64, cells: Vec<CellSummary>) -> RowSummary {
    (rank, user.to_string(), solved, penalty, cells)
}

#[tokio::test]
async fn a_scripted_icpc_contest_ranks_freezes_and_thaws_as_worked_out_by_hand() {
    let dir = TestDir::new();
    dir.add_bundled_problem("coin-game");
    let app = TestApp::spawn(&dir, 1).await;
    let now = Timestamp::now().as_millisecond();
    // Starts in 2 s and lasts 8 s; its last 4 s are frozen.
    let start = now + 2_000;
    let settings = json!({
        "title": "Spring",
        "starts_at": Timestamp::from_millisecond(start).expect("a time").to_string(),
        "duration_seconds": 8,
        "freeze_seconds": 4,
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
            Some(settings.clone()),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{created}");
    assert_eq!(created["phase"], "before");
    assert_eq!(created["contest"]["settings"]["penalty_minutes"], 20);
    // Only admins create contests; a bad setting is named.
    let (status, _) = app
        .request(
            Method::PUT,
            "/api/contests/other",
            Some(&app.setter),
            Some(settings.clone()),
        )
        .await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    let mut bad = settings.clone();
    bad["problems"][1]["problem"] = json!("no-such-problem");
    let (status, body) = app
        .request(
            Method::PUT,
            "/api/contests/other",
            Some(&app.admin),
            Some(bad),
        )
        .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(
        body["error"],
        "`problems[1]`: there is no problem `no-such-problem`"
    );

    // Before the start: contestants see no problems, and cannot submit.
    let (_, seen) = app.get("/api/contests/spring", &app.contestant).await;
    assert_eq!(seen["contest"]["settings"]["problems"], json!([]), "{seen}");
    let (_, seen) = app.get("/api/contests/spring", &app.setter).await;
    assert_eq!(
        seen["contest"]["settings"]["problems"]
            .as_array()
            .map(Vec::len),
        Some(2)
    );
    let (status, body) = send(&app, &app.contestant, "spring", "nim", &correct_answers()).await;
    assert_eq!(status, StatusCode::CONFLICT, "{body}");
    assert!(
        body["error"]
            .as_str()
            .expect("a message")
            .starts_with("contest `spring` has not started"),
        "{body}"
    );
    // Nor are its problems anywhere else: listed, read or submitted to
    // (missing, as a problem that does not exist); staff see them.
    let (_, list) = app.get("/api/problems", &app.contestant).await;
    let listed: Vec<&str> = list["problems"]
        .as_array()
        .expect("problems")
        .iter()
        .map(|p| p["id"].as_str().expect("an id"))
        .collect();
    assert!(
        !listed.contains(&"nim") && !listed.contains(&"coin-game"),
        "{list}"
    );
    let (_, list) = app.get("/api/problems", &app.setter).await;
    assert_eq!(list["problems"].as_array().map(Vec::len), Some(2), "{list}");
    for path in [
        "/api/problems/nim",
        "/api/problems/coin-game/testcases",
        "/api/problems/nim/testcases/sample-1/input",
    ] {
        let (status, body) = app.get(path, &app.contestant).await;
        assert_eq!(status, StatusCode::NOT_FOUND, "{path}: {body}");
    }
    let (status, body) = app
        .post(
            "/api/submissions",
            &app.contestant,
            json!({ "problem": "nim", "answers": correct_answers() }),
        )
        .await;
    assert_eq!(status, StatusCode::NOT_FOUND, "{body}");
    assert_eq!(body["error"], "no problem `nim`");
    let (status, _) = app.get("/api/problems/nim", &app.setter).await;
    assert_eq!(status, StatusCode::OK);
    // A listing by problem says a held-back problem is unknown, as it says
    // of one that does not exist.
    for problem in ["nim", "nosuch"] {
        let (status, body) = app
            .get(
                &format!("/api/submissions?problem={problem}"),
                &app.contestant,
            )
            .await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
        assert_eq!(body["error"], format!("unknown problem `{problem}`"));
    }
    let (status, _) = app.get("/api/submissions?problem=nim", &app.setter).await;
    assert_eq!(status, StatusCode::OK);

    until(start).await;
    // An invited-only contest refuses who was not invited, until an admin
    // registers them.
    let mut invited = settings.clone();
    invited["registration"] = json!("invited");
    invited["starts_at"] = json!(
        Timestamp::from_millisecond(now - 60_000)
            .expect("a time")
            .to_string()
    );
    let (status, _) = app
        .request(
            Method::PUT,
            "/api/contests/closed",
            Some(&app.admin),
            Some(invited),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED);
    let (status, body) = send(&app, &app.contestant, "closed", "nim", &correct_answers()).await;
    assert_eq!(status, StatusCode::FORBIDDEN, "{body}");
    let (status, _) = app
        .post(
            "/api/contests/closed/registrations",
            &app.contestant,
            json!({}),
        )
        .await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    let (status, _) = app
        .post(
            "/api/contests/closed/registrations",
            &app.admin,
            json!({ "user": "carol" }),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED);
    let (status, body) = send(&app, &app.contestant, "closed", "nim", &correct_answers()).await;
    assert_eq!(status, StatusCode::ACCEPTED, "{body}");
    // A problem outside the contest is refused.
    let (status, body) = send(
        &app,
        &app.contestant,
        "closed",
        "xy-game",
        &correct_answers(),
    )
    .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");

    // Running: carol gets A wrong then right, dave gets A right.
    let (status, body) = send(&app, &app.contestant, "spring", "nim", &wrong_answers()).await;
    assert_eq!(status, StatusCode::ACCEPTED, "{body}");
    let id = submission_id(&body["id"]);
    let (status, body) = send(&app, &app.contestant, "spring", "nim", &correct_answers()).await;
    assert_eq!(status, StatusCode::ACCEPTED, "{body}");
    let (status, body) = send(&app, &app.other, "spring", "nim", &correct_answers()).await;
    assert_eq!(status, StatusCode::ACCEPTED, "{body}");
    let judged = app.verdict(&id, &app.contestant).await;
    assert_eq!(judged["submission"]["contest"], "spring", "{judged}");
    let time = judged["submission"]["contest_time_ms"]
        .as_i64()
        .expect("a contest time");
    assert!((0..4_000).contains(&time), "{judged}");
    let (_, board) = app
        .get("/api/contests/spring/scoreboard", &app.contestant)
        .await;
    assert_eq!(board["phase"], "running");

    // Frozen: both try B, wrongly.
    until(start + 4_000).await;
    let (status, _) = app
        .post("/api/contests/spring/thaw", &app.admin, json!({}))
        .await;
    assert_eq!(status, StatusCode::CONFLICT, "no thaw before the end");
    let mut wrong_b = BTreeMap::new();
    wrong_b.insert("small-1".to_string(), "0\n".to_string());
    for token in [&app.contestant, &app.other] {
        let (status, body) = send(&app, token, "spring", "coin-game", &wrong_b).await;
        assert_eq!(status, StatusCode::ACCEPTED, "{body}");
    }
    app.drain().await;
    // By hand: both solved A in minute 0; carol tried once before (20
    // minutes). B: one rejected try each, after the freeze.
    let everything = vec![
        row(1, "dave", 1, 0, cells((Some(0), 0, 0), (None, 1, 0))),
        row(2, "carol", 1, 20, cells((Some(0), 1, 0), (None, 1, 0))),
    ];
    let frozen_view = vec![
        row(1, "dave", 1, 0, cells((Some(0), 0, 0), (None, 0, 1))),
        row(2, "carol", 1, 20, cells((Some(0), 1, 0), (None, 0, 1))),
    ];
    assert_eq!(
        scoreboard(&app, &app.admin, "spring").await,
        (false, everything.clone())
    );
    assert_eq!(
        scoreboard(&app, &app.contestant, "spring").await,
        (true, frozen_view.clone())
    );
    assert_eq!(
        scoreboard(&app, &app.setter, "spring").await,
        (true, frozen_view.clone())
    );

    // Over: a submission is practice, judged and not ranked; the scoreboard
    // stays frozen until an admin thaws it.
    until(start + 8_000).await;
    let (status, body) = send(&app, &app.contestant, "spring", "coin-game", &wrong_b).await;
    assert_eq!(status, StatusCode::ACCEPTED, "{body}");
    let practice = app
        .verdict(&submission_id(&body["id"]), &app.contestant)
        .await;
    assert_eq!(practice["submission"]["contest"], "spring");
    assert_eq!(
        practice["submission"]["contest_time_ms"],
        Value::Null,
        "{practice}"
    );
    assert_eq!(
        scoreboard(&app, &app.contestant, "spring").await,
        (true, frozen_view)
    );
    let (status, thawed) = app
        .post("/api/contests/spring/thaw", &app.contestant, json!({}))
        .await;
    assert_eq!(status, StatusCode::FORBIDDEN, "{thawed}");
    let (status, thawed) = app
        .post("/api/contests/spring/thaw", &app.admin, json!({}))
        .await;
    assert_eq!(status, StatusCode::OK, "{thawed}");
    assert!(thawed["contest"]["thawed_at"].is_string(), "{thawed}");
    assert_eq!(
        scoreboard(&app, &app.contestant, "spring").await,
        (false, everything)
    );

    // The export: everything of the contest, for admins only.
    let (status, _) = app
        .get("/api/contests/spring/export", &app.contestant)
        .await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    let (status, export) = app.get("/api/contests/spring/export", &app.admin).await;
    assert_eq!(status, StatusCode::OK, "{export}");
    assert_eq!(export["contest"]["id"], "spring");
    assert_eq!(export["phase"], "ended");
    assert_eq!(export["participants"], json!(["carol", "dave"]));
    let (_, board) = app.get("/api/contests/spring/scoreboard", &app.admin).await;
    assert_eq!(export["scoreboard"], board);
    let sent = export["submissions"].as_array().expect("submissions");
    assert_eq!(sent.len(), 6, "{export}");
    let created = |submission: &Value| -> Timestamp {
        submission["created_at"]
            .as_str()
            .expect("a time")
            .parse()
            .expect("a time")
    };
    assert!(
        sent.windows(2)
            .all(|pair| created(&pair[0]) <= created(&pair[1])),
        "oldest first: {export}"
    );
    assert_eq!(sent[0]["id"], json!(id.to_string()), "carol's first try");
    assert_eq!(sent[5]["contest_time_ms"], Value::Null, "the practice one");

    // A page of rows.
    let (status, page) = app
        .get(
            "/api/contests/spring/scoreboard?offset=1&limit=5",
            &app.contestant,
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{page}");
    let users: Vec<&str> = page["rows"]
        .as_array()
        .expect("rows")
        .iter()
        .map(|r| r["user"].as_str().expect("a user"))
        .collect();
    assert_eq!(users, ["carol"]);
    assert_eq!(
        (page["first_row"].as_u64(), page["total_rows"].as_u64()),
        (Some(1), Some(2))
    );
    let (status, _) = app
        .get("/api/contests/spring/scoreboard?limit=0", &app.contestant)
        .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);

    // The listings filter by contest: everyone's for staff, their own for
    // a contestant (the practice one included).
    let (_, all) = app.get("/api/submissions?contest=spring", &app.admin).await;
    assert_eq!(
        all["submissions"].as_array().map(Vec::len),
        Some(6),
        "{all}"
    );
    let (_, own) = app
        .get("/api/submissions?contest=spring", &app.contestant)
        .await;
    let own = own["submissions"].as_array().expect("submissions");
    assert_eq!(own.len(), 4, "{own:?}");
    assert!(
        own.iter()
            .all(|s| s["user"] == "carol" && s["contest"] == "spring")
    );

    // The contest time counts in minutes: a contest that began 30 minutes
    // ago ranks an AC now at minute 30 (or 31, at a minute's edge).
    let mut long = settings.clone();
    long["starts_at"] = json!(
        Timestamp::from_millisecond(now - 30 * 60_000)
            .expect("a time")
            .to_string()
    );
    long["duration_seconds"] = json!(7200);
    long["freeze_seconds"] = json!(null);
    let (status, _) = app
        .request(
            Method::PUT,
            "/api/contests/long",
            Some(&app.admin),
            Some(long),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED);
    let (status, body) = send(&app, &app.other, "long", "nim", &correct_answers()).await;
    assert_eq!(status, StatusCode::ACCEPTED, "{body}");
    app.drain().await;
    let (frozen, rows) = scoreboard(&app, &app.contestant, "long").await;
    assert!(!frozen);
    assert_eq!(rows.len(), 1, "{rows:?}");
    let minute = rows[0].4[0].1.expect("solved");
    assert!((30..=31).contains(&minute), "{rows:?}");
    assert_eq!(rows[0].3, minute);

    // The contest list shows all three to everyone, newest start first.
    let (_, list) = app.get("/api/contests", &app.other).await;
    let ids: Vec<&str> = list["contests"]
        .as_array()
        .expect("contests")
        .iter()
        .map(|c| c["contest"]["id"].as_str().expect("an id"))
        .collect();
    assert_eq!(ids, ["spring", "closed", "long"]);
    app.stop().await;
}

/// The command line puts a contest from a TOML file, lists it, submits to
/// it and prints its scoreboard; a bad file is named with its fault.
/// The whole scoreboard, which is written as JSON once for each change,
/// shows every verdict at the next request within one phase, and agrees
/// with its pages.
#[tokio::test]
async fn the_whole_scoreboard_follows_each_verdict_and_agrees_with_its_pages() {
    let dir = TestDir::new();
    let app = TestApp::spawn(&dir, 1).await;
    let settings = json!({
        "title": "Open",
        "starts_at": Timestamp::now().to_string(),
        "duration_seconds": 3600,
        "problems": [{ "label": "A", "problem": "nim" }],
    });
    let (status, created) = app
        .request(
            Method::PUT,
            "/api/contests/open",
            Some(&app.admin),
            Some(settings),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{created}");
    let steps = [
        (&app.contestant, wrong_answers()),
        (&app.other, correct_answers()),
        (&app.contestant, correct_answers()),
    ];
    let mut seen = Vec::new();
    for (token, answers) in steps {
        let (status, body) = send(&app, token, "open", "nim", &answers).await;
        assert_eq!(status, StatusCode::ACCEPTED, "{body}");
        app.drain().await;
        let (whole_admin, whole) = (
            scoreboard(&app, &app.admin, "open").await,
            scoreboard(&app, &app.contestant, "open").await,
        );
        assert_eq!(whole_admin, whole, "nothing frozen");
        let (status, page) = app
            .get("/api/contests/open/scoreboard?limit=100", &app.contestant)
            .await;
        assert_eq!(status, StatusCode::OK, "{page}");
        let (_, whole_json) = app
            .get("/api/contests/open/scoreboard", &app.contestant)
            .await;
        assert_eq!(page, whole_json, "a page of every row is the whole board");
        assert!(!whole.0, "not frozen");
        seen.push(whole.1);
    }
    assert_eq!(
        seen,
        [
            vec![row(1, "carol", 0, 0, vec![("A".into(), None, 1, 0)])],
            vec![
                row(1, "dave", 1, 0, vec![("A".into(), Some(0), 0, 0)]),
                row(2, "carol", 0, 0, vec![("A".into(), None, 1, 0)]),
            ],
            vec![
                row(1, "dave", 1, 0, vec![("A".into(), Some(0), 0, 0)]),
                row(2, "carol", 1, 20, vec![("A".into(), Some(0), 1, 0)]),
            ],
        ]
    );
}

#[tokio::test]
async fn the_command_line_puts_a_contest_and_prints_its_scoreboard() {
    let dir = TestDir::new();
    let app = TestApp::spawn(&dir, 1).await;
    let start = Timestamp::now().as_millisecond() - 12 * 60_000;
    let file = dir.path().join("cup.toml");
    std::fs::write(
        &file,
        format!(
            "title = \"Winter Cup\"\nstarts_at = \"{}\"\nduration_seconds = 3600\n\
             penalty_minutes = 10\n\n[[problems]]\nlabel = \"A\"\nproblem = \"nim\"\n",
            Timestamp::from_millisecond(start).expect("a time")
        ),
    )
    .expect("write the contest");
    let args = |list: &[&str]| list.iter().map(|a| a.to_string()).collect::<Vec<_>>();
    let file_arg = file.display().to_string();
    let put = run_client(
        &app.address,
        &app.admin,
        args(&["contest", "put", "winter", &file_arg]),
    )
    .await;
    assert!(put.status.success(), "{put:?}");
    assert_eq!(
        String::from_utf8_lossy(&put.stdout),
        "contest winter (Winter Cup): 1 problem, running\n"
    );
    let refused = run_client(
        &app.address,
        &app.contestant,
        args(&["contest", "put", "winter", &file_arg]),
    )
    .await;
    assert_eq!(refused.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&refused.stderr),
        "error: the server answered 403: only admins may do this\n"
    );
    std::fs::write(&file, "title = \"x\"\nduration_seconds = 60\n").expect("write");
    let bad = run_client(
        &app.address,
        &app.admin,
        args(&["contest", "put", "winter", &file_arg]),
    )
    .await;
    assert_eq!(bad.status.code(), Some(2));
    let message = String::from_utf8_lossy(&bad.stderr);
    assert!(message.contains("missing field `starts_at`"), "{message}");

    let answers = dir.path().join("answers");
    std::fs::create_dir_all(&answers).expect("a folder");
    for (testcase, answer) in correct_answers() {
        std::fs::write(answers.join(format!("{testcase}.out")), answer).expect("write");
    }
    let answers_arg = answers.display().to_string();
    let submitted = run_client(
        &app.address,
        &app.contestant,
        args(&[
            "submit",
            "--problem",
            "nim",
            "--contest",
            "winter",
            "--answers",
            &answers_arg,
        ]),
    )
    .await;
    assert!(submitted.status.success(), "{submitted:?}");
    let board = run_client(
        &app.address,
        &app.contestant,
        args(&["contest", "scoreboard", "winter"]),
    )
    .await;
    assert!(board.status.success(), "{board:?}");
    let text = String::from_utf8_lossy(&board.stdout);
    let line = text
        .lines()
        .find(|line| line.contains("carol"))
        .unwrap_or_else(|| panic!("{text}"));
    let words: Vec<&str> = line.split_whitespace().collect();
    // #, who, solved, penalty, then A as `+`, its minute and the first-solve mark.
    assert_eq!(&words[..3], ["1", "carol", "1"], "{text}");
    assert!(["12", "13"].contains(&words[3]), "{text}");
    assert_eq!(words[4], "+", "{text}");
    assert_eq!(words[5], format!("{}*", words[3]), "{text}");
    let export = run_client(
        &app.address,
        &app.admin,
        args(&["contest", "export", "winter"]),
    )
    .await;
    assert!(export.status.success(), "{export:?}");
    let export: Value = serde_json::from_slice(&export.stdout).expect("JSON");
    assert_eq!(export["contest"]["id"], "winter");
    assert_eq!(export["participants"], json!(["carol"]));
    let list = run_client(&app.address, &app.other, args(&["contest", "list"])).await;
    let text = String::from_utf8_lossy(&list.stdout);
    assert!(
        text.contains("winter") && text.contains("Winter Cup") && text.contains("running"),
        "{text}"
    );
    app.stop().await;
}

/// Clarifications: participants ask once the contest runs, the jury
/// answers one asker or everyone and announces; each reader sees what is
/// meant for them.
#[tokio::test]
async fn clarifications_reach_the_asker_or_everyone_as_the_jury_says() {
    let dir = TestDir::new();
    let app = TestApp::spawn(&dir, 0).await;
    let start = Timestamp::now().as_millisecond() - 60_000;
    let (status, _) = app
        .request(
            Method::PUT,
            "/api/contests/cup",
            Some(&app.admin),
            Some(json!({
                "title": "Cup",
                "starts_at": Timestamp::from_millisecond(start).expect("a time").to_string(),
                "duration_seconds": 3600,
                "problems": [{ "label": "A", "problem": "nim" }],
            })),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED);
    let path = "/api/contests/cup/clarifications";
    // Not a participant yet.
    let (status, body) = app
        .post(path, &app.contestant, json!({ "text": "Is N ≥ 1?" }))
        .await;
    assert_eq!(status, StatusCode::FORBIDDEN, "{body}");
    for token in [&app.contestant, &app.other] {
        app.post("/api/contests/cup/registrations", token, json!({}))
            .await;
    }
    let (status, body) = app
        .post(path, &app.contestant, json!({ "text": "   " }))
        .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
    assert_eq!(body["error"], "`text` must be 1 to 4000 characters, not 0");
    let (status, body) = app
        .post(
            path,
            &app.contestant,
            json!({ "problem": "xy-game", "text": "?" }),
        )
        .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
    let (status, mine) = app
        .post(
            path,
            &app.contestant,
            json!({ "problem": "nim", "text": "Is N ≥ 1?" }),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{mine}");
    assert_eq!(mine["asked_by"], "carol");
    assert_eq!(mine["answer"], Value::Null);
    let (_, theirs) = app
        .post(path, &app.other, json!({ "text": "May I use Rust?" }))
        .await;
    let texts = |list: &Value| -> Vec<String> {
        list["clarifications"]
            .as_array()
            .expect("clarifications")
            .iter()
            .map(|c| {
                format!(
                    "{}|{}",
                    c["question"].as_str().unwrap_or("-"),
                    c["answer"].as_str().unwrap_or("-")
                )
            })
            .collect()
    };
    // Each sees their own question; the jury sees both.
    let (_, list) = app.get(path, &app.contestant).await;
    assert_eq!(texts(&list), ["Is N ≥ 1?|-"]);
    let (_, list) = app.get(path, &app.setter).await;
    assert_eq!(texts(&list), ["Is N ≥ 1?|-", "May I use Rust?|-"]);

    // Only the jury answers; carol's answer is hers, dave's for all.
    let answer = |n: &Value| format!("{path}/{}/answer", n.as_i64().expect("a number"));
    let (status, _) = app
        .post(
            &answer(&mine["id"]),
            &app.other,
            json!({ "answer": "Yes." }),
        )
        .await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    let (status, body) = app
        .post(
            &answer(&mine["id"]),
            &app.setter,
            json!({ "answer": "Yes." }),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let (status, _) = app
        .post(
            &answer(&theirs["id"]),
            &app.admin,
            json!({ "answer": "Yes, see the languages page.", "to_all": true }),
        )
        .await;
    assert_eq!(status, StatusCode::OK);
    let (status, _) = app
        .post(
            &format!("{path}/999/answer"),
            &app.admin,
            json!({ "answer": "?" }),
        )
        .await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    // An announcement reaches everyone.
    let (status, announced) = app
        .post(
            path,
            &app.admin,
            json!({ "text": "A's limit is now 3 s." , "problem": "nim" }),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{announced}");
    assert_eq!(announced["asked_by"], Value::Null);
    let (_, list) = app.get(path, &app.contestant).await;
    assert_eq!(
        texts(&list),
        [
            "Is N ≥ 1?|Yes.",
            "May I use Rust?|Yes, see the languages page.",
            "-|A's limit is now 3 s."
        ]
    );
    let (_, list) = app.get(path, &app.other).await;
    assert_eq!(
        texts(&list),
        [
            "May I use Rust?|Yes, see the languages page.",
            "-|A's limit is now 3 s."
        ]
    );

    // At most ten questions wait for the jury at once, per participant.
    let mut waiting = Vec::new();
    for n in 0..10 {
        let (status, asked) = app
            .post(
                path,
                &app.other,
                json!({ "text": format!("Question {n}?") }),
            )
            .await;
        assert_eq!(status, StatusCode::CREATED, "{asked}");
        waiting.push(asked["id"].clone());
    }
    let (status, body) = app
        .post(path, &app.other, json!({ "text": "One more?" }))
        .await;
    assert_eq!(status, StatusCode::CONFLICT, "{body}");
    assert_eq!(
        body["error"],
        "you have 10 questions in contest `cup` not answered yet: ask again once the jury has \
         answered one"
    );
    let (status, _) = app
        .post(path, &app.contestant, json!({ "text": "Mine still?" }))
        .await;
    assert_eq!(
        status,
        StatusCode::CREATED,
        "another's questions count apart"
    );
    let (status, _) = app
        .post(
            &answer(&waiting[0]),
            &app.setter,
            json!({ "answer": "No." }),
        )
        .await;
    assert_eq!(status, StatusCode::OK);
    let (status, body) = app
        .post(path, &app.other, json!({ "text": "One more?" }))
        .await;
    assert_eq!(status, StatusCode::CREATED, "{body}");
    app.stop().await;
}

/// The fixture's `nim` in three groups: the sample (no points), `small-1`
/// (40, all or nothing) and `small-2` (60).
const NIM_GROUPS: &str = "[[group]]\nname = \"samples\"\npoints = 0\ntestcases = [\"sample-*\"]\n\
    [[group]]\nname = \"first\"\npoints = 40\ntestcases = [\"small-1\"]\n\
    [[group]]\nname = \"second\"\npoints = 60\ntestcases = [\"small-2\"]\n";

/// Correct answers for the named testcases only, wrong ones for the rest.
fn answers_right_on(right: &[&str]) -> BTreeMap<String, String> {
    correct_answers()
        .into_iter()
        .map(|(name, answer)| {
            let answer = if right.contains(&name.as_str()) {
                answer
            } else {
                "Nobody\n".to_string()
            };
            (name, answer)
        })
        .collect()
}

/// A row of an IOI board as (rank, user, total, each cell's score).
type ScoreRow = (u64, String, f64, Vec<f64>);

async fn ioi_board(app: &TestApp, token: &str, contest: &str) -> (bool, Vec<ScoreRow>) {
    let (status, board) = app
        .get(&format!("/api/contests/{contest}/scoreboard"), token)
        .await;
    assert_eq!(status, StatusCode::OK, "{board}");
    let rows = board["rows"]
        .as_array()
        .expect("rows")
        .iter()
        .map(|row| {
            let cells = row["cells"]
                .as_array()
                .expect("cells")
                .iter()
                .map(|cell| cell["score"].as_f64().expect("a cell's score"))
                .collect();
            (
                row["rank"].as_u64().expect("a rank"),
                row["user"].as_str().expect("a user").to_string(),
                row["score"].as_f64().expect("a score"),
                cells,
            )
        })
        .collect();
    (board["frozen"].as_bool().expect("frozen"), rows)
}

/// Answers to every public testcase of the bundled coin-game, all right
/// or all wrong.
async fn coin_answers(app: &TestApp, right: bool) -> BTreeMap<String, String> {
    let (status, listed) = app
        .get("/api/problems/coin-game/testcases", &app.admin)
        .await;
    assert_eq!(status, StatusCode::OK, "{listed}");
    let folder =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("problems/coin-game/testcases");
    let solver = nimjudge::solver::find("coin-game").expect("coin-game");
    listed["testcases"]
        .as_array()
        .expect("testcases")
        .iter()
        .filter(|t| t["hidden"] == false)
        .map(|t| {
            let name = t["name"].as_str().expect("a name").to_string();
            let input =
                std::fs::read_to_string(folder.join(format!("{name}.in"))).expect("an input");
            let answer = if right {
                solver.solve(&input).expect("a valid input")
            } else {
                "Nobody\n".to_string()
            };
            (name, answer)
        })
        .collect()
}

fn score_row(rank: u64, user: &str, total: f64, cells: [f64; 2]) -> ScoreRow {
    (rank, user.to_string(), total, cells.to_vec())
}

#[tokio::test]
async fn a_scripted_ioi_contest_scores_groups_freezes_and_thaws_as_worked_out_by_hand() {
    let dir = TestDir::with_policy(nimjudge::testing::FixturePolicy {
        groups: Some(NIM_GROUPS),
        ..Default::default()
    });
    dir.add_bundled_problem("coin-game");
    let app = TestApp::spawn(&dir, 1).await;
    // Began half a second ago, lasts 10 s, its last 6 s frozen.
    let start = Timestamp::now().as_millisecond() - 500;
    let mut settings = json!({
        "title": "Olympiad",
        "starts_at": Timestamp::from_millisecond(start).expect("a time").to_string(),
        "duration_seconds": 10,
        "freeze_seconds": 6,
        "scoring": "ioi",
        "problems": [
            { "label": "A", "problem": "nim" },
            { "label": "B", "problem": "coin-game" },
        ],
    });
    let (status, created) = app
        .request(
            Method::PUT,
            "/api/contests/olympiad",
            Some(&app.admin),
            Some(settings.clone()),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{created}");
    assert_eq!(created["contest"]["settings"]["score_by"], "group");
    // `score_by` belongs to IOI contests.
    let mut icpc = settings.clone();
    icpc["scoring"] = json!("icpc");
    icpc["score_by"] = json!("submission");
    let (status, body) = app
        .request(
            Method::PUT,
            "/api/contests/other",
            Some(&app.admin),
            Some(icpc),
        )
        .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
    assert!(
        body["error"]
            .as_str()
            .expect("a message")
            .contains("`score_by`"),
        "{body}"
    );

    // Before the freeze: carol passes the first group, then the second
    // (each try alone scores 40 and 60); dave passes everything on A.
    let (status, body) = send(
        &app,
        &app.contestant,
        "olympiad",
        "nim",
        &answers_right_on(&["small-1"]),
    )
    .await;
    assert_eq!(status, StatusCode::ACCEPTED, "{body}");
    let first = app
        .verdict(&submission_id(&body["id"]), &app.contestant)
        .await;
    assert_eq!(first["submission"]["verdict"], "WA");
    assert_eq!(first["submission"]["score"], json!(40.0), "{first}");
    assert_eq!(
        first["submission"]["group_scores"],
        json!([0.0, 40.0, 0.0]),
        "{first}"
    );
    let (status, body) = send(
        &app,
        &app.contestant,
        "olympiad",
        "nim",
        &answers_right_on(&["small-2"]),
    )
    .await;
    assert_eq!(status, StatusCode::ACCEPTED, "{body}");
    let (status, body) = send(&app, &app.other, "olympiad", "nim", &correct_answers()).await;
    assert_eq!(status, StatusCode::ACCEPTED, "{body}");
    let full = app.verdict(&submission_id(&body["id"]), &app.other).await;
    assert_eq!(full["submission"]["score"], json!(100.0), "{full}");
    app.drain().await;

    // Frozen: dave solves B (no groups: 100 for an AC), carol fails it.
    until(start + 4_000).await;
    let (coin_right, coin_wrong) = (
        coin_answers(&app, true).await,
        coin_answers(&app, false).await,
    );
    let (status, body) = send(&app, &app.other, "olympiad", "coin-game", &coin_right).await;
    assert_eq!(status, StatusCode::ACCEPTED, "{body}");
    let (status, body) = send(&app, &app.contestant, "olympiad", "coin-game", &coin_wrong).await;
    assert_eq!(status, StatusCode::ACCEPTED, "{body}");
    app.drain().await;

    // By hand: carol's groups 40 and 60 make 100 on A; dave 100 on A and
    // 100 on B, the latter after the freeze.
    let everything = vec![
        score_row(1, "dave", 200.0, [100.0, 100.0]),
        score_row(2, "carol", 100.0, [100.0, 0.0]),
    ];
    let frozen_view = vec![
        score_row(1, "carol", 100.0, [100.0, 0.0]),
        score_row(1, "dave", 100.0, [100.0, 0.0]),
    ];
    assert_eq!(
        ioi_board(&app, &app.admin, "olympiad").await,
        (false, everything.clone())
    );
    assert_eq!(
        ioi_board(&app, &app.contestant, "olympiad").await,
        (true, frozen_view)
    );
    let (_, board) = app
        .get("/api/contests/olympiad/scoreboard", &app.contestant)
        .await;
    assert_eq!(board["rows"][1]["cells"][1]["pending"], 1, "{board}");
    // The Contest API's board: a score above 0 has the time of the try
    // that reached it, a score of 0 none, and a row its last change (the
    // spec's rules; every try here is in the first minute).
    let (status, ccs) = app
        .get("/ccs/contests/olympiad/scoreboard", &app.admin)
        .await;
    assert_eq!(status, StatusCode::OK, "{ccs}");
    let rows = ccs["rows"].as_array().expect("rows");
    let summary: Vec<_> = rows
        .iter()
        .map(|row| {
            let cells: Vec<_> = row["problems"]
                .as_array()
                .expect("problems")
                .iter()
                .map(|cell| {
                    (
                        cell["problem_id"].clone(),
                        cell["score"].clone(),
                        cell["time"].clone(),
                    )
                })
                .collect();
            (row["team_id"].clone(), row["score"].clone(), cells)
        })
        .collect();
    let at_start = json!("0:00:00.000");
    assert_eq!(
        summary,
        [
            (
                json!("dave"),
                json!({ "score": 200.0, "time": at_start }),
                vec![
                    (json!("nim"), json!(100.0), at_start.clone()),
                    (json!("coin-game"), json!(100.0), at_start.clone()),
                ]
            ),
            (
                json!("carol"),
                json!({ "score": 100.0, "time": at_start }),
                vec![
                    (json!("nim"), json!(100.0), at_start.clone()),
                    (json!("coin-game"), json!(0.0), serde_json::Value::Null),
                ]
            ),
        ],
        "{ccs}"
    );

    // The best submission instead of the best of each group: carol's A is
    // her best single try, 60 (the settings' change recomputes the cells).
    settings["score_by"] = json!("submission");
    let (status, body) = app
        .request(
            Method::PUT,
            "/api/contests/olympiad",
            Some(&app.admin),
            Some(settings),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(
        ioi_board(&app, &app.admin, "olympiad").await,
        (
            false,
            vec![
                score_row(1, "dave", 200.0, [100.0, 100.0]),
                score_row(2, "carol", 60.0, [60.0, 0.0]),
            ]
        )
    );

    // Over and thawed: everyone sees everything.
    until(start + 10_000).await;
    let (status, _) = app
        .post("/api/contests/olympiad/thaw", &app.admin, json!({}))
        .await;
    assert_eq!(status, StatusCode::OK);
    let (frozen, rows) = ioi_board(&app, &app.contestant, "olympiad").await;
    assert!(!frozen);
    assert_eq!(rows[0], score_row(1, "dave", 200.0, [100.0, 100.0]));
    // The command line prints the scores: #, who, total, then A and B.
    let board = run_client(
        &app.address,
        &app.contestant,
        vec!["contest".into(), "scoreboard".into(), "olympiad".into()],
    )
    .await;
    assert!(board.status.success(), "{board:?}");
    let text = String::from_utf8_lossy(&board.stdout);
    let lines: Vec<Vec<&str>> = text
        .lines()
        .filter(|line| line.contains("carol") || line.contains("dave"))
        .map(|line| line.split_whitespace().collect())
        .collect();
    assert_eq!(
        lines,
        [
            vec!["1", "dave", "200", "100*", "100*"],
            vec!["2", "carol", "60", "60", "0"]
        ],
        "{text}"
    );
    assert!(text.contains("* first full score"), "{text}");
    app.stop().await;
}

/// The start of the reader's own window in a contest (unix milliseconds).
async fn window_start(app: &TestApp, token: &str, contest: &str) -> i64 {
    let (status, view) = app.get(&format!("/api/contests/{contest}"), token).await;
    assert_eq!(status, StatusCode::OK, "{view}");
    let start: Timestamp = view["window"]["starts_at"]
        .as_str()
        .expect("a window")
        .parse()
        .expect("a time");
    start.as_millisecond()
}

#[tokio::test]
async fn personal_windows_count_contest_time_and_the_freeze_from_each_start() {
    let dir = TestDir::new();
    let app = TestApp::spawn(&dir, 1).await;
    let now = Timestamp::now().as_millisecond();
    // A span of 60 s from a second ago; windows of 3 s, their last second
    // frozen.
    let settings = json!({
        "title": "Virtual",
        "starts_at": Timestamp::from_millisecond(now - 1_000).expect("a time").to_string(),
        "duration_seconds": 60,
        "window_seconds": 3,
        "freeze_seconds": 1,
        "problems": [{ "label": "A", "problem": "nim" }],
    });
    let (status, body) = app
        .request(
            Method::PUT,
            "/api/contests/virtual",
            Some(&app.admin),
            Some(settings.clone()),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{body}");
    let mut bad = settings.clone();
    bad["window_seconds"] = json!(61);
    let (status, body) = app
        .request(
            Method::PUT,
            "/api/contests/other",
            Some(&app.admin),
            Some(bad),
        )
        .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
    assert_eq!(
        body["error"],
        "`window_seconds` must be 1 to the duration (60), not 61"
    );
    assert_eq!(body_phase(&app, "virtual").await, "running");

    // carol starts her window (again: the same one), then solves A at once.
    let (status, started) = app
        .post("/api/contests/virtual/window", &app.contestant, json!({}))
        .await;
    assert_eq!(status, StatusCode::OK, "{started}");
    assert!(started["registered"].as_bool().expect("registered"));
    let carol_start = window_start(&app, &app.contestant, "virtual").await;
    let ends: Timestamp = started["window"]["ends_at"]
        .as_str()
        .expect("an end")
        .parse()
        .expect("a time");
    assert_eq!(ends.as_millisecond() - carol_start, 3_000);
    let (_, again) = app
        .post("/api/contests/virtual/window", &app.contestant, json!({}))
        .await;
    assert_eq!(again["window"], started["window"]);
    let (status, body) = send(&app, &app.contestant, "virtual", "nim", &correct_answers()).await;
    assert_eq!(status, StatusCode::ACCEPTED, "{body}");
    let solved = app
        .verdict(&submission_id(&body["id"]), &app.contestant)
        .await;
    let time = solved["submission"]["contest_time_ms"]
        .as_i64()
        .expect("a contest time");
    assert!((0..1_000).contains(&time), "{solved}");

    // dave starts later, by his first submission (rejected), and solves A
    // in his window's frozen last second.
    tokio::time::sleep(Duration::from_millis(1_200)).await;
    let (status, body) = send(&app, &app.other, "virtual", "nim", &wrong_answers()).await;
    assert_eq!(status, StatusCode::ACCEPTED, "{body}");
    let rejected = app.verdict(&submission_id(&body["id"]), &app.other).await;
    let dave_start = window_start(&app, &app.other, "virtual").await;
    assert!(dave_start >= carol_start + 1_200, "{rejected}");
    let time = rejected["submission"]["contest_time_ms"]
        .as_i64()
        .expect("a contest time");
    assert!((0..500).contains(&time), "{rejected}");
    until(dave_start + 2_200).await;
    let (status, body) = send(&app, &app.other, "virtual", "nim", &correct_answers()).await;
    assert_eq!(status, StatusCode::ACCEPTED, "{body}");
    // carol's window is over: her submission is practice.
    until(carol_start + 3_000).await;
    let (status, body) = send(&app, &app.contestant, "virtual", "nim", &wrong_answers()).await;
    assert_eq!(status, StatusCode::ACCEPTED, "{body}");
    let practice = app
        .verdict(&submission_id(&body["id"]), &app.contestant)
        .await;
    assert_eq!(practice["submission"]["contest_time_ms"], Value::Null);
    app.drain().await;

    // By hand: both solved A in minute 0, dave after one rejected try; the
    // public does not see dave's AC, sent in his freeze.
    let a = |solved: Option<i64>, tries: i64, pending: i64| {
        vec![("A".to_string(), solved, tries, pending)]
    };
    assert_eq!(
        scoreboard(&app, &app.admin, "virtual").await,
        (
            false,
            vec![
                row(1, "carol", 1, 0, a(Some(0), 0, 0)),
                row(2, "dave", 1, 20, a(Some(0), 1, 0)),
            ]
        )
    );
    assert_eq!(
        scoreboard(&app, &app.contestant, "virtual").await,
        (
            true,
            vec![
                row(1, "carol", 1, 0, a(Some(0), 0, 0)),
                row(2, "dave", 0, 0, a(None, 1, 1)),
            ]
        )
    );

    // One window for everyone: nothing to start.
    let mut shared = settings.clone();
    shared["window_seconds"] = json!(null);
    let (status, _) = app
        .request(
            Method::PUT,
            "/api/contests/shared",
            Some(&app.admin),
            Some(shared),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED);
    let (status, body) = app
        .post("/api/contests/shared/window", &app.contestant, json!({}))
        .await;
    assert_eq!(status, StatusCode::CONFLICT, "{body}");
    app.stop().await;
}

/// A contest's phase as anyone reads it.
async fn body_phase(app: &TestApp, contest: &str) -> String {
    let (_, view) = app
        .get(&format!("/api/contests/{contest}"), &app.contestant)
        .await;
    view["phase"].as_str().expect("a phase").to_string()
}

#[tokio::test]
async fn each_participant_answers_an_input_of_their_own() {
    let dir = TestDir::new();
    let app = TestApp::spawn(&dir, 1).await;
    let now = Timestamp::now().as_millisecond();
    let mut settings = json!({
        "title": "Own inputs",
        "starts_at": Timestamp::from_millisecond(now - 60_000).expect("a time").to_string(),
        "duration_seconds": 3600,
        "problems": [{ "label": "A", "problem": "nim", "personal_input": "random" }],
    });
    let (status, body) = app
        .request(
            Method::PUT,
            "/api/contests/own",
            Some(&app.admin),
            Some(settings.clone()),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{body}");
    // With personal windows, the input waits for the window's start.
    let mut windowed = settings.clone();
    windowed["window_seconds"] = json!(600);
    let (status, body) = app
        .request(
            Method::PUT,
            "/api/contests/windowed",
            Some(&app.admin),
            Some(windowed),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{body}");
    let path = "/api/contests/windowed/problems/A/input";
    let (status, _) = app
        .post(
            "/api/contests/windowed/registrations",
            &app.contestant,
            json!({}),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED);
    let (status, body) = app.get(path, &app.contestant).await;
    assert_eq!(status, StatusCode::CONFLICT, "{body}");
    assert!(
        body["error"]
            .as_str()
            .expect("a message")
            .starts_with("your window of contest `windowed` has not started"),
        "{body}"
    );
    let (status, body) = app
        .post("/api/contests/windowed/window", &app.contestant, json!({}))
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let response = app
        .http
        .get(format!("{}{path}", app.address))
        .bearer_auth(&app.contestant)
        .send()
        .await
        .expect("send");
    assert_eq!(response.status(), StatusCode::OK);
    // An interactive problem has no inputs to give.
    settings["problems"][0]["problem"] = json!("nim-play");
    let (status, body) = app
        .request(
            Method::PUT,
            "/api/contests/other",
            Some(&app.admin),
            Some(settings),
        )
        .await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");

    // Reading an input changes nothing: who has not registered is told to.
    let (status, body) = app
        .get("/api/contests/own/problems/A/input", &app.contestant)
        .await;
    assert_eq!(status, StatusCode::CONFLICT, "{body}");
    assert!(
        body["error"]
            .as_str()
            .expect("a message")
            .starts_with("you are not registered for contest `own`: register first"),
        "{body}"
    );
    for token in [&app.contestant, &app.other] {
        let (status, body) = app
            .post("/api/contests/own/registrations", token, json!({}))
            .await;
        assert_eq!(status, StatusCode::CREATED, "{body}");
    }
    let input_of = |token: &str| {
        let request = app
            .http
            .get(format!("{}/api/contests/own/problems/A/input", app.address))
            .bearer_auth(token.to_string());
        async move {
            let response = request.send().await.expect("send");
            assert_eq!(response.status(), StatusCode::OK);
            response.text().await.expect("the input")
        }
    };
    let carol = input_of(&app.contestant).await;
    let dave = input_of(&app.other).await;
    assert_ne!(carol, dave, "each has an input of their own");
    assert_eq!(
        input_of(&app.contestant).await,
        carol,
        "the same every time"
    );
    // Downloads at once: each is the input, or 409 while another of the
    // same user's is being made.
    let mut at_once = tokio::task::JoinSet::new();
    for _ in 0..6 {
        let request = app
            .http
            .get(format!("{}/api/contests/own/problems/A/input", app.address))
            .bearer_auth(&app.contestant);
        at_once.spawn(async move {
            let response = request.send().await.expect("send");
            (response.status(), response.text().await.expect("a body"))
        });
    }
    let mut served = 0;
    while let Some(answer) = at_once.join_next().await {
        match answer.expect("a download") {
            (StatusCode::OK, input) => {
                assert_eq!(input, carol);
                served += 1;
            }
            (status, body) => assert_eq!(status, StatusCode::CONFLICT, "{body}"),
        }
    }
    assert!(served >= 1, "no download of six was served");
    nimjudge::solver::find("nim")
        .expect("nim")
        .validate(&carol)
        .expect("a valid input");
    let (status, _) = app
        .get("/api/contests/own/problems/B/input", &app.contestant)
        .await;
    assert_eq!(status, StatusCode::NOT_FOUND);

    // carol answers hers; the problem's own testcases are not answered here.
    let answer = nimjudge::solver::find("nim")
        .expect("nim")
        .solve(&carol)
        .expect("an answer");
    let mine = BTreeMap::from([("personal".to_string(), answer)]);
    let (status, body) = send(&app, &app.contestant, "own", "nim", &mine).await;
    assert_eq!(status, StatusCode::ACCEPTED, "{body}");
    let judged = app
        .verdict(&submission_id(&body["id"]), &app.contestant)
        .await;
    assert_eq!(judged["submission"]["verdict"], "AC", "{judged}");
    assert_eq!(judged["submission"]["score"], json!(100.0));
    let (status, body) = send(&app, &app.other, "own", "nim", &correct_answers()).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
    assert!(
        body["error"]
            .as_str()
            .expect("a message")
            .contains("as the testcase `personal`"),
        "{body}"
    );
    // dave's answer to carol's input is checked against his own.
    let wrong = nimjudge::solver::find("nim")
        .expect("nim")
        .solve(&dave)
        .expect("an answer");
    let flipped = if wrong == "Alice\n" {
        "Bob\n"
    } else {
        "Alice\n"
    };
    let his = BTreeMap::from([("personal".to_string(), flipped.to_string())]);
    let (status, body) = send(&app, &app.other, "own", "nim", &his).await;
    assert_eq!(status, StatusCode::ACCEPTED, "{body}");
    let judged = app.verdict(&submission_id(&body["id"]), &app.other).await;
    assert_eq!(judged["submission"]["verdict"], "WA", "{judged}");
    app.drain().await;
    let (_, board) = scoreboard(&app, &app.admin, "own").await;
    let solved: Vec<(String, i64)> = board.iter().map(|row| (row.1.clone(), row.2)).collect();
    assert_eq!(solved, [("carol".to_string(), 1), ("dave".to_string(), 0)]);
    app.stop().await;
}
