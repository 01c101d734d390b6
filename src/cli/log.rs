//! `nimjudge log`: the reviewers' view: a listing of submissions, or one
//! submission's results and event log, as tables or as JSON lines. Read
//! straight from the database on the server's host, or over the API from
//! anywhere with `--server` and a setter's or admin's token (a contestant's
//! token lists their own submissions only).

use std::{io::Write as _, process::ExitCode, time::Duration};

use anyhow::bail;
use clap::Args;
use serde::Serialize;

use super::{
    ConfigArg,
    client::Client,
    submit::{NamedSubmission, PREFIX_WINDOW, resolve_id},
    tables,
};
use crate::{
    api::ListQuery,
    app::operator::Operator,
    config::Config,
    domain::{
        ContestId, Event, ProblemId, Submission, SubmissionId, TestcaseResult, Timestamp, Verdict,
    },
    store::{ListFilter, SubmissionRecord},
};

#[derive(Debug, Args)]
pub struct LogArgs {
    /// One submission: its results and event log. Its id, or its first
    /// characters (at least 4) among the 500 newest submissions.
    pub id: Option<String>,
    /// Only this problem's submissions (its id, as `nimjudge problems` lists them).
    #[arg(long)]
    pub problem: Option<ProblemId>,
    /// Only submissions with this verdict, in any case.
    #[arg(long, ignore_case = true)]
    pub verdict: Option<Verdict>,
    /// Only this user's submissions.
    #[arg(long)]
    pub user: Option<String>,
    /// Only submissions sent to this contest (its practice ones included).
    #[arg(long)]
    pub contest: Option<ContestId>,
    /// Only submissions made at or after this time (RFC 3339, e.g. 2026-11-23T00:00:00Z).
    #[arg(long)]
    pub since: Option<Timestamp>,
    /// At most this many submissions, newest first.
    #[arg(long, default_value_t = 50, value_parser = clap::value_parser!(i64).range(1..=10_000))]
    pub limit: i64,
    /// JSON lines instead of a table.
    #[arg(long)]
    pub json: bool,
    /// Read over the API of this server (its base URL) instead of the
    /// database. Given only on the command line, so a client's
    /// NIMJUDGE_SERVER never turns a host's `log` away from its database.
    #[arg(long)]
    pub server: Option<String>,
    /// The API token, with --server.
    #[arg(long, env = "NIMJUDGE_TOKEN", hide_env_values = true)]
    pub token: Option<String>,
    #[command(flatten)]
    pub config: ConfigArg,
}

/// What `log` prints, from the database or from the API.
enum Read {
    Listing(Vec<Submission>),
    One(Box<SubmissionRecord>),
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
    let read = match &args.server {
        Some(server) => {
            let Some(token) = &args.token else {
                bail!("--server needs a token: --token or NIMJUDGE_TOKEN");
            };
            over_the_api(&Client::new(server, token)?, &args).await?
        }
        None => {
            let config = Config::load(args.config.config.as_deref())?;
            let operator = Operator::open(&config.database).await?;
            let read = from_the_database(&operator, &args).await;
            operator.close().await;
            read?
        }
    };
    print(read, &args)
}

async fn from_the_database(operator: &Operator, args: &LogArgs) -> anyhow::Result<Read> {
    Ok(match &args.id {
        Some(text) => {
            let id = match NamedSubmission::parse(text)? {
                NamedSubmission::Whole(id) => id,
                named => {
                    let newest = operator
                        .log(ListFilter {
                            limit: PREFIX_WINDOW,
                            ..ListFilter::default()
                        })
                        .await?;
                    named.among(newest.submissions.iter().map(|s| s.id))?
                }
            };
            Read::One(Box::new(operator.record(&id).await?))
        }
        None => Read::Listing(
            operator
                .log(ListFilter {
                    problem: args.problem.clone(),
                    verdict: args.verdict,
                    user: args.user.clone(),
                    since: args.since,
                    before: None,
                    limit: args.limit,
                    contest: args.contest.clone(),
                    changed_since: None,
                })
                .await?
                .submissions,
        ),
    })
}

async fn over_the_api(client: &Client, args: &LogArgs) -> anyhow::Result<Read> {
    if let Some(text) = &args.id {
        let id = resolve_id(client, text).await?;
        let document = client.submission(id, Duration::ZERO).await?;
        return Ok(Read::One(Box::new(SubmissionRecord {
            submission: document.submission,
            judgements: document.judgements,
            events: document.events,
        })));
    }
    // The API's pages hold at most 500: follow the cursor to the limit.
    let mut listed = Vec::new();
    let mut cursor = None;
    loop {
        let wanted = args.limit - i64::try_from(listed.len()).unwrap_or(i64::MAX);
        let page = client
            .list_submissions(&ListQuery {
                problem: args.problem.clone(),
                verdict: args.verdict,
                user: args.user.clone(),
                contest: args.contest.clone(),
                since: args.since,
                limit: Some(wanted.min(500)),
                cursor: cursor.take(),
            })
            .await?;
        listed.extend(page.submissions);
        match page.next_cursor {
            Some(next) if i64::try_from(listed.len()).unwrap_or(i64::MAX) < args.limit => {
                cursor = Some(next);
            }
            _ => break,
        }
    }
    Ok(Read::Listing(listed))
}

fn print(read: Read, args: &LogArgs) -> anyhow::Result<ExitCode> {
    let mut out = std::io::stdout().lock();
    let (
        SubmissionRecord {
            submission,
            judgements,
            events,
        },
        id,
    ) = match read {
        Read::Listing(submissions) => {
            if args.json {
                for row in &submissions {
                    writeln!(out, "{}", serde_json::to_string(row)?)?;
                }
            } else {
                write!(out, "{}", tables::submissions(&submissions))?;
            }
            return Ok(ExitCode::SUCCESS);
        }
        Read::One(record) => {
            let id = record.submission.id;
            (*record, id)
        }
    };
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
