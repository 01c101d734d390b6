//! A source file of this host judged in the sandbox against a problem of
//! the catalog folder, as `interact` and `stress` do: the file's text, the
//! host's sandbox and languages, and the problem's limits.

use std::path::{Path, PathBuf};

use anyhow::Context;

use crate::{
    app::worker::program::ProblemLimits,
    catalog,
    config::Config,
    programs::{Language, Programs},
    sandbox::Sandbox,
};

pub struct LocalProgram {
    pub path: PathBuf,
    pub source: String,
    pub programs: Programs,
    pub sandbox: Sandbox,
    /// The problem's limits, from its folder in the catalog.
    pub limits: ProblemLimits,
}

impl LocalProgram {
    /// Reads `path`, sets up the sandbox from the settings file and loads
    /// `problem` from the catalog folder; each failure says which.
    pub fn load(config: Option<&Path>, problem: &str, path: &Path) -> anyhow::Result<LocalProgram> {
        let source = std::fs::read_to_string(path)
            .with_context(|| format!("cannot read {}", path.display()))?;
        let config = Config::load(config)?;
        let programs = Programs::start(&config.sandbox, &config.languages);
        let sandbox = programs
            .sandbox()
            .map_err(|why| anyhow::anyhow!("the sandbox cannot isolate programs here: {why}"))?;
        let loaded = catalog::load_problem(&config.catalog.problems_dir.join(problem))
            .with_context(|| format!("cannot load problem `{problem}` for its limits"))?;
        Ok(LocalProgram {
            path: path.to_path_buf(),
            source,
            programs,
            sandbox,
            limits: ProblemLimits {
                time: std::time::Duration::from_millis(
                    u64::try_from(loaded.time_limit_ms).unwrap_or(0),
                ),
                memory_bytes: u64::try_from(loaded.memory_limit_mib).unwrap_or(0) << 20,
            },
        })
    }

    /// The file's language, by its extension, usable on this host.
    pub fn language(&self) -> anyhow::Result<&Language> {
        self.programs
            .language_of_file(&self.path)
            .map_err(anyhow::Error::msg)
    }
}
