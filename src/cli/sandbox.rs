//! `nimjudge sandbox check`: what the sandbox can do on this host.

use std::{path::PathBuf, process::ExitCode};

use clap::{Args, Subcommand};

use super::EXIT_FAILURE;
use crate::{config::Config, programs::Programs};

#[derive(Debug, Subcommand)]
pub enum SandboxAction {
    /// Print what works on this host: namespaces, cgroups, languages.
    Check(SandboxArgs),
}

#[derive(Debug, Args)]
pub struct SandboxArgs {
    /// Settings file (default: config.toml in the working directory, if present).
    #[arg(long)]
    pub config: Option<PathBuf>,
}

pub fn run(action: SandboxAction) -> anyhow::Result<ExitCode> {
    match action {
        SandboxAction::Check(args) => check(args),
    }
}

fn check(args: SandboxArgs) -> anyhow::Result<ExitCode> {
    let config = Config::load(args.config.as_deref())?;
    let programs = Programs::start(&config.sandbox, &config.languages);
    // SAFETY: geteuid has no preconditions.
    let euid = unsafe { libc::geteuid() };
    println!("user id: {euid}{}", if euid == 0 { " (root)" } else { "" });
    let ok = match programs.sandbox() {
        Ok(sandbox) => {
            println!("namespaces: mount, PID, network, IPC, UTS, cgroup: ok (self-test passed)");
            match sandbox.cgroup_mode() {
                Ok(mode) => println!("cgroups: {mode}: memory, pids and CPU accounting"),
                Err(why) => println!(
                    "cgroups: none ({why}); memory falls back to RLIMIT_AS, CPU time to rusage"
                ),
            }
            println!("work folder: {}", sandbox.work_dir().display());
            true
        }
        Err(why) => {
            println!("sandbox: cannot isolate programs: {why}");
            println!("program submissions are refused on this host");
            false
        }
    };
    for language in programs.list() {
        println!(
            "language {}: {}",
            language.id,
            match &language.reason {
                None => format!("ok ({})", language.name),
                Some(why) => format!("unavailable: {why}"),
            }
        );
    }
    Ok(if ok {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(EXIT_FAILURE)
    })
}
