use std::path::Path;

use super::*;
use crate::{catalog, catalog::References, domain::TestcaseOrigin};

/// The hand-written package of a game nimjudge has no solver for.
fn subtraction_game() -> Package {
    let folder = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/kattis/subtractiongame");
    Package::read_folder(&folder).expect("the test package reads")
}

fn with_time_limit(ms: i64) -> ImportOptions {
    ImportOptions {
        id: None,
        time_limit_ms: Some(ms),
    }
}

/// Writes the imported files into a temporary catalog and loads them.
fn load(imported: &Imported) -> (tempfile::TempDir, catalog::LoadedProblem) {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let folder = dir.path().join(imported.id.as_str());
    super::super::write(&imported.files, &folder).expect("written");
    let problem = catalog::load_problem(&folder).expect("the imported folder loads");
    (dir, problem)
}

/// A small legacy package: one sample, two secret testcases.
fn tiny() -> Package {
    let mut files = BTreeMap::new();
    for (path, text) in [
        ("problem.yaml", "source: Somewhere\nlicense: unknown\n"),
        ("data/sample/1.in", "1\n"),
        ("data/sample/1.ans", "Alice\n"),
        ("data/secret/a.in", "2\n"),
        ("data/secret/a.ans", "Bob\n"),
        ("data/secret/group1/b.in", "3\n"),
        ("data/secret/group1/b.ans", "Alice\n"),
    ] {
        files.insert(path.to_owned(), text.as_bytes().to_vec());
    }
    Package {
        name: "tiny".into(),
        files,
    }
}

fn with(mut package: Package, path: &str, text: &str) -> Package {
    package
        .files
        .insert(path.to_owned(), text.as_bytes().to_vec());
    package
}

fn refusal(package: &Package, options: &ImportOptions) -> String {
    match import(package, options) {
        Ok(imported) => panic!("imported: {:?}", imported.notes),
        Err(e) => e.to_string(),
    }
}

#[test]
fn the_subtraction_game_imports_with_its_answers_hidden_secrets_and_solutions() {
    let imported = import(&subtraction_game(), &with_time_limit(1000)).expect("imports");
    assert_eq!(imported.id.as_str(), "subtractiongame");
    let (_dir, problem) = load(&imported);
    assert_eq!(problem.title, "Take One, Three or Four");
    assert_eq!(problem.source, "nimjudge's tests");
    assert_eq!(problem.time_limit_ms, 1000);
    assert_eq!(problem.memory_limit_mib, 2048);
    assert_eq!(problem.references, References::Files);
    // No `case_sensitive` flag: letters compare in either case.
    assert!(!problem.case_sensitive);
    let names: Vec<(&str, TestcaseOrigin, bool)> = problem
        .testcases
        .iter()
        .map(|t| (t.name.as_str(), t.origin, t.hidden))
        .collect();
    assert_eq!(
        names,
        [
            ("sample-1", TestcaseOrigin::Sample, false),
            ("01-small", TestcaseOrigin::Generated, true),
            ("02-random", TestcaseOrigin::Generated, true),
            ("03-large", TestcaseOrigin::Generated, true),
        ]
    );
    let package = subtraction_game();
    for (testcase, stem) in problem.testcases.iter().zip([
        "sample/1",
        "secret/01-small",
        "secret/02-random",
        "secret/03-large",
    ]) {
        let file = |ext: &str| {
            package
                .text(&format!("data/{stem}.{ext}"))
                .unwrap()
                .unwrap()
        };
        assert_eq!(testcase.input, file("in"), "{stem}");
        assert_eq!(testcase.answer.as_deref(), Some(file("ans")), "{stem}");
    }
    assert!(problem.statement.starts_with(
        "# Take One, Three or Four\n\nSource: nimjudge's tests.\nTime limit: 1 s. Memory limit: 2048 MiB.\n\n\
         ## Problem\n\nAlice and Bob play a game on a pile of $n$ stones."
    ));
    assert!(
        problem
            .statement
            .contains("## Output\n\nFor each game, print one line: `Alice` if")
    );
    assert!(
        problem
            .statement
            .contains("- Letters may be in either case.\n")
    );
    let solutions: Vec<String> = imported
        .files
        .iter()
        .map(|f| f.path.display().to_string())
        .filter(|p| p.starts_with("solutions/"))
        .collect();
    assert_eq!(
        solutions,
        [
            "solutions/accepted/lowercase.py",
            "solutions/accepted/periodic.cpp",
            "solutions/accepted/periodic.py",
            "solutions/time_limit_exceeded/table.py",
            "solutions/wrong_answer/multiples.py",
        ]
    );
    // The C++ accepted solution computes references for added testcases.
    let reference = problem.reference_solution.expect("a reference solution");
    assert_eq!(reference.name, "accepted/periodic.cpp");
    assert_eq!(
        reference.source.as_bytes(),
        package
            .files
            .get("submissions/accepted/periodic.cpp")
            .expect("in the package")
            .as_slice()
    );
    assert_eq!(imported.notes.len(), 1, "{:?}", imported.notes);
    assert!(
        imported.notes[0].starts_with("input validators: kept in kattis/input_validators/"),
        "{:?}",
        imported.notes
    );
    assert!(
        imported
            .files
            .iter()
            .any(|f| f.path == Path::new("kattis/input_validators/validate.py"))
    );
}

#[test]
fn a_legacy_package_needs_a_time_limit_and_a_package_name_that_is_an_id() {
    let message = refusal(&tiny(), &ImportOptions::default());
    assert!(
        message.starts_with("problem.yaml: states no time limit"),
        "{message}"
    );
    let mut package = tiny();
    package.name = "Tiny_Game".into();
    let message = refusal(&package, &with_time_limit(500));
    assert!(
        message.starts_with("Tiny_Game: the package's name is not a problem id"),
        "{message}"
    );
    let imported = import(
        &package,
        &ImportOptions {
            id: Some("tiny-game".parse().unwrap()),
            time_limit_ms: Some(500),
        },
    )
    .expect("imports with an id");
    let (_dir, problem) = load(&imported);
    assert_eq!(problem.id.as_str(), "tiny-game");
    let names: Vec<&str> = problem.testcases.iter().map(|t| t.name.as_str()).collect();
    assert_eq!(names, ["sample-1", "a", "group1-b"]);
    // Text before any section reads as the problem's.
    assert!(
        problem.statement.ends_with("MiB.\n\n"),
        "{}",
        problem.statement
    );
}

#[test]
fn what_nimjudge_cannot_judge_is_refused_naming_the_file_and_line() {
    let options = with_time_limit(1000);
    let cases = [
        (
            with(tiny(), "problem.yaml", "source: S\ntype: interactive\n"),
            "problem.yaml:2: type `interactive`: nimjudge imports pass-fail problems only",
        ),
        (
            with(
                tiny(),
                "problem.yaml",
                "source: S\nvalidation: custom interactive\n",
            ),
            "problem.yaml:2: validation `custom interactive`: a custom output validator is not imported",
        ),
        (
            with(
                tiny(),
                "problem.yaml",
                "source: S\nvalidator_flags: float_tolerance 1e-6\n",
            ),
            "problem.yaml:2: float_tolerance: nimjudge compares tokens exactly",
        ),
        (
            with(tiny(), "problem.yaml", "source: S\n\nnmae: Typo\n"),
            "problem.yaml:3: ",
        ),
        (
            with(tiny(), "problem.yaml", "source: [unclosed\n"),
            "problem.yaml:",
        ),
        (
            with(
                tiny(),
                "output_validators/check/check.cpp",
                "int main() {}\n",
            ),
            "output_validators/check/check.cpp: a custom output validator is not imported",
        ),
        (
            with(
                tiny(),
                "data/secret/testdata.yaml",
                "# flags\noutput_validator_flags: space_change_sensitive\n",
            ),
            "data/secret/testdata.yaml:2: space_change_sensitive",
        ),
        (
            with(
                tiny(),
                "data/secret/group1/testdata.yaml",
                "output_validator_flags: case_sensitive\n",
            ),
            "data: some testcases compare case_sensitive and others do not",
        ),
        (
            with(tiny(), "data/secret/c.in", "4\n"),
            "data/secret/c.in: has no answer file data/secret/c.ans",
        ),
        (
            with(
                with(tiny(), "data/secret/A.in", "4\n"),
                "data/secret/A.ans",
                "x\n",
            ),
            "data/secret/a.in: is testcase `a` as data/secret/A.in is; rename one",
        ),
        (
            with(tiny(), "data/secret/d.files/x.txt", "x\n"),
            "data/secret/d.files/x.txt: input files",
        ),
    ];
    for (package, expected) in &cases {
        let message = refusal(package, &options);
        assert!(
            message.starts_with(expected),
            "{message}\nexpected: {expected}"
        );
    }
    let mut not_text = tiny();
    not_text
        .files
        .insert("data/secret/a.in".into(), vec![0xff, b'\n']);
    let message = refusal(&not_text, &options);
    assert!(
        message.starts_with("data/secret/a.in: not UTF-8 text"),
        "{message}"
    );
    let mut no_secret = tiny();
    no_secret
        .files
        .retain(|path, _| !path.starts_with("data/secret"));
    let message = refusal(&no_secret, &options);
    assert!(
        message.starts_with("data/secret: holds no testcase"),
        "{message}"
    );
}

#[test]
fn flags_come_from_the_nearest_configuration_and_case_sensitive_is_kept() {
    let package = with(
        with(
            tiny(),
            "problem.yaml",
            "problem_format_version: 2025-09\nname: Tiny\nlimits:\n  time_limit: 1.5\n  memory: 256\n",
        ),
        "data/test_group.yaml",
        "output_validator_args: [case_sensitive]\n",
    );
    let imported = import(&package, &ImportOptions::default()).expect("imports");
    let (_dir, problem) = load(&imported);
    assert!(problem.case_sensitive);
    assert_eq!(problem.title, "Tiny");
    assert_eq!(
        (problem.time_limit_ms, problem.memory_limit_mib),
        (1500, 256)
    );
    // The legacy format's problem-wide flags.
    let package = with(
        tiny(),
        "problem.yaml",
        "source: S\nvalidator_flags: case_sensitive\n",
    );
    let (_dir, problem) = load(&import(&package, &with_time_limit(900)).expect("imports"));
    assert!(problem.case_sensitive);
}

/// A bundled problem exported (2025-09, which states its time limit) and
/// imported again has the same testcases, answers, limits and rules.
#[test]
fn an_exported_problem_imports_back_to_the_same_testcases() {
    let folder = Path::new(env!("CARGO_MANIFEST_DIR")).join("problems/nim");
    let original = catalog::load_problem(&folder).expect("nim loads");
    let files = super::super::package(&folder, crate::domain::PackageFormat::V2025_09)
        .expect("nim exports");
    let package = Package {
        name: "nim".into(),
        files: files
            .into_iter()
            .map(|f| (f.path.display().to_string(), f.contents))
            .collect(),
    };
    let imported = import(&package, &ImportOptions::default()).expect("imports");
    let (_dir, back) = load(&imported);
    assert_eq!(back.id, original.id);
    assert_eq!(back.title, original.title);
    assert_eq!(back.time_limit_ms, original.time_limit_ms);
    assert_eq!(back.memory_limit_mib, original.memory_limit_mib);
    assert!(back.case_sensitive);
    let solver = crate::solver::find("nim").expect("nim");
    let mut originals: Vec<_> = original.testcases.iter().collect();
    originals.sort_by_key(|t| (t.origin != TestcaseOrigin::Sample, t.name.clone()));
    assert_eq!(back.testcases.len(), originals.len());
    for (back, original) in back.testcases.iter().zip(originals) {
        assert_eq!(back.origin, original.origin, "{}", original.name);
        assert_eq!(back.hidden, original.origin != TestcaseOrigin::Sample);
        assert_eq!(back.input, original.input, "{}", original.name);
        assert_eq!(
            back.answer.as_deref(),
            Some(solver.solve(&original.input).expect("solves").as_str()),
            "{}",
            original.name
        );
    }
    // The statement's sections come back (the samples section is the
    // package's data, not its statement).
    for section in ["## Rules", "## Input", "## Output"] {
        assert!(
            back.statement.contains(section),
            "{section}:\n{}",
            back.statement
        );
    }
}

#[test]
fn a_zipped_package_reads_as_its_folder_does() {
    let zip = |prefix: &str, package: &Package| {
        let mut zip = crate::zip_archive::StoredZip::with_limit(1 << 20);
        for (path, bytes) in &package.files {
            zip.add(&format!("{prefix}{path}"), bytes).expect("added");
        }
        zip.finish().expect("a zip")
    };
    let folder = tiny();
    // Zipped in its folder: the folder names it.
    let read = Package::read_zip("download", &zip("tiny/", &folder)).expect("reads");
    assert_eq!((read.name.as_str(), &read.files), ("tiny", &folder.files));
    // Zipped from inside: the zip's name does.
    let read = Package::read_zip("tiny2", &zip("", &folder)).expect("reads");
    assert_eq!((read.name.as_str(), &read.files), ("tiny2", &folder.files));
    let message = Package::read_zip("bad", b"not a zip")
        .unwrap_err()
        .to_string();
    assert!(
        message.starts_with("bad.zip: the zip could not be read"),
        "{message}"
    );
    let mut escaping = crate::zip_archive::StoredZip::with_limit(1 << 20);
    escaping
        .add("../problem.yaml", b"source: S\n")
        .expect("added");
    let message = Package::read_zip("bad", &escaping.finish().unwrap())
        .unwrap_err()
        .to_string();
    assert!(
        message.contains("`../problem.yaml` is not a plain relative path"),
        "{message}"
    );
}
