//! `nimjudge contest`: contests over the API. Admins put a contest from a
//! TOML file (the body of `PUT /api/contests/{id}`) and thaw its
//! scoreboard; everyone lists contests, registers and prints a scoreboard
//! as their role may see it.

use std::{path::PathBuf, process::ExitCode};

use anyhow::Context;
use clap::Subcommand;
use comfy_table::{CellAlignment, Table, presets::NOTHING};

use super::{client::Client, submit::ServerArgs};
use crate::{
    contest::{ContestSettings, Scoreboard},
    domain::{ContestId, Scoring},
    scoring,
};

#[derive(Debug, Subcommand)]
pub enum ContestAction {
    /// Create or replace a contest from a TOML file (admins): title,
    /// starts_at (e.g. "2027-03-01T09:00:00Z"), duration_seconds,
    /// freeze_seconds, registration ("open" or "invited"),
    /// penalty_minutes, and `[[problems]]` with label, problem and colour.
    Put {
        id: ContestId,
        file: PathBuf,
        #[command(flatten)]
        server: ServerArgs,
    },
    /// List the contests, the latest start first.
    List {
        #[command(flatten)]
        server: ServerArgs,
    },
    /// Print a contest's scoreboard as you may see it (frozen for all but
    /// admins from the freeze until the thaw).
    Scoreboard {
        id: ContestId,
        /// Print the API's JSON instead of a table.
        #[arg(long)]
        json: bool,
        #[command(flatten)]
        server: ServerArgs,
    },
    /// Register for a contest (admins: anyone, with --user).
    Register {
        id: ContestId,
        #[arg(long)]
        user: Option<String>,
        #[command(flatten)]
        server: ServerArgs,
    },
    /// Thaw a contest's frozen scoreboard after its end (admins).
    Thaw {
        id: ContestId,
        #[command(flatten)]
        server: ServerArgs,
    },
    /// Start your own window in a contest with personal windows.
    Start {
        id: ContestId,
        #[command(flatten)]
        server: ServerArgs,
    },
    /// Print a whole contest as JSON (admins): settings, participants,
    /// submissions, clarifications and the scoreboard.
    Export {
        id: ContestId,
        #[command(flatten)]
        server: ServerArgs,
    },
}

pub async fn run(action: ContestAction) -> anyhow::Result<ExitCode> {
    match action {
        ContestAction::Put { id, file, server } => {
            let text = std::fs::read_to_string(&file)
                .with_context(|| format!("cannot read {}", file.display()))?;
            let settings: ContestSettings =
                toml::from_str(&text).with_context(|| format!("{}", file.display()))?;
            let client = Client::new(&server.server, &server.token)?;
            let view = client.put_contest(&id, &settings).await?;
            let problems = view.contest.settings.problems.len();
            println!(
                "contest {} ({}): {problems} problem{}, {}",
                view.contest.id,
                view.contest.settings.title,
                if problems == 1 { "" } else { "s" },
                view.phase.as_str()
            );
        }
        ContestAction::List { server } => {
            let client = Client::new(&server.server, &server.token)?;
            let mut table = Table::new();
            table.load_preset(NOTHING);
            table.set_header(["id", "title", "starts", "seconds", "phase", "you"]);
            for view in client.contests().await?.contests {
                let settings = &view.contest.settings;
                table.add_row(vec![
                    view.contest.id.to_string(),
                    settings.title.clone(),
                    settings.starts_at.to_string(),
                    settings.duration_seconds.to_string(),
                    view.phase.as_str().to_string(),
                    if view.registered { "registered" } else { "" }.to_string(),
                ]);
            }
            println!("{table}");
        }
        ContestAction::Scoreboard { id, json, server } => {
            let client = Client::new(&server.server, &server.token)?;
            let board = client.scoreboard(&id).await?;
            if json {
                println!("{}", serde_json::to_string_pretty(&board)?);
            } else {
                print!("{}", scoreboard_table(&board));
            }
        }
        ContestAction::Register { id, user, server } => {
            let client = Client::new(&server.server, &server.token)?;
            let registered = client.register(&id, user).await?;
            println!(
                "{} is registered for {}",
                registered.user, registered.contest
            );
        }
        ContestAction::Thaw { id, server } => {
            let client = Client::new(&server.server, &server.token)?;
            let view = client.thaw(&id).await?;
            println!("contest {} is thawed", view.contest.id);
        }
        ContestAction::Start { id, server } => {
            let client = Client::new(&server.server, &server.token)?;
            let view = client.start_window(&id).await?;
            match view.window {
                Some(window) => println!(
                    "your window in contest {} runs from {} to {}",
                    view.contest.id, window.starts_at, window.ends_at
                ),
                None => println!("contest {} has no window of yours", view.contest.id),
            }
        }
        ContestAction::Export { id, server } => {
            let client = Client::new(&server.server, &server.token)?;
            let export = client.export_contest(&id).await?;
            println!("{}", serde_json::to_string_pretty(&export)?);
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// The scoreboard as a table: a cell is `+` and the minute when solved
/// (`+2` for two rejected tries before), `-n` for n rejected tries, `?n`
/// for n pending ones; on an IOI board, the best score and `?n`.
fn scoreboard_table(board: &Scoreboard) -> String {
    let mut table = Table::new();
    table.load_preset(NOTHING);
    let ioi = board.scoring == Scoring::Ioi;
    let mut header = vec!["#".to_string(), "who".into()];
    if ioi {
        header.push("score".into());
    } else {
        header.extend(["solved".into(), "penalty".into()]);
    }
    header.extend(board.labels.iter().cloned());
    table.set_header(header);
    for row in &board.rows {
        let mut cells = vec![row.rank.to_string(), row.user.clone()];
        match row.score {
            Some(score) => cells.push(scoring::points_shown(score)),
            None => cells.extend([row.solved.to_string(), row.penalty.to_string()]),
        }
        for cell in &row.cells {
            let mut text = match (cell.score, cell.solved_minute) {
                (Some(score), _) if cell.tried() => scoring::points_shown(score),
                (Some(_), _) => String::new(),
                (None, Some(minute)) if cell.tries > 0 => format!("+{} {minute}", cell.tries),
                (None, Some(minute)) => format!("+ {minute}"),
                (None, None) if cell.tries > 0 => format!("-{}", cell.tries),
                (None, None) => String::new(),
            };
            if cell.pending > 0 {
                text = format!("{text} ?{}", cell.pending).trim().to_string();
            }
            if cell.first_to_solve {
                text.push('*');
            }
            cells.push(text);
        }
        table.add_row(cells);
    }
    for index in 0..table.column_count() {
        if index != 1
            && let Some(column) = table.column_mut(index)
        {
            column.set_cell_alignment(CellAlignment::Right);
        }
    }
    let frozen = if board.frozen {
        "frozen: tries from the freeze on show as pending (?)\n"
    } else {
        ""
    };
    let legend = if ioi {
        "* first full score"
    } else {
        "* first to solve"
    };
    format!("{frozen}{table}\n{legend}\n")
}
