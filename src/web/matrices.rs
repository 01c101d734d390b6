//! The solutions × testcases matrix for setters and admins: a button on a
//! problem's testcase page starts a run (the workers judge every setter
//! solution of the problem's folder on every testcase under the raised
//! time limit), and the run's page shows each solution's verdict at the
//! limit and each testcase's verdict and CPU time, then problemtools'
//! review of the limit. While workers are judging the page reloads itself
//! every few seconds (a `refresh` meta tag: no script).
//!
//! Every action is the application's use case: a contestant gets its 403
//! for the page and the form.

use axum::{
    Form, Router,
    extract::{State, rejection::FormRejection},
    response::Redirect,
    routing::{get, post},
};
use maud::{Markup, html};

use super::{PageError, PagePath, page, session::CsrfForm, visitor::Visitor};
use crate::{
    domain::{MatrixRun, ProblemId, SubmissionState},
    http::AppState,
};

/// This module's pages and forms.
pub(super) fn routes() -> Router<AppState> {
    Router::new()
        .route("/problems/{id}/matrix", post(start))
        .route("/matrices/{id}", get(show))
}

/// `POST /problems/{id}/matrix`: starts a run and opens its page.
pub async fn start(
    State(state): State<AppState>,
    visitor: Visitor,
    PagePath(problem): PagePath<ProblemId>,
    form: Result<Form<CsrfForm>, FormRejection>,
) -> Result<Redirect, PageError> {
    visitor.check_csrf_form(form)?;
    let run = state
        .app
        .start_matrix_run(&visitor.caller, &problem)
        .await?;
    Ok(Redirect::to(&format!("/matrices/{}", run.id)))
}

/// `GET /matrices/{id}`: the run's matrix and, once every solution is
/// judged, its review.
pub async fn show(
    State(state): State<AppState>,
    visitor: Visitor,
    PagePath(id): PagePath<i64>,
) -> Result<Markup, PageError> {
    let reviewed = state.app.matrix(&visitor.caller, id).await?;
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
            (raised) " ms (× " (reviewed.multipliers.time_limit_to_tle) "); cells: the verdict at the limit and CPU ms."
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
                @if let (Some((solution, slowest)), Some(computed)) = (&review.slowest_accepted, review.computed_limit_ms) {
                    p #matrix-slowest {
                        "Slowest accepted: " (solution) ", " (slowest) " ms; × " (reviewed.multipliers.ac_to_time_limit)
                        " = " ((*slowest as f64 * reviewed.multipliers.ac_to_time_limit).ceil()) " ms against the limit of "
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

/// The testcase page's part: the button that starts a run and the
/// problem's latest runs.
pub fn section(visitor: &Visitor, problem: &ProblemId, runs: &[MatrixRun]) -> Markup {
    html! {
        form.card #matrix-run method="post" action={ "/problems/" (problem) "/matrix" } {
            h2 { "Solutions × testcases" }
            p.muted { "Run every setter solution of the problem's folder on every testcase under the raised time limit, and review the limit by problemtools' rule." }
            input type="hidden" name="csrf" value=(visitor.csrf);
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
