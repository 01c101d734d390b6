//! The Grundy plot page over plain HTTP: the SVG, the parameter checks
//! shown on a 400 page with the form refilled, and where a plot exists.

use reqwest::{StatusCode, header};

use crate::{
    forms::WebClient,
    helpers::{TestApp, TestDir},
    plotted::add_xy_game,
};

/// The text of a page, after checking its status.
async fn page(web: &WebClient, path: &str, status: StatusCode) -> String {
    let response = web.get(path).await;
    assert_eq!(response.status(), status, "{path}");
    let policy = response.headers()[header::CONTENT_SECURITY_POLICY]
        .to_str()
        .expect("text")
        .to_string();
    assert!(policy.contains("style-src 'self'"), "{policy}");
    let body = response.text().await.expect("the page");
    assert!(
        !body.contains("style=") && !body.contains("<script>"),
        "no inline style or script: {path}"
    );
    body
}

#[tokio::test]
#[ignore = "needs Chromium and chromedriver; scripts/test.sh runs it"]
async fn the_plot_is_an_svg_with_one_bar_per_size_and_bad_parameters_are_a_400_naming_them() {
    let dir = TestDir::new();
    add_xy_game(&dir);
    let app = TestApp::spawn(&dir, 0).await;
    let web = WebClient::sign_in(&app, &app.contestant).await;

    // The problem page links to its plot; nim has none.
    let problem = page(&web, "/problems/xy-game", StatusCode::OK).await;
    assert!(
        problem.contains(r#"href="/problems/xy-game/grundy""#),
        "{problem}"
    );
    let nim = page(&web, "/problems/nim", StatusCode::OK).await;
    assert!(!nim.contains("/grundy"), "{nim}");
    let none = page(&web, "/problems/nim/grundy", StatusCode::NOT_FOUND).await;
    assert!(
        none.contains("problem <code>nim</code> has no Grundy plot"),
        "{none}"
    );
    page(&web, "/problems/no-such/grundy", StatusCode::NOT_FOUND).await;

    // The defaults: X = 3, Y = 5, 120 sizes from 0.
    let plot = page(&web, "/problems/xy-game/grundy", StatusCode::OK).await;
    assert_eq!(plot.matches("<rect").count(), 120, "{plot}");
    assert!(plot.contains(r#"name="x" value="3""#), "{plot}");
    assert!(plot.contains("g(n) for n = 0 … 119"), "{plot}");

    // A chosen window: g(v) of X = 2, Y = 7 for v = 10..=29, from the rules.
    let plot = page(
        &web,
        "/problems/xy-game/grundy?x=2&y=7&from=10&count=20",
        StatusCode::OK,
    )
    .await;
    assert_eq!(plot.matches("<rect").count(), 20, "{plot}");
    let blocked = |v: u64| v.is_multiple_of(2) || v.is_multiple_of(7);
    let mut g = vec![0u64; 30];
    for v in 1..30usize {
        let options: Vec<u64> = (1..=2)
            .filter_map(|d| v.checked_sub(d))
            .filter(|&w| !blocked(w as u64))
            .map(|w| g[w])
            .collect();
        g[v] = (0..).find(|m| !options.contains(m)).expect("a mex");
    }
    for (v, value) in g.iter().enumerate().skip(10) {
        assert!(
            plot.contains(&format!("<title>g({v}) = {value}</title>")),
            "g({v}) = {value}: {plot}"
        );
    }

    for (query, message, refilled) in [
        (
            "x=5&y=5",
            "X = 5 and Y = 5 violate the constraint X &lt; Y",
            r#"name="y" value="5""#,
        ),
        (
            "x=0",
            "X = 0 violates the constraint 1 ≤ X ≤ 999999999",
            r#"name="x" value="0""#,
        ),
        (
            "x=abc",
            "X must be a whole number, not `abc`",
            r#"name="x" value="abc""#,
        ),
        (
            "count=401",
            "count = 401 violates the constraint 1 ≤ count ≤ 400",
            r#"name="count" value="401""#,
        ),
        (
            "from=",
            "from is empty; give a whole number",
            r#"name="from" value="""#,
        ),
        (
            "from=999999999999999999",
            "past the largest size 10^18",
            r#"name="from" value="999999999999999999""#,
        ),
    ] {
        let path = format!("/problems/xy-game/grundy?{query}");
        let body = page(&web, &path, StatusCode::BAD_REQUEST).await;
        assert!(body.contains(message), "{query}: {body}");
        assert!(
            body.contains(refilled),
            "{query}: the form is refilled: {body}"
        );
        assert!(!body.contains("<svg"), "{query}: no plot");
    }
    let unknown = page(
        &web,
        "/problems/xy-game/grundy?z=1",
        StatusCode::BAD_REQUEST,
    )
    .await;
    assert!(
        unknown.contains("unknown parameter <code>z</code> (this plot takes <code>x</code>, <code>y</code>, <code>from</code>, <code>count</code>)"),
        "{unknown}"
    );

    // Signed out, the plot is the sign-in page.
    let anonymous = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .expect("a client")
        .get(format!("{}/problems/xy-game/grundy", app.address))
        .send()
        .await
        .expect("send");
    assert_eq!(anonymous.status(), StatusCode::SEE_OTHER);
    app.stop().await;
}
