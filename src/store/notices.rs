//! News between processes that share a PostgreSQL database: a job was
//! queued, a submission was judged, the catalog changed.
//!
//! The store sends them inside the transaction that made the news (SQL
//! `NOTIFY`, delivered at commit, dropped on rollback), and a process
//! listens with [`Store::notices`] to wake its idle workers, answer its
//! long polls and read changed catalog rules at once. They only save
//! waiting: a notice missed while a connection is down costs a worker one
//! poll interval, a long poll one re-read, or submission rules up to their
//! time in memory. On SQLite, whose processes share only a file, there are
//! none.

use sqlx::postgres::PgListener;

use super::{
    Store, StoreError,
    backend::{Pool, Tx},
};
use crate::domain::SubmissionId;

/// The channel of queued jobs (submissions, rejudges, new testcases); the
/// payload is the [`Origin`] of the store that queued them.
const JOBS: &str = "nimjudge_jobs";
/// The channel of judged submissions; the payload is their ids, separated
/// by spaces (at most [`IDS_PER_NOTICE`]: a payload holds 8,000 bytes).
const JUDGED: &str = "nimjudge_judged";

/// The channel of catalog changes (a problem synced, a testcase added,
/// deleted, hidden or shown).
const CATALOG: &str = "nimjudge_catalog";

/// One piece of news.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Notice {
    JobQueued,
    Judged(Vec<SubmissionId>),
    /// Problems' submission rules kept in memory are out of date.
    CatalogChanged,
}

/// The store (one per process) that sent a notice. A process signals its
/// own jobs to its own workers without the database, so it skips the job
/// notices it sent itself: heard back, each would wake an idle worker to
/// look for a job another worker took already.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Origin(uuid::Uuid);

impl Origin {
    pub(super) fn new() -> Origin {
        Origin(uuid::Uuid::new_v4())
    }
}

impl std::fmt::Display for Origin {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.hyphenated().fmt(f)
    }
}

/// A listening connection; reconnects by itself after a lost connection.
pub struct Notices {
    listener: PgListener,
    /// The payload of the job notices this process sent, which it skips.
    own_jobs: String,
}

impl std::fmt::Debug for Notices {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Notices").finish_non_exhaustive()
    }
}

impl Notices {
    /// The next notice. A job notice this process's store sent, and a
    /// judged notice whose payload is not submission ids, are skipped.
    pub async fn recv(&mut self) -> Result<Notice, StoreError> {
        loop {
            let notification = self.listener.recv().await?;
            match notification.channel() {
                JOBS if notification.payload() == self.own_jobs => {}
                JOBS => return Ok(Notice::JobQueued),
                CATALOG => return Ok(Notice::CatalogChanged),
                JUDGED => match notification
                    .payload()
                    .split(' ')
                    .map(str::parse)
                    .collect::<Result<Vec<SubmissionId>, _>>()
                {
                    Ok(id) => return Ok(Notice::Judged(id)),
                    Err(e) => tracing::warn!(error = %e, "a judged notice without a submission id"),
                },
                _ => {}
            }
        }
    }
}

impl Store {
    /// A listener for other processes' news; `None` on SQLite.
    pub async fn notices(&self) -> Result<Option<Notices>, StoreError> {
        let Pool::Postgres(pool) = &self.write else {
            return Ok(None);
        };
        let mut listener = PgListener::connect_with(pool).await?;
        listener.listen_all([JOBS, JUDGED, CATALOG]).await?;
        Ok(Some(Notices {
            listener,
            own_jobs: self.origin.to_string(),
        }))
    }
}

/// Announces, at commit, that a job is waiting.
pub(super) async fn job_queued(tx: &mut Tx, origin: Origin) -> Result<(), StoreError> {
    tx.notify(JOBS, &origin.to_string()).await?;
    Ok(())
}

/// Announces, at commit, that the catalog changed.
pub(super) async fn catalog_changed(tx: &mut Tx) -> Result<(), StoreError> {
    tx.notify(CATALOG, "").await?;
    Ok(())
}

/// Submission ids per judged notice, at most: 36 bytes and a space each.
const IDS_PER_NOTICE: usize = 200;

/// Announces, at commit, that `ids` were judged (no notice for none).
pub(super) async fn judged(tx: &mut Tx, ids: &[SubmissionId]) -> Result<(), StoreError> {
    for chunk in ids.chunks(IDS_PER_NOTICE) {
        let payload: Vec<String> = chunk.iter().map(ToString::to_string).collect();
        tx.notify(JUDGED, &payload.join(" ")).await?;
    }
    Ok(())
}
