//! `nimjudge submit` and `nimjudge status`: send answers to a running server
//! and wait for the verdict, with a spinner on terminals, then print the
//! per-testcase table. Exit status 0 for AC, 1 for any other verdict.

use std::{
    collections::BTreeMap,
    path::{Path, PathBuf},
    process::ExitCode,
    time::Duration,
};

use anyhow::{Context, bail};
use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};

use super::{EXIT_NOT_ACCEPTED, client::Client, tables};
use crate::{
    api::{ListQuery, SubmitRequest, SubmittedContent},
    domain::{
        ContestId, LanguageId, ProblemId, SubmissionId, SubmissionState, TestcaseName, Verdict,
    },
};

/// Where the server is and who is asking. The variables are the client's
/// own; the daemon's settings ignore them.
#[derive(Debug, Args)]
pub struct ServerArgs {
    /// Base URL of the daemon.
    #[arg(long, env = "NIMJUDGE_SERVER", default_value = "http://127.0.0.1:8080")]
    pub server: String,
    /// API token.
    #[arg(long, env = "NIMJUDGE_TOKEN", hide_env_values = true)]
    pub token: String,
}

#[derive(Debug, Args)]
#[group(id = "what", required = true, multiple = false, args = ["answers", "source"])]
pub struct SubmitArgs {
    #[command(flatten)]
    pub server: ServerArgs,
    #[arg(long)]
    pub problem: ProblemId,
    /// Folder with one file per testcase, named after it (`sample-1` or
    /// `sample-1.out`); `*.in` files (the inputs `nimjudge inputs` wrote) are
    /// not answers and are left out.
    #[arg(long)]
    pub answers: Option<PathBuf>,
    /// A program's source file; it is run on every testcase in the sandbox.
    #[arg(long)]
    pub source: Option<PathBuf>,
    /// The program's language (see `GET /api/languages`); by default the
    /// one whose extensions include the source file's.
    #[arg(long, requires = "source")]
    pub language: Option<LanguageId>,
    /// The contest to send it to (its problem must be in the contest):
    /// ranked inside your window, practice after it.
    #[arg(long)]
    pub contest: Option<ContestId>,
}

#[derive(Debug, Args)]
pub struct StatusArgs {
    /// The submission id, or its first characters (at least 4; 8 are
    /// nearly always enough), among your 500 newest submissions.
    pub id: String,
    /// Print what was submitted instead of the verdict: a program's source
    /// as sent (its language on stderr), or the sizes of answers.
    #[arg(long)]
    pub source: bool,
    #[command(flatten)]
    pub server: ServerArgs,
}

/// Reads one answer per file; the testcase name is the file name without
/// its extension.
fn read_answers(dir: &Path) -> anyhow::Result<BTreeMap<TestcaseName, String>> {
    let mut answers = BTreeMap::new();
    for entry in std::fs::read_dir(dir).with_context(|| format!("cannot read {}", dir.display()))? {
        let path = entry?.path();
        if !path.is_file() {
            continue;
        }
        if path.extension().is_some_and(|e| e == "in") {
            continue;
        }
        let Some(stem) = path.file_stem().and_then(|s| s.to_str()) else {
            continue;
        };
        let name: TestcaseName = stem
            .parse()
            .map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?;
        let text = std::fs::read_to_string(&path)
            .with_context(|| format!("cannot read {}", path.display()))?;
        answers.insert(name, text);
    }
    if answers.is_empty() {
        bail!("{} holds no answer files", dir.display());
    }
    Ok(answers)
}

pub async fn submit(args: SubmitArgs) -> anyhow::Result<ExitCode> {
    let client = Client::new(&args.server.server, &args.server.token)?;
    let (request, what) = match (&args.answers, &args.source) {
        (Some(dir), _) => {
            let answers = read_answers(dir)?;
            let what = format!("{} answers", answers.len());
            (
                SubmitRequest {
                    problem: args.problem,
                    answers: Some(answers),
                    input: None,
                    output: None,
                    language: None,
                    source: None,
                    contest: args.contest.clone(),
                },
                what,
            )
        }
        (None, Some(file)) => {
            let source = std::fs::read_to_string(file)
                .with_context(|| format!("cannot read {}", file.display()))?;
            let language = match args.language {
                Some(language) => language,
                None => language_of(&client, file).await?,
            };
            let what = format!("a {language} program");
            (
                SubmitRequest {
                    problem: args.problem,
                    answers: None,
                    input: None,
                    output: None,
                    language: Some(language),
                    source: Some(source),
                    contest: args.contest.clone(),
                },
                what,
            )
        }
        (None, None) => bail!("give --answers or --source"),
    };
    let queued = client.submit(&request).await?;
    eprintln!("submitted {} ({what})", queued.id);
    wait_and_print(&client, queued.id).await
}

/// The server's language whose extensions include the file's.
async fn language_of(client: &Client, file: &Path) -> anyhow::Result<LanguageId> {
    let extension = file
        .extension()
        .and_then(|e| e.to_str())
        .with_context(|| format!("{} has no extension; pass --language", file.display()))?;
    let languages = client.languages().await?;
    languages
        .languages
        .into_iter()
        .find(|l| l.extensions.iter().any(|e| e == extension))
        .map(|l| l.id)
        .with_context(|| {
            format!("no language on the server takes `.{extension}` files; pass --language")
        })
}

#[derive(Debug, Args)]
pub struct SubmissionsArgs {
    #[command(flatten)]
    pub server: ServerArgs,
    /// Only this problem's submissions.
    #[arg(long)]
    pub problem: Option<ProblemId>,
    /// At most this many, newest first.
    #[arg(long, default_value_t = 50, value_parser = clap::value_parser!(i64).range(1..=500))]
    pub limit: i64,
    /// JSON lines instead of a table.
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Args)]
pub struct InputsArgs {
    #[command(flatten)]
    pub server: ServerArgs,
    /// The problem whose public inputs to download.
    pub problem: ProblemId,
    /// The folder to write them into (made if missing; default: the problem's id).
    #[arg(long)]
    pub dir: Option<PathBuf>,
}

/// `nimjudge submissions`: the caller's submissions, over the API.
pub async fn submissions(args: SubmissionsArgs) -> anyhow::Result<ExitCode> {
    let client = Client::new(&args.server.server, &args.server.token)?;
    let page = client
        .submissions(args.problem.as_ref(), args.limit)
        .await?;
    if args.json {
        for submission in &page.submissions {
            println!("{}", serde_json::to_string(submission)?);
        }
    } else {
        print!("{}", tables::submissions(&page.submissions));
    }
    Ok(ExitCode::SUCCESS)
}

/// `nimjudge inputs`: a problem's public inputs, `<testcase>.in` each.
pub async fn inputs(args: InputsArgs) -> anyhow::Result<ExitCode> {
    let client = Client::new(&args.server.server, &args.server.token)?;
    let dir = args
        .dir
        .unwrap_or_else(|| PathBuf::from(args.problem.as_str()));
    let list = client.testcases(&args.problem).await?;
    std::fs::create_dir_all(&dir).with_context(|| format!("cannot make {}", dir.display()))?;
    let mut written = 0;
    for testcase in list.testcases.iter().filter(|t| !t.hidden) {
        let input = client.input(&args.problem, &testcase.name).await?;
        let file = dir.join(format!("{}.in", testcase.name));
        std::fs::write(&file, input).with_context(|| format!("cannot write {}", file.display()))?;
        written += 1;
    }
    eprintln!(
        "wrote {written} input{} to {}; put each answer in <testcase>.out beside its input and run \
         `nimjudge submit --problem {} --answers {}`",
        if written == 1 { "" } else { "s" },
        dir.display(),
        args.problem,
        dir.display()
    );
    Ok(ExitCode::SUCCESS)
}

pub async fn status(args: StatusArgs) -> anyhow::Result<ExitCode> {
    let client = Client::new(&args.server.server, &args.server.token)?;
    let id = resolve_id(&client, &args.id).await?;
    if args.source {
        return print_content(&client, id).await;
    }
    wait_and_print(&client, id).await
}

/// How many of the newest submissions an id's first characters are
/// looked for among.
pub(super) const PREFIX_WINDOW: i64 = 500;

/// The submission `text` names: a whole id, or the start of one of the
/// caller's [`PREFIX_WINDOW`] newest submissions (every user's, for setters
/// and admins), which must be the only one that starts so.
pub(super) async fn resolve_id(client: &Client, text: &str) -> anyhow::Result<SubmissionId> {
    let named = NamedSubmission::parse(text)?;
    if let NamedSubmission::Whole(id) = named {
        return Ok(id);
    }
    let page = client
        .list_submissions(&ListQuery {
            limit: Some(PREFIX_WINDOW),
            ..ListQuery::default()
        })
        .await?;
    named.among(page.submissions.iter().map(|s| s.id))
}

/// A submission as a command line names it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum NamedSubmission {
    /// Its whole id.
    Whole(SubmissionId),
    /// The first characters of its id (lowercase), and as they were typed.
    Prefix { prefix: String, typed: String },
}

impl NamedSubmission {
    /// A whole id, or at least its first 4 characters; an error otherwise.
    pub(super) fn parse(text: &str) -> anyhow::Result<NamedSubmission> {
        if let Ok(id) = text.parse::<SubmissionId>() {
            return Ok(NamedSubmission::Whole(id));
        }
        let prefix = text.to_ascii_lowercase();
        if prefix.len() < 4 || !prefix.bytes().all(|b| b.is_ascii_hexdigit() || b == b'-') {
            bail!("`{text}` is neither a submission id nor its first 4 or more characters");
        }
        Ok(NamedSubmission::Prefix {
            prefix,
            typed: text.to_string(),
        })
    }

    /// The one of `ids` (the newest submissions) it names.
    pub(super) fn among(
        &self,
        ids: impl Iterator<Item = SubmissionId>,
    ) -> anyhow::Result<SubmissionId> {
        let (prefix, typed) = match self {
            NamedSubmission::Whole(id) => return Ok(*id),
            NamedSubmission::Prefix { prefix, typed } => (prefix, typed),
        };
        let matching: Vec<SubmissionId> = ids
            .filter(|id| id.to_string().starts_with(prefix.as_str()))
            .collect();
        match matching[..] {
            [id] => Ok(id),
            [] => bail!("no submission among the {PREFIX_WINDOW} newest starts with `{typed}`"),
            _ => bail!(
                "{} submissions start with `{typed}`; give more of the id",
                matching.len()
            ),
        }
    }
}

/// What a submission sent, without waiting for its verdict.
async fn print_content(client: &Client, id: SubmissionId) -> anyhow::Result<ExitCode> {
    let document = client.submission(id, Duration::ZERO).await?;
    match document.content {
        Some(SubmittedContent::Program { language, source }) => {
            eprintln!("{language}");
            print!("{source}");
        }
        Some(SubmittedContent::Answers { answers }) => {
            for answer in answers {
                println!("{}\t{} bytes", answer.testcase, answer.bytes);
            }
        }
        Some(SubmittedContent::Custom {
            input_bytes,
            output_bytes,
        }) => println!("custom check: input {input_bytes} bytes, output {output_bytes} bytes"),
        None => bail!("the server does not say what submission {id} sent"),
    }
    Ok(ExitCode::SUCCESS)
}

/// Long-polls until the verdict, with a spinner on stderr when it is a
/// terminal, then prints the table.
async fn wait_and_print(client: &Client, id: SubmissionId) -> anyhow::Result<ExitCode> {
    let spinner = ProgressBar::new_spinner();
    spinner.set_style(
        ProgressStyle::with_template("{spinner} {msg} ({elapsed})")
            .unwrap_or_else(|_| ProgressStyle::default_spinner()),
    );
    spinner.enable_steady_tick(Duration::from_millis(120));
    let document = loop {
        let document = client.submission(id, Duration::from_millis(500)).await?;
        if document.submission.state == SubmissionState::Done {
            break document;
        }
        spinner.set_message(document.submission.state.to_string());
    };
    spinner.finish_and_clear();
    print!(
        "{}",
        tables::submission(&document.submission, &document.judgements)
    );
    Ok(if document.submission.verdict == Some(Verdict::AC) {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(EXIT_NOT_ACCEPTED)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_id_is_named_whole_or_by_its_only_match_among_the_newest() {
        let ids: Vec<SubmissionId> = [
            "67e55044-10b1-426f-9247-bb680e5fe0c8",
            "67e5aaaa-10b1-426f-9247-bb680e5fe0c8",
            "12345678-10b1-426f-9247-bb680e5fe0c8",
        ]
        .iter()
        .map(|id| id.parse().expect("an id"))
        .collect();
        let among = |text: &str| {
            NamedSubmission::parse(text)
                .expect("a name")
                .among(ids.iter().copied())
        };
        let whole = NamedSubmission::parse(&ids[2].to_string()).expect("an id");
        assert_eq!(whole, NamedSubmission::Whole(ids[2]));
        assert_eq!(among("1234").expect("one"), ids[2]);
        let several = among("67E5").expect_err("two");
        assert!(
            several
                .to_string()
                .starts_with("2 submissions start with `67E5`")
        );
        let none = among("ffff").expect_err("none");
        assert!(
            none.to_string()
                .contains("no submission among the 500 newest starts with `ffff`")
        );
        for text in ["ab", "zzzz", "12 4"] {
            assert!(NamedSubmission::parse(text).is_err(), "{text}");
        }
    }
}
