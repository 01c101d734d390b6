//! Loading problem definitions from `problems/<id>/` and syncing them into the
//! database.
//!
//! A definition folder holds `problem.toml`, `statement.md` and
//! `testcases/<name>.in` for every testcase the manifest lists (a generated
//! testcase whose file is missing is regenerated from its kind and seed;
//! official
//! sample outputs `testcases/<name>.out` are not loaded: the solver core
//! computes every reference). The sync is idempotent: the folder's sha256
//! decides whether the stored problem changes, and a change makes a new
//! version. This module reads files and calls the store; it does not judge.

use std::path::{Path, PathBuf};

use serde::Deserialize;
use sha2::{Digest, Sha256};

use crate::{
    solver::{self, TestKind},
    store::{DefinedTestcase, ProblemDefinition, Store, StoreError, SyncOutcome, hex},
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

/// `problem.toml`, the fields the daemon uses (others are ignored).
#[derive(Debug, Deserialize)]
struct Manifest {
    id: String,
    title: String,
    time_limit_ms: i64,
    #[serde(default, rename = "testcase")]
    testcases: Vec<ManifestTestcase>,
}

#[derive(Debug, Deserialize)]
struct ManifestTestcase {
    name: String,
    origin: String,
    /// For generated testcases: `nimjudge generate <id> --kind K --seed S`.
    kind: Option<String>,
    seed: Option<u64>,
}

/// What a catalog sync did.
#[derive(Debug, Default)]
pub struct SyncReport {
    pub created: Vec<String>,
    pub updated: Vec<String>,
    pub unchanged: Vec<String>,
    /// Folders that could not be loaded, with the reason; the rest still sync.
    pub skipped: Vec<(PathBuf, String)>,
}

/// True for names matching `[a-z0-9][a-z0-9-]*`.
pub fn valid_name(name: &str) -> bool {
    let mut bytes = name.bytes();
    matches!(bytes.next(), Some(b'a'..=b'z' | b'0'..=b'9'))
        && bytes.all(|b| matches!(b, b'a'..=b'z' | b'0'..=b'9' | b'-'))
        && name.len() <= 64
}

fn read(path: &Path) -> Result<String, CatalogError> {
    std::fs::read_to_string(path).map_err(|source| CatalogError::Read {
        path: path.to_path_buf(),
        source,
    })
}

/// Loads one definition folder.
pub fn load_problem(folder: &Path) -> Result<ProblemDefinition, CatalogError> {
    let manifest_path = folder.join("problem.toml");
    let manifest_text = read(&manifest_path)?;
    let bad = |message: String| CatalogError::Manifest {
        path: manifest_path.clone(),
        message,
    };
    let manifest: Manifest = toml::from_str(&manifest_text).map_err(|e| bad(e.to_string()))?;
    let folder_name = folder.file_name().and_then(|n| n.to_str()).unwrap_or("");
    if manifest.id != folder_name {
        return Err(bad(format!(
            "id `{}` differs from the folder name `{folder_name}`",
            manifest.id
        )));
    }
    let Some(solver) = solver::find(&manifest.id) else {
        return Err(bad(format!(
            "no solver is registered for `{}`",
            manifest.id
        )));
    };
    let statement_path = folder.join("statement.md");
    let statement = if statement_path.is_file() {
        read(&statement_path)?
    } else {
        String::new()
    };
    let mut hasher = Sha256::new();
    for part in [manifest_text.as_str(), statement.as_str()] {
        hasher.update((part.len() as u64).to_le_bytes());
        hasher.update(part.as_bytes());
    }
    let mut testcases = Vec::with_capacity(manifest.testcases.len());
    for testcase in manifest.testcases {
        if !valid_name(&testcase.name) {
            return Err(bad(format!(
                "testcase name `{}` must match [a-z0-9][a-z0-9-]*",
                testcase.name
            )));
        }
        if !matches!(testcase.origin.as_str(), "sample" | "generated") {
            return Err(bad(format!(
                "testcase `{}`: origin must be \"sample\" or \"generated\"",
                testcase.name
            )));
        }
        if testcases
            .iter()
            .any(|t: &DefinedTestcase| t.name == testcase.name)
        {
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
        let input = match generator {
            // A generated testcase whose file is missing is regenerated from
            // its kind and seed: the generators are deterministic.
            Some((kind, seed)) if !input_path.exists() => solver.generate(kind, seed),
            _ => read(&input_path)?,
        };
        for part in [
            testcase.name.as_str(),
            testcase.origin.as_str(),
            input.as_str(),
        ] {
            hasher.update((part.len() as u64).to_le_bytes());
            hasher.update(part.as_bytes());
        }
        testcases.push(DefinedTestcase {
            name: testcase.name,
            input,
            origin: testcase.origin,
            generator,
        });
    }
    Ok(ProblemDefinition {
        id: manifest.id,
        title: manifest.title,
        statement,
        time_limit_ms: manifest.time_limit_ms,
        hash: hex(&hasher.finalize()),
        testcases,
    })
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
            Ok(definition) => definition,
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

    #[test]
    fn names_follow_the_layout_rule() {
        for good in ["sample-1", "a", "0-x", "small-12"] {
            assert!(valid_name(good), "{good}");
        }
        for bad in ["", "-a", "Sample", "a b", "a_b", "é", "../x"] {
            assert!(!valid_name(bad), "{bad}");
        }
    }

    fn scratch_folder(id: &str, manifest: &str) -> PathBuf {
        let root = std::env::temp_dir().join(format!("nimjudge-catalog-{}", uuid::Uuid::new_v4()));
        let folder = root.join(id);
        std::fs::create_dir_all(folder.join("testcases")).expect("create");
        std::fs::write(folder.join("problem.toml"), manifest).expect("write");
        folder
    }

    #[test]
    fn a_missing_generated_input_is_regenerated_from_its_kind_and_seed() {
        let folder = scratch_folder(
            "nim",
            "id = \"nim\"\ntitle = \"Nim\"\ntime_limit_ms = 2000\n\n[[testcase]]\nname = \"small-4\"\norigin = \"generated\"\nkind = \"small\"\nseed = 4\n",
        );
        let loaded = load_problem(&folder);
        let _ = std::fs::remove_dir_all(folder.parent().expect("root"));
        let definition = loaded.expect("loads");
        let nim = solver::find("nim").expect("nim");
        assert_eq!(definition.testcases.len(), 1);
        assert_eq!(
            definition.testcases[0].input,
            nim.generate(TestKind::Small, 4)
        );
    }

    #[test]
    fn a_folder_must_match_its_id_and_list_existing_inputs() {
        let folder = scratch_folder(
            "nim",
            "id = \"misnamed\"\ntitle = \"X\"\ntime_limit_ms = 1\n",
        );
        let err = load_problem(&folder).expect_err("id mismatch").to_string();
        assert!(err.contains("differs from the folder name"), "{err}");
        let manifest = "id = \"nim\"\ntitle = \"Nim\"\ntime_limit_ms = 1\n\n[[testcase]]\nname = \"sample-1\"\norigin = \"sample\"\n";
        std::fs::write(folder.join("problem.toml"), manifest).expect("write");
        let err = load_problem(&folder)
            .expect_err("missing input")
            .to_string();
        assert!(err.contains("sample-1.in"), "{err}");
        let _ = std::fs::remove_dir_all(folder.parent().expect("root"));
    }

    #[test]
    fn a_generator_is_checked_even_when_its_input_file_exists() {
        let head = "id = \"nim\"\ntitle = \"Nim\"\ntime_limit_ms = 1\n\n[[testcase]]\nname = \"small-1\"\norigin = \"generated\"\n";
        let folder = scratch_folder("nim", &format!("{head}kind = \"huge\"\nseed = 1\n"));
        std::fs::write(folder.join("testcases").join("small-1.in"), "1\n0\n").expect("write");
        let err = load_problem(&folder).expect_err("unknown kind").to_string();
        assert!(err.contains("unknown testcase kind `huge`"), "{err}");
        std::fs::write(
            folder.join("problem.toml"),
            format!("{head}kind = \"small\"\n"),
        )
        .expect("write");
        let err = load_problem(&folder)
            .expect_err("kind without seed")
            .to_string();
        assert!(
            err.contains("testcase `small-1`: kind and seed must be given together"),
            "{err}"
        );
        std::fs::write(
            folder.join("problem.toml"),
            format!("{head}kind = \"small\"\nseed = 3\n"),
        )
        .expect("write");
        let loaded = load_problem(&folder);
        let _ = std::fs::remove_dir_all(folder.parent().expect("root"));
        let definition = loaded.expect("loads");
        // The file on disk is the input; the recorded generator comes along.
        assert_eq!(definition.testcases[0].input, "1\n0\n");
        assert_eq!(
            definition.testcases[0].generator,
            Some((TestKind::Small, 3))
        );
    }
}
