//! Browser tests: the pages in real Chromium.

use std::time::Duration;

use fantoccini::Locator;
use serde_json::json;

use crate::{
    browser::{
        click_and_wait_for_page, current_path, screenshot, sign_in, text_of, wait_for_text,
        with_browser,
    },
    helpers::{NIM_TESTCASES, TestApp, TestDir, correct_answers},
    plotted::add_xy_game,
};

#[tokio::test]
#[ignore = "needs Chromium and chromedriver; scripts/test.sh runs it"]
async fn a_contestant_submits_answers_and_watches_the_verdict_become_ac_without_a_reload() {
    with_browser(|client| async move {
        let dir = TestDir::new();
        // No workers: the test judges by hand, so the page surely shows the
        // submission waiting before the verdict arrives.
        let app = TestApp::spawn(&dir, 0).await;

        client
            .goto(&format!("{}/", app.address))
            .await
            .expect("open /");
        assert_eq!(
            current_path(&client).await,
            "/sign-in",
            "signed-out visitors are sent to sign in"
        );
        screenshot(&client, "sign-in").await;
        sign_in(&client, &app.address, &app.contestant).await;

        let row = text_of(&client, "#problems tbody tr").await;
        assert!(
            row.contains("Nim") && row.contains("2 s") && row.contains("512 MiB"),
            "{row}"
        );
        assert!(!row.contains("solved") && !row.contains("tried"), "{row}");
        screenshot(&client, "problems").await;

        click_and_wait_for_page(&client, Locator::LinkText("Nim"), |path| {
            path == "/problems/nim"
        })
        .await;
        assert_eq!(text_of(&client, "#statement h1").await, "Nim");
        assert_eq!(
            text_of(&client, "#samples pre").await,
            NIM_TESTCASES[0].2.trim_end()
        );
        // Each sample block has a Copy button (served over localhost, so
        // the browser offers a clipboard).
        let copies = client
            .find_all(Locator::Css("#samples button.copy"))
            .await
            .expect("copy buttons");
        assert_eq!(copies.len(), NIM_TESTCASES.len());
        screenshot(&client, "problem").await;

        // One answer file per public testcase, all chosen at once in the
        // one picker, each named after its testcase.
        let answers = tempfile::tempdir().expect("a folder for answer files");
        let mut paths = Vec::new();
        for (name, output) in correct_answers() {
            let path = answers.path().join(format!("{name}.out"));
            std::fs::write(&path, output).expect("write an answer file");
            paths.push(path.display().to_string());
        }
        client
            .find(Locator::Id("answer-files"))
            .await
            .expect("the answer files' input")
            .send_keys(&paths.join("\n"))
            .await
            .expect("choose the files");
        let path = click_and_wait_for_page(&client, Locator::Id("submit-answers-button"), |path| {
            path.starts_with("/submissions/")
        })
        .await;
        assert_eq!(text_of(&client, "#verdict").await, "queued");
        screenshot(&client, "submission-queued").await;

        // A mark a reload would wipe out.
        client
            .execute("window.notReloaded = true; return null;", vec![])
            .await
            .expect("mark the page");
        let outcome = app.judge.run_one_job("test-worker").await.expect("judge");
        assert!(outcome.is_some(), "the submission was queued");
        let seen = wait_for_text(&client, "#verdict", "AC", Duration::from_secs(10)).await;
        // Waiting states first (the page may catch the worker's `judging`),
        // then the verdict.
        let (verdict, waiting) = seen.split_last().expect("something was seen");
        assert_eq!(verdict, "AC");
        assert!(
            waiting
                .iter()
                .all(|text| text == "queued" || text == "judging"),
            "{seen:?}"
        );
        let mark = client
            .execute("return window.notReloaded === true;", vec![])
            .await
            .expect("read the mark");
        assert_eq!(mark, json!(true), "the verdict arrived without a reload");
        // The event log grew in the same update, each event once.
        let mut kinds = Vec::new();
        for kind in client
            .find_all(Locator::Css("#events li strong"))
            .await
            .expect("the event log")
        {
            kinds.push(kind.text().await.expect("an event's kind"));
        }
        assert_eq!(kinds, ["queued", "claimed", "judged"]);
        let log = text_of(&client, "#events").await;
        assert!(log.contains("claimed by test-worker"), "{log}");
        assert_eq!(current_path(&client).await, path);
        let rows = client
            .find_all(Locator::Css("#results tbody tr"))
            .await
            .expect("result rows");
        assert_eq!(rows.len(), NIM_TESTCASES.len());
        for row in rows {
            let text = row.text().await.expect("row text");
            assert!(text.contains("AC"), "{text}");
        }
        assert_eq!(text_of(&client, "#state").await, "done");
        screenshot(&client, "submission").await;

        client
            .goto(&format!("{}/problems", app.address))
            .await
            .expect("open the problems");
        assert_eq!(
            text_of(&client, "#problems tbody tr .status").await,
            "solved"
        );
        client
            .goto(&format!("{}/submissions", app.address))
            .await
            .expect("open my submissions");
        let listed = text_of(&client, "#submissions tbody").await;
        // The problem by its title.
        assert!(listed.contains("Nim") && listed.contains("AC"), "{listed}");
        screenshot(&client, "submissions").await;
        app.stop().await;
    })
    .await;
}

#[tokio::test]
#[ignore = "needs Chromium and chromedriver; scripts/test.sh runs it"]
async fn a_contestant_gets_404_for_another_contestants_submission_and_a_hidden_input() {
    with_browser(|client| async move {
        let dir = TestDir::new();
        let app = TestApp::spawn(&dir, 0).await;
        let theirs = app.submit_answers(&app.other, &correct_answers()).await;
        let (status, body) = app
            .post(
                "/api/problems/nim/testcases",
                &app.setter,
                json!({"name": "secret-1", "input": "2\n1 1\n", "hidden": true}),
            )
            .await;
        assert_eq!(status, reqwest::StatusCode::CREATED, "{body}");

        sign_in(&client, &app.address, &app.contestant).await;
        let missing = uuid::Uuid::new_v4();
        for path in [
            format!("/submissions/{theirs}"),
            format!("/submissions/{missing}"),
            format!("/submissions/{theirs}/live"),
            "/problems/nim/testcases/secret-1/input".to_string(),
            "/problems/nim/testcases/no-such/input".to_string(),
        ] {
            client
                .goto(&format!("{}{path}", app.address))
                .await
                .expect("open the page");
            assert_eq!(text_of(&client, "h1").await, "404 Not Found", "{path}");
            let source = client.source().await.expect("page source");
            assert!(
                !source.contains("dave"),
                "nothing of the other contestant: {path}"
            );
        }
        screenshot(&client, "not-found").await;
        // The hidden testcase is not offered on the problem page either.
        client
            .goto(&format!("{}/problems/nim", app.address))
            .await
            .expect("open the problem");
        let source = client.source().await.expect("page source");
        assert!(
            !source.contains("secret-1"),
            "the hidden testcase is not listed"
        );
        app.stop().await;
    })
    .await;
}

#[tokio::test]
#[ignore = "needs Chromium and chromedriver; scripts/test.sh runs it"]
async fn signing_out_ends_the_session() {
    with_browser(|client| async move {
        let dir = TestDir::new();
        let app = TestApp::spawn(&dir, 0).await;
        sign_in(&client, &app.address, &app.setter).await;
        let menu = text_of(&client, "header nav").await;
        assert!(
            menu.contains("All submissions"),
            "setters see everyone's submissions: {menu}"
        );
        click_and_wait_for_page(&client, Locator::Id("sign-out"), |path| path == "/sign-in").await;
        for page in ["/problems", "/problems/nim", "/submissions"] {
            client
                .goto(&format!("{}{page}", app.address))
                .await
                .expect("open a page");
            assert_eq!(
                current_path(&client).await,
                "/sign-in",
                "{page} after sign-out"
            );
        }
        app.stop().await;
    })
    .await;
}

#[tokio::test]
#[ignore = "needs Chromium and chromedriver; scripts/test.sh runs it"]
async fn the_grundy_plot_renders_as_an_svg_and_its_form_redraws_it() {
    with_browser(|client| async move {
        let dir = TestDir::new();
        add_xy_game(&dir);
        let app = TestApp::spawn(&dir, 0).await;
        sign_in(&client, &app.address, &app.setter).await;
        client
            .goto(&format!("{}/problems/xy-game", app.address))
            .await
            .expect("open the problem");
        click_and_wait_for_page(&client, Locator::LinkText("Grundy plot"), |path| {
            path == "/problems/xy-game/grundy"
        })
        .await;
        let bars = client
            .find_all(Locator::Css("svg#grundy-plot rect.bar"))
            .await
            .expect("the bars");
        assert_eq!(bars.len(), 120, "one bar per size by default");
        assert_eq!(text_of(&client, "#x-label").await, "n");
        assert_eq!(text_of(&client, "#y-label").await, "g(n)");
        // The stylesheet reached the SVG through its classes (the CSP
        // allows no inline style): bars are drawn in the accent colour and
        // P-positions in red.
        let fill = client
            .find(Locator::Css("rect.bar:not(.bar-zero)"))
            .await
            .expect("a non-zero bar")
            .css_value("fill")
            .await
            .expect("its fill");
        assert_eq!(fill, "rgb(47, 91, 211)");
        let zero_fill = client
            .find(Locator::Css("rect.bar-zero"))
            .await
            .expect("a P-position")
            .css_value("fill")
            .await
            .expect("its fill");
        assert_eq!(zero_fill, "rgb(198, 40, 40)");
        let size_labels = client
            .find_all(Locator::Css("text.size-tick"))
            .await
            .expect("the size labels");
        assert!(size_labels.len() >= 5, "{} size labels", size_labels.len());
        screenshot(&client, "grundy-plot").await;

        // Redraw with other parameters through the form.
        for (field, value) in [("x", "4"), ("y", "9"), ("count", "60")] {
            let input = client.find(Locator::Id(field)).await.expect("a form field");
            input.clear().await.expect("clear the field");
            input.send_keys(value).await.expect("type");
        }
        click_and_wait_for_page(&client, Locator::Id("plot-button"), |path| {
            path == "/problems/xy-game/grundy"
        })
        .await;
        let deadline = std::time::Instant::now() + Duration::from_secs(10);
        loop {
            let caption = text_of(&client, "#grundy-caption").await;
            if caption.starts_with("g(n) for n = 0 … 59") {
                break;
            }
            assert!(std::time::Instant::now() < deadline, "{caption}");
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        let bars = client
            .find_all(Locator::Css("svg#grundy-plot rect.bar"))
            .await
            .expect("the bars");
        assert_eq!(bars.len(), 60);
        let url = client.current_url().await.expect("the url");
        assert_eq!(url.query(), Some("x=4&y=9&from=0&count=60"));

        // A bad value: the message on the page, no plot.
        client
            .goto(&format!("{}/problems/xy-game/grundy?x=9&y=4", app.address))
            .await
            .expect("open a bad plot");
        assert_eq!(
            text_of(&client, "#plot-error").await,
            "X = 9 and Y = 4 violate the constraint X < Y"
        );
        assert!(
            client
                .find_all(Locator::Css("svg#grundy-plot"))
                .await
                .expect("a query")
                .is_empty()
        );
        screenshot(&client, "grundy-plot-error").await;
        app.stop().await;
    })
    .await;
}

#[tokio::test]
#[ignore = "needs Chromium and chromedriver; scripts/test.sh runs it"]
async fn a_setter_adds_an_invalid_testcase_sees_the_validators_message_then_adds_a_valid_one() {
    with_browser(|client| async move {
        let dir = TestDir::new();
        let app = TestApp::spawn(&dir, 0).await;
        sign_in(&client, &app.address, &app.setter).await;
        client
            .goto(&format!("{}/problems/nim", app.address))
            .await
            .expect("open the problem");
        click_and_wait_for_page(&client, Locator::LinkText("Manage testcases"), |path| {
            path == "/problems/nim/testcases"
        })
        .await;
        let rows = client
            .find_all(Locator::Css("#testcase-list tbody tr"))
            .await
            .expect("the rows");
        assert_eq!(rows.len(), 3);

        // N = 2 but one pile: the validator says what is wrong.
        let fill = |name: &'static str, input: &'static str| {
            let client = client.clone();
            async move {
                let field = client
                    .find(Locator::Id("testcase-name"))
                    .await
                    .expect("the name field");
                field.clear().await.expect("clear");
                field.send_keys(name).await.expect("type the name");
                let area = client
                    .find(Locator::Id("testcase-input"))
                    .await
                    .expect("the input box");
                area.clear().await.expect("clear");
                area.send_keys(input).await.expect("type the input");
            }
        };
        fill("extra-1", "2\n4\n").await;
        client
            .find(Locator::Id("testcase-hidden"))
            .await
            .expect("the hidden box")
            .click()
            .await
            .expect("tick it");
        click_and_wait_for_page(&client, Locator::Id("add-testcase-button"), |path| {
            path == "/problems/nim/testcases"
        })
        .await;
        let message = text_of(&client, "#testcase-error").await;
        assert!(
            message.starts_with("invalid input: line 2"),
            "the validator's message: {message}"
        );
        let kept = client
            .find(Locator::Id("testcase-input"))
            .await
            .expect("the input box")
            .prop("value")
            .await
            .expect("its value");
        assert_eq!(kept.as_deref(), Some("2\n4\n"), "the form keeps the input");
        screenshot(&client, "testcases-invalid").await;

        fill("extra-1", "2\n4 5\n").await;
        click_and_wait_for_page(&client, Locator::Id("add-testcase-button"), |path| {
            path == "/problems/nim/testcases"
        })
        .await;
        let notice = text_of(&client, "#testcase-notice").await;
        assert!(notice.starts_with("Added testcase extra-1;"), "{notice}");
        let row = text_of(&client, r#"#testcase-list tr[data-name="extra-1"]"#).await;
        assert!(
            // A browser sends a textarea's line breaks as CRLF; the form
            // stores them as LF: "2\n4 5\n" is 6 bytes.
            row.contains("setter by sam-setter") && row.contains("hidden") && row.contains("6 B"),
            "{row}"
        );
        screenshot(&client, "testcases").await;

        // Shown to contestants, then hidden again, from its row.
        click_and_wait_for_page(&client, Locator::Id("show-extra-1"), |path| {
            path == "/problems/nim/testcases"
        })
        .await;
        let notice = text_of(&client, "#testcase-notice").await;
        assert!(notice.starts_with("Testcase extra-1 is public"), "{notice}");
        let row = text_of(&client, r#"#testcase-list tr[data-name="extra-1"]"#).await;
        assert!(row.contains("public") && row.contains("Hide"), "{row}");
        click_and_wait_for_page(&client, Locator::Id("hide-extra-1"), |path| {
            path == "/problems/nim/testcases"
        })
        .await;
        let row = text_of(&client, r#"#testcase-list tr[data-name="extra-1"]"#).await;
        assert!(row.contains("hidden") && row.contains("Show"), "{row}");
        app.stop().await;
    })
    .await;
}

#[tokio::test]
#[ignore = "needs Chromium and chromedriver; scripts/test.sh runs it"]
async fn a_setter_rejudges_a_problem_and_the_progress_bar_follows_it_to_the_end() {
    with_browser(|client| async move {
        let dir = TestDir::new();
        let app = TestApp::spawn(&dir, 1).await;
        let first = app
            .submit_answers(&app.contestant, &correct_answers())
            .await;
        let second = app.submit_answers(&app.other, &correct_answers()).await;
        app.verdict(&first, &app.admin).await;
        app.verdict(&second, &app.admin).await;
        sign_in(&client, &app.address, &app.setter).await;
        client
            .goto(&format!("{}/problems/nim/testcases", app.address))
            .await
            .expect("open the testcase page");
        // The page asks first; nothing is queued until the setter agrees.
        client
            .find(Locator::Id("rejudge-problem-button"))
            .await
            .expect("the rejudge button")
            .click()
            .await
            .expect("click");
        let question = client.get_alert_text().await.expect("a confirmation");
        assert!(
            question.starts_with("Rejudge every judged submission of Nim?"),
            "{question}"
        );
        client.accept_alert().await.expect("agree");
        wait_for_text(
            &client,
            "#testcase-notice",
            "Queued 2 submissions of this problem for rejudging.",
            Duration::from_secs(10),
        )
        .await;
        let notice = text_of(&client, "#testcase-notice").await;
        assert_eq!(
            notice,
            "Queued 2 submissions of this problem for rejudging."
        );
        // The worker judges both; the bar's script follows without a reload.
        let seen = wait_for_text(
            &client,
            "#rejudge-status",
            "Rejudge finished: every submission of this problem is judged.",
            Duration::from_secs(30),
        )
        .await;
        let bar = client
            .find(Locator::Id("rejudge-bar"))
            .await
            .expect("the bar");
        // The element's value property reflects into its attribute.
        let value = bar.attr("value").await.expect("its value");
        let max = bar.attr("max").await.expect("its max");
        assert_eq!(
            (value.as_deref(), max.as_deref()),
            (Some("2"), Some("2")),
            "{seen:?}"
        );
        screenshot(&client, "testcases-rejudged").await;
        for id in [&first, &second] {
            let verdict = app.verdict(id, &app.admin).await;
            assert_eq!(verdict["submission"]["verdict"], "AC", "{verdict}");
        }
        app.stop().await;
    })
    .await;
}

#[tokio::test]
#[ignore = "needs Chromium and chromedriver; scripts/test.sh runs it"]
async fn on_a_phone_no_page_is_wider_than_the_screen() {
    with_browser(|client| async move {
        let dir = TestDir::new();
        dir.add_bundled_problem("nim-play");
        let app = TestApp::spawn(&dir, 1).await;
        let id = app
            .submit_answers(&app.contestant, &correct_answers())
            .await;
        app.verdict(&id, &app.admin).await;
        sign_in(&client, &app.address, &app.admin).await;
        client
            .set_window_size(390, 844)
            .await
            .expect("a phone's width");
        for (name, path) in [
            ("problems", "/problems".to_string()),
            ("problem", "/problems/nim".to_string()),
            ("submissions", "/submissions?everyone=true".to_string()),
            ("submission", format!("/submissions/{id}")),
            ("log", "/log".to_string()),
            ("tokens", "/tokens".to_string()),
            ("testcases", "/problems/nim/testcases".to_string()),
            ("api-docs", "/api-docs".to_string()),
            ("practice", "/problems/nim-play/play?seed=1".to_string()),
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
            let (page, screen) = (
                widths[0].as_i64().expect("a width"),
                widths[1].as_i64().expect("a width"),
            );
            assert!(
                page <= screen,
                "{path}: the page is {page} px wide on a {screen} px screen"
            );
            if name == "log" {
                // The verdict filter is a form field like the others, not
                // the submission page's big verdict.
                let sizes = client
                    .execute(
                        "return [getComputedStyle(document.querySelector('select#verdict')).fontSize, \
                                 getComputedStyle(document.querySelector('input#user')).fontSize];",
                        vec![],
                    )
                    .await
                    .expect("the fields' font sizes");
                assert_eq!(sizes[0], sizes[1], "{sizes:?}");
            }
            screenshot(&client, &format!("phone-{name}")).await;
        }
        app.stop().await;
    })
    .await;
}

/// Maths between dollars in a statement is drawn by Chromium as MathML:
/// the formula takes room on the page and its exponent sits above the line.
#[tokio::test]
#[ignore = "needs Chromium and chromedriver; scripts/test.sh runs it"]
async fn a_statements_maths_is_drawn_as_mathml() {
    with_browser(|client| async move {
        let dir = TestDir::new();
        std::fs::write(
            dir.path().join("problems/nim/statement.md"),
            "# Nim\n\n## Constraints\n\n- $1 \\le N \\le 2 \\cdot 10^5$\n",
        )
        .expect("write the statement");
        let app = TestApp::spawn(&dir, 0).await;
        sign_in(&client, &app.address, &app.contestant).await;
        client
            .goto(&format!("{}/problems/nim", app.address))
            .await
            .expect("open the problem");
        let drawn = client
            .execute(
                "const math = document.querySelector('.statement math, math'); \
                 const base = math.querySelector('msup > :first-child'); \
                 const power = math.querySelector('msup > :last-child'); \
                 return [math.getBoundingClientRect().width, \
                         base.getBoundingClientRect().top - power.getBoundingClientRect().top];",
                vec![],
            )
            .await
            .expect("measure the formula");
        let (width, raised) = (
            drawn[0].as_f64().expect("a width"),
            drawn[1].as_f64().expect("a height"),
        );
        assert!(width > 40.0, "the formula is {width} px wide");
        assert!(raised > 1.0, "the exponent is raised by {raised} px");
        screenshot(&client, "problem-maths").await;
        app.stop().await;
    })
    .await;
}
