//! Bearer tokens: issuing, listing, revoking, and finding the holder of a
//! secret.
//!
//! A secret is stored only as its sha256, so the database never holds one
//! that works. A token authenticates while it is neither revoked nor past its
//! expiry; revoking keeps the row, so the listing shows who had access and
//! until when. A name is one user: every token of a name has the same role.

use sha2::{Digest, Sha256};

use super::{
    Store, StoreError,
    backend::{DbRow, Statement, query},
    hex, millis, now_ms, optional_time_column, parse_column, time_column,
};
use crate::domain::{Principal, Role, Timestamp, TokenId, TokenRecord};

/// A token just issued: its number and its secret, which is shown this once.
#[derive(Debug, Clone)]
pub struct IssuedToken {
    pub id: TokenId,
    pub secret: String,
}

/// What a revocation found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Revocation {
    /// It worked until now and no longer does.
    Revoked,
    /// It was revoked before; nothing changed.
    AlreadyRevoked,
    NotFound,
}

/// One page of the token listing, newest first.
#[derive(Debug, Clone)]
pub struct TokenPage {
    pub tokens: Vec<TokenRecord>,
    /// Pass as `before` for the next page; `None` on the last.
    pub next_cursor: Option<TokenId>,
}

/// The columns [`token_record`] reads, as a literal for `concat!`.
macro_rules! token_columns {
    () => {
        "id, name, role, created_at, expires_at, revoked_at"
    };
}

/// A token's listing entry (never its hash).
fn token_record(row: &DbRow) -> Result<TokenRecord, StoreError> {
    Ok(TokenRecord {
        id: TokenId(row.try_get("id")?),
        name: row.try_get("name")?,
        role: parse_column(row, "role")?,
        created_at: time_column(row, "created_at")?,
        expires_at: optional_time_column(row, "expires_at")?,
        revoked_at: optional_time_column(row, "revoked_at")?,
    })
}

/// The stored form of a token secret: its sha256 in hex.
pub(super) fn hash_secret(secret: &str) -> String {
    hex(&Sha256::digest(secret.as_bytes()))
}

impl Store {
    /// Stores a new token for `name` and returns its secret. Refused with
    /// [`StoreError::NameTaken`] when `name` already has tokens of another
    /// role. The check and the insert are one immediate transaction, so two
    /// processes cannot give one name two roles.
    pub async fn create_token(
        &self,
        name: &str,
        role: Role,
        expires_at: Option<Timestamp>,
    ) -> Result<IssuedToken, StoreError> {
        self.noted(async {
            let secret = super::sessions::random_secret("nj_");
            let mut tx = self.write.begin_exclusive(&format!("token {name}")).await?;
            let existing: Option<Role> = query("select role from token where name = $1 limit 1")
                .bind(name)
                .fetch_optional(&mut tx)
                .await?
                .map(|row| parse_column(&row, "role"))
                .transpose()?;
            if let Some(existing) = existing
                && existing != role
            {
                return Err(StoreError::NameTaken {
                    name: name.to_string(),
                    role: existing,
                });
            }
            let id: i64 = query(
            "insert into token (name, role, hash, created_at, expires_at) values ($1, $2, $3, $4, $5) \
             returning id",
        )
        .bind(name)
        .bind(role.as_str())
        .bind(hash_secret(&secret))
        .bind(now_ms())
        .bind(expires_at.map(millis))
        .fetch_one(&mut tx)
        .await?
        .try_get("id")?;
            tx.commit().await?;
            Ok(IssuedToken {
                id: TokenId(id),
                secret,
            })
        })
        .await
    }

    /// The holder of a token secret and the token's number, if the token
    /// exists, is not revoked and has not expired.
    pub async fn principal(
        &self,
        secret: &str,
    ) -> Result<Option<(TokenId, Principal)>, StoreError> {
        let row = principal_statement(hash_secret(secret), now_ms())
            .fetch_optional(&self.read)
            .await?;
        row.map(|row| {
            Ok((
                TokenId(row.try_get("id")?),
                Principal {
                    name: row.try_get("name")?,
                    role: parse_column(&row, "role")?,
                },
            ))
        })
        .transpose()
    }

    /// Whether a token still authenticates: not revoked, not expired.
    pub async fn token_is_live(&self, token: TokenId) -> Result<bool, StoreError> {
        Ok(query(
            "select id from token where id = $1 and revoked_at is null \
             and (expires_at is null or expires_at > $2)",
        )
        .bind(token.0)
        .bind(now_ms())
        .fetch_optional(&self.read)
        .await?
        .is_some())
    }

    /// Every token, oldest first, revoked and expired ones included.
    pub async fn tokens(&self) -> Result<Vec<TokenRecord>, StoreError> {
        query(concat!(
            "select ",
            token_columns!(),
            " from token order by id"
        ))
        .fetch_all(&self.read)
        .await?
        .iter()
        .map(token_record)
        .collect()
    }

    /// One page of tokens, newest first: at most `limit` tokens numbered
    /// below `before` (every token when `None`), revoked and expired ones
    /// included. A walk down the primary key, so a page costs the same
    /// however many tokens there are.
    pub async fn token_page(
        &self,
        before: Option<TokenId>,
        limit: i64,
    ) -> Result<TokenPage, StoreError> {
        let rows = token_page_statement(before, limit)
            .fetch_all(&self.read)
            .await?;
        let tokens: Vec<TokenRecord> = rows.iter().map(token_record).collect::<Result<_, _>>()?;
        let next_cursor = if tokens.len() as i64 == limit {
            tokens.last().map(|token| token.id)
        } else {
            None
        };
        Ok(TokenPage {
            tokens,
            next_cursor,
        })
    }

    /// Revokes a token: it stops working at once, and its row stays.
    pub async fn revoke_token(&self, id: TokenId) -> Result<Revocation, StoreError> {
        self.noted(async {
            let mut tx = self.write.begin().await?;
            let revoked =
                query("update token set revoked_at = $1 where id = $2 and revoked_at is null")
                    .bind(now_ms())
                    .bind(id.0)
                    .execute(&mut tx)
                    .await?;
            let outcome = if revoked > 0 {
                Revocation::Revoked
            } else if query("select 1 from token where id = $1")
                .bind(id.0)
                .fetch_optional(&mut tx)
                .await?
                .is_some()
            {
                Revocation::AlreadyRevoked
            } else {
                Revocation::NotFound
            };
            tx.commit().await?;
            Ok(outcome)
        })
        .await
    }
}

/// The lookup of a token by its secret's hash, at `now`.
pub(super) fn principal_statement(hash: String, now: i64) -> Statement<'static> {
    query(
        "select id, name, role from token where hash = $1 and revoked_at is null \
         and (expires_at is null or expires_at > $2)",
    )
    .bind(hash)
    .bind(now)
}

/// The statement of one page of tokens: only the bound given enters it, so
/// the page is a walk down the primary key from `before`.
pub(super) fn token_page_statement(before: Option<TokenId>, limit: i64) -> Statement<'static> {
    let mut statement = query(concat!(
        "select ",
        token_columns!(),
        " from token where true"
    ));
    if let Some(before) = before {
        statement = statement.push(" and id < ").push_bind(before.0);
    }
    statement.push(" order by id desc limit ").push_bind(limit)
}
