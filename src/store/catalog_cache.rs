//! The catalog data read for every submission, kept in memory by the store.
//!
//! Taking in a submission, judging it and answering its long poll each
//! read the same few rows of its problem; read from the database every
//! time, they were most of a submission's round trips. Two kinds of entry
//! are kept, each with its own rule for when it is out of date:
//!
//! - A problem's **judge set** (its public testcases with their references,
//!   what an answers job is judged on) is exact. It carries the problem's
//!   revision, which every change to the problem or its testcases bumps in
//!   the changing transaction, and a claim returns the revision of its job's
//!   problem, so a worker uses the set only when it is at least that recent.
//!   Only complete sets (every reference computed) are kept: a reference,
//!   once written for a version, never changes.
//! - A problem's **submission rules** (custom checks, feedback, the names of
//!   its public testcases), read by the API before a job exists, so with no
//!   revision to compare. This process's own catalog writes drop them at
//!   commit, other hosts' writes through a PostgreSQL notice, and in any case
//!   they are read again after [`RULES_TTL`]: a change made by another process
//!   (on SQLite, which has no notices) shows within that time.

use std::{
    collections::HashMap,
    sync::{Arc, Mutex, MutexGuard},
    time::{Duration, Instant},
};

use super::catalog::{JudgeSet, SubmissionRules};
use crate::domain::ProblemId;

/// How long submission rules are used before they are read again.
pub const RULES_TTL: Duration = Duration::from_secs(1);

/// The store's in-memory copies of catalog rows; shared by its clones.
#[derive(Debug, Default)]
pub(super) struct CatalogCache {
    judge_sets: Mutex<HashMap<ProblemId, Arc<JudgeSet>>>,
    rules: Mutex<HashMap<ProblemId, (Instant, Arc<SubmissionRules>)>>,
}

/// A lock whose holder panicked still guards a consistent map (every
/// change is one insert or one clear), so it is used as it is.
fn locked<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

impl CatalogCache {
    /// The kept judge set of `problem` if it is at `revision` or later.
    pub(super) fn judge_set(&self, problem: &ProblemId, revision: i64) -> Option<Arc<JudgeSet>> {
        locked(&self.judge_sets)
            .get(problem)
            .filter(|set| set.revision >= revision)
            .cloned()
    }

    /// Keeps `set` if it is complete and newer than the one kept.
    pub(super) fn keep_judge_set(&self, problem: &ProblemId, set: &Arc<JudgeSet>) {
        if set.testcases.iter().any(|t| t.reference.is_none()) {
            return;
        }
        let mut sets = locked(&self.judge_sets);
        if sets
            .get(problem)
            .is_none_or(|kept| kept.revision < set.revision)
        {
            sets.insert(problem.clone(), Arc::clone(set));
        }
    }

    /// The kept submission rules of `problem`, unless older than [`RULES_TTL`].
    pub(super) fn rules(&self, problem: &ProblemId) -> Option<Arc<SubmissionRules>> {
        locked(&self.rules)
            .get(problem)
            .filter(|(read_at, _)| read_at.elapsed() < RULES_TTL)
            .map(|(_, rules)| Arc::clone(rules))
    }

    /// Keeps `rules`, read at `read_at` (taken before the read, so an
    /// entry never outlives a change the read may have missed by more than
    /// the TTL).
    pub(super) fn keep_rules(
        &self,
        problem: &ProblemId,
        read_at: Instant,
        rules: &Arc<SubmissionRules>,
    ) {
        locked(&self.rules).insert(problem.clone(), (read_at, Arc::clone(rules)));
    }

    /// Drops every problem's submission rules: the catalog changed.
    pub(super) fn forget_rules(&self) {
        locked(&self.rules).clear();
    }
}
