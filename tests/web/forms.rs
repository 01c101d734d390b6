//! The pages over plain HTTP: CSRF, sessions, security headers, errors,
//! and the submit forms reaching the API's own rules.

use reqwest::{StatusCode, header};
use serde_json::json;

use crate::helpers::{TestApp, TestDir, correct_answers};

/// A browser-like client without a browser: it keeps the session cookie by
/// hand and does not follow redirects, so each answer can be checked.
pub(crate) struct WebClient {
    http: reqwest::Client,
    address: String,
    cookie: String,
    pub(crate) csrf: String,
}

/// The value of the first `name="csrf"` hidden field in a page.
fn csrf_field(html: &str) -> String {
    let start = html.find(r#"name="csrf" value=""#).expect("a csrf field") + 19;
    let end = html[start..].find('"').expect("the end of the value") + start;
    html[start..end].to_string()
}

/// The `name=value` of a `Set-Cookie` header named `name`.
fn set_cookie(response: &reqwest::Response, name: &str) -> Option<String> {
    response
        .headers()
        .get_all(header::SET_COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .find(|v| v.starts_with(&format!("{name}=")))
        .map(|v| v.split(';').next().unwrap_or_default().to_string())
}

/// An `application/x-www-form-urlencoded` body, as a browser sends a form.
fn urlencoded(pairs: &[(&str, &str)]) -> String {
    let encode = |text: &str| {
        text.bytes()
            .map(|b| match b {
                b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => {
                    (b as char).to_string()
                }
                _ => format!("%{b:02X}"),
            })
            .collect::<String>()
    };
    pairs
        .iter()
        .map(|(k, v)| format!("{}={}", encode(k), encode(v)))
        .collect::<Vec<_>>()
        .join("&")
}

/// Sends a form the way a browser does.
trait SendForm {
    fn form_fields(self, pairs: &[(&str, &str)]) -> Self;
}

impl SendForm for reqwest::RequestBuilder {
    fn form_fields(self, pairs: &[(&str, &str)]) -> Self {
        self.header(header::CONTENT_TYPE, "application/x-www-form-urlencoded")
            .body(urlencoded(pairs))
    }
}

fn client() -> reqwest::Client {
    reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .expect("an http client")
}

impl WebClient {
    /// Signs in with `token` through the sign-in form.
    pub(crate) async fn sign_in(app: &TestApp, token: &str) -> WebClient {
        let http = client();
        let page = http
            .get(format!("{}/sign-in", app.address))
            .send()
            .await
            .expect("the sign-in page");
        let sign_in_cookie = set_cookie(&page, "nimjudge_sign_in").expect("a sign-in cookie");
        let csrf = csrf_field(&page.text().await.expect("the page"));
        let response = http
            .post(format!("{}/sign-in", app.address))
            .header(header::COOKIE, &sign_in_cookie)
            .form_fields(&[("token", token), ("csrf", &csrf)])
            .send()
            .await
            .expect("sign in");
        assert_eq!(response.status(), StatusCode::SEE_OTHER);
        let cookie_header = response
            .headers()
            .get_all(header::SET_COOKIE)
            .iter()
            .filter_map(|v| v.to_str().ok())
            .find(|v| v.starts_with("nimjudge_session="))
            .expect("a session cookie")
            .to_string();
        for attribute in ["HttpOnly", "SameSite=Strict", "Path=/"] {
            assert!(cookie_header.contains(attribute), "{cookie_header}");
        }
        let cookie = set_cookie(&response, "nimjudge_session").expect("a session cookie");
        let problems = http
            .get(format!("{}/problems", app.address))
            .header(header::COOKIE, &cookie)
            .send()
            .await
            .expect("the problems page");
        assert_eq!(problems.status(), StatusCode::OK);
        let csrf = csrf_field(&problems.text().await.expect("the page"));
        WebClient {
            http,
            address: app.address.clone(),
            cookie,
            csrf,
        }
    }

    pub(crate) async fn get(&self, path: &str) -> reqwest::Response {
        self.http
            .get(format!("{}{path}", self.address))
            .header(header::COOKIE, &self.cookie)
            .send()
            .await
            .expect("send")
    }

    /// Posts a multipart form of (name, file name, value) fields.
    pub(crate) async fn post_multipart(
        &self,
        path: &str,
        fields: &[(&str, Option<&str>, &str)],
    ) -> reqwest::Response {
        let fields: Vec<(&str, Option<&str>, &[u8])> = fields
            .iter()
            .map(|(name, file, value)| (*name, *file, value.as_bytes()))
            .collect();
        self.post_multipart_bytes(path, &fields).await
    }

    /// The page at `path` once the workers are done with what it shows:
    /// the page stops reloading itself then (its `refresh` meta tag).
    pub(crate) async fn settled(&self, path: &str) -> String {
        for _ in 0..900 {
            let page = self.get(path).await.text().await.expect("page");
            if !page.contains(r#"http-equiv="refresh""#) {
                return page;
            }
            tokio::time::sleep(std::time::Duration::from_millis(100)).await;
        }
        panic!("{path} was still reloading itself after 90 s");
    }

    /// Posts a multipart form whose values may be binary (a zip).
    pub(crate) async fn post_multipart_bytes(
        &self,
        path: &str,
        fields: &[(&str, Option<&str>, &[u8])],
    ) -> reqwest::Response {
        let boundary = "nimjudge-test-boundary-7f3a";
        let mut body = Vec::new();
        for (name, file, value) in fields {
            body.extend(
                format!("--{boundary}\r\nContent-Disposition: form-data; name=\"{name}\"").bytes(),
            );
            if let Some(file) = file {
                body.extend(
                    format!("; filename=\"{file}\"\r\nContent-Type: application/octet-stream")
                        .bytes(),
                );
            }
            body.extend(b"\r\n\r\n");
            body.extend(*value);
            body.extend(b"\r\n");
        }
        body.extend(format!("--{boundary}--\r\n").bytes());
        self.http
            .post(format!("{}{path}", self.address))
            .header(header::COOKIE, &self.cookie)
            .header(
                header::CONTENT_TYPE,
                format!("multipart/form-data; boundary={boundary}"),
            )
            .body(body)
            .send()
            .await
            .expect("send")
    }
}

impl WebClient {
    /// Posts an urlencoded form, as a browser sends one.
    pub(crate) async fn post_form(&self, path: &str, pairs: &[(&str, &str)]) -> reqwest::Response {
        self.http
            .post(format!("{}{path}", self.address))
            .header(header::COOKIE, &self.cookie)
            .form_fields(pairs)
            .send()
            .await
            .expect("send")
    }
}

/// How many submissions the store holds.
async fn stored_submissions(app: &TestApp) -> usize {
    let (status, body) = app.get("/api/submissions", &app.admin).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    body["submissions"].as_array().expect("a list").len()
}

#[tokio::test]
#[ignore = "needs Chromium and chromedriver; scripts/test.sh runs it"]
async fn a_post_without_this_sessions_csrf_token_is_refused_and_writes_nothing() {
    let dir = TestDir::new();
    let app = TestApp::spawn(&dir, 0).await;
    let web = WebClient::sign_in(&app, &app.contestant).await;
    let answers = correct_answers();
    let answer = answers["sample-1"].as_str();
    for csrf in [None, Some("not-the-token"), Some("")] {
        let mut fields = vec![
            ("kind", None, "answers"),
            ("answer-sample-1", Some("a.out"), answer),
        ];
        if let Some(csrf) = csrf {
            fields.push(("csrf", None, csrf));
        }
        let response = web
            .post_multipart("/problems/nim/submissions", &fields)
            .await;
        assert_eq!(response.status(), StatusCode::FORBIDDEN, "csrf {csrf:?}");
        let page = response.text().await.expect("the page");
        assert!(page.contains("did not come from this page"), "{page}");
    }
    // Another session's token does not do either.
    let other = WebClient::sign_in(&app, &app.other).await;
    assert_ne!(other.csrf, web.csrf);
    let response = web
        .post_multipart(
            "/problems/nim/submissions",
            &[
                ("csrf", None, &other.csrf),
                ("kind", None, "answers"),
                ("answer-sample-1", Some("a.out"), answer),
            ],
        )
        .await;
    assert_eq!(response.status(), StatusCode::FORBIDDEN);
    assert_eq!(
        stored_submissions(&app).await,
        0,
        "a refused form stores nothing"
    );

    // Sign-out without the token keeps the session.
    let response = web
        .http
        .post(format!("{}/sign-out", app.address))
        .header(header::COOKIE, &web.cookie)
        .form_fields(&[("csrf", "wrong")])
        .send()
        .await
        .expect("sign out");
    assert_eq!(response.status(), StatusCode::FORBIDDEN);
    assert_eq!(web.get("/problems").await.status(), StatusCode::OK);

    // The sign-in form needs its own cookie's value.
    let response = client()
        .post(format!("{}/sign-in", app.address))
        .form_fields(&[("token", app.contestant.as_str()), ("csrf", "guessed")])
        .send()
        .await
        .expect("sign in");
    assert_eq!(response.status(), StatusCode::FORBIDDEN);
    assert!(set_cookie(&response, "nimjudge_session").is_none());

    // With the token, the same form is taken.
    let response = web
        .post_multipart(
            "/problems/nim/submissions",
            &[
                ("csrf", None, &web.csrf),
                ("kind", None, "answers"),
                ("answer-sample-1", Some("a.out"), answer),
            ],
        )
        .await;
    assert_eq!(response.status(), StatusCode::SEE_OTHER);
    assert_eq!(stored_submissions(&app).await, 1);
    app.stop().await;
}

#[tokio::test]
#[ignore = "needs Chromium and chromedriver; scripts/test.sh runs it"]
async fn a_session_ends_at_sign_out_and_when_its_token_is_revoked() {
    let dir = TestDir::new();
    let app = TestApp::spawn(&dir, 0).await;
    let web = WebClient::sign_in(&app, &app.contestant).await;
    let response = web
        .http
        .post(format!("{}/sign-out", app.address))
        .header(header::COOKIE, &web.cookie)
        .form_fields(&[("csrf", web.csrf.as_str())])
        .send()
        .await
        .expect("sign out");
    assert_eq!(response.status(), StatusCode::SEE_OTHER);
    assert_eq!(
        set_cookie(&response, "nimjudge_session").as_deref(),
        Some("nimjudge_session=")
    );
    // The old cookie no longer signs anyone in.
    let response = web.get("/problems").await;
    assert_eq!(response.status(), StatusCode::SEE_OTHER);
    assert_eq!(response.headers()[header::LOCATION], "/sign-in");

    // Revoking the token ends a live session at once.
    let (status, created) = app
        .post(
            "/api/tokens",
            &app.admin,
            json!({"name": "erin", "role": "contestant"}),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{created}");
    let secret = created["token"].as_str().expect("a secret");
    let web = WebClient::sign_in(&app, secret).await;
    let (status, body) = app
        .request(
            reqwest::Method::DELETE,
            &format!("/api/tokens/{}", created["id"]),
            Some(&app.admin),
            None,
        )
        .await;
    assert!(status.is_success(), "{status} {body}");
    let response = web.get("/problems").await;
    assert_eq!(response.status(), StatusCode::SEE_OTHER);
    assert_eq!(response.headers()[header::LOCATION], "/sign-in");
    app.stop().await;
}

#[tokio::test]
#[ignore = "needs Chromium and chromedriver; scripts/test.sh runs it"]
async fn a_wrong_token_gets_the_sign_in_page_again_with_a_401() {
    let dir = TestDir::new();
    let app = TestApp::spawn(&dir, 0).await;
    let http = client();
    let page = http
        .get(format!("{}/sign-in", app.address))
        .send()
        .await
        .expect("page");
    let cookie = set_cookie(&page, "nimjudge_sign_in").expect("a sign-in cookie");
    let csrf = csrf_field(&page.text().await.expect("the page"));
    let response = http
        .post(format!("{}/sign-in", app.address))
        .header(header::COOKIE, cookie)
        .form_fields(&[("token", "nj_not-a-token"), ("csrf", csrf.as_str())])
        .send()
        .await
        .expect("sign in");
    assert_eq!(response.status(), StatusCode::UNAUTHORIZED);
    assert!(set_cookie(&response, "nimjudge_session").is_none());
    let page = response.text().await.expect("the page");
    assert!(page.contains("unknown, revoked or expired"), "{page}");
    app.stop().await;
}

#[tokio::test]
#[ignore = "needs Chromium and chromedriver; scripts/test.sh runs it"]
async fn every_page_carries_the_security_headers_and_errors_are_html_pages() {
    let dir = TestDir::new();
    let app = TestApp::spawn(&dir, 0).await;
    let web = WebClient::sign_in(&app, &app.contestant).await;
    for (path, status) in [
        ("/sign-in", StatusCode::OK),
        ("/problems", StatusCode::OK),
        ("/problems/nim", StatusCode::OK),
        ("/submissions", StatusCode::OK),
        ("/problems/no-such-problem", StatusCode::NOT_FOUND),
        ("/problems/Not_A_Slug", StatusCode::NOT_FOUND),
        ("/no/such/page", StatusCode::NOT_FOUND),
        ("/static/style.css", StatusCode::OK),
        ("/static/submission.js", StatusCode::OK),
        ("/sign-out", StatusCode::METHOD_NOT_ALLOWED),
    ] {
        let response = web.get(path).await;
        assert_eq!(response.status(), status, "{path}");
        let headers = response.headers();
        let policy = headers[header::CONTENT_SECURITY_POLICY]
            .to_str()
            .expect("text");
        assert!(
            policy.contains("default-src 'none'") && policy.contains("script-src 'self'"),
            "{policy}"
        );
        assert!(!policy.contains("unsafe-inline"), "{policy}");
        assert_eq!(headers[header::X_CONTENT_TYPE_OPTIONS], "nosniff", "{path}");
        assert_eq!(headers[header::REFERRER_POLICY], "same-origin", "{path}");
        let body = response.text().await.expect("body");
        if path.starts_with("/static/") {
            continue;
        }
        assert!(body.starts_with("<!DOCTYPE html>"), "{path}: {body}");
        assert!(
            !body.contains("<script>") && !body.contains("style="),
            "no inline script or style: {path}"
        );
    }
    // The API keeps its JSON errors, and its document has no page in it.
    let (status, body) = app.get("/api/no-such-endpoint", &app.contestant).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert!(body["error"].is_string(), "{body}");
    let (_, document) = app.get("/api/openapi.json", &app.contestant).await;
    let paths = document["paths"].as_object().expect("paths");
    assert!(
        paths
            .keys()
            .all(|p| p.starts_with("/api/") || p == "/metrics"),
        "{paths:?}"
    );
    app.stop().await;
}

#[tokio::test]
#[ignore = "needs Chromium and chromedriver; scripts/test.sh runs it"]
async fn the_submit_forms_go_through_the_apis_rules_and_a_program_form_is_queued() {
    let dir = TestDir::new();
    let app = TestApp::spawn(&dir, 0).await;
    let web = WebClient::sign_in(&app, &app.contestant).await;
    // Each form carries an idempotency key of its own.
    let page = web.get("/problems/nim").await.text().await.expect("page");
    let keys: Vec<&str> = page
        .split(r#"name="key" value=""#)
        .skip(1)
        .filter_map(|rest| rest.split('"').next())
        .collect();
    assert_eq!(keys.len(), 2, "{page}");
    assert_ne!(keys[0], keys[1]);
    // An answer for a testcase the problem does not have: the API's 422.
    let response = web
        .post_multipart(
            "/problems/nim/submissions",
            &[
                ("csrf", None, &web.csrf),
                ("kind", None, "answers"),
                ("answer-small-9", Some("x.out"), "First\n"),
            ],
        )
        .await;
    assert_eq!(response.status(), StatusCode::UNPROCESSABLE_ENTITY);
    let page = response.text().await.expect("page");
    assert!(
        page.contains("has no public testcase named small-9"),
        "{page}"
    );
    // Many files in the one picker answer the testcases they are named
    // after; a file that names no testcase, or a testcase answered twice,
    // is a 400 that says which.
    for (files, message) in [
        (
            vec![("answer_files", Some("Not A Name.out"), "First\n")],
            "the answer file <code>Not A Name.out</code> names no testcase",
        ),
        (
            vec![
                ("answer_files", Some("sample-1.out"), "First\n"),
                ("answer-sample-1", Some("x.out"), "First\n"),
            ],
            "testcase <code>sample-1</code> is answered twice",
        ),
    ] {
        let mut fields = vec![("csrf", None, web.csrf.as_str()), ("kind", None, "answers")];
        fields.extend(files);
        let response = web
            .post_multipart("/problems/nim/submissions", &fields)
            .await;
        assert_eq!(response.status(), StatusCode::BAD_REQUEST);
        let page = response.text().await.expect("page");
        assert!(page.contains(message), "{message}: {page}");
    }
    // No file chosen at all.
    let response = web
        .post_multipart(
            "/problems/nim/submissions",
            &[
                ("csrf", None, &web.csrf),
                ("kind", None, "answers"),
                ("answer-sample-1", Some(""), ""),
            ],
        )
        .await;
    assert_eq!(response.status(), StatusCode::UNPROCESSABLE_ENTITY);
    assert!(
        response
            .text()
            .await
            .expect("page")
            .contains("answer at least one testcase")
    );
    // An empty program.
    let response = web
        .post_multipart(
            "/problems/nim/submissions",
            &[
                ("csrf", None, &web.csrf),
                ("kind", None, "program"),
                ("language", None, "python"),
                ("source", None, "  "),
            ],
        )
        .await;
    assert_eq!(response.status(), StatusCode::UNPROCESSABLE_ENTITY);
    assert!(
        response
            .text()
            .await
            .expect("page")
            .contains("<code>source</code> is empty")
    );
    assert_eq!(stored_submissions(&app).await, 0);

    // A program from the file field is queued, and the same form sent twice
    // (same hidden key) is one submission.
    let source = "print('First')\n";
    let fields = [
        ("csrf", None, web.csrf.as_str()),
        ("key", None, "form-key-1"),
        ("kind", None, "program"),
        ("language", None, "python"),
        ("source", None, ""),
        ("source_file", Some("a.py"), source),
    ];
    let first = web
        .post_multipart("/problems/nim/submissions", &fields)
        .await;
    assert_eq!(
        first.status(),
        StatusCode::SEE_OTHER,
        "{:?}",
        first.text().await
    );
    let again = web
        .post_multipart("/problems/nim/submissions", &fields)
        .await;
    assert_eq!(again.status(), StatusCode::SEE_OTHER);
    let location = first.headers()[header::LOCATION]
        .to_str()
        .expect("text")
        .to_string();
    assert_eq!(again.headers()[header::LOCATION], location.as_str());
    let id = location
        .strip_prefix("/submissions/")
        .expect("a submission page");
    let (status, document) = app
        .get(&format!("/api/submissions/{id}"), &app.contestant)
        .await;
    assert_eq!(status, StatusCode::OK, "{document}");
    assert_eq!(document["submission"]["kind"], "program");
    assert_eq!(stored_submissions(&app).await, 1);
    let page = web.get(&location).await;
    assert_eq!(page.status(), StatusCode::OK);
    let page = page.text().await.expect("page");
    assert!(page.contains(r#"id="verdict""#), "{page}");
    // The page shows its submitter what was sent: the language and the
    // source, escaped.
    assert!(page.contains(r#"<dd id="language">"#), "{page}");
    assert!(
        page.contains(r#"<pre id="source"><code>print('First')"#),
        "{page}"
    );
    // Submitted but not accepted: the problem reads as tried.
    let problems = web.get("/problems").await.text().await.expect("page");
    assert!(
        problems.contains(r#"<span class="status tried">tried</span>"#),
        "{problems}"
    );
    // A form that is not multipart, or a sign-in without its fields, is a
    // 400 page that says why.
    let response = web
        .http
        .post(format!("{}/problems/nim/submissions", app.address))
        .header(header::COOKIE, &web.cookie)
        .form_fields(&[("csrf", &web.csrf)])
        .send()
        .await
        .expect("send");
    assert_eq!(response.status(), StatusCode::BAD_REQUEST);
    assert!(
        response
            .text()
            .await
            .expect("page")
            .contains("multipart/form-data")
    );
    let response = web
        .http
        .post(format!("{}/sign-in", app.address))
        .form_fields(&[("csrf", "x")])
        .send()
        .await
        .expect("send");
    assert_eq!(response.status(), StatusCode::BAD_REQUEST);
    assert!(response.text().await.expect("page").contains("token"));
    app.stop().await;
}

#[tokio::test]
#[ignore = "needs Chromium and chromedriver; scripts/test.sh runs it"]
async fn a_statements_markdown_is_rendered_and_its_raw_html_is_shown_as_text() {
    let dir = TestDir::new();
    std::fs::write(
        dir.path().join("problems/nim/statement.md"),
        "# Nim\n\nTake **any** number.\n\n<script>alert('statement')</script>\n\n\
         [rules](javascript:alert(1)) and [more](https://example.org/nim)\n\n\
         | n | answer |\n|---|---|\n| 1 | First |\n",
    )
    .expect("write the statement");
    let app = TestApp::spawn(&dir, 0).await;
    let web = WebClient::sign_in(&app, &app.contestant).await;
    let page = web.get("/problems/nim").await.text().await.expect("page");
    assert!(
        page.contains("<h1>Nim</h1>") && page.contains("<strong>any</strong>"),
        "{page}"
    );
    assert!(page.contains("<td>First</td>"), "tables render: {page}");
    assert!(
        page.contains("&lt;script&gt;alert('statement')&lt;/script&gt;"),
        "raw HTML shows as text: {page}"
    );
    assert!(!page.contains("<script>alert"), "{page}");
    assert!(!page.contains("javascript:"), "{page}");
    assert!(page.contains(r#"href="https://example.org/nim""#), "{page}");
    app.stop().await;
}

/// A zip as an archiver makes one: each answer deflated, in a folder.
fn answers_zip(answers: &[(&str, &str)]) -> Vec<u8> {
    use std::io::Write;
    let mut writer = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let options = zip::write::SimpleFileOptions::default()
        .compression_method(zip::CompressionMethod::Deflated);
    for (name, text) in answers {
        writer
            .start_file(format!("answers/{name}"), options)
            .expect("a file");
        writer.write_all(text.as_bytes()).expect("write");
    }
    writer.finish().expect("finish").into_inner()
}

/// A zip whose answers hold more bytes than a day's budget is refused
/// before anything is stored (its unpacked answers are never hashed).
#[tokio::test]
async fn an_answers_zip_larger_than_a_days_bytes_is_refused() {
    let dir = TestDir::new();
    let app = TestApp::spawn_with(&dir, 0, &[("LIMITS__BYTES_PER_DAY", "1048576")]).await;
    let web = WebClient::sign_in(&app, &app.contestant).await;
    let huge = "Alice\n".repeat(400_000);
    let archive = answers_zip(&[("sample-1.out", &huge)]);
    assert!(archive.len() < 64 * 1024, "{} bytes zipped", archive.len());
    let before = stored_submissions(&app).await;
    let response = web
        .post_multipart_bytes(
            "/problems/nim/submissions",
            &[
                ("csrf", None, web.csrf.as_bytes()),
                ("kind", None, b"answers"),
                ("answer_files", Some("answers.zip"), &archive),
            ],
        )
        .await;
    assert_eq!(response.status(), StatusCode::UNPROCESSABLE_ENTITY);
    let page = response.text().await.expect("page");
    assert!(
        page.contains(
            "this submission holds 2400000 bytes, more than the 1048576 bytes of submissions \
             allowed in any 24 hours"
        ),
        "{page}"
    );
    assert_eq!(stored_submissions(&app).await, before);
    app.stop().await;
}

#[tokio::test]
async fn answers_sent_as_one_zip_are_judged_like_answer_files() {
    let dir = TestDir::new();
    let app = TestApp::spawn(&dir, 1).await;
    let web = WebClient::sign_in(&app, &app.contestant).await;
    let answers = correct_answers();
    let files: Vec<(String, &str)> = answers
        .iter()
        .map(|(testcase, answer)| (format!("{testcase}.out"), answer.as_str()))
        .collect();
    let files: Vec<(&str, &str)> = files.iter().map(|(n, a)| (n.as_str(), *a)).collect();
    let archive = answers_zip(&files);
    let response = web
        .post_multipart_bytes(
            "/problems/nim/submissions",
            &[
                ("csrf", None, web.csrf.as_bytes()),
                ("kind", None, b"answers"),
                ("answer_files", Some("Answers.ZIP"), &archive),
            ],
        )
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
        .expect("a submission id");
    let verdict = app.verdict(&id, &app.contestant).await;
    assert_eq!(verdict["submission"]["verdict"], "AC", "{verdict}");
    let results = verdict["results"].as_array().expect("results");
    assert_eq!(results.len(), answers.len(), "{verdict}");

    // A zip and a file answering the same testcase, and a zip holding a
    // file that names no testcase: 400s naming what is wrong, nothing stored.
    let before = stored_submissions(&app).await;
    let one = answers_zip(&[("sample-1.out", "First\n")]);
    let stray = answers_zip(&[("notes.txt.bak", "x")]);
    for (fields, message) in [
        (
            vec![
                ("answer_files", Some("a.zip"), one.as_slice()),
                ("answer-sample-1", Some("x.out"), b"First\n".as_slice()),
            ],
            "testcase <code>sample-1</code> is answered twice",
        ),
        (
            vec![("answer_files", Some("a.zip"), stray.as_slice())],
            "<code>answers/notes.txt.bak</code> names no testcase",
        ),
        (
            vec![("answer_files", Some("a.zip"), b"not a zip".as_slice())],
            "the answers zip could not be read",
        ),
    ] {
        let mut all = vec![
            ("csrf", None, web.csrf.as_bytes()),
            ("kind", None, b"answers".as_slice()),
        ];
        all.extend(fields);
        let response = web
            .post_multipart_bytes("/problems/nim/submissions", &all)
            .await;
        assert_eq!(response.status(), StatusCode::BAD_REQUEST);
        let page = response.text().await.expect("page");
        assert!(page.contains(message), "{message}: {page}");
    }
    assert_eq!(stored_submissions(&app).await, before);
    app.stop().await;
}
