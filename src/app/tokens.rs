//! Tokens and sessions: admins issue, list and revoke bearer tokens; a
//! request is authenticated by its token's secret, and a web session by
//! its cookie. A secret is stored only as its hash and shown once, when it
//! is issued.

use super::{App, AppError, Caller};
use crate::{
    api::{NewToken, TokenCreated},
    domain::{Timestamp, TokenId},
    store::{OpenedSession, Revocation, SessionHolder, TokenPage},
};

/// The most tokens a page lists at once.
pub const MAX_TOKEN_PAGE: i64 = 500;

impl App {
    /// The caller a token secret stands for, if the token exists, is not
    /// revoked and has not expired.
    pub async fn authenticate(&self, secret: &str) -> Result<Option<Caller>, AppError> {
        Ok(self
            .store
            .principal(secret)
            .await?
            .map(|(token, principal)| Caller { principal, token }))
    }

    /// Whether `caller`'s token still authenticates, for what outlives the
    /// request that authenticated it (an event feed's looks).
    pub async fn still_authenticated(&self, caller: &Caller) -> Result<bool, AppError> {
        Ok(self.store.token_is_live(caller.token).await?)
    }

    /// Issues a token (admins only): a valid user name, a lifetime within
    /// bounds, and a name not taken by a user with another role.
    pub async fn issue_token(
        &self,
        caller: &Caller,
        request: NewToken,
    ) -> Result<TokenCreated, AppError> {
        caller.require_admin()?;
        let issued = super::operator::issue(
            &self.store,
            &request.name,
            request.role,
            request.expires_in_seconds,
        )
        .await?;
        Ok(TokenCreated {
            id: issued.id,
            name: request.name,
            role: request.role,
            expires_at: issued.expires_at,
            token: issued.secret,
        })
    }

    /// One page of tokens, newest first, without secrets (admins only);
    /// `limit` is 1 to [`MAX_TOKEN_PAGE`].
    pub async fn token_page(
        &self,
        caller: &Caller,
        before: Option<TokenId>,
        limit: i64,
    ) -> Result<TokenPage, AppError> {
        caller.require_admin()?;
        if !(1..=MAX_TOKEN_PAGE).contains(&limit) {
            return Err(AppError::Invalid(format!(
                "limit must be between 1 and {MAX_TOKEN_PAGE}"
            )));
        }
        Ok(self.store.token_page(before, limit).await?)
    }

    /// Revokes token `id` (admins only). Revoking a revoked token changes
    /// nothing; the caller's own token is refused as a conflict, so an
    /// admin cannot lock themselves out by mistake.
    pub async fn revoke_token(&self, caller: &Caller, id: TokenId) -> Result<(), AppError> {
        caller.require_admin()?;
        if id == caller.token {
            return Err(AppError::Conflict(format!(
                "token {id} is the one this request uses; revoke it with another admin token"
            )));
        }
        match self.store.revoke_token(id).await? {
            Revocation::Revoked | Revocation::AlreadyRevoked => Ok(()),
            Revocation::NotFound => Err(AppError::NotFound(format!("no token {id}"))),
        }
    }

    /// Opens a web session for a token secret, until `expires_at` (or the
    /// token's end); `None` for an unknown, revoked or expired token.
    pub async fn open_session(
        &self,
        secret: &str,
        expires_at: Timestamp,
    ) -> Result<Option<OpenedSession>, AppError> {
        Ok(self
            .store
            .open_session(secret, expires_at)
            .await?
            .map(|(session, _)| session))
    }

    /// The holder of a live session.
    pub async fn session(&self, session_id: &str) -> Result<Option<SessionHolder>, AppError> {
        Ok(self.store.session(session_id).await?)
    }

    /// Ends a session.
    pub async fn close_session(&self, session_id: &str) -> Result<(), AppError> {
        Ok(self.store.close_session(session_id).await?)
    }
}
