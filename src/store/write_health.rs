//! Whether the database takes writes: the outcome of the latest write,
//! kept for `GET /api/health`.
//!
//! Every write method of [`Store`] runs through [`Store::noted`], which
//! records a storage failure (a full disk, an I/O error, a writer that does
//! not answer) and clears it at the next write that succeeds. A refusal by a
//! constraint (a unique or foreign key) is the caller's mistake, not the
//! storage's, and changes nothing. While writes fail, [`Store::probe_write`]
//! rewrites one row so that recovery is seen even when no one submits.

use std::sync::{Arc, Mutex, PoisonError};

use sqlx::error::ErrorKind;

use super::{
    Store, StoreError,
    backend::{Dialect, Pool, query},
    now_ms,
};
use crate::domain::Timestamp;

/// The outcome of the latest write, shared by every clone of a store.
#[derive(Debug, Clone, Default)]
pub(super) struct WriteHealth(Arc<Mutex<WriteState>>);

#[derive(Debug, Clone, Default)]
struct WriteState {
    /// The latest write failed for a storage reason.
    failing: bool,
    last_failure: Option<WriteFailure>,
}

/// What `GET /api/health` says of writes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WriteStatus {
    /// The latest write failed and none has succeeded since.
    pub failing: bool,
    /// The most recent storage failure, recovered from or not.
    pub last_failure: Option<WriteFailure>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WriteFailure {
    pub at: Timestamp,
    pub error: String,
}

impl WriteHealth {
    fn record<T>(&self, outcome: &Result<T, StoreError>) {
        let mut state = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        match outcome {
            Ok(_) => state.failing = false,
            Err(e) if is_storage_failure(e) => {
                state.failing = true;
                state.last_failure = Some(WriteFailure {
                    at: Timestamp::now(),
                    error: describe(e),
                });
            }
            Err(_) => {}
        }
    }

    fn status(&self) -> WriteStatus {
        let state = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        WriteStatus {
            failing: state.failing,
            last_failure: state.last_failure.clone(),
        }
    }
}

/// A failure in words fit for an unauthenticated health check: the
/// database's own message (such as "database or disk is full"), no paths.
fn describe(error: &StoreError) -> String {
    match error {
        StoreError::Database(sqlx::Error::Database(e)) => e.message().to_string(),
        StoreError::Database(sqlx::Error::Io(e)) if e.kind() == std::io::ErrorKind::StorageFull => {
            format!("the disk is full: {e}")
        }
        StoreError::Database(sqlx::Error::Io(e)) => format!("I/O error: {}", e.kind()),
        StoreError::Database(sqlx::Error::PoolTimedOut) => {
            "the database writer did not answer in time".into()
        }
        _ => "a database error".into(),
    }
}

/// A failure of the storage rather than a refusal of the statement.
fn is_storage_failure(error: &StoreError) -> bool {
    match error {
        StoreError::Database(sqlx::Error::Database(e)) => e.kind() == ErrorKind::Other,
        StoreError::Database(_) => true,
        _ => false,
    }
}

impl Store {
    /// Runs one write method's work and records how it went.
    pub(super) async fn noted<T>(
        &self,
        work: impl Future<Output = Result<T, StoreError>>,
    ) -> Result<T, StoreError> {
        let outcome = work.await;
        self.write_health.record(&outcome);
        outcome
    }

    /// Whether writes are failing, and the latest storage failure.
    pub fn write_status(&self) -> WriteStatus {
        self.write_health.status()
    }

    /// Checks that writes work again: the database's filesystem has at
    /// least `min_free_bytes` free, and the probe row commits. Either
    /// failing keeps (or makes) the status failing; both passing end it.
    ///
    /// Free space is checked because a small write alone proves little: one
    /// row commits on a disk where a whole submission cannot. On SQLite the
    /// log is first checkpointed whole and truncated: its pages not yet in
    /// the database file would take their room there at the next checkpoint
    /// (space counted before that could pass, and the next write fail with
    /// the log unable to start over), and its file keeps the room that
    /// failed transactions took until it is cut.
    pub async fn probe_write(&self, min_free_bytes: u64) -> Result<(), StoreError> {
        self.noted(async {
            // On PostgreSQL the disk is the server's: the probe row alone.
            if self.write.dialect() == Dialect::Sqlite {
                checkpoint_and_truncate(&self.write).await?;
            }
            if let Some(file) = self.file() {
                let folder = file
                    .parent()
                    .filter(|f| !f.as_os_str().is_empty())
                    .unwrap_or(std::path::Path::new("."));
                let free = rustix::fs::statvfs(folder)
                    .map(|s| s.f_bavail.saturating_mul(s.f_frsize))
                    .map_err(|e| StoreError::Database(sqlx::Error::Io(e.into())))?;
                if free < min_free_bytes {
                    return Err(StoreError::Database(sqlx::Error::Io(std::io::Error::new(
                        std::io::ErrorKind::StorageFull,
                        format!(
                            "{free} bytes free, fewer than the {min_free_bytes} a write may need"
                        ),
                    ))));
                }
            }
            let now = now_ms();
            query(
                "insert into write_probe (id, written_at, created_at) values (1, $1, $1) \
                 on conflict (id) do update set written_at = excluded.written_at",
            )
            .bind(now)
            .execute(&self.write)
            .await?;
            Ok(())
        })
        .await
    }
}

/// Copies SQLite's whole log into the database file and truncates the log,
/// waiting (up to the busy timeout) for readers to let it. Fails if the
/// copy does (on a full disk, when the file cannot grow), and if a reader
/// kept it from copying the whole log.
async fn checkpoint_and_truncate(write: &Pool) -> Result<(), StoreError> {
    let answer = query("pragma wal_checkpoint(truncate)")
        .fetch_one(write)
        .await?;
    let busy: i64 = answer.try_get("busy")?;
    if busy != 0 {
        return Err(StoreError::Database(sqlx::Error::Io(std::io::Error::new(
            std::io::ErrorKind::ResourceBusy,
            "the log was not copied whole: a reader held it past the busy timeout",
        ))));
    }
    Ok(())
}
