//! The commands: each `cmd_*` resolves its arguments, calls the library and prints the
//! result. Only this module writes to stdout and stderr.

pub mod ask;
pub mod eval;
pub mod graph;
pub mod index;
pub mod log;
pub mod search;
pub mod status;

use std::io::Write as _;
use std::path::PathBuf;

use anyhow::Result;

use crate::cli::{Cli, Command};
use crate::config::{self, Config};
use crate::error::Exit;

/// The JSON output format's version, in every JSON document llmc prints.
pub const SCHEMA_VERSION: u32 = 1;

/// What every command needs.
pub struct Ctx {
    pub root: PathBuf,
    pub config: Config,
    pub quiet: bool,
}

impl Ctx {
    /// Prints a status line on stderr unless quiet.
    pub fn note(&self, msg: &str) {
        if !self.quiet {
            eprintln!("{msg}");
        }
    }
}

/// Runs a parsed command line.
pub fn run(cli: Cli) -> Result<Exit> {
    let start = match &cli.dir {
        Some(d) => d.clone(),
        None => std::env::current_dir()?,
    };
    let root = crate::root::find_root(&start)?;
    let config = config::load(&root, std::env::vars(), &cli.config)?;
    let ctx = Ctx {
        root,
        config,
        quiet: cli.quiet,
    };
    match &cli.command {
        Command::Ask(args) => ask::cmd_ask(&ctx, args),
        Command::Index(args) => index::cmd_index(&ctx, args),
        Command::Status(args) => status::cmd_status(&ctx, args),
        Command::Graph(args) => graph::cmd_graph(&ctx, args),
        Command::Log(args) => log::cmd_log(&ctx, args),
        Command::Search(args) => search::cmd_search(&ctx, args),
        Command::Eval(args) => eval::cmd_eval(&ctx, args),
    }
}

/// Writes to stdout; a closed pipe is not an error.
pub fn print_out(text: &str) -> Result<()> {
    let mut out = std::io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        other => Ok(other?),
    }
}

/// Writes one JSON document (with `schema_version`) and a newline to stdout.
pub fn print_json(value: serde_json::Value) -> Result<()> {
    let mut value = value;
    if let serde_json::Value::Object(map) = &mut value {
        map.insert("schema_version".into(), SCHEMA_VERSION.into());
    }
    print_out(&format!("{}\n", serde_json::to_string_pretty(&value)?))
}
