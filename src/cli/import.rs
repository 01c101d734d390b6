//! `nimjudge import`: a Kattis problem package (a folder or a zip, legacy or
//! 2025-09 format) written into the catalog folder as a problem folder whose
//! references are the package's answer files (see [`crate::kattis::import`]).
//! The daemon hosts it from its next start.

use std::{path::PathBuf, process::ExitCode};

use anyhow::Context;
use clap::Args;

use crate::{
    config::Config,
    domain::{ProblemId, TestcaseOrigin},
    kattis::{
        self,
        import::{ImportOptions, Package},
    },
};

#[derive(Debug, Args)]
pub struct ImportArgs {
    /// The package: its folder, or a zip of it.
    pub package: PathBuf,
    /// The hosted problem's id (default: the package folder's name).
    #[arg(long)]
    pub id: Option<ProblemId>,
    /// The time limit in milliseconds: a legacy package states none (Kattis
    /// sets it from the accepted submissions); it overrides a 2025-09
    /// package's.
    #[arg(long)]
    pub time_limit_ms: Option<i64>,
    /// The catalog folder to write into (default: the settings' one).
    #[arg(long)]
    pub into: Option<PathBuf>,
    /// Settings file (default: config.toml in the working directory, if present).
    #[arg(long)]
    pub config: Option<PathBuf>,
}

pub fn run(args: ImportArgs) -> anyhow::Result<ExitCode> {
    let into = match args.into {
        Some(into) => into,
        None => Config::load(args.config.as_deref())?.catalog.problems_dir,
    };
    let package = if args.package.is_file() {
        let name = args
            .package
            .file_stem()
            .and_then(|n| n.to_str())
            .unwrap_or_default();
        let archive = std::fs::read(&args.package)
            .with_context(|| format!("cannot read {}", args.package.display()))?;
        Package::read_zip(name, &archive)?
    } else {
        Package::read_folder(&args.package)?
    };
    let imported = kattis::import::import(
        &package,
        &ImportOptions {
            id: args.id,
            time_limit_ms: args.time_limit_ms,
        },
    )?;
    let problem = kattis::import::install(&imported, &into)?;
    let folder = into.join(problem.id.as_str());
    for note in &imported.notes {
        println!("note: {note}");
    }
    let samples = problem
        .testcases
        .iter()
        .filter(|t| t.origin == TestcaseOrigin::Sample)
        .count();
    println!(
        "{}: imported into {}: {} testcases ({samples} samples, {} hidden), {} files",
        problem.id,
        folder.display(),
        problem.testcases.len(),
        problem.testcases.len() - samples,
        imported.files.len()
    );
    Ok(ExitCode::SUCCESS)
}
