//! Logging setup and the metrics behind `GET /metrics`.
//!
//! Counts that must survive a restart (queue depth, judgements by verdict) are
//! read from the database at scrape time and handed to [`Metrics::render`] as
//! a [`QueueSnapshot`]; the submit-to-verdict histogram lives in memory, since
//! it describes this process's own work. The text format is written by the
//! `prometheus-client` crate.

use std::{io::IsTerminal, sync::Arc, time::Duration};

use prometheus_client::{
    collector::Collector,
    encoding::{DescriptorEncoder, EncodeLabelSet, EncodeMetric},
    metrics::{
        counter::{ConstCounter, Counter},
        family::Family,
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

/// Upper bounds, in seconds, of the HTTP request duration buckets.
pub const REQUEST_BUCKETS: [f64; 10] =
    [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.5, 1.0, 5.0];

/// An HTTP request as counted: its method, its route (the path template,
/// so ids make no new series; `unmatched` for an unknown path) and status.
#[derive(Debug, Clone, Hash, PartialEq, Eq, EncodeLabelSet)]
pub struct RequestLabels {
    pub method: String,
    pub route: String,
    pub status: u16,
}

/// A route, for its request durations.
#[derive(Debug, Clone, Hash, PartialEq, Eq, EncodeLabelSet)]
struct RouteLabel {
    route: String,
}

/// The in-process metrics. Cheap to clone: clones share the same counts.
#[derive(Debug, Clone)]
pub struct Metrics {
    /// Submit (or rejudge) to verdict, for jobs this process judged.
    latency: Histogram,
    /// Reference outputs this process computed with the solver core.
    references_computed: Counter,
    /// HTTP requests answered, by method, route and status.
    requests: Family<RequestLabels, Counter>,
    /// How long HTTP requests took to answer (to the response's head), by
    /// route.
    request_seconds: Family<RouteLabel, Histogram>,
}

impl Default for Metrics {
    fn default() -> Self {
        Metrics {
            latency: Histogram::new(LATENCY_BUCKETS),
            references_computed: Counter::default(),
            requests: Family::default(),
            request_seconds: Family::new_with_constructor(|| Histogram::new(REQUEST_BUCKETS)),
        }
    }
}

/// The database's counts at scrape time, and the state of this host's
/// program judging.
#[derive(Debug, Clone, Default)]
pub struct QueueSnapshot {
    pub queued: i64,
    pub running: i64,
    /// Judgements ever recorded, by verdict (a verdict left out counts 0);
    /// none: the family is left out (the reader may not see verdicts).
    pub judgements: Option<Vec<(Verdict, i64)>>,
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

    /// Counts one HTTP request answered after `took`.
    pub fn observe_request(&self, labels: RequestLabels, took: Duration) {
        self.request_seconds
            .get_or_create(&RouteLabel {
                route: labels.route.clone(),
            })
            .observe(took.as_secs_f64());
        self.requests.get_or_create(&labels).inc();
    }

    /// Every metric in the Prometheus text format: nimjudge's own, and the
    /// process's (`process_*`, as Prometheus' client libraries name them).
    pub fn render(&self, snapshot: QueueSnapshot) -> Result<String, std::fmt::Error> {
        let mut root = Registry::default();
        root.register_collector(Box::new(ProcessSnapshot));
        let registry = root.sub_registry_with_prefix("nimjudge");
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
        registry.register(
            "http_requests",
            "HTTP requests answered by this process, by method, route and status",
            self.requests.clone(),
        );
        registry.register(
            "http_request_duration_seconds",
            "Time to answer an HTTP request (to the response's head), by route",
            self.request_seconds.clone(),
        );
        let mut out = String::new();
        prometheus_client::encoding::text::encode(&mut out, &root)?;
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
        if let Some(judgements) = &self.judgements {
            let mut family = encoder.encode_descriptor(
                "judgements",
                "Judgements recorded, by verdict",
                None,
                ConstCounter::new(0u64).metric_type(),
            )?;
            for &verdict in Verdict::ALL {
                let n = judgements
                    .iter()
                    .find(|(v, _)| *v == verdict)
                    .map_or(0, |(_, n)| *n);
                ConstCounter::new(u64::try_from(n).unwrap_or(0))
                    .encode(family.encode_family(&[("verdict", verdict.as_str())])?)?;
            }
        }
        let gauge = ConstGauge::new(i64::from(self.program_judging));
        let metric = encoder.encode_descriptor(
            "program_judging",
            "1 while this host judges programs (its sandbox passed its self-test), else 0",
            None,
            gauge.metric_type(),
        )?;
        gauge.encode(metric)?;
        let mut family = encoder.encode_descriptor(
            "build_info",
            "This build, by version (always 1)",
            None,
            ConstGauge::new(1i64).metric_type(),
        )?;
        ConstGauge::new(1i64)
            .encode(family.encode_family(&[("version", env!("CARGO_PKG_VERSION"))])?)?;
        Ok(())
    }
}

/// This process's CPU time, memory, open descriptors and start, read from
/// `/proc` at scrape time (Linux only; a figure that cannot be read is left
/// out).
#[derive(Debug)]
struct ProcessSnapshot;

impl Collector for ProcessSnapshot {
    fn encode(&self, mut encoder: DescriptorEncoder) -> Result<(), std::fmt::Error> {
        let Some(process) = ProcessFigures::read() else {
            return Ok(());
        };
        let counter = ConstCounter::new(process.cpu_seconds);
        counter.encode(encoder.encode_descriptor(
            "process_cpu_seconds",
            "User and system CPU time of this process",
            None,
            counter.metric_type(),
        )?)?;
        for (name, help, value) in [
            (
                "process_resident_memory_bytes",
                "Resident memory of this process",
                process.resident_bytes,
            ),
            (
                "process_open_fds",
                "Open file descriptors of this process",
                process.open_fds,
            ),
        ] {
            let gauge = ConstGauge::new(value);
            gauge.encode(encoder.encode_descriptor(name, help, None, gauge.metric_type())?)?;
        }
        let gauge = ConstGauge::new(process.start_time_seconds);
        gauge.encode(encoder.encode_descriptor(
            "process_start_time_seconds",
            "When this process started, in unix seconds",
            None,
            gauge.metric_type(),
        )?)?;
        Ok(())
    }
}

/// What [`ProcessSnapshot`] reports.
#[derive(Debug, Clone, Copy, PartialEq)]
struct ProcessFigures {
    cpu_seconds: f64,
    resident_bytes: i64,
    open_fds: i64,
    start_time_seconds: f64,
}

impl ProcessFigures {
    fn read() -> Option<ProcessFigures> {
        let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
        let statm = std::fs::read_to_string("/proc/self/statm").ok()?;
        let boot = std::fs::read_to_string("/proc/stat").ok()?;
        let open_fds = std::fs::read_dir("/proc/self/fd").ok()?.count();
        // SAFETY: sysconf has no preconditions.
        let (ticks, page) = unsafe {
            (
                libc::sysconf(libc::_SC_CLK_TCK),
                libc::sysconf(libc::_SC_PAGESIZE),
            )
        };
        ProcessFigures::parse(&stat, &statm, &boot, open_fds, ticks, page)
    }

    /// The figures from the texts of `/proc/self/stat`, `/proc/self/statm`
    /// and `/proc/stat`, with the clock's ticks a second and the page size.
    fn parse(
        stat: &str,
        statm: &str,
        boot: &str,
        open_fds: usize,
        ticks: i64,
        page: i64,
    ) -> Option<ProcessFigures> {
        if ticks <= 0 || page <= 0 {
            return None;
        }
        // The command name (field 2) may hold spaces and parentheses: the
        // fields after it follow the last `)`. Field 3 is then the first.
        let fields: Vec<&str> = stat.rsplit_once(')')?.1.split_whitespace().collect();
        let field = |number: usize| fields.get(number - 3)?.parse::<u64>().ok();
        let (utime, stime, start) = (field(14)?, field(15)?, field(22)?);
        let resident_pages: i64 = statm.split_whitespace().nth(1)?.parse().ok()?;
        let booted: u64 = boot
            .lines()
            .find_map(|line| line.strip_prefix("btime "))?
            .trim()
            .parse()
            .ok()?;
        let ticks = ticks as f64;
        Some(ProcessFigures {
            cpu_seconds: (utime + stime) as f64 / ticks,
            resident_bytes: resident_pages.saturating_mul(page),
            open_fds: i64::try_from(open_fds).unwrap_or(i64::MAX),
            start_time_seconds: booted as f64 + start as f64 / ticks,
        })
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
                judgements: Some(vec![(Verdict::WA, 5)]),
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

    #[test]
    fn requests_are_counted_by_method_route_and_status_and_timed_by_route() {
        let metrics = Metrics::default();
        let request = |route: &str, status| RequestLabels {
            method: "GET".into(),
            route: route.into(),
            status,
        };
        metrics.observe_request(
            request("/api/submissions/{id}", 200),
            Duration::from_millis(2),
        );
        metrics.observe_request(
            request("/api/submissions/{id}", 200),
            Duration::from_millis(30),
        );
        metrics.observe_request(request("unmatched", 404), Duration::from_micros(100));
        let out = metrics.render(QueueSnapshot::default()).expect("render");
        assert!(
            !out.contains("nimjudge_judgements"),
            "no verdicts for a reader who may not see them:\n{out}"
        );
        for line in [
            "nimjudge_http_requests_total{method=\"GET\",route=\"/api/submissions/{id}\",status=\"200\"} 2\n",
            "nimjudge_http_requests_total{method=\"GET\",route=\"unmatched\",status=\"404\"} 1\n",
            "nimjudge_http_request_duration_seconds_bucket{le=\"0.0025\",route=\"/api/submissions/{id}\"} 1\n",
            "nimjudge_http_request_duration_seconds_count{route=\"/api/submissions/{id}\"} 2\n",
            &format!(
                "nimjudge_build_info{{version=\"{}\"}} 1\n",
                env!("CARGO_PKG_VERSION")
            ),
        ] {
            assert!(out.contains(line), "missing {line:?} in\n{out}");
        }
        for family in [
            "process_cpu_seconds_total ",
            "process_resident_memory_bytes ",
            "process_open_fds ",
            "process_start_time_seconds ",
        ] {
            assert!(
                out.lines().any(|l| l.starts_with(family)),
                "{family} in\n{out}"
            );
        }
    }

    #[test]
    fn process_figures_are_read_from_procs_texts() {
        // A command name with a space and a parenthesis, as /proc writes it.
        let stat = "4242 (nim judge) S 1 4242 4242 0 -1 4194560 500 0 0 0 250 150 0 0 20 0 9 0 \
                    1000 123456789 2048 18446744073709551615";
        let statm = "30000 2048 1000 100 0 5000 0";
        let boot = "cpu  1 2 3 4\nbtime 1764200000\nprocesses 99\n";
        let figures = ProcessFigures::parse(stat, statm, boot, 12, 100, 4096).expect("parsed");
        assert_eq!(
            figures,
            ProcessFigures {
                cpu_seconds: 4.0,
                resident_bytes: 2048 * 4096,
                open_fds: 12,
                start_time_seconds: 1_764_200_010.0,
            }
        );
        assert_eq!(
            ProcessFigures::parse("garbage", statm, boot, 1, 100, 4096),
            None
        );
    }
}
