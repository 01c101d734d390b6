//! Kattis problem packages in: a package (legacy or 2025-09 format) read as
//! a nimjudge problem folder whose references are the package's answer
//! files, so a game nimjudge has no solver for can be hosted without Rust
//! code.
//!
//! The folder it makes holds `problem.toml` with `references = "files"`,
//! `statement.md` (the package's Markdown statement, or its LaTeX one read
//! back into Markdown by [`super::latex::markdown`]), `testcases/<name>.in`
//! and `.ans` for every testcase of `data/sample` (public) and
//! `data/secret` (hidden), and `solutions/<verdict>/` from `submissions/`.
//!
//! What nimjudge cannot judge as the package means is refused, naming the
//! file (and line, where it is one): interactive, multi-pass, submit-answer
//! and scoring problems, custom output validators, and the default output
//! validator's flags other than `case_sensitive` (float tolerances,
//! `space_change_sensitive`). Without `case_sensitive` answers compare as
//! Kattis' default output validator does, ASCII letters in either case
//! ([`crate::checker::Case`]). Input validators are not run by nimjudge;
//! they are kept under `kattis/input_validators/` for the problem's export.
//!
//! The legacy format states no time limit (Kattis sets it from the accepted
//! submissions); it is then given by the caller. The module reads a
//! [`Package`] already in memory and returns files: it writes nothing.

use std::{
    collections::{BTreeMap, BTreeSet},
    path::{Path, PathBuf},
};

use serde::{Deserialize, Serialize, de::IgnoredAny};

use super::{KattisError, PackageFile};
use crate::{
    catalog::LoadedProblem,
    domain::{ProblemId, TestcaseName},
};

/// What a package may hold in all, read into memory: far above any game
/// problem's, far below the host's memory.
pub const PACKAGE_LIMIT_BYTES: u64 = 512 * 1024 * 1024;

/// Memory limit when a package states none (the formats' "typical system
/// default").
const DEFAULT_MEMORY_MIB: i64 = 2048;

/// Why a package cannot be imported.
#[derive(Debug, thiserror::Error)]
pub enum ImportError {
    /// Something in the package, at `at` (a file, with its line when there
    /// is one).
    #[error("{at}: {message}")]
    Package { at: String, message: String },
    #[error("cannot read {path}: {source}")]
    Read {
        path: PathBuf,
        source: std::io::Error,
    },
}

fn bad(file: &str, line: Option<u64>, message: impl Into<String>) -> ImportError {
    ImportError::Package {
        at: match line {
            Some(line) => format!("{file}:{line}"),
            None => file.to_owned(),
        },
        message: message.into(),
    }
}

/// A package's files, by their path inside it (`/`-separated).
#[derive(Debug, Clone, Default)]
pub struct Package {
    /// The package's short name (its folder's name).
    pub name: String,
    pub files: BTreeMap<String, Vec<u8>>,
}

impl Package {
    /// Reads every file under `folder` (symbolic links are refused: a
    /// package is its own files).
    pub fn read_folder(folder: &Path) -> Result<Package, ImportError> {
        let name = folder
            .canonicalize()
            .ok()
            .and_then(|p| p.file_name().and_then(|n| n.to_str()).map(str::to_owned))
            .unwrap_or_default();
        let mut package = Package {
            name,
            files: BTreeMap::new(),
        };
        let mut total = 0u64;
        let mut pending = vec![folder.to_path_buf()];
        while let Some(dir) = pending.pop() {
            let unreadable = |source| ImportError::Read {
                path: dir.clone(),
                source,
            };
            for entry in std::fs::read_dir(&dir).map_err(unreadable)? {
                let entry = entry.map_err(unreadable)?;
                let path = entry.path();
                let kind = entry.file_type().map_err(unreadable)?;
                let relative = path
                    .strip_prefix(folder)
                    .unwrap_or(&path)
                    .to_string_lossy()
                    .replace('\\', "/");
                if kind.is_symlink() {
                    return Err(bad(
                        &relative,
                        None,
                        "a symbolic link; a package holds files",
                    ));
                } else if kind.is_dir() {
                    pending.push(path);
                } else {
                    let contents = std::fs::read(&path).map_err(|source| ImportError::Read {
                        path: path.clone(),
                        source,
                    })?;
                    total += contents.len() as u64;
                    if total > PACKAGE_LIMIT_BYTES {
                        return Err(bad(
                            &relative,
                            None,
                            format!("the package is larger than {PACKAGE_LIMIT_BYTES} bytes"),
                        ));
                    }
                    package.files.insert(relative, contents);
                }
            }
        }
        Ok(package)
    }

    /// Reads a zipped package. A package zipped inside its folder (every
    /// path under one `name/`) is read from that folder, and takes its
    /// name; otherwise the name is `name`'s (the zip file's stem).
    pub fn read_zip(name: &str, archive: &[u8]) -> Result<Package, ImportError> {
        let limit = usize::try_from(PACKAGE_LIMIT_BYTES).unwrap_or(usize::MAX);
        let files = crate::zip_archive::read_files(archive, limit)
            .map_err(|message| bad(&format!("{name}.zip"), None, message))?;
        let top = files
            .keys()
            .next()
            .and_then(|first| first.split_once('/'))
            .map(|(top, _)| format!("{top}/"))
            .filter(|top| files.keys().all(|path| path.starts_with(top.as_str())));
        Ok(match top {
            Some(top) => Package {
                name: top.trim_end_matches('/').to_owned(),
                files: files
                    .into_iter()
                    .map(|(path, bytes)| (path[top.len()..].to_owned(), bytes))
                    .collect(),
            },
            _ => Package {
                name: name.to_owned(),
                files,
            },
        })
    }

    fn text(&self, path: &str) -> Result<Option<&str>, ImportError> {
        match self.files.get(path) {
            None => Ok(None),
            Some(bytes) => std::str::from_utf8(bytes)
                .map(Some)
                .map_err(|e| bad(path, None, format!("not UTF-8 text: {e}"))),
        }
    }

    /// The files under `dir/`, by path.
    fn under<'a>(&'a self, dir: &'a str) -> impl Iterator<Item = (&'a String, &'a Vec<u8>)> {
        let prefix = format!("{dir}/");
        self.files
            .range(prefix.clone()..)
            .take_while(move |(path, _)| path.starts_with(&prefix))
    }
}

/// What the caller settles that a package may not say.
#[derive(Debug, Clone, Default)]
pub struct ImportOptions {
    /// The hosted problem's id; the package's name when absent.
    pub id: Option<ProblemId>,
    /// The time limit, which a legacy package does not state; it overrides
    /// a 2025-09 package's `limits.time_limit`.
    pub time_limit_ms: Option<i64>,
}

/// A package as a nimjudge problem folder.
#[derive(Debug, Clone)]
pub struct Imported {
    pub id: ProblemId,
    /// The folder's files, by path inside it.
    pub files: Vec<PackageFile>,
    /// What was left out, one line each (submissions in a language or a
    /// folder nimjudge does not take, input validators).
    pub notes: Vec<String>,
}

/// Why an imported problem was not put into the catalog.
#[derive(Debug, thiserror::Error)]
pub enum InstallError {
    #[error("the catalog has a problem `{0}` already (import it under another id)")]
    Exists(ProblemId),
    #[error("the imported folder does not load as a problem: {0}")]
    Load(#[from] crate::catalog::CatalogError),
    #[error(transparent)]
    Write(#[from] KattisError),
}

/// Puts an imported problem's folder into the catalog folder `into`, whole:
/// written beside the catalog's problems and loaded there, then moved into
/// place by one rename, so the catalog never holds half a problem, and a
/// folder of the same name (even one made meanwhile) is never replaced.
pub fn install(imported: &Imported, into: &Path) -> Result<LoadedProblem, InstallError> {
    let id = &imported.id;
    let folder = into.join(id.as_str());
    if folder.exists() {
        return Err(InstallError::Exists(id.clone()));
    }
    let staging = into.join(format!(".import-{}", uuid::Uuid::new_v4()));
    let staged = staging.join(id.as_str());
    let installed = super::write(&imported.files, &staged)
        .map_err(InstallError::from)
        .and_then(|()| Ok(crate::catalog::load_problem(&staged)?))
        .and_then(|problem| match std::fs::rename(&staged, &folder) {
            Ok(()) => Ok(problem),
            Err(_) if folder.exists() => Err(InstallError::Exists(id.clone())),
            Err(source) => Err(KattisError::Write {
                path: folder.clone(),
                source,
            }
            .into()),
        });
    // The staging folder goes whatever happened; the problem's error first.
    let removed = std::fs::remove_dir_all(&staging);
    let problem = installed?;
    removed.map_err(|source| KattisError::Write {
        path: staging,
        source,
    })?;
    Ok(problem)
}

/// `problem.yaml`, both formats' keys (an unknown key is an error, as both
/// specifications say). Keys nimjudge has no use for are read and ignored.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
#[expect(
    dead_code,
    reason = "keys of the formats nimjudge has no use for: read so that they are accepted"
)]
struct ProblemYaml {
    problem_format_version: Option<String>,
    #[serde(rename = "type")]
    kind: Option<OneOrMany>,
    name: Option<Name>,
    uuid: Option<IgnoredAny>,
    version: Option<IgnoredAny>,
    author: Option<IgnoredAny>,
    credits: Option<IgnoredAny>,
    source: Option<Source>,
    source_url: Option<String>,
    license: Option<IgnoredAny>,
    rights_owner: Option<IgnoredAny>,
    embargo_until: Option<IgnoredAny>,
    limits: Option<Limits>,
    validation: Option<String>,
    validator_flags: Option<String>,
    grading: Option<IgnoredAny>,
    keywords: Option<IgnoredAny>,
    languages: Option<IgnoredAny>,
    allow_file_writing: Option<bool>,
    constants: Option<IgnoredAny>,
}

#[derive(Debug, Deserialize)]
#[serde(untagged)]
enum OneOrMany {
    One(String),
    Many(Vec<String>),
}

#[derive(Debug, Deserialize)]
#[serde(untagged)]
enum Name {
    Plain(String),
    ByLanguage(BTreeMap<String, String>),
}

#[derive(Debug, Deserialize)]
#[serde(untagged)]
enum Source {
    Plain(String),
    Map { name: String, url: Option<String> },
    Many(Vec<Source>),
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
#[expect(
    dead_code,
    reason = "keys of the formats nimjudge has no use for: read so that they are accepted"
)]
struct Limits {
    time_limit: Option<f64>,
    memory: Option<i64>,
    time_multiplier: Option<IgnoredAny>,
    time_safety_margin: Option<IgnoredAny>,
    time_multipliers: Option<IgnoredAny>,
    time_resolution: Option<IgnoredAny>,
    output: Option<IgnoredAny>,
    code: Option<IgnoredAny>,
    compilation_time: Option<IgnoredAny>,
    compilation_memory: Option<IgnoredAny>,
    validation_time: Option<IgnoredAny>,
    validation_memory: Option<IgnoredAny>,
    validation_output: Option<IgnoredAny>,
    validation_passes: Option<IgnoredAny>,
}

/// A legacy `testdata.yaml`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
#[expect(
    dead_code,
    reason = "keys of the formats nimjudge has no use for: read so that they are accepted"
)]
struct TestdataYaml {
    output_validator_flags: Option<String>,
    on_reject: Option<IgnoredAny>,
    grading: Option<IgnoredAny>,
    grader_flags: Option<IgnoredAny>,
    input_validator_flags: Option<IgnoredAny>,
    accept_score: Option<IgnoredAny>,
    reject_score: Option<IgnoredAny>,
    range: Option<IgnoredAny>,
}

/// A 2025-09 `test_group.yaml`, or a testcase's `<name>.yaml`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
#[expect(
    dead_code,
    reason = "keys of the formats nimjudge has no use for: read so that they are accepted"
)]
struct TestConfigYaml {
    output_validator_args: Option<Vec<String>>,
    args: Option<Vec<String>>,
    max_score: Option<IgnoredAny>,
    score_aggregation: Option<IgnoredAny>,
    static_validation_score: Option<IgnoredAny>,
    require_pass: Option<IgnoredAny>,
    input_validator_args: Option<IgnoredAny>,
    static_validator_args: Option<IgnoredAny>,
    input_visualizer_args: Option<IgnoredAny>,
    output_visualizer_args: Option<IgnoredAny>,
    full_feedback: Option<IgnoredAny>,
    hint: Option<IgnoredAny>,
    description: Option<IgnoredAny>,
}

/// The `problem.toml` an import writes.
#[derive(Debug, Serialize)]
struct Manifest<'a> {
    id: &'a str,
    title: &'a str,
    source: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    url: Option<&'a str>,
    time_limit_ms: i64,
    memory_limit_mib: i64,
    references: &'a str,
    case_sensitive: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    reference_solution: Option<String>,
    testcase: Vec<ManifestTestcase<'a>>,
}

#[derive(Debug, Serialize)]
struct ManifestTestcase<'a> {
    name: &'a str,
    origin: &'a str,
    hidden: bool,
}

/// Parses one YAML file of the package; an error names its line.
fn yaml<T: serde::de::DeserializeOwned>(file: &str, text: &str) -> Result<T, ImportError> {
    // An empty file is a mapping with no keys.
    let text = if text.trim().is_empty() { "{}" } else { text };
    serde_saphyr::from_str(text).map_err(|e| {
        let line = e.location().map(|l| l.line());
        let message = e.to_string();
        let message = message.lines().next().unwrap_or("").trim().to_owned();
        bad(file, line, message)
    })
}

/// The line of `text` where `key:` first begins (at any indentation), for
/// naming the line of a key that is refused.
fn line_of(text: &str, key: &str) -> Option<u64> {
    text.lines()
        .position(|line| {
            line.trim_start()
                .strip_prefix(key)
                .is_some_and(|rest| rest.trim_start().starts_with(':'))
        })
        .map(|index| index as u64 + 1)
}

/// The package's format.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Format {
    Legacy,
    V2025_09,
}

impl Format {
    /// The folder of a custom output validator.
    fn output_validators(self) -> &'static str {
        match self {
            Format::Legacy => "output_validators",
            Format::V2025_09 => "output_validator",
        }
    }

    /// A test data folder's configuration file.
    fn config_file(self) -> &'static str {
        match self {
            Format::Legacy => "testdata.yaml",
            Format::V2025_09 => "test_group.yaml",
        }
    }
}

/// One testcase found in `data/`.
struct Found {
    /// Its path under `data/`, without `.in` (`secret/group1/03`).
    stem: String,
    name: TestcaseName,
    sample: bool,
    input: String,
    answer: String,
}

/// Reads `package` as a nimjudge problem folder.
pub fn import(package: &Package, options: &ImportOptions) -> Result<Imported, ImportError> {
    const PROBLEM_YAML: &str = "problem.yaml";
    let yaml_text = package
        .text(PROBLEM_YAML)?
        .ok_or_else(|| bad(PROBLEM_YAML, None, "missing: a package begins with it"))?;
    let meta: ProblemYaml = yaml(PROBLEM_YAML, yaml_text)?;
    let at = |key: &str| line_of(yaml_text, key);
    let format = match meta.problem_format_version.as_deref() {
        None | Some("legacy") | Some("legacy-icpc") => Format::Legacy,
        Some("2025-09") => Format::V2025_09,
        Some(other) => {
            return Err(bad(
                PROBLEM_YAML,
                at("problem_format_version"),
                format!(
                    "problem_format_version `{other}` is not one nimjudge reads (legacy or 2025-09)"
                ),
            ));
        }
    };
    let types: Vec<&str> = match &meta.kind {
        None => Vec::new(),
        Some(OneOrMany::One(kind)) => vec![kind.as_str()],
        Some(OneOrMany::Many(kinds)) => kinds.iter().map(String::as_str).collect(),
    };
    if let Some(kind) = types.iter().find(|&&kind| kind != "pass-fail") {
        return Err(bad(
            PROBLEM_YAML,
            at("type"),
            format!("type `{kind}`: nimjudge imports pass-fail problems only"),
        ));
    }
    if let Some(validation) = &meta.validation
        && validation.split_whitespace().next() != Some("default")
    {
        return Err(bad(
            PROBLEM_YAML,
            at("validation"),
            format!(
                "validation `{validation}`: a custom output validator is not imported \
                 (nimjudge compares tokens with the default validator's rules)"
            ),
        ));
    }
    if meta.allow_file_writing == Some(true) {
        return Err(bad(
            PROBLEM_YAML,
            at("allow_file_writing"),
            "allow_file_writing: nimjudge's sandbox gives programs no files to write",
        ));
    }
    let validators = format.output_validators();
    if let Some((path, _)) = package.under(validators).next() {
        return Err(bad(
            path,
            None,
            "a custom output validator is not imported (nimjudge compares tokens with the \
             default validator's rules)",
        ));
    }
    let problem_flags = match &meta.validator_flags {
        Some(flags) => Some(Flags::read(flags, PROBLEM_YAML, at("validator_flags"))?),
        None => None,
    };

    let testcases = testcases(package, format, problem_flags)?;
    let case_sensitive = {
        let mut kinds = testcases.iter().map(|(_, sensitive)| *sensitive);
        let first = kinds.next().unwrap_or(true);
        if kinds.any(|k| k != first) {
            return Err(bad(
                "data",
                None,
                "some testcases compare case_sensitive and others do not; nimjudge sets it per problem",
            ));
        }
        first
    };
    let testcases: Vec<Found> = testcases.into_iter().map(|(found, _)| found).collect();

    let id = match &options.id {
        Some(id) => id.clone(),
        None => package.name.parse().map_err(|e: String| {
            bad(
                &package.name,
                None,
                format!("the package's name is not a problem id ({e}); give one"),
            )
        })?,
    };
    let limits = meta.limits.as_ref();
    let time_limit_ms = match (options.time_limit_ms, limits.and_then(|l| l.time_limit)) {
        (Some(ms), _) => ms,
        (None, Some(seconds)) if seconds > 0.0 && seconds.is_finite() => {
            (seconds * 1000.0).round() as i64
        }
        (None, Some(seconds)) => {
            return Err(bad(
                PROBLEM_YAML,
                at("time_limit"),
                format!("limits.time_limit {seconds} is not a positive number of seconds"),
            ));
        }
        (None, None) => {
            return Err(bad(
                PROBLEM_YAML,
                None,
                "states no time limit (limits.time_limit; the legacy format has none): give one (--time-limit-ms)",
            ));
        }
    };
    if time_limit_ms <= 0 {
        return Err(bad(
            PROBLEM_YAML,
            at("time_limit"),
            "the time limit must be positive",
        ));
    }
    let memory_limit_mib = match limits.and_then(|l| l.memory) {
        Some(mib) if mib > 0 => mib,
        Some(mib) => {
            return Err(bad(
                PROBLEM_YAML,
                at("memory"),
                format!("limits.memory {mib} is not a positive number of MiB"),
            ));
        }
        None => DEFAULT_MEMORY_MIB,
    };
    let (source, url) = source_of(&meta, &package.name);

    let (statement_title, statement) = statement(package, format)?;
    let title = match &meta.name {
        Some(Name::Plain(name)) => name.clone(),
        Some(Name::ByLanguage(names)) => names
            .get("en")
            .or_else(|| names.values().next())
            .cloned()
            .unwrap_or_default(),
        None => statement_title.clone().unwrap_or_default(),
    };
    let title = if title.trim().is_empty() {
        id.to_string()
    } else {
        title
    };
    let statement =
        statement_markdown(&title, &source, time_limit_ms, memory_limit_mib, &statement);

    let mut notes = Vec::new();
    let solutions = solutions(package, &mut notes);
    let reference_solution = reference_solution(&solutions);
    let mut files = Vec::new();
    let manifest = Manifest {
        id: id.as_str(),
        title: &title,
        source: &source,
        url: url.as_deref(),
        time_limit_ms,
        memory_limit_mib,
        references: "files",
        case_sensitive,
        reference_solution,
        testcase: testcases
            .iter()
            .map(|t| ManifestTestcase {
                name: t.name.as_str(),
                origin: if t.sample { "sample" } else { "generated" },
                hidden: !t.sample,
            })
            .collect(),
    };
    let manifest =
        toml::to_string(&manifest).map_err(|e| bad(PROBLEM_YAML, None, e.to_string()))?;
    files.push(PackageFile::new(
        "problem.toml",
        format!(
            "# Imported from the Kattis package `{}`: each testcase's reference is its\n\
             # `.ans` file, as the package's answer.\n{manifest}",
            package.name
        ),
    ));
    files.push(PackageFile::new("statement.md", statement));
    for testcase in &testcases {
        let stem = format!("testcases/{}", testcase.name);
        files.push(PackageFile::new(
            format!("{stem}.in"),
            testcase.input.clone(),
        ));
        files.push(PackageFile::new(
            format!("{stem}.ans"),
            testcase.answer.clone(),
        ));
    }
    files.extend(solutions);
    // Kept as they are for the problem's export; a folder `input_validator`
    // is one validator, so it stays one under the plural folder.
    let kept = super::KEPT_INPUT_VALIDATORS;
    let validators: Vec<PackageFile> = package
        .under("input_validators")
        .map(|(path, bytes)| {
            (
                format!("{kept}/{}", &path["input_validators/".len()..]),
                bytes,
            )
        })
        .chain(
            package
                .under("input_validator")
                .map(|(path, bytes)| (format!("{kept}/{path}"), bytes)),
        )
        .map(|(path, bytes)| PackageFile::new(path, bytes.clone()))
        .collect();
    if !validators.is_empty() {
        notes.push(format!(
            "input validators: kept in {kept}/ for the problem's export; nimjudge does not run \
             them (a testcase a setter adds is not validated, and its reference is the \
             reference solution's output)"
        ));
    }
    files.extend(validators);
    Ok(Imported { id, files, notes })
}

/// The default output validator's flags that apply to a testcase.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Flags {
    case_sensitive: bool,
}

impl Flags {
    /// Reads flags (whitespace-separated), refusing those nimjudge cannot
    /// honour.
    fn read(flags: &str, file: &str, line: Option<u64>) -> Result<Flags, ImportError> {
        Flags::from_args(flags.split_whitespace(), file, line)
    }

    fn from_args<'a>(
        args: impl IntoIterator<Item = &'a str>,
        file: &str,
        line: Option<u64>,
    ) -> Result<Flags, ImportError> {
        let mut case_sensitive = false;
        for arg in args {
            match arg {
                "case_sensitive" => case_sensitive = true,
                "space_change_sensitive" => {
                    return Err(bad(
                        file,
                        line,
                        "space_change_sensitive: nimjudge compares tokens, whitespace aside",
                    ));
                }
                "float_tolerance" | "float_relative_tolerance" | "float_absolute_tolerance" => {
                    return Err(bad(
                        file,
                        line,
                        format!("{arg}: nimjudge compares tokens exactly, with no float tolerance"),
                    ));
                }
                other => {
                    return Err(bad(
                        file,
                        line,
                        format!("`{other}` is not a flag of the default output validator"),
                    ));
                }
            }
        }
        Ok(Flags { case_sensitive })
    }
}

/// Every testcase of `data/sample` and `data/secret`, samples first, each
/// in name order, with whether it compares case-sensitively.
fn testcases(
    package: &Package,
    format: Format,
    problem_flags: Option<Flags>,
) -> Result<Vec<(Found, bool)>, ImportError> {
    let config_name = format.config_file();
    // The flags each data folder's configuration sets (None: it sets none).
    let mut folder_flags: BTreeMap<String, Option<Flags>> = BTreeMap::new();
    for (path, _) in package.under("data") {
        let Some(folder) = path.strip_suffix(&format!("/{config_name}")) else {
            continue;
        };
        let text = package.text(path)?.unwrap_or_default();
        let flags = config_flags(format, path, text)?;
        folder_flags.insert(folder.to_owned(), flags);
    }
    let mut found = Vec::new();
    let mut names: BTreeMap<TestcaseName, String> = BTreeMap::new();
    for group in ["sample", "secret"] {
        let root = format!("data/{group}");
        for (path, _) in package.under(&root) {
            if path.split('/').any(|part| part.ends_with(".files")) {
                return Err(bad(
                    path,
                    None,
                    "input files (`.files`): nimjudge gives programs standard input only",
                ));
            }
            let Some(stem) = path.strip_suffix(".in") else {
                continue;
            };
            let answer_path = format!("{stem}.ans");
            let input = package.text(path)?.unwrap_or_default().to_owned();
            let answer = package
                .text(&answer_path)?
                .ok_or_else(|| bad(path, None, format!("has no answer file {answer_path}")))?
                .to_owned();
            // The flags: the testcase's own configuration (2025-09), else
            // the nearest folder's, else problem.yaml's.
            let own = format!("{stem}.yaml");
            let mut flags = None;
            if format == Format::V2025_09
                && let Some(text) = package.text(&own)?
            {
                flags = config_flags(format, &own, text)?;
            }
            let mut folder = stem.rsplit_once('/').map_or("", |(f, _)| f);
            while flags.is_none() && folder.starts_with("data") {
                flags = folder_flags.get(folder).copied().flatten();
                folder = folder.rsplit_once('/').map_or("", |(f, _)| f);
            }
            let flags = flags.or(problem_flags).unwrap_or(Flags {
                case_sensitive: false,
            });
            let relative = &stem[root.len() + 1..];
            let name = testcase_name(group, relative).ok_or_else(|| {
                bad(
                    path,
                    None,
                    "no testcase name can be made of this file's name",
                )
            })?;
            if let Some(other) = names.insert(name.clone(), path.clone()) {
                return Err(bad(
                    path,
                    None,
                    format!("is testcase `{name}` as {other} is; rename one"),
                ));
            }
            found.push((
                Found {
                    stem: stem.to_owned(),
                    name,
                    sample: group == "sample",
                    input,
                    answer,
                },
                flags.case_sensitive,
            ));
        }
    }
    if !found.iter().any(|(t, _)| !t.sample) {
        return Err(bad(
            "data/secret",
            None,
            "holds no testcase (`.in` with its `.ans`)",
        ));
    }
    found.sort_by(|(a, _), (b, _)| (!a.sample, &a.stem).cmp(&(!b.sample, &b.stem)));
    Ok(found)
}

/// The output validator flags a data folder's configuration (or a
/// testcase's) sets, refusing what nimjudge cannot honour.
fn config_flags(format: Format, path: &str, text: &str) -> Result<Option<Flags>, ImportError> {
    match format {
        Format::Legacy => {
            let config: TestdataYaml = yaml(path, text)?;
            config
                .output_validator_flags
                .map(|flags| Flags::read(&flags, path, line_of(text, "output_validator_flags")))
                .transpose()
        }
        Format::V2025_09 => {
            let config: TestConfigYaml = yaml(path, text)?;
            if config.args.is_some_and(|args| !args.is_empty()) {
                return Err(bad(
                    path,
                    line_of(text, "args"),
                    "args: nimjudge runs programs with no arguments",
                ));
            }
            config
                .output_validator_args
                .map(|args| {
                    Flags::from_args(
                        args.iter().map(String::as_str),
                        path,
                        line_of(text, "output_validator_args"),
                    )
                })
                .transpose()
        }
    }
}

/// A testcase's name from its path under `data/<group>/`: lowercase
/// letters, digits and hyphens (every other character a hyphen); samples
/// begin with `sample`.
fn testcase_name(group: &str, relative: &str) -> Option<TestcaseName> {
    let mut name = String::new();
    for c in relative.chars() {
        let c = c.to_ascii_lowercase();
        if c.is_ascii_lowercase() || c.is_ascii_digit() {
            name.push(c);
        } else if !name.is_empty() && !name.ends_with('-') {
            name.push('-');
        }
    }
    let name = name.trim_end_matches('-');
    let name = if group == "sample" && !name.starts_with("sample") {
        format!("sample-{name}")
    } else {
        name.to_owned()
    };
    name.trim_end_matches('-').parse().ok()
}

/// Where the problem comes from: `source` (and `source_url`, legacy) or
/// the first of 2025-09's sources.
fn source_of(meta: &ProblemYaml, package: &str) -> (String, Option<String>) {
    fn first(source: &Source) -> Option<(String, Option<String>)> {
        match source {
            Source::Plain(name) => Some((name.clone(), None)),
            Source::Map { name, url } => Some((name.clone(), url.clone())),
            Source::Many(sources) => sources.iter().find_map(first),
        }
    }
    match meta.source.as_ref().and_then(first) {
        Some((name, url)) => (name, url.or_else(|| meta.source_url.clone())),
        None => (format!("the Kattis package `{package}`"), None),
    }
}

/// The statement as Markdown, with the title its LaTeX names: English
/// first, Markdown before LaTeX; none is an empty statement.
fn statement(package: &Package, format: Format) -> Result<(Option<String>, String), ImportError> {
    let dir = match format {
        Format::Legacy => "problem_statement",
        Format::V2025_09 => "statement",
    };
    for name in [
        "problem.en.md",
        "problem.md",
        "problem.en.tex",
        "problem.tex",
    ] {
        let path = format!("{dir}/{name}");
        if let Some(text) = package.text(&path)? {
            return Ok(if name.ends_with(".md") {
                (None, text.to_owned())
            } else {
                let (title, markdown) = super::latex::markdown(text);
                (title, markdown)
            });
        }
    }
    Ok((None, String::new()))
}

/// `statement.md` as the bundled problems write it: the title, the source
/// and limits lines, then the sections; text the package puts before its
/// first section goes under `## Problem` (an export leaves out what comes
/// before the first section).
fn statement_markdown(
    title: &str,
    source: &str,
    time_limit_ms: i64,
    memory_limit_mib: i64,
    body: &str,
) -> String {
    let mut body = body.trim();
    // A Markdown statement may open with its title.
    if let Some(rest) = body.strip_prefix("# ") {
        body = rest.split_once('\n').map_or("", |(_, rest)| rest).trim();
    }
    let seconds = time_limit_ms as f64 / 1000.0;
    let mut statement = format!(
        "# {title}\n\nSource: {source}.\nTime limit: {seconds} s. Memory limit: {memory_limit_mib} MiB.\n\n"
    );
    if !body.is_empty() && !body.starts_with("## ") {
        statement.push_str("## Problem\n\n");
    }
    if !body.is_empty() {
        statement.push_str(body);
        statement.push('\n');
    }
    statement
}

/// The accepted solution that computes the references of testcases a
/// setter adds later, as `accepted/<file>`: the first C++ one in path
/// order (the fastest to run, usually), else the first.
fn reference_solution(solutions: &[PackageFile]) -> Option<String> {
    let accepted: Vec<&str> = solutions
        .iter()
        .filter_map(|file| file.path.strip_prefix("solutions").ok()?.to_str())
        .filter(|path| path.starts_with("accepted/"))
        .collect();
    let cpp = |path: &&str| [".cpp", ".cc", ".cxx"].iter().any(|e| path.ends_with(e));
    accepted
        .iter()
        .copied()
        .filter(cpp)
        .min()
        .or_else(|| accepted.iter().copied().min())
        .map(str::to_owned)
}

/// The package's submissions under nimjudge's verdict folders; a folder
/// nimjudge has no verdict for, a submission of several files and one in
/// a language it does not take are noted and left out.
fn solutions(package: &Package, notes: &mut Vec<String>) -> Vec<PackageFile> {
    const LANGUAGES: [&str; 5] = ["cpp", "cc", "cxx", "py", "rs"];
    let mut files = Vec::new();
    let mut skipped_folders = BTreeSet::new();
    for (path, contents) in package.under("submissions") {
        let parts: Vec<&str> = path.split('/').collect();
        let (folder, file) = match parts.as_slice() {
            [_, folder, file] => (*folder, *file),
            [_, folder, submission, ..] => {
                if skipped_folders.insert(format!("{folder}/{submission}")) {
                    notes.push(format!(
                        "submissions/{folder}/{submission}: a submission of several files, not imported"
                    ));
                }
                continue;
            }
            _ => continue,
        };
        let verdict = match folder {
            "accepted" | "wrong_answer" | "time_limit_exceeded" => folder,
            "run_time_error" => "runtime_error",
            _ => {
                if skipped_folders.insert(folder.to_owned()) {
                    notes.push(format!(
                        "submissions/{folder}: no nimjudge verdict folder matches it, not imported"
                    ));
                }
                continue;
            }
        };
        let extension = Path::new(file).extension().and_then(|e| e.to_str());
        if !extension.is_some_and(|e| LANGUAGES.contains(&e)) {
            notes.push(format!("{path}: not C++, Python or Rust, not imported"));
            continue;
        }
        files.push(PackageFile::new(
            format!("solutions/{verdict}/{file}"),
            contents.clone(),
        ));
    }
    files
}

#[cfg(test)]
mod tests;
