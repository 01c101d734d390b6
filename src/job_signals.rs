//! In-process signals between the HTTP API and the workers.
//!
//! The queue itself is the database; these only save waiting. A new job wakes
//! one idle worker at once (a missed wake-up costs at most one poll
//! interval), and each written verdict is broadcast so a client long-polling
//! `?wait_ms=` answers as soon as its submission is judged (a lagging
//! receiver re-reads the row, so nothing is missed, only re-checked).

use std::sync::Arc;

use tokio::sync::{Notify, broadcast};

use crate::domain::SubmissionId;

/// How many judged notices a slow long-poll may fall behind before it has to
/// re-read its submission.
const JUDGED_BACKLOG: usize = 4096;

/// The wake-up and judged channels. Cheap to clone: clones share channels.
#[derive(Debug, Clone)]
pub struct JobSignals {
    wake: Arc<Notify>,
    judged: broadcast::Sender<SubmissionId>,
}

impl Default for JobSignals {
    fn default() -> Self {
        let (judged, _) = broadcast::channel(JUDGED_BACKLOG);
        JobSignals {
            wake: Arc::new(Notify::new()),
            judged,
        }
    }
}

impl JobSignals {
    /// Tells one idle worker that a job (or a missing reference) is waiting.
    pub fn job_added(&self) {
        self.wake.notify_one();
    }

    /// Resolves when [`job_added`](Self::job_added) is called.
    pub async fn job_waiting(&self) {
        self.wake.notified().await;
    }

    /// Announces a written verdict.
    pub fn judged(&self, id: SubmissionId) {
        // Nobody listening is fine.
        let _ = self.judged.send(id);
    }

    /// The ids of submissions judged from now on.
    pub fn subscribe(&self) -> broadcast::Receiver<SubmissionId> {
        self.judged.subscribe()
    }
}
