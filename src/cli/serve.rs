//! `nimjudge serve`: load settings, start logging, build and run the daemon.

use std::process::ExitCode;

use super::ConfigArg;
use crate::{
    config::Config,
    startup::{Application, shutdown_signal},
    telemetry,
};

pub async fn run(args: ConfigArg) -> anyhow::Result<ExitCode> {
    let config = Config::load(args.config.as_deref())?;
    telemetry::init(&config.log);
    // Installed before the build, so a signal during startup is a graceful
    // stop as well.
    let shutdown = shutdown_signal();
    let app = Application::build(config).await?;
    app.run_until(shutdown).await?;
    Ok(ExitCode::SUCCESS)
}
