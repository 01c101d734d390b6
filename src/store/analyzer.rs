//! PostgreSQL's table statistics, kept fresh while the queue's tables grow.
//!
//! PostgreSQL plans a prepared statement once (a generic plan, after five
//! runs) from the statistics of the moment and keeps that plan until the
//! tables are analyzed again. A new database has none: autovacuum analyzes
//! a table only after a 10% change and at most once a minute, so a contest
//! on a fresh database ran its first minute on plans made for empty tables
//! (a claim that walked every submission, a result read that walked every
//! result). This task analyzes each of the queue's tables once it holds 500
//! rows, and again each time it has grown tenfold since PostgreSQL last
//! counted it: a few times while a database is young, then no more (see
//! [`analyze_grown`]). Several hosts on one database take turns by an
//! advisory lock.

use std::time::Duration;

use sqlx::PgPool;

/// How often the tables' change counts are looked at.
pub(super) const ANALYZE_CHECK_INTERVAL: Duration = Duration::from_secs(2);

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
            if let Err(e) = analyze_grown(&pool).await
                && !pool.is_closed()
            {
                tracing::warn!(error = %e, "analyzing grown tables failed; the next check retries");
            }
        }
    });
}

/// Analyzes the queue table that grew the most since PostgreSQL last
/// counted its rows, if it is ten times that count (and at least 500 rows),
/// unless another host is at it.
///
/// Growth, not change: each submission is updated twice after its insert,
/// and a rule on changed rows (it was a fifth of the table) analyzed the
/// submissions every two seconds under a steady load, forever, each time
/// costing a core for 10-30 ms and every connection a new plan of every
/// statement on the table: the slowest submissions of a run lined up with
/// those analyses. Between analyses PostgreSQL scales its row estimates by
/// the table's pages as it grows, so plans stay right; what a young table
/// lacks is its first column statistics, and a tenfold growth is when
/// they are worth taking again. Autovacuum's own analyses (a 10% change,
/// at most once a minute) carry on beside this, and its vacuums recount
/// the rows too.
///
/// One table a check, from a small sample of the columns the store's
/// statements filter, join and sort by: an analysis is CPU on one of the
/// database's cores while every statement waits for the others, and a
/// check that analyzed every changed table at PostgreSQL's default sample
/// (30,000 rows, every column) held one for up to 150 ms, the tail of every
/// submission in it. The plans it is for (an index or a walk of the table)
/// need the table's size and rough distributions, which 3,000 rows give.
async fn analyze_grown(pool: &PgPool) -> Result<(), sqlx::Error> {
    let grown: Option<String> = sqlx::query_scalar(
        "select s.relname::text from pg_stat_user_tables s \
         join pg_class c on c.oid = s.relid \
         where s.relname in ('submission', 'judgement', 'result', 'event') \
         and s.n_live_tup >= greatest(500, 10 * c.reltuples) \
         order by s.n_live_tup::float8 / greatest(c.reltuples, 1) desc limit 1",
    )
    .fetch_optional(pool)
    .await?;
    let Some(table) = grown else {
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
        "submission" => {
            "analyze submission (seq, id, problem_id, user_name, state, verdict, created_at)"
        }
        "judgement" => "analyze judgement (id, submission_id, attempt)",
        "result" => "analyze result (judgement_id, testcase)",
        "event" => "analyze event (id, submission_id, kind)",
        _ => return Ok(()),
    };
    sqlx::query(statement).execute(&mut *tx).await?;
    tx.commit().await
}
