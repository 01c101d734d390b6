//! Downloads and refused uploads over plain HTTP: the zip of a problem's
//! public inputs, a setter's Kattis package, and the HTML 413 a form gets
//! for a body over the limit.

use reqwest::{StatusCode, header};
use serde_json::json;

use crate::{
    forms::WebClient,
    helpers::{NIM_TESTCASES, TestApp, TestDir},
};

/// The files of a zip of stored entries, read front to back through the
/// local headers (the library's own test reads with the `zip` crate),
/// each checked against its CRC-32; then the end record's count.
fn unzip(archive: &[u8]) -> Vec<(String, Vec<u8>)> {
    let u16_at = |at: usize| u16::from_le_bytes([archive[at], archive[at + 1]]) as usize;
    let u32_at = |at: usize| u32::from_le_bytes(archive[at..at + 4].try_into().unwrap());
    let mut files = Vec::new();
    let mut at = 0;
    while u32_at(at) == 0x0403_4b50 {
        assert_eq!(u16_at(at + 8), 0, "stored, not compressed");
        let crc = u32_at(at + 14);
        let size = u32_at(at + 18) as usize;
        assert_eq!(size, u32_at(at + 22) as usize);
        let name_length = u16_at(at + 26);
        let start = at + 30 + name_length + u16_at(at + 28);
        let name = String::from_utf8(archive[at + 30..at + 30 + name_length].to_vec())
            .expect("a UTF-8 name");
        let data = archive[start..start + size].to_vec();
        let mut check = flate2::Crc::new();
        check.update(&data);
        assert_eq!(check.sum(), crc, "{name}: CRC-32");
        files.push((name, data));
        at = start + size;
    }
    assert_eq!(u32_at(at), 0x0201_4b50, "the central directory follows");
    let end = archive.len() - 22;
    assert_eq!(
        u32_at(end),
        0x0605_4b50,
        "the end record closes the archive"
    );
    assert_eq!(
        u16_at(end + 10),
        files.len(),
        "the end record counts them all"
    );
    assert_eq!(u32_at(end + 16) as usize, at, "it points at the directory");
    files
}

#[tokio::test]
#[ignore = "needs Chromium and chromedriver; scripts/test.sh runs it"]
async fn the_inputs_zip_holds_every_public_input_byte_for_byte_and_no_hidden_one() {
    let dir = TestDir::new();
    let app = TestApp::spawn(&dir, 0).await;
    for (name, hidden) in [("secret-1", true), ("extra-1", false)] {
        let (status, body) = app
            .post(
                "/api/problems/nim/testcases",
                &app.setter,
                json!({"name": name, "input": "2\r\n1 1\n", "hidden": hidden}),
            )
            .await;
        assert_eq!(status, StatusCode::CREATED, "{body}");
    }

    for token in [&app.contestant, &app.setter] {
        let web = WebClient::sign_in(&app, token).await;
        let problem = web.get("/problems/nim").await.text().await.expect("page");
        assert!(
            problem.contains(r#"href="/problems/nim/inputs.zip""#),
            "the problem page links it"
        );
        let response = web.get("/problems/nim/inputs.zip").await;
        assert_eq!(response.status(), StatusCode::OK);
        let headers = response.headers().clone();
        assert_eq!(headers[header::CONTENT_TYPE], "application/zip");
        assert_eq!(
            headers[header::CONTENT_DISPOSITION],
            "attachment; filename=\"nim-inputs.zip\""
        );
        let archive = response.bytes().await.expect("the zip");
        let files = unzip(&archive);
        let mut expected: Vec<(String, Vec<u8>)> = NIM_TESTCASES
            .iter()
            .map(|(name, _, input)| (format!("{name}.in"), input.as_bytes().to_vec()))
            .collect();
        expected.push(("extra-1.in".into(), b"2\r\n1 1\n".to_vec()));
        expected.sort();
        assert_eq!(files, expected, "public inputs, as the API stores them");
        assert!(
            !archive.windows(8).any(|w| w == b"secret-1"),
            "never a hidden testcase"
        );
    }
    // Signed out: sent to sign in, no zip.
    let response = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .expect("a client")
        .get(format!("{}/problems/nim/inputs.zip", app.address))
        .send()
        .await
        .expect("send");
    assert_eq!(response.status(), StatusCode::SEE_OTHER);
    let web = WebClient::sign_in(&app, &app.contestant).await;
    assert_eq!(
        web.get("/problems/no-such/inputs.zip").await.status(),
        StatusCode::NOT_FOUND
    );
    app.stop().await;
}

#[tokio::test]
#[ignore = "needs Chromium and chromedriver; scripts/test.sh runs it"]
async fn a_form_over_the_body_limit_gets_an_html_413_naming_the_limit_and_the_api_keeps_json() {
    let dir = TestDir::new();
    let app = TestApp::spawn(&dir, 0).await;
    let web = WebClient::sign_in(&app, &app.setter).await;
    // The tests' limit is 64 KiB.
    let big = "1 ".repeat(40_000);
    let response = web
        .post_multipart(
            "/problems/nim/testcases",
            &[
                ("csrf", None, &web.csrf),
                ("name", None, "big-1"),
                ("input", None, &big),
            ],
        )
        .await;
    assert_eq!(response.status(), StatusCode::PAYLOAD_TOO_LARGE);
    let headers = response.headers().clone();
    assert_eq!(headers[header::CONTENT_TYPE], "text/html; charset=utf-8");
    assert_eq!(headers[header::CONNECTION], "close");
    assert!(
        headers[header::CONTENT_SECURITY_POLICY]
            .to_str()
            .expect("text")
            .contains("script-src 'self'"),
        "the page carries the pages' headers"
    );
    let body = response.text().await.expect("the page");
    assert!(body.contains("413 Payload Too Large"), "{body}");
    assert!(body.contains("64.0 KiB (65536 bytes"), "{body}");
    assert!(body.contains("server.body_limit_bytes"), "{body}");

    // The same body to the API: its JSON, as before.
    let response = app
        .http
        .post(format!("{}/api/problems/nim/testcases", app.address))
        .bearer_auth(&app.setter)
        .json(&json!({"name": "big-1", "input": big}))
        .send()
        .await
        .expect("send");
    assert_eq!(response.status(), StatusCode::PAYLOAD_TOO_LARGE);
    assert_eq!(response.headers()[header::CONTENT_TYPE], "application/json");
    let body: serde_json::Value = response.json().await.expect("JSON");
    assert_eq!(body["error"], "the request body is larger than 65536 bytes");
    let (status, list) = app.get("/api/problems/nim/testcases", &app.setter).await;
    assert_eq!(status, StatusCode::OK);
    assert!(!list.to_string().contains("big-1"), "nothing was added");
    app.stop().await;
}

/// A setter's problem page links the problem's Kattis package and it
/// downloads (an interactive problem's with its judge); a contestant's page
/// does not link it and the download is refused (it holds every hidden
/// input).
#[tokio::test]
#[ignore = "needs Chromium and chromedriver; scripts/test.sh runs it"]
async fn a_setter_downloads_the_kattis_package_from_the_problem_page_and_a_contestant_cannot() {
    let dir = TestDir::new();
    dir.add_bundled_problem("coin-game");
    dir.add_bundled_problem("nim-play");
    let app = TestApp::spawn(&dir, 0).await;
    let setter = WebClient::sign_in(&app, &app.setter).await;
    let page = setter
        .get("/problems/coin-game")
        .await
        .text()
        .await
        .expect("page");
    assert!(
        page.contains(r#"href="/problems/coin-game/kattis.zip""#),
        "the setter's page links it"
    );
    let response = setter.get("/problems/coin-game/kattis.zip").await;
    assert_eq!(response.status(), StatusCode::OK);
    assert_eq!(
        response.headers()[header::CONTENT_DISPOSITION],
        "attachment; filename=\"coingame.zip\""
    );
    let files = unzip(&response.bytes().await.expect("the zip"));
    assert!(
        files
            .iter()
            .any(|(name, _)| name == "coingame/data/secret/max-1.ans"),
        "every testcase with its answer"
    );
    assert!(
        page.contains(r#"href="/problems/coin-game/kattis.zip?format=2025-09""#),
        "and in the 2025-09 format"
    );
    let response = setter
        .get("/problems/coin-game/kattis.zip?format=2025-09")
        .await;
    assert_eq!(response.status(), StatusCode::OK);
    let files = unzip(&response.bytes().await.expect("the zip"));
    assert!(
        files
            .iter()
            .any(|(name, _)| name == "coingame/data/invalid_input/n-zero.in"),
        "with the invalid inputs"
    );
    // An interactive problem's package holds its judge.
    let page = setter
        .get("/problems/nim-play")
        .await
        .text()
        .await
        .expect("page");
    assert!(
        page.contains("the judge (as the output validator"),
        "{page}"
    );
    let response = setter.get("/problems/nim-play/kattis.zip").await;
    assert_eq!(response.status(), StatusCode::OK);
    let files = unzip(&response.bytes().await.expect("the zip"));
    assert!(
        files
            .iter()
            .any(|(name, _)| name == "nimplay/output_validators/judge/main.py"),
        "the judge"
    );
    let contestant = WebClient::sign_in(&app, &app.contestant).await;
    let page = contestant
        .get("/problems/coin-game")
        .await
        .text()
        .await
        .expect("page");
    assert!(!page.contains("kattis.zip"), "no link for a contestant");
    assert_eq!(
        contestant
            .get("/problems/coin-game/kattis.zip")
            .await
            .status(),
        StatusCode::FORBIDDEN
    );
    app.stop().await;
}
