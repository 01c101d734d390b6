//! What a sandbox does before its first run: take the work folder for
//! itself, and remove whatever a process that died (a crash, `kill -9`)
//! may have left of its runs: processes of the pool's uids, run cgroups
//! with processes in them, box folders with sources, binaries and outputs.
//!
//! Runs die with the daemon (see `jail`), so there is normally nothing to
//! find; the sweep is for what that cannot cover (a kernel without the
//! guarantee, a run started by an older build). It never touches what is
//! not the sandbox's: only the configured uids, the groups named
//! `nimjudge-<pid>-<n>` whose process is gone, and the folder names runs
//! make in the work folder.

use std::{
    fs::{self, File, OpenOptions},
    io,
    ops::Range,
    os::fd::AsRawFd,
    path::Path,
    time::Duration,
};

use super::{Cgroups, SandboxError, io_error};

/// What the start-up sweep found and removed.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Swept {
    /// Processes of the pool's uids or of leftover groups, killed.
    pub processes: usize,
    /// Run cgroups removed (one a controller on cgroup v1).
    pub cgroups: usize,
    /// Box and scratch folders removed.
    pub folders: usize,
}

impl Swept {
    pub fn is_empty(&self) -> bool {
        *self == Swept::default()
    }
}

/// Takes an exclusive lock on `work_dir/.lock` for as long as the returned
/// file is open, so two processes never share (and sweep) one work folder.
pub fn lock(work_dir: &Path) -> Result<File, SandboxError> {
    let path = work_dir.join(".lock");
    let file = OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(&path)
        .map_err(io_error(format!("opening {}", path.display())))?;
    // SAFETY: flock on a descriptor we own.
    if unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) } != 0 {
        let error = io::Error::last_os_error();
        return Err(if error.kind() == io::ErrorKind::WouldBlock {
            SandboxError::InUse(work_dir.to_path_buf())
        } else {
            SandboxError::Io {
                what: format!("locking {}", path.display()),
                cause: error,
            }
        });
    }
    Ok(file)
}

/// Refuses a pool whose uids belong to a named user: the sweep kills every
/// process of the pool's uids, and a run must not act as anyone.
pub fn check_uids_unnamed(uids: &Range<u32>) -> Result<(), SandboxError> {
    let passwd = fs::read_to_string("/etc/passwd").unwrap_or_default();
    for line in passwd.lines() {
        let mut fields = line.split(':');
        let (Some(name), _, Some(uid)) = (fields.next(), fields.next(), fields.next()) else {
            continue;
        };
        if let Ok(uid) = uid.parse::<u32>()
            && uids.contains(&uid)
        {
            return Err(SandboxError::UidTaken {
                uid,
                name: name.to_string(),
            });
        }
    }
    Ok(())
}

/// Kills every process of `uids` and of leftover run groups, removes those
/// groups and the box folders in `work_dir`. Best effort: what cannot be
/// removed is left, and the self-test then says whether runs still work.
pub fn sweep(work_dir: &Path, uids: &Range<u32>, cgroups: Option<&Cgroups>) -> Swept {
    let mut swept = Swept {
        processes: kill_processes_of(uids),
        ..Swept::default()
    };
    if let Some(cgroups) = cgroups {
        let (removed, killed) = cgroups.remove_stale();
        swept.cgroups = removed;
        swept.processes += killed;
    }
    swept.folders = remove_box_folders(work_dir);
    swept
}

/// Sends `SIGKILL` to every process whose real, effective, saved or file
/// system uid is in `uids` (see [`kill_until_none_left`]).
fn kill_processes_of(uids: &Range<u32>) -> usize {
    kill_until_none_left(|| processes_of(uids))
}

/// Sends `SIGKILL` to every process `find` lists, and lists again, until
/// it lists none (a process may fork between two lists) or a second has
/// passed. Returns how many signals were sent.
pub(super) fn kill_until_none_left(mut find: impl FnMut() -> Vec<libc::pid_t>) -> usize {
    let mut killed = 0;
    for _ in 0..100 {
        let found = find();
        if found.is_empty() {
            break;
        }
        for pid in found {
            // SAFETY: a signal to a process of the sandbox's own (a pool
            // uid's, or one in a run's group whose daemon is gone).
            if unsafe { libc::kill(pid, libc::SIGKILL) } == 0 {
                killed += 1;
            }
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    killed
}

/// Live (not zombie) processes with any uid in `uids`.
fn processes_of(uids: &Range<u32>) -> Vec<libc::pid_t> {
    let Ok(entries) = fs::read_dir("/proc") else {
        return Vec::new();
    };
    entries
        .flatten()
        .filter_map(|entry| {
            let pid: libc::pid_t = entry.file_name().to_str()?.parse().ok()?;
            let status = fs::read_to_string(entry.path().join("status")).ok()?;
            let field = |key: &str| {
                status
                    .lines()
                    .find_map(|line| line.strip_prefix(key))
                    .map(str::trim)
            };
            let zombie = field("State:").is_some_and(|s| s.starts_with('Z'));
            let ours = field("Uid:")?
                .split_whitespace()
                .filter_map(|uid| uid.parse::<u32>().ok())
                .any(|uid| uids.contains(&uid));
            (ours && !zombie).then_some(pid)
        })
        .collect()
}

/// Whether `name` is a folder a run makes in the work folder: a judging's
/// `<submission id>-<attempt>`, or a `self-test-…` or `bench-…` scratch.
pub fn is_box_folder(name: &str) -> bool {
    if name.starts_with("self-test-") || name.starts_with("bench-") {
        return true;
    }
    name.rsplit_once('-').is_some_and(|(id, attempt)| {
        uuid::Uuid::try_parse(id).is_ok()
            && !attempt.is_empty()
            && attempt.bytes().all(|b| b.is_ascii_digit())
    })
}

/// Removes every box folder in `work_dir`; returns how many.
fn remove_box_folders(work_dir: &Path) -> usize {
    let Ok(entries) = fs::read_dir(work_dir) else {
        return 0;
    };
    entries
        .flatten()
        .filter(|entry| {
            entry.file_type().is_ok_and(|t| t.is_dir())
                && entry.file_name().to_str().is_some_and(is_box_folder)
                // remove_dir_all does not follow symbolic links a program left.
                && fs::remove_dir_all(entry.path()).is_ok()
        })
        .count()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn box_folders_are_known_by_their_names_alone() {
        assert!(is_box_folder("6f1c2a9e-3b7d-4c1e-9a55-0d2f7c1b8e44-1"));
        assert!(is_box_folder("self-test-AbC123"));
        assert!(is_box_folder("bench-x1"));
        for other in [
            ".root",
            ".lock",
            "box",
            "io",
            "6f1c2a9e-3b7d-4c1e-9a55-0d2f7c1b8e44",
            "6f1c2a9e-3b7d-4c1e-9a55-0d2f7c1b8e44-",
            "not-a-uuid-1",
        ] {
            assert!(!is_box_folder(other), "{other}");
        }
    }
}
