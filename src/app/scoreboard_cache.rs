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
//!
//! The whole board is also kept as the API's JSON ([`ScoreboardCache::whole_json`]),
//! written once for each version, board and phase: at 10,000 participants
//! it is 9.6 MB, and writing it took most of a request's 55 ms.

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
    /// The whole of `full` and of `public` as JSON, with the phase it was
    /// written for; dropped at every change.
    full_json: Option<(Phase, Arc<[u8]>)>,
    public_json: Option<(Phase, Arc<[u8]>)>,
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
        let mut kept = self.current(store, contest).await?;
        let held = kept.as_mut().expect("brought up to date");
        let board = held.ranked(contest, public);
        Ok(board.scoreboard(contest, phase, rows.unwrap_or(0..board.len())))
    }

    /// [`ScoreboardCache::board`] with every row, as the API's JSON: the
    /// same bytes for every request until the board or the phase changes.
    /// The JSON is written without holding the board, so other requests
    /// are not kept waiting for it, and kept only if the board has not
    /// changed meanwhile.
    pub async fn whole_json(
        &self,
        store: &Store,
        contest: &Contest,
        public: bool,
        phase: Phase,
    ) -> Result<Arc<[u8]>, StoreError> {
        let (whole, version) = {
            let mut kept = self.current(store, contest).await?;
            let held = kept.as_mut().expect("brought up to date");
            if let Some((at, json)) = held.json(public)
                && *at == phase
            {
                return Ok(json.clone());
            }
            let board = held.ranked(contest, public);
            (
                board.scoreboard(contest, phase, 0..board.len()),
                held.version,
            )
        };
        let json: Arc<[u8]> = serde_json::to_vec(&whole)
            .map_err(|e| StoreError::Corrupt(format!("a scoreboard as JSON: {e}")))?
            .into();
        let mut kept = self.slot(&contest.id).lock_owned().await;
        if let Some(held) = kept.as_mut()
            && held.version == version
            && held.settings == contest.settings
        {
            *held.json(public) = Some((phase, json.clone()));
        }
        Ok(json)
    }

    /// The lock of `id`'s kept scoreboard (made empty if there is none).
    fn slot(&self, id: &ContestId) -> Arc<tokio::sync::Mutex<Option<Kept>>> {
        self.kept
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .entry(id.clone())
            .or_default()
            .clone()
    }

    /// `contest`'s kept scoreboard, brought up to date with the database
    /// (filled); held, so that one request brings it up to date at a time
    /// and the others wait for it and find it current.
    async fn current(
        &self,
        store: &Store,
        contest: &Contest,
    ) -> Result<tokio::sync::OwnedMutexGuard<Option<Kept>>, StoreError> {
        let mut kept = self.slot(&contest.id).lock_owned().await;
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
                held.full_json = None;
                held.public_json = None;
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
                    full_json: None,
                    public_json: None,
                });
            }
        }
        Ok(kept)
    }
}

impl Kept {
    /// Where the whole board (full, or the public part) is kept as JSON.
    fn json(&mut self, public: bool) -> &mut Option<(Phase, Arc<[u8]>)> {
        if public {
            &mut self.public_json
        } else {
            &mut self.full_json
        }
    }

    /// The ranked board (full, or the public part), ranked when first asked
    /// for.
    fn ranked(&mut self, contest: &Contest, public: bool) -> &RankedBoard {
        let board = if public {
            &mut self.public
        } else {
            &mut self.full
        };
        board.get_or_insert_with(|| {
            RankedBoard::rank(contest, &self.participants, &self.cells, public)
        })
    }
}
