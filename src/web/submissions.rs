//! Submission pages: the visitor's own list (everyone's for setters and
//! admins who ask), a submission's page, and the small JSON document its
//! script polls to update the verdict, the progress (testcases judged out
//! of how many, as the worker last recorded it) and the event log live.
//!
//! Both the page and the JSON read through the application's
//! [`App::readable_record`](crate::app::App::readable_record), so a
//! contestant sees exactly what the API shows them. Another contestant's
//! submission answers the same 404 as a missing one, so a page does not
//! even confirm that an id exists.

use axum::{
    Form, Json, Router,
    extract::{Query, State, rejection::FormRejection},
    response::Redirect,
    routing::{get, post},
};
use maud::{Markup, html};
use serde::Deserialize;
use serde_json::{Value, json};

use super::{
    PageError, PagePath,
    page::{self, byte_size},
    visitor::Visitor,
};
use crate::{
    api::SubmittedContent,
    app::AppError,
    domain::{Event, Submission, SubmissionId, SubmissionState, TestcaseResult},
    http::AppState,
    scoring,
    store::{ListFilter, SubmissionRecord},
};

/// This module's pages and forms.
pub(super) fn routes() -> Router<AppState> {
    Router::new()
        .route("/submissions", get(list))
        .route("/submissions/{id}", get(show))
        .route("/submissions/{id}/live", get(live))
        .route("/submissions/{id}/rejudge", post(rejudge))
}

/// Rows per page of the list.
const PAGE_SIZE: i64 = 50;

/// The list's query: `everyone` (setters and admins), `before` (a cursor).
#[derive(Debug, Deserialize)]
pub struct ListQuery {
    #[serde(default)]
    everyone: bool,
    before: Option<i64>,
}

/// `GET /submissions`: the visitor's submissions, newest first; with
/// `?everyone=true`, a setter or admin sees everyone's.
pub async fn list(
    State(state): State<AppState>,
    visitor: Visitor,
    query: Result<Query<ListQuery>, axum::extract::rejection::QueryRejection>,
) -> Result<Markup, PageError> {
    let Query(query) =
        query.map_err(|e| PageError::BadForm(format!("bad query: {}", e.body_text())))?;
    let everyone = query.everyone && visitor.caller.role().is_staff();
    let page = state
        .app
        .list_submissions(
            &visitor.caller,
            ListFilter {
                user: (!everyone).then(|| visitor.caller.name().to_string()),
                before: query.before,
                limit: PAGE_SIZE,
                ..ListFilter::default()
            },
        )
        .await?;
    let submissions = page.submissions;
    let titles = state.app.problem_titles().await?;
    let older = page.next_cursor.map(|cursor| {
        let everyone = if everyone { "&everyone=true" } else { "" };
        format!("/submissions?before={cursor}{everyone}")
    });
    let title = if everyone {
        "All submissions"
    } else {
        "My submissions"
    };
    let body = html! {
        h1 { (title) }
        @if submissions.is_empty() {
            p.muted #no-submissions {
                "No submissions yet."
                // Setters and admins judge others' work more than they submit.
                @if !everyone && visitor.caller.role().is_staff() {
                    " " a #everyones href="/submissions?everyone=true" { "Everyone's submissions" } " are one click away."
                }
            }
        } @else {
            table.list #submissions {
                thead { tr {
                    th { "Submitted" } th { "Problem" }
                    @if everyone { th { "User" } }
                    th { "Language" } th { "Verdict" } th.num { "Time" } th.num { "Memory" }
                    th { "Message" }
                } }
                tbody {
                    @for submission in &submissions {
                        tr {
                            td { a href={ "/submissions/" (submission.id) } { (short_time(submission)) } }
                            td { a href={ "/problems/" (submission.problem) } { (titles.get(&submission.problem).map_or(submission.problem.as_str(), String::as_str)) } }
                            @if everyone { td { (submission.user) } }
                            td { (submission.language_text()) }
                            td { (page::verdict_badge(submission.state, submission.verdict)) }
                            td.num { (submission.time_text()) }
                            td.num { (submission.memory_text()) }
                            td.message { (submission.message.as_deref().unwrap_or_default()) }
                        }
                    }
                }
            }
            @if let Some(older) = &older {
                p { a #older href=(older) { "Older submissions" } }
            }
        }
    };
    Ok(page::frame(title, Some(&visitor), body))
}

/// A submission's creation time to the second, in UTC.
fn short_time(submission: &Submission) -> String {
    submission
        .created_at
        .strftime("%Y-%m-%d %H:%M:%S UTC")
        .to_string()
}

/// A submission the visitor may read with its judgements and events,
/// redacted as the API redacts them; another contestant's is a 404.
async fn readable(
    state: &AppState,
    visitor: &Visitor,
    id: &SubmissionId,
) -> Result<SubmissionRecord, PageError> {
    match state.app.readable_record(&visitor.caller, id).await {
        Ok(record) => Ok(record),
        Err(AppError::Forbidden(_) | AppError::NotFound(_)) => {
            Err(PageError::NotFound(format!("no submission `{id}`")))
        }
        Err(other) => Err(other.into()),
    }
}

/// `GET /submissions/{id}`: the verdict, the per-testcase table, compile
/// output and the event log. While it is judged, `/static/submission.js`
/// polls [`live`] and updates the verdict, table and progress in place,
/// and appends the events that are new.
pub async fn show(
    State(state): State<AppState>,
    visitor: Visitor,
    PagePath(id): PagePath<SubmissionId>,
    query: Result<Query<ShowQuery>, axum::extract::rejection::QueryRejection>,
) -> Result<Markup, PageError> {
    let SubmissionRecord {
        submission,
        judgements,
        events,
    } = readable(&state, &visitor, &id).await?;
    let content = state.app.submitted_content(&visitor.caller, &id).await?;
    let language_name = match &content {
        Some(SubmittedContent::Program { language, .. }) => Some(
            state
                .app
                .programs()
                .language(language)
                .map_or_else(|| language.to_string(), |l| l.config.name.clone()),
        ),
        _ => None,
    };
    let rejudged = query.map(|Query(q)| q.rejudged).unwrap_or_default();
    let latest = judgements.last();
    let results = latest.map(|j| j.results.as_slice()).unwrap_or_default();
    let done = submission.state == SubmissionState::Done;
    let body = html! {
        p.crumbs { a href="/submissions" { "Submissions" } " › " (submission.id) }
        @if rejudged {
            p.notice #rejudge-notice { "Queued 1 submission for rejudging; its earlier judgements stay in the log." }
        }
        @if visitor.caller.role().is_staff() {
            form.inline #rejudge-submission method="post" action={ "/submissions/" (id) "/rejudge" } {
                input type="hidden" name="csrf" value=(visitor.csrf);
                button type="submit" id="rejudge-submission-button" { "Rejudge this submission" }
            }
        }
        section.card #submission data-live={ "/submissions/" (id) "/live" } data-state=(submission.state) {
            div.summary {
                div {
                    div.label { "Verdict" }
                    div #verdict-box { span #verdict class=(verdict_class(&submission)) { (verdict_text(&submission)) } }
                }
                dl.facts {
                    dt { "Problem" } dd { a href={ "/problems/" (submission.problem) } { (submission.problem) } }
                    dt { "User" } dd { (submission.user) }
                    dt { "Kind" } dd { (submission.kind) }
                    @if let Some(name) = &language_name {
                        dt { "Language" } dd #language { (name) }
                    }
                    dt { "Submitted" } dd { (short_time(&submission)) }
                    dt { "State" } dd #state { (page::state_label(submission.state)) }
                    dt { "Score" } dd #score { (score_text(&submission)) }
                }
            }
            div.progress {
                @if done {
                    progress #progress max=(results.len().max(1)) value=(results.len().max(1)) {}
                } @else if let Some(progress) = submission.progress {
                    progress #progress max=(progress.total.max(1)) value=(progress.done) {}
                } @else if submission.state == SubmissionState::Running {
                    progress #progress {}
                } @else {
                    progress #progress max="1" value="0" {}
                }
                span.muted #progress-text { (progress_text(&submission)) }
            }
            p #message { (submission.message.as_deref().unwrap_or_default()) }
        }
        section {
            h2 { "Testcases" }
            table.list #results {
                thead { tr {
                    th { "Testcase" } th { "Verdict" } th.num { "Time" } th.num { "Memory" } th { "Message" }
                } }
                tbody {
                    @for result in results { (result_row(result)) }
                }
            }
            @if results.is_empty() {
                p.muted #no-results { @if done { "No per-testcase results to show." } @else { "Waiting for the judge…" } }
            }
        }
        @let compile_output = latest.and_then(|j| j.compile_output.as_deref()).filter(|o| !o.is_empty());
        section #compile-section hidden[compile_output.is_none()] {
            h2 { "Compiler output" }
            pre #compile-output { (compile_output.unwrap_or_default()) }
        }
        @match &content {
            Some(SubmittedContent::Program { source, .. }) => section #source-section {
                h2 { "Source" }
                pre #source { code { (source) } }
            },
            Some(SubmittedContent::Answers { answers }) => section #answers-section {
                h2 { "Answers sent" }
                table.list #answers {
                    thead { tr { th { "Testcase" } th.num { "Size" } } }
                    tbody {
                        @for answer in answers {
                            tr { td { (answer.testcase) } td.num { (byte_size(usize::try_from(answer.bytes).unwrap_or(usize::MAX))) } }
                        }
                    }
                }
            },
            Some(SubmittedContent::Custom { input_bytes, output_bytes }) => section #custom-section {
                h2 { "Custom check sent" }
                p { "An input of " (byte_size(usize::try_from(*input_bytes).unwrap_or(usize::MAX))) " and an output of " (byte_size(usize::try_from(*output_bytes).unwrap_or(usize::MAX))) "." }
            },
            None => {},
        }
        section {
            h2 { "Event log" }
            ul.events #events {
                @for event in &events {
                    li {
                        span.muted { (event_time(event)) } " "
                        strong { (event.kind) }
                        @if let Some(actor) = &event.actor { " by " (actor) }
                        @if let Some(detail) = &event.detail { ": " (detail) }
                    }
                }
            }
        }
        script src="/static/submission.js" {}
    };
    Ok(page::frame("Submission", Some(&visitor), body))
}

/// What the progress bar says in words: testcases judged out of how many,
/// while the worker has recorded a number.
fn progress_text(submission: &Submission) -> String {
    match submission.progress {
        Some(progress) => format!("{} / {} testcases", progress.done, progress.total),
        None => String::new(),
    }
}

/// An event's time as the log shows it, to the second.
fn event_time(event: &Event) -> String {
    event.created_at.strftime("%H:%M:%S").to_string()
}

/// An event as the script appends it to the log: the page's fields, the
/// page's wording of the time.
fn event_json(event: &Event) -> Value {
    json!({
        "time": event_time(event),
        "kind": event.kind,
        "actor": event.actor,
        "detail": event.detail,
    })
}

/// The submission page's query: `rejudged` after its rejudge button.
#[derive(Debug, Deserialize)]
pub struct ShowQuery {
    #[serde(default)]
    rejudged: bool,
}

/// The rejudge form's one field.
#[derive(Debug, Deserialize)]
pub struct RejudgeForm {
    csrf: Option<String>,
}

/// `POST /submissions/{id}/rejudge` (setters and admins): queues the
/// submission again through the API's own path (403 for a contestant, 409
/// for one already waiting, with the API's words), then its page.
pub async fn rejudge(
    State(state): State<AppState>,
    visitor: Visitor,
    PagePath(id): PagePath<SubmissionId>,
    form: Result<Form<RejudgeForm>, FormRejection>,
) -> Result<Redirect, PageError> {
    let Form(form) = form.map_err(|e| {
        PageError::BadForm(format!("the form could not be read: {}", e.body_text()))
    })?;
    visitor.check_csrf(form.csrf.as_deref())?;
    state.app.requeue_submission(&visitor.caller, &id).await?;
    Ok(Redirect::to(&format!("/submissions/{id}?rejudged=true")))
}

/// Its points once judged, with each testcase group's when there are
/// several and they are shown: `40 (groups 0, 40, 0)`; a dash before.
fn score_text(submission: &Submission) -> String {
    let Some(score) = submission.score else {
        return "–".into();
    };
    let total = scoring::points_shown(score);
    match submission.group_scores.as_deref() {
        Some(groups) if groups.len() > 1 => {
            let each: Vec<String> = groups.iter().map(|g| scoring::points_shown(*g)).collect();
            format!("{total} (groups {})", each.join(", "))
        }
        _ => total,
    }
}

/// The text of the verdict element: the verdict once judged, else the state.
fn verdict_text(submission: &Submission) -> String {
    match (submission.state, submission.verdict) {
        (SubmissionState::Done, Some(verdict)) => verdict.to_string(),
        (state, _) => page::state_label(state).to_string(),
    }
}

fn verdict_class(submission: &Submission) -> String {
    match (submission.state, submission.verdict) {
        (SubmissionState::Done, Some(verdict)) => format!("verdict verdict-{verdict}"),
        _ => "verdict verdict-pending".to_string(),
    }
}

/// One row of the testcase table; the script builds the same row from
/// [`result_json`].
fn result_row(result: &TestcaseResult) -> Markup {
    html! {
        tr {
            td { (result.testcase) @if result.hidden { " " span.muted { "(hidden)" } } }
            td { span class={ "verdict verdict-" (result.verdict) } { (result.verdict) } }
            td.num { (result.time_text()) }
            td.num { (result.memory_text()) }
            td.message {
                (result.message.as_deref().unwrap_or_default())
                @if let Some(detail) = &result.detail { div.detail { (detail) } }
            }
        }
    }
}

fn result_json(result: &TestcaseResult) -> Value {
    json!({
        "testcase": result.testcase,
        "hidden": result.hidden,
        "verdict": result.verdict,
        "time": result.time_text(),
        "memory": result.memory_text(),
        "message": result.message,
        "detail": result.detail,
    })
}

/// The live document's query: `events_from`, how many events of the log
/// the page already shows (the document then carries only the later ones).
#[derive(Debug, Deserialize)]
pub struct LiveQuery {
    #[serde(default)]
    events_from: usize,
}

/// `GET /submissions/{id}/live`: what the submission page shows, as JSON
/// for its script (not part of the API: it answers to the session cookie,
/// and its shape follows the page). `progress` is the submission's own,
/// redacted as the API redacts it; `events` are the log's entries from
/// `events_from` on, the same entries the page lists.
pub async fn live(
    State(state): State<AppState>,
    visitor: Visitor,
    PagePath(id): PagePath<SubmissionId>,
    query: Result<Query<LiveQuery>, axum::extract::rejection::QueryRejection>,
) -> Result<Json<Value>, PageError> {
    let SubmissionRecord {
        submission,
        judgements,
        events,
    } = readable(&state, &visitor, &id).await?;
    let Query(query) =
        query.map_err(|e| PageError::BadForm(format!("bad query: {}", e.body_text())))?;
    let events: Vec<Value> = events
        .iter()
        .skip(query.events_from)
        .map(event_json)
        .collect();
    let latest = judgements.last();
    let results: Vec<Value> = latest
        .map(|j| j.results.iter().map(result_json).collect())
        .unwrap_or_default();
    Ok(Json(json!({
        "state": submission.state,
        "state_label": page::state_label(submission.state),
        "verdict": (submission.state == SubmissionState::Done).then_some(submission.verdict).flatten(),
        "message": submission.message,
        "progress": submission.progress,
        "progress_text": progress_text(&submission),
        "score_text": score_text(&submission),
        "compile_output": latest.and_then(|j| j.compile_output.clone()),
        "results": results,
        "events": events,
    })))
}
