//! `nimjudge interact`: a setter runs one program against an interactive
//! problem's judge on one input, through the sandbox exactly as a
//! submission is judged, and reads the verdict and the transcript. The
//! program is a source file, compiled as a submission would be, or a
//! command of the setter's own after `--`, run in the sandbox as it is.

use std::{path::PathBuf, process::ExitCode};

use anyhow::{Context, bail};
use clap::Args;

use super::{
    EXIT_NOT_ACCEPTED,
    local::{LocalJudge, LocalProgram, command_files, command_language},
};
use crate::{
    app::worker::program::{BoxFile, ProgramJob, ProgramSource, ProgramTestcase, judge_program},
    domain::Verdict,
    solver,
};

#[derive(Debug, Args)]
pub struct InteractArgs {
    /// An interactive problem, e.g. `nim-play`.
    pub problem: String,
    /// The program's source; its extension names the language (`.cpp`, `.py`, `.rs`).
    #[arg(required_unless_present = "command", conflicts_with = "command")]
    pub source: Option<PathBuf>,
    /// The testcase to play: its games, in the problem's input format.
    #[arg(long)]
    pub input: PathBuf,
    /// Settings file (default: config.toml in the working directory, if present).
    #[arg(long)]
    pub config: Option<PathBuf>,
    /// Or a command, after `--`, run in the sandbox as it is (`-- ./a.out`,
    /// `-- pypy3 play.py`): the files it names by relative paths are copied
    /// into the sandbox's working folder at the same paths; other programs
    /// come from the sandbox's system folders. The time limit is the
    /// problem's, with no language's multiplier.
    #[arg(last = true, value_name = "COMMAND")]
    pub command: Vec<String>,
}

/// The program as read: a source text or a command's files.
enum Program {
    Text(String),
    Files(Vec<BoxFile>),
}

pub fn run(args: InteractArgs) -> anyhow::Result<ExitCode> {
    let game = solver::find(&args.problem)
        .with_context(|| format!("unknown problem `{}`", args.problem))?;
    if !game.interactive() {
        bail!(
            "`{}` is not interactive: judge its programs with `nimjudge verify` or a submission",
            args.problem
        );
    }
    let input = std::fs::read_to_string(&args.input)
        .with_context(|| format!("cannot read {}", args.input.display()))?;
    game.validate(&input)
        .with_context(|| format!("{} is not a valid input", args.input.display()))?;
    let (judge, language, program) = match &args.source {
        Some(path) => {
            let local = LocalProgram::load(args.config.as_deref(), &args.problem, path)?;
            let language = local.language()?.clone();
            (local.judge, language, Program::Text(local.source))
        }
        None => {
            let language = command_language(&args.command)?;
            let judge = LocalJudge::load(args.config.as_deref(), &args.problem)?;
            let files = command_files(&args.command, &judge.programs.settings.system_paths)?;
            (judge, language, Program::Files(files))
        }
    };
    let testcases = [ProgramTestcase {
        name: "input".parse().map_err(anyhow::Error::msg)?,
        hidden: false,
        input,
        expected: Err("an interactive problem has no reference output".into()),
    }];
    let judged = judge_program(&ProgramJob {
        sandbox: &judge.sandbox,
        settings: &judge.programs.settings,
        language: &language,
        source: match &program {
            Program::Text(text) => ProgramSource::Text(text),
            Program::Files(files) => ProgramSource::Files(files),
        },
        limits: judge.limits,
        testcases: &testcases,
        judge_all: false,
        case: crate::checker::Case::Sensitive,
        interactive: Some(game),
        label: &format!("interact-{}", std::process::id()),
        progress: None,
    })?;
    if let Some(output) = &judged.compile_output {
        eprintln!("{output}");
    }
    for result in &judged.results {
        if let Some(transcript) = &result.detail {
            print!("{transcript}");
        }
        if let Some(run) = &result.run {
            println!(
                "CPU {} ms, memory {} KiB, wall {} ms",
                run.cpu_ms, run.memory_kib, run.wall_ms
            );
        }
    }
    match &judged.message {
        Some(message) => println!("{}: {message}", judged.verdict),
        None => println!("{}", judged.verdict),
    }
    Ok(if judged.verdict == Verdict::AC {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(EXIT_NOT_ACCEPTED)
    })
}
