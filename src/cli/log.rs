//! `nimjudge log`: the reviewers' view, read straight from the database:
//! a listing of submissions, or one submission's results and event log, as
//! tables or as JSON lines.

use std::{io::Write as _, process::ExitCode};

use clap::Args;
use serde::Serialize;

use super::{ConfigArg, tables};
use crate::{
    app::operator::Operator,
    config::Config,
    domain::{Event, ProblemId, Submission, SubmissionId, TestcaseResult, Timestamp, Verdict},
    store::{ListFilter, SubmissionRecord},
};

#[derive(Debug, Args)]
pub struct LogArgs {
    /// One submission: its results and event log.
    pub id: Option<SubmissionId>,
    /// Only this problem's submissions (its id, as `nimjudge problems` lists them).
    #[arg(long)]
    pub problem: Option<ProblemId>,
    /// Only submissions with this verdict, in any case.
    #[arg(long, ignore_case = true)]
    pub verdict: Option<Verdict>,
    /// Only this user's submissions.
    #[arg(long)]
    pub user: Option<String>,
    /// Only submissions made at or after this time (RFC 3339, e.g. 2026-11-23T00:00:00Z).
    #[arg(long)]
    pub since: Option<Timestamp>,
    /// At most this many submissions, newest first.
    #[arg(long, default_value_t = 50, value_parser = clap::value_parser!(i64).range(1..=10_000))]
    pub limit: i64,
    /// JSON lines instead of a table.
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub config: ConfigArg,
}

impl clap::ValueEnum for Verdict {
    fn value_variants<'a>() -> &'a [Self] {
        Verdict::ALL
    }

    fn to_possible_value(&self) -> Option<clap::builder::PossibleValue> {
        Some(clap::builder::PossibleValue::new(self.as_str()))
    }
}

/// One line of `log <id> --json`.
#[derive(Serialize)]
#[serde(tag = "type", rename_all = "lowercase")]
enum LogLine<'a> {
    Submission {
        submission: &'a Submission,
    },
    Result {
        submission: SubmissionId,
        result: &'a TestcaseResult,
    },
    Event {
        submission: SubmissionId,
        event: &'a Event,
    },
}

pub async fn run(args: LogArgs) -> anyhow::Result<ExitCode> {
    let config = Config::load(args.config.config.as_deref())?;
    let operator = Operator::open(&config.database).await?;
    let result = print(&operator, args).await;
    operator.close().await;
    result
}

async fn print(operator: &Operator, args: LogArgs) -> anyhow::Result<ExitCode> {
    let mut out = std::io::stdout().lock();
    let Some(id) = args.id else {
        let page = operator
            .log(ListFilter {
                problem: args.problem,
                verdict: args.verdict,
                user: args.user,
                since: args.since,
                before: None,
                limit: args.limit,
            })
            .await?;
        if args.json {
            for row in &page.submissions {
                writeln!(out, "{}", serde_json::to_string(row)?)?;
            }
        } else {
            write!(out, "{}", tables::submissions(&page.submissions))?;
        }
        return Ok(ExitCode::SUCCESS);
    };
    let SubmissionRecord {
        submission,
        judgements,
        events,
    } = operator.record(&id).await?;
    let results = judgements.last().map_or(&[][..], |j| &j.results[..]);
    if args.json {
        let submission = &submission;
        let lines = std::iter::once(LogLine::Submission { submission })
            .chain(results.iter().map(|result| LogLine::Result {
                submission: id,
                result,
            }))
            .chain(events.iter().map(|event| LogLine::Event {
                submission: id,
                event,
            }));
        for line in lines {
            writeln!(out, "{}", serde_json::to_string(&line)?)?;
        }
    } else {
        write!(out, "{}", tables::submission(&submission, &judgements))?;
        writeln!(out, "events:")?;
        write!(out, "{}", tables::events(&events))?;
    }
    Ok(ExitCode::SUCCESS)
}
