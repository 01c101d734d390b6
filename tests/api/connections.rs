//! Connections: idle and slow clients are closed, an oversized
//! `Content-Length` is refused before its body, a slow body gets 408, the
//! connection caps hold (in all and per address), and a slow client cannot hold a shutdown open.
//! Driven over raw TCP, since an HTTP client would not misbehave.

use std::time::{Duration, Instant};

use tokio::{
    io::{AsyncReadExt, AsyncWriteExt},
    net::TcpStream,
};

use crate::helpers::{TestApp, TestDir};

async fn connect(app: &TestApp) -> TcpStream {
    let address = app.address.trim_start_matches("http://");
    TcpStream::connect(address).await.expect("connect")
}

/// Reads until the server closes the connection (EOF or reset) and returns
/// how long that took, or `None` if it stayed open for `patience`.
async fn time_until_closed(stream: &mut TcpStream, patience: Duration) -> Option<Duration> {
    let started = Instant::now();
    let mut buffer = [0u8; 4096];
    loop {
        match tokio::time::timeout_at(
            tokio::time::Instant::from_std(started + patience),
            stream.read(&mut buffer),
        )
        .await
        {
            Err(_) => return None,
            Ok(Ok(0) | Err(_)) => return Some(started.elapsed()),
            Ok(Ok(_)) => {}
        }
    }
}

/// Reads the first line of a response, waiting at most `patience`.
async fn status_line(stream: &mut TcpStream, patience: Duration) -> Option<String> {
    let mut received = Vec::new();
    let mut buffer = [0u8; 1024];
    let deadline = tokio::time::Instant::now() + patience;
    while !received.windows(2).any(|w| w == b"\r\n") {
        match tokio::time::timeout_at(deadline, stream.read(&mut buffer)).await {
            Ok(Ok(n)) if n > 0 => received.extend_from_slice(&buffer[..n]),
            _ => return None,
        }
    }
    let text = String::from_utf8_lossy(&received);
    text.lines().next().map(str::to_string)
}

#[tokio::test]
async fn idle_connections_and_slowly_sent_headers_are_closed() {
    let dir = TestDir::new();
    let app = TestApp::spawn_with(
        &dir,
        0,
        &[
            ("SERVER__KEEP_ALIVE_TIMEOUT_MS", "300"),
            ("SERVER__HEADER_READ_TIMEOUT_MS", "800"),
        ],
    )
    .await;
    let mut idle = connect(&app).await;
    let closed = time_until_closed(&mut idle, Duration::from_secs(3)).await;
    assert!(
        closed.is_some_and(|t| t < Duration::from_millis(1500)),
        "an idle connection stayed open: {closed:?}"
    );

    // Slowloris: a header line every 100 ms, never the blank line.
    let mut slow = connect(&app).await;
    slow.write_all(b"GET /api/health HTTP/1.1\r\nHost: x\r\n")
        .await
        .expect("write");
    let (mut reader, mut writer) = slow.into_split();
    let trickle = tokio::spawn(async move {
        for n in 0..50 {
            if writer
                .write_all(format!("X-Slow-{n}: 1\r\n").as_bytes())
                .await
                .is_err()
            {
                return;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    });
    let started = Instant::now();
    let mut buffer = [0u8; 256];
    let closed = tokio::time::timeout(Duration::from_secs(4), reader.read(&mut buffer)).await;
    assert!(
        matches!(closed, Ok(Ok(0) | Err(_))),
        "a trickled header held the connection: {closed:?}"
    );
    assert!(
        started.elapsed() < Duration::from_millis(2000),
        "{:?}",
        started.elapsed()
    );
    trickle.abort();

    // A connection that keeps sending requests is served all along.
    let mut busy = connect(&app).await;
    for _ in 0..3 {
        busy.write_all(b"GET /api/health HTTP/1.1\r\nHost: x\r\n\r\n")
            .await
            .expect("write");
        let line = status_line(&mut busy, Duration::from_secs(2)).await;
        assert_eq!(line.as_deref(), Some("HTTP/1.1 200 OK"));
        tokio::time::sleep(Duration::from_millis(150)).await;
    }
    app.stop().await;
}

#[tokio::test]
async fn a_huge_content_length_gets_413_at_once_and_a_slow_body_gets_408() {
    let dir = TestDir::new();
    let app = TestApp::spawn_with(&dir, 0, &[("SERVER__BODY_READ_TIMEOUT_MS", "500")]).await;
    let head = |length: u64| {
        format!(
            "POST /api/submissions HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {}\r\n\
             Content-Type: application/json\r\nContent-Length: {length}\r\n\r\n",
            app.contestant
        )
    };
    let mut huge = connect(&app).await;
    huge.write_all(head(1 << 40).as_bytes())
        .await
        .expect("write");
    let started = Instant::now();
    let line = status_line(&mut huge, Duration::from_secs(3)).await;
    assert_eq!(line.as_deref(), Some("HTTP/1.1 413 Payload Too Large"));
    assert!(
        started.elapsed() < Duration::from_millis(400),
        "{:?}",
        started.elapsed()
    );
    assert!(
        time_until_closed(&mut huge, Duration::from_secs(2))
            .await
            .is_some(),
        "the connection is closed, not kept for the announced body"
    );

    let mut slow = connect(&app).await;
    slow.write_all(head(100).as_bytes()).await.expect("write");
    slow.write_all(b"{\"problem\"").await.expect("write");
    let line = status_line(&mut slow, Duration::from_secs(3)).await;
    assert_eq!(line.as_deref(), Some("HTTP/1.1 408 Request Timeout"));
    assert_eq!(app.store().queue_depth().await.expect("depth"), (0, 0));
    app.stop().await;
}

/// One client address holds at most `max_connections_per_address`
/// connections: one more is closed unserved at once, and a slot given back
/// is taken again.
#[tokio::test]
async fn one_address_holds_at_most_its_cap_of_connections() {
    let dir = TestDir::new();
    let app = TestApp::spawn_with(&dir, 0, &[("SERVER__MAX_CONNECTIONS_PER_ADDRESS", "2")]).await;
    let health = b"GET /api/health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n";
    let mut held = [connect(&app).await, connect(&app).await];
    for stream in &mut held {
        stream
            .write_all(b"GET /api/health HTTP/1.1\r\n")
            .await
            .expect("write");
    }
    tokio::time::sleep(Duration::from_millis(100)).await;
    let mut third = connect(&app).await;
    let _ = third.write_all(health).await;
    let mut answer = Vec::new();
    let read = tokio::time::timeout(Duration::from_secs(2), third.read_to_end(&mut answer)).await;
    assert!(
        read.is_ok(),
        "a third connection from the address stayed open"
    );
    assert!(
        answer.is_empty(),
        "a third connection was served: {}",
        String::from_utf8_lossy(&answer)
    );
    let [first, mut second] = held;
    drop(first);
    tokio::time::sleep(Duration::from_millis(100)).await;
    let mut again = connect(&app).await;
    again.write_all(health).await.expect("write");
    let line = status_line(&mut again, Duration::from_secs(2)).await;
    assert_eq!(line.as_deref(), Some("HTTP/1.1 200 OK"));
    second.write_all(b"Host: x\r\n\r\n").await.expect("write");
    let line = status_line(&mut second, Duration::from_secs(2)).await;
    assert_eq!(
        line.as_deref(),
        Some("HTTP/1.1 200 OK"),
        "the held one is served"
    );
    app.stop().await;
}

#[tokio::test]
async fn the_connection_cap_holds_and_idle_connections_make_room() {
    let dir = TestDir::new();
    let app = TestApp::spawn_with(&dir, 0, &[("SERVER__MAX_CONNECTIONS", "2")]).await;
    let health = b"GET /api/health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n";

    // Two idle connections fill the cap; a third is served anyway, because
    // an idle one is closed to make room.
    let mut idle = [connect(&app).await, connect(&app).await];
    tokio::time::sleep(Duration::from_millis(100)).await;
    let mut third = connect(&app).await;
    third.write_all(health).await.expect("write");
    let line = status_line(&mut third, Duration::from_secs(2)).await;
    assert_eq!(line.as_deref(), Some("HTTP/1.1 200 OK"));
    let mut closed = 0;
    for stream in &mut idle {
        if time_until_closed(stream, Duration::from_millis(300))
            .await
            .is_some()
        {
            closed += 1;
        }
    }
    assert!(closed >= 1, "no idle connection made room");
    drop(idle);
    drop(third);
    tokio::time::sleep(Duration::from_millis(100)).await;

    // Two connections in the middle of a request are not idle: a third waits
    // until one of them goes.
    let mut busy = [connect(&app).await, connect(&app).await];
    for stream in &mut busy {
        stream
            .write_all(b"GET /api/health HTTP/1.1\r\n")
            .await
            .expect("write");
    }
    tokio::time::sleep(Duration::from_millis(100)).await;
    let mut waiting = connect(&app).await;
    waiting.write_all(health).await.expect("write");
    assert_eq!(
        status_line(&mut waiting, Duration::from_millis(700)).await,
        None,
        "served beyond the cap"
    );
    let [first, _second] = busy;
    drop(first);
    let line = status_line(&mut waiting, Duration::from_secs(2)).await;
    assert_eq!(line.as_deref(), Some("HTTP/1.1 200 OK"));
    app.stop().await;
}

#[tokio::test]
async fn a_slow_client_cannot_hold_the_shutdown_past_the_grace_period() {
    let dir = TestDir::new();
    let mut app = TestApp::spawn_with(&dir, 0, &[("SERVER__SHUTDOWN_GRACE_MS", "500")]).await;
    // A request whose body never finishes (the body timeout is 10 s and the
    // request timeout 60 s).
    let mut slow = connect(&app).await;
    slow.write_all(
        format!(
            "POST /api/submissions HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {}\r\n\
             Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{{",
            app.contestant
        )
        .as_bytes(),
    )
    .await
    .expect("write");
    tokio::time::sleep(Duration::from_millis(200)).await;
    let started = Instant::now();
    app.signal_stop();
    tokio::time::timeout(Duration::from_secs(5), app.stop())
        .await
        .expect("the server stopped within the grace period and a margin");
    assert!(
        started.elapsed() < Duration::from_millis(2500),
        "{:?}",
        started.elapsed()
    );
    assert!(
        time_until_closed(&mut slow, Duration::from_secs(1))
            .await
            .is_some()
    );
}
