//! Daemon settings: defaults, then `config.toml`, then environment variables.
//!
//! The shipped `config.toml` is compiled in as the defaults, so every key is
//! documented in one place. Loading is two steps, like ripgrep's low-level and
//! high-level arguments: the layers are merged as raw TOML tables and
//! deserialised into [`RawConfig`], which is then validated into [`Config`],
//! whose fields carry their invariants (a parsed socket address, a positive
//! lease). This module does no I/O besides reading the config file.

use std::{
    net::SocketAddr,
    path::{Path, PathBuf},
    time::Duration,
};

use serde::Deserialize;

/// The bundled `config.toml`: the defaults.
pub const DEFAULT_TOML: &str = include_str!("../config.toml");

/// Prefix of the environment variables that override settings.
pub const ENV_PREFIX: &str = "NIMJUDGE_";

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
    pub log: RawLog,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawServer {
    pub bind: String,
    pub body_limit_bytes: u64,
    pub max_wait_ms: u64,
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
    pub log: LogConfig,
}

#[derive(Debug, Clone)]
pub struct ServerConfig {
    pub bind: SocketAddr,
    pub body_limit_bytes: usize,
    pub max_wait: Duration,
}

#[derive(Debug, Clone)]
pub struct DatabaseConfig {
    /// A `sqlite://` URL.
    pub url: String,
    pub read_connections: u32,
    pub busy_timeout: Duration,
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
        let (origin, file) = match path {
            Some(path) => (path.to_path_buf(), Some(read(path)?)),
            None => {
                let path = PathBuf::from("config.toml");
                let text = path.is_file().then(|| read(&path)).transpose()?;
                (path, text)
            }
        };
        let origin = origin.display().to_string();
        let mut layers = vec![("the bundled config.toml", DEFAULT_TOML)];
        if let Some(text) = file.as_deref() {
            layers.push((origin.as_str(), text));
        }
        Self::from_layers(&layers, std::env::vars())
    }

    /// Merges TOML layers (later wins, key by key) and `NIMJUDGE_*` variables,
    /// then validates.
    pub fn from_layers(
        layers: &[(&str, &str)],
        env: impl IntoIterator<Item = (String, String)>,
    ) -> Result<Config, ConfigError> {
        let mut merged = toml::Table::new();
        for (origin, text) in layers {
            let table: toml::Table = toml::from_str(text).map_err(|e| ConfigError::Parse {
                origin: (*origin).to_string(),
                message: e.to_string(),
            })?;
            merge(&mut merged, table);
        }
        for (name, value) in env {
            let Some(rest) = name.strip_prefix(ENV_PREFIX) else {
                continue;
            };
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
        if !self.database.url.starts_with("sqlite:") {
            return Err(invalid(format!(
                "database.url `{}` must be a sqlite: URL",
                self.database.url
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
        if self.worker.lease_seconds == 0 {
            return Err(invalid("worker.lease_seconds must be positive".into()));
        }
        if self.worker.max_attempts == 0 {
            return Err(invalid("worker.max_attempts must be positive".into()));
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
        Ok(Config {
            server: ServerConfig {
                bind,
                body_limit_bytes,
                max_wait: Duration::from_millis(self.server.max_wait_ms),
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
            },
            log: LogConfig {
                filter: self.log.filter,
                format,
            },
        })
    }
}

fn read(path: &Path) -> Result<String, ConfigError> {
    std::fs::read_to_string(path).map_err(|source| ConfigError::Read {
        path: path.to_path_buf(),
        source,
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
}
