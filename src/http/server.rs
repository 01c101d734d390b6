//! The accept loop: HTTP/1.1 connections served by hyper, with the limits
//! `axum::serve` does not offer.
//!
//! - **Connection cap**: at most `max_connections` are open. At the cap the
//!   loop stops accepting (the rest wait in the kernel's backlog instead of
//!   exhausting file descriptors) and closes idle keep-alive connections to
//!   make room, as nginx does, so idle sockets cannot lock everyone out. A failed `accept` (out of
//!   descriptors, say) is logged and retried after a pause, never fatal.
//! - **Per-address cap**: at most `max_connections_per_address` of them come
//!   from one client address (an IPv6 address counts by its /64); one past
//!   it is closed at once, so one client cannot take every slot.
//! - **Keep-alive timeout**: a connection waiting for a request (just opened,
//!   or done with the previous one) that sends nothing is closed.
//! - **Header-read timeout**: once a request's first byte arrives, its header
//!   must be complete in time, so a client trickling a header (slowloris)
//!   cannot hold a connection.
//! - Body size and body-read time are checked per request by
//!   [`request_body`](super::request_body), and the whole request by the
//!   router's timeout.
//! - **Bounded shutdown**: when `shutdown` resolves the loop stops accepting,
//!   asks every connection to finish its request and close, and after the
//!   grace period closes whatever is still open, so a slow client cannot hold
//!   SIGTERM.
//!
//! Each connection has a watchdog beside hyper that knows whether a request
//! is in progress (from the service, until its response's body is sent)
//! and when bytes last arrived (from the socket), and drops the connection
//! when its deadline passes.

use std::{
    collections::HashMap,
    future::Future,
    io,
    net::IpAddr,
    pin::Pin,
    sync::{Arc, Mutex, PoisonError},
    task::{Context, Poll},
    time::Duration,
};

use axum::{Router, extract::Request};
use hyper::{body::Incoming, server::conn::http1};
use hyper_util::rt::TokioIo;
use tokio::{
    io::{AsyncRead, AsyncWrite, ReadBuf},
    net::{TcpListener, TcpStream},
    sync::{Notify, OwnedSemaphorePermit, Semaphore, TryAcquireError},
    task::JoinSet,
    time::Instant,
};
use tokio_util::sync::CancellationToken;
use tower::ServiceExt;
use tracing::{debug, info, warn};

use crate::config::ConnectionLimits;

/// How long the loop pauses after a failed `accept`, so a lack of file
/// descriptors does not become a busy loop.
const ACCEPT_RETRY_PAUSE: Duration = Duration::from_millis(100);

/// How often the loop, at the connection cap, asks idle connections to close.
const MAKE_ROOM_INTERVAL: Duration = Duration::from_millis(100);

/// Serves `router` on `listener` until `shutdown` resolves, then drains the
/// open connections for at most `limits.shutdown_grace`.
pub async fn serve(
    listener: TcpListener,
    router: Router,
    limits: ConnectionLimits,
    shutdown: impl Future<Output = ()>,
) {
    let permits = Arc::new(Semaphore::new(limits.max_connections));
    let closing = CancellationToken::new();
    let mut connections = JoinSet::new();
    let make_room = Arc::new(Notify::new());
    let per_address = AddressCounts::default();
    tokio::pin!(shutdown);
    'accepting: loop {
        // Forget finished connections, so the set holds only open ones.
        while connections.try_join_next().is_some() {}
        let permit = match permits.clone().try_acquire_owned() {
            Ok(permit) => permit,
            Err(TryAcquireError::Closed) => break,
            Err(TryAcquireError::NoPermits) => {
                // At the cap: ask idle connections to make room, again and
                // again until one has.
                let mut pressure = tokio::time::interval(MAKE_ROOM_INTERVAL);
                loop {
                    tokio::select! {
                        () = &mut shutdown => break 'accepting,
                        permit = permits.clone().acquire_owned() => match permit {
                            Ok(permit) => break permit,
                            Err(_) => break 'accepting,
                        },
                        _ = pressure.tick() => make_room.notify_waiters(),
                    }
                }
            }
        };
        let stream = tokio::select! {
            () = &mut shutdown => break 'accepting,
            accepted = listener.accept() => match accepted {
                Ok(accepted) => accepted,
                Err(error) => {
                    warn!(%error, "cannot accept a connection; retrying");
                    tokio::time::sleep(ACCEPT_RETRY_PAUSE).await;
                    continue;
                }
            },
        };
        let (stream, peer) = stream;
        let Some(address_slot) = per_address.take(peer.ip(), limits.max_connections_per_address)
        else {
            debug!(%peer, "closing a connection past its address's cap");
            continue;
        };
        connections.spawn(serve_connection(
            stream,
            peer,
            router.clone(),
            limits,
            closing.clone(),
            make_room.clone(),
            (permit, address_slot),
        ));
    }
    drop(listener);
    closing.cancel();
    let drained = tokio::time::timeout(limits.shutdown_grace, async {
        while connections.join_next().await.is_some() {}
    })
    .await;
    if drained.is_err() {
        info!(
            open = connections.len(),
            "closing connections still open after the grace period"
        );
        connections.abort_all();
        while connections.join_next().await.is_some() {}
    }
}

/// How many connections are open from each client address.
#[derive(Debug, Clone, Default)]
struct AddressCounts(Arc<Mutex<HashMap<IpAddr, usize>>>);

/// One open connection's place in [`AddressCounts`], given back on drop.
struct AddressSlot {
    counts: AddressCounts,
    address: IpAddr,
}

impl AddressCounts {
    /// A slot for a connection from `peer`, unless `cap` are open from its
    /// address already.
    fn take(&self, peer: IpAddr, cap: Option<usize>) -> Option<AddressSlot> {
        let address = counted_address(peer);
        let mut counts = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        let open = counts.entry(address).or_insert(0);
        if cap.is_some_and(|cap| *open >= cap) {
            return None;
        }
        *open += 1;
        Some(AddressSlot {
            counts: self.clone(),
            address,
        })
    }
}

impl Drop for AddressSlot {
    fn drop(&mut self) {
        let mut counts = self.counts.0.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(open) = counts.get_mut(&self.address) {
            *open -= 1;
            if *open == 0 {
                counts.remove(&self.address);
            }
        }
    }
}

/// The address a connection counts under: IPv4 as it is (an IPv4-mapped
/// IPv6 address as its IPv4 one), IPv6 by its /64, the block one host is
/// usually given.
fn counted_address(peer: IpAddr) -> IpAddr {
    match peer {
        IpAddr::V4(_) => peer,
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => IpAddr::V4(v4),
            None => IpAddr::V6((u128::from(v6) & !u128::from(u64::MAX)).into()),
        },
    }
}

/// Serves one connection until it ends, its watchdog's deadline passes, or
/// it finishes its request after `closing` fired.
async fn serve_connection(
    stream: TcpStream,
    // Recorded on every request, for what is counted per client address.
    peer: std::net::SocketAddr,
    router: Router,
    limits: ConnectionLimits,
    closing: CancellationToken,
    make_room: Arc<Notify>,
    // Held for the connection's life: its slots under the caps.
    _slots: (OwnedSemaphorePermit, AddressSlot),
) {
    let _ = stream.set_nodelay(true);
    let activity = Arc::new(Activity::new());
    let io = TokioIo::new(WatchedStream {
        inner: stream,
        activity: activity.clone(),
    });
    let service = hyper::service::service_fn({
        let activity = activity.clone();
        move |mut request: Request<Incoming>| {
            request
                .extensions_mut()
                .insert(axum::extract::ConnectInfo(peer));
            let in_progress = RequestInProgress::start(activity.clone());
            let router = router.clone();
            async move {
                let response = router.oneshot(request).await;
                // In progress until its body is sent: a response that
                // streams for longer than the keep-alive timeout (an event
                // feed, a large download) must not be cut by it.
                response.map(|response| {
                    response.map(|body| {
                        axum::body::Body::new(BodyInProgress {
                            body,
                            _in_progress: in_progress,
                        })
                    })
                })
            }
        }
    });
    let connection = http1::Builder::new().serve_connection(io, service);
    tokio::pin!(connection);
    let mut finishing = false;
    loop {
        let deadline = activity.deadline(&limits);
        tokio::select! {
            served = connection.as_mut() => {
                if let Err(error) = served {
                    debug!(%error, "connection ended with an error");
                }
                return;
            }
            () = activity.changed.notified() => {}
            () = sleep_until(deadline) => {
                if activity.deadline(&limits).is_some_and(|d| d <= Instant::now()) {
                    debug!("closing a connection that sent no request, or no whole header, in time");
                    return;
                }
            }
            () = make_room.notified() => {
                if activity.is_idle() {
                    debug!("closing an idle connection to make room for a new one");
                    return;
                }
            }
            () = closing.cancelled(), if !finishing => {
                finishing = true;
                connection.as_mut().graceful_shutdown();
            }
        }
    }
}

/// Sleeps until `deadline`, or forever when there is none.
async fn sleep_until(deadline: Option<Instant>) {
    match deadline {
        Some(deadline) => tokio::time::sleep_until(deadline).await,
        None => std::future::pending().await,
    }
}

/// What a connection's watchdog knows about it.
#[derive(Debug)]
struct Activity {
    state: Mutex<ActivityState>,
    /// Wakes the watchdog when its deadline may have moved.
    changed: Notify,
}

#[derive(Debug, Clone, Copy)]
struct ActivityState {
    /// Requests the service is answering (at most one on HTTP/1.1).
    in_progress: usize,
    /// When the connection started waiting for its next request: when it
    /// opened, or when the last response was ready.
    waiting_since: Instant,
    /// The first byte received since then: a header is on its way.
    first_byte: Option<Instant>,
}

impl Activity {
    fn new() -> Activity {
        Activity {
            state: Mutex::new(ActivityState {
                in_progress: 0,
                waiting_since: Instant::now(),
                first_byte: None,
            }),
            changed: Notify::new(),
        }
    }

    fn update(&self, change: impl FnOnce(&mut ActivityState) -> bool) {
        let notify = change(&mut self.state.lock().unwrap_or_else(PoisonError::into_inner));
        if notify {
            self.changed.notify_one();
        }
    }

    /// When the connection is to be closed if nothing changes; `None` while
    /// a request is in progress (the router's timeouts bound that).
    fn deadline(&self, limits: &ConnectionLimits) -> Option<Instant> {
        let state = *self.state.lock().unwrap_or_else(PoisonError::into_inner);
        if state.in_progress > 0 {
            return None;
        }
        Some(match state.first_byte {
            Some(first) => first + limits.header_read_timeout,
            None => state.waiting_since + limits.keep_alive_timeout,
        })
    }

    /// True when no request is in progress, none has begun to arrive, and
    /// the connection has waited at least [`MAKE_ROOM_INTERVAL`]: one
    /// accepted a moment ago has not had time to send its first bytes.
    fn is_idle(&self) -> bool {
        let state = self.state.lock().unwrap_or_else(PoisonError::into_inner);
        state.in_progress == 0
            && state.first_byte.is_none()
            && state.waiting_since.elapsed() >= MAKE_ROOM_INTERVAL
    }

    fn bytes_received(&self) {
        self.update(|state| {
            let first = state.in_progress == 0 && state.first_byte.is_none();
            if first {
                state.first_byte = Some(Instant::now());
            }
            first
        });
    }
}

/// A request the service is answering; dropping it marks the connection as
/// waiting for the next one.
struct RequestInProgress(Arc<Activity>);

impl RequestInProgress {
    fn start(activity: Arc<Activity>) -> RequestInProgress {
        activity.update(|state| {
            state.in_progress += 1;
            state.first_byte = None;
            true
        });
        RequestInProgress(activity)
    }
}

impl Drop for RequestInProgress {
    fn drop(&mut self) {
        self.0.update(|state| {
            state.in_progress = state.in_progress.saturating_sub(1);
            state.waiting_since = Instant::now();
            state.first_byte = None;
            true
        });
    }
}

/// A response body that holds its request's [`RequestInProgress`] until
/// it has been sent or dropped.
struct BodyInProgress {
    body: axum::body::Body,
    _in_progress: RequestInProgress,
}

impl hyper::body::Body for BodyInProgress {
    type Data = axum::body::Bytes;
    type Error = axum::Error;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<hyper::body::Frame<Self::Data>, Self::Error>>> {
        Pin::new(&mut self.body).poll_frame(cx)
    }

    fn is_end_stream(&self) -> bool {
        self.body.is_end_stream()
    }

    fn size_hint(&self) -> hyper::body::SizeHint {
        self.body.size_hint()
    }
}

/// A TCP stream that tells its connection's [`Activity`] when bytes arrive.
struct WatchedStream {
    inner: TcpStream,
    activity: Arc<Activity>,
}

impl AsyncRead for WatchedStream {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let before = buf.filled().len();
        let polled = Pin::new(&mut self.inner).poll_read(cx, buf);
        if matches!(polled, Poll::Ready(Ok(()))) && buf.filled().len() > before {
            self.activity.bytes_received();
        }
        polled
    }
}

impl AsyncWrite for WatchedStream {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.inner).poll_write(cx, buf)
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.inner).poll_write_vectored(cx, bufs)
    }

    fn is_write_vectored(&self) -> bool {
        self.inner.is_write_vectored()
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_shutdown(cx)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn addresses_count_by_host_and_ipv6_by_its_64_block() {
        let ip = |text: &str| text.parse::<IpAddr>().expect("an address");
        assert_eq!(counted_address(ip("192.0.2.7")), ip("192.0.2.7"));
        assert_eq!(counted_address(ip("::ffff:192.0.2.7")), ip("192.0.2.7"));
        assert_eq!(
            counted_address(ip("2001:db8:1:2:aaaa::1")),
            ip("2001:db8:1:2::")
        );
        assert_eq!(
            counted_address(ip("2001:db8:1:2:ffff:ffff:ffff:ffff")),
            ip("2001:db8:1:2::")
        );
        assert_ne!(counted_address(ip("2001:db8:1:3::1")), ip("2001:db8:1:2::"));
    }

    #[test]
    fn a_slot_given_back_is_free_again_and_no_cap_takes_any_number() {
        let counts = AddressCounts::default();
        let peer: IpAddr = "2001:db8::1".parse().expect("an address");
        let neighbour: IpAddr = "2001:db8::2".parse().expect("an address");
        let first = counts.take(peer, Some(2)).expect("a first slot");
        let second = counts.take(neighbour, Some(2)).expect("a second slot");
        assert!(
            counts.take(peer, Some(2)).is_none(),
            "past the cap of its /64"
        );
        assert!(
            counts
                .take("192.0.2.1".parse().expect("v4"), Some(2))
                .is_some()
        );
        drop(first);
        let third = counts.take(peer, Some(2)).expect("the slot given back");
        let unlimited: Vec<_> = (0..100).filter_map(|_| counts.take(peer, None)).collect();
        assert_eq!(unlimited.len(), 100);
        drop((second, third, unlimited));
        assert!(
            counts.0.lock().expect("not poisoned").is_empty(),
            "every address's count is removed once its connections are gone"
        );
    }
}
