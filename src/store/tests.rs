//! Store conformance tests: what any backend must do. They run against
//! SQLite today; a PostgreSQL store would run the same cases.

use std::time::Duration;

use super::*;

struct Scratch(std::path::PathBuf);

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

async fn fresh() -> (Scratch, Store) {
    let dir = std::env::temp_dir().join(format!("nimjudge-store-{}", uuid::Uuid::new_v4()));
    let store = open_file(&dir.join("nested").join("test.db"))
        .await
        .expect("open a fresh database");
    let definition = ProblemDefinition {
        id: "nim".into(),
        title: "Nim".into(),
        statement: String::new(),
        time_limit_ms: 2000,
        hash: "h1".into(),
        testcases: vec![DefinedTestcase {
            name: "sample-1".into(),
            input: "1\n1\n".into(),
            origin: "sample".into(),
            generator: None,
        }],
    };
    store.sync_problem(&definition).await.expect("sync");
    (Scratch(dir), store)
}

async fn submit(store: &Store) -> String {
    store
        .insert_submission(&NewSubmission {
            problem_id: "nim",
            user_name: "carol",
            kind: "answers",
            payload: "{\"answers\":{}}".into(),
        })
        .await
        .expect("insert")
        .id
}

fn verdict(verdict: Verdict) -> JudgementWrite {
    JudgementWrite {
        problem_version: 1,
        verdict,
        message: None,
        results: vec![ResultWrite {
            testcase: "sample-1".into(),
            hidden: false,
            verdict,
            time_us: 5,
            message: None,
        }],
    }
}

#[tokio::test]
async fn claims_take_the_oldest_job_once_and_expired_leases_first() {
    let (_dir, store) = fresh().await;
    let first = submit(&store).await;
    let second = submit(&store).await;
    let a = store
        .claim("a", Duration::from_millis(30))
        .await
        .expect("claim")
        .expect("job");
    assert_eq!((a.id.as_str(), a.attempt, a.tries), (first.as_str(), 1, 1));
    tokio::time::sleep(Duration::from_millis(50)).await;
    let third = submit(&store).await;
    // The expired lease comes before the queued jobs.
    let b = store
        .claim("b", Duration::from_secs(60))
        .await
        .expect("claim")
        .expect("job");
    assert_eq!((b.id.as_str(), b.attempt, b.tries), (first.as_str(), 2, 2));
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

#[tokio::test]
async fn only_the_current_attempt_may_write_and_only_once() {
    let (_dir, store) = fresh().await;
    let id = submit(&store).await;
    let old = store
        .claim("a", Duration::from_millis(1))
        .await
        .expect("claim")
        .expect("job");
    tokio::time::sleep(Duration::from_millis(10)).await;
    let new = store
        .claim("b", Duration::from_secs(60))
        .await
        .expect("claim")
        .expect("job");
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

#[tokio::test]
async fn syncing_is_idempotent_and_keeps_setter_testcases() {
    let (_dir, store) = fresh().await;
    assert!(
        store
            .add_testcase("nim", "mine", "1\n2\n", true, "sam")
            .await
            .expect("add")
    );
    assert!(
        !store
            .add_testcase("nim", "mine", "1\n3\n", true, "sam")
            .await
            .expect("add")
    );
    let mut definition = ProblemDefinition {
        id: "nim".into(),
        title: "Nim".into(),
        statement: String::new(),
        time_limit_ms: 2000,
        hash: "h1".into(),
        testcases: vec![DefinedTestcase {
            name: "sample-1".into(),
            input: "1\n1\n".into(),
            origin: "sample".into(),
            generator: None,
        }],
    };
    let sync = store.sync_problem(&definition).await.expect("sync");
    assert_eq!(sync, SyncOutcome::Unchanged { version: 1 });
    definition.hash = "h2".into();
    definition.testcases[0].name = "sample-2".into();
    let sync = store.sync_problem(&definition).await.expect("sync");
    assert_eq!(sync, SyncOutcome::Updated { version: 2 });
    let names: Vec<String> = store
        .testcases("nim", true)
        .await
        .expect("list")
        .into_iter()
        .map(|t| t.name)
        .collect();
    assert_eq!(names, ["mine", "sample-2"]);
    assert_eq!(store.testcases("nim", false).await.expect("list").len(), 1);
}

#[tokio::test]
async fn the_first_reference_for_a_version_wins() {
    let (_dir, store) = fresh().await;
    let pending = store
        .pending_reference()
        .await
        .expect("pending")
        .expect("one is missing");
    let first = ReferenceRow {
        output: Some("Alice\n".into()),
        error: None,
    };
    let second = ReferenceRow {
        output: Some("Bob\n".into()),
        error: None,
    };
    for reference in [&first, &second] {
        store
            .save_reference(pending.testcase_id, pending.problem_version, reference, 1)
            .await
            .expect("save");
    }
    assert!(store.pending_reference().await.expect("pending").is_none());
    let (_, testcases) = store
        .judge_testcases("nim", true)
        .await
        .expect("read")
        .expect("problem");
    let cached = testcases[0].reference.as_ref().expect("cached");
    assert_eq!(cached.output.as_deref(), Some("Alice\n"));
    assert_eq!(
        testcases[0].input, None,
        "inputs are not loaded once cached"
    );
}

#[tokio::test]
async fn tokens_are_stored_hashed_and_resolve_to_their_role() {
    let (_dir, store) = fresh().await;
    let secret = store
        .create_token("sam", Role::Setter)
        .await
        .expect("create");
    let principal = store.principal(&secret).await.expect("lookup");
    assert_eq!(
        principal,
        Some(Principal {
            name: "sam".into(),
            role: Role::Setter
        })
    );
    assert_eq!(store.principal("nj_wrong").await.expect("lookup"), None);
    let stored: Vec<String> = sqlx::query("select hash from token")
        .fetch_all(&store.read)
        .await
        .expect("read")
        .iter()
        .map(|r| r.get("hash"))
        .collect();
    assert_eq!(stored, [hash_secret(&secret)]);
    assert!(!stored.contains(&secret));
}
