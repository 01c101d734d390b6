//! Logging setup and the in-process metrics behind `GET /metrics`.
//!
//! Counts that must survive a restart (queue depth, judgements by verdict) are
//! read from the database at scrape time; only the latency histogram lives
//! here, in memory, since it describes this process's own work.

use std::{
    fmt::Write as _,
    sync::atomic::{AtomicU64, Ordering},
};

use tracing_subscriber::{EnvFilter, fmt, prelude::*};

use crate::config::{LogConfig, LogFormat};

/// Installs the global tracing subscriber. `RUST_LOG` overrides the
/// configured filter. Calling it twice is harmless (the second call is a no-op).
pub fn init(config: &LogConfig) {
    let filter = EnvFilter::try_from_default_env()
        .or_else(|_| EnvFilter::try_new(&config.filter))
        .unwrap_or_else(|_| EnvFilter::new("info"));
    let registry = tracing_subscriber::registry().with(filter);
    let result = match config.format {
        LogFormat::Text => registry
            .with(fmt::layer().with_writer(std::io::stderr))
            .try_init(),
        LogFormat::Json => registry
            .with(fmt::layer().json().with_writer(std::io::stderr))
            .try_init(),
    };
    // An error only means a subscriber is already installed (tests).
    drop(result);
}

/// Upper bounds, in seconds, of the submit-to-verdict latency buckets.
pub const LATENCY_BUCKETS: [f64; 12] = [
    0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0,
];

/// A Prometheus histogram of submit-to-verdict latency, lock-free.
#[derive(Debug, Default)]
pub struct LatencyHistogram {
    /// Per-bucket counts (not cumulative); the last slot is `+Inf`.
    buckets: [AtomicU64; LATENCY_BUCKETS.len() + 1],
    count: AtomicU64,
    sum_micros: AtomicU64,
}

impl LatencyHistogram {
    /// Records one latency in milliseconds.
    pub fn observe_ms(&self, ms: u64) {
        let seconds = ms as f64 / 1000.0;
        let slot = LATENCY_BUCKETS
            .iter()
            .position(|&bound| seconds <= bound)
            .unwrap_or(LATENCY_BUCKETS.len());
        if let Some(bucket) = self.buckets.get(slot) {
            bucket.fetch_add(1, Ordering::Relaxed);
        }
        self.count.fetch_add(1, Ordering::Relaxed);
        self.sum_micros
            .fetch_add(ms.saturating_mul(1000), Ordering::Relaxed);
    }

    /// Appends the histogram in Prometheus text format.
    pub fn render(&self, name: &str, help: &str, out: &mut String) {
        let _ = writeln!(out, "# HELP {name} {help}");
        let _ = writeln!(out, "# TYPE {name} histogram");
        let mut cumulative = 0;
        for (bound, bucket) in LATENCY_BUCKETS.iter().zip(&self.buckets) {
            cumulative += bucket.load(Ordering::Relaxed);
            let _ = writeln!(out, "{name}_bucket{{le=\"{bound}\"}} {cumulative}");
        }
        let count = self.count.load(Ordering::Relaxed);
        let _ = writeln!(out, "{name}_bucket{{le=\"+Inf\"}} {count}");
        let sum = self.sum_micros.load(Ordering::Relaxed) as f64 / 1e6;
        let _ = writeln!(out, "{name}_sum {sum}");
        let _ = writeln!(out, "{name}_count {count}");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_histogram_is_cumulative() {
        let h = LatencyHistogram::default();
        h.observe_ms(3);
        h.observe_ms(40);
        h.observe_ms(100_000);
        let mut out = String::new();
        h.render("x", "help", &mut out);
        assert!(out.contains("x_bucket{le=\"0.005\"} 1\n"), "{out}");
        assert!(out.contains("x_bucket{le=\"0.05\"} 2\n"), "{out}");
        assert!(out.contains("x_bucket{le=\"30\"} 2\n"), "{out}");
        assert!(out.contains("x_bucket{le=\"+Inf\"} 3\n"), "{out}");
        assert!(out.contains("x_count 3\n"), "{out}");
    }
}
