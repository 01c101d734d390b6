//! One line and one count per request: each answered request is logged on
//! the `nimjudge::access` target (method, path, status, time; silence it
//! with `nimjudge::access=warn` in the log filter) and counted for
//! `/metrics` by method, route and status, with its duration by route.
//! The route is the path template (`/api/submissions/{id}`), so ids make no
//! new series; an unknown path counts as `unmatched`.

use std::time::Instant;

use axum::{
    extract::{MatchedPath, Request, State},
    middleware::Next,
    response::Response,
};

use crate::telemetry::{Metrics, RequestLabels};

/// The middleware: answers the request, then logs and counts it.
pub async fn log_and_count(
    State(metrics): State<Metrics>,
    request: Request,
    next: Next,
) -> Response {
    let started = Instant::now();
    let method = request.method().clone();
    let path = request.uri().path().to_string();
    let route = request
        .extensions()
        .get::<MatchedPath>()
        .map_or("unmatched", MatchedPath::as_str)
        .to_string();
    let response = next.run(request).await;
    let took = started.elapsed();
    let status = response.status().as_u16();
    tracing::info!(
        target: "nimjudge::access",
        method = %method,
        path = %path,
        status,
        ms = took.as_secs_f64() * 1e3,
        "request"
    );
    metrics.observe_request(
        RequestLabels {
            method: method_label(&method).to_string(),
            route,
            status,
        },
        took,
    );
    response
}

/// A method as a metrics label: the standard ones by name, any other as
/// `other` (a client may send methods of its own, and each name would be
/// a series kept for the process's life).
fn method_label(method: &axum::http::Method) -> &'static str {
    use axum::http::Method;
    [
        Method::GET,
        Method::HEAD,
        Method::POST,
        Method::PUT,
        Method::DELETE,
        Method::PATCH,
        Method::OPTIONS,
        Method::CONNECT,
        Method::TRACE,
    ]
    .iter()
    .find(|standard| *standard == method)
    .map_or("other", |standard| standard.as_str())
}

#[cfg(test)]
mod tests {
    use axum::http::Method;

    use super::method_label;

    #[test]
    fn a_method_of_the_clients_own_is_counted_as_other() {
        assert_eq!(method_label(&Method::GET), "GET");
        assert_eq!(method_label(&Method::DELETE), "DELETE");
        let own = Method::from_bytes(b"QWERTY123").expect("a method");
        assert_eq!(method_label(&own), "other");
    }
}
