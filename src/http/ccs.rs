//! The ICPC CCS Contest API (ccs-specs release 2026-01), read-only, under
//! `/ccs`: the API's information, contests, their access, state, problems,
//! languages, judgement types, groups and organizations (none), teams,
//! submissions (a program's files as a zip), judgements, runs,
//! clarifications, scoreboard and the event feed, in the spec's shapes
//! ([`crate::ccs`]). Every request needs a bearer token, as nimjudge's own
//! API does, and sees what that caller may see there: a contest's problems
//! are hidden from contestants before its start, the scoreboard is frozen
//! for all but admins from the freeze until the thaw, and a contestant is
//! told the count of the testcases they may see. These routes follow the
//! spec, not nimjudge's OpenAPI document, which does not list them; an
//! unknown path under `/ccs` is a JSON 404. A user holds at most
//! [`FEEDS_PER_USER`] event feeds open at once (429 past that); a feed can
//! be resumed from its tokens ([`super::event_feed`]).

use axum::{
    Json, Router,
    extract::{Path, State},
    routing::{any, get},
};
use jiff::Timestamp;

use super::{
    ApiError, AppState,
    auth::Caller,
    event_feed::{EventFeeds, FEEDS_PER_USER, FeedObject},
};
use crate::{
    api::SubmittedContent,
    app::submissions::MAX_LIST_LIMIT,
    ccs::{self, ProblemFacts},
    contest::ContestView,
    domain::{ContestId, Judgement, Submission, SubmissionId, SubmissionKind},
    store::ListFilter,
    zip_archive::StoredZip,
};

/// This module's routes.
pub(super) fn routes() -> Router<AppState> {
    Router::new()
        .route("/ccs", get(information))
        .route("/ccs/", get(information))
        .route("/ccs/contests", get(contests))
        .route("/ccs/contests/{id}", get(contest))
        .route("/ccs/contests/{id}/state", get(state))
        .route("/ccs/contests/{id}/problems", get(problems))
        .route("/ccs/contests/{id}/problems/{item}", get(problem))
        .route("/ccs/contests/{id}/languages", get(languages))
        .route("/ccs/contests/{id}/languages/{item}", get(language))
        .route("/ccs/contests/{id}/judgement-types", get(judgement_types))
        .route(
            "/ccs/contests/{id}/judgement-types/{item}",
            get(judgement_type),
        )
        .route("/ccs/contests/{id}/teams", get(teams))
        .route("/ccs/contests/{id}/teams/{item}", get(team))
        .route("/ccs/contests/{id}/scoreboard", get(scoreboard))
        .route("/ccs/contests/{id}/access", get(access))
        .route("/ccs/contests/{id}/submissions", get(submissions))
        .route("/ccs/contests/{id}/submissions/{item}", get(submission))
        .route(
            "/ccs/contests/{id}/submissions/{item}/files",
            get(submission_files),
        )
        .route("/ccs/contests/{id}/judgements", get(judgements))
        .route("/ccs/contests/{id}/judgements/{item}", get(judgement))
        .route("/ccs/contests/{id}/event-feed", get(event_feed))
        .route("/ccs/contests/{id}/runs", get(runs))
        .route("/ccs/contests/{id}/runs/{item}", get(run))
        .route("/ccs/contests/{id}/groups", get(none))
        .route("/ccs/contests/{id}/organizations", get(none))
        .route("/ccs/contests/{id}/clarifications", get(clarifications))
        .route(
            "/ccs/contests/{id}/clarifications/{item}",
            get(clarification),
        )
        .route("/ccs/{*rest}", any(not_found))
}

async fn not_found() -> ApiError {
    ApiError::NotFound("no such endpoint of the Contest API".into())
}

fn missing(what: &str, id: &str) -> ApiError {
    ApiError::NotFound(format!("no {what} `{id}` in this contest"))
}

/// The contest whose Contest API id is `id`, as the caller sees it
/// ([`ccs::identifier`]: its own id, or for one that is not a valid Contest
/// API id, its hash); a malformed id is a missing one.
async fn view(state: &AppState, caller: &Caller, id: &str) -> Result<ContestView, ApiError> {
    let missing = || ApiError::NotFound(format!("no contest `{id}`"));
    if let Ok(parsed) = id.parse::<ContestId>()
        && ccs::identifier(parsed.as_str()) == id
    {
        return Ok(state.app.contest(caller, &parsed).await?);
    }
    if !ccs::is_hashed_identifier(id) {
        return Err(missing());
    }
    let views = state.app.contests(caller).await?;
    views
        .into_iter()
        .find(|v| ccs::identifier(v.contest.id.as_str()) == id)
        .ok_or_else(missing)
}

async fn information(_caller: Caller) -> Json<ccs::ApiInformation> {
    Json(ccs::api_information())
}

async fn contests(
    State(state): State<AppState>,
    caller: Caller,
) -> Result<Json<Vec<ccs::CcsContest>>, ApiError> {
    let views = state.app.contests(&caller).await?;
    Ok(Json(
        views.iter().map(|v| ccs::contest(&v.contest)).collect(),
    ))
}

async fn contest(
    State(state): State<AppState>,
    caller: Caller,
    Path(id): Path<String>,
) -> Result<Json<ccs::CcsContest>, ApiError> {
    Ok(Json(ccs::contest(
        &view(&state, &caller, &id).await?.contest,
    )))
}

async fn state(
    State(state): State<AppState>,
    caller: Caller,
    Path(id): Path<String>,
) -> Result<Json<ccs::State>, ApiError> {
    let view = view(&state, &caller, &id).await?;
    Ok(Json(ccs::state(&view.contest, Timestamp::now())))
}

async fn problem_list(
    state: &AppState,
    caller: &Caller,
    view: &ContestView,
) -> Result<Vec<ccs::CcsProblem>, ApiError> {
    let mut facts = Vec::new();
    for problem in &view.contest.settings.problems {
        let read = state.app.problem(caller, &problem.problem).await?;
        let testcases = state.app.testcases(caller, &problem.problem).await?;
        facts.push(ProblemFacts {
            title: read.title,
            time_limit_ms: read.time_limit_ms,
            memory_limit_mib: read.memory_limit_mib,
            testcases: testcases.len(),
        });
    }
    Ok(ccs::problems(&view.contest, &facts))
}

async fn problems(
    State(state): State<AppState>,
    caller: Caller,
    Path(id): Path<String>,
) -> Result<Json<Vec<ccs::CcsProblem>>, ApiError> {
    let view = view(&state, &caller, &id).await?;
    Ok(Json(problem_list(&state, &caller, &view).await?))
}

async fn problem(
    State(state): State<AppState>,
    caller: Caller,
    Path((id, item)): Path<(String, String)>,
) -> Result<Json<ccs::CcsProblem>, ApiError> {
    let view = view(&state, &caller, &id).await?;
    problem_list(&state, &caller, &view)
        .await?
        .into_iter()
        .find(|p| p.id == item)
        .map(Json)
        .ok_or_else(|| missing("problem", &item))
}

#[derive(Debug, Clone, serde::Serialize)]
struct Language {
    id: String,
    name: String,
    entry_point_required: bool,
    extensions: Vec<String>,
}

/// nimjudge's languages and `answers`.
fn language_list(state: &AppState) -> Vec<Language> {
    let mut languages: Vec<Language> = state
        .app
        .programs()
        .list()
        .into_iter()
        .map(|l| Language {
            id: l.id.to_string(),
            name: l.name,
            entry_point_required: false,
            extensions: l.extensions,
        })
        .collect();
    languages.push(Language {
        id: ccs::ANSWERS_LANGUAGE.into(),
        name: "Answers (one output per testcase)".into(),
        entry_point_required: false,
        extensions: vec!["out".into()],
    });
    languages
}

async fn languages(
    State(state): State<AppState>,
    caller: Caller,
    Path(id): Path<String>,
) -> Result<Json<Vec<Language>>, ApiError> {
    view(&state, &caller, &id).await?;
    Ok(Json(language_list(&state)))
}

async fn language(
    State(state): State<AppState>,
    caller: Caller,
    Path((id, item)): Path<(String, String)>,
) -> Result<Json<Language>, ApiError> {
    view(&state, &caller, &id).await?;
    language_list(&state)
        .into_iter()
        .find(|l| l.id == item)
        .map(Json)
        .ok_or_else(|| missing("language", &item))
}

async fn judgement_types(
    State(state): State<AppState>,
    caller: Caller,
    Path(id): Path<String>,
) -> Result<Json<Vec<ccs::JudgementType>>, ApiError> {
    let view = view(&state, &caller, &id).await?;
    Ok(Json(ccs::judgement_types(&view.contest)))
}

async fn judgement_type(
    State(state): State<AppState>,
    caller: Caller,
    Path((id, item)): Path<(String, String)>,
) -> Result<Json<ccs::JudgementType>, ApiError> {
    let view = view(&state, &caller, &id).await?;
    ccs::judgement_types(&view.contest)
        .into_iter()
        .find(|t| t.id == item)
        .map(Json)
        .ok_or_else(|| missing("judgement type", &item))
}

/// The participants, from the scoreboard (every participant has a row).
async fn team_list(
    state: &AppState,
    caller: &Caller,
    view: &ContestView,
) -> Result<Vec<ccs::Team>, ApiError> {
    let board = state.app.scoreboard(caller, &view.contest.id, None).await?;
    let mut users: Vec<&str> = board.rows.iter().map(|r| r.user.as_str()).collect();
    users.sort_unstable();
    Ok(users.into_iter().map(ccs::team).collect())
}

async fn teams(
    State(state): State<AppState>,
    caller: Caller,
    Path(id): Path<String>,
) -> Result<Json<Vec<ccs::Team>>, ApiError> {
    let view = view(&state, &caller, &id).await?;
    Ok(Json(team_list(&state, &caller, &view).await?))
}

async fn team(
    State(state): State<AppState>,
    caller: Caller,
    Path((id, item)): Path<(String, String)>,
) -> Result<Json<ccs::Team>, ApiError> {
    let view = view(&state, &caller, &id).await?;
    team_list(&state, &caller, &view)
        .await?
        .into_iter()
        .find(|t| t.id == item)
        .map(Json)
        .ok_or_else(|| missing("team", &item))
}

/// The contest's submissions the caller may list (a contestant's own,
/// everyone's for staff), oldest first.
async fn contest_submissions(
    state: &AppState,
    caller: &Caller,
    view: &ContestView,
) -> Result<Vec<Submission>, ApiError> {
    changed_submissions(state, caller, view, None).await
}

/// The contest's submissions the caller may list, oldest first; with
/// `since`, only those created, queued again or judged since then.
async fn changed_submissions(
    state: &AppState,
    caller: &Caller,
    view: &ContestView,
    since: Option<Timestamp>,
) -> Result<Vec<Submission>, ApiError> {
    let mut all = Vec::new();
    let mut before = None;
    loop {
        let page = state
            .app
            .list_submissions(
                caller,
                ListFilter {
                    contest: Some(view.contest.id.clone()),
                    changed_since: since,
                    before,
                    limit: MAX_LIST_LIMIT,
                    ..ListFilter::default()
                },
            )
            .await?;
        all.extend(page.submissions);
        match page.next_cursor {
            Some(cursor) => before = Some(cursor),
            None => break,
        }
    }
    all.reverse();
    Ok(all)
}

fn files_href(contest: &str) -> impl Fn(&str) -> String + '_ {
    move |submission| format!("contests/{contest}/submissions/{submission}/files")
}

async fn submissions(
    State(state): State<AppState>,
    caller: Caller,
    Path(id): Path<String>,
) -> Result<Json<Vec<ccs::CcsSubmission>>, ApiError> {
    let view = view(&state, &caller, &id).await?;
    let list = contest_submissions(&state, &caller, &view).await?;
    Ok(Json(ccs::submissions(
        &view.contest,
        &list,
        files_href(&id),
    )))
}

async fn submission(
    State(state): State<AppState>,
    caller: Caller,
    Path((id, item)): Path<(String, String)>,
) -> Result<Json<ccs::CcsSubmission>, ApiError> {
    let view = view(&state, &caller, &id).await?;
    let list = contest_submissions(&state, &caller, &view).await?;
    ccs::submissions(&view.contest, &list, files_href(&id))
        .into_iter()
        .find(|s| s.id == item)
        .map(Json)
        .ok_or_else(|| missing("submission", &item))
}

/// A program submission's source as a zip (stored, not compressed), the
/// file named for its language's first extension.
async fn submission_files(
    State(state): State<AppState>,
    caller: Caller,
    Path((id, item)): Path<(String, String)>,
) -> Result<axum::response::Response, ApiError> {
    view(&state, &caller, &id).await?;
    let submission: SubmissionId = item.parse().map_err(|_| missing("submission", &item))?;
    let Some(SubmittedContent::Program { language, source }) =
        state.app.submitted_content(&caller, &submission).await?
    else {
        return Err(missing("submission with files", &item));
    };
    let extension = state
        .app
        .programs()
        .language(&language)
        .and_then(|l| l.config.extensions.first().cloned())
        .unwrap_or_else(|| "txt".into());
    // The source is bounded by the request body limit; the cap only
    // needs room for it and the archive's own records.
    let mut archive = StoredZip::with_limit(source.len() + 1024);
    let written = archive.add(&format!("source.{extension}"), source.as_bytes());
    let zip = written
        .and_then(|()| archive.finish())
        .map_err(|e| ApiError::Internal(format!("writing the zip: {e}")))?;
    Ok(axum::response::IntoResponse::into_response((
        [(axum::http::header::CONTENT_TYPE, "application/zip")],
        zip,
    )))
}

async fn judgements(
    State(state): State<AppState>,
    caller: Caller,
    Path(id): Path<String>,
) -> Result<Json<Vec<ccs::Judgement>>, ApiError> {
    let view = view(&state, &caller, &id).await?;
    let list = contest_submissions(&state, &caller, &view).await?;
    Ok(Json(ccs::judgements(&view.contest, &list)))
}

async fn judgement(
    State(state): State<AppState>,
    caller: Caller,
    Path((id, item)): Path<(String, String)>,
) -> Result<Json<ccs::Judgement>, ApiError> {
    let view = view(&state, &caller, &id).await?;
    let list = contest_submissions(&state, &caller, &view).await?;
    ccs::judgements(&view.contest, &list)
        .into_iter()
        .find(|j| j.id == item)
        .map(Json)
        .ok_or_else(|| missing("judgement", &item))
}

/// The runs of every judged submission the caller may list.
async fn run_list(
    state: &AppState,
    caller: &Caller,
    view: &ContestView,
) -> Result<Vec<ccs::Run>, ApiError> {
    let list = contest_submissions(state, caller, view).await?;
    Ok(
        runs_of(state, caller, view, list.iter().filter(|s| has_runs(s)))
            .await?
            .into_iter()
            .flat_map(|(_, runs)| runs)
            .collect(),
    )
}

/// Whether a submission's latest judgement gives runs: it is judged, and
/// not a custom check (which judges no testcase of the contest).
fn has_runs(submission: &Submission) -> bool {
    submission.verdict.is_some() && submission.kind != SubmissionKind::Custom
}

/// The runs of each of `submissions` (in their order; none for one not
/// judged yet), from their latest judgements read together.
async fn runs_of<'s>(
    state: &AppState,
    caller: &Caller,
    view: &ContestView,
    submissions: impl Iterator<Item = &'s Submission>,
) -> Result<Vec<(&'s Submission, Vec<ccs::Run>)>, ApiError> {
    let submissions: Vec<&Submission> = submissions.collect();
    let ids: Vec<SubmissionId> = submissions.iter().map(|s| s.id).collect();
    let mut latest: std::collections::HashMap<SubmissionId, Judgement> = state
        .app
        .readable_latest_judgements(caller, &ids)
        .await?
        .into_iter()
        .collect();
    Ok(submissions
        .into_iter()
        .map(|submission| {
            let judged = latest.remove(&submission.id);
            let runs = ccs::runs(&view.contest, submission, judged.as_slice());
            (submission, runs)
        })
        .collect())
}

async fn runs(
    State(state): State<AppState>,
    caller: Caller,
    Path(id): Path<String>,
) -> Result<Json<Vec<ccs::Run>>, ApiError> {
    let view = view(&state, &caller, &id).await?;
    Ok(Json(run_list(&state, &caller, &view).await?))
}

async fn run(
    State(state): State<AppState>,
    caller: Caller,
    Path((id, item)): Path<(String, String)>,
) -> Result<Json<ccs::Run>, ApiError> {
    let view = view(&state, &caller, &id).await?;
    // A run's id is its submission's, without dashes, and its ordinal.
    let of = item.rsplit_once('-').map(|(submission, _)| submission);
    let list = contest_submissions(&state, &caller, &view).await?;
    let submission = list
        .iter()
        .filter(|s| has_runs(s))
        .find(|s| of.is_some_and(|of| s.id.to_string().replace('-', "") == of));
    runs_of(&state, &caller, &view, submission.into_iter())
        .await?
        .into_iter()
        .flat_map(|(_, runs)| runs)
        .find(|r| r.id == item)
        .map(Json)
        .ok_or_else(|| missing("run", &item))
}

/// Waits between two looks at the contest for changes to send.
const FEED_POLL: std::time::Duration = std::time::Duration::from_secs(1);
/// A look reads the submissions changed since the look before, less this
/// margin: a write whose time was taken before a look and that committed
/// after it (waiting for the database's lock) is read by the next.
const FEED_CHANGE_MARGIN: jiff::SignedDuration = jiff::SignedDuration::from_secs(30);
/// And every so often all of them, in case a write waited longer.
const FEED_READ_ALL_EVERY: std::time::Duration = std::time::Duration::from_secs(600);
/// A newline is sent when nothing else was for this long (the spec: 120 s).
const FEED_KEEP_ALIVE: std::time::Duration = std::time::Duration::from_secs(100);

/// What the event feed keeps of a submission's runs between two looks:
/// the verdict time they were read at.
type RunsCache = std::collections::HashMap<String, (Option<Timestamp>, Vec<ccs::Run>)>;

/// One look at the contest for the event feed: every object the caller
/// sees, the state last, except that with `since` (and a contest and state
/// as at the look before) only the submissions changed since then are read.
struct Look {
    objects: Vec<FeedObject>,
    /// The state says the updates have ended.
    ended: bool,
    /// The submissions read, by id and by their runs' id prefix, when the
    /// look read only those changed; `None` when it read all.
    changed: Option<std::collections::HashSet<String>>,
    /// The contest's and its state's JSON: when either changes, what the
    /// caller may see of old submissions may change too (a freeze, a thaw,
    /// the start), so the next look reads all of them.
    header: String,
}

impl Look {
    /// Whether the look read the object `kind`/`id`, so that its absence
    /// means it is gone.
    fn covers(&self, kind: &str, id: Option<&str>) -> bool {
        let Some(changed) = &self.changed else {
            return true;
        };
        match kind {
            "submissions" | "judgements" => id.is_some_and(|id| changed.contains(id)),
            "runs" => id
                .and_then(|id| id.rsplit_once('-'))
                .is_some_and(|(prefix, _)| changed.contains(prefix)),
            _ => true,
        }
    }
}

async fn feed_look(
    state: &AppState,
    caller: &Caller,
    id: &str,
    runs_cache: &mut RunsCache,
    since: Option<(Timestamp, &str)>,
) -> Result<Look, ApiError> {
    fn json<T: serde::Serialize>(value: &T) -> String {
        serde_json::to_string(value).unwrap_or_else(|_| "null".into())
    }
    let view = view(state, caller, id).await?;
    let contest = &view.contest;
    let (contest_json, now) = (
        json(&ccs::contest(contest)),
        ccs::state(contest, Timestamp::now()),
    );
    let state_json = json(&now);
    let header = format!("{contest_json}\n{state_json}");
    let since = since
        .filter(|(_, before)| *before == header)
        .map(|(at, _)| at);
    let list = changed_submissions(state, caller, &view, since).await?;
    let changed = since.map(|_| {
        list.iter()
            .flat_map(|s| [s.id.to_string(), s.id.to_string().replace('-', "")])
            .collect()
    });
    let mut objects: Vec<FeedObject> = vec![("contest", None, contest_json)];
    for t in ccs::judgement_types(contest) {
        objects.push(("judgement-types", Some(t.id.to_string()), json(&t)));
    }
    for l in language_list(state) {
        objects.push(("languages", Some(l.id.clone()), json(&l)));
    }
    for p in problem_list(state, caller, &view).await? {
        objects.push(("problems", Some(p.id.clone()), json(&p)));
    }
    for t in team_list(state, caller, &view).await? {
        objects.push(("teams", Some(t.id.clone()), json(&t)));
    }
    for s in ccs::submissions(contest, &list, files_href(id)) {
        objects.push(("submissions", Some(s.id.clone()), json(&s)));
    }
    for j in ccs::judgements(contest, &list) {
        objects.push(("judgements", Some(j.id.clone()), json(&j)));
    }
    let stale = list.iter().filter(|s| {
        has_runs(s)
            && runs_cache
                .get(&s.id.to_string())
                .is_none_or(|(judged_at, _)| *judged_at != s.judged_at)
    });
    for (submission, runs) in runs_of(state, caller, &view, stale).await? {
        runs_cache.insert(submission.id.to_string(), (submission.judged_at, runs));
    }
    for submission in list.iter().filter(|s| has_runs(s)) {
        let key = submission.id.to_string();
        for r in runs_cache
            .get(&key)
            .map(|(_, runs)| runs.as_slice())
            .unwrap_or(&[])
        {
            objects.push(("runs", Some(r.id.clone()), json(r)));
        }
    }
    for c in clarification_list(state, caller, &view).await? {
        objects.push(("clarifications", Some(c.id.clone()), json(&c)));
    }
    objects.push(("state", None, state_json));
    Ok(Look {
        objects,
        ended: now.end_of_updates.is_some(),
        changed,
        header,
    })
}

/// `event-feed`: NDJSON, every object of the contest at connection (with
/// `since_token`, what changed since that token instead), then each object
/// again whenever it changes (looked at each second; `data` null for one
/// gone), the last notification of each look carrying a token to resume
/// from (see [`super::event_feed`]); a newline when nothing was sent for
/// 100 s; until the state says `end_of_updates` (then the stream ends),
/// the client leaves, or the caller's token is revoked or expires.
/// `stream=false` ends after the first look. A look after the first reads
/// only the submissions created, queued again or judged since the look
/// before (less [`FEED_CHANGE_MARGIN`]), so its cost follows the contest's
/// pace, not its size; it reads all of them when the contest or its state
/// changed (a freeze, a thaw, the start change what the reader may see of
/// old ones) and every [`FEED_READ_ALL_EVERY`].
async fn event_feed(
    State(state): State<AppState>,
    caller: Caller,
    Path(id): Path<String>,
    axum::extract::Query(query): axum::extract::Query<std::collections::HashMap<String, String>>,
) -> Result<axum::response::Response, ApiError> {
    if query.contains_key("since_id") {
        return Err(ApiError::BadRequest(
            "`since_id` is not this API's: resume with `since_token`".into(),
        ));
    }
    let streaming = query.get("stream").map(String::as_str) != Some("false");
    let feed = EventFeeds::open(
        &state.event_feeds,
        caller.name(),
        &id,
        query.get("since_token").map(String::as_str),
    )
    .map_err(|e| ApiError::BadRequest(e.to_string()))?
    .ok_or_else(|| ApiError::Rejected {
        status: axum::http::StatusCode::TOO_MANY_REQUESTS,
        message: format!("{FEEDS_PER_USER} event feeds are open for you already; close one first"),
    })?;
    // Refusals (a contest missing or hidden) are statuses; the first look,
    // which may take longer than a request may at a contest's largest, is
    // made once the response has begun.
    view(&state, &caller, &id).await?;
    let (sender, body) =
        http_body_util::channel::Channel::<axum::body::Bytes, std::convert::Infallible>::new(16);
    tokio::spawn(async move {
        // Dropped in reverse: the feed is closed before the body ends, so a
        // client that read to the end can open another at once.
        let mut sender = sender;
        let feed = feed;
        let mut runs_cache = RunsCache::new();
        let mut looked_at = Timestamp::now();
        let mut look = match feed_look(&state, &caller, &id, &mut runs_cache, None).await {
            Ok(found) => found,
            Err(error) => {
                tracing::warn!(%error, contest = %id, "the event feed stopped");
                return;
            }
        };
        let mut quiet_since = tokio::time::Instant::now();
        let mut read_all_at = tokio::time::Instant::now();
        loop {
            let Some(mut lines) = feed.batch(std::mem::take(&mut look.objects), &|kind, id| {
                look.covers(kind, id)
            }) else {
                // Resumed on another connection.
                return;
            };
            if lines.is_empty() && quiet_since.elapsed() >= FEED_KEEP_ALIVE {
                lines.push('\n');
            }
            if !lines.is_empty() {
                quiet_since = tokio::time::Instant::now();
            }
            // An empty chunk is not written, but its send fails once the
            // client has gone, so a feed ends within a second of it.
            if sender.send_data(lines.into()).await.is_err() {
                return;
            }
            if look.ended || !streaming {
                return;
            }
            tokio::time::sleep(FEED_POLL).await;
            // A token revoked or expired since the feed began ends it.
            match state.app.still_authenticated(&caller).await {
                Ok(true) => {}
                Ok(false) => return,
                Err(error) => {
                    tracing::warn!(%error, contest = %id, "the event feed stopped");
                    return;
                }
            }
            let since = (read_all_at.elapsed() < FEED_READ_ALL_EVERY)
                .then(|| (looked_at - FEED_CHANGE_MARGIN, look.header.as_str()));
            let began = Timestamp::now();
            look = match feed_look(&state, &caller, &id, &mut runs_cache, since).await {
                Ok(found) => found,
                Err(error) => {
                    tracing::warn!(%error, contest = %id, "the event feed stopped");
                    return;
                }
            };
            looked_at = began;
            if look.changed.is_none() {
                read_all_at = tokio::time::Instant::now();
            }
        }
    });
    Ok(axum::response::IntoResponse::into_response((
        [(axum::http::header::CONTENT_TYPE, "application/x-ndjson")],
        axum::body::Body::new(body),
    )))
}

async fn access(
    State(state): State<AppState>,
    caller: Caller,
    Path(id): Path<String>,
) -> Result<Json<ccs::Access>, ApiError> {
    view(&state, &caller, &id).await?;
    Ok(Json(ccs::access()))
}

/// Groups and organizations: nimjudge has none, so the lists are empty
/// (and every one of them is missing).
async fn none(
    State(state): State<AppState>,
    caller: Caller,
    Path(id): Path<String>,
) -> Result<Json<Vec<ccs::Team>>, ApiError> {
    view(&state, &caller, &id).await?;
    Ok(Json(Vec::new()))
}

async fn clarification_list(
    state: &AppState,
    caller: &Caller,
    view: &ContestView,
) -> Result<Vec<ccs::CcsClarification>, ApiError> {
    let list = state.app.clarifications(caller, &view.contest.id).await?;
    Ok(ccs::clarifications(&view.contest, &list))
}

async fn clarifications(
    State(state): State<AppState>,
    caller: Caller,
    Path(id): Path<String>,
) -> Result<Json<Vec<ccs::CcsClarification>>, ApiError> {
    let view = view(&state, &caller, &id).await?;
    Ok(Json(clarification_list(&state, &caller, &view).await?))
}

async fn clarification(
    State(state): State<AppState>,
    caller: Caller,
    Path((id, item)): Path<(String, String)>,
) -> Result<Json<ccs::CcsClarification>, ApiError> {
    let view = view(&state, &caller, &id).await?;
    clarification_list(&state, &caller, &view)
        .await?
        .into_iter()
        .find(|c| c.id == item)
        .map(Json)
        .ok_or_else(|| missing("clarification", &item))
}

async fn scoreboard(
    State(state): State<AppState>,
    caller: Caller,
    Path(id): Path<String>,
) -> Result<Json<ccs::CcsScoreboard>, ApiError> {
    let view = view(&state, &caller, &id).await?;
    let board = state
        .app
        .scoreboard(&caller, &view.contest.id, None)
        .await?;
    Ok(Json(ccs::scoreboard(
        &view.contest,
        &board,
        Timestamp::now(),
    )))
}
