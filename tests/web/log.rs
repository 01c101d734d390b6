//! The verdict log over plain HTTP: staff only, each filter, bad filters
//! named on a 400 page, and the next-page link.

use std::collections::BTreeMap;

use reqwest::StatusCode;

use crate::{
    forms::WebClient,
    helpers::{TestApp, TestDir, correct_answers},
};

/// The submission ids a log page lists, in order.
fn listed(page: &str) -> Vec<String> {
    page.match_indices(r#"<tr data-id=""#)
        .map(|(at, found)| {
            let start = at + found.len();
            let end = page[start..].find('"').expect("the end of the id") + start;
            page[start..end].to_string()
        })
        .collect()
}

/// A log page's text, after checking its status.
async fn log_page(web: &WebClient, path: &str, status: StatusCode) -> String {
    let response = web.get(path).await;
    assert_eq!(response.status(), status, "{path}");
    response.text().await.expect("the page")
}

/// The href of the next-page link, unescaped as a browser reads it.
fn next_link(page: &str) -> Option<String> {
    let start = page.find(r#"id="next-page" href=""#)? + r#"id="next-page" href=""#.len();
    let end = page[start..].find('"')? + start;
    Some(page[start..end].replace("&amp;", "&"))
}

#[tokio::test]
#[ignore = "needs Chromium and chromedriver; scripts/test.sh runs it"]
async fn the_verdict_log_filters_by_problem_user_verdict_and_time_and_pages_with_a_cursor() {
    let dir = TestDir::new();
    let app = TestApp::spawn(&dir, 1).await;
    let start = jiff::Timestamp::now() - jiff::SignedDuration::from_secs(60);
    let wrong: BTreeMap<String, String> =
        [("sample-1".to_string(), "nonsense\n".to_string())].into();
    let first = app
        .submit_answers(&app.contestant, &correct_answers())
        .await;
    let second = app.submit_answers(&app.other, &wrong).await;
    let third = app
        .submit_answers(&app.contestant, &correct_answers())
        .await;
    for id in [&first, &second, &third] {
        app.verdict(id, &app.admin).await;
    }
    let (_, judged) = app
        .get(&format!("/api/submissions/{second}"), &app.admin)
        .await;
    let wrong_verdict = judged["submission"]["verdict"]
        .as_str()
        .expect("a verdict")
        .to_string();
    assert_ne!(wrong_verdict, "AC");
    let (first, second, third) = (first.to_string(), second.to_string(), third.to_string());
    let (first, second, third) = (first.as_str(), second.as_str(), third.as_str());

    // Contestants are refused, as the API refuses them others' listings.
    let contestant = WebClient::sign_in(&app, &app.contestant).await;
    let refused = log_page(&contestant, "/log", StatusCode::FORBIDDEN).await;
    assert!(
        refused.contains("only setters and admins may do this"),
        "{refused}"
    );

    let web = WebClient::sign_in(&app, &app.setter).await;
    let everything = log_page(&web, "/log", StatusCode::OK).await;
    assert_eq!(listed(&everything), [third, second, first], "newest first");
    assert!(next_link(&everything).is_none(), "one page");

    let carol = log_page(&web, "/log?user=carol", StatusCode::OK).await;
    assert_eq!(listed(&carol), [third, first]);
    let accepted = log_page(&web, "/log?verdict=AC", StatusCode::OK).await;
    assert_eq!(listed(&accepted), [third, first]);
    let rejected = log_page(
        &web,
        &format!("/log?verdict={wrong_verdict}"),
        StatusCode::OK,
    )
    .await;
    assert_eq!(listed(&rejected), [second]);
    let dave_ac = log_page(&web, "/log?user=dave&verdict=AC", StatusCode::OK).await;
    assert!(listed(&dave_ac).is_empty() && dave_ac.contains("No submissions match"));
    let nim = log_page(&web, "/log?problem=nim", StatusCode::OK).await;
    assert_eq!(listed(&nim).len(), 3);
    // A problem this judge does not host is named, not an empty table.
    let other_problem = log_page(&web, "/log?problem=xy-game", StatusCode::BAD_REQUEST).await;
    assert!(
        other_problem.contains("unknown problem <code>xy-game</code>"),
        "{other_problem}"
    );
    assert!(listed(&other_problem).is_empty());
    let since_start = log_page(&web, &format!("/log?since={start}"), StatusCode::OK).await;
    assert_eq!(listed(&since_start).len(), 3);
    let later = jiff::Timestamp::now() + jiff::SignedDuration::from_secs(3600);
    let since_later = log_page(&web, &format!("/log?since={later}"), StatusCode::OK).await;
    assert!(listed(&since_later).is_empty());

    // Two per page: the next link keeps the filters and carries the cursor.
    let page_one = log_page(&web, "/log?limit=2&problem=nim", StatusCode::OK).await;
    assert_eq!(listed(&page_one), [third, second]);
    let next = next_link(&page_one).expect("a next-page link");
    assert!(
        next.starts_with("/log?problem=nim&limit=2&before="),
        "{next}"
    );
    let page_two = log_page(&web, &next, StatusCode::OK).await;
    assert_eq!(listed(&page_two), [first]);
    assert!(next_link(&page_two).is_none(), "the last page");

    // Bad filters: 400, named, the form refilled, no table.
    for (query, message) in [
        ("verdict=XX", "verdict <code>XX</code>"),
        (
            "since=yesterday",
            "since <code>yesterday</code> is not an RFC 3339 time",
        ),
        (
            "limit=0",
            "limit <code>0</code> must be a whole number from 1 to 200",
        ),
        ("problem=Not_A_Slug", "problem <code>Not_A_Slug</code>"),
        ("colour=red", "unknown filter <code>colour</code>"),
    ] {
        let page = log_page(&web, &format!("/log?{query}"), StatusCode::BAD_REQUEST).await;
        assert!(page.contains(message), "{query}: {page}");
        assert!(listed(&page).is_empty(), "{query}");
    }
    let refilled = log_page(
        &web,
        "/log?since=yesterday&user=carol",
        StatusCode::BAD_REQUEST,
    )
    .await;
    assert!(refilled.contains(r#"value="carol""#), "{refilled}");
    app.stop().await;
}
