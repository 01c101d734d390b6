//! Stress tests from a problem's testcase page, for setters and admins: a
//! form sends a solution (typed or a file), the generator kinds, the seeds
//! and a budget; a worker with the sandbox runs it against the solver core,
//! and the run's page shows the first disagreement and the smallest failing
//! input shrinking reached, with the solver core's output for it. While the
//! run waits or runs the page reloads itself (a `refresh` meta tag).
//!
//! The form goes through the application's use case and is refused for
//! its reasons: a contestant gets the 403, a bad field the 422's message.

use std::time::Duration;

use axum::{
    Router,
    extract::{Multipart, State, multipart::MultipartRejection},
    response::Redirect,
    routing::{get, post},
};
use maud::{Markup, html};

use super::{PageError, PagePath, page, visitor::Visitor};
use crate::{
    app::stress::StressRequest,
    domain::{LanguageId, ProblemId, StressOutcome, StressRun},
    http::AppState,
    solver::TestKind,
};

/// This module's pages and forms.
pub(super) fn routes() -> Router<AppState> {
    Router::new()
        .route("/problems/{id}/stress", post(start))
        .route("/stress/{id}", get(show))
}

/// `POST /problems/{id}/stress`: queues a stress test and opens its page.
pub async fn start(
    State(state): State<AppState>,
    visitor: Visitor,
    PagePath(problem): PagePath<ProblemId>,
    multipart: Result<Multipart, MultipartRejection>,
) -> Result<Redirect, PageError> {
    let malformed = |e: String| PageError::BadForm(format!("the form could not be read: {e}"));
    let mut multipart = multipart.map_err(|e| malformed(e.body_text()))?;
    let (mut csrf, mut language, mut source, mut file) = (None, None, String::new(), None);
    let (mut kinds, mut from, mut to, mut budget) = (Vec::new(), 1u64, 1000u64, 10u64);
    let number = |name: &str, text: &str| {
        text.parse::<u64>().map_err(|_| {
            PageError::BadForm(format!("`{name}` must be a whole number, not `{text}`"))
        })
    };
    while let Some(field) = multipart
        .next_field()
        .await
        .map_err(|e| malformed(e.body_text()))?
    {
        let name = field.name().unwrap_or_default().to_string();
        let no_file = field.file_name().is_some_and(str::is_empty);
        let bytes = field.bytes().await.map_err(|e| malformed(e.body_text()))?;
        if no_file && bytes.is_empty() {
            continue;
        }
        let text = String::from_utf8(bytes.to_vec())
            .map_err(|_| PageError::BadForm(format!("the field `{name}` is not UTF-8 text")))?;
        match name.as_str() {
            "csrf" => csrf = Some(text),
            "language" => {
                language = Some(text.trim().parse::<LanguageId>().map_err(|e| {
                    PageError::BadForm(format!("the language `{}`: {e}", text.trim()))
                })?)
            }
            "source" => source = text.replace("\r\n", "\n"),
            "source_file" => file = Some(text),
            "kind" => kinds.push(text.trim().parse::<TestKind>().map_err(|_| {
                PageError::BadForm(format!("`{}` is not a generator kind", text.trim()))
            })?),
            "seed_from" => from = number("seed_from", text.trim())?,
            "seed_to" => to = number("seed_to", text.trim())?,
            "budget_s" => budget = number("budget_s", text.trim())?,
            _ => return Err(PageError::BadForm(format!("unknown form field `{name}`"))),
        }
    }
    visitor.check_csrf(csrf.as_deref())?;
    let language =
        language.ok_or_else(|| PageError::BadForm("choose the solution's language".into()))?;
    let request = StressRequest {
        language,
        // A chosen file wins over the text box, as on the submit form.
        source: file.unwrap_or(source),
        kinds,
        seeds: from..=to,
        budget: Duration::from_secs(budget),
    };
    let run = state
        .app
        .start_stress_run(&visitor.caller, &problem, request)
        .await?;
    Ok(Redirect::to(&format!("/stress/{}", run.id)))
}

/// `GET /stress/{id}`: the run and what it found.
pub async fn show(
    State(state): State<AppState>,
    visitor: Visitor,
    PagePath(id): PagePath<i64>,
) -> Result<Markup, PageError> {
    let run = state.app.stress_run(&visitor.caller, id).await?;
    let problem = &run.problem;
    let body = html! {
        @if run.outcome.is_none() { meta http-equiv="refresh" content="3"; }
        p.crumbs {
            a href="/problems" { "Problems" } " › "
            a href={ "/problems/" (problem) } { (problem) } " › "
            a href={ "/problems/" (problem) "/testcases" } { "Testcases" } " › Stress test " (id)
        }
        h1 { "Stress test " (id) ": " (problem) }
        p #stress-plan {
            "Started by " (run.created_by) ": a " (run.language) " solution on seeds "
            (run.seeds.0) " to " (run.seeds.1) ", kinds " (kinds(&run)) ", budget "
            (run.budget_ms / 1000) " s."
        }
        @match &run.outcome {
            None => p #stress-outcome { "Waiting for a worker with the sandbox, or running; this page reloads until it is done." },
            Some(StressOutcome::DoesNotCompile { message, compile_output }) => {
                p.alert #stress-outcome { "The solution does not compile: " (message.as_deref().unwrap_or("")) }
                @if let Some(output) = compile_output { pre { (output) } }
            }
            Some(StressOutcome::Unrunnable { why }) => p.alert #stress-outcome { "It could not run: " (why) },
            Some(StressOutcome::Searched { runs, out_of_time, found: None, .. }) => {
                p.notice #stress-outcome {
                    "No disagreement in " (runs) " runs"
                    @if *out_of_time { " (the budget ran out before the seeds)" }
                    "."
                }
            }
            Some(StressOutcome::Searched { runs, found: Some(found), shrunk, shrink_runs, expected, .. }) => {
                p.alert #stress-outcome { "Disagreement after " (runs) " runs: " (found.describe()) "." }
                @if let Some(shrunk) = shrunk {
                    p #stress-shrunk { "Shrunk in " (shrink_runs) " more runs to " (shrunk.input.len()) " bytes: " (shrunk.describe()) "." }
                }
                @let smallest = shrunk.as_ref().unwrap_or(found);
                h2 { "The smallest failing input" }
                pre #stress-input { (smallest.input) }
                @if let Some(expected) = expected {
                    h2 { "The solver core's output" }
                    pre #stress-expected { (expected) }
                }
            }
        }
    };
    let title = format!("Stress test {id} · {problem}");
    Ok(page::frame(&title, Some(&visitor), body))
}

fn kinds(run: &StressRun) -> String {
    run.kinds
        .iter()
        .map(|k| k.as_str())
        .collect::<Vec<_>>()
        .join(", ")
}

/// The testcase page's part: the form that starts a stress test and the
/// problem's latest runs.
pub fn section(
    visitor: &Visitor,
    problem: &ProblemId,
    languages: &[LanguageId],
    runs: &[StressRun],
) -> Markup {
    html! {
        form.card #stress-test method="post" action={ "/problems/" (problem) "/stress" } enctype="multipart/form-data" {
            h2 { "Stress test" }
            p.muted { "Run a solution in the sandbox against the solver core on generated inputs, seed after seed, until it disagrees or the budget is spent; the failing input is then shrunk." }
            input type="hidden" name="csrf" value=(visitor.csrf);
            label for="stress-language" { "Language" }
            select #stress-language name="language" {
                @for language in languages { option value=(language) { (language) } }
            }
            label for="stress-source" { "Solution" }
            textarea #stress-source name="source" rows="8" spellcheck="false" {}
            label for="stress-file" { "…or a file" }
            input #stress-file type="file" name="source_file";
            fieldset {
                legend { "Generator kinds (all when none is ticked)" }
                @for kind in TestKind::ALL {
                    label.check { input type="checkbox" name="kind" value=(kind.as_str()); " " (kind.as_str()) }
                }
            }
            label for="stress-from" { "Seeds from" }
            input #stress-from type="number" name="seed_from" value="1" min="0";
            label for="stress-to" { "to" }
            input #stress-to type="number" name="seed_to" value="1000" min="0";
            label for="stress-budget" { "Budget in seconds" }
            input #stress-budget type="number" name="budget_s" value="10" min="1" max="300";
            button type="submit" id="stress-button" { "Run the stress test" }
            @if !runs.is_empty() {
                ul #stress-list {
                    @for run in runs {
                        li {
                            a href={ "/stress/" (run.id) } { "Stress test " (run.id) }
                            ": " (match &run.outcome {
                                None => "running",
                                Some(StressOutcome::Searched { found: Some(_), .. }) => "disagreement found",
                                Some(StressOutcome::Searched { found: None, .. }) => "no disagreement",
                                Some(StressOutcome::DoesNotCompile { .. }) => "does not compile",
                                Some(StressOutcome::Unrunnable { .. }) => "could not run",
                            })
                        }
                    }
                }
            }
        }
    }
}
