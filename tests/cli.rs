//! The command line, exercised through the real `nimjudge` binary.

use std::{
    io::Write,
    process::{Command, Output, Stdio},
};

const BIN: &str = env!("CARGO_BIN_EXE_nimjudge");
/// The solver core alone (`nimjudge-solve <problem>`).
const SOLVE_BIN: &str = env!("CARGO_BIN_EXE_nimjudge-solve");

fn run(args: &[&str], stdin: &str) -> Output {
    run_binary(BIN, args, stdin)
}

fn run_binary(binary: &str, args: &[&str], stdin: &str) -> Output {
    let mut child = Command::new(binary)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary starts");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(stdin.as_bytes())
        .expect("stdin accepts the input");
    child.wait_with_output().expect("the binary finishes")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8(bytes.to_vec()).expect("UTF-8 output")
}

#[test]
fn solve_prints_the_reference_output() {
    let out = run(&["solve", "misere-nim"], "2\n2\n1 1\n3\n2 1 3\n");
    assert!(out.status.success());
    assert_eq!(text(&out.stdout), "First\nSecond\n");
}

#[test]
fn solve_rejects_an_invalid_input_with_status_2_and_one_line() {
    let out = run(&["solve", "nim"], "2\n1 x\n");
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
    let err = text(&out.stderr);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.contains("line 2: token `x` is not an integer (expected A_2)"),
        "{err}"
    );
}

#[test]
fn solve_rejects_an_unknown_problem() {
    let out = run(&["solve", "chess"], "");
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("unknown problem `chess`"));
}

/// `nimjudge-solve` answers as `nimjudge solve` does, byte for byte, on
/// every bundled testcase, and fails as it does.
#[test]
fn the_small_solver_binary_answers_as_solve_does() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("problems");
    let mut compared = 0;
    for id in [
        "nim",
        "misere-nim",
        "xy-game",
        "dont-say-n",
        "habanero-tofu",
    ] {
        for entry in std::fs::read_dir(root.join(id).join("testcases")).expect("testcases") {
            let path = entry.expect("an entry").path();
            if path.extension().is_none_or(|e| e != "in") {
                continue;
            }
            let input = std::fs::read_to_string(&path).expect("an input");
            let (small, full) = (
                run_binary(SOLVE_BIN, &[id], &input),
                run(&["solve", id], &input),
            );
            assert!(small.status.success(), "{}", path.display());
            assert_eq!(small.stdout, full.stdout, "{}", path.display());
            compared += 1;
        }
    }
    assert!(compared >= 40, "{compared} testcases");
    for (args, stdin) in [
        (&["nim"][..], "2\n1 x\n"),
        (&["chess"], ""),
        (&[], ""),
        (&["nim", "x"], ""),
    ] {
        let (small, full) = (run_binary(SOLVE_BIN, args, stdin), {
            let mut with_solve = vec!["solve"];
            with_solve.extend_from_slice(args);
            run(&with_solve, stdin)
        });
        assert_eq!(small.status.code(), Some(2), "{args:?}");
        assert_eq!(text(&small.stderr).lines().count(), 1, "{args:?}");
        if args.len() == 1 {
            assert_eq!(small.stderr, full.stderr, "{args:?}");
        } else {
            assert!(text(&small.stderr).starts_with("error: usage: nimjudge-solve <problem>"));
        }
    }
}

#[test]
fn problems_lists_every_registered_id_in_catalogue_order() {
    let out = run(&["problems"], "");
    assert!(out.status.success());
    let ids = text(&out.stdout);
    let registered: Vec<&str> = nimjudge::solver::solvers().iter().map(|s| s.id()).collect();
    assert_eq!(ids.lines().collect::<Vec<_>>(), registered);
}

#[test]
fn check_accepts_a_right_answer_and_names_the_first_wrong_token() {
    let dir = std::env::temp_dir().join(format!("nimjudge-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let input = dir.join("in");
    let right = dir.join("right");
    let wrong = dir.join("wrong");
    std::fs::write(&input, "2\n2\n1 1\n3\n2 1 3\n").expect("write");
    std::fs::write(&right, "First   \r\nSecond").expect("write");
    std::fs::write(&wrong, "First\nFirst\n").expect("write");
    let args = |out: &std::path::Path| {
        vec![
            "check".to_string(),
            "misere-nim".into(),
            "--input".into(),
            input.display().to_string(),
            "--output".into(),
            out.display().to_string(),
        ]
    };
    let right_args = args(&right);
    let out = run(
        &right_args.iter().map(String::as_str).collect::<Vec<_>>(),
        "",
    );
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(text(&out.stdout), "AC\n");
    let wrong_args = args(&wrong);
    let out = run(
        &wrong_args.iter().map(String::as_str).collect::<Vec<_>>(),
        "",
    );
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        text(&out.stdout),
        "WA token 2 (line 2): expected `Second`, found `First`\n"
    );
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn check_streams_any_output_and_refuses_an_oversized_input_by_name() {
    let dir = tempfile::tempdir().expect("temp dir");
    let input = dir.path().join("in");
    let binary = dir.path().join("binary");
    std::fs::write(&input, "2\n2\n1 1\n3\n2 1 3\n").expect("write");
    // An output that is not UTF-8 is a wrong answer, not an error.
    std::fs::write(&binary, b"First\nSec\xffond\n").expect("write");
    let check = |input: &std::path::Path, output: &std::path::Path| {
        let input = input.display().to_string();
        let output = output.display().to_string();
        run(
            &[
                "check",
                "misere-nim",
                "--input",
                &input,
                "--output",
                &output,
            ],
            "",
        )
    };
    let out = check(&input, &binary);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    assert_eq!(
        text(&out.stdout),
        "WA token 2 (line 2): expected `Second`, found `Sec\u{fffd}ond`\n"
    );
    // An input above the limit is refused before it is read whole.
    let huge = dir.path().join("huge");
    let file = std::fs::File::create(&huge).expect("create");
    file.set_len((64 << 20) + 1)
        .expect("a sparse 64 MiB + 1 file");
    let out = check(&huge, &binary);
    assert_eq!(out.status.code(), Some(2));
    let err = text(&out.stderr);
    assert!(
        err.contains("is larger than 67108864 bytes, the largest input accepted"),
        "{err}"
    );
}

#[test]
fn generate_is_deterministic_and_its_output_solves() {
    let first = run(
        &["generate", "dont-say-n", "--kind", "random", "--seed", "7"],
        "",
    );
    let second = run(
        &["generate", "dont-say-n", "--kind", "random", "--seed", "7"],
        "",
    );
    assert!(first.status.success());
    assert_eq!(first.stdout, second.stdout);
    let solved = run(&["solve", "dont-say-n"], &text(&first.stdout));
    assert!(solved.status.success(), "{}", text(&solved.stderr));
    assert!(!solved.stdout.is_empty());
}

#[test]
fn generate_rejects_an_unknown_kind() {
    let out = run(&["generate", "nim", "--kind", "huge"], "");
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("unknown testcase kind `huge`"));
}

/// SIGTERM while the daemon is still starting (migrating, syncing the
/// catalog) is a graceful stop with status 0, not death by the signal.
#[cfg(unix)]
#[test]
fn serve_stops_with_status_0_on_sigterm_even_during_startup() {
    let dir = std::env::temp_dir().join(format!("nimjudge-serve-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let child = Command::new(BIN)
        .arg("serve")
        .current_dir(&dir)
        .env("NIMJUDGE_SERVER__BIND", "127.0.0.1:0")
        .env(
            "NIMJUDGE_DATABASE__URL",
            format!("sqlite://{}/judge.db", dir.display()),
        )
        .env(
            "NIMJUDGE_CATALOG__PROBLEMS_DIR",
            concat!(env!("CARGO_MANIFEST_DIR"), "/problems"),
        )
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the daemon starts");
    // Long before a fresh database has synced the bundled catalog.
    std::thread::sleep(std::time::Duration::from_millis(50));
    let killed = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .expect("kill runs");
    assert!(killed.success());
    let out = child.wait_with_output().expect("the daemon exits");
    let log = format!("{}{}", text(&out.stdout), text(&out.stderr));
    std::fs::remove_dir_all(&dir).ok();
    assert_eq!(out.status.code(), Some(0), "{log}");
    assert!(log.contains("stopped"), "{log}");
}

/// Runs the binary in `dir` with no settings from this process's
/// environment but the ones given.
fn run_in(dir: &std::path::Path, args: &[&str], env: &[(&str, &str)]) -> Output {
    let mut command = Command::new(BIN);
    command
        .args(args)
        .current_dir(dir)
        .env_clear()
        .env("PATH", std::env::var_os("PATH").unwrap_or_default())
        .stdin(Stdio::null());
    for (key, value) in env {
        command.env(key, value);
    }
    command.output().expect("the binary runs")
}

#[test]
fn database_tools_refuse_a_missing_database_instead_of_creating_one() {
    let dir = tempfile::tempdir().expect("temp dir");
    // The client's variables are set, as a contestant's shell would have them.
    let client = [
        ("NIMJUDGE_TOKEN", "nj_x"),
        ("NIMJUDGE_SERVER", "http://127.0.0.1:9"),
    ];
    for args in [
        &["token", "create", "--name", "alice", "--role", "admin"][..],
        &["log"][..],
    ] {
        let out = run_in(dir.path(), args, &client);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = text(&out.stderr);
        assert!(
            err.contains("nimjudge.db does not exist"),
            "{args:?}: {err}"
        );
        assert!(err.contains("run `nimjudge serve` once"), "{err}");
    }
    assert_eq!(
        std::fs::read_dir(dir.path()).expect("list").count(),
        0,
        "nothing was created"
    );
}

#[test]
fn serve_refuses_to_start_on_an_empty_catalog_and_says_where_it_looked() {
    let dir = tempfile::tempdir().expect("temp dir");
    let out = run_in(
        dir.path(),
        &["serve"],
        &[
            ("NIMJUDGE_SERVER__BIND", "127.0.0.1:0"),
            ("NIMJUDGE_TOKEN", "nj_x"),
        ],
    );
    assert_eq!(out.status.code(), Some(2));
    let err = text(&out.stderr);
    assert!(err.contains("no problem loaded from"), "{err}");
    assert!(err.contains("catalog.allow_empty"), "{err}");
    assert!(
        err.contains("database open"),
        "the log names the database: {err}"
    );
}

/// Creates an empty, migrated database at `file`, as `serve` would.
fn create_database(file: &std::path::Path) -> String {
    let url = format!("sqlite://{}", file.display());
    let config = nimjudge::config::DatabaseConfig {
        url: url.clone(),
        read_connections: 1,
        busy_timeout: std::time::Duration::from_secs(5),
    };
    tokio::runtime::Runtime::new()
        .expect("a runtime")
        .block_on(async {
            nimjudge::store::Store::connect(&config)
                .await
                .expect("create the database")
                .close()
                .await;
        });
    url
}

#[test]
fn token_create_list_and_revoke_share_the_apis_rules() {
    let dir = tempfile::tempdir().expect("temp dir");
    let url = create_database(&dir.path().join("judge.db"));
    let env = [("NIMJUDGE_DATABASE__URL", url.as_str())];
    let token = |args: &[&str]| run_in(dir.path(), &[&["token"][..], args].concat(), &env);

    // The name is checked as given, with the API's own words.
    let out = token(&["create", "--name", " alice", "--role", "admin"]);
    assert_eq!(out.status.code(), Some(2));
    let expected = nimjudge::domain::validate_user_name(" alice")
        .expect_err("invalid")
        .to_string();
    assert!(
        text(&out.stderr).contains(&expected),
        "{}",
        text(&out.stderr)
    );

    let out = token(&[
        "create",
        "--name",
        "alice",
        "--role",
        "admin",
        "--expires-in",
        "30d",
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(text(&out.stdout).starts_with("nj_"));
    let out = token(&["create", "--name", "alice", "--role", "contestant"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("exists already as admin"),
        "{}",
        text(&out.stderr)
    );
    let out = token(&[
        "create",
        "--name",
        "bob",
        "--role",
        "contestant",
        "--expires-in",
        "3w",
    ]);
    assert_eq!(out.status.code(), Some(2), "an unknown unit");
    let out = token(&["create", "--name", "bob", "--role", "contestant"]);
    assert!(out.status.success(), "{}", text(&out.stderr));

    let out = token(&["list", "--json"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let rows: Vec<serde_json::Value> = text(&out.stdout)
        .lines()
        .map(|line| serde_json::from_str(line).expect("a JSON line"))
        .collect();
    assert_eq!(rows.len(), 2);
    assert_eq!(rows[0]["name"], "alice");
    assert!(rows[0]["expires_at"].is_string(), "{}", rows[0]);
    assert_eq!(rows[1]["expires_at"], serde_json::Value::Null);
    // The state the table shows.
    assert_eq!(rows[0]["state"], "active", "{}", rows[0]);
    assert_eq!(rows[1]["state"], "active", "{}", rows[1]);

    let out = token(&["revoke", "2"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let out = token(&["list"]);
    let listing = text(&out.stdout);
    let bob = listing
        .lines()
        .find(|l| l.contains("bob"))
        .expect("bob's row");
    assert!(bob.contains("revoked"), "{listing}");
    let alice = listing
        .lines()
        .find(|l| l.contains("alice"))
        .expect("alice's row");
    assert!(alice.contains("active"), "{listing}");
    let out = token(&["list", "--json"]);
    let bob: serde_json::Value = text(&out.stdout)
        .lines()
        .map(|line| serde_json::from_str::<serde_json::Value>(line).expect("a JSON line"))
        .find(|row| row["name"] == "bob")
        .expect("bob's line");
    assert_eq!(bob["state"], "revoked", "{bob}");
    let out = token(&["revoke", "99"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("no token 99"));
}

/// The environment of a `nimjudge` process that runs programs: its own
/// sandbox folder and a block of 16 pool uids no other process of the
/// suite uses (each start sweeps its pool's uids, which would kill another
/// process's runs on shared ones).
fn sandbox_env(work_dir: impl AsRef<std::path::Path>) -> Vec<(&'static str, String)> {
    static NEXT_BLOCK: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);
    let block = NEXT_BLOCK.fetch_add(1, std::sync::atomic::Ordering::Relaxed) % 16;
    // Above the daemon-killing test's block (8,000,000 to 8,065,536).
    let first_uid = 8_100_000 + (std::process::id() % 4096) * 256 + block * 16;
    vec![
        (
            "NIMJUDGE_SANDBOX__WORK_DIR",
            work_dir.as_ref().display().to_string(),
        ),
        ("NIMJUDGE_SANDBOX__FIRST_UID", first_uid.to_string()),
        ("NIMJUDGE_SANDBOX__UID_COUNT", "16".to_string()),
    ]
}

/// Every setter solution of every bundled problem, through the sandbox,
/// gets the verdict its folder names (`nimjudge verify`, as CI runs it).
#[test]
#[ignore = "needs root (the sandbox); scripts/test.sh runs it"]
fn verify_gives_every_bundled_solution_its_expected_verdict() {
    let work = tempfile::tempdir().expect("a temporary folder");
    let out = Command::new(BIN)
        .arg("verify")
        .envs(sandbox_env(work.path().join("sandbox")))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("the binary runs");
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{stdout}\n{}", text(&out.stderr));
    let summary = stdout.lines().last().expect("a summary line");
    let (got, total) = summary
        .split_once(" of ")
        .and_then(|(got, rest)| Some((got, rest.split_whitespace().next()?)))
        .expect("`N of M solutions …`");
    assert_eq!(got, total, "{summary}");
    // Every problem has at least one accepted C++ and one accepted Python
    // solution, and some wrong and slow ones teach something.
    let rows: Vec<&str> = stdout.lines().filter(|l| l.contains("accepted/")).collect();
    for problem in std::fs::read_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/problems")).unwrap() {
        let id = problem.unwrap().file_name().into_string().unwrap();
        for extension in [".cpp", ".py"] {
            assert!(
                rows.iter()
                    .any(|r| r.contains(&format!("│ {id} ")) && r.contains(extension)),
                "{id} has no accepted {extension} solution"
            );
        }
    }
    assert!(stdout.contains("┆ TLE      ┆ TLE"), "{stdout}");
    assert!(stdout.contains("WA       ┆ WA"), "{stdout}");
}

/// The (solution, verdict) rows of `nimjudge verify`'s table for `problem`.
fn verdicts_of(stdout: &str, problem: &str) -> Vec<(String, String)> {
    stdout
        .lines()
        .filter(|line| line.starts_with('│'))
        .map(|line| line.split(['│', '┆']).map(str::trim).collect::<Vec<_>>())
        .filter(|cells| cells.get(1) == Some(&problem))
        .map(|cells| (cells[2].to_owned(), cells[4].to_owned()))
        .collect()
}

/// Kattis packages in: nim exported (2025-09) and imported back judges
/// every setter solution to the same verdict as the bundled nim, and the
/// hand-written package of a game nimjudge hosts no solver for (the
/// subtraction game {1, 3, 4}) imports and judges its submissions to the
/// verdicts their folders name, by its answer files alone.
#[test]
#[ignore = "needs root (the sandbox); scripts/test.sh runs it"]
fn imported_kattis_packages_judge_their_solutions_to_the_expected_verdicts() {
    let work = tempfile::tempdir().expect("a temporary folder");
    let problems = work.path().join("problems");
    std::fs::create_dir_all(&problems).unwrap();
    let nimjudge = |args: &[&std::ffi::OsStr]| {
        let out = Command::new(BIN)
            .args(args)
            .envs(sandbox_env(work.path().join("sandbox")))
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .output()
            .expect("the binary runs");
        (out.status.code(), text(&out.stdout), text(&out.stderr))
    };
    let os = |s: &str| std::ffi::OsString::from(s);
    let exported = work.path().join("exported");
    let (status, stdout, stderr) = nimjudge(&[
        &os("export"),
        &os("nim"),
        &os("--format"),
        &os("2025-09"),
        &os("--out"),
        exported.as_os_str(),
    ]);
    assert_eq!(status, Some(0), "{stdout}\n{stderr}");
    let (status, stdout, stderr) = nimjudge(&[
        &os("import"),
        exported.join("nim").as_os_str(),
        &os("--into"),
        problems.as_os_str(),
    ]);
    assert_eq!(status, Some(0), "{stdout}\n{stderr}");
    let package =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/kattis/subtractiongame");
    let import_subtraction = || {
        nimjudge(&[
            &os("import"),
            package.as_os_str(),
            &os("--into"),
            problems.as_os_str(),
            &os("--time-limit-ms"),
            &os("1000"),
        ])
    };
    let (status, stdout, stderr) = import_subtraction();
    assert_eq!(status, Some(0), "{stdout}\n{stderr}");
    assert!(
        stdout.contains("note: input validators: kept in kattis/input_validators/"),
        "{stdout}"
    );
    assert!(
        stdout.contains("subtractiongame: imported into ")
            && stdout.contains(": 4 testcases (1 samples, 3 hidden)"),
        "{stdout}"
    );
    // A second import would overwrite the problem: refused, nothing lost.
    let (status, _, stderr) = import_subtraction();
    assert_eq!(status, Some(2), "{stderr}");
    assert!(
        stderr.contains("the catalog has a problem `subtractiongame` already"),
        "{stderr}"
    );
    let names: Vec<_> = std::fs::read_dir(&problems)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    assert_eq!(names.len(), 2, "{names:?}");

    let (status, imported, stderr) = Command::new(BIN)
        .arg("verify")
        .envs(sandbox_env(work.path().join("sandbox")))
        .env("NIMJUDGE_CATALOG__PROBLEMS_DIR", &problems)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .map(|out| (out.status.code(), text(&out.stdout), text(&out.stderr)))
        .expect("the binary runs");
    assert_eq!(status, Some(0), "{imported}\n{stderr}");
    assert!(
        imported.contains("9 of 9 solutions got their expected verdict"),
        "{imported}"
    );
    let mut subtraction = verdicts_of(&imported, "subtractiongame");
    subtraction.sort();
    assert_eq!(
        subtraction,
        [
            ("accepted/lowercase.py", "AC"),
            ("accepted/periodic.cpp", "AC"),
            ("accepted/periodic.py", "AC"),
            ("time_limit_exceeded/table.py", "TLE"),
            ("wrong_answer/multiples.py", "WA"),
        ]
        .map(|(s, v)| (s.to_owned(), v.to_owned()))
    );
    let (status, bundled, stderr) = nimjudge(&[&os("verify"), &os("nim")]);
    assert_eq!(status, Some(0), "{bundled}\n{stderr}");
    let mut original = verdicts_of(&bundled, "nim");
    original.sort();
    let mut back = verdicts_of(&imported, "nim");
    back.sort();
    assert!(!original.is_empty(), "{bundled}");
    assert_eq!(back, original);
}

/// `verify --matrix` runs every solution on every testcase and reviews the
/// time limit by problemtools' rule: nim's copy with a limit of 400 ms and
/// a planted "slow" solution that needs 450 ms of CPU time, TLE at the
/// limit but AC at the raised limit of 600 ms, so not caught with the
/// safety margin; and a limit that the accepted solution fits by the
/// default rule and does not with a larger multiplier.
#[test]
#[ignore = "needs root (the sandbox); scripts/test.sh runs it"]
fn verify_matrix_reviews_the_time_limit_by_problemtools_rule() {
    let work = tempfile::tempdir().expect("a temporary folder");
    let problems = work.path().join("problems");
    let nim = problems.join("nim");
    let source = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("problems/nim");
    for folder in [
        "testcases",
        "solutions/accepted",
        "solutions/time_limit_exceeded",
    ] {
        std::fs::create_dir_all(nim.join(folder)).unwrap();
    }
    for entry in std::fs::read_dir(source.join("testcases")).unwrap() {
        let path = entry.unwrap().path();
        std::fs::copy(&path, nim.join("testcases").join(path.file_name().unwrap())).unwrap();
    }
    std::fs::copy(source.join("statement.md"), nim.join("statement.md")).unwrap();
    let manifest = std::fs::read_to_string(source.join("problem.toml")).unwrap();
    std::fs::write(
        nim.join("problem.toml"),
        manifest.replace("time_limit_ms = 2000", "time_limit_ms = 400"),
    )
    .unwrap();
    std::fs::copy(
        source.join("solutions/accepted/xor.cpp"),
        nim.join("solutions/accepted/xor.cpp"),
    )
    .unwrap();
    std::fs::write(
        nim.join("solutions/time_limit_exceeded/spin.py"),
        // It answers first and then spins, so that every testcase costs
        // the same 450 ms however long its input takes to read.
        r"import sys, time
data = sys.stdin.buffer.read().split()
x = 0
for tok in data[1:1 + int(data[0])]:
    x ^= int(tok)
while time.process_time() < 0.45:
    pass
print('Alice' if x else 'Bob')
",
    )
    .unwrap();
    let verify = |extra: &[&str]| {
        let out = Command::new(BIN)
            .args(["verify", "nim", "--matrix"])
            .args(extra)
            .envs(sandbox_env(work.path().join("sandbox")))
            .env("NIMJUDGE_CATALOG__PROBLEMS_DIR", &problems)
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .output()
            .expect("the binary runs");
        (out.status.code(), text(&out.stdout), text(&out.stderr))
    };
    let (status, stdout, stderr) = verify(&[]);
    assert_eq!(status, Some(1), "{stdout}\n{stderr}");
    assert!(
        stdout.contains("time limit 400 ms; every run under 600 ms (× 1.5)"),
        "{stdout}"
    );
    // A row per solution, a column per testcase, CPU times in the cells.
    let header = stdout
        .lines()
        .find(|l| l.contains("solution") && l.contains("at 400 ms"))
        .expect("a header");
    for testcase in ["small-1", "edge-1", "max-1", "random-3"] {
        assert!(header.contains(testcase), "{header}");
    }
    let spin = stdout
        .lines()
        .find(|l| l.contains("time_limit_exceeded/spin.py"))
        .expect("a row for the planted solution");
    let timed_out = spin
        .split(['┆', '│'])
        .filter_map(|cell| cell.trim().strip_prefix("TLE "))
        .filter(|ms| ms.parse::<u32>().is_ok_and(|ms| ms > 400))
        .count();
    assert_eq!(timed_out, 10, "{spin}");
    assert!(
        stdout.contains(
            "error: time_limit_exceeded/spin.py is not caught with the safety margin: it gets AC at 600 ms"
        ),
        "{stdout}"
    );
    assert!(
        stdout.contains("slowest accepted: accepted/xor.cpp"),
        "{stdout}"
    );
    assert!(stdout.trim_end().ends_with("1 error"), "{stdout}");
    // With a margin of 1.05 the raised limit (421 ms) is below the planted
    // solution's 450 ms: it is caught, and nothing else is wrong.
    let (status, stdout, stderr) = verify(&["--time-limit-to-tle", "1.05"]);
    assert_eq!(status, Some(0), "{stdout}\n{stderr}");
    assert!(stdout.trim_end().ends_with("0 errors"), "{stdout}");
    let (status, _, stderr) = verify(&["--ac-to-time-limit", "0.5"]);
    assert_eq!(status, Some(2), "{stderr}");
    assert!(
        stderr.contains("--ac-to-time-limit must be between 1 and 100, not 0.5"),
        "{stderr}"
    );
}

/// `stress` finds a planted bug that only rare inputs show (nim with
/// exactly seven piles: random seed 642 is the first such input of the
/// random kind) and shrinks the input to seven empty piles; a correct
/// solution runs every seed and kind; a malformed range is refused.
#[test]
#[ignore = "needs root (the sandbox); scripts/test.sh runs it"]
fn stress_finds_a_planted_rare_bug_and_shrinks_its_input() {
    let work = tempfile::tempdir().expect("a temporary folder");
    let planted = work.path().join("planted.py");
    std::fs::write(
        &planted,
        "import sys\n\
         data = sys.stdin.buffer.read().split()\n\
         n = int(data[0])\n\
         x = 0\n\
         for tok in data[1:1 + n]:\n    x ^= int(tok)\n\
         win = x != 0\n\
         if n == 7:\n    win = not win\n\
         print('Alice' if win else 'Bob')\n",
    )
    .unwrap();
    let stress = |solution: &std::path::Path, extra: &[&str]| {
        let out = Command::new(BIN)
            .arg("stress")
            .arg("nim")
            .arg(solution)
            .args(extra)
            .envs(sandbox_env(work.path().join("sandbox")))
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .output()
            .expect("the binary runs");
        (out.status.code(), text(&out.stdout), text(&out.stderr))
    };
    let (status, stdout, stderr) = stress(&planted, &["--kind", "random", "--seeds", "630..700"]);
    assert_eq!(status, Some(1), "{stdout}\n{stderr}");
    assert!(
        stdout.contains("disagreement after 13 runs: kind random, seed 642: WA"),
        "{stdout}"
    );
    assert!(
        stdout.contains("--- input\n7\n0 0 0 0 0 0 0\n--- expected (the solver core)\nBob\n"),
        "{stdout}"
    );
    let accepted = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("problems/nim/solutions/accepted/xor.py");
    let (status, stdout, stderr) = stress(&accepted, &["--seeds", "1..20"]);
    assert_eq!(status, Some(0), "{stdout}\n{stderr}");
    assert!(stdout.contains("no disagreement in 80 runs"), "{stdout}");
    let (status, _, stderr) = stress(&accepted, &["--seeds", "5..1"]);
    assert_eq!(status, Some(2), "{stderr}");
    assert!(stderr.contains("`5..1` is empty: 5 is above 1"), "{stderr}");
}

/// One HTTP/1.1 request to `127.0.0.1:port`; the status and the body, or
/// `None` if nothing answers.
fn http(
    port: u16,
    method: &str,
    path: &str,
    token: Option<&str>,
    body: &str,
) -> Option<(u16, String)> {
    use std::io::Read;
    let mut stream = std::net::TcpStream::connect(("127.0.0.1", port)).ok()?;
    let auth = token.map_or(String::new(), |t| format!("Authorization: Bearer {t}\r\n"));
    let request = format!(
        "{method} {path} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n{auth}\
         Content-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    stream.write_all(request.as_bytes()).ok()?;
    let mut response = String::new();
    stream.read_to_string(&mut response).ok()?;
    let status = response.split(' ').nth(1)?.parse().ok()?;
    let body = response
        .split_once("\r\n\r\n")
        .map(|(_, b)| b.to_string())?;
    Some((status, body))
}

/// Submits a Python program to nim; the new submission's id.
fn submit_python(port: u16, token: &str, source: &str) -> String {
    let body = serde_json::json!({"problem": "nim", "language": "python", "source": source});
    let (status, answer) = http(
        port,
        "POST",
        "/api/submissions",
        Some(token),
        &body.to_string(),
    )
    .expect("submit");
    assert_eq!(status, 202, "{answer}");
    serde_json::from_str::<serde_json::Value>(&answer).expect("JSON")["id"]
        .as_str()
        .expect("an id")
        .to_string()
}

/// Live processes whose real uid is in `uids`.
fn processes_of(uids: &std::ops::Range<u32>) -> Vec<String> {
    std::fs::read_dir("/proc")
        .expect("/proc")
        .flatten()
        .filter_map(|entry| {
            entry.file_name().to_str()?.parse::<u32>().ok()?;
            let status = std::fs::read_to_string(entry.path().join("status")).ok()?;
            let field = |key: &str| {
                status
                    .lines()
                    .find_map(|l| l.strip_prefix(key))
                    .map(str::trim)
            };
            let uid: u32 = field("Uid:")?.split_whitespace().next()?.parse().ok()?;
            let zombie = field("State:")?.starts_with('Z');
            (uids.contains(&uid) && !zombie)
                .then(|| status.lines().next().unwrap_or("").to_string())
        })
        .collect()
}

/// The daemon, killed with SIGKILL while a program sleeps with children
/// under it, takes the whole run with it; restarted, it judges programs at
/// once (its self-test does not land on a uid a dead run still holds).
/// Needs root, as the sandbox does.
#[cfg(unix)]
#[test]
#[ignore = "needs root (the sandbox); scripts/test.sh runs it"]
fn a_daemon_killed_mid_run_leaves_nothing_running_and_judges_at_once_after_a_restart() {
    let dir = tempfile::tempdir().expect("temp dir");
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("a free port")
        .port();
    // Uids of this test alone (test servers use 3,000,000 to 7,200,000).
    let first_uid = 8_000_000 + (std::process::id() % 4096) * 16;
    let uids = first_uid..first_uid + 4;
    let database = format!("sqlite://{}/judge.db", dir.path().display());
    let env = [
        ("NIMJUDGE_SERVER__BIND", format!("127.0.0.1:{port}")),
        ("NIMJUDGE_DATABASE__URL", database),
        (
            "NIMJUDGE_CATALOG__PROBLEMS_DIR",
            concat!(env!("CARGO_MANIFEST_DIR"), "/problems").to_string(),
        ),
        (
            "NIMJUDGE_SANDBOX__WORK_DIR",
            dir.path().join("sandbox").display().to_string(),
        ),
        ("NIMJUDGE_SANDBOX__FIRST_UID", first_uid.to_string()),
        ("NIMJUDGE_SANDBOX__UID_COUNT", "4".to_string()),
        ("NIMJUDGE_WORKER__COUNT", "1".to_string()),
    ];
    let serve = || {
        let mut command = Command::new(BIN);
        command
            .arg("serve")
            .current_dir(dir.path())
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null());
        for (key, value) in &env {
            command.env(key, value);
        }
        command.spawn().expect("the daemon starts")
    };
    let healthy = || {
        for _ in 0..600 {
            if let Some((200, body)) = http(port, "GET", "/api/health", None, "") {
                return serde_json::from_str::<serde_json::Value>(&body).expect("health JSON");
            }
            std::thread::sleep(std::time::Duration::from_millis(100));
        }
        panic!("the daemon did not become healthy within a minute");
    };
    let mut daemon = serve();
    assert_eq!(healthy()["program_judging"], true, "needs root");
    let mut token = Command::new(BIN);
    token
        .args(["token", "create", "--name", "kim", "--role", "contestant"])
        .current_dir(dir.path());
    for (key, value) in &env {
        token.env(key, value);
    }
    let out = token.output().expect("token create runs");
    assert!(out.status.success(), "{}", text(&out.stderr));
    let token = text(&out.stdout).trim().to_string();

    let sleeper = "import os, time\nfor _ in range(8):\n    if os.fork() == 0:\n        time.sleep(600)\n        os._exit(0)\ntime.sleep(600)\n";
    submit_python(port, &token, sleeper);
    let mut running = Vec::new();
    for _ in 0..600 {
        running = processes_of(&uids);
        if running.len() >= 9 {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    assert!(
        running.len() >= 9,
        "the program and its children run: {running:?}"
    );
    daemon.kill().expect("SIGKILL the daemon");
    daemon.wait().expect("reap the daemon");
    let mut left = Vec::new();
    for _ in 0..20 {
        left = processes_of(&uids);
        if left.is_empty() {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    assert!(left.is_empty(), "processes outlived the daemon: {left:?}");

    let mut daemon = serve();
    let health = healthy();
    assert_eq!(health["program_judging"], true, "{health}");
    let xor = include_str!("../problems/nim/solutions/accepted/xor.py");
    let id = submit_python(port, &token, xor);
    let mut verdict = serde_json::Value::Null;
    for _ in 0..60 {
        let (_, body) = http(
            port,
            "GET",
            &format!("/api/submissions/{id}?wait_ms=2000"),
            Some(&token),
            "",
        )
        .expect("status");
        let value: serde_json::Value = serde_json::from_str(&body).expect("JSON");
        verdict = value["submission"]["verdict"].clone();
        if !verdict.is_null() {
            break;
        }
    }
    daemon.kill().ok();
    daemon.wait().ok();
    assert_eq!(verdict, "AC");
}

/// `serve` on a port already in use says so before it touches the
/// database: no database file is made.
#[test]
fn serve_on_a_port_in_use_fails_before_making_its_database() {
    let dir = tempfile::tempdir().expect("temp dir");
    let taken = std::net::TcpListener::bind("127.0.0.1:0").expect("a port");
    let address = taken.local_addr().expect("its address");
    let database = dir.path().join("judge.db");
    let out = Command::new(BIN)
        .arg("serve")
        .current_dir(dir.path())
        .env("NIMJUDGE_SERVER__BIND", address.to_string())
        .env(
            "NIMJUDGE_DATABASE__URL",
            format!("sqlite://{}", database.display()),
        )
        .env(
            "NIMJUDGE_CATALOG__PROBLEMS_DIR",
            concat!(env!("CARGO_MANIFEST_DIR"), "/problems"),
        )
        .envs(sandbox_env(dir.path().join("sandbox")))
        .stdin(Stdio::null())
        .output()
        .expect("serve runs");
    let log = format!("{}{}", text(&out.stdout), text(&out.stderr));
    assert!(!out.status.success(), "{log}");
    assert!(log.contains(&format!("cannot bind {address}")), "{log}");
    assert!(!database.exists(), "the database was made: {log}");
}

/// Written to a file (not a terminal), the log is plain text: no colour
/// codes, and values in their display form (`created=nim,...`, not
/// `ProblemId("nim")`).
#[cfg(unix)]
#[test]
fn serve_logs_plain_text_with_display_values_when_not_a_terminal() {
    use std::io::{BufRead, BufReader};
    let dir = tempfile::tempdir().expect("temp dir");
    let mut child = Command::new(BIN)
        .arg("serve")
        .current_dir(dir.path())
        .env("NIMJUDGE_SERVER__BIND", "127.0.0.1:0")
        .env(
            "NIMJUDGE_DATABASE__URL",
            format!("sqlite://{}/judge.db", dir.path().display()),
        )
        .env(
            "NIMJUDGE_CATALOG__PROBLEMS_DIR",
            concat!(env!("CARGO_MANIFEST_DIR"), "/problems"),
        )
        .envs(sandbox_env(dir.path().join("sandbox")))
        .env("NIMJUDGE_WORKER__COUNT", "0")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the daemon starts");
    let stderr = child.stderr.take().expect("stderr");
    let mut log = String::new();
    for line in BufReader::new(stderr).lines() {
        let line = line.expect("a log line");
        log.push_str(&line);
        log.push('\n');
        if line.contains("nimjudge listening") {
            break;
        }
    }
    let _ = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status();
    let _ = child.wait();
    assert!(log.contains("nimjudge listening"), "{log}");
    assert!(!log.contains('\u{1b}'), "colour codes in a log file: {log}");
    assert!(!log.contains("ProblemId("), "{log}");
    let synced = log
        .lines()
        .find(|l| l.contains("catalog synced"))
        .expect("the catalog line");
    assert!(
        synced.contains("created=") && synced.contains("nim"),
        "{synced}"
    );
}

/// `log` takes verdicts in any case, a `--since` time and an id's first
/// characters, and refuses an unknown problem, time or id with a message
/// instead of an empty table.
#[test]
fn log_filters_take_any_case_verdicts_a_since_time_an_id_prefix_and_refuse_unknown_ones() {
    let dir = tempfile::tempdir().expect("temp dir");
    let url = create_database(&dir.path().join("judge.db"));
    let env = [("NIMJUDGE_DATABASE__URL", url.as_str())];
    for args in [
        &["log", "--verdict", "wa"][..],
        &["log", "--verdict", "TLE"][..],
        &["log", "--since", "2026-11-23T00:00:00Z"][..],
    ] {
        let out = run_in(dir.path(), args, &env);
        assert_eq!(
            out.status.code(),
            Some(0),
            "{args:?}: {}",
            text(&out.stderr)
        );
    }
    let out = run_in(dir.path(), &["log", "--problem", "nosuch"], &env);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("no problem `nosuch`"),
        "{}",
        text(&out.stderr)
    );
    let out = run_in(dir.path(), &["log", "--since", "yesterday"], &env);
    assert_eq!(out.status.code(), Some(2));
    // One submission by the first characters of its id.
    let out = run_in(dir.path(), &["log", "abcd"], &env);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("no submission among the 500 newest starts with `abcd`"),
        "{}",
        text(&out.stderr)
    );
    let out = run_in(dir.path(), &["log", "ab"], &env);
    assert!(
        text(&out.stderr).contains("`ab` is neither a submission id nor its first 4"),
        "{}",
        text(&out.stderr)
    );
    let out = run_in(dir.path(), &["log", "--help"], &env);
    let help = text(&out.stdout);
    for option in ["--problem", "--verdict", "--user", "--since", "--limit"] {
        let line = help
            .lines()
            .find(|l| l.trim_start().starts_with(option))
            .unwrap_or_else(|| panic!("{option} in {help}"));
        assert!(
            line.trim().len() > option.len() + 12,
            "{option} has no help: {line}"
        );
    }
    assert!(help.contains("[possible values: AC, WA, TLE"), "{help}");
}

/// A client error says each cause once.
#[test]
fn a_client_error_names_each_cause_once() {
    let dir = tempfile::tempdir().expect("temp dir");
    std::fs::write(dir.path().join("sample-1.out"), "Alice\n").expect("an answer");
    let out = Command::new(BIN)
        .args([
            "submit",
            "--server",
            "http://127.0.0.1:9",
            "--token",
            "nj_x",
        ])
        .args(["--problem", "nim", "--answers"])
        .arg(dir.path())
        .output()
        .expect("the client runs");
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.starts_with("error: cannot reach the server: "), "{err}");
    assert_eq!(err.matches("error sending request").count(), 1, "{err}");
}

/// `interact` plays one program against an interactive judge in the
/// sandbox and prints the transcript and the verdict.
#[test]
#[ignore = "needs root (the sandbox); scripts/test.sh runs it"]
fn interact_plays_a_program_against_the_judge() {
    let work = tempfile::tempdir().expect("a temporary folder");
    let play = |solution: &str| {
        Command::new(BIN)
            .args(["interact", "nim-play", solution, "--input"])
            .arg("problems/nim-play/testcases/sample-1.in")
            .envs(sandbox_env(work.path().join("sandbox")))
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .output()
            .expect("the binary runs")
    };
    let out = play("problems/nim-play/solutions/accepted/bouton.py");
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}{}", text(&out.stderr));
    assert!(
        stdout.starts_with("judge:   2\njudge:   2\njudge:   1 2\nprogram: First\n"),
        "{stdout}"
    );
    assert!(stdout.ends_with("\nAC\n"), "{stdout}");
    let out = play("problems/nim-play/solutions/wrong_answer/always_first.cpp");
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}{}", text(&out.stderr));
    assert!(
        stdout.ends_with(
            "WA: testcase input: game 2: chose First, but the first player loses this position\n"
        ),
        "{stdout}"
    );
}

/// `interact -- <command>` runs a setter's own command in the sandbox as
/// it is: the files it names by relative paths are copied in; a path out of
/// the current folder, or to a host file the sandbox does not show, is
/// refused by name.
#[test]
#[ignore = "needs root (the sandbox); scripts/test.sh runs it"]
fn interact_runs_a_setters_command_with_the_files_it_names() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let solutions = root.join("problems/nim-play/solutions");
    let work = tempfile::tempdir().expect("a temporary folder");
    let here = work.path().join("here");
    std::fs::create_dir_all(here.join("build")).unwrap();
    // Compiled on the host, run only in the sandbox.
    let compiled = Command::new("g++")
        .args(["-O2", "-o", "build/bouton"])
        .arg(solutions.join("accepted/bouton.cpp"))
        .current_dir(&here)
        .status()
        .expect("g++ runs");
    assert!(compiled.success());
    std::fs::copy(
        solutions.join("wrong_answer/random_moves.py"),
        here.join("random_moves.py"),
    )
    .unwrap();
    let play = |command: &[&str]| {
        let out = Command::new(BIN)
            .args(["interact", "nim-play", "--config"])
            .arg(root.join("config.toml"))
            .arg("--input")
            .arg(root.join("problems/nim-play/testcases/sample-1.in"))
            .arg("--")
            .args(command)
            .envs(sandbox_env(work.path().join("sandbox")))
            .current_dir(&here)
            .output()
            .expect("the binary runs");
        (out.status.code(), text(&out.stdout), text(&out.stderr))
    };
    let (code, stdout, stderr) = play(&["./build/bouton"]);
    assert_eq!(code, Some(0), "{stdout}{stderr}");
    assert!(stdout.ends_with("\nAC\n"), "{stdout}");
    let (code, stdout, stderr) = play(&["python3", "random_moves.py"]);
    assert_eq!(code, Some(1), "{stdout}{stderr}");
    assert!(stdout.contains("\nWA: testcase input: game "), "{stdout}");
    let outside = solutions.join("accepted/bouton.py");
    let (code, _, stderr) = play(&["python3", outside.to_str().unwrap()]);
    assert_eq!(code, Some(2));
    assert!(
        stderr.contains("is not in the sandbox, which shows only its system folders"),
        "{stderr}"
    );
    std::fs::write(work.path().join("up.py"), "").unwrap();
    let (code, _, stderr) = play(&["python3", "../up.py"]);
    assert_eq!(code, Some(2));
    assert!(
        stderr.contains("`../up.py` is outside the current folder"),
        "{stderr}"
    );
    let (code, _, stderr) = play(&["./build/missing"]);
    assert_eq!(code, Some(2));
    assert!(
        stderr.contains("the command's program `./build/missing` is not a file of this host"),
        "{stderr}"
    );
}

#[test]
fn interact_refuses_a_batch_problem_and_an_invalid_input() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let input = dir.path().join("games.in");
    std::fs::write(&input, "1\n2\n1 1001\n").unwrap();
    let run = |problem: &str| {
        Command::new(BIN)
            .args(["interact", problem, "x.cpp", "--input"])
            .arg(&input)
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .output()
            .expect("the binary runs")
    };
    let out = run("nim");
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("`nim` is not interactive"),
        "{}",
        text(&out.stderr)
    );
    let out = run("nim-play");
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("A_2 = 1001 violates the constraint 0 ≤ A_i ≤ 1000"),
        "{}",
        text(&out.stderr)
    );
}

/// `play` in a terminal, scripted on stdin: a winning line wins (exit 0),
/// the losing side loses (exit 1), `?` explains, a wrong move is refused.
#[test]
fn play_runs_a_game_against_the_judge_in_the_terminal() {
    use std::io::Write as _;
    let dir = tempfile::tempdir().expect("a temporary folder");
    let play = |position: &str, lines: &str| {
        let file = dir.path().join("position.in");
        std::fs::write(&file, position).unwrap();
        let mut child = Command::new(BIN)
            .args(["play", "nim-play", "--seed", "1", "--position"])
            .arg(&file)
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .expect("the binary runs");
        child
            .stdin
            .take()
            .unwrap()
            .write_all(lines.as_bytes())
            .unwrap();
        child.wait_with_output().unwrap()
    };
    let out = play("1\n3\n", "?\nFirst\n3 1\n1 3\n");
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}{}", text(&out.stderr));
    assert!(
        stdout.contains("The XOR of the piles' values: 3 = 3."),
        "{stdout}"
    );
    assert!(stdout.contains("Winning moves: 1 3"), "{stdout}");
    assert!(stdout.contains("there is no pile 3"), "{stdout}");
    assert!(
        stdout.ends_with("Judge: none (it has no move)\nYou won.\n"),
        "{stdout}"
    );
    let out = play("2\n1 1\n", "First\n1 1\n");
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    assert!(
        stdout.ends_with("Judge: 2 1\nYou have no move: the judge won.\n"),
        "{stdout}"
    );
    let out = play("2\n1 1\n", "First\n");
    assert_eq!(out.status.code(), Some(2));
    let out = Command::new(BIN).args(["play", "nim"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr)
            .contains("`nim` is not a game to play (games: nim-play, misere-nim-play, prime-factor-game-returns-play, playing-with-stones-play, nim-k-play, prime-factor-game-play, coin-game-play, dont-say-n-play, constrained-nim-play, habanero-tofu-play, xy-game-play, football-game-play)")
    );
    // A position in play that the base format cannot say is written in a
    // fuller form, and the game says which: dont-say-n's count so far.
    let file = dir.path().join("count.in");
    std::fs::write(&file, "6 2\noxoxo\n3\n").unwrap();
    let mut child = Command::new(BIN)
        .args(["play", "dont-say-n-play", "--seed", "1", "--position"])
        .arg(&file)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("the binary runs");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"First\n5\n")
        .unwrap();
    let out = child.wait_with_output().unwrap();
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}");
    assert!(
        stdout.contains(
            "Position (N K, then S, then the number said last (0 at the start)):\n6 2\noxoxo\n3\n"
        ),
        "{stdout}"
    );
    assert!(stdout.ends_with("You won.\n"), "{stdout}");
}

/// `nimjudge export --format <format>` of every bundled problem into a
/// temporary folder: the folder, the 24 problems' packages in order (the
/// interactive ones too), and what the command printed.
fn exported_packages(format: &str) -> (tempfile::TempDir, Vec<std::path::PathBuf>, String) {
    let work = tempfile::tempdir().expect("a temporary folder");
    let out = Command::new(BIN)
        .args(["export", "--format", format, "--out"])
        .arg(work.path())
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("the binary runs");
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{stdout}\n{}", text(&out.stderr));
    let mut packages: Vec<_> = std::fs::read_dir(work.path())
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .collect();
    packages.sort();
    assert_eq!(packages.len(), 24, "{stdout}");
    (work, packages, stdout)
}

/// `nimjudge export` writes every problem (an interactive one with its
/// judge) as a Kattis package that
/// problemtools' own `verifyproblem` passes with no error: the statement
/// compiles (LaTeX and HTML), every testcase passes the package's input
/// validator, and every submission gets the verdict its folder names. The
/// submissions are the project's own setter solutions, run by problemtools
/// as Kattis would run them. The hand-written package the import tests
/// bring in (`tests/data/kattis/subtractiongame`) passes it too, and so
/// does its export after an import.
#[test]
#[ignore = "needs problemtools and LaTeX; scripts/test.sh installs them and runs it"]
fn exported_kattis_packages_pass_problemtools_verifyproblem() {
    let (work, mut packages, stdout) = exported_packages("legacy");
    assert!(!stdout.contains(": not exported: "), "{stdout}");
    let hand_written =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/kattis/subtractiongame");
    packages.push(hand_written.clone());
    // The same package imported, then exported again: its answer files and
    // input validators go back out.
    let catalog = work.path().join("catalog");
    let round_trip = work.path().join("again");
    for args in [
        vec![
            "import".as_ref(),
            hand_written.as_os_str(),
            "--id".as_ref(),
            "subtraction-again".as_ref(),
            "--time-limit-ms".as_ref(),
            "2000".as_ref(),
            "--into".as_ref(),
            catalog.as_os_str(),
        ],
        vec![
            "export".as_ref(),
            "subtraction-again".as_ref(),
            "--out".as_ref(),
            round_trip.as_os_str(),
        ],
    ] {
        let out = Command::new(BIN)
            .args(&args)
            .env("NIMJUDGE_CATALOG__PROBLEMS_DIR", &catalog)
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .output()
            .expect("the binary runs");
        assert!(out.status.success(), "{args:?}: {}", text(&out.stderr));
    }
    packages.push(round_trip.join("subtractionagain"));
    // Four packages at a time, one thread each: a package's checks wait
    // more than they compute (a never-flushing solution sits out its wall
    // time), so four overlap on two cores; a limit comes from accepted runs
    // of well under 0.1 s (1 s at the least), and the slow solutions never
    // end.
    let queue = std::sync::Mutex::new(packages.clone());
    let reports = std::sync::Mutex::new(Vec::new());
    std::thread::scope(|scope| {
        for _ in 0..4 {
            scope.spawn(|| {
                loop {
                    let Some(package) = queue.lock().unwrap().pop() else {
                        break;
                    };
                    let verified = Command::new("verifyproblem")
                        .args(["-j", "1"])
                        .arg(&package)
                        .output()
                        .expect("verifyproblem runs (problemtools, from PyPI)");
                    let report = format!("{}{}", text(&verified.stdout), text(&verified.stderr));
                    reports
                        .lock()
                        .unwrap()
                        .push((package, verified.status.success(), report));
                }
            });
        }
    });
    let reports = reports.into_inner().unwrap();
    assert_eq!(reports.len(), packages.len());
    for (package, success, report) in &reports {
        let name = package.file_name().unwrap().to_str().unwrap();
        assert!(
            report.contains(&format!("{name} tested: 0 errors,")) && *success,
            "{name}:\n{report}"
        );
    }
}

/// `text` without the terminal's colour codes (`ESC [ ... letter`), which
/// BAPCtools writes even to a pipe when `CI` is set in its environment (it
/// then skips the colorama set-up that strips them), as on a CI runner.
fn without_colours(text: &str) -> String {
    let mut plain = String::with_capacity(text.len());
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        if c == '\u{1b}' {
            if chars.next() == Some('[') {
                for code in chars.by_ref() {
                    if code.is_ascii_alphabetic() {
                        break;
                    }
                }
            }
        } else {
            plain.push(c);
        }
    }
    plain
}

/// `nimjudge export --format 2025-09` writes every batch problem in the
/// format's 2025-09 version, with the problem's invalid inputs in
/// `data/invalid_input`, and BAPCtools' own checks (from PyPI) find every
/// one of those refused by the package's input validator and every testcase
/// accepted. BAPCtools exits 1 on any warning; the one allowed is that the
/// packages have no answer validators (their answers are the solver core's).
#[test]
#[ignore = "needs BAPCtools; scripts/test.sh installs it and runs it"]
fn bapctools_finds_every_exported_invalid_input_refused_and_every_testcase_valid() {
    let (_work, packages, _) = exported_packages("2025-09");
    let allowed = "WARNING: No dedicated answer validators found.";
    for package in &packages {
        let invalid = std::fs::read_dir(package.join("data/invalid_input"))
            .map(|entries| entries.count())
            .unwrap_or(0);
        assert!(invalid > 0, "{}: no invalid inputs", package.display());
        for check in ["--invalid", "--input"] {
            let run = Command::new("bt")
                .args(["validate", check, "--no-bar", "--verbose", "--jobs", "2"])
                .current_dir(package)
                .output()
                .expect("bt runs (BAPCtools, from PyPI)");
            let report = without_colours(&format!("{}{}", text(&run.stdout), text(&run.stderr)));
            let complaints: Vec<&str> = report
                .lines()
                .filter(|line| {
                    line.contains("ERROR")
                        || line.contains("WARNING")
                        || line.contains("not properly rejected")
                })
                .filter(|line| line.trim() != allowed)
                .collect();
            assert!(complaints.is_empty(), "{check}, {complaints:?}:\n{report}");
            assert!(
                run.status.success() || report.contains(allowed),
                "{check}: {report}"
            );
            if check == "--invalid" {
                assert_eq!(
                    report.matches(": rejected").count(),
                    invalid,
                    "{}: every invalid input refused:\n{report}",
                    package.display()
                );
            } else {
                let testcases: usize = ["data/sample", "data/secret"]
                    .iter()
                    .map(|group| {
                        std::fs::read_dir(package.join(group))
                            .map(|entries| {
                                entries
                                    .filter(|e| {
                                        e.as_ref().is_ok_and(|e| {
                                            e.path().extension().is_some_and(|x| x == "in")
                                        })
                                    })
                                    .count()
                            })
                            .unwrap_or(0)
                    })
                    .sum();
                assert!(testcases > 0, "{}: no testcases", package.display());
                assert_eq!(
                    report.matches("validate: accepted").count(),
                    testcases,
                    "{}: every testcase accepted:\n{report}",
                    package.display()
                );
            }
        }
    }
}
