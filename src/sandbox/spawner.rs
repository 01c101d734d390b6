//! The spawner: a small helper process that clones every run's keeper, so
//! that a keeper is a copy of a small process, not of the daemon.
//!
//! A keeper cloned straight from the daemon got a copy of the daemon's page
//! tables (`dup_mmap`), and the daemon then took a copy-on-write fault on
//! every page it wrote while the run went on; both grow with the daemon's
//! memory (about 0.23 ms a run each; BENCHMARKS.md, "The program
//! sandbox"). The spawner is this same binary started afresh
//! (`/proc/self/exe` with the one argument [`ARG`]), so it holds little
//! memory. For each run it receives the run's [`Prepared`] and descriptors
//! (stdin, stdout, stderr, the report pipe and the run's network namespace)
//! over a socket, clones the keeper ([`jail::start_keeper`]) and answers
//! with the keeper's pidfd. The daemon then watches the run as before,
//! through the report pipe, kills the keeper through the pidfd and waits
//! for its end on it; the spawner reaps nothing itself (`SIGCHLD` ignored,
//! so the kernel does).
//!
//! Every binary that links this library can be the spawner: an
//! `.init_array` entry, which glibc calls before `main` with `argc` and
//! `argv`, turns the process into the spawner when its only argument is
//! [`ARG`] and the socket is its descriptor 3. So the daemon, the
//! benchmarks and the test binaries start it the same way.
//!
//! Lifetimes: the spawner ends when the daemon's end of the socket closes
//! (the daemon exited, however it died); a keeper dies with the spawner
//! (`PR_SET_PDEATHSIG`), and checks, once it has asked, that the daemon's
//! end is still open (see [`jail`]). The spawner ignores the terminal's
//! signals: a Ctrl-C stops the daemon, which lets the runs in progress end.
//! If the spawner dies while the daemon lives, the next run starts a new
//! one.

use std::{
    ffi::{CStr, c_char},
    io::{self, IoSlice, IoSliceMut},
    mem::MaybeUninit,
    os::{
        fd::{AsFd, AsRawFd, BorrowedFd, FromRawFd, OwnedFd},
        unix::process::CommandExt,
    },
    process::{Child, Command, Stdio},
    sync::Mutex,
};

use libc::c_int;
use rustix::net::{
    AddressFamily, RecvAncillaryBuffer, RecvAncillaryMessage, RecvFlags, ReturnFlags,
    SendAncillaryBuffer, SendAncillaryMessage, SendFlags, SocketFlags, SocketType,
};

use super::{
    jail::{self, Prepared},
    seccomp::Policy,
};

/// The argument that makes a process the spawner.
pub const ARG: &str = "--nimjudge-sandbox-spawner";

/// The spawner's end of the socket, in the spawner.
const SOCKET_FD: c_int = 3;

/// Descriptors sent with each request: stdin, stdout, stderr, the report
/// pipe's write end, the run's network namespace.
pub const REQUEST_FDS: usize = 5;

/// The largest request: a run's paths, arguments and environment as JSON.
const MAX_REQUEST: usize = 256 * 1024;

/// The spawner's answer: 0 and a pidfd, or an errno and the step of
/// [`jail`]'s list that failed (-1: reading the request).
#[derive(Clone, Copy, Default)]
#[repr(C)]
struct Reply {
    errno: i32,
    step: i32,
}

impl Reply {
    fn bytes(&self) -> [u8; 8] {
        let mut bytes = [0; 8];
        bytes[..4].copy_from_slice(&self.errno.to_ne_bytes());
        bytes[4..].copy_from_slice(&self.step.to_ne_bytes());
        bytes
    }

    fn from_bytes(bytes: &[u8; 8]) -> Reply {
        Reply {
            errno: i32::from_ne_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]),
            step: i32::from_ne_bytes([bytes[4], bytes[5], bytes[6], bytes[7]]),
        }
    }
}

/// Why the spawner did not start a keeper.
#[derive(Debug, thiserror::Error)]
pub enum SpawnError {
    #[error("the sandbox's spawner: {0}")]
    Spawner(io::Error),
    /// It could not compile the seccomp policy: a bug, or an architecture
    /// the policy does not know; trying again will not help.
    #[error("the sandbox's spawner could not compile the seccomp policy (see its message above)")]
    Policy,
    #[error("{step}: {cause}")]
    Keeper {
        step: &'static str,
        cause: io::Error,
    },
}

/// The daemon's side: the spawner process and the socket to it, started
/// again if it died.
#[derive(Debug)]
pub struct Spawner {
    connection: Mutex<Option<Connection>>,
}

#[derive(Debug)]
struct Connection {
    socket: OwnedFd,
    child: Child,
}

impl Drop for Connection {
    fn drop(&mut self) {
        // No run is in flight once the sandbox is dropped; the socket's
        // close would end the spawner too, the kill makes it prompt.
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Spawner {
    /// Starts the spawner and waits until it has compiled the seccomp
    /// policy and is ready.
    pub fn start() -> Result<Spawner, SpawnError> {
        Ok(Spawner {
            connection: Mutex::new(Some(Connection::start()?)),
        })
    }

    /// The spawner's process id (for tests that kill it).
    #[cfg(test)]
    pub fn pid(&self) -> Option<u32> {
        let connection = self.connection.lock().unwrap_or_else(|e| e.into_inner());
        connection.as_ref().map(|c| c.child.id())
    }

    /// Has a keeper started for `prepared` with the five descriptors of
    /// [`REQUEST_FDS`]; its pidfd. A spawner found dead is started again
    /// and asked once more (its keepers died with it, so nothing ran).
    pub fn spawn(
        &self,
        prepared: &Prepared,
        alarm_seconds: u32,
        fds: [BorrowedFd<'_>; REQUEST_FDS],
    ) -> Result<OwnedFd, SpawnError> {
        let request = serde_json::to_vec(&(prepared, alarm_seconds))
            .map_err(|e| SpawnError::Spawner(e.into()))?;
        if request.len() > MAX_REQUEST {
            return Err(SpawnError::Spawner(io::Error::new(
                io::ErrorKind::InvalidInput,
                format!(
                    "a run's request of {} bytes is over {MAX_REQUEST}",
                    request.len()
                ),
            )));
        }
        let mut connection = self.connection.lock().unwrap_or_else(|e| e.into_inner());
        let mut gone = None;
        for _ in 0..2 {
            let live = match connection.take() {
                Some(live) => live,
                None => Connection::start()?,
            };
            match live.ask(&request, &fds) {
                Ok(answer) => {
                    *connection = Some(live);
                    return answer;
                }
                // Dropped (killed and reaped); its keepers died with it.
                Err(e) => {
                    tracing::warn!(error = %e, "the sandbox's spawner is gone");
                    gone = Some(e);
                }
            }
        }
        Err(SpawnError::Spawner(
            gone.unwrap_or_else(|| io::Error::other("no spawner answered")),
        ))
    }
}

impl Connection {
    fn start() -> Result<Connection, SpawnError> {
        let (ours, theirs) = rustix::net::socketpair(
            AddressFamily::UNIX,
            SocketType::SEQPACKET,
            SocketFlags::CLOEXEC,
            None,
        )
        .map_err(|e| SpawnError::Spawner(e.into()))?;
        let theirs_fd = theirs.as_raw_fd();
        let mut command = Command::new("/proc/self/exe");
        command
            .arg0("nimjudge-sandbox-spawner")
            .arg(ARG)
            .env_clear()
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::inherit());
        // SAFETY: between fork and exec the closure makes only the
        // async-signal-safe dup2 and fcntl calls.
        unsafe {
            command.pre_exec(move || {
                let moved = if theirs_fd == SOCKET_FD {
                    libc::fcntl(SOCKET_FD, libc::F_SETFD, 0)
                } else {
                    libc::dup2(theirs_fd, SOCKET_FD)
                };
                if moved < 0 {
                    return Err(io::Error::last_os_error());
                }
                Ok(())
            });
        }
        let child = command.spawn().map_err(SpawnError::Spawner)?;
        drop(theirs);
        let connection = Connection {
            socket: ours,
            child,
        };
        // The spawner's first message says it is ready (or why not).
        let mut bytes = [0u8; 8];
        let read = rustix::io::retry_on_intr(|| rustix::io::read(&connection.socket, &mut bytes))
            .map_err(|e| SpawnError::Spawner(e.into()))?;
        if read != bytes.len() {
            return Err(SpawnError::Spawner(io::Error::other(
                "it ended before it was ready (see its message above)",
            )));
        }
        let hello = Reply::from_bytes(&bytes);
        if hello.errno != 0 {
            return Err(SpawnError::Policy);
        }
        Ok(connection)
    }

    /// One request and its answer. The outer error: the spawner is gone.
    fn ask(
        &self,
        request: &[u8],
        fds: &[BorrowedFd<'_>; REQUEST_FDS],
    ) -> io::Result<Result<OwnedFd, SpawnError>> {
        let mut space = [MaybeUninit::uninit(); rustix::cmsg_space!(ScmRights(REQUEST_FDS))];
        let mut control = SendAncillaryBuffer::new(&mut space);
        if !control.push(SendAncillaryMessage::ScmRights(fds)) {
            return Err(io::Error::other("no room for the descriptors"));
        }
        rustix::io::retry_on_intr(|| {
            rustix::net::sendmsg(
                &self.socket,
                &[IoSlice::new(request)],
                &mut control,
                SendFlags::NOSIGNAL,
            )
        })?;
        let mut bytes = [0u8; 8];
        let mut space = [MaybeUninit::uninit(); rustix::cmsg_space!(ScmRights(1))];
        let mut control = RecvAncillaryBuffer::new(&mut space);
        let received = rustix::io::retry_on_intr(|| {
            rustix::net::recvmsg(
                &self.socket,
                &mut [IoSliceMut::new(&mut bytes)],
                &mut control,
                RecvFlags::CMSG_CLOEXEC,
            )
        })?;
        let mut pidfd = None;
        for message in control.drain() {
            if let RecvAncillaryMessage::ScmRights(fds) = message {
                for fd in fds {
                    pidfd.get_or_insert(fd);
                }
            }
        }
        if received.bytes != bytes.len() {
            return Err(io::Error::new(
                io::ErrorKind::UnexpectedEof,
                "it closed the socket",
            ));
        }
        let reply = Reply::from_bytes(&bytes);
        if reply.errno != 0 {
            let source = io::Error::from_raw_os_error(reply.errno);
            return Ok(Err(match reply.step {
                step if step < 0 => SpawnError::Spawner(source),
                step => SpawnError::Keeper {
                    step: jail::step_name(step),
                    cause: source,
                },
            }));
        }
        Ok(pidfd.ok_or_else(|| {
            SpawnError::Spawner(io::Error::other("it answered without the keeper's pidfd"))
        }))
    }
}

// ---- Below here runs in the spawner process. ----

/// Called by glibc before `main` in every binary linking this library.
#[used]
#[unsafe(link_section = ".init_array")]
static SPAWNER_ENTRY: extern "C" fn(c_int, *const *const c_char, *const *const c_char) = entry;

extern "C" fn entry(argc: c_int, argv: *const *const c_char, _envp: *const *const c_char) {
    if argc != 2 || argv.is_null() {
        return;
    }
    // SAFETY: glibc passes the process's argv, `argc` valid C strings.
    let first = unsafe { *argv.add(1) };
    // SAFETY: as above.
    if first.is_null() || unsafe { CStr::from_ptr(first) }.to_bytes() != ARG.as_bytes() {
        return;
    }
    let code = serve();
    // SAFETY: leaving without running the rest of the binary's start.
    unsafe { libc::_exit(code) }
}

/// The spawner's loop: one request, one keeper, one answer, until the
/// daemon's end closes.
fn serve() -> c_int {
    // SAFETY: descriptor 3 was handed over by the daemon for this purpose;
    // it is checked to be a socket before use.
    let socket = unsafe { OwnedFd::from_raw_fd(SOCKET_FD) };
    // SAFETY: naming this process (at most 15 bytes and a NUL).
    unsafe { libc::prctl(libc::PR_SET_NAME, c"sandbox-spawner".as_ptr(), 0, 0, 0) };
    if rustix::net::sockopt::socket_type(&socket) != Ok(SocketType::SEQPACKET) {
        eprintln!("{ARG}: descriptor 3 is not the daemon's socket");
        return 2;
    }
    for signal in [
        libc::SIGINT,
        libc::SIGTERM,
        libc::SIGHUP,
        libc::SIGQUIT,
        libc::SIGPIPE,
        // The kernel reaps the keepers; the daemon waits on their pidfds.
        libc::SIGCHLD,
    ] {
        // SAFETY: setting a signal's disposition to ignored.
        unsafe { libc::signal(signal, libc::SIG_IGN) };
    }
    let policy = match Policy::compile() {
        Ok(policy) => policy,
        Err(e) => {
            eprintln!("nimjudge sandbox spawner: {e}");
            let _ = rustix::net::send(
                &socket,
                &Reply {
                    errno: libc::EINVAL,
                    step: -1,
                }
                .bytes(),
                SendFlags::NOSIGNAL,
            );
            return 1;
        }
    };
    if rustix::net::send(&socket, &Reply::default().bytes(), SendFlags::NOSIGNAL).is_err() {
        return 0;
    }
    let mut request = vec![0u8; MAX_REQUEST];
    let mut stacks = jail::Stacks::new();
    loop {
        let mut space = [MaybeUninit::uninit(); rustix::cmsg_space!(ScmRights(REQUEST_FDS))];
        let mut control = RecvAncillaryBuffer::new(&mut space);
        let received = match rustix::io::retry_on_intr(|| {
            rustix::net::recvmsg(
                &socket,
                &mut [IoSliceMut::new(&mut request)],
                &mut control,
                RecvFlags::CMSG_CLOEXEC,
            )
        }) {
            Ok(received) => received,
            Err(_) => return 1,
        };
        if received.bytes == 0 {
            // The daemon's end closed: it has exited.
            return 0;
        }
        let mut fds: Vec<OwnedFd> = Vec::with_capacity(REQUEST_FDS);
        for message in control.drain() {
            if let RecvAncillaryMessage::ScmRights(received) = message {
                fds.extend(received);
            }
        }
        let reply = match start(
            &request[..received.bytes],
            received.flags,
            fds,
            (&policy, &mut stacks),
            &socket,
        ) {
            Ok(pidfd) => send_reply(&socket, Reply::default(), Some(pidfd.as_fd())),
            Err(reply) => send_reply(&socket, reply, None),
        };
        if reply.is_err() {
            return 0;
        }
    }
}

/// Reads one request and starts its keeper.
fn start(
    request: &[u8],
    flags: ReturnFlags,
    fds: Vec<OwnedFd>,
    (policy, stacks): (&Policy, &mut jail::Stacks),
    socket: &OwnedFd,
) -> Result<OwnedFd, Reply> {
    let malformed = Reply {
        errno: libc::EINVAL,
        step: -1,
    };
    if flags.intersects(ReturnFlags::TRUNC | ReturnFlags::CTRUNC) {
        return Err(malformed);
    }
    let Ok(fds) = <[OwnedFd; REQUEST_FDS]>::try_from(fds) else {
        return Err(malformed);
    };
    let Ok((prepared, alarm_seconds)) = serde_json::from_slice::<(Prepared, u32)>(request) else {
        return Err(malformed);
    };
    jail::start_keeper(
        &prepared,
        policy,
        stacks,
        alarm_seconds,
        &fds,
        socket.as_fd(),
    )
    .map_err(|(step, error)| Reply {
        errno: error.raw_os_error().unwrap_or(libc::EIO),
        step,
    })
}

fn send_reply(socket: &OwnedFd, reply: Reply, pidfd: Option<BorrowedFd<'_>>) -> io::Result<()> {
    let fds: &[BorrowedFd<'_>] = match &pidfd {
        Some(fd) => std::slice::from_ref(fd),
        None => &[],
    };
    let mut space = [MaybeUninit::uninit(); rustix::cmsg_space!(ScmRights(1))];
    let mut control = SendAncillaryBuffer::new(&mut space);
    if !fds.is_empty() {
        control.push(SendAncillaryMessage::ScmRights(fds));
    }
    rustix::io::retry_on_intr(|| {
        rustix::net::sendmsg(
            socket,
            &[IoSlice::new(&reply.bytes())],
            &mut control,
            SendFlags::NOSIGNAL,
        )
    })?;
    Ok(())
}
