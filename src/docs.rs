//! The generated documentation: shell completion scripts (`clap_complete`) and the man page
//! (`clap_mangen` plus hand-written sections), all from the clap definition in `cli.rs`.
//! The committed copies under `completions/` and `man/` are checked against these by
//! `tests/it/generated.rs`, which rewrites them with `UPDATE_EXPECT=1`.

use clap::CommandFactory as _;
use clap_complete::{Generator as _, Shell};
use roff::{Roff, bold, italic, roman};

use crate::cli::Cli;

/// The binary's name in completions and the man page.
const BIN: &str = "llmc";

/// The shells `completions/` holds a script for.
pub const SHELLS: [Shell; 5] = [
    Shell::Bash,
    Shell::Zsh,
    Shell::Fish,
    Shell::PowerShell,
    Shell::Elvish,
];

/// The completion script for `shell`.
pub fn completion(shell: Shell) -> String {
    let mut buf = Vec::new();
    clap_complete::generate(shell, &mut Cli::command(), BIN, &mut buf);
    String::from_utf8_lossy(&buf).into_owned()
}

/// The man page `llmc.1`, in roff: the global options, then every command with its own
/// synopsis and options, exit status, environment and files.
pub fn man_page() -> String {
    let cmd = Cli::command();
    let man = clap_mangen::Man::new(cmd.clone());
    // Each rendered piece starts with the same preamble (an apostrophe string): keep one.
    let mut out = Roff::new().render();
    out.push_str(&render(|w| man.render_title(w)));
    out.push_str(&render(|w| man.render_name_section(w)));
    out.push_str(&render(|w| man.render_synopsis_section(w)));
    out.push_str(&render(|w| {
        Roff::new()
            .control("SH", ["DESCRIPTION"])
            .text([roman(DESCRIPTION)])
            .to_writer(w)
    }));
    out.push_str(&render(|w| man.render_options_section(w)));

    out.push_str(&Roff::new().control("SH", ["COMMANDS"]).render());
    for sub in cmd.get_subcommands().filter(|s| !s.is_hide_set()) {
        command_section(&mut out, sub, BIN);
    }
    out.push_str(&render(|w| extra_sections().to_writer(w)));
    out.push_str(&render(|w| man.render_version_section(w)));
    out
}

/// One command's `.SS` section (synopsis, description, options), then one for each of its
/// own subcommands (`llmc config example`).
fn command_section(out: &mut String, sub: &clap::Command, parent: &str) {
    let name = format!("{parent} {}", sub.get_name());
    let sub = sub.clone().bin_name(&name).disable_help_flag(true);
    let man = clap_mangen::Man::new(sub.clone());
    out.push_str(&render(|w| {
        Roff::new().control("SS", [name.as_str()]).to_writer(w)
    }));
    out.push_str(&body(&render(|w| man.render_synopsis_section(w))));
    out.push_str(&render(|w| Roff::new().control("PP", []).to_writer(w)));
    out.push_str(&body(&render(|w| man.render_description_section(w))));
    if sub.get_arguments().any(|a| !a.is_hide_set()) {
        out.push_str(&body(&render(|w| man.render_options_section(w))));
    }
    for inner in sub.get_subcommands().filter(|s| !s.is_hide_set()) {
        command_section(out, inner, &name);
    }
}

/// Every generated file as (path relative to the repository root, content).
pub fn generated() -> Vec<(String, String)> {
    let mut files: Vec<(String, String)> = SHELLS
        .iter()
        .map(|s| (format!("completions/{}", s.file_name(BIN)), completion(*s)))
        .collect();
    files.push(("man/llmc.1".to_string(), man_page()));
    files
}

const DESCRIPTION: &str = "llmc indexes the repository it is started in (found the way git finds it) \
into .llmc/ at its root: a code graph, the git history, a BM25 index and embeddings. The other \
commands query them. Results go to stdout, everything else to stderr; --json prints one JSON \
document on stdout, errors included.";

fn extra_sections() -> Roff {
    let mut r = Roff::new();
    r.control("SH", ["EXIT STATUS"]);
    for (code, meaning) in [
        ("0", "Success."),
        (
            "1",
            "Nothing found: no definition, edge, commit or hit matched.",
        ),
        (
            "2",
            "Usage or configuration error: a bad flag or value, an unknown configuration key, \
             a malformed llmc.toml.",
        ),
        (
            "3",
            "The index is missing or unusable: run llmc index (or llmc index --rebuild). \
             Also when the command needs a memory switched off under [index] (graph, \
             lexical, semantic): the message names the key.",
        ),
        (
            "130",
            "An index run stopped by Ctrl-C or SIGTERM at a safe point: nothing of it was \
             kept and the index is as it was before (a second signal ends it at once).",
        ),
    ] {
        r.control("TP", [])
            .text([bold(code)])
            .text([roman(meaning)]);
    }
    r.control("SH", ["ENVIRONMENT"]);
    r.control("TP", [])
        .text([bold("LLMC_"), italic("SECTION"), bold("_"), italic("KEY")])
        .text([roman(
            "Sets a configuration key, e.g. LLMC_INDEX_MAX_FILE_SIZE=2000000 for \
             index.max_file_size. Overrides llmc.toml; --config overrides it.",
        )]);
    r.control("TP", []).text([bold("NO_COLOR")]).text([roman(
        "When set and not empty, --color auto prints no colour.",
    )]);
    r.control("SH", ["FILES"]);
    r.control("TP", []).text([bold("llmc.toml")]).text([roman(
        "The configuration, at the repository root. llmc config example prints every \
             key with its default and meaning (llmc config example > llmc.toml to start \
             one); llmc config show prints the values in effect.",
    )]);
    r.control("TP", []).text([bold(".llmc/")]).text([roman(
        "The index, at the repository root; listed in .git/info/exclude.",
    )]);
    r.control("SH", ["SEE ALSO"]);
    r.text([bold("git"), roman("(1)")]);
    r
}

/// Renders one piece into a string, without the preamble every piece repeats.
fn render(f: impl FnOnce(&mut Vec<u8>) -> std::io::Result<()>) -> String {
    let mut buf = Vec::new();
    // Writing into a Vec cannot fail.
    let _ = f(&mut buf);
    let text = String::from_utf8_lossy(&buf);
    let preamble = Roff::new().render();
    text.strip_prefix(preamble.as_str())
        .unwrap_or(&text)
        .to_string()
}

/// A section without its `.SH` heading, to sit under a command's `.SS`.
fn body(section: &str) -> String {
    section
        .lines()
        .filter(|l| !l.starts_with(".SH"))
        .map(|l| format!("{l}\n"))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_man_page_documents_every_command_and_flag() {
        let page = man_page();
        let mut names: Vec<String> = Vec::new();
        for sub in Cli::command().get_subcommands() {
            names.push(sub.get_name().to_string());
            for inner in sub.get_subcommands() {
                names.push(format!("{} {}", sub.get_name(), inner.get_name()));
            }
        }
        assert!(names.contains(&"config example".to_string()), "{names:?}");
        for name in names {
            assert!(
                page.contains(&format!(".SS \"llmc {name}\"")),
                "no section for {name}"
            );
        }
        for flag in [
            "\\-\\-rebuild",
            "\\-\\-since",
            "\\-\\-color",
            "\\-\\-verbose",
        ] {
            assert!(page.contains(flag), "{flag} missing");
        }
        assert!(page.contains(".SH \"EXIT STATUS\""), "{page}");
        assert_eq!(page.matches(".TH").count(), 1, "one title");
    }

    #[test]
    fn every_shell_gets_a_script_naming_the_commands() {
        for shell in SHELLS {
            let script = completion(shell);
            assert!(script.contains("completions"), "{shell}: {script}");
            assert!(script.contains("graph"), "{shell}");
        }
    }
}
