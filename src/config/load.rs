//! Loading: compiled-in defaults < `llmc.toml` at the root < `LLMC_*` environment
//! variables < `--config KEY=VALUE` flags, merged as TOML and checked on the way (unknown
//! keys with a "did you mean", types, then values) so that every error names the key and
//! where it came from.

use std::path::Path;

use anyhow::Result;
use toml::{Table, Value};

use super::validate::check_values;
use super::{CONFIG_FILE, Config};
use crate::error::LlmcError;

/// Loads the configuration for `root` with the given environment and `--config` flags.
pub fn load(
    root: &Path,
    env: impl IntoIterator<Item = (String, String)>,
    flags: &[String],
) -> Result<Config> {
    Ok(load_with_sources(root, env, flags)?.0)
}

/// [`load`], and where the settings came from, one line per layer that set something
/// (for `--verbose`).
pub fn load_with_sources(
    root: &Path,
    env: impl IntoIterator<Item = (String, String)>,
    flags: &[String],
) -> Result<(Config, Vec<String>)> {
    let path = root.join(CONFIG_FILE);
    let mut sources = Vec::new();
    let mut table = match std::fs::read_to_string(&path) {
        Ok(text) => text
            .parse::<Table>()
            .map_err(|e| LlmcError::Config(syntax_error(&path, &text, &e)))?,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            sources.push(format!("no {}: defaults", path.display()));
            Table::new()
        }
        Err(e) => {
            return Err(LlmcError::Config(format!("reading {}: {e}", path.display())).into());
        }
    };
    let known = known_keys();
    // Check the file's keys first, so the error names the file.
    let mut file_keys = Vec::new();
    for (section, value) in &table {
        let Some(inner) = value.as_table() else {
            let suffix = format!(".{section}");
            let hint = match known.iter().find(|k| k.ends_with(&suffix)) {
                Some(k) => format!(
                    "put it under [{}] (it is `{k}`)",
                    k.split('.').next().unwrap_or_default()
                ),
                None => "every key belongs to a section like [index]: see `llmc config example`"
                    .to_string(),
            };
            return Err(LlmcError::Config(format!(
                "{}: `{section}` is outside any section: {hint}",
                path.display()
            ))
            .into());
        };
        for (key, value) in inner {
            let full = format!("{section}.{key}");
            if !known.contains(&full) {
                return Err(unknown_key(&full, &path.display().to_string(), &known).into());
            }
            check_type(&full, value, &path.display().to_string())?;
            file_keys.push(full);
        }
    }
    if path.is_file() {
        sources.push(format!("{} ({})", path.display(), listed(&file_keys)));
    }
    let mut env: Vec<(String, String)> = env
        .into_iter()
        .filter(|(k, _)| k.starts_with("LLMC_"))
        .collect();
    env.sort();
    for (var, raw) in env {
        let key =
            env_key(&var, &known).ok_or_else(|| unknown_key(&var, "the environment", &known))?;
        let value = parse_value(&raw);
        check_type(&key, &value, &var)?;
        sources.push(format!("environment {var} ({key})"));
        set(&mut table, &key, value);
    }
    for flag in flags {
        let (key, raw) = flag.split_once('=').ok_or_else(|| {
            LlmcError::Config(format!(
                "--config {flag}: expected KEY=VALUE, e.g. --config index.max_file_size=2000000"
            ))
        })?;
        let key = key.trim();
        if !known.iter().any(|k| k == key) {
            return Err(unknown_key(key, "--config", &known).into());
        }
        let value = parse_value(raw.trim());
        check_type(key, &value, "--config")?;
        sources.push(format!("--config {flag}"));
        set(&mut table, key, value);
    }
    check_values(&table)?;
    let config: Config = Value::Table(table)
        .try_into()
        .map_err(|e: toml::de::Error| {
            LlmcError::Config(format!(
                "invalid configuration ({} and overrides): {}",
                path.display(),
                e.message().trim()
            ))
        })?;
    config.validate()?;
    Ok((config, sources))
}

fn listed(keys: &[String]) -> String {
    if keys.is_empty() {
        "sets no key".to_string()
    } else {
        keys.join(", ")
    }
}

/// `llmc.toml:3:7: expected ...`, from a TOML parse error and the text it came from.
fn syntax_error(path: &Path, text: &str, e: &toml::de::Error) -> String {
    let at = e
        .span()
        .map(|span| {
            let before = text.get(..span.start).unwrap_or(text);
            let line = before.matches('\n').count() + 1;
            let col = before
                .rfind('\n')
                .map_or(before.len(), |i| before.len() - i - 1)
                + 1;
            format!(":{line}:{col}")
        })
        .unwrap_or_default();
    format!(
        "{}{at}: not valid TOML: {} (fix the file; `llmc config example` shows every key)",
        path.display(),
        e.message().trim()
    )
}

/// Every key as `section.key`, from the defaults.
pub fn known_keys() -> Vec<String> {
    let mut keys = Vec::new();
    if let Ok(Value::Table(t)) = Value::try_from(Config::default()) {
        for (section, v) in t {
            if let Value::Table(inner) = v {
                keys.extend(inner.keys().map(|k| format!("{section}.{k}")));
            }
        }
    }
    keys.sort();
    keys
}

/// Checks that `value` has the type of `key`'s default, naming the key and its source.
fn check_type(key: &str, value: &Value, source: &str) -> Result<(), LlmcError> {
    let default = Value::try_from(Config::default()).ok().and_then(|t| {
        let (section, k) = key.split_once('.')?;
        t.get(section)?.get(k).cloned()
    });
    let Some(default) = default else {
        return Ok(());
    };
    let ok = match (&default, value) {
        (Value::Integer(_), Value::Integer(n)) => *n >= 0,
        (Value::Float(_), Value::Integer(_)) => true,
        (a, b) => a.type_str() == b.type_str(),
    };
    if ok {
        Ok(())
    } else {
        let expected = match default {
            Value::Integer(_) => "a non-negative integer",
            Value::Boolean(_) => "true or false",
            Value::String(_) => "a string",
            Value::Float(_) => "a number",
            _ => "a list",
        };
        Err(LlmcError::Config(format!(
            "`{key}` in {source} must be {expected}, not {value}"
        )))
    }
}

/// `LLMC_INDEX_MAX_FILE_SIZE` → `index.max_file_size`.
fn env_key(var: &str, known: &[String]) -> Option<String> {
    let rest = var.strip_prefix("LLMC_")?.to_ascii_lowercase();
    known
        .iter()
        .find(|k| k.replacen('.', "_", 1) == rest)
        .cloned()
}

/// The most known keys an unknown-key error lists.
const NEAREST: usize = 3;

fn unknown_key(key: &str, source: &str, known: &[String]) -> LlmcError {
    // The environment names a variable, the rest a key; compare like with like, and
    // name keys the way the source spells them.
    let env = key.starts_with("LLMC_");
    let as_key = key
        .strip_prefix("LLMC_")
        .map_or_else(|| key.to_string(), |rest| rest.to_ascii_lowercase());
    let spelled = |k: &str| {
        if env {
            format!("LLMC_{}", k.replacen('.', "_", 1).to_ascii_uppercase())
        } else {
            k.to_string()
        }
    };
    // Within the key's section when it names one, else among every key (also by the key
    // alone: `threads` is near `index.threads`).
    let section = as_key.split(['.', '_']).next().unwrap_or("");
    let in_section: Vec<&String> = known
        .iter()
        .filter(|k| k.split('.').next() == Some(section))
        .collect();
    let section_known = !in_section.is_empty();
    let pool: Vec<&String> = if section_known {
        in_section
    } else {
        known.iter().collect()
    };
    let mut nearest: Vec<(usize, &String)> = pool
        .into_iter()
        .map(|k| {
            let candidate = if env {
                k.replacen('.', "_", 1)
            } else {
                k.clone()
            };
            let mut d = strsim::levenshtein(&as_key, &candidate);
            if !section_known && let Some((_, alone)) = k.split_once('.') {
                d = d.min(strsim::levenshtein(&as_key, alone));
            }
            (d, k)
        })
        .collect();
    nearest.sort();
    nearest.truncate(NEAREST);
    let hint = match nearest.first() {
        Some((d, k)) if *d <= 3 => format!("did you mean `{}`? ", spelled(k)),
        _ => String::new(),
    };
    let names: Vec<String> = nearest
        .iter()
        .map(|(_, k)| format!("`{}`", spelled(k)))
        .collect();
    let listing = if section_known {
        format!("nearest in [{section}]: {}", names.join(", "))
    } else {
        let mut sections: Vec<&str> = known.iter().filter_map(|k| k.split('.').next()).collect();
        sections.dedup();
        format!(
            "no section is called `{section}` (the sections are {}); nearest keys: {}",
            sections.join(", "),
            names.join(", ")
        )
    };
    LlmcError::Config(format!(
        "unknown configuration key `{key}` in {source}: {hint}{listing}; every key is \
         documented by `llmc config example`"
    ))
}

fn parse_value(raw: &str) -> Value {
    format!("v = {raw}")
        .parse::<Table>()
        .ok()
        .and_then(|mut t| t.remove("v"))
        .unwrap_or_else(|| Value::String(raw.to_string()))
}

fn set(table: &mut Table, key: &str, value: Value) {
    let Some((section, k)) = key.split_once('.') else {
        return;
    };
    let entry = table
        .entry(section.to_string())
        .or_insert_with(|| Value::Table(Table::new()));
    if let Value::Table(t) = entry {
        t.insert(k.to_string(), value);
    }
}
