//! Problem data drives these tests: the official samples, the extra
//! brute-force-checked regression cases, the bundled testcases recorded in
//! each `problem.toml`, and every generator, for every hosted problem.

use std::{fs, path::Path};

use nimjudge::solver::{self, Solver, TestKind};

const PROBLEMS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/problems");
const EXTRA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/extra");

fn read(path: &Path) -> String {
    fs::read_to_string(path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()))
}

fn solver(id: &str) -> &'static dyn Solver {
    solver::find(id).unwrap_or_else(|| panic!("no solver for `{id}`"))
}

/// Solves every `<name>.in` in `dir` that has a `<name>.out` and compares
/// the text exactly. Returns how many cases were checked.
fn check_expected_outputs(id: &str, dir: &Path) -> usize {
    let mut checked = 0;
    let Ok(entries) = fs::read_dir(dir) else {
        return 0;
    };
    for entry in entries {
        let out_path = entry.expect("directory entry").path();
        if out_path.extension().is_none_or(|e| e != "out") {
            continue;
        }
        let in_path = out_path.with_extension("in");
        let expected = read(&out_path);
        let actual = solver(id)
            .solve(&read(&in_path))
            .unwrap_or_else(|e| panic!("{}: rejected: {e}", in_path.display()));
        assert_eq!(actual, expected, "{}", in_path.display());
        checked += 1;
    }
    checked
}

#[test]
fn every_official_sample_gets_its_published_output() {
    let mut checked = 0;
    for s in solver::solvers() {
        checked +=
            check_expected_outputs(s.id(), &Path::new(PROBLEMS).join(s.id()).join("testcases"));
    }
    // constrained-nim has 2 official samples, xy-game 1 and misere-nim 1.
    assert_eq!(checked, 4);
}

#[test]
fn every_extra_regression_case_gets_its_brute_force_output() {
    let mut checked = 0;
    for s in solver::solvers() {
        checked += check_expected_outputs(s.id(), &Path::new(EXTRA).join(s.id()));
    }
    // 41 cases over nine problems (the provenance table in tests/data/extra).
    assert_eq!(checked, 41);
}

/// One `[[testcase]]` entry of a `problem.toml`.
struct Recorded {
    name: String,
    origin: String,
    generator: Option<(TestKind, u64)>,
}

fn recorded_testcases(id: &str) -> Vec<Recorded> {
    let path = Path::new(PROBLEMS).join(id).join("problem.toml");
    let table: toml::Table = read(&path)
        .parse()
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    assert_eq!(table["id"].as_str(), Some(id), "{}", path.display());
    let entries = table["testcase"].as_array().expect("a [[testcase]] list");
    entries
        .iter()
        .map(|entry| {
            let name = entry["name"].as_str().expect("name").to_string();
            let origin = entry["origin"].as_str().expect("origin").to_string();
            let generator = (origin == "generated").then(|| {
                let kind = entry["kind"]
                    .as_str()
                    .expect("kind")
                    .parse()
                    .expect("a known kind");
                let seed = entry["seed"].as_integer().expect("seed") as u64;
                (kind, seed)
            });
            Recorded {
                name,
                origin,
                generator,
            }
        })
        .collect()
}

#[test]
fn every_bundled_testcase_is_valid_and_regenerates_byte_for_byte() {
    for s in solver::solvers() {
        let dir = Path::new(PROBLEMS).join(s.id()).join("testcases");
        let recorded = recorded_testcases(s.id());
        for kind in TestKind::ALL {
            assert!(
                recorded
                    .iter()
                    .any(|r| r.generator.is_some_and(|(k, _)| k == kind)),
                "{}: no {kind} testcase",
                s.id()
            );
        }
        for case in &recorded {
            let input = read(&dir.join(format!("{}.in", case.name)));
            if let Err(e) = s.validate(&input) {
                panic!("{}/{}: invalid: {e}", s.id(), case.name);
            }
            match case.generator {
                Some((kind, seed)) => assert!(
                    s.generate(kind, seed) == input,
                    "{}/{} differs from `nimjudge generate {} --kind {kind} --seed {seed}`",
                    s.id(),
                    case.name,
                    s.id()
                ),
                None => assert_eq!(case.origin, "sample", "{}/{}", s.id(), case.name),
            }
        }
        // Every input file on disk is recorded.
        for entry in fs::read_dir(&dir).expect("testcases dir") {
            let path = entry.expect("entry").path();
            if path.extension().is_some_and(|e| e == "in") {
                let stem = path
                    .file_stem()
                    .and_then(|s| s.to_str())
                    .unwrap_or_default();
                assert!(
                    recorded.iter().any(|r| r.name == stem),
                    "{} is not recorded",
                    path.display()
                );
            }
        }
    }
}

#[test]
fn every_generator_output_is_accepted_by_its_validator() {
    for s in solver::solvers() {
        for kind in TestKind::ALL {
            let seeds = if kind == TestKind::Max { 0..2 } else { 0..20 };
            for seed in seeds {
                let input = s.generate(kind, seed);
                if let Err(e) = s.validate(&input) {
                    panic!("{} {kind} seed {seed}: {e}", s.id());
                }
                assert_eq!(
                    input,
                    s.generate(kind, seed),
                    "{} {kind} {seed} is not deterministic",
                    s.id()
                );
            }
        }
    }
}
