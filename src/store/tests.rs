//! Store conformance tests: what any backend must do. Each case in
//! [`on_both_backends!`](crate::on_both_backends) runs on SQLite and on PostgreSQL (on the throwaway
//! cluster `scripts/test.sh` starts; see [`crate::testing::TestBackend`]).
//! The rest are SQLite's own: its migrations from old files, its query
//! plans, its behaviour on a full disk.

use std::{collections::HashMap, sync::Arc, time::Duration};

use super::{backend::query, tokens::hash_secret, *};
use crate::{app::CatalogCache, testing::TestBackend};
use crate::{
    config::LimitsConfig,
    domain::{
        AppliedRejudging, Feedback, Payload, Principal, ProblemId, Progress, RejudgingState,
        RunUsage, SubmissionId, SubmissionState, TestcaseName, TestcaseOrigin, TestcaseResult,
        TokenId, Verdict,
    },
};

fn nim() -> ProblemId {
    "nim".parse().expect("a problem id")
}

fn name(text: &str) -> TestcaseName {
    text.parse().expect("a testcase name")
}

fn definition(hash: &str, testcase: &str) -> ProblemDefinition {
    ProblemDefinition {
        id: nim(),
        title: "Nim".into(),
        source: "nimjudge".into(),
        source_url: None,
        statement: String::new(),
        time_limit_ms: 2000,
        memory_limit_mib: 512,
        feedback: Feedback::Verdict,
        custom_checks: false,
        judge_all: false,
        practice_hints: true,
        groups: Vec::new(),
        case_sensitive: true,
        reference_solution: None,
        hash: hash.into(),
        testcases: vec![DefinedTestcase {
            name: name(testcase),
            input: "1\n1\n".into(),
            origin: TestcaseOrigin::Sample,
            answer: None,
            hidden: false,
        }],
    }
}

/// A fresh database on `backend` with the `nim` definition synced; the
/// folder (SQLite's) lives as long as the guard.
async fn fresh(backend: TestBackend) -> (Option<tempfile::TempDir>, Store) {
    let (dir, url) = match backend {
        TestBackend::Sqlite => {
            let dir = tempfile::tempdir().expect("temp dir");
            let url = format!(
                "sqlite://{}",
                dir.path().join("nested").join("test.db").display()
            );
            (Some(dir), url)
        }
        TestBackend::Postgres => (
            None,
            crate::testing::fresh_postgres_database()
                .await
                .expect("a fresh PostgreSQL database"),
        ),
    };
    let config = DatabaseConfig {
        url,
        read_connections: 2,
        busy_timeout: Duration::from_secs(5),
    };
    let store = Store::connect(&config)
        .await
        .expect("open a fresh database");
    store
        .sync_problem(&definition("h1", "sample-1"))
        .await
        .expect("sync");
    (dir, store)
}

async fn submit(store: &Store) -> SubmissionId {
    store
        .insert_submission(&NewSubmission {
            problem: &nim(),
            user: "carol",
            payload: &Payload::Answers {
                personal: None,
                answers: Default::default(),
            },
            contest: None,
        })
        .await
        .expect("insert")
        .id
}

/// The next job, which the test knows is there.
async fn claimed(store: &Store, worker: &str, lease: Duration) -> Claim {
    store
        .claim(worker, lease)
        .await
        .expect("claim")
        .expect("a job to claim")
}

fn verdict(verdict: Verdict) -> JudgementWrite {
    JudgementWrite {
        problem_version: 1,
        verdict,
        message: None,
        compile_output: None,
        group_scores: Some(vec![if verdict == Verdict::AC { 10_000 } else { 0 }]),
        results: vec![TestcaseResult {
            testcase: "sample-1".into(),
            hidden: false,
            verdict,
            time_us: 5,
            message: None,
            detail: None,
            run: None,
        }],
    }
}

async fn claims_take_the_oldest_job_once_and_expired_leases_first(backend: TestBackend) {
    let (_dir, store) = fresh(backend).await;
    let first = submit(&store).await;
    let second = submit(&store).await;
    let a = claimed(&store, "a", Duration::from_millis(30)).await;
    assert_eq!((a.id, a.attempt, a.tries), (first, 1, 1));
    tokio::time::sleep(Duration::from_millis(50)).await;
    let third = submit(&store).await;
    // The expired lease comes before the queued jobs.
    let b = claimed(&store, "b", Duration::from_secs(60)).await;
    assert_eq!((b.id, b.attempt, b.tries), (first, 2, 2));
    let c = store
        .claim("c", Duration::from_secs(60))
        .await
        .expect("claim");
    assert_eq!(c.map(|c| c.id), Some(second));
    let d = store
        .claim("d", Duration::from_secs(60))
        .await
        .expect("claim");
    assert_eq!(d.map(|d| d.id), Some(third));
    assert!(
        store
            .claim("e", Duration::from_secs(60))
            .await
            .expect("claim")
            .is_none()
    );
}

async fn a_problems_unjudged_count_follows_its_queue_and_a_rejudge(backend: TestBackend) {
    let (_dir, store) = fresh(backend).await;
    let unjudged =
        |store: Store| async move { store.unjudged_of_problem(&nim()).await.expect("count") };
    assert_eq!(unjudged(store.clone()).await, 0);
    for _ in 0..3 {
        submit(&store).await;
    }
    assert_eq!(unjudged(store.clone()).await, 3);
    // Running counts until its verdict is written.
    let claim = claimed(&store, "a", Duration::from_secs(60)).await;
    assert_eq!(unjudged(store.clone()).await, 3);
    assert!(
        store
            .finish(&claim, &verdict(Verdict::AC))
            .await
            .expect("finish")
    );
    assert_eq!(unjudged(store.clone()).await, 2);
    while let Some(claim) = store
        .claim("a", Duration::from_secs(60))
        .await
        .expect("claim")
    {
        store
            .finish(&claim, &verdict(Verdict::WA))
            .await
            .expect("finish");
    }
    assert_eq!(unjudged(store.clone()).await, 0);
    assert_eq!(
        store.rejudge_problem(&nim(), "sam").await.expect("rejudge"),
        3
    );
    assert_eq!(unjudged(store.clone()).await, 3);
    let other: ProblemId = "misere-nim".parse().expect("an id");
    assert_eq!(store.unjudged_of_problem(&other).await.expect("count"), 0);
}

async fn a_judgement_of_many_testcases_comes_back_whole_and_in_order(backend: TestBackend) {
    let (_dir, store) = fresh(backend).await;
    let id = submit(&store).await;
    let claim = claimed(&store, "a", Duration::from_secs(60)).await;
    // More rows than one insert statement takes, so the last chunk is short.
    let results: Vec<TestcaseResult> = (0..901)
        .map(|i: i64| TestcaseResult {
            testcase: format!("case-{i:04}"),
            hidden: i % 3 == 0,
            verdict: if i % 7 == 0 { Verdict::WA } else { Verdict::AC },
            time_us: i * 11,
            message: (i % 7 == 0).then(|| format!("token {i} differs")),
            detail: (i % 14 == 0).then(|| format!("expected {i}")),
            run: (i % 2 == 0).then_some(RunUsage {
                cpu_ms: i,
                wall_ms: i + 1,
                memory_kib: 1024 + i,
                exit_code: (i % 4 == 0).then_some(0),
                signal: (i % 4 == 2).then_some(11),
            }),
        })
        .collect();
    let judgement = JudgementWrite {
        results: results.clone(),
        ..verdict(Verdict::WA)
    };
    assert!(store.finish(&claim, &judgement).await.expect("finish"));
    let stored = store.judgements(&id).await.expect("read");
    assert_eq!(stored.len(), 1);
    assert_eq!(
        serde_json::to_value(&stored[0].results).expect("json"),
        serde_json::to_value(&results).expect("json")
    );
}

/// The latest judgements of many submissions, read a chunk at a time, are
/// each submission's last judgement as its own record reads it, in the
/// order asked, and nothing for a submission not judged yet.
async fn latest_judgements_are_each_records_last_in_the_order_asked(backend: TestBackend) {
    let (_dir, store) = fresh(backend).await;
    let judged_with = |i: usize, outcome: Verdict| JudgementWrite {
        results: (0..i % 4)
            .map(|case| TestcaseResult {
                testcase: format!("case-{case}"),
                hidden: case == 1,
                verdict: outcome,
                time_us: (i * 10 + case) as i64,
                message: Some(format!("case {case} of {i}")),
                detail: None,
                run: (case == 2).then_some(RunUsage {
                    cpu_ms: i as i64,
                    wall_ms: i as i64 + 1,
                    memory_kib: 2048,
                    exit_code: Some(0),
                    signal: None,
                }),
            })
            .collect(),
        ..verdict(outcome)
    };
    // More than one chunk, so the last one is padded.
    let count = super::queue::LATEST_JUDGEMENTS_CHUNK + 44;
    let mut judged = Vec::new();
    for i in (0..count).filter(|i| i % 5 != 4) {
        let id = submit(&store).await;
        judged.push(id);
        let claim = claimed(&store, "a", Duration::from_secs(60)).await;
        assert!(
            store
                .finish(&claim, &judged_with(i, Verdict::WA))
                .await
                .expect("finish")
        );
        if i % 7 == 0 {
            assert!(matches!(
                store.rejudge(&id, "admin").await.expect("rejudge"),
                RejudgeOutcome::Queued
            ));
            let claim = claimed(&store, "a", Duration::from_secs(60)).await;
            let again = judged_with(i + 1, Verdict::AC);
            assert!(store.finish(&claim, &again).await.expect("finish"));
        }
    }
    // Every fifth asked is queued, never judged.
    let (mut judged, mut ids) = (judged.into_iter(), Vec::new());
    for i in 0..count {
        ids.push(match i % 5 {
            4 => submit(&store).await,
            _ => judged.next().expect("a judged submission"),
        });
    }
    ids.reverse();
    let latest = store.latest_judgements(&ids).await.expect("read");
    let mut expected = Vec::new();
    for id in &ids {
        if let Some(last) = store.judgements(id).await.expect("record").pop() {
            expected.push((*id, last));
        }
    }
    assert_eq!(expected.len(), count - count / 5);
    assert_eq!(latest.len(), expected.len());
    for (read, (id, last)) in latest.iter().zip(&expected) {
        assert_eq!(read.submission, *id);
        assert_eq!(read.user, "carol");
        assert_eq!(read.problem, nim());
        assert_eq!(
            serde_json::to_value(&read.judgement).expect("json"),
            serde_json::to_value(last).expect("json")
        );
    }
    // A rejudged submission's latest is its second judgement.
    let rejudged = latest
        .iter()
        .filter(|l| l.judgement.verdict == Verdict::AC)
        .count();
    assert_eq!(
        rejudged,
        (0..count).filter(|i| i % 7 == 0 && i % 5 != 4).count()
    );
    assert!(store.latest_judgements(&[]).await.expect("none").is_empty());
}

/// A program's row carries its language from the start and, once judged,
/// the most CPU time and memory one of its runs took; answers carry none.
async fn a_programs_row_shows_its_language_and_the_most_its_runs_took(backend: TestBackend) {
    let (_dir, store) = fresh(backend).await;
    let program = Payload::Program {
        language: "cpp".parse().expect("a language id"),
        source: "int main() {}".into(),
    };
    let id = submit_payload(&store, &program).await;
    let queued = store.submission(&id).await.expect("read").expect("row");
    assert_eq!(queued.language.as_ref().map(|l| l.as_str()), Some("cpp"));
    assert_eq!((queued.max_cpu_ms, queued.max_memory_kib), (None, None));
    let claim = claimed(&store, "w", Duration::from_secs(60)).await;
    let run = |cpu_ms, memory_kib| TestcaseResult {
        testcase: format!("t{cpu_ms}"),
        hidden: false,
        verdict: Verdict::AC,
        time_us: 1,
        message: None,
        detail: None,
        run: Some(RunUsage {
            cpu_ms,
            wall_ms: cpu_ms,
            memory_kib,
            exit_code: Some(0),
            signal: None,
        }),
    };
    let judgement = JudgementWrite {
        results: vec![run(12, 4_000), run(30, 2_500), run(7, 9_000)],
        ..verdict(Verdict::AC)
    };
    assert!(store.finish(&claim, &judgement).await.expect("finish"));
    let judged = store.submission(&id).await.expect("read").expect("row");
    assert_eq!(
        (judged.max_cpu_ms, judged.max_memory_kib),
        (Some(30), Some(9_000))
    );
    let answers = submit(&store).await;
    let page = store
        .list_submissions(&ListFilter {
            limit: 10,
            ..ListFilter::default()
        })
        .await
        .expect("list");
    let listed: Vec<_> = page
        .submissions
        .iter()
        .map(|s| (s.id, s.language.clone(), s.max_cpu_ms, s.max_memory_kib))
        .collect();
    assert_eq!(
        listed,
        [
            (answers, None, None, None),
            (id, judged.language.clone(), Some(30), Some(9_000))
        ]
    );
}

async fn only_the_current_attempt_may_write_and_only_once(backend: TestBackend) {
    let (_dir, store) = fresh(backend).await;
    let id = submit(&store).await;
    let old = claimed(&store, "a", Duration::from_millis(1)).await;
    tokio::time::sleep(Duration::from_millis(10)).await;
    let new = claimed(&store, "b", Duration::from_secs(60)).await;
    assert!(
        !store
            .finish(&old, &verdict(Verdict::WA))
            .await
            .expect("finish")
    );
    assert!(
        store
            .finish(&new, &verdict(Verdict::AC))
            .await
            .expect("finish")
    );
    assert!(
        !store
            .finish(&new, &verdict(Verdict::AC))
            .await
            .expect("finish")
    );
    let judgements = store.judgements(&id).await.expect("judgements");
    assert_eq!(judgements.len(), 1);
    assert_eq!(judgements[0].results.len(), 1);
    let row = store.submission(&id).await.expect("read").expect("row");
    assert_eq!(row.state, SubmissionState::Done);
    assert_eq!(row.verdict, Some(Verdict::AC));
}

async fn submit_payload(store: &Store, payload: &Payload) -> SubmissionId {
    store
        .insert_submission(&NewSubmission {
            problem: &nim(),
            user: "carol",
            payload,
            contest: None,
        })
        .await
        .expect("insert")
        .id
}

async fn a_batch_claims_the_answers_in_a_row_and_writes_their_verdicts_fenced_each(
    backend: TestBackend,
) {
    let (_dir, store) = fresh(backend).await;
    let program = Payload::Program {
        language: "python".parse().expect("a language id"),
        source: "print(1)".into(),
    };
    let answers = [
        submit(&store).await,
        submit(&store).await,
        submit(&store).await,
    ];
    let program_id = submit_payload(&store, &program).await;
    let after = submit(&store).await;

    // The answers in a row, up to the program job, and no further.
    let batch = store
        .claim_batch("a", Duration::from_secs(60), 16)
        .await
        .expect("claim a batch");
    let ids: Vec<SubmissionId> = batch.iter().map(|c| c.id).collect();
    assert_eq!(ids, answers);
    assert!(batch.iter().all(|c| c.attempt == 1 && c.worker == "a"));
    // A program job is claimed alone, even with room for more.
    let alone = store
        .claim_batch("b", Duration::from_secs(60), 16)
        .await
        .expect("claim a batch");
    assert_eq!(alone.iter().map(|c| c.id).collect::<Vec<_>>(), [program_id]);
    // `max` bounds a batch.
    let next = store
        .claim_batch("c", Duration::from_secs(60), 1)
        .await
        .expect("claim a batch");
    assert_eq!(next.iter().map(|c| c.id).collect::<Vec<_>>(), [after]);

    // The second claim of the batch loses its lease to another attempt:
    // the batch's write keeps the other two and drops that one.
    let mut stale = batch[1].clone();
    stale.attempt += 1;
    let wa = verdict(Verdict::WA);
    let ac = verdict(Verdict::AC);
    let written = store
        .finish_batch(&[(&batch[0], &ac), (&stale, &wa), (&batch[2], &wa)])
        .await
        .expect("finish a batch");
    assert_eq!(written, [true, false, true]);
    for (id, expected) in [
        (answers[0], Some(Verdict::AC)),
        (answers[2], Some(Verdict::WA)),
    ] {
        let row = store.submission(&id).await.expect("read").expect("row");
        assert_eq!((row.state, row.verdict), (SubmissionState::Done, expected));
        let judgements = store.judgements(&id).await.expect("judgements");
        assert_eq!(judgements.len(), 1, "{id}");
        assert_eq!(judgements[0].verdict, expected.expect("a verdict"));
        assert_eq!(judgements[0].results.len(), 1);
        let kinds: Vec<EventKindText> = events_of(&store, &id).await;
        assert_eq!(kinds, ["queued", "claimed", "judged"], "{id}");
    }
    let row = store
        .submission(&answers[1])
        .await
        .expect("read")
        .expect("row");
    assert_eq!(row.state, SubmissionState::Running);
    assert!(
        store
            .judgements(&answers[1])
            .await
            .expect("judgements")
            .is_empty()
    );
    assert_eq!(
        events_of(&store, &answers[1]).await,
        ["queued", "claimed", "dropped"]
    );
    let tally = store.verdict_counts().await.expect("counts");
    assert_eq!(tally, [(Verdict::AC, 1), (Verdict::WA, 1)]);
}

/// The custom check the limit tests submit to nim.
fn custom_check() -> Payload {
    Payload::Custom {
        input: "1\n1\n".into(),
        output: "Alice".into(),
    }
}

/// `user`'s admission of [`custom_check`] under `limits`, with an
/// `Idempotency-Key` and its request's hash if given.
async fn admit_custom_check(
    store: &Store,
    user: &str,
    limits: Option<&LimitsConfig>,
    key: Option<(&str, &str)>,
) -> AdmissionOutcome {
    store
        .admit(&Admission {
            submission: NewSubmission {
                problem: &nim(),
                user,
                payload: &custom_check(),
                contest: None,
            },
            idempotency: key.map(|(key, request_hash)| IdempotencyKey { key, request_hash }),
            limits,
        })
        .await
        .expect("admit")
}

type EventKindText = &'static str;

/// The kinds of a submission's events, oldest first.
async fn events_of(store: &Store, id: &SubmissionId) -> Vec<EventKindText> {
    store
        .events(id)
        .await
        .expect("events")
        .iter()
        .map(|event| event.kind.as_str())
        .collect()
}

/// The progress a submission shows, and its two columns as stored.
async fn progress_of(store: &Store, id: &SubmissionId) -> (Option<Progress>, [Option<i64>; 2]) {
    let shown = store
        .submission(id)
        .await
        .expect("read")
        .expect("row")
        .progress;
    let row = backend::query("select progress_done, progress_total from submission where id = $1")
        .bind(id.to_string())
        .fetch_one(&store.read)
        .await
        .expect("read the columns");
    let stored = [
        row.try_get("progress_done").expect("done"),
        row.try_get("progress_total").expect("total"),
    ];
    (shown, stored)
}

async fn state_changes_write_their_events_and_a_verdict_counts_itself(backend: TestBackend) {
    let (_dir, store) = fresh(backend).await;
    let before = store.verdict_counts().await.expect("counts");
    let id = submit(&store).await;
    let lost = claimed(&store, "w1", Duration::from_millis(1)).await;
    tokio::time::sleep(Duration::from_millis(20)).await;
    let claim = claimed(&store, "w2", Duration::from_secs(60)).await;
    assert_eq!((claim.id, claim.tries), (id, 2));
    assert!(
        store
            .finish(&claim, &verdict(Verdict::WA))
            .await
            .expect("finish")
    );
    assert!(
        !store
            .finish(&lost, &verdict(Verdict::AC))
            .await
            .expect("finish")
    );
    let row = store.submission(&id).await.expect("read").expect("row");
    let events = store.events(&id).await.expect("events");
    let seen: Vec<(String, Option<&str>, Option<&str>)> = events
        .iter()
        .map(|e| (e.kind.to_string(), e.actor.as_deref(), e.detail.as_deref()))
        .collect();
    let judged_in = row
        .judged_at
        .expect("judged")
        .as_millisecond()
        .saturating_sub(claim.claimed_at);
    let after_queued = row
        .judged_at
        .expect("judged")
        .as_millisecond()
        .saturating_sub(claim.queued_at);
    let judged = format!("WA in {judged_in} ms ({after_queued} ms after it was queued)");
    assert_eq!(
        seen,
        [
            ("queued".to_string(), Some("carol"), None),
            ("claimed".to_string(), Some("w1"), Some("attempt 1")),
            (
                "lease_lost".to_string(),
                None,
                Some("the lease of attempt 1 expired")
            ),
            ("claimed".to_string(), Some("w2"), Some("attempt 2")),
            ("judged".to_string(), Some("w2"), Some(judged.as_str())),
            (
                "dropped".to_string(),
                Some("w1"),
                Some("attempt 1 finished after losing its lease")
            ),
        ]
    );
    // Each event carries the time of its change.
    let at = |kind: &str| {
        events
            .iter()
            .filter(|e| e.kind.to_string() == kind)
            .map(|e| e.created_at.as_millisecond())
            .collect::<Vec<_>>()
    };
    assert_eq!(at("queued"), [claim.queued_at]);
    assert_eq!(at("claimed"), [lost.claimed_at, claim.claimed_at]);
    assert_eq!(
        at("judged"),
        [row.judged_at.expect("judged").as_millisecond()]
    );
    let count = |tally: &[(Verdict, i64)], verdict: Verdict| {
        tally
            .iter()
            .find(|(v, _)| *v == verdict)
            .map_or(0, |(_, n)| *n)
    };
    let after = store.verdict_counts().await.expect("counts");
    assert_eq!(count(&after, Verdict::WA), count(&before, Verdict::WA) + 1);
    assert_eq!(count(&after, Verdict::AC), count(&before, Verdict::AC));
}

async fn a_claim_takes_at_most_its_max_and_never_more_than_the_cap(backend: TestBackend) {
    let (_dir, store) = fresh(backend).await;
    let total = queue::MAX_CLAIM_BATCH + 6;
    for _ in 0..total {
        submit(&store).await;
    }
    let lease = Duration::from_secs(60);
    let three = store.claim_batch("w", lease, 3).await.expect("claim");
    assert_eq!(three.len(), 3);
    let capped = store.claim_batch("w", lease, 1000).await.expect("claim");
    assert_eq!(capped.len(), queue::MAX_CLAIM_BATCH);
    let rest = store.claim_batch("w", lease, 1000).await.expect("claim");
    assert_eq!(rest.len(), total - 3 - queue::MAX_CLAIM_BATCH);
    assert!(
        store
            .claim_batch("w", lease, 1000)
            .await
            .expect("claim")
            .is_empty()
    );
}

async fn progress_is_recorded_only_by_the_attempt_holding_the_lease(backend: TestBackend) {
    let (_dir, store) = fresh(backend).await;
    let id = submit(&store).await;
    let progress = |done, total| Progress { done, total };
    assert_eq!(progress_of(&store, &id).await, (None, [None, None]));
    let old = claimed(&store, "a", Duration::from_millis(1)).await;
    assert!(
        store
            .record_progress(&old, progress(1, 3))
            .await
            .expect("record")
    );
    assert_eq!(
        progress_of(&store, &id).await,
        (Some(progress(1, 3)), [Some(1), Some(3)])
    );

    // Another attempt takes over: its claim starts from nothing, and the
    // old attempt's writes change nothing from then on.
    tokio::time::sleep(Duration::from_millis(10)).await;
    let new = claimed(&store, "b", Duration::from_secs(60)).await;
    assert_eq!(new.attempt, old.attempt + 1);
    assert_eq!(progress_of(&store, &id).await, (None, [None, None]));
    assert!(
        !store
            .record_progress(&old, progress(2, 3))
            .await
            .expect("record")
    );
    assert_eq!(progress_of(&store, &id).await, (None, [None, None]));
    assert!(
        store
            .record_progress(&new, progress(2, 3))
            .await
            .expect("record")
    );
    assert!(
        !store
            .record_progress(&old, progress(3, 3))
            .await
            .expect("record")
    );
    assert_eq!(
        progress_of(&store, &id).await,
        (Some(progress(2, 3)), [Some(2), Some(3)])
    );

    // Once judged there is no progress, and a late write changes nothing.
    assert!(
        store
            .finish(&new, &verdict(Verdict::AC))
            .await
            .expect("finish")
    );
    assert_eq!(progress_of(&store, &id).await, (None, [None, None]));
    assert!(
        !store
            .record_progress(&new, progress(3, 3))
            .await
            .expect("record")
    );
    assert_eq!(progress_of(&store, &id).await, (None, [None, None]));
}

async fn a_token_page_is_newest_first_and_its_cursor_reaches_every_token(backend: TestBackend) {
    let (_dir, store) = fresh(backend).await;
    let mut issued = Vec::new();
    for n in 0..5 {
        let token = store
            .create_token(&format!("user-{n}"), Role::Contestant, None)
            .await
            .expect("create");
        issued.push(token.id);
    }
    assert_eq!(
        store.revoke_token(issued[1]).await.expect("revoke"),
        Revocation::Revoked
    );
    let ids = |page: &TokenPage| page.tokens.iter().map(|t| t.id).collect::<Vec<_>>();
    let first = store.token_page(None, 2).await.expect("a page");
    assert_eq!(ids(&first), [issued[4], issued[3]]);
    assert_eq!(first.next_cursor, Some(issued[3]));
    let second = store
        .token_page(first.next_cursor, 2)
        .await
        .expect("a page");
    assert_eq!(ids(&second), [issued[2], issued[1]]);
    assert!(second.tokens[1].revoked_at.is_some(), "revoked ones listed");
    let third = store
        .token_page(second.next_cursor, 2)
        .await
        .expect("a page");
    assert_eq!(ids(&third), [issued[0]]);
    assert_eq!(third.next_cursor, None, "the last page");
    let whole = store.token_page(None, 50).await.expect("a page");
    let mut newest_first = issued.clone();
    newest_first.reverse();
    assert_eq!(ids(&whole), newest_first);
    assert_eq!(whole.next_cursor, None);
    // The page holds exactly what the full listing holds for those tokens.
    let listed = store.tokens().await.expect("list");
    assert_eq!(
        whole
            .tokens
            .iter()
            .rev()
            .map(|t| (&t.name, t.revoked_at))
            .collect::<Vec<_>>(),
        listed
            .iter()
            .map(|t| (&t.name, t.revoked_at))
            .collect::<Vec<_>>()
    );
}

/// SQLite's query plan of `statement`, one step a line.
async fn query_plan(store: &Store, statement: backend::Statement<'_>) -> Vec<String> {
    statement
        .explained(backend::Dialect::Sqlite)
        .fetch_all(&store.read)
        .await
        .expect("explain")
        .iter()
        .map(|row| row.try_get::<String>("detail").expect("detail"))
        .collect()
}

#[tokio::test]
async fn a_listing_by_contest_reads_its_index_not_every_submission() {
    let (_dir, store) = fresh(TestBackend::Sqlite).await;
    let filter = ListFilter {
        contest: Some("spring".parse().expect("an id")),
        limit: 50,
        ..ListFilter::default()
    };
    let plan = query_plan(
        &store,
        queue::list_statement(backend::Dialect::Sqlite, &filter),
    )
    .await;
    assert!(
        plan.iter()
            .any(|step| step.contains("USING INDEX submission_by_contest ")),
        "{plan:?}"
    );
    assert!(
        !plan.iter().any(|step| step.starts_with("SCAN submission")),
        "no walk of every submission: {plan:?}"
    );
    // What changed in it since a time (the event feed's look, every
    // second) is a range of its own index, not a walk of the contest.
    let changed = ListFilter {
        changed_since: Some(Timestamp::now()),
        before: Some(1000),
        ..filter
    };
    let plan = query_plan(
        &store,
        queue::list_statement(backend::Dialect::Sqlite, &changed),
    )
    .await;
    assert!(
        plan.iter().any(|step| step
            .contains("USING INDEX submission_changed_in_contest (contest_id=? AND <expr>>?)")),
        "{plan:?}"
    );
}

#[tokio::test]
async fn a_claim_finds_its_jobs_by_index_however_many_are_stored() {
    let (_dir, store) = fresh(TestBackend::Sqlite).await;
    let plan = query_plan(
        &store,
        queue::claim_statement(backend::Dialect::Sqlite, "w", 0, 1000, 16),
    )
    .await;
    assert!(
        !plan.iter().any(|step| step.starts_with("SCAN submission")),
        "no walk of every submission: {plan:?}"
    );
}

/// Every SQLite connection, writer and readers, keeps its temporary
/// storage (statement journals, sorts) in memory and its log in WAL.
#[tokio::test]
async fn sqlite_connections_keep_temporary_storage_in_memory() {
    let (_dir, store) = fresh(TestBackend::Sqlite).await;
    for pool in [&store.write, &store.read] {
        let temp_store: i64 = query("pragma temp_store")
            .fetch_one(pool)
            .await
            .expect("temp_store")
            .try_get("temp_store")
            .expect("column");
        assert_eq!(temp_store, 2, "2 is MEMORY");
        let journal: String = query("pragma journal_mode")
            .fetch_one(pool)
            .await
            .expect("journal_mode")
            .try_get("journal_mode")
            .expect("column");
        assert_eq!(journal, "wal");
    }
}

/// On PostgreSQL, a submission's results are found by the primary key
/// even before the tables were ever analyzed (a new database): no walk of
/// every result.
#[tokio::test]
#[ignore = "needs PostgreSQL; scripts/test.sh runs it"]
async fn postgres_reads_a_judgements_results_by_index_before_any_analyze() {
    let (_dir, store) = fresh(TestBackend::Postgres).await;
    // 4,000 judged submissions of 7 users, and their judgements.
    for fill in [
        "insert into submission (id, problem_id, user_name, kind, payload, size_bytes, state, \
         attempt, tries, worker, queued_at, verdict, judged_at, created_at, user_ordinal, \
         user_bytes) select gen_random_uuid()::text, 'nim', 'user-' || (i % 7), 'answers', \
         '{\"kind\":\"answers\",\"answers\":{}}', 30, 'done', 1, 1, 'w', i, 'WA', i, i, \
         i / 7 + 1, 30 * (i / 7 + 1) from generate_series(0, 3999) as i",
        "insert into judgement (submission_id, attempt, verdict, worker, problem_version, \
         duration_ms, created_at) select id, 1, verdict, worker, 1, 1, judged_at from submission",
    ] {
        query(fill).execute(&store.write).await.expect("a fill");
    }
    query(
        "insert into result (judgement_id, testcase, position, hidden, verdict, time_us, \
         created_at) select j.id, 'sample-' || g, g, false, 'AC', 1, 0 \
         from judgement j, generate_series(1, 5) g",
    )
    .execute(&store.write)
    .await
    .expect("results");
    let id: String = query("select submission_id from judgement order by id desc limit 1")
        .fetch_one(&store.read)
        .await
        .expect("a judged submission")
        .try_get("submission_id")
        .expect("column");
    let id: SubmissionId = id.parse().expect("an id");
    let plan: Vec<String> = queue::record_statement(backend::Dialect::Postgres, &id)
        .explained(backend::Dialect::Postgres)
        .fetch_all(&store.read)
        .await
        .expect("explain")
        .iter()
        .map(|row| row.try_get::<String>("QUERY PLAN").expect("a plan line"))
        .collect();
    assert!(
        !plan.iter().any(|step| step.contains("Seq Scan")),
        "{plan:#?}"
    );
    let judgements = store.judgements(&id).await.expect("read");
    assert_eq!(judgements.len(), 1);
    assert_eq!(judgements[0].results.len(), 5);
    assert_eq!(judgements[0].results[0].testcase, "sample-1");
}

/// On PostgreSQL the claim finds its rows by index even in a plan made
/// while the queue was empty and never analyzed (a new database): the
/// generic plan a prepared claim keeps while the table grows. At
/// PostgreSQL's default price of a random read, that plan walked every
/// submission (see `SESSION_DEFAULTS`).
#[tokio::test]
#[ignore = "needs PostgreSQL; scripts/test.sh runs it"]
async fn postgres_claims_by_index_in_a_plan_made_on_a_new_database() {
    let (_dir, store) = fresh(TestBackend::Postgres).await;
    let Pool::Postgres(pool) = &store.write else {
        panic!("a PostgreSQL store")
    };
    let mut connection = pool.acquire().await.expect("a pooled connection");
    let claim = queue::claim_statement(backend::Dialect::Postgres, "w", 0, 1000, 8);
    for setup in [
        "set plan_cache_mode = force_generic_plan".to_string(),
        format!("prepare generic_claim as {}", claim.sql()),
    ] {
        sqlx::query(sqlx::AssertSqlSafe(setup))
            .execute(&mut *connection)
            .await
            .expect("a generic claim prepared");
    }
    let plan: Vec<String> = sqlx::query_scalar("explain execute generic_claim('w', 0, 1000, 8)")
        .fetch_all(&mut *connection)
        .await
        .expect("explain");
    for cleanup in ["deallocate generic_claim", "reset plan_cache_mode"] {
        sqlx::query(cleanup)
            .execute(&mut *connection)
            .await
            .expect("cleanup");
    }
    assert!(
        !plan
            .iter()
            .any(|step| step.contains("Seq Scan on submission")),
        "{plan:#?}"
    );
    assert!(
        plan.iter().any(|step| step.contains("submission_pkey")),
        "the claimed rows are found by their key: {plan:#?}"
    );
}

#[tokio::test]
async fn a_token_page_walks_the_primary_key_newest_first() {
    let (_dir, store) = fresh(TestBackend::Sqlite).await;
    for before in [None, Some(TokenId(1000))] {
        let plan = query_plan(&store, tokens::token_page_statement(before, 50)).await;
        assert!(
            !plan.iter().any(|step| step.contains("TEMP B-TREE")),
            "no sort: {plan:?}"
        );
        if before.is_some() {
            assert!(
                plan.iter().any(|step| step.contains("INTEGER PRIMARY KEY")),
                "the cursor bounds a walk of the primary key: {plan:?}"
            );
        }
    }
}

async fn syncing_is_idempotent_and_keeps_setter_testcases(backend: TestBackend) {
    let (_dir, store) = fresh(backend).await;
    assert!(
        store
            .add_testcase(&nim(), &name("mine"), "1\n2\n", true, "sam")
            .await
            .expect("add")
    );
    assert!(
        !store
            .add_testcase(&nim(), &name("mine"), "1\n3\n", true, "sam")
            .await
            .expect("add")
    );
    let mut definition = definition("h1", "sample-1");
    let sync = store.sync_problem(&definition).await.expect("sync");
    assert_eq!(sync, SyncOutcome::Unchanged { version: 1 });
    definition.hash = "h2".into();
    definition.testcases[0].name = name("sample-2");
    let sync = store.sync_problem(&definition).await.expect("sync");
    assert_eq!(sync, SyncOutcome::Updated { version: 2 });
    let names: Vec<String> = store
        .testcases(&nim(), true)
        .await
        .expect("list")
        .into_iter()
        .map(|t| t.name.into())
        .collect();
    assert_eq!(names, ["mine", "sample-2"]);
    assert_eq!(store.testcases(&nim(), false).await.expect("list").len(), 1);
}

async fn a_setter_hides_and_shows_only_testcases_setters_added(backend: TestBackend) {
    let (_dir, store) = fresh(backend).await;
    store
        .add_testcase(&nim(), &name("mine"), "1\n2\n", false, "sam")
        .await
        .expect("add");
    let public = |store: Store| async move {
        let names: Vec<String> = store
            .testcases(&nim(), false)
            .await
            .expect("list")
            .into_iter()
            .map(|t| t.name.into())
            .collect();
        let judged = store
            .judge_testcases(&nim(), false)
            .await
            .expect("read")
            .expect("problem")
            .testcases
            .len();
        (names, judged)
    };
    assert_eq!(
        public(store.clone()).await,
        (vec!["mine".into(), "sample-1".into()], 2)
    );
    for hidden in [true, true] {
        assert_eq!(
            store
                .set_testcase_hidden(&nim(), &name("mine"), hidden)
                .await
                .expect("hide"),
            TestcaseChange::Done,
            "hiding twice is no error"
        );
    }
    // Hidden: neither listed for contestants nor judging answers; programs
    // still run on it.
    assert_eq!(public(store.clone()).await, (vec!["sample-1".into()], 1));
    let for_programs = store
        .judge_testcases(&nim(), true)
        .await
        .expect("read")
        .expect("problem")
        .testcases;
    assert!(
        for_programs
            .iter()
            .any(|t| t.name.as_str() == "mine" && t.hidden)
    );
    store
        .set_testcase_hidden(&nim(), &name("mine"), false)
        .await
        .expect("show");
    assert_eq!(
        public(store.clone()).await,
        (vec!["mine".into(), "sample-1".into()], 2)
    );
    // The problem folder's testcases and missing ones are refused, unchanged.
    assert_eq!(
        store
            .set_testcase_hidden(&nim(), &name("sample-1"), true)
            .await
            .expect("refused"),
        TestcaseChange::Bundled(TestcaseOrigin::Sample)
    );
    assert_eq!(
        store
            .set_testcase_hidden(&nim(), &name("nowhere"), true)
            .await
            .expect("refused"),
        TestcaseChange::Missing
    );
    assert_eq!(public(store).await.0, ["mine", "sample-1"]);
}

/// The revision a fresh read of `nim` is at.
async fn revision(store: &Store) -> i64 {
    store
        .judge_testcases(&nim(), false)
        .await
        .expect("read")
        .expect("problem")
        .revision
}

async fn every_catalog_change_moves_the_revision_a_claim_carries(backend: TestBackend) {
    let (_dir, store) = fresh(backend).await;
    let synced = revision(&store).await;
    submit(&store).await;
    assert_eq!(
        claimed(&store, "w", Duration::from_secs(60)).await.revision,
        synced
    );
    let mut last = synced;
    let mut moved = |now: i64, change: &str| {
        assert!(
            now > last,
            "{change} must move the revision ({last} → {now})"
        );
        last = now;
    };
    store
        .add_testcase(&nim(), &name("mine"), "1\n2\n", false, "sam")
        .await
        .expect("add");
    moved(revision(&store).await, "adding a testcase");
    store
        .set_testcase_hidden(&nim(), &name("mine"), true)
        .await
        .expect("hide");
    moved(revision(&store).await, "hiding a testcase");
    store
        .set_testcase_hidden(&nim(), &name("mine"), false)
        .await
        .expect("show");
    moved(revision(&store).await, "showing a testcase");
    store
        .delete_testcase(&nim(), &name("mine"))
        .await
        .expect("delete");
    moved(revision(&store).await, "deleting a testcase");
    store
        .sync_problem(&definition("h2", "sample-1"))
        .await
        .expect("sync");
    moved(revision(&store).await, "syncing a changed definition");
    store
        .sync_problem(&definition("h2", "sample-1"))
        .await
        .expect("sync");
    assert_eq!(
        revision(&store).await,
        last,
        "an unchanged sync changes nothing"
    );
    submit(&store).await;
    assert_eq!(
        claimed(&store, "w", Duration::from_secs(60)).await.revision,
        last
    );
}

/// The judge set of `nim` at `revision` or later through `cache`, which
/// the test knows exists.
async fn nim_judge_set(cache: &CatalogCache, store: &Store, revision: i64) -> Arc<JudgeSet> {
    cache
        .answer_testcases(store, &nim(), revision)
        .await
        .expect("read")
        .expect("problem")
}

/// The application's catalog cache over a store: every change to a problem
/// or its testcases moves its revision, so a kept set is exact.
async fn a_judge_set_is_kept_in_memory_until_the_revision_moves(backend: TestBackend) {
    let (_dir, store) = fresh(backend).await;
    let cache = CatalogCache::default();
    let at = revision(&store).await;
    let first = nim_judge_set(&cache, &store, at).await;
    assert!(first.testcases[0].reference.is_none(), "not computed yet");
    save_pending_reference(&store, "Alice\n").await;
    let output = |set: &JudgeSet| {
        set.testcases[0]
            .reference
            .as_ref()
            .and_then(|r| r.output.clone())
    };
    // An incomplete set was not kept: this read sees the reference.
    let complete = nim_judge_set(&cache, &store, at).await;
    assert_eq!(output(&complete).as_deref(), Some("Alice\n"));
    // A change behind the store's back (no revision) is not seen: the set
    // comes from memory.
    query("update reference set output = 'Bob\n'")
        .execute(&store.write)
        .await
        .expect("rewrite the reference");
    let kept = nim_judge_set(&cache, &store, at).await;
    assert!(Arc::ptr_eq(&kept, &complete), "the kept set");
    // A claim at a later revision reads again.
    store
        .add_testcase(&nim(), &name("mine"), "1\n2\n", false, "sam")
        .await
        .expect("add");
    let later = revision(&store).await;
    let fresh_set = nim_judge_set(&cache, &store, later).await;
    assert_eq!(fresh_set.revision, later);
    assert_eq!(fresh_set.testcases.len(), 2);
    assert_eq!(output(&fresh_set).as_deref(), Some("Bob\n"));
    // That set is not complete ("mine" has no reference), so it was not
    // kept; a claim made before the change still gets the set of its time.
    assert!(Arc::ptr_eq(
        &nim_judge_set(&cache, &store, at).await,
        &complete
    ));
    let names: Vec<&str> = fresh_set
        .testcases
        .iter()
        .map(|t| t.name.as_str())
        .collect();
    assert_eq!(names, ["sample-1", "mine"], "samples first");
    assert!(
        cache
            .answer_testcases(&store, &"xy-game".parse().expect("id"), 1)
            .await
            .expect("read")
            .is_none()
    );
}

/// The submission rules of `nim`, which the test knows exists.
async fn nim_rules(store: &Store) -> SubmissionRules {
    store
        .submission_rules(&nim())
        .await
        .expect("read")
        .expect("problem")
}

async fn submission_rules_follow_every_catalog_change_at_once(backend: TestBackend) {
    let (_dir, store) = fresh(backend).await;
    let public = |rules: &SubmissionRules| -> Vec<String> {
        rules
            .public_testcases
            .iter()
            .map(|t| t.to_string())
            .collect()
    };
    let rules = nim_rules(&store).await;
    assert_eq!(public(&rules), ["sample-1"]);
    assert_eq!(
        (rules.custom_checks, rules.feedback),
        (false, Feedback::Verdict)
    );
    store
        .add_testcase(&nim(), &name("mine"), "1\n2\n", false, "sam")
        .await
        .expect("add");
    let rules = nim_rules(&store).await;
    assert_eq!(public(&rules), ["mine", "sample-1"], "seen at once");
    store
        .set_testcase_hidden(&nim(), &name("mine"), true)
        .await
        .expect("hide");
    let rules = nim_rules(&store).await;
    assert_eq!(
        public(&rules),
        ["sample-1"],
        "a hidden one may not be answered"
    );
    let mut changed = definition("h2", "sample-1");
    changed.feedback = Feedback::Full;
    changed.custom_checks = true;
    store.sync_problem(&changed).await.expect("sync");
    let rules = nim_rules(&store).await;
    assert_eq!(
        (rules.custom_checks, rules.feedback),
        (true, Feedback::Full)
    );
    // A change by another process (here behind the store's back) too.
    query("update problem set feedback = 'none'")
        .execute(&store.write)
        .await
        .expect("change the feedback");
    let rules = nim_rules(&store).await;
    assert_eq!(rules.feedback, Feedback::None);
    assert!(
        store
            .submission_rules(&"xy-game".parse().expect("id"))
            .await
            .expect("read")
            .is_none()
    );
}

/// Saves `output` as the reference of the one testcase whose reference is
/// missing (the test knows there is one); returns that testcase.
async fn save_pending_reference(store: &Store, output: &str) -> PendingReference {
    let pending = store
        .pending_reference(true)
        .await
        .expect("pending")
        .expect("one is missing");
    let reference = ReferenceRow {
        output: Some(output.into()),
        error: None,
    };
    store
        .save_reference(pending.testcase_id, pending.problem_version, &reference, 1)
        .await
        .expect("save");
    pending
}

async fn the_first_reference_for_a_version_wins(backend: TestBackend) {
    let (_dir, store) = fresh(backend).await;
    let pending = save_pending_reference(&store, "Alice\n").await;
    let second = ReferenceRow {
        output: Some("Bob\n".into()),
        error: None,
    };
    store
        .save_reference(pending.testcase_id, pending.problem_version, &second, 1)
        .await
        .expect("save");
    assert!(
        store
            .pending_reference(true)
            .await
            .expect("pending")
            .is_none()
    );
    let testcases = store
        .judge_testcases(&nim(), false)
        .await
        .expect("read")
        .expect("problem")
        .testcases;
    let cached = testcases[0].reference.as_ref().expect("cached");
    assert_eq!(cached.output.as_deref(), Some("Alice\n"));
    assert_eq!(
        testcases[0].input, None,
        "inputs are not loaded once cached"
    );
}

async fn a_reference_for_a_testcase_deleted_while_it_was_computed_is_dropped(backend: TestBackend) {
    let (_dir, store) = fresh(backend).await;
    store
        .add_testcase(&nim(), &name("mine"), "1\n2\n", true, "sam")
        .await
        .expect("add");
    let JudgeSet {
        version, testcases, ..
    } = store
        .judge_testcases(&nim(), true)
        .await
        .expect("read")
        .expect("problem");
    let mine = testcases
        .iter()
        .find(|t| t.name.as_str() == "mine")
        .expect("the setter's testcase");
    // A worker has read the testcase and is computing its reference when a
    // setter deletes it.
    assert_eq!(
        store
            .delete_testcase(&nim(), &name("mine"))
            .await
            .expect("delete"),
        TestcaseChange::Done
    );
    let reference = ReferenceRow {
        output: Some("Alice\n".into()),
        error: None,
    };
    let stored = store
        .save_reference(mine.id, version, &reference, 1)
        .await
        .expect("saving a reference for a deleted testcase is not an error");
    assert!(!stored, "nothing is stored for a testcase that is gone");
    let orphans: i64 = backend::query("select count(*) as n from reference where testcase_id = $1")
        .bind(mine.id)
        .fetch_one(&store.write)
        .await
        .expect("count")
        .try_get("n")
        .expect("n");
    assert_eq!(orphans, 0);
}

async fn tokens_are_stored_hashed_and_resolve_to_their_role(backend: TestBackend) {
    let (_dir, store) = fresh(backend).await;
    let issued = store
        .create_token("sam", Role::Setter, None)
        .await
        .expect("create");
    let secret = issued.secret;
    let principal = store.principal(&secret).await.expect("lookup");
    assert_eq!(
        principal,
        Some((
            issued.id,
            Principal {
                name: "sam".into(),
                role: Role::Setter
            }
        ))
    );
    assert_eq!(store.principal("nj_wrong").await.expect("lookup"), None);
    let stored: Vec<String> = backend::query("select hash from token")
        .fetch_all(&store.read)
        .await
        .expect("read")
        .iter()
        .map(|r| r.try_get("hash").expect("hash"))
        .collect();
    assert_eq!(stored, [hash_secret(&secret)]);
    assert_eq!(stored[0].len(), 64, "a sha256 in hex");
    assert!(!stored.contains(&secret));
}

async fn a_revoked_or_expired_token_no_longer_authenticates_and_a_name_keeps_one_role(
    backend: TestBackend,
) {
    let (_dir, store) = fresh(backend).await;
    let now = Timestamp::now();
    let lasting = store
        .create_token(
            "ann",
            Role::Contestant,
            Some(now + jiff::SignedDuration::from_hours(1)),
        )
        .await
        .expect("create");
    let expired = store
        .create_token(
            "ann",
            Role::Contestant,
            Some(now - jiff::SignedDuration::from_secs(1)),
        )
        .await
        .expect("a second token for the same user and role");
    assert!(
        store
            .principal(&lasting.secret)
            .await
            .expect("lookup")
            .is_some()
    );
    assert_eq!(
        store.principal(&expired.secret).await.expect("lookup"),
        None
    );
    assert_eq!(
        store.revoke_token(lasting.id).await.expect("revoke"),
        tokens::Revocation::Revoked
    );
    assert_eq!(
        store.principal(&lasting.secret).await.expect("lookup"),
        None
    );
    assert_eq!(
        store.revoke_token(lasting.id).await.expect("revoke"),
        tokens::Revocation::AlreadyRevoked
    );
    assert_eq!(
        store.revoke_token(TokenId(999)).await.expect("revoke"),
        tokens::Revocation::NotFound
    );
    let listed = store.tokens().await.expect("list");
    assert_eq!(listed.len(), 2);
    assert!(listed[0].revoked_at.is_some() && !listed[0].is_active(now));
    assert!(listed[1].revoked_at.is_none() && !listed[1].is_active(now));
    let err = store
        .create_token("ann", Role::Admin, None)
        .await
        .expect_err("ann is a contestant");
    assert!(
        matches!(
            err,
            StoreError::NameTaken {
                role: Role::Contestant,
                ..
            }
        ),
        "{err}"
    );
}

async fn admission_counts_limits_from_the_database_and_replays_idempotent_requests(
    backend: TestBackend,
) {
    let (_dir, store) = fresh(backend).await;
    store
        .sync_problem(&definition("h1", "sample-1"))
        .await
        .expect("sync");
    let admit = |user: &'static str,
                 limits: Option<LimitsConfig>,
                 key: Option<(&'static str, &'static str)>| {
        let store = store.clone();
        async move { admit_custom_check(&store, user, limits.as_ref(), key).await }
    };
    let pending = LimitsConfig {
        pending_submissions: Some(2),
        ..LimitsConfig::default()
    };
    for _ in 0..2 {
        assert!(matches!(
            admit("ann", Some(pending), None).await,
            AdmissionOutcome::Queued(_)
        ));
    }
    let AdmissionOutcome::Limited(exceeded) = admit("ann", Some(pending), None).await else {
        panic!("a third pending submission is refused");
    };
    assert_eq!(exceeded.limit, UserLimit::PendingSubmissions(2));
    assert!(
        matches!(
            admit("bob", Some(pending), None).await,
            AdmissionOutcome::Queued(_)
        ),
        "limits are per user"
    );
    assert!(
        matches!(admit("ann", None, None).await, AdmissionOutcome::Queued(_)),
        "no limits (an admin)"
    );
    let per_minute = LimitsConfig {
        submissions_per_minute: Some(3),
        ..LimitsConfig::default()
    };
    let AdmissionOutcome::Limited(exceeded) = admit("ann", Some(per_minute), None).await else {
        panic!("ann made 3 submissions this minute");
    };
    assert_eq!(exceeded.limit, UserLimit::SubmissionsPerMinute(3));
    assert!(
        exceeded.retry_after > Duration::from_secs(50),
        "{exceeded:?}"
    );
    assert!(
        exceeded.retry_after <= Duration::from_secs(60),
        "{exceeded:?}"
    );
    let size = serde_json::to_vec(&custom_check()).expect("json").len() as u64;
    let bytes = LimitsConfig {
        bytes_per_day: Some(3 * size + size / 2),
        ..LimitsConfig::default()
    };
    let AdmissionOutcome::Limited(exceeded) = admit("ann", Some(bytes), None).await else {
        panic!("ann sent 3 payloads today; a fourth does not fit");
    };
    assert_eq!(exceeded.limit, UserLimit::BytesPerDay(3 * size + size / 2));
    assert!(
        exceeded.retry_after > Duration::from_secs(23 * 3600),
        "{exceeded:?}"
    );

    let AdmissionOutcome::Queued(first) = admit("bob", None, Some(("k1", "hash-a"))).await else {
        panic!("a new key");
    };
    let AdmissionOutcome::Replayed(again) =
        admit("bob", Some(pending), Some(("k1", "hash-a"))).await
    else {
        panic!("the same key and request replay, even over a limit");
    };
    assert_eq!(again, first.id);
    let AdmissionOutcome::KeyReused(earlier) = admit("bob", None, Some(("k1", "hash-b"))).await
    else {
        panic!("the same key with another request is refused");
    };
    assert_eq!(earlier, first.id);
    assert!(
        matches!(
            admit("ann", None, Some(("k1", "hash-b"))).await,
            AdmissionOutcome::Queued(_)
        ),
        "keys are per user"
    );
    assert_eq!(
        store
            .idempotent_submission("bob", "k1")
            .await
            .expect("read"),
        Some((first.id, "hash-a".to_string()))
    );
}

/// A user's windowed limits read the user's latest submission and the first
/// one in the window (`user_ordinal`, `user_bytes`), so they count exactly
/// the submissions inside the window, the user's own only.
async fn limit_windows_count_from_the_users_first_submission_in_them(backend: TestBackend) {
    let (_dir, store) = fresh(backend).await;
    let size =
        i64::try_from(serde_json::to_vec(&custom_check()).expect("json").len()).expect("size");
    let admit = |user: &'static str, limits: Option<LimitsConfig>| {
        let store = store.clone();
        async move { admit_custom_check(&store, user, limits.as_ref(), None).await }
    };
    for user in ["ann", "bob", "ann", "ann", "bob", "ann", "ann"] {
        assert!(matches!(
            admit(user, None).await,
            AdmissionOutcome::Queued(_)
        ));
    }
    let totals = |user: &'static str| {
        let store = store.clone();
        async move {
            query(
                "select user_ordinal, user_bytes from submission where user_name = $1 \
                 order by seq",
            )
            .bind(user)
            .fetch_all(&store.read)
            .await
            .expect("read")
            .iter()
            .map(|row| {
                (
                    row.try_get::<i64>("user_ordinal").expect("ordinal"),
                    row.try_get::<i64>("user_bytes").expect("bytes"),
                )
            })
            .collect::<Vec<_>>()
        }
    };
    assert_eq!(
        totals("ann").await,
        (1..=5).map(|n| (n, n * size)).collect::<Vec<_>>()
    );
    assert_eq!(totals("bob").await, [(1, size), (2, 2 * size)]);
    // Ann's first submission is two days old, her second and third two
    // minutes: two of hers are in the last minute, four in the last day.
    for (ordinal, age_ms) in [(1, 2 * 24 * 3_600_000), (2, 120_000), (3, 120_000)] {
        query(
            "update submission set created_at = created_at - $1 \
             where user_name = 'ann' and user_ordinal = $2",
        )
        .bind(age_ms)
        .bind(ordinal)
        .execute(&store.write)
        .await
        .expect("age a submission");
    }
    let per_minute = LimitsConfig {
        submissions_per_minute: Some(3),
        ..LimitsConfig::default()
    };
    assert!(
        matches!(
            admit("ann", Some(per_minute)).await,
            AdmissionOutcome::Queued(_)
        ),
        "two in the last minute, a third fits"
    );
    let AdmissionOutcome::Limited(exceeded) = admit("ann", Some(per_minute)).await else {
        panic!("three in the last minute, a fourth does not fit");
    };
    assert_eq!(exceeded.limit, UserLimit::SubmissionsPerMinute(3));
    let per_day = LimitsConfig {
        bytes_per_day: Some(u64::try_from(6 * size).expect("bytes")),
        ..LimitsConfig::default()
    };
    assert!(
        matches!(
            admit("ann", Some(per_day)).await,
            AdmissionOutcome::Queued(_)
        ),
        "five payloads in the last day, a sixth fits"
    );
    let AdmissionOutcome::Limited(exceeded) = admit("ann", Some(per_day)).await else {
        panic!("six payloads in the last day, a seventh does not fit");
    };
    assert_eq!(
        exceeded.limit,
        UserLimit::BytesPerDay(u64::try_from(6 * size).expect("bytes"))
    );
    assert_eq!(
        totals("ann").await,
        (1..=7).map(|n| (n, n * size)).collect::<Vec<_>>(),
        "refused ones take no place"
    );
}

/// Admissions sent at once go in together (one transaction for those
/// waiting), and each is decided as if it were alone: the limits count the
/// ones before it in the same transaction, and so do idempotency keys.
async fn admissions_arriving_together_are_each_decided_as_if_alone(backend: TestBackend) {
    let (_dir, store) = fresh(backend).await;
    let per_minute = LimitsConfig {
        submissions_per_minute: Some(5),
        ..LimitsConfig::default()
    };
    let mut tasks = tokio::task::JoinSet::new();
    let users = std::iter::repeat_n("ann", 12).chain(std::iter::repeat_n("bob", 4));
    for (index, user) in users.enumerate() {
        let store = store.clone();
        tasks.spawn(async move {
            let payload = Payload::Custom {
                input: "1\n1\n".into(),
                output: format!("answer {index}"),
            };
            let outcome = store
                .admit(&Admission {
                    submission: NewSubmission {
                        problem: &nim(),
                        user,
                        payload: &payload,
                        contest: None,
                    },
                    idempotency: None,
                    limits: Some(&per_minute),
                })
                .await
                .expect("admit");
            (user, outcome)
        });
    }
    for (index, hash) in ["same", "same", "same", "same", "other"]
        .into_iter()
        .enumerate()
    {
        let store = store.clone();
        tasks.spawn(async move {
            let payload = Payload::Answers {
                personal: None,
                answers: Default::default(),
            };
            let outcome = store
                .admit(&Admission {
                    submission: NewSubmission {
                        problem: &nim(),
                        user: "cat",
                        payload: &payload,
                        contest: None,
                    },
                    idempotency: Some(IdempotencyKey {
                        key: "k",
                        request_hash: hash,
                    }),
                    limits: None,
                })
                .await
                .expect("admit");
            (if index < 4 { "cat" } else { "cat, other" }, outcome)
        });
    }
    let outcomes = tasks.join_all().await;
    let queued = |user: &str| {
        outcomes
            .iter()
            .filter(|(who, outcome)| *who == user && matches!(outcome, AdmissionOutcome::Queued(_)))
            .count()
    };
    assert_eq!(queued("ann"), 5, "{outcomes:?}");
    assert_eq!(queued("bob"), 4, "limits are per user: {outcomes:?}");
    for (_, outcome) in outcomes.iter().filter(|(who, _)| *who == "ann") {
        if let AdmissionOutcome::Limited(exceeded) = outcome {
            assert_eq!(exceeded.limit, UserLimit::SubmissionsPerMinute(5));
            assert!(
                exceeded.retry_after > Duration::from_secs(50)
                    && exceeded.retry_after <= Duration::from_secs(60),
                "{exceeded:?}"
            );
        } else {
            assert!(
                matches!(outcome, AdmissionOutcome::Queued(_)),
                "{outcome:?}"
            );
        }
    }
    // One of the four same requests under one key is stored; the others
    // replay it, and the other request under that key is refused.
    let (stored, _) = store
        .idempotent_submission("cat", "k")
        .await
        .expect("read")
        .expect("the key was stored");
    let mut cats = outcomes
        .iter()
        .filter(|(who, _)| who.starts_with("cat"))
        .map(|(who, outcome)| match outcome {
            AdmissionOutcome::Queued(row) if row.id == stored => "queued",
            AdmissionOutcome::Replayed(id) if *id == stored => "replayed",
            AdmissionOutcome::KeyReused(id) if *id == stored => "refused",
            _ => panic!("unexpected for {who}: {outcome:?}"),
        })
        .collect::<Vec<_>>();
    cats.sort_unstable();
    // "other" may come first and be stored: then the four are refused.
    assert!(
        cats == ["queued", "refused", "replayed", "replayed", "replayed"]
            || cats == ["queued", "refused", "refused", "refused", "refused"],
        "{cats:?}"
    );
    let listed = store
        .list_submissions(&ListFilter {
            limit: 100,
            ..ListFilter::default()
        })
        .await
        .expect("list");
    assert_eq!(listed.submissions.len(), 5 + 4 + 1);
    // Newest first: created_at never increases down the list.
    assert!(
        listed
            .submissions
            .windows(2)
            .all(|pair| pair[0].created_at >= pair[1].created_at)
    );
}

async fn a_payload_comes_back_as_stored_and_a_corrupt_one_is_reported_not_guessed(
    backend: TestBackend,
) {
    let (_dir, store) = fresh(backend).await;
    let payload = Payload::Custom {
        input: "1\n3\n".into(),
        output: "Alice".into(),
    };
    let id = store
        .insert_submission(&NewSubmission {
            problem: &nim(),
            user: "carol",
            payload: &payload,
            contest: None,
        })
        .await
        .expect("insert")
        .id;
    let claim = claimed(&store, "a", Duration::from_secs(60)).await;
    assert_eq!(claim.id, id);
    assert_eq!(claim.payload, Ok(payload));
    assert!(
        store
            .finish(&claim, &verdict(Verdict::AC))
            .await
            .expect("finish")
    );

    // A row whose payload disagrees with its kind column.
    let id = submit(&store).await;
    backend::query("update submission set payload = '{\"kind\":\"custom\",\"input\":\"\",\"output\":\"\"}' where id = $1")
        .bind(id.to_string())
        .execute(&store.write)
        .await
        .expect("corrupt the row");
    let claim = claimed(&store, "a", Duration::from_secs(60)).await;
    let error = claim.payload.expect_err("a mismatched kind");
    assert!(
        error.contains("of kind `custom` but the row says `answers`"),
        "{error}"
    );
}

/// Showing what a submission sent reads the sizes stored with an answers
/// or custom payload, never the payload (here made unreadable after the
/// insert); a program's is its payload, and so is a row stored without
/// sizes (before they were kept).
async fn a_submissions_content_is_its_stored_sizes_or_else_its_payload(backend: TestBackend) {
    use crate::{
        domain::{LanguageId, PayloadSizes, TestcaseName},
        store::SentContent,
    };
    let (_dir, store) = fresh(backend).await;
    let insert = |payload: Payload| {
        let store = store.clone();
        async move {
            store
                .insert_submission(&NewSubmission {
                    problem: &nim(),
                    user: "carol",
                    payload: &payload,
                    contest: None,
                })
                .await
                .expect("insert")
                .id
        }
    };
    let content = |id: SubmissionId| {
        let store = store.clone();
        async move {
            let (user, content) = store
                .submission_content(&id)
                .await
                .expect("read")
                .expect("stored");
            assert_eq!(user, "carol");
            content
        }
    };
    let testcase: TestcaseName = "sample-1".parse().expect("a name");
    let answers = insert(Payload::Answers {
        personal: None,
        answers: [(testcase.clone(), "Alice\n".to_string())].into(),
    })
    .await;
    let custom = insert(Payload::Custom {
        input: "1\n3\n".into(),
        output: "Alice".into(),
    })
    .await;
    let program = Payload::Program {
        language: "python".parse::<LanguageId>().expect("a language"),
        source: "print(1)\n".into(),
    };
    let program_id = insert(program.clone()).await;
    backend::query("update submission set payload = 'not json' where id in ($1, $2)")
        .bind(answers.to_string())
        .bind(custom.to_string())
        .execute(&store.write)
        .await
        .expect("spoil the payloads");
    assert_eq!(
        content(answers).await,
        Ok(SentContent::Sizes(PayloadSizes::Answers {
            answers: [(testcase, 6)].into()
        }))
    );
    assert_eq!(
        content(custom).await,
        Ok(SentContent::Sizes(PayloadSizes::Custom {
            input: 4,
            output: 5
        }))
    );
    assert_eq!(content(program_id).await, Ok(SentContent::Payload(program)));
    let before_sizes = insert(Payload::Custom {
        input: "1\n1\n".into(),
        output: "Bob".into(),
    })
    .await;
    backend::query("update submission set payload_sizes = null where id = $1")
        .bind(before_sizes.to_string())
        .execute(&store.write)
        .await
        .expect("a row as stored before sizes");
    assert_eq!(
        content(before_sizes).await,
        Ok(SentContent::Payload(Payload::Custom {
            input: "1\n1\n".into(),
            output: "Bob".into(),
        }))
    );
}

async fn every_listing_filter_and_the_cursor_work_together(backend: TestBackend) {
    let (_dir, store) = fresh(backend).await;
    let mut ids = Vec::new();
    for _ in 0..5 {
        ids.push(submit(&store).await);
    }
    for verdict_of in [Verdict::AC, Verdict::WA] {
        let claim = claimed(&store, "a", Duration::from_secs(60)).await;
        assert!(
            store
                .finish(&claim, &verdict(verdict_of))
                .await
                .expect("finish")
        );
    }
    let page = |before, limit, verdict_of| ListFilter {
        problem: Some(nim()),
        verdict: verdict_of,
        user: Some("carol".into()),
        since: Some(Timestamp::UNIX_EPOCH),
        before,
        limit,
        contest: None,
        changed_since: None,
    };
    let first = store
        .list_submissions(&page(None, 3, None))
        .await
        .expect("list");
    let seen: Vec<SubmissionId> = first.submissions.iter().map(|s| s.id).collect();
    assert_eq!(seen, [ids[4], ids[3], ids[2]], "newest first");
    let rest = store
        .list_submissions(&page(first.next_cursor, 3, None))
        .await
        .expect("list");
    let seen: Vec<SubmissionId> = rest.submissions.iter().map(|s| s.id).collect();
    assert_eq!(seen, [ids[1], ids[0]]);
    assert_eq!(rest.next_cursor, None, "the last page");
    let wrong = store
        .list_submissions(&page(None, 10, Some(Verdict::WA)))
        .await
        .expect("list");
    assert_eq!(wrong.submissions.len(), 1);
    assert_eq!(wrong.submissions[0].id, ids[1]);
    let future = ListFilter {
        since: Some(Timestamp::now() + jiff::SignedDuration::from_hours(1)),
        ..page(None, 10, None)
    };
    assert!(
        store
            .list_submissions(&future)
            .await
            .expect("list")
            .submissions
            .is_empty()
    );
}

/// A SQLite database in `dir` as the first `applied` migrations left it,
/// for the tests of later migrations; the pool is the caller's to fill
/// and close.
async fn old_sqlite_database(
    dir: &tempfile::TempDir,
    applied: usize,
) -> (DatabaseConfig, sqlx::SqlitePool) {
    let config = DatabaseConfig {
        url: format!("sqlite://{}", dir.path().join("old.db").display()),
        read_connections: 1,
        busy_timeout: Duration::from_secs(5),
    };
    let options = sqlx::sqlite::SqliteConnectOptions::from_str(&config.url)
        .expect("url")
        .create_if_missing(true);
    let pool = sqlx::SqlitePool::connect_with(options).await.expect("open");
    let mut before = sqlx::migrate!("migrations/sqlite");
    before.migrations = std::borrow::Cow::Owned(before.migrations[..applied].to_vec());
    before
        .run(&pool)
        .await
        .unwrap_or_else(|e| panic!("migrations 1 to {applied}: {e}"));
    (config, pool)
}

/// The end of the tests of an admission that read before another
/// process's (or host's) insert for ann: `admitting` was decided again and
/// limited by the per-minute limit of two, counting the other's
/// submission, and ann's next submission is numbered after it.
async fn decided_again_after_the_other(
    store: &Store,
    admitting: tokio::task::JoinHandle<AdmissionOutcome>,
    other: &str,
) {
    let AdmissionOutcome::Limited(exceeded) = admitting.await.expect("the admission") else {
        panic!("ann has two submissions in the last minute, one of them the other {other}'s");
    };
    assert_eq!(exceeded.limit, UserLimit::SubmissionsPerMinute(2));

    let AdmissionOutcome::Queued(third) = admit_custom_check(store, "ann", None, None).await else {
        panic!("no limits");
    };
    let rows = query(
        "select id, user_ordinal from submission where user_name = 'ann' order by user_ordinal",
    )
    .fetch_all(&store.read)
    .await
    .expect("ordinals");
    let ordinals: Vec<(String, i64)> = rows
        .iter()
        .map(|row| {
            (
                row.try_get("id").expect("id"),
                row.try_get("user_ordinal").expect("ordinal"),
            )
        })
        .collect();
    assert_eq!(
        ordinals
            .iter()
            .map(|(_, ordinal)| *ordinal)
            .collect::<Vec<_>>(),
        [1, 2, 3]
    );
    assert_eq!(ordinals[2].0, third.id.to_string());
}

/// On SQLite an admission reads the user's latest submission before its
/// write transaction. Here another process admits for the same user in
/// between (a connection of its own, holding the write lock across its
/// insert while the admission reads): the admission's insert meets the
/// unique index of the user's ordinals, stores nothing, and the admission
/// is decided again holding the lock, so the per-minute limit counts the
/// other process's submission and the next one is numbered after it.
#[tokio::test]
async fn an_admission_that_read_before_another_processs_insert_is_decided_again() {
    use sqlx::Connection as _;
    let (dir, store) = fresh(TestBackend::Sqlite).await;
    let path = dir
        .as_ref()
        .expect("a folder")
        .path()
        .join("nested")
        .join("test.db");
    store
        .sync_problem(&definition("h1", "sample-1"))
        .await
        .expect("sync");
    let per_minute = LimitsConfig {
        submissions_per_minute: Some(2),
        ..LimitsConfig::default()
    };
    let admit = |limits: Option<LimitsConfig>| {
        let store = store.clone();
        async move { admit_custom_check(&store, "ann", limits.as_ref(), None).await }
    };
    assert!(matches!(
        admit(Some(per_minute)).await,
        AdmissionOutcome::Queued(_)
    ));

    let mut other = sqlx::SqliteConnection::connect(&format!("sqlite://{}", path.display()))
        .await
        .expect("another connection");
    sqlx::query("begin immediate")
        .execute(&mut other)
        .await
        .expect("begin");
    sqlx::query(
        "insert into submission (id, problem_id, user_name, kind, payload, size_bytes, state, \
         queued_at, user_ordinal, user_bytes, created_at) \
         values ('67e55044-10b1-426f-9247-bb680e5fe0c8', 'nim', 'ann', 'custom', '{}', 2, \
         'queued', ?1, 2, 2, ?1)",
    )
    .bind(now_ms())
    .execute(&mut other)
    .await
    .expect("the other process's submission");
    let admitting = tokio::spawn(admit(Some(per_minute)));
    // The admission reads (ann has one submission) and then waits for
    // the write lock the other connection holds.
    tokio::time::sleep(Duration::from_millis(300)).await;
    sqlx::query("commit")
        .execute(&mut other)
        .await
        .expect("commit");
    decided_again_after_the_other(&store, admitting, "process").await;
}

/// On PostgreSQL an admission reads its users' counts before its insert,
/// and the insert takes the turn in its own statement. Here another host
/// admits for the same user in between (a connection of its own, holding
/// the turn across its insert while the admission reads): the admission's
/// turn finds ann's latest submission changed, its statement stores
/// nothing, and the admission is decided again holding the turn from the
/// start, so the per-minute limit counts the other host's submission and
/// the next one is numbered after it. Without the turn's check the
/// admission would have stored a second submission numbered 2.
#[tokio::test]
#[ignore = "needs PostgreSQL; scripts/test.sh runs it"]
async fn a_postgres_admission_that_read_before_another_hosts_insert_is_decided_again() {
    use sqlx::Connection as _;
    let (_dir, store) = fresh(TestBackend::Postgres).await;
    store
        .sync_problem(&definition("h1", "sample-1"))
        .await
        .expect("sync");
    let Pool::Postgres(pool) = &store.write else {
        panic!("a PostgreSQL store")
    };
    let per_minute = LimitsConfig {
        submissions_per_minute: Some(2),
        ..LimitsConfig::default()
    };
    let admit = |limits: Option<LimitsConfig>| {
        let store = store.clone();
        async move { admit_custom_check(&store, "ann", limits.as_ref(), None).await }
    };
    assert!(matches!(
        admit(Some(per_minute)).await,
        AdmissionOutcome::Queued(_)
    ));

    let mut other = sqlx::PgConnection::connect_with(&pool.connect_options())
        .await
        .expect("another host's connection");
    sqlx::query("begin")
        .execute(&mut other)
        .await
        .expect("begin");
    sqlx::query("select pg_advisory_xact_lock(hashtextextended('submission order', 0))")
        .execute(&mut other)
        .await
        .expect("the turn");
    sqlx::query(
        "insert into submission (id, problem_id, user_name, kind, payload, size_bytes, state, \
         queued_at, user_ordinal, user_bytes, created_at) \
         values ('67e55044-10b1-426f-9247-bb680e5fe0c8', 'nim', 'ann', 'custom', '{}', 2, \
         'queued', $1, 2, 2, $1)",
    )
    .bind(now_ms())
    .execute(&mut other)
    .await
    .expect("the other host's submission");
    let admitting = tokio::spawn(admit(Some(per_minute)));
    // The admission reads (ann has one submission) and then its insert
    // waits for the turn the other connection holds.
    let waiting = "select count(*) from pg_locks where locktype = 'advisory' and not granted";
    let mut waited = Duration::ZERO;
    while sqlx::query_scalar::<_, i64>(waiting)
        .fetch_one(pool)
        .await
        .expect("locks")
        == 0
    {
        assert!(
            waited < Duration::from_secs(10),
            "the admission never waited for the turn"
        );
        tokio::time::sleep(Duration::from_millis(10)).await;
        waited += Duration::from_millis(10);
    }
    sqlx::query("commit")
        .execute(&mut other)
        .await
        .expect("commit");
    decided_again_after_the_other(&store, admitting, "host").await;
}

#[tokio::test]
async fn the_migration_gives_old_payloads_their_kind_tag() {
    let dir = tempfile::tempdir().expect("temp dir");
    // A database as the first release left it: migration 1 only, with an
    // untagged payload.
    let (config, pool) = old_sqlite_database(&dir, 1).await;
    {
        sqlx::query(
            "insert into problem (id, title, statement, version, definition_hash, time_limit_ms, created_at, updated_at) \
             values ('nim', 'Nim', '', 1, 'h', 2000, 0, 0)",
        )
        .execute(&pool)
        .await
        .expect("problem");
        sqlx::query(
            "insert into submission (id, problem_id, user_name, kind, payload, state, queued_at, created_at) \
             values ('67e55044-10b1-426f-9247-bb680e5fe0c8', 'nim', 'carol', 'answers', '{\"answers\":{\"sample-1\":\"Bob\"}}', 'queued', 0, 0)",
        )
        .execute(&pool)
        .await
        .expect("submission");
        pool.close().await;
    }
    let store = Store::connect(&config).await.expect("migrate");
    let claim = claimed(&store, "a", Duration::from_secs(60)).await;
    let answers = [(name("sample-1"), "Bob".to_string())].into();
    assert_eq!(
        claim.payload,
        Ok(Payload::Answers {
            answers,
            personal: None
        })
    );
    let problem = store.problem(&nim()).await.expect("read").expect("nim");
    assert_eq!(problem.memory_limit_mib, 0, "filled in by the next sync");
}

#[tokio::test]
async fn migration_15_numbers_each_users_stored_submissions() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (config, pool) = old_sqlite_database(&dir, 14).await;
    {
        sqlx::query(
            "insert into problem (id, title, statement, version, definition_hash, time_limit_ms, \
             created_at, updated_at) values ('nim', 'Nim', '', 1, 'h', 2000, 0, 0)",
        )
        .execute(&pool)
        .await
        .expect("problem");
        for (user, size) in [("ann", 10), ("bob", 7), ("ann", 20), ("ann", 5), ("bob", 1)] {
            sqlx::query(
                "insert into submission (id, problem_id, user_name, kind, payload, size_bytes, \
                 state, queued_at, created_at) values (?1, 'nim', ?2, 'answers', \
                 '{\"kind\":\"answers\",\"answers\":{}}', ?3, 'done', 0, 0)",
            )
            .bind(SubmissionId::new().to_string())
            .bind(user)
            .bind(size)
            .execute(&pool)
            .await
            .expect("submission");
        }
        pool.close().await;
    }
    let store = Store::connect(&config).await.expect("migrate");
    let rows = query("select user_name, user_ordinal, user_bytes from submission order by seq")
        .fetch_all(&store.read)
        .await
        .expect("read")
        .iter()
        .map(|row| {
            (
                row.try_get::<String>("user_name").expect("user"),
                row.try_get::<i64>("user_ordinal").expect("ordinal"),
                row.try_get::<i64>("user_bytes").expect("bytes"),
            )
        })
        .collect::<Vec<_>>();
    let expected = [
        ("ann", 1, 10),
        ("bob", 1, 7),
        ("ann", 2, 30),
        ("ann", 3, 35),
        ("bob", 2, 8),
    ];
    assert_eq!(
        rows,
        expected
            .iter()
            .map(|(user, ordinal, bytes)| (user.to_string(), *ordinal, *bytes))
            .collect::<Vec<_>>()
    );
}

/// Migration 21 gives stored programs their language and the most CPU time
/// and memory a run of their latest judgement took; answers get none.
#[tokio::test]
async fn migration_21_summarises_each_programs_latest_judgement() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (config, pool) = old_sqlite_database(&dir, 20).await;
    let program = "67e55044-10b1-426f-9247-bb680e5fe0c8";
    let answers = "67e55044-10b1-426f-9247-bb680e5fe0c9";
    {
        for statement in [
            "insert into problem (id, title, statement, version, definition_hash, time_limit_ms, \
             created_at, updated_at) values ('nim', 'Nim', '', 1, 'h', 2000, 0, 0)",
            "insert into submission (id, problem_id, user_name, kind, payload, state, verdict, \
             attempt, queued_at, judged_at, created_at, user_ordinal) values (?1, 'nim', 'ann', 'program', \
             '{\"kind\":\"program\",\"language\":\"cpp\",\"source\":\"int main(){}\"}', \
             'done', 'AC', 2, 0, 1, 0, 1)",
            "insert into submission (id, problem_id, user_name, kind, payload, state, verdict, \
             attempt, queued_at, judged_at, created_at, user_ordinal) values (?2, 'nim', 'ann', \
             'answers', '{\"kind\":\"answers\",\"answers\":{}}', 'done', 'WA', 1, 0, 1, 0, 2)",
            // The program's first judgement took longer than its latest.
            "insert into judgement (id, submission_id, attempt, problem_version, verdict, worker, \
             duration_ms, created_at) values (1, ?1, 1, 1, 'TLE', 'w', 1, 1)",
            "insert into judgement (id, submission_id, attempt, problem_version, verdict, worker, \
             duration_ms, created_at) values (2, ?1, 2, 1, 'AC', 'w', 1, 1)",
            "insert into judgement (id, submission_id, attempt, problem_version, verdict, worker, \
             duration_ms, created_at) values (3, ?2, 1, 1, 'WA', 'w', 1, 1)",
            "insert into result (judgement_id, testcase, position, hidden, verdict, time_us, \
             cpu_ms, wall_ms, memory_kib, created_at) values (1, 'a', 0, 0, 'TLE', 1, 2000, 2000, 900, 1)",
            "insert into result (judgement_id, testcase, position, hidden, verdict, time_us, \
             cpu_ms, wall_ms, memory_kib, created_at) values (2, 'a', 0, 0, 'AC', 1, 15, 20, 3000, 1)",
            "insert into result (judgement_id, testcase, position, hidden, verdict, time_us, \
             cpu_ms, wall_ms, memory_kib, created_at) values (2, 'b', 1, 1, 'AC', 1, 40, 41, 2500, 1)",
            "insert into result (judgement_id, testcase, position, hidden, verdict, time_us, \
             created_at) values (3, 'a', 0, 0, 'WA', 1, 1)",
        ] {
            sqlx::query(statement)
                .bind(program)
                .bind(answers)
                .execute(&pool)
                .await
                .expect(statement);
        }
        pool.close().await;
    }
    let store = Store::connect(&config).await.expect("migrate");
    let read = |id: &str| {
        let store = store.clone();
        let id: SubmissionId = id.parse().expect("id");
        async move { store.submission(&id).await.expect("read").expect("row") }
    };
    let program = read(program).await;
    assert_eq!(program.language.as_ref().map(|l| l.as_str()), Some("cpp"));
    assert_eq!(
        (program.max_cpu_ms, program.max_memory_kib),
        (Some(40), Some(3000))
    );
    let answers = read(answers).await;
    assert_eq!(
        (answers.language, answers.max_cpu_ms, answers.max_memory_kib),
        (None, None, None)
    );
}

#[tokio::test]
async fn migration_5_resyncs_problems_and_moves_old_expected_tokens_into_the_detail() {
    let dir = tempfile::tempdir().expect("temp dir");
    // A database as migrations 1 to 4 left it, with a WA whose messages
    // name the expected token.
    let (config, pool) = old_sqlite_database(&dir, 4).await;
    {
        let leaky = "testcase small-1: token 1 (line 1): expected `Bob`, found `Alice`";
        for statement in [
            "insert into problem (id, title, statement, version, definition_hash, time_limit_ms, \
             created_at, updated_at) values ('nim', 'Nim', '', 1, 'h1', 2000, 0, 0)",
            "insert into submission (id, problem_id, user_name, kind, payload, state, verdict, message, \
             attempt, queued_at, judged_at, created_at) values ('67e55044-10b1-426f-9247-bb680e5fe0c8', \
             'nim', 'carol', 'answers', '{\"kind\":\"answers\",\"answers\":{\"small-1\":\"Alice\"}}', \
             'done', 'WA', ?1, 1, 0, 1, 0)",
            "insert into judgement (submission_id, attempt, problem_version, verdict, message, worker, \
             duration_ms, created_at) values ('67e55044-10b1-426f-9247-bb680e5fe0c8', 1, 1, 'WA', ?1, 'w', 1, 1)",
            "insert into result (judgement_id, testcase, hidden, verdict, time_us, message, created_at) \
             values (1, 'small-1', 0, 'WA', 1, 'token 1 (line 1): expected `Bob`, found `Alice`', 1)",
        ] {
            sqlx::query(statement)
                .bind(leaky)
                .execute(&pool)
                .await
                .expect(statement);
        }
        pool.close().await;
    }
    let store = Store::connect(&config).await.expect("migrate");
    let id: SubmissionId = "67e55044-10b1-426f-9247-bb680e5fe0c8".parse().expect("id");
    let row = store.submission(&id).await.expect("read").expect("row");
    let safe = "testcase small-1: token 1 (line 1): wrong answer";
    assert_eq!(row.message.as_deref(), Some(safe));
    let judgements = store.judgements(&id).await.expect("judgements");
    assert_eq!(judgements[0].message.as_deref(), Some(safe));
    let result = &judgements[0].results[0];
    assert_eq!(
        result.message.as_deref(),
        Some("token 1 (line 1): wrong answer")
    );
    assert_eq!(
        result.detail.as_deref(),
        Some("token 1 (line 1): expected `Bob`, found `Alice`")
    );
    // The safe defaults, and the next sync writes the folder's values even
    // though its definition did not change.
    let problem = store.problem(&nim()).await.expect("read").expect("nim");
    assert_eq!(
        (problem.feedback, problem.custom_checks),
        (Feedback::Verdict, false)
    );
    let mut definition = definition("h1", "sample-1");
    definition.feedback = Feedback::Full;
    definition.custom_checks = true;
    let sync = store.sync_problem(&definition).await.expect("sync");
    assert_eq!(sync, SyncOutcome::Updated { version: 2 });
    let problem = store.problem(&nim()).await.expect("read").expect("nim");
    assert_eq!(
        (problem.feedback, problem.custom_checks),
        (Feedback::Full, true)
    );
}

/// The free space the disk-full test's probe asks for.
const PROBE_ROOM: u64 = 500_000;

#[tokio::test]
#[ignore = "needs root (it mounts a small tmpfs); scripts/test.sh runs it"]
async fn on_a_full_disk_writes_fail_and_nothing_acknowledged_is_lost() {
    let disk = crate::testing::SmallDisk::mount("4m");
    let config = DatabaseConfig {
        url: format!("sqlite://{}", disk.path().join("judge.db").display()),
        read_connections: 2,
        busy_timeout: Duration::from_secs(5),
    };
    let store = Store::connect(&config).await.expect("open");
    store
        .sync_problem(&definition("h1", "sample-1"))
        .await
        .expect("sync");
    // Leave under 2 MB for the database and its write-ahead log. The
    // ballast is the bigger half of the disk, so freeing it leaves room to
    // copy the whole log into the database file, however much of it a
    // checkpoint had copied when the disk filled up.
    let ballast = disk.path().join("ballast");
    std::fs::write(&ballast, vec![0u8; 2 << 20]).expect("ballast");
    let insert = |output: String| {
        let store = store.clone();
        async move {
            store
                .insert_submission(&NewSubmission {
                    problem: &nim(),
                    user: "carol",
                    payload: &Payload::Custom {
                        input: "1\n1\n".into(),
                        output,
                    },
                    contest: None,
                })
                .await
        }
    };
    let mut acknowledged = Vec::new();
    let mut refused = 0;
    for _ in 0..20 {
        match insert("x".repeat(300_000)).await {
            Ok(row) => acknowledged.push(row.id),
            Err(e) => {
                assert!(e.to_string().contains("full"), "{e}");
                refused += 1;
            }
        }
    }
    assert!(refused > 0, "the disk must fill up");
    // Take the last bytes too, so even the probe's one row finds no room.
    let filler = disk.path().join("filler");
    crate::testing::fill_up(&filler);
    let failing = store.write_status();
    assert!(
        failing.failing,
        "a write failed on a full disk: {failing:?}"
    );
    let failure = failing.last_failure.expect("the failure is kept");
    assert!(failure.error.contains("full"), "{failure:?}");
    assert!(
        store.probe_write(PROBE_ROOM).await.is_err(),
        "the probe fails while the disk is full"
    );
    assert!(store.write_status().failing);
    std::fs::remove_file(&ballast).expect("free the space");
    std::fs::remove_file(&filler).expect("free the space");
    store
        .probe_write(PROBE_ROOM)
        .await
        .expect("room again for the probe");
    let log = std::fs::metadata(disk.path().join("judge.db-wal")).map_or(0, |m| m.len());
    assert!(
        log < 64 << 10,
        "the probe cut the log and gave its room back: {log} bytes"
    );
    let recovered = store.write_status();
    assert!(!recovered.failing, "{recovered:?}");
    assert!(
        recovered.last_failure.is_some(),
        "the last failure is still reported after recovery"
    );
    for _ in 0..3 {
        acknowledged.push(insert("y".into()).await.expect("room again").id);
    }
    store.close().await;
    let reopened = Store::connect(&config).await.expect("reopen");
    for id in &acknowledged {
        assert!(
            reopened.submission(id).await.expect("read").is_some(),
            "acknowledged submission {id} was lost ({} acknowledged, {refused} refused)",
            acknowledged.len()
        );
    }
    reopened.close().await;
}

#[tokio::test]
async fn every_list_filter_is_served_by_an_index_newest_first() {
    let (_dir, store) = fresh(TestBackend::Sqlite).await;
    let mut failures = Vec::new();
    for mask in 0..32u32 {
        let filter = ListFilter {
            problem: (mask & 1 != 0).then(nim),
            verdict: (mask & 2 != 0).then_some(Verdict::WA),
            user: (mask & 4 != 0).then(|| "carol".to_string()),
            since: (mask & 8 != 0).then(Timestamp::now),
            before: (mask & 16 != 0).then_some(1000),
            limit: 50,
            contest: None,
            changed_since: None,
        };
        let plan = query_plan(
            &store,
            queue::list_statement(backend::Dialect::Sqlite, &filter),
        )
        .await;
        let sorts = plan.iter().any(|step| step.contains("TEMP B-TREE"));
        // With no filter but the page size, the newest-first walk of the
        // primary key is the index.
        let unindexed = plan
            .iter()
            .any(|step| step.starts_with("SCAN submission") && mask != 0);
        if sorts || unindexed {
            failures.push(format!("{filter:?}: {plan:?}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[tokio::test]
async fn the_limit_counts_read_a_few_rows_by_index_however_many_are_stored() {
    let (_dir, store) = fresh(TestBackend::Sqlite).await;
    let needed = admission::CountsNeeded {
        pending: true,
        recent: true,
        used: true,
    };
    let plan = query_plan(
        &store,
        admission::stored_counts_statement(backend::Dialect::Sqlite, "ann", needed, now_ms()),
    )
    .await;
    assert!(
        !plan
            .iter()
            .any(|step| step.starts_with("SCAN submission") || step.contains("TEMP B-TREE")),
        "no walk of a user's submissions and no sort: {plan:?}"
    );
    assert!(
        plan.iter()
            .any(|step| step.contains("INDEX submission_by_user_time")),
        "the windows' first submissions by index: {plan:?}"
    );
    assert!(
        plan.iter()
            .any(|step| step.contains("INDEX submission_pending_by_user")),
        "the pending ones from the index that holds only those: {plan:?}"
    );
}

#[tokio::test]
async fn a_problems_unjudged_count_reads_the_pending_index_only() {
    let (_dir, store) = fresh(TestBackend::Sqlite).await;
    let plan = query_plan(&store, queue::unjudged_of_problem_statement(&nim())).await;
    assert!(
        plan.iter().any(
            |step| step.contains("USING COVERING INDEX submission_pending_by_problem")
                || step.contains("USING INDEX submission_pending_by_problem")
        ),
        "{plan:?}"
    );
}

async fn created_at_never_decreases_so_since_can_bound_the_scan(backend: TestBackend) {
    let (_dir, store) = fresh(backend).await;
    let payload = Payload::Custom {
        input: "1\n1\n".into(),
        output: "Alice\n".into(),
    };
    let new = NewSubmission {
        problem: &nim(),
        user: "carol",
        payload: &payload,
        contest: None,
    };
    let first = store.insert_submission(&new).await.expect("insert");
    // A clock that stepped back: the first row looks an hour newer.
    let ahead = now_ms() + 3_600_000;
    backend::query("update submission set created_at = $1 where id = $2")
        .bind(ahead)
        .bind(first.id.to_string())
        .execute(&store.write)
        .await
        .expect("move it");
    let second = store.insert_submission(&new).await.expect("insert");
    assert_eq!(second.created_at.as_millisecond(), ahead);
    let since = Timestamp::from_millisecond(ahead).expect("a time");
    let page = store
        .list_submissions(&ListFilter {
            problem: None,
            verdict: None,
            user: None,
            since: Some(since),
            before: None,
            limit: 10,
            contest: None,
            changed_since: None,
        })
        .await
        .expect("list");
    let ids: Vec<_> = page.submissions.iter().map(|s| s.id).collect();
    assert_eq!(ids, [second.id, first.id]);
}

/// Concurrent submitters (on PostgreSQL, transactions on several
/// connections, hosts' clocks apart) still leave created_at non-decreasing
/// in seq order, which `since` relies on.
async fn concurrent_inserts_keep_created_at_in_seq_order(backend: TestBackend) {
    let (_dir, store) = fresh(backend).await;
    let mut tasks = tokio::task::JoinSet::new();
    for task in 0..16 {
        let store = store.clone();
        tasks.spawn(async move {
            for _ in 0..25 {
                let payload = Payload::Custom {
                    input: "1\n1\n".into(),
                    output: "Alice\n".into(),
                };
                let user = format!("user{task}");
                store
                    .insert_submission(&NewSubmission {
                        problem: &nim(),
                        user: &user,
                        payload: &payload,
                        contest: None,
                    })
                    .await
                    .expect("insert");
            }
        });
    }
    while let Some(done) = tasks.join_next().await {
        done.expect("a submitter");
    }
    let rows = backend::query("select created_at from submission order by seq")
        .fetch_all(&store.read)
        .await
        .expect("read");
    let times: Vec<i64> = rows
        .iter()
        .map(|row| row.try_get("created_at").expect("created_at"))
        .collect();
    assert_eq!(times.len(), 400);
    let decreases = times.windows(2).filter(|w| w[1] < w[0]).count();
    assert_eq!(
        decreases, 0,
        "created_at went back {decreases} times in seq order"
    );
}

#[tokio::test]
async fn migration_10_moves_every_testcase_input_into_its_own_table() {
    let dir = tempfile::tempdir().expect("temp dir");
    // A database as migrations 1 to 9 left it: inputs inside the testcase row.
    let (config, pool) = old_sqlite_database(&dir, 9).await;
    {
        for statement in [
            "insert into problem (id, title, statement, version, definition_hash, time_limit_ms, \
             created_at, updated_at) values ('nim', 'Nim', '', 1, 'h1', 2000, 0, 0)",
            "insert into testcase (problem_id, name, input, hidden, origin, created_by, created_at) \
             values ('nim', 'mine', '1\n7\n', 1, 'setter', 'sam', 5)",
        ] {
            sqlx::query(statement)
                .execute(&pool)
                .await
                .expect(statement);
        }
        pool.close().await;
    }
    let store = Store::connect(&config).await.expect("migrate");
    let (testcase, input) = store
        .testcase(&nim(), &name("mine"))
        .await
        .expect("read")
        .expect("kept");
    assert_eq!(input, "1\n7\n");
    assert!(testcase.hidden);
    assert_eq!(
        store
            .pending_reference(true)
            .await
            .expect("pending")
            .map(|p| p.input),
        Some("1\n7\n".to_string())
    );
    assert_eq!(
        store
            .delete_testcase(&nim(), &name("mine"))
            .await
            .expect("delete"),
        TestcaseChange::Done
    );
    let orphans: i64 = backend::query("select count(*) as n from testcase_input")
        .fetch_one(&store.write)
        .await
        .expect("count")
        .try_get("n")
        .expect("n");
    assert_eq!(orphans, 0, "the input goes with its testcase");
}

/// Reads one PostgreSQL setting of a session of `store`'s pool.
async fn session_setting(store: &Store, name: &'static str) -> String {
    backend::query(name)
        .fetch_one(&store.read)
        .await
        .expect("show a setting")
        .try_get::<String>(&name["show ".len()..])
        .expect("the setting's value")
}

/// Two hosts on one fresh PostgreSQL database with the `nim` problem: each
/// its own store, as two processes have.
async fn two_postgres_hosts() -> (Store, Store) {
    let url = crate::testing::fresh_postgres_database()
        .await
        .expect("a fresh PostgreSQL database");
    let config = DatabaseConfig {
        url,
        read_connections: 2,
        busy_timeout: Duration::from_secs(5),
    };
    let one = Store::connect(&config).await.expect("open");
    one.sync_problem(&definition("h1", "sample-1"))
        .await
        .expect("sync");
    let other = Store::connect(&config).await.expect("open");
    (one, other)
}

/// Two hosts admitting at once for the same users and keys (each insert
/// takes the turn in its own statement, after reading the counts and keys
/// outside it): each key is queued once and replayed once, every
/// submission is stored once, each user's are numbered 1, 2, 3, … with no
/// gap or repeat, their bytes add up, and created_at never decreases in
/// seq order.
#[tokio::test]
#[ignore = "needs PostgreSQL; scripts/test.sh runs it"]
async fn postgres_hosts_admitting_at_once_number_each_users_submissions_in_turn() {
    let (one, other) = two_postgres_hosts().await;
    let mut tasks = tokio::task::JoinSet::new();
    for task in 0..8 {
        let store = if task % 2 == 0 {
            one.clone()
        } else {
            other.clone()
        };
        tasks.spawn(async move {
            let mut queued = 0;
            for round in 0..15 {
                // Two tasks, one on each host, send each user's key: one
                // is queued, the other replays it.
                let user = format!("user{}", (task / 2 + round) % 3);
                let key = format!("key-{}-{round}", task / 2);
                match admit_custom_check(&store, &user, None, Some((&key, "hash"))).await {
                    AdmissionOutcome::Queued(_) => queued += 1,
                    AdmissionOutcome::Replayed(_) => {}
                    outcome => panic!("{user}'s admission: {outcome:?}"),
                }
            }
            queued
        });
    }
    let mut queued = 0;
    while let Some(done) = tasks.join_next().await {
        queued += done.expect("a submitter");
    }
    let rows = backend::query(
        "select user_name, user_ordinal, user_bytes, size_bytes, created_at from submission \
         order by seq",
    )
    .fetch_all(&one.read)
    .await
    .expect("read");
    assert_eq!(queued, 4 * 15, "each key queued once");
    assert_eq!(rows.len(), queued, "each admission queued is stored once");
    let keys: i64 = backend::query("select count(*) as n from idempotency_key")
        .fetch_one(&one.read)
        .await
        .expect("keys")
        .try_get("n")
        .expect("n");
    assert_eq!(usize::try_from(keys).expect("a count"), queued);
    let mut latest: HashMap<String, (i64, i64)> = HashMap::new();
    let mut newest = 0;
    for row in &rows {
        let user: String = row.try_get("user_name").expect("user");
        let ordinal: i64 = row.try_get("user_ordinal").expect("ordinal");
        let bytes: i64 = row.try_get("user_bytes").expect("bytes");
        let size: i64 = row.try_get("size_bytes").expect("size");
        let created_at: i64 = row.try_get("created_at").expect("created_at");
        let (last_ordinal, last_bytes) = latest.get(&user).copied().unwrap_or_default();
        assert_eq!(
            (ordinal, bytes),
            (last_ordinal + 1, last_bytes + size),
            "{user}'s submissions in seq order"
        );
        latest.insert(user, (ordinal, bytes));
        assert!(created_at >= newest, "created_at went back in seq order");
        newest = created_at;
    }
}

/// The next notice `notices` hears, within 10 s.
async fn next_notice(notices: &mut Notices) -> Notice {
    tokio::time::timeout(Duration::from_secs(10), notices.recv())
        .await
        .expect("a notice within 10 s")
        .expect("a notice")
}

#[tokio::test]
#[ignore = "needs PostgreSQL; scripts/test.sh runs it"]
async fn postgres_hosts_hear_of_each_others_catalog_changes() {
    let (one, other) = two_postgres_hosts().await;
    let mut notices = other.notices().await.expect("listen").expect("PostgreSQL");
    one.add_testcase(&nim(), &name("mine"), "1\n2\n", false, "sam")
        .await
        .expect("add");
    let heard = tokio::time::timeout(Duration::from_secs(10), async {
        loop {
            if notices.recv().await.expect("a notice") == Notice::CatalogChanged {
                return;
            }
        }
    })
    .await;
    assert!(heard.is_ok(), "no catalog notice within 10 s");
}

#[tokio::test]
#[ignore = "needs PostgreSQL; scripts/test.sh runs it"]
async fn postgres_hosts_skip_their_own_job_notices_and_hear_the_others() {
    let (one, other) = two_postgres_hosts().await;
    let mut notices = one.notices().await.expect("listen").expect("PostgreSQL");
    // Its own jobs (a submission, a testcase's reference), which it signals
    // to its own workers without the database, then a marker it does hear.
    submit(&one).await;
    one.add_testcase(&nim(), &name("mine"), "1\n2\n", false, "sam")
        .await
        .expect("add");
    assert_eq!(next_notice(&mut notices).await, Notice::CatalogChanged);
    // Another host's job.
    submit(&other).await;
    assert_eq!(next_notice(&mut notices).await, Notice::JobQueued);
}

#[tokio::test]
#[ignore = "needs PostgreSQL; scripts/test.sh runs it"]
async fn postgres_hosts_hear_which_submissions_were_judged_and_not_of_a_fenced_out_verdict() {
    let (store, listener) = two_postgres_hosts().await;
    let mut notices = listener
        .notices()
        .await
        .expect("listen")
        .expect("PostgreSQL");
    let ids = [submit(&store).await, submit(&store).await];
    let claims = store
        .claim_batch("w", Duration::from_secs(60), 2)
        .await
        .expect("claim");
    let accepted = verdict(Verdict::AC);
    let verdicts: Vec<(&Claim, &JudgementWrite)> =
        claims.iter().map(|claim| (claim, &accepted)).collect();
    assert_eq!(
        store.finish_batch(&verdicts).await.expect("finish"),
        [true, true]
    );
    // A verdict fenced out writes nothing, so announces nothing: the next
    // notice after it is the next submission's.
    assert!(!store.finish(&claims[0], &accepted).await.expect("finish"));
    submit(&store).await;
    let mut heard = Vec::new();
    tokio::time::timeout(Duration::from_secs(10), async {
        loop {
            match notices.recv().await.expect("a notice") {
                Notice::JobQueued if heard.iter().any(|n| matches!(n, Notice::Judged(_))) => {
                    heard.push(Notice::JobQueued);
                    return;
                }
                Notice::JobQueued => {}
                notice => heard.push(notice),
            }
        }
    })
    .await
    .expect("notices within 10 s");
    let Some(Notice::Judged(judged)) = heard.first() else {
        panic!("no judged notice first: {heard:?}");
    };
    let mut judged = judged.clone();
    judged.sort_by_key(ToString::to_string);
    let mut expected = ids.to_vec();
    expected.sort_by_key(ToString::to_string);
    assert_eq!(judged, expected, "one notice with both ids");
    assert_eq!(
        heard.len(),
        2,
        "nothing between it and the next job: {heard:?}"
    );
}

#[tokio::test]
#[ignore = "needs PostgreSQL; scripts/test.sh runs it"]
async fn postgres_sessions_give_up_on_vanished_hosts_unless_the_url_says_otherwise() {
    let (_dir, store) = fresh(TestBackend::Postgres).await;
    let idle = "show idle_in_transaction_session_timeout";
    assert_eq!(session_setting(&store, idle).await, "10s");
    // (The TCP keepalive settings read 0 here: the test cluster listens on
    // a Unix socket, where they do not apply.)
    assert_eq!(
        session_setting(&store, "show application_name").await,
        "nimjudge"
    );

    let url = crate::testing::fresh_postgres_database()
        .await
        .expect("a fresh PostgreSQL database");
    let separator = if url.contains('?') { '&' } else { '?' };
    let config = DatabaseConfig {
        url: format!("{url}{separator}options=-c%20idle_in_transaction_session_timeout%3D2500ms"),
        read_connections: 1,
        busy_timeout: Duration::from_secs(5),
    };
    let store = Store::connect(&config).await.expect("open");
    assert_eq!(session_setting(&store, idle).await, "2500ms");
}

/// The schema a migration history leaves, as comparable lines: columns
/// (SQLite `integer` standing for PostgreSQL's `bigint` and `boolean`),
/// primary keys, indexes (table, columns, uniqueness, predicate) and
/// foreign keys (with their delete rule).
type Schema = std::collections::BTreeSet<String>;

/// An index predicate as both databases can be compared on: lowercase,
/// without parentheses and casts, `!=` for `<>`, single spaces.
fn normalized_predicate(text: &str) -> String {
    text.to_lowercase()
        .replace("::text", "")
        .replace(['(', ')'], "")
        .replace("<>", "!=")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

fn sqlite_schema(file: &std::path::Path) -> Schema {
    let db = rusqlite::Connection::open(file).expect("open the SQLite file");
    let mut schema = Schema::new();
    let tables: Vec<String> = db
        .prepare(
            "select name from sqlite_master where type = 'table' \
             and name not like 'sqlite_%' and name not like '_sqlx%'",
        )
        .and_then(|mut s| s.query_map([], |r| r.get(0))?.collect())
        .expect("tables");
    for table in tables {
        let mut primary: Vec<(i64, String)> = Vec::new();
        let columns: Vec<(String, String, bool, i64)> = db
            .prepare(&format!("pragma table_info('{table}')"))
            .and_then(|mut s| {
                s.query_map([], |r| Ok((r.get(1)?, r.get(2)?, r.get(3)?, r.get(5)?)))?
                    .collect()
            })
            .expect("columns");
        for (name, kind, not_null, pk) in columns {
            let nullable = !(not_null || pk > 0);
            schema.insert(format!(
                "column {table}.{name} {} nullable={nullable}",
                kind.to_lowercase()
            ));
            if pk > 0 {
                primary.push((pk, name));
            }
        }
        primary.sort();
        let primary: Vec<String> = primary.into_iter().map(|(_, n)| n).collect();
        schema.insert(format!("primary key {table}({})", primary.join(", ")));
        let indexes: Vec<(String, bool, String)> = db
            .prepare(&format!("pragma index_list('{table}')"))
            .and_then(|mut s| {
                s.query_map([], |r| Ok((r.get(1)?, r.get(2)?, r.get(3)?)))?
                    .collect()
            })
            .expect("indexes");
        for (index, unique, origin) in indexes {
            if origin == "pk" {
                continue;
            }
            // A key that is an expression has no column name.
            let columns: Vec<String> = db
                .prepare(&format!("pragma index_info('{index}')"))
                .and_then(|mut s| {
                    s.query_map([], |r| {
                        let name: Option<String> = r.get(2)?;
                        Ok(name.unwrap_or_else(|| "<expression>".into()))
                    })?
                    .collect()
                })
                .expect("index columns");
            let sql: Option<String> = db
                .query_row(
                    "select sql from sqlite_master where type = 'index' and name = ?1",
                    [&index],
                    |r| r.get(0),
                )
                .expect("index sql");
            let predicate = sql
                .as_deref()
                .and_then(|sql| {
                    sql.to_lowercase()
                        .split_once(" where ")
                        .map(|(_, p)| p.to_string())
                })
                .map(|p| normalized_predicate(&p))
                .unwrap_or_default();
            schema.insert(format!(
                "index {table}({}) unique={unique} where={predicate}",
                columns.join(", ")
            ));
        }
        let keys: Vec<(String, String, String, String)> = db
            .prepare(&format!("pragma foreign_key_list('{table}')"))
            .and_then(|mut s| {
                s.query_map([], |r| Ok((r.get(3)?, r.get(2)?, r.get(4)?, r.get(6)?)))?
                    .collect()
            })
            .expect("foreign keys");
        for (column, target, target_column, on_delete) in keys {
            schema.insert(format!(
                "foreign key {table}.{column} -> {target}.{target_column} on delete {}",
                on_delete.to_lowercase()
            ));
        }
    }
    schema
}

async fn postgres_schema(pool: &sqlx::PgPool) -> Schema {
    let mut schema = Schema::new();
    let columns: Vec<(String, String, String, String)> = sqlx::query_as(
        "select table_name::text, column_name::text, data_type::text, is_nullable::text \
         from information_schema.columns where table_schema = 'public' \
         and table_name not like '\\_sqlx%'",
    )
    .fetch_all(pool)
    .await
    .expect("columns");
    for (table, column, kind, nullable) in columns {
        let kind = match kind.as_str() {
            "bigint" | "boolean" => "integer",
            other => other,
        };
        let nullable = nullable == "YES";
        schema.insert(format!(
            "column {table}.{column} {kind} nullable={nullable}"
        ));
    }
    let indexes: Vec<(String, String, String)> = sqlx::query_as(
        "select tablename::text, indexname::text, indexdef from pg_indexes \
         where schemaname = 'public' and tablename not like '\\_sqlx%'",
    )
    .fetch_all(pool)
    .await
    .expect("indexes");
    for (table, name, definition) in indexes {
        let (head, predicate) = match definition.split_once(" WHERE ") {
            Some((head, predicate)) => (head, normalized_predicate(predicate)),
            None => (definition.as_str(), String::new()),
        };
        // `CREATE … ON public.t USING btree (a, b)`: what the parentheses
        // after the method hold.
        let columns = head
            .split_once(" USING ")
            .and_then(|(_, method)| method.split_once('('))
            .and_then(|(_, c)| c.strip_suffix(')'))
            .map(str::to_string)
            .expect("index columns");
        if name.ends_with("_pkey") {
            schema.insert(format!("primary key {table}({columns})"));
        } else {
            let unique = head.starts_with("CREATE UNIQUE");
            schema.insert(format!(
                "index {table}({columns}) unique={unique} where={predicate}"
            ));
        }
    }
    let keys: Vec<(String, String, String, String, String)> = sqlx::query_as(
        "select tc.table_name::text, kcu.column_name::text, ccu.table_name::text, \
         ccu.column_name::text, rc.delete_rule::text \
         from information_schema.table_constraints tc \
         join information_schema.key_column_usage kcu on kcu.constraint_name = tc.constraint_name \
         join information_schema.constraint_column_usage ccu on ccu.constraint_name = tc.constraint_name \
         join information_schema.referential_constraints rc on rc.constraint_name = tc.constraint_name \
         where tc.constraint_type = 'FOREIGN KEY' and tc.table_schema = 'public'",
    )
    .fetch_all(pool)
    .await
    .expect("foreign keys");
    for (table, column, target, target_column, on_delete) in keys {
        schema.insert(format!(
            "foreign key {table}.{column} -> {target}.{target_column} on delete {}",
            on_delete.to_lowercase()
        ));
    }
    schema
}

/// The two migration histories leave the same tables, columns (types and
/// nullability), primary keys, indexes and foreign keys, but for the
/// differences listed here, each a deliberate choice of one database's
/// history: a new difference fails this test until it is made on both
/// sides or listed with its reason.
#[tokio::test]
#[ignore = "needs PostgreSQL; scripts/test.sh runs it"]
async fn the_two_migration_histories_leave_the_same_schema() {
    let (_dir, sqlite) = fresh(TestBackend::Sqlite).await;
    let (_, postgres) = fresh(TestBackend::Postgres).await;
    let lite = sqlite_schema(sqlite.file().expect("a SQLite file"));
    let Pool::Postgres(pool) = &postgres.write else {
        panic!("a PostgreSQL store")
    };
    let pg = postgres_schema(pool).await;
    // SQLite only: its listings by verdict read partial indexes of judged
    // rows, and it numbers a user's submissions under a unique index
    // (PostgreSQL numbers them in the submission turn, under its lock).
    // Both: the contest's changes by the latest of three times, an
    // expression written in each dialect (`max` of `coalesce`s; `greatest`).
    let only_sqlite: Schema = [
        "index submission(contest_id, <expression>) unique=false where=contest_id is not null",
        "index submission(verdict, seq) unique=false where=verdict is not null",
        "index submission(problem_id, verdict, seq) unique=false where=verdict is not null",
        "index submission(user_name, verdict, seq) unique=false where=verdict is not null",
        "index submission(user_name, user_ordinal) unique=true where=",
    ]
    .map(String::from)
    .into();
    // PostgreSQL only: the same three listings' indexes, whole.
    let only_postgres: Schema = [
        "index submission(contest_id, GREATEST(created_at, queued_at, judged_at)) unique=false \
         where=contest_id is not null",
        "index submission(verdict, seq) unique=false where=",
        "index submission(problem_id, verdict, seq) unique=false where=",
        "index submission(user_name, verdict, seq) unique=false where=",
    ]
    .map(String::from)
    .into();
    assert!(lite.len() > 100, "{lite:#?}");
    let lite_only: Schema = lite.difference(&pg).cloned().collect();
    let pg_only: Schema = pg.difference(&lite).cloned().collect();
    assert_eq!(lite_only, only_sqlite, "in SQLite's schema only");
    assert_eq!(pg_only, only_postgres, "in PostgreSQL's schema only");
}

/// With personal windows each participant's freeze is the last
/// `freeze_ms` of their own window, and a window started late, cut short
/// by the span's end, freezes as much sooner: a try in its last half hour
/// is pending for the public, though it comes before the freeze of a whole
/// window.
async fn a_late_window_cut_short_by_the_end_freezes_sooner(backend: TestBackend) {
    use crate::domain::{ContestId, Scoring};
    use crate::store::ContestWindow;

    let (_dir, store) = fresh(backend).await;
    let id: ContestId = "virtual".parse().expect("an id");
    let minute = 60_000;
    let now = super::now_ms();
    // A span of 300 minutes begun 280 minutes ago; windows of 120 minutes,
    // their last 30 frozen.
    let mut settings = nim_contest("Virtual", Scoring::Icpc, 300 * 60, Some(30 * 60));
    settings.starts_at = Timestamp::from_millisecond(now - 280 * minute).expect("a time");
    settings.window_seconds = Some(120 * 60);
    assert!(store.put_contest(&id, &settings).await.expect("create"));
    let payload = Payload::Answers {
        personal: None,
        answers: Default::default(),
    };
    // `user` started their window at `start` and solves A at contest minute
    // `at` of it.
    let solve = |user: &'static str, start: i64, at: i64| {
        let (store, id, payload) = (&store, &id, &payload);
        async move {
            assert!(store.register(id, user).await.expect("register"));
            store
                .start_window(id, user, start)
                .await
                .expect("start")
                .expect("a participant");
            let window = ContestWindow {
                contest: id,
                starts_at_ms: super::now_ms() - at * minute,
                ends_at_ms: super::now_ms() + minute,
            };
            store
                .insert_submission(&NewSubmission {
                    problem: &nim(),
                    user,
                    payload,
                    contest: Some(window),
                })
                .await
                .expect("insert");
            let claim = claimed(store, "w", Duration::from_secs(60)).await;
            assert!(
                store
                    .finish(&claim, &verdict(Verdict::AC))
                    .await
                    .expect("finish")
            );
            store.scoreboard_cells(id).await.expect("cells")[&(user.to_string(), nim())]
        }
    };
    // Whole windows freeze from minute 90 of each.
    let early = solve("ann", now - 280 * minute, 60).await;
    assert_eq!(
        early.public_solved_ms.map(|t| t / minute),
        Some(60),
        "{early:?}"
    );
    let frozen = solve("bob", now - 250 * minute, 95).await;
    assert_eq!(
        (frozen.public_solved_ms, frozen.public_pending),
        (None, 1),
        "{frozen:?}"
    );
    // cid's window began 30 minutes ago and ends with the span, in 20: it
    // lasts 50 minutes and freezes from its minute 20.
    let late = solve("cid", now - 30 * minute, 25).await;
    assert_eq!(late.solved_ms.map(|t| t / minute), Some(25));
    assert_eq!(
        (
            late.public_solved_ms,
            late.public_tries,
            late.public_pending
        ),
        (None, 0, 1),
        "{late:?}"
    );
    // A late start before the freeze's own start is public.
    let dan = solve("dan", now - 40 * minute, 5).await;
    assert_eq!(dan.public_solved_ms.map(|t| t / minute), Some(5), "{dan:?}");
}

/// Each contest gets a secret for its participants' own inputs when it is
/// made, its own, kept when the contest is put again.
async fn a_contest_keeps_the_secret_it_was_made_with(backend: TestBackend) {
    use crate::domain::{ContestId, Scoring};

    let (_dir, store) = fresh(backend).await;
    let settings = nim_contest("Spring", Scoring::Icpc, 3600, None);
    let (spring, autumn): (ContestId, ContestId) = (
        "spring".parse().expect("an id"),
        "autumn".parse().expect("an id"),
    );
    for id in [&spring, &autumn] {
        assert!(store.put_contest(id, &settings).await.expect("create"));
    }
    let salt = |id| {
        let store = &store;
        async move {
            store
                .contest_input_salt(id)
                .await
                .expect("read")
                .expect("a secret")
        }
    };
    let first = salt(&spring).await;
    assert!(first.len() >= 32, "{first}");
    assert_ne!(first, salt(&autumn).await);
    assert!(!store.put_contest(&spring, &settings).await.expect("update"));
    assert_eq!(salt(&spring).await, first);
    let missing: ContestId = "winter".parse().expect("an id");
    assert_eq!(
        store.contest_input_salt(&missing).await.expect("read"),
        None
    );
}

/// A contest over nim alone, begun now, scored as `scoring`.
fn nim_contest(
    title: &str,
    scoring: crate::domain::Scoring,
    duration_seconds: i64,
    freeze_seconds: Option<i64>,
) -> crate::contest::ContestSettings {
    crate::contest::ContestSettings {
        title: title.into(),
        starts_at: Timestamp::now(),
        duration_seconds,
        freeze_seconds,
        scoring,
        score_by: crate::domain::ScoreBy::Group,
        count_compile_errors: false,
        window_seconds: None,
        registration: crate::domain::Registration::Open,
        penalty_minutes: 20,
        problems: vec![crate::contest::ContestProblem {
            personal_input: None,
            label: "A".into(),
            problem: nim(),
            colour: None,
        }],
    }
}

/// The scoreboard cells follow every write that changes them, with contest
/// times chosen by the window each submission is admitted in: tries before
/// the first AC count, CE and IE do not, unjudged and (for the public)
/// frozen tries are pending, a rejudge makes a try pending again, a moved
/// freeze applies at once, and practice (after the window) counts nowhere.
async fn scoreboard_cells_follow_admissions_verdicts_rejudges_and_the_freeze(backend: TestBackend) {
    use crate::contest::StoredCell;
    use crate::domain::{ContestId, Scoring};
    use crate::store::ContestWindow;

    let (_dir, store) = fresh(backend).await;
    let id: ContestId = "spring".parse().expect("an id");
    let minute = 60_000;
    let mut settings = nim_contest("Spring", Scoring::Icpc, 300 * 60, Some(60 * 60));
    assert!(store.put_contest(&id, &settings).await.expect("create"));
    let payload = Payload::Answers {
        personal: None,
        answers: Default::default(),
    };
    // A submission admitted at contest minute `at` (its window chosen so),
    // or after the window with `None`.
    let send = |user: &'static str, at: Option<i64>| {
        let (store, id, payload) = (&store, &id, &payload);
        async move {
            let now = super::now_ms();
            let window = match at {
                Some(at) => ContestWindow {
                    contest: id,
                    starts_at_ms: now - at * minute,
                    ends_at_ms: now + minute,
                },
                None => ContestWindow {
                    contest: id,
                    starts_at_ms: now - 400 * minute,
                    ends_at_ms: now - 100 * minute,
                },
            };
            store
                .insert_submission(&NewSubmission {
                    problem: &nim(),
                    user,
                    payload,
                    contest: Some(window),
                })
                .await
                .expect("insert")
        }
    };
    let judge = |wanted: Verdict| {
        let store = &store;
        async move {
            let claim = claimed(store, "w", Duration::from_secs(60)).await;
            assert!(
                store
                    .finish(&claim, &verdict(wanted))
                    .await
                    .expect("finish")
            );
            claim.id
        }
    };
    let cell = |user: &'static str| {
        let (store, id) = (&store, &id);
        async move {
            store
                .scoreboard_cells(id)
                .await
                .expect("cells")
                .get(&(user.to_string(), nim()))
                .copied()
        }
    };

    // ann: WA at 10, CE at 20, IE at 30, AC at 40, WA at 50.
    let first = send("ann", Some(10)).await;
    assert_eq!(first.contest_time_ms.map(|t| t / minute), Some(10));
    assert_eq!(
        cell("ann").await,
        Some(StoredCell {
            pending: 1,
            public_pending: 1,
            ..StoredCell::default()
        }),
        "a try waiting to be judged is pending"
    );
    let wa = judge(Verdict::WA).await;
    for (at, wanted) in [
        (20, Verdict::CE),
        (30, Verdict::IE),
        (40, Verdict::AC),
        (50, Verdict::WA),
    ] {
        send("ann", Some(at)).await;
        judge(wanted).await;
    }
    let ann = cell("ann").await.expect("a cell");
    assert_eq!(ann.solved_ms.map(|t| t / minute), Some(40));
    assert_eq!((ann.tries, ann.pending), (1, 0), "{ann:?}");
    assert_eq!(ann.public_solved_ms, ann.solved_ms);
    assert_eq!((ann.public_tries, ann.public_pending), (1, 0));

    // bob: WA at 230, then AC at 250, in the freeze (from minute 240).
    send("bob", Some(230)).await;
    judge(Verdict::WA).await;
    send("bob", Some(250)).await;
    judge(Verdict::AC).await;
    let bob = cell("bob").await.expect("a cell");
    assert_eq!(bob.solved_ms.map(|t| t / minute), Some(250));
    assert_eq!((bob.tries, bob.pending), (1, 0));
    assert_eq!(bob.public_solved_ms, None);
    assert_eq!((bob.public_tries, bob.public_pending), (1, 1), "{bob:?}");

    // A practice submission counts nowhere.
    let practice = send("cid", None).await;
    assert_eq!(practice.contest_time_ms, None);
    assert_eq!(practice.contest.as_ref(), Some(&id));
    judge(Verdict::AC).await;
    assert_eq!(cell("cid").await, None);

    // A rejudge of ann's WA makes it pending again until it is judged.
    store.rejudge(&wa, "alice-admin").await.expect("rejudge");
    let ann = cell("ann").await.expect("a cell");
    assert_eq!((ann.tries, ann.pending), (0, 1), "{ann:?}");
    judge(Verdict::WA).await;
    assert_eq!(cell("ann").await.expect("a cell").tries, 1);

    // The freeze moved to the last 10 minutes: bob's AC is public now.
    settings.freeze_seconds = Some(10 * 60);
    assert!(!store.put_contest(&id, &settings).await.expect("replace"));
    let bob = cell("bob").await.expect("a cell");
    assert_eq!(bob.public_solved_ms, bob.solved_ms);
    assert_eq!((bob.public_tries, bob.public_pending), (1, 0));

    // Compile errors made to count: ann's CE at 20 is a rejected try too.
    settings.count_compile_errors = true;
    assert!(!store.put_contest(&id, &settings).await.expect("replace"));
    let ann = cell("ann").await.expect("a cell");
    assert_eq!((ann.tries, ann.public_tries), (2, 2), "{ann:?}");
    settings.count_compile_errors = false;
    assert!(!store.put_contest(&id, &settings).await.expect("replace"));
    assert_eq!(cell("ann").await.expect("a cell").tries, 1);

    // What changed after a version: the cells computed since, and the
    // participants registered since; nothing once read up to date.
    let version = store
        .scoreboard_version(&id)
        .await
        .expect("a version")
        .expect("a contest");
    let none = store
        .scoreboard_changes(&id, version)
        .await
        .expect("changes");
    assert!(none.cells.is_empty() && none.participants.is_empty());
    send("dan", Some(60)).await;
    assert!(store.register(&id, "eve").await.expect("register"));
    let changes = store
        .scoreboard_changes(&id, version)
        .await
        .expect("changes");
    assert_eq!(changes.participants, ["eve"]);
    assert_eq!(
        changes.cells.keys().cloned().collect::<Vec<_>>(),
        [("dan".to_string(), nim())]
    );
    assert!(
        store.scoreboard_version(&id).await.expect("a version") > Some(version),
        "every change bumps the version"
    );
    judge(Verdict::WA).await;

    // A rejudge of the whole problem makes every judged try pending.
    store
        .rejudge_problem(&nim(), "alice-admin")
        .await
        .expect("rejudge all");
    let bob = cell("bob").await.expect("a cell");
    assert_eq!(
        (bob.solved_ms, bob.tries, bob.pending),
        (None, 0, 2),
        "{bob:?}"
    );
}

/// A verdict written while another write of the same cell is open waits
/// for it and then counts both: the second writer computes the cell from
/// what the first committed, never from what it saw before (on SQLite the
/// second waits for the one writer; on PostgreSQL for the cell's lock).
async fn a_cell_written_by_two_transactions_at_once_counts_both(backend: TestBackend) {
    use crate::domain::{ContestId, Scoring};
    use crate::store::ContestWindow;

    let (_dir, store) = fresh(backend).await;
    let id: ContestId = "duel".parse().expect("an id");
    let settings = nim_contest("Duel", Scoring::Icpc, 300 * 60, None);
    assert!(store.put_contest(&id, &settings).await.expect("create"));
    let payload = Payload::Answers {
        personal: None,
        answers: Default::default(),
    };
    for minutes in [20, 10] {
        let now = super::now_ms();
        store
            .insert_submission(&NewSubmission {
                problem: &nim(),
                user: "ann",
                payload: &payload,
                contest: Some(ContestWindow {
                    contest: &id,
                    starts_at_ms: now - minutes * 60_000,
                    ends_at_ms: now + 60 * 60_000,
                }),
            })
            .await
            .expect("insert");
    }
    let first = claimed(&store, "w", Duration::from_secs(60)).await;
    let second = claimed(&store, "w", Duration::from_secs(60)).await;
    // The first try judged WA in a transaction left open.
    let mut open = store.write.begin().await.expect("begin");
    query("update submission set state = 'done', verdict = 'WA', judged_at = $2 where id = $1")
        .bind(first.id.to_string())
        .bind(super::now_ms())
        .execute(&mut open)
        .await
        .expect("judge");
    super::contests::refresh_cells(
        &mut open,
        super::contests::CellScope::Submissions(&[first.id]),
    )
    .await
    .expect("refresh");
    let waiting = {
        let store = store.clone();
        tokio::spawn(async move { store.finish(&second, &verdict(Verdict::WA)).await })
    };
    tokio::time::sleep(Duration::from_millis(200)).await;
    assert!(
        !waiting.is_finished(),
        "the second write waits for the first"
    );
    open.commit().await.expect("commit");
    assert!(waiting.await.expect("the second write").expect("finish"));
    let cell = store.scoreboard_cells(&id).await.expect("cells")[&("ann".to_string(), nim())];
    assert_eq!((cell.tries, cell.pending), (2, 0), "{cell:?}");
}

/// Contest tries judged side by side on the same two cells, round after
/// round (with the whole contest recomputed or the problem rejudged beside
/// them in some rounds): after each round every cell is as computed from
/// all its submissions (a recompute from scratch changes nothing), and a
/// reader that followed the changes by version alone holds the same cells
/// at the end (no change committed below a version it had read).
async fn contest_writes_side_by_side_leave_each_cell_whole(backend: TestBackend) {
    use crate::domain::{ContestId, Scoring};
    use crate::store::ContestWindow;

    let (_dir, store) = fresh(backend).await;
    let id: ContestId = "relay".parse().expect("an id");
    let settings = nim_contest("Relay", Scoring::Icpc, 300 * 60, Some(60 * 60));
    assert!(store.put_contest(&id, &settings).await.expect("create"));
    let payload = Payload::Answers {
        personal: None,
        answers: Default::default(),
    };
    let done = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let reader = {
        let (store, id, done) = (store.clone(), id.clone(), done.clone());
        tokio::spawn(async move {
            let mut held = 0;
            let mut cells = std::collections::BTreeMap::new();
            loop {
                let last = done.load(std::sync::atomic::Ordering::SeqCst);
                let version = store
                    .scoreboard_version(&id)
                    .await
                    .expect("a version")
                    .expect("a contest");
                let changes = store.scoreboard_changes(&id, held).await.expect("changes");
                cells.extend(changes.cells);
                held = version;
                if last {
                    return cells;
                }
                tokio::task::yield_now().await;
            }
        })
    };
    for round in 0..8_usize {
        for n in 0..6_usize {
            let now = super::now_ms();
            store
                .insert_submission(&NewSubmission {
                    problem: &nim(),
                    user: ["ann", "bob"][n % 2],
                    payload: &payload,
                    contest: Some(ContestWindow {
                        contest: &id,
                        starts_at_ms: now - (10 + (round * 6 + n) as i64) * 60_000,
                        ends_at_ms: now + 60 * 60_000,
                    }),
                })
                .await
                .expect("insert");
        }
        let mut writes = tokio::task::JoinSet::new();
        let mut n = 0;
        while let Some(claim) = store
            .claim("w", Duration::from_secs(60))
            .await
            .expect("claim")
        {
            let wanted = [Verdict::WA, Verdict::AC, Verdict::CE, Verdict::WA][(round + n) % 4];
            let store = store.clone();
            writes.spawn(async move {
                assert!(
                    store
                        .finish(&claim, &verdict(wanted))
                        .await
                        .expect("finish")
                );
            });
            n += 1;
        }
        match round % 4 {
            1 => {
                let store = store.clone();
                writes.spawn(async move {
                    store
                        .rejudge_problem(&nim(), "admin")
                        .await
                        .expect("rejudge");
                });
            }
            3 => {
                let (store, id, settings) = (store.clone(), id.clone(), settings.clone());
                writes.spawn(async move {
                    assert!(!store.put_contest(&id, &settings).await.expect("replace"));
                });
            }
            _ => {}
        }
        while let Some(written) = writes.join_next().await {
            written.expect("a write");
        }
        if round % 4 == 1 {
            // The rejudged tries are judged in the next round.
            continue;
        }
        let stored = store.scoreboard_cells(&id).await.expect("cells");
        assert_eq!(stored.len(), 2, "{stored:?}");
        assert!(!store.put_contest(&id, &settings).await.expect("replace"));
        let recomputed = store.scoreboard_cells(&id).await.expect("cells");
        assert_eq!(stored, recomputed, "round {round}: a cell missed a write");
    }
    done.store(true, std::sync::atomic::Ordering::SeqCst);
    let followed = reader.await.expect("the reader");
    let stored = store.scoreboard_cells(&id).await.expect("cells");
    assert_eq!(followed, stored, "the reader missed a change");
}

/// An IOI cell keeps its best score and the contest time of the try that
/// last changed it, in everything and in the public view of the freeze:
/// a try that adds nothing moves no time, a rejudge and a change of
/// `score_by` compute them again.
async fn an_ioi_cell_keeps_the_time_its_score_was_reached(backend: TestBackend) {
    use crate::domain::{ContestId, ScoreBy, Scoring};
    use crate::store::ContestWindow;

    let (_dir, store) = fresh(backend).await;
    let id: ContestId = "olympiad".parse().expect("an id");
    let minute = 60_000;
    let mut settings = nim_contest("Olympiad", Scoring::Ioi, 300 * 60, Some(60 * 60));
    assert!(store.put_contest(&id, &settings).await.expect("create"));
    let payload = Payload::Answers {
        personal: None,
        answers: Default::default(),
    };
    // A try by ann at contest minute `at`, judged to these group scores.
    let try_at = |at: i64, groups: [i64; 3]| {
        let (store, id, payload) = (&store, &id, &payload);
        async move {
            let now = super::now_ms();
            store
                .insert_submission(&NewSubmission {
                    problem: &nim(),
                    user: "ann",
                    payload,
                    contest: Some(ContestWindow {
                        contest: id,
                        starts_at_ms: now - at * minute,
                        ends_at_ms: now + minute,
                    }),
                })
                .await
                .expect("insert");
            let claim = claimed(store, "w", Duration::from_secs(60)).await;
            let judgement = JudgementWrite {
                group_scores: Some(groups.to_vec()),
                ..verdict(Verdict::WA)
            };
            assert!(store.finish(&claim, &judgement).await.expect("finish"));
            claim.id
        }
    };
    let cell = || {
        let (store, id) = (&store, &id);
        async move {
            let cell = store
                .scoreboard_cells(id)
                .await
                .expect("cells")
                .get(&("ann".to_string(), nim()))
                .copied()
                .expect("ann's cell");
            (
                cell.score,
                cell.scored_ms.map(|t| t / minute),
                cell.public_score,
                cell.public_scored_ms.map(|t| t / minute),
            )
        }
    };

    try_at(10, [0, 0, 0]).await;
    assert_eq!(cell().await, (0, None, 0, None), "no points, no time");
    try_at(20, [0, 4000, 0]).await;
    assert_eq!(cell().await, (4000, Some(20), 4000, Some(20)));
    // The same group again adds nothing: the time stays.
    try_at(30, [0, 4000, 0]).await;
    assert_eq!(cell().await, (4000, Some(20), 4000, Some(20)));
    // By group, a later try's other group adds to it: 40 + 35.
    let second = try_at(40, [0, 0, 3500]).await;
    assert_eq!(cell().await, (7500, Some(40), 7500, Some(40)));
    // In the freeze (from minute 240), only everything moves.
    try_at(250, [2500, 0, 0]).await;
    assert_eq!(cell().await, (10_000, Some(250), 7500, Some(40)));

    // By the best submission: 40 at minute 20 (the first to reach it).
    settings.score_by = ScoreBy::Submission;
    assert!(!store.put_contest(&id, &settings).await.expect("replace"));
    assert_eq!(cell().await, (4000, Some(20), 4000, Some(20)));
    settings.score_by = ScoreBy::Group;
    assert!(!store.put_contest(&id, &settings).await.expect("replace"));
    assert_eq!(cell().await, (10_000, Some(250), 7500, Some(40)));

    // A rejudge takes the try out until it is judged again; judged to
    // more, the time is its own.
    store
        .rejudge(&second, "alice-admin")
        .await
        .expect("rejudge");
    assert_eq!(cell().await, (6500, Some(250), 4000, Some(20)));
    let claim = claimed(&store, "w", Duration::from_secs(60)).await;
    assert_eq!(claim.id, second);
    let judgement = JudgementWrite {
        group_scores: Some(vec![0, 0, 6000]),
        ..verdict(Verdict::WA)
    };
    assert!(store.finish(&claim, &judgement).await.expect("finish"));
    assert_eq!(cell().await, (12_500, Some(250), 10_000, Some(40)));
}

/// A contest's submissions changed since a time are those created, queued
/// again or judged since, newest first, and no other.
async fn a_contests_changes_since_a_time_are_its_new_requeued_and_judged_rows(
    backend: TestBackend,
) {
    use crate::domain::{ContestId, Scoring};
    use crate::store::ContestWindow;

    let (_dir, store) = fresh(backend).await;
    let id: ContestId = "spring".parse().expect("an id");
    let settings = nim_contest("Spring", Scoring::Icpc, 3600, None);
    assert!(store.put_contest(&id, &settings).await.expect("create"));
    let payload = Payload::Answers {
        personal: None,
        answers: Default::default(),
    };
    let send = |user: &'static str, in_contest: bool| {
        let (store, id, payload) = (&store, &id, &payload);
        async move {
            let now = super::now_ms();
            store
                .insert_submission(&NewSubmission {
                    problem: &nim(),
                    user,
                    payload,
                    contest: in_contest.then_some(ContestWindow {
                        contest: id,
                        starts_at_ms: now - 1000,
                        ends_at_ms: now + 60_000,
                    }),
                })
                .await
                .expect("insert")
                .id
        }
    };
    let judge_next = || {
        let store = &store;
        async move {
            let claim = claimed(store, "w", Duration::from_secs(60)).await;
            assert!(
                store
                    .finish(&claim, &verdict(Verdict::WA))
                    .await
                    .expect("finish")
            );
            claim.id
        }
    };
    let (a, b) = (send("ann", true).await, send("bob", true).await);
    assert_eq!((judge_next().await, judge_next().await), (a, b));
    let c = send("cid", true).await;
    tokio::time::sleep(Duration::from_millis(5)).await;
    let mark = Timestamp::now();
    tokio::time::sleep(Duration::from_millis(5)).await;
    assert_eq!(judge_next().await, c);
    store.rejudge(&a, "alice-admin").await.expect("rejudge");
    let d = send("dan", true).await;
    send("eve", false).await;
    let page = store
        .list_submissions(&ListFilter {
            contest: Some(id.clone()),
            changed_since: Some(mark),
            limit: 50,
            ..ListFilter::default()
        })
        .await
        .expect("list");
    let listed: Vec<SubmissionId> = page.submissions.iter().map(|s| s.id).collect();
    assert_eq!(listed, [d, c, a], "judged, queued again, new; not bob's");
}

/// A problem's reference solution is kept with it and leaves with its
/// definition; a host without the sandbox is offered only the missing
/// references the solver core computes.
async fn a_reference_solution_is_kept_and_its_references_wait_for_a_sandbox(backend: TestBackend) {
    let (_dir, store) = fresh(backend).await;
    save_pending_reference(&store, "Alice\n").await;
    let id: ProblemId = "subtractiongame".parse().expect("id");
    let solution = ReferenceSolution {
        name: "accepted/periodic.py".into(),
        source: "print('Alice')\n".into(),
    };
    let mut imported = definition("h1", "added-1");
    imported.id = id.clone();
    imported.reference_solution = Some(solution.clone());
    store.sync_problem(&imported).await.expect("sync");
    assert_eq!(
        store.reference_solution(&id).await.expect("read"),
        Some(solution)
    );
    assert_eq!(store.reference_solution(&nim()).await.expect("read"), None);
    assert!(
        store
            .pending_reference(false)
            .await
            .expect("pending")
            .is_none(),
        "only the reference solution computes it"
    );
    let pending = store
        .pending_reference(true)
        .await
        .expect("pending")
        .expect("a sandbox runs it");
    assert_eq!(pending.problem_id, id);
    imported.hash = "h2".into();
    imported.reference_solution = None;
    store.sync_problem(&imported).await.expect("sync");
    assert_eq!(store.reference_solution(&id).await.expect("read"), None);
    assert_eq!(
        store
            .pending_reference(false)
            .await
            .expect("pending")
            .map(|p| p.problem_id),
        Some(id)
    );
}

/// Claims every item left in open previews and judges it to `verdicts`'
/// verdict for its submission.
async fn judge_preview(store: &Store, verdicts: &HashMap<SubmissionId, Verdict>) {
    while let Some(claimed) = store
        .claim_rejudging_item("w", Duration::from_secs(60))
        .await
        .expect("claim")
    {
        let verdict_of = verdicts[&claimed.claim.id];
        assert!(
            store
                .record_rejudging_item(&claimed, &verdict(verdict_of))
                .await
                .expect("record")
        );
    }
}

async fn a_rejudge_preview_is_judged_on_the_side_and_applies_only_fresh_changes(
    backend: TestBackend,
) {
    let (_dir, store) = fresh(backend).await;
    assert!(
        store
            .create_rejudging(&nim(), "sam")
            .await
            .expect("create")
            .is_none(),
        "nothing judged, nothing to preview"
    );
    let mut ids = Vec::new();
    for before in [Verdict::AC, Verdict::WA, Verdict::AC] {
        let id = submit(&store).await;
        let claim = claimed(&store, "a", Duration::from_secs(60)).await;
        assert_eq!(claim.id, id);
        assert!(
            store
                .finish(&claim, &verdict(before))
                .await
                .expect("finish")
        );
        ids.push(id);
    }
    submit(&store).await;
    let preview = store
        .create_rejudging(&nim(), "sam")
        .await
        .expect("create")
        .expect("three judged submissions");
    assert_eq!(
        (
            preview.state,
            preview.submissions,
            preview.judged,
            preview.changed
        ),
        (RejudgingState::Preview, 3, 0, 0),
        "the queued submission is not in it"
    );
    assert_eq!(
        store
            .apply_rejudging(preview.id, "sam")
            .await
            .expect("apply"),
        Err(RejudgingRefusal::StillJudging(3))
    );

    // A lease that ran out lets another worker claim the item; the first
    // worker's write is then refused.
    let lost = store
        .claim_rejudging_item("w1", Duration::ZERO)
        .await
        .expect("claim")
        .expect("an item");
    tokio::time::sleep(Duration::from_millis(20)).await;
    let taken = store
        .claim_rejudging_item("w2", Duration::from_secs(60))
        .await
        .expect("claim")
        .expect("the expired item");
    assert_eq!(taken.claim.id, lost.claim.id);
    assert_eq!(taken.claim.attempt, lost.claim.attempt + 1);
    // The claim carries the submission as stored (by `submit`), to judge
    // it again.
    assert_eq!(
        (&taken.claim.problem, &taken.claim.payload),
        (
            &nim(),
            &Ok(Payload::Answers {
                personal: None,
                answers: Default::default(),
            })
        )
    );
    assert!(taken.claim.claimed_at > lost.claim.claimed_at);
    assert!(
        !store
            .record_rejudging_item(&lost, &verdict(Verdict::RE))
            .await
            .expect("record")
    );
    assert!(
        store
            .record_rejudging_item(&taken, &verdict(Verdict::WA))
            .await
            .expect("record")
    );
    assert!(
        !store
            .record_rejudging_item(&taken, &verdict(Verdict::AC))
            .await
            .expect("record"),
        "an item is judged once"
    );
    // Every submission now WA: the first and the third change.
    let verdicts: HashMap<_, _> = ids.iter().map(|id| (*id, Verdict::WA)).collect();
    judge_preview(&store, &verdicts).await;
    let report = store
        .rejudging_report(preview.id)
        .await
        .expect("report")
        .expect("the preview");
    assert_eq!((report.rejudging.judged, report.rejudging.changed), (3, 2));
    let items: Vec<_> = report
        .items
        .iter()
        .map(|i| (i.submission, i.before, i.after, i.changed()))
        .collect();
    assert_eq!(
        items,
        vec![
            (ids[0], Some(Verdict::AC), Some(Verdict::WA), true),
            (ids[1], Some(Verdict::WA), Some(Verdict::WA), false),
            (ids[2], Some(Verdict::AC), Some(Verdict::WA), true),
        ],
        "in submission order"
    );
    // Nothing changed for the submissions yet.
    let verdict_now = |id: SubmissionId| {
        let store = store.clone();
        async move {
            let s = store.submission(&id).await.expect("read").expect("there");
            (s.state, s.verdict)
        }
    };
    assert_eq!(
        verdict_now(ids[0]).await,
        (SubmissionState::Done, Some(Verdict::AC))
    );
    // The third is judged again on its own meanwhile: stale.
    store.rejudge(&ids[2], "sam").await.expect("rejudge");
    assert_eq!(
        store
            .apply_rejudging(preview.id, "sam")
            .await
            .expect("apply"),
        Ok(AppliedRejudging {
            applied: 1,
            stale: 1
        })
    );
    assert_eq!(
        verdict_now(ids[0]).await,
        (SubmissionState::Done, Some(Verdict::WA))
    );
    assert_eq!(store.judgements(&ids[0]).await.expect("read").len(), 2);
    assert_eq!(store.judgements(&ids[1]).await.expect("read").len(), 1);
    assert_eq!(
        verdict_now(ids[2]).await,
        (SubmissionState::Queued, Some(Verdict::AC)),
        "queued again, untouched by the preview"
    );
    let decided = store
        .rejudging(preview.id)
        .await
        .expect("read")
        .expect("there");
    assert_eq!(decided.state, RejudgingState::Applied);
    assert_eq!(decided.decided_by.as_deref(), Some("sam"));
    for refused in [
        store
            .apply_rejudging(preview.id, "sam")
            .await
            .expect("apply")
            .err(),
        store
            .discard_rejudging(preview.id, "sam")
            .await
            .expect("discard")
            .err(),
    ] {
        assert_eq!(
            refused,
            Some(RejudgingRefusal::Decided(RejudgingState::Applied))
        );
    }
    assert_eq!(
        store
            .apply_rejudging(999_999, "sam")
            .await
            .expect("apply")
            .err(),
        Some(RejudgingRefusal::NotFound)
    );

    // A discarded preview's items are never claimed.
    let second = store
        .create_rejudging(&nim(), "sam")
        .await
        .expect("create")
        .expect("judged submissions");
    assert_eq!(second.submissions, 2, "the two submissions still judged");
    assert_eq!(
        store
            .discard_rejudging(second.id, "sam")
            .await
            .expect("discard"),
        Ok(())
    );
    assert!(
        store
            .claim_rejudging_item("w", Duration::from_secs(60))
            .await
            .expect("claim")
            .is_none()
    );
    let listed: Vec<_> = store
        .rejudgings_of_problem(&nim())
        .await
        .expect("list")
        .iter()
        .map(|r| (r.id, r.state))
        .collect();
    assert_eq!(
        listed,
        vec![
            (second.id, RejudgingState::Discarded),
            (preview.id, RejudgingState::Applied)
        ],
        "newest first"
    );
}

async fn a_matrix_run_is_claimed_item_by_item_and_fenced_by_attempt(backend: TestBackend) {
    let (_dir, store) = fresh(backend).await;
    let item = |solution: &str, expected: Verdict| NewMatrixItem {
        solution: solution.into(),
        expected,
        language: "python".parse().expect("a language"),
        source: format!("print('{solution}')\n"),
    };
    let run = store
        .create_matrix_run(
            &nim(),
            "sam",
            2000,
            3000,
            &[
                item("wrong_answer/w.py", Verdict::WA),
                item("accepted/a.py", Verdict::AC),
            ],
        )
        .await
        .expect("create");
    assert_eq!(
        (
            run.time_limit_ms,
            run.raised_limit_ms,
            run.solutions,
            run.judged
        ),
        (2000, 3000, 2, 0)
    );
    // A lease that ran out lets another worker claim the item; the first
    // worker's write is then refused.
    let lost = store
        .claim_matrix_item("w1", Duration::ZERO)
        .await
        .expect("claim")
        .expect("an item");
    assert_eq!(lost.solution, "accepted/a.py", "in path order");
    assert_eq!((lost.raised_limit_ms, lost.problem.clone()), (3000, nim()));
    tokio::time::sleep(Duration::from_millis(20)).await;
    let taken = store
        .claim_matrix_item("w2", Duration::from_secs(60))
        .await
        .expect("claim")
        .expect("the expired item");
    assert_eq!(
        (taken.solution.as_str(), taken.attempt),
        ("accepted/a.py", lost.attempt + 1)
    );
    assert_eq!(taken.job, lost.job, "one id names the item's boxes");
    let results = verdict(Verdict::AC).results;
    assert!(
        !store
            .record_matrix_item(&lost, Verdict::TLE, None, &[])
            .await
            .expect("record")
    );
    assert!(
        store
            .record_matrix_item(&taken, Verdict::AC, None, &results)
            .await
            .expect("record")
    );
    assert!(
        !store
            .record_matrix_item(&taken, Verdict::WA, None, &[])
            .await
            .expect("record"),
        "judged once"
    );
    let other = store
        .claim_matrix_item("w1", Duration::from_secs(60))
        .await
        .expect("claim")
        .expect("the other item");
    assert_eq!(other.solution, "wrong_answer/w.py");
    assert_eq!(other.source, "print('wrong_answer/w.py')\n");
    assert_ne!(other.job, taken.job);
    assert!(
        store
            .claim_matrix_item("w2", Duration::from_secs(60))
            .await
            .expect("claim")
            .is_none(),
        "the other one is leased"
    );
    assert!(
        store
            .record_matrix_item(&other, Verdict::CE, Some("it did not compile"), &[])
            .await
            .expect("record")
    );
    let report = store
        .matrix_report(run.id)
        .await
        .expect("report")
        .expect("the run");
    assert_eq!(report.run.judged, 2);
    let rows: Vec<_> = report
        .solutions
        .iter()
        .map(|s| {
            (
                s.solution.as_str(),
                s.expected,
                s.verdict,
                s.message.as_deref(),
                s.results.len(),
            )
        })
        .collect();
    assert_eq!(
        rows,
        [
            ("accepted/a.py", Verdict::AC, Some(Verdict::AC), None, 1),
            (
                "wrong_answer/w.py",
                Verdict::WA,
                Some(Verdict::CE),
                Some("it did not compile"),
                0
            ),
        ]
    );
    assert_eq!(
        serde_json::to_value(&report.solutions[0].results).expect("json"),
        serde_json::to_value(&results).expect("json"),
        "the results come back whole"
    );
    let second = store
        .create_matrix_run(
            &nim(),
            "sam",
            2000,
            3000,
            &[item("accepted/a.py", Verdict::AC)],
        )
        .await
        .expect("create");
    let listed: Vec<_> = store
        .matrix_runs_of_problem(&nim())
        .await
        .expect("list")
        .iter()
        .map(|r| r.id)
        .collect();
    assert_eq!(listed, [second.id, run.id], "newest first");
    assert!(
        store
            .matrix_report(999_999)
            .await
            .expect("report")
            .is_none()
    );
}

async fn a_stress_run_is_claimed_once_fenced_and_keeps_its_outcome(backend: TestBackend) {
    use crate::{
        domain::{StressFailure, StressOutcome},
        solver::TestKind,
    };
    let (_dir, store) = fresh(backend).await;
    let language = "python".parse().expect("a language");
    let kinds = [TestKind::Random, TestKind::Small];
    let new = NewStressRun {
        problem: &nim(),
        by: "sam",
        language: &language,
        source: "print('Bob')\n",
        kinds: &kinds,
        seeds: (630, 700),
        budget_ms: 60_000,
    };
    let run = store.create_stress_run(&new).await.expect("create");
    assert_eq!(
        (
            run.kinds.clone(),
            run.seeds,
            run.budget_ms,
            run.outcome.clone()
        ),
        (kinds.to_vec(), (630, 700), 60_000, None)
    );
    let lost = store
        .claim_stress_run("w1", Duration::ZERO)
        .await
        .expect("claim")
        .expect("the run");
    assert_eq!(lost.source, "print('Bob')\n");
    tokio::time::sleep(Duration::from_millis(20)).await;
    let taken = store
        .claim_stress_run("w2", Duration::from_secs(60))
        .await
        .expect("claim")
        .expect("the expired run");
    assert_eq!(
        (taken.run.id, taken.attempt, taken.job),
        (run.id, lost.attempt + 1, lost.job)
    );
    assert!(
        store
            .claim_stress_run("w1", Duration::from_secs(60))
            .await
            .expect("claim")
            .is_none(),
        "leased"
    );
    let outcome = StressOutcome::Searched {
        runs: 13,
        out_of_time: false,
        found: Some(StressFailure {
            generated: Some((TestKind::Random, 642)),
            input: "7\n1 2 3 4 5 6 7\n".into(),
            verdict: Verdict::WA,
            message: Some("wrong answer".into()),
        }),
        shrunk: None,
        shrink_runs: 0,
        expected: Some("Bob\n".into()),
    };
    let other = StressOutcome::Unrunnable { why: "x".into() };
    assert!(
        !store
            .record_stress_run(&lost, &other)
            .await
            .expect("record")
    );
    assert!(
        store
            .record_stress_run(&taken, &outcome)
            .await
            .expect("record")
    );
    assert!(
        !store
            .record_stress_run(&taken, &other)
            .await
            .expect("record"),
        "once"
    );
    let done = store
        .stress_run(run.id)
        .await
        .expect("read")
        .expect("the run");
    assert_eq!(done.outcome, Some(outcome));
    let second = store.create_stress_run(&new).await.expect("create");
    let listed: Vec<_> = store
        .stress_runs_of_problem(&nim())
        .await
        .expect("list")
        .iter()
        .map(|r| r.id)
        .collect();
    assert_eq!(listed, [second.id, run.id], "newest first");
    assert!(store.stress_run(999_999).await.expect("read").is_none());
}

crate::on_both_backends!(
    a_stress_run_is_claimed_once_fenced_and_keeps_its_outcome,
    a_matrix_run_is_claimed_item_by_item_and_fenced_by_attempt,
    a_rejudge_preview_is_judged_on_the_side_and_applies_only_fresh_changes,
    a_reference_solution_is_kept_and_its_references_wait_for_a_sandbox,
    a_contests_changes_since_a_time_are_its_new_requeued_and_judged_rows,
    an_ioi_cell_keeps_the_time_its_score_was_reached,
    contest_writes_side_by_side_leave_each_cell_whole,
    a_cell_written_by_two_transactions_at_once_counts_both,
    scoreboard_cells_follow_admissions_verdicts_rejudges_and_the_freeze,
    a_late_window_cut_short_by_the_end_freezes_sooner,
    a_contest_keeps_the_secret_it_was_made_with,
    claims_take_the_oldest_job_once_and_expired_leases_first,
    a_problems_unjudged_count_follows_its_queue_and_a_rejudge,
    a_judgement_of_many_testcases_comes_back_whole_and_in_order,
    latest_judgements_are_each_records_last_in_the_order_asked,
    a_programs_row_shows_its_language_and_the_most_its_runs_took,
    only_the_current_attempt_may_write_and_only_once,
    a_batch_claims_the_answers_in_a_row_and_writes_their_verdicts_fenced_each,
    a_claim_takes_at_most_its_max_and_never_more_than_the_cap,
    state_changes_write_their_events_and_a_verdict_counts_itself,
    progress_is_recorded_only_by_the_attempt_holding_the_lease,
    a_token_page_is_newest_first_and_its_cursor_reaches_every_token,
    syncing_is_idempotent_and_keeps_setter_testcases,
    a_setter_hides_and_shows_only_testcases_setters_added,
    every_catalog_change_moves_the_revision_a_claim_carries,
    a_judge_set_is_kept_in_memory_until_the_revision_moves,
    submission_rules_follow_every_catalog_change_at_once,
    the_first_reference_for_a_version_wins,
    a_reference_for_a_testcase_deleted_while_it_was_computed_is_dropped,
    tokens_are_stored_hashed_and_resolve_to_their_role,
    a_revoked_or_expired_token_no_longer_authenticates_and_a_name_keeps_one_role,
    admission_counts_limits_from_the_database_and_replays_idempotent_requests,
    limit_windows_count_from_the_users_first_submission_in_them,
    admissions_arriving_together_are_each_decided_as_if_alone,
    a_payload_comes_back_as_stored_and_a_corrupt_one_is_reported_not_guessed,
    a_submissions_content_is_its_stored_sizes_or_else_its_payload,
    every_listing_filter_and_the_cursor_work_together,
    created_at_never_decreases_so_since_can_bound_the_scan,
    concurrent_inserts_keep_created_at_in_seq_order,
);
