//! The judges of the interactive problems' Kattis packages play as the
//! solver core's referee does.
//!
//! Each interactive problem's `output_validator.py` (with the protocol,
//! `nimjudge_interactor.py`) is run as Kattis runs an interactive output
//! validator, its output and input on pipes. The test is the program: it
//! plays the judge in lockstep with the solver core's referee for the same
//! testcase, writes each line to both and requires the same lines back, the
//! same verdict (exit status 42 or 43) and, for a loss, the same message in
//! `judgemessage.txt`. The validators are the project's own Python programs;
//! no contestant code runs here.
//!
//! The players: a perfect one (the referee's own winning lines), weaker ones
//! (the winning side, then seeded random moves: the judge's winning moves get
//! played), one that picks the losing side, and ones that play perfectly for
//! a while and then write a faulty line: each number of the perfect move one
//! off, a move of another form, or a line too long.

use std::{
    io::{BufRead, BufReader, Write},
    path::Path,
    process::{Command, Stdio},
    sync::mpsc,
    time::Duration,
};

use nimjudge::solver::{
    self, Solver, TestKind,
    interactive::{Foul, Heard, MAX_LINE_BYTES, Referee},
};

const PROBLEMS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/problems");

/// How long a line of the judge may take before the test says it is stuck.
const LINE_WAIT: Duration = Duration::from_secs(30);

/// How a line the test writes is chosen.
#[derive(Debug, Clone, Copy)]
enum Player {
    /// The solver core's winning lines (a random move where there is none).
    Perfect,
    /// The winning side, then random moves from this seed.
    Random(u64),
    /// The side that loses the first game.
    WrongSide,
    /// Perfect for `after` lines, then the `fault`-th faulty line.
    Faulty { after: usize, fault: usize },
    /// A line longer than the protocol allows, at once (a whole process
    /// only: the driver would read its rest as the next match).
    LongLine,
}

/// The faulty lines a player may write instead of `perfect` (the perfect
/// line): each of its numbers one less and one more, then lines of other
/// forms. `None` past the last.
fn faulty_line(perfect: &str, fault: usize) -> Option<String> {
    let words: Vec<&str> = perfect.split(' ').collect();
    let mut lines = Vec::new();
    for (at, word) in words.iter().enumerate() {
        let Ok(n) = word.parse::<u64>() else { continue };
        for other in [n.checked_sub(1), n.checked_add(1)].into_iter().flatten() {
            let mut changed: Vec<String> = words.iter().map(|w| w.to_string()).collect();
            changed[at] = other.to_string();
            lines.push(changed.join(" "));
        }
    }
    lines.extend(
        [
            "",
            "First",
            "x",
            "1",
            "1 1 1 1",
            "-1 1",
            "18446744073709551616 1",
            "+1 +1",
            // Large primes: primality by trial division would take the
            // judge seconds; a square above 2^64 divides nothing.
            "18446744073709551557 1",
            "1 18446744073709551557 1",
            "1 4294967311 2",
        ]
        .map(String::from),
    );
    lines.push(format!("{perfect} 7"));
    lines.push(format!("\u{a0}{perfect}\r"));
    lines.into_iter().nth(fault)
}

/// Runs many matches of a judge in one Python process (starting one costs
/// more than most matches): each match is the testcase's length in bytes on
/// a line, the testcase, then the program's lines; after the judge's last
/// line of a match it writes `=== 42`, or `=== 43 <message>`.
const DRIVER: &str = r#"
import importlib.util, sys
sys.path.insert(0, sys.argv[1])
spec = importlib.util.spec_from_file_location("judge_main", sys.argv[1] + "/main.py")
module = importlib.util.module_from_spec(spec)
spec.loader.exec_module(module)
import nimjudge_interactor as protocol
source, sink = sys.stdin.buffer, sys.stdout.buffer
while True:
    header = source.readline()
    if not header:
        break
    lost = protocol.play_match(module.GAME, source.read(int(header)), source, sink)
    sink.write(b"=== 42\n" if lost is None else ("=== 43 " + lost + "\n").encode())
    sink.flush()
"#;

/// A judge's end of the pipes, and the lines it writes.
struct JudgePipes {
    child: std::process::Child,
    to_judge: std::process::ChildStdin,
    lines: mpsc::Receiver<String>,
}

impl JudgePipes {
    /// Runs `python3` with `args`, reading its lines on a thread.
    fn spawn(args: &[&std::ffi::OsStr]) -> Self {
        let mut child = Command::new("python3")
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("python3 runs (the Kattis judges are Python programs)");
        let to_judge = child.stdin.take().expect("stdin");
        let from_judge = BufReader::new(child.stdout.take().expect("stdout"));
        let (lines_tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in from_judge.lines() {
                if lines_tx
                    .send(line.expect("the judge writes UTF-8"))
                    .is_err()
                {
                    break;
                }
            }
        });
        JudgePipes {
            child,
            to_judge,
            lines,
        }
    }

    fn write(&mut self, bytes: &[u8]) {
        // The judge may be gone already; its status tells.
        let _ = self.to_judge.write_all(bytes);
        let _ = self.to_judge.flush();
    }

    fn line(&self, context: &str) -> String {
        self.lines
            .recv_timeout(LINE_WAIT)
            .unwrap_or_else(|error| panic!("{context}: no line from the judge: {error:?}"))
    }
}

/// How a match reaches the judge.
enum Session<'a> {
    /// The judge alone in a process, as Kattis runs it: its verdict is its
    /// exit status, its message in `judgemessage.txt`.
    Process { judge_dir: &'a Path },
    /// One match of the long-lived [`DRIVER`].
    Driver(&'a mut JudgePipes),
}

/// What a match came to: the lines the player wrote, whether a faulty
/// player ran out of faults (and wrote `x` instead).
struct Played {
    lines: usize,
    out_of_faults: bool,
}

/// Plays `input` with `player` against the Python judge and the solver
/// core's referee side by side; panics where they differ.
fn play_side_by_side(id: &str, session: Session<'_>, input: &str, player: Player) -> Played {
    let context = format!("{id}, {player:?}, input:\n{input}");
    let mut referee: Box<dyn Referee> = solver::find(id)
        .expect("a solver")
        .referee(input)
        .unwrap_or_else(|e| panic!("{context}: the input is invalid: {e}"))
        .expect("an interactive problem");
    let (played, result, status, message) = match session {
        Session::Process { judge_dir } => {
            let work = tempfile::tempdir().expect("a scratch folder");
            let testcase = work.path().join("testcase.in");
            std::fs::write(&testcase, input).expect("the input is written");
            let main = judge_dir.join("main.py");
            let mut judge = JudgePipes::spawn(&[
                main.as_os_str(),
                testcase.as_os_str(),
                testcase.as_os_str(),
                work.path().as_os_str(),
            ]);
            let (played, result) = play(&mut judge, referee.as_mut(), player, &context);
            let JudgePipes {
                child,
                to_judge,
                lines,
            } = judge;
            drop(to_judge);
            let output = child.wait_with_output().expect("the judge ends");
            assert!(lines.recv().is_err(), "{context}: the judge wrote more");
            let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
            let message = std::fs::read_to_string(work.path().join("judgemessage.txt"));
            let status = output.status.code();
            (played, result, status, message.map_err(|_| stderr).ok())
        }
        Session::Driver(judge) => {
            judge.write(format!("{}\n{input}", input.len()).as_bytes());
            let (played, result) = play(judge, referee.as_mut(), player, &context);
            let marker = judge.line(&format!("{context}\nthe end of the match"));
            match marker.strip_prefix("=== ") {
                Some("42") => (played, result, Some(42), None),
                Some(lost) => match lost.strip_prefix("43 ") {
                    Some(message) => (played, result, Some(43), Some(format!("{message}\n"))),
                    None => panic!("{context}: the driver ended with `{marker}`"),
                },
                None => panic!("{context}: the judge wrote `{marker}` after the match"),
            }
        }
    };
    match result {
        Ok(()) => assert_eq!(status, Some(42), "{context}\n{message:?}"),
        Err(foul) => {
            assert_eq!(status, Some(43), "{context}\n{message:?}");
            assert_eq!(message, Some(format!("{foul}\n")), "{context}");
        }
    }
    played
}

/// The match itself: the player's lines to the judge and the referee, the
/// judge's lines compared with the referee's; the referee's result.
fn play(
    judge: &mut JudgePipes,
    referee: &mut dyn Referee,
    player: Player,
    context: &str,
) -> (Played, Result<(), Foul>) {
    let expect = |judge: &JudgePipes, said: &str, when: &str| {
        for line in said.lines() {
            let when = format!("{context}\n{when}");
            assert_eq!(judge.line(&when), line, "{when}");
        }
    };
    expect(judge, &referee.opening(), "the opening");
    let mut written = 0;
    // A game over before the fault's turn has no fault left to write.
    let mut out_of_faults = matches!(player, Player::Faulty { .. });
    let result = loop {
        let perfect = referee.perfect_line();
        let random = |seed: u64| referee.random_line(seed.wrapping_mul(1_000_003) + written as u64);
        let line = match player {
            Player::Perfect => perfect.or_else(|| random(1)),
            Player::Random(seed) => random(seed),
            Player::WrongSide => {
                perfect.map(|side| if side == "First" { "Second" } else { "First" }.to_string())
            }
            Player::Faulty { after, fault } if written == after => {
                let faulty = perfect.and_then(|line| faulty_line(&line, fault));
                out_of_faults = faulty.is_none();
                faulty.or_else(|| Some("x".to_string()))
            }
            Player::Faulty { .. } => perfect.or_else(|| random(1)),
            Player::LongLine => Some("1".repeat(MAX_LINE_BYTES + 1)),
        }
        .unwrap_or_else(|| panic!("{context}: the referee is over but said nothing"));
        written += 1;
        judge.write(format!("{line}\n").as_bytes());
        let heard = if line.len() > MAX_LINE_BYTES {
            Heard::Over {
                reply: String::new(),
                result: Err(referee.foul(&format!("a line longer than {MAX_LINE_BYTES} bytes"))),
            }
        } else {
            referee.hear(line.as_bytes())
        };
        match heard {
            Heard::Reply(reply) => expect(judge, &reply, &format!("after `{line}`")),
            Heard::Over { reply, result } => {
                expect(judge, &reply, &format!("after `{line}`, the last reply"));
                break result;
            }
        }
    };
    let played = Played {
        lines: written,
        out_of_faults,
    };
    (played, result)
}

/// The lines a perfect player writes on `input`, by the referee alone.
fn perfect_lines(s: &dyn Solver, input: &str) -> usize {
    let mut referee = s.referee(input).expect("valid").expect("interactive");
    referee.opening();
    let mut lines = 0;
    while let Some(line) = referee
        .perfect_line()
        .or_else(|| referee.random_line(1_000_003 + lines as u64))
    {
        lines += 1;
        if let Heard::Over { .. } = referee.hear(line.as_bytes()) {
            break;
        }
    }
    lines
}

/// The inputs a judge is checked on: the bundled testcases, and generated
/// ones of every kind but the largest.
fn inputs(id: &str, s: &dyn Solver) -> Vec<(String, String)> {
    let dir = Path::new(PROBLEMS).join(id).join("testcases");
    let mut inputs: Vec<(String, String)> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("cannot list {}: {e}", dir.display()))
        .map(|entry| entry.expect("an entry").path())
        .filter(|path| path.extension().is_some_and(|e| e == "in"))
        .map(|path| {
            let name = path.file_stem().unwrap().to_string_lossy().into_owned();
            (name, std::fs::read_to_string(&path).expect("readable"))
        })
        .collect();
    inputs.sort();
    for kind in [TestKind::Small, TestKind::Edge, TestKind::Random] {
        for seed in 11..13 {
            inputs.push((format!("{kind}-{seed} (generated)"), s.generate(kind, seed)));
        }
    }
    inputs
}

/// Plays every player on every input of `id` against its Python judge,
/// through the driver; on the sample, also as Kattis runs the judge.
fn judge_plays_as_the_referee(id: &str) {
    let s = solver::find(id).expect("a solver");
    assert!(s.interactive(), "{id} is not interactive");
    let folder = Path::new(PROBLEMS).join(id);
    let work = tempfile::tempdir().expect("a scratch folder");
    let judge_dir = work.path();
    let validator = folder.join(nimjudge::kattis::OUTPUT_VALIDATOR);
    std::fs::copy(&validator, judge_dir.join("main.py"))
        .unwrap_or_else(|e| panic!("{id} has no {}: {e}", validator.display()));
    std::fs::write(
        judge_dir.join("nimjudge_interactor.py"),
        nimjudge::kattis::INTERACTOR,
    )
    .expect("the protocol is written");
    let driver_py = work.path().join("driver.py");
    std::fs::write(&driver_py, DRIVER).expect("the driver is written");
    let mut driver = JudgePipes::spawn(&[driver_py.as_os_str(), judge_dir.as_os_str()]);
    let mut matches = 0;
    let mut long_played = false;
    for (name, input) in inputs(id, s) {
        // The largest testcases are played by `verifyproblem` with the
        // accepted solutions; here they would cost minutes of pipe traffic.
        if name.starts_with("max") || input.len() > 2_000 {
            continue;
        }
        // A long game (xy-game-play's take 1 or 2 stones a move) is played
        // whole once; its other inputs get the faults of the first lines.
        let long = perfect_lines(s, &input) > 1_000;
        if long && long_played {
            for after in [0, 1] {
                for fault in 0.. {
                    let player = Player::Faulty { after, fault };
                    matches += 1;
                    let played =
                        play_side_by_side(id, Session::Driver(&mut driver), &input, player);
                    if played.out_of_faults {
                        break;
                    }
                }
            }
            continue;
        }
        long_played |= long;
        let lines =
            play_side_by_side(id, Session::Driver(&mut driver), &input, Player::Perfect).lines;
        matches += 1;
        if name == "sample-1" {
            // As Kattis runs the judge: its own process, its exit status
            // and judgemessage.txt.
            for player in [Player::Perfect, Player::WrongSide, Player::LongLine] {
                play_side_by_side(id, Session::Process { judge_dir }, &input, player);
                matches += 1;
            }
        }
        play_side_by_side(id, Session::Driver(&mut driver), &input, Player::WrongSide);
        matches += 1;
        let seeds = if long { 1..1 } else { 1..4 };
        for seed in seeds {
            play_side_by_side(
                id,
                Session::Driver(&mut driver),
                &input,
                Player::Random(seed),
            );
            matches += 1;
        }
        let afters = if long {
            vec![0, 1]
        } else {
            vec![0, 1, 2, lines / 2, lines.saturating_sub(1)]
        };
        for after in afters {
            for fault in 0.. {
                let player = Player::Faulty { after, fault };
                matches += 1;
                if play_side_by_side(id, Session::Driver(&mut driver), &input, player).out_of_faults
                {
                    break;
                }
            }
        }
    }
    drop(driver.to_judge);
    let output = driver.child.wait_with_output().expect("the driver ends");
    assert!(
        output.status.success(),
        "{id}: the driver failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(matches >= 200, "{id}: only {matches} matches were played");
}

/// One test per interactive problem, and a check that none is missing.
macro_rules! judge_tests {
    ($($test:ident => $id:literal),+ $(,)?) => {
        $(
            #[test]
            fn $test() {
                judge_plays_as_the_referee($id);
            }
        )+

        #[test]
        fn every_interactive_problem_has_its_judge_tested() {
            let mut tested = vec![$($id),+];
            tested.sort_unstable();
            let mut interactive: Vec<&str> = solver::solvers()
                .iter()
                .filter(|s| s.interactive())
                .map(|s| s.id())
                .collect();
            interactive.sort_unstable();
            assert_eq!(tested, interactive);
        }
    };
}

judge_tests! {
    coin_game_play => "coin-game-play",
    constrained_nim_play => "constrained-nim-play",
    dont_say_n_play => "dont-say-n-play",
    football_game_play => "football-game-play",
    habanero_tofu_play => "habanero-tofu-play",
    misere_nim_play => "misere-nim-play",
    nim_k_play => "nim-k-play",
    nim_play => "nim-play",
    playing_with_stones_play => "playing-with-stones-play",
    prime_factor_game_play => "prime-factor-game-play",
    prime_factor_game_returns_play => "prime-factor-game-returns-play",
    xy_game_play => "xy-game-play",
}
