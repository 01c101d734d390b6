//! The CPU time a database server's own processes spend on a benchmark's
//! store: on PostgreSQL, the backends serving the store's sessions, read
//! from this machine's `/proc`. The load benchmark reports it beside the
//! server's own CPU, because on PostgreSQL most of a submission's CPU is
//! spent there, in other processes than the server's.

use std::{collections::HashMap, time::Duration};

use nimjudge::config::DatabaseConfig;

use crate::synthetic::Scratch;

/// The CPU time each of a store's database processes had used when read.
#[derive(Debug, Default)]
pub struct DatabaseCpu(HashMap<u32, Duration>);

impl DatabaseCpu {
    /// Reads the CPU time of the processes serving the sessions of
    /// `database`. Empty on SQLite (it runs in this process) and for a
    /// server on another machine (no `postgres` process of that id here).
    pub async fn read(database: &DatabaseConfig) -> anyhow::Result<DatabaseCpu> {
        if !database.is_postgres() {
            return Ok(DatabaseCpu::default());
        }
        let mut scratch = Scratch::open(&database.url).await?;
        let processes = scratch.database_processes().await?;
        scratch.close().await?;
        Ok(DatabaseCpu(
            processes
                .into_iter()
                .filter_map(|pid| Some((pid, postgres_cpu(pid)?)))
                .collect(),
        ))
    }

    /// Whether any process was read: a figure to report.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The CPU time used since `before` by the processes read now: the
    /// whole of a process that started since (a new pooled session). A
    /// process that ended in between is not counted.
    pub fn since(&self, before: &DatabaseCpu) -> Duration {
        self.0
            .iter()
            .map(|(pid, now)| now.saturating_sub(before.0.get(pid).copied().unwrap_or_default()))
            .sum()
    }
}

/// User and system CPU time of process `pid`, if it is a PostgreSQL
/// process of this machine.
fn postgres_cpu(pid: u32) -> Option<Duration> {
    let name = std::fs::read_to_string(format!("/proc/{pid}/comm")).ok()?;
    if name.trim_end() != "postgres" {
        return None;
    }
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    process_cpu_of_stat(&stat, clock_ticks_per_second()?)
}

/// User and system CPU time from the text of a `/proc/<pid>/stat`: the
/// 14th and 15th fields, in clock ticks. The second field (the command's
/// name, in parentheses) may hold spaces, so fields are counted after its
/// closing parenthesis.
fn process_cpu_of_stat(stat: &str, ticks_per_second: u64) -> Option<Duration> {
    let after_name = &stat[stat.rfind(')')? + 1..];
    // The fields after the name start with the 3rd (state).
    let mut fields = after_name.split_whitespace().skip(14 - 3);
    let user: u64 = fields.next()?.parse().ok()?;
    let system: u64 = fields.next()?.parse().ok()?;
    let ticks = user + system;
    Some(
        Duration::from_secs(ticks / ticks_per_second)
            + Duration::from_nanos((ticks % ticks_per_second) * 1_000_000_000 / ticks_per_second),
    )
}

fn clock_ticks_per_second() -> Option<u64> {
    // SAFETY: sysconf reads a configuration value and touches no memory of ours.
    let ticks = unsafe { libc::sysconf(libc::_SC_CLK_TCK) };
    u64::try_from(ticks).ok().filter(|&t| t > 0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use nimjudge::{
        store::Store,
        testing::{ScratchCatalog, TestBackend},
    };

    #[test]
    fn the_cpu_fields_are_counted_after_a_name_with_spaces_and_parentheses() {
        // pid (comm) state ppid pgrp session tty tpgid flags minflt cminflt
        // majflt cmajflt utime stime ...
        let stat = "4242 (post gres) x) S 1 4242 4242 0 -1 4194560 100 0 0 0 250 75 0 0 20 0";
        assert_eq!(
            process_cpu_of_stat(stat, 100),
            Some(Duration::from_millis(3250))
        );
        assert_eq!(process_cpu_of_stat("4242 (no fields)", 100), None);
    }

    #[test]
    fn this_machines_clock_ticks_are_known() {
        assert!(clock_ticks_per_second().is_some());
    }

    /// The test cluster runs on this machine: its backends of a store's
    /// database are found and read; on SQLite there are none.
    #[tokio::test]
    #[ignore = "needs PostgreSQL; scripts/test.sh runs it"]
    async fn a_postgres_stores_backends_are_read_and_sqlite_has_none() {
        for (backend, found) in [(TestBackend::Postgres, true), (TestBackend::Sqlite, false)] {
            let scratch = ScratchCatalog::nim(&[])
                .expect("scratch catalog")
                .with_backend(backend);
            let config = scratch.config("cpu", &[]).expect("settings");
            let store = Store::connect(&config.database).await.expect("a store");
            let before = DatabaseCpu::read(&config.database).await.expect("read");
            assert_eq!(!before.is_empty(), found, "{backend:?}");
            let after = DatabaseCpu::read(&config.database)
                .await
                .expect("read again");
            assert!(after.since(&before) < Duration::from_secs(5), "{backend:?}");
            store.close().await;
        }
    }
}
