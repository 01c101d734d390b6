//! Programs of this host judged in the sandbox against a problem of the
//! catalog folder, as `interact` and `stress` do: the host's sandbox and
//! languages, the problem's limits, and the program itself: a source file
//! to compile, or a setter's command to run as it is.

use std::path::{Component, Path, PathBuf};

use anyhow::{Context, bail};

use crate::{
    app::worker::program::{BoxFile, ProblemLimits},
    catalog,
    config::{Config, LanguageConfig},
    programs::{Language, Programs},
    sandbox::Sandbox,
};

/// Most bytes a command's files may hold together.
const COMMAND_FILES_LIMIT: u64 = 256 << 20;

/// The sandbox of this host, set up from the settings file, and a problem's
/// limits from its folder in the catalog.
pub struct LocalJudge {
    pub programs: Programs,
    pub sandbox: Sandbox,
    /// The problem's limits, from its folder in the catalog.
    pub limits: ProblemLimits,
}

impl LocalJudge {
    /// Sets up the sandbox from the settings file and loads `problem` from
    /// the catalog folder; each failure says which.
    pub fn load(config: Option<&Path>, problem: &str) -> anyhow::Result<LocalJudge> {
        let config = Config::load(config)?;
        let programs = Programs::start(&config.sandbox, &config.languages);
        let sandbox = programs
            .sandbox()
            .map_err(|why| anyhow::anyhow!("the sandbox cannot isolate programs here: {why}"))?;
        let loaded = catalog::load_problem(&config.catalog.problems_dir.join(problem))
            .with_context(|| format!("cannot load problem `{problem}` for its limits"))?;
        Ok(LocalJudge {
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
}

/// A source file of this host, to be compiled in the sandbox.
pub struct LocalProgram {
    pub path: PathBuf,
    pub source: String,
    pub judge: LocalJudge,
}

impl LocalProgram {
    /// Reads `path` and sets up the judge (see [`LocalJudge::load`]).
    pub fn load(config: Option<&Path>, problem: &str, path: &Path) -> anyhow::Result<LocalProgram> {
        let source = std::fs::read_to_string(path)
            .with_context(|| format!("cannot read {}", path.display()))?;
        Ok(LocalProgram {
            path: path.to_path_buf(),
            source,
            judge: LocalJudge::load(config, problem)?,
        })
    }

    /// The file's language, by its extension, usable on this host.
    pub fn language(&self) -> anyhow::Result<&Language> {
        self.judge
            .programs
            .language_of_file(&self.path)
            .map_err(anyhow::Error::msg)
    }
}

/// A setter's command, run in the sandbox as it is: the "language" whose
/// run line is the command, with nothing to compile and the problem's own
/// time limit (no multiplier).
pub fn command_language(command: &[String]) -> anyhow::Result<Language> {
    let Some(program) = command.first() else {
        bail!("no command after `--`");
    };
    // A bare name is looked up on the sandbox's PATH when it runs.
    if program.contains('/') && !Path::new(program).is_file() {
        bail!("the command's program `{program}` is not a file of this host");
    }
    Ok(Language {
        config: LanguageConfig {
            id: "command".parse().map_err(anyhow::Error::msg)?,
            name: "a command".to_string(),
            extensions: Vec::new(),
            source_file: String::new(),
            toolchain: None,
            compile: None,
            run: command.to_vec(),
            time_multiplier: 1.0,
        },
        toolchain: None,
        unavailable: None,
    })
}

/// The files a command names: every argument (the program's path among
/// them) that is a relative path to a regular file of this host, read from
/// the current folder, to be put in the box at the same path, so the
/// command finds them from `/box`, its working folder. A relative path that
/// climbs out with `..` is refused, and so is an absolute path to a file
/// outside the `system` folders the sandbox shows; bare names are left to
/// the sandbox's `PATH`.
pub fn command_files(command: &[String], system: &[PathBuf]) -> anyhow::Result<Vec<BoxFile>> {
    use std::os::unix::fs::PermissionsExt;
    let mut files: Vec<BoxFile> = Vec::new();
    let mut total = 0u64;
    for argument in command {
        let path = Path::new(argument);
        if path.is_absolute() {
            if path.exists() && !system.iter().any(|folder| path.starts_with(folder)) {
                bail!(
                    "`{argument}` is not in the sandbox, which shows only its system folders; name a file of the current folder by a relative path to copy it in"
                );
            }
            continue;
        }
        if !path.is_file() {
            continue;
        }
        if path.components().any(|c| c == Component::ParentDir) {
            bail!(
                "`{argument}` is outside the current folder: the sandbox sees only the files a command names below it"
            );
        }
        let inside: PathBuf = path
            .components()
            .filter(|c| matches!(c, Component::Normal(_)))
            .collect();
        if files.iter().any(|f| f.path == inside) {
            continue;
        }
        let metadata =
            std::fs::metadata(path).with_context(|| format!("cannot read {argument}"))?;
        total += metadata.len();
        if total > COMMAND_FILES_LIMIT {
            bail!(
                "the command's files hold more than {} MiB",
                COMMAND_FILES_LIMIT >> 20
            );
        }
        files.push(BoxFile {
            path: inside,
            contents: std::fs::read(path).with_context(|| format!("cannot read {argument}"))?,
            executable: metadata.permissions().mode() & 0o111 != 0,
        });
    }
    Ok(files)
}
