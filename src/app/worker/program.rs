//! Judging a program: compile it once in the sandbox, run it on each
//! testcase in order, compare each output with the reference.
//!
//! Blocking: the worker calls [`judge_program`] on the blocking pool. The
//! box (source and binary) and the run's stdio files live in a fresh folder
//! under the sandbox's work folder, removed when judging ends. The box is
//! writable while compiling and read-only while running, so one testcase's
//! run cannot leave anything for the next; stdio files are outside the box
//! and never seen by the program.

use std::{
    fs,
    io::Read,
    path::{Path, PathBuf},
    time::Duration,
};

use super::{
    Checked, ProgressReport, checked,
    interactive::{self, MatchEnd},
};
use crate::{
    checker::{self, Case},
    config::SandboxConfig,
    domain::{RunUsage, TestcaseName, TestcaseResult, Verdict},
    programs::Language,
    sandbox::{LimitHit, Limits, Run, RunReport, Sandbox, SandboxError, Stdio, Termination},
    solver::Solver,
};

/// Largest compiler message kept.
const COMPILE_OUTPUT_LIMIT: usize = 16 * 1024;
/// Largest file a compiler may write (its binary, its messages).
const COMPILE_FILE_LIMIT: u64 = 256 << 20;
/// Largest stderr excerpt kept for a runtime error.
const STDERR_EXCERPT_LIMIT: usize = 1024;

/// One testcase to run, with its reference output (or why there is none).
#[derive(Debug, Clone)]
pub struct ProgramTestcase {
    pub name: TestcaseName,
    pub hidden: bool,
    pub input: String,
    pub expected: Result<String, String>,
}

/// A problem's limits, before the language's time multiplier.
#[derive(Debug, Clone, Copy)]
pub struct ProblemLimits {
    pub time: Duration,
    pub memory_bytes: u64,
}

/// A judged program: its verdict, message, compiler output and results.
#[derive(Debug, Clone)]
pub struct ProgramJudgement {
    pub verdict: Verdict,
    pub message: Option<String>,
    pub compile_output: Option<String>,
    pub results: Vec<TestcaseResult>,
}

/// What goes into the box before compiling.
#[derive(Debug, Clone, Copy)]
pub enum ProgramSource<'a> {
    /// A source text, saved under the language's source file name.
    Text(&'a str),
    /// Files put under `/box` as they are: a setter's own command (its
    /// binary or script and the files it names), run with no compiling.
    Files(&'a [BoxFile]),
}

/// A file put in the box.
#[derive(Debug, Clone)]
pub struct BoxFile {
    /// Where it goes under `/box`: relative, with no `..`.
    pub path: PathBuf,
    pub contents: Vec<u8>,
    /// Whether the program may execute it (mode 755, else 644).
    pub executable: bool,
}

/// Everything one judging needs.
#[derive(Debug, Clone, Copy)]
pub struct ProgramJob<'a> {
    pub sandbox: &'a Sandbox,
    pub settings: &'a SandboxConfig,
    pub language: &'a Language,
    pub source: ProgramSource<'a>,
    pub limits: ProblemLimits,
    pub testcases: &'a [ProgramTestcase],
    /// Run every testcase even after one fails.
    pub judge_all: bool,
    /// How outputs are compared with the references.
    pub case: Case,
    /// The problem's solver when programs play its game against the judge
    /// (an interactive problem); `None` to compare outputs.
    pub interactive: Option<&'static dyn Solver>,
    /// Names the scratch folder (e.g. the submission id and attempt).
    pub label: &'a str,
    /// Told after compiling and after each testcase how many are judged.
    pub progress: Option<&'a ProgressReport>,
}

/// Compiles and runs the program. An `Err` is the sandbox's failure, not
/// the program's: the caller records IE.
pub fn judge_program(job: &ProgramJob<'_>) -> Result<ProgramJudgement, SandboxError> {
    let compiled = match compile(job)? {
        Compilation::Ready(compiled) => compiled,
        Compilation::Failed(judgement) => return Ok(judgement),
    };
    let total = job.testcases.len();
    let judged_so_far = |done: usize| {
        if let Some(progress) = job.progress {
            progress.judged(done, total);
        }
    };
    judged_so_far(0);
    let mut results = Vec::with_capacity(total);
    let mut first_failure: Option<usize> = None;
    for testcase in job.testcases {
        if first_failure.is_some() && !job.judge_all {
            break;
        }
        let result = compiled.run(testcase)?;
        if result.verdict != Verdict::AC && first_failure.is_none() {
            first_failure = Some(results.len());
        }
        results.push(result);
        judged_so_far(results.len());
    }
    let (verdict, message) = match first_failure {
        None => (Verdict::AC, None),
        Some(index) => {
            let failed = &results[index];
            let message = if failed.hidden {
                format!("a hidden testcase: {}", describe(failed.verdict))
            } else {
                format!(
                    "testcase {}: {}",
                    failed.testcase,
                    failed
                        .message
                        .as_deref()
                        .unwrap_or(describe(failed.verdict))
                )
            };
            (failed.verdict, Some(message))
        }
    };
    Ok(ProgramJudgement {
        verdict,
        message,
        compile_output: compiled.compile_output.clone(),
        results,
    })
}

/// A compiled program, or the judgement of one that did not compile.
pub enum Compilation<'a> {
    Ready(Compiled<'a>),
    Failed(ProgramJudgement),
}

/// A program compiled in its scratch folder (removed when this is
/// dropped), ready to run on one testcase after another.
pub struct Compiled<'a> {
    job: &'a ProgramJob<'a>,
    scratch: Scratch,
    toolchains: Vec<PathBuf>,
    path: Vec<PathBuf>,
    limits: Limits,
    /// What the compiler said, if anything.
    pub compile_output: Option<String>,
}

/// Compiles the job's program (`job.testcases` is not used). An `Err` is
/// the sandbox's failure, not the program's.
pub fn compile<'a>(job: &'a ProgramJob<'a>) -> Result<Compilation<'a>, SandboxError> {
    let scratch = Scratch::new(job.sandbox.work_dir(), job.label)?;
    let language = &job.language.config;
    match job.source {
        ProgramSource::Text(text) => fs::write(scratch.box_dir.join(&language.source_file), text)
            .map_err(io_error("writing the source"))?,
        ProgramSource::Files(files) => put_files(&scratch.box_dir, files)?,
    }
    let toolchains: Vec<PathBuf> = job.language.toolchain.iter().cloned().collect();
    let path: Vec<PathBuf> = toolchains.iter().map(|t| t.join("bin")).collect();
    let empty = scratch.io_dir.join("empty");
    fs::write(&empty, "").map_err(io_error("writing an empty input"))?;
    let mut compile_output = None;
    if let Some(compile) = &language.compile {
        let (stdout, stderr) = (
            scratch.io_dir.join("compile.out"),
            scratch.io_dir.join("compile.err"),
        );
        let report = job.sandbox.run(&Run {
            argv: compile,
            path: &path,
            toolchains: &toolchains,
            box_dir: &scratch.box_dir,
            box_writable: true,
            stdio: Stdio::Files {
                stdin: &empty,
                stdout: &stdout,
            },
            stderr: &stderr,
            limits: Limits {
                cpu: job.settings.compile_time,
                wall: job.settings.compile_time * 2,
                memory_bytes: job.settings.compile_memory_bytes,
                processes: job.settings.compile_processes,
                // Caps every file the compiler writes, the binary included.
                output_bytes: COMPILE_FILE_LIMIT,
            },
        })?;
        let mut text = read_capped(&stderr, COMPILE_OUTPUT_LIMIT);
        text.push_str(&read_capped(
            &stdout,
            COMPILE_OUTPUT_LIMIT - text.len().min(COMPILE_OUTPUT_LIMIT),
        ));
        compile_output = Some(text).filter(|t| !t.is_empty());
        if !report.succeeded() {
            let message = match report.limit {
                Some(LimitHit::Cpu | LimitHit::Wall) => {
                    "compilation exceeded its time limit".to_string()
                }
                Some(LimitHit::Memory) => "compilation exceeded its memory limit".to_string(),
                Some(LimitHit::Output) => "compilation wrote too much output".to_string(),
                None => format!("the compiler {}", ending(&report)),
            };
            return Ok(Compilation::Failed(ProgramJudgement {
                verdict: Verdict::CE,
                message: Some(message),
                compile_output,
                results: Vec::new(),
            }));
        }
    }

    let cpu = job.limits.time.mul_f64(language.time_multiplier);
    let limits = Limits {
        cpu,
        wall: cpu * 2 + Duration::from_secs(1),
        memory_bytes: job.limits.memory_bytes,
        processes: job.settings.max_processes,
        output_bytes: job.settings.output_limit_bytes,
    };
    Ok(Compilation::Ready(Compiled {
        job,
        scratch,
        toolchains,
        path,
        limits,
        compile_output,
    }))
}

impl Compiled<'_> {
    /// Runs the program on one testcase and checks its output (or plays
    /// the problem's game against it). An `Err` is the sandbox's failure.
    pub fn run(&self, testcase: &ProgramTestcase) -> Result<TestcaseResult, SandboxError> {
        let job = self.job;
        let limits = self.limits;
        let (input, stdout, stderr) = self.stdio();
        let run = self.plain_run(&input, &stdout, &stderr);
        let (report, checked) = match job.interactive {
            None => {
                let report = self.run_on(&run, &input, &testcase.input)?;
                let checked = verdict_of(
                    &report,
                    &limits,
                    job.case,
                    &testcase.expected,
                    &stdout,
                    &stderr,
                );
                (Some(report), checked)
            }
            Some(game) => match game.referee(&testcase.input) {
                Ok(Some(mut referee)) => {
                    let (report, end) = interactive::play(job.sandbox, &run, referee.as_mut())?;
                    let mut checked = match_verdict(&report, &limits, end, &stderr);
                    checked.detail = Some(referee.transcript());
                    (Some(report), checked)
                }
                Ok(None) => (
                    None,
                    Checked::failed(Verdict::IE, "the problem has no judge to play".into()),
                ),
                Err(e) => (
                    None,
                    Checked::failed(
                        Verdict::IE,
                        format!("the judge cannot read the testcase: {e}"),
                    ),
                ),
            },
        };
        Ok(TestcaseResult {
            testcase: testcase.name.to_string(),
            hidden: testcase.hidden,
            verdict: checked.verdict,
            time_us: report.as_ref().map_or(0, |r| micros(r.wall)),
            message: checked.message,
            detail: checked.detail,
            run: report.as_ref().map(usage),
        })
    }

    /// Runs the program on `input` and returns what it wrote, or why it
    /// failed (a limit, a crash, an output that is not UTF-8): how a
    /// reference solution computes a reference. An `Err` is
    /// the sandbox's failure.
    pub fn output(&self, input: &str) -> Result<Result<String, String>, SandboxError> {
        let (input_path, stdout, stderr) = self.stdio();
        let run = self.plain_run(&input_path, &stdout, &stderr);
        let report = self.run_on(&run, &input_path, input)?;
        if let Some(failed) = failure_of(&report, &self.limits, &stderr) {
            // Without its stderr: the message reaches contestants judged on
            // the testcase, and a reference solution's stderr may hold its
            // answer.
            return Ok(Err(match failed.verdict {
                Verdict::RE => format!("the program {}", ending(&report)),
                verdict => describe(verdict).to_owned(),
            }));
        }
        let bytes = fs::read(&stdout).map_err(io_error("reading the output"))?;
        Ok(String::from_utf8(bytes).map_err(|_| "its output is not UTF-8".to_owned()))
    }

    /// The run's stdio files: input, stdout, stderr.
    fn stdio(&self) -> (PathBuf, PathBuf, PathBuf) {
        let io = &self.scratch.io_dir;
        (io.join("input"), io.join("stdout"), io.join("stderr"))
    }

    /// The program's run with its stdio in files.
    fn plain_run<'r>(&'r self, input: &'r Path, stdout: &'r Path, stderr: &'r Path) -> Run<'r> {
        Run {
            argv: &self.job.language.config.run,
            path: &self.path,
            toolchains: &self.toolchains,
            box_dir: &self.scratch.box_dir,
            box_writable: false,
            stdio: Stdio::Files {
                stdin: input,
                stdout,
            },
            stderr,
            limits: self.limits,
        }
    }

    /// Writes `text` to the run's input file and runs it.
    fn run_on(&self, run: &Run<'_>, input: &Path, text: &str) -> Result<RunReport, SandboxError> {
        fs::write(input, text).map_err(io_error("writing the input"))?;
        self.job.sandbox.run(run)
    }
}

/// The verdict of one run against its reference.
fn verdict_of(
    report: &RunReport,
    limits: &Limits,
    case: Case,
    expected: &Result<String, String>,
    stdout: &Path,
    stderr: &Path,
) -> Checked {
    if let Some(failed) = failure_of(report, limits, stderr) {
        return failed;
    }
    let expected = match expected {
        Ok(expected) => expected,
        Err(why) => {
            return Checked::failed(Verdict::IE, format!("the reference solver failed: {why}"));
        }
    };
    // Streamed: an output up to the output limit never sits in memory
    // whole, and reading stops at the first wrong token.
    let compared =
        fs::File::open(stdout).and_then(|file| checker::compare_reader_in(case, expected, file));
    match compared {
        Ok(comparison) => checked(comparison),
        Err(e) => Checked::failed(Verdict::IE, format!("reading the output: {e}")),
    }
}

/// How a run failed before its output counts: a limit or a crash.
fn failure_of(report: &RunReport, limits: &Limits, stderr: &Path) -> Option<Checked> {
    Some(match report.limit {
        Some(LimitHit::Memory) => Checked::bare(Verdict::MLE),
        Some(LimitHit::Output) => Checked::bare(Verdict::OLE),
        Some(LimitHit::Cpu | LimitHit::Wall) => Checked::bare(Verdict::TLE),
        None if report.peak_memory_bytes > limits.memory_bytes => Checked::bare(Verdict::MLE),
        None if report.termination != Termination::Exited(0) => crashed(report, stderr),
        None => return None,
    })
}

/// The verdict of one match against an interactive problem's judge. A
/// foul the judge saw is final (the program may have been killed after it,
/// waiting for a reply that never came); then the limits, a crash, and a
/// program that stopped talking.
fn match_verdict(report: &RunReport, limits: &Limits, end: MatchEnd, stderr: &Path) -> Checked {
    let silent = match end {
        MatchEnd::Fouled(foul) => return Checked::failed(Verdict::WA, foul.to_string()),
        MatchEnd::JudgeFailed => {
            return Checked::failed(Verdict::IE, "the judge failed during the match".into());
        }
        MatchEnd::Won => None,
        MatchEnd::Silent(foul) => Some(foul),
    };
    match report.limit {
        Some(LimitHit::Memory) => return Checked::bare(Verdict::MLE),
        Some(LimitHit::Output) => return Checked::bare(Verdict::OLE),
        Some(LimitHit::Cpu) => return Checked::bare(Verdict::TLE),
        Some(LimitHit::Wall) => {
            return Checked::failed(
                Verdict::TLE,
                format!(
                    "no reply within the wall-clock limit of {} s; did the program flush its output after each line?",
                    limits.wall.as_secs_f64()
                ),
            );
        }
        None => {}
    }
    if report.peak_memory_bytes > limits.memory_bytes {
        return Checked::bare(Verdict::MLE);
    }
    if report.termination != Termination::Exited(0) {
        return crashed(report, stderr);
    }
    match silent {
        None => Checked::bare(Verdict::AC),
        Some(foul) => Checked::failed(Verdict::WA, foul.to_string()),
    }
}

/// RE, with how the program ended and the start of its stderr.
fn crashed(report: &RunReport, stderr: &Path) -> Checked {
    let excerpt = read_capped(stderr, STDERR_EXCERPT_LIMIT);
    let mut message = format!("the program {}", ending(report));
    if !excerpt.trim().is_empty() {
        message.push_str("; stderr: ");
        message.push_str(excerpt.trim());
    }
    Checked::failed(Verdict::RE, message)
}

fn describe(verdict: Verdict) -> &'static str {
    match verdict {
        Verdict::AC => "accepted",
        Verdict::WA => "wrong answer",
        Verdict::TLE => "time limit exceeded",
        Verdict::MLE => "memory limit exceeded",
        Verdict::OLE => "output limit exceeded",
        Verdict::RE => "runtime error",
        Verdict::CE => "compilation error",
        Verdict::IE => "internal error",
    }
}

/// "exited with status 3" or "was killed by signal 11 (SIGSEGV)".
fn ending(report: &RunReport) -> String {
    match report.termination {
        Termination::Exited(code) => format!("exited with status {code}"),
        Termination::Signaled(signal) => {
            format!("was killed by signal {signal} ({})", signal_name(signal))
        }
        Termination::Killed => "was killed at the wall-clock limit".to_string(),
    }
}

fn signal_name(signal: i32) -> &'static str {
    match signal {
        libc::SIGABRT => "SIGABRT",
        libc::SIGSEGV => "SIGSEGV",
        libc::SIGFPE => "SIGFPE",
        libc::SIGILL => "SIGILL",
        libc::SIGBUS => "SIGBUS",
        libc::SIGKILL => "SIGKILL",
        libc::SIGTERM => "SIGTERM",
        libc::SIGPIPE => "SIGPIPE",
        libc::SIGXCPU => "SIGXCPU",
        libc::SIGXFSZ => "SIGXFSZ",
        libc::SIGSYS => "SIGSYS",
        libc::SIGTRAP => "SIGTRAP",
        _ => "another signal",
    }
}

fn usage(report: &RunReport) -> RunUsage {
    let millis = |d: Duration| i64::try_from(d.as_millis()).unwrap_or(i64::MAX);
    RunUsage {
        cpu_ms: millis(report.cpu),
        wall_ms: millis(report.wall),
        memory_kib: i64::try_from(report.peak_memory_bytes / 1024).unwrap_or(i64::MAX),
        exit_code: match report.termination {
            Termination::Exited(code) => Some(code),
            _ => None,
        },
        signal: match report.termination {
            Termination::Signaled(signal) => Some(signal),
            _ => None,
        },
    }
}

/// At most `limit` bytes of a file, as text (invalid UTF-8 replaced).
fn read_capped(path: &Path, limit: usize) -> String {
    let mut bytes = Vec::new();
    if let Ok(file) = fs::File::open(path) {
        let _ = file.take(limit as u64).read_to_end(&mut bytes);
    }
    String::from_utf8_lossy(&bytes).into_owned()
}

fn micros(elapsed: Duration) -> i64 {
    i64::try_from(elapsed.as_micros()).unwrap_or(i64::MAX)
}

fn io_error(what: &'static str) -> impl FnOnce(std::io::Error) -> SandboxError {
    move |source| SandboxError::Io {
        what: what.to_string(),
        cause: source,
    }
}

/// Writes `files` under `box_dir`, readable by the run's uid.
fn put_files(box_dir: &Path, files: &[BoxFile]) -> Result<(), SandboxError> {
    use std::os::unix::fs::PermissionsExt;
    let mode = |path: &Path, mode: u32| {
        fs::set_permissions(path, fs::Permissions::from_mode(mode))
            .map_err(io_error("opening a box file to the run"))
    };
    mode(box_dir, 0o755)?;
    for file in files {
        if file.path.is_absolute()
            || file
                .path
                .components()
                .any(|c| !matches!(c, std::path::Component::Normal(_)))
        {
            return Err(SandboxError::Io {
                what: format!("putting {} in the box", file.path.display()),
                cause: std::io::Error::new(
                    std::io::ErrorKind::InvalidInput,
                    "not a plain relative path",
                ),
            });
        }
        let target = box_dir.join(&file.path);
        let mut folder = box_dir.to_path_buf();
        for part in file.path.parent().into_iter().flat_map(Path::components) {
            folder.push(part);
            if !folder.is_dir() {
                fs::create_dir(&folder).map_err(io_error("making a box folder"))?;
                mode(&folder, 0o755)?;
            }
        }
        fs::write(&target, &file.contents).map_err(io_error("writing a box file"))?;
        mode(&target, if file.executable { 0o755 } else { 0o644 })?;
    }
    Ok(())
}

/// A judging's folder: `box/` (mounted as `/box`) and `io/` (stdio files,
/// never mounted). Removed on drop.
struct Scratch {
    root: PathBuf,
    box_dir: PathBuf,
    io_dir: PathBuf,
}

impl Scratch {
    fn new(work_dir: &Path, label: &str) -> Result<Scratch, SandboxError> {
        let root = work_dir.join(label);
        // A folder left by a crash in the middle of the same attempt.
        let _ = fs::remove_dir_all(&root);
        let box_dir = root.join("box");
        let io_dir = root.join("io");
        for dir in [&box_dir, &io_dir] {
            fs::create_dir_all(dir).map_err(io_error("making the judging folder"))?;
        }
        Ok(Scratch {
            root,
            box_dir,
            io_dir,
        })
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        // remove_dir_all does not follow symbolic links a program left.
        let _ = fs::remove_dir_all(&self.root);
    }
}
