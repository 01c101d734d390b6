//! Practice: a signed-in person plays an interactive problem's game against
//! the solver core, move by move (the web's practice page). Nothing is
//! stored: each step gets the position and returns the next one, so the
//! position a person sends is checked like any input.

use super::{App, AppError, Caller};
use crate::{
    domain::ProblemId,
    solver::{
        self,
        interactive::{Explanation, Practice, Winner},
    },
};

/// One step of a practice game.
#[derive(Debug, Clone)]
pub enum PracticeStep {
    /// A new starting position.
    Deal { seed: u64 },
    /// The judge moves first from `position` (the person plays second).
    JudgeFirst { position: String, seed: u64 },
    /// The person plays `mv` from `position`, then the judge replies.
    Move {
        position: String,
        mv: String,
        seed: u64,
    },
    /// Only the explanation of `position`, the person to move.
    Look { position: String },
}

/// Where a step left the game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PracticeView {
    /// The position, the person to move (unless the game is over).
    pub position: String,
    /// The judge's reply, if it moved.
    pub judge_move: Option<String>,
    pub winner: Option<Winner>,
    /// Why the person, to move, wins or loses; `None` when the game is
    /// over, or when the problem's setter turned hints off
    /// (`practice_hints = false`).
    pub explanation: Option<Explanation>,
    /// The game's move format, for the form's label.
    pub move_format: &'static str,
    /// How the position is written, where it is not the base problem's input.
    pub position_format: Option<&'static str>,
}

impl App {
    /// Plays one step of a practice game of `problem`, which must be in the
    /// catalog and interactive. A malformed position or an illegal move is
    /// [`AppError::Invalid`] with the reason.
    pub async fn practice(
        &self,
        caller: &Caller,
        problem: &ProblemId,
        step: PracticeStep,
    ) -> Result<PracticeView, AppError> {
        let hints = self.problem(caller, problem).await?.practice_hints;
        self.check_practice_open(caller, problem).await?;
        let game = practice_of(problem)?;
        // A step searches the position's moves (tens of thousands at the
        // largest): on a thread of its own, not the server's.
        tokio::task::spawn_blocking(move || play(game, hints, step))
            .await
            .map_err(|e| AppError::Internal(format!("a practice step failed: {e}")))?
    }
}

/// [`App::practice`]'s step, on the game itself.
fn play(
    game: &'static dyn Practice,
    hints: bool,
    step: PracticeStep,
) -> Result<PracticeView, AppError> {
    let invalid = |why: String| AppError::Invalid(why);
    let (position, judge_move, winner) = match step {
        PracticeStep::Deal { seed } => (game.deal(seed), None, None),
        PracticeStep::Look { position } => (position, None, None),
        PracticeStep::JudgeFirst { position, seed } => {
            let turn = game.judge_first(&position, seed).map_err(invalid)?;
            (turn.position, turn.judge_move, turn.winner)
        }
        PracticeStep::Move { position, mv, seed } => {
            let turn = game.play(&position, &mv, seed).map_err(invalid)?;
            (turn.position, turn.judge_move, turn.winner)
        }
    };
    // Also what checks a looked-at position.
    let explanation = match winner {
        Some(_) => None,
        None => {
            let explanation = game.explain(&position).map_err(invalid)?;
            hints.then_some(explanation)
        }
    };
    Ok(PracticeView {
        position,
        judge_move,
        winner,
        explanation,
        move_format: game.move_format(),
        position_format: game.position_format(),
    })
}

fn practice_of(problem: &ProblemId) -> Result<&'static dyn Practice, AppError> {
    solver::find(problem.as_str())
        .and_then(|s| s.practice())
        .ok_or_else(|| {
            AppError::NotFound(format!(
                "problem `{problem}` is not interactive: there is no game to play"
            ))
        })
}
