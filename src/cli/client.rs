//! The typed HTTP client behind `nimjudge submit`, `status` and the load
//! benchmark. Requests and answers are the [`api`](crate::api) types the
//! server itself uses. No judging here.

use std::time::Duration;

use serde::de::DeserializeOwned;

use crate::{
    api::{
        ContestList, ErrorBody, LanguageList, ListQuery, NewRegistration, Queued, Registered,
        SubmissionDocument, SubmissionPage, SubmitRequest, TestcaseList,
    },
    contest::{ContestSettings, ContestView, Scoreboard},
    domain::{ContestId, ProblemId, SubmissionId, TestcaseName},
};

/// Why a call failed.
#[derive(Debug, thiserror::Error)]
pub enum ClientError {
    /// The cause follows as the error's source (printed after a colon).
    #[error("cannot reach the server")]
    Http(#[from] reqwest::Error),
    #[error("the server answered {status}: {message}")]
    Api { status: u16, message: String },
    #[error("the server's answer ({status}) is not what the API describes: {message}")]
    Decode { status: u16, message: String },
}

/// How many times a request answered 429 is sent again.
pub const RETRIES_AFTER_429: u32 = 5;

/// The longest `Retry-After` the client waits for; a longer one is an error.
pub const LONGEST_RETRY_AFTER: Duration = Duration::from_secs(120);

/// A client for one server and token.
#[derive(Debug, Clone)]
pub struct Client {
    http: reqwest::Client,
    base: String,
    token: String,
}

impl Client {
    pub fn new(server: &str, token: &str) -> Result<Client, ClientError> {
        let http = reqwest::Client::builder()
            .timeout(Duration::from_secs(120))
            .build()?;
        Ok(Client {
            http,
            base: server.trim_end_matches('/').to_string(),
            token: token.to_string(),
        })
    }

    /// Sends `request` and decodes its JSON answer (see [`Client::send_raw`]).
    async fn send<T: DeserializeOwned>(
        &self,
        request: reqwest::RequestBuilder,
    ) -> Result<T, ClientError> {
        let (status, bytes) = self.send_raw(request).await?;
        serde_json::from_slice(&bytes).map_err(|e| ClientError::Decode {
            status,
            message: e.to_string(),
        })
    }

    /// Sends `request` and returns the body of a 2xx answer; any other is
    /// [`ClientError::Api`]. A 429 is sent again after its `Retry-After`
    /// (up to [`RETRIES_AFTER_429`] times, each wait at most
    /// [`LONGEST_RETRY_AFTER`]), saying so on stderr.
    async fn send_raw(
        &self,
        request: reqwest::RequestBuilder,
    ) -> Result<(u16, axum::body::Bytes), ClientError> {
        let mut retries = 0;
        let response = loop {
            // A body that cannot be cloned (none here) is sent once.
            let Some(attempt) = request.try_clone() else {
                break request.bearer_auth(&self.token).send().await?;
            };
            let response = attempt.bearer_auth(&self.token).send().await?;
            let wait = response
                .headers()
                .get(reqwest::header::RETRY_AFTER)
                .and_then(|v| v.to_str().ok())
                .and_then(|v| v.trim().parse::<u64>().ok())
                .map(Duration::from_secs);
            match wait {
                Some(wait)
                    if response.status() == reqwest::StatusCode::TOO_MANY_REQUESTS
                        && retries < RETRIES_AFTER_429
                        && wait <= LONGEST_RETRY_AFTER =>
                {
                    retries += 1;
                    let message = response
                        .json::<ErrorBody>()
                        .await
                        .map(|body| body.error)
                        .unwrap_or_default();
                    eprintln!("{message}; trying again in {} s", wait.as_secs());
                    tokio::time::sleep(wait).await;
                }
                _ => break response,
            }
        };
        let status = response.status().as_u16();
        let bytes = response.bytes().await?;
        if (200..300).contains(&status) {
            Ok((status, bytes))
        } else {
            let message = serde_json::from_slice::<ErrorBody>(&bytes)
                .map(|body| body.error)
                .unwrap_or_else(|_| String::from_utf8_lossy(&bytes).into_owned());
            Err(ClientError::Api { status, message })
        }
    }

    /// `POST /api/submissions`.
    pub async fn submit(&self, request: &SubmitRequest) -> Result<Queued, ClientError> {
        self.send(
            self.http
                .post(format!("{}/api/submissions", self.base))
                .json(request),
        )
        .await
    }

    /// `GET /api/problems/{id}/testcases`: the testcases the caller may see.
    pub async fn testcases(&self, problem: &ProblemId) -> Result<TestcaseList, ClientError> {
        self.send(
            self.http
                .get(format!("{}/api/problems/{problem}/testcases", self.base)),
        )
        .await
    }

    /// `GET /api/problems/{id}/testcases/{name}/input`.
    pub async fn input(
        &self,
        problem: &ProblemId,
        testcase: &TestcaseName,
    ) -> Result<String, ClientError> {
        let url = format!(
            "{}/api/problems/{problem}/testcases/{testcase}/input",
            self.base
        );
        let (status, bytes) = self.send_raw(self.http.get(url)).await?;
        String::from_utf8(bytes.to_vec()).map_err(|e| ClientError::Decode {
            status,
            message: e.to_string(),
        })
    }

    /// `GET /api/submissions?problem=&limit=`: the caller's own (all, for
    /// setters and admins), newest first.
    pub async fn submissions(
        &self,
        problem: Option<&ProblemId>,
        limit: i64,
    ) -> Result<SubmissionPage, ClientError> {
        // Problem ids are lowercase letters, digits and dashes: nothing to
        // escape in a query.
        let problem = problem.map_or(String::new(), |p| format!("&problem={p}"));
        let url = format!("{}/api/submissions?limit={limit}{problem}", self.base);
        self.send(self.http.get(url)).await
    }

    /// `GET /api/submissions` with every filter of `query`: one page.
    pub async fn list_submissions(&self, query: &ListQuery) -> Result<SubmissionPage, ClientError> {
        let url = format!("{}/api/submissions", self.base);
        self.send(self.http.get(url).query(query)).await
    }

    /// `GET /api/languages`.
    pub async fn languages(&self) -> Result<LanguageList, ClientError> {
        self.send(self.http.get(format!("{}/api/languages", self.base)))
            .await
    }

    /// `GET /api/submissions/{id}?wait_ms=`: the submission document, once
    /// judged or after `wait`.
    pub async fn submission(
        &self,
        id: SubmissionId,
        wait: Duration,
    ) -> Result<SubmissionDocument, ClientError> {
        let url = format!(
            "{}/api/submissions/{id}?wait_ms={}",
            self.base,
            wait.as_millis()
        );
        self.send(self.http.get(url)).await
    }

    /// `PUT /api/contests/{id}`: create or replace a contest (admins).
    pub async fn put_contest(
        &self,
        id: &ContestId,
        settings: &ContestSettings,
    ) -> Result<ContestView, ClientError> {
        let url = format!("{}/api/contests/{id}", self.base);
        self.send(self.http.put(url).json(settings)).await
    }

    /// `GET /api/contests`.
    pub async fn contests(&self) -> Result<ContestList, ClientError> {
        self.send(self.http.get(format!("{}/api/contests", self.base)))
            .await
    }

    /// `GET /api/contests/{id}/scoreboard`.
    pub async fn scoreboard(&self, id: &ContestId) -> Result<Scoreboard, ClientError> {
        let url = format!("{}/api/contests/{id}/scoreboard", self.base);
        self.send(self.http.get(url)).await
    }

    /// `POST /api/contests/{id}/registrations`.
    pub async fn register(
        &self,
        id: &ContestId,
        user: Option<String>,
    ) -> Result<Registered, ClientError> {
        let url = format!("{}/api/contests/{id}/registrations", self.base);
        self.send(self.http.post(url).json(&NewRegistration { user }))
            .await
    }

    /// `POST /api/contests/{id}/thaw` (admins).
    pub async fn thaw(&self, id: &ContestId) -> Result<ContestView, ClientError> {
        let url = format!("{}/api/contests/{id}/thaw", self.base);
        self.send(self.http.post(url)).await
    }

    /// `POST /api/contests/{id}/window`.
    pub async fn start_window(&self, id: &ContestId) -> Result<ContestView, ClientError> {
        let url = format!("{}/api/contests/{id}/window", self.base);
        self.send(self.http.post(url)).await
    }

    /// `GET /api/contests/{id}/export`, as the server wrote it.
    pub async fn export_contest(&self, id: &ContestId) -> Result<serde_json::Value, ClientError> {
        let url = format!("{}/api/contests/{id}/export", self.base);
        self.send(self.http.get(url)).await
    }
}
