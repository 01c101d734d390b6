//! The HTTP client behind `nimjudge submit` and `nimjudge status` (and the
//! load benchmark): typed calls to a running daemon. No judging here.

use std::{collections::BTreeMap, time::Duration};

use serde::Deserialize;
use serde_json::{Value, json};

/// Why a call failed.
#[derive(Debug, thiserror::Error)]
pub enum ClientError {
    #[error("cannot reach the server: {0}")]
    Http(#[from] reqwest::Error),
    #[error("the server answered {status}: {message}")]
    Api { status: u16, message: String },
}

/// The reply to a submission.
#[derive(Debug, Clone, Deserialize)]
pub struct Submitted {
    pub id: String,
    pub url: String,
}

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

    async fn send(&self, request: reqwest::RequestBuilder) -> Result<Value, ClientError> {
        let response = request.bearer_auth(&self.token).send().await?;
        let status = response.status();
        let body: Value = response.json().await.unwrap_or(Value::Null);
        if status.is_success() {
            Ok(body)
        } else {
            let message = body
                .get("error")
                .and_then(Value::as_str)
                .unwrap_or("no error message")
                .to_string();
            Err(ClientError::Api {
                status: status.as_u16(),
                message,
            })
        }
    }

    /// `POST /api/submissions` with answers.
    pub async fn submit_answers(
        &self,
        problem: &str,
        answers: &BTreeMap<String, String>,
    ) -> Result<Submitted, ClientError> {
        let body = json!({ "problem": problem, "answers": answers });
        let reply = self
            .send(
                self.http
                    .post(format!("{}/api/submissions", self.base))
                    .json(&body),
            )
            .await?;
        serde_json::from_value(reply).map_err(|e| ClientError::Api {
            status: 202,
            message: format!("unexpected reply: {e}"),
        })
    }

    /// `GET /api/submissions/{id}?wait_ms=`: the submission document.
    pub async fn submission(&self, id: &str, wait: Duration) -> Result<Value, ClientError> {
        let url = format!(
            "{}/api/submissions/{id}?wait_ms={}",
            self.base,
            wait.as_millis()
        );
        self.send(self.http.get(url)).await
    }
}

/// The state of a submission document (`queued`, `running`, `done`).
pub fn state_of(document: &Value) -> &str {
    document
        .pointer("/submission/state")
        .and_then(Value::as_str)
        .unwrap_or("unknown")
}

/// Renders a submission document as a per-testcase table.
pub fn render_table(document: &Value) -> String {
    let field = |pointer: &str| {
        document
            .pointer(pointer)
            .map(|v| match v {
                Value::String(s) => s.clone(),
                Value::Null => "-".to_string(),
                other => other.to_string(),
            })
            .unwrap_or_else(|| "-".into())
    };
    let mut out = format!(
        "submission {}  problem {}  verdict {}\n",
        field("/submission/id"),
        field("/submission/problem"),
        field("/submission/verdict"),
    );
    if let Some(message) = document
        .pointer("/submission/message")
        .and_then(Value::as_str)
    {
        out.push_str(&format!("  {message}\n"));
    }
    let results = document
        .get("results")
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    let rows: Vec<[String; 4]> = results
        .iter()
        .map(|r| {
            let text = |k: &str| r.get(k).and_then(Value::as_str).unwrap_or("").to_string();
            let us = r.get("time_us").and_then(Value::as_i64).unwrap_or(0);
            [
                text("testcase"),
                text("verdict"),
                format!("{:.3} ms", us as f64 / 1000.0),
                text("message"),
            ]
        })
        .collect();
    let header = ["testcase", "verdict", "time", "message"];
    let width = |i: usize| {
        rows.iter()
            .map(|r| r[i].chars().count())
            .chain([header[i].len()])
            .max()
            .unwrap_or(0)
    };
    let (w0, w1, w2) = (width(0), width(1), width(2));
    out.push_str(&format!(
        "{:w0$}  {:w1$}  {:>w2$}  {}\n",
        header[0], header[1], header[2], header[3]
    ));
    for [name, verdict, time, message] in rows {
        out.push_str(&format!(
            "{name:w0$}  {verdict:w1$}  {time:>w2$}  {message}\n"
        ));
    }
    out
}
