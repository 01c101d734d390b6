//! The catalog data read for every submission, kept in memory by this
//! process: one cache, shared by the use cases and the workers.
//!
//! Taking in a submission, judging it and answering its long poll each
//! read the same few rows of its problem; read from the database every
//! time, they were most of a submission's round trips (without this cache
//! answer judging on SQLite fell from 76% to 63% of the raw loop and
//! PostgreSQL's p99 at half load doubled: BENCHMARKS.md). Two kinds of
//! entry are kept, each with its own rule for when it is out of date:
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
//!   revision to compare. This process's own catalog writes drop them once
//!   committed, other hosts' writes through a PostgreSQL notice, and in any case
//!   they are read again after [`RULES_TTL`]: a change made by another process
//!   (on SQLite, which has no notices) shows within that time.

use std::{
    collections::HashMap,
    sync::{Arc, Mutex, MutexGuard},
    time::{Duration, Instant},
};

use crate::{
    domain::ProblemId,
    store::{JudgeSet, Store, StoreError, SubmissionRules},
};

/// How long submission rules are used before they are read again.
pub const RULES_TTL: Duration = Duration::from_secs(1);

/// This process's in-memory copies of catalog rows.
#[derive(Debug, Default)]
pub struct CatalogCache {
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
    fn judge_set(&self, problem: &ProblemId, revision: i64) -> Option<Arc<JudgeSet>> {
        locked(&self.judge_sets)
            .get(problem)
            .filter(|set| set.revision >= revision)
            .cloned()
    }

    /// Keeps `set` if it is complete and newer than the one kept.
    fn keep_judge_set(&self, problem: &ProblemId, set: &Arc<JudgeSet>) {
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
    fn rules(&self, problem: &ProblemId) -> Option<Arc<SubmissionRules>> {
        locked(&self.rules)
            .get(problem)
            .filter(|(read_at, _)| read_at.elapsed() < RULES_TTL)
            .map(|(_, rules)| Arc::clone(rules))
    }

    /// Keeps `rules`, read at `read_at` (taken before the read, so an
    /// entry never outlives a change the read may have missed by more than
    /// the TTL).
    fn keep_rules(&self, problem: &ProblemId, read_at: Instant, rules: &Arc<SubmissionRules>) {
        locked(&self.rules).insert(problem.clone(), (read_at, Arc::clone(rules)));
    }

    /// Drops every problem's submission rules: the catalog changed.
    pub fn forget_rules(&self) {
        locked(&self.rules).clear();
    }

    /// The public testcases of a problem as of `revision` or later (a
    /// claim's revision), from memory when this process has read them at
    /// that revision with every reference computed. `None` if there is no
    /// such problem.
    pub async fn answer_testcases(
        &self,
        store: &Store,
        problem: &ProblemId,
        revision: i64,
    ) -> Result<Option<Arc<JudgeSet>>, StoreError> {
        if let Some(set) = self.judge_set(problem, revision) {
            return Ok(Some(set));
        }
        let Some(set) = store.judge_testcases(problem, false).await? else {
            return Ok(None);
        };
        let set = Arc::new(set);
        self.keep_judge_set(problem, &set);
        Ok(Some(set))
    }

    /// What taking in and showing a submission of a problem need of it,
    /// kept for [`RULES_TTL`]. `None` if there is no such problem.
    pub async fn submission_rules(
        &self,
        store: &Store,
        problem: &ProblemId,
    ) -> Result<Option<Arc<SubmissionRules>>, StoreError> {
        if let Some(rules) = self.rules(problem) {
            return Ok(Some(rules));
        }
        let read_at = Instant::now();
        let Some(rules) = store.submission_rules(problem).await? else {
            return Ok(None);
        };
        let rules = Arc::new(rules);
        self.keep_rules(problem, read_at, &rules);
        Ok(Some(rules))
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use super::*;
    use crate::{
        domain::Feedback,
        store::{JudgeTestcase, ReferenceRow},
    };

    fn nim() -> ProblemId {
        "nim".parse().expect("an id")
    }

    fn set(revision: i64, references: &[Option<&str>]) -> Arc<JudgeSet> {
        let testcases = references
            .iter()
            .enumerate()
            .map(|(i, reference)| JudgeTestcase {
                id: i64::try_from(i).expect("small"),
                name: format!("t{i}").parse().expect("a name"),
                hidden: false,
                input: None,
                reference: reference.map(|output| ReferenceRow {
                    output: Some(output.to_string()),
                    error: None,
                }),
            })
            .collect();
        Arc::new(JudgeSet {
            revision,
            version: 1,
            testcases,
            groups: Vec::new(),
            case: crate::checker::Case::Sensitive,
        })
    }

    #[test]
    fn a_judge_set_is_used_only_at_its_revision_or_later_and_only_when_complete() {
        let cache = CatalogCache::default();
        cache.keep_judge_set(&nim(), &set(3, &[Some("1"), None]));
        assert!(
            cache.judge_set(&nim(), 3).is_none(),
            "a reference is missing"
        );
        cache.keep_judge_set(&nim(), &set(3, &[Some("1"), Some("2")]));
        assert!(cache.judge_set(&nim(), 3).is_some());
        assert!(cache.judge_set(&nim(), 2).is_some(), "a claim of before");
        assert!(cache.judge_set(&nim(), 4).is_none(), "a claim of after");
        cache.keep_judge_set(&nim(), &set(2, &[Some("1")]));
        let kept = cache.judge_set(&nim(), 3).expect("the newer stays");
        assert_eq!(kept.revision, 3);
    }

    #[test]
    fn submission_rules_are_forgotten_after_their_time_or_at_a_change() {
        let cache = CatalogCache::default();
        let rules = Arc::new(SubmissionRules {
            custom_checks: false,
            feedback: Feedback::Full,
            public_testcases: BTreeSet::new(),
        });
        cache.keep_rules(&nim(), Instant::now(), &rules);
        assert!(cache.rules(&nim()).is_some());
        cache.forget_rules();
        assert!(cache.rules(&nim()).is_none(), "forgotten at a change");
        cache.keep_rules(&nim(), Instant::now() - RULES_TTL, &rules);
        assert!(cache.rules(&nim()).is_none(), "read too long ago");
    }
}
