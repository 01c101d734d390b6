//! A synthetic history for benchmarks: many judged submissions made in one
//! SQL statement each, so a database of a million rows takes seconds, not
//! an hour of real judging. Used by `nimjudge bench-queries` and
//! `nimjudge bench-pages`, and by the store tests on both databases.

use super::{
    Store, StoreError,
    backend::{Pool, query},
    now_ms,
};
use crate::domain::{ContestId, ProblemId};

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

impl Store {
    /// Adds `history.submissions` judged answer submissions, one judgement
    /// each, created one millisecond apart and ending now: half WA, a
    /// quarter AC, a quarter TLE. Returns the number of submission rows.
    pub async fn add_synthetic_history(
        &self,
        history: &SyntheticHistory<'_>,
    ) -> Result<i64, StoreError> {
        let problems = serde_json::to_string(
            &history
                .problems
                .iter()
                .map(ProblemId::as_str)
                .collect::<Vec<_>>(),
        )
        .map_err(|e| StoreError::Corrupt(e.to_string()))?;
        let start = now_ms() - history.submissions;
        let mut tx = self.write.begin().await?;
        // A random version 4 UUID per row, in SQL.
        query(tx.dialect().pick(
            concat!(
                "with recursive n(i) as (select 0 union all select i + 1 from n where i + 1 < $1), \
             p(k, id) as (select key, value from json_each($2)) ",
                synthetic_columns!(),
                "\
             select lower(hex(randomblob(4)) || '-' || hex(randomblob(2)) || '-4' \
                     || substr(hex(randomblob(2)), 2) || '-' \
                     || substr('89ab', 1 + abs(random()) % 4, 1) \
                     || substr(hex(randomblob(2)), 2) || '-' || hex(randomblob(6))), \
                 ",
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
                "\
             from n join p on p.k = n.i % json_array_length($2)"
            ),
            // On PostgreSQL each user's latest row is read once, before the
            // insert: read for each row, the read walked back over the
            // user's index entries the statement had inserted so far
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
                "\
             select gen_random_uuid()::text, ",
                synthetic_row!("l.ordinal", "l.bytes"),
                "\
             from generate_series(0, $1 - 1) as n(i) \
             join (select ordinality - 1 as k, value as id \
                   from json_array_elements_text($2::json) with ordinality) as p \
               on p.k = n.i % json_array_length($2::json) \
             join latest l on l.u = n.i % $3 \
             order by n.i"
            ),
        ))
        .bind(history.submissions)
        .bind(&problems)
        .bind(history.users.max(1))
        .bind(start)
        .execute(&mut tx)
        .await?;
        query(
            "insert into judgement (submission_id, attempt, verdict, worker, problem_version, \
                 duration_ms, created_at) \
             select id, 1, verdict, worker, 1, 1, judged_at from submission \
             where worker = 'synthetic' and created_at >= $1",
        )
        .bind(start)
        .execute(&mut tx)
        .await?;
        // The judgements counted themselves in `verdict_tally` (their
        // trigger: a row trigger on SQLite, a statement trigger on PostgreSQL).
        let rows = query("select count(*) as n from submission")
            .fetch_one(&mut tx)
            .await?
            .try_get("n")?;
        tx.commit().await?;
        Ok(rows)
    }

    /// Makes a synthetic history a contest's: every submission to one of
    /// its problems made inside its window gets its contest time, their
    /// users take part, and its scoreboard's cells are computed. Returns
    /// the number of contest submissions.
    pub async fn add_synthetic_contest(&self, contest: &ContestId) -> Result<i64, StoreError> {
        let mut tx = self.write.begin().await?;
        let changed = query(
            "update submission set contest_id = $1, contest_time_ms = created_at - \
             (select starts_at from contest where id = $1) \
             where problem_id in (select problem_id from contest_problem where contest_id = $1) \
             and created_at >= (select starts_at from contest where id = $1) \
             and created_at < (select starts_at + duration_ms from contest where id = $1)",
        )
        .bind(contest.as_str())
        .execute(&mut tx)
        .await?;
        query(
            "insert into contest_participant (contest_id, user_name, registered_at) \
             select distinct $1, user_name, $2 from submission where contest_id = $1",
        )
        .bind(contest.as_str())
        .bind(now_ms())
        .execute(&mut tx)
        .await?;
        super::contests::refresh_cells(&mut tx, super::contests::CellScope::Contest(contest))
            .await?;
        tx.commit().await?;
        if let Pool::Postgres(_) = &self.write {
            query("analyze submission, scoreboard_cell, contest_participant")
                .execute(&self.write)
                .await?;
        }
        Ok(i64::try_from(changed).unwrap_or(i64::MAX))
    }

    /// Analyzes the tables a synthetic history filled, as after any bulk
    /// load; on SQLite nothing (it plans from its indexes alone). Until
    /// autovacuum's next analysis, PostgreSQL planned the first reads for
    /// the near-empty table it knew: a listing by problem walked a whole
    /// index and sorted it, 300 ms at a million rows.
    pub async fn analyze_synthetic_history(&self) -> Result<(), StoreError> {
        if let Pool::Postgres(_) = &self.write {
            query("analyze submission, judgement")
                .execute(&self.write)
                .await?;
        }
        Ok(())
    }
}
