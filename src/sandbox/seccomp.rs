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
//! seccompiler compiles the rules into one BPF program. Two checks are
//! five instructions of our own put in front of it: the x32 check (every
//! number with bit 30 set, on x86_64), which seccompiler cannot express as
//! it matches numbers one by one, and `clone3`, whose answer differs from
//! the other denied calls' (one seccompiler filter has one action on a
//! match). A second filter would cost every run its own compile in the
//! kernel.

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
        let mut denied: BTreeMap<i64, Vec<SeccompRule>> =
            DENIED.iter().map(|&nr| (nr, Vec::new())).collect();
        let clone_rules = CLONE_NAMESPACE_FLAGS
            .iter()
            .map(|&flag| {
                // Bits 0..31 of the unsigned flags; the flags all fit there.
                let flag = u64::from(flag.cast_unsigned());
                SeccompCondition::new(
                    0,
                    SeccompCmpArgLen::Dword,
                    SeccompCmpOp::MaskedEq(flag),
                    flag,
                )
                .and_then(|condition| SeccompRule::new(vec![condition]))
            })
            .collect::<Result<Vec<_>, _>>()
            .map_err(error)?;
        denied.insert(libc::SYS_clone, clone_rules);
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
            filter: with_checks_in_front(main),
        })
    }
}

fn error(e: seccompiler::BackendError) -> PolicyError {
    PolicyError(e.to_string())
}

// Classic BPF opcodes of the instructions put in front.
/// BPF_LD (0x00) | BPF_W (0x00) | BPF_ABS (0x20).
const BPF_LD_W_ABS: u16 = 0x20;
/// BPF_JMP (0x05) | BPF_JEQ (0x10) | BPF_K (0x00).
const BPF_JMP_JEQ_K: u16 = 0x15;
/// BPF_JMP (0x05) | BPF_JSET (0x40) | BPF_K (0x00).
#[cfg(target_arch = "x86_64")]
const BPF_JMP_JSET_K: u16 = 0x45;
/// BPF_RET (0x06) | BPF_K (0x00).
const BPF_RET_K: u16 = 0x06;

/// `program` with our checks in front: load the call's number, kill the
/// process if it is an x32 number (bit 30 set), answer `clone3` with
/// `ENOSYS`, then go on to `program` (whose first instructions kill a
/// call of another architecture, i386's `int 0x80` among them; an i386
/// `clone3`, 435 there too, gets `ENOSYS` first, which refuses it all the
/// same).
fn with_checks_in_front(program: BpfProgram) -> BpfProgram {
    // `seccomp_data.nr`: the first field.
    const NR_OFFSET: u32 = 0;
    let instruction = |code, jt, jf, k| sock_filter { code, jt, jf, k };
    let mut checked = vec![instruction(BPF_LD_W_ABS, 0, 0, NR_OFFSET)];
    #[cfg(target_arch = "x86_64")]
    checked.extend([
        // Bit set: go on to the next instruction (kill); else skip it.
        instruction(BPF_JMP_JSET_K, 0, 1, X32_SYSCALL_BIT),
        instruction(BPF_RET_K, 0, 0, libc::SECCOMP_RET_KILL_PROCESS),
    ]);
    let clone3 = u32::try_from(libc::SYS_clone3).expect("a system call number fits 32 bits");
    checked.extend([
        // `clone3`: go on to the next instruction (ENOSYS); else skip it.
        instruction(BPF_JMP_JEQ_K, 0, 1, clone3),
        instruction(
            BPF_RET_K,
            0,
            0,
            libc::SECCOMP_RET_ERRNO | libc::ENOSYS.cast_unsigned(),
        ),
    ]);
    checked.extend(program);
    checked
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_policy_compiles_within_the_kernels_size_limit() {
        let policy = Policy::compile().expect("the policy compiles");
        // BPF_MAXINSNS.
        assert!(policy.filter.len() <= 4096, "{}", policy.filter.len());
    }
}
