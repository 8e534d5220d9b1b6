//! The labelled set's file: one JSON object per line, read with serde (unknown keys
//! refused, every value's type checked with a message naming its key), then the checks
//! no type can make. A bad line is an [`LlmcError::EvalFile`] naming the file, the line
//! and the problem.
//!
//! A line: `question` (required), `gold` (one item or a list), `intent` or `intents`,
//! `answerable` (default true), `note`. A gold item: `{path, line}`,
//! `{path, start_line, end_line}`, `{path}`, `{symbol}` (optionally with `path`) or
//! `{commit}`, each with an optional `grade`.

use std::path::Path;

use anyhow::{Context, Result};
use serde::de::Error as _;
use serde::{Deserialize, Deserializer, Serialize};
use serde_json::Value;

use crate::error::LlmcError;
use crate::model::Intent;

/// What a gold item points at.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(untagged)]
pub enum Target {
    /// One line of a file: found when a source covers it.
    Line { path: String, line: u32 },
    /// A range of a file: found when a source overlaps it.
    Range {
        path: String,
        start_line: u32,
        end_line: u32,
    },
    /// A definition by (qualified) name, optionally in one file.
    Symbol {
        symbol: String,
        #[serde(skip_serializing_if = "Option::is_none")]
        path: Option<String>,
    },
    /// A whole file: found when a source lies in it.
    Path { path: String },
    /// A commit, by its hash or a prefix of it.
    Commit { commit: String },
}

/// One gold item and its grade (relevance; 1 unless the file says otherwise).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Gold {
    #[serde(flatten)]
    pub target: Target,
    pub grade: f64,
}

/// One labelled question.
#[derive(Debug, Clone, PartialEq)]
pub struct Case {
    /// 1-based line in the file.
    pub line: usize,
    pub question: String,
    pub gold: Vec<Gold>,
    /// The intents the question should be routed to; empty when not labelled.
    pub intents: Vec<Intent>,
    /// False for a question the repository cannot answer: llmc should abstain.
    pub answerable: bool,
}

/// One line of the file as written: serde checks the keys (an unknown one is an error
/// naming it) and each value's type, with a message naming the key.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawCase {
    #[serde(deserialize_with = "question")]
    question: String,
    /// One gold item or a list of them; each is read by [`RawGold`] with its number.
    #[serde(default)]
    gold: Option<Value>,
    #[serde(default, deserialize_with = "one_intent")]
    intent: Option<Intent>,
    #[serde(default, deserialize_with = "intent_list")]
    intents: Option<Vec<Intent>>,
    #[serde(default, deserialize_with = "answerable")]
    answerable: Option<bool>,
    /// Free text for the reader of the file: accepted, not read.
    #[serde(default, rename = "note")]
    _note: Option<serde::de::IgnoredAny>,
}

/// One gold item as written; which combination of keys it has decides its [`Target`].
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawGold {
    #[serde(default, deserialize_with = "path")]
    path: Option<String>,
    #[serde(default, deserialize_with = "symbol")]
    symbol: Option<String>,
    #[serde(default, deserialize_with = "commit")]
    commit: Option<String>,
    #[serde(default, deserialize_with = "line")]
    line: Option<u32>,
    #[serde(default, deserialize_with = "start_line")]
    start_line: Option<u32>,
    #[serde(default, deserialize_with = "end_line")]
    end_line: Option<u32>,
    #[serde(default, deserialize_with = "grade")]
    grade: Option<f64>,
}

/// Reads a labelled set: one JSON object per line, blank lines skipped.
pub fn load(path: &Path) -> Result<Vec<Case>> {
    let text = std::fs::read_to_string(path)
        .with_context(|| format!("reading the eval file {}", path.display()))?;
    parse(&path.display().to_string(), &text)
}

/// Parses a labelled set; `file` names it in errors.
pub fn parse(file: &str, text: &str) -> Result<Vec<Case>> {
    let mut cases = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        if raw.trim().is_empty() {
            continue;
        }
        let case = parse_case(i + 1, raw).map_err(|problem| LlmcError::EvalFile {
            file: file.to_string(),
            line: i + 1,
            problem,
        })?;
        cases.push(case);
    }
    if cases.is_empty() {
        return Err(LlmcError::EvalFile {
            file: file.to_string(),
            line: 0,
            problem: "no question in the file".into(),
        }
        .into());
    }
    Ok(cases)
}

/// One line: JSON first (a syntax error says where), then the keys and types (serde),
/// then what no type can say (which gold form, a question with nothing to check).
fn parse_case(line: usize, raw: &str) -> std::result::Result<Case, String> {
    let value: Value = serde_json::from_str(raw).map_err(|e| format!("not JSON: {e}"))?;
    if !value.is_object() {
        return Err("expected a JSON object".into());
    }
    // Deserialized from a `Value`, serde's messages carry no position: the line is the
    // position.
    let case = RawCase::deserialize(value).map_err(|e| e.to_string())?;
    let answerable = case.answerable.unwrap_or(true);
    let gold = match case.gold {
        None | Some(Value::Null) => Vec::new(),
        Some(Value::Array(items)) => items
            .into_iter()
            .enumerate()
            .map(|(n, g)| gold(g).map_err(|e| format!("gold item {}: {e}", n + 1)))
            .collect::<std::result::Result<Vec<_>, _>>()?,
        Some(g) => vec![gold(g)?],
    };
    if answerable && gold.is_empty() && case.intent.is_none() && case.intents.is_none() {
        return Err("nothing to check: give `gold`, `intent` or `\"answerable\": false`".into());
    }
    if !answerable && !gold.is_empty() {
        return Err("`\"answerable\": false` with gold items: which is it?".into());
    }
    let mut intents = match (case.intent, case.intents) {
        (Some(_), Some(_)) => return Err("give `intent` or `intents`, not both".into()),
        (Some(i), None) => vec![i],
        (None, Some(is)) => is,
        (None, None) => Vec::new(),
    };
    intents.sort();
    intents.dedup();
    Ok(Case {
        line,
        question: case.question,
        gold,
        intents,
        answerable,
    })
}

/// One gold item: its keys and types by serde, then which form it is.
fn gold(v: Value) -> std::result::Result<Gold, String> {
    if !v.is_object() {
        return Err("a gold item must be an object like {\"path\": …, \"line\": …}".into());
    }
    let g = RawGold::deserialize(v).map_err(|e| e.to_string())?;
    let target = match (g.path, g.symbol, g.commit, g.line, g.start_line, g.end_line) {
        (None, None, Some(commit), None, None, None) => {
            if !commit.chars().all(|c| c.is_ascii_hexdigit()) || commit.len() < 4 {
                return Err(format!(
                    "`commit` must be a hash or a prefix of 4 or more hex digits, not {commit:?}"
                ));
            }
            Target::Commit {
                commit: commit.to_ascii_lowercase(),
            }
        }
        (path, Some(symbol), None, None, None, None) => Target::Symbol { symbol, path },
        (Some(path), None, None, Some(line), None, None) => Target::Line { path, line },
        (Some(path), None, None, None, Some(start_line), Some(end_line)) => {
            if end_line < start_line {
                return Err(format!(
                    "`end_line` {end_line} is before `start_line` {start_line}"
                ));
            }
            Target::Range {
                path,
                start_line,
                end_line,
            }
        }
        (Some(path), None, None, None, None, None) => Target::Path { path },
        _ => {
            return Err("a gold item is one of {path, line}, {path, start_line, end_line}, {path}, {symbol} (optionally with path) or {commit}".into());
        }
    };
    Ok(Gold {
        target,
        grade: g.grade.unwrap_or(1.0),
    })
}

// The value readers serde calls per key, so that a wrong value's message names its key
// in the words of the file format.

fn question<'de, D: Deserializer<'de>>(d: D) -> std::result::Result<String, D::Error> {
    match Value::deserialize(d)? {
        Value::String(q) if !q.trim().is_empty() => Ok(q),
        Value::String(_) => Err(D::Error::custom("`question` is empty")),
        _ => Err(D::Error::custom("`question` must be a string")),
    }
}

fn answerable<'de, D: Deserializer<'de>>(d: D) -> std::result::Result<Option<bool>, D::Error> {
    match Value::deserialize(d)? {
        Value::Bool(b) => Ok(Some(b)),
        _ => Err(D::Error::custom("`answerable` must be true or false")),
    }
}

fn one_intent<'de, D: Deserializer<'de>>(d: D) -> std::result::Result<Option<Intent>, D::Error> {
    intent_named(&Value::deserialize(d)?)
        .map(Some)
        .map_err(D::Error::custom)
}

fn intent_list<'de, D: Deserializer<'de>>(
    d: D,
) -> std::result::Result<Option<Vec<Intent>>, D::Error> {
    match Value::deserialize(d)? {
        Value::Array(vs) => vs
            .iter()
            .map(intent_named)
            .collect::<std::result::Result<Vec<_>, _>>()
            .map(Some)
            .map_err(D::Error::custom),
        _ => Err(D::Error::custom("`intents` must be a list of intents")),
    }
}

fn intent_named(v: &Value) -> std::result::Result<Intent, String> {
    let names = || {
        Intent::ALL
            .iter()
            .map(|i| i.as_str())
            .collect::<Vec<_>>()
            .join(", ")
    };
    let Value::String(s) = v else {
        return Err(format!("an intent must be a string, one of {}", names()));
    };
    Intent::parse(s).ok_or_else(|| format!("unknown intent `{s}` (expected one of {})", names()))
}

fn non_empty<'de, D: Deserializer<'de>>(
    d: D,
    key: &str,
) -> std::result::Result<Option<String>, D::Error> {
    match Value::deserialize(d)? {
        Value::String(s) if !s.is_empty() => Ok(Some(s)),
        _ => Err(D::Error::custom(format!(
            "`{key}` must be a non-empty string"
        ))),
    }
}

fn line_number<'de, D: Deserializer<'de>>(
    d: D,
    key: &str,
) -> std::result::Result<Option<u32>, D::Error> {
    Value::deserialize(d)?
        .as_u64()
        .filter(|n| *n >= 1)
        .and_then(|n| u32::try_from(n).ok())
        .map(Some)
        .ok_or_else(|| D::Error::custom(format!("`{key}` must be a line number (1 or more)")))
}

fn path<'de, D: Deserializer<'de>>(d: D) -> std::result::Result<Option<String>, D::Error> {
    non_empty(d, "path")
}

fn symbol<'de, D: Deserializer<'de>>(d: D) -> std::result::Result<Option<String>, D::Error> {
    non_empty(d, "symbol")
}

fn commit<'de, D: Deserializer<'de>>(d: D) -> std::result::Result<Option<String>, D::Error> {
    non_empty(d, "commit")
}

fn line<'de, D: Deserializer<'de>>(d: D) -> std::result::Result<Option<u32>, D::Error> {
    line_number(d, "line")
}

fn start_line<'de, D: Deserializer<'de>>(d: D) -> std::result::Result<Option<u32>, D::Error> {
    line_number(d, "start_line")
}

fn end_line<'de, D: Deserializer<'de>>(d: D) -> std::result::Result<Option<u32>, D::Error> {
    line_number(d, "end_line")
}

fn grade<'de, D: Deserializer<'de>>(d: D) -> std::result::Result<Option<f64>, D::Error> {
    Value::deserialize(d)?
        .as_f64()
        .filter(|g| *g > 0.0 && g.is_finite())
        .map(Some)
        .ok_or_else(|| D::Error::custom("`grade` must be a number above 0"))
}
