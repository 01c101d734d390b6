//! The interactive API documentation at `/api-docs`: every operation of the
//! OpenAPI document the server serves (`/api/openapi.json`), with its
//! parameters, body and answers, and a form that sends it with a token
//! typed into the page. The script (`/static/api-docs.js`) draws the page
//! from the document, so the two never disagree; it builds every element
//! as text (no HTML from the document is ever parsed) and keeps the token
//! in the page only, never in storage. Public, like the document.

use axum::{Router, response::IntoResponse, routing::get};
use maud::html;

use super::{PageError, page, visitor::Visitor};
use crate::http::AppState;

/// This module's page.
pub(super) fn routes() -> Router<AppState> {
    Router::new().route("/api-docs", get(show))
}

/// `GET /api-docs`, with the visitor's menu if signed in.
pub async fn show(visitor: Result<Visitor, PageError>) -> impl IntoResponse {
    let body = html! {
        section.api-docs {
            h1 { "API" }
            p {
                "Every operation of the JSON API, drawn from its "
                a href="/api/openapi.json" { "OpenAPI document" }
                ". Every endpoint but health, metrics and the document needs a token ("
                code { "Authorization: Bearer <token>" } "): paste yours to try them here. "
                "It stays in this page and is sent to this server only."
            }
            form #api-token-form {
                label for="api-token" { "Token" }
                input #api-token type="password" autocomplete="off" placeholder="nj_…";
            }
            div #api-operations aria-live="polite" {
                noscript { p { "This page needs JavaScript; the document itself is at "
                    a href="/api/openapi.json" { "/api/openapi.json" } "." } }
            }
        }
        script src="/static/api-docs.js" {}
    };
    page::frame("API", visitor.ok().as_ref(), body)
}
