//! The database: every SQL statement nimjudge runs lives under this module.
//!
//! [`Store`] wraps SQLite today; the rest of the daemon sees only its methods
//! and the [`domain`](crate::domain) types, so a PostgreSQL store can be added
//! beside it later (the claim statement is the one place whose SQL differs in
//! spirit: `for update skip locked` there). The store does not judge, validate
//! inputs, know the solver core or speak HTTP.
//!
//! Times are stored as unix milliseconds and handed out as
//! [`Timestamp`]s; enums are stored as their `as_str` text, and a value that
//! does not parse back is [`StoreError::Corrupt`], never a guess.
//!
//! # Layout
//! - this file: connecting, migrations, conversions.
//! - [`tokens`]: bearer tokens: issuing, listing, revoking, authenticating.
//! - [`catalog`]: problems, testcases and cached reference outputs.
//! - [`queue`]: submissions as a leased job queue, judgements, events, listings.
//! - [`admission`]: taking a new submission in: idempotency keys and per-user
//!   limits, checked in the transaction that inserts it.
//! - [`sessions`]: the web UI's browser sessions, each opened with a token.
//! - [`standing`]: a user's solved or tried problems, for the web UI.
//! - [`synthetic`]: a synthetic history of judged submissions, for benchmarks.
//! - [`write_health`]: whether the database takes writes, for health.

pub mod admission;
pub mod catalog;
pub mod queue;
pub mod sessions;
pub mod standing;
pub mod synthetic;
#[cfg(test)]
mod tests;
pub mod tokens;
pub mod write_health;

use std::{
    path::{Path, PathBuf},
    str::FromStr,
    time::{Duration, SystemTime, UNIX_EPOCH},
};

use sqlx::{
    Connection as _, Row, SqlitePool,
    sqlite::{SqliteConnectOptions, SqliteJournalMode, SqlitePoolOptions, SqliteSynchronous},
};

pub use admission::{Admission, AdmissionOutcome, IdempotencyKey, LimitExceeded, UserLimit};
pub use catalog::{
    DefinedTestcase, JudgeTestcase, PendingReference, ProblemDefinition, ReferenceRow, SyncOutcome,
    TestcaseDeletion,
};
pub use queue::{Claim, JudgementWrite, ListFilter, NewSubmission, RejudgeOutcome, SubmissionPage};
pub use sessions::{OpenedSession, SessionHolder};
pub use standing::Standing;
pub use tokens::{IssuedToken, Revocation};
pub use write_health::{WriteFailure, WriteStatus};

use crate::{
    config::DatabaseConfig,
    domain::{Role, Timestamp},
};

/// A storage failure. Callers above the store treat it as an internal error.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("database error: {0}")]
    Database(#[from] sqlx::Error),
    #[error("migration failed: {0}")]
    Migrate(#[from] sqlx::migrate::MigrateError),
    #[error("cannot create the database folder {path}: {source}")]
    Folder {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("the database {0} does not exist (run `nimjudge serve` once to create it)")]
    Missing(PathBuf),
    #[error("corrupt row: {0}")]
    Corrupt(String),
    #[error("cannot lock the database for startup: {0}")]
    Lock(std::io::Error),
    /// A name is one user with one role: a token for the same name with
    /// another role is refused.
    #[error("the user `{name}` exists already as {role}; a name is one user with one role")]
    NameTaken { name: String, role: Role },
}

/// Whether opening a database may create it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OpenMode {
    /// Create the file and its folder if missing (the daemon).
    CreateIfMissing,
    /// Refuse a missing file (tools such as `token create` and `log`, which
    /// would otherwise make an empty database wherever they are run).
    MustExist,
}

/// Access to the database.
///
/// Holds two pools: SQLite allows one writer at a time, so every write goes
/// through a single connection and waiting writers queue in-process (fair and
/// cheap) instead of sleeping in SQLite's busy handler. Reads use their own
/// pool and never wait for writers (WAL).
#[derive(Clone, Debug)]
pub struct Store {
    write: SqlitePool,
    read: SqlitePool,
    file: PathBuf,
    /// The outcome of the latest write, for health.
    write_health: write_health::WriteHealth,
}

impl Store {
    /// Opens (creating if missing) the database and applies pending migrations.
    pub async fn connect(config: &DatabaseConfig) -> Result<Store, StoreError> {
        Self::open(config, OpenMode::CreateIfMissing).await
    }

    /// Opens the database as `mode` allows and applies pending migrations.
    pub async fn open(config: &DatabaseConfig, mode: OpenMode) -> Result<Store, StoreError> {
        let options = SqliteConnectOptions::from_str(&config.url)?
            .create_if_missing(mode == OpenMode::CreateIfMissing)
            .journal_mode(SqliteJournalMode::Wal)
            .synchronous(SqliteSynchronous::Normal)
            .foreign_keys(true)
            .busy_timeout(config.busy_timeout);
        let file = options.get_filename().to_path_buf();
        match mode {
            OpenMode::MustExist if !file.is_file() => return Err(StoreError::Missing(file)),
            OpenMode::MustExist => {}
            OpenMode::CreateIfMissing => {
                if let Some(folder) = file.parent()
                    && !folder.as_os_str().is_empty()
                {
                    std::fs::create_dir_all(folder).map_err(|source| StoreError::Folder {
                        path: folder.to_path_buf(),
                        source,
                    })?;
                }
            }
        }
        // Two daemons starting on a fresh database would otherwise both create
        // the file, switch it to WAL and create the tables, and one would die
        // on "already exists" or "locked". Held until the migrations ran.
        let lock = StartupLock::acquire(&file).await?;
        let write = SqlitePoolOptions::new()
            .max_connections(1)
            .acquire_timeout(Duration::from_secs(60))
            .after_release(|connection, _| {
                Box::pin(async move {
                    // After SQLITE_FULL or an I/O error, SQLite may roll a
                    // transaction back on its own; sqlx's ROLLBACK then fails
                    // and it goes on believing a transaction is open, so every
                    // later "commit" only releases a savepoint inside a
                    // transaction that never commits. Such a connection is
                    // closed here and the next write opens a fresh one.
                    // (`ping` first runs the ROLLBACK a dropped transaction
                    // queued.)
                    connection.ping().await?;
                    let consistent = !connection.is_in_transaction();
                    if !consistent {
                        tracing::warn!(
                            "a failed write left the writer in a transaction; reconnecting"
                        );
                    }
                    Ok(consistent)
                })
            })
            .connect_with(options.clone())
            .await?;
        sqlx::migrate!().run(&write).await?;
        drop(lock);
        let read = SqlitePoolOptions::new()
            .max_connections(config.read_connections)
            .acquire_timeout(Duration::from_secs(60))
            .connect_with(options.read_only(true))
            .await?;
        Ok(Store {
            write,
            read,
            file,
            write_health: write_health::WriteHealth::default(),
        })
    }

    /// Waits for this database's [`StartupLock`].
    pub async fn startup_lock(&self) -> Result<StartupLock, StoreError> {
        StartupLock::acquire(&self.file).await
    }

    /// The database file this store works on.
    pub fn file(&self) -> &Path {
        &self.file
    }

    /// Closes both pools, waiting for statements in progress.
    pub async fn close(&self) {
        self.write.close().await;
        self.read.close().await;
    }
}

/// An exclusive advisory lock on `<database>.lock`, held while a process
/// migrates the database or syncs the catalog into it, so processes starting
/// at once on the same database take turns instead of failing. Released on
/// drop (and by the kernel if the process dies).
#[derive(Debug)]
pub struct StartupLock {
    _file: std::fs::File,
}

impl StartupLock {
    /// Waits for the lock of the database `file`.
    pub async fn acquire(file: &Path) -> Result<StartupLock, StoreError> {
        let mut path = file.as_os_str().to_owned();
        path.push(".lock");
        let path = PathBuf::from(path);
        let locked = tokio::task::spawn_blocking(move || {
            let lock = std::fs::OpenOptions::new()
                .create(true)
                .truncate(false)
                .write(true)
                .open(&path)?;
            lock.lock()?;
            Ok::<_, std::io::Error>(lock)
        })
        .await
        .map_err(|e| StoreError::Lock(std::io::Error::other(e)))?
        .map_err(StoreError::Lock)?;
        Ok(StartupLock { _file: locked })
    }
}

/// Lowercase hex of bytes (a digest, for storing).
pub fn hex(bytes: &[u8]) -> String {
    use std::fmt::Write as _;
    bytes
        .iter()
        .fold(String::with_capacity(bytes.len() * 2), |mut s, b| {
            let _ = write!(s, "{b:02x}");
            s
        })
}

/// Unix time in milliseconds.
pub fn now_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX))
}

/// A stored time (unix milliseconds) as a [`Timestamp`].
fn timestamp(ms: i64) -> Result<Timestamp, StoreError> {
    Timestamp::from_millisecond(ms).map_err(|e| StoreError::Corrupt(format!("time {ms}: {e}")))
}

/// A [`Timestamp`] as stored: unix milliseconds.
fn millis(time: Timestamp) -> i64 {
    time.as_millisecond()
}

/// Reads a nullable time column.
fn optional_time_column(
    row: &sqlx::sqlite::SqliteRow,
    column: &str,
) -> Result<Option<Timestamp>, StoreError> {
    let ms: Option<i64> = row.try_get(column)?;
    ms.map(timestamp).transpose()
}

/// Reads a time column.
fn time_column(row: &sqlx::sqlite::SqliteRow, column: &str) -> Result<Timestamp, StoreError> {
    timestamp(row.try_get(column)?)
}

/// Parses a stored text column into its domain type, reporting corruption
/// rather than panicking.
fn parse_column<T: FromStr<Err = String>>(
    row: &sqlx::sqlite::SqliteRow,
    column: &str,
) -> Result<T, StoreError> {
    let text: String = row.try_get(column)?;
    text.parse()
        .map_err(|e| StoreError::Corrupt(format!("{column}: {e}")))
}

/// Parses a nullable stored text column.
fn parse_optional_column<T: FromStr<Err = String>>(
    row: &sqlx::sqlite::SqliteRow,
    column: &str,
) -> Result<Option<T>, StoreError> {
    let text: Option<String> = row.try_get(column)?;
    text.map(|t| t.parse())
        .transpose()
        .map_err(|e| StoreError::Corrupt(format!("{column}: {e}")))
}
