//! The benchmarks' own SQL on their scratch databases, apart from the
//! product's store: a synthetic history (many judged submissions made in
//! one statement each, so a database of a million rows takes seconds, not
//! an hour of real judging), a contest over it, and the few reads only the
//! load benchmark makes. It is written against the schema the migrations
//! make; the tests below check it on both databases through the store's
//! own reads.

use std::str::FromStr;

use anyhow::Context;
use sqlx::{
    Connection as _, PgConnection, SqliteConnection, postgres::PgConnectOptions,
    sqlite::SqliteConnectOptions,
};

use nimjudge::{
    contest::ContestSettings,
    domain::{ContestId, ProblemId},
    store::{Store, now_ms},
};

/// One connection to a benchmark's scratch database, the store's own or
/// not: the statements here run while the server is idle or stopped.
pub enum Scratch {
    Sqlite(SqliteConnection),
    Postgres(PgConnection),
}

/// Runs `$method` of a query with the text for each database and the same
/// arguments bound in order; `execute` gives the rows it changed.
macro_rules! on_either {
    ($scratch:expr, execute, ($sqlite:expr, $postgres:expr) $(, $arg:expr)*) => {
        match $scratch {
            Scratch::Sqlite(connection) => sqlx::query($sqlite)$(.bind($arg))*
                .execute(connection).await.map(|done| done.rows_affected()),
            Scratch::Postgres(connection) => sqlx::query($postgres)$(.bind($arg))*
                .execute(connection).await.map(|done| done.rows_affected()),
        }
    };
    ($scratch:expr, $query:path, $method:ident, ($sqlite:expr, $postgres:expr) $(, $arg:expr)*) => {
        match $scratch {
            Scratch::Sqlite(connection) => $query($sqlite)$(.bind($arg))*.$method(connection).await,
            Scratch::Postgres(connection) => $query($postgres)$(.bind($arg))*.$method(connection).await,
        }
    };
}

/// The shape of a synthetic history.
#[derive(Debug, Clone)]
pub struct SyntheticHistory<'a> {
    /// Submissions to add.
    pub submissions: i64,
    /// Spread round-robin over these problems (they must exist).
    pub problems: &'a [ProblemId],
    /// Spread over users `user-0` … `user-{users - 1}`.
    pub users: i64,
}

/// The columns the synthetic history's insert writes (both dialects).
macro_rules! synthetic_columns {
    () => {
        "insert into submission (id, problem_id, user_name, kind, payload, size_bytes, state, \
         attempt, tries, worker, queued_at, verdict, judged_at, created_at, user_ordinal, \
         user_bytes) "
    };
}

/// The values of a synthetic submission after its id, for the row `n.i` of
/// `$1` spread over `$3` users from time `$4`, its problem `p.id`; each
/// user's ordinals and bytes continue from `$ordinal` and `$bytes`, the
/// user's latest stored row's.
macro_rules! synthetic_row {
    ($ordinal:literal, $bytes:literal) => {
        concat!(
            "p.id, 'user-' || (n.i % $3), 'answers', \
             '{\"kind\":\"answers\",\"answers\":{}}', 30, 'done', 1, 1, 'synthetic', $4 + n.i, \
             case n.i % 4 when 0 then 'AC' when 3 then 'TLE' else 'WA' end, $4 + n.i, $4 + n.i, ",
            $ordinal,
            " + n.i / $3 + 1, ",
            $bytes,
            " + 30 * (n.i / $3 + 1) "
        )
    };
}

impl Scratch {
    /// Connects to the database at `url` (`sqlite://` or `postgres://`).
    pub async fn open(url: &str) -> anyhow::Result<Scratch> {
        Ok(if url.starts_with("postgres") {
            Scratch::Postgres(PgConnection::connect_with(&PgConnectOptions::from_str(url)?).await?)
        } else {
            let options = SqliteConnectOptions::from_str(url)?
                .foreign_keys(true)
                .busy_timeout(std::time::Duration::from_secs(30));
            Scratch::Sqlite(SqliteConnection::connect_with(&options).await?)
        })
    }

    /// Adds `history.submissions` judged answer submissions, one judgement
    /// each, created one millisecond apart and ending now: half WA, a
    /// quarter AC, a quarter TLE. Each user's submissions are numbered on
    /// from what the user had stored, as admissions number them. Returns
    /// the number of submission rows. On PostgreSQL the tables are then
    /// analyzed, as after any bulk load: until autovacuum's next analysis,
    /// PostgreSQL planned the first reads for the near-empty table it knew
    /// (a listing by problem walked a whole index and sorted it, 300 ms at
    /// a million rows).
    pub async fn add_history(&mut self, history: &SyntheticHistory<'_>) -> anyhow::Result<i64> {
        let problems = serde_json::to_string(
            &history
                .problems
                .iter()
                .map(ProblemId::as_str)
                .collect::<Vec<_>>(),
        )?;
        let start = now_ms() - history.submissions;
        self.execute("begin").await?;
        // A random version 4 UUID per row, in SQL.
        on_either!(
            self,
            execute,
            (
                concat!(
                    "with recursive n(i) as (select 0 union all select i + 1 from n \
                     where i + 1 < $1), p(k, id) as (select key, value from json_each($2)) ",
                    synthetic_columns!(),
                    "select lower(hex(randomblob(4)) || '-' || hex(randomblob(2)) || '-4' \
                         || substr(hex(randomblob(2)), 2) || '-' \
                         || substr('89ab', 1 + abs(random()) % 4, 1) \
                         || substr(hex(randomblob(2)), 2) || '-' || hex(randomblob(6))), ",
                    // SQLite makes the rows before it inserts any, so each
                    // row's read of its user's latest sees only stored rows.
                    synthetic_row!(
                        "coalesce((select s.user_ordinal from submission s \
                             where s.user_name = 'user-' || (n.i % $3) \
                             order by s.seq desc limit 1), 0)",
                        "coalesce((select s.user_bytes from submission s \
                             where s.user_name = 'user-' || (n.i % $3) \
                             order by s.seq desc limit 1), 0)"
                    ),
                    "from n join p on p.k = n.i % json_array_length($2)"
                ),
                // On PostgreSQL each user's latest row is read once, before
                // the insert: read for each row, the read walked back over
                // the user's index entries the statement had inserted so far
                // (invisible to it), and a million rows took minutes.
                concat!(
                    "with latest as materialized (select u, \
                         coalesce((select s.user_ordinal from submission s \
                             where s.user_name = 'user-' || u order by s.seq desc limit 1), 0) \
                             as ordinal, \
                         coalesce((select s.user_bytes from submission s \
                             where s.user_name = 'user-' || u order by s.seq desc limit 1), 0) \
                             as bytes \
                     from generate_series(0, $3 - 1) as u) ",
                    synthetic_columns!(),
                    "select gen_random_uuid()::text, ",
                    synthetic_row!("l.ordinal", "l.bytes"),
                    "from generate_series(0, $1 - 1) as n(i) \
                     join (select ordinality - 1 as k, value as id \
                           from json_array_elements_text($2::json) with ordinality) as p \
                       on p.k = n.i % json_array_length($2::json) \
                     join latest l on l.u = n.i % $3 \
                     order by n.i"
                )
            ),
            history.submissions,
            &problems,
            history.users.max(1),
            start
        )?;
        // The judgements count themselves in `verdict_tally` (their
        // trigger: a row trigger on SQLite, a statement trigger on
        // PostgreSQL).
        let judgements = "insert into judgement (submission_id, attempt, verdict, worker, \
             problem_version, duration_ms, created_at) \
             select id, 1, verdict, worker, 1, 1, judged_at from submission \
             where worker = 'synthetic' and created_at >= $1";
        on_either!(self, execute, (judgements, judgements), start)?;
        let count = "select count(*) from submission";
        let rows: i64 = on_either!(self, sqlx::query_scalar, fetch_one, (count, count))?;
        self.execute("commit").await?;
        self.analyze("analyze submission, judgement").await?;
        Ok(rows)
    }

    /// Makes a synthetic history the contest `id`'s (put by the store
    /// first): every submission to one of its problems made inside its
    /// window gets its contest time and its users take part. Returns the
    /// number of contest submissions. The contest's scoreboard cells are
    /// then out of date until the contest is put again (see
    /// [`add_contest`]).
    async fn move_into_contest(&mut self, id: &ContestId) -> anyhow::Result<i64> {
        self.execute("begin").await?;
        let moved = "update submission set contest_id = $1, contest_time_ms = created_at - \
             (select starts_at from contest where id = $1) \
             where problem_id in (select problem_id from contest_problem where contest_id = $1) \
             and created_at >= (select starts_at from contest where id = $1) \
             and created_at < (select starts_at + duration_ms from contest where id = $1)";
        let changed = on_either!(self, execute, (moved, moved), id.as_str())?;
        let takes_part = "insert into contest_participant (contest_id, user_name, registered_at) \
             select distinct $1, user_name, $2 from submission where contest_id = $1";
        on_either!(
            self,
            execute,
            (takes_part, takes_part),
            id.as_str(),
            now_ms()
        )?;
        self.execute("commit").await?;
        Ok(i64::try_from(changed).unwrap_or(i64::MAX))
    }

    /// Milliseconds from each judged submission's first `queued` event to
    /// its first `judged` event: the server's own part of the
    /// submit-to-verdict time, which the load benchmark reports beside what
    /// its clients saw.
    pub async fn queued_to_judged_ms(&mut self) -> anyhow::Result<Vec<i64>> {
        let read = "select j.at - q.at from \
             (select submission_id, min(created_at) as at from event where kind = 'queued' \
              group by submission_id) q \
             join (select submission_id, min(created_at) as at from event where kind = 'judged' \
              group by submission_id) j on j.submission_id = q.submission_id";
        Ok(on_either!(
            self,
            sqlx::query_scalar,
            fetch_all,
            (read, read)
        )?)
    }

    /// On PostgreSQL, the process ids of the server's backends serving this
    /// database's other sessions (a store's, on this host or another); on
    /// SQLite none, as it runs inside the benchmark's process.
    pub async fn database_processes(&mut self) -> anyhow::Result<Vec<u32>> {
        let Scratch::Postgres(connection) = self else {
            return Ok(Vec::new());
        };
        let pids: Vec<i32> = sqlx::query_scalar(
            "select pid from pg_stat_activity where datname = current_database() \
             and backend_type = 'client backend' and pid != pg_backend_pid()",
        )
        .fetch_all(connection)
        .await?;
        pids.into_iter()
            .map(|pid| u32::try_from(pid).context("a process id out of range"))
            .collect()
    }

    /// Closes the connection.
    pub async fn close(self) -> anyhow::Result<()> {
        match self {
            Scratch::Sqlite(connection) => connection.close().await?,
            Scratch::Postgres(connection) => connection.close().await?,
        }
        Ok(())
    }

    async fn execute(&mut self, sql: &'static str) -> anyhow::Result<()> {
        on_either!(self, execute, (sql, sql))?;
        Ok(())
    }

    /// Runs `analyze` on PostgreSQL; SQLite plans from its indexes alone.
    async fn analyze(&mut self, sql: &'static str) -> anyhow::Result<()> {
        if let Scratch::Postgres(connection) = self {
            sqlx::query(sql).execute(connection).await?;
        }
        Ok(())
    }
}

/// Adds a synthetic history to `store`'s database at `url` (see
/// [`Scratch::add_history`]).
pub async fn add_history(url: &str, history: &SyntheticHistory<'_>) -> anyhow::Result<i64> {
    let mut scratch = Scratch::open(url).await?;
    let rows = scratch.add_history(history).await?;
    scratch.close().await?;
    Ok(rows)
}

/// Makes the synthetic history at `url` the contest `id`'s, which `store`
/// holds with `settings`: its submissions inside the window get their
/// contest times, their users take part, and the contest is put again
/// through the store, which computes its scoreboard's cells. Returns the
/// number of contest submissions.
pub async fn add_contest(
    store: &Store,
    url: &str,
    id: &ContestId,
    settings: &ContestSettings,
) -> anyhow::Result<i64> {
    let mut scratch = Scratch::open(url).await?;
    let changed = scratch.move_into_contest(id).await?;
    store.put_contest(id, settings).await?;
    scratch
        .analyze("analyze submission, scoreboard_cell, contest_participant")
        .await?;
    scratch.close().await?;
    Ok(changed)
}

#[cfg(test)]
mod tests {
    use std::{collections::HashMap, time::Duration};

    use nimjudge::{
        catalog,
        domain::{Payload, SubmissionState, Verdict},
        store::{JudgementWrite, ListFilter, NewSubmission},
        testing::{ScratchCatalog, TestBackend},
    };

    use super::*;

    /// A store on a fresh database holding the scratch `nim` problem, its
    /// URL, and what holds the database.
    async fn fresh(backend: TestBackend, name: &str) -> (ScratchCatalog, Store, String) {
        let scratch = ScratchCatalog::nim(&[])
            .expect("a scratch catalog")
            .with_backend(backend);
        let config = scratch.config(name, &[]).expect("settings");
        let store = Store::connect(&config.database).await.expect("a store");
        catalog::sync(&store, &scratch.problems_dir())
            .await
            .expect("the problem");
        (scratch, store, config.database.url)
    }

    fn nim() -> ProblemId {
        "nim".parse().expect("an id")
    }

    fn answers() -> Payload {
        Payload::Answers {
            personal: None,
            answers: Default::default(),
        }
    }

    /// The history's rows are judged, their verdicts counted and listed
    /// by the store's own reads, and each user's rows are numbered on from
    /// what the user had stored, as admissions number them.
    async fn a_history_is_judged_rows_numbered_as_admissions_number_them(backend: TestBackend) {
        let (_scratch, store, url) = fresh(backend, "history").await;
        let first = store
            .insert_submission(&NewSubmission {
                problem: &nim(),
                user: "user-3",
                payload: &answers(),
                contest: None,
            })
            .await
            .expect("a submission of user-3's own");
        let history = SyntheticHistory {
            submissions: 100,
            problems: &[nim()],
            users: 7,
        };
        assert_eq!(add_history(&url, &history).await.expect("a history"), 101);
        // Counted by verdict, in the order of their names.
        assert_eq!(
            store.verdict_counts().await.expect("counts"),
            [(Verdict::AC, 25), (Verdict::TLE, 25), (Verdict::WA, 50)]
        );
        let page = store
            .list_submissions(&ListFilter {
                user: Some("user-3".into()),
                verdict: Some(Verdict::AC),
                limit: 100,
                ..ListFilter::default()
            })
            .await
            .expect("a listing");
        // user-3 has rows 3, 10, 17, …, 94; AC is every fourth row.
        let expected = (0..100).filter(|i| i % 7 == 3 && i % 4 == 0).count();
        assert_eq!(page.submissions.len(), expected);
        assert!(
            page.submissions
                .iter()
                .all(|s| s.state == SubmissionState::Done)
        );
        let mut scratch = Scratch::open(&url).await.expect("a connection");
        let read = "select id, user_name, user_ordinal, user_bytes from submission order by seq";
        let rows: Vec<(String, String, i64, i64)> =
            on_either!(&mut scratch, sqlx::query_as, fetch_all, (read, read)).expect("rows");
        scratch.close().await.expect("closed");
        // Each user's (ordinal, bytes) so far; user-3 had one of its own.
        let mut latest: HashMap<String, (i64, i64)> = HashMap::new();
        for (id, user, ordinal, bytes) in rows {
            let (before, bytes_before) = latest.get(&user).copied().unwrap_or_default();
            assert_eq!(ordinal, before + 1, "{user}");
            if id != first.id.to_string() {
                assert_eq!(bytes, bytes_before + 30, "{user}");
            }
            latest.insert(user, (ordinal, bytes));
        }
        assert_eq!(latest.len(), 7);
        let of_user_3 = (0..100).filter(|i| i % 7 == 3).count() as i64;
        assert_eq!(latest.get("user-3").map(|l| l.0), Some(1 + of_user_3));
    }

    /// The load benchmark's times from queued to judged are those of the
    /// judged submissions, from their event log.
    async fn the_queued_to_judged_times_are_those_of_judged_submissions(backend: TestBackend) {
        let (_scratch, store, url) = fresh(backend, "events").await;
        let new = NewSubmission {
            problem: &nim(),
            user: "ann",
            payload: &answers(),
            contest: None,
        };
        store.insert_submission(&new).await.expect("a submission");
        let claim = store
            .claim("w", Duration::from_secs(60))
            .await
            .expect("a claim")
            .expect("a job");
        tokio::time::sleep(Duration::from_millis(20)).await;
        let judgement = JudgementWrite {
            problem_version: 1,
            verdict: Verdict::AC,
            message: None,
            compile_output: None,
            results: Vec::new(),
            group_scores: None,
        };
        assert!(store.finish(&claim, &judgement).await.expect("a verdict"));
        // Queued, not judged: not counted.
        store.insert_submission(&new).await.expect("a submission");
        let mut scratch = Scratch::open(&url).await.expect("a connection");
        let times = scratch.queued_to_judged_ms().await.expect("times");
        scratch.close().await.expect("closed");
        assert_eq!(times.len(), 1, "{times:?}");
        assert!((20..60_000).contains(&times[0]), "{times:?}");
    }

    nimjudge::on_both_backends!(
        a_history_is_judged_rows_numbered_as_admissions_number_them,
        the_queued_to_judged_times_are_those_of_judged_submissions,
    );
}
