//! The commands: each `cmd_*` resolves its arguments, calls the library and prints the
//! result. Only this module writes to stdout and stderr.

pub mod ask;
pub mod config;
pub mod docs;
pub mod eval;
pub mod graph;
pub mod index;
pub mod log;
pub mod mcp;
pub mod pages;
pub mod search;
pub mod status;
pub mod style;

use std::io::Write as _;
use std::path::PathBuf;

use anyhow::{Context as _, Result};

use crate::cli::{Cli, Command, ConfigCommand};
use crate::config::Config;
use crate::error::{Exit, LlmcError};
use style::{Stream, Style};

/// The JSON output format's version, in every JSON document llmc prints.
pub const SCHEMA_VERSION: u32 = 1;

/// What every command needs.
pub struct Ctx {
    pub root: PathBuf,
    /// Where llmc was started (`-C DIR` or the current directory) as a path from the root,
    /// `/`-separated, empty at the root: paths on the command line are read from there.
    pub prefix: String,
    pub config: Config,
    /// Where the settings came from, one line per layer that set something.
    pub config_sources: Vec<String>,
    pub quiet: bool,
    /// `--verbose`: [`Ctx::detail`] prints.
    pub verbose: bool,
    /// How to colour human output on stdout (never JSON).
    pub out: Style,
    /// How to colour stderr.
    pub err: Style,
}

impl Ctx {
    /// Prints a status line on stderr unless quiet.
    pub fn note(&self, msg: &str) {
        if !self.quiet {
            print_err(msg);
        }
    }

    /// Prints `warning: MSG` on stderr unless quiet.
    pub fn warn(&self, msg: &str) {
        if !self.quiet {
            print_err(&format!("{} {msg}", self.err.warn("warning:")));
        }
    }

    /// A path given on the command line as a path from the root, read from the directory
    /// llmc was started in (an absolute path inside the root is accepted too). `None` when
    /// that reading is the one the argument already has (started at the root) or when it
    /// leaves the root: the caller then takes the argument as a path from the root.
    pub fn from_start(&self, arg: &str) -> Option<String> {
        let arg = arg.trim();
        if arg.is_empty() {
            return None;
        }
        if std::path::Path::new(arg).is_absolute() {
            let rel = relative_dir(&self.root, std::path::Path::new(arg));
            return (!rel.is_empty() || same_dir(&self.root, std::path::Path::new(arg)))
                .then_some(rel);
        }
        if self.prefix.is_empty() {
            return None;
        }
        join_lexically(&self.prefix, arg)
    }

    /// A `--path` glob read from the directory llmc was started in and, as well, from the
    /// root: `*.rs` in `src/` matches `src/*.rs` and `*.rs`.
    pub fn scope_glob(&self, glob: &str) -> String {
        // A comma outside a group would split the alternation.
        if self.prefix.is_empty() || glob.starts_with('/') || glob.contains(',') {
            return glob.to_string();
        }
        format!("{{{}/{glob},{glob}}}", globset::escape(&self.prefix))
    }

    /// Prints a line of extra detail on stderr under `--verbose`.
    pub fn detail(&self, msg: &str) {
        if self.verbose {
            print_err(&self.err.dim(msg));
        }
    }
}

/// Runs a parsed command line.
pub fn run(cli: Cli) -> Result<Exit> {
    // These describe llmc itself: no repository, no configuration (a broken llmc.toml
    // must not stop `llmc config example`, which is how one writes a good one).
    match &cli.command {
        Command::Completions(args) => return docs::cmd_completions(args),
        Command::Man => return docs::cmd_man(),
        Command::Config(args) if args.command == ConfigCommand::Example => {
            return config::cmd_example();
        }
        _ => {}
    }
    let started = std::time::Instant::now();
    let start = match &cli.dir {
        Some(d) if !d.is_dir() => {
            let what = if d.exists() {
                "not a directory"
            } else {
                "no such directory"
            };
            return Err(LlmcError::Usage(format!(
                "-C {}: {what} (give the repository, or a directory inside it)",
                d.display()
            ))
            .into());
        }
        Some(d) => d.clone(),
        None => std::env::current_dir().context("reading the current directory")?,
    };
    let root = crate::root::find_root(&start)?;
    let (config, sources) = crate::config::load_with_sources(&root, std::env::vars(), &cli.config)?;
    let ctx = Ctx {
        prefix: relative_dir(&root, &start),
        root,
        config,
        config_sources: sources,
        quiet: cli.quiet,
        verbose: cli.verbose,
        out: Style::for_stream(cli.color, Stream::Stdout),
        err: Style::for_stream(cli.color, Stream::Stderr),
    };
    ctx.detail(&format!("root: {}", ctx.root.display()));
    for s in &ctx.config_sources {
        ctx.detail(&format!("config: {s}"));
    }
    let exit = dispatch(&ctx, &cli.command);
    if crate::store::opened_read_only() {
        ctx.note(&format!(
            "note: the index at {} is read-only for this user: answered from it as it is, \
             without refreshing it",
            crate::store::store_dir(&ctx.root).display()
        ));
    }
    ctx.detail(&format!("took {:.3}s", started.elapsed().as_secs_f64()));
    exit
}

fn dispatch(ctx: &Ctx, command: &Command) -> Result<Exit> {
    match command {
        Command::Ask(args) => ask::cmd_ask(ctx, args),
        Command::Eval(args) => eval::cmd_eval(ctx, args),
        Command::Index(args) => index::cmd_index(ctx, args),
        Command::Status(args) => status::cmd_status(ctx, args),
        Command::Graph(args) => graph::cmd_graph(ctx, args),
        Command::Log(args) => log::cmd_log(ctx, args),
        Command::Search(args) => search::cmd_search(ctx, args),
        Command::Completions(args) => docs::cmd_completions(args),
        Command::Man => docs::cmd_man(),
        Command::Config(args) => config::cmd_config(ctx, args),
        Command::Mcp(args) => mcp::cmd_mcp(ctx, args),
    }
}

/// `dir` as a `/`-separated path from `root`; empty when it is the root or outside it.
fn relative_dir(root: &std::path::Path, dir: &std::path::Path) -> String {
    let canon = |p: &std::path::Path| std::fs::canonicalize(p).unwrap_or_else(|_| p.to_path_buf());
    let (root, dir) = (canon(root), canon(dir));
    match dir.strip_prefix(&root) {
        Ok(rel) => rel
            .components()
            .map(|c| c.as_os_str().to_string_lossy())
            .collect::<Vec<_>>()
            .join("/"),
        Err(_) => String::new(),
    }
}

fn same_dir(a: &std::path::Path, b: &std::path::Path) -> bool {
    match (std::fs::canonicalize(a), std::fs::canonicalize(b)) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    }
}

/// `base/rel` with `.` and `..` taken away lexically (as a shell user means them), or
/// `None` when `..` climbs above the root.
fn join_lexically(base: &str, rel: &str) -> Option<String> {
    let mut parts: Vec<&str> = base.split('/').filter(|p| !p.is_empty()).collect();
    for seg in rel.split(['/', '\\']) {
        match seg {
            "" | "." => {}
            ".." => {
                parts.pop()?;
            }
            s => parts.push(s),
        }
    }
    Some(parts.join("/"))
}

/// Writes to stdout; a closed pipe is not an error. Control characters that are not
/// llmc's own are shown as escapes ([`style::terminal_safe`]).
pub fn print_out(text: &str) -> Result<()> {
    let text = style::terminal_safe(text);
    let mut out = std::io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        other => Ok(other?),
    }
}

/// Writes one JSON document (with `schema_version`) and a newline to stdout. A negative
/// zero (an empty sum of floats is one) is written as `0.0`.
pub fn print_json(value: serde_json::Value) -> Result<()> {
    print_out(&json_text(value))
}

/// One JSON document as [`print_json`] writes it: with `schema_version`, pretty, no
/// negative zero, a newline after it.
pub fn json_text(value: serde_json::Value) -> String {
    let mut value = value;
    if let serde_json::Value::Object(map) = &mut value {
        map.insert("schema_version".into(), SCHEMA_VERSION.into());
    }
    unsign_zeros(&mut value);
    let text = serde_json::to_string_pretty(&value).unwrap_or_else(|_| value.to_string());
    format!("{text}\n")
}

/// One JSON document compact, as `llmc mcp` returns it: with `schema_version`, no
/// negative zero.
pub fn json_compact(value: serde_json::Value) -> String {
    let mut value = value;
    if let serde_json::Value::Object(map) = &mut value {
        map.insert("schema_version".into(), SCHEMA_VERSION.into());
    }
    unsign_zeros(&mut value);
    value.to_string()
}

/// Replaces every `-0.0` in a JSON value by `0.0`.
fn unsign_zeros(value: &mut serde_json::Value) {
    use serde_json::Value;
    match value {
        Value::Number(n) if n.as_f64().is_some_and(|f| f == 0.0 && f.is_sign_negative()) => {
            *value = Value::from(0.0);
        }
        Value::Array(items) => items.iter_mut().for_each(unsign_zeros),
        Value::Object(map) => map.values_mut().for_each(unsign_zeros),
        _ => {}
    }
}

/// `v` itself, or `0.0` when it shows as zero with `decimals` digits after the point
/// (`-0.0`, or `-0.0004` with three): formatted with them, it never reads `-0.000`.
pub fn unsigned_zero(v: f64, decimals: usize) -> f64 {
    let shown = format!("{v:.decimals$}");
    if shown
        .trim_start_matches('-')
        .bytes()
        .all(|b| b == b'0' || b == b'.')
    {
        0.0
    } else {
        v
    }
}

/// `v` with `decimals` digits after the point, never `-0.000`.
pub fn fixed(v: f64, decimals: usize) -> String {
    format!("{:.decimals$}", unsigned_zero(v, decimals))
}

/// `v` with its sign (`+0.150`, `-0.033`) and `decimals` digits, never `-0.000`.
pub fn signed(v: f64, decimals: usize) -> String {
    format!("{:+.decimals$}", unsigned_zero(v, decimals))
}

/// Writes one line to stderr. A closed or failing stderr is ignored: there is nowhere left
/// to report it (`eprintln!` would panic).
pub fn print_err(line: &str) {
    let line = style::terminal_safe(line);
    let _ = writeln!(std::io::stderr().lock(), "{line}");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_number_prints_as_negative_zero() {
        assert_eq!(fixed(-0.0, 3), "0.000");
        assert_eq!(fixed(-0.0004, 3), "0.000");
        assert_eq!(fixed(-0.0006, 3), "-0.001");
        assert_eq!(fixed(-0.4, 0), "0");
        assert_eq!(fixed(0.25, 2), "0.25");
        assert_eq!(signed(-0.0, 3), "+0.000");
        assert_eq!(signed(-1e-17, 3), "+0.000");
        assert_eq!(signed(-0.033, 3), "-0.033");
        assert_eq!(signed(0.15, 3), "+0.150");
        assert_eq!(fixed(f64::NAN, 3), "NaN");
        let mut v = serde_json::json!({"a": -0.0, "b": [0.0, -0.0, -1.5], "c": {"d": -0.0}});
        unsign_zeros(&mut v);
        let text = serde_json::to_string(&v).expect("json");
        assert_eq!(text, r#"{"a":0.0,"b":[0.0,0.0,-1.5],"c":{"d":0.0}}"#);
    }
}
