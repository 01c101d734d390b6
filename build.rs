//! Rebuilds the crate when a migration is added or removed.
//!
//! `sqlx::migrate!` embeds the files of `migrations/` when the crate is
//! compiled, and cargo tracks only the files that existed then: a new
//! migration alone would leave a build without it. Watching the folder
//! makes cargo compile again whenever anything in it changes.

fn main() {
    println!("cargo:rerun-if-changed=migrations");
}
