//! The seccomp-BPF policy of every run, compiling included: which system
//! calls an untrusted program may not make, compiled once per sandbox into
//! BPF programs that the program process installs after no_new_privs and
//! just before it execs (see `jail::program`). Filters are inherited by
//! every child, so a compiler's subprocesses are filtered too.
//!
//! The namespaces, the uid and the rlimits already confine a run; this
//! closes what the kernel shares between runs or exposes to an
//! unprivileged process, and the door most container escapes go through.
//! The policy is a deny list over Linux's own allow-by-default, in the
//! spirit of Docker's default profile and isolate's choices:
//!
//! - **Kernel keyrings** (`add_key`, `keyctl`, `request_key`): a uid's user
//!   keyring outlives its processes, so a run could leave data for the next
//!   run of the same uid (a hidden testcase's input, a message to another
//!   contestant).
//! - **Namespaces**: `unshare` and `setns` always; `clone` with any
//!   namespace flag. `clone3` passes its flags in memory a filter cannot
//!   read, so it answers `ENOSYS`, which makes glibc (threads, posix_spawn)
//!   fall back to `clone`. A user namespace would make the program root of
//!   its own and open every call below to it.
//! - **Mounts**: the old and new mount API, `pivot_root`, `chroot`.
//! - **Other processes' memory**: `ptrace`, `process_vm_readv`/`writev`,
//!   `process_madvise`, `kcmp`, `pidfd_getfd`.
//! - **Kernel attack surface**: `bpf`, `perf_event_open`, `userfaultfd`,
//!   `io_uring_*`.
//! - **The host**: modules, `kexec_*`, `reboot`, swap, `acct`, `quotactl`,
//!   `open_by_handle_at` and `name_to_handle_at`, `syslog`, the clock and
//!   host name setters, `iopl`/`ioperm`, `vhangup`, `uselib`, `lookup_dcookie`,
//!   `nfsservctl`.
//! - **Host device events**: a `NETLINK_KOBJECT_UEVENT` socket (the kernel
//!   sends them to every network namespace of the initial user namespace).
//! - **`personality`**, except the values Docker allows (query, `PER_LINUX`,
//!   `PER_LINUX32`, `UNAME26` and their pairs): no turning address-space
//!   randomisation off.
//! - **Foreign system-call ABIs**: a call made through another ABI (i386's
//!   `int 0x80`, x32's numbers) kills the process with `SIGSYS`.
//!
//! Denied calls fail with `EPERM` (`clone3` with `ENOSYS`); the program goes
//! on and decides what to do, as it would on a host where the call is not
//! permitted. Everything else is allowed, so C++, Python and Rust programs
//! and their compilers run unchanged.
//!
//! The program is one BPF program of two parts. seccompiler compiles the
//! rules that compare arguments with values (`personality`, `socket`). In
//! front of it go checks of our own, about one instruction a call: the
//! architecture (another one is killed), the x32 marker (every number with
//! bit 30 set, on x86_64, which seccompiler cannot express as it matches
//! numbers one by one), `clone3` (its answer differs from the other denied
//! calls'; one seccompiler filter has one action on a match), the calls
//! denied whatever their arguments, and `clone`'s namespace flags (one bit
//! test), each a jump to one shared `EPERM`. seccompiler spends five
//! instructions on a call denied outright and about seven on each flag,
//! and the kernel's cost of installing a program grows with its length
//! (seccompiler alone: 343 instructions; this program: 95; BENCHMARKS.md,
//! the sandbox's cost of one run). The unit tests below run the program
//! over every rule.

use std::collections::BTreeMap;

use seccompiler::{
    BpfProgram, SeccompAction, SeccompCmpArgLen, SeccompCmpOp, SeccompCondition, SeccompFilter,
    SeccompRule, TargetArch, sock_filter,
};

/// Namespace flags of `clone`; a call with any of them is denied.
/// (`CLONE_NEWTIME` is not one: in `clone`'s flags that bit belongs to the
/// exit signal, and it can only be used with `unshare` and `clone3`.)
const CLONE_NAMESPACE_FLAGS: [libc::c_int; 7] = [
    libc::CLONE_NEWNS,
    libc::CLONE_NEWCGROUP,
    libc::CLONE_NEWUTS,
    libc::CLONE_NEWIPC,
    libc::CLONE_NEWUSER,
    libc::CLONE_NEWPID,
    libc::CLONE_NEWNET,
];

/// `personality` values a program may set (Docker's default profile allows
/// the same): `PER_LINUX`, `PER_LINUX32`, `UNAME26`, `UNAME26|PER_LINUX32`,
/// and the query `0xffffffff`.
const ALLOWED_PERSONALITIES: [u64; 5] = [0x0, 0x8, 0x20000, 0x20008, 0xffff_ffff];

/// System calls denied whatever their arguments.
const DENIED: &[libc::c_long] = &[
    // Kernel keyrings.
    libc::SYS_add_key,
    libc::SYS_keyctl,
    libc::SYS_request_key,
    // Namespaces.
    libc::SYS_unshare,
    libc::SYS_setns,
    // Mounts, old and new API, and root changes.
    libc::SYS_mount,
    libc::SYS_umount2,
    libc::SYS_pivot_root,
    libc::SYS_chroot,
    libc::SYS_open_tree,
    libc::SYS_move_mount,
    libc::SYS_fsopen,
    libc::SYS_fsconfig,
    libc::SYS_fsmount,
    libc::SYS_fspick,
    libc::SYS_mount_setattr,
    // Other processes' memory.
    libc::SYS_ptrace,
    libc::SYS_process_vm_readv,
    libc::SYS_process_vm_writev,
    libc::SYS_process_madvise,
    libc::SYS_kcmp,
    libc::SYS_pidfd_getfd,
    // Kernel attack surface.
    libc::SYS_bpf,
    libc::SYS_perf_event_open,
    libc::SYS_userfaultfd,
    libc::SYS_io_uring_setup,
    libc::SYS_io_uring_enter,
    libc::SYS_io_uring_register,
    // The host.
    libc::SYS_init_module,
    libc::SYS_finit_module,
    libc::SYS_delete_module,
    libc::SYS_kexec_load,
    libc::SYS_kexec_file_load,
    libc::SYS_reboot,
    libc::SYS_swapon,
    libc::SYS_swapoff,
    libc::SYS_acct,
    libc::SYS_quotactl,
    libc::SYS_quotactl_fd,
    libc::SYS_open_by_handle_at,
    libc::SYS_name_to_handle_at,
    libc::SYS_syslog,
    libc::SYS_settimeofday,
    libc::SYS_clock_settime,
    libc::SYS_clock_adjtime,
    libc::SYS_sethostname,
    libc::SYS_setdomainname,
    libc::SYS_iopl,
    libc::SYS_ioperm,
    libc::SYS_vhangup,
    libc::SYS_uselib,
    libc::SYS_lookup_dcookie,
    libc::SYS_nfsservctl,
];

/// The x32 ABI's marker bit in a system-call number (`__X32_SYSCALL_BIT`).
#[cfg(target_arch = "x86_64")]
const X32_SYSCALL_BIT: u32 = 0x4000_0000;

/// The compiled policy: one BPF program.
#[derive(Debug, Clone)]
pub struct Policy {
    pub filter: BpfProgram,
}

/// Why the policy could not be compiled (a bug here, or an architecture
/// seccompiler does not know).
#[derive(Debug, thiserror::Error)]
#[error("compiling the seccomp policy: {0}")]
pub struct PolicyError(String);

impl Policy {
    /// Compiles the policy for the architecture this binary runs on.
    pub fn compile() -> Result<Policy, PolicyError> {
        let arch = TargetArch::try_from(std::env::consts::ARCH).map_err(error)?;
        let mut denied: BTreeMap<i64, Vec<SeccompRule>> = BTreeMap::new();
        let personality = ALLOWED_PERSONALITIES
            .iter()
            .map(|&value| {
                SeccompCondition::new(0, SeccompCmpArgLen::Dword, SeccompCmpOp::Ne, value)
            })
            .collect::<Result<Vec<_>, _>>()
            .and_then(SeccompRule::new)
            .map_err(error)?;
        denied.insert(libc::SYS_personality, vec![personality]);
        // The kernel's device events are broadcast to every network
        // namespace of the initial user namespace, a run's among them.
        let uevents = [
            (0, libc::AF_NETLINK as u64),
            (2, libc::NETLINK_KOBJECT_UEVENT as u64),
        ]
        .into_iter()
        .map(|(arg, value)| {
            SeccompCondition::new(arg, SeccompCmpArgLen::Dword, SeccompCmpOp::Eq, value)
        })
        .collect::<Result<Vec<_>, _>>()
        .and_then(SeccompRule::new)
        .map_err(error)?;
        denied.insert(libc::SYS_socket, vec![uevents]);
        let main = SeccompFilter::new(
            denied,
            SeccompAction::Allow,
            SeccompAction::Errno(libc::EPERM.cast_unsigned()),
            arch,
        )
        .and_then(BpfProgram::try_from)
        .map_err(error)?;
        Ok(Policy {
            filter: with_checks_in_front(main)?,
        })
    }
}

fn error(e: seccompiler::BackendError) -> PolicyError {
    PolicyError(e.to_string())
}

// Classic BPF opcodes of the instructions put in front.
/// BPF_LD (0x00) | BPF_W (0x00) | BPF_ABS (0x20).
const BPF_LD_W_ABS: u16 = 0x20;
/// BPF_JMP (0x05) | BPF_JA (0x00).
const BPF_JMP_JA: u16 = 0x05;
/// BPF_JMP (0x05) | BPF_JEQ (0x10) | BPF_K (0x00).
const BPF_JMP_JEQ_K: u16 = 0x15;
/// BPF_JMP (0x05) | BPF_JSET (0x40) | BPF_K (0x00).
const BPF_JMP_JSET_K: u16 = 0x45;
/// BPF_RET (0x06) | BPF_K (0x00).
const BPF_RET_K: u16 = 0x06;

/// The audit architecture of this binary's system calls
/// (`AUDIT_ARCH_X86_64`, `AUDIT_ARCH_AARCH64` of `<linux/audit.h>`).
#[cfg(target_arch = "x86_64")]
const AUDIT_ARCH: u32 = 0xc000_003e;
#[cfg(target_arch = "aarch64")]
const AUDIT_ARCH: u32 = 0xc000_00b7;

/// `program` with our checks in front: kill a call of another
/// architecture (i386's `int 0x80` among them), load the call's number,
/// kill an x32 number (bit 30 set), answer `clone3` with `ENOSYS`, answer
/// every call of [`DENIED`] with `EPERM`, then go on to `program`.
fn with_checks_in_front(program: BpfProgram) -> Result<BpfProgram, PolicyError> {
    // `seccomp_data.nr` and `seccomp_data.arch`: its first two fields.
    const NR_OFFSET: u32 = 0;
    const ARCH_OFFSET: u32 = 4;
    // `seccomp_data.args[0]`'s low half, on a little-endian machine.
    const ARG0_LOW_OFFSET: u32 = 16;
    let instruction = |code, jt, jf, k| sock_filter { code, jt, jf, k };
    let number = |nr: libc::c_long| {
        u32::try_from(nr).map_err(|_| PolicyError(format!("system call number {nr}")))
    };
    let mut checked = vec![
        instruction(BPF_LD_W_ABS, 0, 0, ARCH_OFFSET),
        // This architecture: skip the kill.
        instruction(BPF_JMP_JEQ_K, 1, 0, AUDIT_ARCH),
        instruction(BPF_RET_K, 0, 0, libc::SECCOMP_RET_KILL_PROCESS),
        instruction(BPF_LD_W_ABS, 0, 0, NR_OFFSET),
    ];
    #[cfg(target_arch = "x86_64")]
    checked.extend([
        // Bit set: go on to the next instruction (kill); else skip it.
        instruction(BPF_JMP_JSET_K, 0, 1, X32_SYSCALL_BIT),
        instruction(BPF_RET_K, 0, 0, libc::SECCOMP_RET_KILL_PROCESS),
    ]);
    checked.extend([
        // `clone3`: go on to the next instruction (ENOSYS); else skip it.
        instruction(BPF_JMP_JEQ_K, 0, 1, number(libc::SYS_clone3)?),
        instruction(
            BPF_RET_K,
            0,
            0,
            libc::SECCOMP_RET_ERRNO | libc::ENOSYS.cast_unsigned(),
        ),
    ]);
    // One comparison a denied call, each jumping to the `EPERM` after the
    // last and the `clone` check (four instructions); no match jumps over
    // it. A conditional jump reaches 255 instructions ahead at most.
    let count = u8::try_from(DENIED.len())
        .ok()
        .filter(|&count| count <= u8::MAX - 3)
        .ok_or_else(|| PolicyError(format!("{} denied calls", DENIED.len())))?;
    for (index, &nr) in (0..count).zip(DENIED) {
        checked.push(instruction(
            BPF_JMP_JEQ_K,
            count - index + 3,
            0,
            number(nr)?,
        ));
    }
    // The low half of `clone`'s flags (all the namespace flags are there):
    // any namespace flag set jumps to the `EPERM`.
    let namespace_flags = CLONE_NAMESPACE_FLAGS
        .iter()
        .fold(0, |flags, &flag| flags | flag.cast_unsigned());
    checked.extend([
        instruction(BPF_JMP_JEQ_K, 0, 2, number(libc::SYS_clone)?),
        instruction(BPF_LD_W_ABS, 0, 0, ARG0_LOW_OFFSET),
        instruction(BPF_JMP_JSET_K, 1, 0, namespace_flags),
        // seccompiler's program loads what it compares.
        instruction(BPF_JMP_JA, 0, 0, 1),
        instruction(
            BPF_RET_K,
            0,
            0,
            libc::SECCOMP_RET_ERRNO | libc::EPERM.cast_unsigned(),
        ),
    ]);
    checked.extend(program);
    Ok(checked)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What the kernel would answer: the classic BPF subset seccompiler
    /// and our checks emit, run over a call's `seccomp_data`.
    fn verdict(filter: &BpfProgram, arch: u32, nr: u32, args: [u64; 6]) -> u32 {
        let mut data = Vec::with_capacity(64);
        data.extend(nr.to_ne_bytes());
        data.extend(arch.to_ne_bytes());
        data.extend(0u64.to_ne_bytes());
        for arg in args {
            data.extend(arg.to_ne_bytes());
        }
        let (mut pc, mut a) = (0usize, 0u32);
        loop {
            let i = &filter[pc];
            let k = i.k;
            let jump = |taken: bool| 1 + usize::from(if taken { i.jt } else { i.jf });
            pc += match i.code {
                BPF_LD_W_ABS => {
                    let at = k as usize;
                    a = u32::from_ne_bytes(data[at..at + 4].try_into().unwrap());
                    1
                }
                // BPF_ALU | BPF_AND | BPF_K
                0x54 => {
                    a &= k;
                    1
                }
                BPF_JMP_JA => 1 + k as usize,
                BPF_JMP_JEQ_K => jump(a == k),
                // BPF_JMP | BPF_JGT | BPF_K, BPF_JMP | BPF_JGE | BPF_K
                0x25 => jump(a > k),
                0x35 => jump(a >= k),
                BPF_JMP_JSET_K => jump(a & k != 0),
                BPF_RET_K => return k,
                code => panic!("instruction {code:#x} at {pc}"),
            };
        }
    }

    const ALLOW: u32 = libc::SECCOMP_RET_ALLOW;
    const EPERM: u32 = libc::SECCOMP_RET_ERRNO | libc::EPERM as u32;

    fn call(policy: &Policy, nr: libc::c_long, args: [u64; 6]) -> u32 {
        verdict(&policy.filter, AUDIT_ARCH, nr as u32, args)
    }

    #[test]
    fn the_policy_compiles_within_the_kernels_size_limit() {
        let policy = Policy::compile().expect("the policy compiles");
        // BPF_MAXINSNS.
        assert!(policy.filter.len() <= 4096, "{}", policy.filter.len());
    }

    #[test]
    fn every_denied_call_answers_eperm_and_the_rest_are_allowed() {
        let policy = Policy::compile().expect("the policy compiles");
        for &nr in DENIED {
            assert_eq!(call(&policy, nr, [0; 6]), EPERM, "call {nr}");
        }
        for nr in [
            libc::SYS_read,
            libc::SYS_write,
            libc::SYS_mmap,
            libc::SYS_execve,
        ] {
            assert_eq!(call(&policy, nr, [0; 6]), ALLOW, "call {nr}");
        }
        let enosys = libc::SECCOMP_RET_ERRNO | libc::ENOSYS as u32;
        assert_eq!(call(&policy, libc::SYS_clone3, [0; 6]), enosys);
    }

    #[test]
    fn clone_personality_and_socket_are_judged_by_their_arguments() {
        let policy = Policy::compile().expect("the policy compiles");
        let thread = (libc::CLONE_VM | libc::CLONE_THREAD | libc::CLONE_SIGHAND) as u64;
        assert_eq!(
            call(&policy, libc::SYS_clone, [thread, 0, 0, 0, 0, 0]),
            ALLOW
        );
        for flag in CLONE_NAMESPACE_FLAGS {
            let flags = u64::from(flag.cast_unsigned()) | libc::SIGCHLD as u64;
            assert_eq!(
                call(&policy, libc::SYS_clone, [flags, 0, 0, 0, 0, 0]),
                EPERM
            );
        }
        for value in ALLOWED_PERSONALITIES {
            let args = [value, 0, 0, 0, 0, 0];
            assert_eq!(call(&policy, libc::SYS_personality, args), ALLOW);
        }
        // ADDR_NO_RANDOMIZE.
        let args = [0x0040000, 0, 0, 0, 0, 0];
        assert_eq!(call(&policy, libc::SYS_personality, args), EPERM);
        let netlink = |protocol: i32| [libc::AF_NETLINK as u64, 2, protocol as u64, 0, 0, 0];
        let uevent = netlink(libc::NETLINK_KOBJECT_UEVENT);
        assert_eq!(call(&policy, libc::SYS_socket, uevent), EPERM);
        let route = netlink(libc::NETLINK_ROUTE);
        assert_eq!(call(&policy, libc::SYS_socket, route), ALLOW);
    }

    #[test]
    fn calls_of_a_foreign_abi_kill_the_process() {
        let policy = Policy::compile().expect("the policy compiles");
        let kill = libc::SECCOMP_RET_KILL_PROCESS;
        // AUDIT_ARCH_I386: getpid through `int 0x80`.
        assert_eq!(verdict(&policy.filter, 0x4000_0003, 20, [0; 6]), kill);
        #[cfg(target_arch = "x86_64")]
        assert_eq!(
            call(&policy, X32_SYSCALL_BIT as libc::c_long + 39, [0; 6]),
            kill
        );
    }
}
