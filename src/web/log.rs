//! The verdict log for setters and admins: every submission, newest first,
//! filtered by problem, user, verdict and time, one page at a time.
//!
//! It reads through the store's [`list_submissions`] with a [`ListFilter`],
//! as `GET /api/submissions` does, and pages with the same cursor (the
//! `next_cursor` of a page, passed back as `before`). A contestant gets the
//! API's 403 for it, as the API refuses a contestant who asks for another
//! user's submissions. A filter value that does not parse is the 400 page
//! with the form refilled and a message naming the field.
//!
//! [`list_submissions`]: crate::store::Store::list_submissions

use std::collections::BTreeMap;

use axum::{
    Router,
    extract::{Query, State, rejection::QueryRejection},
    http::StatusCode,
    response::{IntoResponse, Response},
    routing::get,
};
use maud::html;

use super::{PageError, page, visitor::Visitor};
use crate::{
    app::AppError,
    domain::{ContestId, ProblemId, Timestamp, Verdict},
    http::AppState,
    store::ListFilter,
};

/// This module's pages and forms.
pub(super) fn routes() -> Router<AppState> {
    Router::new().route("/log", get(show))
}

/// Rows per page unless `limit` says otherwise.
const DEFAULT_LIMIT: i64 = 50;
/// The most rows `limit` may ask for.
const MAX_LIMIT: i64 = 200;

/// The filters as typed, to refill the form and build the next link.
#[derive(Debug, Default, Clone)]
struct LogForm {
    problem: String,
    contest: String,
    user: String,
    verdict: String,
    since: String,
    limit: String,
    before: String,
}

impl LogForm {
    fn from_query(query: BTreeMap<String, String>) -> Result<LogForm, PageError> {
        let mut form = LogForm::default();
        for (key, value) in query {
            let slot = match key.as_str() {
                "problem" => &mut form.problem,
                "contest" => &mut form.contest,
                "user" => &mut form.user,
                "verdict" => &mut form.verdict,
                "since" => &mut form.since,
                "limit" => &mut form.limit,
                "before" => &mut form.before,
                other => {
                    return Err(PageError::BadForm(format!(
                        "unknown filter `{other}` (the log takes problem, contest, user, verdict, \
                         since, limit and before)"
                    )));
                }
            };
            *slot = value.trim().to_string();
        }
        Ok(form)
    }

    /// The store's filter, or a message naming the field that is wrong.
    fn filter(&self) -> Result<ListFilter, String> {
        let problem = optional(&self.problem)
            .map(|text| {
                text.parse::<ProblemId>()
                    .map_err(|e| format!("problem `{text}`: {e}"))
            })
            .transpose()?;
        let contest = optional(&self.contest)
            .map(|text| {
                text.parse::<ContestId>()
                    .map_err(|e| format!("contest `{text}`: {e}"))
            })
            .transpose()?;
        let verdict = optional(&self.verdict)
            .map(|text| {
                text.parse::<Verdict>()
                    .map_err(|e| format!("verdict `{text}`: {e}"))
            })
            .transpose()?;
        let since = optional(&self.since)
            .map(|text| {
                text.parse::<Timestamp>().map_err(|_| {
                    format!(
                        "since `{text}` is not an RFC 3339 time in UTC, such as 2026-11-23T00:00:00Z"
                    )
                })
            })
            .transpose()?;
        let limit = match optional(&self.limit) {
            None => DEFAULT_LIMIT,
            Some(text) => text
                .parse::<i64>()
                .ok()
                .filter(|limit| (1..=MAX_LIMIT).contains(limit))
                .ok_or_else(|| {
                    format!("limit `{text}` must be a whole number from 1 to {MAX_LIMIT}")
                })?,
        };
        let before = optional(&self.before)
            .map(|text| {
                text.parse::<i64>()
                    .ok()
                    .filter(|cursor| *cursor > 0)
                    .ok_or_else(|| format!("before `{text}` is not a page cursor"))
            })
            .transpose()?;
        Ok(ListFilter {
            problem,
            verdict,
            user: optional(&self.user).map(str::to_string),
            since,
            before,
            limit,
            contest,
            changed_since: None,
        })
    }

    /// The link to the page after this one: the same filters, `before`.
    fn next_link(&self, cursor: i64) -> String {
        let mut pairs: Vec<(&str, String)> = [
            ("problem", &self.problem),
            ("contest", &self.contest),
            ("user", &self.user),
            ("verdict", &self.verdict),
            ("since", &self.since),
            ("limit", &self.limit),
        ]
        .into_iter()
        .filter(|(_, value)| !value.is_empty())
        .map(|(key, value)| (key, value.clone()))
        .collect();
        pairs.push(("before", cursor.to_string()));
        let query: Vec<String> = pairs
            .iter()
            .map(|(key, value)| format!("{key}={}", percent_encoded(value)))
            .collect();
        format!("/log?{}", query.join("&"))
    }
}

/// `None` for a field left empty.
fn optional(text: &str) -> Option<&str> {
    Some(text).filter(|text| !text.is_empty())
}

/// `text` with everything but unreserved URL characters percent-encoded.
fn percent_encoded(text: &str) -> String {
    text.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => {
                (b as char).to_string()
            }
            _ => format!("%{b:02X}"),
        })
        .collect()
}

/// `GET /log`: the filter form and one page of submissions.
pub async fn show(
    State(state): State<AppState>,
    visitor: Visitor,
    query: Result<Query<BTreeMap<String, String>>, QueryRejection>,
) -> Result<Response, PageError> {
    visitor.caller.require_staff()?;
    let Query(query) =
        query.map_err(|e| PageError::BadForm(format!("bad query: {}", e.body_text())))?;
    let form = LogForm::from_query(query)?;
    let (page, problem) = match form.filter() {
        Ok(filter) => match state.app.list_submissions(&visitor.caller, filter).await {
            Ok(page) => (Some(page), None),
            // Said beside the form, as a filter that does not parse is.
            Err(AppError::Invalid(message)) => (None, Some(message)),
            Err(other) => return Err(other.into()),
        },
        Err(message) => (None, Some(message)),
    };
    let verdicts = Verdict::ALL;
    let titles = state.app.problem_titles().await?;
    let body = html! {
        h1 { "Verdict log" }
        form.card.filters #log-filters method="get" action="/log" {
            div.field {
                label for="problem" { "Problem" }
                input #problem type="text" name="problem" value=(form.problem) placeholder="any";
            }
            div.field {
                label for="contest" { "Contest" }
                input #contest type="text" name="contest" value=(form.contest) placeholder="any";
            }
            div.field {
                label for="user" { "User" }
                input #user type="text" name="user" value=(form.user) placeholder="anyone";
            }
            div.field {
                label for="verdict" { "Verdict" }
                select #verdict name="verdict" {
                    option value="" selected[form.verdict.is_empty()] { "any" }
                    @for verdict in verdicts {
                        option value=(verdict) selected[form.verdict == verdict.as_str()] { (verdict) }
                    }
                }
            }
            div.field {
                label for="since" { "Since (UTC)" }
                input #since type="text" name="since" value=(form.since) placeholder="2026-11-23T00:00:00Z";
            }
            @if !form.limit.is_empty() {
                input type="hidden" name="limit" value=(form.limit);
            }
            button type="submit" id="log-button" { "Filter" }
        }
        @if let Some(message) = &problem {
            p.alert #log-error { (page::prose(message)) }
        }
        @if let Some(page) = &page {
            @if page.submissions.is_empty() {
                p.muted #no-submissions { "No submissions match." }
            } @else {
                table.list #log {
                    thead { tr {
                        th { "Submitted (UTC)" } th { "Problem" } th { "User" } th { "Language" }
                        th { "Verdict" } th.num { "Time" } th.num { "Memory" } th { "Message" }
                    } }
                    tbody {
                        @for submission in &page.submissions {
                            tr data-id=(submission.id) {
                                td { a href={ "/submissions/" (submission.id) } { (submission.created_at.strftime("%Y-%m-%d %H:%M:%S")) } }
                                td { a href={ "/problems/" (submission.problem) } { (titles.get(&submission.problem).map_or(submission.problem.as_str(), String::as_str)) } }
                                td { (submission.user) }
                                td { (submission.language_text()) }
                                td { (page::verdict_badge(submission.state, submission.verdict)) }
                                td.num { (submission.time_text()) }
                                td.num { (submission.memory_text()) }
                                td.message { (submission.message.as_deref().unwrap_or_default()) }
                            }
                        }
                    }
                }
            }
            @if let Some(cursor) = page.next_cursor {
                p { a #next-page href=(form.next_link(cursor)) { "Older submissions" } }
            }
        }
    };
    let status = if problem.is_some() {
        StatusCode::BAD_REQUEST
    } else {
        StatusCode::OK
    };
    Ok((status, page::frame("Verdict log", Some(&visitor), body)).into_response())
}

#[cfg(test)]
mod tests {
    use super::{LogForm, percent_encoded};

    #[test]
    fn the_next_link_keeps_the_filters_given_and_encodes_them() {
        let form = LogForm {
            user: "ann lee&co".into(),
            since: "2026-11-23T00:00:00Z".into(),
            limit: "2".into(),
            before: "99".into(),
            ..LogForm::default()
        };
        assert_eq!(
            form.next_link(41),
            "/log?user=ann%20lee%26co&since=2026-11-23T00%3A00%3A00Z&limit=2&before=41"
        );
        assert_eq!(percent_encoded("a-b_c.d~"), "a-b_c.d~");
    }

    #[test]
    fn bad_filters_are_named() {
        let message = |form: LogForm| form.filter().expect_err("refused");
        assert!(
            message(LogForm {
                verdict: "XX".into(),
                ..LogForm::default()
            })
            .starts_with("verdict `XX`")
        );
        assert!(
            message(LogForm {
                since: "yesterday".into(),
                ..LogForm::default()
            })
            .starts_with("since `yesterday` is not an RFC 3339 time")
        );
        assert_eq!(
            message(LogForm {
                limit: "0".into(),
                ..LogForm::default()
            }),
            "limit `0` must be a whole number from 1 to 200"
        );
        assert_eq!(
            message(LogForm {
                before: "-3".into(),
                ..LogForm::default()
            }),
            "before `-3` is not a page cursor"
        );
        let filter = LogForm::default().filter().expect("no filters is fine");
        assert_eq!(filter.limit, 50);
        assert!(filter.user.is_none() && filter.problem.is_none());
    }
}
