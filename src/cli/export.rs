//! `nimjudge export`: hosted problems written out as Kattis problem
//! packages (see [`crate::kattis`]), one folder per problem, in the legacy
//! format or the 2025-09 one.

use std::{path::PathBuf, process::ExitCode};

use anyhow::Context;
use clap::Args;

use super::verify::catalog_ids;
use crate::{
    config::Config,
    domain::{PackageFormat, ProblemId},
    kattis::{self, KattisError},
};

#[derive(Debug, Args)]
pub struct ExportArgs {
    /// Problems to export (default: every problem in the catalog folder that
    /// can be; interactive ones are named and left out).
    pub problems: Vec<ProblemId>,
    /// Folder to write into: each package goes to `<out>/<short name>/`, the
    /// id without its hyphens (Kattis allows only letters and digits).
    #[arg(long)]
    pub out: PathBuf,
    /// The package format: `legacy` (Kattis, problemtools) or `2025-09`
    /// (BAPCtools; with the invalid inputs in `data/invalid_input`).
    #[arg(long, default_value = "legacy")]
    pub format: PackageFormat,
    /// Settings file (default: config.toml in the working directory, if present).
    #[arg(long)]
    pub config: Option<PathBuf>,
}

pub fn run(args: ExportArgs) -> anyhow::Result<ExitCode> {
    let config = Config::load(args.config.as_deref())?;
    let problems_dir = &config.catalog.problems_dir;
    let every = args.problems.is_empty();
    let ids = if every {
        catalog_ids(problems_dir)?
    } else {
        args.problems
    };
    for id in &ids {
        let files = match kattis::package(&problems_dir.join(id.as_str()), args.format) {
            Ok(files) => files,
            Err(error @ KattisError::Groups(_)) if every => {
                println!("{id}: not exported: {error}");
                continue;
            }
            Err(error) => return Err(error).with_context(|| format!("cannot export `{id}`")),
        };
        let folder = args.out.join(kattis::short_name(id));
        kattis::write(&files, &folder)?;
        println!("{id}: {} files in {}", files.len(), folder.display());
    }
    Ok(ExitCode::SUCCESS)
}
