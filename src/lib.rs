//! nimjudge: an online judge for combinatorial-game contest problems.
//!
//! # Layout
//! - [`solver`]: the pure solver core, one exact reference solver per problem.
//! - [`checker`]: token-by-token comparison of outputs.
//! - [`cli`]: the command line.

pub mod checker;
pub mod cli;
pub mod solver;
