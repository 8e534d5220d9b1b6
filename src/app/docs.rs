//! `llmc completions` and `llmc man`: the generated documentation on stdout.

use anyhow::Result;

use super::print_out;
use crate::cli::CompletionsArgs;
use crate::error::Exit;

/// Prints the completion script for a shell.
pub fn cmd_completions(args: &CompletionsArgs) -> Result<Exit> {
    print_out(&crate::docs::completion(args.shell))?;
    Ok(Exit::Ok)
}

/// Prints the man page.
pub fn cmd_man() -> Result<Exit> {
    print_out(&crate::docs::man_page())?;
    Ok(Exit::Ok)
}
