//! Failed authentications counted per client address: a bearer token that
//! is unknown, revoked or expired, or a web sign-in with one. Past
//! `limits.failed_auths_per_minute` failures in a minute, every request
//! from that address that presents a token (or signs in) answers 429 with
//! `Retry-After` until the minute is over, without looking the token up.
//! Requests with a valid token never count.
//!
//! The counts are this process's own, in memory: a restart forgets them,
//! and each API host counts its own clients. Behind a reverse proxy every
//! client has the proxy's address, so there the throttle belongs in the
//! proxy (and this one is turned off with 0).

use std::{
    collections::HashMap,
    convert::Infallible,
    net::{IpAddr, SocketAddr},
    sync::Mutex,
    time::{Duration, Instant},
};

use axum::{extract::ConnectInfo, extract::FromRequestParts, http::request::Parts};

/// The span failures are counted over.
pub const WINDOW: Duration = Duration::from_secs(60);

/// Addresses kept before the ones whose window is over are dropped, so a
/// flood from many addresses cannot grow the table without bound.
const PRUNE_ABOVE: usize = 10_000;

/// Failed authentications per client address, in fixed one-minute windows.
#[derive(Debug)]
pub struct AuthThrottle {
    /// Failures allowed in a window; `None` turns the throttle off.
    limit: Option<u32>,
    windows: Mutex<HashMap<IpAddr, Window>>,
}

#[derive(Debug, Clone, Copy)]
struct Window {
    started: Instant,
    failures: u32,
}

/// An address that used up its failures: when it may try again.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Throttled {
    pub limit: u32,
    pub retry_after: Duration,
}

impl AuthThrottle {
    pub fn new(limit: Option<u32>) -> AuthThrottle {
        AuthThrottle {
            limit,
            windows: Mutex::new(HashMap::new()),
        }
    }

    /// `Err` if `address` failed `limit` times in its current window.
    pub fn check(&self, address: Option<IpAddr>) -> Result<(), Throttled> {
        let (Some(limit), Some(address)) = (self.limit, address) else {
            return Ok(());
        };
        let windows = self.windows.lock().unwrap_or_else(|e| e.into_inner());
        match windows.get(&address) {
            Some(window) if window.failures >= limit => {
                let left = WINDOW.saturating_sub(window.started.elapsed());
                if left.is_zero() {
                    Ok(())
                } else {
                    Err(Throttled {
                        limit,
                        retry_after: left,
                    })
                }
            }
            _ => Ok(()),
        }
    }

    /// Counts one failed authentication from `address`.
    pub fn failed(&self, address: Option<IpAddr>) {
        let (Some(_), Some(address)) = (self.limit, address) else {
            return;
        };
        let now = Instant::now();
        let mut windows = self.windows.lock().unwrap_or_else(|e| e.into_inner());
        if windows.len() > PRUNE_ABOVE {
            windows.retain(|_, w| now.duration_since(w.started) < WINDOW);
        }
        let window = windows.entry(address).or_insert(Window {
            started: now,
            failures: 0,
        });
        if now.duration_since(window.started) >= WINDOW {
            *window = Window {
                started: now,
                failures: 0,
            };
        }
        window.failures = window.failures.saturating_add(1);
    }
}

/// The address of the client a request came from, where the server knows
/// it (the accept loop records it on every request).
#[derive(Debug, Clone, Copy)]
pub struct ClientAddress(pub Option<IpAddr>);

impl<S: Sync> FromRequestParts<S> for ClientAddress {
    type Rejection = Infallible;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Self, Infallible> {
        Ok(ClientAddress(client_address(parts)))
    }
}

/// The client's address from the request's `ConnectInfo`.
pub fn client_address(parts: &Parts) -> Option<IpAddr> {
    parts
        .extensions
        .get::<ConnectInfo<SocketAddr>>()
        .map(|ConnectInfo(address)| address.ip())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_address_is_throttled_after_its_limit_and_others_are_not() {
        let throttle = AuthThrottle::new(Some(3));
        let (one, two) = (
            Some(IpAddr::from([192, 0, 2, 1])),
            Some(IpAddr::from([192, 0, 2, 2])),
        );
        for _ in 0..3 {
            assert_eq!(throttle.check(one), Ok(()));
            throttle.failed(one);
        }
        let throttled = throttle.check(one).expect_err("the fourth try is refused");
        assert_eq!(throttled.limit, 3);
        assert!(throttled.retry_after <= WINDOW && throttled.retry_after > Duration::ZERO);
        assert_eq!(throttle.check(two), Ok(()));
        // Unknown addresses (a request not from the accept loop) are never
        // throttled, and 0 (None) turns the throttle off.
        throttle.failed(None);
        assert_eq!(throttle.check(None), Ok(()));
        let off = AuthThrottle::new(None);
        (0..10).for_each(|_| off.failed(one));
        assert_eq!(off.check(one), Ok(()));
    }
}
