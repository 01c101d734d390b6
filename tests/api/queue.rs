//! The job queue under failure: dead workers, restarts, and load.

use std::time::Duration;

use nimjudge::{domain::Verdict, store::JudgementWrite, testing::TestBackend};

use crate::helpers::{TestApp, TestDir, correct_answers};

#[tokio::test]
async fn a_job_whose_lease_expires_is_judged_once_by_another_worker() {
    let dir = TestDir::new();
    let app = TestApp::spawn(&dir, 0).await;
    let id = app
        .submit_answers(&app.contestant, &correct_answers())
        .await;
    let store = app.store();

    // A worker claims the job and dies.
    let stale = store
        .claim("dead-worker", Duration::from_millis(200))
        .await
        .expect("claim")
        .expect("a job");
    assert_eq!(stale.id, id);
    // While the lease holds, nobody else gets it.
    assert_eq!(app.judge.run_one_job("w2").await.expect("run"), None);
    tokio::time::sleep(Duration::from_millis(300)).await;
    let outcome = app
        .judge
        .run_one_job("w2")
        .await
        .expect("run")
        .expect("reclaimed");
    assert_eq!(outcome.submission, id);
    assert_eq!(outcome.verdict, Some(Verdict::AC));

    // The dead worker comes back and tries to write: fenced out.
    let late = JudgementWrite {
        problem_version: 1,
        verdict: Verdict::WA,
        message: Some("stale".into()),
        compile_output: None,
        group_scores: None,
        results: Vec::new(),
    };
    assert!(!store.finish(&stale, &late).await.expect("finish"));
    assert_eq!(app.judge.run_one_job("w3").await.expect("run"), None);

    let judgements = store.judgements(&id).await.expect("judgements");
    assert_eq!(judgements.len(), 1);
    assert_eq!(judgements[0].worker, "w2");
    assert_eq!(judgements[0].verdict, Verdict::AC);
    let kinds: Vec<String> = store
        .events(&id)
        .await
        .expect("events")
        .into_iter()
        .map(|e| e.kind.to_string())
        .collect();
    assert_eq!(
        kinds,
        [
            "queued",
            "claimed",
            "lease_lost",
            "claimed",
            "judged",
            "dropped"
        ]
    );
    app.stop().await;
}

#[tokio::test]
async fn a_job_that_loses_too_many_leases_is_ie_with_the_reason() {
    let dir = TestDir::new();
    let app = TestApp::spawn(&dir, 0).await;
    let id = app
        .submit_answers(&app.contestant, &correct_answers())
        .await;
    // max_attempts is 2 in tests: two claims die, the third gives up.
    for worker in ["dead-1", "dead-2"] {
        app.store()
            .claim(worker, Duration::from_millis(50))
            .await
            .expect("claim")
            .expect("a job");
        tokio::time::sleep(Duration::from_millis(80)).await;
    }
    let outcome = app
        .judge
        .run_one_job("w")
        .await
        .expect("run")
        .expect("a job");
    assert_eq!(outcome.verdict, Some(Verdict::IE));
    let row = app
        .store()
        .submission(&id)
        .await
        .expect("read")
        .expect("row");
    assert!(
        row.message
            .as_deref()
            .is_some_and(|m| m.contains("max_attempts")),
        "{row:?}"
    );
    app.stop().await;
}

#[tokio::test]
async fn after_a_restart_queued_and_claimed_jobs_are_each_judged_exactly_once() {
    let dir = TestDir::new();
    let app = TestApp::spawn(&dir, 0).await;
    let mut ids = Vec::new();
    for _ in 0..6 {
        ids.push(
            app.submit_answers(&app.contestant, &correct_answers())
                .await,
        );
    }
    // Two jobs are held by workers of a process that is then killed.
    for _ in 0..2 {
        app.store()
            .claim("killed-w1", Duration::from_millis(300))
            .await
            .expect("claim")
            .expect("a job");
    }
    assert_eq!(app.store().queue_depth().await.expect("depth"), (4, 2));
    app.stop().await;

    let app = TestApp::spawn(&dir, 2).await;
    app.drain().await;
    for id in &ids {
        let judgements = app.store().judgements(id).await.expect("judgements");
        assert_eq!(judgements.len(), 1, "{id}");
        assert_eq!(judgements[0].verdict, Verdict::AC);
    }
    app.stop().await;
}

#[tokio::test]
async fn a_thousand_concurrent_submissions_are_each_judged_exactly_once() {
    const N: usize = 1000;
    let dir = TestDir::new();
    let app = TestApp::spawn(&dir, 2).await;
    let answers = correct_answers();
    let mut tasks = tokio::task::JoinSet::new();
    for _ in 0..N {
        let http = app.http.clone();
        let url = format!("{}/api/submissions", app.address);
        let token = app.contestant.clone();
        let body = serde_json::json!({ "problem": "nim", "answers": answers });
        tasks.spawn(async move {
            let response = http
                .post(url)
                .bearer_auth(token)
                .json(&body)
                .send()
                .await
                .expect("send");
            assert_eq!(response.status(), reqwest::StatusCode::ACCEPTED);
            let reply: serde_json::Value = response.json().await.expect("json");
            reply["id"].as_str().expect("id").to_string()
        });
    }
    let mut ids = Vec::with_capacity(N);
    while let Some(id) = tasks.join_next().await {
        ids.push(id.expect("task"));
    }
    ids.sort();
    ids.dedup();
    assert_eq!(ids.len(), N);
    app.drain().await;
    // Every submission is done, and there are exactly N judgements in all,
    // so each has exactly one.
    let counts = app.store().verdict_counts().await.expect("counts");
    assert_eq!(counts, vec![(Verdict::AC, N as i64)]);
    let listed = app
        .store()
        .list_submissions(&nimjudge::store::ListFilter {
            limit: N as i64 + 1,
            ..Default::default()
        })
        .await
        .expect("list");
    assert_eq!(listed.submissions.len(), N);
    assert!(
        listed
            .submissions
            .iter()
            .all(|s| s.verdict == Some(Verdict::AC) && s.attempt == 1)
    );
    app.stop().await;
}

#[tokio::test]
async fn jobs_released_at_shutdown_go_back_to_the_queue_without_using_a_try() {
    let dir = TestDir::new();
    let app = TestApp::spawn(&dir, 0).await;
    let id = app
        .submit_answers(&app.contestant, &correct_answers())
        .await;
    let store = app.store();
    let held = store
        .claim("inst1-w1", Duration::from_secs(60))
        .await
        .expect("claim")
        .expect("a job");
    assert_eq!(store.release("other-").await.expect("release"), 0);
    assert_eq!(store.release("inst1-").await.expect("release"), 1);
    assert_eq!(store.queue_depth().await.expect("depth"), (1, 0));
    // The released holder can no longer write.
    let late = JudgementWrite {
        problem_version: 1,
        verdict: Verdict::AC,
        message: None,
        compile_output: None,
        group_scores: None,
        results: Vec::new(),
    };
    assert!(!store.finish(&held, &late).await.expect("finish"));
    let outcome = app
        .judge
        .run_one_job("inst2-w1")
        .await
        .expect("run")
        .expect("a job");
    assert_eq!(outcome.verdict, Some(Verdict::AC));
    let row = store.submission(&id).await.expect("read").expect("row");
    assert_eq!(row.attempt, 2);
    let kinds = event_kinds(store, &id).await;
    assert!(kinds.contains(&"released".to_string()), "{kinds:?}");
    assert!(!kinds.contains(&"lease_lost".to_string()), "{kinds:?}");
    app.stop().await;
}

/// The kinds of a submission's events, in order.
async fn event_kinds(
    store: &nimjudge::store::Store,
    id: &nimjudge::domain::SubmissionId,
) -> Vec<String> {
    store
        .events(id)
        .await
        .expect("events")
        .into_iter()
        .map(|e| e.kind.to_string())
        .collect()
}

#[tokio::test]
async fn jobs_claimed_and_not_started_are_released_at_a_stop_in_time() {
    let dir = TestDir::new();
    let app = TestApp::spawn(&dir, 0).await;
    let ids = [
        app.submit_answers(&app.contestant, &correct_answers())
            .await,
        app.submit_answers(&app.other, &correct_answers()).await,
    ];
    // Claimed by one of the server's own workers, as a batch is, and not
    // started when the stop comes: the workers are done at once, well
    // within the grace period.
    let claims = app
        .store()
        .claim_batch(&format!("{}-w1", app.instance), Duration::from_secs(60), 16)
        .await
        .expect("claim");
    assert_eq!(claims.len(), 2);
    app.stop().await;
    let app = TestApp::spawn(&dir, 0).await;
    assert_eq!(app.store().queue_depth().await.expect("depth"), (2, 0));
    for id in &ids {
        let kinds = event_kinds(app.store(), id).await;
        assert!(kinds.contains(&"released".to_string()), "{kinds:?}");
    }
    app.stop().await;
}

#[tokio::test]
async fn two_daemons_starting_at_once_on_a_fresh_database_both_come_up() {
    // The race is timing-dependent: without the startup lock about one round
    // in three failed, so run several.
    for _ in 0..8 {
        let dir = TestDir::new();
        let (a, b) = tokio::join!(
            nimjudge::startup::Application::build(dir.config(0)),
            nimjudge::startup::Application::build(dir.config(0)),
        );
        let (a, b) = (a.expect("first daemon"), b.expect("second daemon"));
        let problems = a.store().problems().await.expect("problems");
        assert_eq!(problems.len(), 1);
        assert_eq!(problems[0].version, 1, "synced once, not twice");
        a.store().close().await;
        b.store().close().await;
    }
}

#[tokio::test]
async fn a_long_poll_sees_a_verdict_written_by_another_daemon_on_the_same_database() {
    let dir = TestDir::new();
    // The API host has no workers; a second daemon on the same database
    // judges. Its wake-up never reaches the first process.
    let api = TestApp::spawn(&dir, 0).await;
    let id = api
        .submit_answers(&api.contestant, &correct_answers())
        .await;
    let worker_host = nimjudge::startup::Application::build(dir.config(1))
        .await
        .expect("the worker daemon");
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let worker_run = tokio::spawn(worker_host.run_until(async move {
        let _ = stopped.await;
    }));
    let started = std::time::Instant::now();
    let (status, body) = api
        .get(
            &format!("/api/submissions/{id}?wait_ms=20000"),
            &api.contestant,
        )
        .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(
        body["submission"]["state"], "done",
        "the wait returned stale state: {body}"
    );
    assert_eq!(body["submission"]["verdict"], "AC", "{body}");
    assert!(
        started.elapsed() < Duration::from_secs(20),
        "the wait ran to its deadline instead of seeing the verdict"
    );
    let _ = stop.send(());
    worker_run
        .await
        .expect("worker daemon task")
        .expect("worker daemon exits cleanly");
    api.stop().await;
}

#[tokio::test]
async fn an_api_host_and_a_worker_host_judge_together_and_their_news_crosses_processes() {
    let dir = TestDir::new();
    // On PostgreSQL the news crosses by NOTIFY, so both hosts are set to
    // poll only once a minute: the worker must be woken by the API host's
    // queued notice and the long poll by the worker's judged notice, or the
    // submission waits past the long poll's deadline. On SQLite, whose hosts
    // share only a file, they poll as usual.
    let slow = match TestBackend::from_env().expect("the test backend") {
        TestBackend::Postgres => "60000",
        TestBackend::Sqlite => "500",
    };
    let api = TestApp::spawn_with(&dir, 0, &[("SERVER__WAIT_RECHECK_MS", slow)]).await;
    let worker_host = nimjudge::startup::WorkerHost::build(
        dir.config_with(2, &[("WORKER__POLL_INTERVAL_MS", slow)]),
    )
    .await
    .expect("the worker host");
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let worker_run = tokio::spawn(worker_host.run_until(async move {
        let _ = stopped.await;
    }));
    // Let the worker host reach its idle wait before the job arrives.
    tokio::time::sleep(Duration::from_millis(300)).await;
    for _ in 0..3 {
        let id = api
            .submit_answers(&api.contestant, &correct_answers())
            .await;
        let started = std::time::Instant::now();
        let (status, body) = api
            .get(
                &format!("/api/submissions/{id}?wait_ms=15000"),
                &api.contestant,
            )
            .await;
        assert_eq!(status, 200, "{body}");
        assert_eq!(body["submission"]["state"], "done", "{body}");
        assert_eq!(body["submission"]["verdict"], "AC", "{body}");
        assert!(
            started.elapsed() < Duration::from_secs(15),
            "the verdict was seen only at the long poll's deadline"
        );
    }
    let _ = stop.send(());
    worker_run
        .await
        .expect("worker host task")
        .expect("the worker host exits cleanly");
    api.stop().await;
}

#[tokio::test]
async fn workers_needing_the_same_missing_reference_compute_it_once() {
    let dir = TestDir::new();
    let app = TestApp::spawn(&dir, 0).await;
    // Workers find references missing at the same moment, usually the same
    // one (when one finishes before another looks, that one finds the next
    // missing reference instead, which is fine). Whatever they found, each
    // stored reference was computed once.
    let (first, second, third) = tokio::join!(
        app.judge.compute_pending_reference(),
        app.judge.compute_pending_reference(),
        app.judge.compute_pending_reference(),
    );
    assert!(first.expect("first") && second.expect("second") && third.expect("third"));
    let stored = app
        .store()
        .testcases(&"nim".parse().expect("an id"), true)
        .await
        .expect("testcases")
        .iter()
        .filter(|t| t.status != nimjudge::domain::ReferenceStatus::Pending)
        .count();
    assert!(stored >= 1);
    let (status, metrics) = app
        .request(reqwest::Method::GET, "/metrics", None, None)
        .await;
    assert_eq!(status, 200);
    let metrics = metrics.as_str().expect("text").to_string();
    assert!(
        metrics.contains(&format!("nimjudge_references_computed_total {stored}\n")),
        "{stored} references stored; computed:\n{metrics}"
    );
    app.stop().await;
}
