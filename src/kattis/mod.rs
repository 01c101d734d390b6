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
//! Interactive problems, and problems with testcase groups (IOI scoring),
//! are refused for now.
//!
//! Packages come in through [`import`].

pub mod import;
pub mod latex;

use std::path::{Path, PathBuf};

use crate::{
    catalog::{self, CatalogError, LoadedProblem},
    domain::{PackageFormat, ProblemId, TestcaseName, TestcaseOrigin, Verdict},
    solver::{self, InputError, Solver},
};

/// What the repository calls a problem's input validator.
pub const INPUT_VALIDATOR: &str = "input_validator.py";

/// The token reader every input validator imports (`nimjudge_input`), with
/// nimjudge's scanner's rules; a package ships it beside the validator.
pub const INPUT_READER: &str = include_str!("nimjudge_input.py");

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
    #[error("`{0}` is interactive; interactive problems are not exported yet")]
    Interactive(String),
    #[error("`{0}` has testcase groups (IOI scoring); scoring problems are not exported yet")]
    Groups(String),
    #[error("`{problem}` has no input validator: {path} is missing")]
    NoValidator { problem: String, path: PathBuf },
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
    let solver = solver::find(&id).ok_or_else(|| KattisError::NoSolver(id.clone()))?;
    if solver.interactive() {
        return Err(KattisError::Interactive(id));
    }
    if !problem.groups.is_empty() {
        return Err(KattisError::Groups(id));
    }
    let statement = latex::statement(&problem.statement, &problem.title);
    let mut files = match format {
        PackageFormat::Legacy => vec![
            PackageFile::new("problem.yaml", legacy_problem_yaml(&problem)),
            PackageFile::new("problem_statement/problem.en.tex", statement),
        ],
        PackageFormat::V2025_09 => vec![
            PackageFile::new("problem.yaml", problem_yaml(&problem)),
            PackageFile::new("statement/problem.en.tex", statement),
            PackageFile::new(
                "data/test_group.yaml",
                "output_validator_args: [case_sensitive]\n",
            ),
        ],
    };
    for testcase in &problem.testcases {
        let group = match testcase.origin {
            TestcaseOrigin::Sample => "sample",
            _ => "secret",
        };
        files.extend(testcase_files(
            solver,
            group,
            &testcase.name,
            &testcase.input,
        )?);
    }
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
/// setter's, through the API), under `data/secret`.
pub fn secret_testcases(
    id: &ProblemId,
    testcases: &[(TestcaseName, String)],
) -> Result<Vec<PackageFile>, KattisError> {
    let solver = solver::find(id.as_str()).ok_or_else(|| KattisError::NoSolver(id.to_string()))?;
    let mut files = Vec::new();
    for (name, input) in testcases {
        files.extend(testcase_files(solver, "secret", name, input)?);
    }
    Ok(files)
}

/// A testcase's input and its answer by the solver core, in `data/<group>`.
fn testcase_files(
    solver: &dyn Solver,
    group: &str,
    name: &TestcaseName,
    input: &str,
) -> Result<[PackageFile; 2], KattisError> {
    let answer = solver
        .solve(input)
        .map_err(|error| KattisError::InvalidTestcase {
            problem: solver.id().to_owned(),
            testcase: name.to_string(),
            error: Box::new(error),
        })?;
    let stem = format!("data/{group}/{name}");
    Ok([
        PackageFile::new(format!("{stem}.in"), input),
        PackageFile::new(format!("{stem}.ans"), answer),
    ])
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

fn legacy_problem_yaml(problem: &LoadedProblem) -> String {
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
        "license: unknown\n\
         validator_flags: case_sensitive\n\
         limits:\n  memory: {}\n",
        problem.memory_limit_mib
    ));
    yaml
}

/// `problem.yaml` of the 2025-09 format: the time limit as nimjudge sets
/// it, in seconds (to the millisecond where it is not whole seconds, the
/// format's default resolution).
fn problem_yaml(problem: &LoadedProblem) -> String {
    let mut yaml = format!(
        "# The hosted problem `{id}` of nimjudge, exported as a Kattis problem package.\n\
         problem_format_version: 2025-09\n\
         name: {name}\n\
         uuid: {uuid}\n\
         source:\n  name: {source}\n",
        id = problem.id,
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
    fn interactive_problems_are_refused_by_name() {
        let error = package(&problem_folder("nim-play"), PackageFormat::V2025_09).unwrap_err();
        assert!(matches!(error, KattisError::Interactive(ref id) if id == "nim-play"));
    }
}
