//! The solutions × testcases matrix for setters and admins: a button on a
//! problem's testcase page starts a run (the workers judge every setter
//! solution of the problem's folder on every testcase under the raised
//! time limit), and the run's page shows each solution's verdict at the
//! limit and each testcase's verdict and CPU time, then problemtools'
//! review of the limit. The start form takes the safety margin
//! (`time_limit_to_tle`), the run's page the multiplier of its review
//! (`ac_to_time_limit`, a query parameter: a review again costs no runs);
//! problemtools' defaults where left empty. While workers are judging the
//! page reloads itself every few seconds (a `refresh` meta tag: no script).
//!
//! Every action is the application's use case: a contestant gets its 403
//! for the page and the form.

use axum::{
    Form, Router,
    extract::{
        Query, State,
        rejection::{FormRejection, QueryRejection},
    },
    response::Redirect,
    routing::{get, post},
};
use maud::{Markup, html};
use serde::Deserialize;

use super::{PageError, PagePath, page, visitor::Visitor};
use crate::{
    domain::{MatrixRun, ProblemId, SubmissionState},
    http::AppState,
    matrix::Multipliers,
};

/// This module's pages and forms.
pub(super) fn routes() -> Router<AppState> {
    Router::new()
        .route("/problems/{id}/matrix", post(start))
        .route("/matrices/{id}", get(show))
}

/// The start form: the CSRF token and the safety margin.
#[derive(Debug, Deserialize)]
pub struct StartForm {
    csrf: Option<String>,
    time_limit_to_tle: Option<String>,
}

/// `POST /problems/{id}/matrix`: starts a run and opens its page.
pub async fn start(
    State(state): State<AppState>,
    visitor: Visitor,
    PagePath(problem): PagePath<ProblemId>,
    form: Result<Form<StartForm>, FormRejection>,
) -> Result<Redirect, PageError> {
    let Form(form) = form.map_err(|e| {
        PageError::BadForm(format!("the form could not be read: {}", e.body_text()))
    })?;
    visitor.check_csrf(form.csrf.as_deref())?;
    let margin = multiplier("time_limit_to_tle", form.time_limit_to_tle.as_deref())?;
    let run = state
        .app
        .start_matrix_run(&visitor.caller, &problem, margin)
        .await?;
    Ok(Redirect::to(&format!("/matrices/{}", run.id)))
}

/// A multiplier as a form or query has it: `None` when left empty.
fn multiplier(name: &str, text: Option<&str>) -> Result<Option<f64>, PageError> {
    match text.map(str::trim) {
        None | Some("") => Ok(None),
        Some(text) => text
            .parse::<f64>()
            .ok()
            .filter(|value| value.is_finite())
            .map(Some)
            .ok_or_else(|| PageError::BadForm(format!("{name}: `{text}` is not a number"))),
    }
}

/// The run page's query: the review's multiplier.
#[derive(Debug, Deserialize)]
pub struct ShowQuery {
    ac_to_time_limit: Option<String>,
}

/// `GET /matrices/{id}`: the run's matrix and, once every solution is
/// judged, its review.
pub async fn show(
    State(state): State<AppState>,
    visitor: Visitor,
    PagePath(id): PagePath<i64>,
    query: Result<Query<ShowQuery>, QueryRejection>,
) -> Result<Markup, PageError> {
    let Query(query) = query.map_err(|e| PageError::BadForm(e.body_text()))?;
    let ac_to_time_limit = multiplier("ac_to_time_limit", query.ac_to_time_limit.as_deref())?;
    let reviewed = state
        .app
        .matrix(&visitor.caller, id, ac_to_time_limit)
        .await?;
    let run = &reviewed.report.run;
    let (limit, raised) = (run.time_limit_ms, run.raised_limit_ms);
    let judging = run.judged < run.solutions;
    // The columns: the testcases of the first solution that ran on all.
    let testcases: Vec<&str> = reviewed
        .report
        .solutions
        .iter()
        .map(|s| &s.results)
        .max_by_key(|results| results.len())
        .map(|results| results.iter().map(|r| r.testcase.as_str()).collect())
        .unwrap_or_default();
    let problem = &run.problem;
    let body = html! {
        @if judging { meta http-equiv="refresh" content="3"; }
        p.crumbs {
            a href="/problems" { "Problems" } " › "
            a href={ "/problems/" (problem) } { (problem) } " › "
            a href={ "/problems/" (problem) "/testcases" } { "Testcases" } " › Matrix " (id)
        }
        h1 { "Solutions × testcases: " (problem) }
        p #matrix-summary {
            "Started by " (run.created_by) ": " (run.judged) " of " (run.solutions)
            " solutions judged. Time limit " (limit) " ms; every solution ran under "
            (raised) " ms (the safety margin: × " (margin_text(limit, raised)) "); cells: the verdict at the limit and CPU ms."
            @if judging { " Workers are judging the rest; this page reloads until they are done." }
        }
        table.list #matrix {
            thead { tr {
                th { "Solution" } th { "Expected" } th { "At " (limit) " ms" }
                @for testcase in &testcases { th { (testcase) } }
            } }
            tbody {
                @for (row, solution) in reviewed.rows.iter().zip(&reviewed.report.solutions) {
                    tr data-solution=(row.solution) {
                        td { (row.solution) }
                        td { (row.expected) }
                        td {
                            @match solution.verdict {
                                None => (page::verdict_badge(SubmissionState::Running, None)),
                                Some(_) => {
                                    @let at_limit = row.verdict_at(limit);
                                    (page::verdict_badge(SubmissionState::Done, Some(at_limit)))
                                    @if at_limit != row.expected { " ✗" }
                                }
                            }
                        }
                        @match (&row.cells, solution.verdict) {
                            (_, None) => { @for _ in &testcases { td {} } }
                            (Ok(cells), Some(_)) => {
                                @for cell in cells {
                                    td.num data-cpu-ms=(cell.cpu_ms) { (cell.verdict_at(limit)) " " (cell.cpu_ms) }
                                }
                            }
                            (Err(verdict), Some(_)) => { @for _ in &testcases { td { (verdict) } } }
                        }
                    }
                }
            }
        }
        @if let Some(review) = &reviewed.review {
            section #matrix-review {
                h2 { "Review by problemtools' rule" }
                form.inline #matrix-review-form method="get" action={ "/matrices/" (id) } {
                    label { "Slowest accepted time × "
                        input type="number" name="ac_to_time_limit" step="any" min=(Multipliers::RANGE.start()) max=(Multipliers::RANGE.end()) value=(reviewed.ac_to_time_limit);
                        " must fit in the limit (problemtools' ac_to_time_limit) "
                    }
                    button type="submit" { "Review again" }
                }
                @if let (Some((solution, slowest)), Some(computed)) = (&review.slowest_accepted, review.computed_limit_ms) {
                    p #matrix-slowest {
                        "Slowest accepted: " (solution) ", " (slowest) " ms; × " (reviewed.ac_to_time_limit)
                        " = " ((*slowest as f64 * reviewed.ac_to_time_limit).ceil()) " ms against the limit of "
                        (limit) " ms; problemtools would compute " (computed / 1000) " s."
                    }
                }
                @let errors = review.findings.iter().filter(|f| f.is_error()).count();
                ul #matrix-findings {
                    @for finding in &review.findings {
                        li.(if finding.is_error() { "alert" } else { "notice" }) {
                            (if finding.is_error() { "error: " } else { "warning: " })
                            (finding.describe(limit, raised))
                        }
                    }
                }
                p #matrix-errors { (errors) @if errors == 1 { " error" } @else { " errors" } }
            }
        }
    };
    let title = format!("Matrix {id} · {problem}");
    Ok(page::frame(&title, Some(&visitor), body))
}

/// The raised limit over the limit, to two decimals at most (`1.5`).
fn margin_text(limit_ms: i64, raised_ms: i64) -> String {
    let text = format!("{:.2}", raised_ms as f64 / limit_ms.max(1) as f64);
    text.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// The testcase page's part: the button that starts a run and the
/// problem's latest runs.
pub fn section(visitor: &Visitor, problem: &ProblemId, runs: &[MatrixRun]) -> Markup {
    html! {
        form.card #matrix-run method="post" action={ "/problems/" (problem) "/matrix" } {
            h2 { "Solutions × testcases" }
            p.muted { "Run every setter solution of the problem's folder on every testcase under the raised time limit, and review the limit by problemtools' rule." }
            input type="hidden" name="csrf" value=(visitor.csrf);
            label { "Safety margin: every run under the limit × "
                input type="number" name="time_limit_to_tle" step="any" min=(Multipliers::RANGE.start()) max=(Multipliers::RANGE.end()) placeholder=(Multipliers::default().time_limit_to_tle);
                " (problemtools' time_limit_to_tle) "
            }
            button type="submit" id="matrix-run-button" { "Run the matrix" }
            @if !runs.is_empty() {
                ul #matrix-list {
                    @for run in runs {
                        li {
                            a href={ "/matrices/" (run.id) } { "Matrix " (run.id) }
                            ": " (run.judged) " of " (run.solutions) " solutions judged"
                        }
                    }
                }
            }
        }
    }
}
