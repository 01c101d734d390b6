//! Program judging on this host: whether the sandbox can isolate, and the
//! languages whose toolchains were found.
//!
//! [`Programs::start`] runs once at start: it sets up the sandbox and runs
//! its self-test, then finds each configured language's toolchain. If the
//! sandbox cannot isolate, [`Programs::sandbox`] says why and program
//! submissions are refused (the HTTP API answers 503, the worker IE); nothing
//! ever runs a contestant's program another way. A failure that may pass
//! (a self-test that failed, a work folder another process holds) is tried
//! again by [`Programs::try_again`], which the daemon calls with backoff, so
//! program judging comes back by itself.

use std::{
    path::PathBuf,
    process::Command,
    sync::{Arc, RwLock},
};

use serde::Serialize;
use utoipa::ToSchema;

use crate::{
    config::{LanguageConfig, SandboxConfig},
    domain::LanguageId,
    sandbox::{SYSTEM_BIN_DIRS, Sandbox, SandboxError, SandboxSettings, SpawnError},
};

/// A configured language and whether this host can judge it.
#[derive(Debug, Clone)]
pub struct Language {
    pub config: LanguageConfig,
    /// The toolchain's folder, seen read-only inside the sandbox.
    pub toolchain: Option<PathBuf>,
    /// Why it cannot be used here, if it cannot.
    pub unavailable: Option<String>,
}

/// A language as `GET /api/languages` lists it.
#[derive(Debug, Clone, Serialize, serde::Deserialize, ToSchema)]
pub struct LanguageInfo {
    pub id: LanguageId,
    pub name: String,
    /// File name extensions that mean this language.
    pub extensions: Vec<String>,
    /// The time limit is multiplied by this.
    pub time_multiplier: f64,
    /// Whether submissions in it are accepted now.
    pub available: bool,
    /// Why not, if not.
    pub reason: Option<String>,
}

/// Why program judging is off on this host.
#[derive(Debug, Clone, thiserror::Error)]
#[error("{reason}")]
pub struct SandboxOff {
    pub reason: String,
    /// Whether trying again may help: not for a missing privilege or a
    /// setting that is wrong.
    pub may_pass: bool,
}

/// The sandbox (or why there is none) and the languages.
#[derive(Debug, Clone)]
pub struct Programs {
    /// Shared by clones; replaced when a sandbox that was off passes its
    /// self-test on a later try.
    sandbox: Arc<RwLock<Result<Sandbox, SandboxOff>>>,
    languages: Vec<Language>,
    pub settings: SandboxConfig,
}

/// Sets up the sandbox (with its start-up sweep) and runs its self-test.
fn open_sandbox(settings: &SandboxConfig) -> Result<Sandbox, SandboxOff> {
    let opened = Sandbox::new(SandboxSettings {
        work_dir: settings.work_dir.clone(),
        first_uid: settings.first_uid,
        uid_count: settings.uid_count,
        system_paths: settings.system_paths.clone(),
        tmp_size_bytes: settings.tmp_size_bytes,
    })
    .and_then(|sandbox| {
        let swept = sandbox.swept();
        if !swept.is_empty() {
            tracing::warn!(
                processes = swept.processes,
                cgroups = swept.cgroups,
                folders = swept.folders,
                "the sandbox removed what an earlier process left of its runs"
            );
        }
        sandbox.self_test().map(|()| sandbox)
    });
    opened.map_err(|e| SandboxOff {
        may_pass: !matches!(
            e,
            SandboxError::NotRoot(_)
                | SandboxError::UidTaken { .. }
                | SandboxError::Spawner(SpawnError::Policy)
        ),
        reason: e.to_string(),
    })
}

impl Programs {
    /// Sets up and self-tests the sandbox, then finds the toolchains. Never
    /// fails: what does not work is recorded and reported.
    pub fn start(settings: &SandboxConfig, languages: &[LanguageConfig]) -> Programs {
        let sandbox = open_sandbox(settings);
        let languages = languages
            .iter()
            .map(|config| {
                let (toolchain, unavailable) = match find_toolchain(config) {
                    Ok(toolchain) => (toolchain, None),
                    Err(why) => (None, Some(why)),
                };
                Language {
                    config: config.clone(),
                    toolchain,
                    unavailable,
                }
            })
            .collect();
        Programs {
            sandbox: Arc::new(RwLock::new(sandbox)),
            languages,
            settings: settings.clone(),
        }
    }

    /// The sandbox, or why this host cannot isolate programs.
    pub fn sandbox(&self) -> Result<Sandbox, SandboxOff> {
        self.sandbox
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
    }

    /// If the sandbox is off for a reason that may pass, sets it up and
    /// self-tests it again (blocking: call it from the blocking pool).
    /// `Ok` once program judging is on.
    pub fn try_again(&self) -> Result<(), SandboxOff> {
        match self.sandbox() {
            Ok(_) => return Ok(()),
            Err(off) if !off.may_pass => return Err(off),
            Err(_) => {}
        }
        let opened = open_sandbox(&self.settings);
        let result = opened.as_ref().map(|_| ()).map_err(Clone::clone);
        *self.sandbox.write().unwrap_or_else(|e| e.into_inner()) = opened;
        result
    }

    /// Every configured language, in id order.
    pub fn languages(&self) -> &[Language] {
        &self.languages
    }

    /// The language of a source file, by its extension, and usable here;
    /// or why not, naming the file.
    pub fn language_of_file(&self, source: &std::path::Path) -> Result<&Language, String> {
        let extension = source.extension().and_then(|e| e.to_str()).unwrap_or("");
        let language = self
            .languages
            .iter()
            .find(|l| l.config.extensions.iter().any(|e| e == extension))
            .ok_or_else(|| format!("{}: no language takes `.{extension}`", source.display()))?;
        match &language.unavailable {
            Some(why) => Err(format!(
                "{}: language `{}` is unavailable: {why}",
                source.display(),
                language.config.id
            )),
            None => Ok(language),
        }
    }

    pub fn language(&self, id: &LanguageId) -> Option<&Language> {
        self.languages.iter().find(|l| &l.config.id == id)
    }

    /// A language ready for a submission, or why not.
    pub fn usable(&self, id: &LanguageId) -> Result<(Sandbox, &Language), ProgramsRefusal> {
        let language = self
            .language(id)
            .ok_or_else(|| ProgramsRefusal::UnknownLanguage(id.clone()))?;
        let sandbox = self
            .sandbox()
            .map_err(|off| ProgramsRefusal::NoSandbox(off.reason))?;
        if let Some(why) = &language.unavailable {
            return Err(ProgramsRefusal::LanguageUnavailable(
                id.clone(),
                why.clone(),
            ));
        }
        Ok((sandbox, language))
    }

    pub fn list(&self) -> Vec<LanguageInfo> {
        let sandbox = self.sandbox();
        self.languages
            .iter()
            .map(|l| {
                let reason = match (&sandbox, &l.unavailable) {
                    (Err(off), _) => Some(format!(
                        "program judging is off on this host: {}",
                        off.reason
                    )),
                    (Ok(_), why) => why.clone(),
                };
                LanguageInfo {
                    id: l.config.id.clone(),
                    name: l.config.name.clone(),
                    extensions: l.config.extensions.clone(),
                    time_multiplier: l.config.time_multiplier,
                    available: reason.is_none(),
                    reason,
                }
            })
            .collect()
    }
}

/// Why a program cannot be judged.
#[derive(Debug, Clone, thiserror::Error)]
pub enum ProgramsRefusal {
    #[error("no language `{0}` is configured; GET /api/languages lists them")]
    UnknownLanguage(LanguageId),
    #[error("program judging is unavailable on this host: {0}")]
    NoSandbox(String),
    #[error("language `{0}` is unavailable on this host: {1}")]
    LanguageUnavailable(LanguageId, String),
}

/// Runs the language's `toolchain` command (the operator's, outside the
/// sandbox) and checks the folder it prints; then checks that the compiler
/// or interpreter can be found.
fn find_toolchain(config: &LanguageConfig) -> Result<Option<PathBuf>, String> {
    let toolchain = match &config.toolchain {
        None => None,
        Some(command) => {
            let output = Command::new(&command[0])
                .args(&command[1..])
                .output()
                .map_err(|e| format!("running `{}`: {e}", command.join(" ")))?;
            if !output.status.success() {
                return Err(format!(
                    "`{}` failed ({})",
                    command.join(" "),
                    output.status
                ));
            }
            let folder = PathBuf::from(String::from_utf8_lossy(&output.stdout).trim());
            let folder = std::fs::canonicalize(&folder).map_err(|e| {
                format!(
                    "`{}` printed {}, which is not a folder: {e}",
                    command.join(" "),
                    folder.display()
                )
            })?;
            Some(folder)
        }
    };
    let first = config.compile.as_ref().unwrap_or(&config.run);
    let program = &first[0];
    if !program.contains('/') {
        let mut dirs: Vec<PathBuf> = toolchain.iter().map(|t| t.join("bin")).collect();
        dirs.extend(SYSTEM_BIN_DIRS.map(PathBuf::from));
        if !dirs.iter().any(|d| d.join(program).is_file()) {
            return Err(format!("`{program}` is not installed"));
        }
    }
    Ok(toolchain)
}
