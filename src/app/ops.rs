//! What health and metrics report: the queue, the database's writes, and
//! whether this host judges programs.

use super::{App, AppError, Caller};
use crate::{
    domain::Verdict,
    store::WriteStatus,
    telemetry::{Metrics, QueueSnapshot},
};

/// The state health reports.
#[derive(Debug, Clone)]
pub struct HealthReport {
    pub queued: i64,
    pub running: i64,
    pub writes: WriteStatus,
    /// Why this host does not judge programs, if it does not.
    pub program_judging_off: Option<String>,
}

impl App {
    /// The queue, the database's writes and program judging. While writes
    /// are failing, one small write is tried first, so a database that
    /// takes writes again (space freed) reports so without waiting for a
    /// submission to prove it.
    pub async fn health(&self) -> Result<HealthReport, AppError> {
        let (queued, running) = self.store.queue_depth().await?;
        if self.store.write_status().failing {
            // Its failure, if it fails, is recorded in the status read below.
            let _ = self
                .store
                .probe_write(self.settings.write_probe_free_bytes)
                .await;
        }
        Ok(HealthReport {
            queued,
            running,
            writes: self.store.write_status(),
            program_judging_off: self.programs.sandbox().err().map(|off| off.reason),
        })
    }

    /// The metrics in the OpenMetrics text format, with the queue read now,
    /// and for staff the judgements by verdict: during a contest's freeze
    /// their counts would tell anyone who watches them what the frozen
    /// board hides (staff see every verdict anyway).
    pub async fn metrics_text(&self, caller: Option<&Caller>) -> Result<String, AppError> {
        let (queued, running) = self.store.queue_depth().await?;
        let judgements: Option<Vec<(Verdict, i64)>> =
            match caller.is_some_and(|caller| caller.role().is_staff()) {
                true => Some(self.store.verdict_counts().await?),
                false => None,
            };
        self.metrics
            .render(QueueSnapshot {
                queued,
                running,
                judgements,
                program_judging: self.programs.sandbox().is_ok(),
            })
            .map_err(|e| AppError::Internal(format!("cannot encode the metrics: {e}")))
    }

    /// The metrics registry, which the HTTP edge adds its requests to.
    pub fn metrics(&self) -> &Metrics {
        &self.metrics
    }
}
