//! The database: every SQL statement nimjudge runs lives under this module.
//!
//! [`Store`] runs on SQLite (the embedded default: a `sqlite://` URL) or on
//! PostgreSQL (a `postgres://` URL, for API and worker hosts sharing one
//! database). Each method is written once against [`backend`], which hands
//! its statements to whichever driver the URL chose; the rest of the daemon
//! sees only the methods and the [`domain`](crate::domain) types. The store
//! does not judge, validate inputs, know the solver core or speak HTTP.
//!
//! Times are stored as unix milliseconds and handed out as
//! [`Timestamp`]s; enums are stored as their `as_str` text, and a value that
//! does not parse back is [`StoreError::Corrupt`], never a guess.
//!
//! # Layout
//! - this file: connecting, migrations, conversions.
//! - [`backend`]: the two drivers behind one statement type.
//! - [`tokens`]: bearer tokens: issuing, listing, revoking, authenticating.
//! - [`catalog`]: problems, testcases and cached reference outputs.
//! - [`contests`]: contests, participants and the scoreboard's cells.
//! - [`notices`]: news between processes on one PostgreSQL database.
//! - [`queue`]: submissions as a leased job queue, judgements, events, listings.
//! - [`rejudgings`]: rejudge previews, judged on the side, applied or
//!   discarded.
//! - [`matrices`]: matrix runs, a problem's setter solutions judged by the
//!   workers on every testcase.
//! - [`admission`]: taking a new submission in: idempotency keys and per-user
//!   limits, checked in the transaction that inserts it.
//! - [`sessions`]: the web UI's browser sessions, each opened with a token.
//! - [`sqlite_connections`]: SQLite's connections, held without sqlx's pool.
//! - [`stress_runs`]: stress tests setters start, run by the workers.
//! - [`standing`]: a user's solved or tried problems, for the web UI.
//! - [`write_health`]: whether the database takes writes, for health.

/// PostgreSQL's clock in epoch milliseconds, as its claims and leases read
/// it: the database's own, so that hosts with clocks apart agree on which
/// lease ran out (SQLite, one host, binds the caller's `now`).
macro_rules! pg_clock_ms {
    () => {
        "(extract(epoch from clock_timestamp()) * 1000)::bigint"
    };
}

/// The claim of one side job for a worker: a rejudge preview's item
/// ([`rejudgings`]), a matrix item ([`matrices`]) or a stress run
/// ([`stress_runs`]). Each is a row with an `attempt` that fences its
/// write, a `worker`, a `lease_until` and a `claimed_at`; the claim takes
/// the first open row of `$from` (its rows named `i`) in `$order` whose
/// lease, if any, ran out. It gives both dialects' texts for
/// [`Store::claim_side_job`], which binds `$1` the worker, `$2` now and `$3`
/// the lease in milliseconds. The lease is set and compared by one clock,
/// as [`Store::claim_batch`]'s is.
macro_rules! side_job_claim {
    (update $table:literal where $key:literal = (select $pick:literal from $from:literal
        where $open:literal order by $order:literal) returning $returning:literal) => {
        (
            concat!(
                "update ",
                $table,
                " set attempt = attempt + 1, worker = $1, ",
                "lease_until = $2 + $3, claimed_at = $2 where ",
                $key,
                " = (select ",
                $pick,
                " from ",
                $from,
                " where ",
                $open,
                " and (i.lease_until is null or i.lease_until < $2) order by ",
                $order,
                " limit 1) returning ",
                $returning
            ),
            concat!(
                "update ",
                $table,
                " set attempt = attempt + 1, worker = $1, lease_until = ",
                pg_clock_ms!(),
                " + $3, claimed_at = $2 where ",
                $key,
                " = (select ",
                $pick,
                " from ",
                $from,
                " where ",
                $open,
                " and (i.lease_until is null or i.lease_until < ",
                pg_clock_ms!(),
                ") order by ",
                $order,
                " limit 1 for update of i skip locked) returning ",
                $returning
            ),
        )
    };
}

pub mod admission;
pub mod backend;
pub mod catalog;
pub mod contests;
pub mod matrices;
pub mod notices;
pub mod queue;
pub mod rejudgings;
pub mod sessions;
mod sqlite_connections;
pub mod standing;
pub mod stress_runs;
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
    Connection as _,
    postgres::{PgConnectOptions, PgConnection, PgPoolOptions},
    sqlite::{SqliteConnectOptions, SqliteJournalMode, SqliteSynchronous},
};

pub use admission::{Admission, AdmissionOutcome, IdempotencyKey, LimitExceeded, UserLimit};
use backend::{DbRow, Pool, query};
pub use catalog::{
    DefinedTestcase, JudgeSet, JudgeTestcase, PendingReference, ProblemDefinition, ReferenceRow,
    ReferenceSolution, SubmissionRules, SyncOutcome, TestcaseChange,
};
pub use contests::ScoreboardChanges;
pub use matrices::{MatrixClaim, NewMatrixItem};
pub use notices::{Notice, Notices};
pub use queue::{
    Claim, ContestWindow, JudgementWrite, LatestJudgement, ListFilter, NewSubmission,
    RejudgeOutcome, SentContent, SubmissionPage, SubmissionRecord,
};
pub use rejudgings::{RejudgingClaim, RejudgingRefusal};
pub use sessions::{OpenedSession, SessionHolder};
use sqlite_connections::SqliteConnections;
pub use standing::Standing;
pub use stress_runs::{NewStressRun, StressClaim};
pub use tokens::{IssuedToken, Revocation, TokenPage};
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
    /// The admission task stopped before it answered (its runtime is
    /// shutting down); whether the submission was stored is unknown.
    #[error("the admission task stopped before it answered")]
    WriterGone,
    /// A name is one user with one role: a token for the same name with
    /// another role is refused.
    #[error("the user `{name}` exists already as {role}; a name is one user with one role")]
    NameTaken { name: String, role: Role },
}

/// The longest a statement waits for a connection (on SQLite, for the
/// writer) before it fails with [`sqlx::Error::PoolTimedOut`].
const ACQUIRE_TIMEOUT: Duration = Duration::from_secs(60);

/// A PostgreSQL connection idle this long is pinged before it is used.
const PING_IDLE_CONNECTIONS_AFTER: Duration = Duration::from_secs(1);

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
/// On SQLite it holds two sets of connections: SQLite allows one writer at
/// a time, so every write goes through a single connection and waiting
/// writers queue in-process (fair and cheap) instead of sleeping in
/// SQLite's busy handler; reads use their own connections and never wait
/// for writers (WAL). On PostgreSQL both are one sqlx pool.
#[derive(Clone, Debug)]
pub struct Store {
    write: Pool,
    read: Pool,
    location: Location,
    /// The outcome of the latest write, for health.
    write_health: write_health::WriteHealth,
    /// The admission task's queue (see [`Store::admit`]).
    admissions: admission::AdmissionQueue,
    /// What this store's job notices carry, so it skips them when they
    /// come back (see [`notices::Origin`]).
    origin: notices::Origin,
}

/// Where the data lives.
#[derive(Clone, Debug)]
enum Location {
    /// A SQLite database file.
    File(PathBuf),
    /// A PostgreSQL server: its connect options (password included, never
    /// shown) and how to name it in messages.
    Server {
        options: Box<PgConnectOptions>,
        shown: String,
    },
}

impl Store {
    /// Opens (creating if missing) the database and applies pending migrations.
    pub async fn connect(config: &DatabaseConfig) -> Result<Store, StoreError> {
        Self::open(config, OpenMode::CreateIfMissing).await
    }

    /// Opens the database as `mode` allows and applies pending migrations.
    pub async fn open(config: &DatabaseConfig, mode: OpenMode) -> Result<Store, StoreError> {
        if config.is_postgres() {
            Self::open_postgres(config).await
        } else {
            Self::open_sqlite(config, mode).await
        }
    }

    async fn open_sqlite(config: &DatabaseConfig, mode: OpenMode) -> Result<Store, StoreError> {
        let options = SqliteConnectOptions::from_str(&config.url)?
            .create_if_missing(mode == OpenMode::CreateIfMissing)
            .journal_mode(SqliteJournalMode::Wal)
            .synchronous(SqliteSynchronous::Normal)
            .foreign_keys(true)
            // A statement that writes several rows, or fires a trigger, inside
            // a transaction keeps a statement journal; on disk it spilled to a
            // temporary file past 64 KiB, created, written and deleted again
            // on the writer's thread (13% of its time at 850 submissions/s).
            .pragma("temp_store", "memory")
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
        let location = Location::File(file);
        let lock = StartupLock::acquire(&location).await?;
        // One connection for every write; `read_connections` for reads
        // (see `sqlite_connections` for why not sqlx's pool).
        let write = SqliteConnections::open_writer(options.clone(), ACQUIRE_TIMEOUT).await?;
        {
            let mut lease = write.acquire().await?;
            // `run_direct` on the connection itself: `run` takes an
            // `Acquire`, whose impl for `&mut SqliteConnection` makes callers'
            // futures fail to prove `Send` (a known limit of the compiler's
            // higher-ranked lifetimes).
            sqlx::migrate!("migrations/sqlite")
                .run_direct(None, lease.connection()?, false)
                .await?;
        }
        drop(lock);
        let read = SqliteConnections::open(
            options.read_only(true),
            config.read_connections,
            ACQUIRE_TIMEOUT,
        )
        .await?;
        Ok(Store {
            write: Pool::Sqlite(write),
            read: Pool::Sqlite(read),
            location,
            write_health: write_health::WriteHealth::default(),
            admissions: admission::AdmissionQueue::default(),
            origin: notices::Origin::new(),
        })
    }

    async fn open_postgres(config: &DatabaseConfig) -> Result<Store, StoreError> {
        let options = with_session_defaults(PgConnectOptions::from_str(&config.url)?);
        let shown = format!(
            "PostgreSQL database `{}` on {}",
            options.get_database().unwrap_or("(default)"),
            options.get_host()
        );
        let location = Location::Server {
            options: Box::new(options.clone()),
            shown,
        };
        // sqlx's migrator takes PostgreSQL's advisory lock itself, so hosts
        // starting at once take turns.
        let size = config.read_connections.max(2) * 2;
        let pool = PgPoolOptions::new()
            .max_connections(size)
            .acquire_timeout(ACQUIRE_TIMEOUT)
            // sqlx pings every connection it takes from the pool, a round
            // trip to the server before each statement; a busy pool's
            // connections come back within milliseconds, so only one idle
            // for a while is checked (a dead one is replaced).
            .test_before_acquire(false)
            .before_acquire(|connection, meta| {
                Box::pin(async move {
                    if meta.idle_for >= PING_IDLE_CONNECTIONS_AFTER {
                        connection.ping().await?;
                    }
                    Ok(true)
                })
            })
            .connect_with(options)
            .await?;
        sqlx::migrate!("migrations/postgres").run(&pool).await?;
        let pool = Pool::Postgres(pool);
        Ok(Store {
            write: pool.clone(),
            read: pool,
            location,
            write_health: write_health::WriteHealth::default(),
            admissions: admission::AdmissionQueue::default(),
            origin: notices::Origin::new(),
        })
    }

    /// Waits for this database's [`StartupLock`].
    pub async fn startup_lock(&self) -> Result<StartupLock, StoreError> {
        StartupLock::acquire(&self.location).await
    }

    /// The database file this store works on; `None` on PostgreSQL.
    pub fn file(&self) -> Option<&Path> {
        match &self.location {
            Location::File(file) => Some(file),
            Location::Server { .. } => None,
        }
    }

    /// The database, as messages name it (a PostgreSQL password never).
    pub fn describe(&self) -> String {
        match &self.location {
            Location::File(file) => file.display().to_string(),
            Location::Server { shown, .. } => shown.clone(),
        }
    }

    /// On SQLite, how many times the one write connection was taken and
    /// how long it was held in all (the benchmark's measure of how busy
    /// writes keep it); `None` on PostgreSQL.
    pub fn writer_held(&self) -> Option<(u64, Duration)> {
        match &self.write {
            Pool::Sqlite(set) => Some(set.held()),
            Pool::Postgres(_) => None,
        }
    }

    /// Closes both pools, waiting for statements in progress.
    pub async fn close(&self) {
        self.write.close().await;
        self.read.close().await;
    }
}

/// PostgreSQL session settings, each applied unless the URL's `options`
/// sets it.
///
/// The first four are for hosts that may vanish. Without them a host whose
/// network dies in the middle of a transaction keeps that transaction's row
/// locks (a claimed job no other worker can reclaim, however long ago its
/// lease ran out), and one that dies holding the startup lock blocks every
/// other host's start, until the server's TCP stack gives up on it (hours).
///
/// The fifth prices a page read at random as PostgreSQL's documentation
/// advises for storage that has no seek (or a database held in memory):
/// 1.1 sequential reads, not 4. Every statement of the store is written for
/// an index, and at 4 a plan made while a table held a few hundred rows
/// (the generic plan of a prepared statement, kept as the table grows)
/// read the whole table instead: on a new database, the claim's update
/// walked every submission until the first analysis (1-4 ms a claim at
/// 4,000 rows, against 0.2 ms).
const SESSION_DEFAULTS: [(&str, &str); 6] = [
    // No nimjudge transaction waits between its statements.
    ("idle_in_transaction_session_timeout", "10s"),
    // A silent peer is found dead after about 10 + 3 × 5 seconds.
    ("tcp_keepalives_idle", "10"),
    ("tcp_keepalives_interval", "5"),
    ("tcp_keepalives_count", "3"),
    ("random_page_cost", "1.1"),
    // A new connection plans each prepared statement once, not six times
    // (five custom plans, then the generic one): the first second of load
    // on fresh connections had half as many answers over 20 ms. Every
    // statement is written for its generic plan (see `random_page_cost`).
    ("plan_cache_mode", "force_generic_plan"),
];

fn with_session_defaults(options: PgConnectOptions) -> PgConnectOptions {
    let given = options.get_options().unwrap_or_default().to_owned();
    let options = if options.get_application_name().is_none() {
        options.application_name("nimjudge")
    } else {
        options
    };
    options.options(
        SESSION_DEFAULTS
            .into_iter()
            .filter(|(name, _)| !given.contains(&format!("{name}="))),
    )
}

/// Held while a process migrates the database or syncs the catalog into it,
/// so processes starting at once on the same database take turns instead of
/// failing. On SQLite an exclusive advisory lock on `<database>.lock`; on
/// PostgreSQL a session advisory lock on a connection of its own. Released
/// on drop (and by the kernel or the server if the process dies).
#[derive(Debug)]
pub enum StartupLock {
    File(std::fs::File),
    Server(PgConnection),
}

/// The PostgreSQL advisory lock key of [`StartupLock`].
const STARTUP_LOCK_KEY: i64 = 0x6e6a_5f73_7461_7274; // "nj_start"

impl StartupLock {
    /// Waits for the lock of the database at `location`.
    async fn acquire(location: &Location) -> Result<StartupLock, StoreError> {
        match location {
            Location::File(file) => Self::acquire_file(file).await,
            Location::Server { options, .. } => {
                let mut connection = PgConnection::connect_with(options).await?;
                sqlx::query("select pg_advisory_lock($1)")
                    .bind(STARTUP_LOCK_KEY)
                    .execute(&mut connection)
                    .await?;
                Ok(StartupLock::Server(connection))
            }
        }
    }

    async fn acquire_file(file: &Path) -> Result<StartupLock, StoreError> {
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
        Ok(StartupLock::File(locked))
    }
}

impl Store {
    /// Runs a [`side_job_claim!`] for `worker`: the row it claimed, if any.
    async fn claim_side_job(
        &self,
        (sqlite, postgres): (&'static str, &'static str),
        worker: &str,
        lease: Duration,
    ) -> Result<Option<DbRow>, StoreError> {
        let lease_ms = i64::try_from(lease.as_millis()).unwrap_or(i64::MAX);
        self.noted(async {
            Ok(query(self.write.dialect().pick(sqlite, postgres))
                .bind(worker)
                .bind(now_ms())
                .bind(lease_ms)
                .fetch_optional(&self.write)
                .await?)
        })
        .await
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
fn optional_time_column(row: &DbRow, column: &str) -> Result<Option<Timestamp>, StoreError> {
    let ms: Option<i64> = row.try_get(column)?;
    ms.map(timestamp).transpose()
}

/// Reads a time column.
fn time_column(row: &DbRow, column: &str) -> Result<Timestamp, StoreError> {
    timestamp(row.try_get(column)?)
}

/// Parses a stored text column into its domain type, reporting corruption
/// rather than panicking.
fn parse_column<T: FromStr<Err = String>>(row: &DbRow, column: &str) -> Result<T, StoreError> {
    let text: String = row.try_get(column)?;
    text.parse()
        .map_err(|e| StoreError::Corrupt(format!("{column}: {e}")))
}

/// Parses a nullable stored text column.
fn parse_optional_column<T: FromStr<Err = String>>(
    row: &DbRow,
    column: &str,
) -> Result<Option<T>, StoreError> {
    let text: Option<String> = row.try_get(column)?;
    text.map(|t| t.parse())
        .transpose()
        .map_err(|e| StoreError::Corrupt(format!("{column}: {e}")))
}
