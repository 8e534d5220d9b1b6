//! Loading of the `key = value` configuration file.

use std::fs;

/// Worker count used when the file does not set one.
pub const DEFAULT_WORKERS: usize = 4;

/// Parsed configuration for one planning run.
#[derive(Debug, Clone, PartialEq)]
pub struct Config {
    /// Number of workers to plan for.
    pub workers: usize,
    /// Task names, in file order.
    pub tasks: Vec<String>,
}

/// Errors that can occur while loading a configuration.
#[derive(Debug)]
pub enum ConfigError {
    /// The file could not be read.
    Io(std::io::Error),
    /// A line was not of the form `key = value`.
    Syntax { line: usize },
}

impl std::fmt::Display for ConfigError {
    /// Formats the error for humans.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ConfigError::Io(e) => write!(f, "io: {e}"),
            ConfigError::Syntax { line } => write!(f, "syntax error on line {line}"),
        }
    }
}

/// Reads and parses the configuration file at `path`.
pub fn load(path: &str) -> Result<Config, ConfigError> {
    let text = fs::read_to_string(path).map_err(ConfigError::Io)?;
    parse(&text)
}

/// Parses configuration text into a [`Config`].
pub fn parse(text: &str) -> Result<Config, ConfigError> {
    let mut cfg = Config { workers: DEFAULT_WORKERS, tasks: Vec::new() };
    let mut line_no = 0;
    for raw in text.lines() {
        line_no += 1;
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let Some((key, value)) = line.split_once('=') else {
            return Err(ConfigError::Syntax { line: line_no });
        };
        match key.trim() {
            "workers" => cfg.workers = value.trim().parse().unwrap_or(DEFAULT_WORKERS),
            "task" => cfg.tasks.push(value.trim().to_string()),
            _ => return Err(ConfigError::Syntax { line: line_no }),
        }
    }
    Ok(cfg)
}
