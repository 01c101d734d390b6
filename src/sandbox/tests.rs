//! The sandbox against programs that misbehave. These run only trusted
//! shell one-liners written here, and only inside the sandbox. They need root.

use super::*;

struct Scratch {
    _dir: tempfile::TempDir,
    sandbox: Sandbox,
    box_dir: PathBuf,
    io: PathBuf,
    uids: std::ops::Range<u32>,
}

/// Above `nobody` (65534), which the sandbox refuses as a pool uid.
const FIRST_TEST_UID: u32 = 70_000;

/// Each test's sandbox gets uids of its own, so parallel tests do not
/// share a per-uid process limit or see each other's processes: blocks of
/// 8 counted within the process and, for runners that start a process a
/// test (nextest), apart by process id.
fn scratch() -> Scratch {
    static NEXT_UID_BLOCK: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);
    let block = (std::process::id() % 4096) * 64
        + NEXT_UID_BLOCK.fetch_add(1, std::sync::atomic::Ordering::Relaxed) % 64;
    let dir = tempfile::tempdir().expect("a temporary folder");
    let sandbox = Sandbox::new(SandboxSettings {
        work_dir: dir.path().join("work"),
        first_uid: FIRST_TEST_UID + 8 * block,
        uid_count: 8,
        system_paths: ["/usr", "/lib", "/lib64", "/bin", "/sbin", "/etc"]
            .map(PathBuf::from)
            .to_vec(),
        tmp_size_bytes: 16 << 20,
    })
    .expect("the sandbox needs root: run the tests as root");
    let box_dir = sandbox.work_dir().join("box");
    let io = sandbox.work_dir().join("io");
    fs::create_dir_all(&box_dir).unwrap();
    fs::create_dir_all(&io).unwrap();
    fs::write(io.join("stdin"), "hello\n").unwrap();
    Scratch {
        _dir: dir,
        sandbox,
        box_dir,
        io,
        uids: FIRST_TEST_UID + 8 * block..FIRST_TEST_UID + 8 * (block + 1),
    }
}

/// Limits for runs that should succeed. The wall limit is far above what
/// any of these scripts needs: the whole test suite shares two cores, and a
/// run that stalls behind it for a few seconds has still not misbehaved.
/// Tests of the wall limit set their own.
fn limits() -> Limits {
    Limits {
        cpu: Duration::from_secs(1),
        wall: Duration::from_secs(30),
        memory_bytes: 64 << 20,
        processes: 16,
        output_bytes: 1 << 20,
    }
}

impl Scratch {
    fn shell(&self, script: &str, limits: Limits) -> (RunReport, String, String) {
        let argv = ["/bin/sh".to_string(), "-c".to_string(), script.to_string()];
        let report = self
            .sandbox
            .run(&Run {
                argv: &argv,
                path: &[],
                toolchains: &[],
                box_dir: &self.box_dir,
                box_writable: false,
                stdin: &self.io.join("stdin"),
                stdout: &self.io.join("stdout"),
                stderr: &self.io.join("stderr"),
                limits,
            })
            .expect("the sandbox runs");
        let read = |name| {
            String::from_utf8_lossy(&fs::read(self.io.join(name)).unwrap_or_default()).into_owned()
        };
        (report, read("stdout"), read("stderr"))
    }
}

#[test]
fn a_program_reads_stdin_and_writes_stdout() {
    let s = scratch();
    let (report, out, _) = s.shell("read x; echo \"got $x\"; id -u", limits());
    assert!(report.succeeded(), "{report:?}");
    let (greeting, uid) = out.split_once('\n').unwrap();
    assert_eq!(greeting, "got hello");
    let uid: u32 = uid.trim().parse().unwrap();
    assert!(
        s.uids.contains(&uid),
        "ran as uid {uid}, not one of {:?}",
        s.uids
    );
}

#[test]
fn exit_statuses_and_signals_are_reported() {
    let s = scratch();
    let (report, _, _) = s.shell("exit 3", limits());
    assert_eq!(report.termination, Termination::Exited(3));
    assert_eq!(report.limit, None);
    let (report, _, _) = s.shell("kill -SEGV $$", limits());
    assert_eq!(report.termination, Termination::Signaled(libc::SIGSEGV));
}

#[test]
fn cpu_and_wall_limits_end_a_run() {
    let s = scratch();
    // A wall limit far above the CPU limit: on a loaded machine the loop
    // may get only a fraction of a core, and must still hit CPU first.
    let cpu_bound = Limits {
        wall: Duration::from_secs(60),
        ..limits()
    };
    let (report, _, _) = s.shell("while :; do :; done", cpu_bound);
    assert_eq!(report.limit, Some(LimitHit::Cpu), "{report:?}");
    let wall_bound = Limits {
        wall: Duration::from_secs(3),
        ..limits()
    };
    let (report, _, _) = s.shell("sleep 60", wall_bound);
    assert_eq!(report.limit, Some(LimitHit::Wall), "{report:?}");
    assert_eq!(report.termination, Termination::Killed);
    assert!(report.wall < Duration::from_secs(10));
}

#[test]
fn endless_output_is_cut_by_the_kernel() {
    let s = scratch();
    let (report, _, _) = s.shell("yes", limits());
    assert_eq!(report.limit, Some(LimitHit::Output), "{report:?}");
    assert!(report.stdout_bytes <= limits().output_bytes);
}

#[test]
fn the_host_is_out_of_reach() {
    let s = scratch();
    let work = s.sandbox.work_dir().display().to_string();
    let (report, out, _) = s.shell(
        &format!(
            "test -e {work} && echo work-visible; \
             ls /root 2>/dev/null && echo root-visible; \
             echo x > /etc/probe 2>/dev/null && echo etc-writable; \
             echo x > /box/probe 2>/dev/null && echo box-writable; \
             echo x > /tmp/probe && echo tmp-writable; \
             grep -c : /proc/net/dev; \
             ls /proc | grep -c '^[0-9]'; hostname"
        ),
        limits(),
    );
    assert!(report.succeeded(), "{report:?}");
    // Only the loopback interface, and only the run's own processes (the
    // keeper, the shell, ls and grep).
    assert_eq!(out, "tmp-writable\n1\n4\nsandbox\n");
}

#[test]
fn memory_beyond_the_limit_is_reported_as_such() {
    let s = scratch();
    // `tail` keeps a line of 200 MB without a newline in memory.
    let (report, _, _) = s.shell("head -c 200000000 /dev/zero | tail -n 1 | wc -c", limits());
    assert_eq!(report.limit, Some(LimitHit::Memory), "{report:?}");
    let (report, _, _) = s.shell("head -c 20000000 /dev/zero | tail -n 1 | wc -c", limits());
    assert!(report.succeeded(), "{report:?}");
    assert!(
        report.peak_memory_bytes > 20_000_000,
        "peak {}",
        report.peak_memory_bytes
    );
}

#[test]
fn a_fork_bomb_stops_at_the_process_limit_and_leaves_nothing_behind() {
    let s = scratch();
    let wall_bound = Limits {
        wall: Duration::from_secs(3),
        ..limits()
    };
    let (report, _, _) = s.shell("b() { b | b & }; b; sleep 1; echo done", wall_bound);
    assert!(report.wall < Duration::from_secs(10), "{report:?}");
    // The keeper's exit killed every process of the run: no process of
    // this sandbox's uids is left on the host.
    let leftovers = fs::read_dir("/proc")
        .unwrap()
        .filter_map(|e| e.ok())
        .filter_map(|e| fs::read_to_string(e.path().join("status")).ok())
        .filter(|status| {
            status.lines().any(|l| {
                l.starts_with("Uid:")
                    && l.split_whitespace()
                        .nth(1)
                        .and_then(|u| u.parse::<u32>().ok())
                        .is_some_and(|u| s.uids.contains(&u))
            })
        })
        .count();
    assert_eq!(leftovers, 0);
}

#[test]
fn runs_started_at_once_from_many_threads_all_finish() {
    // glibc's setresuid in a clone of a multi-threaded process waits for
    // threads that are not there; six runs at once hung four of them until
    // the program process changed its uid with raw system calls.
    let s = scratch();
    std::thread::scope(|scope| {
        let handles: Vec<_> = (0..12)
            .map(|i| {
                let s = &s;
                scope.spawn(move || {
                    let io = s.io.join(format!("thread-{i}"));
                    fs::create_dir_all(&io).unwrap();
                    let argv = [
                        "/bin/sh".to_string(),
                        "-c".to_string(),
                        "id -u; sleep 0.1".to_string(),
                    ];
                    s.sandbox
                        .run(&Run {
                            argv: &argv,
                            path: &[],
                            toolchains: &[],
                            box_dir: &s.box_dir,
                            box_writable: false,
                            stdin: &s.io.join("stdin"),
                            stdout: &io.join("stdout"),
                            stderr: &io.join("stderr"),
                            limits: limits(),
                        })
                        .unwrap()
                })
            })
            .collect();
        for handle in handles {
            let report = handle.join().unwrap();
            assert!(report.succeeded(), "{report:?}");
        }
    });
}

#[test]
fn groups_left_by_a_process_that_is_gone_are_removed_at_start() {
    let Ok(cgroups) = Cgroups::detect() else {
        panic!("this host has no cgroups to test with");
    };
    // No process has pid 4194304 (above the kernel's maximum pid).
    let stale = cgroups
        .create_named("nimjudge-4194304-0")
        .expect("make a group");
    assert!(stale.iter().all(|dir| dir.exists()));
    assert!(cgroups.remove_stale().0 >= 1);
    assert!(stale.iter().all(|dir| !dir.exists()));
}
