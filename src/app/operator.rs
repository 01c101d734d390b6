//! The host operator's use cases: what `nimjudge token` and `nimjudge log`
//! do on the daemon's database itself, with no server running. Whoever can
//! open the database holds every right, so these take no [`Caller`]; the
//! rules of what a token may be are the API's own ([`issue`]).
//!
//! [`Caller`]: super::Caller

use super::AppError;
use crate::{
    config::DatabaseConfig,
    domain::{
        ProblemId, Role, SubmissionId, Timestamp, TokenId, TokenRecord, token_expiry,
        validate_user_name,
    },
    store::{
        IssuedToken, ListFilter, OpenMode, Revocation, Store, StoreError, SubmissionPage,
        SubmissionRecord,
    },
};

/// The daemon's database, opened by a tool on its host.
#[derive(Debug)]
pub struct Operator {
    store: Store,
}

/// A token issued by the operator: its number and secret, and until when.
#[derive(Debug, Clone)]
pub struct Issued {
    pub id: TokenId,
    pub secret: String,
    pub expires_at: Option<Timestamp>,
}

impl Operator {
    /// Opens the daemon's database; a missing one is refused, never made
    /// (a token in a database the daemon does not use would be useless).
    pub async fn open(config: &DatabaseConfig) -> Result<Operator, AppError> {
        let store = Store::open(config, OpenMode::MustExist)
            .await
            .map_err(|e| match e {
                StoreError::Missing(_) => AppError::NotFound(e.to_string()),
                other => other.into(),
            })?;
        Ok(Operator { store })
    }

    /// Which database this is, for messages.
    pub fn describe(&self) -> String {
        self.store.describe()
    }

    /// Closes the database's connections.
    pub async fn close(self) {
        self.store.close().await;
    }

    /// Issues a token for `name` with `role`, for `expires_in_seconds` or
    /// until revoked.
    pub async fn issue_token(
        &self,
        name: &str,
        role: Role,
        expires_in_seconds: Option<u64>,
    ) -> Result<Issued, AppError> {
        issue(&self.store, name, role, expires_in_seconds).await
    }

    /// Every token, newest first, without secrets.
    pub async fn tokens(&self) -> Result<Vec<TokenRecord>, AppError> {
        Ok(self.store.tokens().await?)
    }

    /// Revokes a token; says whether it was live, revoked already, or
    /// missing.
    pub async fn revoke_token(&self, id: TokenId) -> Result<Revocation, AppError> {
        Ok(self.store.revoke_token(id).await?)
    }

    /// One page of the verdict log; a problem named that does not exist is
    /// refused (an empty page would look like no submissions).
    pub async fn log(&self, filter: ListFilter) -> Result<SubmissionPage, AppError> {
        if let Some(problem) = &filter.problem {
            self.existing_problem(problem).await?;
        }
        Ok(self.store.list_submissions(&filter).await?)
    }

    /// A submission with every judgement and event.
    pub async fn record(&self, id: &SubmissionId) -> Result<SubmissionRecord, AppError> {
        self.store
            .submission_record(id)
            .await?
            .ok_or_else(|| AppError::NotFound(format!("no submission `{id}`")))
    }

    async fn existing_problem(&self, id: &ProblemId) -> Result<(), AppError> {
        match self.store.problem(id).await? {
            Some(_) => Ok(()),
            None => Err(AppError::NotFound(format!(
                "no problem `{id}` (`nimjudge problems` lists them)"
            ))),
        }
    }
}

/// Issues a token as the API and the operator both do: a valid user name,
/// a lifetime within bounds, and a name not taken by a user with another
/// role.
pub(super) async fn issue(
    store: &Store,
    name: &str,
    role: Role,
    expires_in_seconds: Option<u64>,
) -> Result<Issued, AppError> {
    validate_user_name(name).map_err(|e| AppError::Invalid(e.to_string()))?;
    let expires_at = expires_in_seconds
        .map(|seconds| token_expiry(Timestamp::now(), seconds))
        .transpose()
        .map_err(AppError::Invalid)?;
    let IssuedToken { id, secret } = store.create_token(name, role, expires_at).await?;
    Ok(Issued {
        id,
        secret,
        expires_at,
    })
}
