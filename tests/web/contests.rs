//! Contest pages: over plain HTTP, a contestant registers and submits from
//! the contest's problem link, and the page's scoreboard shows what the
//! API's does, frozen for them and not for an admin; in Chromium, the page
//! at desktop and phone widths, and its scoreboard updating by itself.

use std::time::Duration;

use fantoccini::Locator;
use jiff::Timestamp;
use reqwest::{Method, StatusCode, header};
use serde_json::{Value, json};

use crate::{
    browser::{screenshot, sign_in, text_of, wait_for_text, with_browser},
    forms::WebClient,
    helpers::{TestApp, TestDir, correct_answers},
};

/// Puts a contest of nim (label `A`) that started `minutes_ago`, lasting
/// two hours, its last `freeze_minutes` frozen.
async fn put_contest(app: &TestApp, id: &str, minutes_ago: i64, freeze_minutes: Option<i64>) {
    let start = Timestamp::now().as_millisecond() - minutes_ago * 60_000;
    let (status, body) = app
        .request(
            Method::PUT,
            &format!("/api/contests/{id}"),
            Some(&app.admin),
            Some(json!({
                "title": "Autumn Cup",
                "starts_at": Timestamp::from_millisecond(start).expect("a time").to_string(),
                "duration_seconds": 7200,
                "freeze_seconds": freeze_minutes.map(|m| m * 60),
                "problems": [{ "label": "A", "problem": "nim", "colour": "#1e88e5" }],
            })),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{body}");
}

#[tokio::test]
async fn a_contestant_registers_and_submits_from_the_contest_page_and_sees_its_scoreboard() {
    let dir = TestDir::new();
    let app = TestApp::spawn(&dir, 1).await;
    // Frozen for the last 110 of 120 minutes: it is 20 minutes in.
    put_contest(&app, "autumn", 20, Some(110)).await;
    let web = WebClient::sign_in(&app, &app.contestant).await;

    let list = web.get("/contests").await.text().await.expect("page");
    assert!(list.contains(r#"href="/contests/autumn""#), "{list}");
    let page = web
        .get("/contests/autumn")
        .await
        .text()
        .await
        .expect("page");
    assert!(page.contains(r#"id="register""#), "{page}");
    assert!(
        page.contains(r#"href="/problems/nim?contest=autumn""#),
        "{page}"
    );
    let response = web
        .post_form("/contests/autumn/register", &[("csrf", &web.csrf)])
        .await;
    assert_eq!(response.status(), StatusCode::SEE_OTHER);
    let page = web
        .get("/contests/autumn")
        .await
        .text()
        .await
        .expect("page");
    assert!(page.contains(r#"id="registered""#), "{page}");
    assert!(!page.contains(r#"id="register""#), "{page}");

    // The problem page opened from the contest sends its forms there.
    let problem = web
        .get("/problems/nim?contest=autumn")
        .await
        .text()
        .await
        .expect("page");
    assert!(problem.contains(r#"id="contest-notice""#), "{problem}");
    assert_eq!(
        problem
            .matches(r#"<input type="hidden" name="contest" value="autumn">"#)
            .count(),
        2,
        "both forms: {problem}"
    );
    let answers = correct_answers();
    let mut fields: Vec<(String, Option<String>, String)> = vec![
        ("csrf".into(), None, web.csrf.clone()),
        ("kind".into(), None, "answers".into()),
        ("contest".into(), None, "autumn".into()),
    ];
    for (testcase, answer) in &answers {
        fields.push((
            "answer_files".into(),
            Some(format!("{testcase}.out")),
            answer.clone(),
        ));
    }
    let fields: Vec<(&str, Option<&str>, &str)> = fields
        .iter()
        .map(|(n, f, v)| (n.as_str(), f.as_deref(), v.as_str()))
        .collect();
    let response = web
        .post_multipart("/problems/nim/submissions", &fields)
        .await;
    assert_eq!(response.status(), StatusCode::SEE_OTHER);
    let location = response.headers()[header::LOCATION]
        .to_str()
        .expect("text")
        .to_string();
    let id = location
        .strip_prefix("/submissions/")
        .expect("a submission page")
        .parse()
        .expect("an id");
    let judged = app.verdict(&id, &app.contestant).await;
    assert_eq!(judged["submission"]["contest"], "autumn", "{judged}");

    // Solved in the freeze: pending to carol, solved to an admin.
    let page = web
        .get("/contests/autumn")
        .await
        .text()
        .await
        .expect("page");
    assert!(page.contains(r#"id="frozen""#), "{page}");
    assert!(
        page.contains(r#"<td class="cell pending" data-label="A"> ?1</td>"#),
        "{page}"
    );
    let admin = WebClient::sign_in(&app, &app.admin).await;
    let page = admin
        .get("/contests/autumn")
        .await
        .text()
        .await
        .expect("page");
    assert!(!page.contains(r#"id="frozen""#), "{page}");
    assert!(
        page.contains(
            r#"<td class="cell first" data-label="A">+<span class="minute">20</span></td>"#
        ) || page.contains(
            r#"<td class="cell first" data-label="A">+<span class="minute">21</span></td>"#
        ),
        "{page}"
    );
    // The verdict log filters by contest.
    let log = admin
        .get("/log?contest=autumn")
        .await
        .text()
        .await
        .expect("page");
    assert!(log.contains(&format!("/submissions/{id}")), "{log}");
    let log = admin
        .get("/log?contest=winter")
        .await
        .text()
        .await
        .expect("page");
    assert!(!log.contains(&format!("/submissions/{id}")), "{log}");
    assert_eq!(
        admin.get("/log?contest=Not%20One").await.status(),
        StatusCode::BAD_REQUEST
    );
    // Not over: no thaw button, and a thaw is refused.
    assert!(!page.contains(r#"id="thaw""#), "{page}");
    let response = admin
        .post_form("/contests/autumn/thaw", &[("csrf", &admin.csrf)])
        .await;
    assert_eq!(response.status(), StatusCode::CONFLICT);
    // A contest that does not exist is the error page's 404.
    assert_eq!(
        web.get("/contests/nothing").await.status(),
        StatusCode::NOT_FOUND
    );
    app.stop().await;
}

#[tokio::test]
#[ignore = "needs Chromium and chromedriver; scripts/test.sh runs it"]
async fn a_contest_page_fits_a_phone_and_its_scoreboard_updates_by_itself() {
    with_browser(|client| async move {
        let dir = TestDir::new();
        let app = TestApp::spawn(&dir, 1).await;
        put_contest(&app, "autumn", 5, None).await;
        for token in [&app.contestant, &app.other] {
            let (status, _) = app
                .post("/api/contests/autumn/registrations", token, json!({}))
                .await;
            assert_eq!(status, StatusCode::CREATED);
        }
        let (_, asked) = app
            .post(
                "/api/contests/autumn/clarifications",
                &app.contestant,
                json!({ "problem": "nim", "text": "May a pile be empty at the start?" }),
            )
            .await;
        let (status, _) = app
            .post(
                &format!("/api/contests/autumn/clarifications/{}/answer", asked["id"]),
                &app.admin,
                json!({ "answer": "Yes: read the constraints again.", "to_all": true }),
            )
            .await;
        assert_eq!(status, StatusCode::OK);
        sign_in(&client, &app.address, &app.contestant).await;
        client
            .goto(&format!("{}/contests/autumn", app.address))
            .await
            .expect("open the contest");
        let dave = r#"#scoreboard tr[data-user="dave"] td.count"#;
        assert_eq!(text_of(&client, dave).await, "0");
        // dave solves A elsewhere; the open page shows it within its refresh.
        let (status, body) = app
            .post(
                "/api/submissions",
                &app.other,
                json!({ "problem": "nim", "contest": "autumn", "answers": correct_answers() }),
            )
            .await;
        assert_eq!(status, StatusCode::ACCEPTED, "{body}");
        app.drain().await;
        wait_for_text(&client, dave, "1", Duration::from_secs(25)).await;
        let first: Value = client
            .execute(
                "return document.querySelector('#scoreboard tr[data-user=\"dave\"] td.cell').className;",
                vec![],
            )
            .await
            .expect("the cell's class");
        assert_eq!(first, "cell first");
        screenshot(&client, "contest").await;
        client
            .set_window_size(390, 844)
            .await
            .expect("a phone's width");
        for (name, path) in [("contests", "/contests"), ("contest", "/contests/autumn")] {
            client
                .goto(&format!("{}{path}", app.address))
                .await
                .expect("open the page");
            let widths = client
                .execute(
                    "return [document.documentElement.scrollWidth, window.innerWidth];",
                    vec![],
                )
                .await
                .expect("the page's widths");
            assert!(
                widths[0].as_i64() <= widths[1].as_i64(),
                "{path}: {widths:?}"
            );
            screenshot(&client, &format!("phone-{name}")).await;
        }
        assert!(client.find(Locator::Id("contest-problems")).await.is_ok());
        app.stop().await;
    })
    .await;
}

#[tokio::test]
async fn before_its_contest_starts_a_problem_has_no_page_for_contestants() {
    let dir = TestDir::new();
    let app = TestApp::spawn(&dir, 0).await;
    // Starts in ten minutes.
    put_contest(&app, "later", -10, None).await;
    let web = WebClient::sign_in(&app, &app.contestant).await;
    let list = web.get("/problems").await.text().await.expect("page");
    assert!(!list.contains(r#"href="/problems/nim""#), "{list}");
    for path in [
        "/problems/nim",
        "/problems/nim/inputs.zip",
        "/problems/nim/testcases/sample-1/input",
    ] {
        assert_eq!(
            web.get(path).await.status(),
            StatusCode::NOT_FOUND,
            "{path}"
        );
    }
    let page = web.get("/contests/later").await.text().await.expect("page");
    assert!(page.contains(r#"id="problems-hidden""#), "{page}");
    assert!(!page.contains("/problems/nim"), "{page}");
    let setter = WebClient::sign_in(&app, &app.setter).await;
    assert_eq!(setter.get("/problems/nim").await.status(), StatusCode::OK);
    app.stop().await;
}

/// While a contest runs, its problems' Grundy plot and practice games (the
/// solver core's answers) are closed to contestants, and their pages do not
/// link them; staff keep them, and they open again at the contest's end.
#[tokio::test]
async fn a_running_contests_problems_have_no_grundy_plot_or_practice_for_contestants() {
    let dir = TestDir::new();
    dir.add_bundled_problem("coin-game");
    dir.add_bundled_problem("nim-play");
    let app = TestApp::spawn(&dir, 0).await;
    let put = |minutes_ago: i64| {
        let app = &app;
        async move {
            let start = Timestamp::now().as_millisecond() - minutes_ago * 60_000;
            let (status, body) = app
                .request(
                    Method::PUT,
                    "/api/contests/winter",
                    Some(&app.admin),
                    Some(json!({
                        "title": "Winter Cup",
                        "starts_at": Timestamp::from_millisecond(start).expect("a time").to_string(),
                        "duration_seconds": 7200,
                        "problems": [
                            { "label": "A", "problem": "coin-game" },
                            { "label": "B", "problem": "nim-play" },
                        ],
                    })),
                )
                .await;
            assert!(status.is_success(), "{body}");
        }
    };
    put(10).await;
    let carol = WebClient::sign_in(&app, &app.contestant).await;
    let setter = WebClient::sign_in(&app, &app.setter).await;
    for path in ["/problems/coin-game/grundy", "/problems/nim-play/play"] {
        let refused = carol.get(path).await;
        assert_eq!(refused.status(), StatusCode::FORBIDDEN, "{path}");
        let text = refused.text().await.expect("page");
        assert!(
            text.contains("is in a contest that is running"),
            "{path}: {text}"
        );
        assert_eq!(setter.get(path).await.status(), StatusCode::OK, "{path}");
    }
    let coin = carol
        .get("/problems/coin-game")
        .await
        .text()
        .await
        .expect("page");
    assert!(!coin.contains("/grundy"), "{coin}");
    let play = carol
        .get("/problems/nim-play")
        .await
        .text()
        .await
        .expect("page");
    assert!(!play.contains("/play\""), "{play}");
    assert!(
        play.contains("Practice games open again when the contest"),
        "{play}"
    );
    let staff = setter
        .get("/problems/coin-game")
        .await
        .text()
        .await
        .expect("page");
    assert!(
        staff.contains(r#"href="/problems/coin-game/grundy""#),
        "{staff}"
    );

    // Ended: open again.
    put(200).await;
    for path in ["/problems/coin-game/grundy", "/problems/nim-play/play"] {
        assert_eq!(carol.get(path).await.status(), StatusCode::OK, "{path}");
    }
    let coin = carol
        .get("/problems/coin-game")
        .await
        .text()
        .await
        .expect("page");
    assert!(
        coin.contains(r#"href="/problems/coin-game/grundy""#),
        "{coin}"
    );
    app.stop().await;
}

#[tokio::test]
async fn a_question_asked_on_the_contest_page_is_answered_there_for_everyone() {
    let dir = TestDir::new();
    let app = TestApp::spawn(&dir, 0).await;
    put_contest(&app, "autumn", 5, None).await;
    let carol = WebClient::sign_in(&app, &app.contestant).await;
    let dave = WebClient::sign_in(&app, &app.other).await;
    // Not registered: no form, and a sent one is refused.
    let page = carol
        .get("/contests/autumn")
        .await
        .text()
        .await
        .expect("page");
    assert!(!page.contains(r#"id="ask-form""#), "{page}");
    let refused = carol
        .post_form(
            "/contests/autumn/clarifications",
            &[("csrf", &carol.csrf), ("problem", "nim"), ("text", "Hi?")],
        )
        .await;
    assert_eq!(refused.status(), StatusCode::FORBIDDEN);
    for web in [&carol, &dave] {
        web.post_form("/contests/autumn/register", &[("csrf", &web.csrf)])
            .await;
    }
    let asked = carol
        .post_form(
            "/contests/autumn/clarifications",
            &[
                ("csrf", &carol.csrf),
                ("problem", "nim"),
                ("text", "Is <N> at least 1?"),
            ],
        )
        .await;
    assert_eq!(asked.status(), StatusCode::SEE_OTHER);
    let page = carol
        .get("/contests/autumn")
        .await
        .text()
        .await
        .expect("page");
    assert!(page.contains("Is &lt;N&gt; at least 1?"), "escaped: {page}");
    assert!(page.contains("Not answered yet."), "{page}");
    let page = dave
        .get("/contests/autumn")
        .await
        .text()
        .await
        .expect("page");
    assert!(page.contains(r#"id="no-clarifications""#), "{page}");

    let admin = WebClient::sign_in(&app, &app.admin).await;
    let page = admin
        .get("/contests/autumn")
        .await
        .text()
        .await
        .expect("page");
    let action = page
        .split(r#"<form class="answer-form" method="post" action=""#)
        .nth(1)
        .and_then(|rest| rest.split('"').next())
        .expect("an answer form")
        .to_string();
    let answered = admin
        .post_form(
            &action,
            &[("csrf", &admin.csrf), ("answer", "Yes."), ("to_all", "on")],
        )
        .await;
    assert_eq!(answered.status(), StatusCode::SEE_OTHER);
    let page = dave
        .get("/contests/autumn")
        .await
        .text()
        .await
        .expect("page");
    assert!(page.contains("Is &lt;N&gt; at least 1?"), "{page}");
    assert!(page.contains(r#"<p class="answer">Yes.</p>"#), "{page}");
    app.stop().await;
}

#[tokio::test]
async fn an_ioi_contest_page_shows_scores_and_a_submission_its_groups() {
    let dir = TestDir::with_policy(nimjudge::testing::FixturePolicy {
        groups: Some(
            "[[group]]\nname = \"samples\"\npoints = 0\ntestcases = [\"sample-*\"]\n\
             [[group]]\nname = \"smalls\"\npoints = 80\ntestcases = [\"small-*\"]\nrule = \"fraction\"\n",
        ),
        ..Default::default()
    });
    let app = TestApp::spawn(&dir, 1).await;
    let start = Timestamp::now().as_millisecond() - 60_000;
    let (status, body) = app
        .request(
            Method::PUT,
            "/api/contests/olympiad",
            Some(&app.admin),
            Some(json!({
                "title": "Olympiad",
                "starts_at": Timestamp::from_millisecond(start).expect("a time").to_string(),
                "duration_seconds": 7200,
                "scoring": "ioi",
                "problems": [{ "label": "A", "problem": "nim" }],
            })),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{body}");
    // Right on one of the two small testcases: half of 80.
    let mut answers = correct_answers();
    answers.insert("small-2".into(), "Nobody\n".into());
    let (status, body) = app
        .post(
            "/api/submissions",
            &app.contestant,
            json!({ "problem": "nim", "contest": "olympiad", "answers": answers }),
        )
        .await;
    assert_eq!(status, StatusCode::ACCEPTED, "{body}");
    let id = body["id"].as_str().expect("an id").to_string();
    app.drain().await;

    let web = WebClient::sign_in(&app, &app.contestant).await;
    let page = web
        .get("/contests/olympiad")
        .await
        .text()
        .await
        .expect("page");
    assert!(page.contains("<th>Score</th>"), "{page}");
    assert!(!page.contains("<th>Penalty</th>"), "{page}");
    assert!(
        page.contains(r#"<td class="cell tried" data-label="A">40</td>"#),
        "{page}"
    );
    let submission = web
        .get(&format!("/submissions/{id}"))
        .await
        .text()
        .await
        .expect("page");
    assert!(
        submission.contains(r#"<dd id="score">40 (groups 0, 40)</dd>"#),
        "{submission}"
    );
    let live: Value = web
        .get(&format!("/submissions/{id}/live"))
        .await
        .json()
        .await
        .expect("the live document");
    assert_eq!(live["score_text"], "40 (groups 0, 40)");
    let problem = web
        .get("/problems/nim?contest=olympiad")
        .await
        .text()
        .await
        .expect("page");
    assert!(problem.contains(r#"id="groups""#), "{problem}");
    assert!(problem.contains("<td>smalls</td>"), "{problem}");
    assert!(problem.contains("by share"), "{problem}");
    app.stop().await;
}

#[tokio::test]
async fn an_admin_creates_and_edits_a_contest_from_its_settings_form() {
    let dir = TestDir::new();
    let app = TestApp::spawn(&dir, 0).await;
    let admin = WebClient::sign_in(&app, &app.admin).await;
    let list = admin.get("/contests").await.text().await.expect("page");
    assert!(list.contains(r#"id="new-contest""#), "{list}");
    let form = admin.get("/contests/new").await.text().await.expect("page");
    assert!(form.contains(r#"id="settings-text""#), "{form}");

    let settings = "title = \"Form Cup\"\nstarts_at = \"2030-01-16T09:00:00Z\"\n\
                    duration_seconds = 3600\n\n[[problems]]\nlabel = \"A\"\nproblem = \"nim\"\n";
    let created = admin
        .post_form(
            "/contests",
            &[
                ("csrf", &admin.csrf),
                ("id", "form-cup"),
                ("settings", settings),
            ],
        )
        .await;
    assert_eq!(created.status(), StatusCode::SEE_OTHER);
    let (status, view) = app.get("/api/contests/form-cup", &app.admin).await;
    assert_eq!(status, StatusCode::OK, "{view}");
    assert_eq!(view["contest"]["settings"]["title"], "Form Cup");

    // The edit form holds the settings as TOML, which saves back as it is.
    let edit = admin
        .get("/contests/form-cup/edit")
        .await
        .text()
        .await
        .expect("page");
    let start = edit.find("name=\"settings\"").expect("the text area");
    let text = &edit[start..];
    let text =
        &text[text.find('>').expect("its tag") + 1..text.find("</textarea>").expect("its end")];
    let text = text.replace("&quot;", "\"").replace("&amp;", "&");
    assert!(text.contains("title = \"Form Cup\""), "{text}");
    let changed = text.replace("Form Cup", "Form Cup II");
    let saved = admin
        .post_form(
            "/contests/form-cup/edit",
            &[("csrf", &admin.csrf), ("settings", &changed)],
        )
        .await;
    assert_eq!(saved.status(), StatusCode::SEE_OTHER);
    let (_, view) = app.get("/api/contests/form-cup", &app.admin).await;
    assert_eq!(view["contest"]["settings"]["title"], "Form Cup II");
    assert_eq!(view["contest"]["settings"]["duration_seconds"], 3600);

    // A refused setting is named, and the text sent is kept.
    let bad = changed.replace("duration_seconds = 3600", "duration_seconds = 0");
    let refused = admin
        .post_form(
            "/contests/form-cup/edit",
            &[("csrf", &admin.csrf), ("settings", &bad)],
        )
        .await;
    assert_eq!(refused.status(), StatusCode::UNPROCESSABLE_ENTITY);
    let page = refused.text().await.expect("page");
    assert!(
        page.contains("`duration_seconds` must be 1 to 2592000 (30 days), not 0"),
        "{page}"
    );
    assert!(page.contains("duration_seconds = 0"), "{page}");
    let broken = admin
        .post_form(
            "/contests",
            &[
                ("csrf", &admin.csrf),
                ("id", "other"),
                ("settings", "title = "),
            ],
        )
        .await;
    assert_eq!(broken.status(), StatusCode::UNPROCESSABLE_ENTITY);
    let page = broken.text().await.expect("page");
    assert!(
        page.contains("the settings: TOML parse error at line 1"),
        "{page}"
    );
    let taken = admin
        .post_form(
            "/contests",
            &[
                ("csrf", &admin.csrf),
                ("id", "form-cup"),
                ("settings", settings),
            ],
        )
        .await;
    assert_eq!(taken.status(), StatusCode::UNPROCESSABLE_ENTITY);

    // Nobody else edits, and no form goes without its CSRF token.
    let contestant = WebClient::sign_in(&app, &app.contestant).await;
    assert_eq!(
        contestant.get("/contests/new").await.status(),
        StatusCode::FORBIDDEN
    );
    let sneaky = contestant
        .post_form(
            "/contests/form-cup/edit",
            &[("csrf", &contestant.csrf), ("settings", settings)],
        )
        .await;
    assert_eq!(sneaky.status(), StatusCode::FORBIDDEN);
    let forged = admin
        .post_form("/contests/form-cup/edit", &[("settings", settings)])
        .await;
    assert_eq!(forged.status(), StatusCode::FORBIDDEN);
    let (_, view) = app.get("/api/contests/form-cup", &app.admin).await;
    assert_eq!(view["contest"]["settings"]["title"], "Form Cup II");
    app.stop().await;
}

#[tokio::test]
#[ignore = "needs Chromium and chromedriver; scripts/test.sh runs it"]
async fn an_admin_reveals_the_frozen_results_one_by_one_until_the_whole_board() {
    with_browser(|client| async move {
        let dir = TestDir::new();
        dir.add_bundled_problem("coin-game");
        let app = TestApp::spawn(&dir, 1).await;
        // Began a second ago, lasts 4 s, frozen for its last 3.
        let start = Timestamp::now().as_millisecond() - 1_000;
        let (status, body) = app
            .request(
                Method::PUT,
                "/api/contests/final",
                Some(&app.admin),
                Some(json!({
                    "title": "Final",
                    "starts_at": Timestamp::from_millisecond(start).expect("a time").to_string(),
                    "duration_seconds": 4,
                    "freeze_seconds": 3,
                    "problems": [
                        { "label": "A", "problem": "nim" },
                        { "label": "B", "problem": "coin-game" },
                    ],
                })),
            )
            .await;
        assert_eq!(status, StatusCode::CREATED, "{body}");
        // In the freeze: carol solves A, dave tries A and fails.
        let mut wrong = correct_answers();
        for answer in wrong.values_mut() {
            *answer = "Nobody\n".into();
        }
        for (token, answers) in [(&app.contestant, correct_answers()), (&app.other, wrong)] {
            let (status, body) = app
                .post(
                    "/api/submissions",
                    token,
                    json!({ "problem": "nim", "contest": "final", "answers": answers }),
                )
                .await;
            assert_eq!(status, StatusCode::ACCEPTED, "{body}");
        }
        app.drain().await;
        // Not before the end, and for admins only.
        let admin = WebClient::sign_in(&app, &app.admin).await;
        assert_eq!(
            admin.get("/contests/final/reveal").await.status(),
            StatusCode::CONFLICT
        );
        tokio::time::sleep(Duration::from_millis(
            (start + 4_100 - Timestamp::now().as_millisecond()).max(0) as u64,
        ))
        .await;
        let contestant = WebClient::sign_in(&app, &app.contestant).await;
        assert_eq!(
            contestant.get("/contests/final/reveal").await.status(),
            StatusCode::FORBIDDEN
        );
        let (_, whole) = app.get("/api/contests/final/scoreboard", &app.admin).await;
        let users = |board: &Value| -> Vec<String> {
            board["rows"]
                .as_array()
                .expect("rows")
                .iter()
                .map(|row| row["user"].as_str().expect("a user").to_string())
                .collect()
        };
        assert_eq!(users(&whole), ["carol", "dave"]);

        sign_in(&client, &app.address, &app.admin).await;
        client
            .goto(&format!("{}/contests/final/reveal", app.address))
            .await
            .expect("open the reveal page");
        let left = |text: &str| text.to_string();
        assert_eq!(text_of(&client, "#reveal-left").await, left("2 results to reveal"));
        // Frozen: both pending on A, ranked by name.
        let order = r#"return [...document.querySelectorAll('#reveal-board tbody tr')].map(r => r.dataset.user + ' ' + r.children[2].textContent + ' ' + r.children[4].textContent);"#;
        let rows: Value = client.execute(order, vec![]).await.expect("the rows");
        assert_eq!(rows, json!(["carol 0 ?1", "dave 0 ?1"]));
        // The lowest row first: dave's rejected try, then carol's AC.
        client
            .find(Locator::Id("reveal-next"))
            .await
            .expect("the button")
            .click()
            .await
            .expect("click");
        let rows: Value = client.execute(order, vec![]).await.expect("the rows");
        assert_eq!(rows, json!(["carol 0 ?1", "dave 0 -1"]));
        assert_eq!(text_of(&client, "#reveal-left").await, "1 result to reveal");
        let highlighted: Value = client
            .execute(
                "return document.querySelector('#reveal-board td.revealed').parentElement.dataset.user;",
                vec![],
            )
            .await
            .expect("the revealed cell");
        assert_eq!(highlighted, "dave");
        client
            .find(Locator::Id("reveal-next"))
            .await
            .expect("the button")
            .click()
            .await
            .expect("click");
        let rows: Value = client.execute(order, vec![]).await.expect("the rows");
        assert_eq!(rows, json!(["carol 1 + 0", "dave 0 -1"]));
        assert!(
            text_of(&client, "#reveal-left")
                .await
                .starts_with("Every result is revealed"),
        );
        let disabled: Value = client
            .execute("return document.getElementById('reveal-next').disabled;", vec![])
            .await
            .expect("the button's state");
        assert_eq!(disabled, json!(true));
        screenshot(&client, "contest-reveal").await;
        // The reveal page and the settings form fit a phone.
        client
            .set_window_size(390, 844)
            .await
            .expect("a phone's width");
        for (name, path) in [
            ("reveal", "/contests/final/reveal"),
            ("contest-settings", "/contests/final/edit"),
        ] {
            client
                .goto(&format!("{}{path}", app.address))
                .await
                .expect("open the page");
            let widths = client
                .execute(
                    "return [document.documentElement.scrollWidth, window.innerWidth];",
                    vec![],
                )
                .await
                .expect("the page's widths");
            assert!(
                widths[0].as_i64() <= widths[1].as_i64(),
                "{path}: {widths:?}"
            );
            screenshot(&client, &format!("phone-{name}")).await;
        }
        app.stop().await;
    })
    .await;
}

#[tokio::test]
async fn a_long_scoreboard_is_shown_in_pages_of_rows() {
    let dir = TestDir::new();
    let app = TestApp::spawn(&dir, 0).await;
    put_contest(&app, "crowded", 5, None).await;
    for index in 0..201 {
        let (status, body) = app
            .post(
                "/api/contests/crowded/registrations",
                &app.admin,
                json!({ "user": format!("team-{index:03}") }),
            )
            .await;
        assert_eq!(status, StatusCode::CREATED, "{body}");
    }
    let web = WebClient::sign_in(&app, &app.contestant).await;
    let rows = |page: &str| page.matches("<tr data-user=").count();
    let first = web
        .get("/contests/crowded")
        .await
        .text()
        .await
        .expect("page");
    assert_eq!(rows(&first), 200);
    assert!(first.contains("Rows 1 to 200 of 201."), "{first}");
    assert!(first.contains(r#"href="?page=2""#), "{first}");
    assert!(!first.contains("previous-rows"), "{first}");
    let second = web
        .get("/contests/crowded?page=2")
        .await
        .text()
        .await
        .expect("page");
    assert_eq!(rows(&second), 1);
    assert!(second.contains(r#"<tr data-user="team-200">"#), "{second}");
    assert!(second.contains(r#"href="?page=1""#), "{second}");
    let beyond = web
        .get(&format!("/contests/crowded?page={}", usize::MAX))
        .await;
    assert_eq!(beyond.status(), StatusCode::OK);
    assert!(
        beyond
            .text()
            .await
            .expect("page")
            .contains("No rows on this page.")
    );
    assert_eq!(
        web.get("/contests/crowded?page=two").await.status(),
        StatusCode::BAD_REQUEST
    );
    app.stop().await;
}

#[tokio::test]
async fn a_participant_downloads_their_own_input_and_answers_it_from_the_contest_page() {
    let dir = TestDir::new();
    let app = TestApp::spawn(&dir, 1).await;
    let start = Timestamp::now().as_millisecond() - 60_000;
    let (status, body) = app
        .request(
            Method::PUT,
            "/api/contests/own",
            Some(&app.admin),
            Some(json!({
                "title": "Own inputs",
                "starts_at": Timestamp::from_millisecond(start).expect("a time").to_string(),
                "duration_seconds": 3600,
                "problems": [{ "label": "A", "problem": "nim", "personal_input": "small" }],
            })),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{body}");
    let web = WebClient::sign_in(&app, &app.contestant).await;
    // Reading the input registers no one: the page asks to register first,
    // and the link refuses (409) until they have.
    let page = web.get("/contests/own").await.text().await.expect("page");
    assert!(
        !page.contains(r#"href="/contests/own/problems/A/input""#)
            && page.contains("your own input once you register"),
        "{page}"
    );
    let refused = web.get("/contests/own/problems/A/input").await;
    assert_eq!(refused.status(), StatusCode::CONFLICT);
    let (_, participants) = app.get("/api/contests/own/export", &app.admin).await;
    assert_eq!(participants["participants"], json!([]), "{participants}");
    let registered = web
        .post_form("/contests/own/register", &[("csrf", &web.csrf)])
        .await;
    assert!(registered.status().is_redirection());
    let page = web.get("/contests/own").await.text().await.expect("page");
    assert!(
        page.contains(r#"href="/contests/own/problems/A/input""#),
        "{page}"
    );
    let response = web.get("/contests/own/problems/A/input").await;
    assert_eq!(response.status(), StatusCode::OK);
    assert_eq!(
        response.headers()[header::CONTENT_DISPOSITION],
        "attachment; filename=\"own-A.in\""
    );
    let input = response.text().await.expect("the input");
    let answer = nimjudge::solver::find("nim")
        .expect("nim")
        .solve(&input)
        .expect("an answer");
    let sent = web
        .post_form(
            "/contests/own/problems/A/answer",
            &[("csrf", &web.csrf), ("answer", &answer)],
        )
        .await;
    assert_eq!(sent.status(), StatusCode::SEE_OTHER);
    let location = sent.headers()[header::LOCATION]
        .to_str()
        .expect("a location")
        .to_string();
    assert!(location.starts_with("/submissions/"), "{location}");
    app.drain().await;
    let (_, judged) = app.get(&format!("/api{location}"), &app.contestant).await;
    assert_eq!(judged["submission"]["verdict"], "AC", "{judged}");
    assert_eq!(judged["submission"]["contest"], "own");
    app.stop().await;
}
