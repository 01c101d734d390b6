//! Integration tests of the grading daemon: the real server on port 0, a
//! fresh SQLite database per test, driven over HTTP.

mod ccs;
mod connections;
mod contests;
mod document;
mod documents;
mod errors;
mod feedback;
mod health;
mod helpers;
mod idempotency;
mod imported;
mod interactive;
mod limits;
mod programs;
mod queue;
mod rejudgings;
mod roles;
mod setters;
mod submissions;
mod tokens;
