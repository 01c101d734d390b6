//! Problem data drives these tests: the official samples, the extra
//! brute-force-checked regression cases, the bundled testcases recorded in
//! each `problem.toml`, the invalid inputs with their exact messages, and
//! every generator, for every hosted problem.
//!
//! No test here counts problems or files by hand: each one compares what it
//! checked with what a walk of the directories finds, so adding a problem or
//! a case needs no edit here.

use std::{
    fs,
    path::{Path, PathBuf},
};

use nimjudge::{
    catalog,
    solver::{self, Solver, TestKind},
};

const PROBLEMS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/problems");
const EXTRA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/extra");

fn read(path: &Path) -> String {
    fs::read_to_string(path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()))
}

fn solver(id: &str) -> &'static dyn Solver {
    solver::find(id).unwrap_or_else(|| panic!("no solver for `{id}`"))
}

/// The files directly inside `dir` whose name ends in `.<extension>`, sorted;
/// none if `dir` does not exist.
fn files_with_extension(dir: &Path, extension: &str) -> Vec<PathBuf> {
    let Ok(entries) = fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut files: Vec<PathBuf> = entries
        .map(|entry| entry.expect("directory entry").path())
        .filter(|path| path.is_file() && path.extension().is_some_and(|e| e == extension))
        .collect();
    files.sort();
    files
}

/// The sub-directories of `dir`, sorted by name.
fn sub_directories(dir: &Path) -> Vec<PathBuf> {
    let mut dirs: Vec<PathBuf> = fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("cannot list {}: {e}", dir.display()))
        .map(|entry| entry.expect("directory entry").path())
        .filter(|path| path.is_dir())
        .collect();
    dirs.sort();
    dirs
}

/// How many `<name>.<extension>` files lie one level down, in
/// `root/<any folder>/<sub>/`, whether or not a solver claims the folder.
fn count_in_every_folder(root: &Path, sub: &str, extension: &str) -> usize {
    sub_directories(root)
        .iter()
        .map(|folder| files_with_extension(&folder.join(sub), extension).len())
        .sum()
}

fn folder_name(path: &Path) -> String {
    path.file_name()
        .and_then(|name| name.to_str())
        .unwrap_or_else(|| panic!("{} has no UTF-8 name", path.display()))
        .to_string()
}

#[test]
fn every_problem_folder_has_a_solver_and_every_solver_a_folder() {
    let folders: Vec<String> = sub_directories(Path::new(PROBLEMS))
        .iter()
        .map(|path| folder_name(path))
        .collect();
    let mut ids: Vec<String> = solver::solvers()
        .iter()
        .map(|s| s.id().to_string())
        .collect();
    ids.sort();
    assert!(!ids.is_empty(), "no problem is registered");
    assert_eq!(folders, ids, "problems/ and the registry disagree");
    // The extra regression cases may skip a problem, but not name an
    // unknown one.
    for folder in sub_directories(Path::new(EXTRA)) {
        let id = folder_name(&folder);
        assert!(
            solver::find(&id).is_some(),
            "{}: no such problem",
            folder.display()
        );
    }
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
    // Every published output on disk, and none missed.
    assert!(checked > 0, "no official sample was checked");
    assert_eq!(
        checked,
        count_in_every_folder(Path::new(PROBLEMS), "testcases", "out")
    );
}

#[test]
fn every_extra_regression_case_gets_its_brute_force_output() {
    let mut checked = 0;
    for s in solver::solvers() {
        checked += check_expected_outputs(s.id(), &Path::new(EXTRA).join(s.id()));
    }
    // Every case listed in the provenance table of tests/data/extra, and
    // none missed.
    assert!(checked > 0, "no extra case was checked");
    assert_eq!(checked, count_in_every_folder(Path::new(EXTRA), ".", "out"));
}

/// Each `problems/<id>/invalid/<case>.in` is refused with exactly the one
/// line in `<case>.err` beside it: the line, the token and the violated
/// constraint, as `InputError` displays them.
#[test]
fn every_invalid_input_is_refused_with_its_exact_message() {
    let mut checked = 0;
    for s in solver::solvers() {
        let dir = Path::new(PROBLEMS).join(s.id()).join("invalid");
        let inputs = files_with_extension(&dir, "in");
        assert!(!inputs.is_empty(), "{}: no invalid input", dir.display());
        for err_path in files_with_extension(&dir, "err") {
            assert!(
                err_path.with_extension("in").is_file(),
                "{} has no .in beside it",
                err_path.display()
            );
        }
        for in_path in inputs {
            let err_path = in_path.with_extension("err");
            assert!(
                err_path.is_file(),
                "{} has no .err beside it",
                in_path.display()
            );
            let expected = read(&err_path);
            let expected = expected
                .strip_suffix('\n')
                .filter(|line| !line.is_empty() && !line.contains('\n'))
                .unwrap_or_else(|| panic!("{}: want one line", err_path.display()));
            let input = read(&in_path);
            let message = match s.validate(&input) {
                Ok(()) => panic!("{}: accepted", in_path.display()),
                Err(e) => e.to_string(),
            };
            assert_eq!(message, expected, "{}", in_path.display());
            // Solving refuses it the same way.
            let solved = s.solve(&input).map_err(|e| e.to_string());
            assert_eq!(solved, Err(message), "{}", in_path.display());
            checked += 1;
        }
    }
    assert!(checked > 0, "no invalid input was checked");
    assert_eq!(
        checked,
        count_in_every_folder(Path::new(PROBLEMS), "invalid", "in")
    );
}

/// No two testcases of a problem are the same input: a copy judges nothing
/// new and costs a run, and BAPCtools refuses an exported package with one.
/// (An `edge` generator that makes one input whatever its seed gives one
/// testcase, not three.)
#[test]
fn no_two_testcases_of_a_problem_are_the_same_input() {
    for s in solver::solvers() {
        let folder = Path::new(PROBLEMS).join(s.id());
        let definition = catalog::load_problem(&folder)
            .unwrap_or_else(|e| panic!("{}: cannot load: {e}", s.id()));
        let mut seen: std::collections::HashMap<&str, &str> = std::collections::HashMap::new();
        for case in &definition.testcases {
            if let Some(first) = seen.insert(case.input.as_str(), case.name.as_str()) {
                panic!("{}: {} is the same input as {first}", s.id(), case.name);
            }
        }
    }
}

#[test]
fn every_bundled_testcase_is_valid_and_regenerates_byte_for_byte() {
    for s in solver::solvers() {
        let folder = Path::new(PROBLEMS).join(s.id());
        let definition = catalog::load_problem(&folder)
            .unwrap_or_else(|e| panic!("{}: cannot load: {e}", s.id()));
        let dir = folder.join("testcases");
        for kind in TestKind::ALL {
            assert!(
                definition
                    .testcases
                    .iter()
                    .any(|t| t.generator.is_some_and(|(k, _)| k == kind)),
                "{}: no {kind} testcase",
                s.id()
            );
        }
        for case in &definition.testcases {
            // The loader regenerates a missing file; the bundle must ship it.
            let path = dir.join(format!("{}.in", case.name));
            assert!(path.is_file(), "{} is missing", path.display());
            if let Err(e) = s.validate(&case.input) {
                panic!("{}/{}: invalid: {e}", s.id(), case.name);
            }
            match (case.origin.as_str(), case.generator) {
                ("generated", Some((kind, seed))) => assert!(
                    s.generate(kind, seed) == case.input,
                    "{}/{} differs from `nimjudge generate {} --kind {kind} --seed {seed}`",
                    s.id(),
                    case.name,
                    s.id()
                ),
                ("sample", None) => {}
                (origin, generator) => {
                    panic!(
                        "{}/{}: origin {origin} with generator {generator:?}",
                        s.id(),
                        case.name
                    )
                }
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
                    definition.testcases.iter().any(|t| t.name == stem),
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

/// The transcript in an interactive problem's statement (`## Sample`, lines
/// `judge: …` and `you: …`) is what the judge really says to those moves on
/// `testcases/sample-1.in`, and ends with the program winning.
#[test]
fn every_interactive_statement_sample_is_what_the_judge_says() {
    let mut checked = 0;
    for s in solver::solvers().iter().filter(|s| s.interactive()) {
        let folder = Path::new(PROBLEMS).join(s.id());
        let statement = read(&folder.join("statement.md"));
        let sample = statement
            .split("## Sample")
            .nth(1)
            .and_then(|rest| rest.split("```").nth(1))
            .unwrap_or_else(|| panic!("{}: no sample transcript", s.id()));
        let input = read(&folder.join("testcases/sample-1.in"));
        let mut referee = s.referee(&input).unwrap().expect("a referee");
        let mut said = referee.opening();
        let mut heard_end = false;
        for line in sample.lines().filter(|l| !l.trim().is_empty()) {
            if let Some(judge) = line.strip_prefix("judge:") {
                let (first, rest) = said
                    .split_once('\n')
                    .unwrap_or_else(|| panic!("{}: the judge said nothing for `{line}`", s.id()));
                assert_eq!(first, judge.trim(), "{}: the judge's line", s.id());
                said = rest.to_string();
            } else if let Some(you) = line.strip_prefix("you:") {
                assert!(said.is_empty(), "{}: unread judge lines {said:?}", s.id());
                match referee.hear(you.trim().as_bytes()) {
                    solver::interactive::Heard::Reply(text) => said = text,
                    solver::interactive::Heard::Over { reply, result } => {
                        assert_eq!(result, Ok(()), "{}", s.id());
                        said = reply;
                        heard_end = true;
                    }
                }
            } else {
                panic!("{}: a sample line is neither judge nor you: {line}", s.id());
            }
        }
        assert!(said.is_empty(), "{}: unread judge lines {said:?}", s.id());
        assert!(
            heard_end && referee.finished(),
            "{}: the sample does not end",
            s.id()
        );
        checked += 1;
    }
    assert!(checked > 0, "no interactive problem was checked");
}

/// The judge of every bundled testcase of every interactive problem loses
/// every game to a perfect player (the solver core's own moves) and says
/// so: its opening, its replies and its end agree with its strategy.
#[test]
fn a_perfect_player_wins_every_bundled_interactive_testcase() {
    let mut testcases = 0;
    for s in solver::solvers().iter().filter(|s| s.interactive()) {
        let folder = Path::new(PROBLEMS).join(s.id()).join("testcases");
        let mut names: Vec<_> = std::fs::read_dir(&folder)
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        names.sort();
        for path in names {
            let input = read(&path);
            let mut referee = s.referee(&input).unwrap().expect("a referee");
            referee.opening();
            let mut lines = 0;
            while let Some(line) = referee.perfect_line() {
                lines += 1;
                if let solver::interactive::Heard::Over { result, .. } =
                    referee.hear(line.as_bytes())
                {
                    assert_eq!(result, Ok(()), "{}", path.display());
                }
            }
            assert!(
                referee.finished(),
                "{}: not over after {lines} lines",
                path.display()
            );
            testcases += 1;
        }
    }
    assert!(testcases >= 12 * 10, "{testcases}");
}

/// Runs a Kattis input validator (a Python program reading stdin, exiting
/// 42 or 43) on many inputs in one Python process: each input is fed as
/// stdin to a fresh run of the program's code, and its exit status kept.
/// The token reader the validators import is found beside the driver.
const VALIDATOR_DRIVER: &str = r#"
import io, json, os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
path, inputs = sys.argv[1], sys.argv[2]
code = compile(open(path, encoding="utf-8").read(), path, "exec")
statuses = []
real_stdout = sys.stdout
for data in json.load(open(inputs)):
    sys.stdin = io.TextIOWrapper(io.BytesIO(bytes.fromhex(data)))
    sys.stdout = io.TextIOWrapper(io.BytesIO())
    try:
        exec(code, {"__name__": "__main__"})
        statuses.append(0)
    except SystemExit as exit:
        statuses.append(exit.code if isinstance(exit.code, int) else 1)
    finally:
        sys.stdout = real_stdout
print(json.dumps(statuses))
"#;

/// Inputs near `input`: each token deleted, doubled or replaced by
/// something at or past a bound or not a number at all, a token added at
/// the end, and whitespace of every kind.
fn mutations(input: &str) -> Vec<Vec<u8>> {
    const REPLACEMENTS: [&str; 14] = [
        "0",
        "1",
        "2",
        "-1",
        "+1",
        "007",
        "1000000000000000000",
        "1000000000000000001",
        "18446744073709551616",
        "99999999999999999999",
        "000000000000000000000000001",
        "1e3",
        "x",
        "é",
    ];
    let tokens: Vec<&str> = input.split_ascii_whitespace().collect();
    let joined = |tokens: &[&str]| tokens.join(" ").into_bytes();
    let mut out = Vec::new();
    for i in 0..tokens.len() {
        let mut without = tokens.clone();
        without.remove(i);
        out.push(joined(&without));
        let mut doubled = tokens.clone();
        doubled.insert(i, tokens[i]);
        out.push(joined(&doubled));
        for replacement in REPLACEMENTS {
            let mut replaced = tokens.clone();
            replaced[i] = replacement;
            out.push(joined(&replaced));
        }
    }
    let mut longer = tokens.clone();
    longer.push("0");
    out.push(joined(&longer));
    for separator in ["\t", "\r\n", "\x0b", "\x0c", "  \n\n "] {
        out.push(tokens.join(separator).into_bytes());
    }
    out.push(Vec::new());
    out.push(b" \n".to_vec());
    let mut not_utf8 = input.as_bytes().to_vec();
    not_utf8.insert(0, 0xff);
    out.push(not_utf8);
    out
}

/// Each problem's `input_validator.py`, the input validator of its Kattis
/// package (interactive problems' too), accepts exactly what the solver
/// core's validator accepts: on
/// the bundled testcases, the invalid inputs, generated inputs of every
/// kind and thousands of inputs near the short ones.
#[test]
fn every_kattis_input_validator_agrees_with_the_solver_core() {
    let work = tempfile::tempdir().expect("a scratch folder");
    let driver = work.path().join("driver.py");
    fs::write(&driver, VALIDATOR_DRIVER).expect("the driver is written");
    fs::write(
        work.path().join("nimjudge_input.py"),
        nimjudge::kattis::INPUT_READER,
    )
    .expect("the token reader is written");
    let mut checked = 0;
    // Every problem's faults, then one failure that lists them all.
    let mut faults = Vec::new();
    for dir in sub_directories(Path::new(PROBLEMS)) {
        let id = folder_name(&dir);
        let s = solver(&id);
        let validator = dir.join(nimjudge::kattis::INPUT_VALIDATOR);
        if !validator.is_file() {
            faults.push(format!("{id} has no {}", validator.display()));
            continue;
        }
        let mut inputs: Vec<Vec<u8>> = Vec::new();
        for sub in ["testcases", "invalid"] {
            for file in files_with_extension(&dir.join(sub), "in") {
                inputs.push(fs::read(&file).expect("readable input"));
            }
        }
        for kind in TestKind::ALL {
            let seeds = if kind == TestKind::Max { 1..2 } else { 1..9 };
            for seed in seeds {
                let input = s.generate(kind, seed);
                // Edge inputs may be the largest; only short ones are mutated.
                if kind != TestKind::Max && input.len() <= 200 {
                    inputs.extend(mutations(&input));
                }
                inputs.push(input.into_bytes());
            }
        }
        let hex: Vec<String> = inputs
            .iter()
            .map(|input| input.iter().map(|b| format!("{b:02x}")).collect())
            .collect();
        let listed = work.path().join("inputs.json");
        fs::write(&listed, serde_json::to_vec(&hex).expect("JSON")).expect("inputs written");
        let output = std::process::Command::new("python3")
            .arg(&driver)
            .arg(&validator)
            .arg(&listed)
            .output()
            .expect("python3 runs (the Kattis validators are Python programs)");
        if !output.status.success() {
            let stderr = String::from_utf8_lossy(&output.stderr);
            faults.push(format!("{id}: the driver failed: {stderr}"));
            continue;
        }
        let statuses: Vec<i64> = serde_json::from_slice(&output.stdout).expect("statuses");
        assert_eq!(statuses.len(), inputs.len(), "{id}");
        for (input, status) in inputs.iter().zip(statuses) {
            let valid = std::str::from_utf8(input).is_ok_and(|text| s.validate(text).is_ok());
            if status != if valid { 42 } else { 43 } {
                faults.push(format!(
                    "{id}: the validator says {status} and the solver core {valid} on {:?}",
                    String::from_utf8_lossy(input)
                ));
            }
            checked += 1;
        }
    }
    assert!(faults.is_empty(), "{}", faults.join("\n"));
    assert!(checked > 12_000, "only {checked} inputs were checked");
}
