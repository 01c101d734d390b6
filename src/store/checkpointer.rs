//! SQLite's WAL checkpoints, off the writer's path.
//!
//! In WAL mode each commit appends the pages it changed to the log, and a
//! checkpoint copies them back into the database file (and syncs it). By
//! default the connection whose commit takes the log past 1,000 pages runs
//! the checkpoint inside that commit: on the one write connection, whose
//! every commit other writes wait for, that was a few milliseconds of
//! copying and `fsync` held up many times a second at full load, and the
//! longest waits of a submission. Here a connection of its own checkpoints
//! every [`CHECKPOINT_INTERVAL`] while anything was written, `passive`: it
//! copies what is committed without taking any lock a writer or reader
//! waits for, and the next write transaction after a complete checkpoint
//! starts the log over. The writer keeps its own automatic checkpoint at
//! [`WRITER_CHECKPOINT_PAGES`], a bound on the log's growth should this
//! task ever fall behind.
//!
//! While writes fail, the write probe (see `write_health`) runs a
//! `truncate` checkpoint on the same connection: it copies the whole log
//! and cuts the file to nothing, giving the disk back the room that failed
//! transactions' pages took in it.
//!
//! Invariant: checkpoints never change what a transaction sees; they only
//! move committed pages, so a checkpoint missed costs log size, not data.

use std::{
    sync::{Arc, Weak},
    time::Duration,
};

use super::sqlite_connections::SqliteConnections;

/// How often the log is checkpointed while writes go on.
pub(super) const CHECKPOINT_INTERVAL: Duration = Duration::from_millis(50);

/// The writer's own automatic checkpoint, in pages of log: about 80 MB
/// with 4 KiB pages, where the default is 1,000.
pub(super) const WRITER_CHECKPOINT_PAGES: u32 = 20_000;

/// Starts checkpointing `writer`'s database on `checkpointer`, a
/// connection of its own, until the last handle to `writer` is dropped.
pub(super) fn start(writer: &Arc<SqliteConnections>, checkpointer: Arc<SqliteConnections>) {
    let writer: Weak<SqliteConnections> = Arc::downgrade(writer);
    tokio::spawn(async move {
        let mut every = tokio::time::interval(CHECKPOINT_INTERVAL);
        every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        let mut writes_checkpointed = 0;
        loop {
            every.tick().await;
            let Some(writes) = writer.upgrade().map(|writer| writer.held().0) else {
                break;
            };
            if writes == writes_checkpointed {
                continue;
            }
            match checkpoint(&checkpointer).await {
                Ok(()) => writes_checkpointed = writes,
                Err(sqlx::Error::PoolClosed) => break,
                Err(e) => {
                    tracing::warn!(error = %e, "a WAL checkpoint failed; the next one retries")
                }
            }
        }
        checkpointer.close().await;
    });
}

async fn checkpoint(checkpointer: &Arc<SqliteConnections>) -> Result<(), sqlx::Error> {
    run(checkpointer, "pragma wal_checkpoint(passive)")
        .await
        .map(drop)
}

/// Copies the whole log into the database file and truncates the log,
/// waiting (up to the busy timeout) for writers and readers to let it.
/// Fails if the copy does (on a full disk, when the file cannot grow), and
/// if a reader or writer kept it from copying the whole log.
pub(super) async fn checkpoint_and_truncate(
    checkpointer: &Arc<SqliteConnections>,
) -> Result<(), sqlx::Error> {
    if run(checkpointer, "pragma wal_checkpoint(truncate)").await? {
        return Err(sqlx::Error::Io(std::io::Error::new(
            std::io::ErrorKind::ResourceBusy,
            "the log was not copied whole: a reader or writer held it past the busy timeout",
        )));
    }
    Ok(())
}

/// Runs the checkpoint `pragma` on the checkpointer's connection; whether
/// SQLite answered that it could not finish (its `busy` column).
async fn run(
    checkpointer: &Arc<SqliteConnections>,
    pragma: &'static str,
) -> Result<bool, sqlx::Error> {
    use sqlx::Row as _;
    let mut lease = checkpointer.acquire().await?;
    let answer = sqlx::query(pragma).fetch_one(lease.connection()?).await?;
    Ok(answer.try_get::<i64, _>(0)? != 0)
}
