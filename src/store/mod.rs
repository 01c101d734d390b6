//! The database: every SQL statement nimjudge runs lives under this module.
//!
//! [`Store`] wraps SQLite today; the rest of the daemon sees only its methods
//! and plain row types, so a PostgreSQL store can be added beside it later
//! (the claim statement is the one place whose SQL differs in spirit: `for
//! update skip locked` there). The store does not judge, validate inputs or
//! know about HTTP.
//!
//! # Layout
//! - this file: connecting, migrations, shared vocabulary, tokens.
//! - [`catalog`]: problems, testcases and cached reference outputs.
//! - [`queue`]: submissions as a leased job queue, judgements, events, listings.

pub mod catalog;
pub mod queue;
#[cfg(test)]
mod tests;

use std::{
    borrow::Cow,
    fmt,
    path::Path,
    str::FromStr,
    time::{Duration, SystemTime, UNIX_EPOCH},
};

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use sqlx::{
    Row, SqlitePool,
    migrate::{Migration, MigrationType, Migrator},
    sqlite::{SqliteConnectOptions, SqliteJournalMode, SqlitePoolOptions, SqliteSynchronous},
};

pub use catalog::{
    DefinedTestcase, JudgeTestcase, PendingReference, ProblemDefinition, ProblemRow, ReferenceRow,
    SyncOutcome, TestcaseRow,
};
pub use queue::{
    Claim, EventRow, JudgementRow, JudgementWrite, ListFilter, NewSubmission, RejudgeOutcome,
    ResultRow, ResultWrite, SubmissionRow,
};

use crate::config::DatabaseConfig;

/// A storage failure. Callers above the store treat it as an internal error.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("database error: {0}")]
    Database(#[from] sqlx::Error),
    #[error("migration failed: {0}")]
    Migrate(#[from] sqlx::migrate::MigrateError),
    #[error("cannot create the database folder {path}: {source}")]
    Folder {
        path: String,
        source: std::io::Error,
    },
    #[error("corrupt row: {0}")]
    Corrupt(String),
}

/// The migrations, compiled in so the binary needs no files beside it.
/// Never edit one that has shipped: add a new file and a line here.
const MIGRATIONS: [(i64, &str, &str); 1] = [(
    1,
    "initial",
    include_str!("../../migrations/0001_initial.sql"),
)];

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
}

impl Store {
    /// Opens (creating if missing) the database and applies pending migrations.
    pub async fn connect(config: &DatabaseConfig) -> Result<Store, StoreError> {
        let options = SqliteConnectOptions::from_str(&config.url)?
            .create_if_missing(true)
            .journal_mode(SqliteJournalMode::Wal)
            .synchronous(SqliteSynchronous::Normal)
            .foreign_keys(true)
            .busy_timeout(config.busy_timeout);
        if let Some(folder) = options.get_filename().parent()
            && !folder.as_os_str().is_empty()
        {
            std::fs::create_dir_all(folder).map_err(|source| StoreError::Folder {
                path: folder.display().to_string(),
                source,
            })?;
        }
        let write = SqlitePoolOptions::new()
            .max_connections(1)
            .acquire_timeout(Duration::from_secs(60))
            .connect_with(options.clone())
            .await?;
        migrator().run(&write).await?;
        let read = SqlitePoolOptions::new()
            .max_connections(config.read_connections)
            .acquire_timeout(Duration::from_secs(60))
            .connect_with(options.read_only(true))
            .await?;
        Ok(Store { write, read })
    }

    /// The database file, for messages.
    pub fn describe(url: &str) -> Cow<'_, str> {
        Cow::Borrowed(url.strip_prefix("sqlite://").unwrap_or(url))
    }

    /// Closes both pools, waiting for statements in progress.
    pub async fn close(&self) {
        self.write.close().await;
        self.read.close().await;
    }

    /// Stores a new token and returns its secret, shown once.
    pub async fn create_token(&self, name: &str, role: Role) -> Result<String, StoreError> {
        let secret = format!(
            "nj_{}{}",
            uuid::Uuid::new_v4().simple(),
            uuid::Uuid::new_v4().simple()
        );
        sqlx::query("insert into token (name, role, hash, created_at) values (?, ?, ?, ?)")
            .bind(name)
            .bind(role.as_str())
            .bind(hash_secret(&secret))
            .bind(now_ms())
            .execute(&self.write)
            .await?;
        Ok(secret)
    }

    /// The holder of a token secret, if the token exists.
    pub async fn principal(&self, secret: &str) -> Result<Option<Principal>, StoreError> {
        let row = sqlx::query("select name, role from token where hash = ?")
            .bind(hash_secret(secret))
            .fetch_optional(&self.read)
            .await?;
        row.map(|row| {
            let role: String = row.try_get("role")?;
            Ok(Principal {
                name: row.try_get("name")?,
                role: role.parse().map_err(StoreError::Corrupt)?,
            })
        })
        .transpose()
    }
}

fn migrator() -> Migrator {
    let migrations: Vec<Migration> = MIGRATIONS
        .iter()
        .map(|&(version, description, sql)| {
            Migration::new(
                version,
                Cow::Borrowed(description),
                MigrationType::Simple,
                sqlx::SqlSafeStr::into_sql_str(sql),
                false,
            )
        })
        .collect();
    Migrator {
        migrations: Cow::Owned(migrations),
        ..Migrator::DEFAULT
    }
}

/// The sha256 of a token secret, in hex.
pub fn hash_secret(secret: &str) -> String {
    hex(&Sha256::digest(secret.as_bytes()))
}

/// Lowercase hex of bytes.
pub fn hex(bytes: &[u8]) -> String {
    bytes.iter().fold(String::new(), |mut s, b| {
        use fmt::Write as _;
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

/// Who is calling: the holder of a valid token.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Principal {
    pub name: String,
    pub role: Role,
}

/// What a token may do.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Role {
    /// Submits answers and sees only their own submissions and public testcases.
    Contestant,
    /// Manages testcases and rejudges; reads every submission.
    Setter,
    /// Everything, including creating tokens.
    Admin,
}

impl Role {
    pub fn as_str(self) -> &'static str {
        match self {
            Role::Contestant => "contestant",
            Role::Setter => "setter",
            Role::Admin => "admin",
        }
    }

    /// Setters and admins see hidden testcases and every submission.
    pub fn is_staff(self) -> bool {
        matches!(self, Role::Setter | Role::Admin)
    }
}

impl FromStr for Role {
    type Err = String;

    fn from_str(s: &str) -> Result<Role, String> {
        match s {
            "contestant" => Ok(Role::Contestant),
            "setter" => Ok(Role::Setter),
            "admin" => Ok(Role::Admin),
            other => Err(format!(
                "unknown role `{other}` (expected contestant, setter or admin)"
            )),
        }
    }
}

impl fmt::Display for Role {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The outcome of judging a submission or one of its testcases.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Verdict {
    /// Accepted.
    AC,
    /// Wrong answer.
    WA,
    /// Internal error: the judge could not decide (a solver failure, or too
    /// many lost leases).
    IE,
}

impl Verdict {
    pub const ALL: [Verdict; 3] = [Verdict::AC, Verdict::WA, Verdict::IE];

    pub fn as_str(self) -> &'static str {
        match self {
            Verdict::AC => "AC",
            Verdict::WA => "WA",
            Verdict::IE => "IE",
        }
    }
}

impl FromStr for Verdict {
    type Err = String;

    fn from_str(s: &str) -> Result<Verdict, String> {
        match s {
            "AC" => Ok(Verdict::AC),
            "WA" => Ok(Verdict::WA),
            "IE" => Ok(Verdict::IE),
            other => Err(format!("unknown verdict `{other}` (expected AC, WA or IE)")),
        }
    }
}

impl fmt::Display for Verdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Where a submission is in its life.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SubmissionState {
    Queued,
    Running,
    Done,
}

impl SubmissionState {
    pub fn as_str(self) -> &'static str {
        match self {
            SubmissionState::Queued => "queued",
            SubmissionState::Running => "running",
            SubmissionState::Done => "done",
        }
    }
}

impl FromStr for SubmissionState {
    type Err = String;

    fn from_str(s: &str) -> Result<SubmissionState, String> {
        match s {
            "queued" => Ok(SubmissionState::Queued),
            "running" => Ok(SubmissionState::Running),
            "done" => Ok(SubmissionState::Done),
            other => Err(format!("unknown state `{other}`")),
        }
    }
}

/// Parses a stored enum column, reporting corruption rather than panicking.
fn parse_column<T: FromStr<Err = String>>(
    row: &sqlx::sqlite::SqliteRow,
    column: &str,
) -> Result<T, StoreError> {
    let text: String = row.try_get(column)?;
    text.parse().map_err(StoreError::Corrupt)
}

/// Opens a store on a fresh database file, for tests.
pub async fn open_file(path: &Path) -> Result<Store, StoreError> {
    let config = DatabaseConfig {
        url: format!("sqlite://{}", path.display()),
        read_connections: 2,
        busy_timeout: Duration::from_secs(5),
    };
    Store::connect(&config).await
}
