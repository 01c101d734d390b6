//! Loading problem definitions from `problems/<id>/` and syncing them into the
//! database.
//!
//! A definition folder holds `problem.toml`, `statement.md` and
//! `testcases/<name>.in` for every testcase the manifest lists (a generated
//! testcase whose file is missing is regenerated from its kind and seed;
//! official sample outputs `testcases/<name>.out` are not loaded: the solver
//! core computes every reference). A problem with `references = "files"`
//! (one imported from a Kattis package, see [`crate::kattis::import`]) needs
//! no solver: each testcase's reference is `testcases/<name>.ans`, stored
//! with the testcase at the sync, and its `reference_solution`, an accepted
//! setter solution stored with the problem, computes the references of
//! testcases setters add later (run in the sandbox by a worker). The sync is idempotent: the folder's sha256
//! decides whether the stored problem changes, and a change makes a new
//! version. This module reads files and calls the store; it does not judge.

use std::path::{Path, PathBuf};

use serde::Deserialize;
use sha2::{Digest, Sha256};

use crate::{
    domain::{Feedback, ProblemId, TestcaseName, TestcaseOrigin, Verdict},
    scoring::TestcaseGroup,
    solver::{self, TestKind},
    store::{
        DefinedTestcase, ProblemDefinition, ReferenceSolution, Store, StoreError, SyncOutcome, hex,
    },
};

/// Why a definition folder could not be loaded.
#[derive(Debug, thiserror::Error)]
pub enum CatalogError {
    #[error("cannot read {path}: {source}")]
    Read {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{path}: {message}")]
    Manifest { path: PathBuf, message: String },
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// `problem.toml`. Every key is read; an unknown key is an error, so a typo
/// cannot be silently ignored.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Manifest {
    id: String,
    title: String,
    /// Where the problem comes from: a contest and task, or `nimjudge`.
    source: String,
    /// The original task's page, when it is public.
    url: Option<String>,
    time_limit_ms: i64,
    memory_limit_mib: i64,
    /// What contestants see of their judgements; `verdict` when absent.
    #[serde(default)]
    feedback: Feedback,
    /// Whether contestants may submit custom checks; off when absent.
    #[serde(default)]
    custom_checks: bool,
    /// Whether a program runs on every testcase even after one fails; off
    /// (stop at the first failure) when absent.
    #[serde(default)]
    judge_all: bool,
    /// Whether an interactive problem's practice page explains positions;
    /// on when absent.
    #[serde(default = "on")]
    practice_hints: bool,
    /// Where the testcases' reference outputs come from; the solver core
    /// when absent.
    #[serde(default)]
    references: References,
    /// Whether answers must match the references' letters in case; on when
    /// absent.
    #[serde(default = "on")]
    case_sensitive: bool,
    /// For references = "files": the accepted setter solution, as a path
    /// under `solutions/` (`accepted/<file>`), that computes the reference
    /// of each testcase a setter adds later; without it setters cannot add
    /// testcases to the problem.
    reference_solution: Option<String>,
    #[serde(default, rename = "testcase")]
    testcases: Vec<ManifestTestcase>,
    /// The testcase groups and their points (see [`crate::scoring`]); none:
    /// one group of 100 points over every testcase.
    #[serde(default, rename = "group")]
    groups: Vec<TestcaseGroup>,
}

/// Where a problem's reference outputs come from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum References {
    /// The solver core registered for the problem's id computes each.
    #[default]
    Solver,
    /// `testcases/<name>.ans` beside each input; no solver is needed.
    Files,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct ManifestTestcase {
    name: String,
    origin: String,
    /// Whether contestants never see its input (an imported package's
    /// secret testcase); off when absent, refused on a sample.
    #[serde(default)]
    hidden: bool,
    /// For generated testcases: `nimjudge generate <id> --kind K --seed S`.
    kind: Option<String>,
    seed: Option<u64>,
}

/// A problem folder as loaded: what the store syncs, plus what only the
/// catalog knows (each testcase's generator).
#[derive(Debug, Clone)]
pub struct LoadedProblem {
    pub id: ProblemId,
    pub title: String,
    pub source: String,
    pub source_url: Option<String>,
    pub statement: String,
    pub time_limit_ms: i64,
    pub memory_limit_mib: i64,
    pub feedback: Feedback,
    pub custom_checks: bool,
    pub judge_all: bool,
    pub practice_hints: bool,
    pub groups: Vec<TestcaseGroup>,
    pub references: References,
    pub case_sensitive: bool,
    /// The setter solution that computes the references of testcases
    /// setters add (see `reference_solution` in the manifest).
    pub reference_solution: Option<ReferenceSolution>,
    /// sha256 of the manifest, statement, reference solution and testcases.
    pub hash: String,
    pub testcases: Vec<LoadedTestcase>,
}

/// A testcase of a problem folder.
#[derive(Debug, Clone)]
pub struct LoadedTestcase {
    pub name: TestcaseName,
    pub input: String,
    pub origin: TestcaseOrigin,
    /// The kind and seed `nimjudge generate` makes the input from, when the
    /// manifest records them. Not stored: the input itself is.
    pub generator: Option<(TestKind, u64)>,
    /// Its reference output from `<name>.ans`, when the problem's
    /// references are files.
    pub answer: Option<String>,
    /// Whether contestants never see its input.
    pub hidden: bool,
}

impl LoadedProblem {
    /// What the store keeps of it.
    pub fn into_definition(self) -> ProblemDefinition {
        ProblemDefinition {
            id: self.id,
            title: self.title,
            source: self.source,
            source_url: self.source_url,
            statement: self.statement,
            time_limit_ms: self.time_limit_ms,
            memory_limit_mib: self.memory_limit_mib,
            feedback: self.feedback,
            custom_checks: self.custom_checks,
            judge_all: self.judge_all,
            practice_hints: self.practice_hints,
            groups: self.groups,
            case_sensitive: self.case_sensitive,
            reference_solution: self.reference_solution,
            hash: self.hash,
            testcases: self
                .testcases
                .into_iter()
                .map(|t| DefinedTestcase {
                    name: t.name,
                    input: t.input,
                    origin: t.origin,
                    answer: t.answer,
                    hidden: t.hidden,
                })
                .collect(),
        }
    }
}

fn on() -> bool {
    true
}

/// What a catalog sync did.
#[derive(Debug, Default)]
pub struct SyncReport {
    pub created: Vec<ProblemId>,
    pub updated: Vec<ProblemId>,
    pub unchanged: Vec<ProblemId>,
    /// Folders that could not be loaded, with the reason; the rest still sync.
    pub skipped: Vec<(PathBuf, String)>,
}

impl SyncReport {
    /// Problems in the catalog after the sync.
    pub fn problem_count(&self) -> usize {
        self.created.len() + self.updated.len() + self.unchanged.len()
    }
}

fn read(path: &Path) -> Result<String, CatalogError> {
    std::fs::read_to_string(path).map_err(|source| CatalogError::Read {
        path: path.to_path_buf(),
        source,
    })
}

/// Loads one definition folder.
pub fn load_problem(folder: &Path) -> Result<LoadedProblem, CatalogError> {
    let manifest_path = folder.join("problem.toml");
    let manifest_text = read(&manifest_path)?;
    let bad = |message: String| CatalogError::Manifest {
        path: manifest_path.clone(),
        message,
    };
    let manifest: Manifest = toml::from_str(&manifest_text).map_err(|e| bad(e.to_string()))?;
    let id: ProblemId = manifest.id.parse().map_err(bad)?;
    if manifest.time_limit_ms <= 0 || manifest.memory_limit_mib <= 0 {
        return Err(bad(
            "time_limit_ms and memory_limit_mib must be positive".into()
        ));
    }
    let folder_name = folder.file_name().and_then(|n| n.to_str()).unwrap_or("");
    if manifest.id != folder_name {
        return Err(bad(format!(
            "id `{}` differs from the folder name `{folder_name}`",
            manifest.id
        )));
    }
    let solver = solver::find(&manifest.id);
    if solver.is_none() && manifest.references == References::Solver {
        return Err(bad(format!(
            "no solver is registered for `{}` (a problem without one needs references = \"files\")",
            manifest.id
        )));
    }
    let statement_path = folder.join("statement.md");
    let statement = if statement_path.is_file() {
        read(&statement_path)?
    } else {
        String::new()
    };
    let reference_solution = match (&manifest.reference_solution, manifest.references) {
        (None, _) => None,
        (Some(_), References::Solver) => {
            return Err(bad(
                "reference_solution is for references = \"files\": the solver core computes \
                 this problem's references"
                    .into(),
            ));
        }
        (Some(name), References::Files) => Some(reference_solution(folder, name).map_err(bad)?),
    };
    let mut hasher = Sha256::new();
    for part in [manifest_text.as_str(), statement.as_str()]
        .into_iter()
        .chain(reference_solution.as_ref().map(|r| r.source.as_str()))
    {
        hasher.update((part.len() as u64).to_le_bytes());
        hasher.update(part.as_bytes());
    }
    let mut testcases = Vec::with_capacity(manifest.testcases.len());
    for testcase in manifest.testcases {
        let name: TestcaseName = testcase.name.parse().map_err(bad)?;
        let origin = match testcase.origin.parse() {
            Ok(origin @ (TestcaseOrigin::Sample | TestcaseOrigin::Generated)) => origin,
            _ => {
                return Err(bad(format!(
                    "testcase `{name}`: origin must be \"sample\" or \"generated\""
                )));
            }
        };
        if testcase.hidden && origin == TestcaseOrigin::Sample {
            return Err(bad(format!(
                "testcase `{name}`: a sample is shown with the statement, it cannot be hidden"
            )));
        }
        if testcases.iter().any(|t: &LoadedTestcase| t.name == name) {
            return Err(bad(format!("testcase `{}` is listed twice", testcase.name)));
        }
        let input_path = folder
            .join("testcases")
            .join(format!("{}.in", testcase.name));
        let generator = match (&testcase.kind, testcase.seed) {
            (Some(kind), Some(seed)) => {
                let kind: TestKind = kind
                    .parse()
                    .map_err(|e: String| bad(format!("testcase `{}`: {e}", testcase.name)))?;
                Some((kind, seed))
            }
            (None, None) => None,
            _ => {
                return Err(bad(format!(
                    "testcase `{}`: kind and seed must be given together",
                    testcase.name
                )));
            }
        };
        if generator.is_some() && solver.is_none() {
            return Err(bad(format!(
                "testcase `{}`: kind and seed need a solver's generator, and `{}` has none",
                testcase.name, manifest.id
            )));
        }
        let input = match (generator, solver) {
            // A generated testcase whose file is missing is regenerated from
            // its kind and seed: the generators are deterministic.
            (Some((kind, seed)), Some(solver)) if !input_path.exists() => {
                solver.generate(kind, seed)
            }
            _ => read(&input_path)?,
        };
        let answer = match manifest.references {
            References::Solver => None,
            References::Files => Some(read(&input_path.with_extension("ans"))?),
        };
        for part in [
            testcase.name.as_str(),
            testcase.origin.as_str(),
            input.as_str(),
        ]
        .into_iter()
        .chain(answer.as_deref())
        {
            hasher.update((part.len() as u64).to_le_bytes());
            hasher.update(part.as_bytes());
        }
        testcases.push(LoadedTestcase {
            name,
            input,
            origin,
            generator,
            answer,
            hidden: testcase.hidden,
        });
    }
    crate::scoring::validate_groups(&manifest.groups, testcases.iter().map(|t| t.name.as_str()))
        .map_err(bad)?;
    Ok(LoadedProblem {
        id,
        title: manifest.title,
        source: manifest.source,
        source_url: manifest.url,
        statement,
        time_limit_ms: manifest.time_limit_ms,
        memory_limit_mib: manifest.memory_limit_mib,
        feedback: manifest.feedback,
        custom_checks: manifest.custom_checks,
        judge_all: manifest.judge_all,
        practice_hints: manifest.practice_hints,
        groups: manifest.groups,
        references: manifest.references,
        case_sensitive: manifest.case_sensitive,
        reference_solution,
        hash: hex(&hasher.finalize()),
        testcases,
    })
}

/// The manifest's `reference_solution`: `accepted/<file>` under the folder's
/// `solutions/`, read; or why not.
fn reference_solution(folder: &Path, name: &str) -> Result<ReferenceSolution, String> {
    let refused = |why: &str| format!("reference_solution `{name}`: {why}");
    let file = match name.split('/').collect::<Vec<_>>().as_slice() {
        ["accepted", file] if !file.is_empty() && *file != "." && *file != ".." => *file,
        _ => {
            return Err(refused(
                "must be `accepted/<file>`, a solution under solutions/accepted",
            ));
        }
    };
    let path = folder.join("solutions").join("accepted").join(file);
    if !path.is_file() {
        return Err(refused("no such file under solutions/accepted"));
    }
    let source = std::fs::read_to_string(&path).map_err(|e| refused(&e.to_string()))?;
    Ok(ReferenceSolution {
        name: name.to_owned(),
        source,
    })
}

/// The verdict a folder of `solutions/` promises its solutions.
fn promised_verdict(folder: &str) -> Option<Verdict> {
    Some(match folder {
        "accepted" => Verdict::AC,
        "wrong_answer" => Verdict::WA,
        "time_limit_exceeded" => Verdict::TLE,
        "memory_limit_exceeded" => Verdict::MLE,
        "output_limit_exceeded" => Verdict::OLE,
        "runtime_error" => Verdict::RE,
        "compile_error" => Verdict::CE,
        _ => return None,
    })
}

/// A problem folder's setter solutions, `solutions/<verdict folder>/<file>`,
/// each with the verdict its folder promises, in path order; none without
/// `solutions/`. A folder that names no verdict is an error.
pub fn solutions(folder: &Path) -> Result<Vec<(PathBuf, Verdict)>, CatalogError> {
    let root = folder.join("solutions");
    let mut found = Vec::new();
    let Ok(verdicts) = std::fs::read_dir(&root) else {
        return Ok(found);
    };
    let unreadable = |path: &Path| {
        let path = path.to_path_buf();
        move |source| CatalogError::Read { path, source }
    };
    for verdict in verdicts {
        let dir = verdict.map_err(unreadable(&root))?.path();
        if !dir.is_dir() {
            continue;
        }
        let Some(name) = dir.file_name().and_then(|n| n.to_str()) else {
            continue;
        };
        let promised = promised_verdict(name).ok_or_else(|| CatalogError::Manifest {
            path: dir.clone(),
            message: "not a verdict folder (accepted, wrong_answer, …)".into(),
        })?;
        for file in std::fs::read_dir(&dir).map_err(unreadable(&dir))? {
            let file = file.map_err(unreadable(&dir))?.path();
            if file.is_file() {
                found.push((file, promised));
            }
        }
    }
    found.sort_by(|a, b| a.0.cmp(&b.0));
    Ok(found)
}

/// Syncs every folder under `dir` into the database. A missing `dir` syncs
/// nothing; a folder that fails to load is reported and skipped.
pub async fn sync(store: &Store, dir: &Path) -> Result<SyncReport, CatalogError> {
    let mut report = SyncReport::default();
    let entries = match std::fs::read_dir(dir) {
        Ok(entries) => entries,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            report.skipped.push((
                dir.to_path_buf(),
                "the problems folder does not exist".into(),
            ));
            return Ok(report);
        }
        Err(source) => {
            return Err(CatalogError::Read {
                path: dir.to_path_buf(),
                source,
            });
        }
    };
    let mut folders: Vec<PathBuf> = entries
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.join("problem.toml").is_file())
        .collect();
    folders.sort();
    for folder in folders {
        let definition = match load_problem(&folder) {
            Ok(loaded) => loaded.into_definition(),
            Err(e) => {
                report.skipped.push((folder, e.to_string()));
                continue;
            }
        };
        match store.sync_problem(&definition).await? {
            SyncOutcome::Created { .. } => report.created.push(definition.id),
            SyncOutcome::Updated { .. } => report.updated.push(definition.id),
            SyncOutcome::Unchanged { .. } => report.unchanged.push(definition.id),
        }
    }
    Ok(report)
}

#[cfg(test)]
mod tests {
    use super::*;

    const HEAD: &str = "id = \"nim\"\ntitle = \"Nim\"\nsource = \"nimjudge\"\ntime_limit_ms = 2000\nmemory_limit_mib = 512\n";

    /// A problems folder holding `nim/` with this manifest.
    fn scratch_folder(manifest: &str) -> (tempfile::TempDir, PathBuf) {
        let root = tempfile::tempdir().expect("temp dir");
        let folder = root.path().join("nim");
        std::fs::create_dir_all(folder.join("testcases")).expect("create");
        std::fs::write(folder.join("problem.toml"), manifest).expect("write");
        (root, folder)
    }

    fn load_error(folder: &Path) -> String {
        load_problem(folder).expect_err("must not load").to_string()
    }

    #[test]
    fn a_missing_generated_input_is_regenerated_from_its_kind_and_seed() {
        let (_root, folder) = scratch_folder(&format!(
            "{HEAD}\n[[testcase]]\nname = \"small-4\"\norigin = \"generated\"\nkind = \"small\"\nseed = 4\n"
        ));
        let loaded = load_problem(&folder).expect("loads");
        let nim = solver::find("nim").expect("nim");
        assert_eq!(loaded.testcases.len(), 1);
        assert_eq!(loaded.testcases[0].input, nim.generate(TestKind::Small, 4));
        assert_eq!(loaded.source, "nimjudge");
        assert_eq!(loaded.memory_limit_mib, 512);
    }

    #[test]
    fn feedback_and_custom_checks_default_to_the_safe_values() {
        let (_root, folder) = scratch_folder(HEAD);
        let loaded = load_problem(&folder).expect("loads");
        assert_eq!(loaded.feedback, Feedback::Verdict);
        assert!(!loaded.custom_checks);
        std::fs::write(
            folder.join("problem.toml"),
            format!("{HEAD}feedback = \"full\"\ncustom_checks = true\n"),
        )
        .expect("write");
        let loaded = load_problem(&folder).expect("loads");
        assert_eq!(loaded.feedback, Feedback::Full);
        assert!(loaded.custom_checks);
        std::fs::write(
            folder.join("problem.toml"),
            format!("{HEAD}feedback = \"answers\"\n"),
        )
        .expect("write");
        let err = load_error(&folder);
        assert!(err.contains("unknown variant `answers`"), "{err}");
    }

    #[test]
    fn a_folder_must_match_its_id_and_list_existing_inputs() {
        let (_root, folder) = scratch_folder(&HEAD.replace("\"nim\"", "\"misnamed\""));
        let err = load_error(&folder);
        assert!(err.contains("differs from the folder name"), "{err}");
        let manifest = format!("{HEAD}\n[[testcase]]\nname = \"sample-1\"\norigin = \"sample\"\n");
        std::fs::write(folder.join("problem.toml"), manifest).expect("write");
        let err = load_error(&folder);
        assert!(err.contains("sample-1.in"), "{err}");
    }

    #[test]
    fn groups_are_read_and_checked_against_the_testcases() {
        let testcases = "[[testcase]]\nname = \"small-1\"\norigin = \"generated\"\nkind = \"small\"\nseed = 1\n\
                         [[testcase]]\nname = \"max-1\"\norigin = \"generated\"\nkind = \"max\"\nseed = 1\n";
        let groups = "[[group]]\nname = \"small\"\npoints = 30\ntestcases = [\"small-*\"]\n\
                      [[group]]\nname = \"max\"\npoints = 70\ntestcases = [\"max-1\"]\nrule = \"fraction\"\n";
        let (_root, folder) = scratch_folder(&format!("{HEAD}\n{testcases}{groups}"));
        let loaded = load_problem(&folder).expect("loads");
        let points: Vec<_> = loaded
            .groups
            .iter()
            .map(|g| (g.name.as_str(), g.points, g.rule))
            .collect();
        assert_eq!(
            points,
            [
                ("small", 30, crate::scoring::GroupRule::All),
                ("max", 70, crate::scoring::GroupRule::Fraction)
            ]
        );
        // A testcase left out of every group, and an unknown rule.
        let first_group = &groups[..groups.rfind("[[group]]").expect("two groups")];
        std::fs::write(
            folder.join("problem.toml"),
            format!("{HEAD}\n{testcases}{first_group}"),
        )
        .expect("write");
        let err = load_error(&folder);
        assert!(err.contains("testcase `max-1` is in no group"), "{err}");
        std::fs::write(
            folder.join("problem.toml"),
            format!("{HEAD}\n{testcases}{}", groups.replace("fraction", "most")),
        )
        .expect("write");
        let err = load_error(&folder);
        assert!(err.contains("unknown variant `most`"), "{err}");
    }

    #[test]
    fn every_manifest_key_is_known_and_required() {
        let (_root, folder) = scratch_folder(&format!("{HEAD}comparison = \"tokens\"\n"));
        let err = load_error(&folder);
        assert!(err.contains("unknown field `comparison`"), "{err}");
        std::fs::write(
            folder.join("problem.toml"),
            HEAD.replace("memory_limit_mib = 512\n", ""),
        )
        .expect("write");
        let err = load_error(&folder);
        assert!(err.contains("missing field `memory_limit_mib`"), "{err}");
        std::fs::write(folder.join("problem.toml"), HEAD.replace("= 512", "= 0")).expect("write");
        let err = load_error(&folder);
        assert!(err.contains("must be positive"), "{err}");
        std::fs::write(
            folder.join("problem.toml"),
            format!("{HEAD}\n[[testcase]]\nname = \"Bad_Name\"\norigin = \"sample\"\n"),
        )
        .expect("write");
        let err = load_error(&folder);
        assert!(err.contains("testcase name `Bad_Name` must match"), "{err}");
    }

    #[test]
    fn a_reference_solution_is_an_accepted_file_of_a_problem_whose_references_are_files() {
        let named = |path: &str| format!("{HEAD}reference_solution = \"{path}\"\n");
        let (_root, folder) = scratch_folder(&named("accepted/a.py"));
        let err = load_error(&folder);
        assert!(err.contains("is for references = \"files\""), "{err}");
        let files = |path: &str| format!("{}references = \"files\"\n", named(path));
        for (path, why) in [
            ("accepted/a.py", "no such file under solutions/accepted"),
            ("wrong_answer/a.py", "must be `accepted/<file>`"),
            ("accepted/../../problem.toml", "must be `accepted/<file>`"),
            ("accepted/..", "must be `accepted/<file>`"),
            ("a.py", "must be `accepted/<file>`"),
        ] {
            std::fs::write(folder.join("problem.toml"), files(path)).expect("write");
            let err = load_error(&folder);
            assert!(err.contains(why), "{path}: {err}");
        }
        std::fs::write(folder.join("problem.toml"), files("accepted/a.py")).expect("write");
        std::fs::create_dir_all(folder.join("solutions/accepted")).expect("create");
        std::fs::write(folder.join("solutions/accepted/a.py"), "print(1)\n").expect("write");
        let loaded = load_problem(&folder).expect("loads");
        assert_eq!(
            loaded.reference_solution,
            Some(ReferenceSolution {
                name: "accepted/a.py".into(),
                source: "print(1)\n".into()
            })
        );
        // A changed solution is a new version: its references are computed again.
        std::fs::write(folder.join("solutions/accepted/a.py"), "print(2)\n").expect("write");
        assert_ne!(load_problem(&folder).expect("loads").hash, loaded.hash);
    }

    #[test]
    fn a_generator_is_checked_even_when_its_input_file_exists() {
        let head = format!("{HEAD}\n[[testcase]]\nname = \"small-1\"\norigin = \"generated\"\n");
        let (_root, folder) = scratch_folder(&format!("{head}kind = \"huge\"\nseed = 1\n"));
        std::fs::write(folder.join("testcases").join("small-1.in"), "1\n0\n").expect("write");
        let err = load_error(&folder);
        assert!(err.contains("unknown testcase kind `huge`"), "{err}");
        std::fs::write(
            folder.join("problem.toml"),
            format!("{head}kind = \"small\"\n"),
        )
        .expect("write");
        let err = load_error(&folder);
        assert!(
            err.contains("testcase `small-1`: kind and seed must be given together"),
            "{err}"
        );
        std::fs::write(
            folder.join("problem.toml"),
            format!("{head}kind = \"small\"\nseed = 3\n"),
        )
        .expect("write");
        let loaded = load_problem(&folder).expect("loads");
        // The file on disk is the input; the recorded generator comes along.
        assert_eq!(loaded.testcases[0].input, "1\n0\n");
        assert_eq!(loaded.testcases[0].generator, Some((TestKind::Small, 3)));
    }
}
