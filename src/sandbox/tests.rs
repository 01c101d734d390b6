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

/// A sandbox with one uid, so that consecutive runs share it.
fn scratch_with_one_uid() -> Scratch {
    let mut s = scratch();
    let first = s.uids.start;
    let settings = SandboxSettings {
        work_dir: s._dir.path().join("one-uid"),
        first_uid: first,
        uid_count: 1,
        system_paths: s.sandbox.inner.settings.system_paths.clone(),
        tmp_size_bytes: 16 << 20,
    };
    s.sandbox = Sandbox::new(settings).expect("the sandbox needs root");
    s.uids = first..first + 1;
    s
}

impl Scratch {
    /// Runs a Python script (trusted, written here) in the sandbox.
    fn python(&self, script: &str, limits: Limits) -> (RunReport, String, String) {
        let argv = [
            "/usr/bin/python3".to_string(),
            "-c".to_string(),
            format!("{ATTACK_PRELUDE}\n{script}"),
        ];
        self.argv(&argv, limits)
    }

    fn shell(&self, script: &str, limits: Limits) -> (RunReport, String, String) {
        let argv = ["/bin/sh".to_string(), "-c".to_string(), script.to_string()];
        self.argv(&argv, limits)
    }

    fn argv(&self, argv: &[String], limits: Limits) -> (RunReport, String, String) {
        let report = self
            .sandbox
            .run(&Run {
                argv,
                path: &[],
                toolchains: &[],
                box_dir: &self.box_dir,
                box_writable: false,
                stdio: Stdio::Files {
                    stdin: &self.io.join("stdin"),
                    stdout: &self.io.join("stdout"),
                },
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
#[ignore = "needs root (the sandbox); scripts/test.sh runs it"]
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
#[ignore = "needs root (the sandbox); scripts/test.sh runs it"]
fn exit_statuses_and_signals_are_reported() {
    let s = scratch();
    let (report, _, _) = s.shell("exit 3", limits());
    assert_eq!(report.termination, Termination::Exited(3));
    assert_eq!(report.limit, None);
    let (report, _, _) = s.shell("kill -SEGV $$", limits());
    assert_eq!(report.termination, Termination::Signaled(libc::SIGSEGV));
}

#[test]
#[ignore = "needs root (the sandbox); scripts/test.sh runs it"]
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
    // Stopped by the sandbox within 100 ms of the limit, not by the rlimit
    // a second later.
    assert_eq!(report.termination, Termination::Killed, "{report:?}");
    assert!(
        report.cpu <= cpu_bound.cpu + Duration::from_millis(100),
        "{report:?}"
    );
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
#[ignore = "needs root (the sandbox); scripts/test.sh runs it"]
fn endless_output_is_cut_by_the_kernel() {
    let s = scratch();
    let (report, _, _) = s.shell("yes", limits());
    assert_eq!(report.limit, Some(LimitHit::Output), "{report:?}");
    assert!(report.stdout_bytes <= limits().output_bytes);
}

#[test]
#[ignore = "needs root (the sandbox); scripts/test.sh runs it"]
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
             ls /proc > /tmp/processes; grep -c '^[0-9]' /tmp/processes; hostname"
        ),
        limits(),
    );
    assert!(report.succeeded(), "{report:?}");
    // Only the loopback interface, and only the run's own processes: the
    // shell and ls (the keeper, root, is hidden). `ls` writes to a file,
    // not a pipe: in a pipeline `grep` may start before or after `ls` has
    // read /proc (it was seen as 2 or 3 processes).
    assert_eq!(out, "tmp-writable\n1\n2\nsandbox\n");
}

#[test]
#[ignore = "needs root (the sandbox); scripts/test.sh runs it"]
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
#[ignore = "needs root (the sandbox); scripts/test.sh runs it"]
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
    assert_eq!(processes_of(&s.uids), 0);
}

/// How many processes on the host run as one of `uids`.
fn processes_of(uids: &std::ops::Range<u32>) -> usize {
    fs::read_dir("/proc")
        .unwrap()
        .filter_map(|e| e.ok())
        .filter_map(|e| fs::read_to_string(e.path().join("status")).ok())
        .filter(|status| {
            status.lines().any(|l| {
                l.starts_with("Uid:")
                    && l.split_whitespace()
                        .nth(1)
                        .and_then(|u| u.parse::<u32>().ok())
                        .is_some_and(|u| uids.contains(&u))
            })
        })
        .count()
}

#[test]
#[ignore = "needs root (the sandbox); scripts/test.sh runs it"]
fn a_run_ends_with_its_spawner_and_the_next_run_gets_a_new_one() {
    let s = scratch();
    let spawner = s.sandbox.inner.spawner.pid().expect("a spawner");
    let argv = [
        "/bin/sh".to_string(),
        "-c".to_string(),
        "sleep 60 & sleep 60".to_string(),
    ];
    let started = std::time::Instant::now();
    let result = std::thread::scope(|scope| {
        let run = scope.spawn(|| {
            s.sandbox.run(&Run {
                argv: &argv,
                path: &[],
                toolchains: &[],
                box_dir: &s.box_dir,
                box_writable: false,
                stdio: Stdio::Files {
                    stdin: &s.io.join("stdin"),
                    stdout: &s.io.join("stdout"),
                },
                stderr: &s.io.join("stderr"),
                limits: Limits {
                    wall: Duration::from_secs(50),
                    ..limits()
                },
            })
        });
        while processes_of(&s.uids) < 2 {
            assert!(
                started.elapsed() < Duration::from_secs(20),
                "the program never started"
            );
            std::thread::sleep(Duration::from_millis(20));
        }
        // SAFETY: the spawner is this process's child, not yet reaped.
        assert_eq!(unsafe { libc::kill(spawner as i32, libc::SIGKILL) }, 0);
        run.join().unwrap()
    });
    // The keeper died with the spawner, and its namespace's processes with
    // it: the run ends long before its wall limit, as the keeper's death.
    assert!(started.elapsed() < Duration::from_secs(40));
    let error = result.expect_err("the run lost its keeper");
    assert!(error.to_string().contains("keeper"), "{error}");
    let deadline = std::time::Instant::now() + Duration::from_secs(5);
    while processes_of(&s.uids) > 0 && std::time::Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(20));
    }
    assert_eq!(processes_of(&s.uids), 0);
    // The next run finds the spawner gone and starts another.
    let (report, out, err) = s.shell("echo again", limits());
    assert!(report.succeeded(), "{report:?} {err}");
    assert_eq!(out, "again\n");
    let replaced = s.sandbox.inner.spawner.pid().expect("a spawner");
    assert_ne!(replaced, spawner);
}

#[test]
#[ignore = "needs root (the sandbox); scripts/test.sh runs it"]
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
                            stdio: Stdio::Files {
                                stdin: &s.io.join("stdin"),
                                stdout: &io.join("stdout"),
                            },
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
#[ignore = "needs root (the sandbox); scripts/test.sh runs it"]
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

/// Python helpers for the attack scripts below: `call(nr, *args)` makes a
/// raw system call and returns its result, or minus its errno.
const ATTACK_PRELUDE: &str = r#"
import ctypes, os, sys
libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long
def arg(a):
    if isinstance(a, int):
        return ctypes.c_long(a)
    return a
def call(nr, *args):
    ctypes.set_errno(0)
    r = libc.syscall(ctypes.c_long(nr), *[arg(a) for a in args])
    return r if r >= 0 else -ctypes.get_errno()
"#;

const EPERM: i64 = -(libc::EPERM as i64);

/// The lines `name result` a script printed, as a map.
fn results(out: &str) -> std::collections::BTreeMap<String, i64> {
    out.lines()
        .filter_map(|line| {
            let (name, value) = line.split_once(' ')?;
            Some((name.to_string(), value.trim().parse().ok()?))
        })
        .collect()
}

#[test]
#[ignore = "needs root (the sandbox); scripts/test.sh runs it"]
fn the_kernel_keyring_carries_nothing_from_one_run_to_the_next() {
    // Both runs get the pool's only uid, as a hidden testcase's run and
    // the next run on a public one would share one.
    let s = scratch_with_one_uid();
    let store = r#"
secret = b"hidden-input-42"
print("add_key", call(248, b"user", b"leak", secret, len(secret), -4))
"#;
    let (report, out, err) = s.python(store, limits());
    assert!(report.succeeded(), "{report:?} {err}");
    assert_eq!(results(&out)["add_key"], EPERM, "{out}");
    let dump = r#"
key = call(250, 10, -4, b"user", b"leak", 0)
print("search", key)
if key > 0:
    buf = ctypes.create_string_buffer(256)
    n = call(250, 11, key, buf, 256)
    print("read", buf.raw[:max(n, 0)].decode())
"#;
    let (report, out, err) = s.python(dump, limits());
    assert!(report.succeeded(), "{report:?} {err}");
    assert!(!out.contains("hidden-input-42"), "{out}");
    assert_eq!(results(&out)["search"], EPERM, "{out}");
}

#[test]
#[ignore = "needs root (the sandbox); scripts/test.sh runs it"]
fn a_program_cannot_make_or_join_namespaces() {
    let s = scratch();
    let script = r#"
CLONE_NEWUSER, CLONE_NEWNS, CLONE_NEWNET, SIGCHLD = 0x10000000, 0x20000, 0x40000000, 17
print("unshare_user", call(272, CLONE_NEWUSER))
print("unshare_mount", call(272, CLONE_NEWNS))
fd = os.open("/proc/self/ns/net", os.O_RDONLY)
print("setns", call(308, fd, CLONE_NEWNET))
for name, flags in [("clone_user", CLONE_NEWUSER), ("clone_net", CLONE_NEWNET)]:
    pid = call(56, flags | SIGCHLD, 0, 0, 0, 0)
    if pid == 0:
        os._exit(0)
    if pid > 0:
        os.waitpid(pid, 0)
    print(name, pid)
# clone3 cannot be inspected: ENOSYS, so that libc falls back to clone.
print("clone3", call(435, 0, 0))
# A plain fork and a thread still work.
pid = os.fork()
if pid == 0:
    os._exit(7)
print("fork", os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1]))
import threading
t = threading.Thread(target=lambda: None); t.start(); t.join()
print("thread", 0)
"#;
    let (report, out, err) = s.python(script, limits());
    assert!(report.succeeded(), "{report:?} {err}");
    let got = results(&out);
    for name in [
        "unshare_user",
        "unshare_mount",
        "setns",
        "clone_user",
        "clone_net",
    ] {
        assert_eq!(got.get(name), Some(&EPERM), "{name}: {out}");
    }
    assert_eq!(got.get("clone3"), Some(&-(libc::ENOSYS as i64)), "{out}");
    assert_eq!(got.get("fork"), Some(&7), "{out}");
    assert_eq!(got.get("thread"), Some(&0), "{out}");
}

#[test]
#[ignore = "needs root (the sandbox); scripts/test.sh runs it"]
fn every_denied_call_family_fails_with_eperm() {
    let s = scratch();
    // Arguments that let the call work for an unprivileged process where
    // such a form exists (so the filter, not a missing privilege, is what
    // refuses it); the rest fail with EPERM on any unprivileged uid, and
    // are checked for the policy's sake.
    let script = r#"
me = os.getpid()
buf = ctypes.create_string_buffer(64)
class iovec(ctypes.Structure):
    _fields_ = [("base", ctypes.c_void_p), ("len", ctypes.c_size_t)]
local = iovec(ctypes.addressof(buf), 8); remote = iovec(ctypes.addressof(buf), 8)
params = ctypes.create_string_buffer(120)
handle = ctypes.create_string_buffer(136); ctypes.c_uint.from_buffer(handle).value = 128
mount_id = ctypes.c_int()
pidfd = os.pidfd_open(me)
tests = {
    "keyctl": lambda: call(250, 0, -4, 0),
    "request_key": lambda: call(249, b"user", b"x", 0, -4),
    "ptrace": lambda: call(101, 0, 0, 0, 0),
    "process_vm_readv": lambda: call(310, me, ctypes.byref(local), 1, ctypes.byref(remote), 1, 0),
    "process_vm_writev": lambda: call(311, me, ctypes.byref(local), 1, ctypes.byref(remote), 1, 0),
    "kcmp": lambda: call(312, me, me, 0, 0, 0),
    "pidfd_getfd": lambda: call(438, pidfd, 0, 0),
    "process_madvise": lambda: call(440, pidfd, ctypes.byref(local), 1, 8, 0),
    "userfaultfd": lambda: call(323, 1),
    "io_uring_setup": lambda: call(425, 1, params),
    "perf_event_open": lambda: call(298, 0, 0, -1, -1, 0),
    "bpf": lambda: call(321, 0, 0, 0),
    "name_to_handle_at": lambda: call(303, -100, b"/", handle, ctypes.byref(mount_id), 0),
    "open_by_handle_at": lambda: call(304, -100, handle, 0),
    "personality": lambda: call(135, 0x0040000),
    "mount": lambda: call(165, b"none", b"/tmp", b"tmpfs", 0, 0),
    "umount2": lambda: call(166, b"/tmp", 0),
    "pivot_root": lambda: call(155, b"/tmp", b"/tmp"),
    "chroot": lambda: call(161, b"/tmp"),
    "open_tree": lambda: call(428, -100, b"/tmp", 1),
    "move_mount": lambda: call(429, -100, b"/tmp", -100, b"/tmp", 0),
    "fsopen": lambda: call(430, b"tmpfs", 0),
    "fsconfig": lambda: call(431, 0, 0, 0, 0, 0),
    "fsmount": lambda: call(432, 0, 0, 0),
    "fspick": lambda: call(433, -100, b"/tmp", 0),
    "mount_setattr": lambda: call(442, -100, b"/tmp", 0, 0, 0),
    "init_module": lambda: call(175, 0, 0, b""),
    "finit_module": lambda: call(313, 0, b"", 0),
    "delete_module": lambda: call(176, b"x", 0),
    "kexec_load": lambda: call(246, 0, 0, 0, 0),
    "kexec_file_load": lambda: call(320, 0, 0, 0, 0, 0),
    "reboot": lambda: call(169, 0, 0, 0, 0),
    "swapon": lambda: call(167, b"/tmp/x", 0),
    "swapoff": lambda: call(168, b"/tmp/x"),
    "acct": lambda: call(163, 0),
    "quotactl": lambda: call(179, 0, 0, 0, 0),
    "quotactl_fd": lambda: call(443, 0, 0, 0, 0),
    "syslog": lambda: call(103, 10, 0, 0),
    "sethostname": lambda: call(170, b"x", 1),
    "settimeofday": lambda: call(164, 0, 0),
    "clock_settime": lambda: call(227, 0, 0),
    "iopl": lambda: call(172, 3),
    "socket_uevent": lambda: call(41, 16, 2, 15),
    "ioperm": lambda: call(173, 0, 1, 1),
}
for name, f in tests.items():
    print(name, f())
# Allowed forms still work: the personality query, PER_LINUX, a routing
# netlink socket (getaddrinfo opens one).
print("socket_route", call(41, 16, 2, 0))
print("personality_query", 0 if call(135, 0xffffffff) >= 0 else call(135, 0xffffffff))
print("personality_linux", call(135, 0))
"#;
    let (report, out, err) = s.python(script, limits());
    assert!(report.succeeded(), "{report:?} {err}");
    let got = results(&out);
    assert!(got.len() > 40, "{out}\n{err}");
    for (name, result) in &got {
        match name.as_str() {
            "personality_query" | "personality_linux" | "socket_route" => {
                assert!(*result >= 0, "{name}: {result}")
            }
            _ => assert_eq!(*result, EPERM, "{name} answered {result}, not EPERM"),
        }
    }
}

#[test]
#[ignore = "needs root (the sandbox); scripts/test.sh runs it"]
fn system_calls_of_a_foreign_abi_kill_the_program() {
    let s = scratch();
    // x32's getpid: the number with bit 30 set.
    let (report, out, _) = s.python("print('x32', call(0x40000000 + 39))", limits());
    assert_eq!(
        report.termination,
        Termination::Signaled(libc::SIGSYS),
        "{report:?} {out}"
    );
    // i386's getpid through `int 0x80`: mov eax, 20; int 0x80; ret.
    let i386 = r#"
import mmap
code = b"\xb8\x14\x00\x00\x00\xcd\x80\xc3"
m = mmap.mmap(-1, 4096, prot=mmap.PROT_READ | mmap.PROT_WRITE | mmap.PROT_EXEC)
m.write(code)
f = ctypes.CFUNCTYPE(ctypes.c_int)(ctypes.addressof(ctypes.c_char.from_buffer(m)))
print("i386", f())
"#;
    let (report, out, err) = s.python(i386, limits());
    assert_eq!(
        report.termination,
        Termination::Signaled(libc::SIGSYS),
        "{report:?} {out} {err}"
    );
}

#[test]
#[ignore = "needs root (the sandbox); scripts/test.sh runs it"]
fn a_runs_network_namespace_keeps_nothing_for_the_next_run() {
    // Sending to an address with no route counts in the namespace's
    // `/proc/net/snmp` (`Ip: OutNoRoutes`), which outlives the processes:
    // with a namespace reused by the next run on the same uid, the count
    // is a channel between runs (and contestants).
    let s = scratch_with_one_uid();
    let send = r#"
import socket
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
for _ in range(777):
    try:
        s.sendto(b"x", ("10.9.9.9", 9))
    except OSError:
        pass
"#;
    let read = r#"
lines = open("/proc/net/snmp").read().splitlines()
names, values = lines[0].split(), lines[1].split()
print("out_no_routes", values[names.index("OutNoRoutes")])
"#;
    let (report, _, err) = s.python(send, limits());
    assert!(report.succeeded(), "{report:?} {err}");
    let (report, out, err) = s.python(read, limits());
    assert!(report.succeeded(), "{report:?} {err}");
    let seen = results(&out)["out_no_routes"];
    assert!(seen < 777, "the next run read the count: {out}");
}

#[test]
#[ignore = "needs root (the sandbox); scripts/test.sh runs it"]
fn the_keeper_and_the_daemons_groups_are_out_of_the_programs_sight() {
    let s = scratch();
    let script = r#"
try:
    print("keeper", len(open("/proc/1/cmdline").read()))
except OSError as e:
    print("keeper", -e.errno)
print("cgroup_lines_naming_nimjudge", sum("nimjudge" in l for l in open("/proc/self/cgroup")))
"#;
    let (report, out, err) = s.python(script, limits());
    assert!(report.succeeded(), "{report:?} {err}");
    let got = results(&out);
    assert_eq!(got["keeper"], -(libc::ENOENT as i64), "{out}");
    assert_eq!(got["cgroup_lines_naming_nimjudge"], 0, "{out}");
}
