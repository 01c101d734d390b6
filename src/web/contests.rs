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
    extract::{
        Query, State,
        rejection::{FormRejection, QueryRejection},
    },
    http::{StatusCode, header},
    response::{IntoResponse, Redirect, Response},
    routing::{get, post},
};
use maud::{Markup, PreEscaped, html};
use serde::Deserialize;

use super::{PageError, PagePath, page, visitor::Visitor};
use crate::{
    api::{ClarificationAnswer, NewClarification, SubmitRequest},
    app::submissions::Submitted,
    contest::{Cell, Clarification, ContestSettings, ContestView, PERSONAL, Phase, Scoreboard},
    domain::{ContestId, ProblemId, Registration, Role, Scoring, Timestamp},
    http::AppState,
    scoring,
};

/// This module's pages and forms.
pub(super) fn routes() -> Router<AppState> {
    Router::new()
        .route("/contests", get(list))
        .route("/contests/{id}", get(show))
        .route("/contests/new", get(new_contest))
        .route("/contests", post(create))
        .route("/contests/{id}/edit", get(edit).post(save))
        .route("/contests/{id}/reveal", get(reveal))
        .route("/contests/{id}/problems/{label}/input", get(own_input))
        .route("/contests/{id}/problems/{label}/answer", post(own_answer))
        .route("/contests/{id}/register", post(register))
        .route("/contests/{id}/window", post(start_window))
        .route("/contests/{id}/thaw", post(thaw))
        .route("/contests/{id}/clarifications", post(clarify))
        .route(
            "/contests/{id}/clarifications/{number}/answer",
            post(answer),
        )
}

/// A form with nothing but its CSRF token.
#[derive(Debug, Deserialize)]
pub struct CsrfForm {
    csrf: Option<String>,
}

/// The question (or, from the jury, announcement) form.
#[derive(Debug, Deserialize)]
pub struct AskForm {
    csrf: Option<String>,
    /// A contest problem's id, or empty for the contest in general.
    #[serde(default)]
    problem: String,
    #[serde(default)]
    text: String,
}

/// The jury's answer form.
#[derive(Debug, Deserialize)]
pub struct AnswerForm {
    csrf: Option<String>,
    #[serde(default)]
    answer: String,
    /// A checkbox: present when checked.
    to_all: Option<String>,
}

/// A form of this module: its CSRF field.
trait WithCsrf {
    fn csrf(&self) -> Option<&str>;
}

macro_rules! with_csrf {
    ($($form:ty),+) => {
        $(impl WithCsrf for $form {
            fn csrf(&self) -> Option<&str> {
                self.csrf.as_deref()
            }
        })+
    };
}

with_csrf!(CsrfForm, AskForm, AnswerForm, SettingsForm);

/// A form that was read and carries this session's CSRF token.
fn checked<T: WithCsrf>(
    visitor: &Visitor,
    form: Result<Form<T>, FormRejection>,
) -> Result<T, PageError> {
    let Form(form) = form.map_err(|e| {
        PageError::BadForm(format!("the form could not be read: {}", e.body_text()))
    })?;
    visitor.check_csrf(form.csrf())?;
    Ok(form)
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
        @if visitor.caller.role() == Role::Admin {
            p { a #new-contest href="/contests/new" { "New contest" } }
        }
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
    if let Some(score) = cell.score {
        return score_cell(cell, score);
    }
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

/// One cell of an IOI scoreboard: the best score (none before a try), and
/// `?` for pending tries; full marks look solved.
fn score_cell(cell: &Cell, score: f64) -> Markup {
    let class = match cell {
        _ if cell.solved_minute.is_some() => "cell solved",
        _ if cell.pending > 0 && score == 0.0 => "cell pending",
        _ if cell.tried() => "cell tried",
        _ => "cell",
    };
    html! {
        td class=(class) data-label=(cell.label) {
            @if cell.tried() { (scoring::points_shown(score)) }
            @if cell.pending > 0 { " ?" (cell.pending) }
        }
    }
}

/// Rows of the scoreboard on one page.
const ROWS_PER_PAGE: usize = 200;

/// The query of a contest page: which page of the scoreboard's rows.
#[derive(Debug, Deserialize)]
pub struct ContestPageQuery {
    /// From 1.
    page: Option<usize>,
}

fn scoreboard_table(board: &Scoreboard) -> Markup {
    let ioi = board.scoring == Scoring::Ioi;
    let page = board.first_row / ROWS_PER_PAGE + 1;
    let pages = board.total_rows.div_ceil(ROWS_PER_PAGE).max(1);
    html! {
        div #scoreboard {
            @if board.frozen {
                p.notice #frozen { "The scoreboard is frozen: tries from the freeze on show as pending (?) until the jury thaws it." }
            }
            @if pages > 1 {
                p.muted #rows-shown {
                    "Rows " (board.first_row + 1) " to " (board.first_row + board.rows.len()) " of " (board.total_rows) ". "
                    @if page > 1 { a #previous-rows href={ "?page=" (page - 1) } { "Previous" } " " }
                    @if page < pages { a #next-rows href={ "?page=" (page + 1) } { "Next" } }
                }
            }
            @if board.rows.is_empty() {
                p.muted { @if board.total_rows == 0 { "Nobody has registered yet." } @else { "No rows on this page." } }
            } @else {
                table.list.scoreboard {
                    thead {
                        tr {
                            th { "#" } th { "Who" }
                            @if ioi { th { "Score" } } @else { th { "Solved" } th { "Penalty" } }
                            @for label in &board.labels { th { (label) } }
                        }
                    }
                    tbody {
                        @for row in &board.rows {
                            tr data-user=(row.user) {
                                td { (row.rank) }
                                td { (row.user) }
                                @if let Some(score) = row.score {
                                    td.count { (scoring::points_shown(score)) }
                                } @else {
                                    td.count { (row.solved) }
                                    td { (row.penalty) }
                                }
                                @for entry in &row.cells { (cell(entry)) }
                            }
                        }
                    }
                }
            }
        }
    }
}

fn clarifications_section(
    visitor: &Visitor,
    view: &ContestView,
    clarifications: &[Clarification],
) -> Markup {
    let id = &view.contest.id;
    let staff = visitor.caller.role().is_staff();
    let label_of = |problem: &ProblemId| {
        view.contest
            .settings
            .problems
            .iter()
            .find(|p| &p.problem == problem)
            .map_or_else(|| problem.to_string(), |p| p.label.clone())
    };
    let may_ask = staff || (view.registered && view.phase != Phase::Before);
    html! {
        h2 { "Clarifications" }
        @if clarifications.is_empty() {
            p.muted #no-clarifications { "None yet." }
        } @else {
            ul.clarifications #clarifications {
                @for clarification in clarifications {
                    li data-id=(clarification.id) {
                        div.about {
                            @match &clarification.problem {
                                Some(problem) => { strong { (label_of(problem)) } },
                                None => { strong { "General" } },
                            }
                            @match &clarification.asked_by {
                                Some(who) => span.muted { " · asked by " (who) },
                                None => span.muted { " · announcement" },
                            }
                            @if clarification.to_all && clarification.asked_by.is_some() {
                                span.muted { " · answered for everyone" }
                            }
                        }
                        @if let Some(question) = &clarification.question {
                            p.question { (question) }
                        }
                        @match &clarification.answer {
                            Some(answer) => p.answer { (answer) },
                            None => p.muted.unanswered { "Not answered yet." },
                        }
                        @if staff && clarification.asked_by.is_some() {
                            form.answer-form method="post" action={ "/contests/" (id) "/clarifications/" (clarification.id) "/answer" } {
                                input type="hidden" name="csrf" value=(visitor.csrf);
                                label for={ "answer-" (clarification.id) } { "Answer" }
                                textarea id={ "answer-" (clarification.id) } name="answer" rows="2" { (clarification.answer.as_deref().unwrap_or_default()) }
                                label.check { input type="checkbox" name="to_all" value="on" checked[clarification.to_all]; "For everyone" }
                                button.small-action type="submit" { "Answer" }
                            }
                        }
                    }
                }
            }
        }
        @if may_ask {
            form.card #ask-form method="post" action={ "/contests/" (id) "/clarifications" } {
                h3 { @if staff { "Announce to everyone" } @else { "Ask the jury" } }
                input type="hidden" name="csrf" value=(visitor.csrf);
                label for="ask-problem" { "About" }
                select #ask-problem name="problem" {
                    option value="" { "The contest in general" }
                    @for entry in &view.contest.settings.problems {
                        option value=(entry.problem) { (entry.label) " · " (entry.problem) }
                    }
                }
                label for="ask-text" { @if staff { "Announcement" } @else { "Question" } }
                textarea #ask-text name="text" rows="3" {}
                button type="submit" id="ask" { @if staff { "Announce" } @else { "Ask" } }
            }
        }
    }
}

fn contest_page(
    visitor: &Visitor,
    view: &ContestView,
    board: &Scoreboard,
    clarifications: &[Clarification],
) -> Markup {
    let contest = &view.contest;
    let settings = &contest.settings;
    let id = &contest.id;
    html! {
        p.crumbs { a href="/contests" { "Contests" } " › " (id) }
        h1 { (settings.title) }
        div.limits {
            span { "Starts " (when(settings.starts_at)) }
            span { "Lasts " (duration(settings.duration_seconds)) }
            @if let Some(window) = settings.window_seconds {
                span #personal { "Personal windows of " (duration(window)) }
            }
            @if let Some(freeze) = settings.freeze_seconds {
                span { "Freezes " (duration(freeze)) " before the end" @if settings.window_seconds.is_some() { " of each window" } }
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
        @if visitor.caller.role() == Role::Admin {
            p { a #edit-contest href={ "/contests/" (id) "/edit" } { "Settings" } }
        }
        @if let Some(window) = &view.window {
            p.notice #window { "Your window: " (when(window.starts_at)) " to " (when(window.ends_at)) "." }
        } @else if settings.window_seconds.is_some() && view.phase == Phase::Running
            && (view.registered || settings.registration == Registration::Open) {
            form.inline method="post" action={ "/contests/" (id) "/window" } data-confirm="Start your window now? It cannot be paused." {
                input type="hidden" name="csrf" value=(visitor.csrf);
                button type="submit" id="start-window" { "Start my window" }
                span.muted { " (or send a submission: the first one starts it)" }
            }
        }
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
                        @if entry.personal_input.is_some() && view.phase != Phase::Before {
                            @if view.registered && (settings.window_seconds.is_none() || view.window.is_some()) {
                                " · " a.personal-input href={ "/contests/" (id) "/problems/" (entry.label) "/input" } { "your own input" }
                            } @else {
                                " · " span.muted.personal-input-later { "your own input once you "
                                    @if view.registered { "start your window" } @else { "register" } }
                            }
                            form.personal-answer method="post" action={ "/contests/" (id) "/problems/" (entry.label) "/answer" } {
                                input type="hidden" name="csrf" value=(visitor.csrf);
                                label for={ "answer-" (entry.label) } { "Your answer to your input" }
                                textarea id={ "answer-" (entry.label) } name="answer" rows="3" spellcheck="false" {}
                                button type="submit" { "Send" }
                            }
                        }
                    }
                }
            }
        }
        h2 { "Scoreboard" }
        (scoreboard_table(board))
        @if visitor.caller.role() == Role::Admin && view.phase == Phase::Ended
            && settings.freeze_seconds.is_some() && contest.thawed_at.is_none() {
            p { a #reveal-link href={ "/contests/" (id) "/reveal" } { "Reveal the frozen results one by one" } " (before the thaw)" }
            form method="post" action={ "/contests/" (id) "/thaw" } data-confirm="Thaw the scoreboard for everyone?" {
                input type="hidden" name="csrf" value=(visitor.csrf);
                button type="submit" id="thaw" { "Thaw the scoreboard" }
            }
        }
        (clarifications_section(visitor, view, clarifications))
        script src="/static/confirm.js" {}
        script src="/static/scoreboard.js" {}
    }
}

/// `GET /contests/{id}`.
pub async fn show(
    State(state): State<AppState>,
    visitor: Visitor,
    PagePath(id): PagePath<ContestId>,
    query: Result<Query<ContestPageQuery>, QueryRejection>,
) -> Result<Markup, PageError> {
    let Query(query) =
        query.map_err(|e| PageError::BadForm(format!("bad query: {}", e.body_text())))?;
    let first = (query.page.unwrap_or(1).max(1) - 1).saturating_mul(ROWS_PER_PAGE);
    let view = state.app.contest(&visitor.caller, &id).await?;
    let rows = first..first.saturating_add(ROWS_PER_PAGE);
    let board = state
        .app
        .scoreboard(&visitor.caller, &id, Some(rows))
        .await?;
    let clarifications = state.app.clarifications(&visitor.caller, &id).await?;
    Ok(page::frame(
        &view.contest.settings.title,
        Some(&visitor),
        contest_page(&visitor, &view, &board, &clarifications),
    ))
}

/// `POST /contests/{id}/register`: the visitor registers.
pub async fn register(
    State(state): State<AppState>,
    visitor: Visitor,
    PagePath(id): PagePath<ContestId>,
    form: Result<Form<CsrfForm>, FormRejection>,
) -> Result<Redirect, PageError> {
    checked(&visitor, form)?;
    state.app.register(&visitor.caller, &id, None).await?;
    Ok(Redirect::to(&format!("/contests/{id}")))
}

/// A contest's settings as the form shows them: the TOML that
/// `nimjudge contest put` reads.
#[derive(Debug, Deserialize)]
pub struct SettingsForm {
    csrf: Option<String>,
    /// Only when creating one.
    #[serde(default)]
    id: String,
    #[serde(default)]
    settings: String,
}

/// A new contest's settings, as a starting point.
const NEW_CONTEST_TOML: &str = "title = \"Winter Cup\"
starts_at = \"2030-01-16T09:00:00Z\"
duration_seconds = 18000
freeze_seconds = 3600
scoring = \"icpc\"
registration = \"open\"
penalty_minutes = 20

[[problems]]
label = \"A\"
problem = \"nim\"
colour = \"#1e88e5\"
";

/// The settings form: `id` is `None` for a new contest, `refused` the
/// reason a sent form was refused (shown above it, the text kept).
fn settings_page(
    visitor: &Visitor,
    id: Option<&ContestId>,
    form_id: &str,
    text: &str,
    refused: Option<&str>,
) -> Markup {
    let action = match id {
        Some(id) => format!("/contests/{id}/edit"),
        None => "/contests".to_string(),
    };
    html! {
        p.crumbs {
            a href="/contests" { "Contests" } " › "
            @match id { Some(id) => { a href={ "/contests/" (id) } { (id) } " › settings" }, None => "new" }
        }
        h1 { @match id { Some(id) => { "Settings of " (id) }, None => "New contest" } }
        p.muted { "The settings as TOML, as " code { "nimjudge contest put" } " reads them (the README lists every key). Saving replaces them all." }
        @if let Some(reason) = refused {
            p.notice.refused #settings-refused { (reason) }
        }
        form.card #contest-settings method="post" action=(action) {
            input type="hidden" name="csrf" value=(visitor.csrf);
            @if id.is_none() {
                label for="contest-id" { "Id (letters, digits and dashes)" }
                input #contest-id type="text" name="id" value=(form_id) required;
            }
            label for="settings-text" { "Settings" }
            textarea #settings-text name="settings" rows="18" spellcheck="false" { (text) }
            button type="submit" id="save-contest" { "Save" }
        }
    }
}

fn admin_only(visitor: &Visitor) -> Result<(), PageError> {
    if visitor.caller.role() == Role::Admin {
        Ok(())
    } else {
        Err(PageError::from(crate::app::AppError::Forbidden(
            "only admins create and edit contests".into(),
        )))
    }
}

/// `GET /contests/new` (admins).
pub async fn new_contest(visitor: Visitor) -> Result<Markup, PageError> {
    admin_only(&visitor)?;
    Ok(page::frame(
        "New contest",
        Some(&visitor),
        settings_page(&visitor, None, "", NEW_CONTEST_TOML, None),
    ))
}

/// `GET /contests/{id}/edit` (admins): the settings as they are.
pub async fn edit(
    State(state): State<AppState>,
    visitor: Visitor,
    PagePath(id): PagePath<ContestId>,
) -> Result<Markup, PageError> {
    admin_only(&visitor)?;
    let view = state.app.contest(&visitor.caller, &id).await?;
    let text = toml::to_string(&view.contest.settings)
        .map_err(|e| PageError::from(crate::app::AppError::Internal(e.to_string())))?;
    Ok(page::frame(
        "Contest settings",
        Some(&visitor),
        settings_page(&visitor, Some(&id), "", &text, None),
    ))
}

/// `POST /contests` (admins): creates a contest.
pub async fn create(
    State(state): State<AppState>,
    visitor: Visitor,
    form: Result<Form<SettingsForm>, FormRejection>,
) -> Result<Response, PageError> {
    let form = read_settings_form(&visitor, form)?;
    let id = match form.id.trim().parse::<ContestId>() {
        Ok(id) => id,
        Err(e) => {
            let reason = format!("the id `{}`: {e}", form.id.trim());
            return Ok(refused(&visitor, None, &form, &reason));
        }
    };
    match state.app.contest(&visitor.caller, &id).await {
        Ok(_) => {
            let reason = format!("contest `{id}` exists already: edit it from its page");
            return Ok(refused(&visitor, None, &form, &reason));
        }
        Err(crate::app::AppError::NotFound(_)) => {}
        Err(e) => return Err(e.into()),
    }
    put_settings(&state, &visitor, &id, None, &form).await
}

/// `POST /contests/{id}/edit` (admins): replaces a contest's settings.
pub async fn save(
    State(state): State<AppState>,
    visitor: Visitor,
    PagePath(id): PagePath<ContestId>,
    form: Result<Form<SettingsForm>, FormRejection>,
) -> Result<Response, PageError> {
    let form = read_settings_form(&visitor, form)?;
    state.app.contest(&visitor.caller, &id).await?;
    put_settings(&state, &visitor, &id, Some(&id), &form).await
}

fn read_settings_form(
    visitor: &Visitor,
    form: Result<Form<SettingsForm>, FormRejection>,
) -> Result<SettingsForm, PageError> {
    admin_only(visitor)?;
    checked(visitor, form)
}

/// Parses and puts the settings; a refusal shows the form again with the
/// reason and the text as sent.
async fn put_settings(
    state: &AppState,
    visitor: &Visitor,
    id: &ContestId,
    editing: Option<&ContestId>,
    form: &SettingsForm,
) -> Result<Response, PageError> {
    let settings: ContestSettings = match toml::from_str(&form.settings) {
        Ok(settings) => settings,
        Err(e) => {
            return Ok(refused(
                visitor,
                editing,
                form,
                &format!("the settings: {e}"),
            ));
        }
    };
    match state.app.put_contest(&visitor.caller, id, &settings).await {
        Ok(_) => Ok(Redirect::to(&format!("/contests/{id}")).into_response()),
        Err(crate::app::AppError::Invalid(reason)) => Ok(refused(visitor, editing, form, &reason)),
        Err(e) => Err(e.into()),
    }
}

fn refused(
    visitor: &Visitor,
    editing: Option<&ContestId>,
    form: &SettingsForm,
    reason: &str,
) -> Response {
    let page = page::frame(
        "Contest settings",
        Some(visitor),
        settings_page(visitor, editing, &form.id, &form.settings, Some(reason)),
    );
    (StatusCode::UNPROCESSABLE_ENTITY, page).into_response()
}

/// `GET /contests/{id}/reveal` (admins, after the end and before the
/// thaw): the frozen board, whose results `reveal.js` uncovers one at a
/// time from the bottom up, re-ranking after each, until it is the whole
/// board; then the thaw shows it to everyone.
pub async fn reveal(
    State(state): State<AppState>,
    visitor: Visitor,
    PagePath(id): PagePath<ContestId>,
) -> Result<Markup, PageError> {
    let view = state.app.contest(&visitor.caller, &id).await?;
    let (frozen, full) = state.app.reveal(&visitor.caller, &id).await?;
    let settings = &view.contest.settings;
    let data = serde_json::json!({
        "ioi": settings.scoring == Scoring::Ioi,
        "penalty": settings.penalty_minutes,
        "labels": full.labels,
        "frozen": frozen.rows,
        "full": full.rows,
    });
    // Inside a script element: no `<` may close it early.
    let data = data.to_string().replace('<', "\\u003c");
    let body = html! {
        p.crumbs { a href="/contests" { "Contests" } " › " a href={ "/contests/" (id) } { (id) } " › reveal" }
        h1 { "Revealing " (settings.title) }
        p.muted { "Each click uncovers the next frozen result, from the bottom of the board up, and ranks the board again. Nobody else sees it until you thaw the scoreboard." }
        div #reveal {
            script #reveal-data type="application/json" { (PreEscaped(data)) }
            button type="button" id="reveal-next" { "Reveal the next result" }
            " " span.muted #reveal-left {}
            div #reveal-board {}
        }
        form method="post" action={ "/contests/" (id) "/thaw" } data-confirm="Thaw the scoreboard for everyone?" {
            input type="hidden" name="csrf" value=(visitor.csrf);
            button type="submit" id="thaw" { "Thaw the scoreboard" }
        }
        script src="/static/confirm.js" {}
        script src="/static/reveal.js" {}
    };
    Ok(page::frame("Reveal", Some(&visitor), body))
}

/// `GET /contests/{id}/problems/{label}/input`: the visitor's own input,
/// as a file.
pub async fn own_input(
    State(state): State<AppState>,
    visitor: Visitor,
    PagePath((id, label)): PagePath<(ContestId, String)>,
) -> Result<Response, PageError> {
    let input = state
        .app
        .personal_input(&visitor.caller, &id, &label)
        .await?;
    let name = format!("attachment; filename=\"{id}-{label}.in\"");
    Ok((
        [
            (
                header::CONTENT_TYPE,
                "text/plain; charset=utf-8".to_string(),
            ),
            (header::CONTENT_DISPOSITION, name),
        ],
        input,
    )
        .into_response())
}

/// The answer form of a problem with inputs of their own.
#[derive(Debug, Deserialize)]
pub struct OwnAnswerForm {
    csrf: Option<String>,
    #[serde(default)]
    answer: String,
}

with_csrf!(OwnAnswerForm);

/// `POST /contests/{id}/problems/{label}/answer`: the visitor's answer to
/// their own input, sent to the contest; then its submission's page.
pub async fn own_answer(
    State(state): State<AppState>,
    visitor: Visitor,
    PagePath((id, label)): PagePath<(ContestId, String)>,
    form: Result<Form<OwnAnswerForm>, FormRejection>,
) -> Result<Redirect, PageError> {
    let form = checked(&visitor, form)?;
    let view = state.app.contest(&visitor.caller, &id).await?;
    let problem = view
        .contest
        .problem(&label)
        .ok_or_else(|| PageError::NotFound(format!("contest `{id}` has no problem `{label}`")))?
        .problem
        .clone();
    let answers = std::collections::BTreeMap::from([(
        PERSONAL.parse().map_err(PageError::BadForm)?,
        form.answer,
    )]);
    let request = SubmitRequest {
        problem,
        contest: Some(id.clone()),
        answers: Some(answers),
        input: None,
        output: None,
        language: None,
        source: None,
    };
    let submission = match state.app.submit(&visitor.caller, None, request).await? {
        Submitted::Stored(row) | Submitted::Replayed(row) => row.id,
    };
    Ok(Redirect::to(&format!("/submissions/{submission}")))
}

/// `POST /contests/{id}/window`: the visitor starts their own window.
pub async fn start_window(
    State(state): State<AppState>,
    visitor: Visitor,
    PagePath(id): PagePath<ContestId>,
    form: Result<Form<CsrfForm>, FormRejection>,
) -> Result<Redirect, PageError> {
    checked(&visitor, form)?;
    state.app.start_window(&visitor.caller, &id).await?;
    Ok(Redirect::to(&format!("/contests/{id}")))
}

/// `POST /contests/{id}/thaw`: an admin thaws the scoreboard.
pub async fn thaw(
    State(state): State<AppState>,
    visitor: Visitor,
    PagePath(id): PagePath<ContestId>,
    form: Result<Form<CsrfForm>, FormRejection>,
) -> Result<Redirect, PageError> {
    checked(&visitor, form)?;
    state.app.thaw(&visitor.caller, &id).await?;
    Ok(Redirect::to(&format!("/contests/{id}")))
}

/// `POST /contests/{id}/clarifications`: a question, or the jury's
/// announcement.
pub async fn clarify(
    State(state): State<AppState>,
    visitor: Visitor,
    PagePath(id): PagePath<ContestId>,
    form: Result<Form<AskForm>, FormRejection>,
) -> Result<Redirect, PageError> {
    let form = checked(&visitor, form)?;
    let problem = match form.problem.trim() {
        "" => None,
        text => Some(
            text.parse()
                .map_err(|e| PageError::BadForm(format!("the field `problem`: {e}")))?,
        ),
    };
    let body = NewClarification {
        problem,
        text: form.text,
    };
    state.app.clarify(&visitor.caller, &id, &body).await?;
    Ok(Redirect::to(&format!("/contests/{id}#clarifications")))
}

/// `POST /contests/{id}/clarifications/{number}/answer`: the jury answers.
pub async fn answer(
    State(state): State<AppState>,
    visitor: Visitor,
    PagePath((id, number)): PagePath<(ContestId, i64)>,
    form: Result<Form<AnswerForm>, FormRejection>,
) -> Result<Redirect, PageError> {
    let form = checked(&visitor, form)?;
    let body = ClarificationAnswer {
        answer: form.answer,
        to_all: form.to_all.is_some(),
    };
    state
        .app
        .answer_clarification(&visitor.caller, &id, number, &body)
        .await?;
    Ok(Redirect::to(&format!("/contests/{id}#clarifications")))
}
