//! `nimjudge serve` and `nimjudge worker`: load settings, start logging,
//! build and run the daemon in its role.

use std::{path::PathBuf, process::ExitCode};

use clap::Args;

use crate::{
    config::Config,
    startup::{Application, WorkerHost, shutdown_signal},
    telemetry,
};

/// The settings file and the number of workers.
#[derive(Debug, Args)]
pub struct ServeArgs {
    /// Settings file (default: config.toml in the working directory, if present).
    #[arg(long)]
    pub config: Option<PathBuf>,
    /// Workers in this process, instead of the settings' `worker.count`.
    #[arg(long)]
    pub workers: Option<usize>,
}

impl ServeArgs {
    fn load(&self) -> anyhow::Result<Config> {
        let mut config = Config::load(self.config.as_deref())?;
        if let Some(workers) = self.workers {
            config.worker.count = workers;
        }
        telemetry::init(&config.log);
        Ok(config)
    }
}

/// The HTTP API and web UI, with `worker.count` workers.
pub async fn serve(args: ServeArgs) -> anyhow::Result<ExitCode> {
    let config = args.load()?;
    // Installed before the build, so a signal during startup is a graceful
    // stop as well.
    let shutdown = shutdown_signal();
    let app = Application::build(config).await?;
    app.run_until(shutdown).await?;
    Ok(ExitCode::SUCCESS)
}

/// Workers only, no HTTP.
pub async fn worker(args: ServeArgs) -> anyhow::Result<ExitCode> {
    let config = args.load()?;
    let shutdown = shutdown_signal();
    let host = WorkerHost::build(config).await?;
    host.run_until(shutdown).await?;
    Ok(ExitCode::SUCCESS)
}
