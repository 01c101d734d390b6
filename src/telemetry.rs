//! Logging setup and the metrics behind `GET /metrics`.
//!
//! Counts that must survive a restart (queue depth, judgements by verdict) are
//! read from the database at scrape time and handed to [`Metrics::render`] as
//! a [`QueueSnapshot`]; the submit-to-verdict histogram lives in memory, since
//! it describes this process's own work. The text format is written by the
//! `prometheus-client` crate.

use std::{io::IsTerminal, sync::Arc};

use prometheus_client::{
    collector::Collector,
    encoding::{DescriptorEncoder, EncodeMetric},
    metrics::{
        counter::{ConstCounter, Counter},
        gauge::ConstGauge,
        histogram::Histogram,
    },
    registry::Registry,
};
use tracing_subscriber::{EnvFilter, fmt, prelude::*};

use crate::{
    config::{LogConfig, LogFormat},
    domain::Verdict,
};

/// Installs the global tracing subscriber. `RUST_LOG` overrides the
/// configured filter. Calling it twice is harmless (the second call is a no-op).
pub fn init(config: &LogConfig) {
    let filter = EnvFilter::try_from_default_env()
        .or_else(|_| EnvFilter::try_new(&config.filter))
        .unwrap_or_else(|_| EnvFilter::new("info"));
    let registry = tracing_subscriber::registry().with(filter);
    let result = match config.format {
        LogFormat::Text => registry
            // Colours only for a terminal: a log file gets plain text.
            .with(
                fmt::layer()
                    .with_ansi(std::io::stderr().is_terminal())
                    .with_writer(std::io::stderr),
            )
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

/// The in-process metrics. Cheap to clone: clones share the same counts.
#[derive(Debug, Clone)]
pub struct Metrics {
    /// Submit (or rejudge) to verdict, for jobs this process judged.
    latency: Histogram,
    /// Reference outputs this process computed with the solver core.
    references_computed: Counter,
}

impl Default for Metrics {
    fn default() -> Self {
        Metrics {
            latency: Histogram::new(LATENCY_BUCKETS),
            references_computed: Counter::default(),
        }
    }
}

/// The database's counts at scrape time, and the state of this host's
/// program judging.
#[derive(Debug, Clone, Default)]
pub struct QueueSnapshot {
    pub queued: i64,
    pub running: i64,
    /// Judgements ever recorded, by verdict; a verdict left out counts 0.
    pub judgements: Vec<(Verdict, i64)>,
    /// The sandbox passed its self-test: program submissions are judged.
    pub program_judging: bool,
}

impl Metrics {
    /// Records one submit-to-verdict latency.
    pub fn observe_latency_ms(&self, ms: u64) {
        self.latency.observe(ms as f64 / 1000.0);
    }

    /// Counts one reference output computed by the solver core.
    pub fn reference_computed(&self) {
        self.references_computed.inc();
    }

    /// Every metric in the Prometheus text format.
    pub fn render(&self, snapshot: QueueSnapshot) -> Result<String, std::fmt::Error> {
        let mut registry = Registry::with_prefix("nimjudge");
        registry.register_collector(Box::new(Arc::new(snapshot)));
        registry.register(
            "submit_to_verdict_seconds",
            "Time from submission (or rejudge) to verdict, judged by this process",
            self.latency.clone(),
        );
        registry.register(
            "references_computed",
            "Reference outputs computed by the solver core in this process",
            self.references_computed.clone(),
        );
        let mut out = String::new();
        prometheus_client::encoding::text::encode(&mut out, &registry)?;
        Ok(out)
    }
}

impl Collector for QueueSnapshot {
    fn encode(&self, mut encoder: DescriptorEncoder) -> Result<(), std::fmt::Error> {
        let depth = [("queued", self.queued), ("running", self.running)];
        let mut family = encoder.encode_descriptor(
            "queue_depth",
            "Submissions waiting or being judged",
            None,
            ConstGauge::new(0i64).metric_type(),
        )?;
        for (state, n) in depth {
            ConstGauge::new(n).encode(family.encode_family(&[("state", state)])?)?;
        }
        let mut family = encoder.encode_descriptor(
            "judgements",
            "Judgements recorded, by verdict",
            None,
            ConstCounter::new(0u64).metric_type(),
        )?;
        for &verdict in Verdict::ALL {
            let n = self
                .judgements
                .iter()
                .find(|(v, _)| *v == verdict)
                .map_or(0, |(_, n)| *n);
            ConstCounter::new(u64::try_from(n).unwrap_or(0))
                .encode(family.encode_family(&[("verdict", verdict.as_str())])?)?;
        }
        let gauge = ConstGauge::new(i64::from(self.program_judging));
        let metric = encoder.encode_descriptor(
            "program_judging",
            "1 while this host judges programs (its sandbox passed its self-test), else 0",
            None,
            gauge.metric_type(),
        )?;
        gauge.encode(metric)?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_metrics_page_has_every_family_in_the_text_format() {
        let metrics = Metrics::default();
        metrics.observe_latency_ms(3);
        metrics.observe_latency_ms(40);
        metrics.observe_latency_ms(100_000);
        let out = metrics
            .render(QueueSnapshot {
                queued: 2,
                running: 1,
                judgements: vec![(Verdict::WA, 5)],
                program_judging: true,
            })
            .expect("render");
        for line in [
            "nimjudge_queue_depth{state=\"queued\"} 2\n",
            "nimjudge_queue_depth{state=\"running\"} 1\n",
            "nimjudge_judgements_total{verdict=\"AC\"} 0\n",
            "nimjudge_judgements_total{verdict=\"WA\"} 5\n",
            "nimjudge_submit_to_verdict_seconds_bucket{le=\"0.005\"} 1\n",
            "nimjudge_submit_to_verdict_seconds_bucket{le=\"0.05\"} 2\n",
            "nimjudge_submit_to_verdict_seconds_bucket{le=\"30.0\"} 2\n",
            "nimjudge_submit_to_verdict_seconds_bucket{le=\"+Inf\"} 3\n",
            "nimjudge_submit_to_verdict_seconds_count 3\n",
            "nimjudge_references_computed_total 0\n",
            "nimjudge_program_judging 1\n",
        ] {
            assert!(out.contains(line), "missing {line:?} in\n{out}");
        }
        assert!(out.ends_with("# EOF\n"), "{out}");
    }
}
