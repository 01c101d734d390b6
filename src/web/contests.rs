//! Contest pages: the list, and a contest's page with its problems (each
//! opening the problem page whose forms send to the contest), a register
//! button, and the scoreboard, which `scoreboard.js` refreshes in place.
//! An admin thaws a frozen scoreboard from it after the end.
//!
//! Everything goes through the application's use cases, so a page shows
//! what the API's scoreboard shows the same visitor: frozen for all but
//! admins from the freeze until the thaw, and no problems before the start
//! for contestants.

use axum::{
    Form, Router,
    extract::{State, rejection::FormRejection},
    response::Redirect,
    routing::{get, post},
};
use maud::{Markup, html};
use serde::Deserialize;

use super::{PageError, PagePath, page, visitor::Visitor};
use crate::{
    contest::{Cell, ContestView, Phase, Scoreboard},
    domain::{ContestId, Registration, Role, Timestamp},
    http::AppState,
};

/// This module's pages and forms.
pub(super) fn routes() -> Router<AppState> {
    Router::new()
        .route("/contests", get(list))
        .route("/contests/{id}", get(show))
        .route("/contests/{id}/register", post(register))
        .route("/contests/{id}/thaw", post(thaw))
}

/// A form with nothing but its CSRF token.
#[derive(Debug, Deserialize)]
pub struct CsrfForm {
    csrf: Option<String>,
}

fn when(at: Timestamp) -> String {
    at.strftime("%Y-%m-%d %H:%M UTC").to_string()
}

fn duration(seconds: i64) -> String {
    match (seconds / 3600, seconds % 3600 / 60, seconds % 60) {
        (h, m, 0) if h > 0 => format!("{h} h {m:02} min"),
        (0, m, 0) => format!("{m} min"),
        (h, m, s) => format!("{h}:{m:02}:{s:02}"),
    }
}

fn phase_text(phase: Phase) -> &'static str {
    match phase {
        Phase::Before => "not started",
        Phase::Running => "running",
        Phase::Frozen => "running, scoreboard frozen",
        Phase::Ended => "over",
    }
}

/// `GET /contests`: every contest, the latest start first.
pub async fn list(State(state): State<AppState>, visitor: Visitor) -> Result<Markup, PageError> {
    let contests = state.app.contests(&visitor.caller).await?;
    let body = html! {
        h1 { "Contests" }
        @if contests.is_empty() {
            p.muted #no-contests { "No contests yet." }
        } @else {
            table.list #contests {
                thead { tr { th { "Contest" } th { "Starts" } th { "Length" } th { "Now" } th { "You" } } }
                tbody {
                    @for view in &contests {
                        tr data-id=(view.contest.id) {
                            td { a href={ "/contests/" (view.contest.id) } { (view.contest.settings.title) } }
                            td { (when(view.contest.settings.starts_at)) }
                            td { (duration(view.contest.settings.duration_seconds)) }
                            td { (phase_text(view.phase)) }
                            td { @if view.registered { "registered" } }
                        }
                    }
                }
            }
        }
    };
    Ok(page::frame("Contests", Some(&visitor), body))
}

/// One scoreboard cell: `+` and the minute when solved (with the rejected
/// tries before it), `-` and the tries when not, `?` for pending ones.
fn cell(cell: &Cell) -> Markup {
    let class = match (cell.solved_minute, cell.first_to_solve, cell.pending) {
        (Some(_), true, _) => "cell first",
        (Some(_), false, _) => "cell solved",
        (None, _, pending) if pending > 0 => "cell pending",
        (None, _, _) if cell.tries > 0 => "cell tried",
        _ => "cell",
    };
    html! {
        td class=(class) data-label=(cell.label) {
            @match cell.solved_minute {
                Some(minute) => {
                    @if cell.tries > 0 { "+" (cell.tries) } @else { "+" }
                    span.minute { (minute) }
                },
                None => {
                    @if cell.tries > 0 { "-" (cell.tries) }
                    @if cell.pending > 0 { " ?" (cell.pending) }
                },
            }
        }
    }
}

fn scoreboard_table(board: &Scoreboard) -> Markup {
    html! {
        div #scoreboard {
            @if board.frozen {
                p.notice #frozen { "The scoreboard is frozen: tries from the freeze on show as pending (?) until the jury thaws it." }
            }
            @if board.rows.is_empty() {
                p.muted { "Nobody has registered yet." }
            } @else {
                table.list.scoreboard {
                    thead {
                        tr {
                            th { "#" } th { "Who" } th { "Solved" } th { "Penalty" }
                            @for label in &board.labels { th { (label) } }
                        }
                    }
                    tbody {
                        @for row in &board.rows {
                            tr data-user=(row.user) {
                                td { (row.rank) }
                                td { (row.user) }
                                td.count { (row.solved) }
                                td { (row.penalty) }
                                @for entry in &row.cells { (cell(entry)) }
                            }
                        }
                    }
                }
            }
        }
    }
}

fn contest_page(visitor: &Visitor, view: &ContestView, board: &Scoreboard) -> Markup {
    let contest = &view.contest;
    let settings = &contest.settings;
    let id = &contest.id;
    html! {
        p.crumbs { a href="/contests" { "Contests" } " › " (id) }
        h1 { (settings.title) }
        div.limits {
            span { "Starts " (when(settings.starts_at)) }
            span { "Lasts " (duration(settings.duration_seconds)) }
            @if let Some(freeze) = settings.freeze_seconds {
                span { "Freezes " (duration(freeze)) " before the end" }
            }
            span #phase { (phase_text(view.phase)) }
        }
        @if !view.registered && settings.registration == Registration::Open && view.phase != Phase::Ended {
            form.inline method="post" action={ "/contests/" (id) "/register" } {
                input type="hidden" name="csrf" value=(visitor.csrf);
                button type="submit" id="register" { "Register" }
            }
        }
        @if view.registered { p.muted #registered { "You are registered." } }
        h2 { "Problems" }
        @if settings.problems.is_empty() {
            p.muted #problems-hidden { "The problems appear when the contest starts." }
        } @else {
            ul.contest-problems #contest-problems {
                @for entry in &settings.problems {
                    li {
                        @if let Some(colour) = &entry.colour {
                            svg.balloon viewBox="0 0 10 10" width="12" height="12" aria-hidden="true" {
                                circle cx="5" cy="5" r="5" fill=(colour) {}
                            }
                            " "
                        }
                        strong { (entry.label) } " "
                        a href={ "/problems/" (entry.problem) "?contest=" (id) } { (entry.problem) }
                    }
                }
            }
        }
        h2 { "Scoreboard" }
        (scoreboard_table(board))
        @if visitor.caller.role() == Role::Admin && view.phase == Phase::Ended
            && settings.freeze_seconds.is_some() && contest.thawed_at.is_none() {
            form method="post" action={ "/contests/" (id) "/thaw" } data-confirm="Thaw the scoreboard for everyone?" {
                input type="hidden" name="csrf" value=(visitor.csrf);
                button type="submit" id="thaw" { "Thaw the scoreboard" }
            }
        }
        script src="/static/confirm.js" {}
        script src="/static/scoreboard.js" {}
    }
}

/// `GET /contests/{id}`.
pub async fn show(
    State(state): State<AppState>,
    visitor: Visitor,
    PagePath(id): PagePath<ContestId>,
) -> Result<Markup, PageError> {
    let view = state.app.contest(&visitor.caller, &id).await?;
    let board = state.app.scoreboard(&visitor.caller, &id).await?;
    Ok(page::frame(
        &view.contest.settings.title,
        Some(&visitor),
        contest_page(&visitor, &view, &board),
    ))
}

/// `POST /contests/{id}/register`: the visitor registers.
pub async fn register(
    State(state): State<AppState>,
    visitor: Visitor,
    PagePath(id): PagePath<ContestId>,
    form: Result<Form<CsrfForm>, FormRejection>,
) -> Result<Redirect, PageError> {
    let Form(form) = form.map_err(|e| {
        PageError::BadForm(format!("the form could not be read: {}", e.body_text()))
    })?;
    visitor.check_csrf(form.csrf.as_deref())?;
    state.app.register(&visitor.caller, &id, None).await?;
    Ok(Redirect::to(&format!("/contests/{id}")))
}

/// `POST /contests/{id}/thaw`: an admin thaws the scoreboard.
pub async fn thaw(
    State(state): State<AppState>,
    visitor: Visitor,
    PagePath(id): PagePath<ContestId>,
    form: Result<Form<CsrfForm>, FormRejection>,
) -> Result<Redirect, PageError> {
    let Form(form) = form.map_err(|e| {
        PageError::BadForm(format!("the form could not be read: {}", e.body_text()))
    })?;
    visitor.check_csrf(form.csrf.as_deref())?;
    state.app.thaw(&visitor.caller, &id).await?;
    Ok(Redirect::to(&format!("/contests/{id}")))
}
