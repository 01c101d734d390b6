//! Browser sessions of the web UI: opening one for a token, finding the
//! holder of a session id, and ending one.
//!
//! Like a token secret, a session id is stored only as its sha256. A session
//! authenticates while it has not expired and its token is neither revoked
//! nor expired: the lookup joins the token, so revoking a token signs out
//! every browser that signed in with it. Expired rows are removed whenever a
//! new session is opened.

use super::{Store, StoreError, backend::query, millis, now_ms, parse_column, tokens::hash_secret};
use crate::domain::{Principal, Timestamp, TokenId};

/// A session just opened: the id for the cookie (shown this once) and the
/// CSRF token its forms carry.
#[derive(Debug, Clone)]
pub struct OpenedSession {
    pub id: String,
    pub csrf: String,
}

/// The holder of a live session.
#[derive(Debug, Clone)]
pub struct SessionHolder {
    pub token: TokenId,
    pub principal: Principal,
    /// The CSRF token every form of this session must send back.
    pub csrf: String,
}

/// A fresh random secret: two v4 UUIDs, 244 random bits.
pub fn random_secret(prefix: &str) -> String {
    format!(
        "{prefix}{}{}",
        uuid::Uuid::new_v4().simple(),
        uuid::Uuid::new_v4().simple()
    )
}

/// The most live sessions one token keeps: signing in again ends the
/// oldest past these.
pub const SESSIONS_PER_TOKEN: i64 = 32;

impl Store {
    /// Opens a session for the holder of `token_secret`, lasting until
    /// `expires_at` (or the token's own end, if sooner). `Ok(None)` if the
    /// secret belongs to no live token.
    pub async fn open_session(
        &self,
        token_secret: &str,
        expires_at: Timestamp,
    ) -> Result<Option<(OpenedSession, Principal)>, StoreError> {
        let Some((token, principal)) = self.principal(token_secret).await? else {
            return Ok(None);
        };
        let session = OpenedSession {
            id: random_secret("njs_"),
            csrf: random_secret(""),
        };
        self.noted(async {
            let now = now_ms();
            let mut tx = self.write.begin().await?;
            query("delete from session where expires_at <= $1")
                .bind(now)
                .execute(&mut tx)
                .await?;
            query(
                "insert into session (hash, token_id, csrf, created_at, expires_at) \
                 values ($1, $2, $3, $4, $5)",
            )
            .bind(hash_secret(&session.id))
            .bind(token.0)
            .bind(&session.csrf)
            .bind(now)
            .bind(millis(expires_at))
            .execute(&mut tx)
            .await?;
            // A token's oldest sessions end past its newest few, so signing
            // in over and over keeps a bounded number.
            query(
                "delete from session where token_id = $1 and id not in \
                 (select id from session where token_id = $1 order by id desc limit $2)",
            )
            .bind(token.0)
            .bind(SESSIONS_PER_TOKEN)
            .execute(&mut tx)
            .await?;
            tx.commit().await?;
            Ok(())
        })
        .await?;
        Ok(Some((session, principal)))
    }

    /// The holder of a session id, if the session and its token are live.
    pub async fn session(&self, session_id: &str) -> Result<Option<SessionHolder>, StoreError> {
        let now = now_ms();
        let row = query(
            "select t.id, t.name, t.role, s.csrf from session s join token t on t.id = s.token_id \
             where s.hash = $1 and s.expires_at > $2 and t.revoked_at is null \
             and (t.expires_at is null or t.expires_at > $3)",
        )
        .bind(hash_secret(session_id))
        .bind(now)
        .bind(now)
        .fetch_optional(&self.read)
        .await?;
        row.map(|row| {
            Ok(SessionHolder {
                token: TokenId(row.try_get("id")?),
                principal: Principal {
                    name: row.try_get("name")?,
                    role: parse_column(&row, "role")?,
                },
                csrf: row.try_get("csrf")?,
            })
        })
        .transpose()
    }

    /// Ends a session (sign-out). Ending one that is gone is not an error.
    pub async fn close_session(&self, session_id: &str) -> Result<(), StoreError> {
        self.noted(async {
            query("delete from session where hash = $1")
                .bind(hash_secret(session_id))
                .execute(&self.write)
                .await?;
            Ok(())
        })
        .await
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use crate::{
        config::DatabaseConfig,
        domain::{Role, Timestamp},
        store::Store,
    };

    async fn fresh() -> (tempfile::TempDir, Store) {
        let dir = tempfile::tempdir().expect("temp dir");
        let config = DatabaseConfig {
            url: format!("sqlite://{}", dir.path().join("test.db").display()),
            read_connections: 2,
            busy_timeout: Duration::from_secs(5),
        };
        let store = Store::connect(&config).await.expect("open a database");
        (dir, store)
    }

    fn in_ms(ms: i64) -> Timestamp {
        Timestamp::now()
            .checked_add(jiff::SignedDuration::from_millis(ms))
            .expect("a time")
    }

    #[tokio::test]
    async fn a_session_finds_its_holder_until_it_is_closed() {
        let (_dir, store) = fresh().await;
        let token = store
            .create_token("carol", Role::Contestant, None)
            .await
            .expect("a token");
        assert!(
            store
                .open_session("nj_wrong", in_ms(60_000))
                .await
                .expect("open")
                .is_none(),
            "an unknown secret opens nothing"
        );
        let (session, principal) = store
            .open_session(&token.secret, in_ms(60_000))
            .await
            .expect("open")
            .expect("a live token opens a session");
        assert_eq!(principal.name, "carol");
        let holder = store
            .session(&session.id)
            .await
            .expect("look up")
            .expect("a live session");
        assert_eq!(holder.token, token.id);
        assert_eq!(holder.principal.role, Role::Contestant);
        assert_eq!(holder.csrf, session.csrf);
        assert!(store.session("njs_other").await.expect("look up").is_none());
        store.close_session(&session.id).await.expect("close");
        assert!(store.session(&session.id).await.expect("look up").is_none());
        store
            .close_session(&session.id)
            .await
            .expect("closing twice is fine");
    }

    #[tokio::test]
    async fn a_session_ends_at_its_expiry_and_with_its_token() {
        let (_dir, store) = fresh().await;
        let token = store
            .create_token("carol", Role::Contestant, None)
            .await
            .expect("a token");
        let (expired, _) = store
            .open_session(&token.secret, in_ms(-1))
            .await
            .expect("open")
            .expect("a session");
        assert!(store.session(&expired.id).await.expect("look up").is_none());

        let (revoked, _) = store
            .open_session(&token.secret, in_ms(60_000))
            .await
            .expect("open")
            .expect("a session");
        store.revoke_token(token.id).await.expect("revoke");
        assert!(store.session(&revoked.id).await.expect("look up").is_none());

        let short = store
            .create_token("dave", Role::Contestant, Some(in_ms(300)))
            .await
            .expect("a token");
        let (session, _) = store
            .open_session(&short.secret, in_ms(60_000))
            .await
            .expect("open")
            .expect("a session");
        assert!(store.session(&session.id).await.expect("look up").is_some());
        tokio::time::sleep(Duration::from_millis(400)).await;
        assert!(
            store.session(&session.id).await.expect("look up").is_none(),
            "the token's expiry ends the session"
        );
    }

    #[tokio::test]
    async fn signing_in_again_and_again_keeps_a_tokens_newest_sessions() {
        let (_dir, store) = fresh().await;
        let token = store
            .create_token("carol", Role::Contestant, None)
            .await
            .expect("a token");
        let mut opened = Vec::new();
        for _ in 0..super::SESSIONS_PER_TOKEN + 3 {
            let (session, _) = store
                .open_session(&token.secret, in_ms(60_000))
                .await
                .expect("open")
                .expect("a session");
            opened.push(session.id);
        }
        let mut live = 0;
        for (n, id) in opened.iter().enumerate() {
            let found = store.session(id).await.expect("look up").is_some();
            assert_eq!(found, n >= 3, "session {n}");
            live += usize::from(found);
        }
        assert_eq!(live, 32);
    }
}
