//! llmc answers questions about a git repository with exact sources, a confidence and a
//! trace. This crate holds all of it; `main.rs` only calls [`main_with_args`].
//!
//! Data flows `cli → app → index → store → model`; see ARCHITECTURE.md for the map.

mod alloc;
pub mod app;
pub mod ask;
pub mod budget;
pub mod cli;
pub mod config;
pub mod docs;
pub mod error;
pub mod eval;
pub mod graph;
pub mod history;
pub mod index;
pub mod interrupt;
pub mod llm;
pub mod model;
pub mod progress;
pub mod root;
pub mod search;
pub mod source;
pub mod store;
pub mod syntax;

use std::ffi::OsString;

use clap::Parser;

use error::Exit;

/// Whether a command line that clap could not parse asked for JSON: `--json` before any
/// `--` (after which every word is the question's).
fn wants_json(args: &[OsString]) -> bool {
    args.iter()
        .skip(1)
        .take_while(|a| *a != "--")
        .any(|a| a == "--json")
}

/// Parses `args`, runs the command and returns the process exit code. Errors are printed
/// here, once: as JSON on stdout when the command was asked for JSON, else on stderr.
pub fn main_with_args<I, T>(args: I) -> i32
where
    I: IntoIterator<Item = T>,
    T: Into<OsString> + Clone,
{
    alloc::tune();
    let args: Vec<OsString> = args.into_iter().map(Into::into).collect();
    let cli = match cli::Cli::try_parse_from(&args) {
        Ok(cli) => cli,
        Err(e) if e.use_stderr() && wants_json(&args) => {
            // A usage error of a command asked for JSON is JSON too, on stdout.
            let rendered = e.render().to_string();
            // The first paragraph: clap's "For more information, try '--help'" is for
            // a person at a terminal.
            let message = rendered
                .trim()
                .split("\n\n")
                .next()
                .unwrap_or_default()
                .trim_start_matches("error: ");
            let doc = serde_json::json!({
                "error": { "kind": "usage", "message": message }
            });
            let _ = app::print_json(doc);
            return Exit::Usage as i32;
        }
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
