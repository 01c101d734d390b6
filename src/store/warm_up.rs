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
//! That loads the caches, but a served request runs other statements: the
//! store's own texts, which sqlx prepares on each connection the first
//! time it sends them, and which PostgreSQL plans for their values on each
//! of their first five runs before it settles on a generic plan. A server
//! started under load paid that too: at 925 submissions/s on the throwaway
//! cluster, the statements of the load's first 50 ms took 79 ms in all (by
//! their logged durations), a claim's first runs 1 ms against 0.4 ms later
//! and the verdict batch's 3.3 ms against 1.1 ms, and 45-99 of the first
//! second's 925 submissions took over 20 ms to their verdict. So each
//! connection then runs those statements themselves, built by the same
//! functions the store uses, [`RUNS`] times each, in a second transaction
//! that is rolled back ([`warm_statements`]): the token lookup, an
//! admission's counts (for one and two users) and its inserts (of rows
//! queued, claimed, and judged with their judgements), the claim, a
//! worker's verdict batch and the long poll's reads. Its rows belong to a
//! problem of its own, inserted in the
//! same transaction, so it needs no bundled problem and leaves none. With
//! it, 0-4 of the first second's submissions took over 20 ms.
//!
//! Invariant: a warm-up never fails a connection or the store's opening. On a database the
//! migrations have not reached yet it fails, is rolled back and logged,
//! and the connection serves as it is.

use std::collections::BTreeSet;

use sqlx::{Connection, PgConnection, PgPool};

use super::{
    StoreError,
    admission::{CountsNeeded, stored_counts_statement},
    backend::{Dialect, Statement, Target, query},
    notices::Origin,
    queue::{
        Claim, ClaimArgs, ClaimedBy, JudgedBy, JudgementWrite, QueuedRow, RowStart, UserTotals,
        claim_statement, pg_verdict_writes, record_statement, submission_statement,
        warm_up_rows_inserts,
    },
    tokens::principal_statement,
};
use crate::domain::{ProblemId, SubmissionId, SubmissionKind, Verdict};

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
        return;
    }
    if let Err(e) = warm_statements(connection).await {
        tracing::debug!(error = %e, "preparing the store's statements on a PostgreSQL connection failed; they are prepared when first used");
    }
}

/// Runs of each statement in [`warm_statements`]. PostgreSQL plans a
/// prepared statement for its values on its first five runs and on the
/// sixth settles on a generic plan if that is no dearer, so the load finds
/// every plan settled (one run each left 9-59 of the first second's
/// submissions over 20 ms, six 0-4). Those plans are made on near-empty
/// tables and made again when the analyzer's first analysis changes the
/// statistics; a statement whose plan could go wrong on such estimates is
/// written so that it cannot (see `LATEST_OF_USER`).
pub(super) const RUNS: usize = 6;

/// The rows of each warmed insert. On PostgreSQL an insert's text is the
/// same whatever its number of rows (they travel as arrays).
const INSERT_BATCH: usize = 2;

/// The statements [`warm_statements`] runs each time: the token lookup,
/// two counts, three inserts (of queued rows, of rows a waiting worker
/// takes, and of rows one judged first), the claim, the verdict batch with
/// the next claim (as a worker writes them), and two reads (a submission's
/// row, for a replayed request, and its whole record, for the long poll).
pub(super) const STATEMENTS_PER_RUN: usize = 3 + 3 + 4;

/// The statements a warm-up prepares: those of a run, but for the inserts
/// of queued rows and of rows taken by a waiting worker, which are one
/// text (the insert of judged rows carries their judgements too).
pub(super) const PREPARED_STATEMENTS: usize = STATEMENTS_PER_RUN - 1;

/// The worker the warm-up's inserts of claimed rows name.
const WARM_UP_CLAIM: ClaimedBy<'static> = ClaimedBy {
    worker: "warm-up",
    lease_ms: 0,
};

/// Runs the store's own statements on `connection` [`RUNS`] times each, in
/// a transaction rolled back after (see the module's doc), so sqlx has
/// prepared them and PostgreSQL has settled their plans. Returns how many
/// statements ran.
pub(super) async fn warm_statements(connection: &mut PgConnection) -> Result<usize, StoreError> {
    let dialect = Dialect::Postgres;
    let problem: ProblemId = format!(
        "warm-up-{}",
        &uuid::Uuid::new_v4().simple().to_string()[..12]
    )
    .parse()
    .map_err(StoreError::Corrupt)?;
    // The submission the verdict batch and the reads are about. The
    // verdict's attempt is one no claim gives, so the batch finds it not
    // fenced and records a `dropped` event.
    let target = SubmissionId::new();
    let claim = Claim {
        id: target,
        problem: problem.clone(),
        payload: Err(String::new()),
        attempt: -1,
        tries: 1,
        worker: "warm-up".into(),
        revision: 1,
        queued_at: 0,
        claimed_at: 0,
    };
    let judgement = JudgementWrite {
        problem_version: 1,
        verdict: Verdict::IE,
        message: None,
        compile_output: None,
        results: Vec::new(),
    };
    let needed = CountsNeeded {
        pending: true,
        recent: true,
        used: true,
    };
    let one_user = BTreeSet::from([""]);
    let two_users = BTreeSet::from(["", " "]);
    let verdicts = [(&claim, &judgement)];
    let mut transaction = connection.begin().await?;
    let mut ran = 0;
    query(
        "insert into problem (id, title, statement, version, definition_hash, time_limit_ms, \
         created_at, updated_at) values ($1, '', '', 1, '', 0, 0, 0)",
    )
    .bind(problem.as_str())
    .execute(Target::Connection(&mut transaction))
    .await?;
    // A queued row of the warm-up's problem, for `id`, numbered after the
    // ones before it (the insert checks that its rows follow their user's
    // latest).
    let mut totals = UserTotals::default();
    let mut queued = |id: SubmissionId| QueuedRow {
        id,
        problem: &problem,
        user: "",
        kind: SubmissionKind::Answers,
        payload: "{}",
        totals: totals.after("{}"),
    };
    let first = [queued(target)];
    for statement in warm_up_rows_inserts(&first, &[], Origin::new()) {
        statement
            .execute(Target::Connection(&mut transaction))
            .await?;
    }
    for _ in 0..RUNS {
        let mut statements: Vec<Statement<'_>> = vec![
            principal_statement(String::new(), 0),
            stored_counts_statement(dialect, &one_user, needed, 0),
            stored_counts_statement(dialect, &two_users, needed, 0),
        ];
        // The admissions' three forms (`commit_queued_rows`): rows queued,
        // taken by a waiting worker, and judged by one; each insert takes
        // ids of its own.
        let rows: Vec<QueuedRow<'_>> = (0..3 * INSERT_BATCH)
            .map(|_| queued(SubmissionId::new()))
            .collect();
        let judged = JudgedBy {
            claim: &claim,
            judgement: &judgement,
            judged_at: 0,
        };
        for (batch, start) in rows.chunks(INSERT_BATCH).zip([
            RowStart::Queued,
            RowStart::Claimed(WARM_UP_CLAIM),
            RowStart::Judged(judged),
        ]) {
            statements.extend(warm_up_rows_inserts(
                batch,
                &[start; INSERT_BATCH],
                Origin::new(),
            ));
        }
        statements.extend([
            claim_statement(dialect, "warm-up", 0, 0, 1),
            pg_verdict_writes(
                &verdicts,
                0,
                Some(ClaimArgs {
                    worker: "warm-up",
                    now: 0,
                    lease_ms: 0,
                    batch: 1,
                }),
            ),
            submission_statement(&target),
            record_statement(dialect, &target),
        ]);
        for statement in statements {
            statement
                .execute(Target::Connection(&mut transaction))
                .await?;
            ran += 1;
        }
    }
    transaction.rollback().await?;
    Ok(ran)
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
/// warmed in vain, so a connection whose statements are not prepared yet
/// (fewer than a warm-up's in its cache) is warmed again here; the others
/// were warmed as they opened. Like a warm-up, this never fails the store:
/// a database that refuses more connections now (all its slots taken) is
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
        if connection.cached_statements_size() < PREPARED_STATEMENTS {
            warm(connection).await;
        }
    }
}
