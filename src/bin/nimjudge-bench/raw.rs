//! The load benchmark's raw SQLite loop: what the database alone can do.
//!
//! One thread, one connection (rusqlite: SQLite's C API called in place,
//! no connection thread to hand statements to), no HTTP, no judging: for
//! each submission the writes the server makes for one submission taken,
//! claimed and judged alone, three transactions with the same statements
//! (the store's multi-row statements written for one row). It is the
//! ceiling issue 12 measures the server against: the server's group
//! commits may beat it, its hand-offs to sqlx's thread cost against it.

use std::{path::Path, time::Instant};

use rusqlite::{Connection, OptionalExtension, TransactionBehavior, params};

use nimjudge::store::now_ms;

const MINUTE_MS: i64 = 60 * 1000;
const DAY_MS: i64 = 24 * 60 * MINUTE_MS;

/// What one raw run measured.
#[derive(Debug)]
pub struct RawRun {
    pub throughput: f64,
}

/// Runs `total` submissions of `payload` (the stored JSON, and its sizes' JSON) through the
/// three transactions, on the migrated SQLite database `file` whose
/// catalog holds problem `nim`; each judgement has one AC result per name
/// in `testcases`. Blocking: call it from a blocking thread.
pub fn run(
    file: &Path,
    total: usize,
    (payload, sizes): (&str, &str),
    testcases: &[String],
) -> anyhow::Result<RawRun> {
    let mut connection = Connection::open(file)?;
    // The settings the store's connections use.
    connection.query_row("pragma journal_mode = wal", [], |_| Ok(()))?;
    connection.pragma_update(None, "synchronous", "normal")?;
    connection.pragma_update(None, "foreign_keys", "on")?;
    connection.pragma_update(None, "temp_store", "memory")?;
    let results_sql = results_statement(testcases.len());
    let size = i64::try_from(payload.len())?;
    let started = Instant::now();
    for _ in 0..total {
        let id = uuid::Uuid::new_v4().to_string();
        let now = now_ms();
        // 1. The admission: the limit counts, the insert (its event by trigger).
        let tx = connection.transaction_with_behavior(TransactionBehavior::Immediate)?;
        let (ordinal, bytes, _pending, _first_recent, _bytes_before_day) = tx
            .prepare_cached(
                "select coalesce((select user_ordinal from submission where user_name = ?1 \
                 order by seq desc limit 1), 0) as ordinal, \
                 coalesce((select user_bytes from submission where user_name = ?1 \
                 order by seq desc limit 1), 0) as bytes, \
                 (select count(*) from submission indexed by submission_pending_by_user \
                 where user_name = ?1 and state != 'done') \
                 as pending, \
                 (select user_ordinal from submission where user_name = ?1 and created_at > ?2 \
                 order by created_at, user_ordinal limit 1) as first_recent, \
                 (select user_bytes - size_bytes from submission where user_name = ?1 \
                 and created_at > ?3 order by created_at, user_ordinal limit 1) \
                 as bytes_before_day",
            )?
            .query_row(params!["bench", now - MINUTE_MS, now - DAY_MS], |row| {
                Ok((
                    row.get::<_, i64>(0)?,
                    row.get::<_, i64>(1)?,
                    row.get::<_, i64>(2)?,
                    row.get::<_, Option<i64>>(3)?,
                    row.get::<_, Option<i64>>(4)?,
                ))
            })?;
        tx.prepare_cached(
            "insert into submission (id, problem_id, user_name, kind, payload, size_bytes, state, \
             queued_at, user_ordinal, user_bytes, created_at, payload_sizes) values (?1, 'nim', \
             'bench', 'answers', ?2, ?3, 'queued', ?4, ?5, ?6, \
             max(coalesce((select max(created_at) from submission), 0), ?4), ?7) \
             returning seq, id, problem_id, user_name, kind, state, verdict, message, attempt, \
             worker, queued_at, judged_at, created_at, progress_done, progress_total",
        )?
        .query_row(
            params![id, payload, size, now, ordinal + 1, bytes + size, sizes],
            |row| row.get::<_, i64>(0),
        )?;
        tx.commit()?;

        // 2. The claim: one statement, its event written by its trigger.
        let claimed = connection
            .prepare_cached(
                "update submission set state = 'running', attempt = attempt + 1, tries = tries + 1, \
                 worker = ?1, lease_until = ?2 + ?3, claimed_at = ?2, progress_done = null, \
                 progress_total = null \
                 where seq = coalesce( \
                     (select min(seq) from submission where state = 'running' and lease_until < ?2), \
                     (select min(seq) from submission where state = 'queued')) \
                 returning seq, id, problem_id, kind, payload, attempt, tries, queued_at",
            )?
            .query_row(params!["raw", now, 60_000], |row| {
                Ok((row.get::<_, String>(1)?, row.get::<_, String>(4)?, row.get::<_, i64>(5)?))
            })
            .optional()?;
        let Some((claimed_id, _payload, attempt)) = claimed else {
            anyhow::bail!("the raw loop found nothing to claim");
        };

        // 3. The verdict, fenced in each statement: the judgement (its count
        // by trigger), its results, no `dropped` event, then the update (its
        // event by trigger).
        let tx = connection.transaction()?;
        let judgements = tx
            .prepare_cached(
                "insert into judgement (submission_id, attempt, problem_version, verdict, message, \
                 compile_output, worker, duration_ms, created_at) \
                 select v.column1, v.column2, v.column3, v.column4, v.column5, v.column6, \
                 v.column7, v.column8, ?1 \
                 from (values (?2, ?3, 1, 'AC', null, null, 'raw', 0)) as v \
                 join submission s on s.id = v.column1 and s.attempt = v.column2 \
                 and s.state = 'running'",
            )?
            .execute(params![now, claimed_id, attempt])?;
        anyhow::ensure!(judgements == 1, "the raw loop lost its own claim");
        {
            let mut insert = tx.prepare_cached(&results_sql)?;
            let mut arguments: Vec<rusqlite::types::Value> = vec![now.into()];
            for (position, name) in testcases.iter().enumerate() {
                arguments.extend([
                    claimed_id.clone().into(),
                    attempt.into(),
                    name.clone().into(),
                    i64::try_from(position)?.into(),
                ]);
            }
            insert.execute(rusqlite::params_from_iter(arguments))?;
        }
        tx.prepare_cached(
            "insert into event (submission_id, kind, actor, detail, created_at) \
             select v.column1, 'dropped', v.column3, v.column4, ?1 \
             from (values (?2, ?3, 'raw', 'attempt finished after losing its lease')) as v \
             where not exists (select 1 from submission s where s.id = v.column1 \
             and s.attempt = v.column2 and s.state = 'running')",
        )?
        .execute(params![now, claimed_id, attempt])?;
        let fenced = tx
            .prepare_cached(
                "update submission set state = 'done', verdict = v.column3, message = v.column4, \
                 judged_at = ?1, lease_until = null, progress_done = null, progress_total = null \
                 from (values (?2, ?3, ?4, ?5)) as v where submission.id = v.column1 \
                 and submission.attempt = v.column2 and submission.state = 'running' \
                 returning submission.id",
            )?
            .query_row(
                params![now, claimed_id, attempt, "AC", None::<String>],
                |row| row.get::<_, String>(0),
            )
            .optional()?;
        anyhow::ensure!(fenced.is_some(), "the raw loop lost its own claim");
        tx.commit()?;
    }
    Ok(RawRun {
        throughput: total as f64 / started.elapsed().as_secs_f64(),
    })
}

/// The multi-row insert of `rows` AC results, as the store writes them:
/// `?1` is the time, then each row's submission, attempt, testcase and
/// position.
fn results_statement(rows: usize) -> String {
    let mut sql = String::from(
        "insert into result (judgement_id, testcase, position, hidden, verdict, time_us, \
         message, detail, cpu_ms, wall_ms, memory_kib, exit_code, signal, created_at) \
         select j.id, v.column3, v.column4, v.column5, v.column6, v.column7, v.column8, \
         v.column9, v.column10, v.column11, v.column12, v.column13, v.column14, ?1 from (values ",
    );
    for row in 0..rows {
        if row > 0 {
            sql.push_str(", ");
        }
        let n = 4 * row + 1;
        sql.push_str(&format!(
            "(?{}, ?{}, ?{}, ?{}, 0, 'AC', 1, null, null, null, null, null, null, null)",
            n + 1,
            n + 2,
            n + 3,
            n + 4
        ));
    }
    sql.push_str(
        ") as v join submission s on s.id = v.column1 and s.attempt = v.column2 \
         and s.state = 'running' \
         join judgement j on j.submission_id = s.id and j.attempt = s.attempt",
    );
    sql
}

#[cfg(test)]
mod tests {
    use nimjudge::{
        catalog,
        domain::{SubmissionState, Verdict},
        solver::TestKind,
        store::{ListFilter, Store},
        testing::{FixtureInput, ScratchCatalog},
    };

    #[tokio::test]
    async fn the_raw_loop_leaves_every_submission_judged_as_the_store_reads_it() {
        let scratch = ScratchCatalog::nim(&[
            ("random-1", FixtureInput::Generated(TestKind::Random, 1)),
            ("random-2", FixtureInput::Generated(TestKind::Random, 2)),
        ])
        .expect("scratch catalog");
        let config = scratch.config("raw", &[]).expect("config");
        let store = Store::connect(&config.database).await.expect("open");
        catalog::sync(&store, &scratch.problems_dir())
            .await
            .expect("sync");
        let file = store.file().expect("a SQLite file").to_path_buf();
        let names = vec!["random-1".to_string(), "random-2".to_string()];
        let ran = tokio::task::spawn_blocking(move || {
            let stored = (
                r#"{"kind":"answers","answers":{}}"#,
                r#"{"kind":"answers","answers":{}}"#,
            );
            super::run(&file, 20, stored, &names)
        })
        .await
        .expect("join")
        .expect("the raw loop");
        assert!(ran.throughput > 0.0);
        let listed = store
            .list_submissions(&ListFilter {
                limit: 100,
                ..ListFilter::default()
            })
            .await
            .expect("list");
        assert_eq!(listed.submissions.len(), 20);
        for submission in &listed.submissions {
            assert_eq!(submission.state, SubmissionState::Done);
            assert_eq!(submission.verdict, Some(Verdict::AC));
            let judgements = store.judgements(&submission.id).await.expect("judgements");
            assert_eq!(judgements.len(), 1);
            let names: Vec<&str> = judgements[0]
                .results
                .iter()
                .map(|r| r.testcase.as_str())
                .collect();
            assert_eq!(names, ["random-1", "random-2"]);
            let kinds: Vec<&str> = store
                .events(&submission.id)
                .await
                .expect("events")
                .iter()
                .map(|e| e.kind.as_str())
                .collect();
            assert_eq!(kinds, ["queued", "claimed", "judged"]);
        }
        assert_eq!(
            store.verdict_counts().await.expect("counts"),
            [(Verdict::AC, 20)]
        );
        store.close().await;
    }
}
