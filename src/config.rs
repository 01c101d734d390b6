//! Daemon settings: defaults, then `config.toml`, then environment variables.
//!
//! The shipped `config.toml` is compiled in as the defaults, so every key is
//! documented in one place. Loading is two steps, like ripgrep's low-level and
//! high-level arguments: the layers are merged as raw TOML tables and
//! deserialised into [`RawConfig`], which is then validated into [`Config`],
//! whose fields carry their invariants (a parsed socket address, a positive
//! lease). Relative paths in a config file (the database file, the problems
//! folder) are resolved against that file's folder, so `--config` works from
//! anywhere; relative paths from the bundled defaults or the environment are
//! relative to the working directory. This module does no I/O besides
//! reading the config file.

use std::{
    net::SocketAddr,
    path::{Path, PathBuf},
    time::Duration,
};

use std::collections::BTreeMap;

use serde::Deserialize;

use crate::domain::LanguageId;

/// The bundled `config.toml`: the defaults.
pub const DEFAULT_TOML: &str = include_str!("../config.toml");

/// Prefix of the environment variables that override settings.
pub const ENV_PREFIX: &str = "NIMJUDGE_";

/// Variables with the settings' prefix that belong to the command-line
/// client (`nimjudge submit`, `status`), not to the daemon's settings.
pub const CLIENT_VARIABLES: [&str; 2] = ["NIMJUDGE_SERVER", "NIMJUDGE_TOKEN"];

/// Variables with the settings' prefix that belong to the test fixtures
/// ([`crate::testing`]): which database they use, and the PostgreSQL
/// cluster they may create databases on.
pub const FIXTURE_VARIABLES: [&str; 2] = ["NIMJUDGE_TEST_BACKEND", "NIMJUDGE_TEST_POSTGRES_URL"];

/// Why settings could not be loaded.
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    #[error("cannot read {path}: {source}")]
    Read {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{origin} is not valid TOML: {message}")]
    Parse { origin: String, message: String },
    #[error("environment variable {0} must look like NIMJUDGE_<SECTION>__<KEY>")]
    EnvName(String),
    #[error("invalid setting: {0}")]
    Invalid(String),
}

/// Settings as written, before validation.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawConfig {
    pub server: RawServer,
    pub database: RawDatabase,
    pub worker: RawWorker,
    pub catalog: RawCatalog,
    pub limits: RawLimits,
    pub log: RawLog,
    pub sandbox: RawSandbox,
    #[serde(default)]
    pub languages: BTreeMap<String, RawLanguage>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawSandbox {
    pub work_dir: String,
    pub first_uid: u32,
    pub uid_count: u32,
    pub system_paths: Vec<String>,
    pub tmp_size_mib: u64,
    pub max_processes: u32,
    pub output_limit_mib: u64,
    pub compile_time_ms: u64,
    pub compile_memory_mib: u64,
    pub compile_processes: u32,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawLanguage {
    pub name: String,
    pub extensions: Vec<String>,
    pub source_file: String,
    #[serde(default)]
    pub toolchain: Option<Vec<String>>,
    #[serde(default)]
    pub compile: Option<Vec<String>>,
    pub run: Vec<String>,
    pub time_multiplier: f64,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawServer {
    pub bind: String,
    pub body_limit_bytes: u64,
    pub max_wait_ms: u64,
    pub wait_recheck_ms: u64,
    pub request_timeout_ms: u64,
    pub keep_alive_timeout_ms: u64,
    pub header_read_timeout_ms: u64,
    pub body_read_timeout_ms: u64,
    pub max_connections: u32,
    pub max_connections_per_address: u32,
    pub shutdown_grace_ms: u64,
    pub secure_cookies: bool,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawDatabase {
    pub url: String,
    pub read_connections: u32,
    pub busy_timeout_ms: u64,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawWorker {
    pub count: Option<u64>,
    pub lease_seconds: u64,
    pub max_attempts: u32,
    pub poll_interval_ms: u64,
    pub shutdown_grace_ms: u64,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawCatalog {
    pub problems_dir: String,
    pub allow_empty: bool,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawLimits {
    pub submissions_per_minute: u32,
    pub pending_submissions: u32,
    pub bytes_per_day: u64,
    pub failed_auths_per_minute: u32,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawLog {
    pub filter: String,
    pub format: String,
}

/// Validated settings.
#[derive(Debug, Clone)]
pub struct Config {
    pub server: ServerConfig,
    pub database: DatabaseConfig,
    pub worker: WorkerConfig,
    pub catalog: CatalogConfig,
    pub limits: LimitsConfig,
    pub log: LogConfig,
    pub sandbox: SandboxConfig,
    /// In id order.
    pub languages: Vec<LanguageConfig>,
}

/// Program judging on this host: the sandbox and its fixed limits.
#[derive(Debug, Clone)]
pub struct SandboxConfig {
    pub work_dir: PathBuf,
    pub first_uid: u32,
    pub uid_count: u32,
    pub system_paths: Vec<PathBuf>,
    pub tmp_size_bytes: u64,
    /// Processes and threads a program may have at once.
    pub max_processes: u32,
    /// Largest output of one run.
    pub output_limit_bytes: u64,
    pub compile_time: Duration,
    pub compile_memory_bytes: u64,
    pub compile_processes: u32,
}

/// One language programs may be written in.
#[derive(Debug, Clone)]
pub struct LanguageConfig {
    pub id: LanguageId,
    pub name: String,
    /// File name extensions the client maps to this language.
    pub extensions: Vec<String>,
    /// The name the source is saved under in the box.
    pub source_file: String,
    /// A command printing the toolchain's folder (run at start, outside the
    /// sandbox: it is the operator's, not a contestant's).
    pub toolchain: Option<Vec<String>>,
    pub compile: Option<Vec<String>>,
    pub run: Vec<String>,
    /// The problem's time limit is multiplied by this for the language.
    pub time_multiplier: f64,
}

#[derive(Debug, Clone)]
pub struct ServerConfig {
    pub bind: SocketAddr,
    pub body_limit_bytes: usize,
    pub max_wait: Duration,
    /// How often a long poll re-reads its submission: the in-process wake-up
    /// does not reach across processes sharing the database.
    pub wait_recheck: Duration,
    /// Longest a request may take; above `max_wait`, so long polls fit.
    pub request_timeout: Duration,
    pub connections: ConnectionLimits,
    /// Mark the web UI's cookies `Secure`: browsers then send them over
    /// HTTPS only (for deployments behind TLS).
    pub secure_cookies: bool,
}

/// How long a connection may take over each part of its life, and how many
/// may be open at once: what keeps idle, slow and abandoned clients from
/// holding the server's sockets.
#[derive(Debug, Clone, Copy)]
pub struct ConnectionLimits {
    /// A connection waiting for a request that sends nothing this long is closed.
    pub keep_alive_timeout: Duration,
    /// From a request's first byte to the end of its header block.
    pub header_read_timeout: Duration,
    /// From the end of a request's header to the end of its body.
    pub body_read_timeout: Duration,
    pub max_connections: usize,
    /// Connections open at once from one client address (an IPv6 address
    /// counts by its /64); `None` is no limit.
    pub max_connections_per_address: Option<usize>,
    /// How long open connections may finish their requests at shutdown.
    pub shutdown_grace: Duration,
}

/// Per-user limits on new submissions; `None` is no limit. Admins are exempt.
#[derive(Debug, Clone, Copy, Default)]
pub struct LimitsConfig {
    pub submissions_per_minute: Option<u32>,
    pub pending_submissions: Option<u32>,
    pub bytes_per_day: Option<u64>,
    /// Unknown, revoked or expired tokens one client address may present
    /// in a minute before it gets 429 (admins are not exempt: the token
    /// is not known).
    pub failed_auths_per_minute: Option<u32>,
}

#[derive(Debug, Clone)]
pub struct DatabaseConfig {
    /// A `sqlite://` URL (a file), or a `postgres://` one (a server that
    /// several hosts share).
    pub url: String,
    /// SQLite: connections of the read pool. PostgreSQL: the pool holds
    /// twice as many, for reads and writes alike.
    pub read_connections: u32,
    /// SQLite only: how long a statement waits for another process's lock.
    pub busy_timeout: Duration,
}

/// Whether a database URL names PostgreSQL (else it must be SQLite).
fn is_postgres_url(url: &str) -> bool {
    url.starts_with("postgres:") || url.starts_with("postgresql:")
}

impl DatabaseConfig {
    /// Whether the URL names PostgreSQL (else it is SQLite).
    pub fn is_postgres(&self) -> bool {
        is_postgres_url(&self.url)
    }

    /// The URL for messages and logs: a password in it is replaced by `***`.
    pub fn shown_url(&self) -> String {
        let Some((scheme, rest)) = self.url.split_once("://") else {
            return self.url.clone();
        };
        let authority_end = rest.find(['/', '?']).unwrap_or(rest.len());
        let (authority, tail) = rest.split_at(authority_end);
        match authority.rsplit_once('@') {
            Some((user_info, host)) if user_info.contains(':') => {
                let user = user_info.split(':').next().unwrap_or_default();
                format!("{scheme}://{user}:***@{host}{tail}")
            }
            _ => self.url.clone(),
        }
    }
}

#[derive(Debug, Clone)]
pub struct WorkerConfig {
    /// Number of workers; 0 runs the API alone.
    pub count: usize,
    pub lease: Duration,
    pub max_attempts: u32,
    pub poll_interval: Duration,
    pub shutdown_grace: Duration,
}

#[derive(Debug, Clone)]
pub struct CatalogConfig {
    pub problems_dir: PathBuf,
    /// Start even when no problem loads (otherwise `serve` refuses, since an
    /// empty catalog is almost always a wrong folder).
    pub allow_empty: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LogFormat {
    Text,
    Json,
}

#[derive(Debug, Clone)]
pub struct LogConfig {
    pub filter: String,
    pub format: LogFormat,
}

impl Config {
    /// The bundled defaults alone.
    pub fn defaults() -> Result<Config, ConfigError> {
        Self::from_layers(
            &[("the bundled config.toml", DEFAULT_TOML)],
            std::iter::empty(),
        )
    }

    /// Defaults, then the file at `path` (or `config.toml` in the working
    /// directory if it exists), then the process environment.
    pub fn load(path: Option<&Path>) -> Result<Config, ConfigError> {
        let path = match path {
            Some(path) => Some(path.to_path_buf()),
            None => Some(PathBuf::from("config.toml")).filter(|p| p.is_file()),
        };
        let mut layers = vec![parse_layer("the bundled config.toml", DEFAULT_TOML)?];
        if let Some(path) = path {
            let text = std::fs::read_to_string(&path).map_err(|source| ConfigError::Read {
                path: path.clone(),
                source,
            })?;
            let mut table = parse_layer(&path.display().to_string(), &text)?;
            let folder = std::path::absolute(&path)
                .ok()
                .and_then(|p| p.parent().map(Path::to_path_buf))
                .unwrap_or_default();
            resolve_paths(&mut table, &folder);
            layers.push(table);
        }
        Self::merge(layers, std::env::vars())
    }

    /// Merges TOML layers (later wins, key by key) and `NIMJUDGE_*` variables,
    /// then validates. Relative paths are left as written.
    pub fn from_layers(
        layers: &[(&str, &str)],
        env: impl IntoIterator<Item = (String, String)>,
    ) -> Result<Config, ConfigError> {
        let layers = layers
            .iter()
            .map(|(origin, text)| parse_layer(origin, text))
            .collect::<Result<Vec<_>, _>>()?;
        Self::merge(layers, env)
    }

    fn merge(
        layers: Vec<toml::Table>,
        env: impl IntoIterator<Item = (String, String)>,
    ) -> Result<Config, ConfigError> {
        let mut merged = toml::Table::new();
        for table in layers {
            merge(&mut merged, table);
        }
        for (name, value) in env {
            let Some(rest) = name.strip_prefix(ENV_PREFIX) else {
                continue;
            };
            if CLIENT_VARIABLES.contains(&name.as_str())
                || FIXTURE_VARIABLES.contains(&name.as_str())
            {
                continue;
            }
            let Some((section, key)) = rest.split_once("__") else {
                return Err(ConfigError::EnvName(name));
            };
            if section.is_empty() || key.is_empty() {
                return Err(ConfigError::EnvName(name));
            }
            let entry = merged
                .entry(section.to_ascii_lowercase())
                .or_insert_with(|| toml::Value::Table(toml::Table::new()));
            let toml::Value::Table(section_table) = entry else {
                return Err(ConfigError::EnvName(name));
            };
            section_table.insert(key.to_ascii_lowercase(), env_value(&value));
        }
        let raw: RawConfig =
            merged
                .try_into()
                .map_err(|e: toml::de::Error| ConfigError::Parse {
                    origin: "the merged settings".to_string(),
                    message: e.to_string(),
                })?;
        raw.validate()
    }
}

/// One layer's text as a table; `origin` names it in errors.
fn parse_layer(origin: &str, text: &str) -> Result<toml::Table, ConfigError> {
    toml::from_str(text).map_err(|e| ConfigError::Parse {
        origin: origin.to_string(),
        message: e.to_string(),
    })
}

/// Makes the relative paths a config file sets (`database.url`,
/// `catalog.problems_dir`) relative to the file's folder.
fn resolve_paths(table: &mut toml::Table, folder: &Path) {
    if let Some(toml::Value::Table(database)) = table.get_mut("database")
        && let Some(toml::Value::String(url)) = database.get_mut("url")
    {
        *url = resolve_sqlite_url(url, folder);
    }
    if let Some(toml::Value::Table(sandbox)) = table.get_mut("sandbox")
        && let Some(toml::Value::String(dir)) = sandbox.get_mut("work_dir")
        && Path::new(dir.as_str()).is_relative()
    {
        *dir = folder.join(dir.as_str()).display().to_string();
    }
    if let Some(toml::Value::Table(catalog)) = table.get_mut("catalog")
        && let Some(toml::Value::String(dir)) = catalog.get_mut("problems_dir")
        && Path::new(dir.as_str()).is_relative()
    {
        *dir = folder.join(dir.as_str()).display().to_string();
    }
}

/// A `sqlite:` URL whose relative file path is made relative to `folder`.
/// Other URLs come back unchanged.
fn resolve_sqlite_url(url: &str, folder: &Path) -> String {
    let Some(rest) = url
        .strip_prefix("sqlite://")
        .or_else(|| url.strip_prefix("sqlite:"))
    else {
        return url.to_string();
    };
    let (file, query) = match rest.split_once('?') {
        Some((file, query)) => (file, Some(query)),
        None => (rest, None),
    };
    if file.is_empty() || file.starts_with(':') || Path::new(file).is_absolute() {
        return url.to_string();
    }
    let mut resolved = format!("sqlite://{}", folder.join(file).display());
    if let Some(query) = query {
        resolved.push('?');
        resolved.push_str(query);
    }
    resolved
}

impl RawConfig {
    /// Checks every value and converts it to its typed form.
    pub fn validate(self) -> Result<Config, ConfigError> {
        let invalid = |m: String| ConfigError::Invalid(m);
        let bind: SocketAddr = self
            .server
            .bind
            .parse()
            .map_err(|e| invalid(format!("server.bind `{}`: {e}", self.server.bind)))?;
        let body_limit_bytes = usize::try_from(self.server.body_limit_bytes)
            .ok()
            .filter(|&n| n >= 1024)
            .ok_or_else(|| invalid("server.body_limit_bytes must be at least 1024".into()))?;
        if self.server.request_timeout_ms <= self.server.max_wait_ms {
            return Err(invalid(format!(
                "server.request_timeout_ms ({}) must be above server.max_wait_ms ({}), so a long poll can finish",
                self.server.request_timeout_ms, self.server.max_wait_ms
            )));
        }
        let request_timeout = Duration::from_millis(self.server.request_timeout_ms);
        if !is_postgres_url(&self.database.url) && !self.database.url.starts_with("sqlite:") {
            // Only the scheme: the rest of a URL may hold a password.
            let scheme = self.database.url.split(':').next().unwrap_or_default();
            return Err(invalid(format!(
                "database.url must start with sqlite: or postgres:, not `{scheme}:`"
            )));
        }
        if self.database.url.contains(":memory:") || self.database.url.contains("mode=memory") {
            // Reads and writes use separate pools, which would see two
            // different in-memory databases.
            return Err(invalid(
                "database.url must name a file; in-memory SQLite is not supported".into(),
            ));
        }
        if self.database.read_connections == 0 {
            return Err(invalid("database.read_connections must be positive".into()));
        }
        let count = match self.worker.count {
            None => std::thread::available_parallelism().map_or(1, |n| n.get()),
            Some(n) => usize::try_from(n)
                .ok()
                .filter(|&n| n <= 1024)
                .ok_or_else(|| invalid("worker.count must be at most 1024".into()))?,
        };
        let timeout = |name: &str, millis: u64| {
            if millis == 0 {
                Err(invalid(format!("server.{name} must be positive")))
            } else {
                Ok(Duration::from_millis(millis))
            }
        };
        let connections = ConnectionLimits {
            keep_alive_timeout: timeout(
                "keep_alive_timeout_ms",
                self.server.keep_alive_timeout_ms,
            )?,
            header_read_timeout: timeout(
                "header_read_timeout_ms",
                self.server.header_read_timeout_ms,
            )?,
            body_read_timeout: timeout("body_read_timeout_ms", self.server.body_read_timeout_ms)?,
            max_connections: usize::try_from(self.server.max_connections)
                .ok()
                .filter(|&n| n > 0)
                .ok_or_else(|| invalid("server.max_connections must be positive".into()))?,
            max_connections_per_address: usize::try_from(self.server.max_connections_per_address)
                .ok()
                .filter(|&n| n > 0),
            shutdown_grace: Duration::from_millis(self.server.shutdown_grace_ms),
        };
        let limits = LimitsConfig {
            submissions_per_minute: (self.limits.submissions_per_minute > 0)
                .then_some(self.limits.submissions_per_minute),
            pending_submissions: (self.limits.pending_submissions > 0)
                .then_some(self.limits.pending_submissions),
            bytes_per_day: (self.limits.bytes_per_day > 0).then_some(self.limits.bytes_per_day),
            failed_auths_per_minute: (self.limits.failed_auths_per_minute > 0)
                .then_some(self.limits.failed_auths_per_minute),
        };
        if let Some(bytes) = limits.bytes_per_day
            && bytes < self.server.body_limit_bytes
        {
            return Err(invalid(format!(
                "limits.bytes_per_day ({bytes}) must be at least server.body_limit_bytes ({}), \
                 or 0 for no limit, so one submission of the largest size can be made",
                self.server.body_limit_bytes
            )));
        }
        if self.worker.lease_seconds == 0 {
            return Err(invalid("worker.lease_seconds must be positive".into()));
        }
        if self.worker.max_attempts == 0 {
            return Err(invalid("worker.max_attempts must be positive".into()));
        }
        if self.server.wait_recheck_ms == 0 {
            return Err(invalid("server.wait_recheck_ms must be positive".into()));
        }
        if self.worker.poll_interval_ms == 0 {
            return Err(invalid("worker.poll_interval_ms must be positive".into()));
        }
        let format = match self.log.format.as_str() {
            "text" => LogFormat::Text,
            "json" => LogFormat::Json,
            other => {
                return Err(invalid(format!(
                    "log.format `{other}` must be \"text\" or \"json\""
                )));
            }
        };
        let sandbox = validate_sandbox(&self.sandbox)?;
        let languages = self
            .languages
            .into_iter()
            .map(|(id, raw)| validate_language(&id, raw))
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Config {
            sandbox,
            languages,
            server: ServerConfig {
                bind,
                body_limit_bytes,
                max_wait: Duration::from_millis(self.server.max_wait_ms),
                wait_recheck: Duration::from_millis(self.server.wait_recheck_ms),
                request_timeout,
                connections,
                secure_cookies: self.server.secure_cookies,
            },
            database: DatabaseConfig {
                url: self.database.url,
                read_connections: self.database.read_connections,
                busy_timeout: Duration::from_millis(self.database.busy_timeout_ms),
            },
            worker: WorkerConfig {
                count,
                lease: Duration::from_secs(self.worker.lease_seconds),
                max_attempts: self.worker.max_attempts,
                poll_interval: Duration::from_millis(self.worker.poll_interval_ms),
                shutdown_grace: Duration::from_millis(self.worker.shutdown_grace_ms),
            },
            catalog: CatalogConfig {
                problems_dir: PathBuf::from(self.catalog.problems_dir),
                allow_empty: self.catalog.allow_empty,
            },
            limits,
            log: LogConfig {
                filter: self.log.filter,
                format,
            },
        })
    }
}

fn validate_sandbox(raw: &RawSandbox) -> Result<SandboxConfig, ConfigError> {
    let invalid = |m: &str| ConfigError::Invalid(format!("sandbox.{m}"));
    if raw.first_uid == 0 || raw.uid_count == 0 {
        return Err(invalid(
            "first_uid and uid_count must be positive (never root)",
        ));
    }
    if raw.first_uid.checked_add(raw.uid_count).is_none() {
        return Err(invalid("first_uid + uid_count overflows"));
    }
    let system_paths = raw
        .system_paths
        .iter()
        .map(|p| {
            let path = PathBuf::from(p);
            if path.is_absolute() {
                Ok(path)
            } else {
                Err(invalid(&format!("system_paths: `{p}` must be absolute")))
            }
        })
        .collect::<Result<Vec<_>, _>>()?;
    if raw.max_processes == 0 || raw.compile_processes == 0 {
        return Err(invalid(
            "max_processes and compile_processes must be positive",
        ));
    }
    if raw.output_limit_mib == 0 || raw.tmp_size_mib == 0 || raw.compile_memory_mib == 0 {
        return Err(invalid(
            "output_limit_mib, tmp_size_mib and compile_memory_mib must be positive",
        ));
    }
    if raw.compile_time_ms == 0 {
        return Err(invalid("compile_time_ms must be positive"));
    }
    Ok(SandboxConfig {
        work_dir: PathBuf::from(&raw.work_dir),
        first_uid: raw.first_uid,
        uid_count: raw.uid_count,
        system_paths,
        tmp_size_bytes: raw.tmp_size_mib << 20,
        max_processes: raw.max_processes,
        output_limit_bytes: raw.output_limit_mib << 20,
        compile_time: Duration::from_millis(raw.compile_time_ms),
        compile_memory_bytes: raw.compile_memory_mib << 20,
        compile_processes: raw.compile_processes,
    })
}

fn validate_language(id: &str, raw: RawLanguage) -> Result<LanguageConfig, ConfigError> {
    let invalid = |m: String| ConfigError::Invalid(format!("languages.{id}: {m}"));
    let id = id
        .parse::<LanguageId>()
        .map_err(|e| invalid(e.to_string()))?;
    if raw.run.is_empty() {
        return Err(invalid("run must name a program".into()));
    }
    if raw.compile.as_ref().is_some_and(Vec::is_empty)
        || raw.toolchain.as_ref().is_some_and(Vec::is_empty)
    {
        return Err(invalid(
            "compile and toolchain, when set, must name a program".into(),
        ));
    }
    let plain_name = |name: &str| {
        !name.is_empty() && !name.starts_with('.') && !name.contains(['/', '\\', '\0'])
    };
    if !plain_name(&raw.source_file) {
        return Err(invalid(format!(
            "source_file `{}` must be a plain file name",
            raw.source_file
        )));
    }
    if !(raw.time_multiplier.is_finite()
        && raw.time_multiplier >= 1.0
        && raw.time_multiplier <= 10.0)
    {
        return Err(invalid("time_multiplier must be between 1 and 10".into()));
    }
    Ok(LanguageConfig {
        id,
        name: raw.name,
        extensions: raw.extensions,
        source_file: raw.source_file,
        toolchain: raw.toolchain,
        compile: raw.compile,
        run: raw.run,
        time_multiplier: raw.time_multiplier,
    })
}

/// Merges `overlay` into `base`, recursing into tables so a layer can change
/// one key of a section without repeating the others.
fn merge(base: &mut toml::Table, overlay: toml::Table) {
    for (key, value) in overlay {
        match (base.get_mut(&key), value) {
            (Some(toml::Value::Table(existing)), toml::Value::Table(inner)) => {
                merge(existing, inner);
            }
            (_, value) => {
                base.insert(key, value);
            }
        }
    }
}

/// An environment value as TOML if it parses as a TOML value (`4`, `true`),
/// otherwise as a plain string (`127.0.0.1:0`, `sqlite://x.db`).
fn env_value(text: &str) -> toml::Value {
    toml::from_str::<toml::Table>(&format!("v = {text}"))
        .ok()
        .and_then(|mut t| t.remove("v"))
        .unwrap_or_else(|| toml::Value::String(text.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
        pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    }

    #[test]
    fn the_bundled_defaults_are_valid() {
        let config = Config::defaults().expect("defaults");
        assert_eq!(config.server.bind.to_string(), "127.0.0.1:8080");
        assert_eq!(config.database.url, "sqlite://data/nimjudge.db");
        assert_eq!(config.catalog.problems_dir, PathBuf::from("problems"));
        assert!(config.worker.count >= 1);
    }

    #[test]
    fn a_file_overrides_one_key_and_keeps_the_others() {
        let config = Config::from_layers(
            &[
                ("defaults", DEFAULT_TOML),
                ("file", "[worker]\ncount = 3\n"),
            ],
            Vec::new(),
        )
        .expect("config");
        assert_eq!(config.worker.count, 3);
        assert_eq!(config.worker.max_attempts, 3);
        assert_eq!(config.server.bind.port(), 8080);
    }

    #[test]
    fn environment_variables_override_the_file() {
        let config = Config::from_layers(
            &[
                ("defaults", DEFAULT_TOML),
                ("file", "[worker]\ncount = 3\n"),
            ],
            env(&[
                ("NIMJUDGE_SERVER__BIND", "127.0.0.1:0"),
                ("NIMJUDGE_DATABASE__URL", "sqlite://elsewhere.db"),
                ("NIMJUDGE_WORKER__COUNT", "0"),
                ("UNRELATED", "x"),
            ]),
        )
        .expect("config");
        assert_eq!(config.server.bind.port(), 0);
        assert_eq!(config.database.url, "sqlite://elsewhere.db");
        assert_eq!(config.worker.count, 0);
    }

    #[test]
    fn bad_values_are_named() {
        let err = Config::from_layers(
            &[("defaults", DEFAULT_TOML)],
            env(&[("NIMJUDGE_SERVER__BIND", "nowhere")]),
        )
        .expect_err("bad bind");
        assert!(err.to_string().contains("server.bind"), "{err}");
        let err = Config::from_layers(
            &[("defaults", DEFAULT_TOML), ("file", "[server]\nport = 1\n")],
            Vec::new(),
        )
        .expect_err("unknown key");
        assert!(err.to_string().contains("port"), "{err}");
        let err = Config::from_layers(
            &[("defaults", DEFAULT_TOML)],
            env(&[("NIMJUDGE_WORKER", "1")]),
        )
        .expect_err("bad name");
        assert!(matches!(err, ConfigError::EnvName(_)));
    }

    #[test]
    fn the_clients_variables_are_not_settings_but_typos_still_are_errors() {
        let config = Config::from_layers(
            &[("defaults", DEFAULT_TOML)],
            env(&[
                ("NIMJUDGE_TOKEN", "nj_secret"),
                ("NIMJUDGE_TEST_BACKEND", "postgres"),
                (
                    "NIMJUDGE_TEST_POSTGRES_URL",
                    "postgres://localhost/postgres",
                ),
                ("NIMJUDGE_SERVER", "http://127.0.0.1:9"),
            ]),
        )
        .expect("the client's variables are ignored");
        assert_eq!(config.server.bind.port(), 8080);
        let err = Config::from_layers(
            &[("defaults", DEFAULT_TOML)],
            env(&[("NIMJUDGE_SERVER_BIND", "127.0.0.1:0")]),
        )
        .expect_err("one underscore");
        assert!(matches!(err, ConfigError::EnvName(_)), "{err}");
    }

    #[test]
    fn relative_paths_in_a_config_file_are_relative_to_its_folder() {
        let dir = tempfile::tempdir().expect("temp dir");
        let folder = dir.path().join("site");
        std::fs::create_dir_all(&folder).expect("create");
        let file = folder.join("nimjudge.toml");
        std::fs::write(
            &file,
            "[database]\nurl = \"sqlite://db/judge.db?mode=rwc\"\n[catalog]\nproblems_dir = \"problems\"\n",
        )
        .expect("write");
        let config = Config::load(Some(&file)).expect("config");
        let folder = std::path::absolute(&folder).expect("absolute");
        assert_eq!(
            config.database.url,
            format!("sqlite://{}?mode=rwc", folder.join("db/judge.db").display())
        );
        assert_eq!(config.catalog.problems_dir, folder.join("problems"));
        // Absolute paths stay as written.
        assert_eq!(
            resolve_sqlite_url("sqlite:///var/lib/x.db", &folder),
            "sqlite:///var/lib/x.db"
        );
    }

    #[test]
    fn a_request_timeout_must_leave_room_for_the_longest_poll() {
        let err = Config::from_layers(
            &[("defaults", DEFAULT_TOML)],
            env(&[("NIMJUDGE_SERVER__REQUEST_TIMEOUT_MS", "30000")]),
        )
        .expect_err("equal to max_wait_ms");
        assert!(
            err.to_string().contains("server.request_timeout_ms"),
            "{err}"
        );
    }

    #[test]
    fn a_zero_limit_is_no_limit_and_a_daily_byte_limit_fits_one_largest_body() {
        let config = Config::from_layers(
            &[("defaults", DEFAULT_TOML)],
            env(&[("NIMJUDGE_LIMITS__PENDING_SUBMISSIONS", "0")]),
        )
        .expect("config");
        assert_eq!(config.limits.pending_submissions, None);
        assert_eq!(config.limits.submissions_per_minute, Some(20));
        let err = Config::from_layers(
            &[("defaults", DEFAULT_TOML)],
            env(&[("NIMJUDGE_LIMITS__BYTES_PER_DAY", "1000")]),
        )
        .expect_err("below the body limit");
        assert!(err.to_string().contains("limits.bytes_per_day"), "{err}");
        let err = Config::from_layers(
            &[("defaults", DEFAULT_TOML)],
            env(&[("NIMJUDGE_SERVER__HEADER_READ_TIMEOUT_MS", "0")]),
        )
        .expect_err("no header timeout");
        assert!(
            err.to_string().contains("server.header_read_timeout_ms"),
            "{err}"
        );
    }

    #[test]
    fn a_database_password_never_reaches_a_message() {
        let shown = |url: &str| {
            DatabaseConfig {
                url: url.into(),
                read_connections: 1,
                busy_timeout: Duration::from_secs(1),
            }
            .shown_url()
        };
        assert_eq!(
            shown("postgres://judge:s3cret@db.example:5432/nimjudge?sslmode=require"),
            "postgres://judge:***@db.example:5432/nimjudge?sslmode=require"
        );
        assert_eq!(
            shown("postgres://judge@db.example/nimjudge"),
            "postgres://judge@db.example/nimjudge"
        );
        assert_eq!(
            shown("sqlite://data/nimjudge.db"),
            "sqlite://data/nimjudge.db"
        );
    }
}
