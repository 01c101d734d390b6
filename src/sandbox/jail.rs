//! Starting one program inside fresh namespaces. This and the spawner's
//! start are the only `unsafe` code in nimjudge, small on purpose.
//!
//! The keeper is cloned by the sandbox's spawner (see [`super::spawner`]),
//! a small single-threaded process, not by the daemon. Still, the cloned
//! processes call nothing that takes a lock or allocates: everything they
//! need (paths, argv, envp, limits, descriptors) is prepared beforehand in
//! [`Prepared`], and they only make system calls.
//!
//! The shape of a run, as in isolate (CMS) and go-judge:
//! - The spawner clones a **keeper** into new mount, PID, IPC and UTS
//!   namespaces. The keeper is PID 1 of its namespace and root. It joins a
//!   fresh network namespace made for this run alone (no interface but a
//!   downed loopback) and the run's cgroups, then makes its cgroup
//!   namespace (so the run's group is its root), builds a new root on a
//!   tmpfs (read-only binds of the system's libraries and toolchains, the
//!   box folder, a private `/tmp`, a minimal `/dev`, a fresh `/proc` that
//!   hides other users' processes), pivots into it and remounts it
//!   read-only.
//! - The keeper starts the **program** process (sharing its memory until
//!   exec, as posix_spawn does), which closes every inherited
//!   descriptor but its stdio, sets its rlimits, drops to the run's
//!   unprivileged uid with no_new_privs, and execs.
//! - The keeper reaps until the program exits, reports its wait status and
//!   rusage through a pipe to the daemon, and exits; as PID 1 its exit
//!   kills whatever the program left behind. The daemon enforces the
//!   wall-clock limit, and the CPU limit as the run's cgroup measures it,
//!   by killing the keeper through its pidfd.
//!
//! Nothing outlives the daemon: the spawner ends when the daemon does; the
//! keeper asks for `SIGKILL` when the spawner dies (`PR_SET_PDEATHSIG`),
//! then checks that the daemon had not died already, before it asked: the
//! spawner's socket to the daemon, which the keeper inherits, must not have
//! hung up. As a second guard that needs neither, the keeper ends itself
//! (and so the whole run) by `alarm`, one to two seconds past the wall
//! limit (`alarm` counts whole seconds).

use std::{
    ffi::CString,
    fs::File,
    io,
    mem::MaybeUninit,
    os::fd::{AsFd, AsRawFd, BorrowedFd, FromRawFd, OwnedFd},
    time::{Duration, Instant},
};

use libc::{c_int, c_void};
use serde::{Deserialize, Serialize};

use super::{
    seccomp::Policy,
    spawner::{REQUEST_FDS, SpawnError, Spawner},
};

/// One step of building the new root, with paths as the keeper sees them
/// before it pivots (under the new root's mount point).
#[derive(Debug, Serialize, Deserialize)]
pub enum MountStep {
    Dir(CString),
    Symlink {
        target: CString,
        link: CString,
    },
    /// A folder bound read-only unless `writable`.
    BindDir {
        source: CString,
        target: CString,
        writable: bool,
    },
    /// A device file such as `/dev/null`, bound onto an empty file.
    BindFile {
        source: CString,
        target: CString,
    },
    Tmpfs {
        target: CString,
        options: CString,
    },
    Proc {
        target: CString,
    },
}

/// Resource limits set with setrlimit in the program process.
#[derive(Debug, Clone, Copy, Serialize, Deserialize)]
pub struct Rlimits {
    pub cpu_seconds: u64,
    pub stack_bytes: u64,
    pub file_size_bytes: u64,
    pub processes: u64,
    pub open_files: u64,
    /// Address-space limit, used only when there is no memory cgroup.
    pub address_space_bytes: Option<u64>,
}

/// Everything the cloned keeper and program need but their descriptors
/// and the seccomp policy, built by the daemon and sent to the spawner.
#[derive(Debug, Serialize, Deserialize)]
pub struct Prepared {
    pub new_root: CString,
    pub root_options: CString,
    pub steps: Vec<MountStep>,
    pub cgroup_procs: Vec<CString>,
    pub workdir: CString,
    pub program: CString,
    pub argv: Vec<CString>,
    pub envp: Vec<CString>,
    pub uid: u32,
    pub rlimits: Rlimits,
}

/// How the parent watches a run's CPU time while it goes on.
pub struct CpuWatch<'a> {
    pub limit: Duration,
    /// CPU time of every process of the run so far (the run's cgroup).
    pub used: &'a dyn Fn() -> Option<Duration>,
    /// CPUs the run's processes may use at once: the CPU time can grow at
    /// most this much faster than the wall clock.
    pub parallelism: u32,
}

/// How the program ended, as the keeper saw it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ending {
    Exited(i32),
    Signaled(i32),
    /// Killed by the parent at the wall-clock limit.
    WallLimit,
    /// Killed by the parent when the run's CPU time reached its limit.
    CpuLimit,
    /// The keeper itself was killed before it could report.
    KeeperDied,
}

/// What the parent learnt of one run.
#[derive(Debug, Clone, Copy)]
pub struct Outcome {
    pub ending: Ending,
    pub wall: Duration,
    /// User plus system time of the program process (not its children),
    /// from wait4: the fallback when there is no CPU accounting cgroup.
    pub rusage_cpu: Duration,
    pub rusage_peak_kib: u64,
}

/// Why a run could not be started (not the program's fault).
#[derive(Debug, thiserror::Error)]
pub enum JailError {
    #[error("{step}: {cause}")]
    Setup {
        step: &'static str,
        cause: io::Error,
    },
}

const REPORT_EXITED: i32 = 1;
const REPORT_KEEPER_FAILED: i32 = 2;
const REPORT_EXEC_FAILED: i32 = 3;

/// The keeper's and the program's message to the parent: fixed size, so
/// one `write` is atomic on a pipe.
#[repr(C)]
#[derive(Clone, Copy, Default)]
struct Report {
    tag: i32,
    step: i32,
    errno: i32,
    status: i32,
    user_us: i64,
    system_us: i64,
    peak_kib: i64,
}

/// The steps the keeper and program take, named for error messages; a
/// report carries the index.
const STEPS: &[&str] = &[
    "joining the run's cgroup",
    "making the mount tree private",
    "mounting the new root",
    "building the new root",
    "pivoting into the new root",
    "remounting the new root read-only",
    "setting the hostname",
    "starting the program",
    "waiting for the program",
    "redirecting stdio",
    "setting resource limits",
    "dropping privileges",
    "executing the program",
    "joining the run's network namespace",
    "installing the seccomp filter",
    "asking to die with the daemon",
    "making the run's cgroup namespace",
    "cloning into new namespaces",
];

/// The name of step `index` of [`STEPS`], for a report or the spawner's
/// answer.
pub fn step_name(index: i32) -> &'static str {
    usize::try_from(index)
        .ok()
        .and_then(|i| STEPS.get(i))
        .copied()
        .unwrap_or("an unknown step")
}

/// The descriptors of one run, in the daemon.
pub struct RunFds<'a> {
    pub stdin: &'a File,
    pub stdout: &'a File,
    pub stderr: &'a File,
    /// A fresh network namespace for this run alone, joined by the keeper.
    pub net_namespace: BorrowedFd<'a>,
}

/// Runs `prepared` with the given descriptors, its keeper started by
/// `spawner`, killing it after `wall_limit`, or when `cpu` says its CPU
/// time reached the limit.
pub fn run(
    spawner: &Spawner,
    prepared: &Prepared,
    fds: RunFds<'_>,
    wall_limit: Duration,
    cpu: Option<&CpuWatch<'_>>,
) -> Result<Outcome, JailError> {
    let (read_end, write_end) = pipe().map_err(|source| JailError::Setup {
        step: "creating the report pipe",
        cause: source,
    })?;
    let alarm_seconds = u32::try_from(wall_limit.as_secs() + 2).unwrap_or(u32::MAX);
    let started = Instant::now();
    let keeper = spawner
        .spawn(
            prepared,
            alarm_seconds,
            [
                fds.stdin.as_fd(),
                fds.stdout.as_fd(),
                fds.stderr.as_fd(),
                write_end.as_fd(),
                fds.net_namespace,
            ],
        )
        .map_err(|e| match e {
            SpawnError::Keeper { step, cause } => JailError::Setup { step, cause },
            other => JailError::Setup {
                step: "starting the keeper",
                cause: io::Error::other(other),
            },
        })?;
    drop(write_end);
    let (reports, stopped) = read_reports(&read_end, wall_limit, cpu);
    if stopped.is_some() {
        // Through the pidfd: the keeper is the spawner's child, and a pid
        // could have been reused by now, a pidfd cannot.
        let _ = rustix::process::pidfd_send_signal(&keeper, rustix::process::Signal::KILL);
    }
    let wall = started.elapsed();
    wait_for_exit(&keeper);

    let mut outcome = Outcome {
        ending: stopped.unwrap_or(Ending::WallLimit),
        wall,
        rusage_cpu: Duration::ZERO,
        rusage_peak_kib: 0,
    };
    for report in &reports {
        match report.tag {
            REPORT_EXITED => {
                outcome.ending = if libc::WIFSIGNALED(report.status) {
                    Ending::Signaled(libc::WTERMSIG(report.status))
                } else {
                    Ending::Exited(libc::WEXITSTATUS(report.status))
                };
                let micros = |us: i64| Duration::from_micros(u64::try_from(us).unwrap_or(0));
                outcome.rusage_cpu = micros(report.user_us) + micros(report.system_us);
                outcome.rusage_peak_kib = u64::try_from(report.peak_kib).unwrap_or(0);
            }
            REPORT_KEEPER_FAILED | REPORT_EXEC_FAILED => {
                return Err(JailError::Setup {
                    step: step_name(report.step),
                    cause: io::Error::from_raw_os_error(report.errno),
                });
            }
            _ => {}
        }
    }
    if stopped.is_none() && !reports.iter().any(|r| r.tag == REPORT_EXITED) {
        // Killed from outside (the OOM killer, an operator): the caller
        // decides with what it knows of the run's cgroup.
        outcome.ending = Ending::KeeperDied;
    }
    Ok(outcome)
}

/// Waits until the keeper has exited (its pidfd becomes readable), so that
/// every process of the run is gone when the caller reads its cgroup.
fn wait_for_exit(pidfd: &OwnedFd) {
    let mut poll = libc::pollfd {
        fd: pidfd.as_raw_fd(),
        events: libc::POLLIN,
        revents: 0,
    };
    loop {
        // SAFETY: one valid pollfd.
        let ready = unsafe { libc::poll(&raw mut poll, 1, -1) };
        if ready > 0 || io::Error::last_os_error().kind() != io::ErrorKind::Interrupted {
            return;
        }
    }
}

/// Stacks for the keeper and, until it execs, the program process (see
/// `keeper`), made once by the spawner: each keeper gets a copy of the
/// spawner's memory, so the same stacks serve every clone. Left unwritten,
/// so that only the pages the two touch are ever made (zeroing them cost a
/// run about 0.1 ms of page faults).
pub struct Stacks {
    keeper: Box<[MaybeUninit<u8>]>,
    program: Box<[MaybeUninit<u8>]>,
}

impl Stacks {
    pub fn new() -> Stacks {
        Stacks {
            keeper: Box::<[u8]>::new_uninit_slice(256 * 1024),
            program: Box::<[u8]>::new_uninit_slice(64 * 1024),
        }
    }
}

/// In the spawner: clones the keeper of `prepared` with `fds` (stdin,
/// stdout, stderr, the report pipe's write end, the network namespace) and
/// returns its pidfd; on failure, the step's index and the error.
pub fn start_keeper(
    prepared: &Prepared,
    policy: &Policy,
    stacks: &mut Stacks,
    alarm_seconds: u32,
    fds: &[OwnedFd; REQUEST_FDS],
    lifeline: BorrowedFd<'_>,
) -> Result<OwnedFd, (i32, io::Error)> {
    let argv = null_terminated(&prepared.argv);
    let envp = null_terminated(&prepared.envp);
    let child = ChildArgs {
        prepared,
        argv: &argv,
        envp: &envp,
        stdio: [fds[0].as_raw_fd(), fds[1].as_raw_fd(), fds[2].as_raw_fd()],
        report: fds[3].as_raw_fd(),
        net_namespace: fds[4].as_raw_fd(),
        lifeline: lifeline.as_raw_fd(),
        filter: &policy.filter,
        alarm_seconds,
        program_stack_top: stack_top(&mut stacks.program),
    };
    // No CLONE_NEWNET: the keeper joins a fresh namespace made ahead (see
    // `ahead::Stock`). No CLONE_NEWCGROUP: the keeper unshares it
    // once it is in the run's cgroup, so the run sees that group as its
    // root (`0::/`), not the daemon's pid and run number.
    let flags = libc::CLONE_NEWNS
        | libc::CLONE_NEWPID
        | libc::CLONE_NEWIPC
        | libc::CLONE_NEWUTS
        | libc::CLONE_PIDFD
        | libc::SIGCHLD;
    let mut pidfd: c_int = -1;
    // SAFETY: the child is a separate process with its own copy of the
    // stacks and of `child`; `keeper_main` makes only system calls on data
    // prepared above. With CLONE_PIDFD the kernel writes the pidfd to the
    // parent-tid argument.
    let pid = unsafe {
        libc::clone(
            keeper_main,
            stack_top(&mut stacks.keeper),
            flags,
            (&raw const child).cast_mut().cast::<c_void>(),
            &raw mut pidfd,
        )
    };
    if pid < 0 || pidfd < 0 {
        return Err((17, io::Error::last_os_error()));
    }
    // SAFETY: CLONE_PIDFD made this descriptor for us alone.
    Ok(unsafe { OwnedFd::from_raw_fd(pidfd) })
}

struct ChildArgs<'a> {
    prepared: &'a Prepared,
    argv: &'a [*const libc::c_char],
    envp: &'a [*const libc::c_char],
    stdio: [c_int; 3],
    report: c_int,
    net_namespace: c_int,
    /// The spawner's socket to the daemon: hung up once the daemon is gone.
    lifeline: c_int,
    /// The seccomp program the program installs just before exec.
    filter: &'a seccompiler::BpfProgram,
    /// The keeper's own deadline, past the daemon's wall limit.
    alarm_seconds: u32,
    /// Where the program process's stack starts (it grows down).
    program_stack_top: *mut c_void,
}

/// The 16-byte aligned top of `stack`, for a cloned process to grow down from.
fn stack_top(stack: &mut [MaybeUninit<u8>]) -> *mut c_void {
    let end = stack.as_mut_ptr_range().end;
    end.wrapping_sub(end as usize % 16).cast()
}

fn null_terminated(strings: &[CString]) -> Vec<*const libc::c_char> {
    strings
        .iter()
        .map(|s| s.as_ptr())
        .chain(std::iter::once(std::ptr::null()))
        .collect()
}

fn pipe() -> io::Result<(OwnedFd, OwnedFd)> {
    let mut fds = [0 as c_int; 2];
    // SAFETY: `fds` has room for the two descriptors pipe2 writes.
    if unsafe { libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC) } != 0 {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: pipe2 succeeded, so both are fresh descriptors we own.
    Ok(unsafe { (OwnedFd::from_raw_fd(fds[0]), OwnedFd::from_raw_fd(fds[1])) })
}

/// The shortest wait between two readings of a run's CPU time: a run is
/// stopped within about this much of its CPU limit.
const CPU_CHECK_FLOOR: Duration = Duration::from_millis(10);

/// Reads reports until the keeper closes the pipe (it exited), the wall
/// limit passes or the CPU limit is reached; in the second place, which
/// limit stopped it, if one did.
fn read_reports(
    read_end: &OwnedFd,
    wall_limit: Duration,
    cpu: Option<&CpuWatch<'_>>,
) -> (Vec<Report>, Option<Ending>) {
    let started = Instant::now();
    let deadline = started + wall_limit;
    // The CPU time cannot reach the limit before this: it grows at most
    // `parallelism` times as fast as the wall clock. Checked then, and
    // again after what is left of the limit at that pace, so a run is
    // read a handful of times (about log2(limit / floor)), not every tick.
    let mut next_cpu_check =
        cpu.map(|watch| started + (watch.limit / watch.parallelism.max(1)).max(CPU_CHECK_FLOOR));
    let mut reports = Vec::new();
    let mut buffer = [0u8; std::mem::size_of::<Report>()];
    let mut filled = 0;
    loop {
        let now = Instant::now();
        if let (Some(watch), Some(at)) = (cpu, next_cpu_check)
            && now >= at
        {
            match (watch.used)() {
                Some(used) if used >= watch.limit => return (reports, Some(Ending::CpuLimit)),
                Some(used) => {
                    let pace = (watch.limit - used) / watch.parallelism.max(1);
                    next_cpu_check = Some(now + pace.max(CPU_CHECK_FLOOR));
                }
                // Unreadable: the rlimit remains as a backstop.
                None => next_cpu_check = None,
            }
        }
        let left = deadline.saturating_duration_since(now);
        if left.is_zero() {
            return (reports, Some(Ending::WallLimit));
        }
        let left = next_cpu_check.map_or(left, |at| left.min(at.saturating_duration_since(now)));
        let mut poll = libc::pollfd {
            fd: read_end.as_raw_fd(),
            events: libc::POLLIN,
            revents: 0,
        };
        let millis = c_int::try_from(left.as_millis() + 1).unwrap_or(c_int::MAX);
        // SAFETY: one valid pollfd.
        let ready = unsafe { libc::poll(&raw mut poll, 1, millis) };
        if ready < 0 {
            if io::Error::last_os_error().kind() == io::ErrorKind::Interrupted {
                continue;
            }
            return (reports, None);
        }
        if ready == 0 {
            continue;
        }
        // SAFETY: reading into the unfilled tail of `buffer`.
        let n = unsafe {
            libc::read(
                read_end.as_raw_fd(),
                buffer[filled..].as_mut_ptr().cast::<c_void>(),
                buffer.len() - filled,
            )
        };
        if n < 0 {
            if io::Error::last_os_error().kind() == io::ErrorKind::Interrupted {
                continue;
            }
            return (reports, None);
        }
        if n == 0 {
            return (reports, None);
        }
        filled += n.unsigned_abs();
        if filled == buffer.len() {
            // SAFETY: Report is plain old data and the buffer is its size.
            let report: Report = unsafe { std::ptr::read_unaligned(buffer.as_ptr().cast()) };
            reports.push(report);
            filled = 0;
            // Every report but a future kind is final. Waiting for the end
            // of the pipe instead would also wait for a concurrent run's
            // keeper, which inherits the descriptor for a moment.
            if matches!(
                report.tag,
                REPORT_EXITED | REPORT_KEEPER_FAILED | REPORT_EXEC_FAILED
            ) {
                return (reports, None);
            }
        }
    }
}

// ---- Below here runs in the cloned processes: system calls only. ----

fn errno() -> c_int {
    // SAFETY: reading the thread's errno.
    unsafe { *libc::__errno_location() }
}

/// Sends a report to the parent. A failed write has nowhere to go.
fn send(fd: c_int, report: &Report) {
    // SAFETY: writing a plain-old-data struct of its own size.
    unsafe {
        libc::write(
            fd,
            std::ptr::from_ref(report).cast::<c_void>(),
            std::mem::size_of::<Report>(),
        );
    }
}

fn fail(fd: c_int, tag: i32, step: usize) -> ! {
    let report = Report {
        tag,
        step: step as i32,
        errno: errno(),
        ..Report::default()
    };
    send(fd, &report);
    // SAFETY: leaving the cloned process without running any destructor.
    unsafe { libc::_exit(127) }
}

fn ok(result: c_int) -> bool {
    result >= 0
}

extern "C" fn keeper_main(arg: *mut c_void) -> c_int {
    // SAFETY: `arg` points at the ChildArgs of the parent's stack frame,
    // copied into this process by clone and alive until it exits.
    let args = unsafe { &*arg.cast::<ChildArgs<'_>>() };
    // SAFETY: every call below is a plain system call on prepared data.
    unsafe { keeper(args) }
}

unsafe fn keeper(args: &ChildArgs<'_>) -> c_int {
    let p = args.prepared;
    let report = args.report;
    unsafe {
        libc::prctl(libc::PR_SET_NAME, c"sandbox-keeper".as_ptr(), 0, 0, 0);
        // The spawner ignores SIGCHLD (the kernel reaps keepers for it);
        // this process must see its program's end.
        libc::signal(libc::SIGCHLD, libc::SIG_DFL);
        // Die with the spawner; then make sure the daemon was not gone
        // already, before the request: the spawner's socket hangs up
        // once the daemon's end is closed.
        if libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL, 0, 0, 0) != 0 {
            fail(report, REPORT_KEEPER_FAILED, 15);
        }
        let mut lifeline = libc::pollfd {
            fd: args.lifeline,
            events: libc::POLLRDHUP,
            revents: 0,
        };
        if libc::poll(&raw mut lifeline, 1, 0) < 0
            || lifeline.revents & (libc::POLLHUP | libc::POLLRDHUP | libc::POLLERR) != 0
        {
            libc::_exit(126);
        }
        // A guard that needs no daemon: as PID 1 of its namespace the
        // keeper ignores signals it has no handler for, so it takes one.
        libc::signal(
            libc::SIGALRM,
            keeper_deadline as extern "C" fn(c_int) as libc::sighandler_t,
        );
        libc::alarm(args.alarm_seconds);
        // The clone copied every descriptor of the spawner, its socket
        // among them: keep only this run's.
        if libc::setns(args.net_namespace, libc::CLONE_NEWNET) != 0 {
            fail(report, REPORT_KEEPER_FAILED, 13);
        }
        close_all_except([args.stdio[0], args.stdio[1], args.stdio[2], report]);
        // The keeper shares the run's memory cgroup but must never be the
        // OOM killer's choice: its end would end the run's report.
        // The program sets its own score back to 0.
        set_oom_score(c"-1000");
        for procs in &p.cgroup_procs {
            let fd = libc::open(procs.as_ptr(), libc::O_WRONLY | libc::O_CLOEXEC);
            if fd < 0 || libc::write(fd, c"0".as_ptr().cast::<c_void>(), 1) != 1 {
                fail(report, REPORT_KEEPER_FAILED, 0);
            }
            libc::close(fd);
        }
        if libc::unshare(libc::CLONE_NEWCGROUP) != 0 {
            fail(report, REPORT_KEEPER_FAILED, 16);
        }
        let null = std::ptr::null::<libc::c_char>();
        if !ok(libc::mount(
            null,
            c"/".as_ptr(),
            null,
            libc::MS_REC | libc::MS_PRIVATE,
            null.cast(),
        )) {
            fail(report, REPORT_KEEPER_FAILED, 1);
        }
        if !ok(libc::mount(
            c"tmpfs".as_ptr(),
            p.new_root.as_ptr(),
            c"tmpfs".as_ptr(),
            libc::MS_NOSUID | libc::MS_NODEV,
            p.root_options.as_ptr().cast(),
        )) {
            fail(report, REPORT_KEEPER_FAILED, 2);
        }
        for step in &p.steps {
            if !mount_step(step) {
                fail(report, REPORT_KEEPER_FAILED, 3);
            }
        }
        if !ok(libc::chdir(p.new_root.as_ptr()))
            || !ok(libc::syscall(libc::SYS_pivot_root, c".".as_ptr(), c".".as_ptr()) as c_int)
            || !ok(libc::umount2(c".".as_ptr(), libc::MNT_DETACH))
            || !ok(libc::chdir(c"/".as_ptr()))
        {
            fail(report, REPORT_KEEPER_FAILED, 4);
        }
        if !ok(libc::mount(
            null,
            c"/".as_ptr(),
            null,
            libc::MS_REMOUNT | libc::MS_RDONLY | libc::MS_NOSUID | libc::MS_NODEV,
            null.cast(),
        )) {
            fail(report, REPORT_KEEPER_FAILED, 5);
        }
        let host = c"sandbox";
        if !ok(libc::sethostname(host.as_ptr(), host.to_bytes().len())) {
            fail(report, REPORT_KEEPER_FAILED, 6);
        }
        // The program process borrows this memory until it execs, as
        // posix_spawn's child does (CLONE_VM | CLONE_VFORK: the keeper
        // waits meanwhile), so no copy of the daemon's page tables is made
        // for it. No glibc fork: its atfork handlers take the allocator's
        // locks, which nothing here may touch.
        let pid = libc::clone(
            program_main,
            args.program_stack_top,
            libc::CLONE_VM | libc::CLONE_VFORK | libc::SIGCHLD,
            std::ptr::from_ref(args).cast_mut().cast::<c_void>(),
        );
        if pid < 0 {
            fail(report, REPORT_KEEPER_FAILED, 7);
        }
        loop {
            let mut status = 0;
            let mut usage: libc::rusage = std::mem::zeroed();
            let reaped = libc::wait4(-1, &raw mut status, 0, &raw mut usage);
            if reaped == pid {
                let micros = |t: libc::timeval| t.tv_sec * 1_000_000 + t.tv_usec;
                send(
                    report,
                    &Report {
                        tag: REPORT_EXITED,
                        status,
                        user_us: micros(usage.ru_utime),
                        system_us: micros(usage.ru_stime),
                        peak_kib: usage.ru_maxrss,
                        ..Report::default()
                    },
                );
                libc::_exit(0);
            }
            if reaped < 0 && errno() != libc::EINTR {
                fail(report, REPORT_KEEPER_FAILED, 8);
            }
        }
    }
}

/// The keeper's `SIGALRM` handler: the run is long past its wall limit and
/// nobody stopped it, so the daemon is gone. Exiting ends the namespace.
extern "C" fn keeper_deadline(_: c_int) {
    // SAFETY: _exit is async-signal-safe.
    unsafe { libc::_exit(125) }
}

/// Writes this process's OOM score adjustment; a failure only makes the
/// keeper a possible OOM victim, which the parent reports as such.
unsafe fn set_oom_score(value: &std::ffi::CStr) {
    unsafe {
        let fd = libc::open(
            c"/proc/self/oom_score_adj".as_ptr(),
            libc::O_WRONLY | libc::O_CLOEXEC,
        );
        if fd >= 0 {
            libc::write(fd, value.as_ptr().cast::<c_void>(), value.to_bytes().len());
            libc::close(fd);
        }
    }
}

/// Closes every descriptor from 3 up except `keep`.
unsafe fn close_all_except(mut keep: [c_int; 4]) {
    // An insertion sort: no allocation in the cloned process.
    for i in 1..keep.len() {
        let mut j = i;
        while j > 0 && keep[j - 1] > keep[j] {
            keep.swap(j - 1, j);
            j -= 1;
        }
    }
    let mut from: c_int = 3;
    for fd in keep {
        if fd >= from {
            if fd > from {
                // SAFETY: closing descriptors, no memory is touched.
                unsafe { libc::syscall(libc::SYS_close_range, from as u32, (fd - 1) as u32, 0u32) };
            }
            from = fd + 1;
        }
    }
    // SAFETY: as above.
    unsafe { libc::syscall(libc::SYS_close_range, from as u32, u32::MAX, 0u32) };
}

unsafe fn mount_step(step: &MountStep) -> bool {
    let null = std::ptr::null::<libc::c_char>();
    let bind_flags = libc::MS_BIND | libc::MS_REC;
    let readonly =
        libc::MS_BIND | libc::MS_REMOUNT | libc::MS_RDONLY | libc::MS_NOSUID | libc::MS_NODEV;
    unsafe {
        match step {
            MountStep::Dir(path) => {
                ok(libc::mkdir(path.as_ptr(), 0o755)) || errno() == libc::EEXIST
            }
            MountStep::Symlink { target, link } => {
                ok(libc::symlink(target.as_ptr(), link.as_ptr()))
            }
            MountStep::BindDir {
                source,
                target,
                writable,
            } => {
                (ok(libc::mkdir(target.as_ptr(), 0o755)) || errno() == libc::EEXIST)
                    && ok(libc::mount(
                        source.as_ptr(),
                        target.as_ptr(),
                        null,
                        bind_flags,
                        null.cast(),
                    ))
                    && (ok(libc::mount(
                        null,
                        target.as_ptr(),
                        null,
                        if *writable {
                            libc::MS_BIND | libc::MS_REMOUNT | libc::MS_NOSUID | libc::MS_NODEV
                        } else {
                            readonly
                        },
                        null.cast(),
                    )))
            }
            MountStep::BindFile { source, target } => {
                let fd = libc::open(
                    target.as_ptr(),
                    libc::O_WRONLY | libc::O_CREAT | libc::O_CLOEXEC,
                    0o644,
                );
                fd >= 0
                    && libc::close(fd) == 0
                    && ok(libc::mount(
                        source.as_ptr(),
                        target.as_ptr(),
                        null,
                        libc::MS_BIND,
                        null.cast(),
                    ))
            }
            MountStep::Tmpfs { target, options } => {
                (ok(libc::mkdir(target.as_ptr(), 0o755)) || errno() == libc::EEXIST)
                    && ok(libc::mount(
                        c"tmpfs".as_ptr(),
                        target.as_ptr(),
                        c"tmpfs".as_ptr(),
                        libc::MS_NOSUID | libc::MS_NODEV,
                        options.as_ptr().cast(),
                    ))
            }
            MountStep::Proc { target } => {
                (ok(libc::mkdir(target.as_ptr(), 0o555)) || errno() == libc::EEXIST)
                    && ok(libc::mount(
                        c"proc".as_ptr(),
                        target.as_ptr(),
                        c"proc".as_ptr(),
                        libc::MS_NOSUID | libc::MS_NODEV | libc::MS_NOEXEC,
                        // Processes of other users (the keeper, root: a
                        // copy of the spawner) are invisible to the
                        // program.
                        c"hidepid=2".as_ptr().cast(),
                    ))
            }
        }
    }
}

extern "C" fn program_main(arg: *mut c_void) -> c_int {
    // SAFETY: `arg` points at the keeper's ChildArgs, whose memory this
    // process shares while the keeper waits for it to exec or exit.
    let args = unsafe { &*arg.cast::<ChildArgs<'_>>() };
    // SAFETY: as for the keeper; `program` never returns.
    unsafe { program(args) }
}

/// The program process: stdio, a clean descriptor table and signal state,
/// limits, an unprivileged uid, exec. Never returns.
unsafe fn program(args: &ChildArgs<'_>) -> ! {
    let p = args.prepared;
    unsafe {
        let mut report = args.report;
        for (target, &source) in args.stdio.iter().enumerate() {
            if libc::dup2(source, target as c_int) < 0 {
                fail(report, REPORT_EXEC_FAILED, 9);
            }
        }
        // The report pipe moves to descriptor 3 (closed by exec), and every
        // other inherited descriptor (the daemon's database, its sockets)
        // is closed.
        if report != 3 {
            if libc::dup3(report, 3, libc::O_CLOEXEC) < 0 {
                fail(report, REPORT_EXEC_FAILED, 9);
            }
            report = 3;
        }
        if libc::syscall(libc::SYS_close_range, 4u32, u32::MAX, 0u32) != 0 {
            fail(report, REPORT_EXEC_FAILED, 9);
        }
        set_oom_score(c"0");
        // Ignored signals stay ignored across exec (the daemon ignores
        // SIGPIPE); blocked ones stay blocked.
        for signal in 1..32 {
            if signal != libc::SIGKILL && signal != libc::SIGSTOP {
                libc::signal(signal, libc::SIG_DFL);
            }
        }
        let mut empty: libc::sigset_t = std::mem::zeroed();
        libc::sigemptyset(&raw mut empty);
        libc::sigprocmask(libc::SIG_SETMASK, &raw const empty, std::ptr::null_mut());

        let r = p.rlimits;
        let limit = |resource, soft: u64, hard: u64| {
            let value = libc::rlimit {
                rlim_cur: soft,
                rlim_max: hard,
            };
            libc::setrlimit(resource, &raw const value) == 0
        };
        let set = limit(libc::RLIMIT_CPU, r.cpu_seconds, r.cpu_seconds + 1)
            && limit(libc::RLIMIT_STACK, r.stack_bytes, r.stack_bytes)
            && limit(libc::RLIMIT_FSIZE, r.file_size_bytes, r.file_size_bytes)
            && limit(libc::RLIMIT_NPROC, r.processes, r.processes)
            && limit(libc::RLIMIT_NOFILE, r.open_files, r.open_files)
            && limit(libc::RLIMIT_CORE, 0, 0)
            && r.address_space_bytes
                .is_none_or(|bytes| limit(libc::RLIMIT_AS, bytes, bytes));
        if !set {
            fail(report, REPORT_EXEC_FAILED, 10);
        }
        // Raw system calls: glibc's wrappers would signal every other thread
        // its bookkeeping lists (a cloned process has none of them) to
        // change their credentials too, and wait for them.
        if libc::chdir(p.workdir.as_ptr()) != 0
            || libc::syscall(libc::SYS_setgroups, 0, std::ptr::null::<libc::gid_t>()) != 0
            || libc::syscall(libc::SYS_setresgid, p.uid, p.uid, p.uid) != 0
            || libc::syscall(libc::SYS_setresuid, p.uid, p.uid, p.uid) != 0
            || libc::prctl(libc::PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0
        {
            fail(report, REPORT_EXEC_FAILED, 11);
        }
        // Last before exec: from here on every call goes through the filter.
        let filter = args.filter;
        let program = libc::sock_fprog {
            len: filter.len() as libc::c_ushort,
            filter: filter.as_ptr().cast_mut().cast::<libc::sock_filter>(),
        };
        if libc::syscall(
            libc::SYS_seccomp,
            libc::SECCOMP_SET_MODE_FILTER,
            0,
            &raw const program,
        ) != 0
        {
            fail(report, REPORT_EXEC_FAILED, 14);
        }
        libc::execve(p.program.as_ptr(), args.argv.as_ptr(), args.envp.as_ptr());
        fail(report, REPORT_EXEC_FAILED, 12);
    }
}

/// A C string from a path or argument that must not hold a NUL byte.
pub fn c_string(text: impl Into<Vec<u8>>) -> io::Result<CString> {
    CString::new(text).map_err(|e| {
        io::Error::new(
            io::ErrorKind::InvalidInput,
            format!("a sandbox path or argument holds a NUL byte: {e}"),
        )
    })
}
