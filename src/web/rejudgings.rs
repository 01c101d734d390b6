//! Rejudge previews for setters and admins: a button on a problem's
//! testcase page starts one, and its page lists every submission's verdict
//! before and in the preview, changed ones first, with the buttons to apply
//! the changes or discard the preview once every submission is judged
//! again. While workers are judging it the page reloads itself every few
//! seconds (a `refresh` meta tag: no script).
//!
//! Every action is the API's use case, refused for the same reasons with the
//! same words: a contestant gets the 403 for the page and every form; a
//! preview that cannot be applied yet or was decided already is the page
//! again with the 409's message above the list.

use axum::{
    Form, Router,
    extract::{Query, State, rejection::FormRejection},
    http::StatusCode,
    response::{IntoResponse, Redirect, Response},
    routing::{get, post},
};
use maud::{Markup, html};
use serde::Deserialize;

use super::{PageError, PagePath, page, session::CsrfForm, visitor::Visitor};
use crate::{
    app::AppError,
    domain::{ProblemId, Rejudging, RejudgingState, SubmissionState},
    http::{ApiError, AppState},
};

/// This module's pages and forms.
pub(super) fn routes() -> Router<AppState> {
    Router::new()
        .route("/problems/{id}/rejudgings", post(start))
        .route("/rejudgings/{id}", get(show))
        .route("/rejudgings/{id}/apply", post(apply))
        .route("/rejudgings/{id}/discard", post(discard))
}

/// The query a redirect after an action carries, to say what was done.
#[derive(Debug, Deserialize)]
pub struct DoneQuery {
    applied: Option<i64>,
    stale: Option<i64>,
    discarded: Option<bool>,
}

/// `POST /problems/{id}/rejudgings`: starts a preview of rejudging every
/// judged submission of the problem and opens its page.
pub async fn start(
    State(state): State<AppState>,
    visitor: Visitor,
    PagePath(problem): PagePath<ProblemId>,
    form: Result<Form<CsrfForm>, FormRejection>,
) -> Result<Redirect, PageError> {
    visitor.check_csrf_form(form)?;
    let rejudging = state.app.preview_rejudge(&visitor.caller, &problem).await?;
    Ok(Redirect::to(&format!("/rejudgings/{}", rejudging.id)))
}

/// `GET /rejudgings/{id}`: the preview, with a notice of what the last
/// action did.
pub async fn show(
    State(state): State<AppState>,
    visitor: Visitor,
    PagePath(id): PagePath<i64>,
    query: Result<Query<DoneQuery>, axum::extract::rejection::QueryRejection>,
) -> Result<Response, PageError> {
    let Query(query) =
        query.map_err(|e| PageError::BadForm(format!("bad query: {}", e.body_text())))?;
    let notice = match (query.applied, query.stale, query.discarded) {
        (Some(applied), stale, _) => Some(Notice::Done(format!(
            "Applied: {applied} verdict{} changed{}.",
            if applied == 1 { "" } else { "s" },
            match stale.unwrap_or(0) {
                0 => String::new(),
                stale => format!(
                    "; {stale} left as {} (judged again since the preview began)",
                    if stale == 1 { "it was" } else { "they were" }
                ),
            }
        ))),
        (None, _, Some(true)) => Some(Notice::Done(
            "Discarded: every submission keeps its verdict.".into(),
        )),
        _ => None,
    };
    render(&state, &visitor, id, notice, StatusCode::OK).await
}

/// A notice above the list.
enum Notice {
    Done(String),
    Refused(String),
}

/// `POST /rejudgings/{id}/apply`: the changed verdicts become the
/// submissions'.
pub async fn apply(
    State(state): State<AppState>,
    visitor: Visitor,
    PagePath(id): PagePath<i64>,
    form: Result<Form<CsrfForm>, FormRejection>,
) -> Result<Response, PageError> {
    visitor.check_csrf_form(form)?;
    match state.app.apply_rejudging(&visitor.caller, id).await {
        Ok(done) => Ok(Redirect::to(&format!(
            "/rejudgings/{id}?applied={}&stale={}",
            done.applied, done.stale
        ))
        .into_response()),
        Err(e) => refused(&state, &visitor, id, e).await,
    }
}

/// `POST /rejudgings/{id}/discard`: the preview is dropped.
pub async fn discard(
    State(state): State<AppState>,
    visitor: Visitor,
    PagePath(id): PagePath<i64>,
    form: Result<Form<CsrfForm>, FormRejection>,
) -> Result<Response, PageError> {
    visitor.check_csrf_form(form)?;
    match state.app.discard_rejudging(&visitor.caller, id).await {
        Ok(()) => Ok(Redirect::to(&format!("/rejudgings/{id}?discarded=true")).into_response()),
        Err(e) => refused(&state, &visitor, id, e).await,
    }
}

/// A conflict is the page again with its message and status; anything
/// else is the error page.
async fn refused(
    state: &AppState,
    visitor: &Visitor,
    id: i64,
    e: AppError,
) -> Result<Response, PageError> {
    match e {
        e @ AppError::Conflict(_) => {
            let e = ApiError::from(e);
            let status = e.status();
            render(
                state,
                visitor,
                id,
                Some(Notice::Refused(e.to_string())),
                status,
            )
            .await
        }
        other => Err(other.into()),
    }
}

/// The preview's page with `notice`, answered with `status`.
async fn render(
    state: &AppState,
    visitor: &Visitor,
    id: i64,
    notice: Option<Notice>,
    status: StatusCode,
) -> Result<Response, PageError> {
    let report = state.app.rejudging(&visitor.caller, id).await?;
    let rejudging = &report.rejudging;
    let problem = &rejudging.problem;
    let mut items: Vec<_> = report.items.iter().collect();
    // Changed verdicts first, each group in submission order.
    items.sort_by_key(|item| !item.changed());
    let judging =
        rejudging.state == RejudgingState::Preview && rejudging.judged < rejudging.submissions;
    let body = html! {
        @if judging { meta http-equiv="refresh" content="3"; }
        p.crumbs {
            a href="/problems" { "Problems" } " › "
            a href={ "/problems/" (problem) } { (problem) } " › "
            a href={ "/problems/" (problem) "/testcases" } { "Testcases" } " › Rejudge preview " (id)
        }
        h1 { "Rejudge preview " (id) ": " (problem) }
        script src="/static/confirm.js" defer {}
        @match &notice {
            Some(Notice::Done(text)) => p.notice #rejudging-notice { (page::prose(text)) },
            Some(Notice::Refused(text)) => p.alert #rejudging-error { (page::prose(text)) },
            None => {},
        }
        p #rejudging-summary { (summary(rejudging)) }
        @if rejudging.state == RejudgingState::Preview {
            section.forms {
                @if !judging {
                    form.card #apply-rejudging method="post" action={ "/rejudgings/" (id) "/apply" }
                        data-confirm={ "Apply rejudge preview " (id) "? " (rejudging.changed) " verdicts change; contestants see the new ones." } {
                        h2 { "Apply" }
                        p.muted { "Each changed verdict becomes its submission's; a submission judged again since the preview began keeps its newer verdict." }
                        input type="hidden" name="csrf" value=(visitor.csrf);
                        button type="submit" id="apply-rejudging-button" { "Apply the changes" }
                    }
                }
                form.card #discard-rejudging method="post" action={ "/rejudgings/" (id) "/discard" } {
                    h2 { "Discard" }
                    p.muted { "Every submission keeps the verdict it has." }
                    input type="hidden" name="csrf" value=(visitor.csrf);
                    button type="submit" id="discard-rejudging-button" { "Discard the preview" }
                }
            }
        }
        table.list #rejudging-items {
            thead { tr {
                th { "Submission" } th { "User" } th { "Kind" } th { "Before" } th { "In the preview" } th { "Message" }
            } }
            tbody {
                @for item in &items {
                    tr data-submission=(item.submission) data-changed=(item.changed()) {
                        td { a href={ "/submissions/" (item.submission) } { (item.submission) } }
                        td { (item.user) }
                        td { (item.kind) }
                        td { (page::verdict_badge(SubmissionState::Done, item.before)) }
                        td {
                            @match item.after {
                                Some(after) => {
                                    (page::verdict_badge(SubmissionState::Done, Some(after)))
                                    @if item.changed() { " " span.status.tried { "changed" } }
                                }
                                None => (page::verdict_badge(SubmissionState::Running, None)),
                            }
                        }
                        td { (item.message.as_deref().unwrap_or("")) }
                    }
                }
            }
        }
    };
    let title = format!("Rejudge preview {id} · {problem}");
    Ok((status, page::frame(&title, Some(visitor), body)).into_response())
}

/// One line on where the preview stands.
fn summary(rejudging: &Rejudging) -> Markup {
    let decided = |what: &str| {
        format!(
            "{what} by {} at {}.",
            rejudging.decided_by.as_deref().unwrap_or("?"),
            rejudging
                .decided_at
                .map(page::time_text)
                .unwrap_or_default()
        )
    };
    html! {
        "Started by " (rejudging.created_by) " at " (page::time_text(rejudging.created_at)) ": "
        (rejudging.judged) " of " (rejudging.submissions) " submissions judged again, "
        (rejudging.changed) " to another verdict. "
        @match rejudging.state {
            RejudgingState::Preview if rejudging.judged < rejudging.submissions => {
                "Workers are judging the rest; this page reloads until they are done."
            }
            RejudgingState::Preview => "Nothing has changed for contestants yet.",
            RejudgingState::Applied => (decided("Applied")),
            RejudgingState::Discarded => (decided("Discarded")),
        }
    }
}

/// The testcase page's part: the button that starts a preview and the
/// problem's earlier previews.
pub fn section(visitor: &Visitor, problem: &ProblemId, previews: &[Rejudging]) -> Markup {
    html! {
        form.card #preview-rejudge method="post" action={ "/problems/" (problem) "/rejudgings" } {
            h2 { "Preview a rejudge" }
            p.muted { "Judge every judged submission again on the side and see which verdicts would change before anyone else does; then apply or discard." }
            input type="hidden" name="csrf" value=(visitor.csrf);
            button type="submit" id="preview-rejudge-button" { "Preview a rejudge" }
            @if !previews.is_empty() {
                ul #rejudging-list {
                    @for preview in previews {
                        li {
                            a href={ "/rejudgings/" (preview.id) } { "Preview " (preview.id) }
                            ": " (preview.state) ", " (preview.changed) " of " (preview.submissions) " changed"
                        }
                    }
                }
            }
        }
    }
}
