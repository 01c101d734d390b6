//! Problem pages: the list with the visitor's standing on each (and, for
//! setters and admins, the form that imports a Kattis package), a
//! problem's statement, testcases and submit forms, public inputs, and the
//! submit form's handler.
//!
//! A submission from a form goes through [`App::submit`](crate::app::App::submit), the API's
//! own path, so a form is refused for exactly the reasons (and with the
//! words) the API would refuse the same request. A testcase input follows
//! the API's rule too: a hidden one is a 404 to a contestant.

use std::{collections::BTreeMap, path::Path};

use axum::{
    Router,
    extract::{Multipart, Query, State, multipart::MultipartRejection, rejection::QueryRejection},
    http::header,
    response::{IntoResponse, Redirect, Response},
    routing::{get, post},
};
use maud::{Markup, PreEscaped, html};
use serde::Deserialize;

use super::{PageError, PagePath, page, statement, visitor::Visitor};
use crate::{
    api::{KattisQuery, SubmitRequest},
    app::submissions::Submitted,
    domain::{ContestId, LanguageId, PackageFormat, ProblemId, TestcaseName, TestcaseOrigin},
    http::{ApiError, AppState, idempotency},
    kattis::import::ImportOptions,
    scoring::GroupRule,
    solver::grundy_plot,
    store::Standing,
    zip_archive::{self, StoredZip},
};

/// This module's pages and forms.
pub(super) fn routes() -> Router<AppState> {
    Router::new()
        .route("/problems", get(list).post(import_package))
        .route("/problems/{id}", get(show))
        .route("/problems/{id}/submissions", post(submit))
        .route("/problems/{id}/inputs.zip", get(inputs_zip))
        .route("/problems/{id}/kattis.zip", get(kattis_zip))
        .route("/problems/{id}/testcases/{name}/input", get(input))
}

/// `GET /problems`: every problem with its limits and the visitor's
/// standing.
pub async fn list(State(state): State<AppState>, visitor: Visitor) -> Result<Markup, PageError> {
    let problems = state.app.problems(&visitor.caller).await?;
    let standings = state.app.standings(&visitor.caller).await?;
    let body = html! {
        h1 { "Problems" }
        table.list #problems {
            thead { tr { th { "Problem" } th.num { "Time limit" } th.num { "Memory limit" } th { "Status" } } }
            tbody {
                @for problem in &problems {
                    tr {
                        td {
                            a href={ "/problems/" (problem.id) } { (problem.title) }
                            @if problem.interactive { " " span.tag.interactive { "interactive" } }
                        }
                        td.num { (seconds(problem.time_limit_ms)) }
                        td.num { (problem.memory_limit_mib) " MiB" }
                        td {
                            @match standings.get(&problem.id) {
                                Some(Standing::Solved) => span.status.solved { "solved" },
                                Some(Standing::Tried) => span.status.tried { "tried" },
                                None => "",
                            }
                        }
                    }
                }
            }
        }
        @if visitor.caller.role().is_staff() {
            form.card #import-package method="post" action="/problems" enctype="multipart/form-data" {
                h2 { "Import a Kattis package" }
                p.muted { "A problem package zipped, in the legacy or the 2025-09 format: it is hosted at once, judged by its answer files, its secret data hidden." }
                input type="hidden" name="csrf" value=(visitor.csrf);
                label for="package-file" { "Package (.zip)" }
                input #package-file type="file" name="package" accept=".zip,application/zip" required;
                label for="package-id" { "Problem id (default: the package's name)" }
                input #package-id type="text" name="id";
                label for="package-time-limit" { "Time limit in ms (a legacy package states none)" }
                input #package-time-limit type="number" name="time_limit_ms" min="1";
                button type="submit" id="import-package-button" { "Import" }
            }
        }
    };
    Ok(page::frame("Problems", Some(&visitor), body))
}

/// `POST /problems`: imports a zipped Kattis package through the API's own
/// use case and opens the problem's page; a refusal is the error page with
/// the API's status and message.
pub async fn import_package(
    State(state): State<AppState>,
    visitor: Visitor,
    multipart: Result<Multipart, MultipartRejection>,
) -> Result<Redirect, PageError> {
    let malformed = |e: String| PageError::BadForm(format!("the form could not be read: {e}"));
    let mut multipart = multipart.map_err(|e| malformed(e.body_text()))?;
    let (mut csrf, mut archive, mut options) = (None, None, ImportOptions::default());
    while let Some(field) = multipart
        .next_field()
        .await
        .map_err(|e| malformed(e.body_text()))?
    {
        let name = field.name().unwrap_or_default().to_string();
        let bytes = field.bytes().await.map_err(|e| malformed(e.body_text()))?;
        if name == "package" {
            archive = Some(bytes.to_vec());
            continue;
        }
        let text = String::from_utf8(bytes.to_vec())
            .map_err(|_| PageError::BadForm(format!("the field `{name}` is not UTF-8 text")))?;
        let text = text.trim();
        match name.as_str() {
            "csrf" => csrf = Some(text.to_owned()),
            "id" if text.is_empty() => {}
            "id" => {
                options.id = Some(
                    text.parse()
                        .map_err(|e| PageError::BadForm(format!("the problem id `{text}`: {e}")))?,
                )
            }
            "time_limit_ms" if text.is_empty() => {}
            "time_limit_ms" => {
                options.time_limit_ms = Some(text.parse().map_err(|_| {
                    PageError::BadForm(format!(
                        "the time limit `{text}` is not a whole number of milliseconds"
                    ))
                })?)
            }
            _ => return Err(PageError::BadForm(format!("unknown form field `{name}`"))),
        }
    }
    visitor.check_csrf(csrf.as_deref())?;
    let archive = archive
        .filter(|a| !a.is_empty())
        .ok_or_else(|| PageError::BadForm("choose a package file (a .zip) to import".into()))?;
    let imported = state
        .app
        .import_kattis_package(&visitor.caller, archive, options)
        .await?;
    Ok(Redirect::to(&format!("/problems/{}", imported.problem)))
}

/// A time limit in seconds, as the statements write it.
fn seconds(ms: i64) -> String {
    if ms % 1000 == 0 {
        format!("{} s", ms / 1000)
    } else {
        format!("{:.1} s", ms as f64 / 1000.0)
    }
}

/// `GET /problems/{id}`: the statement, the public testcases (samples
/// shown inline) and the two submit forms.
pub async fn show(
    State(state): State<AppState>,
    visitor: Visitor,
    PagePath(id): PagePath<ProblemId>,
    query: Result<Query<ContestQuery>, QueryRejection>,
) -> Result<Markup, PageError> {
    let Query(ContestQuery { contest }) =
        query.map_err(|e| PageError::BadForm(format!("bad query: {}", e.body_text())))?;
    let problem = state.app.problem(&visitor.caller, &id).await?;
    // The forms answer public testcases only, for every role, as the API.
    let public = state.app.public_testcases(&visitor.caller, &id).await?;
    let statement = statement::for_page(problem.statement.as_deref().unwrap_or_default());
    // The statement's own samples show outputs too; one without gets the
    // sample inputs here.
    let mut samples: Vec<(&TestcaseName, String)> = Vec::new();
    if !statement.has_samples {
        for testcase in public.iter().filter(|t| t.origin == TestcaseOrigin::Sample) {
            if let Some(input) = state
                .app
                .public_input(&visitor.caller, &id, &testcase.name)
                .await?
            {
                samples.push((&testcase.name, input));
            }
        }
    }
    let languages = state.app.programs().list();
    let practice_open = state.app.practice_open(&visitor.caller, &id).await?;
    // One idempotency key per form and page load: sending the same form
    // twice (a double click, a resent POST) makes one submission.
    let answers_key = uuid::Uuid::new_v4().to_string();
    let program_key = uuid::Uuid::new_v4().to_string();
    let action = format!("/problems/{id}/submissions");
    let body = html! {
        @if let Some(contest) = &contest {
            p.crumbs { a href="/contests" { "Contests" } " › " a href={ "/contests/" (contest) } { (contest) } " › " (problem.id) }
            p.notice #contest-notice { "Your submissions here go to contest " code { (contest) } ": ranked inside your window, practice after it." }
        } @else {
            p.crumbs { a href="/problems" { "Problems" } " › " (problem.id) }
        }
        div.limits {
            span { "Time limit " (seconds(problem.time_limit_ms)) }
            span { "Memory limit " (problem.memory_limit_mib) " MiB" }
            span { "Source: "
                @match problem.source_url.as_deref().filter(|u| u.starts_with("https://") || u.starts_with("http://")) {
                    Some(url) => a href=(url) rel="noopener noreferrer" { (problem.source) },
                    None => (problem.source),
                }
            }
        }
        @if problem.interactive {
            p.card #interactive { strong { "Interactive." } " Your program plays the game against the judge, move by move, as the statement's " em { "Interaction" } " section says; answers are not accepted. "
                @if practice_open { a #practice-link href={ "/problems/" (id) "/play" } { "Practice" } ": play the game yourself, with explanations." }
                @else { "Practice games open again when the contest it is in ends." }
            }
        }
        @if visitor.caller.role().is_staff() {
            p #testcases-link { a href={ "/problems/" (id) "/testcases" } { "Manage testcases" } " (setters and admins): add, delete, rejudge." }
            @if problem.groups.is_empty() {
                p #kattis-link {
                    a href={ "/problems/" (id) "/kattis.zip" } download { "Kattis package" }
                    " (setters and admins): every testcase with its answer, the statement in LaTeX, the input validator"
                    @if problem.interactive { ", the judge (as the output validator, playing as nimjudge's does)" }
                    " and the setter solutions; or in the " a #kattis-2025-link href={ "/problems/" (id) "/kattis.zip?format=2025-09" } download { "2025-09 format" } " (BAPCtools), with the invalid inputs."
                }
            }
        }
        @if practice_open && grundy_plot::find(id.as_str()).is_some() {
            p #grundy-link { a href={ "/problems/" (id) "/grundy" } { "Grundy plot" } " of one pile: how the game's values fall, size by size." }
        }
        article.statement #statement { (PreEscaped(statement.html)) }
        @if !problem.groups.is_empty() {
            section #groups {
                h2 { "Scoring" }
                p.muted { "A group scores its points when all its testcases pass, or, where it says so, the share of them that pass." }
                table.list {
                    thead { tr { th { "Group" } th.num { "Points" } th { "Testcases" } th { "Scored" } } }
                    tbody {
                        @for group in &problem.groups {
                            tr {
                                td { (group.name) }
                                td.num { (group.points) }
                                td { code { (group.testcases.join(", ")) } }
                                td { @match group.rule { GroupRule::All => "all pass", GroupRule::Fraction => "by share" } }
                            }
                        }
                    }
                }
            }
        }
        script src="/static/copy.js" defer {}
        @if !samples.is_empty() {
            section #samples {
                h2 { "Sample inputs" }
                @for (name, input) in &samples {
                    h3 { (name) }
                    pre.sample { (input) }
                }
            }
        }
        section #testcases {
            h2 { "Public testcases" }
            @if !public.is_empty() {
                p { a #inputs-zip href={ "/problems/" (id) "/inputs.zip" } download { "Download all inputs (zip)" } }
            }
            ul.testcases {
                @for testcase in &public {
                    li {
                        a href={ "/problems/" (id) "/testcases/" (testcase.name) "/input" } { (testcase.name) ".in" }
                        " " span.muted { (testcase.origin) }
                    }
                }
            }
        }
        section.forms {
            @if problem.takes_answers {
            form.card #submit-answers method="post" action=(action) enctype="multipart/form-data" {
                h2 { "Submit answers" }
                p.muted { "One output file per testcase, named after it (" code { "sample-1.out" } "), or one zip of them; testcases left without a file count as WA." }
                input type="hidden" name="csrf" value=(visitor.csrf);
                input type="hidden" name="key" value=(answers_key);
                input type="hidden" name="kind" value="answers";
                @if let Some(contest) = &contest {
                    input type="hidden" name="contest" value=(contest);
                }
                label for="answer-files" { "Answer files or a zip (choose them all at once)" }
                input type="file" id="answer-files" name="answer_files" multiple;
                details #one-by-one {
                    summary { "…or one testcase at a time" }
                    @for testcase in &public {
                        label for={ "answer-" (testcase.name) } { (testcase.name) ".out" }
                        input type="file" id={ "answer-" (testcase.name) } name={ "answer-" (testcase.name) };
                    }
                }
                button type="submit" id="submit-answers-button" { "Submit answers" }
            }
            }
            form.card #submit-program method="post" action=(action) enctype="multipart/form-data" {
                h2 { "Submit a program" }
                @if problem.interactive {
                    p.muted { "It plays every testcase's games against the judge, hidden ones included. Flush after every line." }
                } @else {
                    p.muted { "It runs on every testcase, hidden ones included." }
                }
                input type="hidden" name="csrf" value=(visitor.csrf);
                input type="hidden" name="key" value=(program_key);
                input type="hidden" name="kind" value="program";
                @if let Some(contest) = &contest {
                    input type="hidden" name="contest" value=(contest);
                }
                label for="language" { "Language" }
                select #language name="language" {
                    @for language in &languages {
                        @if language.available {
                            option value=(language.id) { (language.name) }
                        } @else {
                            option value=(language.id) disabled { (language.name) " (unavailable)" }
                        }
                    }
                }
                label for="source" { "Source" }
                textarea #source name="source" rows="12" spellcheck="false" {}
                label for="source-file" { "…or a source file" }
                input type="file" id="source-file" name="source_file";
                button type="submit" id="submit-program-button" { "Submit program" }
            }
        }
    };
    Ok(page::frame(&problem.title, Some(&visitor), body))
}

/// `GET /problems/{id}/testcases/{name}/input`: a public input as a file
/// (and a hidden one to setters and admins); to a contestant a hidden
/// testcase is the same 404 as a missing one.
pub async fn input(
    State(state): State<AppState>,
    visitor: Visitor,
    PagePath((id, name)): PagePath<(ProblemId, TestcaseName)>,
) -> Result<Response, PageError> {
    let input = state
        .app
        .testcase_input(&visitor.caller, &id, &name)
        .await?;
    Ok((
        [
            (
                header::CONTENT_TYPE,
                "text/plain; charset=utf-8".to_string(),
            ),
            (
                header::CONTENT_DISPOSITION,
                format!("attachment; filename=\"{name}.in\""),
            ),
        ],
        input,
    )
        .into_response())
}

/// The largest "all inputs" zip a page builds: it is held in memory while
/// it is sent, so it is capped well below the format's 4 GiB.
pub const MAX_INPUTS_ZIP_BYTES: usize = 64 * 1024 * 1024;

/// `GET /problems/{id}/inputs.zip`: the problem's public inputs in one
/// zip, each as `<testcase>.in`. Public ones only, for every role, as the
/// problem page lists them: a hidden input never leaves through it (staff
/// read those one at a time). An archive past [`MAX_INPUTS_ZIP_BYTES`] is
/// refused with a page that says so.
pub async fn inputs_zip(
    State(state): State<AppState>,
    // Signed-in visitors only, like every page.
    visitor: Visitor,
    PagePath(id): PagePath<ProblemId>,
) -> Result<Response, PageError> {
    let mut zip = StoredZip::with_limit(MAX_INPUTS_ZIP_BYTES);
    // One input read at a time, so the cap bounds the memory held.
    for testcase in state.app.public_testcases(&visitor.caller, &id).await? {
        let Some(input) = state
            .app
            .public_input(&visitor.caller, &id, &testcase.name)
            .await?
        else {
            continue;
        };
        zip.add(&format!("{}.in", testcase.name), input.as_bytes())
            .map_err(|e| {
                PageError::TooLarge(format!(
                    "the public inputs of `{id}` do not fit in one download ({e}); \
                     download them one at a time"
                ))
            })?;
    }
    Ok((
        [
            (header::CONTENT_TYPE, "application/zip".to_string()),
            (
                header::CONTENT_DISPOSITION,
                format!("attachment; filename=\"{id}-inputs.zip\""),
            ),
        ],
        zip.finish()
            .map_err(|e| PageError::Api(ApiError::Internal(e.to_string())))?,
    )
        .into_response())
}

/// `GET /problems/{id}/kattis.zip[?format=2025-09]`: the problem as a
/// Kattis problem package, for setters and admins (see [`crate::kattis`]).
pub async fn kattis_zip(
    State(state): State<AppState>,
    visitor: Visitor,
    PagePath(id): PagePath<ProblemId>,
    query: Result<Query<KattisQuery>, QueryRejection>,
) -> Result<Response, PageError> {
    let Query(query) =
        query.map_err(|e| PageError::BadForm(format!("bad query: {}", e.body_text())))?;
    let format = query.format.unwrap_or(PackageFormat::Legacy);
    let (name, zip) = state
        .app
        .kattis_package(&visitor.caller, &id, format)
        .await?;
    Ok((
        [
            (header::CONTENT_TYPE, "application/zip".to_string()),
            (
                header::CONTENT_DISPOSITION,
                format!("attachment; filename=\"{name}\""),
            ),
        ],
        zip,
    )
        .into_response())
}

/// A problem page's query: the contest its forms send to, when it was
/// opened from a contest page.
#[derive(Debug, Deserialize)]
pub struct ContestQuery {
    contest: Option<ContestId>,
}

/// The submit forms' fields, as read from the multipart body.
#[derive(Debug, Default)]
struct SubmitForm {
    csrf: Option<String>,
    key: Option<String>,
    kind: Option<String>,
    answers: BTreeMap<TestcaseName, String>,
    /// Zips of answer files, unpacked once the form's token is checked.
    answer_zips: Vec<axum::body::Bytes>,
    language: Option<String>,
    source: Option<String>,
    source_file: Option<String>,
    /// The contest page's forms name their contest.
    contest: Option<ContestId>,
}

/// Reads a multipart submit form. A file input left empty sends a part
/// with no file name and no bytes; it is skipped.
async fn read_form(mut multipart: Multipart) -> Result<SubmitForm, PageError> {
    let mut form = SubmitForm::default();
    let malformed = |e: axum::extract::multipart::MultipartError| {
        PageError::BadForm(format!("the form could not be read: {}", e.body_text()))
    };
    while let Some(field) = multipart.next_field().await.map_err(malformed)? {
        let name = field.name().unwrap_or_default().to_string();
        let file_name = field.file_name().map(str::to_string);
        let no_file = file_name.as_deref().is_some_and(str::is_empty);
        let bytes = field.bytes().await.map_err(malformed)?;
        if no_file && bytes.is_empty() {
            continue;
        }
        // A zip of the many-files picker holds answer files.
        if name == "answer_files"
            && file_name
                .as_deref()
                .is_some_and(|file| file.to_ascii_lowercase().ends_with(".zip"))
        {
            form.answer_zips.push(bytes);
            continue;
        }
        let text = String::from_utf8(bytes.to_vec())
            .map_err(|_| PageError::BadForm(format!("the field `{name}` is not UTF-8 text")))?;
        // A file of the many-files picker answers the testcase its name
        // says (`sample-1.out`), a file of a testcase's own picker that one.
        let testcase = if name == "answer_files" {
            let file = file_name.unwrap_or_default();
            let stem = Path::new(&file)
                .file_stem()
                .and_then(|stem| stem.to_str())
                .unwrap_or_default()
                .to_string();
            Some(stem.parse::<TestcaseName>().map_err(|e| {
                PageError::BadForm(format!(
                    "the answer file `{file}` names no testcase ({e}); name each file after its testcase, as `sample-1.out`"
                ))
            })?)
        } else if let Some(testcase) = name.strip_prefix("answer-") {
            Some(
                testcase
                    .parse::<TestcaseName>()
                    .map_err(|e| PageError::BadForm(format!("the field `{name}`: {e}")))?,
            )
        } else {
            None
        };
        if let Some(testcase) = testcase {
            add_answer(&mut form.answers, testcase, text)?;
            continue;
        }
        if name == "contest" {
            form.contest = Some(
                text.parse()
                    .map_err(|e| PageError::BadForm(format!("the field `contest`: {e}")))?,
            );
            continue;
        }
        let slot = match name.as_str() {
            "csrf" => &mut form.csrf,
            "key" => &mut form.key,
            "kind" => &mut form.kind,
            "language" => &mut form.language,
            "source" => &mut form.source,
            "source_file" => &mut form.source_file,
            _ => return Err(PageError::BadForm(format!("unknown form field `{name}`"))),
        };
        *slot = Some(text);
    }
    Ok(form)
}

/// The most an answers zip may unpack to: what the form reads from it is
/// held in memory.
pub const MAX_ANSWERS_UNZIPPED_BYTES: usize = 64 * 1024 * 1024;

/// Adds one testcase's answer; a testcase answered twice (two files, or a
/// file and a zip) is refused.
fn add_answer(
    answers: &mut BTreeMap<TestcaseName, String>,
    testcase: TestcaseName,
    text: String,
) -> Result<(), PageError> {
    if answers.contains_key(&testcase) {
        return Err(PageError::BadForm(format!(
            "testcase `{testcase}` is answered twice; send one file for it"
        )));
    }
    answers.insert(testcase, text);
    Ok(())
}

/// `POST /problems/{id}/submissions`: a submit form, through the API's
/// own submission path; on success, the submission's page.
pub async fn submit(
    State(state): State<AppState>,
    visitor: Visitor,
    PagePath(id): PagePath<ProblemId>,
    multipart: Result<Multipart, MultipartRejection>,
) -> Result<Redirect, PageError> {
    let multipart = multipart.map_err(|e| {
        PageError::BadForm(format!("the form could not be read: {}", e.body_text()))
    })?;
    let mut form = read_form(multipart).await?;
    visitor.check_csrf(form.csrf.as_deref())?;
    for zip in std::mem::take(&mut form.answer_zips) {
        let unzipped = tokio::task::spawn_blocking(move || {
            zip_archive::read_answers(&zip, MAX_ANSWERS_UNZIPPED_BYTES)
        })
        .await
        .map_err(|e| PageError::Api(crate::http::ApiError::Internal(e.to_string())))?
        .map_err(PageError::BadForm)?;
        for (testcase, text) in unzipped {
            add_answer(&mut form.answers, testcase, text)?;
        }
    }
    state.app.problem(&visitor.caller, &id).await?;
    let key = form
        .key
        .as_deref()
        .map(|key| idempotency::parse_key(key.as_bytes()))
        .transpose()?;
    let request = match form.kind.as_deref() {
        Some("answers") => SubmitRequest {
            problem: id,
            answers: Some(form.answers),
            input: None,
            output: None,
            language: None,
            source: None,
            contest: form.contest.clone(),
        },
        Some("program") => {
            let language: LanguageId = form
                .language
                .as_deref()
                .ok_or_else(|| PageError::BadForm("choose a language".into()))?
                .parse()
                .map_err(|e| PageError::BadForm(format!("the field `language`: {e}")))?;
            // A chosen file wins over the text box.
            let source = form.source_file.or(form.source).unwrap_or_default();
            SubmitRequest {
                problem: id,
                answers: None,
                input: None,
                output: None,
                language: Some(language),
                source: Some(source),
                contest: form.contest.clone(),
            }
        }
        _ => {
            return Err(PageError::BadForm(
                "the field `kind` must be `answers` or `program`".into(),
            ));
        }
    };
    let submission = match state.app.submit(&visitor.caller, key, request).await? {
        Submitted::Stored(row) | Submitted::Replayed(row) => row.id,
    };
    Ok(Redirect::to(&format!("/submissions/{submission}")))
}
