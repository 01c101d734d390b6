//! The daemon's subcommands: `serve`, `token create`, `log`, `submit`,
//! `status` and `bench`. Each loads settings and hands over to the library;
//! `submit` and `status` talk to a running server over HTTP, `token` and
//! `log` open the configured database directly.

use std::{
    collections::BTreeMap,
    io::Write as _,
    path::{Path, PathBuf},
    process::ExitCode,
    time::Duration,
};

use anyhow::{Context, bail};
use clap::{Args, Subcommand};
use serde_json::json;

use crate::{
    client::{self, Client},
    config::Config,
    load_bench,
    startup::{Application, shutdown_signal},
    store::{ListFilter, Role, Store, SubmissionState, Verdict},
    telemetry,
};

/// Commands that need the daemon, its database or a server.
#[derive(Debug, Subcommand)]
pub enum DaemonCommand {
    /// Run the grading daemon: HTTP API and workers.
    Serve(ConfigArg),
    /// Manage API tokens.
    Token {
        #[command(subcommand)]
        action: TokenAction,
    },
    /// Print submissions (or one submission's results and events) from the database.
    Log(LogArgs),
    /// Submit a folder of answers (one file per testcase) and wait for the verdict.
    Submit(SubmitArgs),
    /// Wait for and print the verdict of an existing submission.
    Status(StatusArgs),
    /// Load benchmark: a fresh server, K submissions from C clients, and the raw SQLite ceiling.
    Bench(load_bench::BenchArgs),
}

#[derive(Debug, Args)]
pub struct ConfigArg {
    /// Settings file (default: config.toml in the working directory, if present).
    #[arg(long)]
    pub config: Option<PathBuf>,
}

#[derive(Debug, Subcommand)]
pub enum TokenAction {
    /// Create a token and print its secret (stored hashed; shown once).
    Create {
        #[arg(long)]
        name: String,
        /// contestant, setter or admin.
        #[arg(long)]
        role: Role,
        #[command(flatten)]
        config: ConfigArg,
    },
}

impl clap::ValueEnum for Role {
    fn value_variants<'a>() -> &'a [Self] {
        &[Role::Contestant, Role::Setter, Role::Admin]
    }

    fn to_possible_value(&self) -> Option<clap::builder::PossibleValue> {
        Some(clap::builder::PossibleValue::new(self.as_str()))
    }
}

#[derive(Debug, Args)]
pub struct LogArgs {
    /// One submission: its results and event log.
    pub id: Option<String>,
    #[arg(long)]
    pub problem: Option<String>,
    /// AC, WA or IE.
    #[arg(long)]
    pub verdict: Option<String>,
    #[arg(long)]
    pub user: Option<String>,
    #[arg(long, default_value_t = 50)]
    pub limit: i64,
    /// JSON lines instead of a table.
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub config: ConfigArg,
}

#[derive(Debug, Args)]
pub struct ServerArgs {
    /// Base URL of the daemon.
    #[arg(long, env = "NIMJUDGE_SERVER", default_value = "http://127.0.0.1:8080")]
    pub server: String,
    /// API token.
    #[arg(long, env = "NIMJUDGE_TOKEN")]
    pub token: String,
}

#[derive(Debug, Args)]
pub struct SubmitArgs {
    #[command(flatten)]
    pub server: ServerArgs,
    #[arg(long)]
    pub problem: String,
    /// Folder with one file per testcase, named after it (`sample-1` or `sample-1.out`).
    #[arg(long)]
    pub answers: PathBuf,
}

#[derive(Debug, Args)]
pub struct StatusArgs {
    /// The submission id.
    pub id: String,
    #[command(flatten)]
    pub server: ServerArgs,
}

/// Runs one daemon command; errors are printed as one line on stderr.
pub fn run(command: DaemonCommand) -> ExitCode {
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
    {
        Ok(runtime) => runtime,
        Err(e) => {
            eprintln!("error: cannot start the runtime: {e}");
            return ExitCode::from(2);
        }
    };
    match runtime.block_on(dispatch(command)) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::from(2)
        }
    }
}

async fn dispatch(command: DaemonCommand) -> anyhow::Result<ExitCode> {
    match command {
        DaemonCommand::Serve(args) => {
            let config = Config::load(args.config.as_deref())?;
            telemetry::init(&config.log);
            // Installed before the build, so a signal during startup is a
            // graceful stop as well.
            let shutdown = shutdown_signal();
            let app = Application::build(config).await?;
            app.run_until(shutdown).await?;
            Ok(ExitCode::SUCCESS)
        }
        DaemonCommand::Token {
            action: TokenAction::Create { name, role, config },
        } => {
            let config = Config::load(config.config.as_deref())?;
            let store = Store::connect(&config.database).await?;
            let secret = store.create_token(&name, role).await?;
            store.close().await;
            println!("{secret}");
            Ok(ExitCode::SUCCESS)
        }
        DaemonCommand::Log(args) => log(args).await,
        DaemonCommand::Submit(args) => submit(args).await,
        DaemonCommand::Status(args) => {
            let client = Client::new(&args.server.server, &args.server.token)?;
            wait_and_print(&client, &args.id).await
        }
        DaemonCommand::Bench(args) => load_bench::run(args).await,
    }
}

/// Reads one answer per file; the testcase name is the file name without
/// its extension.
fn read_answers(dir: &Path) -> anyhow::Result<BTreeMap<String, String>> {
    let mut answers = BTreeMap::new();
    for entry in std::fs::read_dir(dir).with_context(|| format!("cannot read {}", dir.display()))? {
        let path = entry?.path();
        if !path.is_file() {
            continue;
        }
        let Some(name) = path.file_stem().and_then(|s| s.to_str()) else {
            continue;
        };
        let text = std::fs::read_to_string(&path)
            .with_context(|| format!("cannot read {}", path.display()))?;
        answers.insert(name.to_string(), text);
    }
    if answers.is_empty() {
        bail!("{} holds no answer files", dir.display());
    }
    Ok(answers)
}

async fn submit(args: SubmitArgs) -> anyhow::Result<ExitCode> {
    let answers = read_answers(&args.answers)?;
    let client = Client::new(&args.server.server, &args.server.token)?;
    let submitted = client.submit_answers(&args.problem, &answers).await?;
    eprintln!("submitted {} ({} answers)", submitted.id, answers.len());
    wait_and_print(&client, &submitted.id).await
}

/// Long-polls until the verdict, drawing a spinner on stderr, then prints
/// the table. Exit status 0 for AC, 1 otherwise.
async fn wait_and_print(client: &Client, id: &str) -> anyhow::Result<ExitCode> {
    const SPINNER: [char; 4] = ['|', '/', '-', '\\'];
    let started = std::time::Instant::now();
    let mut tick = 0;
    let document = loop {
        let document = client.submission(id, Duration::from_millis(500)).await?;
        let state = client::state_of(&document);
        if state == "done" {
            break document;
        }
        eprint!(
            "\r{} {state} ({:.0} s)   ",
            SPINNER[tick % SPINNER.len()],
            started.elapsed().as_secs_f64()
        );
        let _ = std::io::stderr().flush();
        tick += 1;
    };
    if tick > 0 {
        eprintln!();
    }
    print!("{}", client::render_table(&document));
    let accepted = document
        .pointer("/submission/verdict")
        .and_then(|v| v.as_str())
        == Some("AC");
    Ok(if accepted {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

async fn log(args: LogArgs) -> anyhow::Result<ExitCode> {
    let config = Config::load(args.config.config.as_deref())?;
    let store = Store::connect(&config.database).await?;
    let mut out = std::io::stdout().lock();
    if let Some(id) = args.id {
        let Some(row) = store.submission(&id).await? else {
            bail!("no submission `{id}`");
        };
        let judgements = store.judgements(&id).await?;
        let events = store.events(&id).await?;
        let results = judgements
            .last()
            .map(|j| j.results.clone())
            .unwrap_or_default();
        if args.json {
            writeln!(
                out,
                "{}",
                json!({ "type": "submission", "submission": row })
            )?;
            for result in &results {
                writeln!(
                    out,
                    "{}",
                    json!({ "type": "result", "submission": id, "result": result })
                )?;
            }
            for event in &events {
                writeln!(
                    out,
                    "{}",
                    json!({ "type": "event", "submission": id, "event": event })
                )?;
            }
        } else {
            let document = json!({ "submission": row, "results": results });
            write!(out, "{}", client::render_table(&document))?;
            writeln!(out, "events:")?;
            for e in &events {
                writeln!(
                    out,
                    "  {}  {:<10}  {:<20}  {}",
                    format_time(e.created_at),
                    e.kind,
                    e.actor.as_deref().unwrap_or("-"),
                    e.detail.as_deref().unwrap_or("")
                )?;
            }
        }
    } else {
        let verdict = args
            .verdict
            .map(|v| v.parse::<Verdict>())
            .transpose()
            .map_err(anyhow::Error::msg)?;
        let rows = store
            .list_submissions(&ListFilter {
                problem: args.problem,
                verdict,
                user: args.user,
                since: None,
                before: None,
                limit: args.limit.clamp(1, 10_000),
            })
            .await?;
        if args.json {
            for row in &rows {
                writeln!(out, "{}", serde_json::to_string(row)?)?;
            }
        } else {
            writeln!(
                out,
                "{:<36}  {:<20}  {:<12}  {:<7}  {:<7}  {:>9}  submitted",
                "id", "problem", "user", "state", "verdict", "latency"
            )?;
            for r in &rows {
                let state = match r.state {
                    SubmissionState::Queued => "queued",
                    SubmissionState::Running => "running",
                    SubmissionState::Done => "done",
                };
                writeln!(
                    out,
                    "{:<36}  {:<20}  {:<12}  {:<7}  {:<7}  {:>9}  {}",
                    r.id,
                    r.problem,
                    r.user,
                    state,
                    r.verdict.map_or("-", Verdict::as_str),
                    r.latency_ms
                        .map_or("-".to_string(), |ms| format!("{ms} ms")),
                    format_time(r.created_at)
                )?;
            }
        }
    }
    store.close().await;
    Ok(ExitCode::SUCCESS)
}

/// Unix milliseconds as `YYYY-MM-DDTHH:MM:SS.mmmZ` (UTC).
pub fn format_time(ms: i64) -> String {
    let (days, rem) = (ms.div_euclid(86_400_000), ms.rem_euclid(86_400_000));
    // Civil date from days since 1970-01-01 (Howard Hinnant's algorithm).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}.{:03}Z",
        rem / 3_600_000,
        rem / 60_000 % 60,
        rem / 1000 % 60,
        rem % 1000
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times_are_formatted_in_utc() {
        assert_eq!(format_time(0), "1970-01-01T00:00:00.000Z");
        assert_eq!(format_time(951_782_400_000), "2000-02-29T00:00:00.000Z");
        assert_eq!(format_time(1_700_000_000_123), "2023-11-14T22:13:20.123Z");
    }
}
