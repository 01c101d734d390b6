//! Building and running the daemon: database, catalog sync, listener, workers.
//!
//! A process plays one of two roles on a database: an [`Application`]
//! (`nimjudge serve`: the HTTP API and web UI, plus `worker.count` workers,
//! which may be 0) or a [`WorkerHost`] (`nimjudge worker`: workers only, no
//! HTTP). On PostgreSQL any number of each may share one database; on SQLite
//! they share a file on one machine.
//!
//! [`Application::build`] does everything that can fail at start (open and
//! migrate the database, sync `problems/`, bind the port) before anything
//! runs, and exposes the bound port, so tests start the real server on port
//! 0. It refuses to start on an empty catalog (a wrong folder, usually) unless
//! `catalog.allow_empty` is set. [`Application::run_until`] serves until its
//! shutdown future resolves, then stops accepting, gives open connections up
//! to `server.shutdown_grace_ms` to finish their requests (closing the rest),
//! lets workers finish the jobs they hold for up to
//! `worker.shutdown_grace_ms`, and releases whatever is left back to the
//! queue. A [`WorkerHost`] stops the same way, minus the HTTP part.

use std::{future::Future, net::SocketAddr, sync::Arc};

use anyhow::Context;
use tokio::{net::TcpListener, task::JoinSet};
use tokio_util::sync::CancellationToken;
use tracing::{error, info, warn};

use crate::{
    app::{App, AppSettings, CatalogCache, worker::Judge},
    catalog,
    config::Config,
    http::{self, AppState, RouterLimits},
    job_signals::JobSignals,
    programs::Programs,
    store::{Notice, Store},
    telemetry::Metrics,
    web,
};

/// `<host>-<8 hex digits>`: the host's name kept to letters, digits, `.`
/// and `-` (at most 32 of them; `host` if none is left), so it is safe in a
/// `like` prefix, and the first 8 hex digits of `random`.
fn instance_name(hostname: &str, random: &uuid::Uuid) -> String {
    let host: String = hostname
        .trim()
        .chars()
        .filter(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '-'))
        .take(32)
        .collect();
    let host = if host.is_empty() { "host" } else { &host };
    let random = random.simple().to_string();
    format!("{host}-{}", &random[..8])
}

/// A daemon that is bound and ready to run.
pub struct Application {
    listener: TcpListener,
    address: SocketAddr,
    host: Host,
}

/// A process that only judges: workers on a shared database, no HTTP.
pub struct WorkerHost {
    host: Host,
}

/// What every role holds: the settings, the database, the sandbox, and the
/// signals that wake its workers and answer its long polls.
struct Host {
    config: Config,
    store: Store,
    catalog: Arc<CatalogCache>,
    signals: JobSignals,
    metrics: Metrics,
    programs: Arc<Programs>,
    /// Names this process's workers `<instance>-w<n>`, so a shutdown can
    /// release exactly the jobs its own workers hold. It is the host's name
    /// and a random part (`judge3-1f0c9a2e`), so a reviewer reading a
    /// submission's events sees which machine judged it.
    instance: String,
}

impl Host {
    /// Opens the database (creating and migrating it) and starts the
    /// sandbox.
    async fn open(config: Config) -> anyhow::Result<Host> {
        let store = Store::connect(&config.database)
            .await
            .with_context(|| format!("cannot open the database {}", config.database.shown_url()))?;
        info!(database = %store.describe(), "database open");
        let instance = instance_name(
            &std::fs::read_to_string("/proc/sys/kernel/hostname").unwrap_or_default(),
            &uuid::Uuid::new_v4(),
        );
        let programs = {
            let (sandbox, languages) = (config.sandbox.clone(), config.languages.clone());
            tokio::task::spawn_blocking(move || Programs::start(&sandbox, &languages))
                .await
                .context("the sandbox self-test panicked")?
        };
        match programs.sandbox() {
            Ok(sandbox) => info!(
                cgroups = sandbox.cgroup_mode().unwrap_or("none"),
                "sandbox ready: program submissions accepted"
            ),
            Err(why) => warn!(
                reason = %why,
                "the sandbox cannot isolate programs on this host: program submissions are refused"
            ),
        }
        for language in programs.list().iter().filter(|l| !l.available) {
            warn!(
                language = %language.id,
                reason = language.reason.as_deref().unwrap_or_default(),
                "language unavailable"
            );
        }
        Ok(Host {
            config,
            store,
            catalog: Arc::default(),
            signals: JobSignals::default(),
            metrics: Metrics::default(),
            programs: Arc::new(programs),
            instance,
        })
    }

    fn judge(&self) -> Judge {
        Judge::new(
            self.store.clone(),
            self.catalog.clone(),
            self.signals.clone(),
            self.metrics.clone(),
            self.programs.clone(),
            &self.config.worker,
        )
    }

    /// Starts the workers and, on PostgreSQL, the listener that turns other
    /// processes' news into this process's signals.
    async fn start(&self, cancel: &CancellationToken) -> anyhow::Result<JoinSet<()>> {
        let mut tasks = JoinSet::new();
        if self.programs.sandbox().is_err_and(|off| off.may_pass) {
            tasks.spawn(keep_trying_the_sandbox(
                self.programs.clone(),
                cancel.clone(),
            ));
        }
        let judge = self.judge();
        for n in 1..=self.config.worker.count {
            let name = format!("{}-w{n}", self.instance);
            tasks.spawn(judge.clone().run_worker(name, cancel.child_token()));
        }
        if let Some(mut notices) = self
            .store
            .notices()
            .await
            .context("cannot listen for other hosts' news")?
        {
            let (signals, catalog, cancel) =
                (self.signals.clone(), self.catalog.clone(), cancel.clone());
            tasks.spawn(async move {
                loop {
                    tokio::select! {
                        () = cancel.cancelled() => return,
                        notice = notices.recv() => match notice {
                            Ok(Notice::JobQueued) => signals.job_added(),
                            Ok(Notice::Judged(ids)) => ids.into_iter().for_each(|id| signals.judged(id)),
                            Ok(Notice::CatalogChanged) => catalog.forget_rules(),
                            Err(e) => {
                                // Catalog notices may be lost with the connection.
                                catalog.forget_rules();
                                warn!(error = %e, "listening for other hosts' news failed; retrying");
                                tokio::time::sleep(std::time::Duration::from_secs(1)).await;
                            }
                        },
                    }
                }
            });
        }
        Ok(tasks)
    }

    /// Gives the workers up to `worker.shutdown_grace_ms` to finish the jobs
    /// they are judging, then releases every job this process still holds
    /// to the queue (those claimed and not started, and those cut short),
    /// giving each its try back, and closes the database.
    async fn stop(self, mut tasks: JoinSet<()>) -> anyhow::Result<()> {
        let grace = self.config.worker.shutdown_grace;
        let finished =
            tokio::time::timeout(grace, async { while tasks.join_next().await.is_some() {} }).await;
        if finished.is_err() {
            tasks.abort_all();
            while tasks.join_next().await.is_some() {}
        }
        let released = self.store.release(&format!("{}-", self.instance)).await?;
        if released > 0 {
            info!(
                released,
                cut_short = finished.is_err(),
                "released jobs this process held to the queue"
            );
        }
        self.store.close().await;
        info!("stopped");
        Ok(())
    }
}

/// Tries a sandbox that is off again, after 1 s, then twice as long each
/// time up to a minute, until it passes its self-test (program judging is
/// then on) or the process stops.
async fn keep_trying_the_sandbox(programs: Arc<Programs>, cancel: CancellationToken) {
    let mut delay = std::time::Duration::from_secs(1);
    loop {
        tokio::select! {
            () = cancel.cancelled() => return,
            () = tokio::time::sleep(delay) => {}
        }
        let trying = programs.clone();
        match tokio::task::spawn_blocking(move || trying.try_again()).await {
            Ok(Ok(())) => {
                info!("the sandbox passed its self-test: program submissions accepted");
                return;
            }
            Ok(Err(off)) if !off.may_pass => {
                warn!(reason = %off, "the sandbox cannot isolate programs on this host");
                return;
            }
            Ok(Err(off)) => {
                delay = (delay * 2).min(std::time::Duration::from_secs(60));
                warn!(reason = %off, retry_in_s = delay.as_secs(), "the sandbox is still off");
            }
            Err(e) => {
                error!(error = %e, "trying the sandbox again panicked");
                return;
            }
        }
    }
}

impl Application {
    /// Binds the listener, then opens the database (creating and migrating
    /// it) and syncs the catalog.
    pub async fn build(config: Config) -> anyhow::Result<Application> {
        // Bound first: a port in use is reported before the database is
        // created or migrated.
        let listener = TcpListener::bind(config.server.bind)
            .await
            .with_context(|| format!("cannot bind {}", config.server.bind))?;
        let host = Host::open(config).await?;
        let (config, store) = (&host.config, &host.store);
        let problems_dir = &config.catalog.problems_dir;
        let report = {
            // One process syncs at a time; the others then find it unchanged.
            let _lock = store.startup_lock().await?;
            catalog::sync(store, problems_dir)
                .await
                .context("cannot sync the problem catalog")?
        };
        for (path, reason) in &report.skipped {
            warn!(path = %path.display(), %reason, "problem definition skipped");
        }
        info!(
            problems_dir = %problems_dir.display(),
            problems = report.problem_count(),
            created = %problem_list(&report.created),
            updated = %problem_list(&report.updated),
            unchanged = report.unchanged.len(),
            "catalog synced"
        );
        if report.problem_count() == 0 && !config.catalog.allow_empty {
            store.close().await;
            anyhow::bail!(
                "no problem loaded from {} (run from the repository folder, pass --config, \
                 or set catalog.allow_empty = true to start anyway)",
                std::path::absolute(problems_dir)
                    .unwrap_or_else(|_| problems_dir.clone())
                    .display()
            );
        }
        let address = listener.local_addr().context("no local address")?;
        Ok(Application {
            listener,
            address,
            host,
        })
    }

    /// The bound port (useful when the configured port was 0).
    pub fn port(&self) -> u16 {
        self.address.port()
    }

    /// The prefix of this process's worker names (`<instance>-w<n>`).
    pub fn instance(&self) -> &str {
        &self.host.instance
    }

    /// The bound address.
    pub fn address(&self) -> SocketAddr {
        self.address
    }

    /// The database, for tools and tests that set up data (tokens).
    pub fn store(&self) -> &Store {
        &self.host.store
    }

    /// A worker over this application's store and signals, for tests that
    /// drive judging by hand.
    pub fn judge(&self) -> Judge {
        self.host.judge()
    }

    /// Serves HTTP and runs the workers until `shutdown` resolves.
    pub async fn run_until(
        self,
        shutdown: impl Future<Output = ()> + Send + 'static,
    ) -> anyhow::Result<()> {
        let Application {
            listener,
            address,
            host,
        } = self;
        let config = &host.config;
        let cancel = CancellationToken::new();
        let app = App::new(
            host.store.clone(),
            host.catalog.clone(),
            host.signals.clone(),
            host.metrics.clone(),
            host.programs.clone(),
            AppSettings {
                limits: config.limits,
                max_wait: config.server.max_wait,
                wait_recheck: config.server.wait_recheck,
                write_probe_free_bytes: 2 * config.server.body_limit_bytes as u64,
                problems_dir: config.catalog.problems_dir.as_path().into(),
            },
            cancel.clone(),
        );
        let state = AppState {
            app,
            secure_cookies: config.server.secure_cookies,
            auth_throttle: Arc::new(http::auth_throttle::AuthThrottle::new(
                config.limits.failed_auths_per_minute,
            )),
            event_feeds: Arc::default(),
        };
        let tasks = host.start(&cancel).await?;
        info!(%address, workers = config.worker.count, "nimjudge listening");
        let router = http::router(
            state,
            RouterLimits {
                body_limit_bytes: config.server.body_limit_bytes,
                request_timeout: config.server.request_timeout,
                body_read_timeout: config.server.connections.body_read_timeout,
            },
            web::pages(),
        );
        let signal = cancel.clone();
        http::server::serve(listener, router, config.server.connections, async move {
            shutdown.await;
            info!("shutting down: no new requests; workers finish their jobs");
            signal.cancel();
        })
        .await;
        cancel.cancel();
        host.stop(tasks).await
    }
}

impl WorkerHost {
    /// Opens the database (creating and migrating it) and starts the
    /// sandbox. The catalog is the API hosts' to sync: a worker reads
    /// problems and testcases from the database.
    pub async fn build(config: Config) -> anyhow::Result<WorkerHost> {
        if config.worker.count == 0 {
            anyhow::bail!("a worker host with worker.count = 0 would do nothing");
        }
        Ok(WorkerHost {
            host: Host::open(config).await?,
        })
    }

    /// The database, for tests.
    pub fn store(&self) -> &Store {
        &self.host.store
    }

    /// Runs the workers until `shutdown` resolves.
    pub async fn run_until(
        self,
        shutdown: impl Future<Output = ()> + Send + 'static,
    ) -> anyhow::Result<()> {
        let cancel = CancellationToken::new();
        let tasks = self.host.start(&cancel).await?;
        info!(
            workers = self.host.config.worker.count,
            "nimjudge worker host running"
        );
        shutdown.await;
        info!("shutting down: workers finish their jobs");
        cancel.cancel();
        self.host.stop(tasks).await
    }
}

/// A future that resolves on Ctrl-C or SIGTERM.
///
/// The handlers are installed when this is called, not when the future is
/// first polled: call it before [`Application::build`], so a signal that
/// arrives while the database is migrated and the catalog synced is a
/// graceful stop too, rather than the default action that kills the process.
pub fn shutdown_signal() -> impl Future<Output = ()> {
    #[cfg(unix)]
    let (interrupt, terminate) = {
        use tokio::signal::unix::{SignalKind, signal};
        (
            signal(SignalKind::interrupt()).ok(),
            signal(SignalKind::terminate()).ok(),
        )
    };
    async move {
        #[cfg(unix)]
        {
            let wait = |stream: Option<tokio::signal::unix::Signal>| async move {
                match stream {
                    Some(mut stream) => {
                        stream.recv().await;
                    }
                    None => std::future::pending::<()>().await,
                }
            };
            tokio::select! {
                () = wait(interrupt) => {}
                () = wait(terminate) => {}
            }
        }
        #[cfg(not(unix))]
        if tokio::signal::ctrl_c().await.is_err() {
            std::future::pending::<()>().await;
        }
    }
}

/// Problem ids as one comma-separated value, for a log line.
fn problem_list(ids: &[crate::domain::ProblemId]) -> String {
    ids.iter()
        .map(|id| id.as_str())
        .collect::<Vec<_>>()
        .join(",")
}

#[cfg(test)]
mod tests {
    use super::instance_name;

    #[test]
    fn an_instance_is_named_after_its_host_with_a_like_safe_name() {
        let random = uuid::Uuid::from_u128(0x1f0c_9a2e_0000_4000_8000_0000_0000_0001);
        assert_eq!(instance_name("judge3\n", &random), "judge3-1f0c9a2e");
        // `%` and `_` would be wildcards in the release's `like` prefix.
        assert_eq!(instance_name("lab_host%7", &random), "labhost7-1f0c9a2e");
        assert_eq!(instance_name("", &random), "host-1f0c9a2e");
        assert_eq!(instance_name(&"a".repeat(40), &random).len(), 32 + 9);
    }
}
