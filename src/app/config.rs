//! `llmc config`: the documented example configuration (`example`, before any repository
//! or configuration is read), or the configuration in effect (`show`).

use anyhow::{Context as _, Result};

use super::{Ctx, print_out};
use crate::cli::{ConfigArgs, ConfigCommand};
use crate::error::Exit;

/// Runs `llmc config show` (and `example`, which `app::run` normally handles first).
pub fn cmd_config(ctx: &Ctx, args: &ConfigArgs) -> Result<Exit> {
    match args.command {
        ConfigCommand::Example => cmd_example(),
        ConfigCommand::Show => cmd_show(ctx),
    }
}

/// Prints `llmc.toml.example` as built into the binary: every key, its default and what
/// it does (`cargo install` does not install the file itself).
pub fn cmd_example() -> Result<Exit> {
    print_out(crate::config::EXAMPLE)?;
    Ok(Exit::Ok)
}

/// Prints every key with its value in effect, as TOML, after comments saying where the
/// values came from.
fn cmd_show(ctx: &Ctx) -> Result<Exit> {
    print_out(&show(ctx)?)?;
    Ok(Exit::Ok)
}

/// The text of `llmc config show`: valid TOML, so it can serve as an `llmc.toml`.
fn show(ctx: &Ctx) -> Result<String> {
    let mut out = format!(
        "# The configuration in effect at {}: the defaults, then (each overriding the\n\
         # one before) llmc.toml, LLMC_* variables and --config flags. This run's layers:\n",
        one_line(&ctx.root.display().to_string())
    );
    for source in &ctx.config_sources {
        out.push_str(&format!("#   {}\n", one_line(source)));
    }
    out.push_str("# What each key does: llmc config example\n\n");
    out.push_str(&toml::to_string(&ctx.config).context("writing the configuration as TOML")?);
    Ok(out)
}

/// `text` on one line, so a comment stays a comment (a path or flag may hold a newline).
fn one_line(text: &str) -> String {
    text.replace('\r', "\\r").replace('\n', "\\n")
}
