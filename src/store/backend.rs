//! The two databases the store runs on, behind one small interface, so each
//! store method is written once.
//!
//! SQLite (embedded, the default) and PostgreSQL (one database shared by
//! API and worker hosts) are reached through sqlx's own drivers, each with
//! its own pool options. A [`Statement`] is SQL text with `$1`, `$2`, …
//! placeholders, which both drivers read, and its arguments; running it on a
//! [`Pool`] or inside a [`Tx`] hands it to that pool's driver. Rows come back
//! as [`DbRow`], whose `try_get` decodes any type both drivers decode, so a
//! column must have the same Rust type on both: integers are `bigint` on
//! PostgreSQL, flags `boolean` (SQLite stores them as 0 and 1).
//!
//! Where the dialects differ (the claim's `for update skip locked`,
//! `greatest` for SQLite's two-argument `max`, JSON arrays), the caller picks
//! the text by [`Dialect`]. SQL text is `&'static str` or built by
//! [`Statement::push`] from `&'static str` pieces: values only ever travel
//! as arguments.
//!
//! PostgreSQL's connections are sqlx's pool; SQLite's are
//! [`SqliteConnections`], which skip the pool's round trips an embedded
//! database does not need (see [`super::sqlite_connections`]).

use std::{borrow::Cow, sync::Arc};

use sqlx::{
    AssertSqlSafe, Database, Decode, Encode, Postgres, Row as _, Sqlite, Type,
    postgres::{PgPool, PgRow},
    query::Query,
    sqlite::SqliteRow,
};

use super::sqlite_connections::{SqliteConnections, SqliteTx};

/// Which SQL dialect a pool speaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dialect {
    Sqlite,
    Postgres,
}

impl Dialect {
    /// `sqlite` when it speaks SQLite, else `postgres`.
    pub fn pick(self, sqlite: &'static str, postgres: &'static str) -> &'static str {
        match self {
            Dialect::Sqlite => sqlite,
            Dialect::Postgres => postgres,
        }
    }
}

/// A pool of connections to one database.
#[derive(Debug, Clone)]
pub(super) enum Pool {
    Sqlite(Arc<SqliteConnections>),
    Postgres(PgPool),
}

/// An open transaction; dropped without [`Tx::commit`], it rolls back.
pub(super) enum Tx {
    Sqlite(SqliteTx),
    Postgres(sqlx::Transaction<'static, Postgres>),
}

impl Pool {
    pub fn dialect(&self) -> Dialect {
        match self {
            Pool::Sqlite(_) => Dialect::Sqlite,
            Pool::Postgres(_) => Dialect::Postgres,
        }
    }

    pub async fn begin(&self) -> Result<Tx, sqlx::Error> {
        Ok(match self {
            Pool::Sqlite(set) => Tx::Sqlite(SqliteTx::begin(set, "begin").await?),
            Pool::Postgres(pool) => Tx::Postgres(pool.begin().await?),
        })
    }

    /// A transaction in which what it reads cannot be changed by another
    /// writer of the same `key` before it commits, so a check (a limit, a
    /// name in use) and the write that depends on it are one step. SQLite
    /// takes its one write lock at `begin immediate`; PostgreSQL takes a
    /// transaction-scoped advisory lock on the key's hash.
    pub async fn begin_exclusive(&self, key: &str) -> Result<Tx, sqlx::Error> {
        match self {
            Pool::Sqlite(set) => Ok(Tx::Sqlite(SqliteTx::begin(set, "begin immediate").await?)),
            Pool::Postgres(pool) => {
                let mut tx = pool.begin().await?;
                sqlx::query("select pg_advisory_xact_lock(hashtextextended($1, 0))")
                    .bind(key)
                    .execute(&mut *tx)
                    .await?;
                Ok(Tx::Postgres(tx))
            }
        }
    }

    /// A transaction that holds `lock` from its start until it ends, as
    /// [`Pool::begin_exclusive`] holds its key; on SQLite, `begin immediate`
    /// (its one write lock). On PostgreSQL the `BEGIN` and the lock go to the
    /// server together: one round trip, not two.
    pub async fn begin_holding(&self, lock: &TurnLock) -> Result<Tx, sqlx::Error> {
        match self {
            Pool::Sqlite(set) => Ok(Tx::Sqlite(SqliteTx::begin(set, "begin immediate").await?)),
            Pool::Postgres(pool) => Ok(Tx::Postgres(pool.begin_with(lock.begin).await?)),
        }
    }

    /// Closes the pool, waiting for statements in progress.
    pub async fn close(&self) {
        match self {
            Pool::Sqlite(set) => set.close().await,
            Pool::Postgres(pool) => pool.close().await,
        }
    }
}

/// A lock every host takes by the same fixed name ([`turn_lock!`]), so the
/// statement that takes it is fixed text too, which PostgreSQL can run in
/// the same message as the `BEGIN` ([`Pool::begin_holding`]).
#[derive(Debug)]
pub(super) struct TurnLock {
    /// `begin` and the advisory lock [`Pool::begin_exclusive`] takes for the
    /// name.
    begin: &'static str,
}

/// The [`TurnLock`] of a name given as a string literal.
macro_rules! turn_lock {
    ($name:literal) => {
        $crate::store::backend::TurnLock::new(concat!(
            "begin; select pg_advisory_xact_lock(hashtextextended('",
            $name,
            "', 0))"
        ))
    };
}
pub(super) use turn_lock;

impl TurnLock {
    /// Only [`turn_lock!`] builds one, from a literal name.
    #[doc(hidden)]
    pub(super) const fn new(begin: &'static str) -> TurnLock {
        TurnLock { begin }
    }
}

impl Tx {
    pub fn dialect(&self) -> Dialect {
        match self {
            Tx::Sqlite(_) => Dialect::Sqlite,
            Tx::Postgres(_) => Dialect::Postgres,
        }
    }

    /// Sends `payload` on `channel` to the processes listening, when this
    /// transaction commits: PostgreSQL's `NOTIFY`. Nothing on SQLite.
    pub async fn notify(&mut self, channel: &str, payload: &str) -> Result<(), sqlx::Error> {
        if let Tx::Postgres(tx) = self {
            sqlx::query("select pg_notify($1, $2)")
                .bind(channel)
                .bind(payload)
                .execute(&mut **tx)
                .await?;
        }
        Ok(())
    }

    pub async fn commit(self) -> Result<(), sqlx::Error> {
        match self {
            Tx::Sqlite(tx) => tx.commit().await,
            Tx::Postgres(tx) => tx.commit().await,
        }
    }
}

/// An argument of a statement: the few types the store binds.
#[derive(Debug, Clone)]
pub(super) enum Arg<'a> {
    Int(Option<i64>),
    Text(Option<Cow<'a, str>>),
    Bool(bool),
}

/// `From` for each type a statement binds: `value` as an [`Arg`].
macro_rules! args_from {
    ($($type:ty => |$value:ident| $arg:expr;)*) => {
        $(impl<'a> From<$type> for Arg<'a> {
            fn from($value: $type) -> Self {
                $arg
            }
        })*
    };
}

args_from! {
    i64 => |value| Arg::Int(Some(value));
    Option<i64> => |value| Arg::Int(value);
    Option<i32> => |value| Arg::Int(value.map(i64::from));
    bool => |value| Arg::Bool(value);
    &'a str => |value| Arg::Text(Some(Cow::Borrowed(value)));
    &'a String => |value| Arg::Text(Some(Cow::Borrowed(value)));
    String => |value| Arg::Text(Some(Cow::Owned(value)));
    Option<&'a str> => |value| Arg::Text(value.map(Cow::Borrowed));
    &'a Option<String> => |value| Arg::Text(value.as_deref().map(Cow::Borrowed));
    Option<String> => |value| Arg::Text(value.map(Cow::Owned));
}

/// Where a statement runs: on a pool (a connection of its own) or inside
/// a transaction.
pub(super) enum Target<'e> {
    Pool(&'e Pool),
    Tx(&'e mut Tx),
}

impl<'e> From<&'e Pool> for Target<'e> {
    fn from(pool: &'e Pool) -> Self {
        Target::Pool(pool)
    }
}

impl<'e> From<&'e mut Tx> for Target<'e> {
    fn from(tx: &'e mut Tx) -> Self {
        Target::Tx(tx)
    }
}

/// A row of either driver.
pub(super) enum DbRow {
    Sqlite(SqliteRow),
    Postgres(PgRow),
}

impl DbRow {
    /// The value of `column`, decoded as `T`.
    pub fn try_get<T>(&self, column: &str) -> Result<T, sqlx::Error>
    where
        T: for<'r> Decode<'r, Sqlite>
            + Type<Sqlite>
            + for<'r> Decode<'r, Postgres>
            + Type<Postgres>,
    {
        match self {
            DbRow::Sqlite(row) => row.try_get(column),
            DbRow::Postgres(row) => row.try_get(column),
        }
    }
}

/// A statement and its arguments, ready to run on either driver.
#[derive(Debug, Clone)]
pub(super) struct Statement<'a> {
    /// Written in the code, or built from pieces that were.
    sql: Cow<'static, str>,
    args: Vec<Arg<'a>>,
}

/// A statement of fixed text; bind its `$n` arguments in order, or extend
/// it with [`Statement::push`] and [`Statement::push_bind`].
pub(super) fn query<'a>(sql: &'static str) -> Statement<'a> {
    Statement {
        sql: Cow::Borrowed(sql),
        args: Vec::new(),
    }
}

/// Binds every argument, in order, to a driver's query.
fn bound<'q, DB: Database>(
    mut query: Query<'q, DB, DB::Arguments>,
    args: Vec<Arg<'_>>,
) -> Query<'q, DB, DB::Arguments>
where
    for<'e> i64: Encode<'e, DB> + Type<DB>,
    for<'e> Option<i64>: Encode<'e, DB> + Type<DB>,
    for<'e> String: Encode<'e, DB> + Type<DB>,
    for<'e> Option<String>: Encode<'e, DB> + Type<DB>,
    for<'e> bool: Encode<'e, DB> + Type<DB>,
{
    for arg in args {
        query = match arg {
            Arg::Int(value) => query.bind(value),
            Arg::Text(value) => query.bind(value.map(Cow::into_owned)),
            Arg::Bool(value) => query.bind(value),
        };
    }
    query
}

/// A statement's text and arguments with SQLite's bare `?` placeholders in
/// place of `$n`, each argument repeated where its `$n` appears.
///
/// SQLite keeps the names of numbered parameters in a list, and sqlx looks
/// each parameter's name up in it before binding it: a statement of n
/// `$n` parameters costs n² steps to bind, which a multi-row insert of a
/// few hundred parameters feels (a profile of the writer under load found
/// an eighth of its time there). Bare `?` parameters have no names and bind
/// in one pass.
fn positional<'a>(sql: Cow<'static, str>, args: Vec<Arg<'a>>) -> (Cow<'static, str>, Vec<Arg<'a>>) {
    if !sql.contains('$') {
        return (sql, args);
    }
    // `$` and `'` are ASCII, so byte offsets found by them are char
    // boundaries; the text between them is copied in slices.
    let bytes = sql.as_bytes();
    let mut text = String::with_capacity(sql.len());
    let mut order: Vec<usize> = Vec::new();
    let (mut copied, mut at, mut quoted) = (0, 0, false);
    while let Some(offset) = bytes[at..].iter().position(|&b| b == b'$' || b == b'\'') {
        at += offset + 1;
        if bytes[at - 1] == b'\'' {
            quoted = !quoted;
            continue;
        }
        let digits = bytes[at..]
            .iter()
            .take_while(|b| b.is_ascii_digit())
            .count();
        if quoted || digits == 0 {
            continue;
        }
        text.push_str(&sql[copied..at - 1]);
        text.push('?');
        order.push(sql[at..at + digits].parse().unwrap_or(0));
        at += digits;
        copied = at;
    }
    text.push_str(&sql[copied..]);
    // Each argument moves to its last use and is cloned for the others.
    let mut uses = vec![0usize; args.len()];
    for &number in &order {
        if let Some(count) = number.checked_sub(1).and_then(|i| uses.get_mut(i)) {
            *count += 1;
        }
    }
    let mut args: Vec<Option<Arg<'a>>> = args.into_iter().map(Some).collect();
    let mut bound = Vec::with_capacity(order.len());
    for number in order {
        let Some(index) = number.checked_sub(1).filter(|&i| i < args.len()) else {
            // Unbound, as SQLite reads a `$n` with no argument: null.
            bound.push(Arg::Int(None));
            continue;
        };
        uses[index] -= 1;
        let arg = if uses[index] == 0 {
            args[index].take()
        } else {
            args[index].clone()
        };
        bound.push(arg.unwrap_or(Arg::Int(None)));
    }
    (Cow::Owned(text), bound)
}

/// Runs `$statement` on `$target` with the driver's `$method`, mapping each
/// result through `$sqlite` or `$postgres` (which see the driver's types).
/// `$rows_only`: the method returns rows alone, so on SQLite a transaction's
/// `BEGIN` not sent yet may go with the statement in one script.
macro_rules! dispatch {
    ($statement:expr, $target:expr, $method:ident, $rows_only:expr, $sqlite:expr, $postgres:expr) => {{
        let Statement { sql, args } = $statement;
        match $target {
            Target::Pool(Pool::Sqlite(set)) => {
                let (sql, args) = positional(sql, args);
                let mut lease = set.acquire().await?;
                let outcome = bound(sql_query::<Sqlite>(sql), args)
                    .$method(lease.connection()?)
                    .await;
                lease.check(&outcome);
                $sqlite(outcome?)
            }
            Target::Tx(Tx::Sqlite(tx)) => {
                let (sql, args) = positional(sql, args);
                let (sql, connection) = if $rows_only {
                    tx.opening(sql)?
                } else {
                    (sql, tx.connection().await?)
                };
                let outcome = bound(sql_query::<Sqlite>(sql), args)
                    .$method(connection)
                    .await;
                tx.check(&outcome);
                $sqlite(outcome?)
            }
            Target::Pool(Pool::Postgres(pool)) => $postgres(
                bound(sql_query::<Postgres>(sql), args)
                    .$method(pool)
                    .await?,
            ),
            Target::Tx(Tx::Postgres(tx)) => $postgres(
                bound(sql_query::<Postgres>(sql), args)
                    .$method(&mut **tx)
                    .await?,
            ),
        }
    }};
}

/// A driver's query of a statement's text.
fn sql_query<'q, DB: Database>(sql: Cow<'static, str>) -> Query<'q, DB, DB::Arguments> {
    match sql {
        Cow::Borrowed(text) => sqlx::query(text),
        // Built only from `&'static str` pieces by `Statement::push`, or
        // from such text by `positional`.
        Cow::Owned(text) => sqlx::query(AssertSqlSafe(text)),
    }
}

impl<'a> Statement<'a> {
    /// Appends SQL text.
    pub fn push(mut self, text: &'static str) -> Self {
        self.sql.to_mut().push_str(text);
        self
    }

    /// Appends the next `$n` placeholder and binds `arg` to it.
    pub fn push_bind(mut self, arg: impl Into<Arg<'a>>) -> Self {
        self.args.push(arg.into());
        let placeholder = format!("${}", self.args.len());
        self.sql.to_mut().push_str(&placeholder);
        self
    }

    /// Appends `($a, $b, …)`, a placeholder for each of `args` bound in
    /// order: one row of a multi-row insert.
    fn push_row(mut self, args: impl IntoIterator<Item = Arg<'a>>) -> Self {
        self.sql.to_mut().push('(');
        for (index, arg) in args.into_iter().enumerate() {
            if index > 0 {
                self.sql.to_mut().push_str(", ");
            }
            self = self.push_bind(arg);
        }
        self.sql.to_mut().push(')');
        self
    }

    /// Appends `(…), (…), …`, one [`Statement::push_row`] for each of
    /// `rows`: the rows of a multi-row insert (or of a `values` list).
    pub fn push_rows<R>(mut self, rows: impl IntoIterator<Item = R>) -> Self
    where
        R: IntoIterator<Item = Arg<'a>>,
    {
        for (index, row) in rows.into_iter().enumerate() {
            if index > 0 {
                self.sql.to_mut().push_str(", ");
            }
            self = self.push_row(row);
        }
        self
    }

    /// Binds the next `$n` argument.
    pub fn bind(mut self, arg: impl Into<Arg<'a>>) -> Self {
        self.args.push(arg.into());
        self
    }

    /// The statement's text, as written for PostgreSQL (`$n` placeholders).
    #[cfg(test)]
    pub fn sql(&self) -> &str {
        &self.sql
    }

    /// The statement behind `dialect`'s plan of it (SQLite's `explain query
    /// plan`, PostgreSQL's `explain`), for the tests that check which
    /// indexes serve it.
    #[cfg(test)]
    pub fn explained(self, dialect: Dialect) -> Self {
        let explain = dialect.pick("explain query plan", "explain");
        Statement {
            sql: Cow::Owned(format!("{explain} {}", self.sql)),
            args: self.args,
        }
    }

    /// Runs the statement; returns how many rows it changed.
    pub async fn execute(self, target: impl Into<Target<'_>>) -> Result<u64, sqlx::Error> {
        Ok(dispatch!(
            self,
            target.into(),
            execute,
            false,
            |done: sqlx::sqlite::SqliteQueryResult| done.rows_affected(),
            |done: sqlx::postgres::PgQueryResult| done.rows_affected()
        ))
    }

    /// The first row, if any.
    pub async fn fetch_optional(
        self,
        target: impl Into<Target<'_>>,
    ) -> Result<Option<DbRow>, sqlx::Error> {
        Ok(dispatch!(
            self,
            target.into(),
            fetch_optional,
            true,
            |row: Option<SqliteRow>| row.map(DbRow::Sqlite),
            |row: Option<PgRow>| row.map(DbRow::Postgres)
        ))
    }

    /// The one row; an error if there is none.
    pub async fn fetch_one(self, target: impl Into<Target<'_>>) -> Result<DbRow, sqlx::Error> {
        Ok(dispatch!(
            self,
            target.into(),
            fetch_one,
            true,
            DbRow::Sqlite,
            DbRow::Postgres
        ))
    }

    /// Every row.
    pub async fn fetch_all(self, target: impl Into<Target<'_>>) -> Result<Vec<DbRow>, sqlx::Error> {
        Ok(dispatch!(
            self,
            target.into(),
            fetch_all,
            true,
            |rows: Vec<SqliteRow>| rows.into_iter().map(DbRow::Sqlite).collect::<Vec<_>>(),
            |rows: Vec<PgRow>| rows.into_iter().map(DbRow::Postgres).collect::<Vec<_>>()
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(args: &[Arg<'_>]) -> Vec<String> {
        args.iter()
            .map(|arg| match arg {
                Arg::Int(value) => format!("{value:?}"),
                Arg::Text(value) => format!("{value:?}"),
                Arg::Bool(value) => format!("{value}"),
            })
            .collect()
    }

    #[test]
    fn numbered_parameters_become_bare_ones_with_each_argument_where_it_is_used() {
        let statement = query("select $2 + $1, '$1 stays' as s, $2, $10 from t where x = $1")
            .bind(1i64)
            .bind("two");
        let (sql, args) = positional(statement.sql, statement.args);
        assert_eq!(
            sql,
            "select ? + ?, '$1 stays' as s, ?, ? from t where x = ?"
        );
        assert_eq!(
            texts(&args),
            [
                r#"Some("two")"#,
                "Some(1)",
                r#"Some("two")"#,
                "None",
                "Some(1)"
            ]
        );
        let plain = query("select 'a$1' from t");
        let (sql, args) = positional(plain.sql, plain.args);
        assert_eq!((sql.as_ref(), args.len()), ("select 'a$1' from t", 0));
    }

    /// A pool on a fresh SQLite database with one table `t (x)`, and its
    /// folder.
    async fn sqlite_pool() -> (tempfile::TempDir, Pool) {
        let dir = tempfile::tempdir().expect("temp dir");
        let options = sqlx::sqlite::SqliteConnectOptions::new()
            .filename(dir.path().join("t.db"))
            .create_if_missing(true);
        let set = SqliteConnections::open(options, 1, std::time::Duration::from_secs(5))
            .await
            .expect("open");
        let pool = Pool::Sqlite(set);
        query("create table t (x integer not null)")
            .execute(&pool)
            .await
            .expect("create");
        (dir, pool)
    }

    async fn values_of_t(pool: &Pool) -> Vec<i64> {
        query("select x from t order by x")
            .fetch_all(pool)
            .await
            .expect("select")
            .iter()
            .map(|row| row.try_get::<i64>("x").expect("x"))
            .collect()
    }

    #[tokio::test]
    async fn a_transactions_first_change_count_is_its_own() {
        let (_dir, pool) = sqlite_pool().await;
        query("insert into t values (1), (2), (3)")
            .execute(&pool)
            .await
            .expect("insert");
        // SQLite reports the last insert's count (3) after a `BEGIN`: the
        // first statement of a transaction must not share a script with it.
        let mut tx = pool.begin().await.expect("begin");
        let changed = query("update t set x = x + 1 where x = $1")
            .bind(2i64)
            .execute(&mut tx)
            .await
            .expect("update");
        tx.commit().await.expect("commit");
        assert_eq!(changed, 1);
        assert_eq!(values_of_t(&pool).await, [1, 3, 3]);
    }

    #[tokio::test]
    async fn a_statement_reads_the_same_with_bare_parameters() {
        let (_dir, pool) = sqlite_pool().await;
        let row = query("select $2 || '-' || $1 || '-' || $2 as joined, $3 as flag, 'é$1' as kept")
            .bind("a")
            .bind(String::from("b"))
            .bind(true)
            .fetch_one(&pool)
            .await
            .expect("select");
        assert_eq!(row.try_get::<String>("joined").expect("joined"), "b-a-b");
        assert!(row.try_get::<bool>("flag").expect("flag"));
        assert_eq!(row.try_get::<String>("kept").expect("kept"), "é$1");
    }
}
