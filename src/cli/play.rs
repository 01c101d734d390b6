//! `nimjudge play`: a person plays an interactive problem's game against
//! the solver core in a terminal, with the same judge and explanations as
//! the practice page. Lines are read from stdin, so a game can be scripted.

use std::{
    io::{self, BufRead, Write},
    path::PathBuf,
    process::ExitCode,
};

use anyhow::{Context, bail};
use clap::Args;

use super::EXIT_NOT_ACCEPTED;
use crate::solver::{self, interactive::Winner};

#[derive(Debug, Args)]
pub struct PlayArgs {
    /// An interactive problem, e.g. `nim-play` (`nimjudge problems` lists them).
    pub problem: String,
    /// Start from this position (one game, in the problem's format) instead of a dealt one.
    #[arg(long)]
    pub position: Option<PathBuf>,
    /// Seed of the dealt position and of the judge's moves from a losing
    /// position (default: from the clock; printed, so a game can be replayed).
    #[arg(long)]
    pub seed: Option<u64>,
}

pub fn run(args: PlayArgs) -> anyhow::Result<ExitCode> {
    let practice = solver::find(&args.problem)
        .and_then(|s| s.practice())
        .with_context(|| {
            let games: Vec<&str> = solver::solvers()
                .iter()
                .filter(|s| s.practice().is_some())
                .map(|s| s.id())
                .collect();
            format!(
                "`{}` is not a game to play (games: {})",
                args.problem,
                games.join(", ")
            )
        })?;
    let seed = args.seed.unwrap_or_else(|| {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(1, |d| d.as_secs())
    });
    let mut position = match &args.position {
        Some(path) => std::fs::read_to_string(path)
            .with_context(|| format!("cannot read {}", path.display()))?,
        None => practice.deal(seed),
    };
    practice
        .explain(&position)
        .map_err(|e| anyhow::anyhow!("not a position of `{}`: {e}", args.problem))?;
    let mut out = io::stdout().lock();
    let mut lines = io::stdin().lock().lines();
    writeln!(
        out,
        "{} against the judge (seed {seed}). A move is {}. `?` explains the position, `quit` stops.",
        args.problem,
        practice.move_format()
    )?;
    match practice.position_format() {
        Some(format) => writeln!(out, "Position ({format}):\n{}", position.trim_end())?,
        None => writeln!(out, "Position:\n{}", position.trim_end())?,
    }
    let mut ask = |out: &mut io::StdoutLock<'_>, prompt: &str| -> anyhow::Result<String> {
        loop {
            write!(out, "{prompt} > ")?;
            out.flush()?;
            let Some(line) = lines.next() else {
                bail!("the input ended before the game did");
            };
            let line = line?;
            let line = line.trim();
            if line == "quit" {
                bail!("stopped");
            }
            if line == "?" {
                return Ok(line.to_string());
            }
            if !line.is_empty() {
                return Ok(line.to_string());
            }
        }
    };
    let explain = |out: &mut io::StdoutLock<'_>, position: &str| -> anyhow::Result<()> {
        let explanation = practice.explain(position).map_err(anyhow::Error::msg)?;
        for line in &explanation.lines {
            writeln!(out, "  {line}")?;
        }
        if !explanation.winning_moves.is_empty() {
            writeln!(
                out,
                "  Winning moves: {}",
                explanation.winning_moves.join(", ")
            )?;
        }
        Ok(())
    };
    let second = loop {
        match ask(&mut out, "First or Second?")?.as_str() {
            "?" => explain(&mut out, &position)?,
            "First" | "first" => break false,
            "Second" | "second" => break true,
            other => writeln!(out, "  `{other}`: answer First or Second")?,
        }
    };
    let mut turn_seed = seed;
    if second {
        let turn = practice
            .judge_first(&position, turn_seed)
            .map_err(anyhow::Error::msg)?;
        if let Some(winner) = report(&mut out, &turn)? {
            return Ok(ending(winner));
        }
        position = turn.position;
    }
    loop {
        let mv = ask(&mut out, "Your move")?;
        if mv == "?" {
            explain(&mut out, &position)?;
            continue;
        }
        turn_seed = turn_seed.wrapping_add(1);
        let turn = match practice.play(&position, &mv, turn_seed) {
            Ok(turn) => turn,
            Err(why) => {
                writeln!(out, "  {why}")?;
                continue;
            }
        };
        if let Some(winner) = report(&mut out, &turn)? {
            return Ok(ending(winner));
        }
        position = turn.position;
    }
}

/// Prints the judge's reply and the position; the winner if it is over.
fn report(
    out: &mut impl Write,
    turn: &solver::interactive::PracticeTurn,
) -> anyhow::Result<Option<Winner>> {
    match &turn.judge_move {
        Some(mv) => writeln!(out, "Judge: {mv}")?,
        None => writeln!(out, "Judge: none (it has no move)")?,
    }
    match turn.winner {
        Some(Winner::You) => writeln!(out, "You won.")?,
        Some(Winner::Judge) => writeln!(out, "You have no move: the judge won.")?,
        None => writeln!(out, "Position:\n{}", turn.position.trim_end())?,
    }
    Ok(turn.winner)
}

fn ending(winner: Winner) -> ExitCode {
    match winner {
        Winner::You => ExitCode::SUCCESS,
        Winner::Judge => ExitCode::from(EXIT_NOT_ACCEPTED),
    }
}
