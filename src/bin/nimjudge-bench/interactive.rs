//! `nimjudge-bench interactive`: what an interactive game costs. `nim-play`
//! testcases of the largest positions (20 games of 100 piles of 500 to 1000
//! stones) are played by the bundled C++ solution in the sandbox against
//! the judge (the solver core on a thread of this process), until at least
//! `--moves` moves were played; then the very same lines are replayed by
//! two small C++ programs joined by pipes, outside any sandbox: the bare
//! cost of the ping-pong. Also the judge's own time a move, at those sizes.
//!
//! The games are replayed in this process first (the judge with a program
//! of Bouton's strategy that moves as the C++ solution does), which gives
//! the lines and the judge's time; the sandboxed run must end AC with the
//! same last line.

use std::{
    fmt::Write as _,
    path::{Path, PathBuf},
    process::{Command, ExitCode, Stdio},
    time::{Duration, Instant},
};

use anyhow::{Context, ensure};
use clap::Args;
use nimjudge::{
    app::worker::program::{
        ProblemLimits, ProgramJob, ProgramSource, ProgramTestcase, judge_program,
    },
    config::Config,
    domain::Verdict,
    programs::Programs,
    solver::{
        self, SeededRng,
        interactive::{Heard, Referee},
        nim_play::{self, NimRules},
    },
    testing::NimPlayer,
};

const BOUTON_CPP: &str = include_str!("../../../problems/nim-play/solutions/accepted/bouton.cpp");

/// The judge's side of the replay: `> ` lines it writes, `< ` lines it reads.
const JUDGE_REPLAY_CPP: &str = r#"
#include <cstdio>
#include <cstring>
int main(int argc, char** argv) {
    FILE* script = fopen(argv[1], "r");
    static char line[1 << 16], got[1 << 16];
    while (fgets(line, sizeof line, script)) {
        if (line[0] == '>') { fputs(line + 2, stdout); continue; }
        fflush(stdout);
        if (!fgets(got, sizeof got, stdin) || strcmp(got, line + 2) != 0) return 1;
    }
    fflush(stdout);
    return 0;
}
"#;

/// The program's side: reads the `> ` lines, writes and flushes the `< ` ones.
const PROGRAM_REPLAY_CPP: &str = r#"
#include <cstdio>
#include <cstring>
int main(int argc, char** argv) {
    FILE* script = fopen(argv[1], "r");
    static char line[1 << 16], got[1 << 16];
    while (fgets(line, sizeof line, script)) {
        if (line[0] == '<') { fputs(line + 2, stdout); fflush(stdout); continue; }
        if (!fgets(got, sizeof got, stdin) || strcmp(got, line + 2) != 0) return 1;
    }
    return 0;
}
"#;

#[derive(Debug, Args)]
pub struct BenchArgs {
    /// Settings file (default: config.toml in the working directory, if present).
    #[arg(long)]
    pub config: Option<PathBuf>,
    /// Play testcases until at least this many moves were played.
    #[arg(long, default_value_t = 100_000)]
    pub moves: usize,
    /// Rounds of (sandboxed game, bare replay), alternated.
    #[arg(long, default_value_t = 3)]
    pub rounds: usize,
}

/// One testcase, replayed in this process.
struct Replayed {
    input: String,
    /// `> ` and `< ` lines, as the judge writes and reads them.
    script: String,
    moves: usize,
    /// The judge's time in `hear`, and its longest single call.
    judge_time: Duration,
    judge_longest: Duration,
    last_line: String,
}

/// A testcase of the largest positions: 20 games of 100 piles.
fn largest_testcase(seed: u64) -> String {
    let mut rng = SeededRng::new(seed);
    let games: Vec<Vec<u64>> = (0..nim_play::MAX_GAMES)
        .map(|_| {
            let mut piles: Vec<u64> = (0..nim_play::MAX_N)
                .map(|_| rng.range(nim_play::MAX_A / 2, nim_play::MAX_A))
                .collect();
            nim_play::maybe_losing(&mut piles, &mut rng, 0);
            piles
        })
        .collect();
    nim_play::render_games(&games)
}

/// Plays `input` in this process: the judge against Bouton's strategy,
/// choosing as the C++ solution does (the first pile that works).
fn replay(input: &str) -> anyhow::Result<Replayed> {
    let game = solver::find("nim-play").context("nim-play is not hosted")?;
    let mut referee: Box<dyn Referee> = game.referee(input)?.context("not interactive")?;
    let mut script = String::new();
    let mut said = referee.opening();
    let (mut judge_time, mut judge_longest) = (Duration::ZERO, Duration::ZERO);
    let mut player = NimPlayer::new(NimRules::xor_move);
    loop {
        for line in said.lines() {
            writeln!(script, "> {line}")?;
        }
        let reply = player.answer(&said).context("the player stopped")?;
        writeln!(script, "< {reply}")?;
        let started = Instant::now();
        let heard = referee.hear(reply.as_bytes());
        let took = started.elapsed();
        judge_time += took;
        judge_longest = judge_longest.max(took);
        match heard {
            Heard::Reply(text) => said = text,
            Heard::Over { reply, result } => {
                ensure!(result.is_ok(), "Bouton lost: {result:?}");
                for line in reply.lines() {
                    writeln!(script, "> {line}")?;
                }
                let last_line = reply.lines().last().unwrap_or_default().to_string();
                return Ok(Replayed {
                    input: input.to_string(),
                    script,
                    moves: player.moves,
                    judge_time,
                    judge_longest,
                    last_line,
                });
            }
        }
    }
}

fn compile(source: &str, folder: &Path, name: &str) -> anyhow::Result<PathBuf> {
    let file = folder.join(format!("{name}.cpp"));
    std::fs::write(&file, source)?;
    let binary = folder.join(name);
    let status = Command::new("g++")
        .args(["-O2", "-o"])
        .arg(&binary)
        .arg(&file)
        .status()
        .context("g++")?;
    ensure!(status.success(), "g++ failed on {name}");
    Ok(binary)
}

/// The bare ping-pong: both replayers joined by two pipes; the wall time.
fn bare_replay(judge: &Path, program: &Path, scripts: &[PathBuf]) -> anyhow::Result<Duration> {
    let started = Instant::now();
    for script in scripts {
        let (program_reads, judge_writes) = std::io::pipe()?;
        let (judge_reads, program_writes) = std::io::pipe()?;
        let mut judge = Command::new(judge)
            .arg(script)
            .stdin(Stdio::from(judge_reads))
            .stdout(Stdio::from(judge_writes))
            .spawn()?;
        let mut program = Command::new(program)
            .arg(script)
            .stdin(Stdio::from(program_reads))
            .stdout(Stdio::from(program_writes))
            .spawn()?;
        let (a, b) = (judge.wait()?, program.wait()?);
        ensure!(a.success() && b.success(), "a replayer failed: {a}, {b}");
    }
    Ok(started.elapsed())
}

/// The judge's time a move in every interactive game, at its largest
/// testcases (three generated with `max`): against the in-process perfect
/// player ([`Referee::perfect_line`]), where the judge plays random legal
/// moves from lost positions, and against a player of random legal moves
/// on the winning side ([`Referee::random_line`]), where it soon plays its
/// winning moves (that player loses the first game it spoils). Each `hear`
/// is one program line read, checked and answered.
fn every_judge() -> anyhow::Result<()> {
    println!("the judge's time a move at each game's largest testcases (3 each):");
    println!(
        "  problem                          against perfect play             against random moves"
    );
    for game in solver::solvers().iter().filter(|s| s.interactive()) {
        let mut columns = Vec::new();
        for perfect in [true, false] {
            let (mut moves, mut total, mut longest) = (0usize, Duration::ZERO, Duration::ZERO);
            for seed in 1..=3 {
                let input = game.generate(solver::TestKind::Max, seed);
                let mut referee = game.referee(&input)?.context("not interactive")?;
                referee.opening();
                let mut turn = seed << 32;
                loop {
                    turn += 1;
                    let line = if perfect {
                        referee.perfect_line()
                    } else {
                        referee.random_line(turn)
                    };
                    let Some(line) = line else { break };
                    let started = Instant::now();
                    let heard = referee.hear(line.as_bytes());
                    let took = started.elapsed();
                    moves += 1;
                    total += took;
                    longest = longest.max(took);
                    if let Heard::Over { result, .. } = heard {
                        ensure!(
                            result.is_ok() || !perfect,
                            "{}: the perfect player lost",
                            game.id()
                        );
                        break;
                    }
                }
            }
            columns.push(format!(
                "{moves:>7} lines {:>6.2} µs, {:>6.1} µs at most",
                total.as_secs_f64() * 1e6 / moves as f64,
                longest.as_secs_f64() * 1e6
            ));
        }
        println!("  {:<32} {}", game.id(), columns.join("   "));
    }
    Ok(())
}

pub fn bench(args: BenchArgs) -> anyhow::Result<ExitCode> {
    every_judge()?;
    let config = Config::load(args.config.as_deref())?;
    let programs = Programs::start(&config.sandbox, &config.languages);
    let sandbox = programs
        .sandbox()
        .map_err(|why| anyhow::anyhow!("the sandbox cannot isolate programs here: {why}"))?;
    let language = programs
        .languages()
        .iter()
        .find(|l| l.config.id.as_str() == "cpp")
        .context("no cpp language")?;
    let game = solver::find("nim-play").context("nim-play is not hosted")?;

    let mut replayed = Vec::new();
    let mut seed = 1;
    while replayed.iter().map(|r: &Replayed| r.moves).sum::<usize>() < args.moves {
        replayed.push(replay(&largest_testcase(seed))?);
        seed += 1;
    }
    let moves: usize = replayed.iter().map(|r| r.moves).sum();
    let judge_time: Duration = replayed.iter().map(|r| r.judge_time).sum();
    let judge_longest = replayed
        .iter()
        .map(|r| r.judge_longest)
        .max()
        .unwrap_or_default();
    println!(
        "{} testcases of 20 games of 100 piles, {moves} moves; the judge's time: {:.2} µs a move on average, {:.1} µs at most",
        replayed.len(),
        judge_time.as_secs_f64() * 1e6 / moves as f64,
        judge_longest.as_secs_f64() * 1e6
    );

    let folder = tempfile::tempdir()?;
    let judge_replayer = compile(JUDGE_REPLAY_CPP, folder.path(), "judge-replay")?;
    let program_replayer = compile(PROGRAM_REPLAY_CPP, folder.path(), "program-replay")?;
    let mut scripts = Vec::new();
    for (i, r) in replayed.iter().enumerate() {
        let path = folder.path().join(format!("script-{i}"));
        std::fs::write(&path, &r.script)?;
        scripts.push(path);
    }
    let testcases: Vec<ProgramTestcase> = replayed
        .iter()
        .enumerate()
        .map(|(i, r)| {
            Ok(ProgramTestcase {
                name: format!("largest-{i}").parse().map_err(anyhow::Error::msg)?,
                hidden: false,
                input: r.input.clone(),
                expected: Err("interactive".into()),
            })
        })
        .collect::<anyhow::Result<_>>()?;
    let (mut sandboxed, mut bare) = (Vec::new(), Vec::new());
    for round in 0..args.rounds {
        let judged = judge_program(&ProgramJob {
            sandbox: &sandbox,
            settings: &programs.settings,
            language,
            source: ProgramSource::Text(BOUTON_CPP),
            limits: ProblemLimits {
                time: Duration::from_secs(10),
                memory_bytes: 512 << 20,
            },
            testcases: &testcases,
            judge_all: true,
            case: nimjudge::checker::Case::Sensitive,
            interactive: Some(game),
            label: &format!("bench-interactive-{}", std::process::id()),
            progress: None,
        })?;
        ensure!(
            judged.verdict == Verdict::AC,
            "the C++ solution got {} ({:?})",
            judged.verdict,
            judged.message
        );
        for (result, r) in judged.results.iter().zip(&replayed) {
            let transcript = result.detail.as_deref().unwrap_or_default();
            ensure!(
                transcript.trim_end().ends_with(&r.last_line),
                "the sandboxed game ended otherwise than the replay"
            );
        }
        let runs: i64 = judged.results.iter().map(|r| r.time_us).sum();
        let cpu: i64 = judged
            .results
            .iter()
            .filter_map(|r| r.run.as_ref())
            .map(|r| r.cpu_ms)
            .sum();
        let wall = Duration::from_micros(u64::try_from(runs).unwrap_or(0));
        let pingpong = bare_replay(&judge_replayer, &program_replayer, &scripts)?;
        println!(
            "round {}: judged in the sandbox {:.1} ms (the program's CPU {cpu} ms), bare ping-pong {:.1} ms, ratio {:.2}",
            round + 1,
            wall.as_secs_f64() * 1e3,
            pingpong.as_secs_f64() * 1e3,
            wall.as_secs_f64() / pingpong.as_secs_f64()
        );
        sandboxed.push(wall);
        bare.push(pingpong);
    }
    sandboxed.sort();
    bare.sort();
    let (s, b) = (sandboxed[sandboxed.len() / 2], bare[bare.len() / 2]);
    println!(
        "median: {:.1} ms against {:.1} ms, ratio {:.2}; {:.2} µs a move against {:.2} µs",
        s.as_secs_f64() * 1e3,
        b.as_secs_f64() * 1e3,
        s.as_secs_f64() / b.as_secs_f64(),
        s.as_secs_f64() * 1e6 / moves as f64,
        b.as_secs_f64() * 1e6 / moves as f64
    );
    Ok(ExitCode::SUCCESS)
}
