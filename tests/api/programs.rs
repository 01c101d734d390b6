//! Program submissions through the real server: every verdict in each
//! language, and attacks on the host that the sandbox must contain.
//!
//! Every program here runs only inside the sandbox, through the server,
//! exactly as a contestant's would. The attack programs print the correct
//! answer only when the attack failed, so AC means "contained"; the host is
//! then checked from outside as well.

use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::helpers::{NIM_TESTCASES, TestApp, TestDir, submission_id};

/// A correct nim solution in Python, reused by the attack programs.
const PY_SOLVE: &str = "\
import sys
def solve():
    data = sys.stdin.read().split()
    x = 0
    for a in data[1:]:
        x ^= int(a)
    print('Alice' if x else 'Bob')
";

const CPP_AC: &str = r#"
#include <cstdio>
int main() {
    int n; if (scanf("%d", &n) != 1) return 1;
    unsigned long long x = 0;
    for (int i = 0; i < n; i++) { unsigned long long a; scanf("%llu", &a); x ^= a; }
    puts(x ? "Alice" : "Bob");
}
"#;

const RUST_AC: &str = r#"
use std::io::Read;
fn main() {
    let mut s = String::new();
    std::io::stdin().read_to_string(&mut s).unwrap();
    let x = s.split_whitespace().skip(1).fold(0u64, |x, a| x ^ a.parse::<u64>().unwrap());
    println!("{}", if x != 0 { "Alice" } else { "Bob" });
}
"#;

impl TestApp {
    async fn submit_program(
        &self,
        token: &str,
        language: &str,
        source: &str,
    ) -> (StatusCode, Value) {
        self.post(
            "/api/submissions",
            token,
            json!({ "problem": "nim", "language": language, "source": source }),
        )
        .await
    }

    /// Submits a program and waits for its judgement (compiling and running
    /// take longer than answers, so this waits up to three minutes).
    async fn judge_program(&self, language: &str, source: &str) -> Value {
        let (status, body) = self
            .submit_program(&self.contestant, language, source)
            .await;
        assert_eq!(status, StatusCode::ACCEPTED, "{body}");
        let id = submission_id(&body["id"]);
        let body = self.verdict_within(&id, &self.contestant, 180).await;
        // The document shows its submitter what was sent.
        assert_eq!(body["content"]["kind"], "program", "{body}");
        assert_eq!(body["content"]["language"], language, "{body}");
        assert_eq!(body["content"]["source"], source, "{body}");
        body
    }
}

fn verdict(body: &Value) -> &str {
    body["submission"]["verdict"].as_str().unwrap_or("none")
}

/// Judges each `(expected verdict, source)` and checks the verdicts.
async fn expect_verdicts(app: &TestApp, language: &str, cases: &[(&str, &str)]) {
    let mut failures = Vec::new();
    for (expected, source) in cases {
        let body = app.judge_program(language, source).await;
        if verdict(&body) != *expected {
            failures.push(format!("expected {expected} for\n{source}\ngot {body:#}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[tokio::test]
#[ignore = "needs root (the sandbox); scripts/test.sh runs it"]
async fn cpp_programs_get_every_verdict() {
    let dir = TestDir::new();
    let app = TestApp::spawn(&dir, 2).await;
    expect_verdicts(
        &app,
        "cpp",
        &[
            ("AC", CPP_AC),
            ("WA", "#include <cstdio>\nint main() { puts(\"Alice\"); }\n"),
            ("TLE", "int main() { volatile unsigned long x = 0; for (;;) x++; }\n"),
            (
                "TLE",
                "#include <unistd.h>\nint main() { sleep(100); }\n",
            ),
            (
                // Fills 2 GiB against the 512 MiB limit.
                "MLE",
                "#include <cstdio>\n#include <vector>\nint main() { std::vector<char> v(2UL << 30, 1); \
                 unsigned s = 0; for (size_t i = 0; i < v.size(); i += 4096) s += v[i]; printf(\"%u\\n\", s); }\n",
            ),
            (
                "OLE",
                "#include <cstdio>\nint main() { for (;;) fputs(\"Alice Alice Alice Alice\\n\", stdout); }\n",
            ),
            ("RE", "#include <cstdlib>\nint main() { abort(); }\n"),
            ("RE", "int main() { volatile int *p = 0; return *p; }\n"),
            ("RE", "int main() { return 3; }\n"),
            ("CE", "int main() { this is not C++; }\n"),
        ],
    )
    .await;
    app.stop().await;
}

#[tokio::test]
#[ignore = "needs root (the sandbox); scripts/test.sh runs it"]
async fn python_programs_get_every_verdict() {
    let dir = TestDir::new();
    let app = TestApp::spawn(&dir, 2).await;
    let ac = format!("{PY_SOLVE}solve()\n");
    expect_verdicts(
        &app,
        "python",
        &[
            ("AC", &ac),
            ("WA", "print('Alice')\n"),
            ("TLE", "while True:\n    pass\n"),
            ("TLE", "import time\ntime.sleep(100)\n"),
            ("MLE", "x = bytearray(2 << 30)\nprint(len(x))\n"),
            ("OLE", "while True:\n    print('Alice ' * 100)\n"),
            ("RE", "raise SystemExit(3)\n"),
            ("RE", "import os\nos.abort()\n"),
            ("CE", "def broken(:\n    pass\n"),
        ],
    )
    .await;
    app.stop().await;
}

#[tokio::test]
#[ignore = "needs root (the sandbox); scripts/test.sh runs it"]
async fn a_program_records_its_progress_while_its_testcases_run() {
    let dir = TestDir::new();
    let app = TestApp::spawn(&dir, 0).await;
    // Each run outlasts the worker's progress interval, so the worker
    // records the count between testcases.
    let slow = format!("import time\ntime.sleep(0.4)\n{PY_SOLVE}solve()\n");
    let (status, body) = app.submit_program(&app.contestant, "python", &slow).await;
    assert_eq!(status, StatusCode::ACCEPTED, "{body}");
    let id = submission_id(&body["id"]);
    let judge = app.judge.clone();
    let job = tokio::spawn(async move { judge.run_one_job("progress-worker").await });
    // Every distinct progress the contestant reads while it runs.
    let mut seen: Vec<Value> = Vec::new();
    while !job.is_finished() {
        let (status, body) = app
            .get(&format!("/api/submissions/{id}"), &app.contestant)
            .await;
        assert_eq!(status, StatusCode::OK, "{body}");
        let progress = &body["submission"]["progress"];
        if !progress.is_null() && seen.last() != Some(progress) {
            seen.push(progress.clone());
        }
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    let outcome = job
        .await
        .expect("the job's task")
        .expect("judging")
        .expect("the job");
    assert_eq!(outcome.verdict.map(|v| v.to_string()), Some("AC".into()));
    let total = NIM_TESTCASES.len() as i64;
    assert!(
        seen.iter().any(|p| p["done"].as_i64() >= Some(1)),
        "a testcase was counted while the others ran: {seen:?}"
    );
    let mut done = 0;
    for progress in &seen {
        assert_eq!(progress["total"], total, "{seen:?}");
        let now = progress["done"].as_i64().expect("a count");
        assert!((done..=total).contains(&now), "never backwards: {seen:?}");
        done = now;
    }
    // Judged, the submission has its results and no progress any more.
    let judged = app.verdict(&id, &app.contestant).await;
    assert!(judged["submission"]["progress"].is_null(), "{judged}");
    assert_eq!(
        judged["results"].as_array().map(Vec::len),
        Some(NIM_TESTCASES.len())
    );
    app.stop().await;
}

#[tokio::test]
#[ignore = "needs root (the sandbox); scripts/test.sh runs it"]
async fn rust_programs_get_every_verdict() {
    let dir = TestDir::new();
    let app = TestApp::spawn(&dir, 2).await;
    expect_verdicts(
        &app,
        "rust",
        &[
            ("AC", RUST_AC),
            ("WA", "fn main() { println!(\"Alice\"); }\n"),
            (
                "TLE",
                "fn main() { let mut x = 0u64; loop { x = std::hint::black_box(x + 1); } }\n",
            ),
            (
                "MLE",
                "fn main() { let v = vec![1u8; 2 << 30]; println!(\"{}\", v[v.len() - 1]); }\n",
            ),
            (
                "OLE",
                "fn main() { let s = \"Alice \".repeat(10000); loop { print!(\"{s}\"); } }\n",
            ),
            ("RE", "fn main() { panic!(\"no\"); }\n"),
            ("CE", "fn main() { let x: u32 = \"text\"; }\n"),
        ],
    )
    .await;
    app.stop().await;
}

#[tokio::test]
#[ignore = "needs root (the sandbox); scripts/test.sh runs it"]
async fn attacks_on_the_host_are_contained() {
    let dir = TestDir::new();
    let app = TestApp::spawn(&dir, 2).await;
    let database = dir.path().join("nimjudge.db");
    let config = dir.path().join("config.toml");
    std::fs::write(&config, "# the daemon's settings\n").unwrap();
    let escape = dir.path().join("escaped");
    let port = app.address.rsplit(':').next().unwrap().to_string();
    // Another submission's source is stored in the database; the box of a
    // submission being judged lives under the sandbox work folder.
    let work = dir.path().join("nimjudge-sandbox");
    let attack = |body: &str| format!("{PY_SOLVE}import os, sys\n{body}\nsolve()\n");
    let cases = [
        (
            "reading the database, config.toml and the work folder",
            attack(&format!(
                "for path in [{:?}, {:?}, {:?}]:\n    \
                 try:\n        open(path, 'rb').read(1)\n        print('PWNED'); sys.exit(0)\n    \
                 except OSError:\n        pass\n\
                 if os.path.exists({:?}):\n    print('PWNED'); sys.exit(0)",
                database.display().to_string(),
                config.display().to_string(),
                work.display().to_string(),
                work.display().to_string(),
            )),
        ),
        (
            "writing outside the work folder",
            attack(&format!(
                "for path in [{:?}, '/etc/nimjudge-escape', '/usr/escape', '/box/escape']:\n    \
                 try:\n        open(path, 'w').write('x')\n        print('PWNED'); sys.exit(0)\n    \
                 except OSError:\n        pass",
                escape.display().to_string()
            )),
        ),
        (
            "connecting to the daemon and the network",
            attack(&format!(
                "import socket\n\
                 for host, port in [('127.0.0.1', {port}), ('10.0.0.1', 80), ('1.1.1.1', 53)]:\n    \
                 try:\n        socket.create_connection((host, port), timeout=1)\n        print('PWNED'); sys.exit(0)\n    \
                 except OSError:\n        pass"
            )),
        ),
        (
            "changing uid",
            attack(
                "for change in [lambda: os.setuid(0), lambda: os.setgid(0), lambda: os.seteuid(0)]:\n    \
                 try:\n        change()\n        print('PWNED'); sys.exit(0)\n    \
                 except OSError:\n        pass",
            ),
        ),
        (
            "spawning threads past the process limit",
            attack(
                "import threading, time\nstarted = 0\n\
                 try:\n    for _ in range(200):\n        \
                 threading.Thread(target=time.sleep, args=(0.5,), daemon=True).start(); started += 1\n\
                 except RuntimeError:\n    pass\n\
                 if started >= 200:\n    print('PWNED'); sys.exit(0)",
            ),
        ),
    ];
    let mut failures = Vec::new();
    for (what, source) in &cases {
        let body = app.judge_program("python", source).await;
        if verdict(&body) != "AC" {
            failures.push(format!("{what}: {body:#}"));
        }
    }
    // A fork bomb and kill(-1) end the program itself, not the host.
    for (what, source, allowed) in [
        (
            "a fork bomb",
            "import os\nwhile True:\n    try:\n        os.fork()\n    except OSError:\n        pass\n",
            &["TLE", "RE"][..],
        ),
        (
            "kill(-1)",
            "import os, signal\nos.kill(-1, signal.SIGKILL)\n",
            &["RE"][..],
        ),
        (
            "a memory bomb",
            "chunks = []\nwhile True:\n    chunks.append(bytearray(64 << 20))\n",
            &["MLE"][..],
        ),
    ] {
        let body = app.judge_program("python", source).await;
        if !allowed.contains(&verdict(&body)) {
            failures.push(format!("{what}: expected one of {allowed:?}, got {body:#}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
    // The host is untouched: nothing escaped, the daemon still judges.
    assert!(!escape.exists());
    assert!(!std::path::Path::new("/etc/nimjudge-escape").exists());
    let body = app
        .judge_program("python", &format!("{PY_SOLVE}solve()\n"))
        .await;
    assert_eq!(verdict(&body), "AC", "{body:#}");
    app.stop().await;
}

#[tokio::test]
#[ignore = "needs root (the sandbox); scripts/test.sh runs it"]
async fn a_hidden_testcase_decides_the_verdict_and_stays_hidden() {
    let dir = TestDir::new();
    let app = TestApp::spawn(&dir, 1).await;
    // A setter adds a hidden testcase whose pile needs 64 bits: truncated
    // to 32 bits it is 0, and the winner flips.
    let (status, body) = app
        .post(
            "/api/problems/nim/testcases",
            &app.setter,
            json!({ "name": "hidden-big", "input": "2\n4294967296 0\n", "hidden": true }),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{body}");
    // Right on every public testcase, wrong once a pile needs 64 bits.
    let narrow = "#include <cstdio>\nint main() { int n; scanf(\"%d\", &n); unsigned x = 0; \
                  for (int i = 0; i < n; i++) { long long a; scanf(\"%lld\", &a); x ^= (unsigned)a; } \
                  puts(x ? \"Alice\" : \"Bob\"); }\n";
    let body = app.judge_program("cpp", narrow).await;
    assert_eq!(verdict(&body), "WA", "{body:#}");
    let message = body["submission"]["message"].as_str().unwrap();
    assert_eq!(message, "a hidden testcase: wrong answer");
    let results = body["results"].as_array().unwrap();
    // Samples first, every public one AC, then the hidden one.
    assert_eq!(results.len(), NIM_TESTCASES.len() + 1, "{body:#}");
    assert_eq!(results[0]["testcase"], "sample-1");
    let hidden = results
        .iter()
        .find(|r| r["hidden"] == true)
        .expect("the hidden result");
    assert_eq!(hidden["verdict"], "WA");
    assert!(
        hidden["message"].is_null(),
        "a hidden testcase's details leak: {hidden}"
    );
    assert!(
        hidden["run"]["cpu_ms"].is_i64(),
        "time and memory are shown: {hidden}"
    );
    let body = app.judge_program("cpp", CPP_AC).await;
    assert_eq!(verdict(&body), "AC", "{body:#}");
    app.stop().await;
}

#[tokio::test]
async fn unknown_languages_and_empty_sources_are_refused() {
    let dir = TestDir::new();
    let app = TestApp::spawn(&dir, 0).await;
    let (status, body) = app.submit_program(&app.contestant, "cobol", "x").await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
    assert!(body["error"].as_str().unwrap().contains("cobol"), "{body}");
    let (status, body) = app.submit_program(&app.contestant, "python", "  \n").await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
    let (status, body) = app.get("/api/languages", &app.contestant).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let ids: Vec<&str> = body["languages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["id"].as_str().unwrap())
        .collect();
    assert_eq!(ids, ["cpp", "python", "rust"]);
    app.stop().await;
}

#[tokio::test]
#[ignore = "needs root (the sandbox); scripts/test.sh runs it"]
async fn every_language_is_available_where_the_sandbox_works() {
    let dir = TestDir::new();
    let app = TestApp::spawn(&dir, 0).await;
    let (status, body) = app.get("/api/languages", &app.contestant).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert!(
        body["languages"]
            .as_array()
            .unwrap()
            .iter()
            .all(|l| l["available"] == true),
        "{body}"
    );
    app.stop().await;
}

#[tokio::test]
async fn a_host_that_cannot_isolate_refuses_programs_with_503() {
    let dir = TestDir::new();
    // Without system folders there is no shell to self-test with: the
    // sandbox fails its self-test, and the server must fail closed.
    let app = TestApp::spawn_with(&dir, 1, &[("SANDBOX__SYSTEM_PATHS", "[]")]).await;
    let (status, body) = app
        .submit_program(&app.contestant, "python", "print(1)\n")
        .await;
    assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE, "{body}");
    assert!(
        body["error"]
            .as_str()
            .unwrap()
            .contains("unavailable on this host"),
        "{body}"
    );
    let (_, body) = app.get("/api/languages", &app.contestant).await;
    assert!(
        body["languages"]
            .as_array()
            .unwrap()
            .iter()
            .all(|l| l["available"] == false),
        "{body}"
    );
    // Answers are still judged.
    let id = app
        .submit_answers(&app.contestant, &crate::helpers::correct_answers())
        .await;
    let body = app.verdict(&id, &app.contestant).await;
    assert_eq!(verdict(&body), "AC", "{body}");
    app.stop().await;
}

#[tokio::test]
#[ignore = "needs root (the sandbox); scripts/test.sh runs it"]
async fn a_long_judging_keeps_its_lease_with_a_heartbeat() {
    let dir = TestDir::new();
    // A two-second lease and a program that takes 1.2 s of CPU on each of
    // the three testcases: without a heartbeat the second worker would claim
    // it again. (The heartbeat comes every 0.67 s, so a loaded machine may
    // delay one by over a second before the lease runs out.)
    let app = TestApp::spawn_with(&dir, 2, &[("WORKER__LEASE_SECONDS", "2")]).await;
    let slow = format!(
        "import time\nstarted = time.process_time()\n\
         while time.process_time() - started < 1.2:\n    pass\n{PY_SOLVE}solve()\n"
    );
    let body = app.judge_program("python", &slow).await;
    assert_eq!(verdict(&body), "AC", "{body:#}");
    let kinds: Vec<&str> = body["events"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|e| e["kind"].as_str())
        .collect();
    assert_eq!(kinds, ["queued", "claimed", "judged"], "{body:#}");
    app.stop().await;
}

#[tokio::test]
#[ignore = "needs root (the sandbox); scripts/test.sh runs it"]
async fn the_client_submits_a_source_file_in_the_language_of_its_extension() {
    let dir = TestDir::new();
    let app = TestApp::spawn(&dir, 1).await;
    let right = dir.path().join("right.py");
    std::fs::write(&right, format!("{PY_SOLVE}solve()\n")).unwrap();
    let wrong = dir.path().join("wrong.cpp");
    std::fs::write(
        &wrong,
        "#include <cstdio>\nint main() { puts(\"Alice\"); }\n",
    )
    .unwrap();
    let submit = |file: std::path::PathBuf| {
        let (server, token) = (app.address.clone(), app.contestant.clone());
        tokio::task::spawn_blocking(move || {
            std::process::Command::new(env!("CARGO_BIN_EXE_nimjudge"))
                .args(["submit", "--problem", "nim", "--source"])
                .arg(file)
                .env("NIMJUDGE_SERVER", server)
                .env("NIMJUDGE_TOKEN", token)
                .output()
                .expect("the client runs")
        })
    };
    let out = submit(right).await.unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(stdout.contains("AC"), "{stdout}");
    assert!(String::from_utf8_lossy(&out.stderr).contains("a python program"));
    let out = submit(wrong).await.unwrap();
    assert_eq!(
        out.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    assert!(String::from_utf8_lossy(&out.stderr).contains("a cpp program"));
    // A program's time is its CPU time, and its memory is shown.
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.contains(" ms") && (stdout.contains("KiB") || stdout.contains("MiB")),
        "{stdout}"
    );
    // A program that does not compile: the compiler's own messages.
    let broken = dir.path().join("broken.cpp");
    std::fs::write(&broken, "int main() { this_is_not_declared(); }\n").unwrap();
    let out = submit(broken).await.unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    assert!(stdout.contains("verdict CE"), "{stdout}");
    assert!(stdout.contains("compiler output:"), "{stdout}");
    assert!(stdout.contains("this_is_not_declared"), "{stdout}");
    app.stop().await;
}

#[tokio::test]
#[ignore = "needs root (the sandbox); scripts/test.sh runs it"]
async fn judge_all_runs_every_testcase_after_a_failure_and_the_default_stops() {
    // Wrong on every testcase whose winner is Bob.
    let always_alice = "print('Alice')\n";
    for (judge_all, expected_results) in [(false, 1), (true, NIM_TESTCASES.len())] {
        let dir = TestDir::with_policy(nimjudge::testing::FixturePolicy {
            judge_all: Some(judge_all),
            ..Default::default()
        });
        let app = TestApp::spawn(&dir, 1).await;
        let body = app.judge_program("python", always_alice).await;
        assert_eq!(verdict(&body), "WA", "{body:#}");
        let results = body["results"].as_array().unwrap();
        assert_eq!(
            results.len(),
            expected_results,
            "judge_all = {judge_all}: {body:#}"
        );
        // The verdict is the first failure in testcase order either way.
        let first_failure = results.iter().find(|r| r["verdict"] != "AC").unwrap();
        let message = body["submission"]["message"].as_str().unwrap();
        assert!(
            message.contains(first_failure["testcase"].as_str().unwrap()),
            "{message}"
        );
        app.stop().await;
    }
}
