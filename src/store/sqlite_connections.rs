//! The SQLite connections the store holds itself, in place of sqlx's pool,
//! and the write transactions run on them.
//!
//! sqlx's SQLite driver runs each connection on a thread of its own and
//! hands every command to it and back. Its pool adds hand-offs that an
//! embedded database does not need: every connection going back to the pool
//! is pinged (a round trip to its thread, in a task of its own, before the
//! next user may have it), and a transaction's `BEGIN` and `COMMIT` wait,
//! on the connection's thread, until the task that sent them has taken the
//! answer. On the writer, the one connection every write goes through, each
//! of those waits holds up every other write. An embedded connection cannot
//! drop like a network one, so [`SqliteConnections`] hands out connections
//! with no ping, and [`SqliteTx`] sends `BEGIN` and `COMMIT` as plain
//! statements.
//!
//! The writer's thread asks the kernel for a higher priority
//! ([`WRITER_NICE`]): every write waits while it holds the database's one
//! write lock, and at the default priority the wake-ups of the runtime's and
//! the readers' threads preempted it about 1,700 times a second at half
//! load. As the kernel allows that only with `CAP_SYS_NICE` (root has it),
//! a refusal is logged and the thread keeps the default.
//!
//! Invariants: a connection goes back to the set only with no transaction
//! open (a transaction dropped before its commit is rolled back first, and
//! its connection is held until then); a connection whose rollback failed,
//! or whose thread is gone, is closed instead of going back.

use std::{
    borrow::Cow,
    sync::{
        Arc, Mutex, PoisonError,
        atomic::{AtomicU64, Ordering},
    },
    time::{Duration, Instant},
};

use sqlx::{
    ConnectOptions as _, Connection as _,
    sqlite::{SqliteConnectOptions, SqliteConnection},
};
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

/// The nice value the writer's thread asks for (the default is 0; lower
/// is more CPU, and fewer preemptions by threads of the default).
pub(super) const WRITER_NICE: i32 = -10;

/// Up to `size` connections to one SQLite database, opened when first
/// needed and kept open.
pub(super) struct SqliteConnections {
    options: SqliteConnectOptions,
    size: u32,
    /// The nice value each connection's thread asks for, if not the default.
    nice: Option<i32>,
    /// Connections not in use.
    idle: Mutex<Vec<SqliteConnection>>,
    /// One permit a connection, in use or not; waiting for one is first come,
    /// first served.
    permits: Arc<Semaphore>,
    acquire_timeout: Duration,
    /// Leases ended, and the microseconds they were held in all.
    leases: AtomicU64,
    held_us: AtomicU64,
}

impl std::fmt::Debug for SqliteConnections {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SqliteConnections")
            .field("size", &self.size)
            .field(
                "in_use",
                &(self.size as usize - self.permits.available_permits()),
            )
            .finish_non_exhaustive()
    }
}

impl SqliteConnections {
    /// A set of up to `size` connections; one is opened now, so a database
    /// that cannot be opened is an error here rather than at the first use.
    pub async fn open(
        options: SqliteConnectOptions,
        size: u32,
        acquire_timeout: Duration,
    ) -> Result<Arc<Self>, sqlx::Error> {
        Self::open_with_nice(options, size, acquire_timeout, None).await
    }

    /// The one connection every write goes through, its thread at
    /// [`WRITER_NICE`] (see the module's doc).
    pub async fn open_writer(
        options: SqliteConnectOptions,
        acquire_timeout: Duration,
    ) -> Result<Arc<Self>, sqlx::Error> {
        Self::open_with_nice(options, 1, acquire_timeout, Some(WRITER_NICE)).await
    }

    async fn open_with_nice(
        options: SqliteConnectOptions,
        size: u32,
        acquire_timeout: Duration,
        nice: Option<i32>,
    ) -> Result<Arc<Self>, sqlx::Error> {
        let first = connect(&options, nice).await?;
        let size = size.max(1);
        Ok(Arc::new(SqliteConnections {
            options,
            size,
            nice,
            idle: Mutex::new(vec![first]),
            permits: Arc::new(Semaphore::new(size as usize)),
            acquire_timeout,
            leases: AtomicU64::new(0),
            held_us: AtomicU64::new(0),
        }))
    }

    /// A connection for the caller alone, until the lease drops. Waits for
    /// one to be free, at most the acquire timeout (then
    /// [`sqlx::Error::PoolTimedOut`]); [`sqlx::Error::PoolClosed`] once the
    /// set is closed.
    pub async fn acquire(self: &Arc<Self>) -> Result<SqliteLease, sqlx::Error> {
        let permit =
            tokio::time::timeout(self.acquire_timeout, self.permits.clone().acquire_owned())
                .await
                .map_err(|_| sqlx::Error::PoolTimedOut)?
                .map_err(|_| sqlx::Error::PoolClosed)?;
        let idle = self.idle().pop();
        let connection = match idle {
            Some(connection) => connection,
            None => connect(&self.options, self.nice).await?,
        };
        Ok(SqliteLease {
            since: Instant::now(),
            connection: Some(connection),
            set: Arc::clone(self),
            _permit: permit,
        })
    }

    /// How many leases have ended, and how long they were held in all: of
    /// the writer, how busy every write kept it.
    pub fn held(&self) -> (u64, Duration) {
        (
            self.leases.load(Ordering::Relaxed),
            Duration::from_micros(self.held_us.load(Ordering::Relaxed)),
        )
    }

    /// Waits until no connection is in use, refuses new leases, and closes
    /// every connection.
    pub async fn close(&self) {
        // Every permit back means every lease has ended (a rollback included).
        let all = self.permits.acquire_many(self.size).await;
        self.permits.close();
        drop(all);
        let connections = std::mem::take(&mut *self.idle());
        for connection in connections {
            let _ = connection.close().await;
        }
    }

    fn idle(&self) -> std::sync::MutexGuard<'_, Vec<SqliteConnection>> {
        self.idle.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// A connection of a [`SqliteConnections`], back to it on drop.
pub(super) struct SqliteLease {
    since: Instant,
    /// `None` once closed instead of going back.
    connection: Option<SqliteConnection>,
    set: Arc<SqliteConnections>,
    /// Released after the connection is back among the idle ones (fields
    /// drop after `Drop::drop`).
    _permit: OwnedSemaphorePermit,
}

impl SqliteLease {
    /// The connection; an error if it was discarded.
    pub fn connection(&mut self) -> Result<&mut SqliteConnection, sqlx::Error> {
        self.connection.as_mut().ok_or(sqlx::Error::WorkerCrashed)
    }

    /// Closes the connection instead of giving it back: the set opens a new
    /// one when it next needs one.
    pub fn discard(&mut self) {
        // Dropping it ends its thread, which closes it (rolling back
        // whatever transaction it had open).
        self.connection = None;
    }

    /// Discards the connection if `outcome` says its thread is gone.
    pub fn check<T>(&mut self, outcome: &Result<T, sqlx::Error>) {
        if matches!(outcome, Err(sqlx::Error::WorkerCrashed)) {
            self.discard();
        }
    }
}

/// A new connection, its thread at `nice` if given and the kernel allows.
async fn connect(
    options: &SqliteConnectOptions,
    nice: Option<i32>,
) -> Result<SqliteConnection, sqlx::Error> {
    let mut connection = options.connect().await?;
    if let Some(nice) = nice {
        let set = on_connection_thread(&mut connection, move || {
            let thread = rustix::thread::gettid();
            rustix::process::setpriority_process(Some(thread), nice)
        })
        .await?;
        match set {
            Some(Ok(())) => {}
            Some(Err(e)) => tracing::warn!(
                nice,
                error = %e,
                "the SQLite writer's thread keeps the default priority (raising it needs CAP_SYS_NICE)"
            ),
            None => tracing::warn!(nice, "the SQLite writer's thread was not reached"),
        }
    }
    Ok(connection)
}

/// Runs `work` on the thread sqlx runs `connection` on, and returns what it
/// returned; `None` if it did not run. sqlx offers no other way onto that
/// thread than SQLite's progress handler, which a statement being executed
/// calls: one is set for a `select 1` and removed again.
async fn on_connection_thread<T: Send + 'static>(
    connection: &mut SqliteConnection,
    work: impl FnOnce() -> T + Send + 'static,
) -> Result<Option<T>, sqlx::Error> {
    let (sender, receiver) = std::sync::mpsc::channel();
    let mut work = Some(work);
    connection
        .lock_handle()
        .await?
        .set_progress_handler(1, move || {
            if let Some(work) = work.take() {
                let _ = sender.send(work());
            }
            true
        });
    let ran = sqlx::query("select 1").execute(&mut *connection).await;
    connection.lock_handle().await?.remove_progress_handler();
    ran?;
    Ok(receiver.try_recv().ok())
}

impl Drop for SqliteLease {
    fn drop(&mut self) {
        let held = u64::try_from(self.since.elapsed().as_micros()).unwrap_or(u64::MAX);
        self.set.held_us.fetch_add(held, Ordering::Relaxed);
        self.set.leases.fetch_add(1, Ordering::Relaxed);
        if let Some(connection) = self.connection.take() {
            self.set.idle().push(connection);
        }
    }
}

/// A transaction on a leased connection. `BEGIN` and `COMMIT` are plain
/// statements (see the module's doc), and the `BEGIN` travels with the
/// transaction's first statement ([`SqliteTx::opening`]): one hand-off to
/// the connection's thread fewer, and none at all for a transaction that
/// sends nothing. Dropped before [`SqliteTx::commit`] succeeded, it is
/// rolled back in a task that holds the connection until then, so the next
/// user never finds it inside a transaction.
pub(super) struct SqliteTx {
    /// `None` only while dropping.
    lease: Option<SqliteLease>,
    /// The `BEGIN` to send, until it is sent.
    begin: Option<&'static str>,
    /// A `BEGIN` may have run and no `COMMIT` has.
    open: bool,
}

impl SqliteTx {
    /// Leases a connection from `set` for a transaction that `begin` opens
    /// (`begin`, or `begin immediate` to take the write lock), sent with
    /// the first statement.
    pub async fn begin(
        set: &Arc<SqliteConnections>,
        begin: &'static str,
    ) -> Result<SqliteTx, sqlx::Error> {
        Ok(SqliteTx {
            lease: Some(set.acquire().await?),
            begin: Some(begin),
            open: false,
        })
    }

    /// The transaction's connection, its `BEGIN` sent first if it was not.
    pub async fn connection(&mut self) -> Result<&mut SqliteConnection, sqlx::Error> {
        if let Some(begin) = self.begin.take() {
            // Open from before the `BEGIN` is sent: should this future be
            // dropped while it runs, the drop rolls it back.
            self.open = true;
            let begun = sqlx::query(begin).execute(self.leased()?).await;
            self.check(&begun);
            begun?;
        }
        self.leased()
    }

    /// `sql` to run in the transaction as one script (one hand-off), with
    /// the `BEGIN` before it if it was not sent yet, and the connection to
    /// run it on. The `BEGIN` counts as sent from now on.
    ///
    /// Only for statements whose rows are what the caller reads: a script's
    /// count of changed rows would add the `BEGIN`'s, which SQLite reports
    /// as the count of the last `insert`, `update` or `delete` before it.
    pub fn opening(
        &mut self,
        sql: Cow<'static, str>,
    ) -> Result<(Cow<'static, str>, &mut SqliteConnection), sqlx::Error> {
        let sql = match self.begin.take() {
            Some(begin) => {
                self.open = true;
                Cow::Owned(format!("{begin};\n{sql}"))
            }
            None => sql,
        };
        Ok((sql, self.leased()?))
    }

    fn leased(&mut self) -> Result<&mut SqliteConnection, sqlx::Error> {
        self.lease
            .as_mut()
            .ok_or(sqlx::Error::WorkerCrashed)?
            .connection()
    }

    /// Discards the connection if `outcome` says its thread is gone.
    pub fn check<T>(&mut self, outcome: &Result<T, sqlx::Error>) {
        if let Some(lease) = &mut self.lease {
            lease.check(outcome);
        }
    }

    /// Commits; a transaction that sent nothing has nothing to commit.
    pub async fn commit(mut self) -> Result<(), sqlx::Error> {
        if self.begin.is_some() {
            return Ok(());
        }
        let committed = sqlx::query("commit").execute(self.leased()?).await;
        self.check(&committed);
        committed?;
        self.open = false;
        Ok(())
    }
}

impl Drop for SqliteTx {
    fn drop(&mut self) {
        if !self.open {
            return;
        }
        let Some(mut lease) = self.lease.take() else {
            return;
        };
        let Ok(runtime) = tokio::runtime::Handle::try_current() else {
            // No runtime to roll back on: closing the connection rolls back.
            lease.discard();
            return;
        };
        runtime.spawn(async move {
            let Ok(connection) = lease.connection() else {
                return;
            };
            // This fails when SQLite rolled the transaction back itself (a
            // full disk, an I/O error): the connection is closed then too,
            // the simplest state to trust.
            if sqlx::query("rollback").execute(connection).await.is_err() {
                lease.discard();
            }
        });
    }
}

#[cfg(test)]
mod tests {
    use std::str::FromStr;

    use sqlx::Row as _;

    use super::*;

    async fn set_of(size: u32) -> (tempfile::TempDir, Arc<SqliteConnections>) {
        set_waiting(size, Duration::from_secs(5)).await
    }

    /// A set of `size` connections to a fresh database with one table `t`,
    /// whose acquire waits at most `timeout`.
    async fn set_waiting(
        size: u32,
        timeout: Duration,
    ) -> (tempfile::TempDir, Arc<SqliteConnections>) {
        let dir = tempfile::tempdir().expect("temp dir");
        let options = SqliteConnectOptions::from_str(&format!(
            "sqlite://{}",
            dir.path().join("t.db").display()
        ))
        .expect("options")
        .create_if_missing(true);
        let set = SqliteConnections::open(options, size, timeout)
            .await
            .expect("open");
        let mut lease = set.acquire().await.expect("lease");
        sqlx::query("create table t (x integer)")
            .execute(lease.connection().expect("connection"))
            .await
            .expect("create");
        drop(lease);
        (dir, set)
    }

    /// The thread a connection of `set` runs on, and its nice value.
    async fn thread_and_nice(set: &Arc<SqliteConnections>) -> (rustix::thread::Pid, i32) {
        let mut lease = set.acquire().await.expect("lease");
        let thread = on_connection_thread(lease.connection().expect("connection"), || {
            rustix::thread::gettid()
        })
        .await
        .expect("statement")
        .expect("the work ran on the connection's thread");
        let nice = rustix::process::getpriority_process(Some(thread)).expect("nice");
        (thread, nice)
    }

    #[tokio::test]
    #[ignore = "needs root (it raises a thread's priority); scripts/test.sh runs it"]
    async fn the_writers_thread_runs_at_a_higher_priority_and_other_threads_do_not() {
        // The tests run as root (the sandbox's need it too), so the kernel
        // allows the raise.
        let (dir, readers) = set_of(1).await;
        let options = SqliteConnectOptions::from_str(&format!(
            "sqlite://{}",
            dir.path().join("t.db").display()
        ))
        .expect("options");
        let writer = SqliteConnections::open_writer(options, Duration::from_secs(5))
            .await
            .expect("open");
        let (writer_thread, writer_nice) = thread_and_nice(&writer).await;
        let (reader_thread, reader_nice) = thread_and_nice(&readers).await;
        let this_thread = rustix::thread::gettid();
        assert!(
            writer_thread != this_thread && reader_thread != this_thread,
            "the work runs on the connections' own threads"
        );
        // A reader's thread keeps the priority it was started with, this
        // process's (0 unless the tests run under `nice`).
        let inherited = rustix::process::getpriority_process(Some(this_thread)).expect("nice");
        assert_eq!(
            (writer_nice, reader_nice),
            (WRITER_NICE, inherited),
            "the writer's thread at {WRITER_NICE}, a reader's as this thread \
             (a negative nice needs root or CAP_SYS_NICE)"
        );
        // A connection the set opens again (after a discard) asks as well.
        let mut lease = writer.acquire().await.expect("lease");
        lease.discard();
        drop(lease);
        let (again, nice) = thread_and_nice(&writer).await;
        assert_ne!(again, writer_thread, "a new connection, a new thread");
        assert_eq!(nice, WRITER_NICE);
    }

    /// A transaction that has inserted one row into `t`.
    async fn begun_with_a_row(set: &Arc<SqliteConnections>) -> SqliteTx {
        let mut tx = SqliteTx::begin(set, "begin immediate")
            .await
            .expect("begin");
        sqlx::query("insert into t values (1)")
            .execute(tx.connection().await.expect("connection"))
            .await
            .expect("insert");
        tx
    }

    async fn count(set: &Arc<SqliteConnections>) -> i64 {
        let mut lease = set.acquire().await.expect("lease");
        sqlx::query("select count(*) as n from t")
            .fetch_one(lease.connection().expect("connection"))
            .await
            .expect("count")
            .get("n")
    }

    /// Whether `connection` has no transaction open (`begin` inside one
    /// fails).
    async fn outside_a_transaction(connection: &mut SqliteConnection) -> bool {
        let fresh = sqlx::query("begin").execute(&mut *connection).await.is_ok();
        if fresh {
            sqlx::query("rollback")
                .execute(connection)
                .await
                .expect("rollback");
        }
        fresh
    }

    async fn autocommit(set: &Arc<SqliteConnections>) -> bool {
        let mut lease = set.acquire().await.expect("lease");
        outside_a_transaction(lease.connection().expect("connection")).await
    }

    #[tokio::test]
    async fn a_committed_transaction_stays_and_the_connection_is_reused() {
        let (_dir, set) = set_of(1).await;
        for _ in 0..3 {
            begun_with_a_row(&set).await.commit().await.expect("commit");
        }
        assert_eq!(count(&set).await, 3);
        assert_eq!(set.idle().len(), 1, "one connection, reused");
        assert!(autocommit(&set).await, "no transaction left open");
    }

    #[tokio::test]
    async fn a_transaction_dropped_before_its_commit_is_rolled_back_before_the_next_user() {
        let (_dir, set) = set_of(1).await;
        drop(begun_with_a_row(&set).await);
        // The one connection is held by the rollback until it is done.
        assert_eq!(count(&set).await, 0, "the insert was rolled back");
        assert!(autocommit(&set).await, "no transaction left open");
    }

    #[tokio::test]
    async fn a_transaction_cancelled_in_the_middle_of_a_statement_is_rolled_back() {
        let (_dir, set) = set_of(1).await;
        let work = async {
            let mut tx = SqliteTx::begin(&set, "begin immediate").await?;
            sqlx::query("insert into t values (1)")
                .execute(tx.connection().await?)
                .await?;
            // A statement long enough to be cancelled while it runs.
            sqlx::query(
                "with recursive n(i) as (select 1 union all select i + 1 from n where i < 3000000) \
                 insert into t select i from n",
            )
            .execute(tx.connection().await?)
            .await?;
            tx.commit().await
        };
        let outcome = tokio::time::timeout(Duration::from_millis(20), work).await;
        assert!(outcome.is_err(), "the work was cancelled: {outcome:?}");
        assert_eq!(count(&set).await, 0, "nothing of it stayed");
        assert!(autocommit(&set).await, "no transaction left open");
    }

    #[tokio::test]
    async fn a_failed_statement_leaves_the_transaction_to_the_caller_and_then_rolls_back() {
        let (_dir, set) = set_of(2).await;
        let mut tx = begun_with_a_row(&set).await;
        let failed = sqlx::query("insert into missing values (1)")
            .execute(tx.connection().await.expect("connection"))
            .await;
        assert!(failed.is_err());
        drop(tx);
        // Both connections at once: the rolled-back one is among them only
        // once its rollback has ended.
        let mut first = set.acquire().await.expect("lease");
        let mut second = set.acquire().await.expect("lease");
        for lease in [&mut first, &mut second] {
            let connection = lease.connection().expect("connection");
            assert!(outside_a_transaction(connection).await);
            let rows: i64 = sqlx::query("select count(*) as n from t")
                .fetch_one(connection)
                .await
                .expect("count")
                .get("n");
            assert_eq!(rows, 0, "the insert was rolled back");
        }
    }

    #[tokio::test]
    async fn waiting_for_a_busy_set_times_out_and_a_closed_set_refuses() {
        let (_dir, set) = set_waiting(1, Duration::from_millis(50)).await;
        let held = set.acquire().await.expect("lease");
        assert!(matches!(
            set.acquire().await.err(),
            Some(sqlx::Error::PoolTimedOut)
        ));
        drop(held);
        set.close().await;
        assert!(matches!(
            set.acquire().await.err(),
            Some(sqlx::Error::PoolClosed)
        ));
    }
}
