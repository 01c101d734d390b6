//! Interactive problems through the real server: the bundled `nim-play`
//! with its setter solutions, each played against the solver core in the
//! sandbox exactly as a contestant's program would be.

use nimjudge::domain::SubmissionId;
use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::helpers::{TestApp, TestDir, submission_id};

const BOUTON_CPP: &str = include_str!("../../problems/nim-play/solutions/accepted/bouton.cpp");
const RANDOM_PY: &str =
    include_str!("../../problems/nim-play/solutions/wrong_answer/random_moves.py");
const NEVER_FLUSHES_CPP: &str =
    include_str!("../../problems/nim-play/solutions/time_limit_exceeded/never_flushes.cpp");

impl TestApp {
    /// Submits a program to `problem` as the contestant; returns its id.
    async fn submit_to(&self, problem: &str, language: &str, source: &str) -> SubmissionId {
        let (status, body) = self
            .post(
                "/api/submissions",
                &self.contestant,
                json!({ "problem": problem, "language": language, "source": source }),
            )
            .await;
        assert_eq!(status, StatusCode::ACCEPTED, "{body}");
        submission_id(&body["id"])
    }

    /// Submits a program to `nim-play` as the contestant and waits for its
    /// judgement; returns the document the contestant and an admin see.
    async fn play(&self, language: &str, source: &str) -> (Value, Value) {
        let id = self.submit_to("nim-play", language, source).await;
        let body = self.verdict_within(&id, &self.contestant, 180).await;
        let (status, staff) = self
            .get(&format!("/api/submissions/{id}"), &self.admin)
            .await;
        assert_eq!(status, StatusCode::OK, "{staff}");
        (body, staff)
    }
}

#[tokio::test]
#[ignore = "needs root (the sandbox); scripts/test.sh runs it"]
async fn programs_play_nim_against_the_solver_core() {
    let dir = TestDir::new();
    dir.add_bundled_problem("nim-play");
    let app = TestApp::spawn(&dir, 2).await;

    // Bouton's strategy wins every game of every testcase.
    let (body, _) = app.play("cpp", BOUTON_CPP).await;
    assert_eq!(body["submission"]["verdict"], "AC", "{body:#}");
    let results = body["results"].as_array().unwrap();
    assert_eq!(results[0]["testcase"], "sample-1");
    assert!(results.len() > 5, "{body:#}");
    assert!(results.iter().all(|r| r["verdict"] == "AC"), "{body:#}");

    // Random moves lose; the message names the testcase, game and move.
    let (body, staff) = app.play("python", RANDOM_PY).await;
    assert_eq!(body["submission"]["verdict"], "WA", "{body:#}");
    let message = body["submission"]["message"].as_str().unwrap();
    assert!(
        message.starts_with("testcase sample-1: game 1, move ")
            && message.ends_with("you have no legal move left: you lost"),
        "{message}"
    );
    // The transcript is the result's detail: staff see it, a contestant
    // under the default feedback does not.
    let transcript = staff["results"][0]["detail"].as_str().unwrap();
    assert!(
        transcript.starts_with("judge:   2\njudge:   2\njudge:   1 2\nprogram: First\n"),
        "{transcript}"
    );
    assert!(body["results"][0]["detail"].is_null(), "{body:#}");

    // A program that never flushes gets no reply, and TLE says why.
    let (body, _) = app.play("cpp", NEVER_FLUSHES_CPP).await;
    assert_eq!(body["submission"]["verdict"], "TLE", "{body:#}");
    let message = body["submission"]["message"].as_str().unwrap();
    assert!(message.contains("flush"), "{message}");
    app.stop().await;
}

#[tokio::test]
async fn answers_and_custom_checks_are_refused_for_an_interactive_problem() {
    let dir = TestDir::new();
    dir.add_bundled_problem("nim-play");
    let app = TestApp::spawn(&dir, 0).await;
    let (status, problem) = app.get("/api/problems/nim-play", &app.contestant).await;
    assert_eq!(status, StatusCode::OK, "{problem}");
    assert_eq!(problem["problem"]["interactive"], true, "{problem}");
    assert_eq!(problem["problem"]["practice_hints"], true, "{problem}");
    let (_, problem) = app.get("/api/problems/nim", &app.contestant).await;
    assert_eq!(problem["problem"]["interactive"], false, "{problem}");
    for body in [
        json!({ "problem": "nim-play", "answers": { "sample-1": "First\nSecond\n" } }),
        json!({ "problem": "nim-play", "input": "1\n1\n1\n", "output": "First\n" }),
    ] {
        let (status, reply) = app.post("/api/submissions", &app.contestant, body).await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{reply}");
        let error = reply["error"].as_str().unwrap_or_default();
        assert!(error.contains("interactive"), "{reply}");
    }
    app.stop().await;
}

/// Programs that misbehave against the judge: each gets its verdict, and
/// none holds the judge longer than its limits.
#[tokio::test]
#[ignore = "needs root (the sandbox); scripts/test.sh runs it"]
async fn misbehaving_players_get_their_verdicts() {
    let dir = TestDir::new();
    dir.add_bundled_problem("nim-play");
    let app = TestApp::spawn(&dir, 2).await;
    let cases: &[(&str, &str, Option<&str>)] = &[
        (
            "WA",
            "import sys\nsys.stdin.readline()\n",
            Some("testcase sample-1: game 1: the program stopped before the match was over"),
        ),
        (
            "WA",
            "import sys\nsys.stdout.write('1' * 1000000)\nsys.stdout.flush()\nsys.stdin.read()\n",
            Some("testcase sample-1: game 1: a line longer than 256 bytes"),
        ),
        (
            "WA",
            "print('First', flush=True)\nprint('1 5', flush=True)\n",
            Some("testcase sample-1: game 1, move 1: illegal move: pile 1 holds 1, fewer than 5"),
        ),
        (
            "RE",
            "import os\nprint('First', flush=True)\nos.abort()\n",
            None,
        ),
        (
            "WA",
            "import os\nos.close(0)\nprint('First', flush=True)\n",
            None,
        ),
        ("MLE", "x = bytearray(2 << 30)\nprint(len(x))\n", None),
        (
            "OLE",
            "import sys\nwhile True:\n    sys.stderr.write('x' * 65536)\n",
            None,
        ),
        ("TLE", "while True:\n    pass\n", None),
    ];
    let mut failures = Vec::new();
    for (expected, source, message) in cases {
        let (body, _) = app.play("python", source).await;
        let verdict = body["submission"]["verdict"].as_str().unwrap_or("none");
        let said = body["submission"]["message"].as_str().unwrap_or("");
        if verdict != *expected || message.is_some_and(|m| m != said) {
            failures.push(format!(
                "{source}\nexpected {expected} {message:?}, got {verdict} {said:?}"
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
    app.stop().await;
}

/// Every interactive problem's setter solutions, submitted through the API
/// as a contestant would: each gets the verdict its folder names
/// (`accepted` AC, `wrong_answer` WA, `time_limit_exceeded` TLE).
#[tokio::test]
#[ignore = "needs root (the sandbox); scripts/test.sh runs it"]
async fn every_interactive_problem_judges_its_setter_solutions() {
    let problems: Vec<&str> = nimjudge::solver::solvers()
        .iter()
        .filter(|solver| solver.interactive())
        .map(|solver| solver.id())
        .collect();
    assert_eq!(problems.len(), 12, "{problems:?}");
    let dir = TestDir::new();
    for problem in &problems {
        dir.add_bundled_problem(problem);
    }
    let app = TestApp::spawn(&dir, 2).await;
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("problems");
    let mut submitted = Vec::new();
    for problem in &problems {
        for (folder, verdict) in [
            ("accepted", "AC"),
            ("wrong_answer", "WA"),
            ("time_limit_exceeded", "TLE"),
        ] {
            let folder = root.join(problem).join("solutions").join(folder);
            let mut files: Vec<_> = std::fs::read_dir(&folder)
                .unwrap_or_else(|e| panic!("{}: {e}", folder.display()))
                .map(|entry| entry.unwrap().path())
                .collect();
            files.sort();
            assert!(!files.is_empty(), "{} holds no solution", folder.display());
            for file in files {
                let language = match file.extension().and_then(|e| e.to_str()) {
                    Some("cpp") => "cpp",
                    Some("py") => "python",
                    Some("rs") => "rust",
                    other => panic!("{}: no language for {other:?}", file.display()),
                };
                let source = std::fs::read_to_string(&file).unwrap();
                let id = app.submit_to(problem, language, &source).await;
                submitted.push((id, file, verdict));
            }
        }
    }
    let mut failures = Vec::new();
    for (id, file, expected) in &submitted {
        let body = app.verdict_within(id, &app.contestant, 300).await;
        let verdict = body["submission"]["verdict"].as_str().unwrap_or("none");
        if verdict != *expected {
            failures.push(format!(
                "{}: expected {expected}, got {verdict}: {}",
                file.display(),
                body["submission"]["message"]
            ));
        }
    }
    assert!(submitted.len() >= 48, "{}", submitted.len());
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    app.stop().await;
}

/// Programs the project has never seen, written here and nowhere else
/// (not the setter solutions): one of `coin-game-play`'s, a greedy one, a
/// random one and one that never flushes get AC, WA, WA and TLE.
#[tokio::test]
#[ignore = "needs root (the sandbox); scripts/test.sh runs it"]
async fn programs_never_seen_get_their_verdicts() {
    let dir = TestDir::new();
    dir.add_bundled_problem("coin-game-play");
    let app = TestApp::spawn(&dir, 2).await;
    // Reads the whole game state as it goes; answers by the plates' XOR.
    const XOR_PLAYER: &str = r#"
import sys
from functools import reduce
def read():
    return sys.stdin.readline().split()
g = int(read()[0])
for _ in range(g):
    n = int(read()[0])
    plates = {i: i for i in range(1, n + 1)}
    turn = reduce(lambda a, b: a ^ b, plates.values()) != 0
    print("First" if turn else "Second", flush=True)
    while True:
        if not turn:
            w = read()
            if not w or w[0] == "none":
                break
            plates[int(w[0])] -= int(w[1])
        turn = False
        x = reduce(lambda a, b: a ^ b, plates.values())
        for i, c in plates.items():
            if c ^ x < c:
                print(i, c - (c ^ x), flush=True)
                plates[i] = c ^ x
                break
"#;
    // Plays first and empties the fullest plate every time.
    const GREEDY: &str = r#"
import sys
g = int(sys.stdin.readline())
for _ in range(g):
    n = int(sys.stdin.readline())
    plates = list(range(1, n + 1))
    print("First", flush=True)
    mine = True
    while True:
        if not mine:
            w = sys.stdin.readline().split()
            if not w or w[0] == "none":
                break
            plates[int(w[0]) - 1] -= int(w[1])
        mine = False
        i = max(range(n), key=lambda j: plates[j])
        print(i + 1, plates[i], flush=True)
        plates[i] = 0
"#;
    // The right side, then one coin from a random plate.
    const RANDOM: &str = r#"
import random, sys
g = int(sys.stdin.readline())
for _ in range(g):
    n = int(sys.stdin.readline())
    plates = list(range(1, n + 1))
    mine = n % 4 != 3
    print("First" if mine else "Second", flush=True)
    while True:
        if not mine:
            w = sys.stdin.readline().split()
            if not w or w[0] == "none":
                break
            plates[int(w[0]) - 1] -= int(w[1])
        mine = False
        i = random.choice([j for j in range(n) if plates[j]])
        print(i + 1, 1, flush=True)
        plates[i] -= 1
"#;
    // Right, but never flushes (stdout to a pipe is block-buffered).
    const SILENT: &str = r#"
import sys
g = int(sys.stdin.readline())
n = int(sys.stdin.readline())
print("First" if n % 4 != 3 else "Second")
sys.stdin.readline()
"#;
    for (source, expected) in [
        (XOR_PLAYER, "AC"),
        (GREEDY, "WA"),
        (RANDOM, "WA"),
        (SILENT, "TLE"),
    ] {
        let id = app.submit_to("coin-game-play", "python", source).await;
        let body = app.verdict_within(&id, &app.contestant, 180).await;
        assert_eq!(
            body["submission"]["verdict"], expected,
            "{source}\n{body:#}"
        );
    }
    app.stop().await;
}
