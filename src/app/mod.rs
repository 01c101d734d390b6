//! The application layer: every use case of nimjudge, as the edges call
//! them. `http` (the JSON API), `web` (the HTML pages) and `cli` reach the
//! database only through [`App`]: its store is private here, so a rule
//! (who may read what, what a contestant sees of a judgement, how a
//! submission is validated and admitted) is written once and holds for
//! every edge.
//!
//! # Layout
//! - [`catalog_cache`]: the catalog rows every submission reads, kept in
//!   memory: exact by a problem's revision for judging, briefly for the API.
//! - [`scoreboard_cache`]: each contest's ranked scoreboard, brought up to
//!   date from the changes since the version it holds.
//! - [`error`]: [`AppError`], the refusals and failures of a use case.
//! - [`submissions`]: submitting (validation, idempotency, limits, the
//!   insert), reading with visibility and redaction, waiting for a verdict,
//!   listing, rejudging, the verdict log.
//! - [`contests`]: contests, registration, the scoreboard as a reader may
//!   see it, and where a contest submission goes.
//! - [`problems`]: problems and testcases; setters add, hide and delete
//!   testcases and rejudge a problem.
//! - [`rejudgings`]: rejudge previews: judged on the side, then applied or
//!   discarded.
//! - [`matrices`]: the solutions × testcases matrix, judged by the
//!   workers, and the review of the time limit.
//! - [`practice`]: a person plays an interactive problem's game against
//!   the solver core, move by move; nothing stored.
//! - [`tokens`]: issuing, listing and revoking tokens; signing in.
//! - [`ops`]: what health and metrics report.
//! - [`operator`]: the host's tools on the database itself (`nimjudge
//!   token`, `nimjudge log`).
//! - [`worker`]: the judging loop (claim, judge, record) and how answers
//!   and programs are judged.
//!
//! A use case of the edges queues work and wakes the workers, it never
//! judges.

pub mod catalog_cache;
pub mod contests;
pub mod error;
pub mod matrices;
pub mod operator;
pub mod ops;
pub mod practice;
pub mod problems;
pub mod rejudgings;
pub mod scoreboard_cache;
pub mod stress;
pub mod submissions;
pub mod tokens;
pub mod worker;

use std::{sync::Arc, time::Duration};

use tokio_util::sync::CancellationToken;

pub use catalog_cache::CatalogCache;
pub use error::AppError;
use scoreboard_cache::ScoreboardCache;

use crate::{
    config::LimitsConfig,
    domain::{Principal, Role, TokenId},
    job_signals::JobSignals,
    programs::Programs,
    store::Store,
    telemetry::Metrics,
};

/// The application: the store, the signals that wake workers and long
/// polls, the metrics, this host's programs, and the settings use cases
/// follow. Cheap to clone.
#[derive(Clone, Debug)]
pub struct App {
    store: Store,
    /// This process's copies of catalog rows, shared with its workers.
    catalog: Arc<CatalogCache>,
    /// This process's ranked contest scoreboards.
    scoreboards: Arc<ScoreboardCache>,
    signals: JobSignals,
    metrics: Metrics,
    programs: Arc<Programs>,
    settings: AppSettings,
    /// Fires at shutdown, so long polls return at once instead of holding
    /// the graceful shutdown open.
    shutdown: CancellationToken,
    /// The users whose own contest input is being generated now.
    generating_inputs: contests::InputsInFlight,
}

/// The settings use cases follow.
#[derive(Clone, Debug)]
pub struct AppSettings {
    /// Per-user submission limits (admins are exempt).
    pub limits: LimitsConfig,
    /// Longest wait for a verdict a client may ask for.
    pub max_wait: Duration,
    /// How often a wait re-reads the submission, for verdicts written by
    /// another process.
    pub wait_recheck: Duration,
    /// Free space health asks for before it calls failing writes recovered:
    /// room for the largest request body twice over (its row and its log).
    pub write_probe_free_bytes: u64,
    /// The catalog's folder of problem folders, which Kattis packages are
    /// made from.
    pub problems_dir: std::sync::Arc<std::path::Path>,
}

impl App {
    pub fn new(
        store: Store,
        catalog: Arc<CatalogCache>,
        signals: JobSignals,
        metrics: Metrics,
        programs: Arc<Programs>,
        settings: AppSettings,
        shutdown: CancellationToken,
    ) -> App {
        App {
            store,
            catalog,
            scoreboards: Arc::default(),
            signals,
            metrics,
            programs,
            settings,
            shutdown,
            generating_inputs: contests::InputsInFlight::default(),
        }
    }

    /// This host's sandbox and languages.
    pub fn programs(&self) -> &Programs {
        &self.programs
    }
}

/// Who asks: an authenticated user with a role, and the token they came
/// with (an admin may not revoke it).
#[derive(Debug, Clone)]
pub struct Caller {
    pub principal: Principal,
    pub token: TokenId,
}

impl Caller {
    pub fn name(&self) -> &str {
        &self.principal.name
    }

    pub fn role(&self) -> Role {
        self.principal.role
    }

    /// Setters and admins only.
    pub fn require_staff(&self) -> Result<(), AppError> {
        if self.principal.role.is_staff() {
            Ok(())
        } else {
            Err(AppError::Forbidden(
                "only setters and admins may do this".into(),
            ))
        }
    }

    /// Admins only.
    pub fn require_admin(&self) -> Result<(), AppError> {
        if self.principal.role == Role::Admin {
            Ok(())
        } else {
            Err(AppError::Forbidden("only admins may do this".into()))
        }
    }
}
