//! Workers of this process waiting for a job, and the hand-off of new jobs
//! to them.
//!
//! A worker with nothing to do leaves an offer here ([`Store::offer_to_claim`])
//! and waits. An admission that stores jobs while offers wait takes some and
//! inserts its jobs already claimed by those workers, as their own claims
//! would take them (`queue::claimed_at_insert`), when nothing is ahead of
//! them in the queue: the claims are as fenced and leased as any, and a job
//! handed off this way costs no write of the worker's own, no second
//! version of its row and no wake-up before it (on SQLite's one writer, one
//! hold fewer an arrival). With a job ahead, the offers taken get nothing
//! and their workers look for work themselves.
//!
//! Answers jobs that can be judged at once (see `Store::judge_first`) are
//! handed instead as [`JudgeFirst`]: the worker judges them and answers,
//! and the admission stores them done with their verdicts, or queued if
//! the worker could not judge them.
//!
//! Invariants: an offer is taken at most once, by removing it; a worker that
//! stops waiting for another reason (a wake-up, its poll, its stop) withdraws
//! its offer first and, if an admission took it already, waits for what that
//! admission hands ([`ClaimOffer::withdraw`]), so no claim is made for a
//! worker that is not waiting for it. An admission that fails drops the
//! offers it took: their workers get no claims and look for work themselves.
//! An admission waits for jobs it handed to judge first at most a second,
//! then stores them queued.

use std::{
    collections::VecDeque,
    sync::{Arc, Mutex, PoisonError},
    time::Duration,
};

use tokio::sync::oneshot;

use super::{Claim, JudgementWrite, Store};

/// What an admission hands a waiting worker.
#[derive(Debug)]
pub enum Handed {
    /// Jobs claimed for it, committed: its to judge. Empty if the
    /// admission claimed none for it (a job was ahead) or failed.
    Claims(Vec<Claim>),
    /// Answers jobs to judge now, before they are stored.
    JudgeFirst(JudgeFirst),
}

impl Default for Handed {
    fn default() -> Handed {
        Handed::Claims(Vec::new())
    }
}

/// Answers jobs an admission has not stored yet, for a waiting worker to
/// judge at once: the admission waits for the judgements and stores the
/// jobs with them, done. The claims are as the jobs' first claims would
/// be (attempt 1, their problem's revision as this process holds its
/// testcases), but nothing is stored yet: there is no lease to extend and
/// no progress to record.
#[derive(Debug)]
pub struct JudgeFirst {
    pub claims: Vec<Claim>,
    reply: oneshot::Sender<Option<Vec<JudgementWrite>>>,
}

impl JudgeFirst {
    /// Answers with the judgements of the claims, in their order, or
    /// `None` if judging one failed: the admission then stores the jobs
    /// queued, for any worker to claim as usual.
    pub fn answer(self, judgements: Option<Vec<JudgementWrite>>) {
        // An admission that stopped waiting stored them queued already.
        let _ = self.reply.send(judgements);
    }
}

/// The offers of the workers now waiting, oldest first.
#[derive(Debug, Default)]
pub(super) struct WaitingWorkers {
    state: Mutex<Waiting>,
}

#[derive(Debug, Default)]
struct Waiting {
    next_ticket: u64,
    offers: VecDeque<Offer>,
}

/// A waiting worker's offer, as an admission takes it.
#[derive(Debug)]
pub(super) struct Offer {
    ticket: u64,
    /// The name the claims are made for.
    pub worker: String,
    pub lease: Duration,
    /// Jobs the worker takes at once, at most.
    pub max: usize,
    reply: oneshot::Sender<Handed>,
}

impl Offer {
    /// Gives the worker the claims made for it (committed). A worker that
    /// stopped waiting without withdrawing (its task was dropped) leaves
    /// them to their leases, which expire and let another worker reclaim
    /// them.
    pub(super) fn hand(self, claims: Vec<Claim>) {
        if let Err(Handed::Claims(claims)) = self.reply.send(Handed::Claims(claims))
            && !claims.is_empty()
        {
            tracing::warn!(
                worker = %self.worker,
                jobs = claims.len(),
                "a worker stopped waiting before its claims arrived; their leases will expire"
            );
        }
    }

    /// Hands the worker `claims` to judge before they are stored; the
    /// judgements come on the receiver (`None` inside if judging failed).
    /// `None` if the worker stopped waiting without withdrawing.
    pub(super) fn judge_first(
        self,
        claims: Vec<Claim>,
    ) -> Option<oneshot::Receiver<Option<Vec<JudgementWrite>>>> {
        let (reply, judgements) = oneshot::channel();
        self.reply
            .send(Handed::JudgeFirst(JudgeFirst { claims, reply }))
            .ok()?;
        Some(judgements)
    }
}

impl WaitingWorkers {
    fn offer(&self, worker: &str, lease: Duration, max: usize) -> (u64, oneshot::Receiver<Handed>) {
        let (reply, claims) = oneshot::channel();
        let mut state = self.state.lock().unwrap_or_else(PoisonError::into_inner);
        let ticket = state.next_ticket;
        state.next_ticket += 1;
        state.offers.push_back(Offer {
            ticket,
            worker: worker.to_string(),
            lease,
            max: max.max(1),
            reply,
        });
        (ticket, claims)
    }

    /// Takes up to `jobs` offers, oldest first: as many workers as there
    /// are new jobs, at most.
    pub(super) fn take(&self, jobs: usize) -> Vec<Offer> {
        let mut state = self.state.lock().unwrap_or_else(PoisonError::into_inner);
        let taken = jobs.min(state.offers.len());
        state.offers.drain(..taken).collect()
    }

    /// Removes the offer `ticket`; `false` if it was taken already.
    fn withdraw(&self, ticket: u64) -> bool {
        let mut state = self.state.lock().unwrap_or_else(PoisonError::into_inner);
        match state.offers.iter().position(|offer| offer.ticket == ticket) {
            Some(index) => {
                state.offers.remove(index);
                true
            }
            None => false,
        }
    }
}

/// A worker's standing offer to take jobs an admission claims for it.
/// Dropping it withdraws it (claims already made then wait for their
/// leases to expire: use [`ClaimOffer::withdraw`]).
#[derive(Debug)]
pub struct ClaimOffer {
    ticket: u64,
    waiting: Arc<WaitingWorkers>,
    /// `None` once what was handed was received.
    claims: Option<oneshot::Receiver<Handed>>,
}

impl ClaimOffer {
    /// What an admission handed this worker: the claims it made, when it
    /// commits (none if it failed), or jobs to judge before it stores them.
    /// Safe to cancel (in a `select!`): the offer stands until withdrawn.
    pub async fn claimed(&mut self) -> Handed {
        match &mut self.claims {
            Some(receiver) => {
                let claims = receiver.await.unwrap_or_default();
                self.claims = None;
                claims
            }
            None => std::future::pending().await,
        }
    }

    /// Withdraws the offer: no claims if no admission took it, else what
    /// that admission handed (the claims after waiting for its commit, which
    /// the worker now holds and must judge, or jobs to judge first, which
    /// the admission waits for).
    pub async fn withdraw(mut self) -> Handed {
        if self.waiting.withdraw(self.ticket) {
            return Handed::default();
        }
        match self.claims.take() {
            Some(receiver) => receiver.await.unwrap_or_default(),
            None => Handed::default(),
        }
    }
}

impl Drop for ClaimOffer {
    fn drop(&mut self) {
        self.waiting.withdraw(self.ticket);
    }
}

impl Store {
    /// Offers `worker` (of this process) to take up to `max` jobs that the
    /// next admission stores, claimed for it with `lease` in the
    /// admission's own transaction. Await [`ClaimOffer::claimed`], and
    /// [`ClaimOffer::withdraw`] before looking for work another way.
    pub fn offer_to_claim(&self, worker: &str, lease: Duration, max: usize) -> ClaimOffer {
        let (ticket, claims) = self.waiting_workers.offer(worker, lease, max);
        ClaimOffer {
            ticket,
            waiting: Arc::clone(&self.waiting_workers),
            claims: Some(claims),
        }
    }
}
