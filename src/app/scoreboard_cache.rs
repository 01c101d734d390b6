//! Each contest's ranked scoreboard, kept in memory by this process and
//! brought up to date from the changes since the version it holds.
//!
//! Reading a scoreboard from its cells costs the whole contest each time
//! (about 320 ms at 10,000 participants and 12 problems). Every
//! change of a contest's cells or participants bumps the contest's
//! `cells_version` in the changing transaction, so a request reads the
//! version (one small read) and serves the ranked boards it holds when
//! nothing changed; when something did, it reads only the cells and
//! participants changed since ([`Store::scoreboard_changes`]), draws again
//! only those participants' rows and ranks again ([`RankedBoard::update`]).
//! A change of the contest's settings (problems, penalty, freeze)
//! starts over from every cell. The version is the database's, so changes
//! made by another process (an API or judge host) show at the next request.

use std::{
    collections::{BTreeMap, HashMap},
    ops::Range,
    sync::{Arc, Mutex},
};

use crate::{
    contest::{Contest, ContestSettings, Phase, RankedBoard, Scoreboard, StoredCell},
    domain::{ContestId, ProblemId},
    store::{Store, StoreError},
};

/// One contest's scoreboard as of a version.
#[derive(Debug)]
struct Kept {
    settings: ContestSettings,
    version: i64,
    /// Sorted.
    participants: Vec<String>,
    cells: BTreeMap<(String, ProblemId), StoredCell>,
    /// Everything, and as the public sees it during a freeze; each ranked
    /// when first asked for, then ranked again as changes come in.
    full: Option<RankedBoard>,
    public: Option<RankedBoard>,
}

/// Every contest's kept scoreboard; one per process.
#[derive(Debug, Default)]
pub struct ScoreboardCache {
    kept: Mutex<HashMap<ContestId, Arc<tokio::sync::Mutex<Option<Kept>>>>>,
}

impl ScoreboardCache {
    /// The rows at `rows` (positions from 0, cut to the board) of the
    /// ranked scoreboard of `contest` (full, or the public part), up to date
    /// with the database as of this call, as seen in `phase`.
    pub async fn board(
        &self,
        store: &Store,
        contest: &Contest,
        public: bool,
        phase: Phase,
        rows: Option<Range<usize>>,
    ) -> Result<Scoreboard, StoreError> {
        let slot = self
            .kept
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .entry(contest.id.clone())
            .or_default()
            .clone();
        // One request brings a contest up to date at a time; the others
        // wait for it and find it current.
        let mut kept = slot.lock().await;
        let id = &contest.id;
        let version = store.scoreboard_version(id).await?.unwrap_or_default();
        match kept.as_mut() {
            Some(held) if held.settings == contest.settings && held.version == version => {}
            Some(held) if held.settings == contest.settings && held.version < version => {
                let changes = store.scoreboard_changes(id, held.version).await?;
                let mut changed: Vec<String> = changes
                    .cells
                    .keys()
                    .map(|(user, _)| user.clone())
                    .chain(changes.participants.iter().cloned())
                    .collect();
                changed.sort();
                changed.dedup();
                held.participants.extend(changes.participants);
                held.participants.sort();
                held.participants.dedup();
                held.cells.extend(changes.cells);
                held.version = version;
                // Rows are the participants'.
                let rows = changed
                    .iter()
                    .filter(|user| held.participants.binary_search(user).is_ok())
                    .map(String::as_str);
                for board in [&mut held.full, &mut held.public].into_iter().flatten() {
                    board.update(contest, rows.clone(), &held.cells);
                }
            }
            _ => {
                let mut participants = store.participants(id).await?;
                participants.sort();
                let cells = store.scoreboard_cells(id).await?;
                *kept = Some(Kept {
                    settings: contest.settings.clone(),
                    version,
                    participants,
                    cells,
                    full: None,
                    public: None,
                });
            }
        }
        let held = kept.as_mut().expect("filled above");
        let board = if public {
            &mut held.public
        } else {
            &mut held.full
        };
        let board = board.get_or_insert_with(|| {
            RankedBoard::rank(contest, &held.participants, &held.cells, public)
        });
        Ok(board.scoreboard(contest, phase, rows.unwrap_or(0..board.len())))
    }
}
