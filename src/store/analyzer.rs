//! PostgreSQL's table statistics, kept fresh while the queue's tables grow.
//!
//! PostgreSQL plans a prepared statement once (a generic plan, after five
//! runs) from the statistics of the moment and keeps that plan until the
//! tables are analyzed again. A new database has none: autovacuum analyzes
//! a table only after a 10% change and at most once a minute, so a contest
//! on a fresh database ran its first minute on plans made for empty tables
//! (a claim that walked every submission, a result read that walked every
//! result). This task analyzes each of the queue's tables once it has
//! changed by a fifth since its last analysis (at least 500 rows): often
//! while the tables are small, rarely once they are big; one table a check,
//! from a small sample (see [`analyze_changed`]). Several hosts on one
//! database take turns by an advisory lock.

use std::time::Duration;

use sqlx::PgPool;

/// How often the tables' change counts are looked at.
const ANALYZE_CHECK_INTERVAL: Duration = Duration::from_secs(2);

/// The advisory lock hosts take turns by (an arbitrary constant).
const ANALYZE_LOCK: i64 = 0x6e6a_616e_616c;

/// Starts keeping the statistics of `pool`'s queue tables fresh, until the
/// pool is closed.
pub(super) fn start(pool: PgPool) {
    tokio::spawn(async move {
        let mut every = tokio::time::interval(ANALYZE_CHECK_INTERVAL);
        every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        while !pool.is_closed() {
            every.tick().await;
            if let Err(e) = analyze_changed(&pool).await
                && !pool.is_closed()
            {
                tracing::warn!(error = %e, "analyzing changed tables failed; the next check retries");
            }
        }
    });
}

/// Analyzes the queue table most changed since its last analysis, if by a
/// fifth (at least 500 rows), unless another host is at it.
///
/// One table a check, from a small sample: an analysis is CPU on one of the
/// database's cores while every statement waits for the others, and a
/// check that analyzed every changed table at PostgreSQL's default sample
/// (30,000 rows) held one for up to 150 ms, the tail of every submission in
/// it. The plans it is for (an index or a walk of the table) need the
/// table's size and rough distributions, which a sample of 3,000 rows gives;
/// autovacuum's own analyses later take the full sample.
async fn analyze_changed(pool: &PgPool) -> Result<(), sqlx::Error> {
    let changed: Option<String> = sqlx::query_scalar(
        "select relname::text from pg_stat_user_tables \
         where relname in ('submission', 'judgement', 'result', 'event') \
         and n_mod_since_analyze >= greatest(500, n_live_tup / 5) \
         order by n_mod_since_analyze::float8 / greatest(n_live_tup, 1) desc limit 1",
    )
    .fetch_optional(pool)
    .await?;
    let Some(table) = changed else {
        return Ok(());
    };
    let mut tx = pool.begin().await?;
    let ours: bool = sqlx::query_scalar("select pg_try_advisory_xact_lock($1)")
        .bind(ANALYZE_LOCK)
        .fetch_one(&mut *tx)
        .await?;
    if !ours {
        return Ok(());
    }
    sqlx::query("set local default_statistics_target = 10")
        .execute(&mut *tx)
        .await?;
    // The names come from the fixed list above, never from input.
    let statement = match table.as_str() {
        "submission" => "analyze submission",
        "judgement" => "analyze judgement",
        "result" => "analyze result",
        "event" => "analyze event",
        _ => return Ok(()),
    };
    sqlx::query(statement).execute(&mut *tx).await?;
    tx.commit().await
}
