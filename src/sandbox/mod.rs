//! The sandbox: runs one untrusted program (a contestant's compiler or
//! program) in fresh Linux namespaces, with limits the kernel enforces.
//!
//! Each run gets new mount, PID, IPC, UTS and cgroup namespaces and a
//! network namespace of its own with nothing in it but a downed loopback
//! (used by one run only: a namespace keeps state past its processes, such
//! as the counters of `/proc/net/snmp`, which a run can move by sending
//! packets nowhere and the next run could read; making one costs about half
//! a millisecond, so a thread keeps a few made ahead, see [`ahead`]); a
//! new root on a tmpfs holding read-only binds of the system's library and
//! toolchain folders, the run's box folder at `/box` (writable only while
//! compiling), a private `/tmp` tmpfs, a minimal `/dev` and a fresh `/proc`;
//! no network but a downed loopback. The program runs as an unprivileged uid
//! of its own (a pool, one uid per run in flight, so the per-uid process
//! limit is the run's own) with no_new_privs, every inherited descriptor
//! closed, and these limits:
//! - CPU time: measured by the run's cgroup over all its processes, read
//!   while the run goes on and the run killed within about 10 ms of the
//!   limit, with `RLIMIT_CPU` as a backstop; wall time: the keeper is
//!   killed;
//! - memory: the cgroup's limit (the OOM killer ends the run), peak read
//!   from the cgroup; `RLIMIT_AS` only where no memory cgroup exists;
//! - processes and threads: the cgroup's pids limit and `RLIMIT_NPROC`;
//! - output: stdout and stderr are files, capped by `RLIMIT_FSIZE`, so an
//!   endless writer is stopped by the kernel and nothing is buffered (an
//!   interactive run's stdin and stdout are pipes to a judge in the daemon
//!   instead, see [`Stdio::Pipes`]: a pipe holds 64 KiB, and the judge
//!   reads no more than a line at a time);
//! - stack: as large as the memory limit;
//! - system calls: the seccomp policy of [`seccomp`] (keyrings, namespaces,
//!   mounts, ptrace and the rest of the kernel's riskier surface denied,
//!   foreign ABIs killed), installed after no_new_privs, before exec.
//!
//! Nothing outlives the judge: a run dies with the daemon (see [`jail`]),
//! and [`Sandbox::new`] first sweeps what a daemon that died may have left:
//! it kills every process of the pool's uids and of leftover run cgroups,
//! removes those cgroups and every leftover box folder. A lock on the work
//! folder keeps a second process from sweeping a live one's runs.
//!
//! **Invariant:** nothing here runs a program outside the namespaces. If the
//! sandbox cannot be set up ([`Sandbox::new`] or [`Sandbox::self_test`]
//! fails), callers refuse program submissions; there is no fallback.
//!
//! This module knows nothing of submissions or verdicts: a [`Run`] goes in,
//! a [`RunReport`] comes out.

mod ahead;
mod cgroup;
mod jail;
mod seccomp;
mod spawner;
mod sweep;

use std::{
    fs::{self, File, OpenOptions},
    io::{self, Read},
    os::{
        fd::{AsFd, OwnedFd},
        unix::fs::{OpenOptionsExt, PermissionsExt},
    },
    path::{Component, Path, PathBuf},
    sync::{Arc, Condvar, Mutex},
    time::Duration,
};

use cgroup::CgroupLimits;
pub use cgroup::Cgroups;
use jail::{CpuWatch, MountStep, Prepared, Rlimits, c_string};
pub use spawner::SpawnError;
pub use sweep::Swept;

/// Host settings of the sandbox (the `[sandbox]` section of the config).
#[derive(Debug, Clone)]
pub struct SandboxSettings {
    /// Folder for boxes and the new root's mount point; created if missing.
    pub work_dir: PathBuf,
    /// First uid of the pool; runs use `first_uid .. first_uid + uid_count`.
    pub first_uid: u32,
    pub uid_count: u32,
    /// System folders seen read-only inside (a symlink is recreated as one).
    pub system_paths: Vec<PathBuf>,
    /// Size of the run's private `/tmp`.
    pub tmp_size_bytes: u64,
}

/// The system's program folders, on `PATH` after a run's own folders.
pub const SYSTEM_BIN_DIRS: [&str; 3] = ["/usr/local/bin", "/usr/bin", "/bin"];

/// The limits of one run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    pub cpu: Duration,
    pub wall: Duration,
    pub memory_bytes: u64,
    pub processes: u32,
    /// Largest stdout (and, separately, stderr or any written file).
    pub output_bytes: u64,
}

/// One program to run.
#[derive(Debug, Clone)]
pub struct Run<'a> {
    /// `argv[0]` is a path, or a name looked up in `path` (outside, in
    /// the same folders the run sees inside).
    pub argv: &'a [String],
    /// Folders for `PATH`, before the system's `/usr/local/bin:/usr/bin:/bin`.
    pub path: &'a [PathBuf],
    /// Toolchain folders bound read-only at the same path inside.
    pub toolchains: &'a [PathBuf],
    /// The host folder seen as `/box`, the working directory.
    pub box_dir: &'a Path,
    pub box_writable: bool,
    pub stdio: Stdio<'a>,
    /// A host file for stderr, created or truncated.
    pub stderr: &'a Path,
    pub limits: Limits,
}

/// Where a run's stdin comes from and its stdout goes.
#[derive(Debug, Clone, Copy)]
pub enum Stdio<'a> {
    /// Host files: stdin is read, stdout created or truncated and capped
    /// by the output limit.
    Files { stdin: &'a Path, stdout: &'a Path },
    /// The program's ends of two pipes whose other ends a peer in this
    /// process holds (an interactive judge). The caller closes these ends
    /// once `run` returns, so the peer then reads the end of the output.
    Pipes { stdin: &'a File, stdout: &'a File },
}

/// Which limit ended a run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LimitHit {
    Cpu,
    Wall,
    Memory,
    Output,
}

/// How a run ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Termination {
    Exited(i32),
    Signaled(i32),
    /// Killed by the sandbox at its CPU or wall-clock limit.
    Killed,
}

/// What a run did and used.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RunReport {
    pub termination: Termination,
    /// The first limit that explains the ending, if any (memory, then
    /// output, then CPU, then wall time).
    pub limit: Option<LimitHit>,
    pub cpu: Duration,
    pub wall: Duration,
    pub peak_memory_bytes: u64,
    pub stdout_bytes: u64,
}

impl RunReport {
    /// Exited with status 0 and within every limit.
    pub fn succeeded(&self) -> bool {
        self.limit.is_none() && self.termination == Termination::Exited(0)
    }
}

/// Why the sandbox could not run something. Never the program's fault: a
/// program that misbehaves gets a [`RunReport`].
#[derive(Debug, thiserror::Error)]
pub enum SandboxError {
    #[error("the sandbox needs root (CAP_SYS_ADMIN) to create namespaces; running as uid {0}")]
    NotRoot(u32),
    // Each message holds its cause, which is not also a `source`: a chain
    // printed whole would say it twice.
    #[error("{what}: {cause}")]
    Io { what: String, cause: io::Error },
    #[error("setting up the sandbox failed at {0}")]
    Jail(jail::JailError),
    #[error("no program `{0}` in the sandbox's PATH")]
    ProgramNotFound(String),
    #[error(transparent)]
    Spawner(#[from] spawner::SpawnError),
    #[error(
        "the sandbox folder {0} is in use by another nimjudge process; give each process on a host its own [sandbox] work_dir and uid range"
    )]
    InUse(PathBuf),
    #[error(
        "uid {uid} of the sandbox's pool is the user `{name}` in /etc/passwd; the pool's uids must belong to nobody (set [sandbox] first_uid and uid_count)"
    )]
    UidTaken { uid: u32, name: String },
}

impl From<jail::JailError> for SandboxError {
    fn from(error: jail::JailError) -> SandboxError {
        SandboxError::Jail(error)
    }
}

fn io_error(what: impl Into<String>) -> impl FnOnce(io::Error) -> SandboxError {
    let what = what.into();
    move |cause| SandboxError::Io { what, cause }
}

/// The sandbox of one daemon: settings, cgroups and the uid pool. Cheap to
/// clone; runs may go on in parallel on the blocking pool.
#[derive(Debug, Clone)]
pub struct Sandbox {
    inner: Arc<Inner>,
}

#[derive(Debug)]
struct Inner {
    settings: SandboxSettings,
    /// `None` where the host has no usable cgroups: memory is then limited
    /// by `RLIMIT_AS` and CPU time read from rusage.
    cgroups: Option<Cgroups>,
    /// Why there are no cgroups, for `sandbox check`.
    cgroup_problem: Option<String>,
    /// Taken from the front and returned to the back, so consecutive runs
    /// (and a self-test tried again) use different uids.
    free_uids: Mutex<std::collections::VecDeque<u32>>,
    /// Fresh network namespaces made ahead, each for one run.
    net_namespaces: ahead::Stock<OwnedFd>,
    /// Removes used cgroups on a thread of its own.
    remover: ahead::CgroupRemover,
    /// Signalled when a uid is returned to the pool.
    uid_returned: Condvar,
    new_root: PathBuf,
    /// The helper process that clones every run's keeper.
    spawner: spawner::Spawner,
    /// CPUs of this host: how much faster than the wall clock a run's CPU
    /// time can grow.
    parallelism: u32,
    /// What the start-up sweep found and removed.
    swept: Swept,
    /// An exclusive `flock` on the work folder's `.lock` for as long as
    /// this sandbox lives.
    _lock: File,
}

impl Sandbox {
    /// Checks that this process may create namespaces, finds the cgroups,
    /// makes the work folder and locks it, and sweeps what an earlier
    /// process left (see the module's doc). Runs nothing.
    pub fn new(settings: SandboxSettings) -> Result<Sandbox, SandboxError> {
        // SAFETY: geteuid has no preconditions.
        let euid = unsafe { libc::geteuid() };
        if euid != 0 {
            return Err(SandboxError::NotRoot(euid));
        }
        fs::create_dir_all(&settings.work_dir).map_err(io_error(format!(
            "creating {}",
            settings.work_dir.display()
        )))?;
        let work_dir = fs::canonicalize(&settings.work_dir).map_err(io_error(format!(
            "resolving {}",
            settings.work_dir.display()
        )))?;
        // Boxes are bound by path; only root may walk to them.
        fs::set_permissions(&work_dir, fs::Permissions::from_mode(0o700))
            .map_err(io_error(format!("restricting {}", work_dir.display())))?;
        let lock = sweep::lock(&work_dir)?;
        let uids = settings.first_uid..settings.first_uid.saturating_add(settings.uid_count);
        sweep::check_uids_unnamed(&uids)?;
        let new_root = work_dir.join(".root");
        fs::create_dir_all(&new_root)
            .map_err(io_error(format!("creating {}", new_root.display())))?;
        let (cgroups, cgroup_problem) = match Cgroups::detect() {
            Ok(cgroups) => (Some(cgroups), None),
            Err(e) => (None, Some(e.to_string())),
        };
        let swept = sweep::sweep(&work_dir, &uids, cgroups.as_ref());
        let spawner = spawner::Spawner::start()?;
        let free_uids = uids.collect();
        let parallelism = std::thread::available_parallelism()
            .map_or(1, |n| u32::try_from(n.get()).unwrap_or(u32::MAX));
        Ok(Sandbox {
            inner: Arc::new(Inner {
                settings: SandboxSettings {
                    work_dir,
                    ..settings
                },
                cgroups,
                cgroup_problem,
                free_uids: Mutex::new(free_uids),
                net_namespaces: ahead::Stock::start(
                    "net-namespaces",
                    ahead::NET_NAMESPACES_AHEAD,
                    ahead::make_net_namespace,
                ),
                uid_returned: Condvar::new(),
                remover: ahead::CgroupRemover::start(),
                new_root,
                spawner,
                parallelism,
                swept,
                _lock: lock,
            }),
        })
    }

    /// What the start-up sweep killed and removed.
    pub fn swept(&self) -> &Swept {
        &self.inner.swept
    }

    /// The folder under which callers make their boxes.
    pub fn work_dir(&self) -> &Path {
        &self.inner.settings.work_dir
    }

    /// `v1` or `v2`, or why no cgroups are used.
    pub fn cgroup_mode(&self) -> Result<&'static str, &str> {
        match (&self.inner.cgroups, &self.inner.cgroup_problem) {
            (Some(cgroups), _) => Ok(cgroups.version()),
            (None, problem) => Err(problem.as_deref().unwrap_or("unknown")),
        }
    }

    /// Runs one program to its end or its limits. Blocks: call it from the
    /// blocking pool.
    pub fn run(&self, run: &Run<'_>) -> Result<RunReport, SandboxError> {
        let uid = UidLease::take(&self.inner);
        let limits = run.limits;
        let cgroup = match &self.inner.cgroups {
            Some(cgroups) => Some(
                cgroups
                    .create(CgroupLimits {
                        memory_bytes: limits.memory_bytes,
                        processes: limits.processes,
                    })
                    .map_err(io_error("creating the run's cgroup"))?,
            ),
            None => None,
        };
        if run.box_writable {
            std::os::unix::fs::chown(run.box_dir, Some(uid.0), Some(uid.0)).map_err(io_error(
                format!("handing {} to the run", run.box_dir.display()),
            ))?;
        }
        let net_namespace = ahead::fresh_net_namespace(&self.inner.net_namespaces)
            .map_err(io_error("making a network namespace"))?;
        let prepared = self.prepare(run, uid.0, cgroup.as_ref())?;
        let create = |path: &Path| {
            OpenOptions::new()
                .write(true)
                .create(true)
                .truncate(true)
                .mode(0o600)
                .open(path)
                .map_err(io_error(format!("creating {}", path.display())))
        };
        let opened: (File, File);
        let (stdin, stdout) = match run.stdio {
            Stdio::Files { stdin, stdout } => {
                opened = (
                    File::open(stdin)
                        .map_err(io_error(format!("opening the input {}", stdin.display())))?,
                    create(stdout)?,
                );
                (&opened.0, &opened.1)
            }
            Stdio::Pipes { stdin, stdout } => (stdin, stdout),
        };
        let stderr = create(run.stderr)?;
        let outcome = {
            let cpu_used = || cgroup.as_ref()?.usage().ok().map(|u| u.cpu);
            let cpu_watch = cgroup.as_ref().map(|_| CpuWatch {
                limit: limits.cpu,
                used: &cpu_used,
                parallelism: self.inner.parallelism.min(limits.processes.max(1)),
            });
            jail::run(
                &self.inner.spawner,
                &prepared,
                jail::RunFds {
                    stdin,
                    stdout,
                    stderr: &stderr,
                    net_namespace: net_namespace.as_fd(),
                },
                limits.wall,
                cpu_watch.as_ref(),
            )?
        };
        drop(stderr);

        let usage = match &cgroup {
            Some(group) => Some(
                group
                    .usage()
                    .map_err(io_error("reading the run's cgroup"))?,
            ),
            None => None,
        };
        // Removing the groups (about 0.1 ms, sometimes 0.5) is off the
        // run's path: every process of the run is gone, and the figures are
        // read.
        if let Some(group) = cgroup {
            self.inner.remover.remove(group);
        }
        let cpu = usage.map_or(outcome.rusage_cpu, |u| u.cpu);
        let peak_memory_bytes = usage
            .map(|u| u.peak_memory_bytes)
            .filter(|&peak| peak > 0)
            .unwrap_or(outcome.rusage_peak_kib * 1024);
        let stdout_bytes = match run.stdio {
            Stdio::Files { stdout, .. } => fs::metadata(stdout).map_or(0, |m| m.len()),
            Stdio::Pipes { .. } => 0,
        };
        let termination = match outcome.ending {
            jail::Ending::Exited(code) => Termination::Exited(code),
            jail::Ending::Signaled(signal) => Termination::Signaled(signal),
            jail::Ending::WallLimit | jail::Ending::CpuLimit => Termination::Killed,
            jail::Ending::KeeperDied if usage.is_some_and(|u| u.oom_killed) => {
                Termination::Signaled(libc::SIGKILL)
            }
            jail::Ending::KeeperDied => {
                return Err(SandboxError::Io {
                    what: "the sandbox keeper".into(),
                    cause: io::Error::other("it was killed before it reported the program's end"),
                });
            }
        };
        let signaled = |signal| termination == Termination::Signaled(signal);
        let limit = if usage.is_some_and(|u| u.oom_killed)
            || (usage.is_none()
                && signaled(libc::SIGKILL)
                && peak_memory_bytes >= limits.memory_bytes)
        {
            Some(LimitHit::Memory)
        } else if signaled(libc::SIGXFSZ)
            || stdout_bytes >= limits.output_bytes
            // A runtime that ignores SIGXFSZ (Python does) gets EFBIG
            // instead and may end otherwise: the file's size tells.
            || fs::metadata(run.stderr).is_ok_and(|m| m.len() >= limits.output_bytes)
        {
            Some(LimitHit::Output)
        } else if signaled(libc::SIGXCPU)
            || cpu > limits.cpu
            || outcome.ending == jail::Ending::CpuLimit
        {
            Some(LimitHit::Cpu)
        } else if termination == Termination::Killed {
            Some(LimitHit::Wall)
        } else {
            None
        };
        Ok(RunReport {
            termination,
            limit,
            cpu,
            wall: outcome.wall,
            peak_memory_bytes,
            stdout_bytes,
        })
    }

    /// Runs `/bin/true`, then a shell that must not see the network or the
    /// host's files: the check `serve` makes before it accepts programs, and
    /// the core of `nimjudge sandbox check`.
    pub fn self_test(&self) -> Result<(), SandboxError> {
        let scratch = tempfile::Builder::new()
            .prefix("self-test-")
            .tempdir_in(self.work_dir())
            .map_err(io_error("making the self-test folder"))?;
        let box_dir = scratch.path().join("box");
        fs::create_dir(&box_dir).map_err(io_error("making the self-test box"))?;
        let stdin = scratch.path().join("stdin");
        fs::write(&stdin, "").map_err(io_error("writing the self-test input"))?;
        let argv = [
            "/bin/sh".to_string(),
            "-c".to_string(),
            // Inside, the work folder and the network must be out of reach.
            format!(
                "test ! -e {} && test \"$(cat /proc/net/dev | wc -l)\" -le 3 && echo isolated",
                self.work_dir().display()
            ),
        ];
        let report = self.run(&Run {
            argv: &argv,
            path: &[],
            toolchains: &[],
            box_dir: &box_dir,
            box_writable: false,
            stdio: Stdio::Files {
                stdin: &stdin,
                stdout: &scratch.path().join("stdout"),
            },
            stderr: &scratch.path().join("stderr"),
            limits: Limits {
                cpu: Duration::from_secs(2),
                wall: Duration::from_secs(5),
                memory_bytes: 64 << 20,
                processes: 8,
                output_bytes: 1 << 16,
            },
        })?;
        let mut said = String::new();
        File::open(scratch.path().join("stdout"))
            .and_then(|mut f| f.read_to_string(&mut said))
            .map_err(io_error("reading the self-test output"))?;
        if !report.succeeded() || said.trim() != "isolated" {
            return Err(SandboxError::Io {
                what: "the self-test program".into(),
                cause: io::Error::other(format!(
                    "expected it to exit 0 and print `isolated`, it ended {:?} and printed {said:?}",
                    report.termination
                )),
            });
        }
        Ok(())
    }

    fn prepare(
        &self,
        run: &Run<'_>,
        uid: u32,
        cgroup: Option<&cgroup::RunCgroup>,
    ) -> Result<Prepared, SandboxError> {
        let settings = &self.inner.settings;
        let root = &self.inner.new_root;
        let c = |path: &Path| {
            c_string(path.as_os_str().as_encoded_bytes()).map_err(io_error("a sandbox path"))
        };
        let inside = |path: &Path| root.join(path.strip_prefix("/").unwrap_or(path));
        let mut steps = Vec::new();
        let mut made: Vec<PathBuf> = Vec::new();
        for path in &settings.system_paths {
            match fs::symlink_metadata(path) {
                Ok(meta) if meta.file_type().is_symlink() => {
                    let target = fs::read_link(path)
                        .map_err(io_error(format!("reading the link {}", path.display())))?;
                    steps.push(MountStep::Symlink {
                        target: c(&target)?,
                        link: c(&inside(path))?,
                    });
                }
                Ok(meta) if meta.is_dir() => {
                    steps.push(MountStep::BindDir {
                        source: c(path)?,
                        target: c(&inside(path))?,
                        writable: false,
                    });
                    made.push(path.clone());
                }
                _ => {}
            }
        }
        for toolchain in run.toolchains {
            if made.iter().any(|m| toolchain.starts_with(m)) {
                continue;
            }
            let mut ancestor = PathBuf::from("/");
            let parents: Vec<Component> = toolchain
                .parent()
                .into_iter()
                .flat_map(Path::components)
                .collect();
            for part in parents {
                if let Component::Normal(name) = part {
                    ancestor.push(name);
                    if !made.contains(&ancestor) {
                        steps.push(MountStep::Dir(c(&inside(&ancestor))?));
                        made.push(ancestor.clone());
                    }
                }
            }
            steps.push(MountStep::BindDir {
                source: c(toolchain)?,
                target: c(&inside(toolchain))?,
                writable: false,
            });
            made.push(toolchain.clone());
        }
        steps.push(MountStep::BindDir {
            source: c(run.box_dir)?,
            target: c(&root.join("box"))?,
            writable: run.box_writable,
        });
        steps.push(MountStep::Tmpfs {
            target: c(&root.join("tmp"))?,
            options: c_string(format!("size={},mode=1777", settings.tmp_size_bytes))
                .map_err(io_error("tmpfs options"))?,
        });
        steps.push(MountStep::Tmpfs {
            target: c(&root.join("dev"))?,
            options: c_string("size=64k,mode=755").map_err(io_error("tmpfs options"))?,
        });
        for device in ["null", "zero", "random", "urandom"] {
            steps.push(MountStep::BindFile {
                source: c(&Path::new("/dev").join(device))?,
                target: c(&root.join("dev").join(device))?,
            });
        }
        for (link, target) in [
            ("fd", "/proc/self/fd"),
            ("stdin", "/proc/self/fd/0"),
            ("stdout", "/proc/self/fd/1"),
            ("stderr", "/proc/self/fd/2"),
        ] {
            steps.push(MountStep::Symlink {
                target: c(Path::new(target))?,
                link: c(&root.join("dev").join(link))?,
            });
        }
        steps.push(MountStep::Proc {
            target: c(&root.join("proc"))?,
        });

        let mut path_dirs: Vec<PathBuf> = run.path.to_vec();
        path_dirs.extend(SYSTEM_BIN_DIRS.map(PathBuf::from));
        let program = resolve_program(&run.argv[0], &path_dirs)?;
        let path_var = path_dirs
            .iter()
            .map(|p| p.display().to_string())
            .collect::<Vec<_>>()
            .join(":");
        let envp = [
            format!("PATH={path_var}"),
            "HOME=/tmp".to_string(),
            "TMPDIR=/tmp".to_string(),
            "LANG=C.UTF-8".to_string(),
        ];
        let limits = run.limits;
        let has_memory_cgroup = cgroup.is_some();
        Ok(Prepared {
            new_root: c(root)?,
            root_options: c_string("size=1m,mode=755").map_err(io_error("tmpfs options"))?,
            steps,
            cgroup_procs: cgroup
                .map(|g| g.procs_files())
                .unwrap_or_default()
                .iter()
                .map(|p| c(p))
                .collect::<Result<_, _>>()?,
            workdir: c(Path::new("/box"))?,
            program: c(&program)?,
            argv: run
                .argv
                .iter()
                .map(|a| c_string(a.as_bytes()).map_err(io_error("an argument")))
                .collect::<Result<_, _>>()?,
            envp: envp
                .iter()
                .map(|e| c_string(e.as_bytes()).map_err(io_error("an environment variable")))
                .collect::<Result<_, _>>()?,
            uid,
            rlimits: Rlimits {
                cpu_seconds: limits.cpu.as_secs() + 1,
                stack_bytes: limits.memory_bytes,
                file_size_bytes: limits.output_bytes,
                processes: u64::from(limits.processes),
                open_files: 256,
                address_space_bytes: (!has_memory_cgroup).then_some(limits.memory_bytes),
            },
        })
    }
}

/// `name` as a path: itself if it holds a `/`, else the first executable
/// `dir/name`. The folders searched are bound at the same paths inside.
fn resolve_program(name: &str, path: &[PathBuf]) -> Result<PathBuf, SandboxError> {
    if name.contains('/') {
        return Ok(PathBuf::from(name));
    }
    path.iter()
        .map(|dir| dir.join(name))
        .find(|candidate| {
            fs::metadata(candidate)
                .is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
        })
        .ok_or_else(|| SandboxError::ProgramNotFound(name.to_string()))
}

/// A uid taken from the pool for one run, returned on drop.
struct UidLease<'a>(u32, &'a Inner);

impl<'a> UidLease<'a> {
    /// Takes a free uid, waiting while every one is in use (more runs in
    /// flight than `uid_count`).
    fn take(inner: &'a Inner) -> UidLease<'a> {
        let mut free = inner.free_uids.lock().unwrap_or_else(|e| e.into_inner());
        loop {
            if let Some(uid) = free.pop_front() {
                return UidLease(uid, inner);
            }
            free = inner
                .uid_returned
                .wait(free)
                .unwrap_or_else(|e| e.into_inner());
        }
    }
}

impl Drop for UidLease<'_> {
    fn drop(&mut self) {
        self.1
            .free_uids
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push_back(self.0);
        self.1.uid_returned.notify_one();
    }
}

#[cfg(test)]
mod tests;
