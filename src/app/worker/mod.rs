//! Workers: claim a submission, get reference outputs, compare, record.
//!
//! A worker is a loop that wakes on a [`JobSignals`] wake-up (a new
//! submission) or a deadline (expired leases, pending references) and stops
//! on a cancellation token between jobs, so a job in flight finishes.
//! Reference outputs come from the solver core on the blocking pool and are
//! cached in the database per (testcase, problem version), so each is
//! computed once; workers of one process needing the same missing one at
//! the same time share one computation. A worker claims answers jobs queued one behind the
//! other in batches ([`CLAIM_BATCH`]) and writes their verdicts together through
//! [`Store::finish_batch`] (a group commit), each fenced by its claim's attempt number. [`Judge::run_one_job`] is public so tests can
//! drain the queue one job at a time. This module does not speak HTTP.
//!
//! While a job runs, its judging reports how many testcases are done to a
//! [`ProgressReport`] (no write), and the worker writes the latest number
//! through [`Store::record_progress`] at most every [`PROGRESS_INTERVAL`],
//! fenced like the verdict: a job that ends sooner writes none, so fast
//! answer judging costs no extra write.

pub mod interactive;
pub mod program;
pub mod stress_job;

use std::{
    collections::{BTreeMap, HashMap},
    sync::{Arc, Mutex, PoisonError},
    time::{Duration, Instant},
};

use program::{
    Compilation, ProblemLimits, ProgramJob, ProgramSource, ProgramTestcase, compile, judge_program,
};

use tokio::{
    sync::{OnceCell, watch},
    time::{self as clock, MissedTickBehavior},
};
use tokio_util::sync::CancellationToken;
use tracing::{Instrument, error, info, info_span, warn};

use crate::{
    app::CatalogCache,
    checker::{self, Case, Comparison},
    config::WorkerConfig,
    contest::PERSONAL,
    domain::{
        LanguageId, Payload, PersonalInput, ProblemId, Progress, SubmissionId, TestcaseName,
        TestcaseResult, Verdict,
    },
    job_signals::JobSignals,
    programs::Programs,
    sandbox::SandboxError,
    scoring::{self, TestcaseGroup},
    solver::{self, InputError},
    store::{Claim, JudgeSet, JudgementWrite, ReferenceRow, Store, StoreError},
    telemetry::Metrics,
};

/// Jobs a worker claims at once at most: answers jobs queued one behind
/// the other, judged in turn and written in one transaction.
pub const CLAIM_BATCH: usize = 16;

/// How often, at most, a job's progress is written to the store: a job
/// that ends sooner writes none.
pub const PROGRESS_INTERVAL: Duration = Duration::from_millis(250);

/// Where a judging reports how many testcases it has judged. Reporting
/// writes nothing: the worker samples the latest report and records it now
/// and then (see [`PROGRESS_INTERVAL`]). Cheap to clone, for the blocking
/// pool.
#[derive(Debug, Clone)]
pub struct ProgressReport(Arc<watch::Sender<Option<Progress>>>);

impl ProgressReport {
    /// A report and the receiver the worker samples.
    fn new() -> (ProgressReport, watch::Receiver<Option<Progress>>) {
        let (sender, receiver) = watch::channel(None);
        (ProgressReport(Arc::new(sender)), receiver)
    }

    /// `done` testcases of `total` are judged.
    pub fn judged(&self, done: usize, total: usize) {
        let count = |n: usize| i64::try_from(n).unwrap_or(i64::MAX);
        self.0.send_replace(Some(Progress {
            done: count(done),
            total: count(total),
        }));
    }
}

/// A failure that leaves the job to be reclaimed when its lease expires.
#[derive(Debug, thiserror::Error)]
pub enum WorkerError {
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error("the solver task failed: {0}")]
    Join(#[from] tokio::task::JoinError),
    /// A problem's reference solution cannot run on this host now (no
    /// sandbox, its language unavailable, the sandbox failed): nothing is
    /// cached, so a host that can run it computes the reference later.
    #[error("the reference solution cannot run here: {0}")]
    ReferenceUnrunnable(String),
}

/// What became of one claimed job.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct JobOutcome {
    pub submission: SubmissionId,
    /// `None` if the lease was lost and the result dropped.
    pub verdict: Option<Verdict>,
}

/// A judging worker's handles and settings. Cheap to clone: the store,
/// signals and metrics are the same handles the HTTP API holds.
#[derive(Clone, Debug)]
pub struct Judge {
    store: Store,
    /// This process's copies of catalog rows, shared with its use cases.
    catalog: Arc<CatalogCache>,
    signals: JobSignals,
    metrics: Metrics,
    programs: Arc<Programs>,
    lease: Duration,
    max_attempts: u32,
    poll_interval: Duration,
    /// References being computed now, by (testcase, problem version): a
    /// worker that needs one another worker is computing waits for it
    /// instead of computing it again. An entry is removed when it is done;
    /// the database cache serves it from then on.
    in_flight: Arc<Mutex<HashMap<ReferenceKey, Arc<OnceCell<ReferenceRow>>>>>,
}

/// A cached reference's key: (testcase id, problem version).
type ReferenceKey = (i64, i64);

impl Judge {
    pub fn new(
        store: Store,
        catalog: Arc<CatalogCache>,
        signals: JobSignals,
        metrics: Metrics,
        programs: Arc<Programs>,
        config: &WorkerConfig,
    ) -> Judge {
        Judge {
            store,
            catalog,
            signals,
            metrics,
            programs,
            lease: config.lease,
            max_attempts: config.max_attempts,
            poll_interval: config.poll_interval,
            in_flight: Arc::default(),
        }
    }

    /// Runs workers until `cancel` fires; each finishes its job in flight.
    /// An idle worker waits for a wake-up (a job queued by this process or,
    /// on PostgreSQL, announced by another), its poll interval (leases run
    /// out, missed wake-ups) or the stop.
    pub async fn run_worker(self, name: String, cancel: CancellationToken) {
        info!(worker = %name, "worker started");
        // Whether a reference may be missing: at the start and after each
        // wake-up (a new testcase wakes workers), not after a batch.
        let mut woken = true;
        while !cancel.is_cancelled() {
            match self.store.claim_batch(&name, self.lease, CLAIM_BATCH).await {
                Ok(claims) if !claims.is_empty() => {
                    if let Err(e) = self.run_claims(&name, claims).await {
                        error!(worker = %name, error = %e, "a job failed; its lease will expire");
                    }
                    woken = false;
                    continue;
                }
                Ok(_) => {}
                Err(e) => error!(worker = %name, error = %e, "claiming failed"),
            }
            if woken {
                match self.compute_pending_reference().await {
                    Ok(true) => continue,
                    Ok(false) => {}
                    Err(e) => error!(worker = %name, error = %e, "computing a reference failed"),
                }
                match self.judge_pending_rejudging(&name).await {
                    Ok(true) => continue,
                    Ok(false) => {}
                    Err(e) => error!(worker = %name, error = %e, "a rejudge preview's job failed"),
                }
                if self.programs.sandbox().is_ok() {
                    match self.judge_pending_matrix_item(&name).await {
                        Ok(true) => continue,
                        Ok(false) => {}
                        Err(e) => error!(worker = %name, error = %e, "a matrix run's job failed"),
                    }
                    match self.judge_pending_stress_run(&name).await {
                        Ok(true) => continue,
                        Ok(false) => {}
                        Err(e) => error!(worker = %name, error = %e, "a stress test failed"),
                    }
                }
            }
            tokio::select! {
                () = cancel.cancelled() => {}
                () = self.signals.job_waiting() => {}
                () = tokio::time::sleep(self.poll_interval) => {}
            }
            woken = true;
        }
        // Jobs claimed and not judged are released with the rest of this
        // host's at its stop.
        info!(worker = %name, "worker stopped");
    }

    /// Claims and judges one job as `worker`. `Ok(None)` if the queue is empty.
    pub async fn run_one_job(&self, worker: &str) -> Result<Option<JobOutcome>, WorkerError> {
        Ok(self.run_jobs(worker, 1).await?.into_iter().next())
    }

    /// Claims up to `max` jobs as `worker` (see [`Store::claim_batch`]),
    /// judges them in turn and writes their verdicts together, in one
    /// transaction: a group commit. Empty if the queue is.
    pub async fn run_jobs(&self, worker: &str, max: usize) -> Result<Vec<JobOutcome>, WorkerError> {
        let claims = self.store.claim_batch(worker, self.lease, max).await?;
        self.run_claims(worker, claims).await
    }

    /// Judges `claims` in turn and writes their verdicts together, in one
    /// transaction; returns the outcomes.
    ///
    /// The jobs of a batch that wait their turn are not under the
    /// heartbeat of the one being judged, so once a batch has run for a
    /// quarter of a lease, the verdicts so far are written and the waiting
    /// jobs' leases extended. A failure still writes the verdicts judged
    /// before it; the failed job and those after it are left to their
    /// leases, as a single job's failure is.
    async fn run_claims(
        &self,
        worker: &str,
        claims: Vec<Claim>,
    ) -> Result<Vec<JobOutcome>, WorkerError> {
        let mut outcomes = Vec::with_capacity(claims.len());
        let mut judged = Vec::with_capacity(claims.len());
        let mut started = Instant::now();
        let mut waiting = claims.into_iter();
        while let Some(claim) = waiting.next() {
            let span = info_span!("job", submission = %claim.id, attempt = claim.attempt, worker);
            match self.judge_claim(&claim).instrument(span).await {
                Ok(judgement) => judged.push((claim, judgement)),
                Err(e) => {
                    if let Err(written) = self.record(std::mem::take(&mut judged)).await {
                        error!(worker, error = %written, "writing a batch's verdicts failed");
                    }
                    return Err(e);
                }
            }
            if waiting.len() > 0 && started.elapsed() > self.lease / 4 {
                outcomes.extend(self.record(std::mem::take(&mut judged)).await?);
                for claim in waiting.as_slice() {
                    if !self.store.extend_lease(claim, self.lease).await? {
                        warn!(submission = %claim.id, "a batched claim was lost while it waited");
                    }
                }
                started = Instant::now();
            }
        }
        outcomes.extend(self.record(judged).await?);
        Ok(outcomes)
    }

    /// Writes judged claims' verdicts in one transaction, then wakes their
    /// long polls and counts their latency.
    async fn record(
        &self,
        judged: Vec<(Claim, JudgementWrite)>,
    ) -> Result<Vec<JobOutcome>, WorkerError> {
        if judged.is_empty() {
            return Ok(Vec::new());
        }
        let verdicts: Vec<(&Claim, &JudgementWrite)> = judged.iter().map(|(c, j)| (c, j)).collect();
        let written = self.store.finish_batch(&verdicts).await?;
        let now = crate::store::now_ms();
        let outcomes = judged
            .iter()
            .zip(written)
            .map(|((claim, judgement), written)| {
                let span = info_span!("job", submission = %claim.id, attempt = claim.attempt);
                let _entered = span.enter();
                if written {
                    let latency = (now - claim.queued_at).max(0);
                    self.metrics
                        .observe_latency_ms(u64::try_from(latency).unwrap_or(0));
                    self.signals.judged(claim.id);
                    info!(verdict = %judgement.verdict, latency_ms = latency, "judged");
                } else {
                    warn!("lease lost before the verdict was written; result dropped");
                }
                JobOutcome {
                    submission: claim.id,
                    verdict: written.then_some(judgement.verdict),
                }
            })
            .collect();
        Ok(outcomes)
    }

    /// The judgement of one claimed job (not yet written).
    async fn judge_claim(&self, claim: &Claim) -> Result<JudgementWrite, WorkerError> {
        self.judgement(claim, true).await
    }

    /// The judgement of `claim`; `supervised`, with its progress recorded
    /// and its lease extended on the submission (a rejudge preview's item
    /// is judged without: the submission is not running).
    async fn judgement(
        &self,
        claim: &Claim,
        supervised: bool,
    ) -> Result<JudgementWrite, WorkerError> {
        let max_attempts = i64::from(self.max_attempts);
        Ok(if claim.tries > max_attempts {
            JudgementWrite {
                problem_version: 0,
                verdict: Verdict::IE,
                message: Some(format!(
                    "gave up: {} claims lost their lease (max_attempts = {max_attempts})",
                    claim.tries - 1
                )),
                compile_output: None,
                results: Vec::new(),
                group_scores: None,
            }
        } else {
            let (report, reported) = ProgressReport::new();
            match &claim.payload {
                Ok(Payload::Answers {
                    answers,
                    personal: Some(personal),
                }) => {
                    let answer = answers.values().next().map_or("", String::as_str);
                    self.judge_personal(&claim.problem, *personal, answer)
                        .await?
                }
                Ok(Payload::Answers {
                    answers,
                    personal: None,
                }) => {
                    let judging = self.judge_answers(claim, answers, &report);
                    if supervised {
                        self.supervise(claim, false, reported, judging).await?
                    } else {
                        judging.await?
                    }
                }
                Ok(Payload::Custom { input, output }) => {
                    self.judge_custom(&claim.problem, input, output).await?
                }
                Ok(Payload::Program { language, source }) => {
                    let run = ProgramRun {
                        problem: &claim.problem,
                        label: format!("{}-{}", claim.id, claim.attempt),
                        raised_limit: None,
                    };
                    let judging = self.judge_program(run, language, source, Some(report));
                    if supervised {
                        self.supervise(claim, true, reported, judging).await?
                    } else {
                        judging.await?
                    }
                }
                Err(unreadable) => internal_error(0, unreadable.clone()),
            }
        })
    }

    /// Judges answers on the public testcases as of the claim's revision of
    /// its problem (from memory when this process read them at it).
    async fn judge_answers(
        &self,
        claim: &Claim,
        answers: &BTreeMap<TestcaseName, String>,
        report: &ProgressReport,
    ) -> Result<JudgementWrite, WorkerError> {
        let problem = &claim.problem;
        let Some(set) = self
            .catalog
            .answer_testcases(&self.store, problem, claim.revision)
            .await?
        else {
            return Ok(internal_error(
                0,
                format!("problem `{problem}` no longer exists"),
            ));
        };
        let (version, testcases, groups) = (set.version, &set.testcases, &set.groups);
        if testcases.is_empty() {
            return Ok(internal_error(
                version,
                "the problem has no public testcases".into(),
            ));
        }
        let total = testcases.len();
        report.judged(0, total);
        let mut results = Vec::with_capacity(total);
        for testcase in testcases {
            let started = Instant::now();
            let computed;
            let reference = match &testcase.reference {
                Some(reference) => reference,
                None => {
                    let input = testcase.input.clone().unwrap_or_default();
                    computed = self
                        .compute_reference(problem, testcase.id, version, input)
                        .await?;
                    &computed
                }
            };
            let checked = match (&reference.output, answers.get(&testcase.name)) {
                (None, _) => Checked::failed(
                    Verdict::IE,
                    format!(
                        "the reference solver failed: {}",
                        reference.error.as_deref().unwrap_or("unknown error")
                    ),
                ),
                (Some(_), None) => Checked::failed(Verdict::WA, "no answer was submitted".into()),
                (Some(expected), Some(answer)) => check(set.case, expected, answer).await?,
            };
            results.push(TestcaseResult {
                testcase: testcase.name.clone().into(),
                hidden: testcase.hidden,
                verdict: checked.verdict,
                time_us: micros(started.elapsed()),
                message: checked.message,
                detail: checked.detail,
                run: None,
            });
            report.judged(results.len(), total);
        }
        Ok(summarise(version, results, groups))
    }

    /// Judges the answer to a participant's own input, generated again
    /// from its kind and seed: one testcase, `personal`, worth the whole
    /// score.
    async fn judge_personal(
        &self,
        problem: &ProblemId,
        personal: PersonalInput,
        answer: &str,
    ) -> Result<JudgementWrite, WorkerError> {
        let Some(solver) = solver::find(problem.as_str()) else {
            return Ok(internal_error(
                0,
                format!("no solver is registered for `{problem}`"),
            ));
        };
        let input =
            tokio::task::spawn_blocking(move || solver.generate(personal.kind, personal.seed))
                .await?;
        self.judge_one(problem, PERSONAL, input, answer).await
    }

    /// Judges `output` for an input of the contestant's own: one testcase,
    /// `custom`, which earns no points.
    async fn judge_custom(
        &self,
        problem: &ProblemId,
        input: &str,
        output: &str,
    ) -> Result<JudgementWrite, WorkerError> {
        let mut checked = self
            .judge_one(problem, "custom", input.to_string(), output)
            .await?;
        checked.group_scores = None;
        Ok(checked)
    }

    /// Judges `output` for `input` by the solver core, as one testcase
    /// named `name` scored as the whole problem.
    async fn judge_one(
        &self,
        problem: &ProblemId,
        name: &str,
        input: String,
        output: &str,
    ) -> Result<JudgementWrite, WorkerError> {
        let version = self.store.problem(problem).await?.map_or(0, |p| p.version);
        let started = Instant::now();
        let checked = match solve(problem, input).await? {
            Err(e) => Checked::failed(Verdict::IE, format!("the reference solver failed: {e}")),
            // Only problems with a solver take answers: theirs compare in case.
            Ok(expected) => check(Case::Sensitive, &expected, output).await?,
        };
        Ok(summarise(
            version,
            vec![TestcaseResult {
                testcase: name.into(),
                hidden: false,
                verdict: checked.verdict,
                time_us: micros(started.elapsed()),
                message: checked.message,
                detail: checked.detail,
                run: None,
            }],
            &[],
        ))
    }

    /// Compiles and runs a program on every testcase in the sandbox, on the
    /// blocking pool. References missing from the cache are computed first.
    async fn judge_program(
        &self,
        run: ProgramRun<'_>,
        language: &LanguageId,
        source: &str,
        report: Option<ProgressReport>,
    ) -> Result<JudgementWrite, WorkerError> {
        let problem_id = run.problem;
        let (sandbox, language) = match self.programs.usable(language) {
            Ok(usable) => usable,
            Err(refusal) => return Ok(internal_error(0, refusal.to_string())),
        };
        let Some(problem) = self.store.problem(problem_id).await? else {
            return Ok(internal_error(
                0,
                format!("problem `{problem_id}` no longer exists"),
            ));
        };
        let Some(JudgeSet {
            version,
            testcases: rows,
            groups,
            case,
            ..
        }) = self.store.judge_testcases(problem_id, true).await?
        else {
            return Ok(internal_error(
                0,
                format!("problem `{problem_id}` no longer exists"),
            ));
        };
        if rows.is_empty() {
            return Ok(internal_error(
                version,
                "the problem has no testcases".into(),
            ));
        }
        let mut testcases = Vec::with_capacity(rows.len());
        for row in rows {
            let input = row.input.unwrap_or_default();
            let reference = match row.reference {
                Some(reference) => reference,
                None => match self
                    .compute_reference(problem_id, row.id, version, input.clone())
                    .await
                {
                    Ok(reference) => reference,
                    Err(e @ WorkerError::ReferenceUnrunnable(_)) => {
                        return Ok(internal_error(version, e.to_string()));
                    }
                    Err(e) => return Err(e),
                },
            };
            testcases.push(ProgramTestcase {
                name: row.name,
                hidden: row.hidden,
                input,
                expected: reference
                    .output
                    .ok_or_else(|| reference.error.unwrap_or_else(|| "unknown error".into())),
            });
        }
        let (sandbox, language, settings) = (
            sandbox.clone(),
            language.clone(),
            self.programs.settings.clone(),
        );
        let source = source.to_string();
        let label = run.label;
        // Groups score every testcase, so a program with them runs on all,
        // as a matrix run does.
        let judge_all = problem.judge_all || !groups.is_empty() || run.raised_limit.is_some();
        let interactive = solver::find(problem_id.as_str()).filter(|s| s.interactive());
        let limits = ProblemLimits {
            time: run.raised_limit.unwrap_or(Duration::from_millis(
                u64::try_from(problem.time_limit_ms).unwrap_or(0),
            )),
            memory_bytes: u64::try_from(problem.memory_limit_mib).unwrap_or(0) << 20,
        };
        let span = tracing::Span::current();
        let judged = tokio::task::spawn_blocking(move || {
            span.in_scope(|| {
                judge_program(&ProgramJob {
                    sandbox: &sandbox,
                    settings: &settings,
                    language: &language,
                    source: ProgramSource::Text(&source),
                    limits,
                    testcases: &testcases,
                    judge_all,
                    case,
                    interactive,
                    label: &label,
                    progress: report.as_ref(),
                })
            })
        })
        .await?;
        Ok(match judged {
            Ok(judged) => with_scores(
                JudgementWrite {
                    problem_version: version,
                    verdict: judged.verdict,
                    message: judged.message,
                    compile_output: judged.compile_output,
                    results: judged.results,
                    group_scores: None,
                },
                &groups,
            ),
            Err(e) => {
                error!(error = %e, "the sandbox failed");
                internal_error(version, format!("the sandbox failed: {e}"))
            }
        })
    }

    /// Runs `work`, the judging of `claim`, and meanwhile records the
    /// progress it reports at most every [`PROGRESS_INTERVAL`] (only when
    /// it changed, and none for a job that ends sooner); with `heartbeat`,
    /// also extends the claim's lease every third of a lease, so a long
    /// judging is not claimed a second time.
    async fn supervise<T>(
        &self,
        claim: &Claim,
        heartbeat: bool,
        mut reported: watch::Receiver<Option<Progress>>,
        work: impl Future<Output = T>,
    ) -> T {
        let mut work = std::pin::pin!(work);
        let beat = self.lease / 3;
        let mut beats = clock::interval_at(clock::Instant::now() + beat, beat);
        beats.set_missed_tick_behavior(MissedTickBehavior::Delay);
        let mut samples =
            clock::interval_at(clock::Instant::now() + PROGRESS_INTERVAL, PROGRESS_INTERVAL);
        samples.set_missed_tick_behavior(MissedTickBehavior::Delay);
        let mut recorded: Option<Progress> = None;
        let mut lost = false;
        loop {
            tokio::select! {
                out = &mut work => return out,
                _ = samples.tick(), if !lost => {
                    let latest = *reported.borrow_and_update();
                    if let Some(progress) = latest.filter(|latest| Some(*latest) != recorded) {
                        match self.store.record_progress(claim, progress).await {
                            Ok(true) => recorded = Some(progress),
                            Ok(false) => {
                                warn!("the claim was lost while judging");
                                lost = true;
                            }
                            Err(e) => warn!(error = %e, "recording the progress failed"),
                        }
                    }
                }
                _ = beats.tick(), if heartbeat => {
                    match self.store.extend_lease(claim, self.lease).await {
                        Ok(true) => {}
                        Ok(false) => warn!("the claim was lost while judging"),
                        Err(e) => warn!(error = %e, "extending the lease failed"),
                    }
                }
            }
        }
    }

    /// One reference, computed and cached, or awaited if another worker of
    /// this process is computing it. (Workers of other processes may still
    /// compute the same one; the first stored wins and the results are
    /// equal.)
    async fn compute_reference(
        &self,
        problem_id: &ProblemId,
        testcase_id: i64,
        version: i64,
        input: String,
    ) -> Result<ReferenceRow, WorkerError> {
        let key = (testcase_id, version);
        let flight = self
            .in_flight
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .entry(key)
            .or_default()
            .clone();
        let reference = flight
            .get_or_try_init(|| self.solve_and_save(problem_id, testcase_id, version, input))
            .await
            .cloned();
        let mut in_flight = self
            .in_flight
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        if in_flight
            .get(&key)
            .is_some_and(|current| Arc::ptr_eq(current, &flight))
        {
            in_flight.remove(&key);
        }
        reference
    }

    /// Runs the solver on one input and caches its output, unless a
    /// computation that ended after the caller read the cache stored it.
    async fn solve_and_save(
        &self,
        problem_id: &ProblemId,
        testcase_id: i64,
        version: i64,
        input: String,
    ) -> Result<ReferenceRow, WorkerError> {
        if let Some(cached) = self.store.reference(testcase_id, version).await? {
            return Ok(cached);
        }
        let started = Instant::now();
        let output = if solver::find(problem_id.as_str()).is_some() {
            solve(problem_id, input).await?
        } else {
            self.run_reference_solution(problem_id, testcase_id, version, input)
                .await?
        };
        let reference = match output {
            Ok(output) => ReferenceRow {
                output: Some(output),
                error: None,
            },
            Err(e) => ReferenceRow {
                output: None,
                error: Some(e),
            },
        };
        self.metrics.reference_computed();
        self.store
            .save_reference(testcase_id, version, &reference, micros(started.elapsed()))
            .await?;
        Ok(reference)
    }

    /// The output of a problem's reference solution (see
    /// `reference_solution` in `problem.toml`) on `input`, run in the
    /// sandbox with the problem's limits as a submission would be; its own
    /// failure (it does not compile, a limit, a crash) is the reference's
    /// error, kept like a solver's.
    async fn run_reference_solution(
        &self,
        problem_id: &ProblemId,
        testcase_id: i64,
        version: i64,
        input: String,
    ) -> Result<Result<String, String>, WorkerError> {
        let Some(solution) = self.store.reference_solution(problem_id).await? else {
            return Ok(Err(format!(
                "no solver is registered for `{problem_id}` and its problem.toml names no reference_solution"
            )));
        };
        let Some(problem) = self.store.problem(problem_id).await? else {
            return Ok(Err(format!("problem `{problem_id}` no longer exists")));
        };
        let unrunnable = WorkerError::ReferenceUnrunnable;
        let sandbox = self
            .programs
            .sandbox()
            .map_err(|off| unrunnable(off.reason))?;
        let language = self
            .programs
            .language_of_file(std::path::Path::new(&solution.name))
            .map_err(unrunnable)?
            .clone();
        let settings = self.programs.settings.clone();
        let limits = ProblemLimits {
            time: Duration::from_millis(u64::try_from(problem.time_limit_ms).unwrap_or(0)),
            memory_bytes: u64::try_from(problem.memory_limit_mib).unwrap_or(0) << 20,
        };
        let label = format!("reference-{testcase_id}-{version}");
        let span = tracing::Span::current();
        let output = tokio::task::spawn_blocking(move || {
            span.in_scope(|| {
                let job = ProgramJob {
                    sandbox: &sandbox,
                    settings: &settings,
                    language: &language,
                    source: ProgramSource::Text(&solution.source),
                    limits,
                    testcases: &[],
                    judge_all: false,
                    case: Case::Sensitive,
                    interactive: None,
                    label: &label,
                    progress: None,
                };
                Ok::<_, SandboxError>(match compile(&job)? {
                    Compilation::Failed(failed) => Err(failed
                        .message
                        .unwrap_or_else(|| "it did not compile".to_owned())),
                    Compilation::Ready(compiled) => compiled.output(&input)?,
                })
            })
        })
        .await?
        .map_err(|e| unrunnable(format!("the sandbox failed: {e}")))?;
        Ok(output.map_err(|why| format!("the reference solution {}: {why}", solution.name)))
    }

    /// Computes one missing reference (a setter's new testcase, or a new
    /// problem version); only those the solver core computes on a host
    /// without the sandbox. `Ok(false)` if none is missing.
    pub async fn compute_pending_reference(&self) -> Result<bool, WorkerError> {
        let sandboxed = self.programs.sandbox().is_ok();
        let Some(pending) = self.store.pending_reference(sandboxed).await? else {
            return Ok(false);
        };
        self.compute_reference(
            &pending.problem_id,
            pending.testcase_id,
            pending.problem_version,
            pending.input,
        )
        .await?;
        Ok(true)
    }
}

impl Judge {
    /// Judges one submission of a rejudge preview again and stores the
    /// judgement with the preview, not the submission. `Ok(false)` if no
    /// preview waits for a worker.
    ///
    /// Its item's lease is [`PREVIEW_LEASES`] of the worker's, with no
    /// heartbeat: a preview is not urgent, and a judging that outlives the
    /// lease only makes another worker judge it again (the first write wins).
    pub async fn judge_pending_rejudging(&self, worker: &str) -> Result<bool, WorkerError> {
        let Some(claimed) = self
            .store
            .claim_rejudging_item(worker, self.lease * PREVIEW_LEASES)
            .await?
        else {
            return Ok(false);
        };
        let span = info_span!(
            "rejudge_preview",
            rejudging = claimed.rejudging,
            submission = %claimed.claim.id,
            worker
        );
        async {
            let judgement = self.judgement(&claimed.claim, false).await?;
            if self
                .store
                .record_rejudging_item(&claimed, &judgement)
                .await?
            {
                info!(verdict = %judgement.verdict, "judged for a rejudge preview");
            } else {
                warn!("a rejudge preview's item was lost before its judgement was written");
            }
            Ok(true)
        }
        .instrument(span)
        .await
    }

    /// Claims and judges one setter solution of a matrix run, if one is
    /// waiting; `Ok(false)` if none is. Its lease is a preview item's: it
    /// runs on every testcase.
    pub async fn judge_pending_matrix_item(&self, worker: &str) -> Result<bool, WorkerError> {
        let Some(claimed) = self
            .store
            .claim_matrix_item(worker, self.lease * PREVIEW_LEASES)
            .await?
        else {
            return Ok(false);
        };
        let span = info_span!(
            "matrix_run",
            run = claimed.run,
            solution = %claimed.solution,
            worker
        );
        async {
            let run = ProgramRun {
                problem: &claimed.problem,
                label: format!("{}-{}", claimed.job, claimed.attempt),
                raised_limit: Some(Duration::from_millis(
                    u64::try_from(claimed.raised_limit_ms).unwrap_or(0),
                )),
            };
            let judged = self
                .judge_program(run, &claimed.language, &claimed.source, None)
                .await?;
            if self
                .store
                .record_matrix_item(
                    &claimed,
                    judged.verdict,
                    judged.message.as_deref(),
                    &judged.results,
                )
                .await?
            {
                info!(verdict = %judged.verdict, "judged for a matrix run");
            } else {
                warn!("a matrix run's item was lost before its results were written");
            }
            Ok(true)
        }
        .instrument(span)
        .await
    }
}

/// A rejudge preview item's lease, in worker leases.
const PREVIEW_LEASES: u32 = 4;

/// What a program is judged for: its problem, the label of its sandbox
/// boxes, and for a matrix run the raised time limit it runs under (on
/// every testcase).
struct ProgramRun<'a> {
    problem: &'a ProblemId,
    label: String,
    raised_limit: Option<Duration>,
}

/// One testcase's verdict with its two wordings.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Checked {
    verdict: Verdict,
    /// Safe for contestants: never a reference output.
    message: Option<String>,
    /// The full difference, naming the expected token, when there is one.
    detail: Option<String>,
}

impl Checked {
    /// A verdict whose message reveals no reference output.
    fn failed(verdict: Verdict, message: String) -> Checked {
        Checked {
            verdict,
            message: Some(message),
            detail: None,
        }
    }

    /// A verdict with no message (AC, or a limit hit).
    fn bare(verdict: Verdict) -> Checked {
        Checked {
            verdict,
            message: None,
            detail: None,
        }
    }
}

/// Outputs up to this size (reference and answer together) are compared on
/// the async runtime's thread: a hand-off to the blocking pool and back
/// costs more than comparing them. Larger ones (megabytes: a comparison
/// reads every token) go to the blocking pool, so they hold up no request.
const COMPARED_INLINE_BYTES: usize = 64 * 1024;

/// The verdict for one output against its reference output, on the
/// blocking pool when they are large (the answer is copied there; a copy
/// costs a fraction of a comparison).
async fn check(case: Case, expected: &str, answer: &str) -> Result<Checked, WorkerError> {
    if expected.len() + answer.len() <= COMPARED_INLINE_BYTES {
        return Ok(compare_answer(case, expected, answer));
    }
    let (expected, answer) = (expected.to_owned(), answer.to_owned());
    let span = tracing::Span::current();
    let checked = tokio::task::spawn_blocking(move || {
        span.in_scope(|| compare_answer(case, &expected, &answer))
    })
    .await?;
    Ok(checked)
}

/// The verdict for one output against its reference output: the message
/// says where the output went wrong, the detail also what was expected.
fn compare_answer(case: Case, expected: &str, answer: &str) -> Checked {
    checked(checker::compare_in(case, expected, answer))
}

/// A comparison's verdict, message and detail.
fn checked(comparison: Comparison) -> Checked {
    match comparison {
        Comparison::Accepted => Checked::bare(Verdict::AC),
        Comparison::WrongAnswer(difference) => Checked {
            verdict: Verdict::WA,
            message: Some(difference.contestant_message()),
            detail: Some(difference.to_string()),
        },
    }
}

/// Runs the problem's solver on the blocking pool, in the caller's span.
async fn solve(
    problem_id: &ProblemId,
    input: String,
) -> Result<Result<String, String>, WorkerError> {
    let Some(solver) = solver::find(problem_id.as_str()) else {
        return Ok(Err(format!("no solver is registered for `{problem_id}`")));
    };
    let span = tracing::Span::current();
    let output = tokio::task::spawn_blocking(move || {
        span.in_scope(|| solver.solve(&input).map_err(|e: InputError| e.to_string()))
    })
    .await?;
    Ok(output)
}

/// The submission's verdict from its testcases: IE if any is IE, else WA
/// naming the first wrong testcase, else AC; and its groups' scores (see
/// [`with_scores`]).
fn summarise(
    problem_version: i64,
    results: Vec<TestcaseResult>,
    groups: &[TestcaseGroup],
) -> JudgementWrite {
    let first = |verdict: Verdict| results.iter().find(|r| r.verdict == verdict);
    let (verdict, message) = if let Some(r) = first(Verdict::IE) {
        (
            Verdict::IE,
            Some(format!(
                "testcase {}: {}",
                r.testcase,
                r.message.as_deref().unwrap_or("")
            )),
        )
    } else if let Some(r) = first(Verdict::WA) {
        (
            Verdict::WA,
            Some(format!(
                "testcase {}: {}",
                r.testcase,
                r.message.as_deref().unwrap_or("")
            )),
        )
    } else {
        (Verdict::AC, None)
    };
    with_scores(
        JudgementWrite {
            problem_version,
            verdict,
            message,
            compile_output: None,
            results,
            group_scores: None,
        },
        groups,
    )
}

/// Sets a judgement's group scores from its results (a testcase passes on
/// AC); an IE earns none.
fn with_scores(mut write: JudgementWrite, groups: &[TestcaseGroup]) -> JudgementWrite {
    write.group_scores = (write.verdict != Verdict::IE).then(|| {
        scoring::group_scores(
            groups,
            write
                .results
                .iter()
                .map(|r| (r.testcase.as_str(), r.verdict == Verdict::AC)),
        )
    });
    write
}

fn internal_error(problem_version: i64, cause: String) -> JudgementWrite {
    JudgementWrite {
        problem_version,
        verdict: Verdict::IE,
        message: Some(cause),
        compile_output: None,
        results: Vec::new(),
        group_scores: None,
    }
}

fn micros(elapsed: Duration) -> i64 {
    i64::try_from(elapsed.as_micros()).unwrap_or(i64::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `n` lines of "Alice", with line `wrong` (if any) saying "Bob".
    fn lines(n: usize, wrong: Option<usize>) -> String {
        (0..n)
            .map(|i| if Some(i) == wrong { "Bob\n" } else { "Alice\n" })
            .collect()
    }

    #[tokio::test]
    async fn small_and_large_outputs_get_the_same_verdicts_inline_and_on_the_blocking_pool() {
        // 6 bytes a line: 100 lines stay inline, 100,000 go to the pool.
        for n in [100, 100_000] {
            let expected = lines(n, None);
            assert_eq!(expected.len() * 2 > COMPARED_INLINE_BYTES, n == 100_000);
            for answer in [lines(n, None), lines(n, Some(n - 1)), lines(n - 1, None)] {
                assert_eq!(
                    check(Case::Sensitive, &expected, &answer)
                        .await
                        .expect("checked"),
                    compare_answer(Case::Sensitive, &expected, &answer),
                    "{n} lines"
                );
            }
            let wrong = check(Case::Sensitive, &expected, &lines(n, Some(n / 2)))
                .await
                .expect("checked");
            assert_eq!(wrong.verdict, Verdict::WA);
            let message = wrong.message.expect("a message");
            assert!(
                message.contains(&format!("line {}", n / 2 + 1)),
                "{message}"
            );
            assert!(
                !message.contains("Alice"),
                "never the expected token: {message}"
            );
        }
    }
}
