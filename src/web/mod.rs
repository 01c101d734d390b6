//! The web UI: server-rendered HTML pages for contestants, setters and
//! admins, built into the daemon beside the API and served by the same
//! router.
//!
//! Pages are an edge like [`http`](crate::http), beside it: they call the
//! same [`App`](crate::app::App) use cases, so a page shows a contestant
//! exactly what the API would and a form is refused for the same reasons.
//! A visitor signs in with a token and then holds a session cookie
//! ([`session`]); every form carries a CSRF token; every response carries a
//! strict Content-Security-Policy, and no page has inline script or style.
//! Each module lists its own routes (`routes()`); [`pages`] merges them.
//! None of these routes enter the OpenAPI document.
//!
//! # Layout
//! - [`session`]: signing in and out, the session cookie, CSRF checks.
//! - [`problems`]: the problem list, a problem's page, inputs, submitting.
//! - [`practice`]: an interactive problem's game against the solver core,
//!   one form post a move, with explanations.
//! - [`grundy`]: the Grundy plot of a problem whose one pile has a Grundy
//!   sequence, an SVG drawn on the server.
//! - [`log`]: the verdict log for setters and admins, with filters and
//!   pages.
//! - [`submissions`]: the submission list and page, and the live status.
//! - [`testcases`]: the setters' testcase page: add, hide/show, delete,
//!   rejudge all with progress.
//! - [`matrices`]: the solutions × testcases matrix, run by the workers,
//!   and the review of the time limit.
//! - [`stress`]: stress tests of a setter's solution, run by the workers.
//! - [`rejudgings`]: rejudge previews: start one, see which verdicts
//!   would change, apply or discard.
//! - [`tokens`]: the admins' token page: list, issue, revoke.
//! - [`statement`]: markdown statements rendered without raw HTML.
//! - [`contests`]: the contest list, a contest page with its live
//!   scoreboard, registering, the thaw.
//! - [`visitor`]: the signed-in visitor every page is drawn for.
//! - [`page`]: the frame every page shares and the error page.
//! - [`api_docs`]: the interactive API documentation, drawn from the
//!   OpenAPI document.
//! - [`assets`]: the stylesheet and the script, compiled into the binary.
//! - [`error`]: [`PageError`] and its HTML rendering.

pub mod api_docs;
pub mod assets;
pub mod contests;
pub mod error;
pub mod grundy;
pub mod log;
pub mod matrices;
pub mod page;
pub mod practice;
pub mod problems;
pub mod rejudgings;
pub mod session;
pub mod statement;
pub mod stress;
pub mod submissions;
pub mod testcases;
pub mod tokens;
pub mod visitor;

use axum::{
    Router,
    extract::FromRequestParts,
    http::{HeaderValue, StatusCode, header, request::Parts},
    middleware,
    response::{IntoResponse, Response},
};
use serde::de::DeserializeOwned;

pub use error::PageError;

use crate::http::{ApiError, AppState, Pages};

/// The policy every page is served with: only this origin's stylesheet,
/// script and fetches; no inline script or style, no plugins, no framing,
/// forms posting only here.
pub const CONTENT_SECURITY_POLICY: &str = "default-src 'none'; script-src 'self'; \
     style-src 'self'; img-src 'self'; connect-src 'self'; form-action 'self'; \
     frame-ancestors 'none'; base-uri 'none'";

/// The pages as the API's router takes them: their routes, with their
/// security headers, the HTML 404 for every path no route claims outside
/// `/api`, and an HTML 405 for a method a page does not take; and the HTML
/// page of a body the limits refuse.
pub fn pages() -> Pages {
    Pages {
        routes: router(),
        refuse_body,
    }
}

/// The pages' routes.
fn router() -> Router<AppState> {
    Router::new()
        .merge(session::routes())
        .merge(api_docs::routes())
        .merge(problems::routes())
        .merge(practice::routes())
        .merge(grundy::routes())
        .merge(testcases::routes())
        .merge(rejudgings::routes())
        .merge(matrices::routes())
        .merge(stress::routes())
        .merge(submissions::routes())
        .merge(log::routes())
        .merge(tokens::routes())
        .merge(contests::routes())
        .merge(assets::routes())
        .fallback(not_found)
        .method_not_allowed_fallback(method_not_allowed)
        .layer(middleware::map_response(security_headers))
}

/// A body refused before any page handler ran (too large, too slow): its
/// HTML page, with the headers every page carries. The refusal runs outside
/// the pages' own layers, so it adds them itself.
fn refuse_body(refusal: ApiError) -> Response {
    with_security_headers(PageError::Api(refusal).into_response())
}

async fn security_headers(response: Response) -> Response {
    with_security_headers(response)
}

/// Adds the security headers to every page response. Pages show a
/// visitor's own data, so they are not cached (the static files say
/// otherwise for themselves).
fn with_security_headers(mut response: Response) -> Response {
    let headers = response.headers_mut();
    headers.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(CONTENT_SECURITY_POLICY),
    );
    headers.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    headers.insert(
        header::REFERRER_POLICY,
        HeaderValue::from_static("same-origin"),
    );
    headers.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
    headers
        .entry(header::CACHE_CONTROL)
        .or_insert(HeaderValue::from_static("no-store"));
    response
}

async fn not_found() -> PageError {
    PageError::NotFound("there is no page here".into())
}

async fn method_not_allowed() -> PageError {
    PageError::Api(ApiError::Rejected {
        status: StatusCode::METHOD_NOT_ALLOWED,
        message: "this page does not take that method".into(),
    })
}

/// `Path` whose rejections are [`PageError`]s: a segment that does not
/// parse into its domain type names nothing that exists, so it is the 404
/// page.
pub struct PagePath<T>(pub T);

impl<S: Send + Sync, T: DeserializeOwned + Send> FromRequestParts<S> for PagePath<T> {
    type Rejection = PageError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, PageError> {
        let axum::extract::Path(value) = axum::extract::Path::<T>::from_request_parts(parts, state)
            .await
            .map_err(|_| PageError::NotFound("there is no page here".into()))?;
        Ok(PagePath(value))
    }
}
