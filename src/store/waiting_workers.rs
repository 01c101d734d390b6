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
//! Invariants: an offer is taken at most once, by removing it; a worker that
//! stops waiting for another reason (a wake-up, its poll, its stop) withdraws
//! its offer first and, if an admission took it already, waits for that
//! admission's claims ([`ClaimOffer::withdraw`]), so no claim is made for a
//! worker that is not waiting for it. An admission that fails drops the
//! offers it took: their workers get no claims and look for work themselves.

use std::{
    collections::VecDeque,
    sync::{Arc, Mutex, PoisonError},
    time::Duration,
};

use tokio::sync::oneshot;

use super::{Claim, Store};

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
    reply: oneshot::Sender<Vec<Claim>>,
}

impl Offer {
    /// Gives the worker the claims made for it (committed). A worker that
    /// stopped waiting without withdrawing (its task was dropped) leaves
    /// them to their leases, which expire and let another worker reclaim
    /// them.
    pub(super) fn hand(self, claims: Vec<Claim>) {
        if let Err(claims) = self.reply.send(claims)
            && !claims.is_empty()
        {
            tracing::warn!(
                worker = %self.worker,
                jobs = claims.len(),
                "a worker stopped waiting before its claims arrived; their leases will expire"
            );
        }
    }
}

impl WaitingWorkers {
    fn offer(
        &self,
        worker: &str,
        lease: Duration,
        max: usize,
    ) -> (u64, oneshot::Receiver<Vec<Claim>>) {
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
    /// `None` once the claims were received.
    claims: Option<oneshot::Receiver<Vec<Claim>>>,
}

impl ClaimOffer {
    /// The claims an admission made for this worker, when it commits. Empty
    /// if the admission failed. Safe to cancel (in a `select!`): the offer
    /// stands until withdrawn.
    pub async fn claimed(&mut self) -> Vec<Claim> {
        match &mut self.claims {
            Some(receiver) => {
                let claims = receiver.await.unwrap_or_default();
                self.claims = None;
                claims
            }
            None => std::future::pending().await,
        }
    }

    /// Withdraws the offer: empty if no admission took it, else the claims
    /// that admission made (after waiting for its commit), which the worker
    /// now holds and must judge.
    pub async fn withdraw(mut self) -> Vec<Claim> {
        if self.waiting.withdraw(self.ticket) {
            return Vec::new();
        }
        match self.claims.take() {
            Some(receiver) => receiver.await.unwrap_or_default(),
            None => Vec::new(),
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
