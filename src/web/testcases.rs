//! The setters' testcase page of a problem: every testcase (hidden ones
//! too) with its origin and size, a form to add one, hide/show and delete
//! buttons for the ones setters added, and a button to rejudge the whole
//! problem, after which the page follows the rejudge with a progress bar
//! (`rejudge.js` polls [`rejudge_progress`]); beside it the button that
//! starts a rejudge preview and the problem's previews (see
//! [`rejudgings`](super::rejudgings)).
//!
//! Every action goes through the application's use cases, as the API's
//! do, so it is refused for the same reasons with the same words: staff
//! only (a contestant gets the API's 403 for the page and for every form), the
//! validator's message as a 422, a taken name and a testcase from the
//! problem folder as a 409. Those three refusals are shown on the page
//! itself, above the form, which keeps what was typed. Every form carries
//! the session's CSRF token.

use axum::{
    Form, Router,
    extract::{Multipart, Query, State, multipart::MultipartRejection, rejection::FormRejection},
    http::StatusCode,
    response::{IntoResponse, Redirect, Response},
    routing::{get, post},
};
use maud::html;
use serde::Deserialize;

use super::{
    PageError, PagePath,
    page::{self, byte_size},
    session::CsrfForm,
    visitor::Visitor,
};
use crate::{
    api::NewTestcase,
    app::AppError,
    domain::{Problem, ProblemId, TestcaseName, TestcaseOrigin},
    http::{ApiError, AppState},
};

/// This module's pages and forms.
pub(super) fn routes() -> Router<AppState> {
    Router::new()
        .route("/problems/{id}/testcases", get(show).post(add))
        .route("/problems/{id}/testcases/{name}/delete", post(delete))
        .route("/problems/{id}/testcases/{name}/hide", post(hide))
        .route("/problems/{id}/testcases/{name}/show", post(show_to_all))
        .route("/problems/{id}/rejudge", post(rejudge))
        .route("/problems/{id}/rejudge/progress", get(rejudge_progress))
}

/// What the add form sent, kept to fill the form in again after a refusal.
#[derive(Debug, Default)]
struct AddForm {
    csrf: Option<String>,
    name: String,
    input: String,
    input_file: Option<String>,
    hidden: bool,
}

/// A notice above the list: what the last action did, or why it was
/// refused.
enum Notice {
    Done(String),
    /// A rejudge of this many submissions was queued: the page follows it.
    Rejudged(String, u64),
    Refused(String),
}

/// The query a redirect after an action carries, to say what was done.
#[derive(Debug, Deserialize)]
pub struct DoneQuery {
    added: Option<TestcaseName>,
    deleted: Option<TestcaseName>,
    hidden: Option<TestcaseName>,
    shown: Option<TestcaseName>,
    rejudged: Option<u64>,
}

/// The problem, for a setter or admin: a contestant is refused with the
/// API's 403 before anything about the problem is read.
async fn staff_problem(
    state: &AppState,
    visitor: &Visitor,
    id: &ProblemId,
) -> Result<Problem, PageError> {
    visitor.caller.require_staff()?;
    Ok(state.app.problem(&visitor.caller, id).await?)
}

/// `GET /problems/{id}/testcases`: the page, with a notice of what the
/// last action did.
pub async fn show(
    State(state): State<AppState>,
    visitor: Visitor,
    PagePath(id): PagePath<ProblemId>,
    query: Result<Query<DoneQuery>, axum::extract::rejection::QueryRejection>,
) -> Result<Response, PageError> {
    let problem = staff_problem(&state, &visitor, &id).await?;
    let Query(query) =
        query.map_err(|e| PageError::BadForm(format!("bad query: {}", e.body_text())))?;
    let notice = if let Some(name) = query.added {
        Some(Notice::Done(format!(
            "Added testcase `{name}`; a worker is computing its reference output."
        )))
    } else if let Some(name) = query.deleted {
        Some(Notice::Done(format!("Deleted testcase `{name}`.")))
    } else if let Some(name) = query.hidden {
        Some(Notice::Done(format!(
            "Testcase `{name}` is hidden: contestants no longer see it, and it judges programs only."
        )))
    } else if let Some(name) = query.shown {
        Some(Notice::Done(format!(
            "Testcase `{name}` is public: contestants can download it, and answers are judged on it."
        )))
    } else {
        query.rejudged.map(|count| {
            Notice::Rejudged(
                format!(
                    "Queued {count} submission{} of this problem for rejudging.",
                    if count == 1 { "" } else { "s" }
                ),
                count,
            )
        })
    };
    render(
        &state,
        &visitor,
        &problem,
        notice,
        &AddForm::default(),
        StatusCode::OK,
    )
    .await
}

/// `GET /problems/{id}/rejudge/progress`: how many of the problem's
/// submissions are still queued or being judged, for the page's progress
/// bar. Staff only, like the page.
pub async fn rejudge_progress(
    State(state): State<AppState>,
    visitor: Visitor,
    PagePath(id): PagePath<ProblemId>,
) -> Result<Response, PageError> {
    staff_problem(&state, &visitor, &id).await?;
    let unjudged = state.app.unjudged_of_problem(&visitor.caller, &id).await?;
    Ok(axum::Json(serde_json::json!({ "unjudged": unjudged })).into_response())
}

/// The page with `notice` and the add form holding `form`, answered with
/// `status`.
async fn render(
    state: &AppState,
    visitor: &Visitor,
    problem: &Problem,
    notice: Option<Notice>,
    form: &AddForm,
    status: StatusCode,
) -> Result<Response, PageError> {
    let id = &problem.id;
    let testcases = state.app.testcases(&visitor.caller, id).await?;
    let previews = state.app.rejudgings(&visitor.caller, id).await?;
    let matrix_runs = state.app.matrix_runs(&visitor.caller, id).await?;
    let stress_runs = state.app.stress_runs(&visitor.caller, id).await?;
    let languages: Vec<_> = state
        .app
        .programs()
        .list()
        .into_iter()
        .map(|l| l.id)
        .collect();
    let body = html! {
        p.crumbs {
            a href="/problems" { "Problems" } " › "
            a href={ "/problems/" (id) } { (problem.title) } " › Testcases"
        }
        h1 { "Testcases: " (problem.title) }
        script src="/static/confirm.js" defer {}
        @match &notice {
            Some(Notice::Done(text)) => p.notice #testcase-notice { (page::prose(text)) },
            Some(Notice::Rejudged(text, count)) => {
                p.notice #testcase-notice { (page::prose(text)) }
                @if *count > 0 {
                    // Filled in by rejudge.js: judged = queued - unjudged
                    // (a contestant's new submission counts as unjudged too).
                    div #rejudge-progress data-live={ "/problems/" (id) "/rejudge/progress" } data-queued=(count) {
                        progress #rejudge-bar max=(count) value="0" {}
                        span #rejudge-status { "Waiting for the workers…" }
                    }
                    script src="/static/rejudge.js" defer {}
                }
            }
            Some(Notice::Refused(text)) => p.alert #testcase-error { (page::prose(text)) },
            None => {},
        }
        table.list #testcase-list {
            thead { tr {
                th { "Name" } th { "Origin" } th { "Visibility" } th.num { "Size" }
                th { "Reference" } th { "" }
            } }
            tbody {
                @for testcase in &testcases {
                    tr data-name=(testcase.name) {
                        td { a href={ "/problems/" (id) "/testcases/" (testcase.name) "/input" } { (testcase.name) } }
                        td { (testcase.origin) @if let Some(by) = &testcase.created_by { " by " (by) } }
                        td { @if testcase.hidden { span.status.tried { "hidden" } } @else { "public" } }
                        td.num { (byte_size(usize::try_from(testcase.input_bytes).unwrap_or(0))) }
                        td {
                            (testcase.status)
                            @if let Some(why) = &testcase.reference_error { ": " (why) }
                        }
                        td {
                            @if testcase.origin == TestcaseOrigin::Setter {
                                @let (action, label) = if testcase.hidden { ("show", "Show") } else { ("hide", "Hide") };
                                form.inline method="post" action={ "/problems/" (id) "/testcases/" (testcase.name) "/" (action) } {
                                    input type="hidden" name="csrf" value=(visitor.csrf);
                                    button.small type="submit" id={ (action) "-" (testcase.name) } { (label) }
                                }
                                " "
                                form.inline method="post" action={ "/problems/" (id) "/testcases/" (testcase.name) "/delete" }
                                    data-confirm={ "Delete testcase " (testcase.name) "? Verdicts given stay until a rejudge." } {
                                    input type="hidden" name="csrf" value=(visitor.csrf);
                                    button.small type="submit" id={ "delete-" (testcase.name) } { "Delete" }
                                }
                            }
                        }
                    }
                }
            }
        }
        section.forms {
            form.card #add-testcase method="post" action={ "/problems/" (id) "/testcases" } enctype="multipart/form-data" {
                h2 { "Add a testcase" }
                p.muted { "The problem's validator checks the input first; a worker then computes its reference output." }
                input type="hidden" name="csrf" value=(visitor.csrf);
                label for="testcase-name" { "Name" }
                input #testcase-name type="text" name="name" value=(form.name) required;
                label for="testcase-input" { "Input" }
                textarea #testcase-input name="input" rows="8" spellcheck="false" { (form.input) }
                label for="testcase-file" { "…or an input file" }
                input #testcase-file type="file" name="input_file";
                label.check for="testcase-hidden" {
                    input #testcase-hidden type="checkbox" name="hidden" value="on" checked[form.hidden];
                    " Hidden (seen by setters and admins only)"
                }
                button type="submit" id="add-testcase-button" { "Add testcase" }
            }
            form.card #rejudge-problem method="post" action={ "/problems/" (id) "/rejudge" }
                data-confirm={ "Rejudge every judged submission of " (problem.title) "? Their earlier judgements stay in the log." } {
                h2 { "Rejudge" }
                p.muted { "Queue every judged submission of this problem again, against the testcases above." }
                input type="hidden" name="csrf" value=(visitor.csrf);
                button type="submit" id="rejudge-problem-button" { "Rejudge all submissions" }
            }
            (super::rejudgings::section(visitor, id, &previews))
            (super::matrices::section(visitor, id, &matrix_runs))
            @if crate::solver::find(id.as_str()).is_some() {
                (super::stress::section(visitor, id, &languages, &stress_runs))
            }
        }
    };
    let title = format!("Testcases · {}", problem.title);
    Ok((status, page::frame(&title, Some(visitor), body)).into_response())
}

/// Reads the multipart add form. An empty file input is skipped.
async fn read_add_form(mut multipart: Multipart) -> Result<AddForm, PageError> {
    let mut form = AddForm::default();
    let malformed = |e: axum::extract::multipart::MultipartError| {
        PageError::BadForm(format!("the form could not be read: {}", e.body_text()))
    };
    while let Some(field) = multipart.next_field().await.map_err(malformed)? {
        let name = field.name().unwrap_or_default().to_string();
        let no_file = field.file_name().is_some_and(str::is_empty);
        let bytes = field.bytes().await.map_err(malformed)?;
        if no_file && bytes.is_empty() {
            continue;
        }
        let text = String::from_utf8(bytes.to_vec())
            .map_err(|_| PageError::BadForm(format!("the field `{name}` is not UTF-8 text")))?;
        match name.as_str() {
            "csrf" => form.csrf = Some(text),
            "name" => form.name = text.trim().to_string(),
            // A browser sends a textarea's line ends as CRLF whatever was
            // typed; the setter typed lines, so they are stored as LF. A
            // chosen file, like the API's body, is stored as sent.
            "input" => form.input = text.replace("\r\n", "\n"),
            "input_file" => form.input_file = Some(text),
            "hidden" => form.hidden = true,
            _ => return Err(PageError::BadForm(format!("unknown form field `{name}`"))),
        }
    }
    Ok(form)
}

/// `POST /problems/{id}/testcases`: adds a testcase through the API's own
/// path; a refusal the setter can fix (a bad name, an input the validator
/// rejects, a taken name) is the page again with its status, the message
/// and the form as it was sent.
pub async fn add(
    State(state): State<AppState>,
    visitor: Visitor,
    PagePath(id): PagePath<ProblemId>,
    multipart: Result<Multipart, MultipartRejection>,
) -> Result<Response, PageError> {
    let multipart = multipart.map_err(|e| {
        PageError::BadForm(format!("the form could not be read: {}", e.body_text()))
    })?;
    let mut form = read_add_form(multipart).await?;
    visitor.check_csrf(form.csrf.as_deref())?;
    let problem = staff_problem(&state, &visitor, &id).await?;
    // A chosen file wins over the text box, as on the submit form.
    if let Some(file) = form.input_file.take() {
        form.input = file;
    }
    let name: TestcaseName = match form.name.parse() {
        Ok(name) => name,
        Err(e) => {
            let message = format!("the name `{}`: {e}", form.name);
            let notice = Some(Notice::Refused(message));
            let status = StatusCode::UNPROCESSABLE_ENTITY;
            return render(&state, &visitor, &problem, notice, &form, status).await;
        }
    };
    let request = NewTestcase {
        name: name.clone(),
        input: form.input.clone(),
        hidden: form.hidden,
    };
    match state.app.add_testcase(&visitor.caller, &id, request).await {
        Ok(_) => {
            Ok(Redirect::to(&format!("/problems/{id}/testcases?added={name}")).into_response())
        }
        Err(e @ (AppError::Invalid(_) | AppError::Conflict(_))) => {
            let e = ApiError::from(e);
            let status = e.status();
            let notice = Some(Notice::Refused(e.to_string()));
            render(&state, &visitor, &problem, notice, &form, status).await
        }
        Err(other) => Err(other.into()),
    }
}

/// `POST /problems/{id}/testcases/{name}/delete`: deletes a setter's
/// testcase through the API's own path; one from the problem folder is the
/// page again with the API's 409 message.
pub async fn delete(
    State(state): State<AppState>,
    visitor: Visitor,
    PagePath((id, name)): PagePath<(ProblemId, TestcaseName)>,
    form: Result<Form<CsrfForm>, FormRejection>,
) -> Result<Response, PageError> {
    visitor.check_csrf_form(form)?;
    let problem = staff_problem(&state, &visitor, &id).await?;
    match state.app.remove_testcase(&visitor.caller, &id, &name).await {
        Ok(()) => {
            Ok(Redirect::to(&format!("/problems/{id}/testcases?deleted={name}")).into_response())
        }
        Err(e @ AppError::Conflict(_)) => {
            refused_on_the_page(&state, &visitor, &problem, e.into()).await
        }
        Err(other) => Err(other.into()),
    }
}

/// `POST /problems/{id}/testcases/{name}/hide`: hides a setter's testcase
/// from contestants through the API's own path.
pub async fn hide(
    state: State<AppState>,
    visitor: Visitor,
    path: PagePath<(ProblemId, TestcaseName)>,
    form: Result<Form<CsrfForm>, FormRejection>,
) -> Result<Response, PageError> {
    set_hidden(state, visitor, path, form, true).await
}

/// `POST /problems/{id}/testcases/{name}/show`: makes a setter's testcase
/// public again through the API's own path.
pub async fn show_to_all(
    state: State<AppState>,
    visitor: Visitor,
    path: PagePath<(ProblemId, TestcaseName)>,
    form: Result<Form<CsrfForm>, FormRejection>,
) -> Result<Response, PageError> {
    set_hidden(state, visitor, path, form, false).await
}

/// Hide or show; a testcase from the problem folder is the page again with
/// the API's 409 message.
async fn set_hidden(
    State(state): State<AppState>,
    visitor: Visitor,
    PagePath((id, name)): PagePath<(ProblemId, TestcaseName)>,
    form: Result<Form<CsrfForm>, FormRejection>,
    hidden: bool,
) -> Result<Response, PageError> {
    visitor.check_csrf_form(form)?;
    let problem = staff_problem(&state, &visitor, &id).await?;
    match state
        .app
        .set_testcase_hidden(&visitor.caller, &id, &name, hidden)
        .await
    {
        Ok(()) => {
            let done = if hidden { "hidden" } else { "shown" };
            Ok(Redirect::to(&format!("/problems/{id}/testcases?{done}={name}")).into_response())
        }
        Err(e @ AppError::Conflict(_)) => {
            refused_on_the_page(&state, &visitor, &problem, e.into()).await
        }
        Err(other) => Err(other.into()),
    }
}

/// The page again, with the API's refusal above the form.
async fn refused_on_the_page(
    state: &AppState,
    visitor: &Visitor,
    problem: &Problem,
    refusal: ApiError,
) -> Result<Response, PageError> {
    let status = refusal.status();
    let notice = Some(Notice::Refused(refusal.to_string()));
    render(state, visitor, problem, notice, &AddForm::default(), status).await
}

/// `POST /problems/{id}/rejudge`: queues every judged submission of the
/// problem again through the API's own path, then says how many.
pub async fn rejudge(
    State(state): State<AppState>,
    visitor: Visitor,
    PagePath(id): PagePath<ProblemId>,
    form: Result<Form<CsrfForm>, FormRejection>,
) -> Result<Redirect, PageError> {
    visitor.check_csrf_form(form)?;
    let queued = state.app.requeue_problem(&visitor.caller, &id).await?;
    Ok(Redirect::to(&format!(
        "/problems/{id}/testcases?rejudged={queued}"
    )))
}
