//! Kattis problem packages: a hosted problem's folder written out in the
//! legacy Kattis problem package format, the one Kattis installs and
//! problemtools' `verifyproblem` checks.
//!
//! A package holds:
//! - `problem.yaml`: a UUID made from the problem's id, the source, the
//!   memory limit, `validator_flags:
//!   case_sensitive` (nimjudge compares tokens exactly, whitespace aside,
//!   which is the default output validator with that flag) and the licence,
//!   `unknown` (the bundled problems do not state one);
//! - `problem_statement/problem.en.tex`: the statement in LaTeX
//!   ([`latex::statement`]);
//! - `data/sample` (the official samples) and `data/secret` (every other
//!   testcase), each input with its answer (`.ans`) computed by the solver
//!   core;
//! - `input_validators/validate/`: the problem's `input_validator.py` (as
//!   `main.py`) and the token reader it imports, `nimjudge_input.py`: a
//!   Python program that accepts exactly the inputs nimjudge's parser does
//!   (a test holds the two to the same answers);
//! - `submissions/<verdict>/`: the setter solutions, under Kattis' names of
//!   their verdict folders (`runtime_error` is `run_time_error`).
//!
//! The legacy format has no fixed time limit: Kattis and problemtools set
//! it from the slowest accepted submission (times `time_multiplier`, 5 by
//! default), so `problem.yaml` records nimjudge's limit in a comment only.
//! Interactive problems, and problems with testcase groups (IOI scoring),
//! are refused for now.

pub mod latex;

use std::path::{Path, PathBuf};

use crate::{
    catalog::{self, CatalogError, LoadedProblem},
    domain::{ProblemId, TestcaseName, TestcaseOrigin, Verdict},
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

/// The package of the problem defined in `folder`, file by file.
pub fn package(folder: &Path) -> Result<Vec<PackageFile>, KattisError> {
    let problem = catalog::load_problem(folder)?;
    let id = problem.id.to_string();
    let solver = solver::find(&id).ok_or_else(|| KattisError::NoSolver(id.clone()))?;
    if solver.interactive() {
        return Err(KattisError::Interactive(id));
    }
    if !problem.groups.is_empty() {
        return Err(KattisError::Groups(id));
    }
    let mut files = vec![
        PackageFile::new("problem.yaml", problem_yaml(&problem)),
        PackageFile::new(
            "problem_statement/problem.en.tex",
            latex::statement(&problem.statement, &problem.title),
        ),
    ];
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
    files.extend(submissions(folder)?);
    Ok(files)
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

fn problem_yaml(problem: &LoadedProblem) -> String {
    // A JSON string is a YAML double-quoted scalar.
    let quoted = |text: &str| serde_json::Value::String(text.to_owned()).to_string();
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
        let files = package(&problem_folder("constrained-nim")).expect("exported");
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
    fn the_uuid_is_the_same_at_every_export_and_differs_between_problems() {
        let uuid = |id: &str| {
            let files = package(&problem_folder(id)).unwrap();
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
        let error = package(&problem_folder("nim-play")).unwrap_err();
        assert!(matches!(error, KattisError::Interactive(ref id) if id == "nim-play"));
    }
}
