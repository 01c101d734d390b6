//! PostgreSQL connections warmed before they serve.
//!
//! A new PostgreSQL connection is a new server process with empty caches:
//! the first statement that touches a table loads the catalog entries of
//! the table, its indexes, constraints and triggers, and the first firing
//! of a PL/pgSQL trigger compiles it. Measured on the throwaway cluster, a
//! new connection's first token lookup took 2.1 ms and its first insert of
//! a submission 7.4 ms, against 0.1 and 0.35 ms for the second. A server
//! started under load paid that on each of its pool's connections at once,
//! with every submission of its first few hundred milliseconds waiting
//! behind it.
//!
//! So each connection, as it is opened, runs the queue's statements once
//! in a transaction that is rolled back ([`WARM_UP`]): the insert, claim
//! and verdict of one submission of its own (its triggers fire), the reads
//! of a long poll and a token. Nothing stays; the submission's `seq` is
//! used up (a gap in the sequence, as a failed insert leaves). The store
//! opens every connection of its pool this way before it serves
//! ([`warm_pool`]).
//!
//! Invariant: a warm-up never fails a connection or the store's opening. On a database the
//! migrations have not reached yet it fails, is rolled back and logged,
//! and the connection serves as it is.

use sqlx::{Connection, PgConnection, PgPool};

/// The warm-up of one connection, run in a transaction rolled back after.
/// The submission's id is the connection's process id, so that connections
/// warming at once do not wait on each other's unique key; no other
/// transaction ever sees its rows. The judgement is an `IE`, whose tally
/// row the warm-up's transaction locks until it ends (verdicts of other
/// kinds never wait on it).
const WARM_UP: &str = "\
insert into submission (id, problem_id, user_name, kind, payload, state, queued_at, created_at) \
    select 'warm-up ' || pg_backend_pid(), id, '', 'answers', '{}', 'queued', 0, 0 \
    from problem limit 1; \
update submission set state = 'running', attempt = attempt + 1, tries = tries + 1, \
    worker = '', lease_until = 0, claimed_at = 0 \
    where id = 'warm-up ' || pg_backend_pid(); \
insert into judgement (submission_id, attempt, problem_version, verdict, worker, duration_ms, \
    created_at) \
    select id, attempt, 0, 'IE', '', 0, 0 from submission where id = 'warm-up ' || pg_backend_pid(); \
insert into result (judgement_id, testcase, hidden, verdict, time_us, created_at) \
    select id, '', false, 'IE', 0, 0 from judgement \
    where submission_id = 'warm-up ' || pg_backend_pid(); \
update submission set state = 'done', verdict = 'IE', judged_at = 0 \
    where id = 'warm-up ' || pg_backend_pid(); \
select count(*) from event where submission_id = 'warm-up ' || pg_backend_pid(); \
select count(*) from token where hash = ''; \
select count(*) from idempotency_key where user_name = '' and key_value = '';";

/// Warms one connection (see the module's doc); a failure is logged and
/// rolled back, never returned.
pub(super) async fn warm(connection: &mut PgConnection) {
    if let Err(e) = run_rolled_back(connection).await {
        tracing::debug!(error = %e, "warming a PostgreSQL connection failed; it serves cold");
    }
}

/// Runs [`WARM_UP`] and rolls it back; the rows its statements wrote or
/// read (a test's proof that it ran through).
pub(super) async fn run_rolled_back(connection: &mut PgConnection) -> Result<u64, sqlx::Error> {
    let mut transaction = connection.begin().await?;
    let warmed = sqlx::raw_sql(WARM_UP).execute(&mut *transaction).await;
    transaction.rollback().await?;
    Ok(warmed?.rows_affected())
}

/// Opens every connection of `pool` (up to `size`) and warms each, so the
/// first requests find them ready. A connection opened before the
/// migrations ran (the one the pool was checked with, on a new database)
/// warmed in vain, so each is warmed again here: a second warm-up costs
/// about a millisecond. Like a warm-up, this never fails the store: a
/// database that refuses more connections now (all its slots taken) is
/// logged, and the pool opens the rest when they are needed, as it would
/// without this.
pub(super) async fn warm_pool(pool: &PgPool, size: u32) {
    let mut held = Vec::new();
    for _ in 0..size {
        match pool.acquire().await {
            Ok(connection) => held.push(connection),
            Err(e) => {
                tracing::warn!(error = %e, opened = held.len(), "opening the PostgreSQL pool's connections stopped; the rest open when needed");
                break;
            }
        }
    }
    for connection in &mut held {
        warm(connection).await;
    }
}
