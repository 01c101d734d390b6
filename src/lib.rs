//! nimjudge: an online judge for combinatorial-game contest problems.
//!
//! # Layout
//! - [`solver`]: the pure solver core, one exact reference solver per problem.
//! - [`checker`]: token-by-token comparison of outputs.
//! - [`cli`]: the command line.
//! - [`config`]: daemon settings (defaults, `config.toml`, environment).
//! - [`telemetry`]: logging setup and in-process metrics.
//! - [`store`]: the database; every SQL statement lives there.
//! - [`catalog`]: loading `problems/` and syncing it into the database.
//! - [`worker`]: judging workers over the leased job queue.
//! - [`http`]: the HTTP API.
//! - [`startup`]: building and running the daemon.
//! - [`daemon_cli`]: the daemon's subcommands (serve, token, log, submit, status, bench).
//! - [`client`]: the HTTP client behind `submit` and `status`.
//! - [`load_bench`]: `nimjudge bench`, the load benchmark against the SQLite ceiling.

pub mod catalog;
pub mod checker;
pub mod cli;
pub mod client;
pub mod config;
pub mod daemon_cli;
pub mod http;
pub mod load_bench;
pub mod solver;
pub mod startup;
pub mod store;
pub mod telemetry;
pub mod worker;
