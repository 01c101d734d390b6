//! The practice page of an interactive problem: a signed-in visitor plays
//! its game against the solver core, one form post a move, with an
//! explanation panel (each component's value, how they combine, every
//! winning move as a button). No script: the position, the seed and the
//! moves so far travel in the form, and the application checks them as any
//! input, so a tampered form plays a different (valid) game at worst.

use axum::{
    Form, Router,
    extract::{Query, State, rejection::FormRejection, rejection::QueryRejection},
    http::StatusCode,
    response::{IntoResponse, Response},
    routing::get,
};
use maud::{Markup, html};
use serde::Deserialize;

use super::{PageError, PagePath, page, visitor::Visitor};
use crate::{
    app::{
        AppError,
        practice::{PracticeStep, PracticeView},
    },
    domain::{Problem, ProblemId},
    http::AppState,
    solver::interactive::Winner,
};

/// Lines of the move list kept in the form.
const HISTORY_LINES: usize = 400;

pub(super) fn routes() -> Router<AppState> {
    Router::new().route("/problems/{id}/play", get(start).post(step))
}

#[derive(Debug, Deserialize)]
pub struct StartQuery {
    /// Deals the same position again.
    seed: Option<u64>,
}

/// `GET /problems/{id}/play`: a dealt position; the visitor picks a side.
pub async fn start(
    State(state): State<AppState>,
    visitor: Visitor,
    PagePath(id): PagePath<ProblemId>,
    query: Result<Query<StartQuery>, QueryRejection>,
) -> Result<Markup, PageError> {
    let Query(query) = query.map_err(|e| PageError::BadForm(e.body_text()))?;
    let problem = state.app.problem(&visitor.caller, &id).await?;
    let seed = query.seed.unwrap_or_else(rand_seed);
    let view = state
        .app
        .practice(&visitor.caller, &id, PracticeStep::Deal { seed })
        .await?;
    Ok(board(
        &visitor,
        &problem,
        &Game {
            seed,
            phase: Phase::Side,
            history: String::new(),
        },
        &view,
        None,
    ))
}

/// The form every step posts.
#[derive(Debug, Deserialize)]
pub struct StepForm {
    csrf: Option<String>,
    position: String,
    seed: u64,
    #[serde(default)]
    history: String,
    /// `first`, `second` or `move`.
    action: String,
    /// The move typed in the box.
    #[serde(default)]
    r#move: String,
    /// A winning move's button, which wins over the box.
    #[serde(default)]
    hint: String,
}

/// `POST /problems/{id}/play`: a side chosen or a move played; the judge's
/// reply and the next position, or the same position and why the move was
/// refused (422).
pub async fn step(
    State(state): State<AppState>,
    visitor: Visitor,
    PagePath(id): PagePath<ProblemId>,
    form: Result<Form<StepForm>, FormRejection>,
) -> Result<Response, PageError> {
    let Form(form) = form.map_err(|e| {
        PageError::BadForm(format!("the form could not be read: {}", e.body_text()))
    })?;
    visitor.check_csrf(form.csrf.as_deref())?;
    let problem = state.app.problem(&visitor.caller, &id).await?;
    let seed = form.seed.wrapping_add(1);
    let mv = if form.hint.is_empty() {
        form.r#move.trim()
    } else {
        form.hint.trim()
    };
    let (step, said) = match form.action.as_str() {
        "first" => (
            PracticeStep::Look {
                position: form.position.clone(),
            },
            "you: First".to_string(),
        ),
        "second" => (
            PracticeStep::JudgeFirst {
                position: form.position.clone(),
                seed,
            },
            "you: Second".to_string(),
        ),
        "move" => (
            PracticeStep::Move {
                position: form.position.clone(),
                mv: mv.to_string(),
                seed,
            },
            format!("you: {mv}"),
        ),
        other => {
            return Err(PageError::BadForm(format!(
                "the field `action` must be `first`, `second` or `move`, not `{other}`"
            )));
        }
    };
    match state.app.practice(&visitor.caller, &id, step).await {
        Ok(view) => {
            let mut history = form.history.clone();
            push_line(&mut history, &said);
            if form.action != "first" {
                let reply = view.judge_move.as_deref().unwrap_or("none");
                push_line(&mut history, &format!("judge: {reply}"));
            }
            let game = Game {
                seed,
                phase: Phase::Move,
                history,
            };
            Ok(board(&visitor, &problem, &game, &view, None).into_response())
        }
        Err(AppError::Invalid(why)) => {
            // The same position again, the person still to move.
            let view = state
                .app
                .practice(
                    &visitor.caller,
                    &id,
                    PracticeStep::Look {
                        position: form.position.clone(),
                    },
                )
                .await?;
            let phase = if form.action == "move" {
                Phase::Move
            } else {
                Phase::Side
            };
            let game = Game {
                seed: form.seed,
                phase,
                history: form.history.clone(),
            };
            Ok((
                StatusCode::UNPROCESSABLE_ENTITY,
                board(&visitor, &problem, &game, &view, Some(&why)),
            )
                .into_response())
        }
        Err(other) => Err(other.into()),
    }
}

/// Appends a line, keeping the last [`HISTORY_LINES`].
fn push_line(history: &mut String, line: &str) {
    history.push_str(line);
    history.push('\n');
    let lines = history.lines().count();
    if lines > HISTORY_LINES {
        let drop = lines - HISTORY_LINES;
        let cut = history
            .match_indices('\n')
            .nth(drop - 1)
            .map_or(0, |(at, _)| at + 1);
        history.drain(..cut);
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Phase {
    /// The visitor picks First or Second.
    Side,
    /// The visitor is to move.
    Move,
}

/// What the form carries from one step to the next.
struct Game {
    seed: u64,
    phase: Phase,
    history: String,
}

fn board(
    visitor: &Visitor,
    problem: &Problem,
    game: &Game,
    view: &PracticeView,
    refused: Option<&str>,
) -> Markup {
    let id = &problem.id;
    let action = format!("/problems/{id}/play");
    let body = html! {
        p.crumbs { a href="/problems" { "Problems" } " › " a href={ "/problems/" (id) } { (id) } " › practice" }
        h1 { (problem.title) ": practice" }
        p.muted { "You play against the judge, the solver core: from a winning position it plays a winning move, from a losing one a random legal move. A move is " (view.move_format) "." }
        section #game {
            h2 { "Position" }
            @if let Some(format) = view.position_format {
                p.muted #position-format { "Written as " (format) "." }
            }
            pre #position { (view.position.trim_end()) }
            @if let Some(mv) = &view.judge_move {
                p #judge-move { "The judge played " code { (mv) } "." }
            }
            @if let Some(why) = refused {
                p.refused #refused { (why) }
            }
            @match view.winner {
                Some(Winner::You) => p.notice #result { "You won: the judge has no move." },
                Some(Winner::Judge) => p.refused #result { "The judge won: you have no move." },
                None => {}
            }
            @if view.winner.is_some() {
                p { a #new-game href=(action) { "New game" } }
            } @else {
                form.card #play method="post" action=(action) {
                    input type="hidden" name="csrf" value=(visitor.csrf);
                    input type="hidden" name="position" value=(view.position);
                    input type="hidden" name="seed" value=(game.seed);
                    input type="hidden" name="history" value=(game.history);
                    @match game.phase {
                        Phase::Side => {
                            p { "Which side do you play?" }
                            button type="submit" name="action" value="first" #play-first { "Play first" }
                            " "
                            button type="submit" name="action" value="second" #play-second { "Play second" }
                        }
                        Phase::Move => {
                            input type="hidden" name="action" value="move";
                            label for="move" { "Your move: " (view.move_format) }
                            input #move type="text" name="move" autocomplete="off" autofocus;
                            button type="submit" #play-move { "Move" }
                        }
                    }
                    @if let Some(explanation) = &view.explanation {
                        details #explain {
                            summary { "Explain" }
                            @for line in &explanation.lines {
                                p { (line) }
                            }
                            @match (game.phase, explanation.mover_wins) {
                                (Phase::Side, true) => p #advice { "The first player wins here: play first." },
                                (Phase::Side, false) => p #advice { "The first player loses here: play second." },
                                (Phase::Move, true) => p #advice { "You win from here with any of these moves:" },
                                (Phase::Move, false) => p #advice { "You lose from here if the judge plays well; any legal move will do." },
                            }
                            @if game.phase == Phase::Move && !explanation.winning_moves.is_empty() {
                                p.hints {
                                    @for mv in &explanation.winning_moves {
                                        button type="submit" name="hint" value=(mv) class="hint" { (mv) }
                                        " "
                                    }
                                }
                            }
                        }
                    }
                }
            }
            @if !game.history.is_empty() {
                h2 { "Moves" }
                pre #history { (game.history.trim_end()) }
            }
        }
    };
    page::frame(&format!("{}: practice", problem.title), Some(visitor), body)
}

/// A seed for a new game.
fn rand_seed() -> u64 {
    let bytes = *uuid::Uuid::new_v4().as_bytes();
    u64::from_le_bytes(bytes[..8].try_into().unwrap_or_default())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_move_list_keeps_its_last_lines() {
        let mut history = String::new();
        for i in 0..HISTORY_LINES + 10 {
            push_line(&mut history, &i.to_string());
        }
        assert_eq!(history.lines().count(), HISTORY_LINES);
        assert!(history.starts_with("10\n"));
        assert!(history.ends_with(&format!("{}\n", HISTORY_LINES + 9)));
    }
}
