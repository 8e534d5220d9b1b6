//! llmc answers questions about a git repository with exact sources, a confidence and a
//! trace. This crate holds all of it; `main.rs` only calls [`main_with_args`].
//!
//! Data flows `cli → app → index → store → model`; see ARCHITECTURE.md for the map.

mod alloc;
pub mod app;
pub mod ask;
pub mod cli;
pub mod config;
pub mod docs;
pub mod error;
pub mod eval;
pub mod graph;
pub mod history;
pub mod index;
pub mod llm;
pub mod model;
pub mod progress;
pub mod root;
pub mod search;
pub mod store;

use std::ffi::OsString;

use clap::Parser;

use error::Exit;

/// Parses `args`, runs the command and returns the process exit code. Errors are printed
/// here, once: as JSON on stdout when the command was asked for JSON, else on stderr.
pub fn main_with_args<I, T>(args: I) -> i32
where
    I: IntoIterator<Item = T>,
    T: Into<OsString> + Clone,
{
    alloc::tune();
    let cli = match cli::Cli::try_parse_from(args) {
        Ok(cli) => cli,
        Err(e) => {
            let code = if e.use_stderr() {
                Exit::Usage as i32
            } else {
                0
            };
            let _ = e.print();
            return code;
        }
    };
    let json = cli.command.json();
    let err_style = app::style::Style::for_stream(cli.color, app::style::Stream::Stderr);
    match app::run(cli) {
        Ok(exit) => exit as i32,
        Err(err) => {
            let (exit, kind) = error::classify(&err);
            if json {
                let doc = serde_json::json!({
                    "error": { "kind": kind, "message": format!("{err:#}") }
                });
                let _ = app::print_json(doc);
            } else {
                app::print_err(&format!("{} {err:#}", err_style.error("llmc:")));
            }
            exit as i32
        }
    }
}
