//! The HTTP API: routing, shared state, extractors and the OpenAPI document.
//!
//! Handlers validate and insert; they never judge (that is the workers' job)
//! and never hold a transaction across an await on anything but the
//! database. Every error is an [`ApiError`] rendered as `{"error": "..."}`.
//! Every route is registered through `utoipa_axum::routes!` from a handler
//! annotated with `#[utoipa::path]`, so the served OpenAPI document
//! (`GET /api/openapi.json`) lists exactly the routes that exist, with their
//! bodies, parameters, statuses and schemas taken from the real types.
//!
//! # Layout
//! - [`error`]: [`ApiError`] and its status mapping.
//! - [`auth`]: bearer tokens and roles.
//! - [`auth_throttle`]: failed authentications counted per client address.
//! - [`problems`]: problems and testcases (setters manage, everyone reads).
//! - [`rejudgings`]: rejudge previews: started, read, applied, discarded.
//! - [`submissions`]: submitting, reading, listing and rejudging.
//! - [`idempotency`]: the `Idempotency-Key` header of a submission.
//! - [`tokens`]: creating, listing and revoking tokens (admins).
//! - [`contests`]: contests, registration, scoreboards and the thaw.
//! - [`ccs`]: the ICPC CCS Contest API's read-only view of contests, under
//!   `/ccs` (its own spec, so not in the OpenAPI document).
//! - [`ops`]: health and metrics.
//! - [`languages`]: the languages programs may be written in.
//! - [`request_body`]: reading a body within its size and time limits.
//! - [`request_log`]: a log line and a count for every request.
//! - [`server`]: the accept loop: connection timeouts, the connection cap and
//!   a shutdown bounded by its grace period.

pub mod auth;
pub mod auth_throttle;
pub mod ccs;
pub mod contests;
pub mod error;
pub mod event_feed;
pub mod idempotency;
pub mod languages;
pub mod ops;
pub mod problems;
pub mod rejudgings;
pub mod request_body;
pub mod request_log;
pub mod server;
pub mod submissions;
pub mod tokens;

use std::{sync::Arc, time::Duration};

use axum::{
    Json, Router,
    extract::{DefaultBodyLimit, FromRequest, FromRequestParts, Request},
    http::{StatusCode, header, request::Parts},
    middleware,
    response::IntoResponse,
    routing::{any, get},
};
use serde::de::DeserializeOwned;
use tower_http::{
    timeout::TimeoutLayer,
    trace::{DefaultMakeSpan, DefaultOnResponse, TraceLayer},
};
use tracing::Level;
use utoipa::{
    Modify, OpenApi,
    openapi::security::{HttpAuthScheme, HttpBuilder, SecurityScheme},
};
use utoipa_axum::router::OpenApiRouter;

pub use error::ApiError;
use request_body::BodyLimits;

use crate::{api::ErrorBody, app::App};

/// What every handler can reach: the application, and the HTTP layer's own
/// settings.
#[derive(Clone, Debug)]
pub struct AppState {
    pub app: App,
    /// Web UI cookies carry `Secure` (`server.secure_cookies`).
    pub secure_cookies: bool,
    /// Failed authentications per client address.
    pub auth_throttle: Arc<auth_throttle::AuthThrottle>,
    /// The Contest API's event feeds: open ones, and what each sent.
    pub event_feeds: Arc<event_feed::EventFeeds>,
}

/// HTTP limits the router enforces.
#[derive(Debug, Clone, Copy)]
pub struct RouterLimits {
    /// Largest request body; larger ones get 413.
    pub body_limit_bytes: usize,
    /// Longest a request may take end to end; longer ones get 503.
    pub request_timeout: Duration,
    /// Longest a request's body may take to arrive after its header; longer
    /// ones get 408.
    pub body_read_timeout: Duration,
}

#[derive(OpenApi)]
#[openapi(
    info(
        title = "nimjudge",
        description = "An online judge for combinatorial-game contest problems. \
            Every endpoint but health, metrics and this document needs `Authorization: Bearer <token>`."
    ),
    security(("bearer" = [])),
    components(schemas(ErrorBody)),
    modifiers(&BearerScheme)
)]
struct ApiDoc;

/// Adds the bearer-token security scheme to the document.
struct BearerScheme;

impl Modify for BearerScheme {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        let components = openapi.components.get_or_insert_with(Default::default);
        components.add_security_scheme(
            "bearer",
            SecurityScheme::Http(HttpBuilder::new().scheme(HttpAuthScheme::Bearer).build()),
        );
    }
}

/// The documented routes and the OpenAPI document describing them.
fn documented_routes() -> (Router<AppState>, utoipa::openapi::OpenApi) {
    let (routes, mut document) = OpenApiRouter::with_openapi(ApiDoc::openapi())
        .merge(ops::routes())
        .merge(tokens::routes())
        .merge(contests::routes())
        .merge(problems::routes())
        .merge(rejudgings::routes())
        .merge(submissions::routes())
        .merge(languages::routes())
        .split_for_parts();
    add_common_responses(&mut document);
    (routes, document)
}

/// The statuses any route can answer whatever its handler does, added to
/// every operation that does not list them (or appended to the description
/// of one that lists the status for a reason of its own): 500 and 503 (the
/// router's request timeout) everywhere; 401 and 429 (failed
/// authentications from the address) where a token is needed; 400 where
/// a query or a body is read; 404 where the path holds a parameter; 408,
/// 413, 415 and 422 where a body is read.
fn add_common_responses(document: &mut utoipa::openapi::OpenApi) {
    use utoipa::openapi::{
        Content, Ref, ResponseBuilder,
        path::{Operation, ParameterIn},
    };
    let mut common: Vec<(u16, &str)> = Vec::new();
    let mut add = |operation: &mut Operation| {
        let public = operation.security.as_ref().is_some_and(|requirements| {
            serde_json::to_value(requirements)
                .ok()
                .and_then(|v| v.as_array().cloned())
                .is_some_and(|all| {
                    all.iter()
                        .all(|r| r.as_object().is_some_and(|o| o.is_empty()))
                })
        });
        let reads_query = operation.parameters.iter().flatten().any(|parameter| {
            matches!(parameter, utoipa::openapi::RefOr::T(p) if p.parameter_in == ParameterIn::Query)
        });
        let reads_body = operation.request_body.is_some();
        let reads_path = operation.parameters.iter().flatten().any(|parameter| {
            matches!(parameter, utoipa::openapi::RefOr::T(p) if p.parameter_in == ParameterIn::Path)
        });
        common.clear();
        common.push((500, "An internal error (logged, never shown)."));
        common.push((
            503,
            "The request took longer than `server.request_timeout_ms`.",
        ));
        if !public {
            common.push((401, "No valid token."));
            common.push((
                429,
                "Too many unknown, revoked or expired tokens from this address in a minute \
                 (`limits.failed_auths_per_minute`); `Retry-After` says when to try again.",
            ));
        }
        if reads_query || reads_body {
            common.push((400, "A malformed query or body."));
        }
        if reads_path {
            common.push((404, "A path parameter that is malformed or names nothing."));
        }
        if reads_body {
            common.push((
                408,
                "The body did not arrive within `server.body_read_timeout_ms`.",
            ));
            common.push((413, "A body above `server.body_limit_bytes`."));
            common.push((415, "A body that is not `application/json`."));
            common.push((422, "A body of the wrong shape or types."));
        }
        for &(status, description) in &common {
            match operation.responses.responses.get_mut(&status.to_string()) {
                Some(utoipa::openapi::RefOr::T(response)) => {
                    if !response.description.contains(description) {
                        response.description =
                            format!("{} Or: {description}", response.description);
                    }
                }
                Some(utoipa::openapi::RefOr::Ref(_)) => {}
                None => {
                    let response = ResponseBuilder::new()
                        .description(description)
                        .content(
                            "application/json",
                            Content::new(Some(Ref::from_schema_name("ErrorBody"))),
                        )
                        .build();
                    operation
                        .responses
                        .responses
                        .insert(status.to_string(), response.into());
                }
            }
        }
    };
    for item in document.paths.paths.values_mut() {
        for operation in [
            &mut item.get,
            &mut item.put,
            &mut item.post,
            &mut item.delete,
            &mut item.patch,
        ]
        .into_iter()
        .flatten()
        {
            add(operation);
        }
    }
}

/// The OpenAPI document of every route, as served.
pub fn openapi() -> utoipa::openapi::OpenApi {
    documented_routes().1
}

/// The web UI as the router takes it, from a layer that the API does not
/// import: its routes, and how a page answers a body the limits refuse.
pub struct Pages {
    pub routes: Router<AppState>,
    /// The HTML page of a 413 or 408 from [`request_body`], where the API
    /// answers JSON.
    pub refuse_body: fn(ApiError) -> axum::response::Response,
}

/// Every route of the API and the web UI's `pages`, with the middleware
/// (body limits, timeouts, tracing) around both. The body limits are the
/// same for both, but each answers a refusal in its own format. An unknown
/// path under `/api` is a JSON 404; `pages` bring their own fallback for
/// every other unknown path, so a browser gets an HTML page. None of the
/// pages' routes enter the OpenAPI document.
pub fn router(state: AppState, limits: RouterLimits, pages: Pages) -> Router {
    let (routes, document) = documented_routes();
    let body_limits = BodyLimits {
        max_bytes: limits.body_limit_bytes,
        read_timeout: limits.body_read_timeout,
        refuse: <ApiError as IntoResponse>::into_response,
    };
    // Serialised once: the document never changes while the server runs.
    let document: Arc<str> = serde_json::to_string(&document)
        .unwrap_or_else(|e| format!("{{\"error\": \"cannot render the document: {e}\"}}"))
        .into();
    routes
        .route(
            "/api/openapi.json",
            get(move || {
                let document = document.clone();
                async move {
                    (
                        [(header::CONTENT_TYPE, "application/json")],
                        document.to_string(),
                    )
                }
            }),
        )
        .merge(ccs::routes())
        .route("/api", any(not_found))
        .route("/api/{*rest}", any(not_found))
        .layer(middleware::from_fn_with_state(
            body_limits,
            request_body::read_within_limits,
        ))
        .merge(pages.routes.layer(middleware::from_fn_with_state(
            BodyLimits {
                refuse: pages.refuse_body,
                ..body_limits
            },
            request_body::read_within_limits,
        )))
        .method_not_allowed_fallback(method_not_allowed)
        // On each route (its matched path known) and the fallbacks.
        .layer(middleware::from_fn_with_state(
            state.app.metrics().clone(),
            request_log::log_and_count,
        ))
        // Every answer, the API's JSON and text too, is read as the type it
        // says it is (pages set the same and more for themselves).
        .layer(middleware::map_response(no_sniffing))
        .layer(DefaultBodyLimit::max(limits.body_limit_bytes))
        .layer(TimeoutLayer::with_status_code(
            StatusCode::SERVICE_UNAVAILABLE,
            limits.request_timeout,
        ))
        // One line per request is too much for `info` under load.
        .layer(
            TraceLayer::new_for_http()
                .make_span_with(DefaultMakeSpan::new().level(Level::DEBUG))
                .on_response(DefaultOnResponse::new().level(Level::DEBUG)),
        )
        .with_state(state)
}

async fn not_found() -> ApiError {
    ApiError::NotFound("no such endpoint; see GET /api/openapi.json".into())
}

async fn method_not_allowed() -> ApiError {
    ApiError::Rejected {
        status: StatusCode::METHOD_NOT_ALLOWED,
        message: "method not allowed on this endpoint".into(),
    }
}

/// `Json` whose rejections are [`ApiError`]s (so `{"error": ...}` bodies).
pub struct ApiJson<T>(pub T);

impl<S: Send + Sync, T: DeserializeOwned> FromRequest<S> for ApiJson<T> {
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Self, ApiError> {
        let Json(value) = Json::<T>::from_request(req, state).await?;
        Ok(ApiJson(value))
    }
}

/// `Query` whose rejections are [`ApiError`]s.
pub struct ApiQuery<T>(pub T);

impl<S: Send + Sync, T: DeserializeOwned> FromRequestParts<S> for ApiQuery<T> {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, ApiError> {
        let axum::extract::Query(value) =
            axum::extract::Query::<T>::from_request_parts(parts, state).await?;
        Ok(ApiQuery(value))
    }
}

/// `Path` whose rejections are [`ApiError`]s. A segment that does not parse
/// into its domain type (a malformed id or name) names nothing that exists,
/// so it is a 404.
pub struct ApiPath<T>(pub T);

impl<S: Send + Sync, T: DeserializeOwned + Send> FromRequestParts<S> for ApiPath<T> {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, ApiError> {
        let axum::extract::Path(value) =
            axum::extract::Path::<T>::from_request_parts(parts, state).await?;
        Ok(ApiPath(value))
    }
}

/// Adds `X-Content-Type-Options: nosniff` to a response.
async fn no_sniffing(mut response: axum::response::Response) -> axum::response::Response {
    response.headers_mut().insert(
        header::X_CONTENT_TYPE_OPTIONS,
        axum::http::HeaderValue::from_static("nosniff"),
    );
    response
}
