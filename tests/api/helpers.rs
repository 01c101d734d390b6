//! Test harness: a fresh database and problem catalog per test, the real
//! server on port 0, and typed request helpers.

use std::{collections::BTreeMap, path::Path, time::Duration};

use nimjudge::{
    app::worker::Judge,
    config::Config,
    domain::{Role, SubmissionId},
    startup::Application,
    store::Store,
    testing::{FixtureInput, FixturePolicy, ScratchCatalog},
};
use reqwest::StatusCode;
use serde_json::{Value, json};
use tokio::{sync::oneshot, task::JoinHandle};

/// The `nim` testcases of the fixture catalog: (name, origin, input).
pub const NIM_TESTCASES: [(&str, &str, &str); 3] = [
    ("sample-1", "sample", "3\n1 2 3\n"),
    ("small-1", "generated", "2\n1 2\n"),
    ("small-2", "generated", "4\n5 0 7 1\n"),
];

/// A scratch folder with the fixture catalog, removed on drop.
pub struct TestDir(ScratchCatalog);

impl TestDir {
    /// The fixture catalog with the safe defaults: feedback `verdict`,
    /// custom checks off.
    pub fn new() -> TestDir {
        TestDir::with_policy(FixturePolicy::default())
    }

    /// The fixture catalog with contestants' custom checks allowed.
    pub fn with_custom_checks() -> TestDir {
        TestDir::with_policy(FixturePolicy {
            custom_checks: Some(true),
            ..FixturePolicy::default()
        })
    }

    /// The fixture catalog with these `problem.toml` keys.
    pub fn with_policy(policy: FixturePolicy) -> TestDir {
        // Written as samples so the inputs are exactly the ones above.
        let testcases: Vec<(&str, FixtureInput)> = NIM_TESTCASES
            .iter()
            .map(|(name, _, input)| (*name, FixtureInput::Sample(input)))
            .collect();
        TestDir(ScratchCatalog::nim_with(&testcases, policy).expect("write the fixture catalog"))
    }

    pub fn path(&self) -> &Path {
        self.0.path()
    }

    /// Copies the bundled problem `id` (manifest, statement, testcases, and
    /// its Kattis validators and invalid inputs if it has them) into the
    /// catalog.
    pub fn add_bundled_problem(&self, id: &str) {
        let from = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("problems")
            .join(id);
        let to = self.0.problems_dir().join(id);
        std::fs::create_dir_all(to.join("testcases")).unwrap();
        for file in ["problem.toml", "statement.md"] {
            std::fs::copy(from.join(file), to.join(file)).unwrap();
        }
        for validator in [
            nimjudge::kattis::INPUT_VALIDATOR,
            nimjudge::kattis::OUTPUT_VALIDATOR,
        ] {
            if from.join(validator).is_file() {
                std::fs::copy(from.join(validator), to.join(validator)).unwrap();
            }
        }
        for folder in ["testcases", "invalid"] {
            let Ok(entries) = std::fs::read_dir(from.join(folder)) else {
                continue;
            };
            std::fs::create_dir_all(to.join(folder)).unwrap();
            for entry in entries {
                let path = entry.unwrap().path();
                std::fs::copy(&path, to.join(folder).join(path.file_name().unwrap())).unwrap();
            }
        }
    }

    /// Settings for a test: port 0, the test's database and catalog. The
    /// per-user limits are off and the connection cap is raised, since tests
    /// submit many times as one contestant and at once; the tests of those
    /// limits set their own with [`TestDir::config_with`].
    pub fn config(&self, workers: usize) -> Config {
        self.config_with(workers, &[])
    }

    /// [`TestDir::config`] with `overrides` (`SECTION__KEY`, value) on top.
    pub fn config_with(&self, workers: usize, overrides: &[(&str, &str)]) -> Config {
        let mut settings = vec![
            ("WORKER__COUNT", workers.to_string()),
            ("WORKER__POLL_INTERVAL_MS", "50".into()),
            ("WORKER__MAX_ATTEMPTS", "2".into()),
            ("SERVER__BODY_LIMIT_BYTES", "65536".into()),
            ("SERVER__MAX_CONNECTIONS", "4096".into()),
            // Every test client is one address, as a proxy's clients are.
            ("SERVER__MAX_CONNECTIONS_PER_ADDRESS", "0".into()),
            ("LIMITS__SUBMISSIONS_PER_MINUTE", "0".into()),
            ("LIMITS__PENDING_SUBMISSIONS", "0".into()),
            ("LIMITS__BYTES_PER_DAY", "0".into()),
        ];
        settings.extend(overrides.iter().map(|(k, v)| (*k, v.to_string())));
        self.0.config("nimjudge", &settings).expect("test config")
    }
}

/// The correct output for a nim input, from the solver core.
pub fn nim_answer(input: &str) -> String {
    nimjudge::solver::find("nim")
        .expect("nim is registered")
        .solve(input)
        .expect("a valid input")
}

/// Correct answers for every fixture testcase.
pub fn correct_answers() -> BTreeMap<String, String> {
    NIM_TESTCASES
        .iter()
        .map(|(name, _, input)| (name.to_string(), nim_answer(input)))
        .collect()
}

/// A submission id from a JSON reply.
pub fn submission_id(value: &Value) -> SubmissionId {
    value
        .as_str()
        .expect("an id string")
        .parse()
        .expect("a submission id")
}

/// A running server and a token per role.
pub struct TestApp {
    pub address: String,
    /// The prefix of the server's worker names.
    pub instance: String,
    pub judge: Judge,
    store: Store,
    pub http: reqwest::Client,
    pub admin: String,
    pub setter: String,
    pub contestant: String,
    /// A second contestant, to check that contestants cannot see each other.
    pub other: String,
    stop: Option<oneshot::Sender<()>>,
    handle: Option<JoinHandle<anyhow::Result<()>>>,
}

impl TestApp {
    /// Starts the server on `dir` with `workers` workers.
    pub async fn spawn(dir: &TestDir, workers: usize) -> TestApp {
        TestApp::spawn_with(dir, workers, &[]).await
    }

    /// Starts the server with settings overridden as in
    /// [`TestDir::config_with`].
    pub async fn spawn_with(dir: &TestDir, workers: usize, overrides: &[(&str, &str)]) -> TestApp {
        let app = Application::build(dir.config_with(workers, overrides))
            .await
            .expect("build the application");
        let address = format!("http://127.0.0.1:{}", app.port());
        let judge = app.judge();
        let instance = app.instance().to_string();
        let store = app.store().clone();
        let store = &store;
        let admin = token(store, "alice-admin", Role::Admin).await;
        let setter = token(store, "sam-setter", Role::Setter).await;
        let contestant = token(store, "carol", Role::Contestant).await;
        let other = token(store, "dave", Role::Contestant).await;
        let (stop, stopped) = oneshot::channel::<()>();
        let handle = tokio::spawn(app.run_until(async move {
            let _ = stopped.await;
        }));
        TestApp {
            address,
            instance,
            judge,
            store: store.clone(),
            http: reqwest::Client::new(),
            admin,
            setter,
            contestant,
            other,
            stop: Some(stop),
            handle: Some(handle),
        }
    }

    pub fn store(&self) -> &Store {
        &self.store
    }

    /// Asks the server to stop without waiting for it; [`TestApp::stop`]
    /// then waits.
    pub fn signal_stop(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
    }

    /// Stops the server gracefully and checks that it exited cleanly.
    pub async fn stop(mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        if let Some(handle) = self.handle.take() {
            handle
                .await
                .expect("server task")
                .expect("server exits cleanly");
        }
    }

    pub async fn request(
        &self,
        method: reqwest::Method,
        path: &str,
        token: Option<&str>,
        body: Option<Value>,
    ) -> (StatusCode, Value) {
        let mut request = self.http.request(method, format!("{}{path}", self.address));
        if let Some(token) = token {
            request = request.bearer_auth(token);
        }
        if let Some(body) = body {
            request = request.json(&body);
        }
        let response = request.send().await.expect("send request");
        let status = response.status();
        let text = response.text().await.expect("read body");
        let value = serde_json::from_str(&text).unwrap_or(Value::String(text));
        (status, value)
    }

    pub async fn get(&self, path: &str, token: &str) -> (StatusCode, Value) {
        self.request(reqwest::Method::GET, path, Some(token), None)
            .await
    }

    pub async fn post(&self, path: &str, token: &str, body: Value) -> (StatusCode, Value) {
        self.request(reqwest::Method::POST, path, Some(token), Some(body))
            .await
    }

    /// Submits answers; returns the new submission's id.
    pub async fn submit_answers(
        &self,
        token: &str,
        answers: &BTreeMap<String, String>,
    ) -> SubmissionId {
        submission_id(&self.accepted_answers(token, answers).await["id"])
    }

    /// Submits answers; returns the body of the `202 Accepted`.
    pub async fn accepted_answers(&self, token: &str, answers: &BTreeMap<String, String>) -> Value {
        let (status, body) = self
            .post(
                "/api/submissions",
                token,
                json!({ "problem": "nim", "answers": answers }),
            )
            .await;
        assert_eq!(status, StatusCode::ACCEPTED, "{body}");
        body
    }

    /// Waits (long-polling) until the submission is judged.
    pub async fn verdict(&self, id: &SubmissionId, token: &str) -> Value {
        self.verdict_within(id, token, 40).await
    }

    /// [`TestApp::verdict`], waiting up to `seconds` (programs compile and
    /// run).
    pub async fn verdict_within(&self, id: &SubmissionId, token: &str, seconds: usize) -> Value {
        for _ in 0..seconds {
            let (status, body) = self
                .get(&format!("/api/submissions/{id}?wait_ms=1000"), token)
                .await;
            assert_eq!(status, StatusCode::OK, "{body}");
            if body["submission"]["state"] == "done" {
                return body;
            }
        }
        panic!("submission {id} was not judged in time");
    }

    /// Waits until nothing is queued or running.
    pub async fn drain(&self) {
        for _ in 0..400 {
            let (queued, running) = self.store().queue_depth().await.expect("queue depth");
            if queued == 0 && running == 0 {
                return;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        panic!("the queue did not drain");
    }
}

async fn token(store: &Store, name: &str, role: Role) -> String {
    store
        .create_token(name, role, None)
        .await
        .expect("create token")
        .secret
}

/// Runs the `nimjudge` binary with `args` as a client of the server at
/// `server` holding `token` (`NIMJUDGE_SERVER`, `NIMJUDGE_TOKEN`), with a
/// database that does not exist, so whatever it reads comes over the API.
pub async fn run_client(server: &str, token: &str, args: Vec<String>) -> std::process::Output {
    let (server, token) = (server.to_string(), token.to_string());
    tokio::task::spawn_blocking(move || {
        std::process::Command::new(env!("CARGO_BIN_EXE_nimjudge"))
            .args(args)
            .env("NIMJUDGE_SERVER", server)
            .env("NIMJUDGE_TOKEN", token)
            .env(
                "NIMJUDGE_DATABASE__URL",
                "sqlite:///nonexistent/nimjudge.db",
            )
            .output()
            .expect("the client runs")
    })
    .await
    .expect("the client's thread")
}

/// Waits until `at` (unix milliseconds).
/// A GET of `path` with `token`, its body unread (a stream or a zip).
pub async fn raw_get(app: &TestApp, path: String, token: &str) -> reqwest::Response {
    app.http
        .get(format!("{}{path}", app.address))
        .bearer_auth(token)
        .send()
        .await
        .expect("an answer")
}

pub async fn until(at: i64) {
    let now = std::time::SystemTime::now()
        .duration_since(std::time::SystemTime::UNIX_EPOCH)
        .expect("after the epoch")
        .as_millis() as i64;
    if at > now {
        tokio::time::sleep(std::time::Duration::from_millis((at - now) as u64)).await;
    }
}

pub fn wrong_answers() -> BTreeMap<String, String> {
    correct_answers()
        .into_keys()
        .map(|name| (name, "Nobody\n".to_string()))
        .collect()
}
