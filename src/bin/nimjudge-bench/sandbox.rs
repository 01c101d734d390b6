//! `nimjudge-bench sandbox`: runs of `/bin/true` in the sandbox against a
//! bare fork+exec, each timed, and the medians.

use std::{
    path::PathBuf,
    process::{Command, ExitCode, Stdio},
    time::{Duration, Instant},
};

use clap::{Args, ValueEnum};
use nimjudge::{
    config::Config,
    programs::Programs,
    sandbox::{self, Limits, Run},
};

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum BenchMode {
    /// `/bin/true` by fork+exec, no isolation.
    Bare,
    /// `/bin/true` in the sandbox.
    Sandbox,
}

#[derive(Debug, Args)]
pub struct BenchArgs {
    /// Settings file (default: config.toml in the working directory, if present).
    #[arg(long)]
    pub config: Option<PathBuf>,
    /// Runs of each kind.
    #[arg(long, default_value_t = 200)]
    pub runs: usize,
    /// Time only one kind (default: both, alternating).
    #[arg(long)]
    pub only: Option<BenchMode>,
    /// MiB of memory the benchmark holds, written so that it is resident,
    /// while it times the runs: a daemon holds its caches, connections and
    /// threads' stacks the same way.
    #[arg(long, default_value_t = 0)]
    pub hold_mib: usize,
}

pub fn bench(args: BenchArgs) -> anyhow::Result<ExitCode> {
    let config = Config::load(args.config.as_deref())?;
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
        stdio: sandbox::Stdio::Files {
            stdin: &stdin,
            stdout: &scratch.path().join("stdout"),
        },
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
    let held = vec![1u8; args.hold_mib << 20];
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
    std::hint::black_box(&held);
    if let [bare, sandboxed] = medians[..] {
        println!(
            "sandbox overhead: {:.3} ms per run (median against median)",
            (sandboxed.as_secs_f64() - bare.as_secs_f64()) * 1e3
        );
    }
    Ok(ExitCode::SUCCESS)
}
