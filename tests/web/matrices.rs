//! The solutions × testcases matrix over plain HTTP: started from the
//! testcase page (with a safety margin of the setter's), judged by a worker
//! in the sandbox, reviewed by problemtools' rule on its page (with a
//! multiplier of the setter's); setters and admins only.

use reqwest::{StatusCode, header};

use crate::{
    forms::WebClient,
    helpers::{TestApp, TestDir},
};

#[tokio::test]
#[ignore = "needs root (the sandbox); scripts/test.sh runs it"]
async fn a_matrix_run_judges_every_setter_solution_and_reviews_the_limit() {
    let dir = TestDir::new();
    let solutions = dir.path().join("problems/nim/solutions");
    let bundled = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("problems/nim/solutions");
    for (from, to) in [
        ("accepted/xor.py", "accepted/xor.py"),
        ("wrong_answer/max_pile.py", "wrong_answer/max_pile.py"),
        // A right solution filed as wrong: the review's error.
        ("accepted/xor.py", "wrong_answer/really_right.py"),
    ] {
        let to = solutions.join(to);
        std::fs::create_dir_all(to.parent().unwrap()).unwrap();
        std::fs::copy(bundled.join(from), to).unwrap();
    }
    let app = TestApp::spawn(&dir, 1).await;
    let contestant = WebClient::sign_in(&app, &app.contestant).await;
    let refused = contestant
        .post_form("/problems/nim/matrix", &[("csrf", &contestant.csrf)])
        .await;
    assert_eq!(refused.status(), StatusCode::FORBIDDEN);

    let web = WebClient::sign_in(&app, &app.setter).await;
    let page = web
        .get("/problems/nim/testcases")
        .await
        .text()
        .await
        .expect("page");
    assert!(page.contains("matrix-run-button"), "{page}");
    let forged = web
        .post_form("/problems/nim/matrix", &[("csrf", "x")])
        .await;
    assert_eq!(forged.status(), StatusCode::FORBIDDEN);
    let started = web
        .post_form("/problems/nim/matrix", &[("csrf", &web.csrf)])
        .await;
    assert_eq!(started.status(), StatusCode::SEE_OTHER);
    let path = started.headers()[header::LOCATION]
        .to_str()
        .expect("text")
        .to_string();
    assert!(path.starts_with("/matrices/"), "{path}");
    assert_eq!(contestant.get(&path).await.status(), StatusCode::FORBIDDEN);

    let page = web.settled(&path).await;
    assert!(page.contains("3 of 3 solutions judged"), "{page}");
    assert!(page.contains("every solution ran under 3000 ms"), "{page}");
    for testcase in ["sample-1", "small-1", "small-2"] {
        assert!(page.contains(&format!("<th>{testcase}</th>")), "{page}");
    }
    let row = |solution: &str| {
        page.split("<tr ")
            .find(|row| row.contains(&format!(r#"data-solution="{solution}""#)))
            .unwrap_or_else(|| panic!("a row for {solution}: {page}"))
            .to_string()
    };
    let accepted = row("accepted/xor.py");
    assert!(
        accepted.contains("verdict-AC") && !accepted.contains('✗'),
        "{accepted}"
    );
    assert_eq!(accepted.matches("data-cpu-ms=").count(), 3, "{accepted}");
    let wrong = row("wrong_answer/max_pile.py");
    assert!(
        wrong.contains("verdict-WA") && !wrong.contains('✗'),
        "{wrong}"
    );
    assert!(row("wrong_answer/really_right.py").contains('✗'));
    assert!(
        page.contains("error: wrong_answer/really_right.py gets AC at the limit of 2000 ms"),
        "{page}"
    );
    assert!(page.contains("Slowest accepted: accepted/xor.py"), "{page}");
    assert!(
        page.contains(r#"<p id="matrix-errors">1 error</p>"#),
        "{page}"
    );
    assert!(page.contains("(the safety margin: × 1.5)"), "{page}");

    // The review again with another multiplier: no runs, a tighter rule.
    let strict = web
        .get(&format!("{path}?ac_to_time_limit=100"))
        .await
        .text()
        .await
        .expect("page");
    assert!(strict.contains(r#"name="ac_to_time_limit""#), "{strict}");
    assert!(
        strict
            .contains("the limit of 2000 ms is tighter than the slowest accepted solution allows"),
        "{strict}"
    );
    for (value, status, says) in [
        (
            "abc",
            StatusCode::BAD_REQUEST,
            "ac_to_time_limit: <code>abc</code> is not a number",
        ),
        (
            "0.5",
            StatusCode::UNPROCESSABLE_ENTITY,
            "ac_to_time_limit must be between 1 and 100, not 0.5",
        ),
    ] {
        let refused = web.get(&format!("{path}?ac_to_time_limit={value}")).await;
        assert_eq!(refused.status(), status, "{value}");
        let text = refused.text().await.expect("page");
        assert!(text.contains(says), "{text}");
    }

    // A run with its own safety margin; a margin out of range starts none.
    let refused = web
        .post_form(
            "/problems/nim/matrix",
            &[("csrf", &web.csrf), ("time_limit_to_tle", "101")],
        )
        .await;
    assert_eq!(refused.status(), StatusCode::UNPROCESSABLE_ENTITY);
    let text = refused.text().await.expect("page");
    assert!(
        text.contains("time_limit_to_tle must be between 1 and 100, not 101"),
        "{text}"
    );
    let started = web
        .post_form(
            "/problems/nim/matrix",
            &[("csrf", &web.csrf), ("time_limit_to_tle", "2")],
        )
        .await;
    assert_eq!(started.status(), StatusCode::SEE_OTHER);
    let second = started.headers()[header::LOCATION]
        .to_str()
        .expect("text")
        .to_string();
    let page = web.settled(&second).await;
    assert!(
        page.contains("every solution ran under 4000 ms (the safety margin: × 2)"),
        "{page}"
    );
    let listed = web
        .get("/problems/nim/testcases")
        .await
        .text()
        .await
        .expect("page");
    assert!(listed.contains(&format!(r#"href="{path}""#)), "{listed}");
    assert_eq!(listed.matches(r#"href="/matrices/"#).count(), 2, "{listed}");
    app.stop().await;
}
