//! Kattis problem packages: a hosted problem's folder written out in the
//! legacy Kattis problem package format, the one Kattis installs and
//! problemtools' `verifyproblem` checks, or in the format's 2025-09 version,
//! the one BAPCtools reads.
//!
//! A package holds:
//! - `problem.yaml`: a UUID made from the problem's id, the source, the
//!   limits and the licence, `unknown` (the bundled problems do not state
//!   one); in 2025-09 also the format's version and the name;
//! - the statement in LaTeX ([`latex::statement`]):
//!   `problem_statement/problem.en.tex` (legacy) or
//!   `statement/problem.en.tex` (2025-09);
//! - `data/sample` (the official samples) and `data/secret` (every other
//!   testcase), each input with its answer (`.ans`) computed by the solver
//!   core;
//! - how answers are compared: the default output validator with
//!   `case_sensitive` (nimjudge compares tokens exactly, whitespace aside),
//!   as `validator_flags` in `problem.yaml` (legacy) or
//!   `output_validator_args` in `data/test_group.yaml` (2025-09);
//! - in 2025-09, `data/invalid_input`: the problem's `invalid/*.in`, inputs
//!   the input validator must refuse (the legacy format has no place for
//!   them: `verifyproblem` would read the folder as a test group);
//! - `input_validators/validate/`: the problem's `input_validator.py` (as
//!   `main.py`) and the token reader it imports, `nimjudge_input.py`: a
//!   Python program that accepts exactly the inputs nimjudge's parser does
//!   (a test holds the two to the same answers);
//! - `submissions/<verdict>/`: the setter solutions, under Kattis' names of
//!   their verdict folders (`runtime_error` is `run_time_error`).
//!
//! The legacy format has no fixed time limit: Kattis and problemtools set
//! it from the slowest accepted submission (times `time_multiplier`, 5 by
//! default), so `problem.yaml` records nimjudge's limit in a comment only;
//! 2025-09 states it (`limits.time_limit`).
//! A problem imported from a package (`references = "files"`) exports its
//! answer files instead of the solver core's answers, the input validators
//! its package had (kept under `kattis/input_validators/`), and
//! `case_sensitive` only where it compares so.
//! An interactive problem is `validation: custom interactive` (legacy) or
//! `type: interactive` (2025-09); its judge is its `output_validator.py`
//! (as `main.py`) with the protocol it imports, `nimjudge_interactor.py`,
//! in `output_validators/judge/` (legacy) or `output_validator/`
//! (2025-09): a Python program that plays as the solver core's referee does,
//! line for line (a test plays the two side by side). Its answers are the
//! sides a perfect player takes, and each sample has its `.interaction`,
//! the perfect player's match, for the statement.
//! Problems with testcase groups (IOI scoring) are refused for now.
//!
//! Packages come in through [`import`].

pub mod import;
pub mod latex;

use std::path::{Path, PathBuf};

use crate::{
    catalog::{self, CatalogError, LoadedProblem, References},
    domain::{PackageFormat, ProblemId, TestcaseName, TestcaseOrigin, Verdict},
    solver::{self, InputError, Solver, interactive::Heard},
};

/// What the repository calls a problem's input validator.
pub const INPUT_VALIDATOR: &str = "input_validator.py";

/// Where an imported problem keeps its package's input validators, for
/// its export (nimjudge does not run them).
pub const KEPT_INPUT_VALIDATORS: &str = "kattis/input_validators";

/// The token reader every input validator imports (`nimjudge_input`), with
/// nimjudge's scanner's rules; a package ships it beside the validator.
pub const INPUT_READER: &str = include_str!("nimjudge_input.py");

/// What the repository calls an interactive problem's judge, the output
/// validator of its Kattis package.
pub const OUTPUT_VALIDATOR: &str = "output_validator.py";

/// The protocol every interactive problem's judge imports
/// (`nimjudge_interactor`): nimjudge's referee, step for step; a package
/// ships it beside the judge.
pub const INTERACTOR: &str = include_str!("nimjudge_interactor.py");

/// Why a problem cannot be exported.
#[derive(Debug, thiserror::Error)]
pub enum KattisError {
    #[error(transparent)]
    Catalog(#[from] CatalogError),
    #[error("cannot read {path}: {source}")]
    Read {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("cannot write {path}: {source}")]
    Write {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("no solver is registered for `{0}`")]
    NoSolver(String),
    #[error("testcase `{testcase}` of `{problem}` has no answer file")]
    NoAnswer { problem: String, testcase: String },
    #[error("`{0}` has testcase groups (IOI scoring); scoring problems are not exported yet")]
    Groups(String),
    #[error("`{problem}` has no input validator: {path} is missing")]
    NoValidator { problem: String, path: PathBuf },
    #[error("`{problem}` is interactive and has no judge for Kattis: {path} is missing")]
    NoJudge { problem: String, path: PathBuf },
    #[error("testcase `{testcase}` of `{problem}` is not a valid input: {error}")]
    InvalidTestcase {
        problem: String,
        testcase: String,
        error: Box<InputError>,
    },
}

/// One file of a package, its path relative to the package's folder.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PackageFile {
    pub path: PathBuf,
    pub contents: Vec<u8>,
}

impl PackageFile {
    fn new(path: impl Into<PathBuf>, contents: impl Into<Vec<u8>>) -> Self {
        PackageFile {
            path: path.into(),
            contents: contents.into(),
        }
    }
}

/// The name of a problem's package folder: Kattis allows only lowercase
/// letters and digits (`nim-k` is `nimk`).
pub fn short_name(id: &ProblemId) -> String {
    id.as_str()
        .chars()
        .filter(char::is_ascii_alphanumeric)
        .map(|c| c.to_ascii_lowercase())
        .collect()
}

/// The package of the problem defined in `folder` in `format`, file by
/// file.
pub fn package(folder: &Path, format: PackageFormat) -> Result<Vec<PackageFile>, KattisError> {
    let problem = catalog::load_problem(folder)?;
    let id = problem.id.to_string();
    let solver = match (solver::find(&id), problem.references) {
        (Some(solver), References::Solver) => Some(solver),
        (_, References::Files) => None,
        (None, References::Solver) => return Err(KattisError::NoSolver(id)),
    };
    if !problem.groups.is_empty() {
        return Err(KattisError::Groups(id));
    }
    let interactive = solver.is_some_and(|solver| solver.interactive());
    let statement = latex::statement(&problem.statement, &problem.title);
    let mut files = match format {
        PackageFormat::Legacy => vec![
            PackageFile::new("problem.yaml", legacy_problem_yaml(&problem, interactive)),
            PackageFile::new("problem_statement/problem.en.tex", statement),
        ],
        PackageFormat::V2025_09 => {
            let mut files = vec![
                PackageFile::new("problem.yaml", problem_yaml(&problem, interactive)),
                PackageFile::new("statement/problem.en.tex", statement),
            ];
            if problem.case_sensitive {
                files.push(PackageFile::new(
                    "data/test_group.yaml",
                    "output_validator_args: [case_sensitive]\n",
                ));
            }
            files
        }
    };
    for testcase in &problem.testcases {
        let group = match testcase.origin {
            TestcaseOrigin::Sample => "sample",
            _ => "secret",
        };
        let stem = format!("data/{group}/{}", testcase.name);
        let answer = match (solver, &testcase.answer) {
            (Some(solver), _) => answer_of(solver, &testcase.name, &testcase.input)?,
            (None, Some(answer)) => answer.clone(),
            (None, None) => {
                return Err(KattisError::NoAnswer {
                    problem: id,
                    testcase: testcase.name.to_string(),
                });
            }
        };
        files.push(PackageFile::new(
            format!("{stem}.in"),
            testcase.input.as_str(),
        ));
        files.push(PackageFile::new(format!("{stem}.ans"), answer));
        if let (Some(solver), true, TestcaseOrigin::Sample) = (solver, interactive, testcase.origin)
        {
            files.push(PackageFile::new(
                format!("{stem}.interaction"),
                sample_interaction(solver, &testcase.input),
            ));
        }
    }
    if interactive {
        let judge = folder.join(OUTPUT_VALIDATOR);
        if !judge.is_file() {
            return Err(KattisError::NoJudge {
                problem: id,
                path: judge,
            });
        }
        let judge_folder = match format {
            PackageFormat::Legacy => "output_validators/judge",
            PackageFormat::V2025_09 => "output_validator",
        };
        files.push(PackageFile::new(
            format!("{judge_folder}/main.py"),
            read(&judge)?,
        ));
        files.push(PackageFile::new(
            format!("{judge_folder}/nimjudge_interactor.py"),
            INTERACTOR,
        ));
    }
    if solver.is_some() {
        let validator = folder.join(INPUT_VALIDATOR);
        if !validator.is_file() {
            return Err(KattisError::NoValidator {
                problem: id,
                path: validator,
            });
        }
        files.push(PackageFile::new(
            "input_validators/validate/main.py",
            read(&validator)?,
        ));
        files.push(PackageFile::new(
            "input_validators/validate/nimjudge_input.py",
            INPUT_READER,
        ));
    } else {
        files.extend(kept_input_validators(folder, &id)?);
    }
    if format == PackageFormat::V2025_09 {
        files.extend(invalid_inputs(folder)?);
    }
    files.extend(submissions(folder)?);
    Ok(files)
}

/// The problem's invalid inputs (`invalid/*.in`, beside the `.err` line
/// nimjudge's parser gives each), under `data/invalid_input`.
fn invalid_inputs(folder: &Path) -> Result<Vec<PackageFile>, KattisError> {
    let invalid = folder.join("invalid");
    if !invalid.is_dir() {
        return Ok(Vec::new());
    }
    let entries = std::fs::read_dir(&invalid).map_err(|source| KattisError::Read {
        path: invalid.clone(),
        source,
    })?;
    let mut inputs = Vec::new();
    for entry in entries {
        let path = entry
            .map_err(|source| KattisError::Read {
                path: invalid.clone(),
                source,
            })?
            .path();
        if path.extension().is_some_and(|e| e == "in")
            && let Some(name) = path.file_name()
        {
            inputs.push(PackageFile::new(
                Path::new("data/invalid_input").join(name),
                read(&path)?,
            ));
        }
    }
    inputs.sort_by(|a, b| a.path.cmp(&b.path));
    Ok(inputs)
}

/// The files of testcases added to the problem `id` after its folder (a
/// setter's, through the API), under `data/secret`: each input with its
/// answer, the one given (a reference solution's output) or else the
/// solver core's.
pub fn secret_testcases(
    id: &ProblemId,
    testcases: &[(TestcaseName, String, Option<String>)],
) -> Result<Vec<PackageFile>, KattisError> {
    let mut files = Vec::new();
    for (name, input, answer) in testcases {
        let answer = match answer {
            Some(answer) => answer.clone(),
            None => {
                let solver = solver::find(id.as_str())
                    .ok_or_else(|| KattisError::NoSolver(id.to_string()))?;
                answer_of(solver, name, input)?
            }
        };
        let stem = format!("data/secret/{name}");
        files.push(PackageFile::new(format!("{stem}.in"), input.as_str()));
        files.push(PackageFile::new(format!("{stem}.ans"), answer));
    }
    Ok(files)
}

/// A sample of an interactive problem as the statement shows it
/// (`.interaction`): the judge's lines (`<`, what the program reads) and
/// those of a program that plays perfectly (`>`), as the solver core's
/// referee has them.
fn sample_interaction(solver: &dyn Solver, input: &str) -> String {
    fn judge_says(text: &str, lines: &mut String) {
        for line in text.lines() {
            lines.push_str(&format!("<{line}\n"));
        }
    }
    let mut lines = String::new();
    let Ok(Some(mut referee)) = solver.referee(input) else {
        return lines;
    };
    judge_says(&referee.opening(), &mut lines);
    while let Some(line) = referee.perfect_line() {
        lines.push_str(&format!(">{line}\n"));
        match referee.hear(line.as_bytes()) {
            Heard::Reply(reply) => judge_says(&reply, &mut lines),
            Heard::Over { reply, .. } => {
                judge_says(&reply, &mut lines);
                break;
            }
        }
    }
    lines
}

/// A testcase's answer by the solver core.
fn answer_of(solver: &dyn Solver, name: &TestcaseName, input: &str) -> Result<String, KattisError> {
    solver
        .solve(input)
        .map_err(|error| KattisError::InvalidTestcase {
            problem: solver.id().to_owned(),
            testcase: name.to_string(),
            error: Box::new(error),
        })
}

/// The input validators an imported problem kept from its package
/// (`kattis/input_validators/`), as they were; a problem without them has
/// none to export (nimjudge has no validator of its own for it).
fn kept_input_validators(folder: &Path, id: &str) -> Result<Vec<PackageFile>, KattisError> {
    let kept = folder.join(KEPT_INPUT_VALIDATORS);
    if !kept.is_dir() {
        return Err(KattisError::NoValidator {
            problem: id.to_owned(),
            path: kept,
        });
    }
    let mut files = Vec::new();
    let mut pending = vec![kept.clone()];
    while let Some(dir) = pending.pop() {
        let unreadable = |source| KattisError::Read {
            path: dir.clone(),
            source,
        };
        for entry in std::fs::read_dir(&dir).map_err(unreadable)? {
            let path = entry.map_err(unreadable)?.path();
            if path.is_dir() {
                pending.push(path);
            } else if let Ok(inside) = path.strip_prefix(&kept) {
                files.push(PackageFile::new(
                    Path::new("input_validators").join(inside),
                    read(&path)?,
                ));
            }
        }
    }
    files.sort_by(|a, b| a.path.cmp(&b.path));
    Ok(files)
}

/// Writes `files` under `into` (made if missing); files already there with
/// other names are left alone.
pub fn write(files: &[PackageFile], into: &Path) -> Result<(), KattisError> {
    for file in files {
        let path = into.join(&file.path);
        let written = match path.parent() {
            Some(parent) => std::fs::create_dir_all(parent),
            None => Ok(()),
        }
        .and_then(|()| std::fs::write(&path, &file.contents));
        written.map_err(|source| KattisError::Write { path, source })?;
    }
    Ok(())
}

/// A JSON string is a YAML double-quoted scalar.
fn quoted(text: &str) -> String {
    serde_json::Value::String(text.to_owned()).to_string()
}

fn legacy_problem_yaml(problem: &LoadedProblem, interactive: bool) -> String {
    let mut yaml = format!(
        "# The hosted problem `{id}` of nimjudge, exported as a Kattis problem package.\n\
         # nimjudge's time limit is {ms} ms; the legacy format sets it from the\n\
         # accepted submissions instead (limits.time_multiplier).\n\
         uuid: {uuid}\n\
         source: {source}\n",
        id = problem.id,
        uuid = package_uuid(problem),
        ms = problem.time_limit_ms,
        source = quoted(&problem.source),
    );
    if let Some(url) = &problem.source_url {
        yaml.push_str(&format!("source_url: {}\n", quoted(url)));
    }
    yaml.push_str(&format!(
        "license: unknown\n{}limits:\n  memory: {}\n",
        if interactive {
            "validation: custom interactive\n"
        } else if problem.case_sensitive {
            "validator_flags: case_sensitive\n"
        } else {
            ""
        },
        problem.memory_limit_mib
    ));
    yaml
}

/// `problem.yaml` of the 2025-09 format: the time limit as nimjudge sets
/// it, in seconds (to the millisecond where it is not whole seconds, the
/// format's default resolution).
fn problem_yaml(problem: &LoadedProblem, interactive: bool) -> String {
    let mut yaml = format!(
        "# The hosted problem `{id}` of nimjudge, exported as a Kattis problem package.\n\
         problem_format_version: 2025-09\n\
         {kind}\
         name: {name}\n\
         uuid: {uuid}\n\
         source:\n  name: {source}\n",
        id = problem.id,
        kind = if interactive {
            "type: interactive\n"
        } else {
            ""
        },
        name = quoted(&problem.title),
        uuid = package_uuid(problem),
        source = quoted(&problem.source),
    );
    if let Some(url) = &problem.source_url {
        yaml.push_str(&format!("  url: {}\n", quoted(url)));
    }
    let seconds = problem.time_limit_ms as f64 / 1000.0;
    yaml.push_str(&format!(
        "license: unknown\n\
         limits:\n  time_limit: {seconds:?}\n",
    ));
    if problem.time_limit_ms % 1000 != 0 {
        yaml.push_str("  time_resolution: 0.001\n");
    }
    yaml.push_str(&format!("  memory: {}\n", problem.memory_limit_mib));
    yaml
}

/// The package's UUID, the same at every export of the same problem id (a
/// version 8 UUID of the id's SHA-256), as Kattis keeps a problem apart
/// from its copies by it.
fn package_uuid(problem: &LoadedProblem) -> uuid::Uuid {
    use sha2::Digest;
    let digest = sha2::Sha256::digest(format!("nimjudge problem {}", problem.id).as_bytes());
    let mut bytes = [0; 16];
    bytes.copy_from_slice(&digest[..16]);
    uuid::Builder::from_custom_bytes(bytes).into_uuid()
}

/// The setter solutions, each under its Kattis verdict folder; verdicts
/// Kattis has no folder for (compile errors, memory and output limits) are
/// left out.
fn submissions(folder: &Path) -> Result<Vec<PackageFile>, KattisError> {
    let mut files = Vec::new();
    for (path, verdict) in catalog::solutions(folder)? {
        let kattis = match verdict {
            Verdict::AC => "accepted",
            Verdict::WA => "wrong_answer",
            Verdict::TLE => "time_limit_exceeded",
            Verdict::RE => "run_time_error",
            _ => continue,
        };
        if let Some(name) = path.file_name() {
            files.push(PackageFile::new(
                Path::new("submissions").join(kattis).join(name),
                read(&path)?,
            ));
        }
    }
    Ok(files)
}

fn read(path: &Path) -> Result<Vec<u8>, KattisError> {
    std::fs::read(path).map_err(|source| KattisError::Read {
        path: path.to_path_buf(),
        source,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn problem_folder(id: &str) -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("problems")
            .join(id)
    }

    fn file<'a>(files: &'a [PackageFile], path: &str) -> &'a str {
        let file = files
            .iter()
            .find(|f| f.path == Path::new(path))
            .unwrap_or_else(|| panic!("no {path} in the package"));
        std::str::from_utf8(&file.contents).expect("UTF-8")
    }

    #[test]
    fn a_package_holds_every_testcase_with_the_solver_cores_answer() {
        let files =
            package(&problem_folder("constrained-nim"), PackageFormat::Legacy).expect("exported");
        let problem = catalog::load_problem(&problem_folder("constrained-nim")).unwrap();
        let solver = solver::find("constrained-nim").unwrap();
        for testcase in &problem.testcases {
            let group = if testcase.origin == TestcaseOrigin::Sample {
                "sample"
            } else {
                "secret"
            };
            let stem = format!("data/{group}/{}", testcase.name);
            assert_eq!(file(&files, &format!("{stem}.in")), testcase.input);
            assert_eq!(
                file(&files, &format!("{stem}.ans")),
                solver.solve(&testcase.input).unwrap()
            );
        }
        assert!(file(&files, "data/sample/sample-1.ans").len() > 1);
        let yaml = file(&files, "problem.yaml");
        assert!(yaml.contains("validator_flags: case_sensitive\n"), "{yaml}");
        assert!(yaml.contains("  memory: 1024\n"), "{yaml}");
        assert!(
            yaml.contains("source_url: \"https://atcoder.jp/contests/abc255/tasks/abc255_g\"\n"),
            "{yaml}"
        );
        assert!(file(&files, "problem_statement/problem.en.tex").starts_with("\\problemname{"));
        assert!(file(&files, "input_validators/validate/main.py").contains("s.finish()"));
        assert!(
            file(&files, "input_validators/validate/nimjudge_input.py").contains("sys.exit(43)")
        );
        assert!(
            files
                .iter()
                .any(|f| f.path.starts_with("submissions/accepted")),
            "no accepted submission"
        );
    }

    #[test]
    fn an_imported_problem_exports_its_answer_files_and_its_packages_input_validators() {
        let source =
            Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/kattis/subtractiongame");
        let original = import::Package::read_folder(&source).expect("the package reads");
        let imported = import::import(
            &original,
            &import::ImportOptions {
                id: None,
                time_limit_ms: Some(2000),
            },
        )
        .expect("it imports");
        let catalog = tempfile::tempdir().expect("a folder");
        import::install(&imported, catalog.path()).expect("installed");
        let folder = catalog.path().join("subtractiongame");
        for format in [PackageFormat::Legacy, PackageFormat::V2025_09] {
            let files = package_files(&folder, format);
            // Every testcase with its answer file as the package had them
            // (under nimjudge's names: the sample `1` is `sample-1`).
            let pairs = |inputs: Vec<(String, Vec<u8>)>, answer: &dyn Fn(&str) -> Vec<u8>| {
                let mut pairs: Vec<_> = inputs
                    .into_iter()
                    .map(|(path, input)| (input, answer(&path.replace(".in", ".ans"))))
                    .collect();
                pairs.sort();
                pairs
            };
            let exported_inputs = files
                .iter()
                .filter(|f| f.path.starts_with("data") && f.path.extension() == Some("in".as_ref()))
                .map(|f| (f.path.display().to_string(), f.contents.clone()))
                .collect();
            let original_inputs = original
                .files
                .iter()
                .filter(|(path, _)| path.starts_with("data/") && path.ends_with(".in"))
                .map(|(path, bytes)| (path.clone(), bytes.clone()))
                .collect();
            assert_eq!(
                pairs(exported_inputs, &|path| file(&files, path)
                    .as_bytes()
                    .to_vec()),
                pairs(original_inputs, &|path| original.files[path].clone()),
            );
            for (path, bytes) in &original.files {
                if path.starts_with("input_validators/") {
                    assert_eq!(file(&files, path).as_bytes(), bytes.as_slice(), "{path}");
                }
            }
            // Compared in either case, as the package's default validator does.
            assert!(!file(&files, "problem.yaml").contains("case_sensitive"));
            assert!(!files.iter().any(|f| f.path.ends_with("test_group.yaml")));
            assert!(
                files
                    .iter()
                    .any(|f| f.path.starts_with("submissions/wrong_answer")),
                "the wrong answers go out too"
            );
        }
        std::fs::remove_dir_all(folder.join("kattis")).expect("removed");
        assert!(matches!(
            package(&folder, PackageFormat::Legacy),
            Err(KattisError::NoValidator { .. })
        ));
    }

    fn package_files(folder: &Path, format: PackageFormat) -> Vec<PackageFile> {
        package(folder, format).expect("exported")
    }

    #[test]
    fn a_2025_09_package_states_its_version_name_and_limit_and_holds_the_invalid_inputs() {
        let folder = problem_folder("constrained-nim");
        let files = package(&folder, PackageFormat::V2025_09).expect("exported");
        let yaml = file(&files, "problem.yaml");
        for line in [
            "problem_format_version: 2025-09\n",
            "name: \"Constrained Nim\"\n",
            "  url: \"https://atcoder.jp/contests/abc255/tasks/abc255_g\"\n",
            "license: unknown\n",
            "  time_limit: 2.0\n",
            "  memory: 1024\n",
        ] {
            assert!(yaml.contains(line), "{line:?} in {yaml}");
        }
        assert!(!yaml.contains("validator_flags"), "{yaml}");
        assert_eq!(
            file(&files, "data/test_group.yaml"),
            "output_validator_args: [case_sensitive]\n"
        );
        assert!(file(&files, "statement/problem.en.tex").starts_with("\\problemname{"));
        let mut invalid: Vec<String> = std::fs::read_dir(folder.join("invalid"))
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .filter(|name| name.ends_with(".in"))
            .collect();
        invalid.sort();
        let exported: Vec<String> = files
            .iter()
            .filter_map(|f| f.path.strip_prefix("data/invalid_input").ok())
            .map(|p| p.display().to_string())
            .collect();
        assert!(!invalid.is_empty());
        assert_eq!(exported, invalid);
        for name in &invalid {
            assert_eq!(
                file(&files, &format!("data/invalid_input/{name}")).as_bytes(),
                std::fs::read(folder.join("invalid").join(name)).unwrap()
            );
        }
    }

    #[test]
    fn the_uuid_is_the_same_at_every_export_and_differs_between_problems() {
        let uuid = |id: &str| {
            let files = package(&problem_folder(id), PackageFormat::Legacy).unwrap();
            let yaml = file(&files, "problem.yaml").to_owned();
            yaml.lines()
                .find_map(|line| line.strip_prefix("uuid: "))
                .expect("a uuid line")
                .to_owned()
        };
        assert_eq!(uuid("nim"), uuid("nim"));
        assert_ne!(uuid("nim"), uuid("misere-nim"));
    }

    #[test]
    fn a_short_name_has_only_lowercase_letters_and_digits() {
        let id: ProblemId = "prime-factor-game-returns".parse().unwrap();
        assert_eq!(short_name(&id), "primefactorgamereturns");
    }

    #[test]
    fn an_interactive_problem_exports_its_judge_and_its_samples_interactions() {
        let folder = problem_folder("nim-play");
        let legacy = package(&folder, PackageFormat::Legacy).expect("exported");
        assert!(file(&legacy, "problem.yaml").contains("\nvalidation: custom interactive\n"));
        assert_eq!(
            file(&legacy, "output_validators/judge/main.py").as_bytes(),
            std::fs::read(folder.join(OUTPUT_VALIDATOR)).unwrap()
        );
        assert_eq!(
            file(&legacy, "output_validators/judge/nimjudge_interactor.py"),
            INTERACTOR
        );
        // The statement's sample, each line marked by who writes it.
        assert_eq!(
            file(&legacy, "data/sample/sample-1.interaction"),
            "<2\n<2\n<1 2\n>First\n>2 1\n<2 1\n>1 1\n<none\n<1\n<0\n>Second\n<none\n"
        );
        assert_eq!(file(&legacy, "data/sample/sample-1.ans"), "First\nSecond\n");
        assert!(!legacy.iter().any(|f| f.path.starts_with("data/secret")
            && f.path.extension().is_some_and(|e| e == "interaction")));
        let current = package(&folder, PackageFormat::V2025_09).expect("exported");
        assert!(file(&current, "problem.yaml").contains("\ntype: interactive\n"));
        assert!(file(&current, "output_validator/main.py").contains("judge(GAME)"));
    }
}
