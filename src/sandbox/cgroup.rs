//! Control groups for one sandboxed run: memory, process count and CPU
//! accounting, on cgroup v1 (one hierarchy per controller) or v2 (one
//! unified hierarchy).
//!
//! [`Cgroups::detect`] finds, once, where this process sits in each
//! hierarchy; [`Cgroups::create`] makes a fresh group for one run under it,
//! with its limits written. The run's first process joins the group itself
//! (it writes `0` to each `cgroup.procs` file listed by [`RunCgroup::procs_files`])
//! before anything untrusted starts, so every process of the run is counted.
//! After the run, [`RunCgroup::usage`] reads CPU time, peak memory and
//! whether the OOM killer fired, and dropping the group removes it.

use std::{
    fs,
    io::{self, ErrorKind},
    path::{Path, PathBuf},
    sync::atomic::{AtomicU64, Ordering},
    time::Duration,
};

/// Where this process's cgroups are, and which version the host uses.
#[derive(Debug, Clone)]
pub enum Cgroups {
    /// cgroup v1: each controller is its own hierarchy.
    V1 {
        memory: PathBuf,
        pids: PathBuf,
        cpuacct: PathBuf,
    },
    /// cgroup v2: one hierarchy; runs are created under `parent`.
    V2 { parent: PathBuf },
}

/// What a run used, read from its group after it ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CgroupUsage {
    pub cpu: Duration,
    pub peak_memory_bytes: u64,
    /// The OOM killer killed a process of the run: the memory limit was hit.
    pub oom_killed: bool,
}

/// The limits written into a run's group.
#[derive(Debug, Clone, Copy)]
pub struct CgroupLimits {
    pub memory_bytes: u64,
    pub processes: u32,
}

static NEXT_GROUP: AtomicU64 = AtomicU64::new(0);

impl Cgroups {
    /// Finds this process's memory, pids and CPU accounting groups; an error
    /// names what is missing.
    pub fn detect() -> io::Result<Cgroups> {
        let membership = fs::read_to_string("/proc/self/cgroup")?;
        let mountinfo = fs::read_to_string("/proc/self/mountinfo")?;
        let mounts = cgroup_mounts(&mountinfo);
        let v1_mount = |controller: &str| {
            mounts
                .iter()
                .find(|m| !m.unified && m.options.split(',').any(|o| o == controller))
                .map(|m| m.point.clone())
        };
        let v1_path = |controller: &str| {
            membership.lines().find_map(|line| {
                let mut parts = line.splitn(3, ':');
                let (_, controllers, path) = (parts.next()?, parts.next()?, parts.next()?);
                controllers
                    .split(',')
                    .any(|c| c == controller)
                    .then(|| path.to_string())
            })
        };
        if let (Some(memory), Some(pids), Some(cpuacct)) =
            (v1_mount("memory"), v1_mount("pids"), v1_mount("cpuacct"))
        {
            let join = |mount: PathBuf, controller: &str| -> io::Result<PathBuf> {
                let path = v1_path(controller).ok_or_else(|| {
                    io::Error::other(format!(
                        "/proc/self/cgroup does not list the {controller} controller"
                    ))
                })?;
                Ok(mount.join(path.trim_start_matches('/')))
            };
            return Ok(Cgroups::V1 {
                memory: join(memory, "memory")?,
                pids: join(pids, "pids")?,
                cpuacct: join(cpuacct, "cpuacct")?,
            });
        }
        let unified = mounts.iter().find(|m| m.unified).ok_or_else(|| {
            io::Error::other(
                "no cgroup v1 memory, pids and cpuacct hierarchies and no cgroup v2 mount",
            )
        })?;
        let own = membership
            .lines()
            .find_map(|line| line.strip_prefix("0::"))
            .ok_or_else(|| io::Error::other("/proc/self/cgroup has no cgroup v2 entry"))?;
        let own = unified.point.join(own.trim_start_matches('/'));
        Ok(Cgroups::V2 {
            parent: prepare_v2_parent(&own)?,
        })
    }

    /// Kills the processes of the groups a nimjudge process that is gone
    /// left behind (a crash between a run's start and its end) and removes
    /// the groups. Returns how many groups and processes.
    pub fn remove_stale(&self) -> (usize, usize) {
        let (mut removed, mut killed) = (0, 0);
        for parent in self.parents() {
            let Ok(entries) = fs::read_dir(parent) else {
                continue;
            };
            for entry in entries.flatten() {
                let name = entry.file_name();
                let Some(owner) = name
                    .to_str()
                    .and_then(|n| n.strip_prefix("nimjudge-"))
                    .and_then(|rest| rest.split_once('-'))
                    .and_then(|(pid, _)| pid.parse::<u32>().ok())
                else {
                    continue;
                };
                if Path::new("/proc").join(owner.to_string()).exists() {
                    continue;
                }
                killed += kill_members(&entry.path());
                if remove_when_empty(&entry.path()) {
                    removed += 1;
                }
            }
        }
        (removed, killed)
    }

    /// The folders run groups are made in: one per controller on v1.
    fn parents(&self) -> Vec<&PathBuf> {
        match self {
            Cgroups::V1 {
                memory,
                pids,
                cpuacct,
            } => vec![memory, pids, cpuacct],
            Cgroups::V2 { parent } => vec![parent],
        }
    }

    pub fn version(&self) -> &'static str {
        match self {
            Cgroups::V1 { .. } => "v1",
            Cgroups::V2 { .. } => "v2",
        }
    }

    /// Makes empty groups named `name` and leaves them (a test's stand-in
    /// for a crashed run); returns their folders.
    #[cfg(test)]
    pub fn create_named(&self, name: &str) -> io::Result<Vec<PathBuf>> {
        let parents = self.parents();
        parents
            .into_iter()
            .map(|p| {
                let dir = p.join(name);
                fs::create_dir(&dir).map(|()| dir)
            })
            .collect()
    }

    /// Creates an empty group for one run, with its limits written.
    pub fn create(&self, limits: CgroupLimits) -> io::Result<RunCgroup> {
        let name = format!(
            "nimjudge-{}-{}",
            std::process::id(),
            NEXT_GROUP.fetch_add(1, Ordering::Relaxed)
        );
        let memory = limits.memory_bytes.to_string();
        let processes = limits.processes.to_string();
        let mut group = RunCgroup {
            dirs: Vec::new(),
            version: self.clone(),
        };
        for parent in self.parents() {
            let dir = parent.join(&name);
            fs::create_dir(&dir)?;
            group.dirs.push(dir);
        }
        match self {
            Cgroups::V1 { .. } => {
                let memory_dir = &group.dirs[0];
                write(memory_dir, "memory.limit_in_bytes", &memory)?;
                // Without swap accounting the file is absent, and there is
                // no swap to escape into either.
                match write(memory_dir, "memory.memsw.limit_in_bytes", &memory) {
                    Err(e) if e.kind() == ErrorKind::NotFound => {}
                    other => other?,
                }
                write(&group.dirs[1], "pids.max", &processes)?;
            }
            Cgroups::V2 { .. } => {
                let dir = &group.dirs[0];
                write(dir, "memory.max", &memory)?;
                match write(dir, "memory.swap.max", "0") {
                    Err(e) if e.kind() == ErrorKind::NotFound => {}
                    other => other?,
                }
                write(dir, "pids.max", &processes)?;
            }
        }
        Ok(group)
    }
}

/// One run's group; removed on drop.
#[derive(Debug)]
pub struct RunCgroup {
    dirs: Vec<PathBuf>,
    version: Cgroups,
}

impl RunCgroup {
    /// The `cgroup.procs` files the run's first process writes `0` into.
    pub fn procs_files(&self) -> Vec<PathBuf> {
        self.dirs.iter().map(|d| d.join("cgroup.procs")).collect()
    }

    /// CPU time, peak memory and OOM kills of the whole run.
    pub fn usage(&self) -> io::Result<CgroupUsage> {
        match self.version {
            Cgroups::V1 { .. } => {
                let (memory, cpuacct) = (&self.dirs[0], &self.dirs[2]);
                let cpu_ns: u64 = read_number(&cpuacct.join("cpuacct.usage"))?;
                let peak = read_number(&memory.join("memory.max_usage_in_bytes"))?;
                let oom = fs::read_to_string(memory.join("memory.oom_control"))?;
                Ok(CgroupUsage {
                    cpu: Duration::from_nanos(cpu_ns),
                    peak_memory_bytes: peak,
                    oom_killed: keyed_number(&oom, "oom_kill").unwrap_or(0) > 0,
                })
            }
            Cgroups::V2 { .. } => {
                let dir = &self.dirs[0];
                let stat = fs::read_to_string(dir.join("cpu.stat"))?;
                let events = fs::read_to_string(dir.join("memory.events"))?;
                let peak = match read_number(&dir.join("memory.peak")) {
                    Ok(peak) => peak,
                    // Kernels before 5.19 have no memory.peak.
                    Err(e) if e.kind() == ErrorKind::NotFound => 0,
                    Err(e) => return Err(e),
                };
                Ok(CgroupUsage {
                    cpu: Duration::from_micros(keyed_number(&stat, "usage_usec").unwrap_or(0)),
                    peak_memory_bytes: peak,
                    oom_killed: keyed_number(&events, "oom_kill").unwrap_or(0) > 0,
                })
            }
        }
    }
}

impl Drop for RunCgroup {
    fn drop(&mut self) {
        for dir in &self.dirs {
            // The run's processes are all reaped before the group is dropped;
            // a group that is still busy for a moment is retried briefly.
            for _ in 0..50 {
                match fs::remove_dir(dir) {
                    Ok(()) => break,
                    Err(e) if e.kind() == ErrorKind::NotFound => break,
                    Err(_) => std::thread::sleep(Duration::from_millis(2)),
                }
            }
        }
    }
}

/// Kills every process in the group at `dir` (on v1, of one controller's
/// hierarchy: the run's processes are in each). Returns how many signals
/// were sent.
fn kill_members(dir: &Path) -> usize {
    super::sweep::kill_until_none_left(|| {
        fs::read_to_string(dir.join("cgroup.procs"))
            .map(|procs| {
                procs
                    .lines()
                    .filter_map(|l| l.trim().parse().ok())
                    .collect()
            })
            .unwrap_or_default()
    })
}

/// Removes the group at `dir`, waiting up to a second for its killed
/// processes to be gone; `true` if it is gone.
fn remove_when_empty(dir: &Path) -> bool {
    for _ in 0..100 {
        match fs::remove_dir(dir) {
            Ok(()) => return true,
            Err(e) if e.kind() == ErrorKind::NotFound => return true,
            Err(_) => std::thread::sleep(Duration::from_millis(10)),
        }
    }
    false
}

struct CgroupMount {
    point: PathBuf,
    options: String,
    unified: bool,
}

/// The cgroup mounts listed in `/proc/self/mountinfo`.
fn cgroup_mounts(mountinfo: &str) -> Vec<CgroupMount> {
    mountinfo
        .lines()
        .filter_map(|line| {
            let (before, after) = line.split_once(" - ")?;
            let point = before.split(' ').nth(4)?;
            let mut after = after.split(' ');
            let fstype = after.next()?;
            let _source = after.next()?;
            let options = after.next().unwrap_or("").to_string();
            let unified = match fstype {
                "cgroup2" => true,
                "cgroup" => false,
                _ => return None,
            };
            Some(CgroupMount {
                point: PathBuf::from(point),
                options,
                unified,
            })
        })
        .collect()
}

/// On cgroup v2 a group with processes cannot also hand controllers to
/// child groups, so this process moves into a leaf `nimjudge-daemon` group
/// first; runs are then created beside it.
fn prepare_v2_parent(own: &Path) -> io::Result<PathBuf> {
    let enable = |dir: &Path| write(dir, "cgroup.subtree_control", "+memory +pids +cpu");
    if enable(own).is_ok() {
        return Ok(own.to_path_buf());
    }
    let leaf = own.join("nimjudge-daemon");
    match fs::create_dir(&leaf) {
        Err(e) if e.kind() != ErrorKind::AlreadyExists => return Err(e),
        _ => {}
    }
    write(&leaf, "cgroup.procs", &std::process::id().to_string())?;
    enable(own)?;
    Ok(own.to_path_buf())
}

fn write(dir: &Path, file: &str, value: &str) -> io::Result<()> {
    fs::write(dir.join(file), value).map_err(|e| {
        io::Error::new(
            e.kind(),
            format!("writing {value:?} to {}: {e}", dir.join(file).display()),
        )
    })
}

fn read_number(path: &Path) -> io::Result<u64> {
    let text = fs::read_to_string(path)?;
    text.trim().parse().map_err(|_| {
        io::Error::new(
            ErrorKind::InvalidData,
            format!("{} does not hold a number: {text:?}", path.display()),
        )
    })
}

/// The number after `key` in a `key value` per line file.
fn keyed_number(text: &str, key: &str) -> Option<u64> {
    text.lines().find_map(|line| {
        let (k, v) = line.split_once(' ')?;
        (k == key).then(|| v.trim().parse().ok())?
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mountinfo_lines_give_cgroup_mounts() {
        let info = "\
35 24 0:30 / /sys/fs/cgroup/memory rw,relatime - cgroup cgroup rw,memory
36 24 0:31 / /sys/fs/cgroup/pids rw,relatime - cgroup cgroup rw,pids
37 24 0:32 / /sys/fs/cgroup/unified rw - cgroup2 cgroup2 rw,nsdelegate
38 24 0:33 / /proc rw - proc proc rw";
        let mounts = cgroup_mounts(info);
        assert_eq!(mounts.len(), 3);
        assert_eq!(mounts[0].point, PathBuf::from("/sys/fs/cgroup/memory"));
        assert!(mounts[0].options.split(',').any(|o| o == "memory"));
        assert!(mounts[2].unified);
    }

    #[test]
    fn keyed_numbers_are_found_by_whole_key() {
        let text = "oom_kill_disable 0\nunder_oom 0\noom_kill 3\n";
        assert_eq!(keyed_number(text, "oom_kill"), Some(3));
        assert_eq!(keyed_number(text, "missing"), None);
    }
}
