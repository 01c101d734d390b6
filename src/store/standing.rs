//! A user's standing on each problem: solved, tried or untouched, for the
//! web UI's problem list.
//!
//! Only answers and programs count: a custom check judges an input of the
//! user's own, not the problem's testcases.

use std::collections::BTreeMap;

use super::{Store, StoreError, backend::query, parse_column};
use crate::domain::ProblemId;

/// Where a user stands on one problem.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Standing {
    /// At least one answers or program submission got AC.
    Solved,
    /// Submitted answers or a program, none accepted (yet).
    Tried,
}

impl Store {
    /// The standing of `user` on every problem they submitted to; a problem
    /// missing from the map is untouched.
    pub async fn standings(&self, user: &str) -> Result<BTreeMap<ProblemId, Standing>, StoreError> {
        let rows = query(
            "select problem_id, coalesce(max(case when verdict = 'AC' then 1 else 0 end), 0) = 1 as solved from submission \
             where user_name = $1 and kind in ('answers', 'program') group by problem_id",
        )
        .bind(user)
        .fetch_all(&self.read)
        .await?;
        rows.iter()
            .map(|row| {
                let solved: bool = row.try_get("solved")?;
                let standing = if solved {
                    Standing::Solved
                } else {
                    Standing::Tried
                };
                Ok((parse_column(row, "problem_id")?, standing))
            })
            .collect()
    }
}
