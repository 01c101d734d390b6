//! Rejudge previews (setters and admins): judge a problem's judged
//! submissions again on the side and see which verdicts would change, then
//! apply the changes or discard them. Nobody else learns a preview exists:
//! contestants see their verdicts as they were until it is applied.

use super::{App, AppError, Caller};
use crate::{
    domain::{AppliedRejudging, ProblemId, Rejudging, RejudgingReport, RejudgingState},
    store::RejudgingRefusal,
};

impl App {
    /// Starts a preview of rejudging every judged submission of a problem.
    pub async fn preview_rejudge(
        &self,
        caller: &Caller,
        problem: &ProblemId,
    ) -> Result<Rejudging, AppError> {
        caller.require_staff()?;
        self.problem(caller, problem).await?;
        let rejudging = self
            .store
            .create_rejudging(problem, caller.name())
            .await?
            .ok_or_else(|| {
                AppError::Conflict(format!(
                    "problem `{problem}` has no judged submissions to rejudge"
                ))
            })?;
        for _ in 0..rejudging.submissions.min(64) {
            self.signals.job_added();
        }
        Ok(rejudging)
    }

    /// A problem's previews, newest first.
    pub async fn rejudgings(
        &self,
        caller: &Caller,
        problem: &ProblemId,
    ) -> Result<Vec<Rejudging>, AppError> {
        caller.require_staff()?;
        self.problem(caller, problem).await?;
        Ok(self.store.rejudgings_of_problem(problem).await?)
    }

    /// A preview with each submission's verdict before and in it.
    pub async fn rejudging(&self, caller: &Caller, id: i64) -> Result<RejudgingReport, AppError> {
        caller.require_staff()?;
        self.store
            .rejudging_report(id)
            .await?
            .ok_or_else(|| not_found(id))
    }

    /// Applies a preview whose submissions are all judged again: the
    /// changed verdicts become the submissions' (see
    /// [`Store::apply_rejudging`](crate::store::Store::apply_rejudging)).
    pub async fn apply_rejudging(
        &self,
        caller: &Caller,
        id: i64,
    ) -> Result<AppliedRejudging, AppError> {
        caller.require_staff()?;
        let applied = self
            .store
            .apply_rejudging(id, caller.name())
            .await?
            .map_err(|refusal| refused(id, refusal))?;
        Ok(applied)
    }

    /// Discards a preview: the submissions keep their verdicts.
    pub async fn discard_rejudging(&self, caller: &Caller, id: i64) -> Result<(), AppError> {
        caller.require_staff()?;
        self.store
            .discard_rejudging(id, caller.name())
            .await?
            .map_err(|refusal| refused(id, refusal))
    }
}

fn not_found(id: i64) -> AppError {
    AppError::NotFound(format!("no rejudge preview {id}"))
}

/// A refusal to apply or discard preview `id`, as the use case answers it.
fn refused(id: i64, refusal: RejudgingRefusal) -> AppError {
    match refusal {
        RejudgingRefusal::NotFound => not_found(id),
        RejudgingRefusal::Decided(state) => AppError::Conflict(format!(
            "rejudge preview {id} was {} already",
            match state {
                RejudgingState::Applied => "applied",
                RejudgingState::Discarded => "discarded",
                RejudgingState::Preview => "left open",
            }
        )),
        RejudgingRefusal::StillJudging(pending) => AppError::Conflict(format!(
            "rejudge preview {id} cannot be applied yet: {pending} of its submissions \
             are still being judged"
        )),
    }
}
