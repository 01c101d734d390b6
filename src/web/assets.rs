//! The web UI's static files, compiled into the binary with `include_str!`
//! so the daemon needs no files beside it: the stylesheet and the
//! scripts (the Content-Security-Policy allows no inline script or style).

use axum::{Router, http::header, response::IntoResponse, routing::get};

use crate::http::AppState;

/// The static files' routes.
pub(super) fn routes() -> Router<AppState> {
    Router::new()
        .route("/static/style.css", get(style))
        .route("/static/submission.js", get(submission_script))
        .route("/static/rejudge.js", get(rejudge_script))
        .route("/static/confirm.js", get(confirm_script))
        .route("/static/copy.js", get(copy_script))
        .route("/static/api-docs.js", get(api_docs_script))
        .route("/static/scoreboard.js", get(scoreboard_script))
        .route("/static/reveal.js", get(reveal_script))
}

/// `GET /static/style.css`.
pub async fn style() -> impl IntoResponse {
    (
        [
            (header::CONTENT_TYPE, "text/css; charset=utf-8"),
            (header::CACHE_CONTROL, "no-cache"),
        ],
        include_str!("static/style.css"),
    )
}

/// `GET /static/submission.js`: polls a submission's live status and
/// updates its page in place.
pub async fn submission_script() -> impl IntoResponse {
    script(include_str!("static/submission.js"))
}

/// `GET /static/rejudge.js`: follows a problem's rejudge on its testcase
/// page.
pub async fn rejudge_script() -> impl IntoResponse {
    script(include_str!("static/rejudge.js"))
}

/// `GET /static/confirm.js`: asks before a form with `data-confirm` is
/// sent.
pub async fn confirm_script() -> impl IntoResponse {
    script(include_str!("static/confirm.js"))
}

/// `GET /static/copy.js`: copy buttons on a problem page's blocks.
pub async fn copy_script() -> impl IntoResponse {
    script(include_str!("static/copy.js"))
}

/// `GET /static/api-docs.js`: draws the API documentation page from the
/// OpenAPI document and sends its requests.
pub async fn api_docs_script() -> impl IntoResponse {
    script(include_str!("static/api-docs.js"))
}

/// `GET /static/scoreboard.js`: keeps a contest page's scoreboard live.
pub async fn scoreboard_script() -> impl IntoResponse {
    script(include_str!("static/scoreboard.js"))
}

/// `GET /static/reveal.js`: uncovers a frozen scoreboard one result at a
/// time.
pub async fn reveal_script() -> impl IntoResponse {
    script(include_str!("static/reveal.js"))
}

fn script(text: &'static str) -> impl IntoResponse {
    (
        [
            (header::CONTENT_TYPE, "text/javascript; charset=utf-8"),
            (header::CACHE_CONTROL, "no-cache"),
        ],
        text,
    )
}
