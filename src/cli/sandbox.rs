//! `nimjudge sandbox check` and `nimjudge sandbox bench`: what the sandbox
//! can do on this host, and what a run in it costs.

use std::{
    path::PathBuf,
    process::{Command, ExitCode, Stdio},
    time::{Duration, Instant},
};

use clap::{Args, Subcommand, ValueEnum};

use super::EXIT_FAILURE;
use crate::{
    config::Config,
    programs::Programs,
    sandbox::{Limits, Run},
};

#[derive(Debug, Subcommand)]
pub enum SandboxAction {
    /// Print what works on this host: namespaces, cgroups, languages.
    Check(SandboxArgs),
    /// Time runs of /bin/true in the sandbox against a bare fork+exec.
    Bench(BenchArgs),
}

#[derive(Debug, Args)]
pub struct SandboxArgs {
    /// Settings file (default: config.toml in the working directory, if present).
    #[arg(long)]
    pub config: Option<PathBuf>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum BenchMode {
    /// `/bin/true` by fork+exec, no isolation.
    Bare,
    /// `/bin/true` in the sandbox.
    Sandbox,
}

#[derive(Debug, Args)]
pub struct BenchArgs {
    #[command(flatten)]
    pub settings: SandboxArgs,
    /// Runs of each kind.
    #[arg(long, default_value_t = 200)]
    pub runs: usize,
    /// Time only one kind (default: both, alternating).
    #[arg(long)]
    pub only: Option<BenchMode>,
}

pub fn run(action: SandboxAction) -> anyhow::Result<ExitCode> {
    match action {
        SandboxAction::Check(args) => check(args),
        SandboxAction::Bench(args) => bench(args),
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

fn bench(args: BenchArgs) -> anyhow::Result<ExitCode> {
    let config = Config::load(args.settings.config.as_deref())?;
    let programs = Programs::start(&config.sandbox, &[]);
    let sandbox = programs
        .sandbox()
        .map_err(|why| anyhow::anyhow!("the sandbox cannot isolate programs here: {why}"))?;
    let scratch = tempfile::Builder::new()
        .prefix("bench-")
        .tempdir_in(sandbox.work_dir())?;
    let box_dir = scratch.path().join("box");
    std::fs::create_dir(&box_dir)?;
    let stdin = scratch.path().join("stdin");
    std::fs::write(&stdin, "")?;
    let argv = ["/bin/true".to_string()];
    let run = Run {
        argv: &argv,
        path: &[],
        toolchains: &[],
        box_dir: &box_dir,
        box_writable: false,
        stdin: &stdin,
        stdout: &scratch.path().join("stdout"),
        stderr: &scratch.path().join("stderr"),
        limits: Limits {
            cpu: Duration::from_secs(1),
            wall: Duration::from_secs(5),
            memory_bytes: 256 << 20,
            processes: 16,
            output_bytes: 1 << 20,
        },
    };
    let modes: &[BenchMode] = match args.only {
        Some(BenchMode::Bare) => &[BenchMode::Bare],
        Some(BenchMode::Sandbox) => &[BenchMode::Sandbox],
        None => &[BenchMode::Bare, BenchMode::Sandbox],
    };
    let mut times: Vec<Vec<Duration>> = vec![Vec::with_capacity(args.runs); modes.len()];
    for _ in 0..args.runs {
        for (slot, mode) in modes.iter().enumerate() {
            let started = Instant::now();
            match mode {
                BenchMode::Bare => {
                    let status = Command::new("/bin/true")
                        .stdin(Stdio::null())
                        .stdout(Stdio::null())
                        .status()?;
                    anyhow::ensure!(status.success(), "/bin/true failed: {status}");
                }
                BenchMode::Sandbox => {
                    let report = sandbox.run(&run)?;
                    anyhow::ensure!(report.succeeded(), "/bin/true failed: {report:?}");
                }
            }
            times[slot].push(started.elapsed());
        }
    }
    let mut medians = Vec::new();
    for (mode, times) in modes.iter().zip(&mut times) {
        times.sort();
        let median = times[times.len() / 2];
        let p90 = times[times.len() * 9 / 10];
        println!(
            "{mode:?}: {} runs, median {:.3} ms, p90 {:.3} ms",
            times.len(),
            median.as_secs_f64() * 1e3,
            p90.as_secs_f64() * 1e3
        );
        medians.push(median);
    }
    if let [bare, sandboxed] = medians[..] {
        println!(
            "sandbox overhead: {:.3} ms per run (median against median)",
            (sandboxed.as_secs_f64() - bare.as_secs_f64()) * 1e3
        );
    }
    Ok(ExitCode::SUCCESS)
}
