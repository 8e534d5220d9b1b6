//! The committed shell completions and man page: current with the clap definition, printed
//! by the binary, and loadable by the shells and `man` that are installed here.
//!
//! Regenerate them after changing `src/cli.rs` with
//! `UPDATE_EXPECT=1 cargo test --test integration generated` (expect-test rewrites the
//! files it compares with).

use std::path::{Path, PathBuf};
use std::process::Command;

use expect_test::expect_file;

use crate::util::{Scratch, stderr, stdout};

const REGENERATE: &str = "UPDATE_EXPECT=1 cargo test --test integration generated";

fn source_tree() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).to_path_buf()
}

fn committed(rel: &str) -> PathBuf {
    source_tree().join(rel)
}

#[test]
fn generated_files_are_current() {
    let generated: std::collections::HashMap<String, String> =
        llmc::docs::generated().into_iter().collect();
    // One snapshot per committed file (expect_file! paths are relative to this file).
    let files = [
        (
            "completions/llmc.bash",
            expect_file!["../../completions/llmc.bash"],
        ),
        ("completions/_llmc", expect_file!["../../completions/_llmc"]),
        (
            "completions/llmc.fish",
            expect_file!["../../completions/llmc.fish"],
        ),
        (
            "completions/_llmc.ps1",
            expect_file!["../../completions/_llmc.ps1"],
        ),
        (
            "completions/llmc.elv",
            expect_file!["../../completions/llmc.elv"],
        ),
        ("man/llmc.1", expect_file!["../../man/llmc.1"]),
    ];
    assert_eq!(
        generated.len(),
        files.len(),
        "llmc::docs::generated() lists a file this test does not compare"
    );
    for (rel, expected) in files {
        let text = generated
            .get(rel)
            .unwrap_or_else(|| panic!("{rel} is not generated"));
        // On a mismatch expect-test prints the diff and how to update (`{REGENERATE}`).
        expected.assert_eq(text);
    }
}

/// Runs the binary where no repository is and a broken `llmc.toml` lies: describing
/// llmc needs neither.
fn llmc_anywhere(args: &[&str]) -> std::process::Output {
    let dir = Scratch::empty();
    dir.write("llmc.toml", "this is [not toml\n");
    dir.llmc(args)
}

#[test]
fn the_binary_prints_the_committed_scripts_and_man_page() {
    for (shell, file) in [
        ("bash", "completions/llmc.bash"),
        ("zsh", "completions/_llmc"),
        ("fish", "completions/llmc.fish"),
        ("powershell", "completions/_llmc.ps1"),
        ("elvish", "completions/llmc.elv"),
    ] {
        let out = llmc_anywhere(&["completions", shell]);
        assert!(out.status.success(), "{shell}: {}", stderr(&out));
        let want = std::fs::read_to_string(committed(file)).expect("committed script");
        assert_eq!(stdout(&out), want, "{file} is stale: run `{REGENERATE}`");
    }
    let out = llmc_anywhere(&["man"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let want = std::fs::read_to_string(committed("man/llmc.1")).expect("committed man page");
    assert_eq!(
        stdout(&out),
        want,
        "man/llmc.1 is stale: run `{REGENERATE}`"
    );

    let out = llmc_anywhere(&["completions", "tcsh"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("possible values"), "{}", stderr(&out));
}

/// Whether `program` runs here; if not, says so and the caller skips its check.
fn installed(program: &str) -> bool {
    let found = Command::new(program)
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !found {
        eprintln!("note: {program} is not installed; its check is skipped");
    }
    found
}

fn run(program: &str, args: &[&str]) -> std::process::Output {
    Command::new(program)
        .args(args)
        .env("TERM", "dumb")
        .output()
        .expect("shell runs")
}

#[test]
fn bash_loads_the_script_and_completes_subcommands_and_values() {
    if !installed("bash") {
        return;
    }
    let script = committed("completions/llmc.bash");
    let probe = format!(
        "set -e; source '{}'; complete -p llmc; \
         COMP_WORDS=(llmc gr); COMP_CWORD=1; COMP_LINE='llmc gr'; COMP_POINT=7; _llmc llmc gr llmc; \
         echo \"subcommands: ${{COMPREPLY[*]}}\"; \
         COMP_WORDS=(llmc --color ''); COMP_CWORD=2; COMP_LINE='llmc --color '; COMP_POINT=13; _llmc llmc '' --color; \
         echo \"colors: ${{COMPREPLY[*]}}\"",
        script.display()
    );
    let out = run("bash", &["--norc", "--noprofile", "-c", &probe]);
    let text = stdout(&out);
    assert!(out.status.success(), "{}{}", text, stderr(&out));
    assert!(stderr(&out).is_empty(), "{}", stderr(&out));
    assert!(text.contains("-F _llmc llmc"), "{text}");
    assert!(text.contains("subcommands: graph"), "{text}");
    assert!(text.contains("colors: auto always never"), "{text}");
}

#[test]
fn zsh_loads_the_script_as_the_completion_for_llmc() {
    if !installed("zsh") {
        return;
    }
    let script = committed("completions/_llmc");
    let out = run("zsh", &["-n", &script.display().to_string()]);
    assert!(out.status.success(), "syntax: {}", stderr(&out));
    let probe = format!(
        "autoload -Uz compinit && compinit -u -D && source '{}' && print -r -- \"llmc -> $_comps[llmc]\" && whence -w _llmc",
        script.display()
    );
    let out = run("zsh", &["-f", "-c", &probe]);
    let text = stdout(&out);
    assert!(out.status.success(), "{}{}", text, stderr(&out));
    assert!(stderr(&out).is_empty(), "{}", stderr(&out));
    assert!(text.contains("llmc -> _llmc"), "{text}");
    assert!(text.contains("_llmc: function"), "{text}");
}

#[test]
fn fish_loads_the_script_and_completes_subcommands() {
    if !installed("fish") {
        return;
    }
    let script = committed("completions/llmc.fish");
    let probe = format!(
        "source '{}'; and complete -C 'llmc gr'; and complete -C 'llmc status --color '; \
         and complete -C 'llmc graph --resolution '",
        script.display()
    );
    let out = run("fish", &["--no-config", "-c", &probe]);
    let text = stdout(&out);
    assert!(out.status.success(), "{}{}", text, stderr(&out));
    assert!(stderr(&out).is_empty(), "{}", stderr(&out));
    assert!(text.lines().any(|l| l.starts_with("graph\t")), "{text}");
    assert!(text.lines().any(|l| l.starts_with("always\t")), "{text}");
    assert!(text.lines().any(|l| l == "name-only"), "{text}");
}

#[test]
fn the_man_page_renders_without_warnings() {
    let page = committed("man/llmc.1");
    if installed("groff") {
        let out = run(
            "groff",
            &["-man", "-Tutf8", "-ww", "-z", &page.display().to_string()],
        );
        assert!(out.status.success(), "{}", stderr(&out));
        assert!(stderr(&out).is_empty(), "groff warns: {}", stderr(&out));
    }
    if installed("man") {
        let out = Command::new("man")
            .args(["-l", &page.display().to_string()])
            .env("MANPAGER", "cat")
            .env("MANWIDTH", "80")
            .output()
            .expect("man runs");
        let text = stdout(&out);
        assert!(out.status.success(), "{}", stderr(&out));
        for needle in [
            "NAME",
            "llmc index",
            "llmc graph",
            "--since",
            "EXIT STATUS",
            "NO_COLOR",
        ] {
            assert!(text.contains(needle), "no {needle:?} in\n{text}");
        }
    }
}

/// The README's install lines for one user, run as written under a fresh, empty `HOME`:
/// each must work there and leave its file where the shell or `man` looks.
#[test]
fn the_readme_install_lines_work_in_a_fresh_home() {
    let readme = std::fs::read_to_string(source_tree().join("README.md")).expect("README");
    let block = readme
        .split("To install them for one user:")
        .nth(1)
        .and_then(|rest| rest.split("```sh\n").nth(1))
        .and_then(|b| b.split("```").next())
        .expect("the README's install block");
    // The lines that write a file (the others load a script into a running shell).
    let lines: Vec<&str> = block
        .lines()
        .filter(|l| l.contains(" > ~/"))
        .map(|l| l.split("  #").next().unwrap_or(l).trim())
        .collect();
    assert_eq!(lines.len(), 4, "bash, zsh, fish and man: {block}");
    let home = Scratch::empty();
    let bin_dir = Path::new(env!("CARGO_BIN_EXE_llmc"))
        .parent()
        .expect("bin dir")
        .to_path_buf();
    let path = format!(
        "{}:{}",
        bin_dir.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    for line in &lines {
        let out = Command::new("sh")
            .args(["-c", line])
            .env("HOME", home.path())
            .env("PATH", &path)
            .output()
            .expect("sh runs");
        assert!(
            out.status.success(),
            "`{line}` in a fresh HOME: {}",
            stderr(&out)
        );
    }
    for file in [
        ".local/share/bash-completion/completions/llmc",
        ".zfunc/_llmc",
        ".config/fish/completions/llmc.fish",
        ".local/share/man/man1/llmc.1",
    ] {
        let written = std::fs::read_to_string(home.path().join(file)).unwrap_or_default();
        assert!(written.contains("llmc"), "{file} was not written");
    }
}
