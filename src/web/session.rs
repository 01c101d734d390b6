//! Signing in and out, the session cookie, and CSRF checks.
//!
//! Signing in posts a token secret; a live token opens a session
//! ([`Store::open_session`](crate::store::Store::open_session)) whose random
//! id goes into an `HttpOnly`, `SameSite=Strict`, `Path=/` cookie. The
//! database keeps only the id's sha256, so a copy of it signs no one in. A
//! session ends at sign-out, after [`SESSION_LIFETIME`], or as soon as its
//! token is revoked or expires.
//!
//! Every form carries a CSRF token that must match, compared in constant
//! time: the session's own for signed-in forms, and for the sign-in form
//! (which has no session yet) a random value also set in a short-lived
//! `SameSite=Strict` cookie, so a form posted from another site carries
//! neither. `SameSite=Strict` alone would already keep the session cookie
//! off cross-site requests; the token also covers browsers that ignore it.

use axum::{
    Form, Router,
    extract::{FromRequestParts, State, rejection::FormRejection},
    http::{
        HeaderMap, HeaderValue,
        header::{COOKIE, SET_COOKIE},
        request::Parts,
    },
    response::{IntoResponse, Redirect, Response},
    routing::{get, post},
};
use maud::html;
use serde::Deserialize;

use super::{PageError, page, visitor::Visitor};
use crate::{
    app::Caller,
    domain::Timestamp,
    http::{AppState, auth_throttle::ClientAddress},
    store::sessions::random_secret,
};

/// This module's pages and forms.
pub(super) fn routes() -> Router<AppState> {
    Router::new()
        .route("/", get(home))
        .route("/sign-in", get(sign_in_page).post(sign_in))
        .route("/sign-out", post(sign_out))
}

/// How long a session lasts after sign-in, at most (its token may end it
/// sooner).
pub const SESSION_LIFETIME: jiff::SignedDuration = jiff::SignedDuration::from_hours(12);

/// The cookie holding the session id (`nimjudge bench-pages` sends it too).
pub const SESSION_COOKIE: &str = "nimjudge_session";

/// The cookie holding the sign-in form's CSRF value.
const SIGN_IN_COOKIE: &str = "nimjudge_sign_in";

/// The CSRF check of a visitor's forms; the session cookie finds the
/// visitor ([`Visitor`] itself is data, below the page frame that draws it).
impl Visitor {
    /// Refuses a form whose CSRF token is not this session's.
    pub fn check_csrf(&self, sent: Option<&str>) -> Result<(), PageError> {
        match sent {
            Some(sent) if same_secret(sent, &self.csrf) => Ok(()),
            _ => Err(PageError::Csrf),
        }
    }

    /// Reads a form whose one field is the CSRF token (a button's) and
    /// checks it.
    pub fn check_csrf_form(
        &self,
        form: Result<Form<CsrfForm>, FormRejection>,
    ) -> Result<(), PageError> {
        let Form(form) = form.map_err(|e| {
            PageError::BadForm(format!("the form could not be read: {}", e.body_text()))
        })?;
        self.check_csrf(form.csrf.as_deref())
    }
}

/// A button's form: the CSRF token alone.
#[derive(Debug, Deserialize)]
pub struct CsrfForm {
    csrf: Option<String>,
}

impl FromRequestParts<AppState> for Visitor {
    type Rejection = PageError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, PageError> {
        let session_id = cookie(&parts.headers, SESSION_COOKIE).ok_or(PageError::SignedOut)?;
        let holder = state
            .app
            .session(session_id)
            .await?
            .ok_or(PageError::SignedOut)?;
        Ok(Visitor {
            caller: Caller {
                principal: holder.principal,
                token: holder.token,
            },
            csrf: holder.csrf,
            session_id: session_id.to_string(),
        })
    }
}

/// Compares two secrets in time that depends only on their lengths, so a
/// guess learns nothing from how long the comparison took.
fn same_secret(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    let difference = a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y));
    std::hint::black_box(difference) == 0
}

/// The value of cookie `name` in the request's `Cookie` headers.
fn cookie<'a>(headers: &'a HeaderMap, name: &str) -> Option<&'a str> {
    headers
        .get_all(COOKIE)
        .iter()
        .filter_map(|value| value.to_str().ok())
        .flat_map(|value| value.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .find(|(key, _)| *key == name)
        .map(|(_, value)| value)
        .filter(|value| !value.is_empty())
}

/// A `Set-Cookie` value for `name`; `max_age` 0 deletes it. `secure` adds
/// `Secure` (the deployment is behind TLS).
fn set_cookie(name: &str, value: &str, max_age: i64, secure: bool) -> HeaderValue {
    let secure = if secure { "; Secure" } else { "" };
    let text =
        format!("{name}={value}; HttpOnly; SameSite=Strict; Path=/; Max-Age={max_age}{secure}");
    HeaderValue::from_str(&text).unwrap_or_else(|_| HeaderValue::from_static("invalid=; Max-Age=0"))
}

/// `GET /`: the problems, or the sign-in page for a visitor without a
/// session.
pub async fn home(visitor: Result<Visitor, PageError>) -> Redirect {
    match visitor {
        Ok(_) => Redirect::to("/problems"),
        Err(_) => Redirect::to("/sign-in"),
    }
}

/// `GET /sign-in`: the form, with a fresh CSRF value in it and in a cookie.
pub async fn sign_in_page(State(state): State<AppState>) -> Response {
    sign_in_form(None, state.secure_cookies)
}

/// The sign-in page, with `problem` (why the last attempt failed) above the
/// form.
fn sign_in_form(problem: Option<&str>, secure: bool) -> Response {
    let csrf = random_secret("");
    let body = html! {
        section.narrow {
            h1 { "Sign in" }
            p { "Paste the token you were given (" code { "nimjudge token create" } " prints one)." }
            @if let Some(problem) = problem {
                p.alert #sign-in-error { (problem) }
            }
            form method="post" action="/sign-in" {
                input type="hidden" name="csrf" value=(csrf);
                label for="token" { "Token" }
                input #token type="password" name="token" autocomplete="off" required autofocus;
                button type="submit" id="sign-in" { "Sign in" }
            }
        }
    };
    let mut response = page::frame("Sign in", None, body).into_response();
    if problem.is_some() {
        *response.status_mut() = axum::http::StatusCode::UNAUTHORIZED;
    }
    response
        .headers_mut()
        .append(SET_COOKIE, set_cookie(SIGN_IN_COOKIE, &csrf, 3600, secure));
    response
}

/// A form body that does not decode: the 400 page, naming the problem.
fn bad_form(rejection: FormRejection) -> PageError {
    PageError::BadForm(format!(
        "the form could not be read: {}",
        rejection.body_text()
    ))
}

/// The sign-in form's fields.
#[derive(Debug, Deserialize)]
pub struct SignInForm {
    token: String,
    csrf: String,
}

/// `POST /sign-in`: opens a session for a live token.
pub async fn sign_in(
    State(state): State<AppState>,
    ClientAddress(address): ClientAddress,
    headers: HeaderMap,
    form: Result<Form<SignInForm>, FormRejection>,
) -> Result<Response, PageError> {
    let Form(form) = form.map_err(bad_form)?;
    match cookie(&headers, SIGN_IN_COOKIE) {
        Some(expected) if same_secret(&form.csrf, expected) => {}
        _ => return Err(PageError::Csrf),
    }
    state
        .auth_throttle
        .check(address)
        .map_err(crate::http::ApiError::AuthThrottled)?;
    let expires_at = Timestamp::now()
        .checked_add(SESSION_LIFETIME)
        .map_err(|e| PageError::Api(crate::http::ApiError::Internal(e.to_string())))?;
    let Some(session) = state
        .app
        .open_session(form.token.trim(), expires_at)
        .await?
    else {
        state.auth_throttle.failed(address);
        return Ok(sign_in_form(
            Some("That token is unknown, revoked or expired."),
            state.secure_cookies,
        ));
    };
    let mut response = Redirect::to("/problems").into_response();
    let headers = response.headers_mut();
    headers.append(
        SET_COOKIE,
        set_cookie(
            SESSION_COOKIE,
            &session.id,
            SESSION_LIFETIME.as_secs(),
            state.secure_cookies,
        ),
    );
    headers.append(
        SET_COOKIE,
        set_cookie(SIGN_IN_COOKIE, "", 0, state.secure_cookies),
    );
    Ok(response)
}

/// The sign-out form's field.
#[derive(Debug, Deserialize)]
pub struct SignOutForm {
    csrf: Option<String>,
}

/// `POST /sign-out`: ends the session and deletes the cookie.
pub async fn sign_out(
    State(state): State<AppState>,
    visitor: Visitor,
    form: Result<Form<SignOutForm>, FormRejection>,
) -> Result<Response, PageError> {
    let Form(form) = form.map_err(bad_form)?;
    visitor.check_csrf(form.csrf.as_deref())?;
    state.app.close_session(&visitor.session_id).await?;
    let mut response = Redirect::to("/sign-in").into_response();
    response.headers_mut().append(
        SET_COOKIE,
        set_cookie(SESSION_COOKIE, "", 0, state.secure_cookies),
    );
    Ok(response)
}

#[cfg(test)]
mod tests {
    use axum::http::{HeaderMap, HeaderValue, header::COOKIE};

    use super::{cookie, same_secret};

    #[test]
    fn secrets_match_only_when_equal() {
        assert!(same_secret("abc", "abc"));
        assert!(!same_secret("abc", "abd"));
        assert!(!same_secret("abc", "abcd"));
        assert!(!same_secret("", "a"));
    }

    #[test]
    fn a_cookie_is_found_by_exact_name_in_any_cookie_header() {
        let mut headers = HeaderMap::new();
        headers.append(
            COOKIE,
            HeaderValue::from_static("a=1; nimjudge_session_x=2"),
        );
        headers.append(COOKIE, HeaderValue::from_static("nimjudge_session=s3; b=4"));
        assert_eq!(cookie(&headers, "nimjudge_session"), Some("s3"));
        assert_eq!(cookie(&headers, "b"), Some("4"));
        assert_eq!(cookie(&headers, "c"), None);
        headers.append(COOKIE, HeaderValue::from_static("empty="));
        assert_eq!(cookie(&headers, "empty"), None);
    }
}
