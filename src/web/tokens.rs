//! The admins' token page: every token (name, role, when it was made, when
//! it expires, whether it was revoked; never its secret, which the store
//! keeps only hashed), a form to issue one, and a revoke button on each
//! live token.
//!
//! Every action goes through the application's use cases, as the API's
//! do, so it is refused for the same reasons with the same words: admins only (setters and contestants get
//! the API's 403 for the page and for every form), an invalid name or
//! lifetime as a 422, a name that is a user of another role as a 409, the
//! admin's own token as a 409. A new token's secret is shown once, on the
//! page that answers the issue form, and never again. Every form carries
//! the session's CSRF token. The list is paged newest first, like the
//! verdict log: an "Older tokens" link passes the page's last token number
//! as `before`.

use axum::{
    Form, Router,
    extract::{Query, State, rejection::FormRejection},
    http::StatusCode,
    response::{IntoResponse, Redirect, Response},
    routing::{get, post},
};
use maud::html;
use serde::Deserialize;

use super::{PageError, PagePath, page, visitor::Visitor};
use crate::{
    api::{NewToken, TokenCreated},
    app::AppError,
    domain::{Role, Timestamp, TokenId},
    http::{ApiError, AppState},
    store::TokenPage,
};

/// This module's pages and forms.
pub(super) fn routes() -> Router<AppState> {
    Router::new()
        .route("/tokens", get(show).post(issue))
        .route("/tokens/{id}/revoke", post(revoke))
}

/// Tokens per page of the list.
pub const PAGE_SIZE: i64 = 50;

/// What the issue form sent, kept to fill the form in again after a
/// refusal. Every field is text, so a malformed one is refused on the page
/// naming the field, not as an unreadable form.
#[derive(Debug, Default, Deserialize)]
pub struct IssueForm {
    csrf: Option<String>,
    #[serde(default)]
    name: String,
    #[serde(default)]
    role: String,
    /// A whole number of `expires_unit`s; empty: the token never expires.
    #[serde(default)]
    expires_in: String,
    #[serde(default)]
    expires_unit: String,
}

/// The units the expiry may be given in, with their length in seconds.
const EXPIRY_UNITS: [(&str, u64); 3] = [("hours", 3600), ("days", 86_400), ("minutes", 60)];

/// What the page says above the list.
enum Notice {
    /// A token was just issued: its one showing.
    Issued(TokenCreated),
    Done(String),
    Refused(String),
}

/// The list's query: `before` (a cursor, the last token number of the
/// page before), and `revoked`, which a redirect after a revocation carries.
#[derive(Debug, Deserialize)]
pub struct ShowQuery {
    revoked: Option<TokenId>,
    before: Option<TokenId>,
}

/// `GET /tokens`: a page of the list, newest first, and the issue form.
pub async fn show(
    State(state): State<AppState>,
    visitor: Visitor,
    query: Result<Query<ShowQuery>, axum::extract::rejection::QueryRejection>,
) -> Result<Response, PageError> {
    // Admins only (the API's 403), before a malformed query is refused.
    let before = query.as_ref().ok().and_then(|Query(query)| query.before);
    let tokens = state
        .app
        .token_page(&visitor.caller, before, PAGE_SIZE)
        .await?;
    let Query(query) =
        query.map_err(|e| PageError::BadForm(format!("bad query: {}", e.body_text())))?;
    let notice = query
        .revoked
        .map(|id| Notice::Done(format!("Revoked token {id}: it no longer signs anyone in.")));
    Ok(render(
        &visitor,
        &tokens,
        notice,
        &IssueForm::default(),
        StatusCode::OK,
    ))
}

/// The page with `notice` and the issue form holding `form`, answered with
/// `status`.
fn render(
    visitor: &Visitor,
    tokens: &TokenPage,
    notice: Option<Notice>,
    form: &IssueForm,
    status: StatusCode,
) -> Response {
    let now = Timestamp::now();
    let unit = if form.expires_unit.is_empty() {
        "days"
    } else {
        form.expires_unit.as_str()
    };
    let body = html! {
        h1 { "Tokens" }
        @match &notice {
            Some(Notice::Issued(created)) => section.notice #issued-token {
                p {
                    "Issued token " (created.id) " for " strong { (created.name) }
                    " (" (created.role) "), "
                    @match created.expires_at {
                        Some(at) => { "expiring " (page::time_text(at)) },
                        None => "never expiring",
                    }
                    ". Copy its secret now: it is shown this once and cannot be read again."
                }
                pre.secret #new-secret { (created.token) }
            },
            Some(Notice::Done(text)) => p.notice #token-notice { (text) },
            Some(Notice::Refused(text)) => p.alert #token-error { (page::prose(text)) },
            None => {},
        }
        table.list #token-list {
            thead { tr {
                th.num { "#" } th { "Name" } th { "Role" } th { "Created" } th { "Expires" }
                th { "Status" } th { "" }
            } }
            tbody {
                @for token in &tokens.tokens {
                    @let live = token.revoked_at.is_none() && token.expires_at.is_none_or(|at| at > now);
                    tr data-id=(token.id) {
                        td.num { (token.id) }
                        td { (token.name) }
                        td { span class={ "role role-" (token.role) } { (token.role) } }
                        td { (page::time_text(token.created_at)) }
                        td { (token.expires_at.map(page::time_text).unwrap_or_else(|| "never".into())) }
                        td {
                            @if let Some(at) = token.revoked_at {
                                span.status.tried { "revoked " (page::time_text(at)) }
                            } @else if !live {
                                span.status.tried { "expired" }
                            } @else {
                                span.status.solved { "live" }
                            }
                        }
                        td {
                            @if token.id == visitor.caller.token {
                                span.muted { "this session's" }
                            } @else if token.revoked_at.is_none() {
                                form.inline method="post" action={ "/tokens/" (token.id) "/revoke" } {
                                    input type="hidden" name="csrf" value=(visitor.csrf);
                                    button.small type="submit" id={ "revoke-" (token.id) } { "Revoke" }
                                }
                            }
                        }
                    }
                }
            }
        }
        @if let Some(cursor) = tokens.next_cursor {
            p { a #older-tokens href={ "/tokens?before=" (cursor) } { "Older tokens" } }
        }
        section.forms {
            form.card #issue-token method="post" action="/tokens" {
                h2 { "Issue a token" }
                p.muted { "A name is one user: every token of a name has the same role." }
                input type="hidden" name="csrf" value=(visitor.csrf);
                label for="token-name" { "Name" }
                input #token-name type="text" name="name" value=(form.name) required;
                label for="token-role" { "Role" }
                select #token-role name="role" {
                    @for role in Role::ALL {
                        option value=(role) selected[form.role == role.as_str()] { (role) }
                    }
                }
                label for="token-expires-in" { "Expires after (leave empty: never)" }
                div.inline-fields {
                    input #token-expires-in type="number" name="expires_in" min="1" value=(form.expires_in);
                    select #token-expires-unit name="expires_unit" {
                        @for (name, _) in EXPIRY_UNITS {
                            option value=(name) selected[unit == name] { (name) }
                        }
                    }
                }
                button type="submit" id="issue-token-button" { "Issue token" }
            }
        }
    };
    (status, page::frame("Tokens", Some(visitor), body)).into_response()
}

/// A time to the minute, in UTC.
/// The form's lifetime in seconds: `None` for an empty field, a message
/// naming the field for anything but a whole number of a known unit. The
/// bounds are the API's, checked by [`App::issue_token`](crate::app::App::issue_token).
fn lifetime_seconds(form: &IssueForm) -> Result<Option<u64>, String> {
    let amount = form.expires_in.trim();
    if amount.is_empty() {
        return Ok(None);
    }
    let amount: u64 = amount
        .parse()
        .map_err(|_| format!("the expiry `{amount}` is not a whole number"))?;
    let unit = if form.expires_unit.is_empty() {
        "days"
    } else {
        form.expires_unit.as_str()
    };
    let (_, seconds) = EXPIRY_UNITS
        .iter()
        .find(|(name, _)| *name == unit)
        .ok_or_else(|| format!("unknown expiry unit `{unit}` (expected hours, days or minutes)"))?;
    // An overflow is past the API's ten years: let it refuse with its words.
    Ok(Some(amount.saturating_mul(*seconds)))
}

/// `POST /tokens`: issues a token through the API's own path and shows its
/// secret once; a refusal the admin can fix is the page again with its
/// status, the message and the form as it was sent.
pub async fn issue(
    State(state): State<AppState>,
    visitor: Visitor,
    form: Result<Form<IssueForm>, FormRejection>,
) -> Result<Response, PageError> {
    let Form(form) = form.map_err(|e| {
        PageError::BadForm(format!("the form could not be read: {}", e.body_text()))
    })?;
    visitor.check_csrf(form.csrf.as_deref())?;
    // Admins only, before the form's content is looked at.
    let tokens = state
        .app
        .token_page(&visitor.caller, None, PAGE_SIZE)
        .await?;
    let refused = |message: String, status: StatusCode| {
        render(
            &visitor,
            &tokens,
            Some(Notice::Refused(message)),
            &form,
            status,
        )
    };
    let role: Role = match form.role.parse() {
        Ok(role) => role,
        Err(e) => return Ok(refused(e, StatusCode::UNPROCESSABLE_ENTITY)),
    };
    let expires_in_seconds = match lifetime_seconds(&form) {
        Ok(seconds) => seconds,
        Err(e) => return Ok(refused(e, StatusCode::UNPROCESSABLE_ENTITY)),
    };
    let request = NewToken {
        name: form.name.clone(),
        role,
        expires_in_seconds,
    };
    match state.app.issue_token(&visitor.caller, request).await {
        Ok(created) => {
            let tokens = state
                .app
                .token_page(&visitor.caller, None, PAGE_SIZE)
                .await?;
            Ok(render(
                &visitor,
                &tokens,
                Some(Notice::Issued(created)),
                &IssueForm::default(),
                StatusCode::CREATED,
            ))
        }
        Err(e @ (AppError::Invalid(_) | AppError::Conflict(_))) => {
            let e = ApiError::from(e);
            Ok(refused(e.to_string(), e.status()))
        }
        Err(other) => Err(other.into()),
    }
}

/// The revoke form's one field.
#[derive(Debug, Deserialize)]
pub struct RevokeForm {
    csrf: Option<String>,
}

/// `POST /tokens/{id}/revoke`: revokes a token through the API's own path;
/// the admin's own token is the page again with the API's 409 message.
pub async fn revoke(
    State(state): State<AppState>,
    visitor: Visitor,
    PagePath(id): PagePath<TokenId>,
    form: Result<Form<RevokeForm>, FormRejection>,
) -> Result<Response, PageError> {
    let Form(form) = form.map_err(|e| {
        PageError::BadForm(format!("the form could not be read: {}", e.body_text()))
    })?;
    visitor.check_csrf(form.csrf.as_deref())?;
    match state.app.revoke_token(&visitor.caller, id).await {
        Ok(()) => Ok(Redirect::to(&format!("/tokens?revoked={id}")).into_response()),
        Err(e @ AppError::Conflict(_)) => {
            let e = ApiError::from(e);
            let tokens = state
                .app
                .token_page(&visitor.caller, None, PAGE_SIZE)
                .await?;
            let notice = Some(Notice::Refused(e.to_string()));
            Ok(render(
                &visitor,
                &tokens,
                notice,
                &IssueForm::default(),
                e.status(),
            ))
        }
        Err(other) => Err(other.into()),
    }
}

#[cfg(test)]
mod tests {
    use super::{IssueForm, lifetime_seconds};

    fn form(amount: &str, unit: &str) -> IssueForm {
        IssueForm {
            expires_in: amount.into(),
            expires_unit: unit.into(),
            ..IssueForm::default()
        }
    }

    #[test]
    fn a_lifetime_is_a_whole_number_of_a_known_unit_or_nothing() {
        assert_eq!(lifetime_seconds(&form("", "days")), Ok(None));
        assert_eq!(lifetime_seconds(&form(" ", "hours")), Ok(None));
        assert_eq!(lifetime_seconds(&form("2", "hours")), Ok(Some(7200)));
        assert_eq!(lifetime_seconds(&form("1", "")), Ok(Some(86_400)));
        assert_eq!(lifetime_seconds(&form("5", "minutes")), Ok(Some(300)));
        assert_eq!(
            lifetime_seconds(&form(&u64::MAX.to_string(), "days")),
            Ok(Some(u64::MAX))
        );
        assert!(lifetime_seconds(&form("1.5", "days")).is_err());
        assert!(lifetime_seconds(&form("-1", "days")).is_err());
        assert!(lifetime_seconds(&form("1", "weeks")).is_err());
    }
}
