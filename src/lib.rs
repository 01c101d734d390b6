//! nimjudge: an online judge for combinatorial-game contest problems.
//!
//! # Layout
//! - [`solver`]: the pure solver core, one exact reference solver per problem.
//! - [`checker`]: token-by-token comparison of outputs.
//! - [`domain`]: the vocabulary every layer speaks: ids, enums, records.
//! - [`contest`]: contests, pure: their rules, phases and ICPC scoreboard.
//! - [`scoring`]: IOI points, pure: testcase groups and the best scores.
//! - [`matrix`]: the solutions × testcases matrix and problemtools'
//!   time-limit rule, pure.
//! - [`ccs`]: contests in the shapes of the ICPC CCS Contest API, pure.
//! - [`api`]: the JSON bodies of the HTTP API, shared by server and client.
//! - [`config`]: daemon settings (defaults, `config.toml`, environment).
//! - [`telemetry`]: logging setup and metrics.
//! - [`store`]: the database; every SQL statement lives there.
//! - [`catalog`]: loading `problems/` and syncing it into the database.
//! - [`kattis`]: a problem folder written out as a Kattis problem package.
//! - [`job_signals`]: in-process wake-ups between the API and the workers.
//! - [`app`]: the application layer: every use case the edges call, and the
//!   judging workers.
//! - [`http`]: the HTTP API.
//! - [`web`]: the web UI: HTML pages over the API's own code, with sessions.
//! - [`zip_archive`]: zip archives written and read under caps, for the edges.
//! - [`startup`]: building and running the daemon.
//! - [`cli`]: the command line, one module per command group.
//! - [`testing`]: scratch fixtures shared by tests and the load benchmark.

pub mod api;
pub mod app;
pub mod catalog;
pub mod ccs;
pub mod checker;
pub mod cli;
pub mod config;
pub mod contest;
pub mod domain;
pub mod http;
pub mod job_signals;
pub mod kattis;
pub mod matrix;
pub mod programs;
pub mod sandbox;
pub mod scoring;
pub mod solver;
pub mod startup;
pub mod store;
pub mod telemetry;
pub mod testing;
pub mod web;
pub mod zip_archive;
